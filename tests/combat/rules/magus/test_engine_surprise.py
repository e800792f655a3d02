"""Zaskoczenie at the table: the GM's surprise test (`surprise_test`) before the fight — its DN
from the lowest Zręczność met, Podkradanie się or the GM, plus the conditions; the failures
Zaskoczony in round 1; the Brosza ostrzeżenia's warning, its damage and the blindside."""

from __future__ import annotations

from typing import Any

import pytest

from combat.rules.base import RuleViolation
from combat.rules.magus import RULESET, codec, narrate
from combat.rules.magus import surprise as sur
from combat.rules.magus.commands import Attack, Declare, EndTurn, StartCombat, SurpriseTest
from combat.rules.magus.engine.common import must_declare
from combat.rules.magus.events import (
    AttackRolled,
    CombatStarted,
    SurpriseDifficulty,
    SurpriseRolled,
)
from tests.combat.rules.magus.engine_kit import Table, fighter, of, shown, to_act


def with_brooch(c: dict[str, Any]) -> dict[str, Any]:
    c["sheet"]["items"] = [{"name": "Brosza", "kind": "brosza_ostrzezenia"}]
    return c


def party(*, brooch: bool = False, **settings: Any) -> Table:
    ala = fighter("ala", "a", "u1")
    return Table(
        with_brooch(ala) if brooch else ala,
        fighter("ola", "a", "u2"),
        fighter("ork", "b"),
        fighter("gob", "b", attributes={"zrecznosc": 4}),
        **settings,
    )


def test_surprise_test_dn_is_the_lowest_zrecznosc_met_plus_dusk_darkness_rain_camouflage() -> None:
    t = party()
    command = SurpriseTest(
        side="a", dusk=True, darkness="full", rain="light", camouflage=True, unaware=("ola",)
    )
    events = t.do(command, [7])  # Ala's Percepcja d8: 7 < 4 + 2 + 2 + 1 + 3
    (dn,) = of(events, SurpriseDifficulty)
    assert (dn.base, dn.source, dn.dn) == (4, sur.FROM_DEXTERITY, 12)
    assert [v for _, v in dn.modifiers] == [2, 2, 1, 3]
    ala, ola = of(events, SurpriseRolled)
    assert (ala.roll.total, ala.surprised, ala.reason) == (7, True, sur.SURPRISED)
    assert (ola.roll, ola.surprised, ola.reason) == (None, True, sur.UNAWARE)
    assert t.c["ala"].has("zaskoczony") and t.c["ola"].has("zaskoczony")
    line = narrate.describe(t.initial, dn)
    assert line is not None and line.secret  # the DN and its modifiers: the GM's
    assert "trudność 12" in line.text % line.params and "Kamuflaż +3" in line.params["parts"]


def test_surprise_test_passed_notices_the_attackers() -> None:
    t = party()
    events = t.do(SurpriseTest(side="a"), [4, 3])  # DN 4: Ala 4 (Average), Ola 3 (Poor)
    ala, ola = of(events, SurpriseRolled)
    assert (ala.surprised, ala.reason, ala.level) == (False, sur.NOTICED, "average")
    assert (ola.surprised, ola.level) == (True, "poor")
    line = narrate.describe(t.state, ala)
    assert line is not None and not line.secret and line.rolls[0].result == 4


def test_zaskoczony_after_the_test_takes_no_action_in_round_1_and_it_ends_after_it() -> None:
    t = party()
    t.do(SurpriseTest(side="a"), [1, 7])  # Ala: the Rule of One; Ola 7 notices
    assert t.c["ala"].has("zaskoczony") and not t.c["ola"].has("zaskoczony")
    events = t.do(StartCombat())
    assert of(events, CombatStarted)[0].surprised == ("ala",)
    assert not must_declare(t.state, t.c["ala"])
    with pytest.raises(RuleViolation, match="zaskoczony"):
        t.do(Declare(actor="ala"))
    to_act(t, initiative={"ola": 9, "ork": 8, "gob": 5})
    for cid in ("ola", "ork", "gob"):
        t.do(EndTurn(actor=cid))
    assert t.state.round == 2 and not t.c["ala"].has("zaskoczony")


def test_podkradanie_sie_result_is_the_dn_of_the_surprise_test() -> None:
    t = party()
    sneak = SurpriseTest(side="a", sneakers=("gob", "ork"), darkness="partial")
    # gob: Podkradanie się untrained = Zręczność 4 (d6) 5; ork: 6 (d10) 9; the lowest: 5, +1.
    events = t.do(sneak, [5, 9, 6, 5])
    (dn,) = of(events, SurpriseDifficulty)
    assert (dn.base, dn.source, dn.dn) == (5, sur.FROM_SNEAK, 6)
    assert [(cid, r.total) for cid, r in dn.sneaks] == [("gob", 5), ("ork", 9)]
    assert [e.surprised for e in of(events, SurpriseRolled)] == [False, True]


def test_the_gm_may_set_the_surprise_dn_base() -> None:
    t = party()
    events = t.do(SurpriseTest(side="b", base=3), [3, 3])
    (dn,) = of(events, SurpriseDifficulty)
    assert (dn.base, dn.source, dn.dn) == (3, sur.FROM_GM, 3)
    assert not any(e.surprised for e in of(events, SurpriseRolled))


def test_brosza_ostrzezenia_warns_deals_1_damage_and_removes_the_blindside_penalty() -> None:
    t = party(brooch=True)
    events = t.do(SurpriseTest(side="a", unaware=("ola",)), [2, 6])  # fails; brooch 6 vs OM 6
    ala = of(events, SurpriseRolled)[0]
    assert (ala.surprised, ala.reason) == (False, sur.WARNED)
    assert ala.brooch is not None and ala.brooch.detected and ala.brooch.damage == 1
    assert t.c["ala"].damage == 1 and t.c["ala"].ignores_blindside
    assert not t.c["ala"].has("zaskoczony") and t.c["ola"].has("zaskoczony")
    line = narrate.describe(t.initial, ala)
    assert line is not None and len(line.rolls) == 2 and line.params["damage"] == 1
    t.do(StartCombat())
    swing = Declare(actor="ork", action="attack", weapon="Miecz", target="ala")
    to_act(t, {"ork": swing}, initiative={"ork": 9, "ala": 8, "gob": 5})
    rolled = of(t.do(Attack(actor="ork", target="ala", weapon="Miecz", blindside=True), [2, 1]),
                AttackRolled)[0]  # fmt: skip
    assert all(reason != "Atak z tyłu" for reason, _ in rolled.dn_parts)
    t.do(EndTurn(actor="ork"))
    t.do(EndTurn(actor="ala"))
    t.do(EndTurn(actor="gob"))
    assert not t.c["ala"].ignores_blindside  # only against the surprise attack (round 1)


def test_brosza_ostrzezenia_misses_an_attack_from_beyond_its_range() -> None:
    t = party(brooch=True)
    events = t.do(SurpriseTest(side="a", distances={"ala": 20.0}), [2, 5])
    ala = of(events, SurpriseRolled)[0]
    assert ala.surprised and ala.brooch is not None and ala.brooch.roll is None
    assert t.c["ala"].damage == 0


def test_surprise_test_refusals() -> None:
    t = party()
    with pytest.raises(RuleViolation, match="Nie ma takiej strony"):
        t.do(SurpriseTest(side="x"))
    with pytest.raises(RuleViolation, match="Podkradają"):
        t.do(SurpriseTest(side="a", sneakers=("ola",)))
    with pytest.raises(RuleViolation, match="Nieświadomi"):
        t.do(SurpriseTest(side="a", unaware=("ork",)))
    with pytest.raises(RuleViolation, match="Nieznane warunki"):
        t.do(SurpriseTest(side="a", darkness="mrok"))
    with pytest.raises(RuleViolation, match="ujemne"):
        t.do(SurpriseTest(side="a", base=0))
    t.do(SurpriseTest(side="a"), [5, 5])
    with pytest.raises(RuleViolation, match="już rozstrzygnięty"):
        t.do(SurpriseTest(side="a"))
    t.do(StartCombat())
    with pytest.raises(RuleViolation, match="już trwa"):
        t.do(SurpriseTest(side="b"))


def test_the_gm_panel_offers_the_surprise_test_per_side_with_the_dn_base() -> None:
    t = party(brooch=True)
    panel = shown(RULESET.gm_panel(t.state))
    actions = {a.key: a for a in panel.actions}
    assert actions["zaskoczenie:a"].available and actions["zaskoczenie:b"].available
    command = codec.command_from_dict({**panel.commands["zaskoczenie:a"], "rain": "downpour"})
    assert command == SurpriseTest(side="a", rain="downpour")
    info = panel.surprise
    assert info.sides["a"].base == 4 and info.sides["a"].brooches == ("ala",)
    assert info.darkness[3][2] == 3 and info.rain[2][2] == 2 and info.tested == ()
    assert RULESET.command_targets(SurpriseTest(side="a", sneakers=("ork",))) == ("ork",)
