"""The table layer, the GM's pages and the character forms name no rule system.

In the manner of tests/combat/rules/test_purity.py: the sources are read, not run. Above the
rules (`combat/*.py`, `characters/*.py`, every template outside templates/combat/rulesets/)
nothing imports a ruleset's package, names a ruleset's key in a string, or uses the words and
fields that only Eleora has; what one system shows lives in its own partials.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from combat.rules.registry import BUILTIN

ROOT = Path(__file__).resolve().parents[2]
RULESET_PACKAGES = sorted(p.parent.name for p in (ROOT / "combat" / "rules").glob("*/__init__.py"))
KEYS = sorted({r.key for r in BUILTIN} | set(RULESET_PACKAGES))
LABELS = sorted(r.label for r in BUILTIN)
# Eleora's own fields and words that the table layer read before it became ruleset-blind.
ELEORA_TERMS = (
    *("actions_left", "reactions_left", "damage_physical", "damage_stun", "injuries"),
    *("setup_roll", "heroism", "Heroizmu", "przebicia", "parowanie", "Parowanie"),
    *("join_combat", "FREE_REACTIONS", "2k6", '"brak"', '"surprise"', "Premia do Obrony"),
    *("Broń Lekka", "Walka Wręcz", "wrecz", "lekka", "ciezka", "Intuicja"),
)


def python_sources() -> list[Path]:
    return sorted([*ROOT.glob("combat/*.py"), *ROOT.glob("characters/*.py")])


def neutral_templates() -> list[Path]:
    rulesets = ROOT / "templates" / "combat" / "rulesets"
    return sorted(p for p in (ROOT / "templates").rglob("*.html") if rulesets not in p.parents)


def test_the_guard_sees_the_rulesets_and_the_sources() -> None:
    assert "eleora" in KEYS and LABELS
    assert len(python_sources()) > 20 and len(neutral_templates()) > 20


@pytest.mark.parametrize("path", python_sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_above_the_rules_imports_or_names_a_ruleset(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom | ast.Import):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += [alias.name for alias in node.names]
            if isinstance(node, ast.ImportFrom) and node.module == "combat.rules":
                names += [f"combat.rules.{alias.name}" for alias in node.names]
            for name in names:
                parts = name.split(".")
                assert not (parts[:2] == ["combat", "rules"] and set(parts[2:3]) & set(KEYS)), (
                    f"{path.name}:{node.lineno} imports a ruleset package: {name}"
                )
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            assert text not in KEYS, f"{path.name}:{node.lineno} names the ruleset {text!r}"
            for label in LABELS:
                assert label not in text, f"{path.name}:{node.lineno} names {label!r}"
            assert not re.search(rf"combat\.rules\.({'|'.join(KEYS)})\b", text), (
                f"{path.name}:{node.lineno} points at a ruleset package"
            )


@pytest.mark.parametrize(
    "path", [*python_sources(), *neutral_templates()], ids=lambda p: str(p.relative_to(ROOT))
)
def test_no_eleora_term_above_the_rules(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = [term for term in ELEORA_TERMS if re.search(rf"(?<!\w){re.escape(term)}(?!\w)", text)]
    assert not found, f"{path.relative_to(ROOT)} uses Eleora's own {found}"


@pytest.mark.parametrize("path", neutral_templates(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_shared_template_names_a_ruleset(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for key in KEYS:
        assert not re.search(rf"""rulesets/{key}\b|["']{key}["']|\b{key}_""", text), (
            f"{path.relative_to(ROOT)} names the ruleset {key!r}"
        )
    for label in LABELS:
        assert label not in text, f"{path.relative_to(ROOT)} names {label!r}"
