"""Which process is a socket's home (combat/homing.py): only another process on this host,
named by the front door's header."""

from __future__ import annotations

from typing import Any

import pytest

from combat.homing import home_of


def scope(header: bytes | None, server: Any = ("127.0.0.1", 8002)) -> dict[str, Any]:
    headers = [(b"origin", b"http://x"), *([(b"x-eleora-home", header)] if header else [])]
    return {"server": server, "headers": headers}


def test_another_process_on_this_host_is_the_home() -> None:
    assert home_of(scope(b"127.0.0.1:8001")) == ("127.0.0.1", 8001)


@pytest.mark.parametrize(
    "header, server",
    [
        (None, ("127.0.0.1", 8002)),  # no front door (make run)
        (b"127.0.0.1:8002", ("127.0.0.1", 8002)),  # this process is the home
        (b"10.0.0.5:8001", ("127.0.0.1", 8002)),  # another host: not believed
        (b"127.0.0.1:http", ("127.0.0.1", 8002)),
        (b"127.0.0.1", ("127.0.0.1", 8002)),
        (b":8001", ("127.0.0.1", 8002)),
        (b"127.0.0.1:8001", None),  # a server that does not say where it listens
    ],
)
def test_anything_else_is_no_home(header: bytes | None, server: Any) -> None:
    assert home_of(scope(header, server)) is None
