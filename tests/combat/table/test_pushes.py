"""A push carries only what changed, and a page that takes every push shows what a page
rendered whole would: played step by step for the GM and a player, through an attack, an
undo, a hidden NPC and the log's window moving on."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.utils import translation

from combat import fragments, live, services
from combat.access import Viewer
from combat.rules.base import prompts_of
from combat.rules.registry import get_ruleset
from combat.snapshots import LOG_WINDOW
from scripts.bench.page import Page, normal
from tests.combat.table.helpers import make_party, start

pytestmark = pytest.mark.django_db


@dataclass
class Socket:
    """What `combat.live.render` reads of a socket."""

    viewer: Viewer
    language: str = "pl"
    seq: int = -1
    sent: Any = None
    shown: dict[str, Any] = field(default_factory=dict)

    def take(self, push: live.Rendered) -> str:
        self.seq, self.sent, self.shown = push.seq, push.tree, push.shown
        return push.html


LISTS = ("table-order", "table-log")


@translation.override("pl")  # the pushes' language (a socket's) is the pages' one
def test_pages_kept_by_pushes_of_changes_match_pages_rendered_whole() -> None:
    party = make_party()
    start(party)
    pk, gm = party.encounter.pk, party.gm_viewer
    viewers = {"gm": gm, "p1": party.viewer(party.p1)}
    sockets = {who: Socket(viewer) for who, viewer in viewers.items()}
    shown = {who: Page() for who in viewers}
    whole = partial = item_pushes = 0
    bandit = f"c{party.bandit.pk}"
    rules: Any = get_ruleset("eleora")
    for step in range(LOG_WINDOW + 15):
        table = services.load_table(pk)
        pushed = live.render(pk, None, list(sockets.values()))
        for (who, viewer), push in zip(viewers.items(), pushed, strict=True):
            html = sockets[who].take(push)
            shown[who].apply(html)
            regions = fragments.regions(table, viewer)
            for name, text in regions.items():
                assert normal(shown[who][name]) == normal(text), (step, who, name)
            if step:  # what the order and the log cost, whole and as sent
                whole += sum(len(regions[name]) for name in LISTS)
                partial += sum(len(part) for part in _lists_in(html))
                item_pushes += bool(re.search(r'<li [^>]*?\bid="(row|log)-', html))
        current = table.state.current
        if step == 20:  # the bandit attacks Milena: her prompt, then the GM answers it
            attack = {"type": "declare_attack", "actor": bandit, "target": f"c{party.hero2.pk}",
                      "weapon": "Szabla"}  # fmt: skip
            while services.load_table(pk).state.current != bandit:
                now = services.load_table(pk).state.current
                services.run_command(pk, {"type": "end_turn", "actor": now}, viewer=gm)
            services.run_command(pk, attack, viewer=gm)
        elif step == 30:
            services.undo(pk, viewer=gm, to_seq=table.seq - 2)
        elif step in (40, 45):  # the bandit hidden from the players, and back
            hide = rules.visibility_command(bandit, hidden=step == 40)
            services.run_command(pk, rules.command_to_dict(hide), viewer=gm)
        elif table.state.prompts:
            (prompt, *_) = prompts_of(rules).open_prompts(table.state)
            answer = rules.prompt_command(table.state, prompt.id, prompt.options[0][0])
            services.run_command(pk, rules.command_to_dict(answer), viewer=gm)
        else:
            services.run_command(pk, {"type": "end_turn", "actor": current}, viewer=gm)
    assert item_pushes > LOG_WINDOW  # the log and the order went by their items, most steps
    assert partial < whole / 2  # two rows of three change at an end of turn: a small table


def _lists_in(html: str) -> list[str]:
    """The order's and the log's parts of a push: their items, or the whole regions."""
    parts = re.findall(r'<li [^>]*?\bid="(?:row|log)-.*?</li>', html, re.S)
    parts += re.findall(r'<div id="(?:row|log)-[^"]*" hx-swap-oob="delete"></div>', html)
    for name in LISTS:
        start = html.find(f'<section id="{name}"')
        if start >= 0:
            parts.append(html[start : html.index("</section>", start)])
    return parts
