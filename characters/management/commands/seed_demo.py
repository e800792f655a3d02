"""Demo campaigns to click through: a GM, two players, their characters, the NPCs and an
encounter table set up with them all, for Eleora (three wolves) and, once that ruleset is
registered, for the Earthdawn-style step ruleset (bandits and an orc in a ravine).

Idempotent: what exists is left as it is (passwords included), what is missing is created.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from characters import services
from characters.models import Campaign, Character, CreatureTemplate
from characters.sheets import clean_sheet
from combat import services as combat_services
from combat.rules.registry import get_ruleset

PASSWORD = "eleora-demo"
CAMPAIGN = "Wilki z Czarnego Lasu"
ENCOUNTER = "Zasadzka na leśnym trakcie"
URL = "http://127.0.0.1:8000/"


def _weapon(name: str, kind: str, damage: int, **traits: Any) -> dict[str, Any]:
    return {"name": name, "kind": kind, "damage": damage, **traits}


# The sabre fighter is the rules' own example: Zręczność 2 + Broń Lekka 4 → 6 dice.
HEROES: dict[str, tuple[str, dict[str, Any], str]] = {
    "gracz1": (
        "Radosław Szablista",
        {
            "attributes": {
                "sila": 2,
                "krzepa": 3,
                "zrecznosc": 2,
                "intuicja": 2,
                "intelekt": 1,
                "charyzma": 2,
                "wola": 2,
            },
            "skills": {
                "bron_lekka": 4,
                "walka_wrecz": 2,
                "atletyka": 2,
                "jezdziectwo": 2,
                "percepcja": 1,
            },
            "weapons": [_weapon("Szabla", "lekka", 2), _weapon("Sztylet", "lekka", 2, short=True)],
            "armour": [{"name": "Kaftan skórzany", "defence_bonus": 0, "armour_points": 1}],
        },
        "Zawadiaka z pogranicza. Średnio zręczny, ale wprawny szermierz.",
    ),
    "gracz2": (
        "Milena Łuczniczka",
        {
            "attributes": {
                "sila": 1,
                "krzepa": 2,
                "zrecznosc": 3,
                "intuicja": 3,
                "intelekt": 2,
                "charyzma": 1,
                "wola": 2,
            },
            "skills": {
                "bron_lekka": 3,
                "bieganie": 2,
                "percepcja": 3,
                "medycyna": 2,
                "Tropienie": 2,
            },
            "weapons": [
                _weapon("Łuk", "lekka", 2, ranged=True, two_handed=True, reload_actions=2),
                _weapon("Nóż myśliwski", "lekka", 2, short=True),
            ],
            "armour": [{"name": "Przeszywanica", "defence_bonus": 0, "armour_points": 1}],
        },
        "Myśliwa z Czarnego Lasu. Po każdym strzale potrzebuje dwóch akcji Przeładowania.",
    ),
}


# The step ruleset's demo: its key, campaign, encounter, heroes and the shared creatures.
MAGUS = "magus"
MAGUS_CAMPAIGN = "Cienie nad Wronią Przełęczą"
MAGUS_ENCOUNTER = "Zasadzka w wąwozie"
MAGUS_NPCS = (("Rozbójnik", 2), ("Ork", 1))
MAGUS_TALENTS = (
    *("bron_biala", "walka_wrecz", "strzelectwo", "rzucanie", "rzucanie_czarow", "unik"),
    *("riposta", "sprint", "szarza", "pewny_dosiad", "ognista_krew", "przeszukiwanie"),
    "podkradanie",
)


def _magus_sheet(
    steps: tuple[int, int, int, int, int, int],
    recorded: tuple[int, int, int, int, int, int, int, int, int],
    talents: dict[str, int],
    **sections: list[dict[str, Any]],
) -> dict[str, Any]:
    """Zręczność, Siła, Żywotność, Percepcja, Siła Woli, Charyzma; then OF, OM, OS, Próg Ran,
    Próg Utraty Przytomności, Próg Śmierci, recovery tests a day, movement and full speed."""
    keys = (
        *("zrecznosc", "sila", "zywotnosc", "percepcja", "sila_woli", "charyzma"),
        *("obrona_fizyczna", "obrona_magiczna", "obrona_spoleczna", "prog_ran"),
        *("prog_przytomnosci", "prog_smierci", "testy_zdrowienia", "ruch", "ruch_pelny"),
    )
    return {
        "attributes": dict(zip(keys, (*steps, *recorded), strict=True)),
        "skills": {key: talents.get(key, 0) for key in MAGUS_TALENTS},
        **sections,
    }


def _step_weapon(name: str, kind: str, damage: int, size: int, **traits: bool) -> dict[str, Any]:
    flags = {"two_handed": False, "magic": False, "lance": False, **traits}
    return {"name": name, "kind": kind, "damage": damage, "size": size, **flags}


def _protection(name: str, physical: int, mystic: int, penalty: int) -> dict[str, Any]:
    return {"name": name, "physical": physical, "mystic": mystic, "initiative_penalty": penalty}


# A dwarf warrior with a Riposta, an elf archer with an Unik, and a human wizard without a
# player yet (the GM runs her until a third player joins).
MAGUS_HEROES: tuple[tuple[str | None, str, dict[str, Any], str], ...] = (
    (
        "gracz1",
        "Thorgrim Kowal Tarcz",
        _magus_sheet(
            (6, 7, 7, 5, 5, 4),
            (8, 7, 6, 11, 34, 42, 3, 10, 20),
            {"bron_biala": 4, "riposta": 3, "unik": 1, "szarza": 2, "ognista_krew": 1},
            weapons=[
                _step_weapon("Topór bojowy", "melee", 5, 3),
                _step_weapon("Toporek do rzucania", "thrown", 2, 1),
            ],
            armour=[_protection("Kolczuga", 7, 0, 1)],
            shields=[
                {**_protection("Tarcza z okuciem", 3, 0, 1), "destruction": 12, "magic": False}
            ],
            items=[{"name": "Eliksir zdrowienia", "kind": "eliksir_zdrowienia", "count": 1}],
        ),
        "Krasnoludzki wojownik z Throalu. Przyjmuje ciosy na tarczę i odpowiada Ripostą.",
    ),
    (
        "gracz2",
        "Liriel Szept Liści",
        _magus_sheet(
            (8, 5, 5, 7, 5, 5),
            (10, 8, 7, 8, 26, 32, 2, 14, 28),
            {"strzelectwo": 4, "unik": 3, "bron_biala": 1, "sprint": 2, "przeszukiwanie": 3},
            weapons=[
                _step_weapon("Długi łuk elfów", "missile", 4, 2, two_handed=True),
                _step_weapon("Nóż myśliwski", "melee", 2, 1),
            ],
            armour=[_protection("Skórznia", 3, 0, 0)],
            items=[{"name": "Brosza ostrzeżenia", "kind": "brosza_ostrzezenia", "count": 1}],
        ),
        "Elfia zwiadowczyni z Krwawej Puszczy. Uchyla się Unikiem; Brosza ostrzeżenia "
        "chroni ją przed zasadzką.",
    ),
    (
        None,
        "Ilsa z Iopos",
        _magus_sheet(
            (5, 4, 5, 7, 7, 6),
            (6, 10, 8, 8, 24, 30, 2, 12, 24),
            {"rzucanie_czarow": 4, "unik": 1, "przeszukiwanie": 2},
            weapons=[_step_weapon("Kostur", "melee", 2, 2, two_handed=True)],
            spells=[
                {"name": "Płomienny pocisk", "effect_step": 8, "defence": "obrona_magiczna"},
                {"name": "Ogłuszający krzyk", "effect_step": 6, "defence": "obrona_spoleczna"},
            ],
        ),
        "Czarodziejka z Iopos. Prowadzi ją Mistrz Gry, dopóki nie dołączy trzeci gracz.",
    ),
)


class Command(BaseCommand):
    help = "Create the demo users and campaign (safe to run again)."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        users = {name: self._user(name) for name in ("mistrz", "gracz1", "gracz2")}
        campaign = Campaign.objects.filter(name=CAMPAIGN, gm=users["mistrz"]).first()
        if campaign is None:
            campaign = services.create_campaign(
                gm=users["mistrz"],
                name=CAMPAIGN,
                description="Wataha wilków nęka wioskę na skraju Czarnego Lasu.",
                ruleset="eleora",
            )
        for login, (name, sheet, notes) in HEROES.items():
            services.join_campaign(campaign=campaign, user=users[login])
            self._hero(campaign, users[login], name, sheet, notes)
        self._wolves(campaign)
        self._encounter(campaign, users["mistrz"], ENCOUNTER)
        self._magus(users)
        self.stdout.write(f"Eleora: {URL}")
        for name in users:
            self.stdout.write(f"  login: {name:<8} hasło: {PASSWORD}")

    def _user(self, username: str) -> User:
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User.objects.create_user(username=username, password=PASSWORD)
        return user

    def _hero(
        self, campaign: Campaign, owner: User | None, name: str, sheet: dict[str, Any], notes: str
    ) -> None:
        if campaign.characters.filter(name=name).exists():
            return
        Character.objects.create(
            campaign=campaign,
            kind=Character.Kind.PC,
            owner=owner,
            name=name,
            notes=notes,
            sheet=clean_sheet(sheet, rules=campaign.rules(), settings=campaign.settings),
        )

    def _wolves(self, campaign: Campaign) -> None:
        wolf = CreatureTemplate.objects.filter(
            campaign=None, ruleset=campaign.ruleset, name="Wilk"
        ).first()
        if wolf is None:
            raise CommandError("The shared bestiary has no Wilk: run `manage.py migrate` first.")
        if not campaign.characters.filter(source_creature=wolf).exists():
            services.instantiate_creature(creature=wolf, campaign=campaign, count=3)

    def _magus(self, users: dict[str, User]) -> None:
        """The step ruleset's campaign: three heroes, two bandits and an orc in a ravine.

        Skipped, with a note, while that ruleset is not registered; its encounter waits for
        the ruleset's encounters (`new_encounter`), the rest only for its sheet."""
        try:
            rules = get_ruleset(MAGUS)
        except LookupError:
            self.stdout.write(f"Pomijam kampanię „{MAGUS_CAMPAIGN}”: system {MAGUS} nieznany.")
            return
        campaign = Campaign.objects.filter(name=MAGUS_CAMPAIGN, gm=users["mistrz"]).first()
        if campaign is None:
            campaign = services.create_campaign(
                gm=users["mistrz"],
                name=MAGUS_CAMPAIGN,
                description="Rozbójnicy i orkowie z Wroniej Przełęczy napadają na karawany.",
                ruleset=MAGUS,
            )
        for login in ("gracz1", "gracz2"):
            services.join_campaign(campaign=campaign, user=users[login])
        for player, name, sheet, notes in MAGUS_HEROES:
            self._hero(campaign, users[player] if player else None, name, sheet, notes)
        for creature_name, count in MAGUS_NPCS:
            creature = CreatureTemplate.objects.filter(
                campaign=None, ruleset=MAGUS, name=creature_name
            ).first()
            if creature is None:
                raise CommandError(
                    f"The shared bestiary has no {creature_name}: run `manage.py migrate` first."
                )
            if not campaign.characters.filter(source_creature=creature).exists():
                services.instantiate_creature(creature=creature, campaign=campaign, count=count)
        if not hasattr(rules, "new_encounter"):
            self.stdout.write(f"Kampania „{MAGUS_CAMPAIGN}” bez starcia: system bez walk.")
            return
        self._encounter(campaign, users["mistrz"], MAGUS_ENCOUNTER)
        self.stdout.write(f"{rules.label}: kampania „{MAGUS_CAMPAIGN}”")

    def _encounter(self, campaign: Campaign, gm: User, name: str) -> None:
        """A table ready to play: the campaign's heroes and NPCs, before the first round."""
        if campaign.encounters.exists():
            return
        encounter = combat_services.create_encounter(campaign=campaign, name=name, by=gm)
        combat_services.add_combatants(
            encounter.pk,
            viewer=combat_services.Viewer(user_id=gm.pk, is_gm=True),
            characters=list(campaign.characters.values_list("pk", flat=True)),
        )
