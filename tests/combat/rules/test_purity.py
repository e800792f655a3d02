"""The rules package stays pure: no Django, no project apps, no clock, no global random."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[3] / "combat" / "rules"
FORBIDDEN_ROOTS = {"django", "characters", "eleora_site", "channels", "time", "datetime", "random"}


def rule_files() -> list[Path]:
    return sorted(RULES.rglob("*.py"))


def imports(tree: ast.AST) -> list[tuple[str, int]]:
    """Every module a file imports, with its line (relative imports resolved to `combat.rules`)."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            found.append(("combat.rules." + module if node.level else module, node.lineno))
    return found


def type_only_lines(tree: ast.AST) -> set[int]:
    """Lines of imports under `if TYPE_CHECKING:` (hints only, never executed)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                lines |= {n.lineno for n in ast.walk(inner) if hasattr(n, "lineno")}
    return lines


def violations(source: str) -> list[str]:
    problems = []
    tree = ast.parse(source)
    hints_only = type_only_lines(tree)
    for module, line in imports(tree):
        root = module.split(".")[0]
        if root == "random" and line in hints_only:
            continue  # `random.Random` as a type hint rolls nothing
        if root in FORBIDDEN_ROOTS:
            problems.append(f"line {line}: imports {module}")
        if root == "combat" and not module.startswith("combat.rules"):
            problems.append(f"line {line}: imports {module} (outside combat.rules)")
    return problems


def test_the_rules_package_has_files_to_check() -> None:
    assert len(rule_files()) > 10


@pytest.mark.parametrize("path", rule_files(), ids=lambda p: str(p.relative_to(RULES)))
def test_rules_module_is_pure(path: Path) -> None:
    assert violations(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "source",
    [
        "import django",
        "from django.db import models",
        "import random",
        "from random import Random",
        "import time",
        "from datetime import datetime",
        "from characters.models import Character",
        "import eleora_site.settings",
        "from channels.layers import get_channel_layer",
        "from combat.models import Encounter",
        "def f():\n    import random\n    return random.random()",
    ],
)
def test_the_purity_check_catches(source: str) -> None:
    assert violations(source)


def test_the_purity_check_allows_the_rules_themselves() -> None:
    assert violations("from combat.rules.dice import RNG\nfrom . import base\nimport math") == []


def test_random_is_allowed_as_a_type_hint_only() -> None:
    hint = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import random\n"
    assert violations(hint) == []
    assert violations(hint + "import random\n")
