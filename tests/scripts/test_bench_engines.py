"""The template-engine benchmark's smoke run: a few renders of each region, and of one log
entry as a push sends it, in Django's engine and in Jinja2 on its played table. The HTML must
be the same in both engines and languages; which engine is faster is the full run's business."""

from __future__ import annotations

import pytest

from scripts.bench.engines import LANGUAGES, LOG_ENTRIES, REGIONS, ROWS, measure

pytestmark = pytest.mark.bench


def test_it_renders_the_same_html_in_both_engines_and_times_them() -> None:
    result = measure(renders=2, rounds=1)
    assert result["table"]["log_entries"] == LOG_ENTRIES
    rows = {f"{what} {audience}" for what, audience in ROWS}
    assert set(result["same_html"]) == set(result["rows"]) == rows
    for row, languages in result["same_html"].items():
        assert set(languages) == set(LANGUAGES)
        for language, check in languages.items():
            assert check["same"] is True, (row, language, check)
            assert check["bytes"] > 0
    for row in ("table-turn gm", "table-turn player", "table-log player", "table-me player"):
        assert result["same_html"][row]["pl"]["bytes"] > 1000, row  # a panel, a card, the log
    assert 0 < result["same_html"]["log-entry player"]["pl"]["bytes"] < 5000  # one entry
    for row, figures in result["rows"].items():
        assert figures["django_ms"] > 0 and figures["jinja2_ms"] > 0, row
    assert set(result["totals"]) == set(REGIONS)
