"""The d100 odds entry of the rules benchmark: its JSON, its grid and its target, and the row
the report makes of it. Timing limits are the benchmark's business, not the test's."""

from __future__ import annotations

import json

import pytest

from scripts.bench import d100_odds, report

SUMMARIES = ("d100_attack_odds_cold", "d100_attack_odds_warm", "d100_card_cold")
WHERE = {"hit", "damage", "defence", "defence_threshold", "resistance", "armour"}


def test_the_d100_odds_benchmark_prints_every_figure_and_its_target(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert d100_odds.main(["--short"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["short"] is True
    assert result["d100_cases"] == len(d100_odds.cases(short=True)) == 6 * 6 * 3 * 2
    for prefix in SUMMARIES:
        figures = [result[f"{prefix}_{name}_ms"] for name in ("mean", "p99", "max")]
        assert 0 < figures[0] <= figures[2] and figures[1] <= figures[2], prefix
        assert set(result[f"{prefix}_worst_at"]) == WHERE, prefix
    assert result["d100_attack_odds_cold_worst_at"]["defence"] in d100_odds.DEFENCES
    assert result["d100_card_cold_worst_at"]["defence"] == list(d100_odds.DEFENCES)
    target = result["targets"]["d100_odds"]
    assert target["limit_ms"] == 1.0
    assert target["met"] is (result["d100_attack_odds_cold_max_ms"] <= 1.0)
    assert "clear" in result["what"] and result["d100_settings_parse_ms"] > 0


def test_the_grid_covers_every_threshold_defence_resistance_and_armour() -> None:
    grid = d100_odds.cases()
    assert len(grid) == 30 * 30 * 3 * 2 == len(set(grid))
    assert {case[0] for case in grid} == {case[1] for case in grid} == set(range(5, 151, 5))
    assert {case[2] for case in grid} == set(d100_odds.DEFENCES)
    assert {case[3] for case in grid} == {False, True}
    assert {case[4] for case in grid} == {0, 10, 20, 40}
    heavy_shield = (100, 60, "unik", True, 40)
    assert d100_odds._defence(heavy_shield) == 70  # Unik: heavy armour −20, shield −10
    assert d100_odds._defence((100, 60, "blok", True, 40)) == 60  # Blok: the damage's Krzepa
    assert d100_odds._defence((100, 60, "none", True, 40)) is None


def test_the_report_lists_the_d100_target_met_or_missed() -> None:
    for met in (True, False):
        results = {
            "rules": {
                "odds_30v30_ms": 0.1,
                "replay_s": 0.1,
                "d100_attack_odds_cold_max_ms": 0.5 if met else 3.0,
                "targets": {
                    "odds": {"met": True},
                    "replay": {"met": True},
                    "d100_odds": {"limit_ms": 1.0, "met": met},
                },
            }
        }
        row = next(t for t in report.targets(results) if t["target"] == "d100 odds, cold")
        assert row == {
            "target": "d100 odds, cold",
            "limit": "≤ 1 ms",
            "measured": 0.5 if met else 3.0,
            "met": met,
        }
