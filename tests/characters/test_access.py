"""Who may reach what, proved over HTTP for every view of the app.

Outsiders (including the GM of another campaign) get 404 for everything inside a campaign;
a campaign's player gets 403 on GM pages and 404 for NPCs and other players' characters;
refused requests change nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, reverse

from characters import access
from characters.models import Campaign, Character, CreatureTemplate, Membership
from characters.urls import urlpatterns

from .helpers import (
    client_for,
    image_upload,
    make_campaign,
    make_character,
    make_creature,
    make_member,
    make_user,
)

pytestmark = pytest.mark.django_db


@dataclass
class World:
    gm: User
    p1: User
    p2: User
    outsider: User
    campaign: Campaign
    other: Campaign
    pc1: Character
    pc2: Character
    npc: Character
    creature: CreatureTemplate
    shared: CreatureTemplate
    p2_membership: Membership


@pytest.fixture
def world() -> World:
    gm = make_user("mistrz")
    campaign = make_campaign(gm, "Wilki")
    p1, p2 = make_member(campaign, "gracz1"), make_member(campaign, "gracz2")
    outsider = make_user("obcy")
    other = make_campaign(outsider, "Inna")
    pc1 = make_character(campaign, "Radosław", owner=p1)
    npc = make_character(campaign, "Wilk 1", kind=Character.Kind.NPC)
    for character in (pc1, npc):  # so that a refused portrait is refused, not just missing
        character.portrait.save("p.png", image_upload())
    return World(
        gm=gm,
        p1=p1,
        p2=p2,
        outsider=outsider,
        campaign=campaign,
        other=other,
        pc1=pc1,
        pc2=make_character(campaign, "Milena", owner=p2),
        npc=npc,
        creature=make_creature(campaign, "Upiór"),
        shared=CreatureTemplate.objects.get(campaign=None, name="Wilk"),
        p2_membership=Membership.objects.get(user=p2),
    )


Args = Callable[[World], list[int]]
camp: Args = lambda w: [w.campaign.pk]  # noqa: E731
member: Args = lambda w: [w.campaign.pk, w.p2_membership.pk]  # noqa: E731
creature: Args = lambda w: [w.campaign.pk, w.creature.pk]  # noqa: E731
shared: Args = lambda w: [w.campaign.pk, w.shared.pk]  # noqa: E731
pc1: Args = lambda w: [w.pc1.pk]  # noqa: E731
npc: Args = lambda w: [w.npc.pk]  # noqa: E731

# (url name, args, methods). POST-only views are listed with POST alone.
GM_PAGES: list[tuple[str, Args, tuple[str, ...]]] = [
    ("campaign-edit", camp, ("get", "post")),
    ("campaign-settings", camp, ("get", "post")),
    ("campaign-delete", camp, ("get", "post")),
    ("invite-regenerate", camp, ("post",)),
    ("member-remove", member, ("get", "post")),
    ("character-import", camp, ("get", "post")),
    ("bestiary", camp, ("get",)),
    ("creature-create", camp, ("get", "post")),
    ("bestiary-import", camp, ("get", "post")),
    ("bestiary-export", camp, ("get",)),
    ("creature-detail", creature, ("get",)),
    ("creature-edit", creature, ("get", "post")),
    ("creature-delete", creature, ("get", "post")),
    ("creature-copy", creature, ("post",)),
    ("creature-instantiate", creature, ("post",)),
    ("creature-detail", shared, ("get",)),
    ("creature-copy", shared, ("post",)),
    ("creature-instantiate", shared, ("post",)),
]
MEMBER_PAGES: list[tuple[str, Args, tuple[str, ...]]] = [
    ("campaign-detail", camp, ("get",)),
    ("character-create", camp, ("get", "post")),
]
CHARACTER_PAGES: list[tuple[str, tuple[str, ...]]] = [
    ("character-detail", ("get",)),
    ("character-edit", ("get", "post")),
    ("character-delete", ("get", "post")),
    ("character-portrait", ("get",)),
    ("character-export", ("get",)),
]
OPEN_TO_ANY_USER = {"campaign-list", "signup", "join-code", "join", "campaign-create"}
# Each person's own account (tests/characters/test_account_page.py).
OPEN_TO_ANY_USER |= {"account", "account-profile", "account-resend", "account-password"}
OPEN_TO_ANY_USER |= {"account-mails"}
# Whoever holds the link: what it may do is in its signature (test_signup_email.py).
OPEN_WITH_A_SIGNED_LINK = {"confirm-email"}
POST_DATA = {"count": "2", "name": "Zmiana", "code": "X"}


def snapshot(w: World) -> dict[str, Any]:
    """Everything a refused request could have changed."""
    w.campaign.refresh_from_db()
    return {
        "campaign": (w.campaign.name, w.campaign.invite_code, w.campaign.settings),
        "members": sorted(Membership.objects.values_list("pk", flat=True)),
        "characters": sorted(Character.objects.values_list("pk", "name", "sheet", "owner")),
        "creatures": sorted(CreatureTemplate.objects.values_list("pk", "name")),
    }


def call(client: Client, method: str, name: str, args: list[int]) -> int:
    url = reverse(name, args=args)
    response = client.post(url, POST_DATA) if method == "post" else client.get(url)
    return response.status_code


def expand(pages: list[tuple[str, Args, tuple[str, ...]]]) -> list[tuple[str, Args, str]]:
    return [(name, args, method) for name, args, methods in pages for method in methods]


def character_cases() -> list[tuple[str, Args, str]]:
    return [
        (name, target, method)
        for name, methods in CHARACTER_PAGES
        for target in (pc1, npc)
        for method in methods
    ]


def test_it_covers_every_view_in_the_matrix() -> None:
    names = {p.name for p in urlpatterns if isinstance(p, URLPattern)}
    covered = {n for n, _, _ in GM_PAGES + MEMBER_PAGES} | {n for n, _ in CHARACTER_PAGES}
    assert names == covered | OPEN_TO_ANY_USER | OPEN_WITH_A_SIGNED_LINK


@pytest.mark.parametrize(
    ("name", "args", "method"), expand(GM_PAGES + MEMBER_PAGES) + character_cases()
)
def test_it_hides_the_campaign_from_outsiders(
    world: World, name: str, args: Args, method: str
) -> None:
    before = snapshot(world)
    assert call(client_for(world.outsider), method, name, args(world)) == 404
    assert snapshot(world) == before


@pytest.mark.parametrize(("name", "args", "method"), expand(GM_PAGES))
def test_it_forbids_gm_pages_to_players(world: World, name: str, args: Args, method: str) -> None:
    before = snapshot(world)
    assert call(client_for(world.p2), method, name, args(world)) == 403
    assert snapshot(world) == before


@pytest.mark.parametrize(("name", "args", "method"), character_cases())
def test_it_hides_other_characters_and_npcs_from_players(
    world: World, name: str, args: Args, method: str
) -> None:
    before = snapshot(world)
    assert call(client_for(world.p2), method, name, args(world)) == 404
    assert snapshot(world) == before


@pytest.mark.parametrize(
    ("name", "args", "method"),
    expand(GM_PAGES + MEMBER_PAGES) + character_cases() + [("campaign-list", lambda w: [], "get")],
)
def test_it_sends_anonymous_visitors_to_sign_in(
    world: World, name: str, args: Args, method: str
) -> None:
    before = snapshot(world)
    url = reverse(name, args=args(world))
    response = Client().post(url, POST_DATA) if method == "post" else Client().get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert snapshot(world) == before


@pytest.mark.parametrize(
    ("name", "args", "method"), expand(GM_PAGES + MEMBER_PAGES) + character_cases()
)
def test_it_lets_the_gm_in(world: World, name: str, args: Args, method: str) -> None:
    assert call(client_for(world.gm), method, name, args(world)) in {200, 302}


@pytest.mark.parametrize(("name", "methods"), CHARACTER_PAGES)
def test_it_lets_a_player_use_their_own_character(
    world: World, name: str, methods: tuple[str, ...]
) -> None:
    assert call(client_for(world.p1), "get", name, [world.pc1.pk]) == 200


@pytest.mark.parametrize(
    ("name", "args", "method"), expand(GM_PAGES + MEMBER_PAGES) + character_cases()
)
def test_it_lets_a_superuser_in_everywhere(
    world: World, name: str, args: Args, method: str
) -> None:
    admin = make_user("admin", is_superuser=True, is_staff=True)
    assert call(client_for(admin), "get" if "get" in method else method, name, args(world)) in {
        200,
        302,
    }


@pytest.mark.parametrize("name", ["invite-regenerate", "creature-copy", "creature-instantiate"])
def test_it_accepts_only_post_for_actions(world: World, name: str) -> None:
    args = camp(world) if name == "invite-regenerate" else creature(world)
    assert client_for(world.gm).get(reverse(name, args=args)).status_code == 405


@pytest.mark.parametrize("name", ["creature-edit", "creature-delete"])
def test_it_keeps_the_shared_library_read_only(world: World, name: str) -> None:
    before = snapshot(world)
    assert call(client_for(world.gm), "get", name, shared(world)) == 403
    assert call(client_for(world.gm), "post", name, shared(world)) == 403
    assert snapshot(world) == before


@pytest.mark.parametrize("name", ["creature-detail", "creature-edit", "creature-instantiate"])
def test_it_refuses_a_creature_through_another_campaign(world: World, name: str) -> None:
    """The GM of "Inna" cannot reach "Wilki"'s creature by putting it under their campaign."""
    method = "post" if name == "creature-instantiate" else "get"
    args = [world.other.pk, world.creature.pk]
    assert call(client_for(world.outsider), method, name, args) == 404
    assert not world.other.characters.exists()


def test_it_refuses_removing_a_member_of_another_campaign(world: World) -> None:
    stranger = make_member(world.other, "ktos")
    membership = Membership.objects.get(user=stranger)
    url = reverse("member-remove", args=[world.campaign.pk, membership.pk])
    assert client_for(world.gm).post(url).status_code == 404
    assert Membership.objects.filter(pk=membership.pk).exists()


def test_it_shows_players_party_names_but_no_npcs(world: World) -> None:
    page = client_for(world.p2).get(reverse("campaign-detail", args=[world.campaign.pk]))
    html = page.content.decode()
    assert "Milena" in html and "Radosław" in html
    assert "Wilk 1" not in html
    assert reverse("character-detail", args=[world.pc1.pk]) not in html
    assert reverse("character-detail", args=[world.pc2.pk]) in html
    assert world.campaign.invite_code not in html


def test_it_keeps_kind_and_owner_out_of_a_players_hands(world: World) -> None:
    from .helpers import sheet_post

    url = reverse("character-edit", args=[world.pc1.pk])
    data = sheet_post(world.pc1.sheet, name="Radek", kind="npc", owner=world.p2.pk)
    response = client_for(world.p1).post(url, data)
    assert response.status_code == 302
    world.pc1.refresh_from_db()
    assert (world.pc1.name, world.pc1.kind, world.pc1.owner) == ("Radek", "pc", world.p1)


def test_it_makes_a_players_new_character_their_own(world: World) -> None:
    from .helpers import make_sheet, sheet_post

    url = reverse("character-create", args=[world.campaign.pk])
    data = sheet_post(make_sheet(), name="Nowa", kind="npc", owner=world.p2.pk)
    assert client_for(world.p1).post(url, data).status_code == 302
    created = Character.objects.get(name="Nowa")
    assert (created.kind, created.owner) == ("pc", world.p1)


def test_it_lists_only_member_campaigns(world: World) -> None:
    assert list(access.campaigns_for(world.p1)) == [world.campaign]
    assert list(access.campaigns_for(world.outsider)) == [world.other]
    admin = make_user("admin", is_superuser=True)
    assert set(access.campaigns_for(admin)) == {world.campaign, world.other}


def test_it_answers_the_same_through_the_access_functions(world: World) -> None:
    """The table socket will call these directly, without a view around them."""
    from django.core.exceptions import PermissionDenied
    from django.http import Http404

    assert access.get_character_for(world.p1, world.pc1.pk, edit=True) == world.pc1
    assert access.get_character_for(world.gm, world.npc.pk, edit=True) == world.npc
    for user, pk in [
        (world.p2, world.pc1.pk),
        (world.p1, world.npc.pk),
        (world.outsider, world.pc1.pk),
    ]:
        with pytest.raises(Http404):
            access.get_character_for(user, pk, edit=False)
    with pytest.raises(PermissionDenied):
        access.require_gm(world.p1, world.campaign)
    with pytest.raises(Http404):
        access.get_campaign_for(world.outsider, world.campaign.pk)


def test_it_keeps_staff_without_superuser_out_of_the_admin(world: World) -> None:
    staff = make_user("obsluga", is_staff=True)
    response = client_for(staff).get(reverse("admin:characters_character_changelist"))
    assert response.status_code == 403
    admin = make_user("admin", is_superuser=True, is_staff=True)
    assert (
        client_for(admin).get(reverse("admin:characters_character_changelist")).status_code == 200
    )
