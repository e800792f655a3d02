"""The table's regions rendered for one viewer: what the page shows and what a socket pushes.

Secrets are dropped here, before any template sees them: hidden combatants and the log lines
about them, secret GM rolls, NPC health numbers (a wound level instead, until the GM reveals
them) and other players' prompts never reach a player's context.
"""

from __future__ import annotations

import dataclasses
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from characters.models import Character, CreatureTemplate
from combat import services
from combat.rules import Ruleset, RuleViolation, get_ruleset
from combat.rules.base import Badge, PromptView, fill
from combat.services import LogEntry, Table, Viewer

REGIONS = (
    "table-status",
    "table-prompts",
    "table-me",
    "table-turn",
    "table-order",
    "table-log",
)
GM_REGIONS = ("table-gm",)
TEMPLATE = "combat/encounter.html"


@dataclass(frozen=True)
class Row:
    """One combatant as this viewer may see it."""

    id: str
    name: str
    side: str
    mine: bool
    current: bool
    initiative: int | None
    actions_left: int
    reactions_left: int
    status: str
    numbers: bool  # health shown as numbers (own side, revealed, or the GM)
    health: int
    max_health: int
    damage_physical: int
    damage_stun: int
    removable: frozenset[str]
    wound_key: str
    wound_label: str
    badges: Sequence[Any]
    hidden: bool
    revealed: bool
    controlled_by_gm: bool
    policy: str
    position: Any
    initiative_rolled: bool
    injuries: Sequence[str] = ()


@dataclass(frozen=True)
class Line:
    seq: int
    text: str
    kind: str
    rolls: Sequence[Mapping[str, Any]]
    secret: bool
    undone: bool


@dataclass
class PromptCard:
    id: str
    kind: str
    actor: str
    actor_name: str
    label: str
    options: Sequence[tuple[str, str]]
    deadline: float
    mine: bool
    odds: Mapping[str, Any] = field(default_factory=dict)
    answers: dict[str, Any] = field(default_factory=dict)
    cids: dict[str, str] = field(default_factory=dict)
    heroism: bool = False  # a Kostka Heroizmu may go on this answer's roll


def engine_text(template: str, params: Mapping[str, Any] | None, fallback: str = "") -> str:
    """A text the rules made, in the viewer's language: `gettext(template) % params`.

    The rules give a Polish msgid and its values; `fallback` (their Polish text) is shown when
    there is no msgid or the translation does not format."""
    if not template:
        return fallback
    return fill(_(template), params or {}, fallback or template)


def _option_labels(prompt: PromptView) -> list[tuple[str, str]]:
    """A prompt's (key, label) options with the labels in the viewer's language."""
    labels = {key: engine_text(msgid, params) for key, msgid, params in prompt.option_templates}
    return [(key, labels.get(key, label)) for key, label in prompt.options]


def _badge(badge: Badge) -> Badge:
    """A condition badge with its detail ("×2, tury: 3") in the viewer's language."""
    if not badge.detail_parts:
        return badge
    detail = ", ".join(engine_text(template, params) for template, params in badge.detail_parts)
    return dataclasses.replace(badge, detail=detail)


def may_see(viewer: Viewer, combatant: Any) -> bool:
    return viewer.is_gm or not combatant.hidden


def rows(rules: Ruleset, table: Table, viewer: Viewer) -> list[Row]:
    state = table.state
    ids = list(state.order) + [c for c in state.combatants if c not in state.order]
    result = []
    for cid in ids:
        c = state.combatants[cid]
        if not may_see(viewer, c):
            continue
        mine = c.controller is not None and c.controller == viewer.controller
        numbers = viewer.is_gm or c.controller is not None or c.stats_revealed
        wound_key, wound_label = rules.wound_level(state, cid)
        result.append(
            Row(
                id=cid,
                name=c.name,
                side=c.side,
                mine=mine,
                current=state.current == cid,
                initiative=c.initiative,
                actions_left=c.actions_left,
                reactions_left=c.reactions_left,
                status=c.status,
                numbers=numbers,
                health=c.health if numbers else 0,
                max_health=c.max_health if numbers else 0,
                damage_physical=c.damage_physical if viewer.is_gm else 0,
                damage_stun=c.damage_stun if viewer.is_gm else 0,
                removable=frozenset(x.key for x in c.conditions) if viewer.is_gm else frozenset(),
                wound_key=wound_key,
                wound_label=_(wound_label),
                badges=[_badge(b) for b in rules.condition_badges(state, cid)],
                hidden=c.hidden,
                revealed=c.stats_revealed,
                controlled_by_gm=c.controller is None,
                policy=table.npc_policies.get(cid, "ask"),
                position=c.position,
                initiative_rolled=bool(getattr(c, "setup_roll", ())),
                injuries=tuple(i.label for i in getattr(c, "injuries", ())),
            )
        )
    # My characters first on a phone: the template orders the cards, the tracker keeps order.
    return result


def log_lines(
    table: Table, viewer: Viewer, entries: Sequence[LogEntry] | None = None
) -> list[Line]:
    """Newest first (the table's recent log, or `entries`); secret lines only for the GM;
    lines about hidden combatants only for the GM too (their names would give them away)."""
    state = table.state
    hidden = {cid for cid, c in state.combatants.items() if c.hidden}
    lines: list[Line] = []
    for entry in reversed(table.log if entries is None else entries):
        lines += reversed(_entry_lines(entry, viewer, hidden))
    return lines


def _entry_lines(entry: LogEntry, viewer: Viewer, hidden: set[str]) -> list[Line]:
    if entry.undo_to is not None:
        text = _("Mistrz Gry cofa starcie do kroku %(seq)d.") % {"seq": entry.undo_to}
        return [Line(entry.seq, text, "gm", (), False, False)]
    result = []
    for line in entry.lines:
        if not viewer.is_gm and (line.get("secret") or hidden & set(line.get("actors", ()))):
            continue
        params = dict(line.get("params") or {})
        try:
            text = _(line["text"]) % params
        except (KeyError, TypeError, ValueError):
            text = str(line.get("text", ""))
        rolls = line.get("rolls") or ()
        result.append(
            Line(
                entry.seq, text, line.get("kind", ""), rolls, bool(line.get("secret")), entry.undone
            )
        )
    return result


def prompt_cards(rules: Ruleset, table: Table, viewer: Viewer) -> list[PromptCard]:
    """Open prompts: a player sees their own; the GM sees all (and answers for anyone)."""
    state = table.state
    cards = []
    for p in rules.open_prompts(state):
        c = state.combatants[p.actor]
        mine = c.controller is not None and c.controller == viewer.controller
        if not (viewer.is_gm or mine):
            continue
        card = PromptCard(
            id=p.id,
            kind=p.kind,
            actor=p.actor,
            actor_name=c.name,
            label=engine_text(p.label_template, p.label_params, p.label),
            options=_option_labels(p),
            deadline=p.deadline,
            mine=mine or (viewer.is_gm and c.controller is None),
            odds=_odds_by_option(rules.prompt_odds(state, p.id)),
            answers={
                key: rules.command_to_dict(rules.prompt_command(state, p.id, key))
                for key, _label in p.options
            },
            cids={key: new_cid() for key, _label in p.options},
            # The rules check the die on answering; the card only offers it to its holder.
            heroism=getattr(c, "heroism_dice", 0) > 0,
        )
        cards.append(card)
    cards.sort(key=lambda card: (not card.mine, card.deadline))
    return cards


def _odds_by_option(odds: Any) -> dict[str, Any]:
    """Odds per prompt option key; "no reaction" is the option key "" (odds key "brak")."""
    if odds is None:
        return {}
    options = dict(odds.options)
    if "brak" in options:
        options[""] = options["brak"]
    return options


def new_cid() -> str:
    """A command id for one rendered form: a double-click sends it twice, it counts once."""
    return uuid.uuid4().hex


def context(table: Table, viewer: Viewer, *, oob: bool) -> dict[str, Any]:
    rules = get_ruleset(table.ruleset)
    state = table.state
    visible = rows(rules, table, viewer)
    current = state.combatants.get(state.current) if state.current else None
    acting = current is not None and (
        viewer.is_gm or (current.controller is not None and current.controller == viewer.controller)
    )
    return {
        "table": table,
        "state": state,
        "viewer": viewer,
        "rows": visible,
        "mine": [r for r in visible if r.mine],
        "free_reactions": _free_reactions(rules, state, [r.id for r in visible if r.mine]),
        "sides": sorted({r.side for r in visible}),
        "current": next((r for r in visible if r.current), None),
        "acting": acting,
        "actions": rules.legal_actions(state, state.current) if acting and current else [],
        "actor": current,
        "targets": [r for r in visible if current is not None and r.id != current.id],
        "prompts": prompt_cards(rules, table, viewer),
        "log": log_lines(table, viewer),
        "policies": rules.reaction_policies(),
        "condition_choices": rules.condition_choices() if viewer.is_gm else [],
        **(_roster(table) if viewer.is_gm else {}),
        "server_now": time.time(),
        "oob": oob,
        "ruleset": table.ruleset,
    }


FREE_REACTIONS = ("przepuszczenie", "upuszczenie", "wyzwolenie")


def _free_reactions(rules: Ruleset, state: Any, ids: list[str]) -> dict[str, list[Any]]:
    """Reactions a player may use outside a prompt, per own character, when allowed now."""
    if getattr(state, "phase", "") not in ("combat", "surprise"):
        return {}
    return {
        cid: [a for a in rules.legal_actions(state, cid) if a.reaction and a.key in FREE_REACTIONS]
        for cid in ids
    }


def _roster(table: Table) -> dict[str, Any]:
    """What the GM can still bring to the table: campaign characters not in it, creatures."""
    present = set(table.state.combatants)
    characters = [
        c
        for c in Character.objects.filter(campaign_id=table.campaign_id).order_by("kind", "name")
        if f"c{c.pk}" not in present
    ]
    creatures = CreatureTemplate.objects.filter(
        Q(campaign_id=table.campaign_id) | Q(campaign__isnull=True, ruleset=table.ruleset)
    ).order_by("campaign", "name")
    return {"roster_characters": characters, "roster_creatures": list(creatures)}


def render_preview(table: Table, viewer: Viewer, command: Mapping[str, Any]) -> str:
    """The exact odds of an attack this viewer is about to declare, for their socket only."""
    rules = get_ruleset(table.ruleset)
    try:
        parsed = rules.command_from_dict({**command, "now": time.time()})
        services.authorise(rules, table.state, viewer, parsed)
        odds = rules.attack_odds(table.state, parsed)
    except (ValueError, TypeError, RuleViolation) as exc:
        if isinstance(exc, RuleViolation):
            message = engine_text(exc.template, exc.params, exc.message)
        else:
            message = str(exc)
        raise services.Refused("podglad", message) from None
    target = table.state.combatants.get(getattr(parsed, "target", ""))
    ctx = {"odds": odds, "target": target, "oob": True}
    return render_to_string(f"{TEMPLATE}#odds-preview", ctx)


def render_regions(table: Table, viewer: Viewer) -> str:
    """Every region for this viewer, each marked for an out-of-band swap by its id."""
    ctx = context(table, viewer, oob=True)
    names = REGIONS + (GM_REGIONS if viewer.is_gm else ())
    return "".join(render_to_string(f"{TEMPLATE}#{name}", ctx) for name in names)


def render_one(table: Table, viewer: Viewer, name: str, **extra: Any) -> str:
    ctx = {**context(table, viewer, oob=True), **extra}
    return render_to_string(f"{TEMPLATE}#{name}", ctx)
