"""Settings for the test suite: the site's own, plus the rulesets that live in the tests.

`EXTRA_RULESETS` ("module:attribute" paths) are registered by `combat.apps` at startup, beside
the built-in ones; each brings its partials in a template directory of its own.
"""

from __future__ import annotations

import os
from typing import Any, cast

from eleora_site.settings import *  # noqa: F403
from eleora_site.settings import BASE_DIR, TEMPLATES

EXTRA_RULESETS = ["tests.duel:RULESET"]

_site = cast(dict[str, Any], TEMPLATES[0])
TEMPLATES = [{**_site, "DIRS": [*_site["DIRS"], BASE_DIR / "tests" / "duel" / "templates"]}]

# A server clock the browser tests move (combat/clock.py): the file holds the seconds to add.
CLOCK_OFFSET_FILE = os.environ.get("CLOCK_OFFSET_FILE") or None
# No sweeper in the test process (its tests call `combat.sweeps.sweep` themselves); the browser
# tests' server sets SWEEP_S to sweep often.
SWEEP_S = float(os.environ.get("SWEEP_S", "0"))

# No mail thread in the test process: its tests deliver the queued mails themselves
# (`characters.outbox.deliver`); the browser tests' server sets MAIL_THREAD=1.
MAIL_THREAD = os.environ.get("MAIL_THREAD", "0") == "1"

# pytest-xdist's workers each have a database of their own, so their encounters share primary
# keys; on one Redis their tables' groups would cross (a worker's fan-out reaching another
# worker's table of the same pk). Each worker's channel layer gets a prefix of its own.
if "redis" in CHANNEL_LAYERS["default"]["BACKEND"].lower():  # noqa: F405
    _layer = CHANNEL_LAYERS["default"]  # noqa: F405
    _layer["CONFIG"]["prefix"] = "asgi-" + os.environ.get("PYTEST_XDIST_WORKER", "main")
