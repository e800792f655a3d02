"""Walka jeździecka at the table: mounting and dismounting, the mount acting on the rider's
initiative, the rider's split move (−2 to both defences), the mount's speed, the charge (its
distance, the mount's Siła added to damage), the test after a charge hit (lance: the fall;
another weapon: losing it) and the saddle test of a wounded rider (Pewny dosiad)."""

from __future__ import annotations

from typing import Any

import pytest

from combat.rules.base import RuleViolation
from combat.rules.magus import RULESET, codec, narrate
from combat.rules.magus.commands import (
    AddCondition,
    Attack,
    Declare,
    Dismount,
    EndCombat,
    EndTurn,
    MountUp,
    Move,
    RemoveCondition,
    StartCombat,
)
from combat.rules.magus.engine import riding
from combat.rules.magus.engine.attack import UNARMED, plan
from combat.rules.magus.events import (
    AttackRolled,
    CheckRolled,
    DamageRolled,
    Dismounted,
    ImpactRolled,
    InitiativeSet,
    Mounted,
    Moved,
    OrderSet,
    SaddleRolled,
)
from combat.rules.magus.table import Ref
from combat.rules.records import replace
from tests.combat.rules.magus.engine_kit import Table, fighter, of, shown, steed, to_act
from tests.combat.rules.magus.scripted import Script

LANCE = {"name": "Kopia", "damage": 5, "size": 4, "lance": True}
SWORD = {"name": "Miecz", "damage": 4, "size": 3}


def riders(**ala: Any) -> Table:
    """Ala (a player) and her horse Koń (Siła 8, 14 m combat speed, 28 m full) against Ork."""
    horse = steed("kon", "a", attributes={"sila": 8, "ruch": 14})
    return Table(
        fighter("ala", "a", "u1", weapons=[SWORD, LANCE], **ala), horse, fighter("ork", "b")
    )


def mounted(declarations: dict[str, Declare] | None = None, **ala: Any) -> Table:
    t = riders(**ala)
    t.do(MountUp(actor="ala", mount="kon"))
    t.do(StartCombat())
    to_act(t, declarations, initiative={"ala": 9, "ork": 5})
    return t


def charge_at_ork(weapon: str) -> Declare:
    return Declare(actor="ala", action="attack", weapon=weapon, target="ork")


def test_mounting_links_rider_and_mount() -> None:
    t = riders()
    events = t.do(MountUp(actor="ala", mount="kon"))
    assert events == [Mounted("ala", "kon")]
    assert (t.c["ala"].mount, t.c["kon"].rider) == ("kon", "ala")
    line = narrate.describe(t.initial, events[0])
    assert line is not None and line.params["mount"] == "Kon"
    with pytest.raises(RuleViolation, match="już jest w siodle"):
        t.do(MountUp(actor="ala", mount="ork"))
    with pytest.raises(RuleViolation, match="nie może teraz nieść"):
        t.do(MountUp(actor="ork", mount="kon"))
    with pytest.raises(RuleViolation, match="samego siebie"):
        t.do(MountUp(actor="ork", mount="ork"))
    assert t.do(Dismount(actor="ala")) == [Dismounted("ala", "kon")]
    assert (t.c["ala"].mount, t.c["kon"].rider) == (None, None)
    with pytest.raises(RuleViolation, match="nie siedzi w siodle"):
        t.do(Dismount(actor="ala"))
    assert narrate.describe(t.state, Dismounted("ala", "kon")) is not None


def test_the_mount_acts_on_the_riders_initiative_without_its_own_test() -> None:
    t = mounted()
    assert t.c["kon"].initiative == t.c["ala"].initiative == 9
    sets = of(t.log, InitiativeSet)
    assert sets == [InitiativeSet("kon", 9, rider="ala")]
    assert of(t.log, OrderSet)[-1].order == ("ala", "kon", "ork")
    line = narrate.describe(t.initial, sets[0])
    assert line is not None and line.params["rider"] == "Ala"


def test_mounting_during_the_fight_is_a_simple_action_on_ones_turn() -> None:
    t = riders()
    t.do(StartCombat())
    to_act(t, initiative={"ala": 9, "kon": 2, "ork": 5})
    with pytest.raises(RuleViolation, match="Nie twoja tura"):
        t.do(MountUp(actor="ork", mount="kon"))
    t.do(MountUp(actor="ala", mount="kon"))
    assert t.c["ala"].simple_used == 1
    t.do(Dismount(actor="ala"))
    assert t.c["ala"].simple_used == 2 and t.c["ala"].mount is None
    t.do(EndCombat())
    with pytest.raises(RuleViolation, match="skończyła"):
        t.do(MountUp(actor="ala", mount="kon"))


def test_rider_split_move_takes_2_from_the_defences_of_rider_and_mount() -> None:
    split = Declare(actor="ala", options=("ruch_dzielony",))
    t = mounted({"ala": split})
    t.do(EndTurn(actor="ala"))
    t.do(EndTurn(actor="kon"))
    for target in ("ala", "kon"):
        p = plan(t.state, Attack(actor="ork", target=target, weapon="Miecz"))
        assert ("Ruch dzielony jeźdźca", -2) in p.dn_parts


def test_a_mount_moves_at_full_speed_unless_it_attacks() -> None:
    t = mounted()
    t.do(EndTurn(actor="ala"))
    with pytest.raises(RuleViolation, match="Za daleko"):
        t.do(Move(actor="kon", metres=29))
    t.do(Move(actor="kon", metres=28))


def test_szarza_distance_from_the_mounts_combat_speed_to_its_full_speed() -> None:
    t = mounted({"ala": charge_at_ork("Miecz")})
    with pytest.raises(RuleViolation, match="co najmniej 14 m"):
        t.do(Attack(actor="ala", target="ork", weapon="Miecz", charge_m=10))
    with pytest.raises(RuleViolation, match="najwyżej 28 m"):
        t.do(Attack(actor="ala", target="ork", weapon="Miecz", charge_m=30))
    with pytest.raises(RuleViolation, match="Szarża tylko wierzchem"):
        t.do(EndTurn(actor="ala")) and t.do(Attack(actor="kon", target="ork", charge_m=14))


def test_szarza_adds_the_mounts_sila_step_to_damage_and_a_failed_impact_test_drops_the_weapon() -> (
    None
):
    t = mounted({"ala": charge_at_ork("Miecz")})
    # attack d8+d6 8 vs 7; damage 5 + 4 + 8 (the mount's Siła) = 17: d20+d10 8; impact d8 2 < 6
    events = t.do(Attack(actor="ala", target="ork", weapon="Miecz", charge_m=14), [5, 3, 5, 3, 2])
    assert of(events, DamageRolled)[0].damage_step == 17
    assert of(events, Moved) == [Moved("kon", 14)]  # the mount covers the charge
    t.do(EndTurn(actor="ala"))
    with pytest.raises(RuleViolation, match="raz na rundę"):
        t.do(Move(actor="kon", metres=2))
    (impact,) = of(events, ImpactRolled)
    assert (impact.dn, impact.success, impact.lance, impact.loses_weapon) == (6, False, False, True)
    assert t.c["ala"].disarmed and t.c["ala"].mount == "kon"
    line = narrate.describe(t.initial, impact)
    assert line is not None and "traci broń" in line.text


def test_szarza_with_a_lance_failed_impact_test_throws_the_rider_with_fall_damage() -> None:
    t = mounted({"ala": charge_at_ork("Kopia")})
    events = t.do(
        Attack(actor="ala", target="ork", weapon="Kopia", charge_m=20), [5, 3, 5, 3, 2, 4]
    )
    (impact,) = of(events, ImpactRolled)
    assert impact.falls and impact.fall is not None and impact.fall.total == 4
    assert t.c["ala"].damage == 4 and t.c["ala"].knocked_down
    assert (t.c["ala"].mount, t.c["kon"].rider) == (None, None)
    assert narrate.describe(t.initial, impact) is not None


def test_szarza_impact_test_passed_keeps_the_rider_mounted() -> None:
    t = mounted({"ala": charge_at_ork("Kopia")})
    events = t.do(Attack(actor="ala", target="ork", weapon="Kopia", charge_m=20), [5, 3, 5, 3, 7])
    assert of(events, ImpactRolled)[0].success and t.c["ala"].mount == "kon"
    assert narrate.describe(t.initial, of(events, ImpactRolled)[0]) is not None


def test_a_wounded_rider_makes_the_saddle_test_with_pewny_dosiad_instead_of_the_balance_test() -> (
    None
):
    swing = Declare(actor="ork", action="attack", weapon="Miecz", target="ala")
    t = riders(skills={"bron_biala": 3, "pewny_dosiad": 2})
    t.do(MountUp(actor="ala", mount="kon"))
    t.do(StartCombat())
    to_act(t, {"ork": swing}, initiative={"ala": 2, "ork": 9})
    # 8 vs OF 7; damage 11 > WT 8: a Wound; saddle d12 (Siła 5 + 2) 3 vs 6: falls, d8 4
    events = t.do(Attack(actor="ork", target="ala", weapon="Miecz"), [5, 3, 6, 5, 3, 4])
    (saddle,) = of(events, SaddleRolled)
    assert (saddle.roll.step, saddle.dn, saddle.success) == (7, 6, False)
    assert of(events, CheckRolled) == []  # no knockdown test: the saddle test replaces it
    assert t.c["ala"].damage == 15 and t.c["ala"].knocked_down and t.c["ala"].mount is None
    line = narrate.describe(t.initial, saddle)
    assert line is not None and line.params["fall"] == 4
    kept = SaddleRolled("ala", saddle.roll, 6, True)
    assert narrate.describe(t.initial, kept) is not None


def test_panels_offer_mounting_dismounting_and_the_charge() -> None:
    t = riders()
    seat = shown(RULESET.seat_panel(t.state, "ala", frozenset({"ala", "kon", "ork"})))
    assert {a.key for a in seat.actions} == {"dosiadz:kon"}
    t.do(codec.command_from_dict(seat.commands["dosiadz:kon"]))
    gm = shown(RULESET.gm_seat_panel(t.state, "kon"))
    assert gm.rider == Ref("ala", "Ala") and gm.commands["dismount"]
    t.do(StartCombat())
    to_act(t, {"ala": charge_at_ork("Kopia")}, initiative={"ala": 9, "ork": 5})
    panel = shown(RULESET.turn_panel(t.state, "ala", frozenset({"ala", "kon", "ork"})))
    actions = {a.key: a for a in panel.actions}
    assert actions["szarza:ork:Kopia"].available and actions["zsiadz"].available
    assert panel.mount == Ref("kon", "Kon")
    horse = shown(RULESET.turn_panel(t.state, "kon", frozenset({"ala", "kon", "ork"})))
    assert not any(a.key.startswith(("dosiadz", "zsiadz")) for a in horse.actions)
    assert [c.key for c in panel.charges] == ["szarza:ork:Miecz", "szarza:ork:Kopia"]
    assert panel.charges[0].min_m == 14 and panel.charges[0].max_m == 28
    charge = codec.command_from_dict(panel.commands["szarza:ork:Kopia"])
    assert isinstance(charge, Attack) and charge.charge_m == 14
    view = RULESET.preview_odds(t.state, charge)
    assert (view.options[0].expected_damage or 0) > 0
    rolled = of(t.do(charge, [1, 1]), AttackRolled)[0]
    assert rolled.level == "pathetic"


def test_mounting_and_charging_refusals() -> None:
    t = riders(spells=[{"name": "Iskra", "effect_step": 6}])
    t.do(AddCondition(target="ala", condition="powalony"))
    with pytest.raises(RuleViolation, match="najpierw wstać"):
        t.do(MountUp(actor="ala", mount="kon"))
    t.do(RemoveCondition(target="ala", condition="powalony"))
    t.do(MountUp(actor="ala", mount="kon"))
    t.do(StartCombat())
    to_act(t, {"ala": Declare(actor="ala", action="spell", spell="Iskra", target="ork")},
           initiative={"ala": 9, "ork": 5})  # fmt: skip
    with pytest.raises(RuleViolation, match="nie czarem"):
        t.do(Attack(actor="ala", target="ork", spell="Iskra", charge_m=14))
    assert riding.impact(t.state, t.c["ork"], t.c["ala"], UNARMED, [], Script([])) == []
    moved = t.state.with_combatant(replace(t.c["kon"], moves=1))
    with pytest.raises(RuleViolation, match="już się ruszał"):
        plan(moved, Attack(actor="ala", target="ork", weapon="Kopia", charge_m=14))


def test_only_a_mount_is_offered_and_mounted_never_a_fellow_hero() -> None:
    """Issue 22, point 6a: „Dosiądź: <a fellow party member>” was offered on a Magus seat.
    A mount is a creature its sheet saddles (an item „Siodło”); a hero, a player's or the
    GM's, is never ridden."""
    t = Table(
        fighter("ala", "a", "u1", weapons=[SWORD]),
        fighter("ola", "a", "u2"),
        fighter("eryk", "a"),  # a hero the GM runs
        steed("kon", "a", attributes={"sila": 8, "ruch": 14}),
        fighter("ork", "b"),
    )
    seat = shown(
        RULESET.seat_panel(t.state, "ala", frozenset({"ala", "ola", "eryk", "kon", "ork"}))
    )
    assert {a.key for a in seat.actions} == {"dosiadz:kon"}
    for hero in ("ola", "eryk"):
        with pytest.raises(RuleViolation) as refused:
            t.do(MountUp(actor="ala", mount=hero))
        assert refused.value.code == "nie_wierzchowiec"
    assert refused.value.message == "Eryk nie jest wierzchowcem: nie można go dosiąść."


def test_once_the_turn_has_begun_no_delay_is_offered_nor_its_refusal_shown() -> None:
    """Issue 22, point 6b: after the first step of a turn the panel kept a banner „Opóźnić
    działanie można tylko zanim się zacznie turę.” (both Opóźnienie offers refused alike)."""
    t = riders()
    t.do(StartCombat())
    to_act(t, initiative={"ala": 9, "kon": 3, "ork": 5})
    seen = frozenset({"ala", "kon", "ork"})
    before = {a.key for a in shown(RULESET.turn_panel(t.state, "ala", seen)).actions}
    assert {"opoznienie", "opoznienie_runda"} <= before
    t.do(Move(actor="ala", metres=2))
    actions = shown(RULESET.turn_panel(t.state, "ala", seen)).actions
    assert not {"opoznienie", "opoznienie_runda"} & {a.key for a in actions}
    assert not any("Opóźnić" in a.reason for a in actions)
