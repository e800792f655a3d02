"""The texts the rules make (refusals, why an action is off, prompt cards, badges) come out in
the viewer's language: the rules give Polish msgids and values, the table translates them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.template import Context, Template
from django.utils import translation

from combat import fragments, services
from combat.rules.registry import get_ruleset
from combat.services import Refused
from tests.combat.table.helpers import make_party, start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    yield
    translation.deactivate()


def test_a_refused_command_reads_in_polish_by_default_and_in_english_on_request() -> None:
    party = make_party()
    start(party)  # Radosław acts first
    out_of_turn = {"type": "prepare", "actor": f"c{party.hero2.pk}"}
    with pytest.raises(Refused) as polish:
        services.run_command(party.encounter.pk, out_of_turn, viewer=party.viewer(party.p2))
    assert polish.value.message == "Nie twoja tura: teraz działa Radosław."
    with translation.override("en"), pytest.raises(Refused) as english:
        services.run_command(party.encounter.pk, out_of_turn, viewer=party.viewer(party.p2))
    assert english.value.code == polish.value.code == "nie_twoja_tura"
    assert english.value.message == "Not your turn: Radosław is acting now."


def test_a_disabled_actions_reason_is_in_english_and_so_are_the_rule_terms() -> None:
    party = make_party()
    start(party)
    table = services.load_table(party.encounter.pk)
    me = party.viewer(party.p1)
    polish = fragments.render_one(table, me, "table-turn")
    assert "Nie ma broni do przeładowania." in polish
    with translation.override("en"):
        english = fragments.render_one(table, me, "table-turn")
    assert "No weapon to reload." in english
    assert "The character is not Prone." in english
    assert "Nie ma broni do przeładowania." not in english
    # Action names are the English digest's terms: Przygotowanie the action is not "Setup".
    for term in ["Reload", "Prepare", "Aim", "Guard"]:
        assert f">{term}<" in english, term
    for term in ["Przeładowanie", "Przygotowanie", "Celowanie", "Zasłona", "Setup"]:
        assert term not in english, term


def test_a_prompt_card_reads_in_english() -> None:
    party = make_party()
    state = start(party)
    hero1, hero2, bandit = (f"c{c.pk}" for c in (party.hero1, party.hero2, party.bandit))
    for actor in (hero1, hero2):
        services.run_command(
            party.encounter.pk, {"type": "end_turn", "actor": actor}, viewer=party.gm_viewer
        )
    weapon = state.combatants[bandit].sheet.weapons[0].name
    services.run_command(
        party.encounter.pk,
        {"type": "declare_attack", "actor": bandit, "target": hero1, "weapon": weapon},
        viewer=party.gm_viewer,
    )
    table = services.load_table(party.encounter.pk)
    with translation.override("en"):
        (card,) = fragments.prompt_cards(get_ruleset(table.ruleset), table, party.viewer(party.p1))
    assert card.label == f"Attack: Bandyta → Radosław ({weapon})"
    assert dict(card.options) == {"parowanie": "Parry", "unik": "Dodge", "": "Nothing"}


def test_the_tr_tag_translates_fills_and_falls_back() -> None:
    template = Template("{% load table %}{% tr msgid params fallback %}")

    def render(msgid: str, params: dict[str, object], fallback: str = "") -> str:
        context = Context({"msgid": msgid, "params": params, "fallback": fallback})
        return template.render(context)

    with translation.override("en"):
        assert render("Inicjatywa rzucona: %(rolled)s.", {"rolled": "3 + 4"}) == (
            "Initiative rolled: 3 + 4."
        )
        assert render("Nie twoja tura: teraz działa %(name)s.", {}, "Nie twoja tura.") == (
            "Nie twoja tura."
        )
        assert render("", {}, "Walka nie trwa.") == "Walka nie trwa."
        assert render("Pole %(square)s zajmuje %(name)s.", {"square": "(1, 2)", "name": "<b>"}) == (
            "Square (1, 2) is taken by &lt;b&gt;."
        )
