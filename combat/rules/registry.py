"""The rulesets the app knows: this list, plus any the site adds at startup (`register`).

A campaign stores a ruleset's key; the table and the GM's pages reach the ruleset only through
`get_ruleset(key)`. The first ruleset listed is the default of a new campaign.
"""

from __future__ import annotations

from combat.rules import d100, eleora, magus
from combat.rules.base import Ruleset

BUILTIN: tuple[Ruleset, ...] = (eleora.RULESET, magus.RULESET, d100.RULESET)

_rulesets: dict[str, Ruleset] = {r.key: r for r in BUILTIN}


def register(ruleset: Ruleset) -> Ruleset:
    """Add a ruleset (a plugin, or one the tests bring); a key already taken is an error."""
    known = _rulesets.get(ruleset.key)
    if known is not None and known is not ruleset:
        raise ValueError(f"ruleset key already taken: {ruleset.key}")
    _rulesets[ruleset.key] = ruleset
    return ruleset


def get_ruleset(key: str) -> Ruleset:
    try:
        return _rulesets[key]
    except KeyError:
        raise LookupError(f"unknown ruleset: {key}") from None


def ruleset_choices() -> list[tuple[str, str]]:
    return [(r.key, r.label) for r in _rulesets.values()]


def default_key() -> str:
    return BUILTIN[0].key
