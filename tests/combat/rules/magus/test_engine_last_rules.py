"""The last rules of the seed: Sprint with Bieg, Uszkodzenie broni, tarczy lub zbroi, the kinds
of actions (a simple action with a test is the standard one; free actions unlimited), and
Bieg's cost (the standard action, Otoczony).

Ala attacks with Broń Biała 3 + Zręczność 6 = step 9 (d8+d6) against the Ork's OF 7:
Excellent from 17, Extraordinary from 22; her Miecz deals step 9 too.
"""

from __future__ import annotations

from typing import Any

import pytest

from combat.rules.base import Badge, RuleViolation
from combat.rules.magus import narrate, table
from combat.rules.magus.commands import (
    Answer,
    Attack,
    Declare,
    EndTurn,
    Move,
    SimpleAction,
    StartCombat,
)
from combat.rules.magus.events import (
    ActionUsed,
    AttackRolled,
    DefenceRolled,
    ItemDamaged,
    Moved,
    SimpleActed,
)
from combat.rules.magus.table import TargetItem
from tests.combat.rules.magus.engine_kit import Table, fighter, of, steed, to_act

ATTACK = Declare(actor="ala", action="attack", weapon="Miecz", target="ork")


def fight(
    ala: dict[str, Any] | None = None,
    ork: dict[str, Any] | None = None,
    *,
    declarations: dict[str, Declare] | None = None,
    initiative: dict[str, int] | None = None,
    **settings: Any,
) -> Table:
    t = Table(
        fighter("ala", "a", "u1", **(ala or {})), fighter("ork", "b", **(ork or {})), **settings
    )
    t.do(StartCombat())
    to_act(t, declarations, initiative)
    return t


# --- Sprint -----------------------------------------------------------------------------------


def test_sprint_adds_its_metres_per_rank_to_the_movement_rate() -> None:
    t = fight({"skills": {"sprint": 2}})  # 12 m + 2 × 2 m
    with pytest.raises(RuleViolation, match="zostało 16 m z 16 m"):
        t.do(Move(actor="ala", metres=17))
    t.do(Move(actor="ala", metres=16))
    t = fight({"skills": {"sprint": 2}}, sprint_metres_per_rank=3)
    t.do(Move(actor="ala", metres=18))


def test_sprint_bonus_is_not_doubled_by_bieg() -> None:
    t = fight(
        {"skills": {"sprint": 2}}, declarations={"ala": Declare(actor="ala", options=("bieg",))}
    )
    with pytest.raises(RuleViolation, match="zostało 28 m z 28 m"):  # 12 × 2 + 4, not (12 + 4) × 2
        t.do(Move(actor="ala", metres=29))
    assert of(t.do(Move(actor="ala", metres=28)), Moved)[0].running


def test_sprint_with_ruch_dzielony_harries_once_the_rate_and_the_sprint_are_used() -> None:
    split = Declare(actor="ala", options=("ruch_dzielony",))
    t = fight({"skills": {"sprint": 1}}, declarations={"ala": split})
    t.do(Move(actor="ala", metres=12))
    assert not t.c["ala"].has("otoczony")
    t.do(Move(actor="ala", metres=2))
    assert t.c["ala"].has("otoczony")


def test_sprint_shows_in_the_panels_metres_left() -> None:
    running = Declare(actor="ala", options=("bieg",))
    t = fight({"skills": {"sprint": 2}}, declarations={"ala": running})
    panel = table.turn_panel(t.state, "ala", frozenset(t.state.combatants))
    assert panel.commands["ruch"]["metres"] == 28
    t.do(Move(actor="ala", metres=10))
    panel = table.turn_panel(t.state, "ala", frozenset(t.state.combatants))
    assert panel.commands["ruch"]["metres"] == 18
    seat = table.seat_panel(t.state, "ala", frozenset(t.state.combatants))
    assert (seat.movement_rate, seat.sprint_m) == (12, 4)


def test_sprint_of_a_rider_does_not_carry_its_mount() -> None:
    horse = steed("kon", "a", attributes={"ruch": 14}, skills={"sprint": 0})
    t = Table(fighter("ala", "a", "u1", skills={"sprint": 3}), fighter("ork", "b"), horse)
    from combat.rules.magus.commands import MountUp

    t.do(MountUp(actor="ala", mount="kon"))
    t.do(StartCombat())
    to_act(t, {"ala": Declare(actor="ala")}, {"ala": 9, "ork": 1})
    t.do(EndTurn(actor="ala"))
    assert t.state.current == "kon"
    with pytest.raises(RuleViolation, match="zostało 28 m z 28 m"):  # full speed 2 × 14
        t.do(Move(actor="kon", metres=29))


# --- Uszkodzenie broni, tarczy lub zbroi --------------------------------------------------------

ORK_KIT: dict[str, Any] = {
    "armour": [{"name": "Skóra", "physical": 2}],
    "shields": [{"name": "Puklerz", "physical": 1, "magic": True}],
    "weapons": [{"name": "Topór", "damage": 4}],
}


def aimed(ork: dict[str, Any] | None = None) -> Table:
    """Ala aims in round 1 and declares an attack on the Ork in round 2."""
    t = fight(
        ork=ork or ORK_KIT, declarations={"ala": Declare(actor="ala", options=("przycelowanie",))}
    )
    t.do(EndTurn(actor="ala"))
    t.do(EndTurn(actor="ork"))
    to_act(t, {"ala": ATTACK})
    assert t.state.current == "ala" and t.c["ala"].aim == 1
    return t


def test_uszkodzenie_przedmiotu_needs_przycelowanie() -> None:
    t = fight(ork=ORK_KIT, declarations={"ala": ATTACK})
    with pytest.raises(RuleViolation, match="wymaga Przycelowania"):
        t.do(Attack(actor="ala", target="ork", weapon="Miecz", damage_item="Skóra"))
    panel = table.turn_panel(t.state, "ala", frozenset(t.state.combatants))
    assert panel.target_items == {}


def test_uszkodzenie_przedmiotu_names_an_item_of_the_target() -> None:
    t = aimed()
    with pytest.raises(RuleViolation, match="nie ma przedmiotu Kolczuga"):
        t.do(Attack(actor="ala", target="ork", weapon="Miecz", damage_item="Kolczuga"))
    panel = table.turn_panel(t.state, "ala", frozenset(t.state.combatants))
    assert panel.target_items["ork"] == (
        TargetItem(name="Topór", kind="bron", magic=False, damaged=False),
        TargetItem(name="Puklerz", kind="tarcza", magic=True, damaged=False),
        TargetItem(name="Skóra", kind="zbroja", magic=False, damaged=False),
    )


def test_uszkodzenie_przedmiotu_on_an_excellent_result_marks_the_item_damaged() -> None:
    t = aimed()
    # attack 8+3 (d8 explodes) + 6+1 = 18 vs 7: Excellent; damage at least the step (9): a
    # Wound, the balance test 5 vs 4
    events = t.do(
        Attack(actor="ala", target="ork", weapon="Miecz", damage_item="Skóra"),
        [8, 3, 6, 1, 5, 3, 5],
    )
    assert of(events, AttackRolled)[0].level == "excellent"
    assert of(events, ItemDamaged) == [ItemDamaged("ork", "Skóra", "zbroja", False)]
    assert t.c["ork"].damaged_items == ("Skóra",)
    assert (t.c["ork"].damage, t.c["ork"].wounds) == (9, 1)  # the hit lands as ever
    badge = Badge("uszkodzony", "Uszkodzony:", "Skóra")
    assert badge in table.table_view(t.state).seats["ork"].badges
    line = narrate.describe(t.replayed(), of(events, ItemDamaged)[0])
    assert line is not None and line.params == {"name": "Ork", "item": "Skóra", "what": "zbroja"}
    assert t.replayed() == t.state


def test_uszkodzenie_przedmiotu_below_excellent_leaves_the_item_whole() -> None:
    t = aimed()
    events = t.do(
        Attack(actor="ala", target="ork", weapon="Miecz", damage_item="Topór"), [7, 6, 2, 4, 3]
    )  # 15 vs 7: Good
    assert of(events, AttackRolled)[0].level == "good" and not of(events, ItemDamaged)
    assert t.c["ork"].damaged_items == ()


def test_uszkodzenie_magicznego_przedmiotu_needs_an_extraordinary_result() -> None:
    t = aimed()
    events = t.do(
        Attack(actor="ala", target="ork", weapon="Miecz", damage_item="Puklerz"),
        [8, 3, 6, 1, 5, 3, 5],
    )  # 18 vs 7: Excellent, not enough for the magic shield
    assert not of(events, ItemDamaged)
    t = aimed()
    events = t.do(
        Attack(actor="ala", target="ork", weapon="Miecz", damage_item="Puklerz"),
        [8, 8, 2, 6, 1, 5, 3, 5],
    )  # 8+8+2 + 6+1 = 25 vs 7: Extraordinary
    assert of(events, ItemDamaged) == [ItemDamaged("ork", "Puklerz", "tarcza", True)]


def test_uszkodzenie_przedmiotu_needs_the_hit_to_land() -> None:
    t = aimed({**ORK_KIT, "skills": {"unik": 5}})
    t.do(Attack(actor="ala", target="ork", weapon="Miecz", damage_item="Topór"), [8, 3, 6, 1])
    prompt = t.state.prompts[0]
    assert prompt.strike.item == "Topór"
    events = t.do(Answer(actor="ork", prompt=prompt.id, option="unik"), [10, 6, 4])  # 20 ≥ 18
    assert of(events, DefenceRolled)[0].success and not of(events, ItemDamaged)


# --- the kinds of actions ---------------------------------------------------------------------


def test_a_simple_action_that_needs_a_test_is_the_standard_action() -> None:
    t = fight(declarations={"ala": ATTACK})
    assert of(t.do(SimpleAction(actor="ala", note="dobycie broni")), SimpleActed)
    assert not t.c["ala"].standard_used
    events = t.do(SimpleAction(actor="ala", note="wspinaczka", test=True))
    assert of(events, ActionUsed) == [ActionUsed("ala", "wspinaczka")]
    assert t.c["ala"].standard_used and t.c["ala"].changes == 1  # declared an attack: a change
    with pytest.raises(RuleViolation, match="akcję standardową"):
        t.do(SimpleAction(actor="ala", test=True))
    with pytest.raises(RuleViolation, match="akcję standardową"):
        t.do(Attack(actor="ala", target="ork", weapon="Miecz"))


def test_free_actions_have_no_limit_only_one_defensive_talent_per_attack() -> None:
    t = Table(
        fighter("ala", "a", "u1"),
        fighter("ola", "a", "u2"),
        fighter("ork", "b", skills={"unik": 2}),
    )
    t.do(StartCombat())
    ola = Declare(actor="ola", action="attack", weapon="Miecz", target="ork")
    to_act(t, {"ala": ATTACK, "ola": ola}, {"ala": 9, "ola": 8, "ork": 1})
    for attacker in ("ala", "ola"):
        t.do(Attack(actor=attacker, target="ork", weapon="Miecz"), [5, 3])
        prompt = t.state.prompts[0]
        assert prompt.options == ("unik",)  # the Unik of the first attack takes nothing away
        events = t.do(Answer(actor="ork", prompt=prompt.id, option="unik"), [4, 4])
        assert of(events, DefenceRolled)[0].success
        t.do(EndTurn(actor=attacker))
    assert t.state.current == "ork"


# --- Bieg -------------------------------------------------------------------------------------


def test_bieg_uses_the_standard_action() -> None:
    t = fight(declarations={"ala": Declare(actor="ala", options=("bieg",))})
    t.do(Move(actor="ala", metres=3))
    assert t.c["ala"].standard_used
    with pytest.raises(RuleViolation, match="akcję standardową"):
        t.do(SimpleAction(actor="ala", test=True))


def test_bieg_leaves_the_runner_otoczony_minus_two_to_defences_and_action_tests() -> None:
    running = Declare(actor="ork", options=("bieg",))
    t = fight(
        ork={"skills": {"unik": 2}},
        declarations={"ala": ATTACK, "ork": running},
        initiative={"ork": 9, "ala": 2},
    )
    t.do(Move(actor="ork", metres=20))
    t.do(EndTurn(actor="ork"))
    events = t.do(Attack(actor="ala", target="ork", weapon="Miecz"), [5, 3])
    rolled = of(events, AttackRolled)[0]
    assert ("Otoczony", -2) in rolled.dn_parts and rolled.dn == 5
    events = t.do(Answer(actor="ork", prompt=t.state.prompts[0].id, option="unik"), [5, 5])
    defence = of(events, DefenceRolled)[0]
    assert ("Otoczony", -2) in [(a.reason, a.value) for a in defence.roll.adjustments]
    assert defence.roll.total == 8 and defence.success


def test_bieg_combines_with_ruch_dzielony() -> None:
    both = Declare(actor="ala", options=("bieg", "ruch_dzielony"))
    t = fight(declarations={"ala": both})
    t.do(Move(actor="ala", metres=10))
    assert t.c["ala"].has("otoczony") and t.c["ala"].standard_used
    t.do(Move(actor="ala", metres=14))
    with pytest.raises(RuleViolation, match="Za daleko"):
        t.do(Move(actor="ala", metres=1))
