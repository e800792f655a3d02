"""The table socket: one per browser tab. Thin: who you are, what you sent, what you see.

Server → browser: JSON `{"t": "swap", "seq": n, "html": …}` (regions rendered for this viewer,
each with its id, swapped by htmx) or `{"t": "error", "id": …, "message": …}` to this socket only.
Browser → server: `combat.protocol` messages. The group message carries only the new seq.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from combat import fragments, protocol, services
from combat.access import find_encounter_for
from combat.rules import get_ruleset
from combat.services import Refused, Viewer

log = logging.getLogger(__name__)

RATE = 8.0  # messages per second a socket may send on average…
BURST = 20  # …in bursts of this many
STRIKES = 40  # refused-for-flooding messages before the socket is closed (1008)
CLOSE_FORBIDDEN = 4403
CLOSE_POLICY = 1008

# One expiry timer per encounter in this process; the append path dedups across processes.
_timers: dict[int, asyncio.TimerHandle] = {}


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
    group: str
    seq: int

    async def connect(self) -> None:
        pk = int(self.scope["url_route"]["kwargs"]["pk"])
        found = await database_sync_to_async(find_encounter_for)(self.scope["user"], pk)
        if found is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        encounter, self.viewer = found
        self.encounter_id, self.group, self.seq = encounter.pk, encounter.group_name, -1
        self.language = _language(self.scope)
        self.bucket = TokenBucket(RATE, BURST)
        self.strikes = 0
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.push()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

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
        try:
            extra = await database_sync_to_async(self.handle)(message)
        except Forbidden:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        except Refused as refusal:
            await self.error(message.id, refusal.message)
            return
        if extra is not None:
            await self.send(text_data=json.dumps({"t": "swap", "html": extra}))
        else:
            # The actor sees the result even if the fan-out is slow, and learns that its
            # command (by id) is in the log: a client that lost its socket meanwhile sends
            # the same id again and gets this answer instead of a second run.
            await self.push(ack=message.id)

    async def heartbeat(self, client_seq: int | None) -> None:
        """The client's periodic "I am at seq n": re-join the group (a restarted Redis forgets
        groups), re-check access, and push if the client or this socket fell behind."""
        await self.channel_layer.group_add(self.group, self.channel_name)
        head = await database_sync_to_async(self.head_if_allowed)()
        if head is None:
            await self.close(code=CLOSE_FORBIDDEN)
        elif head > self.seq or client_seq is None or client_seq < self.seq:
            await self.push(force=True)

    def head_if_allowed(self) -> int | None:
        if find_encounter_for(self.scope["user"], self.encounter_id) is None:
            return None
        return services.load_table(self.encounter_id).seq

    def handle(self, message: protocol.Message) -> str | None:
        """Run one message (in a worker thread); a preview returns its fragment."""
        with translation.override(self.language):
            found = find_encounter_for(self.scope["user"], self.encounter_id)
            if found is None:
                raise Forbidden
            viewer = self.viewer = found[1]
            return _dispatch(self.encounter_id, viewer, message)

    async def table_changed(self, event: dict[str, Any]) -> None:
        seq, force = int(event.get("seq", 0)), bool(event.get("force"))
        if seq > self.seq or force:
            await self.push(hint=None if force else seq, force=force)

    async def push(
        self, hint: int | None = None, force: bool = False, ack: str | None = None
    ) -> None:
        html, seq, deadline = await database_sync_to_async(self.render)(hint)
        if seq <= self.seq and not force:
            if ack is not None:  # the fan-out was first: only the answer is left to send
                await self.send(text_data=json.dumps({"t": "ack", "ack": ack, "seq": self.seq}))
            return
        self.seq = seq
        payload = {"t": "swap", "seq": seq, "html": html, "now": time.time(), "ack": ack}
        await self.send(text_data=json.dumps(payload))
        if deadline is not None:
            _schedule_expiry(self.encounter_id, deadline)

    def render(self, hint: int | None) -> tuple[str, int, float | None]:
        with translation.override(self.language):
            table = services.load_table(self.encounter_id, hint)
            rules = get_ruleset(table.ruleset)
            return (
                fragments.render_regions(table, self.viewer),
                table.seq,
                rules.next_deadline(table.state),
            )

    async def error(self, message_id: str | None, text: str) -> None:
        await self.send(text_data=json.dumps({"t": "error", "id": message_id, "message": text}))


def _dispatch(pk: int, viewer: Viewer, m: protocol.Message) -> str | None:
    if m.kind == "command":
        services.run_command(pk, m.command, viewer=viewer, command_id=m.id, seen_seq=m.seq)
    elif m.kind == "add":
        services.add_combatants(
            pk,
            viewer=viewer,
            characters=m.characters,
            creatures=m.creatures,
            side=m.side,
            hidden=m.hidden,
            command_id=m.id,
        )
    elif m.kind == "undo":
        services.undo(pk, viewer=viewer, to_seq=m.to or 0, command_id=m.id)
    elif m.kind == "policy":
        services.set_npc_policy(pk, viewer=viewer, combatant=m.combatant, policy=m.policy)
    elif m.kind == "preview":
        return fragments.render_preview(services.load_table(pk), viewer, m.command)
    return None


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
        await database_sync_to_async(services.resolve_expired)(pk)
    except Refused:
        pass  # someone answered or resolved it first
    except Exception:  # noqa: BLE001 - a timer must not die silently; the next push reschedules
        log.exception("resolving expired prompts of encounter %s", pk)
