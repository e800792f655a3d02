"""Suite-wide settings: hypothesis measures correctness here, not speed (speed has `make bench`)."""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("eleora", deadline=None)
settings.load_profile("eleora")
