"""The table sockets' database work, off the event loop, on a few threads.

Channels' `database_sync_to_async` runs every call of a process in one thread. A command is
mostly waiting for PostgreSQL (a lock, an insert, a commit), so one thread capped a process
near 100 actions per second whatever the CPU did, and queued the rest for seconds. Calls
here run on a small pool instead, each thread with its own connection; appends to one table
still queue on that table's row (its guarded UPDATE, or its lock: `combat.services`), and the
caches they share are locked.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import wraps
from typing import ParamSpec, TypeVar

from django.db import close_old_connections

P = ParamSpec("P")
R = TypeVar("R")

DB_THREADS = int(os.environ.get("DB_THREADS", "8"))  # the pool's database connections
_pool = ThreadPoolExecutor(max_workers=DB_THREADS, thread_name_prefix="table-db")
# A socket's handshake asks one short query (who the viewer is) and must not wait behind the
# renders of a busy pool: a reconnect storm onto a saturated process queued it for seconds,
# and a tab not yet through its handshake can be neither served nor sent home.
HANDSHAKE_THREADS = 2
_handshakes = ThreadPoolExecutor(max_workers=HANDSHAKE_THREADS, thread_name_prefix="handshake")
_local = threading.local()


def in_pool(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """`func` as a coroutine function run on the pool, with Django's connection hygiene
    around each call (as `database_sync_to_async` does)."""
    return _on(_pool, func)


def at_handshake(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """The same on the handshakes' own threads (`HANDSHAKE_THREADS`)."""
    return _on(_handshakes, func)


def _on(pool: ThreadPoolExecutor, func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    @wraps(func)
    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        loop = asyncio.get_running_loop()

        def run() -> R:
            _local.loop = loop
            close_old_connections()
            try:
                return func(*args, **kwargs)
            finally:
                close_old_connections()

        return await loop.run_in_executor(pool, run)

    return call


def event_loop() -> asyncio.AbstractEventLoop | None:
    """The server's event loop, in a pool thread (None elsewhere): what runs there may hand
    it work without waiting (`asyncio.run_coroutine_threadsafe`)."""
    loop = getattr(_local, "loop", None)
    return loop if loop is not None and loop.is_running() else None
