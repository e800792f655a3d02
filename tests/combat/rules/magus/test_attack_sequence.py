"""The attack sequence: the attack test against the defence, the success level, the damage
test, armour, Wounds, the balance test, consciousness and life; spells; the reaction prompt.

Ala attacks with Broń Biała 3 + Zręczność 6 = step 9 (d8+d6); her Miecz deals Siła 5 + 4 =
step 9 (d8+d6). Ork: OF 7, OM 6, WT 8, unconscious at 25, dead at 32; Siła 5 (d8).
"""

from __future__ import annotations

from typing import Any

import pytest

from combat.rules.base import RuleViolation
from combat.rules.magus import prompts
from combat.rules.magus.commands import (
    AddCondition,
    Advance,
    Answer,
    Attack,
    Declare,
    EditHealth,
    EndTurn,
    Expire,
    StartCombat,
)
from combat.rules.magus.events import (
    AttackRolled,
    Bled,
    CheckRolled,
    ConditionAdded,
    DamageRolled,
    DefenceRolled,
    StrainPaid,
)
from tests.combat.rules.magus.engine_kit import Table, fighter, kinds, of, to_act


def duel(
    ala: dict[str, Any] | None = None,
    ork: dict[str, Any] | None = None,
    *,
    ala_declares: Declare | None = None,
    ork_declares: Declare | None = None,
    surprised: tuple[str, ...] = (),
    **settings: Any,
) -> Table:
    table = Table(
        fighter("ala", "a", "u1", **(ala or {})), fighter("ork", "b", **(ork or {})), **settings
    )
    table.do(StartCombat(surprised=surprised, now=0.0))
    decl = {
        "ala": ala_declares or Declare(actor="ala", action="attack", weapon="Miecz", target="ork"),
        "ork": ork_declares or Declare(actor="ork"),
    }
    to_act(table, decl)
    assert table.state.current == "ala"
    return table


def hit(table: Table, faces: list[int], **kw: Any) -> list[Any]:
    return table.do(Attack(actor="ala", target="ork", weapon="Miecz", now=50.0, **kw), faces)


def test_attack_test_against_obrona_fizyczna_misses_below_it() -> None:
    table = duel()
    events = hit(table, [3, 3])
    rolled = of(events, AttackRolled)[0]
    assert (rolled.roll.total, rolled.dn, rolled.level) == (6, 7, "poor")
    assert "damage_rolled" not in kinds(events)


def test_attack_success_level_then_damage_test_and_wound_over_the_threshold() -> None:
    table = duel()
    events = hit(table, [5, 3, 6, 5, 7])  # 8 vs 7; damage 11 > WT 8; balance d8 7 ≥ 6
    assert of(events, AttackRolled)[0].level == "average"
    damage = of(events, DamageRolled)[0]
    assert (damage.dealt, damage.wound) == (11, True)
    balance = of(events, CheckRolled)[0]
    assert (balance.kind, balance.dn, balance.success) == ("rownowaga", 3 + 3, True)
    assert (table.c["ork"].damage, table.c["ork"].wounds) == (11, 1)


def test_balance_test_failed_after_a_wound_knocks_down() -> None:
    table = duel()
    events = hit(table, [5, 3, 6, 5, 2])
    assert ConditionAdded("ork", "powalony", 0) in events
    assert table.c["ork"].knocked_down


def test_no_wound_at_or_below_the_wound_threshold_and_no_balance_test() -> None:
    table = duel()
    events = hit(table, [5, 3, 4, 4])
    assert of(events, DamageRolled)[0].wound is False
    assert of(events, CheckRolled) == []


def test_armour_is_subtracted_except_on_an_excellent_success() -> None:
    armour = [{"name": "Kolczuga", "physical": 5}]
    table = duel(ork={"armour": armour})
    events = hit(table, [5, 3, 4, 4])
    assert of(events, DamageRolled)[0].dealt == 8 - 5
    table = duel(ork={"armour": armour})
    events = hit(table, [8, 5, 4, 4, 4, 7])  # 17 vs 7: Excellent, armour ignored
    damage = of(events, DamageRolled)[0]
    assert damage.penetrated and damage.dealt == 9  # 8 raised to the damage step (Good+)


def test_a_shield_adds_to_armour_and_raises_the_penetration_threshold() -> None:
    shield = [{"name": "Tarcza", "physical": 2}]
    table = duel(ork={"shields": shield})
    events = hit(table, [8, 5, 4, 4, 4])  # 17 vs 7: margin 10 < 10 + 2
    damage = of(events, DamageRolled)[0]
    assert not damage.penetrated and damage.dealt == 9 - 2


def test_wound_penalty_one_per_wound_after_the_first_on_attack_and_damage() -> None:
    table = duel()
    table.do(EditHealth(target="ala", wounds=3))
    events = hit(table, [6, 3, 4, 4])
    rolled = of(events, AttackRolled)[0]
    assert ("Rany", -2) in [(a.reason, a.value) for a in rolled.roll.adjustments]
    assert of(events, DamageRolled)[0].dealt == 8 - 2


def test_unconscious_at_the_rating_and_dead_at_the_death_rating() -> None:
    table = duel()
    table.do(EditHealth(target="ork", damage=20))
    hit(table, [5, 3, 3, 3])  # 6 more: 26 ≥ 25
    assert table.c["ork"].unconscious and not table.c["ork"].dead
    table = duel()
    table.do(EditHealth(target="ork", damage=30))
    hit(table, [5, 3, 3, 3])
    assert table.c["ork"].dead


def test_krwotok_on_an_excellent_of_damage_against_the_wound_threshold() -> None:
    table = duel(ala={"weapons": [{"name": "Miecz", "damage": 10, "size": 3}]})  # step 15 d20+d6
    events = hit(table, [5, 3, 17, 2, 7])  # 19 dealt vs WT 8: +11, Excellent
    assert ConditionAdded("ork", "krwotok", 0) in events


def test_spells_go_against_obrona_magiczna_with_mystic_armour() -> None:
    spell = [{"name": "Ognisty pocisk", "effect_step": 8}]
    armour = [{"name": "Amulet", "physical": 5, "mystic": 1}]
    table = duel(
        ala={"spells": spell, "skills": {"rzucanie_czarow": 4}},
        ork={"armour": armour},
        ala_declares=Declare(actor="ala", action="spell", spell="Ognisty pocisk"),
    )
    events = table.do(Attack(actor="ala", target="ork", spell="Ognisty pocisk"), [5, 3, 4, 4])
    rolled = of(events, AttackRolled)[0]
    assert rolled.dn_parts[0] == ("Obrona Magiczna", 6) and rolled.roll.step == 4 + 5
    assert of(events, DamageRolled)[0].dealt == 8 - 1


def test_unarmed_attack_uses_walka_wrecz() -> None:
    table = duel(ala_declares=Declare(actor="ala", action="attack"))
    events = table.do(Attack(actor="ala", target="ork"), [3])
    assert of(events, AttackRolled)[0].roll.step == 6


def test_attack_refusals() -> None:
    table = duel()
    with pytest.raises(RuleViolation, match="samego siebie"):
        table.do(Attack(actor="ala", target="ala", weapon="Miecz"))
    with pytest.raises(RuleViolation, match="broni"):
        table.do(Attack(actor="ala", target="ork", weapon="Topór"))
    with pytest.raises(RuleViolation, match="czaru"):
        table.do(Attack(actor="ala", target="ork", spell="Ogień"))
    with pytest.raises(RuleViolation, match="Nie twoja tura"):
        table.do(Attack(actor="ork", target="ala", weapon="Miecz"))
    hit(table, [3, 3])
    with pytest.raises(RuleViolation, match="akcję standardową"):
        hit(table, [3, 3])


# --- the defender's reaction ------------------------------------------------------------------


def test_a_hit_opens_the_defenders_reaction_prompt_with_its_legal_talents() -> None:
    table = duel(ork={"skills": {"unik": 2}})
    events = hit(table, [5, 3])
    prompt = of(events, AttackRolled)[0].prompt
    assert prompt is not None and prompt.options == ("unik",)
    assert prompt.deadline == 50.0 + 20
    view = prompts.open_prompts(table.state)[0]
    assert [k for k, _ in view.options] == ["unik", ""]
    with pytest.raises(RuleViolation, match="odpowiedzieć"):
        table.do(Attack(actor="ala", target="ork", weapon="Miecz"))


def test_unik_must_reach_the_attack_result_and_costs_strain() -> None:
    table = duel(ork={"skills": {"unik": 2}})  # Unik 2 + Zręczność 6 = step 8 (2d6)
    hit(table, [5, 3])
    pid = table.state.prompts[0].id
    events = table.do(Answer(actor="ork", prompt=pid, option="unik"), [4, 4])
    defence = of(events, DefenceRolled)[0]
    assert (defence.needed, defence.success) == (8, True)
    assert StrainPaid("ork", "unik", 1, 1) in events
    assert "damage_rolled" not in kinds(events) and table.state.prompts == ()


def test_a_failed_unik_lets_the_hit_land() -> None:
    table = duel(ork={"skills": {"unik": 2}})
    hit(table, [5, 3])
    pid = table.state.prompts[0].id
    events = table.do(Answer(actor="ork", prompt=pid, option="unik"), [3, 4, 3, 3])
    assert not of(events, DefenceRolled)[0].success
    assert of(events, DamageRolled)[0].dealt == 6


def test_riposta_costs_its_own_strain() -> None:
    table = duel(ork={"skills": {"riposta": 1}})
    hit(table, [5, 3])
    pid = table.state.prompts[0].id
    events = table.do(Answer(actor="ork", prompt=pid, option="riposta"), [9])  # step 7 d12
    assert StrainPaid("ork", "riposta", 2, 2) in events


def test_only_one_defensive_talent_per_attack() -> None:
    table = duel(ork={"skills": {"unik": 2, "riposta": 1}})
    hit(table, [5, 3])
    pid = table.state.prompts[0].id
    assert table.state.prompts[0].options == ("unik", "riposta")
    table.do(Answer(actor="ork", prompt=pid, option="unik"), [3, 4, 3, 3])
    with pytest.raises(RuleViolation, match="zamknięte"):
        table.do(Answer(actor="ork", prompt=pid, option="riposta"))


def test_postawa_obronna_takes_three_from_unik() -> None:
    table = duel(
        ork={"skills": {"unik": 2}},
        ork_declares=Declare(actor="ork", options=("postawa_obronna",)),
    )
    hit(table, [5, 6, 2])  # 13 vs 7 + 3
    pid = table.state.prompts[0].id
    events = table.do(Answer(actor="ork", prompt=pid, option="unik"), [5, 5, 4, 4])
    defence = of(events, DefenceRolled)[0]
    assert ("Postawa obronna", -3) in [(a.reason, a.value) for a in defence.roll.adjustments]
    assert defence.roll.total == 7 and not defence.success


def test_no_reaction_and_the_deadline_let_the_hit_land() -> None:
    table = duel(ork={"skills": {"unik": 2}})
    hit(table, [5, 3])
    pid = table.state.prompts[0].id
    with pytest.raises(RuleViolation, match="już zamknięte"):  # another's: as a missing one
        table.do(Answer(actor="ala", prompt=pid, option=""))
    with pytest.raises(RuleViolation, match="Tej reakcji"):
        table.do(Answer(actor="ork", prompt=pid, option="riposta"))
    with pytest.raises(RuleViolation, match="minął"):
        table.do(Answer(actor="ork", prompt=pid, option="", now=71.0))
    events = table.do(Expire(now=71.0), [3, 3])
    assert kinds(events)[:2] == ["prompt_closed", "damage_rolled"]
    table = duel(ork={"skills": {"unik": 2}})
    hit(table, [5, 3])
    events = table.do(Answer(actor="ork", prompt=table.state.prompts[0].id), [3, 3])
    assert of(events, DamageRolled)[0].dealt == 6


def test_an_unconscious_or_surprised_defender_gets_no_prompt() -> None:
    table = duel(ork={"skills": {"unik": 2}})
    table.do(AddCondition(target="ork", condition="nieprzytomny"))
    events = hit(table, [5, 3, 3, 3])
    assert of(events, AttackRolled)[0].prompt is None


def test_oderwanie_konczyn_needs_an_aimed_attack_and_twice_the_victims_sila() -> None:
    troll = {"attributes": {"sila": 10}}
    table = duel(ala=troll)
    with pytest.raises(RuleViolation, match="Oderwanie"):
        hit(table, [], sever=True)  # not aimed
    table = Table(fighter("ala", "a", "u1", attributes={"sila": 9}), fighter("ork", "b"))
    table.do(StartCombat())
    to_act(table, {"ala": Declare(actor="ala", options=("przycelowanie",))})
    table.do(EndTurn(actor="ala"))
    table.do(EndTurn(actor="ork"))
    to_act(table, {"ala": Declare(actor="ala", action="attack", weapon="Miecz", target="ork")})
    with pytest.raises(RuleViolation, match="dwa razy"):
        hit(table, [], sever=True)  # Siła 9 < 2 × 5


def test_oderwanie_konczyn_on_an_excellent_damage_result_bleeds_step_4_each_round() -> None:
    table = Table(fighter("ala", "a", "u1", attributes={"sila": 10}), fighter("ork", "b"))
    table.do(StartCombat())
    to_act(table, {"ala": Declare(actor="ala", options=("przycelowanie",))})
    table.do(EndTurn(actor="ala"))
    table.do(EndTurn(actor="ork"))
    to_act(table, {"ala": Declare(actor="ala", action="attack", weapon="Miecz", target="ork")})
    events = hit(table, [5, 3, 17, 3, 7], sever=True)  # damage 20 vs WT 8: Excellent
    assert ConditionAdded("ork", "oderwana_konczyna", 0) in events
    assert ConditionAdded("ork", "krwotok", 0) in events
    table.do(EndTurn(actor="ala"))
    events = table.do(EndTurn(actor="ork"), [4])  # step 4: d6
    bled = {e.cause: e.damage for e in events if e.type_key == "bled"}
    # The limb bleeds „w każdej rundzie”, the hit's too; Krwotok from the next one on.
    assert bled == {"oderwana_konczyna": 4}


# Magus document, Krwotok: „Przy sukcesie Ogromnym (Excellent) w każdej kolejnej rundzie postać
# otrzymuje 2 pkt obrażeń z tytułu utraty krwi.” Every FOLLOWING round: not the hit's own.
def test_krwotok_bleeds_from_the_round_after_the_excellent_hit() -> None:
    table = duel(ala={"weapons": [{"name": "Miecz", "damage": 10, "size": 3}]})
    hit(table, [5, 3, 17, 2, 7])  # 19 dealt vs WT 8: +11, Excellent: Krwotok in round 1
    hurt = table.c["ork"].damage
    events = table.do(Advance())  # the end of round 1, the hit's own
    assert not of(events, Bled) and table.c["ork"].damage == hurt
    to_act(table)
    events = table.do(Advance())  # the end of round 2: the first following round
    assert of(events, Bled) == [Bled("ork", "krwotok", 2)]
    assert table.c["ork"].damage == hurt + 2


# Magus document, Postawa Obronna: „+3 do OF i OM wobec każdego ataku który widzi bądź
# wyczuje”. An Atak z tyłu is one the defender neither sees nor senses: no +3 against it.
def test_postawa_obronna_does_not_count_against_an_atak_z_tylu() -> None:
    stance = Declare(actor="ork", options=("postawa_obronna",))
    seen = of(hit(duel(ork_declares=stance), [3, 3]), AttackRolled)[0]
    assert ("Postawa obronna", 3) in seen.dn_parts and seen.dn == 7 + 3
    unseen = of(hit(duel(ork_declares=stance), [2, 2], blindside=True), AttackRolled)[0]
    assert "Postawa obronna" not in [reason for reason, _ in unseen.dn_parts]
    assert unseen.dn == 7 - 2  # OF 7 and Atak z tyłu's −2 only
