"""The declaration phase at a Magus table, as each viewer is shown it: hidden declarations
until the reveal, the "czekamy na" list, the declaration form and what it sends."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.combat.magus_table.helpers import (
    BANDIT,
    HERO1,
    HERO2,
    MagusTable,
    forms_in,
    make_magus_table,
)

pytestmark = pytest.mark.django_db

# What each declaration reads as (`narrate.declaration_text`): nothing else on the page says it.
ATTACK_TEXT = f"atak (Miecz) → {BANDIT}"
SUSTAINED_NOTE = "Zaklinam most"


def declare_both(t: MagusTable) -> None:
    """Round 1: the first player attacks the bandit aggressively, the second starts a
    sustained action; the bandit (the GM's) has not declared yet."""
    t.run(t.gm, {"type": "start_combat"})
    t.run(
        t.p1,
        {
            "type": "declare",
            "actor": t.seat(t.hero1),
            "action": "attack",
            "weapon": "Miecz",
            "target": t.seat(t.bandit),
            "options": ["agresywny_atak"],
        },
    )
    t.run(
        t.p2,
        {
            "type": "declare",
            "actor": t.seat(t.hero2),
            "action": "sustained",
            "rounds": 2,
            "note": SUSTAINED_NOTE,
        },
    )


def test_it_hides_each_players_declaration_from_the_other_until_the_reveal() -> None:
    t = make_magus_table()
    declare_both(t)
    assert t.state.phase == "declare"
    first, second, gm = t.html(t.p1), t.html(t.p2), t.html(t.gm)
    assert ATTACK_TEXT in first and SUSTAINED_NOTE not in first
    assert SUSTAINED_NOTE in second and ATTACK_TEXT not in second
    assert ATTACK_TEXT in gm and SUSTAINED_NOTE in gm
    # Everyone is told that both declared, not what.
    assert f"{HERO1} zadeklarował(a)." in second and f"{HERO2} zadeklarował(a)." in first


def test_it_shows_every_declaration_to_everyone_after_the_reveal() -> None:
    t = make_magus_table()
    declare_both(t)
    t.run(t.gm, {"type": "declare", "actor": t.seat(t.bandit)})  # the last: the reveal follows
    assert t.state.phase == "initiative"
    for user in (t.p1, t.p2, t.gm):
        html = t.html(user)
        assert ATTACK_TEXT in html and SUSTAINED_NOTE in html


def test_the_gm_may_reveal_before_everyone_has_declared() -> None:
    t = make_magus_table()
    declare_both(t)
    (reveal,) = forms_in(t.html(t.gm, "table-gm"), "advance")
    t.run(t.gm, reveal.command())
    assert t.state.phase == "initiative"
    assert ATTACK_TEXT in t.html(t.p2) and SUSTAINED_NOTE in t.html(t.p1)


def test_the_status_bar_lists_whom_the_table_still_waits_for() -> None:
    t = make_magus_table()
    t.run(t.gm, {"type": "start_combat"})
    t.run(t.p1, {"type": "declare", "actor": t.seat(t.hero1)})
    for user in (t.p1, t.p2, t.gm):
        status = t.html(user, "table-status")
        waiting = status[status.index("Czekamy na:") :]
        assert HERO2 in waiting and BANDIT in waiting and HERO1 not in waiting
        assert "data-deadline" in status  # the declaration countdown


def test_the_gm_panel_shows_the_content_of_every_declaration() -> None:
    t = make_magus_table()
    declare_both(t)
    panel = t.html(t.gm, "table-gm")
    assert "Deklaracje (widzi tylko MG do odkrycia)" in panel
    assert ATTACK_TEXT in panel and SUSTAINED_NOTE in panel
    assert "Odkryj deklaracje" in panel


def test_a_player_declares_only_for_their_own_seat_and_the_gm_for_every_one() -> None:
    t = make_magus_table()
    t.run(t.gm, {"type": "start_combat"})
    mine = forms_in(t.html(t.p1, "table-turn"), "declare")
    assert [f.command()["actor"] for f in mine] == [t.seat(t.hero1)]
    every = {f.command()["actor"] for f in forms_in(t.html(t.gm, "table-turn"), "declare")}
    assert every == {t.seat(t.hero1), t.seat(t.hero2), t.seat(t.bandit)}


def test_the_declaration_form_sends_a_declaration_the_rules_take() -> None:
    t = make_magus_table()
    t.run(t.gm, {"type": "start_combat"})
    (form,) = forms_in(t.html(t.p1, "table-turn"), "declare")
    command = form.command(
        values={"c.action": "attack", "c.target": t.seat(t.bandit), "c.move": 6, "c.simple": 1},
        checked={"c.options=agresywny_atak", "c.options=ruch_dzielony"},
    )
    assert command["options"] == ["agresywny_atak", "ruch_dzielony"]
    assert command["weapon"] == "Miecz" and "spell" not in command
    t.run(t.p1, command)
    declared = t.state.get(t.seat(t.hero1)).declaration
    assert declared.options == ("agresywny_atak", "ruch_dzielony")
    assert (declared.action, declared.target, declared.move, declared.simple) == (
        "attack",
        t.seat(t.bandit),
        6,
        1,
    )


def test_each_option_shows_its_strain_and_once_paid_is_marked_paid() -> None:
    t = make_magus_table()
    declare_both(t)
    turn = t.html(t.p1, "table-turn")
    assert "Twoja deklaracja:" in turn and ATTACK_TEXT in turn
    assert "Agresywny atak · Wyczerpanie 1" in turn and "Postawa obronna</span>" in turn
    assert "opłacone" in turn and "Zmień deklarację" in turn
    (form,) = forms_in(turn, "declare")
    assert form.command()["options"] == ["agresywny_atak"]  # the current choice stays ticked
    assert "opłacone" not in t.html(t.p2, "table-turn")


def test_a_knocked_down_character_sees_its_options_disabled_with_the_reason_once() -> None:
    t = make_magus_table()
    t.run(t.gm, {"type": "start_combat"})
    down = {"type": "add_condition", "actor": "gm", "condition": "powalony"}
    t.run(t.gm, {**down, "target": t.seat(t.hero1)})
    turn = t.html(t.p1, "table-turn")
    assert turn.count("Powalona postać nie może używać opcji walki.") == 1
    (form,) = forms_in(turn, "declare")
    options = [f for f in form.fields if f.attrs.get("name") == "c.options"]
    assert options and all("disabled" in f.attrs for f in options)
    assert "options" not in form.command(checked={"c.options=bieg"})


def test_the_strain_paid_on_declaring_does_not_tell_the_other_player_the_options() -> None:
    t = make_magus_table()
    t.run(t.gm, {"type": "start_combat"})
    before = t.html(t.p2, "table-order")
    t.run(
        t.p1,
        {
            "type": "declare",
            "actor": t.seat(t.hero1),
            "action": "attack",
            "weapon": "Miecz",
            "options": ["agresywny_atak"],
        },
    )
    row = f'id="row-{t.seat(t.hero1)}"'
    after = t.html(t.p2, "table-order")

    def seat_row(html: str) -> str:
        start = html.index(row)
        end = html.find('id="row-', start + 1)
        return html[start : end if end > 0 else len(html)]

    assert seat_row(after) == seat_row(before)


def test_a_players_declaration_leaves_the_gms_forms_as_they_are() -> None:
    """The socket pushes a region only when its HTML changes: the GM's half-filled form for
    the bandit survives a player declaring (their content shows in the GM's panel)."""
    t = make_magus_table()
    t.run(t.gm, {"type": "start_combat"})
    before = t.html(t.gm, "table-turn")
    t.run(t.p1, {"type": "declare", "actor": t.seat(t.hero1), "action": "test"})
    assert t.html(t.gm, "table-turn") == before
    assert "Zadeklaruj za gracza" in before
    assert f"<dt>{HERO1}</dt><dd>test</dd>" in t.html(t.gm, "table-gm")


def test_the_declaration_summary_is_shown_in_the_viewers_language() -> None:
    t = make_magus_table()
    declare_both(t)
    english = f"attack (Miecz) → {BANDIT}; Aggressive attack"
    with translation.override("en"):
        turn, gm = t.html(t.p1, "table-turn"), t.html(t.gm, "table-gm")
    assert "Your declaration:" in turn and english in turn
    assert english in gm and "Agresywny atak" not in gm
    with translation.override("pl"):
        assert f"{ATTACK_TEXT}; Agresywny atak" in t.html(t.p1, "table-turn")
    t.run(t.gm, {"type": "declare", "actor": t.seat(t.bandit)})  # the reveal
    with translation.override("en"):
        me, seats = t.html(t.p1, "table-me"), t.html(t.gm, "table-order")
    assert english in me + seats
