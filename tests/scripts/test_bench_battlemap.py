"""The battle map benchmark's short run: every figure it reports, from real moves on varied
60 × 60 maps. Timing limits are the benchmark's business, not the test's."""

from __future__ import annotations

import json

import pytest

from scripts.bench import battlemap

pytestmark = pytest.mark.bench


def test_the_map_benchmark_moves_tokens_and_reports_time_and_bytes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert battlemap.main(["--short", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["tables"] == 2 and result["side"] == 60 and result["tokens_per_table"] == 20
    assert result["viewers_per_table"] == 7
    assert result["moves"] == 12, result["refused"]
    assert result["fields_moved"]["median"] >= 1
    for key in ("route_cpu_ms", "route_far_cpu_ms", "command_cpu_ms", "push_cpu_ms_all_viewers"):
        assert 0 < result[key]["median"] <= result[key]["max"], key
    # A move sends the tokens every viewer sees, never the painted terrain again.
    regions = result["kb_per_move_by_region"]
    assert regions.get("table-map-tokens", 0) > 0 and "table-map-terrain" not in regions
    map_kb = result["map_kb_per_move_per_viewer"]["max"]
    assert 0 < map_kb < result["map_region_page_kb"]["player"]  # the terrain is the bulk
    assert set(result["map_region_page_kb"]) == {"gm", "player"}
