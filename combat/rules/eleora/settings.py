"""Table settings: every value the Eleora document leaves open, as a GM-editable default.

The defaults follow ../shared/rules/eleora.md §8–§9. A campaign stores its settings as a dict;
`TableSettings.from_dict` validates it and fills in defaults for anything missing.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal

TieRule = Literal["defender", "attacker"]
CollisionRounding = Literal["up", "down"]
PrzebiciaMode = Literal["margin", "margin_minus_one"]
NaturalHealMode = Literal["test", "flat2"]


# How a GM-run character may answer its prompts at the live table: the GM by hand, or a
# defence of the simulator's (prompts.Defence).
NPC_POLICIES = ("ask", "lepsza", "unik", "parowanie", "brak")

# The seven attributes (sheet.py holds their labels; it imports this module, not the reverse).
ATTRIBUTE_KEYS = ("sila", "krzepa", "zrecznosc", "intuicja", "intelekt", "charyzma", "wola")
ATTRIBUTE_SUFFIXES = ("_attribute_wrecz", "_attribute_lekka", "_attribute_ciezka") + tuple(
    f"_attribute_{skill}"
    for skill in (
        "bieganie",
        "plywanie",
        "atletyka",
        "jezdziectwo",
        "akrobatyka",
        "medycyna",
        "percepcja",
    )
)


@dataclass(frozen=True)
class TableSettings:
    """One table's rule settings. Field docs say where the document is silent."""

    # §9.1: which d6 faces are successes (not stated in the document).
    success_faces: frozenset[int] = frozenset({4, 5, 6})
    # §9.2: a critical failure additionally needs at least one 1 showing.
    critical_failure_needs_one: bool = False
    # §9.3: who wins an attack on equal successes.
    tie_goes_to: TieRule = "defender"
    # §9.4: whether the first winning success already counts as extra damage.
    przebicia_mode: PrzebiciaMode = "margin"
    # §5: Okaleczenie i Śmierć table; off means death at the trigger ("beginner" tables).
    maiming_enabled: bool = True
    # §9.16: Zdrowie at or below which death/maiming is checked.
    maiming_trigger: int = 0
    # „Zawsze gdy postać spadnie poniżej 0”: roll again on every further loss while at or below
    # the trigger (so bleeding out below 0 is deadly), or only when Zdrowie first crosses it.
    maiming_on_every_loss: bool = True
    # Nieprzytomność at Zdrowie at or below this.
    unconscious_at: int = 3
    # §9.17: stun damage cannot take Zdrowie below 1.
    stun_cannot_kill: bool = False
    # Naturalne Leczenie: Krzepa test, or the optional flat 2 per week.
    natural_heal_mode: NaturalHealMode = "test"
    # §9.11: Schwytanie difficulty = grabber's Siła + przebicia (+ this).
    grab_base_bonus: int = 0
    # §9.21: cap on Szarża dice (None = no cap).
    charge_cap: int | None = None
    # §9.7: Kostki Heroizmu held at most (Inspiracja stacks).
    heroism_max: int = 3
    # §9.5: default weapon damage by kind and the default shield bonus.
    light_weapon_damage: int = 2
    heavy_weapon_damage: int = 3
    shield_bonus: int = 2
    # Limits the document states (kept here so a house rule can change them).
    actions_per_turn: int = 2
    reactions_per_turn: int = 1
    aim_cap: int = 3
    bleeding_max: int = 3
    bleeding_turns: int = 3
    burning_turns: int = 3
    immobilized_max: int = 3
    fatigue_max: int = 5
    base_movement: int = 3
    prone_movement: int = 1
    # Dice modifiers from the document.
    ranged_cover_penalty: int = 3
    blind_attack_penalty: int = 3
    flat_attack_penalty: int = 3
    improvised_penalty: int = 2
    unarmed_vs_armed_penalty: int = 1
    blinded_penalty: int = 3
    blinded_defence_floor: int = 2
    # „Obrona Gracza nie może spaść poniżej 2”: the document says „gracz” for whoever acts (its
    # „gracz może wykonać 2 akcje” binds the boar of the Przeładowanie example too), and the
    # sentence bounds a penalty „Oślepione postacie” all take, so by DEFAULT the floor holds for
    # every defender; on, only for player characters (a controller set), GM-run ones drop to 0.
    blinded_floor_players_only: bool = False
    # Powalenie: „traci premię do obrony wynikającą ze zręczności”. Unik's dice („ilość kości
    # równą twojej Zręczności”) are such a bonus too, so by DEFAULT an Obalony Unik adds none;
    # off, only the Zręczność in Obrona is lost and Unik still adds it.
    prone_loses_unik: bool = True
    # Atak okazyjny: „krytyczną porażkę w jakimkolwiek teście”; an Atak is a contested test of
    # the attack skill and the defender's Obrona, so by DEFAULT an Obrona roll without a success
    # opens one too; off, only the attacker's roll and other tests do.
    opportunity_on_defence_critical: bool = True
    frenzy_attack_bonus: int = 2
    frenzy_defence_penalty: int = 2
    surrounded_threshold: int = 4
    surrounded_penalty: int = 2
    full_flank_bonus: int = 2
    half_flank_bonus: int = 1
    darkness_penalties: tuple[int, int, int] = (1, 2, 3)
    # §9: darkness "applies to all tests"; the document never says whether Obrona counts.
    darkness_on_defence: bool = True
    # Wymuszone Poruszanie rule 4: half the missing metres, the document does not say rounded how.
    collision_rounding: CollisionRounding = "up"
    # Falls and drowning are not conditions; the document does not say whether Wola reduces them.
    fall_stun_reduced_by_wola: bool = True
    # Oszołomienie: the document gives no duration; own turns it lasts (ends at a turn's end).
    dazed_turns: int = 1
    # Live table: seconds a player has to answer a reaction prompt.
    reaction_timeout_s: int = 15
    # Live table: how a GM-run character answers its prompts when the GM set nothing for it
    # ("ask": the GM answers by hand; else a policy of `NPC_POLICIES`).
    npc_default_policy: str = "lepsza"
    # Live table: a turn ends by itself when nothing is left to do in it (no action left and
    # no prompt open), in the same log entry as the command that spent the last action.
    auto_end_turn: bool = True
    # Live table: players see a GM-run character's wound level, not its Zdrowie (the document
    # has no such levels). Percent of Zdrowie left above which it is Draśnięcia, Rany, Ciężkie
    # rany; at or below the last, Ledwo żyje. Undamaged is always Bez ran.
    wound_thresholds: tuple[int, int, int] = (75, 50, 25)
    # The attribute rolled with each attack skill, by weapon class. The document's one worked
    # example (a sabre: Zręczność 2 + Broń Lekka 4) uses Zręczność and names no other pairing.
    attack_attribute_wrecz: str = "zrecznosc"
    attack_attribute_lekka: str = "zrecznosc"
    attack_attribute_ciezka: str = "zrecznosc"
    # The attribute paired with each non-combat skill in a test (the document: "attribute +
    # skill", never which); Wyrwanie is a plain Siła test and Wyzwolenie a doubled attribute.
    skill_attribute_bieganie: str = "zrecznosc"
    skill_attribute_plywanie: str = "krzepa"
    skill_attribute_atletyka: str = "sila"
    skill_attribute_jezdziectwo: str = "zrecznosc"
    skill_attribute_akrobatyka: str = "zrecznosc"
    skill_attribute_medycyna: str = "intelekt"
    skill_attribute_percepcja: str = "intuicja"
    # Advisory bounds for character sheets (the document publishes no range).
    attribute_min: int = 0
    attribute_max: int = 10
    skill_min: int = 0
    skill_max: int = 10

    def attack_attribute(self, weapon_kind: str) -> str:
        """The attribute an attack with this weapon class (wrecz|lekka|ciezka) is rolled with."""
        return str(getattr(self, f"attack_attribute_{weapon_kind}"))

    def skill_attribute(self, skill: str) -> str:
        """The attribute paired with a non-combat skill; unknown (custom) skills: Intuicja."""
        return str(getattr(self, f"skill_attribute_{skill}", "intuicja"))

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["success_faces"] = sorted(self.success_faces)
        data["darkness_penalties"] = list(self.darkness_penalties)
        data["wound_thresholds"] = list(self.wound_thresholds)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> TableSettings:
        """Validated settings from stored JSON; unknown keys and bad values raise ValueError."""
        data = dict(data or {})
        known = {f.name: f for f in fields(cls)}
        unknown = set(data) - set(known)
        if unknown:
            raise ValueError(f"unknown table settings: {', '.join(sorted(unknown))}")
        values: dict[str, Any] = {}
        for name, raw in data.items():
            values[name] = _coerce(name, raw, getattr(cls(), name))
        settings = replace(cls(), **values)
        settings.validate()
        return settings

    def validate(self) -> None:
        if not self.success_faces or not self.success_faces <= {1, 2, 3, 4, 5, 6}:
            raise ValueError("success_faces must be a non-empty set of faces 1–6")
        if self.tie_goes_to not in ("defender", "attacker"):
            raise ValueError("tie_goes_to must be 'defender' or 'attacker'")
        if self.przebicia_mode not in ("margin", "margin_minus_one"):
            raise ValueError("przebicia_mode must be 'margin' or 'margin_minus_one'")
        if self.collision_rounding not in ("up", "down"):
            raise ValueError("collision_rounding must be 'up' or 'down'")
        if self.natural_heal_mode not in ("test", "flat2"):
            raise ValueError("natural_heal_mode must be 'test' or 'flat2'")
        if len(self.darkness_penalties) != 3:
            raise ValueError("darkness_penalties needs three levels")
        if self.attribute_min > self.attribute_max or self.skill_min > self.skill_max:
            raise ValueError("a minimum is above its maximum")
        if self.npc_default_policy not in NPC_POLICIES:
            raise ValueError(f"npc_default_policy must be one of {', '.join(NPC_POLICIES)}")
        if not 3 <= self.reaction_timeout_s <= 600:
            raise ValueError("reaction_timeout_s must be between 3 and 600 seconds")
        _check_wound_thresholds(self.wound_thresholds)
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name.endswith(tuple(ATTRIBUTE_SUFFIXES)) and value not in ATTRIBUTE_KEYS:
                raise ValueError(f"{f.name} must name an attribute ({', '.join(ATTRIBUTE_KEYS)})")


def _check_wound_thresholds(thresholds: tuple[int, ...]) -> None:
    """Three percentages, each lower than the one before, so every level can be reached."""
    if len(thresholds) != 3:
        raise ValueError("wound_thresholds needs three levels")
    if not all(0 <= t <= 100 for t in thresholds):
        raise ValueError("wound_thresholds are percentages from 0 to 100")
    if not thresholds[0] > thresholds[1] > thresholds[2]:
        raise ValueError("wound_thresholds must go down from the first to the last")


# Thresholds on Zdrowie: the document says both „spadnie do 0” and „poniżej 0”, so −1 is valid.
SIGNED_FIELDS = frozenset({"maiming_trigger", "unconscious_at"})


def _coerce(name: str, raw: Any, default: Any) -> Any:
    if name == "success_faces":
        return frozenset(int(x) for x in raw)
    if name in ("darkness_penalties", "wound_thresholds"):
        if not isinstance(raw, list | tuple):
            raise ValueError(f"{name} must be a list of whole numbers")
        return tuple(int(x) for x in raw)
    if name == "charge_cap":
        return None if raw is None else int(raw)
    if isinstance(default, bool):
        if not isinstance(raw, bool):
            raise ValueError(f"{name} must be true or false")
        return raw
    if isinstance(default, int):
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise ValueError(f"{name} must be a whole number")
        if raw < 0 and name not in SIGNED_FIELDS:
            raise ValueError(f"{name} must not be negative")
        return raw
    if isinstance(default, str):
        return str(raw)
    return raw


PRESETS: dict[str, TableSettings] = {
    "standard": TableSettings(),
    "hard": TableSettings(success_faces=frozenset({5, 6})),
    "beginner": TableSettings(maiming_enabled=False),
}

DEFAULT_SETTINGS = TableSettings()

__all__ = ["DEFAULT_SETTINGS", "PRESETS", "TableSettings"]
