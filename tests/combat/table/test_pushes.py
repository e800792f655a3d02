"""A push carries only what changed, and a page that takes every push shows what a page
rendered whole would: played step by step for the GM and a player, through an attack, an
undo, a hidden NPC and the log's window moving on."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.utils import translation

from combat import clock, fragments, live, services
from combat.access import Viewer
from combat.rules.base import autoplay_of, prompts_of
from combat.rules.registry import get_ruleset
from combat.snapshots import LOG_WINDOW
from scripts.bench.page import Page, normal
from tests.combat.d100_table.helpers import make_d100_table
from tests.combat.magus_table.helpers import make_magus_table
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


def _table_of(ruleset: str) -> tuple[int, Viewer, Viewer, str]:
    """A table of `ruleset` in its setup stage with a hidden NPC: its pk, the GM, the first
    player and the hidden seat."""
    if ruleset == "magus":
        m = make_magus_table(hidden_scout=True)
        pk, gm, player = m.encounter.pk, m.gm_viewer, m.viewer(m.p1)
    else:
        d = make_d100_table(hidden_scout=True)
        pk, gm, player = d.pk, d.gm_viewer, d.viewer(d.p1)
    view = services.load_table(pk).view
    (hidden,) = [cid for cid, seat in view.seats.items() if seat.hidden]
    return pk, gm, player, hidden


@pytest.mark.parametrize("ruleset", ["magus", "d100"])
@translation.override("pl")
def test_in_magus_and_d100_pages_kept_by_pushes_match_pages_rendered_whole(ruleset: str) -> None:
    """Every seat played by the ruleset's own autoplay (declarations, initiative, attacks,
    their prompts answered), an NPC shown and hidden again and its policy set by the GM:
    after each step the pages kept by pushes are the pages rendered whole."""
    pk, gm, player, hidden = _table_of(ruleset)
    rules: Any = get_ruleset(ruleset)
    autoplay, prompting = autoplay_of(rules), prompts_of(rules)
    assert autoplay is not None and prompting is not None
    policy = autoplay.autoplay_policies()[0][0]
    viewers = {"gm": gm, "p1": player}
    sockets = {who: Socket(viewer) for who, viewer in viewers.items()}
    shown = {who: Page() for who in viewers}
    services.run_command(pk, {"type": "start_combat"}, viewer=gm)
    rounds, answers, forced = set(), 0, False
    for step in range(70):
        table = services.load_table(pk)
        pushed = live.render(pk, None, list(sockets.values()), force=forced)
        for (who, viewer), push in zip(viewers.items(), pushed, strict=True):
            shown[who].apply(sockets[who].take(push))
            for name, text in fragments.regions(table, viewer).items():
                assert normal(shown[who][name]) == normal(text), (step, who, name)
        state, view = table.state, table.view
        rounds.add(view.round)
        forced = step == 30
        if forced:  # outside the log: its push is forced (`services.publish`)
            services.set_npc_policy(pk, viewer=gm, combatant=hidden, policy="ask")
        elif step in (25, 40):  # the hidden NPC shown to the players, and hidden again
            change = rules.visibility_command(hidden, hidden=step == 40)
            services.run_command(pk, rules.command_to_dict(change), viewer=gm)
        elif prompts := prompting.open_prompts(state):
            answer = rules.prompt_command(state, prompts[0].id, prompts[0].options[-1][0])
            services.run_command(pk, rules.command_to_dict(answer), viewer=gm, answer_npcs=False)
            answers += 1
        else:
            for command in _next_commands(rules, autoplay, policy, table):
                try:
                    services.run_command(pk, command, viewer=gm, answer_npcs=False)
                    break
                except services.Refused:
                    continue
            else:
                raise AssertionError(f"nobody can act at step {step}: {view.label}")
    assert len(rounds) >= 3, rounds  # the walk went through the rounds, not stuck in one
    assert answers, "an attack asked for a defence on the way"


def _next_commands(rules: Any, autoplay: Any, policy: str, table: Any) -> list[dict[str, Any]]:
    """What the GM may try next, in order: the declarations waited on (Magus), each acting
    seat's autoplay step, the initiative rolls (Magus), the end of a turn."""
    view, now = table.view, clock.now()
    waited = [
        {"type": "declare", "action": "attack", "weapon": "Miecz", "actor": a} for a in view.waiting
    ]
    actors = [a for a in (view.current, *view.acting) if a]
    steps = [autoplay.autoplay_command(table.state, a, policy, now) for a in actors]
    commands = [rules.command_to_dict(c) for c in steps if c is not None]
    rolls = [{"type": "roll_initiative", "actor": a} for a in actors]
    ends = [{"type": "end_turn", "actor": a} for a in actors]
    return [*waited, *commands, *rolls, {"type": "roll_initiatives"}, *ends]


@translation.override("pl")
def test_a_prompt_comes_and_goes_as_a_card_of_its_own() -> None:
    """The prompts' region is not sent again: its card is added, then deleted by its id."""
    party = make_party()
    start(party)
    pk, gm = party.encounter.pk, party.gm_viewer
    bandit, milena = f"c{party.bandit.pk}", f"c{party.hero2.pk}"
    sockets = [Socket(gm), Socket(party.viewer(party.p2))]
    for socket, push in zip(sockets, live.render(pk, None, sockets), strict=True):
        socket.take(push)
    while (now := services.load_table(pk).state.current) != bandit:
        services.run_command(pk, {"type": "end_turn", "actor": now}, viewer=gm)
    for socket, push in zip(sockets, live.render(pk, None, sockets), strict=True):
        socket.take(push)
    attack = {"type": "declare_attack", "actor": bandit, "target": milena, "weapon": "Szabla"}
    services.run_command(pk, attack, viewer=gm)
    rules: Any = get_ruleset("eleora")
    (prompt,) = prompts_of(rules).open_prompts(services.load_table(pk).state)
    card = f'id="prompt-{prompt.id}"'
    for socket, push in zip(sockets, live.render(pk, None, sockets), strict=True):
        html = socket.take(push)
        assert '<div hx-swap-oob="afterbegin:#table-prompts">' in html and card in html
        assert 'id="table-prompts"' not in html.replace("#table-prompts", "")
    answer = rules.prompt_command(services.load_table(pk).state, prompt.id, prompt.options[0][0])
    services.run_command(pk, rules.command_to_dict(answer), viewer=gm)
    for socket, push in zip(sockets, live.render(pk, None, sockets), strict=True):
        html = socket.take(push)
        assert f'<div {card} hx-swap-oob="delete"></div>' in html
        assert 'id="table-prompts"' not in html.replace("#table-prompts", "")
