"""Every state the append path commits keeps its mappings in sorted key order, the order a
state read back from the database decodes to (`combat.rules.codec`): the whole verifiable
fights of each ruleset played again, each commit checked. The table settings are exempt:
a settings record is always the one decoded, its order its own `from_dict`'s."""

from __future__ import annotations

from typing import Any

import pytest

from combat import services
from tests.combat.d100_table import test_verify_rolls as d100
from tests.combat.d100_table.conftest import server_clock  # noqa: F401  (the d100 fight's)
from tests.combat.table import test_verify as fights

pytestmark = pytest.mark.django_db
fixed_seeds = fights.fixed_seeds


@pytest.fixture(autouse=True)
def checked(monkeypatch: pytest.MonkeyPatch) -> None:
    commit = services._commit

    def checked_commit(encounter: Any, previous: Any, state: Any, *a: Any, **k: Any) -> Any:
        unsorted = fights.unsorted_mappings(state)
        assert [u for u in unsorted if not u.startswith("state.settings")] == []
        return commit(encounter, previous, state, *a, **k)

    monkeypatch.setattr(services, "_commit", checked_commit)


def test_it_keeps_an_eleora_fights_states_sorted() -> None:
    fights.test_a_whole_fight_verifies_from_its_revealed_seed_its_undone_entry_too()


def test_it_keeps_a_magus_fights_states_sorted() -> None:
    fights.test_a_whole_magus_fight_verifies_from_its_revealed_seed()


def test_it_keeps_a_duels_states_sorted() -> None:
    fights.test_a_whole_duel_verifies_from_its_revealed_seed()


def test_it_keeps_a_d100_fights_states_sorted(server_clock: Any) -> None:  # noqa: F811
    d100.test_every_roll_of_a_seeded_fight_checks_out(server_clock)
