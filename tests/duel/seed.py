"""A duel campaign in a demo database, for the browser test's server (run after `seed_demo`):

    manage.py shell -c "from tests.duel.seed import seed_duel; seed_duel()"

The demo GM runs it and gracz1 plays the hero; the encounter starts empty (the GM adds both
fighters at the table). Prints the ids as JSON on its last line.
"""

from __future__ import annotations

import json

from django.contrib.auth.models import User
from django.db import transaction

from characters import services as characters_services
from characters.models import Character
from combat import services
from tests.duel.helpers import HERO, NPC, duel_sheet

CAMPAIGN = "Pojedynek na moście"
ENCOUNTER = "Most nad Czarną Wodą"


@transaction.atomic
def seed_duel(gm: str = "mistrz", player: str = "gracz1") -> dict[str, int]:
    master, hero_owner = User.objects.get(username=gm), User.objects.get(username=player)
    campaign = characters_services.create_campaign(
        gm=master, name=CAMPAIGN, description="Dwóch na wąskim moście.", ruleset="duel"
    )
    characters_services.join_campaign(campaign=campaign, user=hero_owner)
    Character.objects.create(
        campaign=campaign, owner=hero_owner, name=HERO, sheet=duel_sheet(10, 5, 30, premia=1)
    )
    Character.objects.create(
        campaign=campaign, name=NPC, kind=Character.Kind.NPC, sheet=duel_sheet(10, 10, 30)
    )
    encounter = services.create_encounter(campaign=campaign, name=ENCOUNTER, by=master)
    ids = {"campaign": campaign.pk, "encounter": encounter.pk}
    print(json.dumps(ids))  # noqa: T201 - the fixture reads it
    return ids
