"""A demo campaign to click through: a GM, two players, their characters, three wolves and
an encounter table set up with all five.

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
        self._encounter(campaign, users["mistrz"])
        self.stdout.write(f"Eleora: {URL}")
        for name in users:
            self.stdout.write(f"  login: {name:<8} hasło: {PASSWORD}")

    def _user(self, username: str) -> User:
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User.objects.create_user(username=username, password=PASSWORD)
        return user

    def _hero(
        self, campaign: Campaign, owner: User, name: str, sheet: dict[str, Any], notes: str
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
        wolf = CreatureTemplate.objects.filter(campaign=None, name="Wilk").first()
        if wolf is None:
            raise CommandError("The shared bestiary has no Wilk: run `manage.py migrate` first.")
        if not campaign.characters.filter(source_creature=wolf).exists():
            services.instantiate_creature(creature=wolf, campaign=campaign, count=3)

    def _encounter(self, campaign: Campaign, gm: User) -> None:
        """A table ready to play: both heroes and the three wolves, before initiative."""
        if campaign.encounters.exists():
            return
        encounter = combat_services.create_encounter(campaign=campaign, name=ENCOUNTER, by=gm)
        combat_services.add_combatants(
            encounter.pk,
            viewer=combat_services.Viewer(user_id=gm.pk, is_gm=True),
            characters=list(campaign.characters.values_list("pk", flat=True)),
        )
