"""The d100 forms as data: the equipment lists of a sheet, its single fields and the GM's table
settings, grouped (`combat.rules.schema`; like `magus/forms.py`).

`sheet_sections` are the lists (weapons, spells); `sheet_fields` the sheet's single values
outside attributes and skills (PŻ, race, transformation, armour, shield), as item fields the
app may render the same way. `settings_groups` holds every field of `D100Settings` once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from combat.rules.base import gettext_noop
from combat.rules.d100.equipment import (
    ARMOUR_LABELS,
    RACE_LABELS,
    TRANSFORMATION_LABELS,
    WEAPON_LABELS,
    label_of,
)
from combat.rules.d100.settings import ATTRIBUTES, BOUNDS, D100Settings, settings_of
from combat.rules.d100.sheet import MAX_NAME, MAX_TURNS, PROFILE, SPELL_KINDS
from combat.rules.schema import ItemField, Setting, SettingsGroup, SheetSection

NAME = ItemField("name", gettext_noop("Nazwa"), "text", maximum=MAX_NAME)


def _choices(keys: Any, labels: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple((key, label_of(labels, key)) for key in keys)


def sheet_sections(
    settings: Mapping[str, Any] | D100Settings | None = None,
) -> tuple[SheetSection, ...]:
    """The sheet's single values (one "profile" set of fields: PŻ, race, transformation,
    armour, shield), weapons (a name and a kind of the table's weapons) and spells."""
    s = settings_of(settings)
    profile = SheetSection(
        PROFILE,
        gettext_noop("Profil postaci"),
        "",
        sheet_fields(s),
        single=True,
    )
    weapons = SheetSection(
        "weapons",
        gettext_noop("Broń"),
        gettext_noop("Dodaj broń"),
        (
            NAME,
            ItemField(
                "kind",
                gettext_noop("Rodzaj"),
                "choice",
                "traditional" if "traditional" in s.weapons else "unarmed",
                choices=_choices(s.weapons, WEAPON_LABELS),
            ),
        ),
        gettext_noop("Brak broni."),
    )
    spells = SheetSection(
        "spells",
        gettext_noop("Czary bojowe"),
        gettext_noop("Dodaj czar"),
        (
            NAME,
            ItemField("kind", gettext_noop("Rodzaj"), "choice", "damage", choices=SPELL_KINDS),
            ItemField("turns", gettext_noop("Czas działania (tury)"), "int", 1, MAX_TURNS),
            ItemField("mind", gettext_noop("działa na umysł"), "bool", False),
            ItemField("summon_name", gettext_noop("Przyzwaniec: nazwa"), "text", "", MAX_NAME),
            ItemField("summon_pz", gettext_noop("Przyzwaniec: PŻ"), "int", 1, s.pz_max, minimum=1),
            ItemField(
                "summon_attack", gettext_noop("Przyzwaniec: Trafienie"), "int", 0, s.attribute_max
            ),
            ItemField(
                "summon_damage", gettext_noop("Przyzwaniec: Obrażenia"), "int", 0, s.attribute_max
            ),
        ),
        gettext_noop("Bez czarów."),
    )
    return (profile, weapons, spells)


def sheet_fields(
    settings: Mapping[str, Any] | D100Settings | None = None,
) -> tuple[ItemField, ...]:
    """The sheet's single values: PŻ (required), race, transformation, armour and shield."""
    s = settings_of(settings)
    return (
        ItemField("pz", gettext_noop("PŻ (maksimum)"), "int", None, s.pz_max, minimum=1),
        ItemField(
            "race",
            gettext_noop("Rasa"),
            "choice",
            "czlowiek",
            choices=_choices(s.races, RACE_LABELS),
        ),
        ItemField(
            "transformation",
            gettext_noop("Przemiana"),
            "choice",
            "",
            choices=(
                ("", gettext_noop("brak")),
                *_choices(s.transformations, TRANSFORMATION_LABELS),
            ),
        ),
        ItemField(
            "armour",
            gettext_noop("Zbroja"),
            "choice",
            "",
            choices=(("", gettext_noop("bez zbroi")), *_choices(s.armours, ARMOUR_LABELS)),
        ),
        ItemField("shield", gettext_noop("Tarcza"), "bool", False),
    )


# --- the GM's table settings -------------------------------------------------------------------


def S(key: str, label: str, help: str = "", **kwargs: Any) -> Setting:
    """A Setting whose bounds are the rules' own (`settings.BOUNDS`)."""
    if key in BOUNDS and "bounds" not in kwargs:
        kwargs["bounds"] = BOUNDS[key]
    return Setting(key, label, help, **kwargs)


ATTRIBUTE_CHOICES = ATTRIBUTES

TESTS = SettingsGroup(
    gettext_noop("Rzuty k100"),
    (
        S(
            "crit_luck_max",
            gettext_noop("Krytyczne szczęście: rzut do"),
            gettext_noop("Rzuty 01–ta liczba zawsze się udają (0: bez krytycznego szczęścia)."),
        ),
        S(
            "crit_bad_min",
            gettext_noop("Krytyczny pech: rzut od"),
            gettext_noop("Rzuty od tej liczby do 100 zawsze się nie udają (101: bez pecha)."),
        ),
        S(
            "minimal_margin",
            gettext_noop("Minimalny sukces: OoP do"),
            gettext_noop("Sukces z OoP od 0 do tej liczby to minimalny sukces."),
        ),
        S(
            "modifier_cap",
            gettext_noop("Suma modyfikatorów: najwyżej ±"),
            gettext_noop("Premie i kary jednego rzutu razem nie przekraczają tej wartości."),
        ),
        S(
            "difficulty",
            gettext_noop("Poziom trudności Opowieści"),
            gettext_noop("Na wysokim efekty krytyczne są obowiązkowe, a krytyczny pech podwójny."),
            choices=(
                ("low", gettext_noop("niski")),
                ("moderate", gettext_noop("umiarkowany")),
                ("high", gettext_noop("wysoki")),
            ),
        ),
        S(
            "optional_crits",
            gettext_noop("Efekty krytyczne na niskim i umiarkowanym poziomie"),
            gettext_noop("Wyłączone: MG pomija tabelę krytyków (na wysokim poziomie zawsze)."),
        ),
        S("high_bad_luck_factor", gettext_noop("Wysoki poziom: mnożnik krytycznego pecha")),
        S(
            "high_stagger",
            gettext_noop("Wysoki poziom: Zachwianie z pecha"),
            choices=(
                ("duration", gettext_noop("trwa 2 tury")),
                ("penalty", gettext_noop("1 tura, podwojone kary")),
            ),
        ),
    ),
)
ATTACKS = SettingsGroup(
    gettext_noop("Atak, obrona i obrażenia"),
    (
        S(
            "damage_multiplier",
            gettext_noop("Obrażenia: OoP ×"),
            gettext_noop("Udany rzut na Obrażenia zadaje OoP razy ta liczba."),
        ),
        S(
            "resistance_roll",
            gettext_noop("Rzut na Wytrzymałość odejmuje obrażenia"),
            gettext_noop("Udany rzut odejmuje swoje OoP × mnożnik obrażeń (najmniej 0)."),
        ),
        S(
            "tie_to_defender",
            gettext_noop("Remis OoP: wygrywa obrońca"),
            gettext_noop("Wyłączone: przy równym OoP atak trafia."),
        ),
        S("block_attribute", gettext_noop("Blok: atrybut"), choices=ATTRIBUTE_CHOICES),
        S(
            "mind_attribute",
            gettext_noop("Obrona przed magią umysłu: atrybut"),
            choices=ATTRIBUTE_CHOICES,
        ),
        S(
            "magic_dodgeable",
            gettext_noop("Unik przed czarem zadającym obrażenia"),
        ),
        S(
            "two_weapon_penalty",
            gettext_noop("Walka dwiema broniami: kara do Trafienia"),
            gettext_noop("Zamiast modyfikatorów Trafienia obu broni; także pazury obiema dłońmi."),
        ),
        S("two_pistol_penalty", gettext_noop("Walka dwoma pistoletami: kara do Trafienia")),
    ),
)
EQUIPMENT = SettingsGroup(
    gettext_noop("Broń, zbroje i rasy"),
    (
        S(
            "weapons",
            gettext_noop("Rodzaje broni"),
            gettext_noop(
                "Jeden rodzaj w wierszu: „klucz: styl trafienie obrażenia [flagi]”, np. "
                "„small: melee +5 +10 small shield”. Style: melee, thrown, ranged, magic, "
                "unarmed; flagi: small (mała), two_handed (dwuręczna), shield (z tarczą). "
                "Wiersze unarmed i small są konieczne."
            ),
        ),
        S(
            "armours",
            gettext_noop("Zbroje"),
            gettext_noop("„klucz: redukcja% modyfikator_Uniku”, np. „light: 10 -10”."),
        ),
        S(
            "shield",
            gettext_noop("Tarcza"),
            parts=(gettext_noop("redukcja obrażeń (%)"), gettext_noop("modyfikator Uniku")),
        ),
        S(
            "races",
            gettext_noop("Rasy i ich pazury"),
            gettext_noop(
                "„rasa: pazury”: none (bez pazurów), small (jak broń mała) albo "
                "„trafienie obrażenia”, np. „haressdren: +5 +3”."
            ),
        ),
        S(
            "transformations",
            gettext_noop("Przemiany"),
            gettext_noop("„klucz: atrybut mod …”, np. „wampir: krzepa +10 zwinnosc +10”."),
        ),
        S(
            "transform_ignored_injuries",
            gettext_noop("Po przemianie: ignorowane Urazy"),
        ),
        S(
            "armour_donning",
            gettext_noop("Zakładanie i zdejmowanie pancerza (min.)"),
            gettext_noop(
                "„klucz: zakładanie zdejmowanie pomoc”; minuty „z pomocą/bez” albo jedna liczba; "
                "pomoc: no, useful, needed, required (bez pomocy się nie da)."
            ),
        ),
    ),
)
CONDITIONS = SettingsGroup(
    gettext_noop("Stany i krytyki"),
    (
        S("knockdown_penalty", gettext_noop("Powalenie: kara do ataków i Uników")),
        S("stagger_penalty", gettext_noop("Zachwianie: kara do Trafienia i Uniku")),
        S("self_damage_percent", gettext_noop("Pech przy Trafieniu: obrażenia własne (% max PŻ)")),
        S("bleed_percent", gettext_noop("Krwawienie: % obrażeń ciosu na turę")),
        S("bleed_turns", gettext_noop("Krwawienie: liczba tur")),
        S("defence_crit_mod", gettext_noop("Krytyk w obronie: modyfikator ±")),
        S("damage_bad_luck", gettext_noop("Pech przy Obrażeniach: kara w następnej turze")),
        S("spell_bad_luck", gettext_noop("Pech przy czarze: kara w następnej turze")),
        S("summon_hit_bonus", gettext_noop("Szczęście przy przywołaniu: premia przyzwańca")),
        S(
            "summon_pz_bonus_percent",
            gettext_noop("Szczęście przy przywołaniu: PŻ przyzwańca (+%)"),
        ),
    ),
)
HEALTH = SettingsGroup(
    gettext_noop("Zdrowie"),
    (
        S(
            "injury_penalties",
            gettext_noop("Urazy: kara do wszystkich rzutów"),
            parts=(gettext_noop("1. Uraz"), gettext_noop("2. Uraz"), gettext_noop("3. i dalsze")),
        ),
        S(
            "rest_multiplier",
            gettext_noop("Odpoczynek: leczy OoP ×"),
            gettext_noop("Nie udaje się, gdy ktoś zaatakował postać w tej turze."),
        ),
        S(
            "npc_at_zero",
            gettext_noop("BN przy 0 PŻ"),
            choices=(
                ("ask", gettext_noop("MG decyduje")),
                ("unconscious", gettext_noop("traci przytomność")),
                ("dead", gettext_noop("ginie")),
            ),
        ),
    ),
)
FALLS = SettingsGroup(
    gettext_noop("Upadki"),
    (
        S(
            "fall_table",
            gettext_noop("Wysokość → modyfikator rzutu k100"),
            gettext_noop("„2-3: -20” … „16+: 50”: pasma bez przerw, ostatnie otwarte."),
        ),
        S(
            "fall_ground",
            gettext_noop("Podłoże"),
            parts=(gettext_noop("miękkie"), gettext_noop("zwykłe"), gettext_noop("twarde")),
        ),
        S("fall_heavy_armour", gettext_noop("Ciężka zbroja: modyfikator")),
        S("acrobatics_max_height", gettext_noop("Test Akrobatyki do wysokości (m)")),
        S(
            "fall_injury_percent",
            gettext_noop("Uraz za każde pełne % max PŻ"),
            gettext_noop("30: utrata 30% max PŻ to 1 Uraz, 60% to 2 …"),
        ),
    ),
)
TABLE = SettingsGroup(
    gettext_noop("Stół"),
    (
        S(
            "pace",
            gettext_noop("Tryb gry"),
            choices=(
                ("live", gettext_noop("na żywo (po kolei)")),
                ("post", gettext_noop("posty (cała tura naraz)")),
            ),
        ),
        S("reaction_seconds", gettext_noop("Na żywo: czas na reakcję (s)")),
        S(
            "move_fields",
            gettext_noop("Mapa: ruch na turę (pola po 1 m)"),
            gettext_noop(
                "Zasady nie podają odległości „krótkiego ruchu”: domyślnie 6 m na turę bojową."
            ),
        ),
        S(
            "melee_needs_adjacent",
            gettext_noop("Mapa: walka wręcz tylko z sąsiedniego pola"),
            gettext_noop(
                "Zasady nie mają zasięgu; na rozłożonej mapie atak bronią białą, pazurami lub "
                "pięściami sięga tylko celu na sąsiednim polu. Dystans i czary bez zmian."
            ),
        ),
        S("post_turn_hours", gettext_noop("Posty: czas na turę (godz.)")),
        S(
            "post_reminder_hours",
            gettext_noop("Posty: przypomnienie przed terminem (godz.)"),
        ),
        S(
            "posts_hidden",
            gettext_noop("Posty ukryte do rozstrzygnięcia tury"),
            gettext_noop("Gracz widzi tylko swój post, MG wszystkie."),
        ),
        S(
            "absent_defence",
            gettext_noop("Obrona postaci bez postu"),
            choices=(
                ("best", gettext_noop("lepsza z Uniku i Bloku")),
                ("unik", gettext_noop("Unik")),
                ("blok", gettext_noop("Blok")),
                ("none", gettext_noop("bez obrony")),
            ),
        ),
    ),
)
SHEETS = SettingsGroup(
    gettext_noop("Karty postaci"),
    (
        S("attribute_max", gettext_noop("Atrybuty i umiejętności: maksimum")),
        S("pz_max", gettext_noop("PŻ: maksimum")),
    ),
)
SETTINGS_GROUPS = (TESTS, ATTACKS, EQUIPMENT, CONDITIONS, HEALTH, FALLS, TABLE, SHEETS)


def settings_groups() -> tuple[SettingsGroup, ...]:
    """Every table setting of `D100Settings`, grouped for the GM's form."""
    return SETTINGS_GROUPS


__all__ = ["settings_groups", "sheet_fields", "sheet_sections"]
