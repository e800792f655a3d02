"""Small builders for the presentation tests (narrate, table, prompts, autoplay)."""

from __future__ import annotations

from typing import Any

from combat.rules.d100.check import TestRoll, make_test
from combat.rules.d100.settings import D100Settings
from combat.rules.d100.sheet import validate_sheet
from combat.rules.d100.state import Combatant, EncounterState

SETTINGS = D100Settings()


def sheet(**over: Any) -> dict[str, Any]:
    """A valid sheet: every attribute 50, a sabre, 100 PŻ (`over` replaces top-level keys)."""
    data: dict[str, Any] = {
        "attributes": {
            "zwinnosc": 50,
            "zmysly": 50,
            "krzepa": 50,
            "wytrzymalosc": 50,
            "intelekt": 50,
            "oglada": 50,
        },
        "skills": {"akrobatyka": 30, "medycyna": 0},
        "pz": 100,
        "weapons": [{"name": "Szabla", "kind": "traditional"}],
    }
    data.update(over)
    return validate_sheet(data, SETTINGS)


def fighter(
    cid: str,
    name: str,
    side: str = "a",
    controller: str | None = None,
    *,
    pz: int | None = None,
    **over: Any,
) -> Combatant:
    s = sheet(**over)
    return Combatant(
        id=cid,
        name=name,
        side=side,
        sheet=s,
        max_pz=s["pz"],
        pz=s["pz"] if pz is None else pz,
        controller=controller,
    )


def table(
    *combatants: Combatant, settings: D100Settings = SETTINGS, **fields: Any
) -> EncounterState:
    return EncounterState(settings=settings, combatants={c.id: c for c in combatants}, **fields)


def test_roll(
    roll: int, *, label: str = "Trafienie", attribute: str = "zwinnosc", base: int = 50,
    modifiers: tuple[tuple[str, int], ...] = (),
) -> TestRoll:  # fmt: skip
    return make_test(
        SETTINGS, label=label, attribute=attribute, base=base, modifiers=modifiers, roll=roll
    )


test_roll.__test__ = False  # type: ignore[attr-defined]
