"""A Magus round at the table after the declarations: Initiative, the actor's actions with
their odds, the defender's reaction prompt, holds, hidden NPCs and refused commands, as each
viewer is shown them."""

from __future__ import annotations

import pytest
from django.utils import translation

from combat import fragments
from combat.access import Refused
from combat.models import Encounter
from tests.combat.magus_table.helpers import (
    BANDIT,
    HERO1,
    SCOUT,
    MagusTable,
    forms_in,
    make_magus_table,
)

pytestmark = pytest.mark.django_db


def to_initiative(t: MagusTable) -> None:
    t.run(t.gm, {"type": "start_combat"})
    t.run(
        t.p1,
        {"type": "declare", "actor": t.seat(t.hero1), "action": "attack", "weapon": "Miecz"},
    )
    t.run(t.p2, {"type": "declare", "actor": t.seat(t.hero2)})
    for cid, c in t.state.combatants.items():  # the GM declares for its NPCs
        if c.controller is None:
            t.run(t.gm, {"type": "declare", "actor": cid})
    assert t.state.phase == "initiative"


def to_act(t: MagusTable) -> None:
    """Everyone's Initiative is 5 (every die shows 5): the order goes by Zręczność, the first
    player first."""
    to_initiative(t)
    for user in (t.p1, t.p2):
        (roll,) = forms_in(t.html(user, "table-turn"), "roll_initiative")
        t.run(user, roll.command())
    (npcs,) = forms_in(t.html(t.gm, "table-gm"), "roll_initiatives")
    t.run(t.gm, npcs.command())
    assert t.state.phase == "act" and t.state.current == t.seat(t.hero1)


def test_the_initiative_roll_is_offered_to_a_player_for_their_own_seat_only() -> None:
    t = make_magus_table()
    to_initiative(t)
    turn = t.html(t.p1, "table-turn")
    assert "Rzuć na Inicjatywę" in turn
    assert [f.command()["actor"] for f in forms_in(turn, "roll_initiative")] == [t.seat(t.hero1)]
    for_gm = {f.command()["actor"] for f in forms_in(t.html(t.gm, "table-turn"), "roll_initiative")}
    assert for_gm == {t.seat(t.hero1), t.seat(t.hero2)}  # the GM may roll for an absent player
    panel = t.html(t.gm, "table-gm")
    assert "Rzuć Inicjatywę BN" in panel and "Rzuć brakujące Inicjatywy" in panel


def test_once_rolled_the_player_is_no_longer_awaited() -> None:
    t = make_magus_table()
    to_initiative(t)
    (roll,) = forms_in(t.html(t.p1, "table-turn"), "roll_initiative")
    t.run(t.p1, roll.command())
    assert not forms_in(t.html(t.p1, "table-turn"), "roll_initiative")
    status = t.html(t.p2, "table-status")
    assert HERO1 not in status[status.index("Czekamy na:") :]


def test_the_actor_sees_its_legal_actions_and_the_others_do_not() -> None:
    t = make_magus_table()
    to_act(t)
    turn = t.html(t.p1, "table-turn")
    for label in ("Atakuj: Miecz", "Pokaż szanse: Miecz", "Ruch", "Koniec tury", "Więcej"):
        assert label in turn, label
    assert 'id="odds-preview"' in turn and 'data-kind="preview"' in turn
    assert "Powstanie" not in turn  # standing: Powstanie is not offered
    assert "Atakuj" not in t.html(t.p2, "table-turn")


def test_the_attack_form_sends_an_attack_and_its_preview_shows_the_odds() -> None:
    t = make_magus_table()
    to_act(t)
    (form,) = forms_in(t.html(t.p1, "table-turn"), "attack")
    command = form.command(
        values={"c.target": t.seat(t.bandit)}, submitter=form.button("Atakuj: Miecz")
    )
    assert command["weapon"] == "Miecz" and command["blindside"] is False
    preview = fragments.render_preview(t.table, t.viewer(t.p1), command)
    assert BANDIT in preview and "szansa trafienia" in preview


def test_once_the_standard_action_is_spent_the_attack_says_why_once() -> None:
    t = make_magus_table()
    to_act(t)
    t.run(t.p1, {"type": "use_action", "actor": t.seat(t.hero1), "note": "Szuka liny"})
    turn = t.html(t.p1, "table-turn")
    assert not forms_in(turn, "attack")
    assert turn.count("wykonał już akcję standardową") == 1


def test_an_attack_on_an_npc_with_a_talent_opens_a_prompt_for_the_gm() -> None:
    t = make_magus_table()
    to_act(t)
    t.run(
        t.p1,
        {"type": "attack", "actor": t.seat(t.hero1), "target": t.seat(t.bandit), "weapon": "Miecz"},
    )
    (prompt,) = t.state.prompts
    gm = t.html(t.gm, "table-prompts")
    assert f'id="prompt-{prompt.id}"' in gm
    assert f"Test obrony musi osiągnąć wynik ataku: <strong>{prompt.strike.total}</strong>" in gm
    assert "Unik (stopień" in gm and "Riposta (stopień" in gm and "Bez obrony" in gm
    answers = forms_in(gm, "answer")
    assert {f.command().get("option", "") for f in answers} == {"", "unik", "riposta"}
    assert f'id="prompt-{prompt.id}"' not in t.html(t.p1, "table-prompts")
    # The attacker's turn waits for the answer, and says so once.
    assert t.html(t.p1, "table-turn").count(f"Najpierw {BANDIT} musi odpowiedzieć") == 1
    (dodge,) = [f for f in answers if f.command().get("option") == "unik"]
    t.run(t.gm, dodge.command())
    assert not t.state.prompts


def test_a_holder_gets_act_now_on_its_own_card_during_another_turn() -> None:
    t = make_magus_table()
    to_act(t)
    turn = t.html(t.p1, "table-turn")
    (hold,) = forms_in(turn, "hold")
    t.run(t.p1, hold.command(values={"c.trigger": "gdy zbój ruszy"}))
    assert t.state.current == t.seat(t.hero2)
    card = t.html(t.p1, "table-me")
    assert "Działaj teraz" in card and "gdy zbój ruszy" in card
    assert "Działaj teraz" not in t.html(t.p2, "table-me")
    (interrupt,) = forms_in(card, "interrupt")
    t.run(t.p1, interrupt.command())
    assert t.state.current == t.seat(t.hero1)


def test_a_player_never_sees_a_hidden_npc() -> None:
    t = make_magus_table(hidden_scout=True)
    assert SCOUT in t.html(t.gm)
    assert SCOUT not in t.html(t.p1)
    to_act(t)
    assert SCOUT in t.html(t.gm)
    for user in (t.p1, t.p2):
        assert SCOUT not in t.html(user)
    scout = next(cid for cid, c in t.state.combatants.items() if c.name == SCOUT)
    with pytest.raises(Refused) as refused:
        t.run(t.p1, {"type": "attack", "actor": t.seat(t.hero1), "target": scout})
    assert refused.value.message == f"Nie ma takiej postaci: {scout}"


@pytest.mark.parametrize(
    ("who", "command", "message"),
    [
        ("p1", {"type": "roll_initiative"}, "Teraz nie pora na to: trwa faza deklaracje."),
        ("p1", {"type": "end_turn"}, "Teraz nie pora na to: trwa faza deklaracje."),
        ("p1", {"type": "declare", "seat": "hero2"}, "To nie twoja postać."),
        ("p2", {"type": "advance"}, "Tylko Mistrz Gry może to zrobić."),
        ("p1", {"type": "declare", "options": ["agresywny_atak"]}, "wymaga zadeklarowanego ataku"),
    ],
)
def test_a_bad_command_is_refused_in_polish_and_changes_nothing(
    who: str, command: dict[str, object], message: str
) -> None:
    t = make_magus_table()
    t.run(t.gm, {"type": "start_combat"})
    seat = t.seat(t.hero2 if command.pop("seat", "") == "hero2" else t.hero1)
    if command["type"] != "advance":
        command["actor"] = seat
    before, seq = t.state, Encounter.objects.get(pk=t.encounter.pk).seq
    with pytest.raises(Refused) as refused:
        t.run(getattr(t, who), command)
    assert message in refused.value.message
    assert t.state == before and Encounter.objects.get(pk=t.encounter.pk).seq == seq


def test_each_answers_chip_shows_the_chance_that_the_attack_still_hits() -> None:
    t = make_magus_table()
    to_act(t)
    t.run(
        t.p1,
        {"type": "attack", "actor": t.seat(t.hero1), "target": t.seat(t.bandit), "weapon": "Miecz"},
    )
    gm = t.html(t.gm, "table-prompts")
    no_defence = gm[gm.index("Bez obrony") :]
    # The chip under every answer reads "szansa trafienia": without a defence a hit stays one.
    assert '<strong class="odds-num">100%</strong>' in no_defence


def test_a_delayer_gets_step_in_on_its_own_card_between_turns() -> None:
    t = make_magus_table()
    to_act(t)
    (delay,) = [
        f
        for f in forms_in(t.html(t.p1, "table-turn"), "delay")
        if f.command()["next_round"] is False
    ]
    t.run(t.p1, delay.command())
    assert t.state.current == t.seat(t.hero2)
    card = t.html(t.p1, "table-me")
    (step_in,) = forms_in(card, "step_in")
    assert step_in.button("Wejdź teraz")
    t.run(t.p1, step_in.command())
    assert t.state.current == t.seat(t.hero1)


def test_a_simple_action_with_a_test_from_its_form_uses_the_standard_action() -> None:
    """„Jeśli akcja innego rodzaju (simple, free) wymaga wykonania testu innej zdolności,
    wówczas taka kombinacja uznawana jest za standardową akcję”: the form's tick says so."""
    t = make_magus_table()
    to_act(t)
    (simple,) = forms_in(t.html(t.p1, "table-turn"), "simple_action")
    command = simple.command(checked={"c.test=on"})
    assert command["test"] is True
    t.run(t.p1, command)
    assert t.state.get(t.seat(t.hero1)).standard_used


def test_a_rolls_modifiers_read_in_the_viewers_language_in_the_log() -> None:
    """The log's roll details: the modifier reasons are msgids, shown translated."""
    t = make_magus_table()
    t.run(t.gm, {"type": "start_combat"})
    hero = t.seat(t.hero1)
    aggressive = {"action": "attack", "weapon": "Miecz", "options": ["agresywny_atak"]}
    t.run(t.p1, {"type": "declare", "actor": hero, **aggressive})
    t.run(t.p2, {"type": "declare", "actor": t.seat(t.hero2)})
    for cid, c in t.state.combatants.items():
        if c.controller is None:
            t.run(t.gm, {"type": "declare", "actor": cid})
    for user in (t.p1, t.p2):
        (roll,) = forms_in(t.html(user, "table-turn"), "roll_initiative")
        t.run(user, roll.command())
    (npcs,) = forms_in(t.html(t.gm, "table-gm"), "roll_initiatives")
    t.run(t.gm, npcs.command())
    attack = {"type": "attack", "actor": hero, "target": t.seat(t.bandit), "weapon": "Miecz"}
    t.run(t.p1, attack)
    with translation.override("en"):
        english = t.html(t.p1, "table-log")
    polish = t.html(t.p1, "table-log")
    assert "<li>Aggressive attack: +3</li>" in english
    assert "<li>Agresywny atak: +3</li>" in polish
