"""Magus's panels are frozen records of plain values, compared by value: the live table
re-renders a region only when its record changed. Walked through a fight with the engine's
decide and evolve, every panel at every step is hashable, equal when rebuilt from an equal
state, unchanged by what does not concern it and changed by what does."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from combat.rules.base import Fields, RuleViolation
from combat.rules.magus import RULESET
from combat.rules.magus.commands import (
    AddCondition,
    Answer,
    Attack,
    Command,
    Declare,
    EditHealth,
    EndCombat,
    EndTurn,
    Hold,
    MountUp,
    Move,
    PassTime,
    RevealStats,
    RollInitiative,
    RollInitiatives,
    StartCombat,
    SurpriseTest,
)
from combat.rules.magus.state import EncounterState
from combat.rules.magus.table import Ref, Target
from tests.combat.rules import panel_kit
from tests.combat.rules.magus.engine_kit import Table, fighter, shown, steed

EVERYONE = frozenset({"ala", "ola", "ork", "szpieg", "kon"})
PLAYERS = EVERYONE - {"szpieg"}  # the spy is hidden from them
PLAIN = (str, int, float, bool, type(None), Fields)


class Faces:
    """Every die shows `face` (below its maximum: no die explodes)."""

    def __init__(self, face: int = 5) -> None:
        self.face = face

    def randint(self, a: int, b: int) -> int:
        return max(a, min(self.face, b - 1))


def fresh() -> Table:
    spy = {**fighter("szpieg", "b"), "hidden": True}
    return Table(  # by id, as the table keeps a state's mappings (and its JSON has them)
        fighter("ala", "a", "u1"),
        steed("kon", "a", attributes={"zrecznosc": 2}),
        fighter("ola", "a", "u2", attributes={"zrecznosc": 5}),
        fighter("ork", "b", attributes={"zrecznosc": 4}, skills={"unik": 2}),
        spy,
    )


SETUP: tuple[Command, ...] = (
    AddCondition(target="ola", condition="krwotok", rounds=2),
    MountUp(actor="ala", mount="kon"),
    SurpriseTest(side="b"),
    StartCombat(now=0.0),
    Declare(actor="ala", action="attack", weapon="Miecz", target="ork"),
    Declare(actor="ola", action="sustained", rounds=3, note="Zaklęcie"),
    Declare(actor="ork", action="attack", weapon="Miecz", target="ala"),
    Declare(actor="szpieg"),
    Declare(actor="kon"),
    RollInitiative(actor="ala"),
    RollInitiative(actor="ola"),
    RollInitiatives(),
)


def walk() -> Iterator[EncounterState]:
    """Each state of the fight, from the setup to after its end: a mounted hero's attack opens
    the orc's Unik prompt, a hold, a sustained action, a hidden spy, game time passing."""
    t = fresh()
    yield t.state
    for command in SETUP:
        t.do(command, Faces())
        yield t.state
    assert t.state.phase == "act" and t.state.current == "ala"
    t.do(Attack(actor="ala", target="ork", weapon="Miecz", now=50.0), Faces(6))
    yield t.state
    (prompt,) = t.state.prompts
    t.do(Answer(actor="ork", prompt=prompt.id, option="unik", now=51.0), Faces(2))
    yield t.state
    t.do(EndTurn(actor="ala"))
    yield t.state
    while t.state.phase == "act" and t.state.current not in (None, "ola"):
        t.do(EndTurn(actor=str(t.state.current)))
        yield t.state
    for command in (
        Hold(actor="ola", trigger="gdy ork ruszy"),
        EditHealth(target="ala", damage=30),
        EndCombat(winner="a"),
        PassTime(seconds=3600),
    ):
        t.do(command, Faces())
        yield t.state


def panels(state: EncounterState) -> dict[tuple[str, ...], Any]:
    """Every panel of the state, for the GM's sight and a player's."""
    return panel_kit.panels(RULESET, state, EVERYONE, PLAYERS)


def seat_panels(found: dict[tuple[str, ...], Any], cid: str) -> dict[tuple[str, ...], Any]:
    return {key: panel for key, panel in found.items() if key[-1] == cid and key[0] != "turn"}


def test_every_panel_is_a_hashable_record_of_plain_values() -> None:
    shown_kinds = set()
    for state in walk():
        for key, panel in panels(state).items():
            hash(panel)
            panel_kit.assert_plain(panel, "/".join(key))
            if panel is not None:
                shown_kinds.add(key[0])
    assert shown_kinds == {"gm", "turn", "seat", "gm_seat", "prompt"}


def test_a_panel_rebuilt_from_an_equal_state_is_equal() -> None:
    for state in walk():
        again = RULESET.state_from_dict(RULESET.state_to_dict(state))
        assert again is not state
        assert panels(again) == panels(state)


def test_revealing_a_seats_numbers_changes_no_panel() -> None:
    """Revealing the orc's numbers changes what the table's rows show, and no panel."""
    for state in walk():
        revealed = Table.__new__(Table)
        revealed.state, revealed.log = state, []
        revealed.do(RevealStats(target="ork", revealed=True))
        assert panels(revealed.state) == panels(state)


def test_another_seats_wounds_leave_a_seats_panels_equal_and_its_own_change_them() -> None:
    for n, state in enumerate(walk()):
        before = panels(state)
        t = Table.__new__(Table)
        t.state, t.log = state, []
        try:
            t.do(EditHealth(target="ork", damage=state.get("ork").damage + 1, wounds=1))
        except RuleViolation:
            continue
        after = panels(t.state)
        for cid in ("ala", "ola", "szpieg", "kon"):
            assert seat_panels(after, cid) == seat_panels(before, cid), (n, cid)
        assert after["gm_seat", "ork"] != before["gm_seat", "ork"], n
        assert after["gm",] == before["gm",], n


def test_spending_its_movement_changes_its_turn_panel_and_no_one_elses() -> None:
    state = next(s for s in walk() if s.current == "ala" and not s.prompts)
    t = Table.__new__(Table)
    t.state, t.log = state, []
    before = shown(RULESET.turn_panel(state, "ala", PLAYERS))
    t.do(Move(actor="ala", metres=4))
    after = shown(RULESET.turn_panel(t.state, "ala", PLAYERS))
    assert after != before
    assert after.commands["ruch"]["metres"] == before.commands["ruch"]["metres"] - 4
    for cid in ("ola", "ork"):
        assert RULESET.turn_panel(t.state, cid, PLAYERS) == RULESET.turn_panel(state, cid, PLAYERS)
        assert RULESET.seat_panel(t.state, cid, PLAYERS) == RULESET.seat_panel(state, cid, PLAYERS)


def test_the_turn_panel_names_only_whom_the_viewer_sees_with_their_sides() -> None:
    state = next(s for s in walk() if s.current == "ala" and not s.prompts)
    gm, player = (shown(RULESET.turn_panel(state, "ala", seen)) for seen in (EVERYONE, PLAYERS))
    assert player.targets == (
        Target("kon", "Kon", "a"),
        Target("ola", "Ola", "a"),
        Target("ork", "Ork", "b"),
    )
    assert Target("szpieg", "Szpieg", "b") in gm.targets and gm != player
    assert player.mount == Ref("kon", "Kon") and player.attack_target == "ork"
    assert [c.key for c in player.charges] == ["szarza:ola:Miecz", "szarza:ork:Miecz"]  # not kon


def test_a_seats_own_wounds_change_its_seat_panel_after_the_fight() -> None:
    ended = list(walk())[-1]
    t = Table.__new__(Table)
    t.state, t.log = ended, []
    t.do(EditHealth(target="ola", damage=5))
    before, after = (shown(RULESET.seat_panel(s, "ola", PLAYERS)) for s in (ended, t.state))
    assert "test_zdrowienia" in after.commands and after != before
    assert RULESET.seat_panel(t.state, "ala", PLAYERS) == RULESET.seat_panel(ended, "ala", PLAYERS)


def test_the_prompt_panel_holds_the_attack_result_while_the_prompt_is_open() -> None:
    state = next(s for s in walk() if s.prompts)
    (prompt,) = state.prompts
    panel = shown(RULESET.prompt_panel(state, prompt.id))
    assert panel.attack_result == prompt.strike.total and panel.options == ("unik",)
    assert RULESET.prompt_panel(state, "p-none") is None


def test_the_gm_panel_lists_the_declarations_and_sides_in_turn_order() -> None:
    state = next(s for s in walk() if s.phase == "act")
    gm = shown(RULESET.gm_panel(state))
    order = RULESET.table_view(state).order
    assert [cid for cid, _name, _parts in gm.declarations] == list(order)
    assert gm.by_side == (
        ("a", tuple(c for c in order if c in ("ala", "ola", "kon"))),
        ("b", tuple(c for c in order if c in ("ork", "szpieg"))),
    )
    setup, ended = list(walk())[0], list(walk())[-1]
    assert shown(RULESET.gm_panel(setup)).declarations == ()
    assert RULESET.gm_panel(setup) != RULESET.gm_panel(state) != RULESET.gm_panel(ended)
