from __future__ import annotations

from collections.abc import Iterator

import pytest

from combat import fragments, services


@pytest.fixture(autouse=True)
def fresh_table_cache() -> Iterator[None]:
    """Each test's database is rolled back and its ids reused: so are the snapshot cache and
    the rendered regions and fragments (keyed by table id and seq)."""
    services.clear_cache()
    fragments.clear_caches()
    yield
    services.clear_cache()
    fragments.clear_caches()
