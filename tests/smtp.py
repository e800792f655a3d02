"""A real SMTP server on loopback for the tests (aiosmtpd): the site's mails cross a socket
as in a deployment, and the tests read what arrived.

`SmtpServer` runs in a thread of the test process; `smtp` (tests/conftest.py) points Django's
SMTP backend at it for one test, `tests/browser/conftest.py` points the live server at it.
"""

from __future__ import annotations

import asyncio
import email
import email.header
import email.message
import email.policy
import re
import threading
import time
from dataclasses import dataclass
from typing import Any

from aiosmtpd.controller import Controller

from scripts.bench.processes import free_port


@dataclass(frozen=True)
class Received:
    """One mail as the server received it."""

    to: tuple[str, ...]
    subject: str
    body: str

    def link(self, path: str = "/") -> str:
        """The first link in the body whose path starts with `path`."""
        for url in re.findall(r"https?://\S+", self.body):
            if re.match(r"https?://[^/]+" + re.escape(path), url):
                return url
        raise AssertionError(f"no link to {path} in: {self.body}")


class _Handler:
    def __init__(self) -> None:
        self.mails: list[Received] = []
        self.changed = threading.Condition()
        self.gate = threading.Event()  # cleared: the server holds every mail until it is set
        self.gate.set()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        while not self.gate.is_set():
            await asyncio.sleep(0.02)
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        body = message.get_body(("plain",))
        text = body.get_content() if body is not None else ""
        subject = str(email.header.make_header(email.header.decode_header(message["Subject"])))
        with self.changed:
            self.mails.append(Received(tuple(envelope.rcpt_tos), " ".join(subject.split()), text))
            self.changed.notify_all()
        return "250 Message accepted for delivery"


class SmtpServer:
    """An SMTP server on 127.0.0.1 and a free port, keeping every mail it is sent."""

    def __init__(self) -> None:
        self._handler = _Handler()
        self.port = free_port()
        self._controller = Controller(self._handler, hostname="127.0.0.1", port=self.port)

    def start(self) -> None:
        self._controller.start()

    def stop(self) -> None:
        self._controller.stop()

    @property
    def gate(self) -> threading.Event:
        """Clear it to hold every mail at the DATA step (a slow server); set it to let go."""
        return self._handler.gate

    def clear(self) -> None:
        with self._handler.changed:
            self._handler.mails.clear()

    def mails(self, to: str | None = None) -> list[Received]:
        with self._handler.changed:
            return [m for m in self._handler.mails if to is None or to in m.to]

    def wait(self, count: int = 1, *, to: str | None = None, timeout: float = 10) -> list[Received]:
        """The mails (to that address) once at least `count` arrived; AssertionError after
        `timeout` seconds."""
        end = time.monotonic() + timeout
        with self._handler.changed:
            while True:
                found = [m for m in self._handler.mails if to is None or to in m.to]
                if len(found) >= count:
                    return found
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(found)} of {count} mail(s) to {to} arrived")
                self._handler.changed.wait(left)
