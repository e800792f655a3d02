"""Zdrowie, Utrata przytomności, Krwawienie, Okaleczenie i Śmierć, healing in the fight."""

from __future__ import annotations

import pytest

from combat.rules.base import RuleViolation
from combat.rules.eleora import health
from combat.rules.eleora.commands import (
    AddCondition,
    ApplyDamage,
    EditHealth,
    EndCombat,
    EndTurn,
    Heal,
    Interact,
)
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.events import ConditionTicked, FirstAidGiven, MaimingRolled
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.sheet import Armour
from combat.rules.eleora.state import EncounterState
from tests.combat.rules.engine_kit import (
    Dice,
    begin,
    make_combatant,
    make_sheet,
    make_state,
    of_type,
    step,
)

S = TableSettings()


def table(settings: TableSettings | None = None, **ala: object) -> EncounterState:
    state = make_state(
        make_combatant("ala", **ala),  # type: ignore[arg-type]
        make_combatant("wilk", "foes"),
        settings=settings,
    )
    return begin(state, ["wilk", "ala"])


def test_zdrowie_is_nine_plus_krzepa_squared() -> None:
    assert make_combatant("a", sheet=make_sheet(krzepa=2)).max_health == 13
    assert make_combatant("a", sheet=make_sheet(krzepa=3)).max_health == 18


def test_nieprzytomnosc_at_zdrowie_three_or_less() -> None:
    state, _ = step(table(), EditHealth(target="ala", damage_physical=0, damage_stun=9))
    assert state.get("ala").status == "active"  # Zdrowie 4
    state, _ = step(state, EditHealth(target="ala", damage_physical=0, damage_stun=10))
    assert state.get("ala").status == "unconscious"
    assert not state.get("ala").has("krwawienie")  # stun alone does not bleed


def test_knockout_by_physical_or_mixed_damage_starts_bleeding() -> None:
    state, _ = step(table(), ApplyDamage(target="ala", physical=5, stun=5))
    ala = state.get("ala")
    assert ala.status == "unconscious" and ala.has("krwawienie")
    assert ala.conditions[0].remaining is None  # DEFAULT: it does not run out while unconscious


def test_knockout_bleed_ticks_every_turn_and_resumes_as_normal_after_waking() -> None:
    state, _ = step(table(), ApplyDamage(target="ala", physical=10))
    state, events = step(state, EndTurn(actor="wilk"))
    assert [e.damage for e in of_type(events, ConditionTicked) if e.combatant == "ala"] == [1]
    assert state.get("ala").health == 2 and state.current == "wilk"  # her turn passed by
    state, _ = step(state, Heal(target="ala", amount=6))
    assert state.get("ala").status == "active"
    assert state.get("ala").conditions[0].remaining == S.bleeding_turns


def test_okaleczenie_roll_when_zdrowie_falls_to_zero_or_below() -> None:
    state, events = step(table(), ApplyDamage(target="ala", physical=15), Dice(3, 6))
    rolled = of_type(events, MaimingRolled)[0].result
    assert (rolled.location_die, rolled.effect_die) == (3, 6)
    assert rolled.final_effect == 6 - 2  # −1 per point below 0 (Zdrowie −2)
    ala = state.get("ala")
    assert ala.status == "unconscious" and not ala.maiming_pending
    assert ala.injuries[0].location == "Prawa Ręka" and ala.injuries[0].effect == "Utrata palców"


def test_okaleczenie_death_result_kills() -> None:
    state, _ = step(table(), ApplyDamage(target="ala", physical=13), Dice(1, 1))
    assert state.get("ala").status == "dead"


def test_okaleczenie_rolled_again_on_every_further_loss_below_zero() -> None:
    state, _ = step(table(), ApplyDamage(target="ala", physical=13), Dice(5, 6))
    state, events = step(state, ApplyDamage(target="ala", physical=1), Dice(5, 6))
    assert len(of_type(events, MaimingRolled)) == 1
    assert len(state.get("ala").injuries) == 2
    state, events = step(state, Heal(target="ala", amount=1))
    assert not of_type(events, MaimingRolled)  # healing is no fall


def test_okaleczenie_only_on_the_first_fall_when_the_table_says_so() -> None:
    once = table(TableSettings(maiming_on_every_loss=False))
    state, events = step(once, ApplyDamage(target="ala", physical=13), Dice(5, 6))
    assert len(of_type(events, MaimingRolled)) == 1
    state, events = step(state, ApplyDamage(target="ala", physical=1), Dice(5, 6))
    assert not of_type(events, MaimingRolled)
    assert len(state.get("ala").injuries) == 1


def test_death_below_a_negative_trigger_without_maiming() -> None:
    settings = TableSettings(maiming_enabled=False, maiming_trigger=-1)
    state, _ = step(table(settings), ApplyDamage(target="ala", physical=13))
    assert state.get("ala").status == "unconscious"  # Zdrowie 0, trigger −1
    state, _ = step(state, ApplyDamage(target="ala", physical=2))
    assert state.get("ala").status == "dead"


def test_death_instead_of_maiming_for_beginner_tables() -> None:
    state, events = step(
        table(TableSettings(maiming_enabled=False)), ApplyDamage(target="ala", physical=13)
    )
    assert state.get("ala").status == "dead" and not of_type(events, MaimingRolled)


def test_stun_cannot_kill_option_stops_at_one() -> None:
    state, _ = step(table(TableSettings(stun_cannot_kill=True)), ApplyDamage(target="ala", stun=30))
    assert state.get("ala").health == 1 and state.get("ala").status == "unconscious"


def test_stun_and_physical_damage_tracked_separately() -> None:
    state, _ = step(table(), ApplyDamage(target="ala", physical=2, stun=3))
    ala = state.get("ala")
    assert (ala.damage_physical, ala.damage_stun, ala.health) == (2, 3, 8)


def test_gm_damage_may_apply_pancerz_and_wola() -> None:
    armour = (Armour("Skóra", armour_points=1),)
    state = table(sheet=make_sheet(armour=armour, wola=2))
    state, _ = step(state, ApplyDamage(target="ala", physical=3, stun=3, reduce=True))
    assert (state.get("ala").damage_physical, state.get("ala").damage_stun) == (2, 1)
    with pytest.raises(RuleViolation):
        step(state, ApplyDamage(target="ala", physical=-1))


def test_magiczne_leczenie_counts_toward_its_limit() -> None:
    state, _ = step(table(), ApplyDamage(target="ala", physical=8))
    state, _ = step(state, Heal(target="ala", amount=5, magic=True))
    ala = state.get("ala")
    assert (ala.damage_physical, ala.magic_healing) == (3, 5)
    full = table(magic_healing=13, damage_physical=2)
    with pytest.raises(RuleViolation) as refused:
        step(full, Heal(target="ala", amount=1, magic=True))
    assert refused.value.code == "magiczne_leczenie_wyczerpane"
    with pytest.raises(RuleViolation):
        step(state, Heal(target="ala", amount=0))


def test_gm_edit_health_goes_through_the_same_checks() -> None:
    state, events = step(
        table(), EditHealth(target="ala", damage_physical=13, damage_stun=0), Dice(2, 6)
    )
    assert of_type(events, MaimingRolled)
    with pytest.raises(RuleViolation):
        step(state, EditHealth(target="ala", damage_physical=-1, damage_stun=0))


def test_change_health_on_the_dead_changes_nothing() -> None:
    dead = make_combatant("a", status="dead", damage_physical=20)
    assert health.change_health(dead, S, physical=5).combatant == dead


def test_unconscious_threshold_is_a_table_setting() -> None:
    settings = TableSettings(unconscious_at=5)
    state, _ = step(table(settings), ApplyDamage(target="ala", stun=8))
    assert state.get("ala").status == "unconscious"


def test_knocked_out_during_own_turn_passes_the_turn() -> None:
    state = table()
    state, _ = step(state, EndTurn(actor="wilk"))
    assert state.current == "ala"
    state, _ = step(state, ApplyDamage(target="ala", stun=11))
    assert state.current == "wilk"


def test_split_healing_heals_physical_first() -> None:
    hurt = make_combatant("a", damage_physical=2, damage_stun=3)
    assert health.split_healing(hurt, 4) == (-2, -2)


def test_knockout_bleed_capped_at_the_limit() -> None:
    bleeding = tuple(ConditionInstance("krwawienie", remaining=3) for _ in range(3))
    state, _ = step(table(conditions=bleeding), ApplyDamage(target="ala", physical=10))
    assert state.get("ala").stacks("krwawienie") == 3


def test_pierwsza_pomoc_adds_medic_successes_to_the_maiming_effect_die() -> None:
    state = make_state(make_combatant("ala"), make_combatant("bob"), make_combatant("wilk", "foes"))
    state = begin(state, ["wilk", "bob", "ala"])
    state, _ = step(state, ApplyDamage(target="ala", physical=15), Dice(3, 3))
    assert state.get("ala").status == "dead"  # arm, effect 3 − 2 = 1: death
    state, _ = step(state, EndTurn(actor="wilk"))
    aid = Interact(actor="bob", kind="pierwsza_pomoc", target="ala")
    state, events = step(state, aid, Dice(6, 6, 1))  # Intelekt 1 + Medycyna 2: two successes
    revised = of_type(events, FirstAidGiven)[0].result
    assert revised.final_effect == 3 - 2 + 2 and revised.effect.name == "Niedowład Ręki"
    ala = state.get("ala")
    assert ala.status == "unconscious" and [i.effect for i in ala.injuries] == ["Niedowład Ręki"]
    with pytest.raises(RuleViolation) as again:
        step(state, aid)
    assert "już" in again.value.message


def test_pierwsza_pomoc_replaces_an_earlier_injury_and_needs_a_maiming_roll() -> None:
    state = make_state(make_combatant("ala"), make_combatant("bob"), make_combatant("wilk", "foes"))
    state = begin(state, ["wilk", "bob", "ala"])
    with pytest.raises(RuleViolation):
        step(state, Interact(actor="wilk", kind="pierwsza_pomoc", target="bob"))
    state, _ = step(state, ApplyDamage(target="ala", physical=13), Dice(5, 2))
    assert [i.effect for i in state.get("ala").injuries] == ["Utrata Nogi"]
    state, _ = step(
        state, Interact(actor="wilk", kind="pierwsza_pomoc", target="ala"), Dice(6, 6, 6)
    )
    assert [i.effect for i in state.get("ala").injuries] == ["Złamanie"]


def test_kostki_heroizmu_are_lost_when_the_fight_ends() -> None:
    state, _ = step(table(), AddCondition(target="ala", condition="inspiracja", stacks=2))
    state, _ = step(state, EndCombat(winner="party"))
    assert state.get("ala").heroism_dice == 0


def test_pierwsza_pomoc_cannot_save_everyone() -> None:
    state = make_state(make_combatant("ala"), make_combatant("bob"), make_combatant("wilk", "foes"))
    state = begin(state, ["bob", "wilk", "ala"])
    state, _ = step(state, ApplyDamage(target="ala", physical=20), Dice(1, 6))  # Zdrowie −7
    state, _ = step(
        state, Interact(actor="bob", kind="pierwsza_pomoc", target="ala"), Dice(6, 1, 1)
    )
    assert state.get("ala").status == "dead" and state.get("ala").first_aid_given


def test_krwawienie_from_a_knockout_is_never_lost_at_the_stack_limit() -> None:
    bleeding = tuple(
        ConditionInstance("krwawienie", remaining=turns, source="wilk") for turns in (1, 2, 3)
    )
    state, _ = step(table(conditions=bleeding), ApplyDamage(target="ala", physical=10))
    wounds = [x for x in state.get("ala").conditions if x.key == "krwawienie"]
    assert len(wounds) == S.bleeding_max
    assert [x.source for x in wounds].count(health.KNOCKOUT_BLEED) == 1
    assert sorted(x.remaining or 0 for x in wounds) == [0, 2, 3]  # the oldest one gave way
