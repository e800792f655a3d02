"""Copying an encounter (issue 22, point 12d): the campaign's GM reuses a map and a line-up.
The copy is a new encounter in its setup whose log recreates the map (size, terrain,
background, picture), the line-up (characters and bestiary creatures, sides, hidden) and the
tokens' fields, through the services the GM's own table uses; it has fresh dice. Only the
campaign's GM may copy, and only an encounter of that campaign: anything else changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from combat import services
from combat.models import Encounter
from combat.rules.base import battle_maps_of
from combat.rules.battlemap import Look, Paint, Resize
from combat.snapshots import replay_state
from tests.characters.helpers import make_campaign, make_user
from tests.combat.table.helpers import Party, make_party, start, wolf

pytestmark = pytest.mark.django_db


def laid(party: Party) -> Party:
    """The party's encounter with a painted 12 × 10 map, a picture, two hidden wolves and
    every token placed; then the fight starts (a copy still begins in setup)."""
    pk, gm = party.encounter.pk, party.gm_viewer
    services.add_combatants(pk, viewer=gm, creatures={wolf().pk: 2}, side="Wilki", hidden=True)
    services.edit_map(pk, viewer=gm, edit=Resize(12, 10))
    services.edit_map(pk, viewer=gm, edit=Paint("wall", ((3, 0), (3, 1), (3, 2))))
    services.edit_map(pk, viewer=gm, edit=Paint("difficult", ((5, 5), (6, 5))))
    services.edit_map(pk, viewer=gm, edit=Paint("dark2", ((0, 9), (1, 9))))
    picture = f"maps/{party.campaign.pk}/las.png"
    services.edit_map(pk, viewer=gm, edit=Look("#224411", picture))
    for n, seat in enumerate(services.load_table(pk).view.seats):
        services.place_token(pk, viewer=gm, seat=seat, to=(n, 7))
    start(party)
    return party


def client_of(user: Any) -> Client:
    client = Client()
    client.force_login(user)  # authenticate() without a request is refused by the sign-in throttle
    return client


def copy(client: Client, party: Party, encounter: object) -> Any:
    url = reverse("encounter-copy", args=[party.campaign.pk])
    return client.post(url, {"encounter": encounter})


def board(encounter: Encounter) -> tuple[Any, list[tuple[str, str, bool, Any]]]:
    """The encounter's map and its seats as (name, side, hidden, field), in join order."""
    table = services.load_table(encounter.pk)
    maps = battle_maps_of(encounter.rules())
    assert maps is not None
    m = maps.battle_map(table.state)
    seats = [(s.name, s.side, s.hidden, s.position) for s in table.view.seats.values()]
    return m, seats


def test_the_gm_copies_the_map_and_the_line_up_into_a_new_encounter_in_setup() -> None:
    party = laid(make_party())
    source = party.encounter
    response = copy(client_of(party.gm), party, source.pk)
    new = Encounter.objects.exclude(pk=source.pk).get()
    assert response.status_code == 302 and response["Location"] == new.get_absolute_url()
    assert new.name == "Zasadzka (kopia)" and new.campaign == party.campaign
    old_map, old_seats = board(source)
    new_map, new_seats = board(new)
    assert new_map is not None and old_map is not None
    for name in ("geometry", "width", "height", "background", "image", "walls", "difficult",
                 "dark2"):  # fmt: skip
        assert getattr(new_map, name) == getattr(old_map, name), name
    assert new_map.walls == ((3, 0), (3, 1), (3, 2)) and new_map.image.endswith("las.png")
    assert sorted(new_seats) == sorted(old_seats)  # the same names, sides and fields
    assert [hidden for _n, side, hidden, _f in new_seats if side == "Wilki"] == [True, True]
    view = services.load_table(new.pk).view
    assert view.stage == "setup" and new.phase == Encounter.Phase.SETUP
    assert new.seed_hash != source.seed_hash and new.gm_seed_hash != source.gm_seed_hash
    # The log is the truth: the copy's entries, folded, give its head.
    new.refresh_from_db()
    assert new.entries.count() > 0
    state = services.load_table(new.pk).state
    assert replay_state(new) == state


def test_the_copy_is_offered_on_the_campaigns_encounters_to_its_gm_alone() -> None:
    party = make_party()
    url = reverse("encounter-list", args=[party.campaign.pk])
    copy_url = reverse("encounter-copy", args=[party.campaign.pk])
    assert copy_url in client_of(party.gm).get(url).content.decode()
    assert copy_url not in client_of(party.p1).get(url).content.decode()


@pytest.mark.parametrize("who", ["player", "other_gm"])
def test_nobody_but_the_campaigns_gm_may_copy(who: str) -> None:
    party = laid(make_party())
    if who == "player":
        user, status = party.p1, 403
    else:
        user, status = make_user("obcy"), 404
        make_campaign(user, "Cudza")
    before = Encounter.objects.count()
    assert copy(client_of(user), party, party.encounter.pk).status_code == status
    assert Encounter.objects.count() == before


@pytest.mark.parametrize("bad", ["other_campaign", "missing", "text", ""])
def test_an_encounter_not_of_this_campaign_changes_nothing(bad: str) -> None:
    party = laid(make_party())
    other_gm_campaign = make_campaign(party.gm, "Druga kampania")
    elsewhere = services.create_encounter(campaign=other_gm_campaign, name="Gdzie indziej",
                                          by=party.gm)  # fmt: skip
    value = {"other_campaign": elsewhere.pk, "missing": 987654, "text": "1; DROP", "": ""}[bad]
    before = list(Encounter.objects.values_list("pk", "seq"))
    assert copy(client_of(party.gm), party, value).status_code == 404
    assert list(Encounter.objects.values_list("pk", "seq")) == before


def test_a_copy_needs_a_post() -> None:
    party = make_party()
    response = client_of(party.gm).get(reverse("encounter-copy", args=[party.campaign.pk]))
    assert response.status_code == 405
