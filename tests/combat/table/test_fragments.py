"""Regions rendered once and shared by every viewer of an audience: what one viewer may not
see never reaches them through what was rendered for another, in whatever order they ask."""

from __future__ import annotations

import re
from collections.abc import Iterator

import lxml.html
import pytest
from django.urls import reverse
from django.utils import translation

from characters.models import Character
from combat import fragments, services
from tests.characters.helpers import client_for
from tests.combat.table.helpers import Party, make_hero, make_party, start

pytestmark = pytest.mark.django_db

SECRET_ROLL = "Tajny-rzut-MG"
NUMBERS = re.compile(r"\d+/\d+")  # Zdrowie as numbers: 13/13


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    yield
    translation.deactivate()


def secret_table() -> tuple[Party, str]:
    """Radosław and Milena against the bandit, a hidden spy, a secret GM roll, and the bandit
    attacking Milena: her prompt is open."""
    party = make_party()
    pk = party.encounter.pk
    spy = make_hero(party.campaign, None, "Szpieg", kind=Character.Kind.NPC)
    services.add_combatants(pk, viewer=party.gm_viewer, characters=[spy.pk], hidden=True)
    start(party)
    roll = {"type": "gm_roll", "dice": 2, "label": SECRET_ROLL, "secret": True}
    services.run_command(pk, roll, viewer=party.gm_viewer)
    bandit = f"c{party.bandit.pk}"
    while (current := services.load_table(pk).state.current) != bandit:  # the spy rolled too
        services.run_command(pk, {"type": "end_turn", "actor": current}, viewer=party.gm_viewer)
    attack = {
        "type": "declare_attack",
        "actor": bandit,
        "target": f"c{party.hero2.pk}",
        "weapon": "Szabla",
    }
    services.run_command(pk, attack, viewer=party.gm_viewer)
    prompt = services.load_table(pk).state.prompts[0].id
    return party, prompt


def html_for(party: Party, user: object) -> str:
    table = services.load_table(party.encounter.pk)
    return fragments.render_regions(table, party.viewer(user))  # type: ignore[arg-type]


@pytest.mark.parametrize("order", [("gm", "p2", "p1"), ("p1", "p2", "gm")])
def test_shared_renders_never_show_a_player_what_only_another_viewer_may_see(
    order: tuple[str, ...],
) -> None:
    party, prompt = secret_table()
    seen = {who: html_for(party, getattr(party, who)) for who in order}
    gm, p1, p2 = seen["gm"], seen["p1"], seen["p2"]
    bandit = f"c{party.bandit.pk}"
    assert "Szpieg" in gm and SECRET_ROLL in gm and 'id="table-gm"' in gm
    assert f'id="gm-row-{bandit}"' in gm and NUMBERS.search(row(gm, bandit))
    for player in (p1, p2):
        assert "Szpieg" not in player  # neither in the order nor in the log
        assert SECRET_ROLL not in player
        assert 'id="table-gm"' not in player and "gm-row-" not in player
        assert not NUMBERS.search(row(player, bandit))  # a wound level, not its Zdrowie
    assert f'data-my-prompt="{prompt}"' in p2
    assert prompt not in p1  # another player's prompt


def row(html: str, combatant: str) -> str:
    start_at = html.index(f'id="row-{combatant}"')
    return html[start_at : html.index("</li>", start_at)]


def test_players_share_the_regions_that_do_not_depend_on_who_looks() -> None:
    party = make_party()
    start(party)
    table = services.load_table(party.encounter.pk)
    p1 = fragments.regions(table, party.viewer(party.p1))
    p2 = fragments.regions(table, party.viewer(party.p2))
    for name in ("table-status", "table-order", "table-log"):
        assert p1[name] == p2[name]  # the same for both players
    assert p1["table-me"] != p2["table-me"]  # each their own hero


def test_a_viewer_sees_their_own_characters_marked_by_the_page_not_the_shared_region() -> None:
    party = make_party()
    start(party)  # Radosław's turn
    page = client_for(party.p1).get(reverse("encounter", args=[party.encounter.pk]))
    html = page.content.decode()
    assert f'.combatant[data-controller="{party.p1.pk}"] .name' in html
    doc = lxml.html.fromstring(html)
    mine = str(party.p1.pk)
    assert doc.get_element_by_id(f"row-c{party.hero1.pk}").get("data-controller") == mine
    badges = doc.find_class("mine-only")
    assert badges and {b.get("data-controller") for b in badges} == {mine}
    assert all("badge-pc" in b.classes for b in badges)
    assert "is-mine" not in html


def test_a_region_is_rendered_in_each_viewers_language() -> None:
    party = make_party()
    table = services.load_table(party.encounter.pk)
    me = party.viewer(party.p1)
    polish = fragments.render_one(table, me, "table-log")
    with translation.override("en"):
        english = fragments.render_one(table, me, "table-log")
    assert "Dziennik walki" in polish and "Combat log" in english
    assert "Dziennik walki" not in english
    # The entries too: each language's records of them are its own.
    assert "Do walki dołącza" in polish and "Joins the fight" not in polish
    assert "Joins the fight" in english and "Do walki dołącza" not in english


def test_a_page_load_reads_the_campaigns_roster_anew() -> None:
    party = make_party()
    table = services.load_table(party.encounter.pk)
    assert "Nowy Bohater" not in fragments.render_one(table, party.gm_viewer, "table-gm")
    make_hero(party.campaign, party.p1, "Nowy Bohater")
    page = client_for(party.gm).get(reverse("encounter", args=[party.encounter.pk]))
    assert "Nowy Bohater" in page.content.decode()


def test_forms_carry_no_command_id_the_page_gives_each_one() -> None:
    party = make_party()
    start(party)
    html = html_for(party, party.gm) + html_for(party, party.p1)
    assert 'data-ws="command"' in html and "data-cid" not in html


def test_the_order_says_nobody_joined_only_when_nobody_has() -> None:
    party = make_party(with_combatants=False)
    pk, gm = party.encounter.pk, party.gm_viewer
    assert "Nikt jeszcze nie dołączył." in fragments.render_one(
        services.load_table(pk), gm, "table-order"
    )
    services.add_combatants(pk, viewer=gm, characters=[party.hero1.pk, party.bandit.pk])
    order = fragments.render_one(services.load_table(pk), gm, "table-order")
    assert "Nikt jeszcze nie dołączył." not in order and order.count('id="row-') == 2
