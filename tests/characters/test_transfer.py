"""JSON export and import: round trips, and all-or-nothing with a clear list of problems."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from characters.models import Campaign, Character, CreatureTemplate
from characters.transfer import MAX_IMPORT_BYTES

from .helpers import (
    client_for,
    make_campaign,
    make_character,
    make_creature,
    make_sheet,
    make_weapon,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign() -> Campaign:
    return make_campaign()


def import_characters(campaign: Campaign, **data: Any) -> Any:
    url = reverse("character-import", args=[campaign.pk])
    return client_for(campaign.gm).post(url, data)


def entry(name: str = "Wilk 1", **sheet: Any) -> dict[str, Any]:
    return {"name": name, "kind": "npc", "notes": "", "sheet": make_sheet(**sheet)}


def test_it_round_trips_a_character(campaign: Campaign) -> None:
    sheet = make_sheet(skills={"Tropienie": 3}, weapons=[make_weapon("Łuk", reload_actions=2)])
    original = make_character(campaign, "Milena", sheet=sheet)
    original.notes = "<b>notatka</b>"
    original.save(update_fields=["notes"])
    response = client_for(campaign.gm).get(reverse("character-export", args=[original.pk]))
    assert response["Content-Disposition"] == 'attachment; filename="milena.json"'
    exported = response.content.decode()
    assert json.loads(exported)["format"] == "eleora.characters"

    target = make_campaign(campaign.gm, "Druga")
    upload = SimpleUploadedFile("milena.json", exported.encode(), content_type="application/json")
    assert import_characters(target, file=upload).status_code == 302
    copy = Character.objects.get(campaign=target)
    assert (copy.name, copy.kind, copy.notes, copy.sheet) == (
        "Milena",
        "pc",
        "<b>notatka</b>",
        sheet,
    )
    assert copy.owner is None


def test_it_round_trips_a_bestiary(campaign: Campaign) -> None:
    make_creature(campaign, "Upiór", make_sheet(attributes={"wola": 4}))
    make_creature(campaign, "Ghul")
    exported = client_for(campaign.gm).get(reverse("bestiary-export", args=[campaign.pk])).content
    data = json.loads(exported)
    assert [c["name"] for c in data["creatures"]] == ["Ghul", "Upiór"]
    assert "Wilk" not in exported.decode()  # the shared library is not the campaign's

    target = make_campaign(campaign.gm, "Druga")
    url = reverse("bestiary-import", args=[target.pk])
    response = client_for(campaign.gm).post(url, {"text": exported.decode()})
    assert response["Location"] == reverse("bestiary", args=[target.pk])
    imported = {c.name: c.sheet for c in CreatureTemplate.objects.filter(campaign=target)}
    assert imported == {c.name: c.sheet for c in CreatureTemplate.objects.filter(campaign=campaign)}


def test_it_accepts_a_bare_list_or_a_single_entry(campaign: Campaign) -> None:
    import_characters(campaign, text=json.dumps([entry("A"), entry("B")]))
    import_characters(campaign, text=json.dumps(entry("C")))
    assert sorted(campaign.characters.values_list("name", flat=True)) == ["A", "B", "C"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"characters": [', "To nie jest poprawny JSON (wiersz 1, kolumna 17)"),
        ("[" * 100_000, "JSON jest zbyt głęboko zagnieżdżony."),
        ('"Wilk"', "Oczekiwano obiektu JSON albo listy wpisów."),
        ("[]", "Plik nie zawiera żadnego wpisu."),
        (json.dumps([entry(), 5]), "characters[1]: musi być obiektem JSON"),
        (json.dumps([entry(), {**entry(), "name": ""}]), "characters[1].name: nie może być puste"),
        (
            json.dumps([entry(), {**entry(), "kind": "boss"}]),
            "characters[1].kind: musi być jednym z: pc, npc",
        ),
        (json.dumps([entry(), {**entry(), "notes": 5}]), "characters[1].notes: musi być tekstem"),
        (json.dumps([entry(), {**entry(), "hp": 5}]), "characters[1].hp: nieznane pole"),
        (
            json.dumps([entry(), entry("Wilk 2", attributes={"sila": 99})]),
            "characters[1] (Wilk 2).sheet.attributes.sila: musi być ≤ 10",
        ),
        (
            json.dumps([entry(), entry("Wilk 2", weapons=[make_weapon(damage="3")])]),
            "characters[1] (Wilk 2).sheet.weapons[0].damage: musi być liczbą całkowitą",
        ),
        (
            json.dumps([{"name": "Wilk", "sheet": []}]),
            "characters[0] (Wilk).sheet: musi być obiektem JSON",
        ),
        (
            json.dumps({"format": "eleora.bestiary", "characters": [entry()]}),
            "format: oczekiwano eleora.characters",
        ),
        (
            json.dumps({"ruleset": "magus", "characters": [entry()]}),
            "ruleset: plik jest dla systemu magus, a kampania używa eleora",
        ),
        (
            json.dumps({"version": 2, "characters": [entry()]}),
            "version: obsługiwana jest tylko wersja 1",
        ),
        (json.dumps([entry()] * 101), "Najwyżej 100 wpisów naraz."),
    ],
)
def test_it_lists_problems_and_imports_nothing(
    campaign: Campaign, text: str, expected: str
) -> None:
    response = import_characters(campaign, text=text)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Nic nie zaimportowano" in html
    assert expected in html.replace("&#x27;", "'").replace("&quot;", '"')
    assert not campaign.characters.exists()


def test_it_lists_every_problem_of_a_file(campaign: Campaign) -> None:
    text = json.dumps([entry("A", attributes={"sila": -1}), entry("B", shields=[{"name": "T"}])])
    html = import_characters(campaign, text=text).content.decode()
    assert "characters[0] (A).sheet.attributes.sila: musi być ≥ 0" in html
    assert "characters[1] (B).sheet.shields[0].bonus: brak wartości" in html


def test_it_refuses_an_oversize_file(campaign: Campaign) -> None:
    big = json.dumps([entry(notes="x")]).encode() + b" " * MAX_IMPORT_BYTES
    upload = SimpleUploadedFile("big.json", big, content_type="application/json")
    html = import_characters(campaign, file=upload).content.decode()
    assert "Plik jest za duży: najwyżej 512 KB." in html
    assert not campaign.characters.exists()


def test_it_refuses_oversize_pasted_text(campaign: Campaign) -> None:
    text = "[" + "1," * (MAX_IMPORT_BYTES // 2) + "1]"
    html = import_characters(campaign, text=text).content.decode()
    assert str(MAX_IMPORT_BYTES) in html.replace("\xa0", "")
    assert not campaign.characters.exists()


def test_it_refuses_a_file_that_is_not_utf8(campaign: Campaign) -> None:
    upload = SimpleUploadedFile("x.json", '["Łoś"]'.encode("utf-16"), content_type="text/plain")
    html = import_characters(campaign, file=upload).content.decode()
    assert "Plik nie jest tekstem UTF-8." in html


@pytest.mark.parametrize("data", [{}, {"text": "[]", "file": "both"}])
def test_it_wants_exactly_one_source(campaign: Campaign, data: dict[str, Any]) -> None:
    if "file" in data:
        data["file"] = SimpleUploadedFile("x.json", b"[]")
    html = import_characters(campaign, **data).content.decode()
    assert "Wybierz plik albo wklej tekst (jedno z dwóch)." in html


def test_it_validates_a_bestiary_import_the_same_way(campaign: Campaign) -> None:
    text = json.dumps(
        {
            "creatures": [
                {"name": "Ok", "sheet": make_sheet()},
                {"name": "Zły", "sheet": make_sheet(armour="nic")},
            ]
        }
    )
    url = reverse("bestiary-import", args=[campaign.pk])
    html = client_for(campaign.gm).post(url, {"text": text}).content.decode()
    assert "creatures[1] (Zły).sheet.armour: musi być listą" in html
    assert not campaign.creatures.exists()
