"""Magus's forms as data: the equipment lists of a sheet and the GM's table settings, grouped.

The characters app builds the sheet editor, the validator, the sheet page and the table-settings
form from these records (`combat.rules.schema`). The item fields are those of the dataclasses
of `sheet` (Weapon, Armour, Shield, Spell, Item), with their defaults; the settings are every
field of `settings.MagusSettings`.

The ruleset's methods call them: `sheet_sections(self, settings)` returns
`forms.sheet_sections(settings)`, `settings_groups(self)` returns `forms.settings_groups()`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from combat.rules.base import gettext_noop
from combat.rules.magus.derived import settings_of
from combat.rules.magus.sheet import BROOCH, HEALING_ELIXIR, SADDLE
from combat.rules.schema import ItemField, Setting, SettingsGroup, SheetSection

MAX_NAME = 80
MAX_ARMOUR = 30
MAX_PENALTY = 10
MAX_SIZE = 10
MAX_DESTRUCTION = 99
MAX_COUNT = 99

# By the keys `sheet.ATTACK_TALENT` knows.
WEAPON_KINDS = (
    ("melee", gettext_noop("broń biała")),
    ("unarmed", gettext_noop("walka wręcz")),
    ("missile", gettext_noop("strzelecka")),
    ("thrown", gettext_noop("miotana")),
)
# The defence a spell's attack test goes against (keys of `sheet.STATS`).
SPELL_DEFENCES = (
    ("obrona_magiczna", gettext_noop("Obrona Magiczna")),
    ("obrona_fizyczna", gettext_noop("Obrona Fizyczna")),
    ("obrona_spoleczna", gettext_noop("Obrona Społeczna")),
)
ITEM_KINDS = (
    ("other", gettext_noop("inny")),
    (BROOCH, gettext_noop("Brosza ostrzeżenia")),
    (HEALING_ELIXIR, gettext_noop("Eliksir zdrowienia")),
    (SADDLE, gettext_noop("Siodło (wierzchowiec: można go dosiąść)")),
)

NAME = ItemField("name", gettext_noop("Nazwa"), "text", maximum=MAX_NAME)


def sheet_sections(settings: Mapping[str, Any] | None = None) -> tuple[SheetSection, ...]:
    """Weapons, armour, shields, spells and items; a step is at most the table's `step_max`."""
    step_max = settings_of(settings).step_max
    return (_weapons(step_max), ARMOUR, SHIELDS, _spells(step_max), ITEMS)


def _weapons(step_max: int) -> SheetSection:
    return SheetSection(
        "weapons",
        gettext_noop("Broń"),
        gettext_noop("Dodaj broń"),
        (
            NAME,
            ItemField("kind", gettext_noop("Rodzaj"), "choice", "melee", choices=WEAPON_KINDS),
            ItemField("damage", gettext_noop("Stopień obrażeń broni"), "int", 0, step_max),
            ItemField("size", gettext_noop("Rozmiar"), "int", 1, MAX_SIZE),
            ItemField("two_handed", gettext_noop("dwuręczna"), "bool", False),
            ItemField("magic", gettext_noop("magiczna"), "bool", False),
            ItemField("lance", gettext_noop("kopia"), "bool", False),
        ),
        gettext_noop("Brak broni."),
    )


def _armour_fields() -> tuple[ItemField, ...]:
    return (
        NAME,
        ItemField("physical", gettext_noop("Pancerz fizyczny"), "int", 0, MAX_ARMOUR),
        ItemField("mystic", gettext_noop("Pancerz duchowy"), "int", 0, MAX_ARMOUR),
        ItemField("initiative_penalty", gettext_noop("Kara do Inicjatywy"), "int", 0, MAX_PENALTY),
    )


ARMOUR = SheetSection(
    "armour",
    gettext_noop("Pancerz"),
    gettext_noop("Dodaj pancerz"),
    _armour_fields(),
    gettext_noop("Bez pancerza."),
)
SHIELDS = SheetSection(
    "shields",
    gettext_noop("Tarcze"),
    gettext_noop("Dodaj tarczę"),
    (
        *_armour_fields(),
        ItemField("destruction", gettext_noop("Próg zniszczenia"), "int", 10, MAX_DESTRUCTION),
        ItemField("magic", gettext_noop("magiczna"), "bool", False),
    ),
    gettext_noop("Bez tarczy."),
)


def _spells(step_max: int) -> SheetSection:
    return SheetSection(
        "spells",
        gettext_noop("Czary"),
        gettext_noop("Dodaj czar"),
        (
            NAME,
            ItemField("effect_step", gettext_noop("Stopień efektu"), "int", 0, step_max),
            ItemField(
                "defence",
                gettext_noop("Przeciw"),
                "choice",
                "obrona_magiczna",
                choices=SPELL_DEFENCES,
            ),
        ),
        gettext_noop("Bez czarów."),
    )


ITEMS = SheetSection(
    "items",
    gettext_noop("Przedmioty"),
    gettext_noop("Dodaj przedmiot"),
    (
        NAME,
        ItemField("kind", gettext_noop("Rodzaj"), "choice", "other", choices=ITEM_KINDS),
        ItemField("count", gettext_noop("Liczba"), "int", 1, MAX_COUNT),
    ),
    gettext_noop("Brak przedmiotów."),
)

# --- the GM's table settings -------------------------------------------------------------------

S = Setting
SECONDS = (0, 86400)
TIMEOUT = (3, 3600)
STEPS = (1, 100)

DICE = SettingsGroup(
    gettext_noop("Kości i testy"),
    (
        S(
            "step_table",
            gettext_noop("Tabela stopni (kości akcji)"),
            gettext_noop(
                "Jeden stopień w wierszu: „stopień: kości”, np. „9: d8+d6” albo „1: d4-2” "
                "(można pisać k zamiast d). Stopnie od 1 bez przerw; kość z maksymalnym "
                "wynikiem rzuca się ponownie i dodaje."
            ),
        ),
        S(
            "thresholds",
            gettext_noop("Poziomy sukcesu: punkty ponad Stopień trudności"),
            gettext_noop(
                "Przeciętny sukces to wynik równy Stopniowi trudności; progi muszą rosnąć."
            ),
            parts=(
                gettext_noop("Duży sukces"),
                gettext_noop("Ogromny sukces"),
                gettext_noop("Nadzwyczajny sukces"),
            ),
            bounds=(1, 99),
        ),
        S(
            "rule_of_one",
            gettext_noop("Zasada Jedynki"),
            gettext_noop("Gdy na wszystkich kościach testu akcji wypadnie 1, test się nie udaje."),
        ),
        S(
            "test_result_floor",
            gettext_noop("Najniższy wynik testu akcji"),
            gettext_noop("Testy efektu (obrażenia, zdrowienie) mogą dać 0."),
        ),
        S(
            "initiative_ties",
            gettext_noop("Remis w Inicjatywie"),
            choices=(
                ("dexterity", gettext_noop("wyższa Zręczność, potem jednocześnie")),
                ("simultaneous", gettext_noop("jednocześnie")),
            ),
        ),
    ),
)
LIVE_TABLE = SettingsGroup(
    gettext_noop("Stół na żywo"),
    (
        S(
            "players_roll_initiative",
            gettext_noop("Gracze sami rzucają na Inicjatywę"),
            gettext_noop("Wyłączone: serwer rzuca za wszystkich na początku rundy."),
        ),
        S(
            "declaration_timeout_s",
            gettext_noop("Czas na deklaracje (s)"),
            gettext_noop("Kto nie zadeklaruje w tym czasie, działa bez deklaracji."),
            bounds=TIMEOUT,
        ),
        S(
            "initiative_timeout_s",
            gettext_noop("Czas na rzut Inicjatywy (s)"),
            gettext_noop("Potem serwer rzuca za tych, którzy nie rzucili."),
            bounds=TIMEOUT,
        ),
        S(
            "reaction_timeout_s",
            gettext_noop("Czas na reakcję (Unik, Riposta) (s)"),
            bounds=TIMEOUT,
        ),
        S(
            "npc_default_policy",
            gettext_noop("Reakcje BN (domyślnie)"),
            gettext_noop(
                "Jak postacie Mistrza Gry odpowiadają na ataki, gdy nie ustawiono inaczej."
            ),
            choices=(
                ("ask", gettext_noop("Pytaj MG")),
                ("best", gettext_noop("najlepszy talent obronny")),
                ("none", gettext_noop("bez reakcji")),
            ),
        ),
        S(
            "round_seconds",
            gettext_noop("Długość rundy w czasie gry (s)"),
            gettext_noop("Według niej liczy się czas oczekiwania na testy zdrowienia."),
            bounds=(1, 600),
        ),
    ),
)
MOVEMENT = SettingsGroup(
    gettext_noop("Ruch i działania"),
    (
        S(
            "initiative_movement",
            gettext_noop("Ruch według Inicjatywy"),
            gettext_noop(
                "Zasada opcjonalna: każde pole (2 m) ruchu obniża Inicjatywę o 1; zastępuje "
                "Ruch dzielony."
            ),
        ),
        S("hold_penalty", gettext_noop("Powstrzymanie działania: do Stopnia trudności")),
        S("change_action_penalty", gettext_noop("Zmiana akcji: do Stopnia trudności za zmianę")),
        S("harried_penalty", gettext_noop("Otoczony: kara do obron i testów akcji")),
        S(
            "harried_attackers",
            gettext_noop("Otoczony od tylu atakujących wręcz"),
            gettext_noop("0: tylko z opcji walki (Bieg, Ruch dzielony)."),
        ),
        S(
            "stunned_no_actions",
            gettext_noop("Ogłuszony nie działa"),
            gettext_noop("Wyłączone: ogłuszenie nie odbiera akcji."),
        ),
        S(
            "stun_rounds_per_level",
            gettext_noop("Atak by ogłuszyć: rund ogłuszenia na poziom sukcesu"),
        ),
    ),
)
OPTIONS = SettingsGroup(
    gettext_noop("Opcje walki: premie i kary"),
    (
        S("aggressive_bonus", gettext_noop("Agresywny atak: premia do ataku i obrażeń")),
        S(
            "aggressive_defence_penalty",
            gettext_noop("Agresywny atak: kara do Obrony Fizycznej i Magicznej"),
        ),
        S("defensive_stance_bonus", gettext_noop("Postawa obronna: premia do obron")),
        S("defensive_stance_penalty", gettext_noop("Postawa obronna: kara do wyników akcji")),
        S("giving_ground_attack_penalty", gettext_noop("Oddawanie pola: kara do ataku")),
        S("aim_bonus", gettext_noop("Przycelowanie: premia po rundzie")),
        S("aim_bonus_second_round", gettext_noop("Przycelowanie: premia po dwóch rundach")),
        S("called_shot_penalty", gettext_noop("Precyzyjny atak: kara do ataku")),
        S(
            "called_shot_two_handed_bonus",
            gettext_noop("Precyzyjny atak: premia do utrzymania broni dwuręcznej"),
        ),
        S(
            "inside_shield_lost_penalty",
            gettext_noop("Ominięcie tarczy: kara do ataku po przegranej Inicjatywie"),
        ),
        S("knocked_down_penalty", gettext_noop("Powalony: kara do obron i testów akcji")),
        S("getting_up_dn", gettext_noop("Powstanie: Stopień trudności testu Zręczności")),
        S("unconscious_defence_penalty", gettext_noop("Nieprzytomny: kara do obron")),
        S("blindside_penalty", gettext_noop("Atak z tyłu: kara do obron celu")),
        S("surprise_defence_penalty", gettext_noop("Zaskoczony: kara do obron")),
        S(
            "mounted_split_move_penalty",
            gettext_noop("Jeździec: kara do obron przy ruchu dzielonym"),
        ),
        S(
            "sprint_metres_per_rank",
            gettext_noop("Sprint: metry ruchu za poziom (Bieg ich nie podwaja)"),
        ),
    ),
)
STRAIN = SettingsGroup(
    gettext_noop("Wyczerpanie"),
    (
        S(
            "strain_damage",
            gettext_noop("Obrażenia za punkt Wyczerpania"),
            gettext_noop("Wyczerpanie zadeklarowanych opcji płaci się od razu, jako obrażenia."),
        ),
        S("running_strain", gettext_noop("Bieg")),
        S("aggressive_strain", gettext_noop("Agresywny atak (za atak)")),
        S("giving_ground_strain", gettext_noop("Oddawanie pola")),
        S("aiming_strain", gettext_noop("Przycelowanie (za rundę)")),
        S("called_shot_strain", gettext_noop("Precyzyjny atak")),
        S("getting_up_strain", gettext_noop("Powstanie")),
        S("shatter_shield_strain", gettext_noop("Strzaskanie tarczy")),
        S("split_move_strain", gettext_noop("Ruch dzielony")),
        S("avoid_blow_strain", gettext_noop("Unik")),
        S("riposte_strain", gettext_noop("Riposta")),
    ),
)
DAMAGE = SettingsGroup(
    gettext_noop("Obrażenia i rany"),
    (
        S(
            "max_damage_multiplier",
            gettext_noop("Największe obrażenia broni niemagicznej: × stopień obrażeń"),
            bounds=(1, 99),
        ),
        S(
            "minimum_damage_on_good",
            gettext_noop("Duży sukces zadaje co najmniej stopień obrażeń"),
        ),
        S(
            "shield_raises_penetration",
            gettext_noop("Tarcza podnosi próg przebicia pancerza"),
            gettext_noop("Ogromny sukces przebija pancerz dopiero o wartość tarczy wyżej."),
        ),
        S(
            "knockdown_base",
            gettext_noop("Test równowagi: podstawa Stopnia trudności"),
            gettext_noop(
                "Stopień trudności = ta liczba + obrażenia ponad Próg Ran (przeciw Sile)."
            ),
        ),
        S("wound_penalty", gettext_noop("Kara za każdą ranę po pierwszej")),
        S("hemorrhage_damage", gettext_noop("Krwotok: obrażenia na rundę")),
        S("severed_limb_step", gettext_noop("Oderwana kończyna: stopień obrażeń na rundę")),
        S(
            "shatter_min_size",
            gettext_noop("Strzaskanie tarczy: najmniejszy rozmiar broni"),
        ),
        S("mounted_fall_step", gettext_noop("Upadek z wierzchowca: stopień obrażeń")),
    ),
)
SURPRISE = SettingsGroup(
    gettext_noop("Zaskoczenie"),
    (
        S("surprise_dusk", gettext_noop("Zmierzch lub świt: do Stopnia trudności")),
        S(
            "surprise_darkness",
            gettext_noop("Ciemność: do Stopnia trudności"),
            parts=(gettext_noop("częściowa"), gettext_noop("pełna"), gettext_noop("całkowita")),
        ),
        S(
            "surprise_rain",
            gettext_noop("Deszcz: do Stopnia trudności"),
            parts=(gettext_noop("lekki"), gettext_noop("ulewa")),
        ),
        S("surprise_camouflage", gettext_noop("Kamuflaż: do Stopnia trudności")),
        S("brooch_range_m", gettext_noop("Brosza ostrzeżenia: zasięg (m)"), bounds=(0, 999)),
        S("brooch_damage", gettext_noop("Brosza ostrzeżenia: obrażenia za wykrycie")),
    ),
)
RECOVERY = SettingsGroup(
    gettext_noop("Zdrowienie (czas gry)"),
    (
        S(
            "revive_wait_s",
            gettext_noop("Odzyskanie przytomności: test po (s)"),
            bounds=SECONDS,
        ),
        S(
            "recovery_interval_s",
            gettext_noop("Odstęp między testami zdrowienia (s)"),
            bounds=SECONDS,
        ),
        S(
            "recovery_quiet_s",
            gettext_noop("Spokój przed testem zdrowienia (s)"),
            gettext_noop("Tyle czasu bez wysiłku fizycznego i bez nowych obrażeń przed testem."),
            bounds=SECONDS,
        ),
        S(
            "after_combat_wait_s",
            gettext_noop("Odpoczynek po walce przed testem zdrowienia (s)"),
            bounds=SECONDS,
        ),
        S(
            "night_rest_s",
            gettext_noop("Całonocny odpoczynek: długość (s)"),
            gettext_noop("Tyle czasu gry mija po „Całonocny odpoczynek”; leczy jedną Ranę."),
            bounds=SECONDS,
        ),
    ),
)
ENVIRONMENT = SettingsGroup(
    gettext_noop("Otoczenie (zasady opcjonalne)"),
    (
        S(
            "darkness_steps",
            gettext_noop("Ciemność: kara w stopniach do testów wzroku"),
            parts=(gettext_noop("częściowa"), gettext_noop("pełna"), gettext_noop("całkowita")),
        ),
        S(
            "cover_defence",
            gettext_noop("Osłona: premia do Obrony Fizycznej"),
            parts=(gettext_noop("częściowa"), gettext_noop("pełna")),
        ),
        S(
            "range_penalties",
            gettext_noop("Zasięg: kara do ataku"),
            parts=(gettext_noop("średni"), gettext_noop("daleki")),
        ),
    ),
)
SHEET_RANGES = SettingsGroup(
    gettext_noop("Karty postaci"),
    (
        S("step_min", gettext_noop("Stopnie cech: minimum"), bounds=STEPS),
        S("step_max", gettext_noop("Stopnie cech: maksimum"), bounds=STEPS),
        S("rank_max", gettext_noop("Ranga talentu: maksimum")),
    ),
)
SETTINGS_GROUPS = (
    DICE,
    LIVE_TABLE,
    MOVEMENT,
    OPTIONS,
    STRAIN,
    DAMAGE,
    SURPRISE,
    RECOVERY,
    ENVIRONMENT,
    SHEET_RANGES,
)


def settings_groups() -> tuple[SettingsGroup, ...]:
    """Every table setting of `MagusSettings`, grouped for the GM's form."""
    return SETTINGS_GROUPS
