"""Falls (digest §5, the seed's table; §8 #15, #20)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules.base import RuleViolation
from combat.rules.d100.falls import HEIGHT, band_of, fall_modifiers, roll_fall
from combat.rules.d100.settings import D100Settings
from tests.combat.rules.magus.scripted import Script

S = D100Settings()


@pytest.mark.parametrize(
    ("height", "modifier"),
    [(2, -20), (3, -20), (4, 0), (5, 0), (6, 20), (8, 20), (9, 30), (12, 30), (13, 40)]
    + [(15, 40), (16, 50), (40, 50)],
)
def test_upadek_height_modifiers_of_the_table(height: int, modifier: int) -> None:
    assert fall_modifiers(height, S)[0] == (HEIGHT, modifier)


def test_upadek_d100_is_the_percent_of_max_pz_lost() -> None:
    result = roll_fall(Script([60]), S, height=5, max_pz=120)
    assert (result.roll, result.percent, result.damage) == (60, 60, 72)
    assert result.modifiers == ((HEIGHT, 0),) and result.acrobatics is None


def test_upadek_damage_rounds_down_and_is_never_negative() -> None:
    assert roll_fall(Script([33]), S, height=4, max_pz=10).damage == 3  # 3.3
    low = roll_fall(Script([15]), S, height=2, max_pz=100)
    assert (low.percent, low.damage, low.injuries) == (0, 0, 0)


def test_upadek_below_two_metres_rolls_nothing() -> None:
    rng = Script([])
    result = roll_fall(rng, S, height=1, max_pz=100, acrobatics=50)
    assert (result.roll, result.damage, result.injuries) == (0, 0, 0) and rng.asked == []
    assert band_of(1, S) is None


def test_upadek_ground_soft_minus_ten_hard_plus_ten() -> None:
    assert roll_fall(Script([50]), S, height=4, max_pz=100, ground="soft").percent == 40
    assert roll_fall(Script([50]), S, height=4, max_pz=100, ground="hard").percent == 60
    assert fall_modifiers(4, S, ground="hard")[1] == ("Twarde podłoże", 10)


def test_upadek_heavy_armour_plus_ten() -> None:
    result = roll_fall(Script([50]), S, height=4, max_pz=100, heavy_armour=True)
    assert result.percent == 60 and ("Ciężka zbroja", 10) in result.modifiers


def test_upadek_slope_lowers_the_roll() -> None:
    result = roll_fall(Script([50]), S, height=10, max_pz=100, slope=15)
    assert result.percent == 65 and ("Nachylenie terenu", -15) in result.modifiers


def test_upadek_modifiers_are_not_capped_like_a_test() -> None:
    result = roll_fall(Script([50]), S, height=20, max_pz=100, ground="hard", heavy_armour=True)
    assert result.percent == 120 and result.damage == 120


def test_upadek_akrobatyka_halves_up_to_4m() -> None:
    rng = Script([61, 20])
    result = roll_fall(rng, S, height=4, max_pz=100, acrobatics=30)
    assert rng.asked == [100, 100]
    assert result.acrobatics is not None and result.acrobatics.success
    assert result.halved and result.damage == 30 and result.injuries == 1


def test_upadek_failed_akrobatyka_takes_the_full_damage() -> None:
    result = roll_fall(Script([61, 50]), S, height=3, max_pz=100, acrobatics=30)
    assert not result.halved and result.damage == 41
    assert result.acrobatics is not None and result.acrobatics.label == "Akrobatyka"


def test_upadek_akrobatyka_not_above_4m() -> None:
    rng = Script([61])
    result = roll_fall(rng, S, height=5, max_pz=100, acrobatics=90)
    assert result.acrobatics is None and not result.halved and rng.asked == [100]
    higher = replace(S, acrobatics_max_height=6)
    assert roll_fall(Script([61, 1]), higher, height=5, max_pz=100, acrobatics=9).halved


def test_upadek_akrobatyka_takes_the_callers_modifiers() -> None:
    result = roll_fall(
        Script([50, 25]), S, height=4, max_pz=100, acrobatics=30, acrobatics_mods=[("Uraz", -10)]
    )
    assert result.acrobatics is not None and result.acrobatics.threshold == 20
    assert not result.halved


def test_upadek_one_uraz_per_full_30_percent() -> None:
    injuries = [
        roll_fall(Script([r]), S, height=5, max_pz=100).injuries for r in (29, 30, 59, 60, 95)
    ]
    assert injuries == [0, 1, 1, 2, 3]
    # of max PŻ, not of the roll: 90 PŻ, 60% → 54 damage → 54/90 = 60% → 2
    assert roll_fall(Script([60]), S, height=5, max_pz=90).injuries == 2
    assert (
        roll_fall(Script([60]), replace(S, fall_injury_percent=20), height=5, max_pz=100).injuries
        == 3
    )


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"height": -1}, "bad_height"),
        ({"height": 4, "ground": "lava"}, "bad_ground"),
        ({"height": 4, "slope": -5}, "bad_slope"),
        ({"height": 4, "max_pz": 0}, "bad_max_pz"),
    ],
)
def test_upadek_bad_input_refused(kwargs: dict[str, object], code: str) -> None:
    with pytest.raises(RuleViolation) as refused:
        roll_fall(Script([50]), S, **{"max_pz": 100, **kwargs})  # type: ignore[arg-type]
    assert refused.value.code == code


@given(
    st.integers(0, 10**6),
    st.integers(0, 40),
    st.integers(1, 500),
    st.one_of(st.none(), st.integers(0, 150)),
    st.sampled_from(["soft", "normal", "hard"]),
)
def test_upadek_damage_and_urazy_follow_the_percent(
    seed: int, height: int, max_pz: int, acrobatics: int | None, ground: str
) -> None:
    result = roll_fall(
        random.Random(seed), S, height=height, max_pz=max_pz, acrobatics=acrobatics, ground=ground
    )
    full = result.percent * max_pz // 100
    assert result.damage == (full // 2 if result.halved else full) >= 0
    assert result.injuries == result.damage * 100 // max_pz // 30
    assert result.halved == (result.acrobatics is not None and result.acrobatics.success)
