"""Demo campaigns to click through: a GM, two players, their characters, the NPCs and an
encounter table set up with them all, for Eleora (three wolves) and, once those rulesets are
registered, for the Earthdawn-style step ruleset (bandits and an orc in a ravine) and for
Kroniki Fallathanu's d100 (an ambush at a ford played live, and a tower siege played by forum
posts, already in its first turn).

Idempotent: what exists is left as it is (passwords included), what is missing is created.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from characters import account, services
from characters.models import Campaign, Character, CreatureTemplate
from characters.sheets import clean_sheet
from combat import services as combat_services
from combat.models import Encounter
from combat.rules import battlemap
from combat.rules.base import battle_maps_of
from combat.rules.registry import get_ruleset

# Demo battle maps by encounter: '#' wall, 'o' obstacle, '~' difficult terrain, '1'–'3'
# darkness, 'P' one of the party (the players' side) and 'N' an opponent, placed in the table's
# order, '.' ground.
# The wolves' ambush puts every wolf beside both heroes: the fight starts in reach.
# Hex maps are drawn as their fields are: each row a list of fields, odd rows half a hex on.
MAPS: dict[str, str] = {
    "Zasadzka na leśnym trakcie": """
        o o . . 1 1 . . . . . . o o . .
        o 1 1 . . . . . . . . 1 1 o . .
        . . . . . . . . . . . . . . . .
        ~ ~ . . . . . . . . . . . . ~ ~
        . ~ ~ . . P N . . . . . . ~ ~ .
        . . ~ ~ N P N . . . . . ~ ~ . .
        . . . . . . . . . . . . . . . .
        o . . . . . . . . . . 2 2 . . #
        o o 1 . . . . . . . 2 2 o . # #
        o o o 1 . . . . . 2 2 o o # 3 #
    """,
    "Zasadzka w wąwozie": """
        # # # # # # # # # # # #
         # . . . ~ ~ . . . . . #
        # P . . ~ . . . . N . #
         # . P . . . o . . . N #
        # . . . . . o . . N . #
         # P . . . ~ ~ . . . . #
        # # # # # # # # # # # #
    """,
    "Zasadzka przy brodzie": """
        . . . . . . ~ ~ . . . . . .
        . P . . . . ~ ~ . . . N . .
        . . P . . . ~ ~ . . . . . .
        . . . . . ~ ~ . . o o . N .
        . P . . . ~ ~ . . o . . . .
        . . P . . ~ ~ . . . . N . .
        . . . . ~ ~ . . . . . . . .
    """,
}
PASSWORD = "eleora-demo"
# The demo accounts' addresses: a reserved domain, never a real mailbox.
MAIL_DOMAIN = "eleora.test"
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


# Kroniki Fallathanu (d100): its key, campaign, two encounters with their creatures, heroes.
D100 = "d100"
D100_CAMPAIGN = "Kroniki Fallathanu: Mgła nad Brodem"
D100_LIVE = "Zasadzka przy brodzie"
D100_POST = "Oblężenie wieży (forum)"
D100_ENCOUNTERS: tuple[tuple[str, tuple[tuple[str, int], ...], bool], ...] = (
    (D100_LIVE, (("Bandyta z traktu", 2), ("Szary wilk", 1)), False),
    (D100_POST, (("Ghul", 2), ("Wampir", 1)), True),  # by forum posts, started
)


def _d100_sheet(
    stats: tuple[int, int, int, int, int, int],
    skills: tuple[int, int],
    profile: dict[str, Any],
    weapons: list[tuple[str, str]],
    spells: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Zwinność, Zmysły, Krzepa, Wytrzymałość, Intelekt, Ogłada; Akrobatyka, Medycyna; the
    profile (pz, race, transformation, armour, shield); weapons as (name, kind)."""
    keys = ("zwinnosc", "zmysly", "krzepa", "wytrzymalosc", "intelekt", "oglada")
    base = {"pz": 100, "race": "czlowiek", "transformation": "", "armour": "", "shield": False}
    return {
        "attributes": dict(zip(keys, stats, strict=True)),
        "skills": dict(zip(("akrobatyka", "medycyna"), skills, strict=True)),
        "profile": {**base, **profile},
        "weapons": [{"name": name, "kind": kind} for name, kind in weapons],
        "spells": spells or [],
    }


def _spell(
    name: str, kind: str, turns: int = 1, summon: tuple[str, int, int, int] = ("", 1, 0, 0)
) -> dict[str, Any]:
    """A combat spell as the sheet stores it; a summon's creature (name, PŻ, Trafienie,
    Obrażenia) in the flat summon_* fields."""
    fields = ("summon_name", "summon_pz", "summon_attack", "summon_damage")
    return {"name": name, "kind": kind, "turns": turns, **dict(zip(fields, summon, strict=True))}


# A swordsman with a shield, a Ruan archer (her claws fight as a small weapon), a mage with a
# staff and three kinds of spell, and a werewolf with a two-handed axe; the last two without a
# player (the GM runs them until more players join).
D100_HEROES: tuple[tuple[str | None, str, dict[str, Any], str], ...] = (
    (
        "gracz1",
        "Borys z Brodu",
        _d100_sheet(
            (50, 40, 55, 50, 30, 40),
            (20, 10),
            {"pz": 120, "armour": "light", "shield": True},
            [("Szabla", "traditional"), ("Sztylet", "small")],
        ),
        "Przewoźnik i najemnik znad Brodu. Szabla i tarcza; w przeszywanicy.",
    ),
    (
        "gracz2",
        "Sayra Cichołapa",
        _d100_sheet(
            (60, 65, 35, 40, 35, 45),
            (40, 20),
            {"pz": 95, "race": "ruan", "armour": "light"},
            [("Łuk refleksyjny", "bow"), ("Nóż myśliwski", "small")],
        ),
        "Ruańska tropicielka. Strzela z łuku, a w zwarciu walczy pazurami.",
    ),
    (
        None,
        "Ilvena z Wieży",
        _d100_sheet(
            (40, 55, 25, 35, 65, 50),
            (10, 35),
            {"pz": 85},
            [("Laska z jesionu", "staff")],
            [
                _spell("Ognisty pocisk", "damage"),
                _spell("Oślepienie", "negative"),
                _spell("Duch wilka", "summon", 3, ("Duch wilka", 40, 45, 40)),
            ],
        ),
        "Uczennica maga z wieży nad rzeką. Prowadzi ją Mistrz Gry, dopóki nie dołączy gracz.",
    ),
    (
        None,
        "Gorm Wilczy Syn",
        _d100_sheet(
            (45, 45, 65, 60, 25, 35),
            (15, 0),
            {"pz": 140, "transformation": "wilkolak"},
            [("Topór dwuręczny", "heavy")],
        ),
        "Drwal z Mglistego Boru, Wilkołak: w walce się przemienia. Prowadzi go Mistrz Gry.",
    ),
)


class Command(BaseCommand):
    help = "Create the demo users and campaign (safe to run again)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--url", default=URL, help="the address the server listens on, to print (make run)"
        )

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
        self._d100(users)
        self.stdout.write(f"Eleora: {options.get('url') or URL}")
        for name in users:
            self.stdout.write(f"  login: {name:<8} hasło: {PASSWORD}")

    def _user(self, username: str) -> User:
        """A demo account, with a confirmed address (`make run` prints its mails)."""
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User.objects.create_user(username=username, password=PASSWORD)
            account.mark_confirmed(user, f"{username}@{MAIL_DOMAIN}")
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
            self._npcs(campaign, creature_name, count)
        if not hasattr(rules, "new_encounter"):
            self.stdout.write(f"Kampania „{MAGUS_CAMPAIGN}” bez starcia: system bez walk.")
            return
        self._encounter(campaign, users["mistrz"], MAGUS_ENCOUNTER)
        self.stdout.write(f"{rules.label}: kampania „{MAGUS_CAMPAIGN}”")

    def _npcs(self, campaign: Campaign, creature_name: str, count: int) -> list[int]:
        """The campaign's NPCs made from a shared creature (made now if there are none)."""
        creature = CreatureTemplate.objects.filter(
            campaign=None, ruleset=campaign.ruleset, name=creature_name
        ).first()
        if creature is None:
            raise CommandError(
                f"The shared bestiary has no {creature_name}: run `manage.py migrate` first."
            )
        if not campaign.characters.filter(source_creature=creature).exists():
            services.instantiate_creature(creature=creature, campaign=campaign, count=count)
        return list(
            campaign.characters.filter(source_creature=creature).values_list("pk", flat=True)
        )

    def _d100(self, users: dict[str, User]) -> None:
        """Kroniki Fallathanu: four heroes; bandits and a wolf at the ford (live), ghouls and a
        vampire at the tower (by forum posts, its first turn open).

        Skipped, with a note, while the ruleset is not registered; the encounters wait for its
        encounters (`new_encounter`)."""
        try:
            rules = get_ruleset(D100)
        except LookupError:
            self.stdout.write(f"Pomijam kampanię „{D100_CAMPAIGN}”: system {D100} nieznany.")
            return
        gm = users["mistrz"]
        campaign = Campaign.objects.filter(name=D100_CAMPAIGN, gm=gm).first()
        if campaign is None:
            campaign = services.create_campaign(
                gm=gm,
                name=D100_CAMPAIGN,
                description="Nad Brodem wisi mgła, a z niej wychodzą rzezimieszki i gorsze "
                "rzeczy: trupojady z kurhanów i wampir, który chce wieży nad rzeką.",
                ruleset=D100,
            )
        for login in ("gracz1", "gracz2"):
            services.join_campaign(campaign=campaign, user=users[login])
        for player, name, sheet, notes in D100_HEROES:
            self._hero(campaign, users[player] if player else None, name, sheet, notes)
        heroes = list(
            campaign.characters.filter(kind=Character.Kind.PC).values_list("pk", flat=True)
        )
        lineups = {
            name: [pk for creature, count in npcs for pk in self._npcs(campaign, creature, count)]
            for name, npcs, _by_post in D100_ENCOUNTERS
        }
        if not hasattr(rules, "new_encounter"):
            self.stdout.write(f"Kampania „{D100_CAMPAIGN}” bez starć: system bez walk.")
            return
        for name, _npcs, by_post in D100_ENCOUNTERS:
            if campaign.encounters.filter(name=name).exists():
                continue
            encounter = self._table(campaign, gm, name, [*heroes, *lineups[name]])
            if by_post:
                self._start_by_post(rules, encounter.pk, gm)
        self.stdout.write(f"{rules.label}: kampania „{D100_CAMPAIGN}”")

    def _table(self, campaign: Campaign, gm: User, name: str, characters: list[int]) -> Encounter:
        """A new table with these campaign characters at it, before the first round."""
        encounter = combat_services.create_encounter(campaign=campaign, name=name, by=gm)
        combat_services.add_combatants(
            encounter.pk,
            viewer=combat_services.Viewer(user_id=gm.pk, is_gm=True),
            characters=characters,
        )
        if name in MAPS:
            self._lay_map(encounter.pk, gm, MAPS[name])
        return encounter

    def _lay_map(self, encounter_id: int, gm: User, drawing: str) -> None:
        """The demo map drawn in `drawing`, painted and with every seat's token on it, by the
        GM's own commands (skipped where the ruleset has no battle map)."""
        table = combat_services.load_table(encounter_id)
        rules = get_ruleset(table.ruleset)
        maps = battle_maps_of(rules)
        if maps is None:
            return
        marks, edits = map_edits(drawing)
        commands = [maps.map_command(edit, 0.0) for edit in edits]
        seats = [table.view.seats[cid] for cid in table.view.order]
        free = {"P": list(marks.get("P", ())), "N": list(marks.get("N", ()))}
        party = {seat.side for seat in seats if seat.controller is not None}
        for seat in seats:
            spots = free["P" if seat.side in party else "N"]
            if spots:
                commands.append(maps.place_command(seat.id, spots.pop(0), 0.0))
        viewer = combat_services.Viewer(user_id=gm.pk, is_gm=True)
        for command in commands:
            combat_services.run_command(encounter_id, rules.command_to_dict(command), viewer=viewer)

    def _start_by_post(self, rules: Any, encounter_id: int, gm: User) -> None:
        """Switch the table to forum posts and open its first turn (the d100 engine's own
        commands; the table layer runs them as the GM's)."""
        from combat.rules.d100.commands import SetPace, StartCombat

        viewer = combat_services.Viewer(user_id=gm.pk, is_gm=True)
        for command in (SetPace(pace="post"), StartCombat()):
            combat_services.run_command(encounter_id, rules.command_to_dict(command), viewer=viewer)

    def _encounter(self, campaign: Campaign, gm: User, name: str) -> None:
        """A table ready to play: the campaign's heroes and NPCs, before the first round."""
        if campaign.encounters.exists():
            return
        self._table(campaign, gm, name, list(campaign.characters.values_list("pk", flat=True)))


def map_edits(drawing: str) -> tuple[dict[str, list[battlemap.Field]], list[Any]]:
    """A map drawn as text (MAPS): each mark's fields, and the edits that lay it (its size,
    then one paint per kind of terrain: # wall, o obstacle, ~ difficult, 1–3 darkness)."""
    rows = [line.strip().split() for line in drawing.strip("\n").splitlines() if line.strip()]
    marks: dict[str, list[battlemap.Field]] = {}
    for y, row in enumerate(rows):
        for x, mark in enumerate(row):
            marks.setdefault(mark, []).append((x, y))
    tools = {"#": "wall", "o": "obstacle", "~": "difficult", "1": "dark1", "2": "dark2"}
    edits: list[Any] = [battlemap.Resize(max(map(len, rows)), len(rows))]
    edits += [
        battlemap.Paint(tools.get(mark, "dark3"), tuple(fields))  # type: ignore[arg-type]
        for mark, fields in marks.items()
        if mark in (*tools, "3")
    ]
    return marks, edits
