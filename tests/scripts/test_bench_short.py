"""The benchmark's short mode as a smoke check: every part runs end to end against real
processes (PostgreSQL, redis-server, daphne, load processes) and nothing is lost or applied
twice. Nothing is timed here: the figures are the full run's (docs/performance.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from scripts.bench.processes import ROOT

pytestmark = pytest.mark.bench


def test_the_short_benchmark_runs_every_part_and_loses_nothing(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    done = subprocess.run(
        [sys.executable, "-m", "scripts.bench", "--short", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    results = json.loads(out.read_text())
    played: Counter[str] = Counter()
    for part in ("eleora", "eleora_pubsub", "eleora_2", "eleora_2_tables"):
        run, bot = results[part], results[part]["bot"]
        assert run["latency_ms"]["n"] > 0 and run["lost_deliveries"] == 0, part
        # The bot plays as a player would: the rules refuse some of what it tries (a bow not
        # loaded, a target out of reach), each refusal counted by its text; nothing fails.
        assert run["error_count"] == 0 and bot["faults"] == 0, (part, run["errors"], bot)
        assert run["latency_ms"]["n"] == sum(bot["done"].values()), (part, bot)
        assert run["log"]["acknowledged"] == bot["logged"] > 0, (part, bot)
        assert run["log"]["acknowledged_missing"] == 0 and run["log"]["applied_twice"] == 0
        assert run["log"]["tables_with_gaps"] == 0, part
        played.update(bot["done"])
    for part in ("floor_channels", "floor_channels_old", "floor_websockets", "floor_channels_2"):
        assert results[part]["latency_ms"]["n"] > 0 and results[part]["lost_deliveries"] == 0
    assert results["idle"]["connected"] == results["idle"]["sockets"] > 0
    resilience = results["resilience"]
    played.update(resilience["bot"]["done"])
    assert played["attack"] > 0 and played["prompt"] > 0, played  # it fights, and answers
    assert resilience["log"]["acknowledged"] > 0
    assert resilience["log"]["acknowledged_missing"] == 0
    assert resilience["log"]["applied_twice"] == 0
    assert resilience["log"]["tables_with_gaps"] == 0
    assert resilience["log"]["tabs_not_on_head_at_end"] == 0
    assert [f["fault"] for f in resilience["faults"]] == ["redis restart", "server process killed"]
    assert all(f["all_back_after_s"] is not None for f in resilience["faults"])
    assert results["rules"]["replay_matches"] is True
    assert {t["target"] for t in results["targets"]} >= {"odds 30 v 30", "replay 10,000 events"}
