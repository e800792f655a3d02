"""The by-post pace: the whole turn open at once, posts with a defence and text, the deadline
(Expire closes posting, the GM extends it or posts for the absent), ResolveTurn in initiative
order, and switching between the paces."""

from __future__ import annotations

from typing import Any

import pytest

from combat.rules.base import RuleViolation
from combat.rules.d100 import engine
from combat.rules.d100.commands import (
    AddCondition,
    Attack,
    Damage,
    EndTurn,
    Expire,
    ExtendDeadline,
    Post,
    ResolveTurn,
    SetPace,
)
from combat.rules.d100.engine import posts
from combat.rules.d100.events import (
    AttackResolved,
    DeadlineSet,
    FullActed,
    PaceSet,
    Posted,
    PostingClosed,
    PostSkipped,
    PostsRevealed,
    RestResolved,
    SpellResolved,
    Transformed,
    TurnStarted,
)
from combat.rules.d100.state import Action
from tests.combat.rules.d100.engine_kit import Table, fighter, kinds, of, one

DAY = 24 * 3600


def by_post(*extra: dict[str, Any], **settings: Any) -> Table:
    table = Table(
        fighter("ala", "a", "u1", zwinnosc=60),
        fighter("ork", "b"),
        *extra,
        pace="post",
        **settings,
    )
    events = table.start(now=1000)
    assert one(events, TurnStarted).deadline == 1000 + DAY
    return table


def attack_post(actor: str, target: str, defence: str = "", now: float = 2000, **kw: Any) -> Post:
    return Post(
        actor=actor, action=Action(kind="attack", target=target), defence=defence, now=now, **kw
    )


def test_a_by_post_turn_is_open_to_everyone_at_once() -> None:
    table = by_post()
    assert table.current is None and table.state.pace == "post"
    assert posts.posting(table.state) == ("ala", "ork")
    table.do(attack_post("ala", "ork", text="Tnę!"))
    assert posts.waiting(table.state) == ("ork",)
    assert engine.next_deadline(table.state) == 1000 + DAY


def test_posting_again_replaces_ones_post() -> None:
    table = by_post()
    table.do(attack_post("ala", "ork", text="Tnę!"))
    table.do(Post(actor="ala", action=Action(kind="rest"), text="Odpoczywam", now=3000))
    assert table.state.posts["ala"].action.kind == "rest"
    assert table.state.posts["ala"].text == "Odpoczywam" and len(table.state.posts) == 1


def test_resolve_turn_rolls_the_posts_in_initiative_order_with_the_posted_defences() -> None:
    table = by_post()
    table.do(attack_post("ork", "ala", defence="blok"))
    table.do(attack_post("ala", "ork", defence="unik"))
    events = table.do(ResolveTurn(now=5000), [30, 70, 40, 45, 90])
    revealed = one(events, PostsRevealed)
    assert [p.actor for p in revealed.posts] == ["ala", "ork"]
    first, second = of(events, AttackResolved)
    assert (first.attacker, first.defence, first.dealt) == ("ala", "blok", 125)
    assert (second.attacker, second.defence, second.hit.roll) == ("ork", "unik", 90)
    started = one(events, TurnStarted)
    assert started.turn == 2 and started.deadline == 5000 + DAY and table.state.posts == {}


def test_a_player_without_a_post_defends_as_absent_defence_says() -> None:
    table = by_post(absent_defence="none")
    table.do(attack_post("ork", "ala"))
    events = table.do(ResolveTurn(now=5000), [30, 40, 45])
    assert one(events, PostSkipped).reason == "brak"
    assert one(events, AttackResolved).defence == ""
    table2 = by_post(absent_defence="unik")
    table2.do(attack_post("ork", "ala"))
    assert one(table2.do(ResolveTurn(now=5000), [30, 10]), AttackResolved).defence == "unik"


def test_best_defence_picks_the_lowest_expected_damage() -> None:
    # Ork in heavy armour dodges badly (−20) but blocks with Krzepa 80.
    table = by_post(absent_defence="best")
    table.do(Damage(target="ork", amount=0))
    table2 = Table(
        fighter("ala", "a", "u1", zwinnosc=60),
        fighter("ork", "b", zwinnosc=30, krzepa=80, armour="heavy"),
        pace="post",
    )
    table2.start(now=1000)
    table2.do(attack_post("ala", "ork"))
    assert one(table2.do(ResolveTurn(now=5000), [90]), AttackResolved).defence == "blok"


def test_an_npc_without_a_post_defends_best() -> None:
    table = by_post(absent_defence="none")
    table.do(attack_post("ala", "ork"))
    resolved = one(table.do(ResolveTurn(now=5000), [90]), AttackResolved)
    assert resolved.defence in ("unik", "blok")


def test_a_posted_defence_not_allowed_now_falls_back_to_the_best() -> None:
    table = by_post()
    table.do(attack_post("ork", "ala"))
    table.do(Post(actor="ala", defence="blok", now=2000))
    table.do(AddCondition(target="ala", condition="powalenie", turns=1))
    resolved = one(table.do(ResolveTurn(now=5000), [90]), AttackResolved)
    assert resolved.defence == "unik"


def test_a_target_knocked_out_earlier_in_the_order_is_not_attacked() -> None:
    table = by_post(fighter("eli", "a", "u2", zwinnosc=55), npc_at_zero="dead")
    table.do(Damage(target="ork", amount=150))
    table.do(attack_post("ala", "ork"))
    table.do(attack_post("eli", "ork"))
    table.do(Post(actor="ork", defence="", now=2000, by_gm=True))
    events = table.do(ResolveTurn(now=5000), [30, 40, 90])
    assert one(events, AttackResolved).attacker == "ala" and table.c["ork"].dead
    skipped = [e for e in of(events, PostSkipped) if e.actor == "eli"]
    assert skipped[0].reason == "cel_poza_walka" and skipped[0].target == "ork"


def test_a_stunned_poster_does_not_act() -> None:
    table = by_post()
    table.do(attack_post("ala", "ork"))
    table.do(AddCondition(target="ala", condition="ogluszenie", turns=1))
    events = table.do(ResolveTurn(now=5000))
    assert one(events, PostSkipped).reason == "ogluszenie" and not of(events, AttackResolved)


def test_a_refused_post_is_skipped_with_the_reason() -> None:
    table = by_post()
    table.do(Post(actor="ala", action=Action(kind="full", note="szuka w plecaku"), now=2000))
    table.do(AddCondition(target="ala", condition="powalenie", turns=1))
    skipped = one(table.do(ResolveTurn(now=5000)), PostSkipped)
    assert skipped.reason == "odmowa" and "powalony" in skipped.detail


def test_rest_transform_and_other_full_actions_by_post() -> None:
    table = by_post(
        fighter("wolf", "a", "u3", transformation="wilkolak"),
        fighter("eli", "a", "u2"),
    )
    table.do(Damage(target="ala", amount=180))
    table.do(Post(actor="ala", action=Action(kind="rest"), now=2000))
    table.do(Post(actor="wolf", action=Action(kind="transform"), now=2000))
    table.do(Post(actor="eli", action=Action(kind="full", note="eliksir"), now=2000))
    events = table.do(ResolveTurn(now=5000), [20])
    assert one(events, RestResolved).healed == 150
    assert one(events, Transformed).form == "wilkolak"
    assert one(events, FullActed).note == "eliksir"


def test_spells_by_post() -> None:
    spells = [
        {"name": "Pocisk", "kind": "damage"},
        {"name": "Sen", "kind": "negative", "turns": 1},
    ]
    table = by_post(fighter("maga", "a", "u2", zwinnosc=70, spells=spells))
    table.do(Post(actor="maga", action=Action(kind="cast", spell=0, target="ork"), now=2000))
    table.do(Post(actor="ork", defence="", now=2000, by_gm=True))
    events = table.do(ResolveTurn(now=5000), [90])
    assert one(events, AttackResolved).spell == 0
    table.do(Post(actor="maga", action=Action(kind="cast", spell=1, target="ork"), now=6000))
    assert one(table.do(ResolveTurn(now=7000), [90]), SpellResolved).name == "Sen"


def test_a_post_after_the_deadline_is_refused_but_the_gm_may_post_for_the_absent() -> None:
    table = by_post()
    with pytest.raises(RuleViolation) as refused:
        table.do(attack_post("ala", "ork", now=1000 + DAY + 1))
    assert refused.value.code == "po_terminie"
    events = table.do(attack_post("ala", "ork", now=1000 + DAY + 1, by_gm=True))
    assert one(events, Posted).post.by_gm


def test_expire_closes_posting_at_the_deadline() -> None:
    table = by_post()
    with pytest.raises(RuleViolation):
        table.do(Expire(now=1000 + DAY - 1))
    events = table.do(Expire(now=1000 + DAY))
    assert one(events, PostingClosed).turn == 1 and table.state.closed
    assert engine.next_deadline(table.state) is None
    assert posts.posting(table.state) == ()
    with pytest.raises(RuleViolation) as refused:
        table.do(attack_post("ala", "ork", now=10))
    assert refused.value.code == "po_terminie"
    table.do(ResolveTurn(now=1000 + DAY + 5))  # the GM resolves after the deadline
    assert table.state.turn == 2 and not table.state.closed


def test_extend_deadline_reopens_posting() -> None:
    table = by_post()
    table.do(Expire(now=1000 + DAY))
    with pytest.raises(RuleViolation) as refused:
        table.do(ExtendDeadline(deadline=50, now=100))
    assert refused.value.code == "termin"
    events = table.do(ExtendDeadline(deadline=1000 + 2 * DAY, now=1000 + DAY))
    assert one(events, DeadlineSet).reopened and not table.state.closed
    table.do(attack_post("ala", "ork", now=1000 + DAY + 10))


def test_extend_deadline_by_hours_counts_from_the_servers_clock() -> None:
    table = by_post()
    table.do(Expire(now=1000 + DAY))
    events = table.do(ExtendDeadline(hours=6, now=1000 + 3 * DAY))
    assert one(events, DeadlineSet).deadline == 1000 + 3 * DAY + 6 * 3600
    assert not table.state.closed


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (ExtendDeadline(deadline=float("inf"), now=2000), "termin"),
        (ExtendDeadline(deadline=float("nan"), now=2000), "termin"),
        (ExtendDeadline(now=2000), "termin"),
        (ExtendDeadline(deadline=1e300, now=2000), "termin_daleko"),
        (ExtendDeadline(deadline=2000 + 367 * DAY, now=2000), "termin_daleko"),
        (ExtendDeadline(hours=-1, now=2000), "termin_godziny"),
        (ExtendDeadline(hours=366 * 24 + 1, now=2000), "termin_godziny"),
    ],
)
def test_extend_deadline_refuses_a_deadline_no_page_could_show(
    command: ExtendDeadline, code: str
) -> None:
    """Past, not a number, or further than a year: the pages print a deadline as a date."""
    table = by_post()
    with pytest.raises(RuleViolation) as refused:
        table.do(command)
    assert refused.value.code == code
    table.do(ExtendDeadline(deadline=2000 + 366 * DAY, now=2000))  # a year is fine


def test_post_refusals() -> None:
    table = by_post()
    cases = [
        (Post(actor="ala", text="x" * 4001, now=2000), "za_dlugi"),
        (Post(actor="ala", defence="parada", now=2000), "obrona"),
        (Post(actor="ala", action=Action(kind="taniec"), now=2000), "akcja"),
        (Post(actor="ala", action=Action(kind="transform"), now=2000), "bez_przemiany"),
        (Post(actor="ala", action=Action(kind="attack", target="ala"), now=2000), "sam_siebie"),
        (Post(actor="ala", action=Action(kind="cast", spell=0), now=2000), "czar"),
    ]
    for command, code in cases:
        with pytest.raises(RuleViolation) as refused:
            table.do(command)
        assert refused.value.code == code, command
    table.do(Damage(target="ala", amount=999))
    with pytest.raises(RuleViolation) as refused:
        table.do(Post(actor="ala", now=2000))
    assert refused.value.code == "nieprzytomny"


def test_live_commands_wait_for_posts_and_posts_for_the_post_pace() -> None:
    table = by_post()
    with pytest.raises(RuleViolation) as refused:
        table.do(Attack(actor="ala", target="ork"))
    assert refused.value.code == "tura_pisana"
    with pytest.raises(RuleViolation) as refused:
        table.do(EndTurn(actor="ala"))
    assert refused.value.code == "tura_pisana"
    live = Table(fighter("ala", "a", "u1"), fighter("ork", "b"))
    live.start()
    with pytest.raises(RuleViolation) as refused:
        live.do(Post(actor="ala"))
    assert refused.value.code == "tura_na_zywo"
    with pytest.raises(RuleViolation) as refused:
        live.do(ResolveTurn())
    assert refused.value.code == "tura_na_zywo"


def test_set_pace_turns_the_rest_of_a_live_turn_into_posts() -> None:
    table = Table(fighter("ala", "a", "u1", zwinnosc=60), fighter("ork", "b"))
    table.start()
    table.do(Attack(actor="ala", target="ork"))
    with pytest.raises(RuleViolation) as refused:
        table.do(SetPace(pace="post", now=10))
    assert refused.value.code == "czeka_na_obrone"
    table.defend("", [90])
    events = table.do(SetPace(pace="post", now=10))
    assert one(events, PaceSet).deadline == 10 + DAY and table.current is None
    assert posts.posting(table.state) == ("ork",)  # Ala has acted this turn
    with pytest.raises(RuleViolation) as refused:
        table.do(Post(actor="ala", now=20))
    assert refused.value.code == "juz_dzialal"


def test_set_pace_back_to_live_once_the_posts_are_resolved() -> None:
    table = by_post()
    table.do(attack_post("ala", "ork"))
    with pytest.raises(RuleViolation) as refused:
        table.do(SetPace(pace="live"))
    assert refused.value.code == "posty_czekaja"
    table.do(ResolveTurn(now=5000), [90])
    events = table.do(SetPace(pace="live"))
    assert kinds(events) == ["pace_set", "turn_began"] and table.current == "ala"
    with pytest.raises(RuleViolation) as refused:
        table.do(SetPace(pace="live"))
    assert refused.value.code == "to_samo_tempo"
    with pytest.raises(RuleViolation) as refused:
        table.do(SetPace(pace="raz"))
    assert refused.value.code == "tempo"


def test_a_hostile_summon_attacks_its_caster_by_post() -> None:
    summon = {
        "name": "Wilk",
        "kind": "summon",
        "summon": {"name": "Wilk", "pz": 40, "attack": 40, "damage": 45},
    }
    table = by_post(fighter("maga", "a", "u2", zwinnosc=70, spells=[summon]))
    table.do(Post(actor="maga", action=Action(kind="cast", spell=0), now=2000))
    table.do(ResolveTurn(now=5000), [97])
    assert table.c["maga~1"].summon.hostile
    events = table.do(ResolveTurn(now=6000), [90])
    resolved = one(events, AttackResolved)
    assert (resolved.attacker, resolved.target) == ("maga~1", "maga")
    assert "maga~1" not in table.c


def test_a_hostile_summon_does_nothing_once_its_caster_is_out() -> None:
    summon = {
        "name": "Wilk",
        "kind": "summon",
        "summon": {"name": "Wilk", "pz": 40, "attack": 40, "damage": 45},
    }
    table = by_post(fighter("maga", "a", "u2", zwinnosc=70, spells=[summon]))
    table.do(Post(actor="maga", action=Action(kind="cast", spell=0), now=2000))
    table.do(ResolveTurn(now=5000), [97])
    table.do(Damage(target="maga", amount=999))
    events = table.do(ResolveTurn(now=6000))
    assert not of(events, AttackResolved) and "maga~1" not in table.c


def test_a_fallen_npc_posts_nothing_and_a_spell_at_one_out_is_skipped() -> None:
    spells = [{"name": "Pocisk", "kind": "damage"}]
    table = by_post(fighter("maga", "a", "u2", zwinnosc=70, spells=spells))
    table.do(Post(actor="maga", action=Action(kind="cast", spell=0, target="ork"), now=2000))
    table.do(Damage(target="ork", amount=999))
    with pytest.raises(RuleViolation) as refused:
        table.do(Post(actor="ork", now=2000, by_gm=True))
    assert refused.value.code == "pokonany"
    skipped = of(table.do(ResolveTurn(now=5000)), PostSkipped)
    assert {(e.actor, e.reason) for e in skipped} == {("maga", "cel_poza_walka"), ("ala", "brak")}


def test_one_who_acted_live_before_the_switch_is_passed_over_at_the_resolve() -> None:
    table = Table(fighter("ala", "a", "u1", zwinnosc=60), fighter("ork", "b"))
    table.start()
    table.do(Attack(actor="ala", target="ork"))
    table.defend("", [90])
    table.do(SetPace(pace="post", now=10))
    events = table.do(ResolveTurn(now=20))
    assert not of(events, PostSkipped) and table.state.turn == 2
