"""Per server process: a watchdog for what the channel layer missed.

The channel layer is at-most-once: a Redis restart forgets every group membership (the core
layer keeps them in Redis) and drops what was in flight, and a publish fails while Redis is
down. Instead of every browser polling (a heartbeat with a query per socket: 3,000 idle
sockets at one per 5 s would take most of a core), each process asks the database once a
second for the heads of the tables its sockets show and catches up any socket behind; and
when Redis comes back with a new run id, it joins its tables' groups again (combat/hub.py).
A missed fan-out is so repaired within about a second, whatever caused it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from channels.layers import get_channel_layer
from django.db import connection

from combat.models import Encounter
from combat.threads import in_pool

log = logging.getLogger(__name__)

WATCH_S = 1.0  # how often a process compares its sockets with the database
# How often the process re-joins its tables' groups anyway: channels-redis forgets a membership
# a day after it was made (its `group_expiry`), and a table may stay open longer than that.
REJOIN_S = 3600.0

CatchUp = Callable[[int, "int | None"], Awaitable[None]]
Rejoin = Callable[[], Awaitable[None]]


class Watch:
    """`tables`: encounter pk → this process's sockets of it (each with its `seq`);
    `catch_up(pk, head)` brings them to the head (None: the table is gone); `rejoin()` joins
    the process to its tables' groups again."""

    def __init__(
        self, tables: Mapping[int, Iterable[Any]], catch_up: CatchUp, rejoin: Rejoin
    ) -> None:
        self.tables, self.catch_up, self.rejoin = tables, catch_up, rejoin
        self.task: asyncio.Task[None] | None = None
        self.redis_id: str | None = None
        self.joined = 0.0  # when `rejoin` last ran (loop time)

    def start(self) -> None:
        if self.task is None or self.task.done():
            loop = asyncio.get_running_loop()
            self.joined = loop.time()  # a table's first socket joins its group as it connects
            self.task = loop.create_task(self.run(), name="table-watch")

    async def run(self) -> None:
        while self.tables:
            await asyncio.sleep(WATCH_S)
            try:
                await self.tick()
            except Exception:  # noqa: BLE001 - the watchdog must outlive a bad second
                log.exception("table watchdog")

    async def tick(self) -> None:
        pks = list(self.tables)
        if not pks:
            return
        heads = await in_pool(_heads)(pks)
        now = asyncio.get_running_loop().time()
        if await self._redis_restarted() or now - self.joined >= REJOIN_S:
            self.joined = now
            await self.rejoin()
        for pk in pks:
            head = heads.get(pk)
            if head is None or any(s.seq < head for s in list(self.tables.get(pk, ()))):
                await self.catch_up(pk, head)

    async def _redis_restarted(self) -> bool:
        """True when the Redis server's run id changed since the last look (it restarted and
        forgot the groups); the first look only remembers it."""
        connection = getattr(get_channel_layer(), "connection", None)
        if connection is None:
            return False  # in-memory layer, or pub/sub (it re-subscribes by itself)
        try:
            info = await connection(0).info("server")
        except Exception:  # noqa: BLE001 - Redis down: look again next second
            return False
        run_id = str(info.get("run_id"))
        restarted = self.redis_id is not None and run_id != self.redis_id
        self.redis_id = run_id
        return restarted


def _heads(pks: list[int]) -> dict[int, int]:
    if connection.vendor == "postgresql":
        # One array parameter: psycopg caches the conversion of a short query, while an IN
        # list of 500 placeholders is a new, long query text to convert every second.
        table = Encounter._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT id, seq FROM {table} WHERE id = ANY(%s)", [pks])  # noqa: S608
            return dict(cursor.fetchall())
    return dict(Encounter.objects.filter(pk__in=pks).values_list("pk", "seq"))
