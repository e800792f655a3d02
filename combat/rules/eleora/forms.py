"""Eleora's forms as data: the equipment lists of a sheet and the GM's table settings, grouped.

The characters app builds the sheet editor, the sheet validator, the sheet page and the
table-settings form from these records (`combat.rules.schema`), so it names no rule of Eleora.
The keys are those `sheet.sheet_from_dict` reads and `settings.TableSettings` holds.
"""

from __future__ import annotations

from combat.rules.base import gettext_noop
from combat.rules.eleora.sheet import ATTRIBUTES, SKILLS
from combat.rules.schema import ItemField, Setting, SettingsGroup, SheetSection

MAX_NAME = 80
MAX_DAMAGE = 50
MAX_BONUS = 20
MAX_RELOAD = 10

# By the keys of `sheet.WeaponKind` and `sheet.DamageType`.
WEAPON_KINDS = {
    "wrecz": gettext_noop("Walka Wręcz"),
    "lekka": gettext_noop("Broń Lekka"),
    "ciezka": gettext_noop("Broń Ciężka"),
}
DAMAGE_TYPES = {
    "fizyczne": gettext_noop("fizyczne"),
    "ogluszajace": gettext_noop("ogłuszające"),
}

NAME = ItemField("name", gettext_noop("Nazwa"), "text", maximum=MAX_NAME)
WEAPONS = SheetSection(
    "weapons",
    gettext_noop("Broń"),
    gettext_noop("Dodaj broń"),
    (
        NAME,
        ItemField(
            "kind",
            gettext_noop("Rodzaj"),
            "choice",
            "lekka",
            choices=tuple(WEAPON_KINDS.items()),
        ),
        ItemField("damage", gettext_noop("Obrażenia"), "int", maximum=MAX_DAMAGE),
        ItemField(
            "damage_type",
            gettext_noop("Typ obrażeń"),
            "choice",
            "fizyczne",
            choices=tuple(DAMAGE_TYPES.items()),
        ),
        ItemField("short", gettext_noop("krótka"), "bool", False),
        ItemField("ranged", gettext_noop("dystansowa"), "bool", False),
        ItemField("thrown", gettext_noop("miotana"), "bool", False),
        ItemField("improvised", gettext_noop("improwizowana"), "bool", False),
        ItemField("two_handed", gettext_noop("dwuręczna"), "bool", False),
        ItemField(
            "reload_actions",
            gettext_noop("Przeładowanie (akcje)"),
            "int",
            0,
            MAX_RELOAD,
            badge=gettext_noop("Przeładowanie: %(n)s"),
        ),
    ),
    gettext_noop("Brak broni."),
)
ARMOUR = SheetSection(
    "armour",
    gettext_noop("Pancerz"),
    gettext_noop("Dodaj pancerz"),
    (
        NAME,
        ItemField("defence_bonus", gettext_noop("Premia do Obrony"), "int", 0, MAX_BONUS),
        ItemField("armour_points", gettext_noop("Pancerz"), "int", 0, MAX_BONUS),
    ),
    gettext_noop("Bez pancerza."),
)
SHIELDS = SheetSection(
    "shields",
    gettext_noop("Tarcze"),
    gettext_noop("Dodaj tarczę"),
    (NAME, ItemField("bonus", gettext_noop("Premia"), "int", maximum=MAX_BONUS)),
    gettext_noop("Bez tarczy."),
)
SHEET_SECTIONS = (WEAPONS, ARMOUR, SHIELDS)

# --- the GM's table settings -------------------------------------------------------------------

S = Setting
# The attack skills follow the weapon class: their attribute is set per class above them.
ATTACK_SKILLS = {"walka_wrecz", "bron_lekka", "bron_ciezka"}

DICE = SettingsGroup(
    gettext_noop("Kości i testy"),
    (
        S("success_faces", gettext_noop("Ścianki k6 dające sukces"), faces=True),
        S(
            "critical_failure_needs_one",
            gettext_noop("Krytyczna porażka wymaga choć jednej jedynki"),
        ),
        S(
            "tie_goes_to",
            gettext_noop("Remis w ataku wygrywa"),
            choices=(
                ("defender", gettext_noop("obrońca (pudło)")),
                ("attacker", gettext_noop("atakujący")),
            ),
        ),
        S(
            "przebicia_mode",
            gettext_noop("Przebicia do obrażeń"),
            choices=(
                ("margin", gettext_noop("cała przewaga sukcesów")),
                ("margin_minus_one", gettext_noop("przewaga minus jeden")),
            ),
        ),
        S("heroism_max", gettext_noop("Najwięcej Kostek Heroizmu")),
    ),
)
HEALTH = SettingsGroup(
    gettext_noop("Zdrowie, obrażenia, leczenie"),
    (
        S(
            "maiming_enabled",
            gettext_noop("Tabela Okaleczeń i Śmierci"),
            gettext_noop("Wyłączona: śmierć od razu."),
        ),
        S(
            "maiming_on_every_loss",
            gettext_noop("Okaleczenie przy każdej dalszej utracie Zdrowia"),
            gettext_noop("Wyłączone: rzut tylko przy pierwszym spadku."),
        ),
        S("maiming_trigger", gettext_noop("Okaleczenie przy Zdrowiu ≤"), bounds=(-99, 99)),
        S("unconscious_at", gettext_noop("Nieprzytomność przy Zdrowiu ≤"), bounds=(-99, 99)),
        S("stun_cannot_kill", gettext_noop("Ogłuszenie nie zbija Zdrowia poniżej 1")),
        S(
            "natural_heal_mode",
            gettext_noop("Naturalne Leczenie"),
            choices=(
                ("test", gettext_noop("test Krzepy")),
                ("flat2", gettext_noop("stałe 2 na tydzień")),
            ),
        ),
        S("bleeding_max", gettext_noop("Krwawienie: najwięcej stosów")),
        S("bleeding_turns", gettext_noop("Krwawienie: tury")),
        S("burning_turns", gettext_noop("Podpalenie: tury")),
        S("fatigue_max", gettext_noop("Zmęczenie: maksimum")),
        S("dazed_turns", gettext_noop("Oszołomienie: tury")),
        S(
            "fall_stun_reduced_by_wola",
            gettext_noop("Wola zmniejsza obrażenia od upadku i tonięcia"),
        ),
        S(
            "wound_thresholds",
            gettext_noop("Poziom ran widziany przez graczy (procent pozostałego Zdrowia)"),
            parts=(
                gettext_noop("Draśnięcia powyżej"),
                gettext_noop("Rany powyżej"),
                gettext_noop("Ciężkie rany powyżej"),
            ),
            bounds=(0, 100),
        ),
    ),
)
ACTIONS = SettingsGroup(
    gettext_noop("Akcje i ruch"),
    (
        S("actions_per_turn", gettext_noop("Akcje na turę")),
        S("reactions_per_turn", gettext_noop("Reakcje na turę")),
        S("aim_cap", gettext_noop("Celowanie: najwięcej kości")),
        S(
            "charge_cap",
            gettext_noop("Szarża: najwięcej kości"),
            gettext_noop("Puste: bez limitu."),
            optional=True,
        ),
        S("base_movement", gettext_noop("Podstawowy Ruch (m)")),
        S("prone_movement", gettext_noop("Ruch powalonego (m)")),
        S("grab_base_bonus", gettext_noop("Schwytanie: dodatek do trudności")),
        S("immobilized_max", gettext_noop("Unieruchomienie: najwięcej stosów")),
        S("reaction_timeout_s", gettext_noop("Czas na reakcję (s)"), bounds=(3, 600)),
        S(
            "collision_rounding",
            gettext_noop("Wymuszone Poruszanie: połowa brakujących metrów przy zderzeniu"),
            choices=(
                ("up", gettext_noop("zaokrąglana w górę")),
                ("down", gettext_noop("zaokrąglana w dół")),
            ),
        ),
    ),
)
# How a GM-run character answers its prompts (the labels of EleoraRuleset.reaction_policies).
NPC_POLICY_CHOICES = (
    ("ask", gettext_noop("Pytaj MG")),
    ("lepsza", gettext_noop("Parowanie z tarczą, inaczej Unik")),
    ("unik", gettext_noop("zawsze Unik")),
    ("parowanie", gettext_noop("zawsze Parowanie")),
    ("brak", gettext_noop("bez reakcji")),
)
LIVE_TABLE = SettingsGroup(
    gettext_noop("Stół na żywo"),
    (
        S(
            "npc_default_policy",
            gettext_noop("Reakcje BN (domyślnie)"),
            gettext_noop(
                "Jak postacie Mistrza Gry odpowiadają na ataki, gdy nie ustawiono inaczej."
            ),
            choices=NPC_POLICY_CHOICES,
        ),
        S(
            "auto_end_turn",
            gettext_noop("Tura kończy się sama"),
            gettext_noop("Gdy nie zostały żadne akcje i nikt nie musi odpowiedzieć."),
        ),
    ),
)
WEAPON_DEFAULTS = SettingsGroup(
    gettext_noop("Broń i tarcze (domyślne)"),
    (
        S("light_weapon_damage", gettext_noop("Obrażenia Broni Lekkiej")),
        S("heavy_weapon_damage", gettext_noop("Obrażenia Broni Ciężkiej")),
        S("shield_bonus", gettext_noop("Premia tarczy")),
    ),
)
DICE_MODIFIERS = SettingsGroup(
    gettext_noop("Kary i premie (kości)"),
    (
        S("ranged_cover_penalty", gettext_noop("Strzał w zasłonięty cel")),
        S("blind_attack_penalty", gettext_noop("Oślepienie (atak)")),
        S("flat_attack_penalty", gettext_noop("Atak Płazem")),
        S("improvised_penalty", gettext_noop("Broń improwizowana")),
        S("unarmed_vs_armed_penalty", gettext_noop("Bez broni na uzbrojonego")),
        S("blinded_penalty", gettext_noop("Oślepiony")),
        S("blinded_defence_floor", gettext_noop("Oślepiony: Obrona co najmniej")),
        S(
            "blinded_floor_players_only",
            gettext_noop("Oślepiony: dolna granica Obrony tylko dla postaci graczy"),
            gettext_noop("Wyłączone: dla każdego broniącego się („Obrona Gracza”)."),
        ),
        S("frenzy_attack_bonus", gettext_noop("Szał: premia do ataku")),
        S("frenzy_defence_penalty", gettext_noop("Szał: kara do Obrony")),
        S("surrounded_threshold", gettext_noop("Otoczenie: od ilu wrogów")),
        S("surrounded_penalty", gettext_noop("Otoczenie: kara")),
        S("full_flank_bonus", gettext_noop("Pełna flanka")),
        S("half_flank_bonus", gettext_noop("Półflanka")),
        S(
            "darkness_penalties",
            gettext_noop("Ciemność"),
            parts=(gettext_noop("półmrok"), gettext_noop("mrok"), gettext_noop("ciemność")),
        ),
        S("darkness_on_defence", gettext_noop("Ciemność obniża też Obronę")),
        S(
            "prone_loses_unik",
            gettext_noop("Powalony: Unik nie dodaje Zręczności"),
            gettext_noop("Powalona postać traci premię do obrony ze Zręczności, także z Uniku."),
        ),
        S(
            "opportunity_on_defence_critical",
            gettext_noop("Krytyczna porażka Obrony daje Atak okazyjny"),
            gettext_noop("„Krytyczna porażka w jakimkolwiek teście”: także w rzucie Obrony."),
        ),
    ),
)
ATTRIBUTES_IN_TESTS = SettingsGroup(
    gettext_noop("Atrybuty w testach"),
    (
        S("attack_attribute_wrecz", gettext_noop("Atak: Walka Wręcz z"), choices=ATTRIBUTES),
        S("attack_attribute_lekka", gettext_noop("Atak: Broń Lekka z"), choices=ATTRIBUTES),
        S("attack_attribute_ciezka", gettext_noop("Atak: Broń Ciężka z"), choices=ATTRIBUTES),
        *(
            S(f"skill_attribute_{key}", label, choices=ATTRIBUTES)
            for key, label in SKILLS
            if key not in ATTACK_SKILLS
        ),
    ),
)
SHEET_RANGES = SettingsGroup(
    gettext_noop("Karty postaci"),
    (
        S("attribute_min", gettext_noop("Atrybuty: minimum")),
        S("attribute_max", gettext_noop("Atrybuty: maksimum")),
        S("skill_min", gettext_noop("Umiejętności: minimum")),
        S("skill_max", gettext_noop("Umiejętności: maksimum")),
    ),
)
SETTINGS_GROUPS = (
    DICE,
    HEALTH,
    ACTIONS,
    LIVE_TABLE,
    WEAPON_DEFAULTS,
    DICE_MODIFIERS,
    ATTRIBUTES_IN_TESTS,
    SHEET_RANGES,
)
