"""Test data makers (hc/test.py style): small functions with sensible defaults."""

from __future__ import annotations

import io
from typing import Any

from django.contrib.auth.models import User
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image

from characters import outbox, services
from characters.models import Campaign, Character, CreatureTemplate, Membership

PASSWORD = "haslo-testowe-123"


def make_user(username: str, **extra: Any) -> User:
    return User.objects.create_user(username=username, password=PASSWORD, **extra)


def make_campaign(gm: User | None = None, name: str = "Kampania") -> Campaign:
    gm = gm or make_user(f"mg-{User.objects.count()}")
    return services.create_campaign(gm=gm, name=name, description="", ruleset="eleora")


def make_member(campaign: Campaign, username: str) -> User:
    user = make_user(username)
    Membership.objects.create(campaign=campaign, user=user, role=Membership.Role.PLAYER)
    return user


def make_sheet(**sections: Any) -> dict[str, Any]:
    """A valid, normalised Eleora sheet; keyword arguments replace or update sections."""
    sheet: dict[str, Any] = {
        "attributes": {
            "sila": 2,
            "krzepa": 2,
            "zrecznosc": 2,
            "intuicja": 2,
            "intelekt": 1,
            "charyzma": 1,
            "wola": 1,
        },
        "skills": dict.fromkeys(
            (
                "walka_wrecz",
                "bron_lekka",
                "bron_ciezka",
                "bieganie",
                "plywanie",
                "atletyka",
                "jezdziectwo",
                "akrobatyka",
                "medycyna",
                "percepcja",
            ),
            0,
        ),
        "weapons": [],
        "armour": [],
        "shields": [],
    }
    for key, value in sections.items():
        if isinstance(value, dict) and isinstance(sheet[key], dict):
            sheet[key] = {**sheet[key], **value}
        else:
            sheet[key] = value
    return sheet


def make_weapon(name: str = "Szabla", **fields: Any) -> dict[str, Any]:
    weapon = {
        "name": name,
        "kind": "lekka",
        "damage": 2,
        "damage_type": "fizyczne",
        "short": False,
        "ranged": False,
        "thrown": False,
        "improvised": False,
        "two_handed": False,
        "reload_actions": 0,
    }
    weapon.update(fields)
    return weapon


def make_character(
    campaign: Campaign,
    name: str = "Postać",
    *,
    owner: User | None = None,
    kind: str = Character.Kind.PC,
    sheet: dict[str, Any] | None = None,
) -> Character:
    return Character.objects.create(
        campaign=campaign, name=name, owner=owner, kind=kind, sheet=sheet or make_sheet()
    )


def make_creature(
    campaign: Campaign | None, name: str = "Stwór", sheet: dict[str, Any] | None = None
) -> CreatureTemplate:
    return CreatureTemplate.objects.create(
        campaign=campaign, ruleset="eleora", name=name, sheet=sheet or make_sheet()
    )


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def image_upload(
    name: str = "portret.png", fmt: str = "PNG", size: tuple[int, int] = (800, 600)
) -> SimpleUploadedFile:
    buffer = io.BytesIO()
    Image.new("RGB", size, (120, 40, 200)).save(buffer, format=fmt)
    content_type = {"PNG": "image/png", "JPEG": "image/jpeg", "GIF": "image/gif"}.get(fmt, "")
    return SimpleUploadedFile(name, buffer.getvalue(), content_type=content_type)


def sheet_post(sheet: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """The POST data the character/creature form sends for a sheet, plus other fields."""
    data: dict[str, Any] = {}
    for key, value in sheet["attributes"].items():
        data[f"attr_{key}"] = value
    custom = []
    known = make_sheet()["skills"]
    for key, value in sheet["skills"].items():
        if key in known:
            data[f"skill_{key}"] = value
        else:
            custom.append({"name": key, "value": value})
    sections = {
        "custom_skills": custom,
        "weapons": sheet.get("weapons", []),
        "armour": sheet.get("armour", []),
        "shields": sheet.get("shields", []),
    }
    for prefix, rows in sections.items():
        data[f"{prefix}-TOTAL_FORMS"] = len(rows)
        data[f"{prefix}-INITIAL_FORMS"] = 0
        for index, row in enumerate(rows):
            for key, value in row.items():
                if value is True:
                    data[f"{prefix}-{index}-{key}"] = "on"
                elif value is not False:
                    data[f"{prefix}-{index}-{key}"] = value
    data.update(fields)
    return data


def sent_mails() -> list[Any]:
    """Every mail sent so far (Django's locmem outbox): the queued ones are delivered first,
    as the mail thread would (it is off in the tests: characters/outbox.py)."""
    outbox.deliver()
    return list(mail.outbox)


def forget_mails() -> None:
    """Forget the mails sent so far, and those queued (delivered first)."""
    outbox.deliver()
    mail.outbox.clear()
