"""The rules benchmark's smoke run: the shape of its report and a replay that reproduces the
played state. Timing limits are the benchmark's business, not the test's."""

from __future__ import annotations

import json

from scripts.bench.rules import SHORT_EVENTS, measure, record

KEYS = {
    "odds_30v30_ms",
    "odds_30v30_three_options_ms",
    "odds_30v30_three_options_cold_ms",
    "replay_events",
    "replay_stored_events",
    "replay_entries",
    "replay_undos",
    "replay_combatants",
    "replay_rounds",
    "replay_s",
    "json_parse_s",
    "record_s",
    "replay_matches",
    "short",
    "python",
    "what",
    "targets",
}


def test_short_measure_reports_both_targets_and_a_matching_replay() -> None:
    result = measure(short=True)
    assert {key for key in result if not key.startswith(("magus_", "d100_"))} == KEYS
    assert result["magus_attack_odds_cold_uncapped_max_ms"] > 0  # the Magus odds, beside them
    assert result["d100_attack_odds_cold_max_ms"] > 0  # and the d100 odds
    assert set(result["targets"]) == {"odds", "replay", "magus_odds", "d100_odds"}
    assert json.loads(json.dumps(result)) == result  # JSON-ready as it is
    assert result["replay_matches"] is True
    assert result["short"] is True
    assert result["replay_events"] >= SHORT_EVENTS
    assert result["replay_stored_events"] >= result["replay_events"]
    assert 0 < result["replay_entries"] < result["replay_stored_events"]
    assert result["replay_s"] > 0 and result["odds_30v30_ms"] > 0
    odds, replay = result["targets"]["odds"], result["targets"]["replay"]
    assert (odds["limit_ms"], replay["limit_s"]) == (1.0, 0.3)
    assert replay["met"] is (result["replay_s"] <= 0.3)
    assert isinstance(odds["met"], bool)
    assert "fold" in result["what"]


def test_the_recorded_fight_plays_the_whole_table_not_just_attacks() -> None:
    recording = record(400, seed=3)
    kinds = {e["type"] for _, events, _ in recording.rows for e in events}
    assert {"combatant_joined", "attack_declared", "reaction_chosen", "turn_ended"} <= kinds
    assert kinds & {"health_changed", "condition_added", "gm_rolled", "combatant_changed"}
    assert any(undo_to is not None for _, _, undo_to in recording.rows)
    seqs = [seq for seq, _, _ in recording.rows]
    assert seqs == list(range(1, len(seqs) + 1))
