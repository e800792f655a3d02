"""Okaleczenie i Śmierć: 2d6, location and effect, modifiers, clamp, the whole table as data."""

from __future__ import annotations

import random

import pytest

from combat.rules.eleora.maiming import (
    LOCATIONS,
    MAIMING_TABLE,
    Duration,
    MaimingEffect,
    resolve_maiming,
    roll_maiming,
)


def test_okaleczenie_first_die_is_location() -> None:
    names = [LOCATIONS[d].name for d in range(1, 7)]
    assert names == ["Głowa", "Tułów", "Prawa Ręka", "Lewa Ręka", "Prawa Noga", "Lewa Noga"]
    assert resolve_maiming(3, 4, zdrowie=0).location.name == "Prawa Ręka"


def test_okaleczenie_effect_minus_one_per_point_below_zero() -> None:
    result = resolve_maiming(2, 6, zdrowie=-3)
    assert result.final_effect == 3 and result.effect.name == "Utrata Nerki"
    assert [(m.amount, m.reason) for m in result.modifiers] == [(-3, "Zdrowie 3 poniżej 0")]


def test_okaleczenie_first_aid_adds_one_per_success() -> None:
    result = resolve_maiming(1, 2, zdrowie=-1, first_aid_successes=3)
    assert result.final_effect == 4 and result.effect.name == "Utrata Ucha"
    assert [m.amount for m in result.modifiers] == [-1, 3]
    assert (result.location_die, result.effect_die) == (1, 2)


def test_okaleczenie_effect_clamped_and_one_is_death() -> None:
    dead = resolve_maiming(5, 3, zdrowie=-5)
    assert dead.final_effect == 1 and dead.death and dead.effect.name == "Śmierć"
    lucky = resolve_maiming(5, 6, zdrowie=0, first_aid_successes=4)
    assert lucky.final_effect == 6 and not lucky.death


def test_okaleczenie_at_exactly_zero_has_no_penalty() -> None:
    assert resolve_maiming(4, 4, zdrowie=0).modifiers == ()


@pytest.mark.parametrize("area", ["glowa", "tulow", "reka", "noga"])
def test_okaleczenie_table_every_area_has_six_entries_death_first(area: str) -> None:
    entries = MAIMING_TABLE[area]
    assert sorted(entries) == [1, 2, 3, 4, 5, 6]
    assert entries[1].death and not any(entries[k].death for k in range(2, 7))
    assert all(e.name for e in entries.values())


def test_okaleczenie_kalectwo_entries_match_the_document() -> None:
    kalectwo = {
        area: [k for k, e in entries.items() if e.kalectwo]
        for area, entries in MAIMING_TABLE.items()
    }
    assert kalectwo == {
        "noga": [2, 3, 4],
        "reka": [2, 3, 4],
        "tulow": [2, 3, 4, 5],
        "glowa": [2, 3, 4, 5],
    }
    assert MAIMING_TABLE["tulow"][2].name == "Zapadnięte Płuco"
    assert MAIMING_TABLE["reka"][2].penalty == "Cecha Kalectwo „Utrata Ręki”"
    assert all(
        e.duration == Duration.TRWALE
        for es in MAIMING_TABLE.values()
        for e in es.values()
        if e.kalectwo
    )


def test_okaleczenie_legs_two_to_four_are_marked_default() -> None:
    legs = MAIMING_TABLE["noga"]
    assert [legs[k].stated for k in range(2, 5)] == [False, False, False]
    assert [legs[k].name for k in range(2, 5)] == ["Utrata Nogi", "Okulawienie", "Podcięta stopa"]
    assert all(e.stated for a, es in MAIMING_TABLE.items() if a != "noga" for e in es.values())


def test_okaleczenie_fractures_three_weeks_sprains_until_fully_healed() -> None:
    legs, arms = MAIMING_TABLE["noga"], MAIMING_TABLE["reka"]
    assert (legs[5].movement_penalty, legs[5].duration) == (2, Duration.TRZY_TYGODNIE)
    assert (legs[6].movement_penalty, legs[6].duration) == (2, Duration.DO_WYZDROWIENIA)
    assert (arms[5].dice_penalty, arms[5].duration) == (2, Duration.TRZY_TYGODNIE)
    assert (arms[6].dice_penalty, arms[6].duration) == (2, Duration.DO_WYZDROWIENIA)
    assert "dwóch rąk" in arms[5].penalty


def test_okaleczenie_obicie_and_pekniecie_czaszki() -> None:
    torso, head = MAIMING_TABLE["tulow"][6], MAIMING_TABLE["glowa"][6]
    assert torso.name == "Obicie" and torso.duration == Duration.DO_WYZDROWIENIA
    assert "Sile, Krzepie i Zręczności" in torso.penalty and torso.dice_penalty == 2
    assert head.name == "Pęknięcie czaszki" and head.duration == Duration.TRZY_TYGODNIE
    assert "Charyzmie, Intuicji i Intelekcie" in head.penalty


def test_okaleczenie_rolled_through_injected_rng() -> None:
    first = roll_maiming(random.Random(42), zdrowie=-1)
    again = roll_maiming(random.Random(42), zdrowie=-1)
    assert first == again
    assert first.location_die in range(1, 7) and first.effect_die in range(1, 7)


def test_okaleczenie_table_is_gm_data() -> None:
    mild = {area: {k: MaimingEffect(f"{area}-{k}") for k in range(1, 7)} for area in MAIMING_TABLE}
    result = resolve_maiming(6, 1, zdrowie=0, table=mild)
    assert result.effect.name == "noga-1" and not result.death


def test_okaleczenie_clamp_bounds_are_parameters() -> None:
    assert resolve_maiming(1, 1, zdrowie=-3, low=2).final_effect == 2


@pytest.mark.parametrize(("loc", "eff"), [(0, 3), (7, 3), (3, 0), (3, 7), (True, 3)])
def test_okaleczenie_dice_must_be_d6(loc: int, eff: int) -> None:
    with pytest.raises(ValueError, match="d6"):
        resolve_maiming(loc, eff, zdrowie=0)


def test_okaleczenie_rejects_negative_first_aid_and_incomplete_tables() -> None:
    with pytest.raises(ValueError, match="first aid"):
        resolve_maiming(1, 3, zdrowie=0, first_aid_successes=-1)
    with pytest.raises(ValueError, match="no entry"):
        resolve_maiming(1, 3, zdrowie=0, table={"glowa": {}})
