"""The layers point one way: the table service (and the by-post pace it appends through)
never imports the socket layer, and publishes through the hook it registers
(`combat.publishing`); the by-post pace never imports the service back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

COMBAT = Path(__file__).resolve().parents[2] / "combat"
SOCKET_LAYER = ("combat.hub", "combat.threads", "combat.consumers", "combat.live", "channels")
ABOVE_THE_SERVICE = ("combat.sweeps",)
FORBIDDEN = {
    "services.py": SOCKET_LAYER + ABOVE_THE_SERVICE,
    "posts.py": (*SOCKET_LAYER, *ABOVE_THE_SERVICE, "combat.services"),
}


def imported(source: str) -> list[tuple[str, int]]:
    """Every module a source imports, anywhere in it (a late import inside a function too),
    with its line; `from combat import hub` counts as `combat.hub`."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = "combat." + (node.module or "") if node.level else node.module or ""
            module = module.rstrip(".")
            found.append((module, node.lineno))
            found += [(f"{module}.{alias.name}", node.lineno) for alias in node.names]
    return found


def violations(source: str, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(
        f"line {line}: imports {module}"
        for module, line in imported(source)
        if any(module == f or module.startswith(f + ".") for f in forbidden)
    )


def test_it_finds_every_form_of_a_forbidden_import() -> None:
    source = (
        "import channels.layers\n"
        "from combat import clock, hub\n"
        "from combat.threads import in_pool\n"
        "def later():\n"
        "    from combat import services\n"
        "from . import live\n"
        "from combat import historia, threadsafe\n"
    )
    forbidden = (*SOCKET_LAYER, "combat.services")
    assert violations(source, forbidden) == [
        "line 1: imports channels.layers",
        "line 2: imports combat.hub",
        "line 3: imports combat.threads",
        "line 3: imports combat.threads.in_pool",
        "line 5: imports combat.services",
        "line 6: imports combat.live",
    ]


@pytest.mark.parametrize("name", sorted(FORBIDDEN))
def test_the_table_service_layers_import_nothing_above_them(name: str) -> None:
    source = (COMBAT / name).read_text(encoding="utf-8")
    assert violations(source, FORBIDDEN[name]) == []
