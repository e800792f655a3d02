"""The cache benchmark's smoke run: two tables, a few actions, every mode end to end in its
own processes. Nothing is compared here: which cache pays is the full run's business."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from scripts.bench.caches import DEFAULT_MODES, ROOT

pytestmark = pytest.mark.bench

FIGURES = ("command_cpu_ms", "push_cpu_ms", "total_cpu_ms", "kb_per_action")


def test_it_reports_every_mode_with_positive_figures() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scripts.bench.caches", "--tables", "2", "--actions", "6", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    result = json.loads(done.stdout)
    assert set(result["modes"]) | set(result["skipped"]) == set(DEFAULT_MODES)
    assert "A" in result["modes"]
    for mode, figures in result["modes"].items():
        assert figures["actions"] == 6, mode
        for name in FIGURES:
            assert figures[name]["median"] > 0, (mode, name)
        assert figures["same_html_as_A"] is True, mode  # the caches change no viewer's page
