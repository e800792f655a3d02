"""Sweeping the tables that are due, in every server process and from cron.

The by-post pace (`combat.posts`) stores with every head when something next waits there
(`Encounter.due`). Each server process sweeps the tables that are due (`sweep`, every
`SWEEP_S` seconds: `Sweeper`), or a cron job does (`manage.py sweep_tables`): it sends the
reminders whose time came (`posts.remind`) and resolves the deadlines that passed through the
table service, like any command. This module sits above both, so neither imports it back.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from django.conf import settings

from characters import outbox
from combat import clock, posts, services
from combat.access import Refused
from combat.models import Encounter
from combat.rules.registry import get_ruleset
from combat.snapshots import load_table
from combat.threads import in_pool

log = logging.getLogger(__name__)

SWEEP_S = 30.0  # how often a server process sweeps, unless settings.SWEEP_S says otherwise
BATCH = 200  # tables one sweep handles at most (the next sweep takes the rest)


def sweep(now: float | None = None) -> int:
    """Handle every table that is due at `now` (the server's clock by default): send the
    reminders whose time came, resolve the deadlines that passed. The number of tables seen.

    Any process (or cron) may sweep at any time: a reminder goes out once, a deadline is
    resolved once (its command id is derived from it)."""
    moment = clock.now() if now is None else now
    due = (
        Encounter.objects.filter(due__lte=moment)
        .exclude(phase=Encounter.Phase.ENDED)
        .order_by("due")
        .values_list("pk", flat=True)
    )
    pks = list(due[:BATCH])
    for pk in pks:
        try:
            sweep_table(pk, moment)
        except Exception:  # noqa: BLE001 - one broken table must not stop the others
            log.exception("sweeping encounter %s", pk)
    return len(pks)


def sweep_table(pk: int, now: float) -> None:
    """One table that is due: its reminder, then its deadline, then when it is due next."""
    posts.remind(pk, now)
    table = load_table(pk)
    deadline = get_ruleset(table.ruleset).next_deadline(table.state)
    appended = None
    if deadline is not None and deadline <= now:
        try:
            appended = services.resolve_expired(pk, now=now)
        except Refused as refusal:
            log.warning("encounter %s: its deadline was not resolved: %s", pk, refusal.message)
    if appended is None or appended.duplicate:
        posts.settle(pk, now)


class Sweeper:
    """This server process's sweeper: `sweep` on the table pool at once and then every
    `settings.SWEEP_S` seconds (0: none; a cron job or `sweep_tables --loop` sweeps)."""

    def __init__(self, run: Callable[[], Awaitable[int]] | None = None) -> None:
        self.task: asyncio.Task[None] | None = None
        self._run = run or in_pool(sweep)

    @property
    def interval(self) -> float:
        return float(getattr(settings, "SWEEP_S", SWEEP_S) or 0)

    def start(self) -> None:
        """Start sweeping in the running event loop, unless it already does."""
        if self.interval <= 0 or (self.task is not None and not self.task.done()):
            return
        self.task = asyncio.get_running_loop().create_task(self.loop(), name="table-sweep")

    async def loop(self) -> None:
        while self.interval > 0:
            try:
                await self._run()
            except Exception:  # noqa: BLE001 - the sweeper must outlive a bad sweep
                log.exception("sweeping the tables")
            outbox.kick()  # the mails left to try again, or by a process that died
            await asyncio.sleep(self.interval)


sweeper = Sweeper()

ASGIApp = Callable[[Any, Any, Any], Coroutine[Any, Any, None]]


def sweeping(app: ASGIApp) -> ASGIApp:
    """The ASGI application, starting this process's sweeper with its first connection (an
    HTTP request or a socket: the event loop it needs runs by then)."""

    async def application(scope: Any, receive: Any, send: Any) -> None:
        sweeper.start()
        await app(scope, receive, send)

    return application
