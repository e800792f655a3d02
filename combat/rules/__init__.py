"""Pure rules engines for the combat table.

No Django, no I/O, no clock, no global random: dice come from an injected RNG and every roll
comes back as data. The encounter layer reaches a ruleset through `get_ruleset(key)` and the
`Ruleset` protocol in `base.py`, never by naming Eleora, Magus or d100.
"""

from __future__ import annotations

from combat.rules.base import Ruleset, RuleViolation, get_ruleset, ruleset_choices

__all__ = ["RuleViolation", "Ruleset", "get_ruleset", "ruleset_choices"]
