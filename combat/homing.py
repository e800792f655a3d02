"""Per server process: the sockets it holds for another process, sent home when that is back.

The front door (deploy/eleora-upstreams.conf) gives every table a home process and sends the
table's sockets there, or to another process while the home is down; the home's address comes
with the socket (`X-Eleora-Home`). When the home has been killed and restarted, the sockets it
lost stay where they went: one process then carries both processes' tables, saturated, while
the restarted one idles. So a process holding sockets whose home is another one looks at that
home ten times a second (a connection opened and closed) and, once it answers, sends those
sockets home, spread over `SPREAD_S` (`send_home`: a page shown opens its next socket, which
the front door takes home, and closes this one once the new one has brought the page; a
socket not yet sent its page is closed, `CLOSE_MOVED`, and the page comes back at once).

The header is believed only from a trusted proxy (`TRUSTED_PROXIES`, as `X-Forwarded-For`
is), and only for a home on this process's own host (the deployment's processes share one
machine): a header that names any other address, or this process itself, is no home.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from django.conf import settings

HEADER = b"x-eleora-home"
LOOK_S = 0.1  # how often a home that is away is looked at
SPREAD_S = 0.25  # the sockets of a home that came back are sent home over this long
# A close code of the application range (see combat.consumers.CLOSE_FLOOD): the page
# reconnects at once (static/js/table.js), without its usual backoff.
CLOSE_MOVED = 4307
MOVE = {"t": "move"}  # to a page shown: open the next socket, then close this one

Home = tuple[str, int]


def home_of(scope: dict[str, Any]) -> Home | None:
    """The socket's home process (host, port) when it is another process on this host, as a
    trusted proxy names it."""
    server, client = scope.get("server"), scope.get("client")
    value = dict(scope.get("headers") or []).get(HEADER)
    if not server or not value or not client or client[0] not in settings.TRUSTED_PROXIES:
        return None
    host, _, port = value.decode("latin-1").rpartition(":")
    if not port.isdigit() or host != server[0] or int(port) == server[1]:
        return None
    return host, int(port)


class Homing:
    """The sockets this process holds for other processes, by home; `open(socket)`: whether
    the socket is still open here."""

    def __init__(self, open: Callable[[Any], bool]) -> None:  # noqa: A002 - the socket's state
        self.away: defaultdict[Home, set[Any]] = defaultdict(set)
        self.open = open
        self.task: asyncio.Task[None] | None = None

    def add(self, socket: Any, home: Home) -> None:
        self.away[home].add(socket)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run(), name="homing")

    def discard(self, socket: Any, home: Home) -> None:
        sockets = self.away.get(home)
        if sockets is not None:
            sockets.discard(socket)
            if not sockets:
                del self.away[home]

    async def run(self) -> None:
        while self.away:
            await asyncio.sleep(LOOK_S)
            for home in list(self.away):
                if await answers(home):
                    for socket in self.away.pop(home, set()):
                        later = random.uniform(0, SPREAD_S)  # noqa: S311 - spreading, not a secret
                        asyncio.get_running_loop().call_later(later, self._send_home, socket)

    def _send_home(self, socket: Any) -> None:
        if self.open(socket):  # not closed meanwhile
            asyncio.ensure_future(socket.send_home())


async def answers(home: Home) -> bool:
    """True when the home process accepts a connection."""
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(*home), 0.25)
    except (OSError, TimeoutError):
        return False
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return True
