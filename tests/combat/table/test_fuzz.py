"""Fuzzing the live table (hypothesis): some 1,300 generated socket messages and 350 form posts.

Sockets: every example opens a fresh table with secrets planted (a hidden NPC, a secret GM roll,
player 2's prompt) and sends 20-50 messages, one at a time, over the GM's and both players'
sockets: mostly well-formed protocol messages with commands of every type in the ruleset's
registry, some broken on purpose, some garbage. After each message: the consumer did not crash
or close; it answered (or had nothing to say); a refused message left the stored table as it
was; a player changed the table only with a command of their own character; no player's push
holds what they may not see at that seq (the hidden NPC, NPC health numbers, the secret roll,
another's prompt, the GM's panel); the log replays to the stored head.

Forms: the GM, player 1 and a stranger post generated data to the encounter, campaign, settings,
character and import forms: never a server error, a refusal (403/404 to those without access,
the form again with its errors) changes no row, and a success changes only its own rows.

Combatants, prompts, users and command ids are drawn as symbols (`Ref`, `Ident`, `Head`) and
replaced by the real ids when sent. The last tests are what the fuzz found, one message each.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.db.models import Count
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from characters.models import Campaign, Character, CreatureTemplate, Membership
from combat import consumers, protocol, services
from combat.models import Encounter, EncounterEntry
from combat.routing import websocket_urlpatterns
from combat.rules.eleora import conditions as cond
from combat.rules.eleora.commands import COMMANDS
from combat.rules.registry import get_ruleset
from combat.services import Viewer
from tests.characters.helpers import (
    client_for,
    make_campaign,
    make_creature,
    make_member,
    make_sheet,
    make_user,
    make_weapon,
    sheet_post,
)
from tests.combat.table.helpers import stored_head

app = URLRouter(websocket_urlpatterns)

SPY = "Cichy Szpieg"  # a hidden NPC: its name is the secret
SECRET_ROLL = "Tajny rzut Mistrza 7319"  # the label of a secret GM roll
HEALTH = re.compile(r"/(\d+)</span>")  # "12/18</span>": a combatant's health in numbers
# A prompt card shown (a card that left the page is deleted by its id: that shows nothing).
PROMPT = re.compile(r'id="prompt-([^"]*)"(?! hx-swap-oob="delete")')
GM_PANEL = 'id="table-gm"'
SENDERS = ("gm", "p1", "p2")


# --- the campaign and a fresh table per example ---------------------------------------------


@dataclass
class World:
    """The campaign every example plays in: a GM, two players, their heroes and two NPCs."""

    users: dict[str, User]
    campaign: Campaign
    characters: dict[str, Character]
    wolf: CreatureTemplate


def make_world() -> World:
    gm = make_user("fuzz-mg")
    campaign = make_campaign(gm, "Fuzz")
    campaign.settings = {**campaign.settings, "reaction_timeout_s": 600}  # no expiry mid-test
    campaign.save()
    p1, p2 = make_member(campaign, "fuzz-g1"), make_member(campaign, "fuzz-g2")

    def character(name: str, owner: User | None, krzepa: int) -> Character:
        sheet = make_sheet(
            attributes={"zrecznosc": 3, "intuicja": 2, "krzepa": krzepa},
            skills={"bron_lekka": 3},
            weapons=[make_weapon("Szabla", damage=3)],
        )
        kind = Character.Kind.PC if owner else Character.Kind.NPC
        return Character.objects.create(
            campaign=campaign, owner=owner, name=name, sheet=sheet, kind=kind
        )

    characters = {  # Zdrowie 13, 13, 18 and 25: an NPC's number tells whose it is
        "hero1": character("Radosław", p1, 2),
        "hero2": character("Milena", p2, 2),
        "bandit": character("Bandyta", None, 3),
        "spy": character(SPY, None, 4),
    }
    wolf = make_creature(campaign, "Wilk", make_sheet(weapons=[make_weapon("Ugryzienie")]))
    return World({"gm": gm, "p1": p1, "p2": p2}, campaign, characters, wolf)


@dataclass
class Table:
    """One example's encounter and the real ids its symbols stand for."""

    pk: int
    refs: dict[str, Any]
    viewers: dict[str, Viewer]


def open_table(world: World, phase: str) -> Table:
    """A new encounter with the secrets planted: the hidden spy, a secret GM roll and, in the
    "prompt" phase, the bandit's attack waiting for Milena's (player 2's) answer."""
    gm = world.users["gm"]
    encounter = services.create_encounter(campaign=world.campaign, name="Fuzz", by=gm)
    pk, chars = encounter.pk, world.characters
    viewers = {
        name: Viewer(user_id=user.pk, is_gm=name == "gm") for name, user in world.users.items()
    }
    cid = {name: f"c{c.pk}" for name, c in chars.items()}
    visible = [chars[name].pk for name in ("hero1", "hero2", "bandit")]
    services.add_combatants(pk, viewer=viewers["gm"], characters=visible)
    services.add_combatants(pk, viewer=viewers["gm"], characters=[chars["spy"].pk], hidden=True)

    def run(command: dict[str, Any]) -> None:
        services.run_command(pk, command, viewer=viewers["gm"])

    if phase != "setup":
        rolls = {cid["hero1"]: [6, 6], cid["hero2"]: [4, 4], cid["bandit"]: [2, 1]}
        run({"type": "start_combat", "rolls": {**rolls, cid["spy"]: [1, 1]}})
    run({"type": "gm_roll", "dice": 2, "label": SECRET_ROLL, "secret": True})
    if phase == "prompt":
        run({"type": "end_turn", "actor": cid["hero1"]})
        run({"type": "end_turn", "actor": cid["hero2"]})
        attack = {"target": cid["hero2"], "weapon": "Szabla", "actor": cid["bandit"]}
        run({"type": "declare_attack", **attack})
        assert [p.actor for p in services.load_table(pk).state.prompts] == [cid["hero2"]]
    refs: dict[str, Any] = {
        **cid,
        "wolf": f"t{world.wolf.pk}-1",  # there once the GM adds wolves
        "ghost": "c0",
        "gm": "gm",
        "prompt": "p1",
        **{f"pk:{name}": c.pk for name, c in chars.items()},
        "pk:wolf": world.wolf.pk,
        "pk:ghost": 2**31 - 1,
    }
    return Table(pk, refs, viewers)


# --- symbols in generated messages ----------------------------------------------------------


@dataclass(frozen=True)
class Ref:
    """A combatant, the prompt, or a character/creature pk ("pk:spy") of the example's table."""

    name: str


@dataclass(frozen=True)
class Ident:
    """Command id number k: the same k twice is the same id (a resent command)."""

    k: int


@dataclass(frozen=True)
class Head:
    """The table's seq when the message is sent, plus `delta`."""

    delta: int


@dataclass(frozen=True)
class Raw:
    """A frame sent as it is: text, or bytes."""

    text: str | None = None
    data: bytes | None = None

    def __repr__(self) -> str:  # an 8 KB frame would fill a failure report
        shown = repr(self.text if self.data is None else self.data)
        return f"Raw({shown[:60]}{'…' if len(shown) > 60 else ''})"


def materialize(value: Any, refs: Mapping[str, Any], head: int) -> Any:
    if isinstance(value, Ref):
        return refs[value.name]
    if isinstance(value, Ident):
        return f"m-{value.k}"
    if isinstance(value, Head):
        return max(0, head + value.delta)
    if isinstance(value, dict):
        return {
            str(materialize(k, refs, head)): materialize(v, refs, head) for k, v in value.items()
        }
    if isinstance(value, list):
        return [materialize(v, refs, head) for v in value]
    return value


# --- strategies -----------------------------------------------------------------------------


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """One of the strategies, in proportion to its weight (`one_of` has a mind of its own)."""
    pool = [strategy for weight, strategy in choices for _n in range(weight)]
    return st.sampled_from(range(len(pool))).flatmap(lambda index: pool[index])


PEOPLE = ("hero1", "hero2", "bandit", "spy", "wolf")
OWN = {"p1": "hero1", "p2": "hero2"}
CHARACTER_REFS = ("pk:hero1", "pk:hero2", "pk:bandit", "pk:spy", "pk:ghost")
CONDITIONS = sorted(k for k, spec in cond.SPECS.items() if not spec.derived)
PLAYER_TYPES = sorted(k for k, cls in COMMANDS.items() if not cls.gm_only)

# Well-formed values, by field name: most messages are ones the table could accept.
small = st.integers(0, 4)
people = st.sampled_from(PEOPLE).map(Ref)
words = st.sampled_from(["", "Zasadzka", "druzyna", "przeciwnicy", "<b>pół</b>", "nul\x00"])
square = st.tuples(small, small).map(list)
pair = st.tuples(st.integers(1, 6), st.integers(1, 6)).map(list)
BY_NAME: dict[str, st.SearchStrategy[Any]] = {
    "dice": st.integers(1, 6),
    "by": st.integers(1, 3),
    "difficulty": st.integers(1, 4),
    "stacks": st.integers(1, 3),
    "turns": st.integers(1, 3),
    "weapon": st.sampled_from(["Szabla", "wrecz", "Ugryzienie"]),
    "item": st.sampled_from(["Szabla", "Tarcza"]),
    "shield": st.just("Tarcza"),
    "prompt": st.just(Ref("prompt")),
    "condition": st.sampled_from(CONDITIONS),
    "winner": st.sampled_from(["druzyna", "przeciwnicy"]),
    "surprise_side": st.sampled_from(["druzyna", "przeciwnicy"]),
    "roll": pair,
    "rolls": st.dictionaries(people, pair, max_size=3),
    "targets": st.lists(people, max_size=3),
    "combatant": st.dictionaries(words, words, max_size=2),
}
PEOPLE_FIELDS = {"target", "ally", "attacker", "source"}

# Everything else: the values a broken or hostile client sends.
texts = st.text(max_size=24)
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),  # NaN and infinities too: Python's json sends and reads them
    texts,
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=12,
)
junk = st.one_of(
    json_values,
    st.sampled_from([-1, -(2**63), 2**31 - 1, 2**31, 2**53 + 1, 10**30, 1e300, -0.0]),
    st.just("ż" * 501),  # over the commands' 500-character limit
    st.sampled_from(["ghost", "gm", "spy", "prompt"]).map(Ref),  # nobody, the GM, a secret
)
bad_ids = st.one_of(texts, st.integers(), st.sampled_from(["", "x" * 65, "<script>", "a b"]))


def actors_for(sender: str) -> st.SearchStrategy[Ref]:
    """Mostly a player's own character (so that much is accepted), else anyone."""
    if sender in OWN:
        return weighted((2, st.just(Ref(OWN[sender]))), (1, people))
    return people


def plausible(tp: Any, name: str, actors: st.SearchStrategy[Ref]) -> st.SearchStrategy[Any]:
    """A well-formed value for a command field of this type, with symbols for ids."""
    origin, args = get_origin(tp), get_args(tp)
    if origin in (Union, types.UnionType):
        return st.one_of(
            *(st.none() if a is type(None) else plausible(a, name, actors) for a in args)
        )
    if name == "actor":
        return actors
    if name in BY_NAME:
        return BY_NAME[name]
    if name in PEOPLE_FIELDS:
        return people
    if origin is Literal:
        return st.sampled_from(args)
    if isinstance(tp, type) and issubclass(tp, Enum):
        return st.sampled_from([e.value for e in tp])
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(plausible(args[0], name, actors), max_size=3)
        return square
    simple = {bool: st.booleans(), int: small, float: st.floats(0, 1e9), str: words}
    return simple.get(tp, json_values)


def commands(sender: str) -> st.SearchStrategy[dict[str, Any]]:
    """A command from the ruleset's registry (mostly one a player may send, for a player),
    with its required fields and some of the optional ones."""
    types_ = st.sampled_from(sorted(COMMANDS))
    if sender in OWN:
        types_ = weighted((1, st.sampled_from(PLAYER_TYPES)), (1, types_))
    return types_.flatmap(lambda key: command_of(key, actors_for(sender)))


def command_of(key: str, actors: st.SearchStrategy[Ref]) -> st.SearchStrategy[dict[str, Any]]:
    cls = COMMANDS[key]
    hints = get_type_hints(cls)
    required: dict[str, st.SearchStrategy[Any]] = {"type": st.just(key)}
    optional: dict[str, st.SearchStrategy[Any]] = {}
    for f in dataclasses.fields(cls):
        if f.name == "now":
            continue
        needed = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        values = plausible(hints[f.name], f.name, actors)
        if f.name == "actor" and cls.gm_only:
            values = st.one_of(st.just("gm"), values)
        (required if needed or f.name == "actor" else optional)[f.name] = values
    return st.fixed_dictionaries(required, optional=optional)


def attacks(sender: str) -> st.SearchStrategy[dict[str, Any]]:
    """What a preview is for: an attack by one of the sender's (or anyone) on anyone."""
    return st.fixed_dictionaries(
        {
            "type": st.just("declare_attack"),
            "actor": actors_for(sender),
            "target": people,
            "weapon": BY_NAME["weapon"],
        },
        optional={"flat": st.booleans(), "heroism": st.booleans()},
    )


idents = st.integers(0, 60).map(Ident)


def well_formed(kind: str, sender: str) -> st.SearchStrategy[dict[str, Any]]:
    """A message of this kind that fits the protocol, with plausible fields."""
    base = {"type": st.just(kind)}
    if kind == "command":
        return st.fixed_dictionaries(
            {**base, "id": idents, "command": commands(sender)},
            optional={"seq": st.integers(-1, 0).map(Head)},
        )
    if kind == "preview":
        command = weighted((2, attacks(sender)), (1, commands(sender)))
        return st.fixed_dictionaries({**base, "command": command})
    if kind == "add":
        creatures = st.dictionaries(st.just(Ref("pk:wolf")), st.integers(1, 3), max_size=1)
        return st.fixed_dictionaries(
            {**base, "id": idents},
            optional={
                "characters": st.lists(st.sampled_from(CHARACTER_REFS).map(Ref), max_size=2),
                "creatures": creatures,
                "side": st.sampled_from(["druzyna", "przeciwnicy", "Bandyci", "nul\x00"]),
                "hidden": st.booleans(),
            },
        )
    if kind == "undo":
        to = st.one_of(st.integers(-4, -1).map(Head), st.integers(0, 6))
        return st.fixed_dictionaries({**base, "id": idents, "to": to})
    if kind == "policy":
        return st.fixed_dictionaries(
            {
                **base,
                "combatant": st.sampled_from(["bandit", "spy", "wolf"]).map(Ref),
                "policy": st.sampled_from(["ask", "lepsza", "unik", "parowanie", "brak"]),
            }
        )
    return st.fixed_dictionaries(base, optional={"seq": st.integers(-1, 0).map(Head)})  # sync


@st.composite
def broken(draw: st.DrawFn, kind: str, sender: str) -> dict[str, Any]:
    """A well-formed message with one thing wrong: a value, a key too many or too few, an id."""
    message = draw(well_formed(kind, sender))
    command = message.get("command")
    where = command if isinstance(command, dict) and draw(st.booleans()) else message
    how = draw(st.sampled_from(["junk", "junk", "drop", "extra", "id"]))
    key = draw(st.sampled_from(sorted(where)))
    if how == "junk":
        where[key] = draw(junk)
    elif how == "drop":
        del where[key]
    elif how == "extra":
        where[draw(texts)] = draw(junk)
    else:
        message["id"] = draw(bad_ids)
    return message


garbage = st.one_of(
    st.text(max_size=80).map(lambda t: Raw(text=t)),
    json_values.map(lambda v: Raw(text=json.dumps(v))),
    st.binary(max_size=40).map(lambda b: Raw(data=b)),
    st.just(Raw(text="x" * (protocol.MAX_BYTES + 1))),
)
KINDS = {
    "gm": ["command"] * 5 + ["preview", "add", "add", "undo", "undo", "policy", "sync"],
    "player": ["command"] * 6 + ["preview", "preview", "add", "undo", "policy", "sync"],
}


def message_for(sender: str) -> st.SearchStrategy[Any]:
    """Six in ten well-formed, two broken, two garbage."""
    kinds = st.sampled_from(KINDS["gm" if sender == "gm" else "player"])
    shape = st.sampled_from(["fine"] * 6 + ["broken"] * 2 + ["garbage"] * 2)

    def build(shape_kind: tuple[str, str]) -> st.SearchStrategy[Any]:
        shape, kind = shape_kind
        if shape == "garbage":
            return garbage
        return well_formed(kind, sender) if shape == "fine" else broken(kind, sender)

    return st.tuples(shape, kinds).flatmap(build)


def scripts(senders: tuple[str, ...]) -> st.SearchStrategy[list[tuple[str, Any]]]:
    step = st.sampled_from(senders).flatmap(lambda s: st.tuples(st.just(s), message_for(s)))
    return st.lists(step, min_size=20, max_size=50)


@dataclass(frozen=True)
class Plan:
    phase: str
    script: list[tuple[str, Any]]


plans = st.builds(
    Plan,
    phase=st.sampled_from(["setup", "turn", "prompt"]),
    script=st.sampled_from([("p1", "p2"), SENDERS]).flatmap(scripts),
)


# --- what a player may see ------------------------------------------------------------------


@dataclass(frozen=True)
class Secrets:
    """What the players may not see at one seq of the table."""

    spy_present: bool
    spy_visible: bool
    hidden_health: frozenset[int]  # Zdrowie maxima of NPCs whose numbers are not revealed
    prompt_owners: Mapping[str, str | None]  # prompt id -> controller of its combatant


def secrets_of(state: Any, spy: str) -> Secrets:
    everyone = state.combatants.values()
    shown = {c.max_health for c in everyone if not c.hidden and (c.controller or c.stats_revealed)}
    npcs = {c.max_health for c in everyone if c.controller is None and not c.stats_revealed}
    return Secrets(
        spy_present=spy in state.combatants,
        spy_visible=spy in state.combatants and not state.combatants[spy].hidden,
        hidden_health=frozenset(npcs - shown),
        prompt_owners={p.id: state.combatants[p.actor].controller for p in state.prompts},
    )


@dataclass(frozen=True)
class Look:
    """The table as stored: none of it may move when a message is refused."""

    seq: int
    phase: str
    state: Any
    npc_policies: Any
    entries: int


def look(pk: int) -> Look:
    """The row's seq, phase, head state (as the database gives it: `stored_head`), NPC
    settings and entry count."""
    row = (
        Encounter.objects.filter(pk=pk)
        .annotate(entries_count=Count("entries"))
        .values_list("seq", "phase", "npc_policies", "entries_count")
        .get()
    )
    seq, phase, npc_policies, entries = row
    return Look(seq, phase, stored_head(Encounter.objects.get(pk=pk)), npc_policies, entries)


def logged(pk: int, command_id: Any, until: int) -> bool:
    """Whether the log held this command id by entry `until` (a resend is answered once)."""
    entries = EncounterEntry.objects.filter(encounter_id=pk, seq__lte=until)
    return isinstance(command_id, str) and entries.filter(command_id=command_id).exists()


def entries_after(pk: int, seq: int) -> list[tuple[int, Any, int | None]]:
    rows = EncounterEntry.objects.filter(encounter_id=pk, seq__gt=seq).order_by("seq")
    return list(rows.values_list("seq", "events", "undo_to"))


def author(pk: int, seq: int) -> int | None:
    return EncounterEntry.objects.filter(encounter_id=pk, seq=seq).values_list("user_id").get()[0]


@dataclass
class Watch:
    """One example's table as the test follows it, message by message."""

    table: Table
    by_seq: dict[int, Secrets] = field(default_factory=dict)
    spy_seen_at: int | None = None
    last_seq: dict[str, int] = field(default_factory=dict)
    head: int = 0
    state: Any = None  # the head's state, decoded

    def record(self, now: Look, entries: list[tuple[int, Any, int | None]]) -> None:
        """Replay the entries appended since the last look, so that every seq a push may
        carry has its own secrets; the replay must end in the stored head."""
        rules = get_ruleset("eleora")
        head = rules.state_from_dict(now.state)
        state = self.state
        for seq, events, undo_to in entries:
            if undo_to is None and state is not None:
                state = rules.replay(state, (rules.event_from_dict(e) for e in events))
            else:  # an undo is one message's only entry
                assert seq == now.seq, entries
                state = head
            self.remember(seq, state)
        if state is None:  # the first look: every seq so far (no push carries older ones)
            for seq in range(now.seq + 1):
                self.remember(seq, head)
        else:
            assert rules.state_to_dict(state) == now.state, "the log does not replay to the head"
        self.state, self.head = head, now.seq

    def remember(self, seq: int, state: Any) -> None:
        secrets = secrets_of(state, self.table.refs["spy"])
        self.by_seq[seq] = secrets
        if secrets.spy_visible and self.spy_seen_at is None:
            self.spy_seen_at = seq

    def check_push(self, who: str, reply: dict[str, Any]) -> None:
        """A frame pushed to `who`: a swap (or an ack, which only moves the seq on)."""
        assert reply.get("t") in ("swap", "ack"), reply
        seq = reply.get("seq")
        if seq is not None:  # a preview has no seq: it is rendered at the head
            assert seq >= self.last_seq.get(who, 0), f"{who}: seq went back to {seq}"
            self.last_seq[who] = seq
        if reply["t"] == "swap" and who != "gm":
            assert isinstance(reply.get("html"), str), reply
            self.check_player_html(who, reply["html"], self.head if seq is None else seq)

    def check_player_html(self, who: str, html: str, seq: int) -> None:
        secrets = self.by_seq[seq]

        def where(text: str) -> str:
            at = html.find(text)
            return f"{who} at seq {seq}: …{html[max(0, at - 300) : at + 80]}…"

        assert SECRET_ROLL not in html, where(SECRET_ROLL)
        assert GM_PANEL not in html, where(GM_PANEL)
        if SPY in html:  # seen once, its name may stay in the log of a table it has left
            seen = self.spy_seen_at is not None and self.spy_seen_at <= seq
            assert secrets.spy_visible or (seen and not secrets.spy_present), where(SPY)
        for number in HEALTH.findall(html):
            assert int(number) not in secrets.hidden_health, where(f"/{number}</span>")
        controller = self.table.viewers[who].controller
        for prompt in PROMPT.findall(html):
            assert secrets.prompt_owners.get(prompt) == controller, where(f"prompt-{prompt}")


# --- playing a script over three sockets ----------------------------------------------------


async def connect(table: Table, user: User) -> WebsocketCommunicator:
    ws = WebsocketCommunicator(app, f"/ws/encounters/{table.pk}/")
    ws.scope["user"] = user
    connected, code = await ws.connect()
    assert connected, code
    return ws


async def next_reply(ws: WebsocketCommunicator) -> dict[str, Any]:
    """The next frame the socket sends; a close, or the consumer's exception, fails here (at
    once: `receive_output` would only notice a crashed consumer after its timeout)."""
    get = asyncio.ensure_future(ws.output_queue.get())
    await asyncio.wait({get, ws.future}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
    if not get.done():
        get.cancel()
        if ws.future.done():
            ws.future.result()  # the consumer's own exception, with its traceback
        raise AssertionError("no reply from the socket in 10 s")
    out = get.result()
    assert out["type"] == "websocket.send", f"the socket closed: {out}"
    reply: dict[str, Any] = json.loads(out["text"])
    return reply


async def exchange(ws: WebsocketCommunicator, frame: Raw, n: int) -> list[dict[str, Any]]:
    """Send `frame`, then a fence (a message of an unknown type): every reply to the frame
    comes before the fence's error, as a socket handles its messages one at a time."""
    # send_input, not send_to: an empty frame is a frame too
    if frame.data is not None:
        await ws.send_input({"type": "websocket.receive", "bytes": frame.data})
    else:
        await ws.send_input({"type": "websocket.receive", "text": frame.text or ""})
    await ws.send_to(text_data=json.dumps({"type": f"fence-{n}"}))
    replies: list[dict[str, Any]] = []
    while True:
        reply = await next_reply(ws)
        if reply.get("t") == "error" and f"'fence-{n}'" in reply.get("message", ""):
            return replies
        replies.append(reply)


def frame_of(message: Any, table: Table, head: int) -> tuple[Raw, Any]:
    """The frame to send and the JSON it holds (None when it holds none)."""
    if isinstance(message, Raw):
        try:
            return message, json.loads(message.text or "")
        except ValueError:
            return message, None
    sent = materialize(message, table.refs, head)
    return Raw(text=json.dumps(sent)), sent


async def play(world: World, table: Table, script: list[tuple[str, Any]]) -> int:
    """Send the script over three sockets (the GM's and both players'), checking every answer
    and every push; the number of messages that changed the table."""
    watch, changes = Watch(table), 0
    before = await sync_to_async(look)(table.pk)
    watch.record(before, [])
    sockets = {name: await connect(table, world.users[name]) for name in SENDERS}
    try:
        for name, ws in sockets.items():
            watch.check_push(name, await next_reply(ws))
        for n, (sender, message) in enumerate(script):
            frame, sent = frame_of(message, table, before.seq)
            state = watch.state
            replies = await exchange(sockets[sender], frame, n)
            after = await sync_to_async(look)(table.pk)
            if after.seq > before.seq:
                watch.record(after, await sync_to_async(entries_after)(table.pk, before.seq))
            outcome = Outcome(table, sender, sent, replies, before, after, state)
            if not replies:
                outcome.resent = await sync_to_async(logged)(table.pk, outcome.id, before.seq)
            if sender != "gm" and after != before:
                outcome.author = await sync_to_async(author)(table.pk, before.seq + 1)
            outcome.check()
            changes += after != before
            for reply in replies:
                if reply.get("t") != "error":
                    watch.check_push(sender, reply)
            for name, ws in sockets.items():  # pushes caused by this message, so far
                while not ws.output_queue.empty():
                    watch.check_push(name, await next_reply(ws))
            before = after
        for name, ws in sockets.items():  # every socket still answers and ends at the head
            replies = await exchange(ws, Raw(text=json.dumps({"type": "sync"})), len(script))
            for reply in replies:
                watch.check_push(name, reply)
            assert replies and replies[-1]["seq"] == watch.head, (name, replies[-1:])
    finally:
        # Not a crashed one; and without waiting for channels_redis, whose receive stops only
        # when its BZPOPMIN returns (up to 5 s): the communicator cancels it after the timeout.
        running = [ws for ws in sockets.values() if not ws.future.done()]
        await asyncio.gather(*(ws.disconnect(timeout=0.1) for ws in running))
    return changes


@dataclass
class Outcome:
    """One message, what its socket answered, and the table before and after it."""

    table: Table
    sender: str
    sent: Any  # the JSON sent (None: not JSON)
    replies: list[dict[str, Any]]
    before: Look
    after: Look
    state: Any  # the state before, decoded
    resent: bool = False  # a command id already in the log
    author: int | None = None  # who sent the first new entry

    @property
    def kind(self) -> Any:
        return self.sent.get("type") if isinstance(self.sent, dict) else None

    @property
    def id(self) -> Any:
        return self.sent.get("id") if isinstance(self.sent, dict) else None

    def check(self) -> None:
        replies, sent = self.replies, self.sent
        assert all(r.get("t") in ("swap", "error", "ack") for r in replies), replies
        errors = [r for r in replies if r.get("t") == "error"]
        assert len(errors) <= 1, errors
        for error in errors:
            assert isinstance(error.get("message"), str) and error["message"], error
            assert error.get("id") in (None, self.id), (error, sent)
        if errors:  # refused: the table did not move
            assert self.after == self.before, f"refused {sent!r}, yet the table changed"
            return
        if self.after.seq > self.before.seq:  # the actor sees its result, fan-out or not
            assert any(r.get("seq") == self.after.seq for r in replies), (sent, replies)
        if self.sender != "gm" and self.after != self.before:
            self.check_player_change()
        if not replies:  # silence: an up-to-date heartbeat, a policy (pushed to all) or a resend
            resent = self.kind in ("command", "add", "undo") and self.resent
            assert self.kind in ("sync", "policy") or resent, f"no reply to {sent!r}"

    def check_player_change(self) -> None:
        """A player changed the table: with a command of their own character's, nothing else."""
        sent, sender = self.sent, self.sender
        assert isinstance(sent, dict) and sent.get("type") == "command", (sender, sent)
        command = sent["command"]
        assert not COMMANDS[command["type"]].gm_only, f"{sender} ran a GM command: {command}"
        viewer = self.table.viewers[sender]
        actor = self.state.combatants.get(command.get("actor"))
        assert actor is not None and actor.controller == viewer.controller, (sender, command)
        rules = get_ruleset("eleora")
        parsed = rules.command_from_dict({**command, "now": 0.0})
        assert not rules.gm_judged_fields(parsed), (sender, command)
        assert self.author == viewer.user_id, (sender, command)
        assert self.after.npc_policies == self.before.npc_policies, (sender, command)


@pytest.mark.django_db(transaction=True)
def test_no_generated_socket_message_breaks_the_table_or_leaks_a_secret(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Flooding has its own test (test_consumer): here every message reaches the parser.
    monkeypatch.setattr(consumers, "BURST", 10**9)
    world = make_world()
    changes: list[int] = []

    @hypothesis_settings(
        max_examples=40,  # 20 to 50 messages each: some 1,300 messages in all
        derandomize=True,  # the same messages on every run: the count below is not luck
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(plan=plans)
    def fuzz(plan: Plan) -> None:
        table = open_table(world, plan.phase)
        changes.append(async_to_sync(play)(world, table, plan.script))

    fuzz()
    # The fuzz reaches the table, not only the parser: dozens of messages changed it.
    assert sum(changes) >= 20, changes


# --- what the fuzz found, one message each ----------------------------------------------------


def converse(world: World, table: Table, who: str, *messages: Any) -> list[list[dict[str, Any]]]:
    """What `who`'s socket sends: the table on connecting, then its answers to each message."""

    async def run() -> list[list[dict[str, Any]]]:
        ws = await connect(table, world.users[who])
        try:
            answers = [[await next_reply(ws)]]
            for n, message in enumerate(messages):
                answers.append(await exchange(ws, Raw(text=json.dumps(message)), n))
            return answers
        finally:
            if not ws.future.done():
                await ws.disconnect(timeout=0.1)

    return async_to_sync(run)()


@pytest.mark.django_db(transaction=True)
def test_a_message_whose_type_is_not_text_is_refused() -> None:
    world = make_world()
    table = open_table(world, "turn")
    answers = converse(world, table, "p1", {"type": {}}, {"type": ["sync"]})
    assert [[r["t"] for r in answer] for answer in answers[1:]] == [["error"], ["error"]]


@pytest.mark.django_db(transaction=True)
def test_a_preview_of_anything_but_an_attack_is_refused() -> None:
    world = make_world()
    table = open_table(world, "turn")
    prepare = {"type": "prepare", "actor": table.refs["hero1"]}
    answers = converse(world, table, "p1", {"type": "preview", "command": prepare})
    assert [r["t"] for r in answers[1]] == ["error"]
    # Celowanie names a target but is no attack: it has no odds to show either.
    aim = {"type": "aim", "actor": table.refs["hero1"], "target": table.refs["hero2"]}
    answers = converse(world, table, "p1", {"type": "preview", "command": aim})
    assert [r["t"] for r in answers[1]] == ["error"]


@pytest.mark.django_db(transaction=True)
def test_a_preview_of_an_attack_on_a_hidden_npc_tells_the_player_nothing() -> None:
    world = make_world()
    table = open_table(world, "turn")
    attack = {"actor": table.refs["hero1"], "target": table.refs["spy"], "weapon": "Szabla"}
    preview = {"type": "preview", "command": {"type": "declare_attack", **attack}}
    answers = converse(world, table, "p1", preview)
    assert [r["t"] for r in answers[1]] == ["error"]
    assert SPY not in json.dumps(answers)


@pytest.mark.django_db(transaction=True)
def test_a_hidden_npc_taken_back_by_an_undo_stays_hidden() -> None:
    world = make_world()
    table = open_table(world, "setup")  # 1: the party joins, 2: the spy, hidden
    converse(world, table, "gm", {"type": "undo", "id": "u1", "to": 1})
    (connected,) = converse(world, table, "p1")
    assert services.load_table(table.pk).seq == 4
    assert SPY not in connected[0]["html"]


@pytest.mark.django_db(transaction=True)
def test_text_with_a_nul_character_is_answered_not_a_crash() -> None:
    world = make_world()
    table = open_table(world, "turn")
    act = {"type": "interact", "actor": table.refs["hero1"], "kind": "swobodna"}
    act["description"] = "nul\x00"
    roll = {"type": "gm_roll", "dice": 1, "label": "nul\x00", "secret": False}
    (_, acted) = converse(world, table, "p1", {"type": "command", "id": "i1", "command": act})
    (_, rolled) = converse(world, table, "gm", {"type": "command", "id": "r1", "command": roll})
    assert acted and rolled  # a swap, an ack or an error; on PostgreSQL the consumer died


# --- form posts -------------------------------------------------------------------------------

FORM_USERS = ("gm", "p1", "stranger")
GM_FORMS = ("encounter", "campaign", "settings", "import")
URLS = {
    "encounter": "encounter-list",
    "campaign": "campaign-edit",
    "settings": "campaign-settings",
    "import": "character-import",
    "new": "character-create",
    "edit": "character-edit",
}

junk_field = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["", " ", "-1", "0", "7", "99999999999999999999", "1e3", "NaN", "٣", "on"]),
    st.just("nul\x00"),
    st.just("x" * 10_001),
)
field_values = st.one_of(junk_field, st.lists(junk_field, min_size=2, max_size=3))


@st.composite
def changes(draw: st.DrawFn, fields: list[str]) -> list[tuple[str, Any]]:
    """Up to three changes to a form's data: a field set to a new value (None: removed)."""
    names = st.one_of(st.sampled_from(fields), st.text(max_size=12))
    return draw(st.lists(st.tuples(names, st.one_of(st.none(), field_values)), max_size=3))


def settings_fields(current: Mapping[str, Any]) -> dict[str, Any]:
    """What the settings form posts for these settings (as its page would)."""
    data: dict[str, Any] = {}
    for key, value in current.items():
        if isinstance(value, bool):
            if value:
                data[key] = "on"
        elif key == "success_faces":
            data[key] = [str(face) for face in value]
        elif isinstance(value, list):
            data.update({f"{key}__{index}": part for index, part in enumerate(value)})
        elif value is not None:
            data[key] = value
    return data


SETTINGS_FIELDS = sorted(settings_fields(get_ruleset("eleora").default_settings()))
SHEET_FIELDS = sorted(sheet_post(make_sheet(weapons=[make_weapon()]), name="", kind="", notes=""))

sheets = st.builds(  # valid sheets; the changes below break some
    make_sheet,
    attributes=st.dictionaries(
        st.sampled_from(["sila", "krzepa", "zrecznosc", "wola"]), st.integers(0, 5)
    ),
    skills=st.dictionaries(
        st.sampled_from(["walka_wrecz", "bron_lekka", "Alchemia", "Żeglarstwo"]),
        st.integers(0, 5),
        max_size=2,
    ),
    weapons=st.lists(
        st.builds(
            make_weapon,
            st.sampled_from(["Szabla", "Łuk"]),
            damage=st.integers(0, 10),
            kind=st.sampled_from(["lekka", "ciezka", "wrecz"]),
        ),
        max_size=2,
        unique_by=lambda weapon: weapon["name"],
    ),
)
bad_sheets = st.one_of(  # …and some are wrong from the start
    json_values,
    sheets.map(lambda sheet: {**sheet, "attributes": {"sila": 11}}),
    sheets.map(lambda sheet: {**sheet, "weapons": [make_weapon("x" * 81, damage=-1)]}),
    sheets.map(lambda sheet: {**sheet, "zbroja": []}),
)
character_names = st.sampled_from(["Radosław", "Nowy", "<i>x</i>", "Żbik", "Zbój\x00"])
players = st.sampled_from(["p1", "p2"]).map(Ref)
owners = st.one_of(st.just(""), players, players, st.sampled_from(["gm", "stranger"]).map(Ref))


@dataclass(frozen=True)
class FormPost:
    """One post: who sends it, to which form, and the data (Refs: users' pks)."""

    who: str
    form: str
    character: str  # for "edit": hero1 (player 1's), hero2 (player 2's) or the bandit (NPC)
    data: dict[str, Any]
    portrait: bytes | None = None
    htmx: bool = False


def sheet_form(sheet: dict[str, Any], name: str, kind: Any, owner: Any) -> dict[str, Any]:
    return sheet_post(sheet, name=name, kind=kind, owner=owner, notes="Notatki")


character_data = st.builds(
    sheet_form, sheets, name=character_names, kind=st.sampled_from(["pc", "npc"]), owner=owners
)
import_entries = st.fixed_dictionaries(
    {"name": character_names, "sheet": weighted((5, sheets), (1, bad_sheets))},
    optional={"kind": st.sampled_from(["pc", "npc", "npc", "boss"]), "notes": st.just("Notatki")},
)
envelopes = st.builds(
    lambda entries, version: json.dumps(
        {"format": "eleora.characters", "version": version, "ruleset": "eleora", **entries}
    ),
    st.lists(import_entries, min_size=1, max_size=3).map(lambda e: {"characters": e}),
    st.sampled_from([1, 1, 1, 1, 2, "1"]),
)
import_texts = weighted(
    (6, envelopes),
    (1, st.lists(import_entries, min_size=1, max_size=2).map(json.dumps)),
    (1, import_entries.map(json.dumps)),
    (1, json_values.map(json.dumps)),
    (1, st.text(max_size=40)),
)


@dataclass(frozen=True)
class File:
    """An uploaded file in a form's data."""

    content: bytes


import_data = weighted(
    (4, import_texts.map(lambda text: {"text": text})),
    (2, import_texts.map(lambda text: {"file": File(text.encode())})),
    (
        1,
        st.builds(lambda text, data: {"text": text, "file": File(data)}, import_texts, st.binary()),
    ),
    (1, st.binary(max_size=64).map(lambda data: {"file": File(data)})),
)


def form_data(form: str) -> st.SearchStrategy[dict[str, Any]]:
    """Data for one form: mostly what its page would send, then up to three changes."""
    if form == "encounter":
        base = st.fixed_dictionaries({"name": st.sampled_from(["Most", "  Zasadzka ", ""])})
        fields = ["name"]
    elif form == "campaign":
        base = st.fixed_dictionaries({"name": st.just("Fuzz"), "description": junk_field})
        fields = ["name", "description"]
    elif form == "settings":
        base, fields = st.just({}), SETTINGS_FIELDS  # the current settings, at post time
    elif form == "import":
        base, fields = import_data, ["text", "file"]
    else:
        rows = st.sampled_from(["add weapons", "remove weapons 0", "add custom_skills", "x"])
        with_row = st.builds(lambda data, row: {**data, "row": row}, character_data, rows)
        base = weighted((2, character_data), (1, with_row))  # a row added or removed: no save
        fields = SHEET_FIELDS
    return st.builds(apply_changes, base, weighted((2, st.just([])), (1, changes(fields))))


def apply_changes(data: dict[str, Any], todo: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(data)
    for name, value in todo:
        if value is None:
            data.pop(name, None)
        else:
            data[name] = value
    return data


form_posts = st.builds(
    FormPost,
    who=st.sampled_from(["gm", "gm", "p1", "p1", "stranger"]),
    form=st.sampled_from(sorted(URLS)),
    character=st.sampled_from(["hero1", "hero2", "bandit"]),
    data=st.just({}),
    portrait=st.one_of(st.none(), st.none(), st.none(), st.binary(max_size=64)),
    htmx=st.booleans(),
).flatmap(lambda post: form_data(post.form).map(lambda d: dataclasses.replace(post, data=d)))


def stored_rows() -> dict[tuple[str, int], Any]:
    """Every row a form may touch, by (table, pk)."""
    tables: dict[str, Any] = {
        "campaign": Campaign.objects.values_list(
            "pk", "name", "description", "settings", "invite_code", "gm_id", "ruleset"
        ),
        "membership": Membership.objects.values_list("pk", "campaign_id", "user_id", "role"),
        "character": Character.objects.values_list(
            "pk", "campaign_id", "owner_id", "kind", "name", "notes", "sheet", "portrait"
        ),
        "creature": CreatureTemplate.objects.values_list(
            "pk", "campaign_id", "name", "description", "sheet"
        ),
        "encounter": Encounter.objects.values_list("pk", "campaign_id", "name", "seq", "state"),
        "user": User.objects.values_list("pk", "username", "password"),
    }
    return {(table, row[0]): row[1:] for table, rows in tables.items() for row in rows}


def send_form(
    world: World, clients: Mapping[str, Client], users: Mapping[str, User], post: FormPost
) -> int:
    """The post's status code (an exception in the view fails the test: the client raises)."""
    character = world.characters[post.character]
    target = character.pk if post.form == "edit" else world.campaign.pk
    data = materialize(post.data, {name: user.pk for name, user in users.items()}, 0)
    if post.form == "settings":
        world.campaign.refresh_from_db()
        data = {**settings_fields(world.campaign.settings), **data}
    if post.portrait is not None and post.form in ("new", "edit"):
        data["portrait"] = File(post.portrait)
    data = {
        name: SimpleUploadedFile("x", value.content) if isinstance(value, File) else value
        for name, value in data.items()
    }
    headers = {"HX-Request": "true"} if post.htmx else {}
    url = reverse(URLS[post.form], args=[target])
    return clients[post.who].post(url, data, headers=headers).status_code


def expected_refusal(world: World, post: FormPost, users: Mapping[str, User]) -> int | None:
    """403 or 404 when this user may not post to this form; None when they may."""
    if post.who == "stranger":
        return 404
    if post.who == "gm":
        return None
    if post.form in GM_FORMS:
        return 403
    if post.form == "edit":
        character = Character.objects.get(pk=world.characters[post.character].pk)
        mine = character.kind == Character.Kind.PC and character.owner_id == users["p1"].pk
        return None if mine else 404
    return None


def check_form_post(
    world: World,
    post: FormPost,
    users: Mapping[str, User],
    status: int,
    before: dict[tuple[str, int], Any],
    after: dict[tuple[str, int], Any],
) -> None:
    changed = {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}
    assert status < 500, (post, status)
    refusal = expected_refusal(world, post, users)
    if refusal is not None:
        assert status == refusal and not changed, (post, status, changed)
        return
    if status != 302:  # the form again, with its errors (or a row added): nothing saved
        assert not changed, (post, status, changed)
        return
    added = {key for key in changed if key not in before}
    campaign = world.campaign.pk
    if post.form in ("encounter", "new"):
        table = "encounter" if post.form == "encounter" else "character"
        assert len(added) == 1 and changed == added, (post, changed)
        ((kind, _pk),) = added
        assert kind == table and after[next(iter(added))][0] == campaign, (post, changed)
    elif post.form == "import":
        assert changed == added and {kind for kind, _pk in added} <= {"character"}, changed
        assert all(after[key][0] == campaign for key in added), (post, changed)
    elif post.form == "edit":
        assert changed <= {("character", world.characters[post.character].pk)}, changed
    else:  # the campaign's name or settings
        assert changed <= {("campaign", campaign)}, (post, changed)
    if post.who == "p1":  # a player's character stays theirs, a player character
        for key in changed:
            _campaign, owner, kind, *_rest = after[key]
            assert (owner, kind) == (users["p1"].pk, Character.Kind.PC), (post, after[key])


@pytest.mark.django_db
def test_no_generated_form_post_fails_or_changes_what_it_may_not(
    settings: Any, tmp_path: Path
) -> None:
    settings.MEDIA_ROOT = tmp_path  # portraits go to a fresh folder, not the project's media/
    world = make_world()
    users = {**world.users, "stranger": make_user("fuzz-obcy")}
    clients = {name: client_for(users[name]) for name in FORM_USERS}

    @hypothesis_settings(
        max_examples=150,  # 1 to 4 posts each: some 350 posts in all
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(posts=st.lists(form_posts, min_size=1, max_size=4))
    def fuzz(posts: list[FormPost]) -> None:
        with transaction.atomic():  # a savepoint: every example starts from the same campaign
            for post in posts:
                before = stored_rows()
                status = send_form(world, clients, users, post)
                check_form_post(world, post, users, status, before, stored_rows())
            transaction.set_rollback(True)

    fuzz()


@pytest.mark.django_db
def test_an_import_with_a_nul_character_is_no_server_error() -> None:
    world = make_world()
    url = reverse("character-import", args=[world.campaign.pk])
    entry = {"name": "Zbój\x00", "notes": "nul\x00", "sheet": make_sheet()}
    response = client_for(world.users["gm"]).post(url, {"text": json.dumps([entry])})
    assert response.status_code in (200, 302)  # on PostgreSQL: DataError, a 500
