"""The demo data command: complete, and safe to run twice."""

from __future__ import annotations

import subprocess
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management import call_command
from django.http import HttpRequest
from django.test import RequestFactory

from characters import account
from characters.models import Campaign, Character, CreatureTemplate, Membership

pytestmark = pytest.mark.django_db

CAMPAIGN = "Wilki z Czarnego Lasu"


def sign_in_request() -> HttpRequest:
    """The sign-in form's request: the sign-in throttle checks who asks."""
    return RequestFactory().post("/accounts/login/")


def run() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def state() -> list[object]:
    return [
        list(Campaign.objects.values_list("pk", "name", "invite_code", "settings")),
        list(Membership.objects.values_list("pk", "user__username", "role")),
        list(
            Character.objects.order_by("pk").values_list("pk", "name", "owner__username", "sheet")
        ),
        CreatureTemplate.objects.count(),
    ]


def test_it_creates_the_demo_campaign() -> None:
    output = run()
    assert "http://127.0.0.1:8000/" in output
    for login in ("mistrz", "gracz1", "gracz2"):
        assert login in output
        assert authenticate(sign_in_request(), username=login, password="eleora-demo") is not None
    assert "eleora-demo" in output
    campaign = Campaign.objects.get(name=CAMPAIGN)
    assert campaign.gm.username == "mistrz"
    roles = dict(campaign.memberships.values_list("user__username", "role"))
    assert roles == {"mistrz": "gm", "gracz1": "player", "gracz2": "player"}
    npcs = campaign.characters.filter(kind="npc")
    assert sorted(npcs.values_list("name", flat=True)) == ["Wilk 1", "Wilk 2", "Wilk 3"]
    assert {c.source_creature.name for c in npcs if c.source_creature} == {"Wilk"}


def test_each_demo_user_has_a_confirmed_address_its_mails_reach() -> None:
    run()
    users = User.objects.filter(username__in=["mistrz", "gracz1", "gracz2"])
    assert sorted(users.values_list("email", flat=True)) == [
        "gracz1@eleora.test",
        "gracz2@eleora.test",
        "mistrz@eleora.test",
    ]
    assert account.unreachable_ids(users.values_list("pk", flat=True)) == set()


def test_it_gives_each_player_an_equipped_character() -> None:
    run()
    sabre = Character.objects.get(owner__username="gracz1", campaign__name=CAMPAIGN)
    assert sabre.sheet["attributes"]["zrecznosc"] == 2
    assert sabre.sheet["skills"]["bron_lekka"] == 4
    assert sabre.sheet["weapons"][0]["name"] == "Szabla"
    archer = Character.objects.get(owner__username="gracz2", campaign__name=CAMPAIGN)
    bow = archer.sheet["weapons"][0]
    assert (bow["ranged"], bow["reload_actions"]) == (True, 2)


def test_it_changes_nothing_when_run_again() -> None:
    run()
    before = state()
    run()
    assert state() == before


def test_it_keeps_an_existing_users_password() -> None:
    from django.contrib.auth.models import User

    User.objects.create_user("mistrz", password="moje-haslo-123")
    run()
    assert authenticate(sign_in_request(), username="mistrz", password="moje-haslo-123") is not None


def test_it_prints_the_address_it_is_told_the_server_listens_on() -> None:
    out = StringIO()
    call_command("seed_demo", "--url", "http://127.0.0.1:8811/", stdout=out)
    assert "Eleora: http://127.0.0.1:8811/" in out.getvalue()
    assert "8000" not in out.getvalue()


def test_make_run_serves_and_prints_the_host_and_port_it_is_given() -> None:
    """`make run PORT=8811` (a dry run: the commands it would run) passes the address to
    both the demo command that prints it and daphne."""
    root = Path(__file__).resolve().parents[2]
    dry = subprocess.run(
        ["make", "-n", "-C", str(root), "run", "HOST=0.0.0.0", "PORT=8811", "VENV=/no-venv"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    lines = dry.stdout.splitlines()
    assert any("seed_demo" in line and "http://0.0.0.0:8811/" in line for line in lines), lines
    assert any("daphne -b 0.0.0.0 -p 8811" in line for line in lines), lines
