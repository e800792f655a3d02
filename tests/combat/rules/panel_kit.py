"""What the rulesets' panel tests share: every panel of a state, and the check that a panel is
a frozen record of plain values (`combat.rules.base.Panel`)."""

from __future__ import annotations

import dataclasses
from typing import Any

from combat.rules.base import Fields, LegalAction

PLAIN = (str, int, float, bool, type(None), frozenset)


def panels(
    ruleset: Any, state: Any, everyone: frozenset[str], players: frozenset[str]
) -> dict[tuple[str, ...], Any]:
    """Every panel of the state, for the GM's sight (`everyone`) and a player's (`players`)."""
    found: dict[tuple[str, ...], Any] = {("gm",): ruleset.gm_panel(state)}
    for seen, who in ((everyone, "gm"), (players, "player")):
        for cid in sorted(state.combatants):
            found["turn", who, cid] = ruleset.turn_panel(state, cid, seen)
            found["seat", who, cid] = ruleset.seat_panel(state, cid, seen)
    for cid in sorted(state.combatants):
        found["gm_seat", cid] = ruleset.gm_seat_panel(state, cid)
    for p in state.prompts:
        found["prompt", p.id] = ruleset.prompt_panel(state, p.id)
    return found


def assert_plain(value: Any, where: str) -> None:
    """A frozen record of plain immutable values: no state, combatant, list or dict."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        assert type(value).__dataclass_params__.frozen, where  # type: ignore[attr-defined]
        if not isinstance(value, LegalAction):  # its params are Fields, checked below
            assert hasattr(type(value), "__slots__"), where
        for f in dataclasses.fields(value):
            assert_plain(getattr(value, f.name), f"{where}.{f.name}")
    elif isinstance(value, tuple):
        for k, item in enumerate(value):
            assert_plain(item, f"{where}[{k}]")
    elif isinstance(value, Fields):
        for key, item in value.items():
            assert_plain(item, f"{where}[{key!r}]")
    else:
        assert isinstance(value, PLAIN), f"{where}: {type(value).__name__}"
