"""Pojedynek (key `duel`): a tiny second ruleset that lives in the tests.

One d20 to hit, one d100 to parry, initiative every round. It implements the `Ruleset` core
and the `Prompts` capability of `combat.rules.base` and nothing else, so the table must run
it, and hide the odds and the simulator, without naming it. Pure like `combat/rules`: no
Django, RNG injected, every roll returned as data. The test settings register it
(`tests/settings.py`: `EXTRA_RULESETS = ["tests.duel:RULESET"]`) with its partials in
`tests/duel/templates/combat/rulesets/duel/`.
"""

from __future__ import annotations

from tests.duel.ruleset import RULESET

__all__ = ["RULESET"]
