"""Combat spells (§3, §4): two rolls each (the hit on Zmysły, the damage or effect on
Intelekt, with the focus), and the spell rows of the crit table.

Maga (Zwinność 60, a Różdżka: +5 to hit, +10 to damage) casts: hit threshold 55, second roll
60. Ork (every attribute 50, 200 PŻ) is the enemy, Eli (50) her ally.
"""

from __future__ import annotations

from typing import Any

import pytest

from combat.rules.base import RuleViolation
from combat.rules.d100.commands import AddCondition, Attack, Cast, Damage, EndTurn
from combat.rules.d100.engine import attack as atk
from combat.rules.d100.events import (
    AttackDeclared,
    AttackResolved,
    SpellResolved,
    Summoned,
    Vanished,
)
from tests.combat.rules.d100.engine_kit import Table, fighter, one

SPELLS = [
    {"name": "Ognisty pocisk", "kind": "damage"},
    {"name": "Spokojny sen", "kind": "negative", "turns": 1},
    {"name": "Dodatkowy oddech", "kind": "positive", "turns": 2},
    {
        "name": "Przywołanie wilka",
        "kind": "summon",
        "turns": 3,
        "summon": {"name": "Wilk", "pz": 40, "attack": 40, "damage": 45},
    },
]


def circle(**settings: Any) -> Table:
    table = Table(
        fighter(
            "maga",
            "a",
            "u1",
            zwinnosc=60,
            spells=SPELLS,
            weapons=[{"name": "Różdżka", "kind": "wand"}],
        ),  # fmt: skip
        fighter("eli", "a", "u2", zwinnosc=55),
        fighter("ork", "b"),
        **settings,
    )
    table.start()
    assert table.current == "maga"
    return table


def cast(table: Table, spell: int, target: str | None, dice: list[int]) -> SpellResolved:
    return one(table.do(Cast(actor="maga", spell=spell, target=target), dice), SpellResolved)


# --- damage spells ----------------------------------------------------------------------------


def test_damage_spell_two_rolls_zmysly_then_intelekt_with_the_focus() -> None:
    table = circle()
    events = table.do(Cast(actor="maga", spell=0, target="ork"))
    prompt = one(events, AttackDeclared).prompt
    assert prompt.options == ("unik",)  # no Blok against a spell
    resolved = one(table.defend("", [30, 40, 45]), AttackResolved)
    assert resolved.spell == 0 and resolved.label == "Ognisty pocisk"
    assert (resolved.hit.attribute, resolved.hit.threshold) == ("zmysly", 55)
    assert resolved.damage is not None and resolved.damage.attribute == "intelekt"
    assert resolved.damage.threshold == 60 and resolved.dealt == 75
    assert table.c["maga"].full_used and table.c["maga"].weapon == ""


def test_damage_spell_allows_no_unik_unless_magic_is_dodgeable() -> None:
    table = circle(magic_dodgeable=False)
    events = table.do(Cast(actor="maga", spell=0, target="ork"), [30, 40, 45])
    assert one(events, AttackDeclared).prompt is None
    assert one(events, AttackResolved).dealt == 75


def test_a_damage_spells_crit_luck_hit_rolls_the_d6_too() -> None:
    table = circle()
    table.do(Cast(actor="maga", spell=0, target="ork"))
    resolved = one(table.defend("", [3, 2, 80]), AttackResolved)
    assert resolved.hit_crit is not None and resolved.applied[0].effect.key == "ogluszenie"


# --- effect spells ----------------------------------------------------------------------------


def test_negative_spell_lands_unless_resisted() -> None:
    table = circle()
    resolved = cast(table, 1, "ork", [30, 40, 45])
    assert resolved.effect is not None and resolved.effect.attribute == "intelekt"
    assert resolved.resistance is not None and resolved.resistance.attribute == "wytrzymalosc"
    assert resolved.success and not resolved.resisted and resolved.turns == 1
    (applied,) = resolved.applied
    assert applied.target == "ork" and applied.effect.key == "czar"
    assert (applied.effect.start, applied.effect.until, applied.effect.label) == (
        1,
        2,
        "Spokojny sen",
    )
    assert table.c["ork"].attacked and table.c["maga"].full_used


def test_negative_spell_resisted_by_a_greater_wytrzymalosc_oop() -> None:
    resolved = cast(circle(), 1, "ork", [30, 40, 20])
    assert resolved.resisted and not resolved.success and resolved.applied == ()


def test_a_failed_hit_or_effect_roll_fizzles() -> None:
    table = circle()
    assert not cast(table, 1, "ork", [80]).success
    table2 = circle()
    resolved = cast(table2, 1, "ork", [30, 80])
    assert not resolved.success and resolved.resistance is None


def test_negative_spell_crit_bad_hit_lands_on_the_caster_for_one_turn() -> None:
    resolved = cast(circle(), 1, "ork", [97])
    (applied,) = resolved.applied
    assert applied.target == "maga" and applied.effect.key == "czar"
    assert (applied.effect.start, applied.effect.until) == (1, 2)


def test_negative_spell_crit_bad_hit_lasts_two_turns_at_high_difficulty() -> None:
    resolved = cast(circle(difficulty="high"), 1, "ork", [97])
    assert resolved.applied[0].effect.until == 3


def test_negative_spell_is_not_cast_on_oneself_or_one_out_of_the_fight() -> None:
    table = circle()
    with pytest.raises(RuleViolation) as refused:
        table.do(Cast(actor="maga", spell=1, target="maga"))
    assert refused.value.code == "czar_na_siebie"
    table.do(Damage(target="ork", amount=999))
    with pytest.raises(RuleViolation) as refused:
        table.do(Cast(actor="maga", spell=1, target="ork"))
    assert refused.value.code == "cel_poza_walka"


def test_positive_spell_on_an_ally_and_crit_luck_lasts_a_turn_longer() -> None:
    table = circle()
    resolved = cast(table, 2, "eli", [30, 4])
    assert resolved.success and resolved.turns == 3 and resolved.resistance is None
    (applied,) = resolved.applied
    assert applied.target == "eli" and (applied.effect.start, applied.effect.until) == (1, 4)


def test_positive_spell_defaults_to_the_caster() -> None:
    resolved = cast(circle(), 2, None, [30, 40])
    assert resolved.target == "maga" and resolved.applied[0].target == "maga"


def test_positive_spell_crit_bad_hit_minus_10_zmysly_when_casting_next_turn() -> None:
    table = circle()
    resolved = cast(table, 2, "eli", [97])
    effect = resolved.applied[0].effect
    assert (effect.roll, effect.value, effect.start) == ("czar_trafienie", -10, 2)
    for cid in ("maga", "eli", "ork"):
        table.do(EndTurn(actor=cid))
    spell_attack = atk.plan(table.state, table.c["maga"], "ork", "spell:0", spell=0)
    assert ("krytyczny pech", -10) in spell_attack.hit.modifiers
    weapon_attack = atk.plan(table.state, table.c["maga"], "ork", "unarmed")
    assert ("krytyczny pech", -10) not in weapon_attack.hit.modifiers


def test_effect_spell_crit_bad_second_roll_minus_10_intelekt_when_casting_next_turn() -> None:
    effect = cast(circle(), 2, "eli", [30, 97]).applied[0].effect
    assert (effect.roll, effect.value, effect.start) == ("czar_obrazenia", -10, 2)


def test_positive_spell_may_not_be_cast_from_the_ground() -> None:
    table = circle()
    table.do(AddCondition(target="maga", condition="powalenie", turns=1))
    with pytest.raises(RuleViolation) as refused:
        table.do(Cast(actor="maga", spell=2, target="eli"))
    assert refused.value.code == "powalony"


def test_a_disarmed_mage_casts_no_spell_through_its_focus() -> None:
    table = circle()
    table.do(AddCondition(target="maga", condition="rozbrojenie", turns=1))
    for spell in (0, 1):
        with pytest.raises(RuleViolation) as refused:
            table.do(Cast(actor="maga", spell=spell, target="ork"))
        assert refused.value.code == "rozbrojony"


def test_an_unknown_spell_is_refused() -> None:
    with pytest.raises(RuleViolation) as refused:
        circle().do(Cast(actor="maga", spell=7, target="ork"))
    assert refused.value.code == "czar"


# --- summoning --------------------------------------------------------------------------------


def test_summon_joins_on_the_casters_side_right_after_the_caster() -> None:
    table = circle()
    events = table.do(Cast(actor="maga", spell=3), [30, 40])
    wolf = one(events, Summoned).combatant
    assert wolf.id == "maga~1" and wolf.side == "a" and wolf.controller == "u1"
    assert wolf.summon is not None and wolf.summon.until == 4 and not wolf.summon.hostile
    assert table.state.order == ("maga", "maga~1", "eli", "ork")
    assert table.c["maga~1"].done  # it acts from the next turn
    for cid in ("maga", "eli", "ork", "maga"):
        table.do(EndTurn(actor=cid))
    assert table.current == "maga~1"
    plan = atk.plan(table.state, table.c["maga~1"], "ork", "")
    assert (plan.hit.attribute, plan.hit.base, plan.damage.base) == ("zwinnosc", 40, 45)


def test_summon_crit_luck_on_hit_gives_plus_10_and_on_the_second_roll_plus_20_percent_pz() -> None:
    table = circle()
    wolf = one(table.do(Cast(actor="maga", spell=3), [3, 4]), Summoned).combatant
    assert wolf.summon.hit_bonus == 10 and wolf.max_pz == 48
    for cid in ("maga", "eli", "ork", "maga"):
        table.do(EndTurn(actor=cid))
    plan = atk.plan(table.state, table.c["maga~1"], "ork", "")
    assert ("Przyzwaniec", 10) in plan.hit.modifiers


def test_summon_crit_bad_luck_attacks_the_caster_for_one_turn_then_vanishes() -> None:
    table = circle()
    events = table.do(Cast(actor="maga", spell=3), [30, 97])
    wolf = one(events, Summoned).combatant
    assert wolf.summon.hostile and wolf.controller is None and wolf.summon.until == 2
    for cid in ("maga", "eli", "ork", "maga"):
        table.do(EndTurn(actor=cid))
    assert table.current == "maga~1"
    with pytest.raises(RuleViolation) as refused:
        table.do(Attack(actor="maga~1", target="ork"))
    assert refused.value.code == "wrogi_przyzwaniec"
    table.do(Attack(actor="maga~1", target="maga"))
    table.defend("", [90])
    table.do(EndTurn(actor="maga~1"))
    table.do(EndTurn(actor="eli"))
    events = table.do(EndTurn(actor="ork"))
    assert one(events, Vanished).combatant == "maga~1"
    assert "maga~1" not in table.c and "maga~1" not in table.state.order


def test_summon_crit_bad_luck_on_the_hit_brings_it_hostile_too() -> None:
    wolf = one(circle().do(Cast(actor="maga", spell=3), [97]), Summoned).combatant
    assert wolf.summon.hostile


def test_the_casters_side_may_strike_its_hostile_summon() -> None:
    table = circle()
    table.do(Cast(actor="maga", spell=3), [30, 97])
    table.do(EndTurn(actor="maga"))
    table.do(Attack(actor="eli", target="maga~1"))


def test_a_summon_vanishes_when_its_turns_are_up() -> None:
    table = circle()
    table.do(Cast(actor="maga", spell=3), [30, 40])
    vanished = []
    for _ in range(5):
        for cid in list(table.state.order):
            if table.current == cid:
                vanished += [
                    e.combatant for e in table.do(EndTurn(actor=cid)) if isinstance(e, Vanished)
                ]
    assert vanished == ["maga~1"] and table.state.turn >= 5


def test_a_summon_at_zero_pz_is_destroyed() -> None:
    table = circle()
    table.do(Cast(actor="maga", spell=3), [30, 40])
    table.do(Damage(target="maga~1", amount=100))
    assert table.c["maga~1"].dead


def test_positive_spell_not_on_the_dead() -> None:
    table = circle(npc_at_zero="dead")
    table.do(Damage(target="ork", amount=999))
    with pytest.raises(RuleViolation) as refused:
        table.do(Cast(actor="maga", spell=2, target="ork"))
    assert refused.value.code == "martwy"


def test_a_mind_spell_is_resisted_with_the_mind_attribute_and_its_crit_table() -> None:
    from combat.rules.records import replace

    table = circle()
    maga = table.c["maga"]
    sheet = {
        **maga.sheet,
        "spells": [{"name": "Strach", "kind": "negative", "turns": 1, "mind": True}],
    }
    table.state = table.initial = table.state.with_combatant(replace(maga, sheet=sheet))
    table.log = []
    resolved = cast(table, 0, "ork", [30, 40, 2, 2])
    assert resolved.resistance is not None and resolved.resistance.attribute == "oglada"
    assert resolved.resistance_crit is not None and resolved.resisted
    (applied,) = resolved.applied
    assert (applied.target, applied.effect.roll, applied.effect.value) == ("ork", "umysl", 5)


def test_a_second_summon_comes_after_the_first() -> None:
    table = circle()
    table.do(Cast(actor="maga", spell=3), [30, 40])
    for cid in ("maga", "eli", "ork"):
        table.do(EndTurn(actor=cid))
    table.do(Cast(actor="maga", spell=3), [30, 40])
    assert table.state.order[:3] == ("maga", "maga~1", "maga~2")
