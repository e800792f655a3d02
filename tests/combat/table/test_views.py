"""The encounter pages: who may open and create tables, and what each viewer's page holds."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import Character
from combat import services
from combat.models import Encounter
from tests.characters.helpers import client_for, make_user
from tests.combat.table.helpers import make_hero, make_party, start

pytestmark = pytest.mark.django_db


def test_it_lets_the_gm_open_a_new_encounter_in_its_setup_phase() -> None:
    party = make_party(with_combatants=False)
    url = reverse("encounter-list", args=[party.campaign.pk])
    response = client_for(party.gm).post(url, {"name": "  Most na rzece "})
    encounter = Encounter.objects.exclude(pk=party.encounter.pk).get()
    assert response.status_code == 302 and response["Location"] == encounter.get_absolute_url()
    assert encounter.name == "Most na rzece"
    assert encounter.seq == 0 and encounter.phase == Encounter.Phase.SETUP


def test_it_refuses_a_blank_name_and_saves_nothing() -> None:
    party = make_party(with_combatants=False)
    url = reverse("encounter-list", args=[party.campaign.pk])
    response = client_for(party.gm).post(url, {"name": "   "})
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    assert Encounter.objects.count() == 1


def test_players_may_not_open_encounters_and_strangers_see_nothing() -> None:
    party = make_party(with_combatants=False)
    url = reverse("encounter-list", args=[party.campaign.pk])
    assert client_for(party.p1).post(url, {"name": "Moje"}).status_code == 403
    assert client_for(party.p1).get(url).status_code == 200
    stranger = make_user("obcy")
    assert client_for(stranger).get(url).status_code == 404
    page = reverse("encounter", args=[party.encounter.pk])
    assert client_for(stranger).get(page).status_code == 404
    assert Encounter.objects.count() == 1


def test_the_page_is_rendered_for_its_viewer() -> None:
    party = make_party()
    start(party)
    services.run_command(
        party.encounter.pk,
        {"type": "gm_roll", "dice": 2, "label": "Tajemnica MG", "secret": True},
        viewer=party.gm_viewer,
    )
    page = reverse("encounter", args=[party.encounter.pk])
    gm_html = client_for(party.gm).get(page).content.decode()
    player_html = client_for(party.p1).get(page).content.decode()
    assert "Tajemnica MG" in gm_html and 'id="table-gm"' in gm_html
    assert "Tajemnica MG" not in player_html and 'id="table-gm"' not in player_html
    assert f'data-ws="/ws/encounters/{party.encounter.pk}/?lang=pl"' in player_html


def test_user_text_is_escaped_in_every_region() -> None:
    party = make_party(with_combatants=False)
    evil = make_hero(party.campaign, party.p1, '<img src=x onerror="alert(1)">')
    npc = make_hero(party.campaign, None, "<script>alert(2)</script>", kind=Character.Kind.NPC)
    services.add_combatants(
        party.encounter.pk, viewer=party.gm_viewer, characters=[evil.pk, npc.pk]
    )
    services.run_command(
        party.encounter.pk,
        {"type": "gm_roll", "dice": 1, "label": "<b>bold</b>", "secret": False},
        viewer=party.gm_viewer,
    )
    page = reverse("encounter", args=[party.encounter.pk])
    for user in (party.gm, party.p1):
        html = client_for(user).get(page).content.decode()
        assert "<img src=x" not in html and "<script>alert(2)" not in html
        assert "<b>bold</b>" not in html
        assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html


def test_a_deadline_that_passed_while_nobody_watched_is_resolved_on_load() -> None:
    party = make_party()
    start(party)
    pk = party.encounter.pk
    for hero in (party.hero1, party.hero2):
        services.run_command(
            pk, {"type": "end_turn", "actor": f"c{hero.pk}"}, viewer=party.gm_viewer
        )
    attack = {
        "type": "declare_attack",
        "actor": f"c{party.bandit.pk}",
        "target": f"c{party.hero2.pk}",
        "weapon": "Szabla",
    }
    services.run_command(pk, attack, viewer=party.gm_viewer, now=1000.0)  # long ago
    assert services.load_table(pk).state.prompts
    client_for(party.p2).get(reverse("encounter", args=[pk]))
    assert not services.load_table(pk).state.prompts


def test_a_player_sees_their_own_reactions_out_of_turn_and_the_actions_of_their_turn() -> None:
    party = make_party()
    start(party)  # Radosław's turn: his reactions are open from now on
    page = reverse("encounter", args=[party.encounter.pk])
    mine = client_for(party.p1).get(page).content.decode()
    other = client_for(party.p2).get(page).content.decode()
    assert 'value="drop_item"' in mine and 'value="declare_attack"' in mine
    assert 'value="drop_item"' not in other and 'value="declare_attack"' not in other
    assert "Nie ma broni do przeładowania." in mine  # a disabled action says why


def test_the_whole_log_and_its_download_hold_only_what_the_viewer_may_see() -> None:
    party = make_party()
    start(party)
    for n in range(services.LOG_WINDOW + 5):  # more than the table page shows
        secret = n == 0
        label = "Tajny rzut MG" if secret else f"rzut {n}"
        services.run_command(
            party.encounter.pk,
            {"type": "gm_roll", "dice": 1, "label": label, "secret": secret},
            viewer=party.gm_viewer,
        )
    url = reverse("encounter-log", args=[party.encounter.pk])
    gm_page = client_for(party.gm).get(url).content.decode()
    player_page = client_for(party.p1).get(url).content.decode()
    assert "Tajny rzut MG" in gm_page and "Tajny rzut MG" not in player_page
    assert "Do walki dołącza: Radosław" in player_page  # the first entries are there too
    download = client_for(party.p1).get(url, {"format": "json"})
    assert download["Content-Disposition"].startswith("attachment")
    texts = [line["text"] for line in download.json()["lines"]]
    assert not any("Tajny rzut MG" in t for t in texts)
    assert texts[0].startswith("Do walki dołącza")  # oldest first
    assert client_for(make_user("obcy")).get(url).status_code == 404


def test_a_player_holding_a_kostka_heroizmu_may_put_it_on_the_obrona_roll() -> None:
    party = make_party()
    start(party)
    pk, hero2 = party.encounter.pk, f"c{party.hero2.pk}"
    services.run_command(
        pk,
        {"type": "add_condition", "target": hero2, "condition": "inspiracja"},
        viewer=party.gm_viewer,
    )
    for hero in (party.hero1, party.hero2):
        services.run_command(
            pk, {"type": "end_turn", "actor": f"c{hero.pk}"}, viewer=party.gm_viewer
        )
    attack = {
        "type": "declare_attack",
        "actor": f"c{party.bandit.pk}",
        "target": hero2,
        "weapon": "Szabla",
    }
    services.run_command(pk, attack, viewer=party.gm_viewer)
    page = client_for(party.p2).get(reverse("encounter", args=[pk])).content.decode()
    assert 'name="c.heroism" data-with="prompt-' in page
    prompt = services.load_table(pk).state.prompts[0]
    answer = {
        "type": "choose_reaction",
        "actor": hero2,
        "prompt": prompt.id,
        "reactions": ["unik"],
        "heroism": True,
    }
    services.run_command(pk, answer, viewer=party.viewer(party.p2))
    events = [e for entry in party.encounter.entries.all() for e in entry.events]
    chosen = next(e for e in events if e["type"] == "reaction_chosen")
    assert chosen["heroism"] is True
    assert services.load_table(pk).state.combatants[hero2].heroism_dice == 0


def test_the_gm_ends_the_encounter_and_everyone_sees_the_summary() -> None:
    party = make_party()
    start(party)
    services.run_command(
        party.encounter.pk, {"type": "end_combat", "winner": "druzyna"}, viewer=party.gm_viewer
    )
    party.encounter.refresh_from_db()
    assert party.encounter.phase == Encounter.Phase.ENDED
    page = client_for(party.p1).get(reverse("encounter", args=[party.encounter.pk]))
    html = page.content.decode()
    assert "Starcie zakończone" in html and "wygrywa strona: Drużyna" in html
    assert '<table class="summary">' in html and "Bandyta" in html
