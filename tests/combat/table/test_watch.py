"""The per-process watchdog (combat/watch.py): catches up sockets behind the database and has the
process rejoin its groups, with fake sockets and the real database."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest
from channels.db import database_sync_to_async

from combat import watch as watch_module
from combat.models import Encounter
from combat.watch import Watch, _heads
from tests.combat.table.helpers import make_party

pytestmark = [pytest.mark.django_db(transaction=True)]


@dataclass(eq=False)
class Socket:
    seq: int


async def nothing() -> None:
    return None


def test_the_heads_query_finds_every_table_asked_for_and_no_other() -> None:
    first = make_party().encounter
    copies = [Encounter.objects.get(pk=first.pk) for _ in range(2)]
    for copy in copies:
        copy.pk = None
        copy.save()
    tables = [first, *copies]
    for seq, table in zip((3, 7, 9), tables, strict=True):
        Encounter.objects.filter(pk=table.pk).update(seq=seq)
    asked = [t.pk for t in tables[:2]] + [10**9]  # one that does not exist
    assert _heads(asked) == {tables[0].pk: 3, tables[1].pk: 7}
    assert _heads([]) == {}


async def test_a_socket_behind_is_caught_up_and_a_missing_table_reported() -> None:
    party = await database_sync_to_async(make_party)()
    pk = party.encounter.pk
    await Encounter.objects.filter(pk=pk).aupdate(seq=5)
    tables = {
        pk: {Socket(5), Socket(3)},
        10**9: {Socket(0)},
    }
    calls: list[tuple[int, int | None]] = []

    async def catch_up(table: int, head: int | None) -> None:
        calls.append((table, head))

    await Watch(tables, catch_up, nothing).tick()
    assert sorted(calls) == [(pk, 5), (10**9, None)]
    calls.clear()
    tables[pk] = {Socket(5)}  # everyone current: nothing to do
    del tables[10**9]
    await Watch(tables, catch_up, nothing).tick()
    assert calls == []


async def test_the_process_rejoins_its_groups_hourly_not_every_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    party = await database_sync_to_async(make_party)()
    tables = {party.encounter.pk: {Socket(0)}}
    rejoined: list[bool] = []

    async def catch_up(table: int, head: int | None) -> None:
        return None

    async def rejoin() -> None:
        rejoined.append(True)

    watch = Watch(tables, catch_up, rejoin)
    watch.start()  # the hour starts now
    await watch.tick()
    assert rejoined == []
    monkeypatch.setattr(watch_module, "REJOIN_S", 0.0)  # the hour has passed
    await watch.tick()
    assert rejoined == [True]
    tables.clear()  # the watchdog ends with the last socket
    await asyncio.wait_for(watch.task, timeout=5)
