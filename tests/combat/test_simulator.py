"""The GM's encounter simulator: reachable only by the GM, refuses bad input, reports win rates."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from characters.models import Character, CreatureTemplate
from tests.characters.helpers import make_campaign, make_character, make_sheet, make_user

pytestmark = pytest.mark.django_db


def setup_table() -> tuple[Client, dict[str, object]]:
    gm = make_user("mistrz")
    campaign = make_campaign(gm=gm)
    hero = make_character(campaign, "Radosław", sheet=make_sheet())
    wolf = CreatureTemplate.objects.get(campaign=None, name="Wilk")
    client = Client()
    client.force_login(gm)
    return client, {"campaign": campaign, "hero": hero, "wolf": wolf}


def post(client: Client, campaign: object, **data: object) -> str:
    url = reverse("simulator", args=[campaign.pk])  # type: ignore[attr-defined]
    form = {"runs": "40", "seed": "3", "policy": "lepsza", **data}
    response = client.post(url, form)
    assert response.status_code == 200
    return response.content.decode()


def shares(page: str) -> list[int]:
    return [int(v) for v in re.findall(r'class="odds-value">(\d+)%', page)]


def test_it_reports_win_shares_that_add_up_and_repeat_with_the_seed() -> None:
    client, t = setup_table()
    data = {"party": [t["hero"].pk], f"creature_{t['wolf'].pk}": "2"}  # type: ignore[attr-defined]
    first = post(client, t["campaign"], **data)
    assert "40 starć" in first
    assert 99 <= sum(shares(first)) <= 101  # three rounded percentages
    assert shares(post(client, t["campaign"], **data)) == shares(first)


def test_it_plays_the_real_rules_a_lone_wolf_against_a_strong_party_mostly_loses() -> None:
    client, t = setup_table()
    campaign = t["campaign"]
    strong = make_sheet(attributes={"sila": 3, "krzepa": 4, "zrecznosc": 4, "intuicja": 4})
    party = [make_character(campaign, f"Weteran {n}", sheet=strong).pk for n in range(3)]
    page = post(client, campaign, party=party, **{f"creature_{t['wolf'].pk}": "1"})  # type: ignore[attr-defined]
    party_share, foes_share, _ = shares(page)
    assert party_share > foes_share


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({}, "Wybierz przeciwników"),
        ({"runs": "0"}, "20"),
        ({"runs": "100000"}, "500"),
        ({"policy": "magia"}, "magia"),
        ({"creature_count": "11"}, "10"),
        ({"creature_count": "10", "party_extra": 7}, "16"),
    ],
)
def test_it_refuses_bad_input_with_a_clear_error(data: dict[str, str], error: str) -> None:
    client, t = setup_table()
    wolf, campaign = t["wolf"], t["campaign"]
    form: dict[str, object] = {"party": [t["hero"].pk]}  # type: ignore[attr-defined]
    if "creature_count" in data:
        form[f"creature_{wolf.pk}"] = data.pop("creature_count")  # type: ignore[attr-defined]
    extra = int(data.pop("party_extra", 0))
    form["party"] = [t["hero"].pk] + [  # type: ignore[attr-defined]
        make_character(campaign, f"Ktoś {n}").pk for n in range(extra)
    ]
    page = post(client, campaign, **{**form, **data})
    assert "errorlist" in page and "Popraw zaznaczone pola" in page and error in page
    assert "odds-value" not in page


def test_it_refuses_the_same_character_on_both_sides() -> None:
    client, t = setup_table()
    npc = make_character(t["campaign"], "Zdrajca", kind=Character.Kind.NPC)
    page = post(client, t["campaign"], party=[npc.pk], foes=[npc.pk])
    assert "po obu stronach" in page


def test_it_is_the_gms_tool_only() -> None:
    _, t = setup_table()
    campaign = t["campaign"]
    url = reverse("simulator", args=[campaign.pk])  # type: ignore[attr-defined]
    player, outsider = make_user("gracz"), make_user("obcy")
    campaign.memberships.create(user=player, role="player")
    as_player, as_outsider = Client(), Client()
    as_player.force_login(player)
    as_outsider.force_login(outsider)
    assert as_player.get(url).status_code == 403
    assert as_player.post(url, {"runs": "20"}).status_code == 403
    assert as_outsider.get(url).status_code == 404
    response = Client().get(url)
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_it_answers_htmx_with_the_result_fragment_only() -> None:
    client, t = setup_table()
    url = reverse("simulator", args=[t["campaign"].pk])  # type: ignore[attr-defined]
    data = {
        "party": [t["hero"].pk],
        f"creature_{t['wolf'].pk}": "1",
        "runs": "20",
        "seed": "1",
        "policy": "unik",
    }  # type: ignore[attr-defined]
    page = client.post(url, data, headers={"HX-Request": "true"}).content.decode()
    assert page.lstrip().startswith('<div id="simulator"')
    assert "<html" not in page and "odds-value" in page
