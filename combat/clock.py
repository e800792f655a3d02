"""The server's clock: `now()` in epoch seconds, everywhere the table needs the time.

Deadlines are absolute epoch seconds in the state, so a clock that jumps is a clock that makes
deadlines pass. The browser tests move a server's clock forward (a by-post turn's deadline
days away) through `CLOCK_OFFSET_FILE`, a setting only the test settings give: a file holding
the seconds to add. Without the setting this is `time.time()`.
"""

from __future__ import annotations

import time
from pathlib import Path

from django.conf import settings


def now() -> float:
    path = getattr(settings, "CLOCK_OFFSET_FILE", None)
    return time.time() + (_offset(Path(path)) if path else 0.0)


def _offset(path: Path) -> float:
    try:
        return float(path.read_text().strip() or 0)
    except (OSError, ValueError):
        return 0.0
