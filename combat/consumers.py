"""The table socket: one per browser tab. Thin: who you are, what you sent, what you see.

Server → browser: JSON `{"t": "swap", "seq": n, "html": …}` (the records of this viewer's
page that changed since this socket's last push, combat.pushes, as htmx out-of-band swaps by
id: all of them on connect and when the page is behind, none but the seq when nothing this
viewer sees moved)
or `{"t": "error", "id": …, "message": …}` to this socket only,
or `{"t": "move"}`: go to the table's home process (combat/homing.py).
Browser → server: `combat.protocol` messages. The group message carries the new seq and the
entry appended (`combat.publishing`); this process's sockets, delegates and timers live in
`combat.live.Live`.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from combat import clock, fragments, protocol, roster, services, snapshots
from combat.access import Refused, Viewer, viewer_at
from combat.homing import CLOSE_MOVED, MOVE, home_of
from combat.live import CLOSE_FORBIDDEN, Live, Rendered, render
from combat.threads import at_handshake, in_pool

RATE = 8.0  # messages per second a socket may send on average…
BURST = 20  # …in bursts of this many
STRIKES = 40  # messages refused for flooding before the socket is closed (CLOSE_FLOOD)…
STRIKE_DECAY_S = 30.0  # …one strike forgiven every this many seconds
# A close code of the application range: daphne's websocket library sends only 1000 and
# 3000–4999 from a server (1008 was refused: the socket died with 1011 and a traceback).
# The page waits before it comes back after this one (static/js/table.js).
CLOSE_FLOOD = 4008

live = Live()


class Forbidden(Exception):  # noqa: N818
    """The user no longer belongs to the table's campaign: the socket is closed."""


def encode(message: dict[str, Any]) -> str:
    """A message to a page as JSON text, its letters as they are (UTF-8 on the wire): with
    `\\u` escapes each Polish letter of a push cost 6 bytes instead of 2."""
    return json.dumps(message, ensure_ascii=False)


def seconds() -> float:
    """The clock of a socket's rate limits (monotonic; tests stand it still or move it)."""
    return time.monotonic()


class NoTable(AsyncWebsocketConsumer):
    """Any other socket path (`/ws/encounters/abc/`): refused at the handshake (HTTP 403)."""

    async def connect(self) -> None:
        await self.close(code=CLOSE_FORBIDDEN)


class TableConsumer(AsyncWebsocketConsumer):
    encounter_id: int
    viewer: Viewer
    seq: int

    async def connect(self) -> None:
        """Who the user is at the table (one query: a reconnect storm brings every tab back
        at once), then the first page, sent by `live.greet` once the handshake is done: a
        tab that goes away before is heard of and costs nothing."""
        pk = int(self.scope["url_route"]["kwargs"]["pk"])
        viewer = await at_handshake(viewer_at)(self.scope["user"], pk)
        if viewer is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.viewer, self.encounter_id, self.seq = viewer, pk, -1
        self.sent: dict[str, Any] | None = None  # the records it was sent last (combat.pushes)
        self.shown: dict[str, int | None] = {}  # what its page shows of each region
        self.language = _language(self.scope)
        self.home = home_of(self.scope)
        self.bucket = protocol.TokenBucket(RATE, BURST, clock=seconds)
        self.strikes = protocol.TokenBucket(1 / STRIKE_DECAY_S, STRIKES, clock=seconds)
        await self.accept()
        await live.open(self)
        live.greet(self)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "encounter_id"):
            await live.close(self)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.bucket.take():
            if not self.strikes.take():
                await self.close(code=CLOSE_FLOOD, reason="flood")
                return
            await self.error(None, _("Za dużo poleceń naraz: zwolnij."))
            return
        try:
            message = protocol.parse(text_data if text_data is not None else "\x00")
        except protocol.BadMessage as exc:
            await self.error(exc.id, _("Błędna wiadomość: %(detail)s") % {"detail": exc})
            return
        if message.kind == "sync":
            await self.heartbeat(message.seq)
            return
        # This table's sockets in this process, this one first: the command's own hop renders
        # its result for all of them, so they need not wait for the fan-out (it finds them
        # current) and the pool is entered once per command, not once per socket.
        sockets = [self, *(s for s in live.of(self.encounter_id) if s is not self)]
        self.claimed: int | None = None
        try:
            await self.run(message, sockets)
        finally:  # delivered (or failed): a later fan-out of that seq may render it
            live.release(self.encounter_id, self.claimed)

    async def run(self, message: protocol.Message, sockets: list[Any]) -> None:
        """Run a message on the pool and send what came of it."""
        try:
            answer = await in_pool(self.handle)(message, sockets)
        except Forbidden:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        except Refused as refusal:
            await self.error(message.id, refusal.message)
            return
        except Exception:
            # A bug: the sender hears of it at once instead of waiting, then the socket closes
            # (the page reconnects) and the server logs it.
            await self.error(message.id, _("Błąd serwera: polecenie nie zostało wykonane."))
            raise
        if isinstance(answer, str):
            await self.send(text_data=encode({"t": "swap", "html": answer}))
            return
        # The actor learns that its command (by id) is in the log: a client that lost its
        # socket meanwhile sends the same id again and gets this answer, not a second run.
        await live.deliver(self.encounter_id, sockets, answer, ack=(self, message.id))

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
            await self.push(whole=True)

    async def table_changed(self, event: dict[str, Any]) -> None:
        """The log moved (a group message, to this process's delegate: combat/hub.py): bring
        the process's sockets of the table to the new seq; `force`: something outside the log
        changed (an NPC policy), render again for all of them. The entry the message carries
        moves this process's snapshot of the table on without a query, where it holds the head
        before it (`snapshots.advance`: a few events folded, here on the loop)."""
        pk = self.encounter_id
        if event.get("force"):
            if event.get("roster"):
                roster.forget()  # a GM's page changed the campaign's characters or creatures
            await live.send_all(pk, None, list(live.of(pk)), force=True)
        else:
            seq = int(event.get("seq", 0))
            if event.get("entry") is not None:
                snapshots.advance(pk, seq, event["entry"])
            await live.push_all(pk, seq)

    async def table_access(self, event: dict[str, Any]) -> None:
        """A user left the campaign (a group message, to this process's delegate): that
        user's sockets of the table in this process check, and close."""
        user = event.get("user")
        for socket in [s for s in live.of(self.encounter_id) if _user_pk(s) == user]:
            await socket.check_access()

    async def check_access(self) -> None:
        """This socket's user left the campaign: check, and close."""
        if await in_pool(viewer_at)(self.scope["user"], self.encounter_id) is None:
            await self.close(code=CLOSE_FORBIDDEN)

    def handle(self, message: protocol.Message, sockets: list[Any]) -> str | list[Rendered]:
        """Run one message (on the pool): a preview's or a route's fragment, or the table after
        it for each of `sockets` (when the seq it reached is known, else for this one alone)."""
        with translation.override(self.language):
            viewer = viewer_at(self.scope["user"], self.encounter_id)
            if viewer is None:
                raise Forbidden
            self.viewer = viewer
            result = _dispatch(self.encounter_id, viewer, message)
        if isinstance(result, str):
            return result
        if result is not None:  # the fan-out of this seq finds it rendered here: no second one
            self.claimed = live.claim(self.encounter_id, result)
        return render(self.encounter_id, result, sockets if result is not None else [self])

    async def push(
        self, *, whole: bool = False, force: bool = False, ack: str | None = None
    ) -> None:
        """Send the table at its head to this socket alone: what changed since its last push
        (everything when `whole`; `force`: even at the seq it shows, something outside the
        log changed)."""
        pk = self.encounter_id
        (rendered,) = await in_pool(render)(pk, None, [self], whole=whole, force=force)
        await self.deliver(rendered, force=whole or force, ack=ack)

    async def deliver(self, rendered: Rendered, *, force: bool, ack: str | None) -> None:
        """Send what changed since this socket's last push, always with the seq, so the page
        moves on even when nothing it shows changed; nothing if the socket already shows
        this seq or a later one (unless `force`d). A push worked out against records this
        socket has since moved past (two pushes crossed) is worked out again."""
        if rendered.seq <= self.seq and not force:
            if ack is not None:  # the fan-out was first: only the answer is left to send
                await self.send(text_data=encode({"t": "ack", "ack": ack, "seq": self.seq}))
            return
        if rendered.before is not None and rendered.before is not self.sent:
            await self.push(force=force, ack=ack)
            return
        self.seq, self.sent, self.shown = rendered.seq, rendered.tree, rendered.shown
        payload = {"t": "swap", "seq": rendered.seq, "html": rendered.html, "now": clock.now()}
        payload["ack"] = ack
        await self.send(text_data=encode(payload))
        if rendered.deadline is not None:
            live.schedule_expiry(self.encounter_id, rendered.deadline)

    async def send_home(self) -> None:
        """To the table's home process (combat/homing.py): a page shown moves itself (make
        before break); a socket not yet sent its page closes and the page comes back."""
        if self.sent is None:
            await self.close(code=CLOSE_MOVED)
        else:
            await self.send(text_data=encode(MOVE))

    async def error(self, message_id: str | None, text: str) -> None:
        await self.send(text_data=encode({"t": "error", "id": message_id, "message": text}))


def _dispatch(pk: int, viewer: Viewer, m: protocol.Message) -> str | int | None:
    """Run a message: a preview's or a route's fragment, else the seq the table is at after it
    (None when that is not known: an NPC's settings, a command already in the log)."""
    if m.kind == "preview":
        return fragments.render_preview(services.load_table(pk), viewer, m.command)
    if m.kind == "route":
        return fragments.render_route(services.load_table(pk), viewer, m.combatant, m.at, m.mode)
    if m.kind == "policy":
        services.set_npc_policy(pk, viewer=viewer, combatant=m.combatant, policy=m.policy)
        return None
    if m.kind == "autoplay":
        services.set_autoplay(pk, viewer=viewer, combatant=m.combatant, policy=m.policy)
        return None
    if m.kind == "play":
        done = services.play_turn(pk, viewer=viewer, combatant=m.combatant, policy=m.policy or None)
    elif m.kind == "command":
        done = services.run_command(pk, m.command, viewer=viewer, command_id=m.id, seen_seq=m.seq)
    elif m.kind == "place":
        done = services.place_token(pk, viewer=viewer, seat=m.combatant, to=m.at, command_id=m.id)
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


def _user_pk(socket: Any) -> Any:
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
