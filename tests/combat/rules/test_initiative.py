"""Inicjatywa: 2d6 + Intuicja, the tie-break chain, replay, Oddanie inicjatywy, Ogłuszenie."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from combat.rules.base import RuleViolation
from combat.rules.eleora.initiative import (
    InitiativeRoll,
    TieBreak,
    actions_this_turn,
    dazed_by_initiative,
    order_initiative,
    reorder_after_yield,
    replay_initiative,
    roll_initiative,
    supplied_initiative,
    yield_initiative,
)
from combat.rules.eleora.settings import TableSettings


class ScriptedRNG:
    """Hands out the given d6 faces in order; fails loudly if asked for more."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 6)
        return self.faces.pop(0)


def roll(name: str, faces: tuple[int, int], intuicja: int) -> InitiativeRoll:
    return InitiativeRoll(name, faces, intuicja)


def test_inicjatywa_is_2d6_plus_intuicja_rolled_as_data() -> None:
    result = roll_initiative(random.Random(3), "Wilk", intuicja=2)
    assert all(1 <= f <= 6 for f in result.faces) and len(result.faces) == 2
    assert result.total == sum(result.faces) + 2
    assert not result.supplied
    again = roll_initiative(random.Random(3), "Wilk", intuicja=2)
    assert again == result  # same seed, same roll


def test_inicjatywa_highest_acts_first() -> None:
    rolls = [roll("a", (1, 2), 0), roll("b", (6, 6), 0), roll("c", (3, 3), 1)]
    order = order_initiative(rolls, ScriptedRNG([]))
    assert order.order == ("b", "c", "a")
    assert order.tiebreaks == ()


def test_initiative_tie_higher_intuicja_first() -> None:
    rolls = [roll("niska", (5, 5), 1), roll("wysoka", (4, 5), 2)]  # both total 11
    order = order_initiative(rolls, ScriptedRNG([]))
    assert order.order == ("wysoka", "niska")
    assert order.tiebreaks == ()  # Intuicja settled it: nobody rolled


def test_initiative_tie_same_intuicja_rolls_one_more_d6() -> None:
    rolls = [roll("a", (3, 4), 1), roll("b", (2, 5), 1)]
    order = order_initiative(rolls, ScriptedRNG([3, 5]))
    assert order.order == ("b", "a")
    assert order.tiebreaks == (TieBreak(("a", "b"), (3, 5)),)


def test_initiative_tie_rolls_again_until_someone_is_higher() -> None:
    rolls = [roll("a", (3, 4), 1), roll("b", (2, 5), 1)]
    order = order_initiative(rolls, ScriptedRNG([4, 4, 6, 6, 2, 1]))
    assert order.order == ("a", "b")
    assert [t.faces for t in order.tiebreaks] == [(4, 4), (6, 6), (2, 1)]


def test_initiative_three_way_tie_separates_the_lowest_and_rerolls_the_rest() -> None:
    rolls = [roll("a", (3, 3), 2), roll("b", (1, 5), 2), roll("c", (2, 4), 2), roll("d", (6, 6), 0)]
    order = order_initiative(rolls, ScriptedRNG([5, 5, 2, 1, 3]))
    # c rolled 2 and is last of the three; a and b rolled 5 each and roll again: b wins 3–1.
    assert order.order == ("d", "b", "a", "c")
    assert order.tiebreaks == (TieBreak(("a", "b", "c"), (5, 5, 2)), TieBreak(("a", "b"), (1, 3)))


def test_initiative_three_way_tie_all_different_needs_one_roll() -> None:
    rolls = [roll(n, (2, 2), 1) for n in "xyz"]
    order = order_initiative(rolls, ScriptedRNG([2, 6, 4]))
    assert order.order == ("y", "z", "x")
    assert len(order.tiebreaks) == 1


def test_initiative_replays_from_recorded_tiebreaks() -> None:
    rolls = [roll("a", (3, 3), 2), roll("b", (1, 5), 2), roll("c", (2, 4), 2)]
    first = order_initiative(rolls, random.Random(11))
    assert first.tiebreaks  # a 3-way tie always needs dice
    again = replay_initiative(rolls, first.tiebreaks)
    assert again == first


def test_initiative_replay_rejects_a_record_that_does_not_fit() -> None:
    rolls = [roll("a", (3, 3), 2), roll("b", (1, 5), 2)]
    with pytest.raises(ValueError, match="no recorded tie-break"):
        replay_initiative(rolls, [TieBreak(("b", "a"), (1, 2))])
    with pytest.raises(ValueError, match="no recorded tie-break"):
        replay_initiative(rolls, [])
    with pytest.raises(ValueError, match="faces"):
        replay_initiative(rolls, [TieBreak(("a", "b"), (0, 9))])
    with pytest.raises(ValueError, match="more tie-breaks"):
        replay_initiative(rolls, [TieBreak(("a", "b"), (1, 2)), TieBreak(("a", "b"), (1, 2))])


def test_inicjatywa_player_may_supply_own_2d6() -> None:
    result = supplied_initiative("Gracz", [6, 2], intuicja=3)
    assert result.total == 11 and result.supplied


@pytest.mark.parametrize("faces", [[0, 3], [7, 1], [3], [1, 2, 3], [True, 2], [2.5, 3]])
def test_inicjatywa_supplied_faces_must_be_two_d6(faces: list[object]) -> None:
    with pytest.raises(ValueError, match="d6"):
        supplied_initiative("Gracz", faces, intuicja=1)  # type: ignore[arg-type]


def test_inicjatywa_each_combatant_rolls_once() -> None:
    with pytest.raises(ValueError, match="only once"):
        order_initiative([roll("a", (1, 1), 0), roll("a", (2, 2), 0)], ScriptedRNG([]))


def test_oddanie_inicjatywy_lowers_by_any_amount_at_least_one() -> None:
    assert yield_initiative(12, 5) == 7
    assert yield_initiative(3, 4) == -1
    with pytest.raises(RuleViolation) as refused:
        yield_initiative(12, 0)
    assert refused.value.code == "oddanie_inicjatywy"


def test_oddanie_inicjatywy_moves_behind_everyone_at_or_above_new_value() -> None:
    order = ("a", "b", "c", "d")
    values = {"a": 6, "b": 12, "c": 9, "d": 4}  # a yielded from 15 to 6
    assert reorder_after_yield(order, values, "a") == ("b", "c", "a", "d")
    values_tie = {"a": 9, "b": 12, "c": 9, "d": 4}
    assert reorder_after_yield(order, values_tie, "a") == ("b", "c", "a", "d")
    assert reorder_after_yield(order, {"a": 20, "b": 1, "c": 1, "d": 1}, "a") == order
    with pytest.raises(ValueError, match="not in the initiative order"):
        reorder_after_yield(order, values, "z")


def test_inicjatywa_falling_to_zero_leaves_ogluszona_with_one_action() -> None:
    assert dazed_by_initiative(before=3, after=0)
    assert dazed_by_initiative(before=3, after=-2)
    assert not dazed_by_initiative(before=3, after=1)
    assert not dazed_by_initiative(before=0, after=-1)  # it already fell earlier
    assert actions_this_turn(True) == 1
    assert actions_this_turn(False) == 2
    assert actions_this_turn(False, TableSettings(actions_per_turn=3)) == 3
