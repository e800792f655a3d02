"""d100 (Kroniki Fallathanu) table settings: every number the seed states and every DEFAULT of
the digest (../shared/rules/d100-fg.md, §8 "Gaps and proposed defaults"), GM-editable.

A campaign stores its settings as a dict; `D100Settings.from_dict` validates it (unknown keys
and bad values raise ValueError naming the setting) and fills in defaults for anything missing.
The equipment tables are flat mappings of strings, one row a line in the GM's form (like the
Magus step table), parsed here once (`weapon_rows`, `race_rows`, …):

- `weapons`: kind → "<style> <hit mod> <damage mod> [small] [two_handed] [shield]"
  ("small: melee +5 +10 small shield"); style is one of STYLES; `shield`: a shield may be
  carried with it (the seed: small or traditional weapons only).
- `armours`: kind → "<damage reduction %> <Unik modifier>" ("light: 10 -10").
- `races`: race → claws: "none", "small" (as a small weapon: Ruan) or "<hit> <damage>"
  ("haressdren: +5 +3").
- `transformations`: kind → "<attribute> <mod> …" ("wampir: krzepa +10 zwinnosc +10 …").
- `armour_donning`: armour → "<on> <off> <help>", minutes "with/without help" or one number,
  help one of HELP ("lamellar: 5/10 3/7 useful").
- `fall_table`: height band ("2-3", "16+") → the modifier of the fall's d100.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, NamedTuple

from combat.rules.base import gettext_noop
from combat.rules.settings_json import from_json, to_json

ATTRIBUTES: tuple[tuple[str, str], ...] = (
    ("zwinnosc", gettext_noop("Zwinność")),
    ("zmysly", gettext_noop("Zmysły")),
    ("krzepa", gettext_noop("Krzepa")),
    ("wytrzymalosc", gettext_noop("Wytrzymałość")),
    ("intelekt", gettext_noop("Intelekt")),
    ("oglada", gettext_noop("Ogłada")),
)
ATTRIBUTE_KEYS = tuple(key for key, _label in ATTRIBUTES)
SKILLS: tuple[tuple[str, str], ...] = (
    ("akrobatyka", gettext_noop("Akrobatyka")),
    ("medycyna", gettext_noop("Medycyna")),
)
STYLES = ("melee", "thrown", "ranged", "magic", "unarmed")
WEAPON_FLAGS = ("small", "two_handed", "shield")
HELP = ("no", "useful", "needed", "required")
DIFFICULTIES = ("low", "moderate", "high")
HIGH_STAGGER = ("duration", "penalty")
NPC_AT_ZERO = ("ask", "unconscious", "dead")
PACES = ("live", "post")
ABSENT_DEFENCES = ("best", "unik", "blok", "none")
GROUNDS = ("soft", "normal", "hard")

# Rows every weapon table needs: "unarmed" (walka wręcz) and "small" (claws fight as it).
REQUIRED_WEAPONS = ("unarmed", "small")
MAX_ROWS = 30
KEY = re.compile(r"[a-z][a-z0-9_]{0,29}")
NUMBER = re.compile(r"[+-]?\d{1,4}")
BAND = re.compile(r"(\d{1,3})(?:-(\d{1,3})|\+)")

DEFAULT_WEAPONS = {
    "unarmed": "unarmed +0 +0",
    "small": "melee +5 +10 small shield",
    "traditional": "melee +0 +20 shield",
    "heavy": "melee -10 +35 two_handed",
    "bow": "ranged +0 +15 two_handed",
    "crossbow": "ranged -10 +35 two_handed",
    "pistol": "ranged +0 +10 small",
    "thrown_light": "thrown +0 +10",
    "thrown_heavy": "thrown -5 +20",
    "wand": "magic +5 +10 two_handed",
    "staff": "magic +0 +20 two_handed",
    "quarterstaff": "magic -10 +35 two_handed",
}
DEFAULT_ARMOURS = {"light": "10 -10", "heavy": "20 -20"}
# §8 #16: the literal +1..+3 (by size; +1 only Kobolds and Maluans) and +5 to hit.
DEFAULT_RACES = {
    "czlowiek": "none",
    "ruan": "small",
    "maluan": "+5 +1",
    "kobold": "+5 +1",
    "jaszczur": "+5 +2",
    "haressdren": "+5 +3",
    "inna": "none",
}
DEFAULT_TRANSFORMATIONS = {
    "wampir": "krzepa +10 zwinnosc +10 wytrzymalosc +10",
    "wilkolak": "krzepa +20 wytrzymalosc +20 zwinnosc -5 zmysly -5",
}
DEFAULT_DONNING = {
    "leather": "3 2 no",
    "mail": "7 3 no",
    "lamellar": "5/10 3/7 useful",
    "partial_plate": "10/20 5/10 needed",
    "full_plate": "12 7 required",
}
# §5 with §8 #20: 12 m uses +30.
DEFAULT_FALL_TABLE = {"2-3": -20, "4-5": 0, "6-8": 20, "9-12": 30, "13-15": 40, "16+": 50}

# Allowed range of each number (also the bounds of its input on the GM's form).
BOUNDS: dict[str, tuple[int, int]] = {
    "crit_luck_max": (0, 50),  # the crit bands cannot overlap: luck ≤ 50 < 51 ≤ bad
    "crit_bad_min": (51, 101),
    "minimal_margin": (0, 50),
    "modifier_cap": (0, 500),
    "damage_multiplier": (1, 100),
    "rest_multiplier": (0, 100),
    "high_bad_luck_factor": (1, 5),
    "knockdown_penalty": (0, 100),
    "stagger_penalty": (0, 100),
    "self_damage_percent": (0, 100),
    "bleed_percent": (0, 100),
    "bleed_turns": (1, 20),
    "defence_crit_mod": (0, 50),
    "damage_bad_luck": (0, 100),
    "spell_bad_luck": (0, 100),
    "summon_hit_bonus": (0, 100),
    "summon_pz_bonus_percent": (0, 500),
    "injury_penalties": (0, 100),
    "transform_ignored_injuries": (0, 10),
    "reaction_seconds": (3, 3600),
    "post_turn_hours": (1, 720),
    "post_reminder_hours": (0, 720),
    "move_fields": (0, 120),
    "fall_ground": (-100, 100),
    "fall_heavy_armour": (-100, 100),
    "acrobatics_max_height": (0, 999),
    "fall_injury_percent": (1, 100),
    "fall_table": (-100, 200),
    "shield": (-100, 100),
    "two_weapon_penalty": (0, 100),
    "two_pistol_penalty": (0, 100),
    "attribute_max": (1, 999),
    "pz_max": (1, 99999),
}


class WeaponRow(NamedTuple):
    style: str
    hit_mod: int
    damage_mod: int
    small: bool
    two_handed: bool
    shield: bool


class ArmourRow(NamedTuple):
    reduction: int
    dodge_mod: int


class Claws(NamedTuple):
    """A race's natural weapon: `as_small` fights as a small weapon, else the two mods."""

    as_small: bool
    hit_mod: int
    damage_mod: int


class DonningRow(NamedTuple):
    """Minutes with help and without (None: impossible without help)."""

    on_helped: int
    on_alone: int | None
    off_helped: int
    off_alone: int | None
    help: str


class FallBand(NamedTuple):
    low: int
    high: int | None  # None: and higher
    modifier: int


@dataclass(frozen=True)
class D100Settings:
    """One d100 table's rule settings; a comment says where the seed is silent (a DEFAULT)."""

    # §1, §8 #1: 01–05 crit luck (always a success), 96–100 crit bad luck (always a failure).
    crit_luck_max: int = 5
    crit_bad_min: int = 96
    # §8 #3: a success with OoP 0..minimal_margin is a minimalny sukces.
    minimal_margin: int = 4
    # §8 #4: the total of a test's modifiers is capped at ±modifier_cap.
    modifier_cap: int = 50
    # §8 #7: damage = OoP × damage_multiplier; §8 #8: the Wytrzymałość soak roll.
    damage_multiplier: int = 5
    resistance_roll: bool = True
    # §5: Odpoczynek heals OoP × rest_multiplier.
    rest_multiplier: int = 5
    # The story's difficulty: crits are optional at low/moderate, mandatory at high, where
    # crit bad luck counts high_bad_luck_factor times (Zachwianie: 2 turns or doubled penalty).
    difficulty: str = "moderate"
    optional_crits: bool = True
    high_bad_luck_factor: int = 2
    high_stagger: str = "duration"
    # §8 #5, #6, #10: defence ties, the Blok attribute, the defence against mind magic.
    tie_to_defender: bool = True
    block_attribute: str = "krzepa"
    mind_attribute: str = "oglada"
    # §6: conditions.
    knockdown_penalty: int = 40
    stagger_penalty: int = 10
    self_damage_percent: int = 10
    bleed_percent: int = 10
    bleed_turns: int = 3
    # The crit table: defence crits ±5 (§8 #18: bad luck vs mind magic read as −5), damage and
    # spell bad luck −10, summons +10 to hit / +20 % PŻ.
    defence_crit_mod: int = 5
    damage_bad_luck: int = 10
    spell_bad_luck: int = 10
    summon_hit_bonus: int = 10
    summon_pz_bonus_percent: int = 20
    # §8 #14: the penalty to all rolls of the 1st, 2nd and 3rd+ effective Uraz.
    injury_penalties: tuple[int, int, int] = (10, 20, 30)
    transform_ignored_injuries: int = 2
    # §5: an NPC at 0 PŻ: the GM is asked, or it falls unconscious, or dies.
    npc_at_zero: str = "ask"
    # The table: live reactions, or a turn of posts with a deadline.
    reaction_seconds: int = 30
    pace: str = "live"
    post_turn_hours: int = 24
    post_reminder_hours: int = 6
    posts_hidden: bool = True
    absent_defence: str = "best"
    magic_dodgeable: bool = True
    # §3: moving is a free action, a "short move" in a combat turn of about a dozen seconds;
    # the seed gives no distance. DEFAULT: 6 fields of 1 m per combat turn on the battle map.
    move_fields: int = 6
    # No reach rule either; DEFAULT: on a laid map close combat (melee, claws, fists) needs an
    # adjacent target, as every table expects (issue 22). Ranged attacks and spells reach on.
    melee_needs_adjacent: bool = True
    # §5 falls, §8 #15, #20.
    fall_table: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_FALL_TABLE))
    fall_ground: dict[str, int] = field(
        default_factory=lambda: {"soft": -10, "normal": 0, "hard": 10}
    )
    fall_heavy_armour: int = 10
    acrobatics_max_height: int = 4
    fall_injury_percent: int = 30
    # §2: the equipment tables (see the module docstring for their rows).
    weapons: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_WEAPONS))
    armours: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_ARMOURS))
    shield: tuple[int, int] = (20, -10)  # damage reduction %, Unik modifier
    races: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_RACES))
    transformations: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_TRANSFORMATIONS))
    armour_donning: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_DONNING))
    # §8 #17: two weapons take only −10 to hit (two pistols −5), not the weapons' own hit mods.
    two_weapon_penalty: int = 10
    two_pistol_penalty: int = 5
    # Sheet ranges: attributes and skills 0..attribute_max, PŻ 1..pz_max (§8 #13: entered).
    attribute_max: int = 150
    pz_max: int = 9999

    @cached_property
    def weapon_rows(self) -> dict[str, WeaponRow]:
        return {key: parse_weapon(key, text) for key, text in self.weapons.items()}

    @cached_property
    def armour_rows(self) -> dict[str, ArmourRow]:
        return {key: parse_armour(key, text) for key, text in self.armours.items()}

    @cached_property
    def race_rows(self) -> dict[str, Claws | None]:
        return {key: parse_claws(key, text) for key, text in self.races.items()}

    @cached_property
    def transformation_rows(self) -> dict[str, dict[str, int]]:
        return {key: parse_attribute_mods(key, text) for key, text in self.transformations.items()}

    @cached_property
    def donning_rows(self) -> dict[str, DonningRow]:
        return {key: parse_donning(key, text) for key, text in self.armour_donning.items()}

    @cached_property
    def fall_bands(self) -> tuple[FallBand, ...]:
        return parse_fall_table(self.fall_table)

    @property
    def high(self) -> bool:
        return self.difficulty == "high"

    def to_dict(self) -> dict[str, Any]:
        return to_json(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> D100Settings:
        """Validated settings from stored JSON; unknown keys and bad values raise ValueError."""
        return from_json(cls, data, _coerce)

    def validate(self) -> None:
        """ValueError naming the first bad setting (the tables parse, the choices are known)."""
        for name, options in CHOICES.items():
            if getattr(self, name) not in options:
                raise ValueError(f"{name}: jedno z {', '.join(options)}")
        if self.post_reminder_hours >= self.post_turn_hours:
            raise ValueError("post_reminder_hours musi być mniejsze niż post_turn_hours")
        if set(self.fall_ground) != set(GROUNDS):
            raise ValueError(f"fall_ground: dokładnie {', '.join(GROUNDS)}")
        for name in ("weapons", "armours", "races", "transformations", "armour_donning"):
            table = getattr(self, name)
            if not table or len(table) > MAX_ROWS:
                raise ValueError(f"{name}: od 1 do {MAX_ROWS} wierszy")
            for key in table:
                if not KEY.fullmatch(key):
                    raise ValueError(f"{name}: zły klucz {key[:40]!r} (małe litery, cyfry, _)")
        missing = [key for key in REQUIRED_WEAPONS if key not in self.weapons]
        if missing:
            raise ValueError(f"weapons: brak wiersza {', '.join(missing)}")
        self.weapon_rows  # noqa: B018 - parses each table (ValueError names the bad row)
        self.armour_rows  # noqa: B018
        self.race_rows  # noqa: B018
        self.transformation_rows  # noqa: B018
        self.donning_rows  # noqa: B018
        self.fall_bands  # noqa: B018


CHOICES: dict[str, tuple[str, ...]] = {
    "difficulty": DIFFICULTIES,
    "high_stagger": HIGH_STAGGER,
    "block_attribute": ATTRIBUTE_KEYS,
    "mind_attribute": ATTRIBUTE_KEYS,
    "npc_at_zero": NPC_AT_ZERO,
    "pace": PACES,
    "absent_defence": ABSENT_DEFENCES,
}


def _int(name: str, raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ValueError(f"{name}: liczba całkowita")
    low, high = BOUNDS.get(name, (0, 10**6))
    if not low <= raw <= high:
        raise ValueError(f"{name}: od {low} do {high}")
    return raw


def _coerce(name: str, raw: Any, default: Any) -> Any:
    if isinstance(default, dict):
        if not isinstance(raw, dict):
            raise ValueError(f"{name}: obiekt klucz → wartość")
        if all(isinstance(v, int) for v in default.values()):
            return {str(k): _int(name, v) for k, v in raw.items()}
        if not all(isinstance(v, str) for v in raw.values()):
            raise ValueError(f"{name}: wartości to teksty")
        return {str(k): " ".join(v.split()) for k, v in raw.items()}
    if isinstance(default, tuple):
        if not isinstance(raw, list | tuple) or len(raw) != len(default):
            raise ValueError(f"{name}: lista {len(default)} liczb całkowitych")
        return tuple(_int(name, x) for x in raw)
    if isinstance(default, bool):
        if not isinstance(raw, bool):
            raise ValueError(f"{name}: tak albo nie (true/false)")
        return raw
    if isinstance(default, int):
        return _int(name, raw)
    if not isinstance(raw, str):
        raise ValueError(f"{name}: tekst")
    return raw


def _number(where: str, token: str) -> int:
    if not NUMBER.fullmatch(token):
        raise ValueError(f"{where}: {token[:20]!r} nie jest liczbą całkowitą")
    return int(token)


def parse_weapon(key: str, text: str) -> WeaponRow:
    """A weapons row: "<style> <hit> <damage> [flags]"; ValueError naming the row."""
    where = f"weapons.{key}"
    tokens = text.split()
    if len(tokens) < 3 or tokens[0] not in STYLES:
        raise ValueError(
            f"{where}: oczekiwano „styl trafienie obrażenia [flagi]”, styl: {', '.join(STYLES)}"
        )
    flags = tokens[3:]
    bad = [flag for flag in flags if flag not in WEAPON_FLAGS]
    if bad or len(set(flags)) != len(flags):
        raise ValueError(f"{where}: flagi tylko {', '.join(WEAPON_FLAGS)}, każda raz")
    return WeaponRow(
        tokens[0],
        _number(where, tokens[1]),
        _number(where, tokens[2]),
        "small" in flags,
        "two_handed" in flags,
        "shield" in flags,
    )


def parse_armour(key: str, text: str) -> ArmourRow:
    where = f"armours.{key}"
    tokens = text.split()
    if len(tokens) != 2:
        raise ValueError(f"{where}: oczekiwano „redukcja% modyfikator_Uniku”")
    reduction = _number(where, tokens[0])
    if not 0 <= reduction <= 100:
        raise ValueError(f"{where}: redukcja od 0 do 100%")
    return ArmourRow(reduction, _number(where, tokens[1]))


def parse_claws(key: str, text: str) -> Claws | None:
    where = f"races.{key}"
    tokens = text.split()
    if tokens in ([], ["none"]):
        return None
    if tokens == ["small"]:
        return Claws(True, 0, 0)
    if len(tokens) != 2:
        raise ValueError(f"{where}: „none”, „small” albo „trafienie obrażenia”")
    return Claws(False, _number(where, tokens[0]), _number(where, tokens[1]))


def parse_attribute_mods(key: str, text: str) -> dict[str, int]:
    where = f"transformations.{key}"
    tokens = text.split()
    if len(tokens) % 2:
        raise ValueError(f"{where}: pary „atrybut modyfikator”")
    mods: dict[str, int] = {}
    for attribute, value in zip(tokens[::2], tokens[1::2], strict=True):
        if attribute not in ATTRIBUTE_KEYS or attribute in mods:
            raise ValueError(f"{where}: atrybut jeden z {', '.join(ATTRIBUTE_KEYS)}, każdy raz")
        mods[attribute] = _number(where, value)
    return mods


def _minutes(where: str, token: str) -> tuple[int, int | None]:
    helped, _slash, alone = token.partition("/")
    first = _number(where, helped)
    return first, (_number(where, alone) if alone else first)


def parse_donning(key: str, text: str) -> DonningRow:
    where = f"armour_donning.{key}"
    tokens = text.split()
    if len(tokens) != 3 or tokens[2] not in HELP:
        raise ValueError(f"{where}: oczekiwano „zakładanie zdejmowanie pomoc”, pomoc: {HELP}")
    on_helped, on_alone = _minutes(where, tokens[0])
    off_helped, off_alone = _minutes(where, tokens[1])
    if min(on_helped, off_helped, on_alone or 0, off_alone or 0) < 0:
        raise ValueError(f"{where}: minuty nie mogą być ujemne")
    if tokens[2] == "required":  # help required: alone it cannot be done
        on_alone = off_alone = None
    return DonningRow(on_helped, on_alone, off_helped, off_alone, tokens[2])


def parse_fall_table(table: dict[str, int]) -> tuple[FallBand, ...]:
    """Bands "a-b" rising without gaps or overlaps from the first, the last one "a+"."""
    bands = []
    for text, modifier in table.items():
        match = BAND.fullmatch(text)
        if match is None:
            raise ValueError(f"fall_table: pasmo {text[:20]!r}, np. „2-3” albo „16+”")
        low, high = int(match[1]), (int(match[2]) if match[2] else None)
        if high is not None and high < low:
            raise ValueError(f"fall_table: pasmo {text!r} maleje")
        bands.append(FallBand(low, high, modifier))
    bands.sort(key=lambda band: band.low)
    if not bands or bands[-1].high is not None:
        raise ValueError("fall_table: ostatnie pasmo otwarte, np. „16+”")
    for before, after in zip(bands, bands[1:], strict=False):
        if before.high is None or after.low != before.high + 1:
            raise ValueError(f"fall_table: pasma bez przerw i nakładania ({after.low} m)")
    return tuple(bands)


DEFAULT_SETTINGS = D100Settings()


def settings_of(settings: Mapping[str, Any] | D100Settings | None) -> D100Settings:
    """The validated settings of a table's stored dict (ValueError when they are bad), parsed
    once per distinct dict: a sheet's validation and its page ask for them several times."""
    if isinstance(settings, D100Settings):
        return settings
    if not settings:
        return DEFAULT_SETTINGS
    return _parsed(json.dumps(dict(settings), sort_keys=True))


@lru_cache(maxsize=64)
def _parsed(data: str) -> D100Settings:
    return D100Settings.from_dict(json.loads(data))


__all__ = [
    "ABSENT_DEFENCES",
    "ATTRIBUTES",
    "ATTRIBUTE_KEYS",
    "BOUNDS",
    "CHOICES",
    "DEFAULT_SETTINGS",
    "SKILLS",
    "STYLES",
    "ArmourRow",
    "Claws",
    "D100Settings",
    "DonningRow",
    "FallBand",
    "WeaponRow",
    "settings_of",
]
