"""The benchmark's short mode as a smoke check: every part runs end to end against real
processes (PostgreSQL, redis-server, daphne, load processes) and nothing is lost or applied
twice. Nothing is timed here: the figures are the full run's (docs/performance.md)."""

from __future__ import annotations

import json
import subprocess
import sys
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
    for part in ("eleora", "eleora_pubsub", "eleora_2", "eleora_2_tables"):
        run = results[part]
        assert run["latency_ms"]["n"] > 0, part
        assert run["lost_deliveries"] == 0 and run["error_count"] == 0, (part, run["errors"])
        assert run["log"]["acknowledged"] == run["latency_ms"]["n"], part
        assert run["log"]["acknowledged_missing"] == 0 and run["log"]["applied_twice"] == 0
    for part in ("floor_channels", "floor_websockets", "floor_channels_2"):
        assert results[part]["latency_ms"]["n"] > 0 and results[part]["lost_deliveries"] == 0
    assert results["idle"]["connected"] == results["idle"]["sockets"] > 0
    resilience = results["resilience"]
    assert resilience["log"]["acknowledged"] > 0
    assert resilience["log"]["acknowledged_missing"] == 0
    assert resilience["log"]["applied_twice"] == 0
    assert resilience["log"]["tables_with_gaps"] == 0
    assert resilience["log"]["tabs_not_on_head_at_end"] == 0
    assert [f["fault"] for f in resilience["faults"]] == ["redis restart", "server process killed"]
    assert all(f["all_back_after_s"] is not None for f in resilience["faults"])
    assert results["rules"]["replay_matches"] is True
    assert {t["target"] for t in results["targets"]} >= {"odds 30 v 30", "replay 10,000 events"}
