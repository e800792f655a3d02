"""The attack pipeline of the digest §4 with scripted dice: hit, reaction, damage, resistance,
armour, PŻ, the crit tables, and the refusals of an attack.

Ala (Zwinność 60) acts first; Ork (every attribute 50, 200 PŻ, a Miecz) defends. Ala's hit
threshold is 60, her damage 70 (Krzepa 50 + Miecz 20); Ork's Unik, Blok and Wytrzymałość 50.
"""

from __future__ import annotations

from typing import Any

import pytest

from combat.rules.base import RuleViolation
from combat.rules.d100.commands import (
    AddCondition,
    Attack,
    Damage,
    Defend,
    EndTurn,
    Expire,
    FreeAction,
)
from combat.rules.d100.engine import attack as atk
from combat.rules.d100.events import AttackDeclared, AttackResolved, Bled, TurnSkipped
from tests.combat.rules.d100.engine_kit import Table, fighter, kinds, of, one


def duel(
    ork: dict[str, Any] | None = None, ala: dict[str, Any] | None = None, **settings: Any
) -> Table:
    table = Table(
        fighter("ala", "a", "u1", zwinnosc=60, **(ala or {})),
        fighter("ork", "b", **(ork or {})),
        **settings,
    )
    table.start()
    assert table.current == "ala"
    return table


def hit(table: Table, option: str, dice: list[int], **kw: Any) -> AttackResolved:
    """Ala attacks Ork; Ork answers `option`; the whole attack with `dice`."""
    table.do(Attack(actor="ala", target="ork", now=0, **kw))
    return one(table.defend(option, dice), AttackResolved)


# --- the pipeline -----------------------------------------------------------------------------


def test_attack_opens_a_reaction_prompt_with_a_deadline() -> None:
    table = duel()
    events = table.do(Attack(actor="ala", target="ork", now=100))
    prompt = one(events, AttackDeclared).prompt
    assert prompt.actor == "ork" and prompt.options == ("unik", "blok")
    assert prompt.deadline == 100 + table.state.settings.reaction_seconds
    assert table.c["ork"].attacked and table.c["ala"].full_used


def test_trafienie_failure_is_a_miss() -> None:
    resolved = hit(duel(), "", [70])
    assert resolved.hit.threshold == 60 and not resolved.hit.success
    assert resolved.damage is None and resolved.harms == ()


def test_unik_avoids_a_hit_with_a_greater_oop() -> None:
    resolved = hit(duel(), "unik", [30, 10])
    assert resolved.defence_roll is not None and resolved.defence_roll.oop == 40
    assert resolved.avoided and resolved.damage is None


def test_unik_tie_goes_to_the_defender() -> None:
    assert hit(duel(), "unik", [30, 20]).avoided


def test_unik_tie_goes_to_the_attacker_when_the_setting_says_so() -> None:
    resolved = hit(duel(tie_to_defender=False), "unik", [30, 20, 40, 45])
    assert not resolved.avoided and resolved.dealt == 125


def test_a_failed_unik_does_not_avoid() -> None:
    resolved = hit(duel(), "unik", [30, 70, 40, 45])
    assert not resolved.avoided and resolved.dealt == 125


def test_krytyczne_szczescie_hit_beats_a_non_critical_defence() -> None:
    resolved = hit(duel(), "unik", [3, 10, 6, 40, 45])
    assert not resolved.avoided
    assert resolved.hit_crit is not None and resolved.hit_crit.sides == 6
    assert resolved.hit_crit.effect == "zachwianie"


def test_krytyczne_szczescie_defence_beats_a_non_critical_hit() -> None:
    resolved = hit(duel(), "unik", [10, 2, 2])
    assert resolved.avoided
    assert resolved.defence_crit is not None and resolved.defence_crit.effect == "unik"
    (applied,) = resolved.applied
    assert applied.target == "ork" and applied.effect.value == 5 and applied.effect.start == 2


def test_damage_is_oop_times_multiplier_less_the_resistance_oop() -> None:
    table = duel()
    resolved = hit(table, "", [30, 40, 45])
    assert resolved.damage is not None and resolved.damage.threshold == 70
    assert resolved.raw == 150  # OoP 30 × 5
    assert resolved.resistance is not None and resolved.resistance.oop == 5
    assert resolved.soaked == 25 and resolved.dealt == 125
    assert table.c["ork"].pz == 75


def test_a_failed_damage_test_deals_nothing() -> None:
    resolved = hit(duel(), "", [30, 80])
    assert resolved.raw == 0 and resolved.resistance is None and resolved.harms == ()


def test_resistance_roll_can_be_turned_off() -> None:
    resolved = hit(duel(resistance_roll=False), "", [30, 40])
    assert resolved.resistance is None and resolved.dealt == 150


def test_armour_and_shield_reduce_by_their_percent_rounded_down() -> None:
    resolved = hit(duel(ork={"armour": "light", "shield": True}), "", [30, 47, 48])
    assert resolved.raw == 115 and resolved.soaked == 10
    assert resolved.armour_percent == 30 and resolved.armour == 31 and resolved.dealt == 74


def test_armour_negation_on_a_crit_luck_hit_d6_1() -> None:
    resolved = hit(duel(ork={"armour": "heavy"}), "", [3, 1, 40, 45])
    assert resolved.armour_negated and resolved.armour == 0 and resolved.dealt == 125


def test_blow_to_zero_pz_inflicts_an_uraz() -> None:
    table = duel(ork={"pz": 100})
    resolved = hit(table, "", [30, 20, 90])
    (harm,) = resolved.harms
    assert harm.amount == 100 and harm.injuries == 1 and harm.down == "pokonany"
    assert table.c["ork"].pz == 0 and table.c["ork"].injuries == 1


def test_krytyczne_szczescie_on_damage_inflicts_an_uraz() -> None:
    table = duel(ork={"pz": 1000})
    resolved = hit(table, "", [30, 4, 90])
    assert resolved.damage is not None and resolved.damage.level == "crit_luck"
    assert resolved.harms[0].injuries == 1 and table.c["ork"].injuries == 1


def test_krytyczny_pech_on_damage_gives_minus_10_to_damage_next_turn() -> None:
    table = duel()
    resolved = hit(table, "", [30, 97])
    (applied,) = resolved.applied
    assert applied.target == "ala" and applied.effect.roll == "obrazenia"
    assert applied.effect.value == -10 and applied.effect.start == 2
    table.do(EndTurn(actor="ala"))
    table.do(EndTurn(actor="ork"))
    assert table.state.turn == 2
    plan = atk.plan(table.state, table.c["ala"], "ork", "")
    assert ("krytyczny pech", -10) in plan.damage.modifiers


def test_krytyczny_pech_on_hit_d2_1_self_damage_of_10_percent_max_pz() -> None:
    table = duel()
    resolved = hit(table, "", [97, 1])
    assert resolved.hit_crit is not None and resolved.hit_crit.sides == 2
    (harm,) = resolved.harms
    assert harm.target == "ala" and harm.amount == 20 and table.c["ork"].pz == 200


def test_krytyczny_pech_on_hit_d2_2_zachwianie_next_turn() -> None:
    resolved = hit(duel(), "", [97, 2])
    (applied,) = resolved.applied
    effect = applied.effect
    assert applied.target == "ala" and effect.key == "zachwianie"
    assert (effect.start, effect.until, effect.value) == (2, 2, 10)


def test_high_difficulty_doubles_bad_luck_self_damage() -> None:
    resolved = hit(duel(difficulty="high"), "", [97, 1])
    assert resolved.harms[0].amount == 40


def test_high_difficulty_stagger_of_bad_luck_lasts_two_turns() -> None:
    effect = hit(duel(difficulty="high"), "", [97, 2]).applied[0].effect
    assert (effect.start, effect.until, effect.value) == (2, 3, 10)


def test_high_difficulty_stagger_of_bad_luck_may_double_the_penalty_instead() -> None:
    table = duel(difficulty="high", high_stagger="penalty")
    effect = hit(table, "", [97, 2]).applied[0].effect
    assert (effect.start, effect.until, effect.value) == (2, 2, 20)


def test_high_difficulty_doubles_damage_bad_luck() -> None:
    effect = hit(duel(difficulty="high"), "", [30, 97]).applied[0].effect
    assert effect.value == -20


def test_crits_are_optional_at_moderate_difficulty() -> None:
    table = duel(optional_crits=False)
    resolved = hit(table, "", [3, 40, 45])
    assert resolved.hit_crit is None and not resolved.crits
    table2 = duel(optional_crits=False, ork={"pz": 1000})
    resolved2 = hit(table2, "", [30, 4, 90])
    assert resolved2.harms[0].injuries == 0  # no crit Uraz


def test_crits_always_apply_at_high_difficulty() -> None:
    resolved = hit(duel(difficulty="high", optional_crits=False), "", [3, 6, 40, 45])
    assert resolved.hit_crit is not None and resolved.crits


def test_crit_bad_hit_without_crits_is_only_a_miss() -> None:
    resolved = hit(duel(optional_crits=False), "", [97])
    assert resolved.hit_crit is None and resolved.harms == ()


# --- conditions from the d6 -------------------------------------------------------------------


def test_ogluszenie_target_cannot_react_and_the_attack_resolves_at_once() -> None:
    table = duel()
    table.do(AddCondition(target="ork", condition="ogluszenie", turns=1))
    events = table.do(Attack(actor="ala", target="ork"), [30, 40, 45])
    assert one(events, AttackDeclared).prompt is None
    assert one(events, AttackResolved).defence == "" and table.state.prompts == ()


def test_d6_2_ogluszenie_lasts_the_turn_inflicted_and_the_next() -> None:
    table = duel()
    effect = hit(table, "", [3, 2, 80]).applied[0].effect
    assert (effect.key, effect.start, effect.until) == ("ogluszenie", 1, 2)
    events = table.do(EndTurn(actor="ala"))
    assert one(events, TurnSkipped).combatant == "ork"
    events = table.do(EndTurn(actor="ala"))
    assert one(events, TurnSkipped).combatant == "ork" and table.state.turn == 3
    assert table.current == "ala"
    table.do(EndTurn(actor="ala"))
    assert table.current == "ork"


def test_d6_3_powalenie_minus_40_to_attacks_and_unik_and_no_blok() -> None:
    table = duel()
    effect = hit(table, "", [3, 3, 80]).applied[0].effect
    assert effect.key == "powalenie"
    table.do(EndTurn(actor="ala"))
    ork_attack = atk.plan(table.state, table.c["ork"], "ala", "")
    assert ("Powalenie", -40) in ork_attack.hit.modifiers
    ala_attack = atk.plan(table.state, table.c["ala"], "ork", "")
    assert ala_attack.options == ("unik",)
    unik = atk.defence_spec(table.state, table.c["ork"], "unik")
    assert unik is not None and ("Powalenie", -40) in unik.modifiers


def test_d6_4_rozbrojenie_stops_weapon_attacks_and_frees_the_unik() -> None:
    table = duel(ork={"armour": "light"})
    effect = hit(table, "", [3, 4, 80]).applied[0].effect
    assert effect.key == "rozbrojenie" and effect.hand == ""
    table.do(EndTurn(actor="ala"))
    with pytest.raises(RuleViolation) as refused:
        table.do(Attack(actor="ork", target="ala"))
    assert refused.value.code == "rozbrojony"
    unik = atk.defence_spec(table.state, table.c["ork"], "unik")
    assert unik is not None and unik.modifiers == ()
    assert atk.reactions(table.state, table.c["ork"]) == ("unik",)  # no weapon to block with
    table.do(Attack(actor="ork", target="ala", choice="unarmed"))  # bare hands still fight


def test_rozbrojenie_of_two_weapons_takes_one_hand_and_staggers() -> None:
    weapons = [{"name": "Sztylet", "kind": "small"}, {"name": "Miecz", "kind": "traditional"}]
    table = Table(
        fighter("ala", "a", "u1", zwinnosc=40),
        fighter("ork", "b", zwinnosc=60, weapons=weapons),
    )
    table.start()
    table.do(FreeAction(actor="ork", kind="change_weapon", choice="two:0:1"))
    table.do(EndTurn(actor="ork"))
    table.do(Attack(actor="ala", target="ork"))
    resolved = one(table.defend("", [3, 4, 80]), AttackResolved)
    keys = [(a.effect.key, a.effect.hand) for a in resolved.applied]
    assert keys == [("rozbrojenie", "w0"), ("zachwianie", "")]
    table.do(EndTurn(actor="ala"))  # turn 2: Ork first, still disarmed of the dagger
    assert table.state.turn == 2 and table.current == "ork"
    with pytest.raises(RuleViolation) as refused:
        table.do(Attack(actor="ork", target="ala", choice="two:0:1"))
    assert refused.value.code == "rozbrojona_reka"
    plan = atk.plan(table.state, table.c["ork"], "ala", "w1")
    assert ("Zachwianie", -10) in plan.hit.modifiers


def test_d6_5_krwawienie_ticks_10_percent_of_the_blow_three_times() -> None:
    table = duel()
    resolved = hit(table, "", [3, 5, 40, 90])
    assert resolved.dealt == 150
    bleeds = []
    for _ in range(4):
        bleeds += [e.harm.amount for e in of(table.do(EndTurn(actor="ala")), Bled)]
        if table.current == "ork":
            bleeds += [e.harm.amount for e in of(table.do(EndTurn(actor="ork")), Bled)]
    assert bleeds == [15, 15, 15]
    assert table.c["ork"].pz == 200 - 150 - 45


def test_krwawienie_after_a_blow_that_dealt_nothing_rerolls_the_damage_until_a_success() -> None:
    resolved = hit(duel(), "", [3, 5, 80, 90, 60])
    assert [r.roll for r in resolved.bleed_rolls] == [90, 60]
    (applied,) = resolved.applied
    assert applied.effect.key == "krwawienie" and applied.effect.value == 5
    assert resolved.harms == ()


def test_d6_6_zachwianie_gives_minus_10_to_hit_and_unik_next_turn() -> None:
    table = duel()
    effect = hit(table, "", [3, 6, 80]).applied[0].effect
    assert (effect.key, effect.start, effect.until) == ("zachwianie", 2, 2)
    table.do(EndTurn(actor="ala"))
    assert ("Zachwianie", -10) not in atk.plan(table.state, table.c["ork"], "ala", "").hit.modifiers
    table.do(EndTurn(actor="ork"))
    assert ("Zachwianie", -10) in atk.plan(table.state, table.c["ork"], "ala", "").hit.modifiers
    unik = atk.defence_spec(table.state, table.c["ork"], "unik")
    assert unik is not None and ("Zachwianie", -10) in unik.modifiers


# --- defence crits ----------------------------------------------------------------------------


def test_defence_crit_bad_luck_d2_1_minus_5_to_hit_this_turn_if_not_acted_yet() -> None:
    table = duel()
    resolved = hit(table, "unik", [30, 98, 1, 40, 45])
    assert resolved.defence_crit is not None and resolved.defence_crit.table == "obrona_pech"
    effect = resolved.applied[0].effect
    assert (effect.roll, effect.value, effect.start) == ("trafienie", -5, 1)
    table.do(EndTurn(actor="ala"))
    assert ("krytyczny pech", -5) in atk.plan(table.state, table.c["ork"], "ala", "").hit.modifiers


def test_defence_crit_luck_d2_1_plus_5_to_hit_next_turn_once_acted() -> None:
    table = Table(fighter("ala", "a", "u1", zwinnosc=40), fighter("ork", "b", zwinnosc=60))
    table.start()
    table.do(EndTurn(actor="ork"))
    table.do(Attack(actor="ala", target="ork"))
    resolved = one(table.defend("unik", [30, 2, 1]), AttackResolved)
    effect = resolved.applied[0].effect
    assert (effect.roll, effect.value, effect.start) == ("trafienie", 5, 2)


def test_blok_crit_gives_the_blok_modifier() -> None:
    resolved = hit(duel(), "blok", [30, 2, 2])
    assert resolved.avoided and resolved.applied[0].effect.roll == "blok"


def test_blok_tests_the_block_attribute() -> None:
    table = duel(ork={"krzepa": 70})
    resolved = hit(table, "blok", [30, 30])
    assert resolved.defence_roll is not None and resolved.defence_roll.attribute == "krzepa"
    assert resolved.defence_roll.threshold == 70 and resolved.avoided


# --- refusals ---------------------------------------------------------------------------------


def test_blok_needs_a_weapon_or_a_shield() -> None:
    table = duel(ork={"weapons": []})
    table.do(Attack(actor="ala", target="ork"))
    (prompt,) = table.state.prompts
    assert prompt.options == ("unik",)
    with pytest.raises(RuleViolation) as refused:
        table.do(Defend(actor="ork", prompt=prompt.id, option="blok"))
    assert refused.value.code == "blok_bez_broni"


def test_blok_refused_while_knocked_down() -> None:
    table = duel()
    table.do(AddCondition(target="ork", condition="powalenie", turns=1))
    table.do(Attack(actor="ala", target="ork"))
    (prompt,) = table.state.prompts
    with pytest.raises(RuleViolation) as refused:
        table.do(Defend(actor="ork", prompt=prompt.id, option="blok"))
    assert refused.value.code == "blok_powalony"


def test_an_unknown_reaction_is_refused() -> None:
    table = duel()
    table.do(Attack(actor="ala", target="ork"))
    (prompt,) = table.state.prompts
    with pytest.raises(RuleViolation) as refused:
        table.do(Defend(actor="ork", prompt=prompt.id, option="riposta"))
    assert refused.value.code == "obrona_niedostepna"


def test_a_shield_goes_only_with_a_one_handed_weapon() -> None:
    weapons = [{"name": "Miecz", "kind": "traditional"}, {"name": "Topór", "kind": "heavy"}]
    table = duel(ala={"weapons": weapons, "shield": True})
    with pytest.raises(RuleViolation) as refused:
        table.do(Attack(actor="ala", target="ork", choice="w1"))
    assert refused.value.code == "tarcza_bron"
    table.do(Attack(actor="ala", target="ork", choice="w0"))


def test_not_your_turn_is_refused() -> None:
    with pytest.raises(RuleViolation) as refused:
        duel().do(Attack(actor="ork", target="ala"))
    assert refused.value.code == "nie_twoja_tura"


def test_one_full_action_a_turn() -> None:
    table = duel()
    hit(table, "", [70])
    with pytest.raises(RuleViolation) as refused:
        table.do(Attack(actor="ala", target="ork"))
    assert refused.value.code == "brak_akcji_pelnej"


@pytest.mark.parametrize(
    ("target", "code"),
    [("ala", "sam_siebie"), ("eli", "sojusznik"), ("nikt", "postac"), ("gm", "postac")],
)
def test_an_attack_out_of_reach_of_the_rules_is_refused(target: str, code: str) -> None:
    table = Table(fighter("ala", "a", "u1", zwinnosc=60), fighter("eli", "a"), fighter("ork", "b"))
    table.start()
    with pytest.raises(RuleViolation) as refused:
        table.do(Attack(actor="ala", target=target))
    assert refused.value.code == code


def test_an_attack_on_one_out_of_the_fight_is_refused() -> None:
    table = duel()
    table.do(Damage(target="ork", amount=500))
    with pytest.raises(RuleViolation) as refused:
        table.do(Attack(actor="ala", target="ork"))
    assert refused.value.code == "cel_poza_walka"


def test_spells_are_cast_not_attacked_with() -> None:
    with pytest.raises(RuleViolation) as refused:
        duel().do(Attack(actor="ala", target="ork", choice="spell:0"))
    assert refused.value.code == "atak_czarem"


def test_another_command_waits_while_a_prompt_is_open() -> None:
    table = duel()
    table.do(Attack(actor="ala", target="ork"))
    with pytest.raises(RuleViolation) as refused:
        table.do(EndTurn(actor="ala"))
    assert refused.value.code == "czeka_na_obrone"


def test_defend_answers_only_its_own_open_prompt() -> None:
    """Another's prompt is refused as one that does not exist (it may be a hidden NPC's)."""
    table = duel()
    table.do(Attack(actor="ala", target="ork"))
    with pytest.raises(RuleViolation) as refused:
        table.do(Defend(actor="ala", prompt="p1", option=""))
    assert refused.value.code == "brak_pytania"
    with pytest.raises(RuleViolation) as missing:
        table.do(Defend(actor="ork", prompt="p9", option=""))
    assert missing.value.code == "brak_pytania"
    assert refused.value.message == missing.value.message


# --- the deadline -----------------------------------------------------------------------------


def test_expire_lands_an_overdue_prompt_as_no_reaction() -> None:
    table = duel()
    table.do(Attack(actor="ala", target="ork", now=0))
    with pytest.raises(RuleViolation) as refused:
        table.do(Expire(now=29))
    assert refused.value.code == "nic_nie_czeka"
    events = table.do(Expire(now=30), [30, 40, 45])
    resolved = one(events, AttackResolved)
    assert resolved.expired and resolved.defence == "" and resolved.prompt == "p1"
    assert table.state.prompts == () and kinds(events) == ["attack_resolved"]


def test_one_stunned_mid_turn_may_not_act() -> None:
    from combat.rules.d100 import engine
    from combat.rules.d100.state import Effect
    from combat.rules.records import replace

    table = duel()
    ala = table.c["ala"]
    stunned = table.state.with_combatant(replace(ala, effects=(Effect("ogluszenie", 1, 2),)))
    with pytest.raises(RuleViolation) as refused:
        engine.decide(stunned, Attack(actor="ala", target="ork"), None)  # type: ignore[arg-type]
    assert refused.value.code == "ogluszony"


def test_without_a_weapon_one_attacks_with_bare_hands() -> None:
    table = duel(ala={"weapons": [{"name": "Różdżka", "kind": "wand"}]})
    assert atk.plan(table.state, table.c["ala"], "ork", "").choice == "unarmed"


def test_a_prompt_whose_target_left_the_fight_meanwhile_closes_unrolled() -> None:
    from combat.rules.d100.events import PromptClosed

    table = duel()
    table.do(Attack(actor="ala", target="ork", now=0))
    table.do(Damage(target="ork", amount=999))  # the GM, while Ork was to answer
    closed = one(table.defend("unik", []), PromptClosed)
    assert closed.reason == "cel_poza_walka" and table.state.prompts == ()


def test_a_prompt_whose_attacker_left_the_fight_closes_at_its_deadline() -> None:
    from combat.rules.d100.events import PromptClosed

    table = duel()
    table.do(Attack(actor="ala", target="ork", now=0))
    table.do(Damage(target="ala", amount=999))
    closed = one(table.do(Expire(now=30)), PromptClosed)
    assert closed.reason == "nieprzytomny" and table.state.prompts == ()
    assert table.current == "ork"  # Ala's turn ended once the prompt closed
