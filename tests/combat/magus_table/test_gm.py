"""The GM's Magus controls at the table: starting with a surprised side, ending the fight,
and each seat's health, conditions and sustained action, through the forms they render."""

from __future__ import annotations

import json

import pytest

from tests.combat.magus_table.helpers import HERO2, MagusTable, forms_in, make_magus_table

pytestmark = pytest.mark.django_db


def gm_row(t: MagusTable, seat: str) -> str:
    html = t.html(t.gm, "table-order")
    start = html.index(f'id="row-{seat}"')
    end = html.find('id="row-', start + 1)
    return html[start : end if end > 0 else len(html)]


def test_the_gm_starts_the_fight_with_a_surprised_side() -> None:
    t = make_magus_table()
    (start,) = forms_in(t.html(t.gm, "table-gm"), "start_combat")
    (choice,) = [f for f in start.fields if f.tag == "select"]
    party = next(v for v, _ in choice.options if t.seat(t.hero1) in v)
    assert set(json.loads(party)) == {t.seat(t.hero1), t.seat(t.hero2)}
    t.run(t.gm, start.command(values={"c.surprised": party}))
    assert t.state.get(t.seat(t.hero1)).has("zaskoczony")
    assert t.state.get(t.seat(t.hero2)).has("zaskoczony")
    assert not t.state.get(t.seat(t.bandit)).has("zaskoczony")
    # The surprised do not declare in round 1: only the bandit is awaited.
    assert [f.command()["actor"] for f in forms_in(t.html(t.gm, "table-turn"), "declare")] == [
        t.seat(t.bandit)
    ]
    assert not forms_in(t.html(t.p1, "table-turn"), "declare")


def test_the_players_see_no_gm_controls() -> None:
    t = make_magus_table()
    t.run(t.gm, {"type": "start_combat"})
    for user in (t.p1, t.p2):
        html = t.html(user)
        for kind in ("advance", "edit_health", "add_condition", "end_combat", "start_combat"):
            assert not forms_in(html, kind), kind


def test_the_gm_sets_health_and_puts_a_condition_on_and_off() -> None:
    t = make_magus_table()
    t.run(t.gm, {"type": "start_combat"})
    seat = t.seat(t.hero1)
    (health,) = forms_in(gm_row(t, seat), "edit_health")
    t.run(t.gm, health.command(values={"c.damage": 7, "c.wounds": 1}))
    hero = t.state.get(seat)
    assert (hero.damage, hero.stun, hero.wounds) == (7, 0, 1)
    (add,) = forms_in(gm_row(t, seat), "add_condition")
    t.run(t.gm, add.command(values={"c.condition": "krwotok", "c.rounds": 2}))
    assert t.state.get(seat).has("krwotok")
    (remove,) = forms_in(gm_row(t, seat), "remove_condition")
    assert remove.button("Usuń: Krwotok")
    t.run(t.gm, remove.command())
    assert not t.state.get(seat).has("krwotok")


def test_the_gm_records_the_end_of_round_test_of_a_sustained_action() -> None:
    t = make_magus_table()
    t.run(t.gm, {"type": "start_combat"})
    seat = t.seat(t.hero2)
    declaration = {"action": "sustained", "rounds": 2, "note": "Zaklinam most"}
    t.run(t.p2, {"type": "declare", "actor": seat, **declaration})
    row = gm_row(t, seat)
    assert "Działanie podtrzymywane „Zaklinam most”: 0 z 2 rund." in row
    (check,) = forms_in(row, "sustained_check")
    t.run(t.gm, check.command(values={"c.skill": "percepcja", "c.dn": 5}))
    (test,) = forms_in(gm_row(t, seat), "sustained_test")
    assert "percepcja przeciw 5" in gm_row(t, seat)
    t.run(t.gm, test.command(submitter=test.button("udany")))
    assert t.state.get(seat).sustained_result is True


def test_the_gm_declares_for_an_absent_player() -> None:
    t = make_magus_table()
    t.run(t.gm, {"type": "start_combat"})
    turn = t.html(t.gm, "table-turn")
    assert "Zadeklaruj za gracza" in turn
    (form,) = [f for f in forms_in(turn, "declare") if f.command()["actor"] == t.seat(t.hero2)]
    t.run(t.gm, form.command(values={"c.action": "test"}))
    assert t.state.get(t.seat(t.hero2)).declared
    status = t.html(t.p1, "table-status")
    assert HERO2 not in status[status.index("Czekamy na:") :]


def test_the_gm_ends_the_fight_with_a_winner() -> None:
    t = make_magus_table()
    t.run(t.gm, {"type": "start_combat"})
    (end,) = forms_in(t.html(t.gm, "table-gm"), "end_combat")
    winner = t.state.get(t.seat(t.hero1)).side
    t.run(t.gm, end.command(values={"c.winner": winner}))
    assert (t.state.stage, t.state.winner) == ("ended", winner)
    assert "Starcie zakończone" in t.html(t.p1, "table-status")


def test_the_gm_runs_the_surprise_test_of_a_side_before_the_fight() -> None:
    t = make_magus_table()
    side = t.state.get(t.seat(t.hero1)).side
    tests = forms_in(t.html(t.gm, "table-gm"), "surprise_test")
    (party,) = [f for f in tests if f.command()["side"] == side]
    command = party.command(values={"c.darkness": "full"}, checked={"c.dusk=on"})
    assert (command["darkness"], command["dusk"], command["camouflage"]) == ("full", True, False)
    t.run(t.gm, command)
    assert side in t.state.surprise_sides
    assert "Ta strona już testowała zaskoczenie." in t.html(t.gm, "table-gm")


def test_the_gm_lets_game_time_pass() -> None:
    t = make_magus_table()
    (hour,) = [
        f for f in forms_in(t.html(t.gm, "table-gm"), "pass_time") if f.command()["seconds"] == 3600
    ]
    t.run(t.gm, hour.command())
    assert t.state.time_s == 3600
    assert "60 min od początku" in t.html(t.gm, "table-gm")


def test_an_unconscious_players_card_offers_what_the_recovery_rules_allow() -> None:
    t = make_magus_table()
    t.run(t.gm, {"type": "start_combat"})
    seat = t.seat(t.hero1)
    (health,) = forms_in(gm_row(t, seat), "edit_health")
    t.run(t.gm, health.command(values={"c.damage": 31}))
    card = t.html(t.p1, "table-me")
    assert "testy zdrowienia: 2" in card
    offered = {f.command()["type"] for f in forms_in(card)}
    assert offered == {"recovery_test"}
    assert not forms_in(t.html(t.p2, "table-me"), "recovery_test")
