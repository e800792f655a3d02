from __future__ import annotations

from collections.abc import Iterator

import pytest

from combat import clock, fragments, services
from tests.combat.d100_table.helpers import T0, Clock


@pytest.fixture(autouse=True)
def fresh_table_cache() -> Iterator[None]:
    """Each test's database is rolled back and its ids reused: so are the snapshot cache and
    the rendered regions and fragments (keyed by table id and seq)."""
    services.clear_cache()
    fragments.clear_caches()
    yield
    services.clear_cache()
    fragments.clear_caches()


@pytest.fixture(autouse=True)
def server_clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The server's clock (`combat.clock.now`) stands at T0 until a test moves it: deadlines
    pass when the test says so, whatever the sockets and pages ask for."""
    fake = Clock(T0)
    monkeypatch.setattr(clock, "now", fake.now)
    return fake
