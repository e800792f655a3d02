"""Seed the shared bestiary with creatures for Kroniki Fallathanu (k100, ruleset "d100"):
read-only for GMs, copied or instantiated per campaign, like 0002's and 0005's entries. Sheets
are written out in full, in the stored (normalised) shape, so this migration does not depend on
code that may change later; a test checks they pass the sheet validator with the ruleset's
defaults.

The stored shape: the six attributes and the two skills as percent chances, a single "profile"
(max PŻ, race, transformation, armour kind, shield), the weapons by kind and the spells. The
keys are those of the ruleset's default tables (`combat/rules/d100/settings.py`).
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

RULESET = "d100"


def attributes(
    zwinnosc: int, zmysly: int, krzepa: int, wytrzymalosc: int, intelekt: int, oglada: int
) -> dict[str, int]:
    return {
        "zwinnosc": zwinnosc,
        "zmysly": zmysly,
        "krzepa": krzepa,
        "wytrzymalosc": wytrzymalosc,
        "intelekt": intelekt,
        "oglada": oglada,
    }


def sheet(
    stats: dict[str, int],
    pz: int,
    weapons: list[tuple[str, str]],
    *,
    race: str = "czlowiek",
    transformation: str = "",
    armour: str = "",
    shield: bool = False,
    akrobatyka: int = 0,
    medycyna: int = 0,
) -> dict[str, Any]:
    return {
        "attributes": stats,
        "skills": {"akrobatyka": akrobatyka, "medycyna": medycyna},
        "profile": {
            "pz": pz,
            "race": race,
            "transformation": transformation,
            "armour": armour,
            "shield": shield,
        },
        "weapons": [{"name": name, "kind": kind} for name, kind in weapons],
        "spells": [],
    }


CREATURES = [
    (
        "Bandyta z traktu",
        "Rzezimieszek z traktów Fallathanu: kord u pasa, kusza na plecach, przeszywanica na "
        "grzbiecie. Najpierw strzela zza drzew, potem dobija kordem; ucieka, gdy walka się "
        "przeciąga.",
        sheet(
            attributes(45, 40, 45, 40, 25, 30),
            70,
            [("Kord", "traditional"), ("Kusza", "crossbow")],
            armour="light",
            akrobatyka=15,
        ),
    ),
    (
        "Szary wilk",
        "Wilk z mglistych łąk nad rzeką; poluje w watahach, okrąża ofiarę i kąsa od tyłu. "
        "Kły liczą się jak broń mała.",
        sheet(
            attributes(55, 60, 40, 40, 20, 25),
            50,
            [("Kły", "small")],
            race="inna",
            akrobatyka=30,
        ),
    ),
    (
        "Ghul",
        "Trupojad z rozkopanych kurhanów. Wytrzymały i głodny, rwie pazurami; nie zna strachu, "
        "ale i nie myśli o obronie.",
        sheet(
            attributes(40, 45, 55, 60, 20, 20),
            90,
            [("Pazury", "small")],
            race="inna",
        ),
    ),
    (
        "Jaszczuroczłek",
        "Łuskowaty wojownik z bagien: walczy włócznią albo pazurami (Jaszczur: +5 do Trafienia, "
        "+2 do Obrażeń), w wodzie i błocie czuje się jak u siebie.",
        sheet(
            attributes(50, 45, 50, 50, 30, 30),
            85,
            [("Włócznia", "traditional")],
            race="jaszczur",
            akrobatyka=20,
        ),
    ),
    (
        "Wampir",
        "Szlachcic nocy z rapierem w dłoni. W walce przybiera postać Wampira (Przemiana: +10 do "
        "Krzepy, Zwinności i Wytrzymałości, pazury, ignoruje 2 Urazy).",
        sheet(
            attributes(60, 55, 50, 50, 45, 50),
            120,
            [("Rapier", "small")],
            transformation="wampir",
            akrobatyka=35,
            medycyna=10,
        ),
    ),
    (
        "Strażnik w kolczudze",
        "Żołnierz straży grodowej w kolczudze, z mieczem i tarczą: trudno go zranić (pancerz "
        "ciężki i tarcza), ale uniki przychodzą mu z trudem.",
        sheet(
            attributes(40, 40, 55, 55, 30, 35),
            110,
            [("Miecz", "traditional")],
            armour="heavy",
            shield=True,
            medycyna=10,
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
    dependencies = [("characters", "0005_magus_bestiary")]
    operations = [migrations.RunPython(seed, unseed)]
