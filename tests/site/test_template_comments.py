"""Django's `{# … #}` comments end on their own line: one spread over lines is shown to the
user as text. Longer comments use `{% comment %}`."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_template_comment_spans_lines() -> None:
    spread = [
        f"{path.relative_to(ROOT)}:{number}"
        for folder in (ROOT / "templates", ROOT / "tests" / "duel" / "templates")
        for path in sorted(folder.rglob("*.html"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "{#" in line and "#}" not in line.split("{#", 1)[1]
    ]
    assert not spread, f"a {{# … #}} comment over several lines shows as text: {spread}"
