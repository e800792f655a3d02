"""Per server process: one socket per table in the table's group, for all of them.

A table's group holds one member per server process that shows it (its delegate: one of the
process's sockets of that table), not one per socket. An action so costs the channel layer one
message per process instead of one per open tab (six for a table of a GM and five players),
and the delegate brings every socket of the process up to date itself (`live.Live.push_all`).
When the delegate closes, another socket of the table takes its place; a message lost in the
switch is repaired by the watchdog (combat/watch.py) within a second.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping
from concurrent.futures import Future
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

from combat import threads

log = logging.getLogger(__name__)


def group_of(pk: int) -> str:
    return f"encounter-{pk}"


def send(pk: int, message: dict[str, Any]) -> None:
    """Send a table's group message to every process showing it (the hook the table service
    publishes through: `combat.publishing`, registered in combat/apps.py).

    In the server's sync thread the message is handed to the event loop without waiting for
    Redis: every table of the process renders in that one thread, and waiting held it ~2 ms
    per command (seconds while Redis is down). Elsewhere it is sent before returning."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = threads.event_loop() or getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is not None and loop.is_running():
        sent = asyncio.run_coroutine_threadsafe(layer.group_send(group_of(pk), message), loop)
        sent.add_done_callback(_report_failure)
    else:
        async_to_sync(layer.group_send)(group_of(pk), message)


def _report_failure(sent: Future[None]) -> None:
    if not sent.cancelled() and sent.exception() is not None:
        log.error("publishing to a table failed", exc_info=sent.exception())


class Hub:
    """`tables`: encounter pk → this process's sockets of it (each with its `channel_name`)."""

    def __init__(self, tables: Mapping[int, Iterable[Any]]) -> None:
        self.tables = tables
        self.delegates: dict[int, Any] = {}

    async def join(self, pk: int, socket: Any) -> None:
        """`socket` of table `pk` opened: it becomes the delegate if the table has none."""
        current = self.delegates.get(pk)
        if current is None or current not in self.tables.get(pk, ()):
            self.delegates[pk] = socket
            await _layer().group_add(group_of(pk), socket.channel_name)

    async def leave(self, pk: int, socket: Any) -> None:
        """`socket` closed (and is no longer in `tables`): if it was the delegate, another
        socket of the table takes over, joined before the old one leaves."""
        if self.delegates.get(pk) is not socket:
            return
        del self.delegates[pk]
        successor = next(iter(self.tables.get(pk, ())), None)
        if successor is not None:
            await self.join(pk, successor)
        await _layer().group_discard(group_of(pk), socket.channel_name)

    async def rejoin(self) -> None:
        """Join every delegate again (the layer forgot the groups: Redis restarted, or a day
        passed, channels-redis's `group_expiry`)."""
        for pk, socket in list(self.delegates.items()):
            await _layer().group_add(group_of(pk), socket.channel_name)


def _layer() -> Any:
    layer = get_channel_layer()
    assert layer is not None
    return layer
