"""The project's templates as the site serves them: each `.html` file without the indentation
that lays out its source. A live push sends its regions' HTML to every socket of a table, and
the indentation was about a sixth of the bytes of an action's pushes (docs/performance.md).
Lines stay lines, so the HTML renders as before; a `<pre>` or `<textarea>` keeps its text as
written. Read once per template (the cached loader above it keeps the result).
"""

from __future__ import annotations

import re

from django.template import Origin
from django.template.loaders import filesystem

_KEPT = re.compile(r"(<(pre|textarea)\b.*?</\2>)", re.S)
_LAYOUT = re.compile(r"[ \t]*\n\s*")


def trimmed(source: str) -> str:
    """`source` with every run of blank space that holds a line break made one line break,
    but inside `<pre>` and `<textarea>`."""
    parts = _KEPT.split(source)
    # re.split gives: text, kept element, its tag name, text, …
    return "".join(
        _LAYOUT.sub("\n", part) if i % 3 == 0 else part if i % 3 == 1 else ""
        for i, part in enumerate(parts)
    )


class Loader(filesystem.Loader):
    """Django's filesystem loader, the `.html` templates trimmed."""

    def get_contents(self, origin: Origin) -> str:
        source = super().get_contents(origin)
        return trimmed(source) if str(origin.name).endswith(".html") else source
