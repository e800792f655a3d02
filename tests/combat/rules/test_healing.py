"""Naturalne Leczenie, Magiczne Leczenie with its total, and stun recovery."""

from __future__ import annotations

import pytest

from combat.rules.base import RuleViolation
from combat.rules.dice import Modifier, PoolRoll, replay_pool
from combat.rules.eleora.healing import (
    HealthTrack,
    magic_healing,
    natural_healing,
    natural_healing_pool,
    recover_stun_hours,
    recover_stun_next_day,
)
from combat.rules.eleora.settings import TableSettings

FACES = frozenset({4, 5, 6})
FLAT = TableSettings(natural_heal_mode="flat2")


def krzepa_roll(*faces: int) -> PoolRoll:
    return replay_pool([Modifier(len(faces), "Krzepa")], faces, FACES)


def test_naturalne_leczenie_one_zdrowie_per_krzepa_success() -> None:
    result = natural_healing(HealthTrack(13, physical=6), krzepa_roll(6, 5, 2))
    assert result.healed == 2 and result.track.physical == 4 and result.track.zdrowie == 9
    assert "test Krzepy: 2" in result.explanation


def test_naturalne_leczenie_cannot_heal_more_than_lost() -> None:
    result = natural_healing(HealthTrack(13, physical=1), krzepa_roll(6, 5, 4))
    assert result.healed == 1 and result.track.physical == 0


def test_naturalne_leczenie_expert_care_and_alchemy_add_dice() -> None:
    pool = natural_healing_pool(krzepa=2, care_dice=2, alchemy_dice=1)
    assert sum(m.dice for m in pool) == 5
    assert [m.reason for m in pool] == ["Krzepa", "Fachowa kuracja", "Alchemiczne medykamenty"]
    assert natural_healing_pool(3) == (Modifier(3, "Krzepa"),)


def test_naturalne_leczenie_optional_flat_two_per_week() -> None:
    result = natural_healing(HealthTrack(13, physical=5), settings=FLAT)
    assert result.healed == 2 and result.track.physical == 3
    assert natural_healing(HealthTrack(13, physical=5), settings=FLAT, flat_points=3).healed == 3


def test_naturalne_leczenie_test_mode_needs_the_roll() -> None:
    with pytest.raises(ValueError, match="Krzepa"):
        natural_healing(HealthTrack(13, physical=5))


def test_naturalne_leczenie_first_fades_magic_healing_total() -> None:
    track = HealthTrack(13, physical=4, magic_total=3)
    result = natural_healing(track, krzepa_roll(4, 5, 6, 6, 1))
    # 4 points: 3 fade the blue scars, only 1 restores lost Zdrowie.
    assert result.track.magic_total == 0 and result.track.physical == 3
    assert result.healed == 4 and "niebieskie blizny" in result.explanation


def test_magiczne_leczenie_adds_to_the_total() -> None:
    result = magic_healing(HealthTrack(13, physical=5), 4)
    assert result.healed == 4 and result.track.physical == 1 and result.track.magic_total == 4


def test_magiczne_leczenie_heals_physical_then_stun() -> None:
    result = magic_healing(HealthTrack(13, physical=2, stun=3), 4)
    assert (result.track.physical, result.track.stun, result.track.magic_total) == (0, 1, 4)


def test_magiczne_leczenie_partial_up_to_the_cap() -> None:
    result = magic_healing(HealthTrack(13, physical=8, magic_total=10), 5)
    assert result.healed == 3 and result.track.magic_total == 13 and result.track.physical == 5


def test_magiczne_leczenie_refused_once_total_reaches_max_zdrowie() -> None:
    with pytest.raises(RuleViolation) as refused:
        magic_healing(HealthTrack(13, physical=5, magic_total=13), 1)
    assert refused.value.code == "magiczne_leczenie_wyczerpane"


def test_magiczne_leczenie_nothing_to_heal_adds_nothing() -> None:
    result = magic_healing(HealthTrack(13), 5)
    assert result.healed == 0 and result.track.magic_total == 0
    with pytest.raises(ValueError, match="negative"):
        magic_healing(HealthTrack(13), -1)


def test_oglusznie_fades_one_point_per_hour() -> None:
    result = recover_stun_hours(HealthTrack(13, physical=2, stun=5), hours=3)
    assert result.track.stun == 2 and result.healed == 3 and result.track.physical == 2
    assert recover_stun_hours(HealthTrack(13, stun=2), hours=9).track.stun == 0
    with pytest.raises(ValueError, match="negative"):
        recover_stun_hours(HealthTrack(13, stun=2), hours=-1)


def test_oglusznie_all_gone_next_day() -> None:
    result = recover_stun_next_day(HealthTrack(13, physical=2, stun=5))
    assert result.track.stun == 0 and result.healed == 5 and result.track.physical == 2


def test_pelne_wyzdrowienie_means_all_zdrowie_recovered() -> None:
    assert HealthTrack(13).fully_healed
    assert not HealthTrack(13, stun=1).fully_healed


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_zdrowie": 0}, "at least 1"),
        ({"max_zdrowie": 13, "physical": -1}, "negative"),
        ({"max_zdrowie": 13, "magic_total": 14}, "exceed"),
    ],
)
def test_health_track_rejects_impossible_values(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        HealthTrack(**kwargs)
