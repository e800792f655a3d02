"""The Magus odds entry of the rules benchmark runs and reports its target."""

from __future__ import annotations

import json

import pytest

from scripts.bench import magus_odds


def test_the_magus_odds_benchmark_reports_every_figure_and_its_target(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert magus_odds.main(["--short"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["short"] is True and result["magus_pairs"] == 14 * 14
    for key in (
        "magus_attack_odds_cold_max_ms",
        "magus_attack_odds_cold_uncapped_max_ms",
        "magus_attack_odds_warm_max_ms",
        "magus_talent_odds_cold_max_ms",
    ):
        assert result[key] > 0
    assert result["targets"]["magus_odds"]["limit_ms"] == 1.0
    assert isinstance(result["targets"]["magus_odds"]["met"], bool)
