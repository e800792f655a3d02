"""Magus table settings: every value the document leaves open, and every number it states, as
a GM-editable default (../shared/rules/magus.md, §8 "Gaps and proposed defaults").

A campaign stores its settings as a dict; `MagusSettings.from_dict` validates it and fills in
defaults for anything missing. The step table and the success-level thresholds are data here
too: `step_table` is the JSON form of `steps.StepTable`, `thresholds` that of
`levels.Thresholds`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from combat.rules.magus.levels import DEFAULT_THRESHOLDS, Thresholds
from combat.rules.magus.steps import DEFAULT_TABLE, StepTable, parse_step_table
from combat.rules.settings_json import from_json, to_json

# How a GM-run character answers its reaction prompts when the GM set nothing for it.
NPC_POLICIES = ("ask", "best", "none")
# Initiative ties (§8 #10): higher Zręczność step first, then simultaneous; or simultaneous.
TIE_RULES = ("dexterity", "simultaneous")


def _default_table() -> dict[str, str]:
    return DEFAULT_TABLE.to_dict()


def _default_thresholds() -> dict[str, int]:
    return DEFAULT_THRESHOLDS.to_dict()


@dataclass(frozen=True)
class MagusSettings:
    """One Magus table's rule settings; a comment says where the document is silent."""

    # §1: the Step/Action Dice table (DEFAULT ED1, steps 1–100) and the success levels (DEFAULT
    # +5 per level over the DN, ED4 style).
    step_table: dict[str, str] = field(default_factory=_default_table)
    thresholds: dict[str, int] = field(default_factory=_default_thresholds)
    # §8 #3: the Rule of One (all dice show 1: the action test fails).
    rule_of_one: bool = True
    # §8 #16: the lowest result of an action test (effect tests: 0).
    test_result_floor: int = 1
    # §8 #4: damage points per point of Strain (Wyczerpanie).
    strain_damage: int = 1
    # §8 #10: initiative ties.
    initiative_ties: str = "dexterity"
    # Live table: players roll their own initiative each round (off: the server rolls for all).
    players_roll_initiative: bool = True
    # Optional rule: initiative-based movement (−1 initiative per hex), replacing Ruch dzielony.
    initiative_movement: bool = False
    # Live table: seconds for the declarations, the players' initiative rolls and a reaction.
    declaration_timeout_s: int = 120
    initiative_timeout_s: int = 30
    reaction_timeout_s: int = 20
    # Live table: how a GM-run character answers its prompts when the GM set nothing for it.
    npc_default_policy: str = "best"
    # Live table: seconds of game time per round (recovery waits count in rounds of it).
    round_seconds: int = 10
    # Combat options (the document's table): bonuses and penalties.
    aggressive_bonus: int = 3
    aggressive_defence_penalty: int = 3
    defensive_stance_bonus: int = 3
    defensive_stance_penalty: int = 3
    giving_ground_attack_penalty: int = 2
    aim_bonus: int = 2
    aim_bonus_second_round: int = 3
    called_shot_penalty: int = 3
    called_shot_two_handed_bonus: int = 3
    inside_shield_lost_penalty: int = 2
    knocked_down_penalty: int = 3
    getting_up_dn: int = 6
    unconscious_defence_penalty: int = 3
    blindside_penalty: int = 2
    hold_penalty: int = 2
    change_action_penalty: int = 2
    harried_penalty: int = 2
    # §8 #8: Otoczony also from this many melee attackers in a round (0: only from options).
    harried_attackers: int = 4
    surprise_defence_penalty: int = 3
    mounted_split_move_penalty: int = 2
    # Sprint (talent): metres per rank added to the Movement Rate; Bieg does not double them.
    sprint_metres_per_rank: int = 2
    # Strain of each option (the document's table) and of the defensive talents (ED1).
    running_strain: int = 1
    aggressive_strain: int = 1
    giving_ground_strain: int = 1
    aiming_strain: int = 1
    called_shot_strain: int = 1
    getting_up_strain: int = 2
    shatter_shield_strain: int = 1
    split_move_strain: int = 1
    avoid_blow_strain: int = 1
    riposte_strain: int = 2
    # §4: damage.
    max_damage_multiplier: int = 3
    minimum_damage_on_good: bool = True
    # §8 #7: a shield raises the Excellent threshold for armour penetration by its value.
    shield_raises_penetration: bool = True
    # §8 #6: knockdown DN = this + damage over the Wound Threshold.
    knockdown_base: int = 3
    wound_penalty: int = 1
    hemorrhage_damage: int = 2
    severed_limb_step: int = 4
    # §8 #11: Strzaskanie tarczy needs a weapon of at least this size.
    shatter_min_size: int = 3
    # §8 #13: a rider's fall (k8 damage) as an effect step.
    mounted_fall_step: int = 5
    # §8 #9 and #12: Ogłuszony takes no actions; rounds per success level of Atak by ogłuszyć.
    stunned_no_actions: bool = True
    stun_rounds_per_level: int = 1
    # §6: surprise test DN modifiers.
    surprise_dusk: int = 2
    surprise_darkness: tuple[int, int, int] = (1, 2, 3)
    surprise_rain: tuple[int, int] = (1, 2)
    surprise_camouflage: int = 3
    brooch_range_m: int = 10
    brooch_damage: int = 1
    # §5: recovery waits (game time).
    revive_wait_s: int = 60
    recovery_interval_s: int = 3600
    after_combat_wait_s: int = 3600
    recovery_quiet_s: int = 60  # without physical activity or new damage before a test
    night_rest_s: int = 28800  # a full night's rest (heals a Wound): the GM's "night" button
    # §7 (optional, ED): darkness on sight-based tests, cover, range.
    darkness_steps: tuple[int, int, int] = (1, 3, 5)
    cover_defence: tuple[int, int] = (2, 4)
    range_penalties: tuple[int, int] = (2, 3)
    # Advisory bounds for sheets.
    step_min: int = 1
    step_max: int = 30
    rank_max: int = 15

    @cached_property
    def table(self) -> StepTable:
        return parse_step_table(self.step_table)

    @cached_property
    def levels(self) -> Thresholds:
        return Thresholds.from_dict(self.thresholds)

    def to_dict(self) -> dict[str, Any]:
        return to_json(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> MagusSettings:
        """Validated settings from stored JSON; unknown keys and bad values raise ValueError."""
        return from_json(cls, data, _coerce)

    def validate(self) -> None:
        self.table  # noqa: B018 - parses the step table (ValueError names the bad step)
        self.levels  # noqa: B018
        if self.initiative_ties not in TIE_RULES:
            raise ValueError(f"initiative_ties: jedno z {', '.join(TIE_RULES)}")
        if self.npc_default_policy not in NPC_POLICIES:
            raise ValueError(f"npc_default_policy: jedno z {', '.join(NPC_POLICIES)}")
        for name in ("declaration_timeout_s", "initiative_timeout_s", "reaction_timeout_s"):
            if not 3 <= getattr(self, name) <= 3600:
                raise ValueError(f"{name}: od 3 do 3600 sekund")
        if self.round_seconds < 1:
            raise ValueError("round_seconds: co najmniej 1")
        if self.night_rest_s < 1:
            raise ValueError("night_rest_s: co najmniej 1 sekunda")
        if self.max_damage_multiplier < 1:
            raise ValueError("max_damage_multiplier: co najmniej 1")
        if self.step_min > self.step_max:
            raise ValueError("step_min jest większe niż step_max")


def _coerce(name: str, raw: Any, default: Any) -> Any:
    if name == "step_table":
        return {str(k): str(v) for k, v in parse_step_table(raw).to_dict().items()}
    if name == "thresholds":
        if not isinstance(raw, dict):
            raise ValueError("progi poziomów sukcesu: poziom → punkty ponad Stopień trudności")
        return Thresholds.from_dict(raw).to_dict()
    if isinstance(default, tuple):
        if not isinstance(raw, list | tuple) or len(raw) != len(default):
            raise ValueError(f"{name}: lista {len(default)} liczb całkowitych")
        return tuple(_coerce(name, x, 0) for x in raw)
    if isinstance(default, bool):
        if not isinstance(raw, bool):
            raise ValueError(f"{name}: tak albo nie (true/false)")
        return raw
    if isinstance(default, int):
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise ValueError(f"{name}: liczba całkowita")
        if raw < 0:
            raise ValueError(f"{name}: nie może być ujemne")
        return raw
    if isinstance(default, str):
        if not isinstance(raw, str):
            raise ValueError(f"{name}: tekst")
        return raw
    return raw


DEFAULT_SETTINGS = MagusSettings()

__all__ = ["DEFAULT_SETTINGS", "NPC_POLICIES", "TIE_RULES", "MagusSettings"]
