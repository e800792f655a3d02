"""Działanie podtrzymywane: rounds set by the GM, progress per round, the GM's round-end test."""

from __future__ import annotations

import pytest

from combat.rules.base import RuleViolation
from combat.rules.magus.dice import Adjustment
from combat.rules.magus.levels import PATHETIC
from combat.rules.magus.settings import DEFAULT_SETTINGS
from combat.rules.magus.sheet import Sheet
from combat.rules.magus.sustained import (
    PRESET,
    PRESETS,
    RoundCheck,
    advance,
    from_preset,
    round_test,
    start,
)
from tests.combat.rules.magus.scripted import Script

S = DEFAULT_SETTINGS
HERO = Sheet("Zwiadowca", attributes={"percepcja": 6, "zrecznosc": 5}, skills={"przeszukiwanie": 3})


def test_dzialanie_podtrzymywane_presets_are_the_seeds_examples() -> None:
    assert [(p.key, p.low, p.high) for p in PRESETS] == [
        ("plecak", 3, 4),
        ("przeszukiwanie", 9, 10),
        ("pancerz_skorzany", 9, 10),
        ("zamek", 2, 3),
    ]
    assert PRESET["zamek"].label == "Zamknięcie zamka drzwi"


def test_dzialanie_podtrzymywane_lasts_the_rounds_the_gm_sets() -> None:
    action = from_preset("zamek", rounds=2)
    assert (action.rounds, action.preset, action.label) == (2, "zamek", "Zamknięcie zamka drzwi")
    action = advance(action)
    assert (action.progress, action.remaining, action.complete) == (1, 1, False)
    action = advance(action)
    assert action.complete and action.remaining == 0 and action.elapsed == 2


def test_dzialanie_podtrzymywane_preset_defaults_to_the_top_of_its_range() -> None:
    assert from_preset("plecak").rounds == 4
    assert from_preset("przeszukiwanie").rounds == 10


def test_dzialanie_podtrzymywane_rounds_must_be_sensible() -> None:
    for rounds in (0, -3, 1001, True):
        with pytest.raises(RuleViolation) as error:
            start("Coś", rounds)
        assert error.value.code == "sustained_rounds"
    with pytest.raises(RuleViolation) as unknown:
        from_preset("kopanie")
    assert unknown.value.code == "sustained_unknown_preset"


def test_dzialanie_podtrzymywane_cannot_go_on_once_complete() -> None:
    done = advance(start("Zdjęcie plecaka", 1))
    with pytest.raises(RuleViolation) as error:
        advance(done)
    assert error.value.code == "sustained_complete"


def test_dzialanie_podtrzymywane_gm_test_at_each_rounds_end_is_rolled() -> None:
    check = RoundCheck("przeszukiwanie", dn=7)  # talent step 3 + Percepcja 6 = 9 = d8+d6
    action = from_preset("przeszukiwanie", rounds=2, test=check)
    rng = Script([4, 3])
    result = round_test(rng, action, HERO, S)
    assert rng.asked == [8, 6] and result.dn == 7 and result.passed
    action = advance(action, passed=result.passed)
    assert action.progress == 1


def test_dzialanie_podtrzymywane_attribute_test_uses_the_attribute_step() -> None:
    action = start("Otwarcie wieka", 3, test=RoundCheck("zrecznosc", dn=4))
    rng = Script([3])  # Zręczność 5 = d8
    result = round_test(rng, action, HERO, S, [Adjustment(-1, "Rany")])
    assert rng.asked == [8] and result.roll.total == 2 and not result.passed


def test_dzialanie_podtrzymywane_failed_round_test_adds_no_progress() -> None:
    action = start("Wyważenie drzwi", 3, test=RoundCheck("percepcja", dn=30))
    failed = round_test(Script([1]), action, HERO, S)
    assert failed.level == PATHETIC and not failed.passed
    action = advance(action, passed=False)
    assert (action.progress, action.elapsed) == (0, 1)
    action = advance(action, passed=True)
    assert (action.progress, action.elapsed) == (1, 2)


def test_dzialanie_podtrzymywane_gm_may_only_record_a_failed_test() -> None:
    action = start("Rytuał", 2, test=RoundCheck("sila_woli", dn=6), failure_stalls=False)
    action = advance(advance(action, passed=False), passed=False)
    assert action.complete and action.elapsed == 2


def test_dzialanie_podtrzymywane_test_result_only_when_the_gm_requires_a_test() -> None:
    with pytest.raises(RuleViolation) as given:
        advance(start("Coś", 2), passed=True)
    assert given.value.code == "sustained_test_mismatch"
    with pytest.raises(RuleViolation) as missing:
        advance(start("Coś", 2, test=RoundCheck("percepcja", dn=5)))
    assert missing.value.code == "sustained_test_mismatch"
    with pytest.raises(RuleViolation) as no_test:
        round_test(Script([]), start("Coś", 2), HERO, S)
    assert no_test.value.code == "sustained_no_test"


def test_dzialanie_podtrzymywane_test_names_a_known_attribute_or_talent() -> None:
    with pytest.raises(RuleViolation) as error:
        RoundCheck("magia", dn=5)
    assert error.value.code == "sustained_unknown_skill"
