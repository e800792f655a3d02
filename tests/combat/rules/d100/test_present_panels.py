"""d100's panels are frozen records of plain values, compared by value: the live table
re-renders a region only when its record changed. Walked through a fight in both paces with
the engine's decide and evolve, every panel at every step is hashable, equal when rebuilt from
an equal state, unchanged by what does not concern it and changed by what does."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from combat.rules.base import Fields
from combat.rules.d100 import RULESET, engine
from combat.rules.d100.commands import (
    AddCondition,
    Attack,
    Cast,
    Command,
    Damage,
    Defend,
    EndCombat,
    EndTurn,
    Expire,
    GMRoll,
    Post,
    ResolveTurn,
    Rest,
    SetPace,
    StartCombat,
)
from combat.rules.d100.prompts import PromptPanel
from combat.rules.d100.state import Action, EncounterState
from combat.rules.d100.table import Target
from tests.combat.rules import panel_kit
from tests.combat.rules.d100.engine_kit import Table, fighter

EVERYONE = frozenset({"ala", "bob", "ork", "szpieg"})
PLAYERS = frozenset({"ala", "bob", "ork"})  # the spy is hidden from them
PLAIN = (str, int, float, bool, type(None), Fields)
SPELLS = [{"name": "Ogień", "kind": "damage"}, {"name": "Tarcza", "kind": "positive"}]
DAY = 24 * 3600


def fresh() -> Table:
    return Table(
        fighter("ala", "a", "u1", zwinnosc=60),
        fighter("bob", "a", "u2", zwinnosc=55, spells=SPELLS, shield=True),
        fighter("ork", "b", zwinnosc=50, armour="light"),
        fighter("szpieg", "b", zwinnosc=40, hidden=True),
    )


FIGHT: tuple[Command, ...] = (
    AddCondition(target="bob", condition="krwawienie", turns=3, value=2),
    StartCombat(now=1.0),
    Attack(actor="ala", target="ork", now=2.0),
    EndTurn(actor="ala", now=3.0),
    Cast(actor="bob", spell=0, target="ork", now=4.0),
    EndTurn(actor="bob", now=5.0),
    Attack(actor="ork", target="bob", now=6.0),
    EndTurn(actor="ork", now=6.5),
    EndTurn(actor="szpieg", now=6.6),
    SetPace(pace="post", now=7.0),
    Post(actor="ala", action=Action("attack", target="ork", choice="w0"), text="Tnę.", now=8.0),
    Expire(now=8.0 + 2 * DAY),
    ResolveTurn(now=9.0 + 2 * DAY),
    EndCombat(winner="a"),
)


def walk() -> Iterator[EncounterState]:
    """Each state of a fight: the setup with a condition, live turns with an attack, a cast
    and their prompts (each answered with Unik), the switch to posts, a post, the deadline
    passing, the turn resolved, the end."""
    t = fresh()
    yield t.state
    for n, command in enumerate(FIGHT):
        t.random(command, seed=n)
        yield t.state
        for prompt in t.state.prompts if t.state.pace == "live" else ():
            t.random(Defend(actor=prompt.actor, prompt=prompt.id, option="unik"), seed=50 + n)
            yield t.state


def step(state: EncounterState, command: Command, seed: int = 0) -> EncounterState:
    return RULESET.replay(state, RULESET.decide(state, command, random.Random(seed)))


def panels(state: EncounterState) -> dict[tuple[str, ...], Any]:
    """Every panel of the state, for the GM's sight and a player's."""
    return panel_kit.panels(RULESET, state, EVERYONE, PLAYERS)


def seat_panels(found: dict[tuple[str, ...], Any], cid: str) -> dict[tuple[str, ...], Any]:
    """A seat's own panels: its turn and seat panels (either sight) and the GM's seat panel."""
    return {key: panel for key, panel in found.items() if key[0] != "prompt" and key[-1] == cid}


def test_every_panel_is_a_hashable_record_of_plain_values() -> None:
    shown = set()
    stages = set()
    for state in walk():
        stages.add((state.stage, state.pace, bool(state.prompts), state.closed))
        for key, panel in panels(state).items():
            hash(panel)
            panel_kit.assert_plain(panel, "/".join(key))
            if panel is not None:
                shown.add(key[0])
    assert shown == {"gm", "turn", "seat", "gm_seat", "prompt"}
    assert {("setup", "live", False, False), ("running", "live", True, False)} <= stages
    assert {("running", "post", False, True), ("ended", "post", False, False)} <= stages


def test_a_panel_rebuilt_from_an_equal_state_is_equal() -> None:
    for state in walk():
        again = RULESET.state_from_dict(RULESET.state_to_dict(state))
        assert again is not state
        assert panels(again) == panels(state)


def test_a_log_only_entry_changes_no_panel() -> None:
    for n, state in enumerate(walk()):
        rolled = step(state, GMRoll(label="Zasadzka", threshold=40, secret=True), seed=100 + n)
        assert panels(rolled) == panels(state), n


def test_another_seats_wounds_leave_a_seats_panels_equal_and_its_own_change_them() -> None:
    hurt_at = 0
    for n, state in enumerate(walk()):
        wound = Damage(target="ork", amount=5, injuries=1)
        if engine.refusal(state, wound) is not None:
            continue  # the fight is over
        before, after = panels(state), panels(step(state, wound, seed=200 + n))
        for cid in ("ala", "bob", "szpieg"):
            assert seat_panels(after, cid) == seat_panels(before, cid), (n, cid)
        assert after["gm_seat", "ork"] != before["gm_seat", "ork"]
        assert after["seat", "gm", "ork"] != before["seat", "gm", "ork"]  # its Urazy
        hurt_at += 1
    assert hurt_at >= 10


def test_spending_its_action_changes_its_turn_panel_and_no_other_seats() -> None:
    state = next(s for s in walk() if s.stage == "running" and s.current == "ala")
    assert not state.prompts
    rested = step(state, Rest(actor="ala"))
    before, after = panels(state), panels(rested)
    assert after["turn", "player", "ala"] != before["turn", "player", "ala"]
    spent = {a.key: a.available for a in after["turn", "player", "ala"].actions}
    assert not spent["atak"] and spent["koniec_tury"]
    for cid in ("bob", "ork", "szpieg"):
        assert seat_panels(after, cid) == seat_panels(before, cid), cid


def test_a_post_changes_its_own_panels_and_the_gms_not_another_seats() -> None:
    state = next(s for s in walk() if s.pace == "post" and s.stage == "running")
    posted = step(state, Post(actor="bob", action=Action("rest"), text="Oddycham.", now=7.5))
    before, after = panels(state), panels(posted)
    assert after["seat", "player", "bob"] != before["seat", "player", "bob"]
    assert after["turn", "player", "bob"] != before["turn", "player", "bob"]
    assert after["gm",] != before["gm",]
    for cid in ("ala", "ork", "szpieg"):
        assert seat_panels(after, cid) == seat_panels(before, cid), cid


def test_a_prompt_panel_ignores_another_seats_wounds_and_follows_its_target() -> None:
    state = next(s for s in walk() if s.prompts)
    (prompt,) = state.prompts
    panel = RULESET.prompt_panel(state, prompt.id)
    assert isinstance(panel, PromptPanel) and panel.means
    other = "bob" if prompt.actor != "bob" else "ala"
    assert RULESET.prompt_panel(step(state, Damage(target=other, amount=5)), prompt.id) == panel
    dropped = step(state, Damage(target=prompt.actor, amount=500))
    fallen = RULESET.prompt_panel(dropped, prompt.id)
    assert fallen is not None and fallen.fallen and fallen != panel
    assert RULESET.prompt_panel(state, "p-none") is None


def test_a_players_panels_name_no_hidden_seat() -> None:
    for state in walk():
        found = panels(state)
        for cid in ("ala", "bob"):
            player, gm = found["turn", "player", cid], found["turn", "gm", cid]
            assert "szpieg" not in {t.id for t in player.targets}
            if state.stage == "running":
                assert Target("szpieg", "Szpieg", "b") in gm.targets
