"""Settings for the test suite: the site's own, plus the rulesets that live in the tests.

`EXTRA_RULESETS` ("module:attribute" paths) are registered by `combat.apps` at startup, beside
the built-in ones; each brings its partials in a template directory of its own.
"""

from __future__ import annotations

from typing import Any, cast

from eleora_site.settings import *  # noqa: F403
from eleora_site.settings import BASE_DIR, TEMPLATES

EXTRA_RULESETS = ["tests.duel:RULESET"]

_site = cast(dict[str, Any], TEMPLATES[0])
TEMPLATES = [{**_site, "DIRS": [*_site["DIRS"], BASE_DIR / "tests" / "duel" / "templates"]}]
