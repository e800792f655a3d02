"""Hidden means hidden (issue 23, Must have): a property-based test in every ruleset.

For random tables (in setup or in the fight) with hidden creatures standing on the battle map
next to player 1's hero, and random messages from player 1 over the real table socket (well
formed and broken: commands of the ruleset's registry, previews, routes and moves through the
hidden fields, probes of the hidden ids, garbage), nothing in any frame or answer player 1
gets names or locates a hidden seat:
- no hidden seat's name (its placeholder, or its tag) and no hidden seat's id (unless the
  message itself held that id, which a refusal may echo as it echoes a missing one);
- no refusal names a hidden seat's field;
- a route is answered exactly as it is on the same table with the hidden tokens off the map
  (the player's view of the field: a hidden token neither blocks nor bends a path).
A seat the message itself brought into view (a move that ran into it) is no longer a secret.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, get_type_hints

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.utils import translation
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from characters.models import Character, CreatureTemplate
from combat import consumers, fragments, services
from combat.access import Refused, Viewer
from combat.routing import websocket_urlpatterns
from combat.rules import battlemap
from combat.rules.base import RuleViolation, battle_maps_of
from combat.rules.battlemap import Resize
from combat.rules.d100.commands import COMMANDS as D100_COMMANDS
from combat.rules.eleora.commands import COMMANDS as ELEORA_COMMANDS
from combat.rules.magus.commands import COMMANDS as MAGUS_COMMANDS
from combat.rules.registry import get_ruleset
from tests.combat.table.test_fuzz import (
    Ident,
    Raw,
    Ref,
    exchange,
    garbage,
    junk,
    materialize,
    next_reply,
    plausible,
    weighted,
)
from tests.combat.table.test_numbering import d100, eleora, magus

app = URLRouter(websocket_urlpatterns)
BUILDERS = {"eleora": eleora, "d100": d100, "magus": magus}
REGISTRIES = {"eleora": ELEORA_COMMANDS, "d100": D100_COMMANDS, "magus": MAGUS_COMMANDS}
WIDTH, HEIGHT = 8, 6
PLACES = {  # where each seat's token stands: the hidden two right in hero 1's way
    "hero1": (1, 2),
    "spy": (2, 2),
    "wolf": (3, 2),
    "hero2": (1, 4),
    "bandit": (6, 5),
}
HIDDEN = ("spy", "wolf")


# --- the campaign (once per test) and a fresh table per example ------------------------------


@dataclass
class World:
    ruleset: str
    gm: User
    player: User
    kind: CreatureTemplate
    characters: dict[str, Character]  # hero1 (the player's), hero2, bandit


def make_world(ruleset: str) -> World:
    t = BUILDERS[ruleset]()
    everyone = Character.objects.filter(campaign=t.encounter.campaign_id).order_by("pk")
    heroes = [c for c in everyone if c.owner_id is not None]
    mine = next(c for c in heroes if c.owner_id == t.player.pk)
    other = next(c for c in heroes if c.owner_id != t.player.pk)
    bandit = next(c for c in everyone if c.owner_id is None)
    chars = {"hero1": mine, "hero2": other, "bandit": bandit}
    return World(ruleset, t.gm, t.player, t.kind, chars)


@dataclass
class Table:
    pk: int
    refs: dict[str, Any]
    player: Viewer


def open_table(world: World, running: bool, turn: str, seed: int) -> Table:
    """A new encounter: the three visible seats and two hidden creatures, every token on the
    map; `running`: the fight started, and turns passed on until `turn` acts (hero 1, or a
    hidden creature; as far as the rules let the GM pass them on)."""
    gm = Viewer(user_id=world.gm.pk, is_gm=True)
    campaign = world.characters["hero1"].campaign
    pk = services.create_encounter(campaign=campaign, name="Zasadzka", by=world.gm).pk
    chars = world.characters
    services.add_combatants(pk, viewer=gm, characters=[c.pk for c in chars.values()])
    services.add_combatants(pk, viewer=gm, creatures={world.kind.pk: 2}, hidden=True)
    seats = services.load_table(pk).view.seats
    ids = {name: f"c{c.pk}" for name, c in chars.items()}
    ids.update(zip(HIDDEN, [cid for cid, seat in seats.items() if seat.hidden], strict=True))
    services.edit_map(pk, viewer=gm, edit=Resize(WIDTH, HEIGHT))
    for name, cid in ids.items():
        services.place_token(pk, viewer=gm, seat=cid, to=PLACES[name])
    if running:
        dice = random.Random(seed)
        services.run_command(pk, {"type": "start_combat"}, viewer=gm, rng=dice)
        for _turn in range(8):
            current = [s.id for s in services.load_table(pk).view.seats.values() if s.current]
            if not current or current[0] == ids[turn]:
                break
            try:
                end = {"type": "end_turn", "actor": current[0]}
                services.run_command(pk, end, viewer=gm, rng=dice, answer_npcs=False)
            except (Refused, RuleViolation):
                break
    refs: dict[str, Any] = {
        **ids,
        "ghost": "c0",
        "gm": "gm",
        "prompt": "p1",
        **{f"pk:{name}": c.pk for name, c in chars.items()},
        "pk:spy": 2**31 - 2,
        "pk:wolf": world.kind.pk,
        "pk:ghost": 2**31 - 1,
    }
    return Table(pk, refs, Viewer(user_id=world.player.pk, is_gm=False))


# --- player 1's messages ---------------------------------------------------------------------

fields = st.tuples(st.integers(-1, WIDTH), st.integers(-1, HEIGHT)).map(list)
near = st.sampled_from([list(PLACES[n]) for n in HIDDEN] + [[4, 2], [2, 1], [3, 3], [4, 3]])
where = weighted((3, near), (1, fields))
someone = weighted((3, st.just(Ref("hero1"))), (2, st.sampled_from(HIDDEN).map(Ref)),
                   (1, st.sampled_from(["hero2", "bandit", "ghost"]).map(Ref)))  # fmt: skip
idents = st.integers(0, 30).map(Ident)


def route() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"type": st.just("route"), "actor": someone, "to": where},
        optional={"mode": st.sampled_from(["", "ruch", "bieg", "walk"])},
    )


def move() -> st.SearchStrategy[dict[str, Any]]:
    """A move of hero 1 along the row of the hidden tokens (or near it)."""
    straight = st.integers(1, 4).map(lambda n: [[1 + k, 2] for k in range(1, n + 1)])
    path = weighted((2, straight), (1, st.lists(where, min_size=1, max_size=4)))
    command = st.fixed_dictionaries(
        {"type": st.just("move"), "actor": st.just(Ref("hero1")), "path": path}
    )
    return st.fixed_dictionaries({"type": st.just("command"), "id": idents, "command": command})


def command_of(ruleset: str) -> st.SearchStrategy[dict[str, Any]]:
    """A command of the ruleset's registry, its people drawn among the seats (hidden too)."""
    registry: dict[str, Any] = REGISTRIES[ruleset]

    def build(key: str) -> st.SearchStrategy[dict[str, Any]]:
        cls = registry[key]
        hints = get_type_hints(cls)
        required: dict[str, st.SearchStrategy[Any]] = {"type": st.just(key)}
        optional: dict[str, st.SearchStrategy[Any]] = {}
        for f in dataclasses.fields(cls):
            if f.name == "now":
                continue
            values = (
                someone
                if f.name in ("actor", "target")
                else plausible(hints[f.name], f.name, someone)
            )
            needed = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            (required if needed or f.name in ("actor", "target") else optional)[f.name] = values
        return st.fixed_dictionaries(required, optional=optional)

    player_types = sorted(k for k, cls in registry.items() if not cls.gm_only)
    return st.sampled_from(player_types).flatmap(build)


def message_for(ruleset: str) -> st.SearchStrategy[Any]:
    command = st.fixed_dictionaries(
        {"type": st.just("command"), "id": idents, "command": command_of(ruleset)}
    )
    preview = st.fixed_dictionaries({"type": st.just("preview"), "command": command_of(ruleset)})
    play = st.fixed_dictionaries(
        {"type": st.sampled_from(["play", "policy", "autoplay"]), "id": idents,
         "combatant": someone, "policy": st.sampled_from(["", "ask", "brak"])}
    )  # fmt: skip
    well_formed = weighted((3, route()), (3, move()), (3, command), (2, preview), (1, play))

    @st.composite
    def broken(draw: st.DrawFn) -> dict[str, Any]:
        message = draw(well_formed)
        inner = message.get("command")
        at = inner if isinstance(inner, dict) and draw(st.booleans()) else message
        at[draw(st.sampled_from(sorted(at)))] = draw(junk)
        return message

    return weighted((7, well_formed), (2, broken()), (1, garbage))


# --- what player 1 may not learn -------------------------------------------------------------


@dataclass(frozen=True)
class Secrets:
    """The hidden seats of a table: their names, ids and fields."""

    names: frozenset[str]
    ids: frozenset[str]
    labels: frozenset[str]


def secrets_at(pk: int) -> Secrets:
    table = services.load_table(pk)
    hidden = [seat for seat in table.view.seats.values() if seat.hidden]
    names = {seat.name for seat in hidden}
    names |= {m.group(0) for seat in hidden if (m := re.search(r"\?\w+$", seat.name))}
    labels = {battlemap.label(seat.position) for seat in hidden if seat.position is not None}
    return Secrets(frozenset(names), frozenset(s.id for s in hidden), frozenset(labels))


def both(a: Secrets, b: Secrets) -> Secrets:
    """What was secret before a message and still is after it."""
    return Secrets(a.names & b.names, a.ids & b.ids, a.labels & b.labels)


def texts_of(reply: dict[str, Any]) -> str:
    return f"{reply.get('html') or ''}\n{reply.get('message') or ''}"


def check(reply: dict[str, Any], secret: Secrets, sent: str, what: str) -> None:
    text = texts_of(reply)

    def where(s: str) -> str:
        at = text.find(s)
        return f"{what}: {s!r} in …{text[max(0, at - 200) : at + 80]}…"

    for name in secret.names:
        assert name not in text, where(name)
    for cid in secret.ids:
        pattern = rf"(?<![\w-]){re.escape(cid)}(?![\w-])"
        if re.search(pattern, text) and not re.search(pattern, sent):
            raise AssertionError(where(cid))
    if reply.get("t") == "error":
        for label in secret.labels:
            assert not re.search(rf"\b{label}\b", text), where(label)


def view_without_hidden_tokens(pk: int) -> Any:
    """The table as the player's view of the field has it: the hidden tokens off the map."""
    table = services.load_table(pk)
    rules = get_ruleset(table.ruleset)
    maps = battle_maps_of(rules)
    assert maps is not None
    state = table.state
    for seat in table.view.seats.values():
        if seat.hidden and seat.position is not None:
            command = maps.place_command(seat.id, None, 0.0)
            state = rules.replay(state, rules.decide(state, command, random.Random(0)))
    return dataclasses.replace(table, state=state)


def twin_route(pk: int, viewer: Viewer, sent: dict[str, Any]) -> str:
    twin = view_without_hidden_tokens(pk)
    to = sent.get("to")
    at = (int(to[0]), int(to[1])) if isinstance(to, list) else None
    with translation.override("pl"):
        return fragments.render_route(
            twin, viewer, str(sent["actor"]), at, str(sent.get("mode", ""))
        )


# --- playing a script over player 1's socket ------------------------------------------------


async def connect(pk: int, user: User) -> WebsocketCommunicator:
    ws = WebsocketCommunicator(app, f"/ws/encounters/{pk}/")
    ws.scope["user"] = user
    connected, code = await ws.connect()
    assert connected, code
    return ws


async def play(world: World, table: Table, script: list[Any]) -> list[str]:
    """Send the script over player 1's socket, checking every frame; the leaks found."""
    leaks: list[str] = []
    secret = await sync_to_async(secrets_at)(table.pk)
    ws = await connect(table.pk, world.player)
    try:
        first = await next_reply(ws)
        check(first, secret, "", "the first push")
        for n, message in enumerate(script):
            frame = message if isinstance(message, Raw) else None
            sent_json: Any = None
            if frame is None:
                sent_json = materialize(message, table.refs, 0)
                frame = Raw(text=json.dumps(sent_json))
            replies = await exchange(ws, frame, n)
            while not ws.output_queue.empty():
                replies.append(await next_reply(ws))
            after = await sync_to_async(secrets_at)(table.pk)
            kept = both(secret, after)
            for reply in replies:
                try:
                    check(reply, kept, frame.text or "", f"answer to {frame.text!r}")
                except AssertionError as leak:
                    leaks.append(str(leak))
            if isinstance(sent_json, dict) and sent_json.get("type") == "route":
                leaks += await sync_to_async(compare_route)(table, sent_json, replies)
            secret = after
    finally:
        if not ws.future.done():
            await ws.disconnect(timeout=0.1)
    return leaks


def now_less(html: str) -> str:
    """The route's form without the moment it was drawn (`c.now`)."""
    return re.sub(r'name="c\.now" value="[^"]*"', 'name="c.now"', html)


def compare_route(table: Table, sent: dict[str, Any], replies: list[dict[str, Any]]) -> list[str]:
    """A route's answer is the one the table gives without the hidden tokens."""
    to = sent.get("to")
    actor = sent.get("actor")
    if not (isinstance(to, list) and len(to) == 2 and isinstance(actor, str)):
        return []
    swaps = [r for r in replies if r.get("t") == "swap" and "seq" not in r]
    if len(swaps) != 1:
        return []
    expected, got = now_less(twin_route(table.pk, table.player, sent)), now_less(swaps[0]["html"])
    if got != expected:
        at = len(os.path.commonprefix([got, expected]))
        return [f"route {sent!r} differs from the player's view of the field:\n"
                f"  got      …{got[max(0, at - 80) : at + 160]!r}\n"
                f"  expected …{expected[max(0, at - 80) : at + 160]!r}"]  # fmt: skip
    return []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("ruleset", sorted(BUILDERS))
def test_nothing_a_player_gets_names_or_locates_a_hidden_seat(
    ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(consumers, "BURST", 10**9)  # flooding has its own test
    world = make_world(ruleset)
    leaks: list[str] = []

    @hypothesis_settings(
        max_examples=12,
        derandomize=True,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(
        running=st.booleans(),
        turn=st.sampled_from(["hero1", *HIDDEN]),
        seed=st.integers(0, 2**16),
        script=st.lists(message_for(ruleset), min_size=6, max_size=12),
    )
    def explore(running: bool, turn: str, seed: int, script: list[Any]) -> None:
        table = open_table(world, running, turn, seed)
        leaks.extend(async_to_sync(play)(world, table, script))

    explore()
    assert not leaks, f"{len(leaks)} leaks; the first ones:\n" + "\n".join(_firsts(leaks))


def _firsts(leaks: Iterable[str], n: int = 8) -> list[str]:
    """The kinds of leak found (how many of each), then one example of each, at most `n`."""
    kinds: dict[str, list[str]] = {}
    for leak in leaks:
        kinds.setdefault(_kind(leak), []).append(leak)
    tally = [f"{len(found):3} × {kind}" for kind, found in kinds.items()]
    return [*tally, *(found[0] for found in list(kinds.values())[:n])]


def _kind(leak: str) -> str:
    """A leak without its particulars: a route that differs, or the refusal's words."""
    if leak.startswith("route "):
        return "a route differs from the player's view of the field"
    told = leak.split("…", 2)[1] if leak.count("…") >= 2 else leak
    told = re.sub(r"\?[A-Z0-9]+|\b[A-H][1-9]\b|\bc\d+|\bt\d+-\w+", "<?>", told.strip())
    return told[:80]
