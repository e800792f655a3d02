"""The table socket: one per browser tab. Thin: who you are, what you sent, what you see.

Server → browser: JSON `{"t": "swap", "seq": n, "html": …}` (the regions rendered for this
viewer that changed since this socket's last push, each with its id, swapped by htmx: all of
them on connect and on a forced push, none but the seq when nothing this viewer sees moved)
or `{"t": "error", "id": …, "message": …}` to this socket only.
Browser → server: `combat.protocol` messages. The group message carries only the new seq.

When the table moves, this process's delegate in the table's group (combat/hub.py) hears of
it and renders the new seq for every socket of the table this process holds, in one call of
the pool (the audiences share their regions, see `combat.fragments`), and sends each its push.
The socket that sent the command does the same at once, so the fan-out usually finds its
process's sockets current.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import defaultdict
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from combat import fragments, protocol, services
from combat.access import find_encounter_for, viewer_at
from combat.hub import Hub
from combat.rules import get_ruleset
from combat.services import Refused, Viewer
from combat.threads import in_pool
from combat.watch import Watch

log = logging.getLogger(__name__)

RATE = 8.0  # messages per second a socket may send on average…
BURST = 20  # …in bursts of this many
STRIKES = 40  # refused-for-flooding messages before the socket is closed (1008)
CLOSE_FORBIDDEN = 4403
CLOSE_POLICY = 1008

# One expiry timer per encounter in this process; the append path dedups across processes.
_timers: dict[int, asyncio.TimerHandle] = {}
# The table sockets of this process, by encounter, and the seq each encounter's shared push
# is being rendered for (a second socket hearing of the same seq waits for nothing).
_sockets: dict[int, set[TableConsumer]] = defaultdict(set)
_rendering: dict[int, int] = {}


class Forbidden(Exception):  # noqa: N818
    """The user no longer belongs to the table's campaign: the socket is closed."""


class TokenBucket:
    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class TableConsumer(AsyncWebsocketConsumer):
    encounter_id: int
    viewer: Viewer
    seq: int

    async def connect(self) -> None:
        pk = int(self.scope["url_route"]["kwargs"]["pk"])
        found = await in_pool(find_encounter_for)(self.scope["user"], pk)
        if found is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        encounter, self.viewer = found
        self.encounter_id, self.seq = encounter.pk, -1
        self.sent: dict[str, int] = {}  # region id -> hash of the HTML this socket sent last
        self.language = _language(self.scope)
        self.bucket = TokenBucket(RATE, BURST)
        self.strikes = 0
        await self.accept()
        _sockets[self.encounter_id].add(self)
        await _hub.join(self.encounter_id, self)
        _watch.start()
        await self.push()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "encounter_id"):
            _forget(self)
            await _hub.leave(self.encounter_id, self)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.bucket.take():
            self.strikes += 1
            if self.strikes >= STRIKES:
                await self.close(code=CLOSE_POLICY)
                return
            await self.error(None, _("Za dużo poleceń naraz: zwolnij."))
            return
        try:
            message = protocol.parse(text_data if text_data is not None else "\x00")
        except protocol.BadMessage as exc:
            await self.error(None, _("Błędna wiadomość: %(detail)s") % {"detail": exc})
            return
        if message.kind == "sync":
            await self.heartbeat(message.seq)
            return
        # This table's sockets in this process, this one first: the command's own hop renders
        # its result for all of them, so they need not wait for the fan-out (it finds them
        # current) and the sync thread is entered once per command, not once per socket.
        sockets = [self, *(s for s in _sockets.get(self.encounter_id, ()) if s is not self)]
        try:
            answer = await in_pool(self.handle)(message, sockets)
        except Forbidden:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        except Refused as refusal:
            await self.error(message.id, refusal.message)
            return
        if isinstance(answer, str):
            await self.send(text_data=json.dumps({"t": "swap", "html": answer}))
            return
        # The actor learns that its command (by id) is in the log: a client that lost its
        # socket meanwhile sends the same id again and gets this answer, not a second run.
        for socket, rendered in zip(sockets, answer, strict=False):
            if socket is self or socket in _sockets.get(self.encounter_id, ()):
                ack = message.id if socket is self else None
                await socket.deliver(rendered, force=False, ack=ack)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' own dispatch first closes the event loop's stale database connections,
        with a hop to its single sync thread, for every message (each push of the fan-out,
        each heartbeat). This consumer touches the database only on the pool (`in_pool`),
        which does that itself around each call, so it skips the hop."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def heartbeat(self, client_seq: int | None) -> None:
        """The page's periodic "I am at seq n" (every 25 s): push everything if the page is
        behind this socket. No query and no Redis: the watchdog (combat/watch.py) compares
        every socket with the database each second and keeps the group memberships, and a
        removal from the campaign reaches the socket at once (`table_access`)."""
        if client_seq is None or client_seq < self.seq:
            await self.push(force=True)

    async def table_changed(self, event: dict[str, Any]) -> None:
        """The log moved (a group message, to this process's delegate: combat/hub.py): bring
        the process's sockets of the table to the new seq; `force`: something outside the log
        changed (an NPC policy), render again for all of them."""
        pk = self.encounter_id
        if event.get("force"):
            await _send_all(pk, None, list(_sockets.get(pk, ())), force=True)
        else:
            await push_all(pk, int(event.get("seq", 0)))

    async def table_access(self, event: dict[str, Any]) -> None:
        """A user left the campaign (a group message, to this process's delegate): that
        user's sockets of the table in this process check, and close."""
        user = event.get("user")
        left = [s for s in _sockets.get(self.encounter_id, ()) if _user_pk(s) == user]
        await asyncio.gather(*(socket.check_access() for socket in left))

    async def check_access(self) -> None:
        """This socket's user left the campaign: check, and close."""
        found = await in_pool(find_encounter_for)(self.scope["user"], self.encounter_id)
        if found is None:
            await self.close(code=CLOSE_FORBIDDEN)

    def handle(
        self, message: protocol.Message, sockets: list[TableConsumer]
    ) -> str | list[Rendered]:
        """Run one message (in the sync thread): a preview's fragment, or the table after it
        for each of `sockets` (when the seq it reached is known, else for this one alone)."""
        with translation.override(self.language):
            viewer = viewer_at(self.scope["user"], self.encounter_id)
            if viewer is None:
                raise Forbidden
            self.viewer = viewer
            result = _dispatch(self.encounter_id, viewer, message)
        if isinstance(result, str):
            return result
        return render(self.encounter_id, result, sockets if result is not None else [self])

    async def push(
        self, hint: int | None = None, force: bool = False, ack: str | None = None
    ) -> None:
        """Send the table at its head (or at the seq `hint`) to this socket alone."""
        (rendered,) = await in_pool(render)(self.encounter_id, hint, [self])
        await self.deliver(rendered, force=force, ack=ack)

    async def deliver(self, rendered: Rendered, *, force: bool, ack: str | None) -> None:
        """Send the regions that changed since this socket's last push (every region when
        `force`d), always with the seq, so the page moves on even when nothing it shows
        changed; nothing if the socket already shows this seq or a later one."""
        regions, seq, deadline = rendered
        if seq <= self.seq and not force:
            if ack is not None:  # the fan-out was first: only the answer is left to send
                await self.send(text_data=json.dumps({"t": "ack", "ack": ack, "seq": self.seq}))
            return
        self.seq = seq
        html, self.sent = changed(self.sent, regions, everything=force)
        payload = {"t": "swap", "seq": seq, "html": html, "now": time.time(), "ack": ack}
        await self.send(text_data=json.dumps(payload))
        if deadline is not None:
            _schedule_expiry(self.encounter_id, deadline)

    async def error(self, message_id: str | None, text: str) -> None:
        await self.send(text_data=json.dumps({"t": "error", "id": message_id, "message": text}))


Rendered = tuple[dict[str, str], int, float | None]  # regions by id, seq, next deadline


async def push_all(pk: int, seq: int) -> None:
    """Bring every socket of this process that shows table `pk` to `seq` (or later) with one
    call of the sync thread: a hop per socket cost more than the rendering it carried."""
    if _rendering.get(pk, -1) >= seq:
        return  # a push of this seq (or a later one) to every socket is under way
    behind = [socket for socket in _sockets.get(pk, ()) if socket.seq < seq]
    if not behind:
        return
    _rendering[pk] = seq
    try:
        await _send_all(pk, seq, behind, force=False)
    finally:
        if _rendering.get(pk) == seq:
            del _rendering[pk]


async def _send_all(
    pk: int, hint: int | None, sockets: list[TableConsumer], *, force: bool
) -> None:
    """Render the table once for these sockets and send each its push (`force`: every
    region)."""
    rendered = await in_pool(render)(pk, hint, sockets)
    for socket, one in zip(sockets, rendered, strict=True):
        if socket in _sockets.get(pk, ()):  # not closed meanwhile
            await socket.deliver(one, force=force, ack=None)


def render(pk: int, hint: int | None, sockets: list[TableConsumer]) -> list[Rendered]:
    """The table at its head (or at the seq `hint`) for each socket's viewer, in its
    language; regions the viewers share are rendered once (`fragments.regions`)."""
    table = services.load_table(pk, hint)
    deadline = get_ruleset(table.ruleset).next_deadline(table.state)
    result = []
    for socket in sockets:
        with translation.override(socket.language):
            result.append((fragments.regions(table, socket.viewer), table.seq, deadline))
    return result


async def _catch_up(pk: int, head: int | None) -> None:
    if head is None:
        for socket in list(_sockets.get(pk, ())):
            await socket.close(code=CLOSE_FORBIDDEN)  # the encounter is gone
    else:
        await push_all(pk, head)


_hub = Hub(_sockets)
_watch = Watch(_sockets, _catch_up, _hub.rejoin)


def _forget(socket: TableConsumer) -> None:
    sockets = _sockets.get(socket.encounter_id)
    if sockets is not None:
        sockets.discard(socket)
        if not sockets:
            del _sockets[socket.encounter_id]


def changed(
    sent: dict[str, int], regions: dict[str, str], *, everything: bool
) -> tuple[str, dict[str, int]]:
    """The regions whose HTML differs from what a socket sent last (`sent`: region id -> hash
    of its HTML; all of them if `everything`), and what it will have sent. A region shared by
    many sockets is one string object, so its hash is computed once."""
    html = "".join(
        text for name, text in regions.items() if everything or sent.get(name) != hash(text)
    )
    return html, {name: hash(text) for name, text in regions.items()}


def _dispatch(pk: int, viewer: Viewer, m: protocol.Message) -> str | int | None:
    """Run a message: a preview's fragment, else the seq the table is at after it (None when
    that is not known: an NPC policy, a command already in the log)."""
    if m.kind == "preview":
        return fragments.render_preview(services.load_table(pk), viewer, m.command)
    if m.kind == "policy":
        services.set_npc_policy(pk, viewer=viewer, combatant=m.combatant, policy=m.policy)
        return None
    if m.kind == "command":
        done = services.run_command(pk, m.command, viewer=viewer, command_id=m.id, seen_seq=m.seq)
    elif m.kind == "add":
        done = services.add_combatants(
            pk,
            viewer=viewer,
            characters=m.characters,
            creatures=m.creatures,
            side=m.side,
            hidden=m.hidden,
            command_id=m.id,
        )
    else:
        done = services.undo(pk, viewer=viewer, to_seq=m.to or 0, command_id=m.id)
    if done.duplicate:
        return None
    return done.head if done.head is not None else done.seq


def _user_pk(socket: TableConsumer) -> Any:
    return getattr(socket.scope.get("user"), "pk", None)


def _language(scope: dict[str, Any]) -> str:
    """The language the page was rendered in (`?lang=` on the socket URL), else the language
    cookie, else Polish."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    cookies = scope.get("cookies") or {}
    for code in (*query.get("lang", []), cookies.get(settings.LANGUAGE_COOKIE_NAME, "")):
        if code in dict(settings.LANGUAGES):
            return code
    return str(settings.LANGUAGE_CODE)


def _schedule_expiry(pk: int, deadline: float) -> None:
    """Resolve the prompt when its deadline passes, even if nobody answers or reloads."""
    loop = asyncio.get_running_loop()
    current = _timers.get(pk)
    when = loop.time() + max(0.0, deadline - time.time()) + 0.05
    if current is not None and not current.cancelled() and abs(current.when() - when) < 0.01:
        return
    if current is not None:
        current.cancel()
    _timers[pk] = loop.call_at(when, lambda: asyncio.ensure_future(_expire(pk)))


async def _expire(pk: int) -> None:
    _timers.pop(pk, None)
    try:
        await in_pool(services.resolve_expired)(pk)
    except Refused:
        pass  # someone answered or resolved it first
    except Exception:  # noqa: BLE001 - a timer must not die silently; the next push reschedules
        log.exception("resolving expired prompts of encounter %s", pk)
