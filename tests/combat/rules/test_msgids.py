"""Engine texts a player reads are Polish msgids with `%(name)s` placeholders and their values.

A refusal keeps its msgid (`template`) and `params` beside the Polish `message`, so the table
can show `gettext(template) % params` in the viewer's language; legal actions, prompt cards
and badges do the same. Every `RuleViolation(...)` in combat/rules gets its message from a
`gettext_noop(...)` call (the keyword makemessages hands to xgettext), or the catalogue would
miss it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from combat.rules.base import RuleViolation, fill
from combat.rules.eleora.commands import DeclareAttack, EndTurn, Prepare
from combat.rules.eleora.conditions import ConditionInstance
from combat.rules.eleora.engine.queries import condition_badges, legal_actions
from combat.rules.eleora.prompts import open_prompts
from combat.rules.eleora.sheet import Shield
from tests.combat.rules.engine_kit import begin, make_combatant, make_sheet, make_state, step
from tests.site.test_i18n import EN_PO, read_po

RULES = Path(__file__).resolve().parents[3] / "combat" / "rules"
MARK = "gettext_noop"
PLACEHOLDER = re.compile(r"%\((\w+)\)")


def duel(**ala: object) -> object:
    state = make_state(
        make_combatant("ala", **ala),  # type: ignore[arg-type]
        make_combatant("wilk", "foes"),
    )
    return begin(state, ["ala", "wilk"])


# --- refusals --------------------------------------------------------------------------------


def test_a_refusal_keeps_its_msgid_and_params_which_format_to_the_message() -> None:
    state = duel()
    with pytest.raises(RuleViolation) as refused:
        step(state, Prepare(actor="wilk"))  # type: ignore[arg-type]
    refusal = refused.value
    assert refusal.message == "Nie twoja tura: teraz działa Ala."
    assert refusal.template == "Nie twoja tura: teraz działa %(name)s."
    assert refusal.params == {"current": "ala", "name": "Ala"}
    assert refusal.template % refusal.params == refusal.message == str(refusal)


def test_a_refusal_without_placeholders_is_its_own_message() -> None:
    plain = RuleViolation("kod", "Walka już się skończyła.", actor="ala", n=3)
    assert plain.message == plain.template == "Walka już się skończyła."
    assert plain.params == {"actor": "ala", "n": 3}


def test_formatting_survives_a_stray_percent_and_a_missing_value() -> None:
    assert RuleViolation("kod", "Trafia w 100% przypadków.", n=1).message == (
        "Trafia w 100% przypadków."
    )
    assert RuleViolation("kod", "Za daleko: %(metres)s m.").message == "Za daleko: %(metres)s m."
    assert RuleViolation("kod", "Pula: %(dice)d.", dice="dużo").message == "Pula: %(dice)d."
    assert fill("Zostało %(n)s%", {"n": 2}, "zapas") == "zapas"
    assert fill("Zostało %(n)s%%.", {"n": 2}) == "Zostało 2%."


# --- legal actions, prompts, badges ------------------------------------------------------------


def test_a_disabled_action_carries_the_refusals_msgid_and_params() -> None:
    state = duel()
    actions = {a.key: a for a in legal_actions(state, "wilk")}  # type: ignore[arg-type]
    attack = actions["atak"]
    assert not attack.available
    assert attack.reason == "Nie twoja tura: teraz działa Ala."
    assert attack.reason_template == "Nie twoja tura: teraz działa %(name)s."
    assert attack.reason_template % attack.reason_params == attack.reason
    end = actions["koniec_tury"]
    assert (end.label, end.reason, end.reason_template) == (
        "Koniec tury",
        "Nie twoja tura.",
        "Nie twoja tura.",
    )


def test_action_labels_are_msgids_przygotowanie_in_a_context_of_its_own() -> None:
    actions = {a.key: a for a in legal_actions(duel(), "ala")}  # type: ignore[arg-type]
    assert actions["atak"].label_template == actions["atak"].label == "Atak"
    assert actions["koniec_tury"].label_template == "Koniec tury"
    assert actions["parowanie"].label_template == "Parowanie"
    # The msgid "Przygotowanie" is the setup phase ("Setup"); the action has its own context.
    prepare = actions["przygotowanie"]
    assert (prepare.label, prepare.label_template) == (
        "Przygotowanie",
        "eleora action\x04Przygotowanie",
    )
    assert all(a.label_template for a in actions.values())


def test_every_unavailable_action_has_a_msgid_for_its_reason() -> None:
    state = duel()
    for actor in ("ala", "wilk"):
        for action in legal_actions(state, actor):  # type: ignore[arg-type]
            if not action.available:
                assert action.reason_template, action
                assert fill(action.reason_template, action.reason_params) == action.reason


def test_a_prompt_card_carries_msgids_for_its_label_and_options() -> None:
    ala = make_combatant("ala", sheet=make_sheet(shields=(Shield("Puklerz", 1),)))
    state = begin(make_state(ala, make_combatant("wilk", "foes")), ["wilk", "ala"])
    state, _ = step(state, EndTurn(actor="wilk"))
    state, _ = step(state, EndTurn(actor="ala"))
    state, _ = step(state, DeclareAttack(actor="wilk", target="ala", weapon="wrecz"))
    (view,) = open_prompts(state)
    assert view.label == "Atak: Wilk → Ala (bez broni)"
    assert view.label_template == "%(kind)s: %(attacker)s → %(target)s (bez broni)"
    assert fill(view.label_template, view.label_params) == view.label  # the kind: a text param
    assert [(key, msgid % params) for key, msgid, params in view.option_templates] == list(
        view.options
    )
    assert {k: m for k, m, _ in view.option_templates}["parowanie"] == ("Parowanie (%(shield)s)")
    assert dict(view.options)["parowanie"] == "Parowanie (Puklerz)"


def test_a_badge_detail_is_made_of_parts_with_msgids() -> None:
    bleeding = (
        ConditionInstance("krwawienie", stacks=2, remaining=3),
        ConditionInstance("unieruchomienie", source="wilk", difficulty=2, note="sieć"),
    )
    state = make_state(make_combatant("ala", conditions=bleeding))
    badges = {b.key: b for b in condition_badges(state, "ala")}  # type: ignore[arg-type]
    krwawienie, uwiezienie = badges["krwawienie"], badges["unieruchomienie"]
    assert krwawienie.detail == "×2, tury: 3"
    assert [t for t, _ in krwawienie.detail_parts] == ["×%(stacks)s", "tury: %(turns)s"]
    assert uwiezienie.detail == "trudność 2, sieć"
    for badge in badges.values():
        assert ", ".join(t % p for t, p in badge.detail_parts) == badge.detail


def test_a_probe_refusal_fills_its_msgid_from_params() -> None:
    exposed = (ConditionInstance("odsloniecie", stacks=3),)
    state = begin(
        make_state(make_combatant("ala"), make_combatant("wilk", "foes", conditions=exposed)),
        ["ala", "wilk"],
    )
    aim = {a.key: a for a in legal_actions(state, "ala")}["celowanie"]
    assert aim.reason == "Celowanie: limit +3 przy każdym wrogu."
    assert aim.reason_template == "Celowanie: limit +%(cap)s przy każdym wrogu."
    assert aim.reason_params == {"cap": 3}


# --- every call site marks its msgid ---------------------------------------------------------


@dataclass
class Module:
    path: Path
    tree: ast.Module
    parents: dict[ast.AST, ast.AST]


def modules() -> list[Module]:
    found = []
    for path in sorted(RULES.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        found.append(Module(path, tree, parents))
    return found


def is_mark(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == MARK
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    )


def enclosing_function(module: Module, node: ast.AST) -> ast.FunctionDef | None:
    while node in module.parents:
        node = module.parents[node]
        if isinstance(node, ast.FunctionDef):
            return node
    return None


def calls_named(name: str, every: list[Module]) -> Iterator[ast.Call]:
    for module in every:
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if called == name:
                    yield node


def msgids(expr: ast.AST, module: Module, every: list[Module]) -> list[tuple[str, ast.Call]] | None:
    """The msgids `expr` may evaluate to, each with the call whose keywords fill it; None when
    one of them is not a gettext_noop(...) literal."""
    if is_mark(expr):
        assert isinstance(expr, ast.Call) and isinstance(expr.args[0], ast.Constant)
        return [(expr.args[0].value, expr)]
    if isinstance(expr, ast.IfExp):
        body, orelse = msgids(expr.body, module, every), msgids(expr.orelse, module, every)
        return None if body is None or orelse is None else body + orelse
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name):
        return table_msgids(expr.value.id, module)
    if isinstance(expr, ast.Name):
        return name_msgids(expr, module, every)
    return None


def table_msgids(name: str, module: Module) -> list[tuple[str, ast.Call]] | None:
    """A module-level dict whose every value is a gettext_noop(...) literal."""
    for node in module.tree.body:
        if (
            isinstance(node, ast.Assign)
            and [ast.unparse(t) for t in node.targets] == [name]
            and isinstance(node.value, ast.Dict)
            and all(is_mark(v) for v in node.value.values)
        ):
            return [(v.args[0].value, v) for v in node.value.values]  # type: ignore[attr-defined]
    return None


def name_msgids(
    name: ast.Name, module: Module, every: list[Module]
) -> list[tuple[str, ast.Call]] | None:
    """A local bound only to gettext_noop(...) literals, or a parameter every caller passes
    one to."""
    function = enclosing_function(module, name)
    if function is None:
        return None
    bindings = [
        node.value
        for node in ast.walk(function)
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == [name.id]
    ]
    if bindings:
        found: list[tuple[str, ast.Call]] = []
        for value in bindings:
            some = msgids(value, module, every)
            if some is None:
                return None
            found += [(msgid, caller(name, module)) for msgid, _ in some]
        return found
    params = [a.arg for a in function.args.args]
    if name.id not in params:
        return None
    index = params.index(name.id)
    found = []
    for call in calls_named(function.name, every):
        passed = [k.value for k in call.keywords if k.arg == name.id]
        passed += call.args[index : index + 1]
        if len(passed) != 1 or not is_mark(passed[0]):
            return None
        found.append((passed[0].args[0].value, call))  # type: ignore[attr-defined]
    return found or None


def caller(node: ast.AST, module: Module) -> ast.Call:
    """The RuleViolation(...) call a local is passed to."""
    while not (isinstance(node, ast.Call) and ast.unparse(node.func) == "RuleViolation"):
        node = module.parents[node]
    return node


def rule_violation_calls() -> Iterator[tuple[Module, ast.Call]]:
    every = modules()
    for module in every:
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "RuleViolation":
                yield module, node


def test_every_rule_violation_message_is_a_marked_msgid_with_its_values() -> None:
    every = modules()
    problems, seen = [], 0
    for module, call in rule_violation_calls():
        where = f"{module.path.relative_to(RULES.parents[1])}:{call.lineno}"
        message = call.args[1] if len(call.args) > 1 else None
        if message is None or module.path.name == "base.py":
            continue
        seen += 1
        found = msgids(message, module, every)
        if found is None:
            problems.append(f"{where}: the message is not a {MARK}(...) msgid")
            continue
        for msgid, source in found:
            filler = call if is_mark(source) else source  # a literal: this call has its values
            if any(k.arg is None for k in filler.keywords):
                continue  # **params: checked where they are passed
            given = {k.arg for k in filler.keywords}
            missing = set(PLACEHOLDER.findall(msgid)) - given
            if missing:
                problems.append(f"{where}: {msgid!r} has no value for {sorted(missing)}")
    assert seen > 100
    assert not problems, "\n".join(problems)


def test_no_engine_text_is_an_f_string_inside_a_rule_violation() -> None:
    for module, call in rule_violation_calls():
        assert not any(isinstance(n, ast.JoinedStr) for n in ast.walk(call)), (
            f"{module.path.name}:{call.lineno}: use a {MARK} msgid with params"
        )


def test_every_literal_reason_of_an_eleora_dice_modifier_is_in_the_catalogue() -> None:
    """A roll's modifiers are shown by their reasons, translated (`rules_gettext`): a reason the
    catalogue lacks stays Polish on English pages ("Flankowanie pełne")."""
    catalogue = {e.msgid for e in read_po(EN_PO) if e.msgctxt in (None, "eleora") and e.msgid}
    missing = []
    for module in modules():
        if "eleora" not in module.path.parts:
            continue
        for call in calls_named("Modifier", [module]):
            reason = call.args[1] if len(call.args) > 1 else None
            if is_mark(reason):
                reason = reason.args[0]  # type: ignore[union-attr]
            if isinstance(reason, ast.Constant) and reason.value not in catalogue:
                missing.append(f"{module.path.name}:{call.lineno} {reason.value!r}")
    assert not missing, missing
