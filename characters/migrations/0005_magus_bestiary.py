"""Seed the shared bestiary with creatures for the Earthdawn-style step ruleset ("magus"):
read-only for GMs, copied or instantiated per campaign, like 0002's entries. Sheets are written
out in full, in the stored (normalised) shape, so this migration does not depend on code that
may change later; a test checks they pass the sheet validator with the ruleset's defaults.

Numbers in the manner of Earthdawn's creatures: attribute steps, the defences, the Wound
Threshold and the Unconsciousness and Death Ratings entered as the sheet records them.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

RULESET = "magus"
TALENTS = (
    "bron_biala",
    "walka_wrecz",
    "strzelectwo",
    "rzucanie",
    "rzucanie_czarow",
    "unik",
    "riposta",
    "sprint",
    "szarza",
    "pewny_dosiad",
    "ognista_krew",
    "przeszukiwanie",
    "podkradanie",
)


def stats(
    steps: tuple[int, int, int, int, int, int],
    defences: tuple[int, int, int],
    ratings: tuple[int, int, int],
    recovery: int,
    movement: tuple[int, int],
) -> dict[str, int]:
    """Zręczność, Siła, Żywotność, Percepcja, Siła Woli, Charyzma; OF, OM, OS; Próg Ran,
    Próg Utraty Przytomności, Próg Śmierci; recovery tests a day; movement and full speed."""
    keys = ("zrecznosc", "sila", "zywotnosc", "percepcja", "sila_woli", "charyzma")
    values = dict(zip(keys, steps, strict=True))
    defence_keys = ("obrona_fizyczna", "obrona_magiczna", "obrona_spoleczna")
    values.update(zip(defence_keys, defences, strict=True))
    values.update(zip(("prog_ran", "prog_przytomnosci", "prog_smierci"), ratings, strict=True))
    values["testy_zdrowienia"] = recovery
    values["ruch"], values["ruch_pelny"] = movement
    return values


def weapon(name: str, kind: str, damage: int, size: int, **traits: bool) -> dict[str, Any]:
    item: dict[str, Any] = {
        "name": name,
        "kind": kind,
        "damage": damage,
        "size": size,
        "two_handed": False,
        "magic": False,
        "lance": False,
    }
    item.update(traits)
    return item


def armour(name: str, physical: int, mystic: int, penalty: int = 0) -> dict[str, Any]:
    return {"name": name, "physical": physical, "mystic": mystic, "initiative_penalty": penalty}


def shield(name: str, physical: int, mystic: int, penalty: int, destruction: int) -> dict[str, Any]:
    return {**armour(name, physical, mystic, penalty), "destruction": destruction, "magic": False}


def sheet(
    attributes: dict[str, int],
    talents: dict[str, int],
    weapons: list[dict[str, Any]],
    armours: list[dict[str, Any]] | None = None,
    shields: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "attributes": attributes,
        "skills": {key: talents.get(key, 0) for key in TALENTS},
        "weapons": weapons,
        "armour": armours or [],
        "shields": shields or [],
        "spells": [],
        "items": [],
    }


CREATURES = [
    (
        "Ork",
        "Orkowy wojownik z koczowniczej bandy: gwałtowny, wytrzymały, nie cofa się przed "
        "walką wręcz. Zakuty w utwardzaną skórę, bije ciężkim tasakiem.",
        sheet(
            stats((6, 6, 6, 5, 5, 4), (7, 6, 6), (9, 28, 35), 2, (12, 24)),
            {"bron_biala": 2, "unik": 1, "szarza": 1},
            [weapon("Tasak", "melee", 4, 3), weapon("Pięści", "unarmed", 0, 1)],
            [armour("Utwardzana skóra", 4, 1)],
        ),
    ),
    (
        "Wilk górski",
        "Duży, szary wilk z przełęczy; poluje w parach albo w watahach, okrąża ofiarę i "
        "atakuje z tyłu.",
        sheet(
            stats((7, 5, 5, 6, 4, 3), (8, 6, 6), (7, 22, 28), 2, (20, 40)),
            {"walka_wrecz": 2, "unik": 1, "sprint": 2, "przeszukiwanie": 2, "podkradanie": 2},
            [weapon("Kły", "unarmed", 3, 1)],
            [armour("Gęste futro", 2, 0)],
        ),
    ),
    (
        "Szkielet",
        "Kości ożywione magią kurhanu. Nie czuje bólu i nie traci przytomności: jego Próg "
        "Utraty Przytomności równa się Progowi Śmierci.",
        sheet(
            stats((5, 5, 6, 4, 4, 1), (6, 7, 10), (10, 30, 30), 0, (10, 20)),
            {"bron_biala": 2},
            [weapon("Zardzewiały miecz", "melee", 3, 2)],
            [armour("Resztki kolczugi", 2, 3, 1)],
            [shield("Spróchniała tarcza", 1, 0, 0, 6)],
        ),
    ),
    (
        "Troll",
        "Górski troll: ogromny i silny, walczy dwuręczną maczugą; w szarży trudno go zatrzymać.",
        sheet(
            stats((5, 8, 8, 5, 6, 4), (6, 7, 6), (12, 44, 52), 3, (14, 28)),
            {"bron_biala": 3, "szarza": 2, "ognista_krew": 1},
            [weapon("Maczuga", "melee", 5, 4, two_handed=True), weapon("Głaz", "thrown", 3, 3)],
            [armour("Twarda skóra", 3, 1)],
        ),
    ),
    (
        "Rozbójnik",
        "Zbój z górskiego traktu, z kordem, kuszą i puklerzem; zasadza się w wąwozach i "
        "ucieka, gdy szczęście się odwraca.",
        sheet(
            stats((6, 5, 5, 5, 5, 5), (7, 6, 7), (8, 26, 32), 2, (12, 24)),
            {"bron_biala": 2, "strzelectwo": 2, "unik": 1, "podkradanie": 2},
            [weapon("Kord", "melee", 3, 2), weapon("Kusza", "missile", 4, 2, two_handed=True)],
            [armour("Skórznia", 3, 0)],
            [shield("Puklerz", 1, 0, 0, 8)],
        ),
    ),
]


def seed(apps: Any, schema_editor: Any) -> None:
    creature_model = apps.get_model("characters", "CreatureTemplate")
    for name, description, data in CREATURES:
        shared = creature_model.objects.filter(campaign=None, ruleset=RULESET, name=name)
        if not shared.exists():
            creature_model.objects.create(
                campaign=None, ruleset=RULESET, name=name, description=description, sheet=data
            )


def unseed(apps: Any, schema_editor: Any) -> None:
    creature_model = apps.get_model("characters", "CreatureTemplate")
    names = [c[0] for c in CREATURES]
    creature_model.objects.filter(campaign=None, ruleset=RULESET, name__in=names).delete()


class Migration(migrations.Migration):
    dependencies = [("characters", "0004_profile_language")]
    operations = [migrations.RunPython(seed, unseed)]
