"""This server process's live tables: its sockets by table, their delegates in the tables'
groups (combat/hub.py), the expiry timers, the watchdog (combat/watch.py) and the sockets held
for another process (combat/homing.py), in one object.

When a table moves, its delegate hears of it and `push_all` brings every socket of the table
this process holds to the new seq, in one call of the pool: each socket is sent the records
that changed since its last push (`combat.pushes`), each rendered once per variant.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.utils import translation

from combat import clock, fragments, pushes, services
from combat.access import Refused, Viewer
from combat.homing import Home, Homing
from combat.hub import Hub
from combat.rules.registry import get_ruleset
from combat.threads import in_pool
from combat.watch import Watch

log = logging.getLogger(__name__)

CLOSE_FORBIDDEN = 4403


@dataclass(frozen=True)
class Rendered:
    """A socket's push: the swaps from the records it had (`before`) to `tree`."""

    html: str
    tree: dict[str, pushes.Part]
    shown: pushes.Shown  # what the page shows of each region sent whole
    seq: int
    deadline: float | None  # the table's next deadline
    before: Any  # the socket's records this was worked out against (None: from nothing)


class Socket(Protocol):
    """What the process needs of a table socket (combat.consumers.TableConsumer)."""

    encounter_id: int
    viewer: Viewer
    language: str
    seq: int
    sent: dict[str, pushes.Part] | None  # the records it was last sent (None: nothing yet)
    shown: pushes.Shown  # what its page shows of each region (`pushes.changes`)
    channel_name: str
    home: Home | None  # the process the front door would have sent it to, if not this one

    async def deliver(self, rendered: Rendered, *, force: bool, ack: str | None) -> None: ...

    async def close(self, code: int | None = None) -> None: ...

    async def send_home(self) -> None: ...


def render(
    pk: int, hint: int | None, sockets: list[Any], *, whole: bool = False, force: bool = False
) -> list[Rendered]:
    """The table at its head (or at the seq `hint`) for each socket: the swaps from what it
    was sent (everything when `whole`; `force`: also for a socket at that seq already), in
    its language. Viewers of one kind share their
    records, and every record is rendered once per variant (`combat.pushes.Track`)."""
    table = services.load_table(pk, hint)
    deadline = get_ruleset(table.ruleset).next_deadline(table.state)
    track = pushes.tracks.of(pk)
    views: dict[tuple[Any, ...], tuple[fragments.View, list[pushes.Part]]] = {}
    shared: dict[tuple[Any, ...], pushes.Part] = {}  # records by region and variant
    firsts: dict[tuple[Any, ...], tuple[str, pushes.Shown]] = {}  # whole pages by viewer
    result = []
    for socket in sockets:
        before = None if whole else socket.sent
        if before is not None and socket.seq >= table.seq and not force:
            result.append(Rendered("", before, socket.shown, socket.seq, deadline, before))
            continue
        key = viewer_key(socket)
        with translation.override(socket.language):
            if key not in views:
                view = fragments.View(table, socket.viewer, shared=shared)
                views[key] = (view, fragments.tree(view))
            view, tree = views[key]
            if before is None and key in firsts:  # another tab of this viewer: the same page
                html, shown = firsts[key]
            else:
                render = fragments.Render(view)
                html, shown = pushes.changes(
                    before, socket.shown, tree, track, socket.language, render
                )
                if before is None:
                    firsts[key] = (html, shown)
        result.append(Rendered(html, {p.id: p for p in tree}, shown, table.seq, deadline, before))
    return result


def viewer_key(socket: Any) -> tuple[Any, ...]:
    """Sockets with the same key see the same page: the viewer's role, controller and language."""
    return (socket.viewer.is_gm, socket.viewer.controller, socket.language)


@dataclass(eq=False)
class _Greeting:
    """One table's sockets waiting for their first page (`greet`), and the first pages its
    last rounds rendered, by viewer, while no forced push (`forced`) made them stale."""

    waiting: list[Any] = field(default_factory=list)
    pages: dict[tuple[Any, ...], Rendered] = field(default_factory=dict)
    forced: int = 0
    task: asyncio.Future[None] = field(init=False)


class Live:
    def __init__(self) -> None:
        self.sockets: defaultdict[int, set[Any]] = defaultdict(set)
        self.rendering: dict[int, int] = {}  # table -> the seq its shared push renders now
        self.newest: dict[int, int] = {}  # table -> the newest seq this process heard of
        self.timers: dict[int, asyncio.TimerHandle] = {}  # one expiry timer per table
        self.greetings: dict[int, _Greeting] = {}  # table -> its sockets awaiting a first page
        self.hub = Hub(self.sockets)
        self.homing = Homing(lambda socket: socket in self.of(socket.encounter_id))
        self.watch = Watch(self.sockets, self.catch_up, self.hub.rejoin)

    def of(self, pk: int) -> set[Any]:
        return self.sockets.get(pk, set())

    async def open(self, socket: Socket) -> None:
        pk = socket.encounter_id
        self.sockets[pk].add(socket)
        await self.hub.join(pk, socket)
        self.watch.start()
        if socket.home is not None:
            self.homing.add(socket, socket.home)

    def greet(self, socket: Socket) -> asyncio.Future[None]:
        """Send a socket just opened (`open`) its first page, without holding its handshake,
        so a tab that goes away meanwhile is heard of and costs nothing. The sockets of a
        table that open while its first pages render wait and are rendered next, together, in
        one call of the pool (each viewer's page once); a tab of a viewer whose page a round
        rendered at the newest seq heard of takes that page as it is (a reconnect storm
        brings every tab of a table back at once)."""
        pk = socket.encounter_id
        greeting = self.greetings.get(pk)
        if greeting is None:
            greeting = self.greetings[pk] = _Greeting()
            greeting.task = asyncio.ensure_future(self._greet(pk, greeting))
        greeting.waiting.append(socket)
        return greeting.task  # done when every socket waiting on the table was sent its page

    async def _greet(self, pk: int, greeting: _Greeting) -> None:
        try:
            while greeting.waiting:
                sockets, greeting.waiting = greeting.waiting, []
                try:
                    await self._greet_round(pk, greeting, sockets)
                except Exception:  # noqa: BLE001 - the heartbeat and the watchdog repair a page
                    log.exception("first pages of encounter %s", pk)
        finally:
            if self.greetings.get(pk) is greeting:
                del self.greetings[pk]

    async def _greet_round(self, pk: int, greeting: _Greeting, sockets: list[Any]) -> None:
        """One round of `greet`: the pages a round rendered at the newest seq heard of, else
        one render for the rest of these sockets still open."""
        newest, forced = self.newest.get(pk, -1), greeting.forced
        pages = {key: page for key, page in greeting.pages.items() if page.seq >= newest}
        rest = [s for s in sockets if viewer_key(s) not in pages]

        def work() -> dict[Any, Rendered]:
            still = [s for s in rest if s in self.of(pk)]  # not those closed meanwhile
            return dict(zip(still, render(pk, None, still), strict=True)) if still else {}

        made = await in_pool(work)() if rest else {}
        if greeting.forced == forced:  # else these pages are older than a forced push
            greeting.pages.update((viewer_key(s), one) for s, one in made.items())
        for socket in sockets:
            one = made.get(socket) or pages.get(viewer_key(socket))
            if one is not None and socket in self.of(pk):
                await socket.deliver(one, force=False, ack=None)

    async def close(self, socket: Socket) -> None:
        pk = socket.encounter_id
        sockets = self.sockets.get(pk)
        if sockets is not None:
            sockets.discard(socket)
            if not sockets:
                del self.sockets[pk]
                self.newest.pop(pk, None)
        if socket.home is not None:
            self.homing.discard(socket, socket.home)
        await self.hub.leave(pk, socket)

    async def push_all(self, pk: int, seq: int) -> None:
        """Bring every socket of this process that shows table `pk` to `seq` (or later) with
        one call of the pool: a hop per socket cost more than the rendering it carried.
        Behind on its work (a busy process), it renders the newest seq it has heard of when
        the pool gets to it: the entries between are never rendered, the sockets skip them."""
        self.newest[pk] = max(seq, self.newest.get(pk, -1))
        if self.rendering.get(pk, -1) >= seq:
            return  # a push of this seq (or a later one) to every socket is under way
        behind = [socket for socket in self.of(pk) if socket.seq < seq]
        if not behind:
            return
        self.rendering[pk] = seq
        try:
            await self.send_all(pk, seq, behind, force=False)
        finally:
            if self.rendering.get(pk) == seq:
                del self.rendering[pk]

    def claim(self, pk: int, seq: int) -> int:
        """A command's own hop renders `seq` for every socket of the table here (called on
        the pool): the fan-out of that seq, heard meanwhile, renders nothing again."""
        self.rendering[pk] = max(seq, self.rendering.get(pk, -1))
        return seq

    def release(self, pk: int, seq: int | None) -> None:
        """The hop that claimed `seq` has delivered (or failed)."""
        if seq is not None and self.rendering.get(pk) == seq:
            del self.rendering[pk]

    async def send_all(self, pk: int, hint: int | None, sockets: list[Any], *, force: bool) -> None:
        """Render the table once for these sockets and send each its push (`force`: even to
        those already at its seq: something outside the log changed)."""
        greeting = self.greetings.get(pk)
        if force and greeting is not None:  # first pages rendered before it are stale
            greeting.forced += 1
            greeting.pages.clear()

        def newest() -> tuple[list[Any], list[Rendered]]:
            still = [s for s in sockets if s in self.of(pk)]  # not those closed meanwhile
            latest = max(hint, self.newest.get(pk, -1)) if hint is not None else None
            return still, (render(pk, latest, still, force=force) if still else [])

        still, rendered = await in_pool(newest)()
        await self.deliver(pk, still, rendered, force=force)

    async def deliver(
        self,
        pk: int,
        sockets: list[Any],
        rendered: list[Rendered],
        *,
        force: bool = False,
        ack: tuple[Any, str | None] | None = None,
    ) -> None:
        """Send each socket still open its push; `ack`: (socket, command id) of the sender."""
        for socket, one in zip(sockets, rendered, strict=False):
            if socket in self.of(pk):  # not closed meanwhile
                answer = ack[1] if ack is not None and ack[0] is socket else None
                await socket.deliver(one, force=force, ack=answer)

    async def catch_up(self, pk: int, head: int | None) -> None:
        """The watchdog's repair: bring the table's sockets to the head, or close them when
        the table is gone."""
        if head is None:
            for socket in list(self.of(pk)):
                await socket.close(code=CLOSE_FORBIDDEN)
        else:
            await self.push_all(pk, head)

    def schedule_expiry(self, pk: int, deadline: float) -> None:
        """Resolve the table's deadline when it passes, even if nobody answers or reloads."""
        loop = asyncio.get_running_loop()
        current = self.timers.get(pk)
        when = loop.time() + max(0.0, deadline - clock.now()) + 0.05
        if current is not None and not current.cancelled() and abs(current.when() - when) < 0.01:
            return
        if current is not None:
            current.cancel()
        self.timers[pk] = loop.call_at(when, lambda: asyncio.ensure_future(self._expire(pk)))

    async def _expire(self, pk: int) -> None:
        self.timers.pop(pk, None)
        try:
            await in_pool(services.resolve_expired)(pk)
        except Refused:
            pass  # someone answered or resolved it first
        except Exception:  # noqa: BLE001 - a timer must not die silently; the next push reschedules
            log.exception("resolving expired deadlines of encounter %s", pk)
