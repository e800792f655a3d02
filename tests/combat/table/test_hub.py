"""The per-process hub (combat/hub.py): one socket per table and process (its delegate) is in
the table's group; another takes over when it closes. On the configured channel layer (in
memory, or Redis when REDIS_URL is set), with fake sockets that are bare layer channels."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest
from channels.layers import get_channel_layer

from combat.hub import Hub, group_of

pytestmark = pytest.mark.database  # the configured channel layer: Redis in the second pass


@dataclass(eq=False)
class Socket:
    channel_name: str


def layer() -> Any:
    found = get_channel_layer()
    assert found is not None
    return found


async def new_socket() -> Socket:
    return Socket(await layer().new_channel())


async def say(pk: int, seq: int) -> None:
    await layer().group_send(group_of(pk), {"type": "table.changed", "seq": seq})


async def first_heard(socket: Socket) -> dict[str, Any]:
    """What reaches the socket's channel next; a marker sent to it directly ends the wait, so
    "nothing from the group" is the marker."""
    await layer().send(socket.channel_name, {"type": "marker"})
    return await asyncio.wait_for(layer().receive(socket.channel_name), timeout=5)


async def drain(socket: Socket) -> None:
    while (await asyncio.wait_for(layer().receive(socket.channel_name), timeout=5))[
        "type"
    ] != "marker":
        pass


async def test_one_socket_per_table_is_in_the_group_and_another_takes_over() -> None:
    pk = 9101
    gm, p1 = await new_socket(), await new_socket()
    tables: dict[int, set[Socket]] = {pk: set()}
    hub = Hub(tables)
    for socket in (gm, p1):
        tables[pk].add(socket)
        await hub.join(pk, socket)
    await say(pk, 1)
    assert (await first_heard(gm))["seq"] == 1  # the first is the delegate…
    await drain(gm)
    assert (await first_heard(p1))["type"] == "marker"  # …and the only member
    tables[pk].discard(gm)  # the delegate closes: p1 takes over
    await hub.leave(pk, gm)
    await say(pk, 2)
    assert (await first_heard(p1))["seq"] == 2
    await drain(p1)
    assert (await first_heard(gm))["type"] == "marker"  # a closed socket hears nothing
    tables[pk].discard(p1)
    await hub.leave(pk, p1)
    assert hub.delegates == {}
    await say(pk, 3)
    assert (await first_heard(p1))["type"] == "marker"


async def test_a_socket_that_is_not_the_delegate_leaves_without_a_change() -> None:
    pk = 9102
    gm, p1 = await new_socket(), await new_socket()
    tables = {pk: {gm, p1}}
    hub = Hub(tables)
    await hub.join(pk, gm)
    await hub.join(pk, p1)
    tables[pk].discard(p1)
    await hub.leave(pk, p1)
    await say(pk, 4)
    assert (await first_heard(gm))["seq"] == 4
    await drain(gm)
    tables[pk].discard(gm)
    await hub.leave(pk, gm)


async def test_the_hub_joins_again_what_the_layer_forgot() -> None:
    pk = 9103
    gm = await new_socket()
    tables = {pk: {gm}}
    hub = Hub(tables)
    await hub.join(pk, gm)
    await layer().group_discard(group_of(pk), gm.channel_name)  # as a restarted Redis would
    await hub.rejoin()
    await say(pk, 5)
    assert (await first_heard(gm))["seq"] == 5
    await drain(gm)
    tables[pk].clear()
    await hub.leave(pk, gm)
