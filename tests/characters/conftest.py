from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from combat import fragments, services


@pytest.fixture(autouse=True)
def media_root(settings: Any, tmp_path: Path) -> Path:
    """Uploaded portraits go to a fresh folder per test, never to the project's media/."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return Path(settings.MEDIA_ROOT)


@pytest.fixture(autouse=True)
def fresh_table_cache() -> Iterator[None]:
    """The demo data makes tables: each test's database is rolled back and its ids reused, so
    are the snapshot cache and the rendered regions (keyed by table id and seq), as in
    tests/combat/table."""
    services.clear_cache()
    fragments.clear_caches()
    yield
    services.clear_cache()
    fragments.clear_caches()
