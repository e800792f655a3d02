"""Fan-out through the real Redis on loopback: what several server processes rely on."""

from __future__ import annotations

import asyncio
import uuid

from channels_redis.core import RedisChannelLayer

REDIS = "redis://127.0.0.1:6379/14"


async def test_it_fans_out_a_group_message_between_two_layer_instances() -> None:
    # Two layer instances stand for two server processes sharing one Redis.
    sender, receiver = RedisChannelLayer(hosts=[REDIS]), RedisChannelLayer(hosts=[REDIS])
    group = f"table-{uuid.uuid4().hex}"
    channels = [await receiver.new_channel() for _ in range(3)]
    for name in channels:
        await receiver.group_add(group, name)
    try:
        await sender.group_send(group, {"type": "table.changed", "seq": 7})
        got = [await asyncio.wait_for(receiver.receive(name), timeout=5) for name in channels]
        assert got == [{"type": "table.changed", "seq": 7}] * 3
    finally:
        for name in channels:
            await receiver.group_discard(group, name)
        await sender.close_pools()
        await receiver.close_pools()


async def test_it_stops_delivering_after_group_discard() -> None:
    layer = RedisChannelLayer(hosts=[REDIS])
    group = f"table-{uuid.uuid4().hex}"
    stays, leaves = await layer.new_channel(), await layer.new_channel()
    await layer.group_add(group, stays)
    await layer.group_add(group, leaves)
    await layer.group_discard(group, leaves)
    try:
        await layer.group_send(group, {"type": "table.changed", "seq": 1})
        assert await asyncio.wait_for(layer.receive(stays), timeout=5) == {
            "type": "table.changed",
            "seq": 1,
        }
        # The discarded channel gets nothing: a direct message proves its queue is empty.
        await layer.send(leaves, {"type": "probe"})
        assert await asyncio.wait_for(layer.receive(leaves), timeout=5) == {"type": "probe"}
    finally:
        await layer.group_discard(group, stays)
        await layer.close_pools()
