"""A table of Pojedynek (the ruleset in tests/duel) to play on: a GM, a player with a hero, an
NPC, and an encounter.

Both fighters have Atak 10, so every attack hits (d20 + 10 ≥ 11) and opens a prompt; the NPC's
Obrona 10 parries on any d100, and Życie 30 outlasts a few rounds of d6.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from characters import services as characters_services
from characters.models import Campaign, Character
from combat import services
from combat.models import Encounter
from tests.characters.helpers import make_member, make_user
from tests.duel import RULESET

HERO = "Radosław"
NPC = "Zbój"


def duel_sheet(atak: int = 5, obrona: int = 5, zycie: int = 20, premia: int = 0) -> dict[str, Any]:
    return {
        "attributes": {"atak": atak, "obrona": obrona, "zycie": zycie},
        "skills": {},
        "bron": [{"name": "Miecz", "premia": premia}],
    }


@dataclass
class DuelTable:
    gm: User
    player: User
    campaign: Campaign
    hero: Character
    npc: Character
    encounter: Encounter


def make_duel_campaign(gm: User, name: str = "Pojedynki") -> Campaign:
    return characters_services.create_campaign(gm=gm, name=name, description="", ruleset="duel")


def make_duel_table() -> DuelTable:
    gm = make_user("mistrz")
    campaign = make_duel_campaign(gm)
    player = make_member(campaign, "gracz")
    hero = Character.objects.create(
        campaign=campaign, owner=player, name=HERO, sheet=duel_sheet(10, 5, 30, premia=1)
    )
    npc = Character.objects.create(
        campaign=campaign, name=NPC, kind=Character.Kind.NPC, sheet=duel_sheet(10, 10, 30)
    )
    encounter = services.create_encounter(campaign=campaign, name="Na moście", by=gm)
    return DuelTable(gm, player, campaign, hero, npc, encounter)


def seat_ids(state: Any) -> tuple[str, str]:
    """The hero's and the NPC's seat ids, found by name as the table shows them."""
    by_name = {seat.name: cid for cid, seat in RULESET.table_view(state).seats.items()}
    return by_name[HERO], by_name[NPC]
