"""Lists are never stale: every write to a campaign's characters or creatures tells its open
tables after commit, and the GM's add list rendered then shows the change."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import reverse

from characters import services
from characters.models import Campaign, Character, CreatureTemplate
from characters.transfer import CharacterEntry, CreatureEntry
from combat import fragments
from combat import services as tables
from combat.models import Encounter

from .helpers import client_for, make_campaign, make_character, make_creature, make_sheet

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_table_cache() -> Iterator[None]:
    """Rolled-back databases reuse table ids: so would the snapshot cache."""
    tables.clear_cache()
    fragments.clear_caches()
    yield
    tables.clear_cache()
    fragments.clear_caches()


@pytest.fixture
def campaign() -> Campaign:
    return make_campaign()


@pytest.fixture
def pushed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int, bool]]:
    """Every (table, seq, roster changed) published to the tables' sockets."""
    calls: list[tuple[int, int, bool]] = []

    def publish(encounter_id: int, seq: int, *, roster: bool = False) -> None:
        calls.append((encounter_id, seq, roster))

    monkeypatch.setattr(tables, "publish", publish)
    return calls


def make_table(campaign: Campaign, name: str = "Starcie") -> Encounter:
    return tables.create_encounter(campaign=campaign, name=name, by=campaign.gm)


def gm_list(encounter: Encounter) -> str:
    """The GM's region of the table as a push renders it."""
    table = tables.load_table(encounter.pk)
    return fragments.render_one(
        table, tables.Viewer(user_id=encounter.campaign.gm_id, is_gm=True), "table-gm"
    )


def test_it_pushes_a_new_creature_to_the_campaigns_open_tables_after_commit(
    campaign: Campaign, pushed: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    first, second = make_table(campaign), make_table(campaign, "Drugie")
    ended = make_table(campaign, "Dawne")
    Encounter.objects.filter(pk=ended.pk).update(phase=Encounter.Phase.ENDED)
    make_table(make_campaign(name="Inna"))
    assert "Upiór" not in gm_list(first)
    with django_capture_on_commit_callbacks() as callbacks:
        services.save_creature(
            creature=CreatureTemplate(campaign=campaign, ruleset="eleora", name="Upiór"),
            sheet=make_sheet(),
        )
        assert pushed == []  # nothing before commit
    for callback in callbacks:
        callback()
    assert sorted(pushed) == [(first.pk, 0, True), (second.pk, 0, True)]
    assert "Upiór" in gm_list(first)


def test_it_pushes_a_renamed_and_a_removed_character(
    campaign: Campaign, pushed: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    encounter = make_table(campaign)
    character = make_character(campaign, "Borys", kind=Character.Kind.NPC)
    character.name = "Borysław"
    with django_capture_on_commit_callbacks(execute=True):
        services.save_character(character=character, sheet=make_sheet(), old_portrait="")
    assert pushed == [(encounter.pk, 0, True)]
    assert "Borysław" in gm_list(encounter)
    with django_capture_on_commit_callbacks(execute=True):
        services.delete_character(character=character)
    assert len(pushed) == 2
    assert "Borysław" not in gm_list(encounter)


def test_every_writer_of_the_campaigns_lists_pushes(
    campaign: Campaign, pushed: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    encounter = make_table(campaign)
    shared = CreatureTemplate.objects.get(campaign=None, name="Wilk")
    own = make_creature(campaign, "Dzik leśny")
    sheet = make_sheet()
    writers = [
        lambda: services.copy_creature(creature=shared, campaign=campaign),
        lambda: services.instantiate_creature(creature=shared, campaign=campaign, count=2),
        lambda: services.import_characters(
            campaign=campaign,
            entries=[CharacterEntry(name="Ola", kind="pc", notes="", sheet=sheet)],
        ),
        lambda: services.import_creatures(
            campaign=campaign, entries=[CreatureEntry(name="Ryś", description="", sheet=sheet)]
        ),
        lambda: services.delete_creature(creature=own),
    ]
    for number, write in enumerate(writers, 1):
        with django_capture_on_commit_callbacks(execute=True):
            write()
        assert pushed[-1] == (encounter.pk, 0, True) and len(pushed) == number


def test_a_shared_creature_reaches_the_open_tables_of_its_ruleset(
    campaign: Campaign, pushed: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    encounter, other = make_table(campaign), make_table(make_campaign(name="Inna"))
    with django_capture_on_commit_callbacks(execute=True):
        services.save_creature(
            creature=CreatureTemplate(campaign=None, ruleset="eleora", name="Wiwerna"),
            sheet=make_sheet(),
        )
    assert sorted(pushed) == sorted([(encounter.pk, 0, True), (other.pk, 0, True)])


def test_the_bestiary_page_delete_pushes(
    campaign: Campaign, pushed: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    encounter = make_table(campaign)
    creature = make_creature(campaign, "Upiór")
    url = reverse("creature-delete", args=[campaign.pk, creature.pk])
    with django_capture_on_commit_callbacks(execute=True):
        client_for(campaign.gm).post(url)
    assert not CreatureTemplate.objects.filter(pk=creature.pk).exists()
    assert pushed == [(encounter.pk, 0, True)]
