"""The d100 partials at the real table: the encounter page (the view a browser loads) and the
socket's snapshot, for the GM and both players (in Polish, and the regions in English too), in
every kind of state a fight reaches in either pace, render without a template error: no
variable missing (the templates run with `string_if_invalid` set), no msgid left unfilled,
nothing hidden shown to a player. A seeded walk then plays the commands the panels offer, as
GM and players, and renders after each.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import translation

from combat import fragments, services
from combat.access import Refused
from combat.rules.d100 import RULESET
from tests.combat.d100_table.helpers import (
    BANDIT,
    HERO1,
    HERO2,
    HOUR,
    SCOUT,
    WOLF,
    Clock,
    D100Table,
    Dice,
    make_d100_table,
    open_tab,
)
from tests.combat.table.helpers import stored_head

INVALID = "INVALID{%s}"


@pytest.fixture(autouse=True)
def strict_templates(settings: Any) -> None:
    """A variable a template reads that is not there shows as INVALID{name}."""
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0].setdefault("OPTIONS", {})["string_if_invalid"] = INVALID
    settings.TEMPLATES = templates


def problems(html: str, *, player: bool) -> list[str]:
    found = []
    if "INVALID{" in html:
        at = html.index("INVALID{")
        found.append(f"missing variable: {html[at : at + 60]}")
    if "%(" in html:
        at = html.index("%(")
        found.append(f"unfilled msgid: {html[max(0, at - 40) : at + 40]}")
    if player and SCOUT in html:
        found.append("the hidden scout shown to a player")
    return found


def page(t: D100Table, user: Any) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(t.encounter.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def check(t: D100Table, where: str, *, pages: bool = True) -> None:
    """Every region for each viewer (and the page each loads) renders cleanly."""
    for user in (t.gm, t.p1, t.p2):
        player = user != t.gm
        shown = [t.html(user)]
        if pages:  # the page as loaded, and the regions in English
            with translation.override("en"):
                shown.append(t.html(user))
            shown.append(page(t, user))
        for html in shown:
            assert not problems(html, player=player), (
                where,
                user.username,
                problems(html, player=player),
            )
        if not player:
            assert 'id="table-gm"' in shown[0]


# --- the states of a fight, one by one ---------------------------------------------------------


def live_states(t: D100Table, clock: Clock) -> Iterator[str]:
    yield "setup"
    t.run(t.gm, {"type": "start_combat"})
    yield "live: a player's turn"
    t.run(t.p1, {"type": "attack", "actor": t.seat(HERO1), "target": t.seat(BANDIT)})
    yield "live: an NPC's prompt"
    (prompt,) = t.state.prompts
    answer = {"type": "defend", "actor": t.seat(BANDIT), "prompt": prompt.id, "option": "blok"}
    t.run(t.gm, answer, Dice(5, 60, 5, 3))  # crit luck on the hit, the GM's d6, a huge blow
    yield "live: the NPC fallen, waiting for the GM"
    t.run(t.p1, {"type": "end_turn", "actor": t.seat(HERO1)})
    yield "live: the other player's turn"
    t.run(t.p2, {"type": "end_turn", "actor": t.seat(HERO2)})
    t.run(t.gm, {"type": "attack", "actor": t.seat(WOLF), "target": t.seat(HERO2)})
    yield "live: a player's prompt"
    clock.move(31)
    services.resolve_expired(t.pk)
    yield "live: the prompt landed as no reaction"
    t.run(t.gm, {"type": "decide_fallen", "target": t.seat(BANDIT), "outcome": "martwy"})
    for condition in ("krwawienie", "ogluszenie", "zachwianie"):
        command = {"type": "add_condition", "target": t.seat(HERO1), "condition": condition}
        t.run(t.gm, {**command, "turns": 2, "value": 3})
    yield "live: conditions and a dead NPC"
    t.run(t.gm, {"type": "gm_roll", "label": "Zasadzka", "threshold": 40, "secret": True})
    yield "live: a secret GM roll"
    t.run(t.gm, {"type": "end_combat", "winner": "druzyna"})
    yield "ended"


def post_states(t: D100Table, clock: Clock) -> Iterator[str]:
    t.run(t.gm, {"type": "set_pace", "pace": "post"})
    yield "setup by post"
    t.run(t.gm, {"type": "start_combat"})
    yield "post: the turn open"
    cut = {"kind": "attack", "target": t.seat(BANDIT), "choice": "w0"}
    t.run(t.p1, {"type": "post", "actor": t.seat(HERO1), "action": cut, "text": "Tnę."})
    yield "post: one post"
    spell = {"kind": "cast", "spell": 0, "target": t.seat(SCOUT)}
    t.run(t.gm, {"type": "post", "actor": t.seat(HERO2), "action": spell, "by_gm": True})
    yield "post: the GM's post for a player, at the hidden scout"
    clock.move(25 * HOUR)
    services.resolve_expired(t.pk)
    yield "post: closed"
    t.run(t.gm, {"type": "resolve_turn"}, Dice(rest=30))
    yield "post: resolved, the next turn open"
    t.run(t.gm, {"type": "set_pace", "pace": "live"})
    yield "live again"


@pytest.mark.django_db
@pytest.mark.parametrize("states", [live_states, post_states], ids=["live", "post"])
def test_every_state_of_a_fight_renders_for_everyone(
    states: Callable[[D100Table, Clock], Iterator[str]], server_clock: Clock
) -> None:
    t = make_d100_table(hidden_scout=True)
    for where in states(t, server_clock):
        check(t, where)


@pytest.mark.django_db(transaction=True)
async def test_the_sockets_snapshot_renders_in_each_state(server_clock: Clock) -> None:
    t = await database_sync_to_async(make_d100_table)(hidden_scout=True)
    for where in await database_sync_to_async(lambda: list(_walk_states(t, server_clock)))():
        for user in (t.gm, t.p1, t.p2):
            tab = await open_tab(t, user)
            assert not problems(tab.html, player=user != t.gm), (where, user.username)
            assert set(tab.regions) >= set(fragments.REGIONS)
            await tab.close()


def _walk_states(t: D100Table, clock: Clock) -> Iterator[str]:
    """A few states of each pace (the socket test opens its tabs in each)."""
    t.run(t.gm, {"type": "start_combat"})
    t.run(t.gm, {"type": "attack", "actor": t.seat(HERO1), "target": t.seat(WOLF)})
    yield "live prompt"
    services.undo(t.pk, viewer=t.gm_viewer, to_seq=t.seq - 1)
    t.run(t.p1, {"type": "end_turn", "actor": t.seat(HERO1)})
    t.run(t.gm, {"type": "set_pace", "pace": "post"})
    yield "post open"
    clock.move(25 * HOUR)
    services.resolve_expired(t.pk)
    yield "post closed"


# --- a seeded walk through what the panels offer -------------------------------------------------


FIGHT = ("start", "rozstrzygnij", "tempo_live", "tempo_post", "termin_od_teraz")


def offered(t: D100Table, user: Any, rng: random.Random) -> tuple[list[Any], list[Any]]:
    """The commands this user's panels offer now, with the values a form would add: those of
    the fight itself (a turn, a prompt, the start, the resolve), and the GM's others."""
    view = fragments.View(t.table, t.viewer(user))
    # d100's records (combat.rules.d100.table), typed as mappings by the View until the
    # rulesets' protocol names the records
    turn_panels: list[tuple[Any, Any]] = view.turn_panels
    gm_seat_panels: list[Any] = list(view.gm_seat_panels.values())
    gm = view.viewer.is_gm
    own = "wpis_mg" if gm else "wpis"  # the post form each is shown
    turn: list[Any] = []
    for _row, panel in turn_panels:
        for key, command in panel.commands.items():
            if key in ("wpis", "wpis_mg") and key != own:
                continue
            turn.append(fill(dict(command), key, panel, rng))
    for card in view.prompts:
        turn += list(card.answers.values())
    other: list[Any] = []
    if gm:
        main: Any = view.gm_panel
        for key, command in main.commands.items():
            (turn if key in FIGHT else other).append(fill(dict(command), key, main, rng))
        for panel in gm_seat_panels:
            other += [fill(dict(c), key, panel, rng) for key, c in panel.commands.items()]
        for posted in main.posts:
            if posted.panel is not None:
                commands = posted.panel.commands
                turn.append(fill(dict(commands["wpis_mg"]), "wpis_mg", posted.panel, rng))
    return [c for c in turn if c is not None], [c for c in other if c is not None]


def fill(
    command: dict[str, Any], key: str, panel: Any, rng: random.Random
) -> dict[str, Any] | None:
    kind = command["type"]
    if kind == "end_combat" or (kind == "free_action" and rng.random() < 0.7):
        return None  # the walk ends the fight itself, and takes few free actions
    if kind == "post":
        post = getattr(panel, "post", None)
        if post is not None and post.action_options:
            command["action"] = dict(rng.choice(post.action_options).value)
        command["defence"] = rng.choice(["", "unik", "blok", "best"])
        command["text"] = rng.choice(["", "Krótko.", "Długi opis " * 30])
    elif kind == "attack" and getattr(panel, "enemies", ()):
        command["target"] = rng.choice(panel.enemies).id
        choices = [c.key for c in panel.choices if c.available]
        command["choice"] = rng.choice(choices or [""])
    elif kind in ("damage", "heal"):
        command["amount"] = rng.randint(0, 70)
    elif kind == "add_condition":
        command["condition"] = rng.choice([k for k, _label in panel.condition_choices])
        command["turns"], command["value"] = rng.randint(0, 3), rng.randint(1, 5)
    elif kind == "remove_condition":
        if not panel.conditions:
            return None
        command["condition"] = rng.choice(panel.conditions).key
    elif kind == "fall":
        command["height"] = rng.randint(0, 20)
    elif kind == "gm_roll":
        command.update(secret=rng.random() < 0.5, label="Rzut")
    return command


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seeded_walk_through_the_offered_commands_renders_after_every_step(
    seed: int, server_clock: Clock
) -> None:
    rng = random.Random(seed)
    t = make_d100_table(hidden_scout=True)
    users = [t.gm, t.p1, t.p2]
    taken = 0
    for step in range(100):
        user = rng.choice(users)
        fight, other = offered(t, user, rng)
        choices = fight if fight and (rng.random() < 0.8 or not other) else other
        if rng.random() < 0.05:
            server_clock.move(rng.choice([10, 40, 30 * HOUR]))
            services.resolve_expired(t.pk)
        elif rng.random() < 0.04 and t.seq > 2:
            services.undo(t.pk, viewer=t.gm_viewer, to_seq=rng.randint(1, t.seq - 1))
        elif choices:
            command = rng.choice(choices)
            try:
                t.run(user, command, rng, answer_npcs=True)
                taken += 1
            except Refused:
                pass
        check(t, f"seed {seed}, step {step}", pages=step % 20 == 0)
    t.run(t.gm, {"type": "end_combat"})
    check(t, f"seed {seed}: ended")
    assert taken > 25
    # The stored head is what the log replays to.
    encounter = t.row()
    assert RULESET.state_to_dict(services.replay_state(encounter)) == stored_head(encounter)
