"""A push carries only what changed, and a page that takes every push shows what a page
rendered whole would: played step by step for the GM and a player, through an attack, an
undo, a hidden NPC and the log's window moving on."""

from __future__ import annotations

import re
from typing import Any

import pytest

from combat import fragments, pushes, services
from combat.rules.base import prompts_of
from combat.rules.registry import get_ruleset
from combat.snapshots import LOG_WINDOW
from tests.combat.table.helpers import make_party, start

pytestmark = pytest.mark.django_db


def spaced(html: str) -> str:
    """HTML without the white space between tags (what lies between list items), its other
    runs of white space as one."""
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", html)).strip()


def test_pages_kept_by_pushes_of_changes_match_pages_rendered_whole() -> None:
    party = make_party()
    start(party)
    pk, gm = party.encounter.pk, party.gm_viewer
    viewers = {"gm": gm, "p1": party.viewer(party.p1)}
    sent: dict[str, dict[str, Any]] = {who: {} for who in viewers}
    shown: dict[str, dict[str, str]] = {who: {} for who in viewers}
    whole = partial = envelopes = 0
    bandit = f"c{party.bandit.pk}"
    rules: Any = get_ruleset("eleora")
    for step in range(LOG_WINDOW + 15):
        table = services.load_table(pk)
        for who, viewer in viewers.items():
            regions = fragments.regions(table, viewer)
            html, sent[who] = pushes.changed(sent[who], regions, everything=step == 0)
            pushes.apply(shown[who], html)
            for name, text in regions.items():
                assert spaced(shown[who][name]) == spaced(text), (step, who, name)
            if step:  # what the order and the log cost, whole and as sent
                whole += sum(len(regions[name]) for name in pushes.LISTS)
                partial += sum(len(part) for part in _lists_in(html))
                envelopes += html.count("<!--items ")
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
    assert envelopes > LOG_WINDOW  # the log and the order went by their items, most steps
    assert partial < whole / 2  # two rows of three change at an end of turn: a small table


def _lists_in(html: str) -> list[str]:
    """The order's and the log's parts of a push: envelopes of items, or whole regions."""
    parts = re.findall(r"<!--items [a-z-]+-->.*?<!--/items-->", html, re.S)
    for name in pushes.LISTS:
        start = html.find(f'<section id="{name}"')
        if start >= 0:
            parts.append(html[start : html.index("</section>", start)])
    return parts
