"""Numbering counts only what the audience sees (issue 23, point 3), in every ruleset.

Two hidden creatures and one visible of a kind: the players see „<kind> 1”, not „<kind> 3”,
and no id or roll number of theirs counts the hidden ones. The GM tells the hidden apart by
a placeholder („Ghul ?KX”); shown to the players, a hidden creature takes the next free
number. Everything goes through the table's services and the fragments a viewer is sent."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from characters.models import CreatureTemplate
from combat import fragments, services
from combat.models import Encounter
from combat.rules.registry import get_ruleset
from combat.services import Viewer
from combat.snapshots import replay_state
from tests.characters.helpers import make_creature, make_sheet, make_weapon
from tests.combat.d100_table.helpers import make_d100_table
from tests.combat.magus_table.helpers import magus_sheet, make_magus_table
from tests.combat.table.helpers import make_party, wolf

pytestmark = pytest.mark.django_db


@dataclass
class Table:
    """A table in its setup with the GM, a player and their hero seated, and a creature kind."""

    encounter: Encounter
    gm: User
    player: User
    kind: CreatureTemplate

    @property
    def pk(self) -> int:
        return self.encounter.pk

    def viewer(self, user: User) -> Viewer:
        return Viewer(user_id=user.pk, is_gm=user == self.gm)

    def add(self, count: int, *, hidden: bool) -> list[str]:
        """`count` creatures of the kind join; their seat ids, in join order."""
        before = set(services.load_table(self.pk).view.seats)
        services.add_combatants(
            self.pk, viewer=self.viewer(self.gm), creatures={self.kind.pk: count}, hidden=hidden
        )
        seats = services.load_table(self.pk).view.seats
        return [seat for seat in seats if seat not in before]

    def show(self, seat: str) -> None:
        """The GM shows a hidden seat to the players."""
        rules = get_ruleset(self.encounter.ruleset)
        command = rules.command_to_dict(rules.visibility_command(seat, hidden=False))
        services.run_command(self.pk, command, viewer=self.viewer(self.gm))

    def name(self, seat: str) -> str:
        return services.load_table(self.pk).view.seats[seat].name

    def html(self, user: User) -> str:
        return fragments.render_regions(services.load_table(self.pk), self.viewer(user))


def eleora() -> Table:
    party = make_party()
    return Table(party.encounter, party.gm, party.p1, own_or_shared(party.campaign, wolf))


def own_or_shared(campaign: Any, shared: Callable[[], CreatureTemplate]) -> CreatureTemplate:
    """The shared bestiary's creature, or a copy of the campaign's own where the shared ones
    are gone (a transactional test empties the tables the migrations filled)."""
    try:
        return shared()
    except CreatureTemplate.DoesNotExist:
        return make_creature(campaign, "Wilk", make_sheet(weapons=[make_weapon("Ugryzienie")]))


def d100() -> Table:
    table = make_d100_table(seated=False)
    services.add_combatants(
        table.pk,
        viewer=table.gm_viewer,
        characters=[table.hero1.pk, table.hero2.pk, table.bandit.pk],
    )
    assert table.wolf is not None
    return Table(table.encounter, table.gm, table.p1, table.wolf)


def magus() -> Table:
    table = make_magus_table()
    kind = CreatureTemplate.objects.create(
        campaign=table.campaign, ruleset="magus", name="Ghul", sheet=magus_sheet()
    )
    return Table(table.encounter, table.gm, table.p1, kind)


RULESETS: dict[str, Callable[[], Table]] = {"eleora": eleora, "d100": d100, "magus": magus}
rulesets = pytest.mark.parametrize("make", list(RULESETS.values()), ids=list(RULESETS))


def numbers_in(html: str, base: str) -> set[int]:
    return {int(n) for n in re.findall(rf"{re.escape(base)} (\d+)", html)}


def kind_ids_in(html: str, kind: CreatureTemplate) -> set[str]:
    """The seat ids of this kind in a page ("t7-1"…)."""
    return set(re.findall(rf"\bt{kind.pk}-\w+", html))


@rulesets
def test_players_number_only_the_creatures_they_see(make: Callable[[], Table]) -> None:
    t = make()
    hidden = t.add(2, hidden=True)
    (visible,) = t.add(1, hidden=False)
    base = t.kind.name
    assert t.name(visible) == f"{base} 1"
    html = t.html(t.player)
    assert numbers_in(html, base) == {1}
    # Nor does its id count them: the only id of the kind in the page is its own, and the
    # hidden seats' ids are nowhere.
    assert kind_ids_in(html, t.kind) == {visible}
    assert visible.endswith("-1")
    for seat in hidden:
        assert seat not in html and t.name(seat) not in html


@rulesets
def test_the_gm_tells_the_hidden_apart_by_placeholders_that_count_nothing(
    make: Callable[[], Table],
) -> None:
    t = make()
    hidden = t.add(2, hidden=True) + t.add(1, hidden=True)
    names = [t.name(seat) for seat in hidden]
    base = re.escape(t.kind.name)
    assert len(set(names)) == 3, names
    assert all(re.fullmatch(rf"{base} \?[A-Z0-9]+", name) for name in names), names
    html = t.html(t.gm)
    assert all(name in html for name in names)
    assert not any(seat.endswith(("-1", "-2", "-3")) for seat in hidden), hidden


@rulesets
def test_a_creature_shown_to_the_players_takes_the_next_free_number(
    make: Callable[[], Table],
) -> None:
    t = make()
    first, second = t.add(2, hidden=True)
    (visible,) = t.add(1, hidden=False)
    base = t.kind.name
    t.show(second)
    assert t.name(second) == f"{base} 2"
    assert numbers_in(t.html(t.player), base) == {1, 2}
    t.show(first)
    assert t.name(first) == f"{base} 3"
    (later,) = t.add(1, hidden=False)
    assert t.name(later) == f"{base} 4"
    assert numbers_in(t.html(t.player), base) == {1, 2, 3, 4}
    # Hidden after the players saw it, a creature keeps its number; shown again, too.
    rules = get_ruleset(t.encounter.ruleset)
    services.run_command(
        t.pk,
        rules.command_to_dict(rules.visibility_command(visible, hidden=True)),
        viewer=t.viewer(t.gm),
    )
    (fifth,) = t.add(1, hidden=False)
    t.show(visible)
    assert (t.name(visible), t.name(fifth)) == (f"{base} 1", f"{base} 5")
    # The names come from the log: a replay gives them again.
    t.encounter.refresh_from_db()
    assert replay_state(t.encounter) == services.load_table(t.pk).state


def test_a_copy_keeps_the_numbers_and_the_placeholders() -> None:
    t = eleora()
    hidden, shown = t.add(2, hidden=True)
    t.add(1, hidden=False)
    t.show(shown)
    source = services.load_table(t.pk).view.seats
    new = services.copy_encounter(source=t.encounter, by=t.gm, name="Kopia")
    copied = services.load_table(new.pk).view.seats.values()
    names = sorted((s.name, s.hidden) for s in source.values())
    assert sorted((s.name, s.hidden) for s in copied) == names
    assert ("Wilk 2", False) in names and re.fullmatch(r"Wilk \?\w+", source[hidden].name)


class Faces:
    """Dice that show these faces, in turn (then 1s)."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return max(a, min(b, self.faces.pop(0) if self.faces else 1))


def lurking_start() -> tuple[Table, int]:
    """The fight starts with a hidden wolf first in Inicjatywa: the entry's first roll is one
    the players may not see; the entry's seq."""
    party = make_party(with_combatants=False)
    t = Table(party.encounter, party.gm, party.p1, wolf())
    gm = t.viewer(t.gm)
    t.add(1, hidden=True)
    services.add_combatants(t.pk, viewer=gm, characters=[party.hero1.pk, party.hero2.pk])
    start = {"type": "start_combat"}
    appended = services.run_command(t.pk, start, viewer=gm, rng=Faces(6, 6, 3, 2, 2, 1))
    lines = services.load_table(t.pk).log[-1].lines
    assert lines[0]["actors"] == [next(iter(services.load_table(t.pk).view.seats))]
    assert lines[0].get("rolls") and lines[1].get("rolls"), lines[:2]
    return t, appended.seq


def test_a_player_numbers_only_the_rolls_they_see() -> None:
    """An entry with a hidden creature's roll before the heroes': the player's log numbers
    the rolls they see 1, 2, … and the GM's log gives those rolls the same numbers, the
    hidden roll after them (3)."""
    t, seq = lurking_start()
    links = re.compile(rf"#{seq}\.(\d+)<")

    def numbers(user: User) -> list[int]:
        return sorted(int(n) for n in links.findall(t.html(user)))

    gm_numbers, player_numbers = numbers(t.gm), numbers(t.player)
    assert gm_numbers == [1, 2, 3]
    assert player_numbers == [1, 2]


def test_a_players_page_of_rolls_numbers_what_they_see() -> None:
    t, seq = lurking_start()
    client = Client()
    client.force_login(t.player)
    page = client.get(reverse("encounter_roll", args=[t.pk, seq])).content.decode()
    assert sorted(int(n) for n in re.findall(r'id="r(\d+)"', page)) == [1, 2]
