from __future__ import annotations

from collections.abc import Iterator

import pytest

from combat import services


@pytest.fixture(autouse=True)
def fresh_table_cache() -> Iterator[None]:
    """Each test's database is rolled back and its ids reused: so is the snapshot cache."""
    services.clear_cache()
    yield
    services.clear_cache()
