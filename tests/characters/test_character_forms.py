"""The character form: fields built from the ruleset, one transaction, clear errors."""

from __future__ import annotations

import io
import os
import random
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import QueryDict
from django.urls import reverse
from PIL import Image

from characters.forms import reshape_rows
from characters.models import Campaign, Character
from characters.portraits import MAX_BYTES

from .helpers import (
    client_for,
    image_upload,
    make_campaign,
    make_character,
    make_member,
    make_sheet,
    make_weapon,
    sheet_post,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign() -> Campaign:
    return make_campaign()


def create(campaign: Campaign, data: dict[str, Any]) -> Any:
    url = reverse("character-create", args=[campaign.pk])
    return client_for(campaign.gm).post(url, data)


def test_it_builds_inputs_from_the_ruleset(campaign: Campaign) -> None:
    html = client_for(campaign.gm).get(reverse("character-create", args=[campaign.pk])).content
    page = html.decode()
    for label, name in [("Zręczność", "attr_zrecznosc"), ("Broń Lekka", "skill_bron_lekka")]:
        assert label in page
        assert f'name="{name}"' in page
    assert 'max="10"' in page


def test_it_creates_a_character_with_equipment(campaign: Campaign) -> None:
    player = make_member(campaign, "gracz")
    sheet = make_sheet(
        attributes={"zrecznosc": 2},
        skills={"bron_lekka": 4, "Tropienie": 2},
        weapons=[make_weapon("Łuk", ranged=True, two_handed=True, reload_actions=2)],
        armour=[{"name": "Kolczuga", "defence_bonus": 1, "armour_points": 2}],
        shields=[{"name": "Tarcza", "bonus": 2}],
    )
    response = create(campaign, sheet_post(sheet, name="Milena", kind="pc", owner=player.pk))
    character = Character.objects.get(name="Milena")
    assert response["Location"] == character.get_absolute_url()
    assert character.owner == player
    assert character.sheet == sheet


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": ""}, "To pole jest wymagane."),
        ({"attr_sila": "11"}, "10"),
        ({"attr_sila": "-1"}, "0"),
        ({"attr_krzepa": "dużo"}, "Wpisz liczbę całkowitą."),
        ({"skill_bron_lekka": "12"}, "10"),
        ({"weapons-0-damage": "-1"}, "0"),
        ({"weapons-0-damage": ""}, "To pole jest wymagane."),
        ({"weapons-0-kind": "luk"}, "Wybierz poprawną wartość"),
        ({"weapons-0-reload_actions": "-2"}, "0"),
        ({"weapons-0-name": "x" * 81}, "80"),
        ({"armour-0-defence_bonus": "21"}, "20"),
        ({"shields-0-bonus": ""}, "To pole jest wymagane."),
        ({"custom_skills-0-name": "x" * 41}, "40"),
        ({"custom_skills-0-value": "11"}, "10"),
        (
            {
                "custom_skills-TOTAL_FORMS": "2",
                "custom_skills-1-name": "tropienie",
                "custom_skills-1-value": "1",
            },
            "powtarza się",
        ),
        ({"custom_skills-0-name": "Broń Lekka"}, "to umiejętność z listy: Broń Lekka"),
        ({"kind": "npc"}, "Bohater niezależny nie ma gracza."),
        ({"weapons-TOTAL_FORMS": "21"}, "20"),
    ],
)
def test_it_explains_every_bad_field_and_saves_nothing(
    campaign: Campaign, change: dict[str, str], message: str
) -> None:
    player = make_member(campaign, "gracz")
    sheet = make_sheet(
        skills={"Tropienie": 2},
        weapons=[make_weapon()],
        armour=[{"name": "Kolczuga", "defence_bonus": 1, "armour_points": 2}],
        shields=[{"name": "Tarcza", "bonus": 2}],
    )
    data = {**sheet_post(sheet, name="Milena", kind="pc", owner=player.pk), **change}
    response = create(campaign, data)
    assert response.status_code == 200
    html = response.content.decode()
    assert message in html
    assert "Nie zapisano — popraw zaznaczone pola." in html
    assert not Character.objects.filter(campaign=campaign).exists()


def test_it_shows_an_error_next_to_its_field_and_at_the_top(campaign: Campaign) -> None:
    data = sheet_post(make_sheet(weapons=[make_weapon()]), name="X", kind="pc")
    data["weapons-0-damage"] = "-4"
    html = create(campaign, data).content.decode()
    field = html.index('name="weapons-0-damage"')
    wrapper = html.rindex('<div class="field', 0, field)
    assert html[wrapper:field].startswith('<div class="field field-error">')
    assert html.index('id="id_weapons-0-damage_error"', field) < html.index("</div>", field)
    top = html.index('class="form-errors"')
    assert top < wrapper
    assert "Broń 1, Obrażenia:" in html[top:wrapper]


def test_it_rolls_back_everything_when_equipment_is_wrong(campaign: Campaign) -> None:
    character = make_character(campaign, "Radosław", sheet=make_sheet(weapons=[make_weapon()]))
    before = Character.objects.get(pk=character.pk).sheet
    data = sheet_post(
        make_sheet(attributes={"sila": 5}, weapons=[make_weapon(damage=-3)]),
        name="Zmienione",
        kind="pc",
        notes="nowe notatki",
    )
    response = client_for(campaign.gm).post(reverse("character-edit", args=[character.pk]), data)
    assert response.status_code == 200
    character.refresh_from_db()
    assert (character.name, character.notes, character.sheet) == ("Radosław", "", before)


def test_it_adds_a_row_without_saving(campaign: Campaign) -> None:
    data = sheet_post(make_sheet(weapons=[make_weapon()]), name="X", kind="pc", row="add weapons")
    response = create(campaign, data)
    html = response.content.decode()
    assert 'name="weapons-TOTAL_FORMS" value="2"' in html
    assert 'name="weapons-1-name"' in html
    assert "Nie zapisano" not in html
    assert not Character.objects.exists()


def test_it_returns_only_the_fieldset_to_htmx(campaign: Campaign) -> None:
    data = sheet_post(make_sheet(), name="X", kind="pc", row="add armour")
    url = reverse("character-create", args=[campaign.pk])
    response = client_for(campaign.gm).post(url, data, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.strip().startswith('<fieldset id="rows-armour"')
    assert 'name="armour-0-name"' in html
    assert "<html" not in html


def test_it_ignores_a_blank_added_row(campaign: Campaign) -> None:
    added = reshape_rows(QueryDict(mutable=True), "add weapons")
    assert added is not None
    data = sheet_post(make_sheet(), name="Bez broni", kind="pc")
    data.update({k: v for k, v in added.items() if k.startswith("weapons-0-")})
    data["weapons-TOTAL_FORMS"] = 1
    assert create(campaign, data).status_code == 302
    assert Character.objects.get(name="Bez broni").sheet["weapons"] == []


def test_it_removes_a_row_and_shifts_the_rest() -> None:
    data = QueryDict(mutable=True)
    data.update({"weapons-TOTAL_FORMS": "3", "weapons-INITIAL_FORMS": "3"})
    for index, (name, thrown) in enumerate([("A", False), ("B", True), ("C", False)]):
        data[f"weapons-{index}-name"] = name
        if thrown:
            data[f"weapons-{index}-thrown"] = "on"
    reshaped = reshape_rows(data, "remove weapons 0")
    assert reshaped is not None
    assert reshaped["weapons-TOTAL_FORMS"] == "2"
    assert reshaped["weapons-INITIAL_FORMS"] == "2"
    assert (reshaped["weapons-0-name"], reshaped["weapons-1-name"]) == ("B", "C")
    assert reshaped.get("weapons-0-thrown") == "on"
    assert "weapons-1-thrown" not in reshaped
    assert "weapons-2-name" not in reshaped


@pytest.mark.parametrize(
    "command", ["", "add", "add nothing", "remove weapons 5", "remove weapons x", "drop weapons 0"]
)
def test_it_ignores_unknown_row_commands(command: str) -> None:
    data = QueryDict("weapons-TOTAL_FORMS=1&weapons-INITIAL_FORMS=1")
    assert reshape_rows(data, command) is None


def test_it_caps_rows_against_a_forged_total() -> None:
    data = QueryDict("weapons-TOTAL_FORMS=100000000&weapons-INITIAL_FORMS=0")
    reshaped = reshape_rows(data, "add weapons")
    assert reshaped is not None
    assert reshaped["weapons-TOTAL_FORMS"] == "100000000"  # unchanged; the formset refuses > 20


def test_it_stores_a_shrunk_portrait_and_serves_it(campaign: Campaign) -> None:
    data = sheet_post(make_sheet(), name="Z portretem", kind="npc")
    data["portrait"] = image_upload("duzy.jpg", "JPEG", (1600, 1200))
    assert create(campaign, data).status_code == 302
    character = Character.objects.get(name="Z portretem")
    assert character.portrait.name.startswith(f"portraits/{campaign.pk}/")
    with Image.open(character.portrait.path) as stored:
        assert max(stored.size) == 512
        assert stored.format == "JPEG"
    response = client_for(campaign.gm).get(reverse("character-portrait", args=[character.pk]))
    assert response["Content-Type"] == "image/jpeg"
    assert response["Cache-Control"] == "private, max-age=3600"
    assert response.getvalue()[:2] == b"\xff\xd8"


@pytest.mark.parametrize(
    ("upload", "message"),
    [
        (SimpleUploadedFile("x.png", b"not an image", content_type="image/png"), "plik graficzny"),
        (image_upload("x.gif", "GIF", (10, 10)), "PNG, JPEG albo WebP"),
    ],
)
def test_it_refuses_bad_portraits(campaign: Campaign, upload: Any, message: str) -> None:
    data = sheet_post(make_sheet(), name="X", kind="npc")
    data["portrait"] = upload
    response = create(campaign, data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Character.objects.exists()


def test_it_refuses_a_portrait_over_2_mb(campaign: Campaign) -> None:
    buffer = io.BytesIO()
    noise = random.Random(0).randbytes(1000 * 1000 * 3)  # does not compress below 2 MB
    Image.frombytes("RGB", (1000, 1000), noise).save(buffer, format="PNG")
    assert buffer.tell() > MAX_BYTES
    data = sheet_post(make_sheet(), name="X", kind="npc")
    data["portrait"] = SimpleUploadedFile("big.png", buffer.getvalue(), content_type="image/png")
    response = create(campaign, data)
    assert "Portret może mieć najwyżej 2 MB." in response.content.decode()
    assert not Character.objects.exists()


def test_it_removes_the_old_portrait_after_a_replacement(
    campaign: Campaign, django_capture_on_commit_callbacks: Any
) -> None:
    character = make_character(campaign, "Radosław")
    character.portrait.save("old.png", image_upload())
    old_path = character.portrait.path
    data = sheet_post(character.sheet, name="Radosław", kind="pc", portrait=image_upload())
    with django_capture_on_commit_callbacks(execute=True):
        client_for(campaign.gm).post(reverse("character-edit", args=[character.pk]), data)
    character.refresh_from_db()
    assert character.portrait.path != old_path
    assert not os.path.exists(old_path)
    assert os.path.exists(character.portrait.path)


def test_it_deletes_a_character_and_its_portrait(
    campaign: Campaign, django_capture_on_commit_callbacks: Any
) -> None:
    player = make_member(campaign, "gracz")
    character = make_character(campaign, owner=player)
    character.portrait.save("p.png", image_upload())
    path = character.portrait.path
    url = reverse("character-delete", args=[character.pk])
    assert client_for(player).get(url).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(player).post(url)
    assert response["Location"] == campaign.get_absolute_url()
    assert not Character.objects.filter(pk=character.pk).exists()
    assert not os.path.exists(path)
