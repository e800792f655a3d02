"""What follows from events: prompts of the fallen, reinforcements, charges, Szał and the map."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

import pytest

from combat.rules.base import RuleViolation
from combat.rules.dice import Modifier
from combat.rules.eleora import conditions as cond
from combat.rules.eleora.commands import (
    ApplyDamage,
    BreakFree,
    Command,
    DeclareAreaAttack,
    DeclareAttack,
    EndTurn,
    Evade,
    Incantation,
    JoinCombat,
    Move,
    PlaceCombatant,
    Prepare,
    ResolveExpired,
    Steer,
)
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.engine import evolve
from combat.rules.eleora.engine.attacks import resolve
from combat.rules.eleora.engine.common import Batch, roll_test
from combat.rules.eleora.engine.queries import attack_odds
from combat.rules.eleora.events import (
    AttackCancelled,
    AttackDeclared,
    AttackResolved,
    CombatantJoined,
    Event,
    Moved,
    PromptClosed,
    PromptOpened,
    ReactionChosen,
    TestRolled,
)
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.sheet import DamageType
from combat.rules.eleora.state import UNARMED, EncounterState
from tests.combat.rules.engine_kit import (
    Dice,
    begin,
    make_combatant,
    make_sheet,
    make_state,
    of_type,
    step,
)

SHEET = {
    "name": "Wilk",
    "attributes": {"zrecznosc": 3, "intuicja": 2, "krzepa": 1},
    "skills": {"walka_wrecz": 3},
}


def wolf_attacks_ala() -> EncounterState:
    """Ala has had her turn; the wolf has declared a bite; Ala's prompt is open."""
    state = make_state(make_combatant("ala"), make_combatant("wilk", "foes"))
    state = begin(state, ["ala", "wilk"])
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = step(state, DeclareAttack(actor="wilk", target="ala", weapon=UNARMED, now=0.0))
    assert state.prompts
    return state


def test_a_defender_knocked_out_before_answering_is_hit_automatically() -> None:
    state, events = step(wolf_attacks_ala(), ApplyDamage(target="ala", stun=11), Dice(1, 1, 1))
    assert of_type(events, ReactionChosen)[0].expired
    resolved = of_type(events, AttackResolved)[0]
    assert resolved.hit and resolved.defence_roll is None and not state.prompts


def test_an_attack_on_someone_killed_meanwhile_is_cancelled() -> None:
    settings = TableSettings(maiming_enabled=False)
    state = make_state(make_combatant("ala"), make_combatant("wilk", "foes"), settings=settings)
    state = begin(state, ["ala", "wilk"])
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = step(state, DeclareAttack(actor="wilk", target="ala", weapon=UNARMED))
    state, events = step(state, ApplyDamage(target="ala", physical=20))
    assert of_type(events, AttackCancelled) and not state.attacks and not state.prompts


def test_an_opportunity_offer_closes_when_its_taker_falls() -> None:
    state = make_state(
        make_combatant("ala", position=(0, 0)), make_combatant("wilk", "foes", position=(1, 0))
    )
    state = begin(state, ["wilk", "ala"])
    state, _ = step(state, EndTurn(actor="wilk"))
    state, _ = step(state, Move(actor="ala", mode="bieg", path=((0, 1),)), Dice(1, 1))
    assert state.prompts[0].kind == "atak_okazyjny"
    state, events = step(state, ApplyDamage(target="wilk", stun=11))
    assert of_type(events, PromptClosed)[0].expired and not state.prompts


def test_resolve_expired_closes_an_ucieczka_prompt() -> None:
    state = wolf_attacks_ala()
    state, _ = step(state, ResolveExpired(now=100.0), Dice(*[1] * 7))
    state, _ = step(state, DeclareAreaAttack(targets=("wilk",), now=0.0))
    state, events = step(state, ResolveExpired(now=100.0))
    assert of_type(events, PromptClosed)[0].expired


def test_evade_without_running_moves_one_metre() -> None:
    state = make_state(make_combatant("ala"), make_combatant("wilk", "foes"))
    state = begin(state, ["ala", "wilk"])
    state, _ = step(state, DeclareAreaAttack(targets=("ala",)))
    _, events = step(state, Evade(actor="ala"))
    assert of_type(events, Moved)[0].metres == 1


# --- reinforcements ---------------------------------------------------------------------------


def test_reinforcements_join_mid_fight_by_initiative_and_react_after_their_turn() -> None:
    state = make_state(make_combatant("ala"), make_combatant("wilk", "foes"))
    state = begin(state, ["ala", "wilk"])  # initiatives 14 and 12
    join = JoinCombat(combatant={"id": "lis", "side": "foes", "sheet": SHEET}, roll=(5, 5))
    state, events = step(state, join)
    lis = of_type(events, CombatantJoined)[0].combatant
    assert lis.initiative == 12 and state.order == ("ala", "wilk", "lis")
    assert not state.get("lis").has_acted
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = step(state, EndTurn(actor="wilk"))
    assert state.current == "lis"


def test_reinforcements_before_the_fight_roll_with_everyone() -> None:
    state = make_state(make_combatant("ala"))
    state, _ = step(state, JoinCombat(combatant={"id": "lis", "side": "foes", "sheet": SHEET}))
    assert state.get("lis").initiative is None and state.order == ()
    state, _ = step(state, JoinCombat(combatant={"id": "wilk", "side": "foes", "sheet": SHEET}))
    state = begin(state, ["ala", "lis", "wilk"])
    assert set(state.order) == {"ala", "lis", "wilk"}


@pytest.mark.parametrize(
    ("data", "roll", "code"),
    [
        ({"id": "ala", "side": "foes", "sheet": SHEET}, None, "postac"),
        ({"id": "x", "side": "", "sheet": SHEET}, None, "postac"),
        ({"id": "x", "side": "foes", "sheet": SHEET, "position": [0, 0]}, None, "zajete"),
        ({"id": "x", "side": "foes", "sheet": SHEET}, (0, 9), "inicjatywa"),
    ],
)
def test_reinforcements_refused_when_they_do_not_fit(
    data: dict[str, object], roll: tuple[int, int] | None, code: str
) -> None:
    state = begin(
        make_state(make_combatant("ala", position=(0, 0)), make_combatant("wilk", "foes")),
        ["ala", "wilk"],
    )
    with pytest.raises(RuleViolation) as refused:
        step(state, JoinCombat(combatant=data, roll=roll), random.Random(0))
    assert refused.value.code == code


def test_reinforcements_roll_initiative_when_they_bring_no_dice() -> None:
    state = begin(
        make_state(make_combatant("ala"), make_combatant("wilk", "foes")), ["ala", "wilk"]
    )
    state, _ = step(
        state, JoinCombat(combatant={"id": "lis", "side": "foes", "sheet": SHEET}), Dice(1, 2)
    )
    assert state.get("lis").initiative == 1 + 2 + 2 and state.order[-1] == "lis"


# --- Szarża, Szał and the map -----------------------------------------------------------------


def test_szarza_without_a_map_counts_the_stated_metres_within_the_cap() -> None:
    state = make_state(
        make_combatant("ala"), make_combatant("wilk", "foes"), settings=TableSettings(charge_cap=1)
    )
    state = begin(state, ["ala", "wilk"])
    state, _ = step(state, Move(actor="ala", metres=3, charge=True))
    state, _ = step(state, Move(actor="ala", metres=3, charge=True))
    assert state.get("ala").charge_bonus == 1


def test_szarza_bonus_only_for_an_attack_beside_where_the_charge_ended() -> None:
    state = make_state(
        make_combatant("ala", position=(0, 0)),
        make_combatant("wilk", "foes", position=(4, 1)),
    )
    state = begin(state, ["ala", "wilk"])
    state, _ = step(state, Move(actor="ala", path=((1, 0), (2, 0)), charge=True))
    state, _ = step(state, PlaceCombatant(target="ala", to=(3, 0)))  # e.g. pushed after it
    attack = DeclareAttack(actor="ala", target="wilk", weapon="Szabla")
    state, events = step(state, attack, random.Random(0))  # allowed: only the bonus is lost
    declared = of_type(events, AttackDeclared)[0].attack
    assert "Szarża" not in {m.reason for m in declared.modifiers}


def test_szarza_over_two_ruch_counts_every_metre_of_the_line() -> None:
    state = begin(
        make_state(make_combatant("ala"), make_combatant("wilk", "foes")), ["ala", "wilk"]
    )
    state, _ = step(state, Move(actor="ala", metres=3, charge=True))
    state, _ = step(state, Move(actor="ala", metres=3, charge=True))
    assert state.get("ala").charge_bonus == 3  # 6 m, not 1 + 1


def test_szarza_second_ruch_must_keep_the_same_straight_line() -> None:
    state = make_state(
        make_combatant("ala", position=(0, 0)), make_combatant("wilk", "foes", position=(9, 9))
    )
    state = begin(state, ["ala", "wilk"])
    state, _ = step(state, Move(actor="ala", path=((1, 0), (2, 0), (3, 0)), charge=True))
    with pytest.raises(RuleViolation) as refused:
        step(state, Move(actor="ala", path=((3, 1), (3, 2), (3, 3)), charge=True))
    assert refused.value.code == "szarza_nie_prosto"
    state, _ = step(state, Move(actor="ala", path=((4, 0), (5, 0), (6, 0)), charge=True))
    assert state.get("ala").charge_bonus == 3


def test_szal_without_a_map_allows_a_charge_and_blocks_other_actions() -> None:
    frenzied = make_combatant("ala", conditions=(ConditionInstance("szal"),))
    state = begin(make_state(frenzied, make_combatant("wilk", "foes")), ["ala", "wilk"])
    with pytest.raises(RuleViolation):
        step(state, Prepare(actor="ala"))
    state, _ = step(state, Move(actor="ala", metres=2, charge=True))
    assert state.get("ala").charge_bonus == 1


def test_moving_over_an_unconscious_body_but_not_onto_it() -> None:
    state = make_state(
        make_combatant("ala", position=(0, 0)),
        make_combatant("bob", position=(1, 0), status="unconscious", damage_stun=11),
        make_combatant("wilk", "foes", position=(9, 9)),
    )
    state = begin(state, ["ala", "bob", "wilk"])
    with pytest.raises(RuleViolation):
        step(state, Move(actor="ala", path=((1, 0),)))
    state, _ = step(state, Move(actor="ala", path=((1, 0), (2, 0))))
    assert state.get("ala").position == (2, 0)


def test_jazda_at_the_steered_pace_without_a_jezdziectwo_test() -> None:
    state = begin(
        make_state(
            make_combatant("ala", mounted=True, mount_pace=6), make_combatant("wilk", "foes")
        ),
        ["ala", "wilk"],
    )
    state, _ = step(state, Steer(actor="ala", difficulty=1, pace=6), Dice(5, 1))
    _, events = step(state, Move(actor="ala", mode="jazda", metres=6))
    assert of_type(events, Moved)[0].metres == 6


def test_a_held_character_is_dragged_along_without_a_map() -> None:
    grip = (ConditionInstance("unieruchomienie", source="ala", difficulty=2),)
    state = begin(
        make_state(make_combatant("ala"), make_combatant("wilk", "foes", conditions=grip)),
        ["ala", "wilk"],
    )
    _, events = step(state, Move(actor="ala", metres=2))
    dragged = of_type(events, Moved)[1]
    assert (dragged.combatant, dragged.metres, dragged.mode) == ("wilk", 2, "ciagniety")


# --- odds and odd inputs ----------------------------------------------------------------------


def test_attack_odds_know_stun_on_an_oszolomiony_target_is_physical() -> None:
    dazed = make_combatant(
        "wilk", "foes", conditions=(ConditionInstance("oszolomienie", remaining=1),)
    )
    state = begin(make_state(make_combatant("ala"), dazed), ["ala", "wilk"])
    odds = attack_odds(state, DeclareAttack(actor="ala", target="wilk", weapon=UNARMED))
    assert odds.damage_type == DamageType.PHYSICAL


@pytest.mark.parametrize("special", ["odepchniecie", "schwytanie", "oslepienie"])
def test_ataki_specjalne_bez_obrazen_preview_no_damage(special: str) -> None:
    state = begin(
        make_state(make_combatant("ala"), make_combatant("wilk", "foes")), ["ala", "wilk"]
    )
    cmd = DeclareAttack(actor="ala", target="wilk", weapon="Szabla", special=special)
    option = attack_odds(state, cmd).options["brak"]
    assert option.hit.p_hit > 0 and option.expected_damage == 0
    assert option.damage.high == 0


def test_powalenie_preview_is_przebicia_as_stun_reduced_by_wola() -> None:
    wilk = make_combatant("wilk", "foes", sheet=make_sheet("Wilk", wola=1))
    state = begin(make_state(make_combatant("ala"), wilk), ["ala", "wilk"])
    cmd = DeclareAttack(actor="ala", target="wilk", weapon="Szabla", special="powalenie")
    odds = attack_odds(state, cmd)
    option = odds.options["brak"]
    expected = sum(p * max(0, k - 1) for k, p in option.hit.przebicia.items())
    assert odds.damage_type == DamageType.STUN and odds.reduction == 1
    assert option.expected_damage == pytest.approx(expected)


@dataclass(frozen=True, kw_only=True)
class Dance(Command):
    type_key: ClassVar[str] = "dance"


def test_a_command_the_engine_does_not_know_is_refused() -> None:
    state = begin(
        make_state(make_combatant("ala"), make_combatant("wilk", "foes")), ["ala", "wilk"]
    )
    with pytest.raises(RuleViolation) as refused:
        step(state, Dance(actor="ala"))
    assert refused.value.code == "nieznane_polecenie"


def test_an_answer_to_a_closed_prompt_changes_nothing_on_replay() -> None:
    state = begin(
        make_state(make_combatant("ala"), make_combatant("wilk", "foes")), ["ala", "wilk"]
    )
    assert evolve(state, ReactionChosen(prompt="p99", actor="ala")) == state


def test_a_burning_condition_without_end_stays_endless_when_extended() -> None:
    s = TableSettings()
    endless = (ConditionInstance("podpalenie", remaining=None),)
    again = cond.add(endless, ConditionInstance("podpalenie", remaining=3), s)
    assert again[0].remaining is None


def test_a_non_stacking_condition_reapplied_keeps_the_longer_duration() -> None:
    s = TableSettings()
    short = (ConditionInstance("oslepienie", remaining=1),)
    longer = cond.add(short, ConditionInstance("oslepienie", remaining=3), s)
    assert longer[0].remaining == 3
    assert cond.add(longer, ConditionInstance("oslepienie", remaining=2), s) == longer


def test_one_open_opportunity_per_enemy_and_provoker() -> None:
    grip = (ConditionInstance("unieruchomienie", source="wilk", difficulty=3),)
    state = make_state(
        make_combatant("ala", position=(0, 0), conditions=grip),
        make_combatant("wilk", "foes", position=(1, 0)),
    )
    state = begin(state, ["wilk", "ala"])
    state, _ = step(state, EndTurn(actor="wilk"))
    state, _ = step(state, Incantation(actor="ala", spell="Tarcza"))
    state, events = step(state, BreakFree(actor="ala"), Dice(1, 1, 1, 1))  # a critical failure
    assert len(state.prompts) == 1 and not of_type(events, PromptOpened)


def test_resolving_an_attack_that_is_gone_does_nothing() -> None:
    state = begin(
        make_state(make_combatant("ala"), make_combatant("wilk", "foes")), ["ala", "wilk"]
    )
    batch = Batch(state)
    resolve(batch, "a404", random.Random(0))
    assert batch.events == []


def test_odepchniecie_with_no_przebicia_moves_nobody() -> None:
    state = make_state(
        make_combatant("ala", position=(0, 0)),
        make_combatant("wilk", "foes", position=(1, 0)),
        settings=TableSettings(tie_goes_to="attacker"),
    )
    state = begin(state, ["ala", "wilk"])
    cmd = DeclareAttack(actor="ala", target="wilk", weapon="Szabla", special="odepchniecie")
    state, events = step(state, cmd, Dice(4, 1, 1, 1, 1, 4, 1, 1, 1))
    assert of_type(events, AttackResolved)[0].hit and not of_type(events, Moved)


@dataclass(frozen=True, kw_only=True)
class Eclipse(Event):
    type_key: ClassVar[str] = "eclipse"


def test_evolve_refuses_an_event_it_does_not_know() -> None:
    state = make_state(make_combatant("ala"))
    with pytest.raises(ValueError):
        evolve(state, Eclipse())


def test_krytyczna_porazka_only_on_a_failed_test() -> None:
    state = begin(
        make_state(make_combatant("ala"), make_combatant("wilk", "foes")), ["ala", "wilk"]
    )
    pool = (Modifier(2, "Percepcja"),)
    batch = Batch(state)
    assert roll_test(batch, Dice(1, 2), "ala", "percepcja", pool, difficulty=0).successes == 0
    assert not of_type(batch.events, TestRolled)[0].critical_failure  # difficulty 0: passed
    batch = Batch(state)
    roll_test(batch, Dice(1, 2), "ala", "percepcja", pool, difficulty=1)
    assert of_type(batch.events, TestRolled)[0].critical_failure
    batch = Batch(state)
    roll_test(batch, Dice(1, 2), "ala", "percepcja", pool)
    assert of_type(batch.events, TestRolled)[0].critical_failure  # no difficulty: as a stumble
