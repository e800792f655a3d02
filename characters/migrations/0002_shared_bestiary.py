"""Seed the shared bestiary (campaign = NULL): read-only for GMs, copied or instantiated per
campaign. Sheets are written out in full, in the stored (normalised) shape, so this migration
does not depend on code that may change later; a test checks they pass the sheet validator.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

SKILLS = (
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
)


def attrs(sila: int, krzepa: int, zrecznosc: int, intuicja: int, intelekt: int, charyzma: int, wola: int) -> dict[str, int]:
    return {
        "sila": sila,
        "krzepa": krzepa,
        "zrecznosc": zrecznosc,
        "intuicja": intuicja,
        "intelekt": intelekt,
        "charyzma": charyzma,
        "wola": wola,
    }


def weapon(name: str, kind: str, damage: int, **traits: Any) -> dict[str, Any]:
    item = {
        "name": name,
        "kind": kind,
        "damage": damage,
        "damage_type": "fizyczne",
        "short": False,
        "ranged": False,
        "thrown": False,
        "improvised": False,
        "two_handed": False,
        "reload_actions": 0,
    }
    item.update(traits)
    return item


def sheet(attributes: dict[str, int], skills: dict[str, int], weapons: list[dict[str, Any]], armour: list[dict[str, Any]] | None = None, shields: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "attributes": attributes,
        "skills": {key: skills.get(key, 0) for key in SKILLS},
        "weapons": weapons,
        "armour": armour or [],
        "shields": shields or [],
    }


CREATURES = [
    (
        "Wilk",
        "Drapieżnik polujący w watahach. Obrona 4 (Zręczność 2 + Intuicja 2), jak w przykładzie "
        "z zasad. Zwykle okrąża ofiarę i atakuje z flanki.",
        sheet(
            attrs(2, 2, 2, 2, 0, 0, 1),
            {"walka_wrecz": 2, "bieganie": 3, "percepcja": 3},
            [weapon("Ugryzienie", "wrecz", 2)],
        ),
    ),
    (
        "Dzik",
        "Rozjuszony odyniec szarżuje na najbliższego wroga; gruba skóra chroni go przed ciosami.",
        sheet(
            attrs(3, 3, 1, 2, 0, 0, 2),
            {"walka_wrecz": 3, "bieganie": 2, "percepcja": 1},
            [weapon("Kły", "wrecz", 3)],
            [{"name": "Gruba skóra", "defence_bonus": 0, "armour_points": 1}],
        ),
    ),
    (
        "Bandyta",
        "Zbój z leśnego gościńca. Walczy, dopóki ma przewagę; ranny ucieka.",
        sheet(
            attrs(2, 2, 2, 1, 1, 1, 1),
            {"walka_wrecz": 1, "bron_lekka": 2, "bieganie": 1, "percepcja": 1},
            [weapon("Kord", "lekka", 2, short=True), weapon("Pięści", "wrecz", 2, damage_type="ogluszajace")],
            [{"name": "Przeszywanica", "defence_bonus": 0, "armour_points": 1}],
        ),
    ),
    (
        "Niedźwiedź",
        "Ogromny drapieżnik. Rzadko ucieka; staje na tylnych łapach i bije pazurami.",
        sheet(
            attrs(5, 5, 1, 2, 0, 0, 3),
            {"walka_wrecz": 3, "atletyka": 3, "plywanie": 2, "percepcja": 2},
            [weapon("Pazury", "wrecz", 4), weapon("Ugryzienie", "wrecz", 3)],
            [{"name": "Futro i tłuszcz", "defence_bonus": 0, "armour_points": 2}],
        ),
    ),
    (
        "Strażnik",
        "Miejski strażnik z włócznią i tarczą, w kolczudze.",
        sheet(
            attrs(2, 2, 2, 2, 1, 1, 2),
            {"walka_wrecz": 1, "bron_ciezka": 2, "atletyka": 1, "percepcja": 2},
            [weapon("Włócznia", "ciezka", 3)],
            [{"name": "Kolczuga", "defence_bonus": 1, "armour_points": 2}],
            [{"name": "Tarcza", "bonus": 2}],
        ),
    ),
]


def seed(apps: Any, schema_editor: Any) -> None:
    creature_model = apps.get_model("characters", "CreatureTemplate")
    for name, description, data in CREATURES:
        if not creature_model.objects.filter(campaign=None, name=name).exists():
            creature_model.objects.create(
                campaign=None, ruleset="eleora", name=name, description=description, sheet=data
            )


def unseed(apps: Any, schema_editor: Any) -> None:
    creature_model = apps.get_model("characters", "CreatureTemplate")
    creature_model.objects.filter(campaign=None, name__in=[c[0] for c in CREATURES]).delete()


class Migration(migrations.Migration):
    dependencies = [("characters", "0001_initial")]
    operations = [migrations.RunPython(seed, unseed)]
