"""A table to play on: a GM, two players with a hero each, an NPC and the shared wolves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from characters.models import Campaign, Character, CreatureTemplate
from combat import services, snapshots
from combat.models import Encounter
from combat.services import Viewer
from tests.characters.helpers import make_campaign, make_member, make_sheet, make_user, make_weapon


@dataclass
class Party:
    gm: User
    p1: User
    p2: User
    campaign: Campaign
    hero1: Character
    hero2: Character
    bandit: Character
    encounter: Encounter

    def viewer(self, user: User) -> Viewer:
        return Viewer(user_id=user.pk, is_gm=user == self.gm)

    @property
    def gm_viewer(self) -> Viewer:
        return self.viewer(self.gm)


def make_hero(campaign: Campaign, owner: User | None, name: str, **kind: Any) -> Character:
    sheet = make_sheet(
        attributes={"zrecznosc": 3, "intuicja": 2},
        skills={"bron_lekka": 3},
        weapons=[make_weapon("Szabla", damage=3)],
    )
    return Character.objects.create(campaign=campaign, owner=owner, name=name, sheet=sheet, **kind)


def make_party(*, with_combatants: bool = True) -> Party:
    gm = make_user("mistrz")
    campaign = make_campaign(gm, "Wilki")
    p1, p2 = make_member(campaign, "gracz1"), make_member(campaign, "gracz2")
    hero1 = make_hero(campaign, p1, "Radosław")
    hero2 = make_hero(campaign, p2, "Milena")
    bandit = make_hero(campaign, None, "Bandyta", kind=Character.Kind.NPC)
    encounter = services.create_encounter(campaign=campaign, name="Zasadzka", by=gm)
    party = Party(gm, p1, p2, campaign, hero1, hero2, bandit, encounter)
    if with_combatants:
        services.add_combatants(
            encounter.pk,
            viewer=party.gm_viewer,
            characters=[hero1.pk, hero2.pk, bandit.pk],
        )
    return party


def wolf() -> CreatureTemplate:
    return CreatureTemplate.objects.get(campaign=None, name="Wilk")


def stored_head(encounter: Encounter) -> dict[str, Any]:
    """The head state as the database gives it (the state the row keeps, the entries after it
    folded on), as a dict: what a load in another process starts from."""
    row = Encounter.objects.get(pk=encounter.pk)
    return row.rules().state_to_dict(snapshots.head_state(row))


def state_of(encounter: Encounter) -> Any:
    return services.load_table(encounter.pk).state


def start(party: Party) -> Any:
    """Start the fight with fixed initiative rolls: hero1, then hero2, then the bandit."""
    rolls = {
        f"c{party.hero1.pk}": [6, 6],
        f"c{party.hero2.pk}": [4, 4],
        f"c{party.bandit.pk}": [1, 1],
    }
    services.run_command(
        party.encounter.pk,
        {"type": "start_combat", "rolls": rolls},
        viewer=party.gm_viewer,
        command_id="start",
    )
    return state_of(party.encounter)
