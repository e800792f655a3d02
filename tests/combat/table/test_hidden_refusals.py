"""What a player's refusals say while a hidden NPC acts or waits, in each ruleset, over the
table's socket: the NPC is „ktoś ukryty” (or the turn is simply not theirs), its open prompt
answers as one that does not exist, and prompt ids cannot be guessed from one another."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.utils import translation

from characters.models import Character
from combat import fragments, services, verify
from combat.models import Encounter
from combat.rules.base import battle_maps_of
from combat.rules.battlemap import Resize
from combat.rules.registry import get_ruleset
from combat.services import Refused, Viewer
from tests.combat.d100_table.helpers import Tab, make_d100_table, open_tab
from tests.combat.magus_table.helpers import Faces, magus_sheet, make_magus_table
from tests.combat.table.helpers import make_hero, make_party

pytestmark = [pytest.mark.django_db(transaction=True)]

SCOUT = "Zwiadowca"
HIDDEN = "ktoś ukryty"


@dataclass
class Hidden:
    """A running table whose hidden NPC, the scout, is the one acting now."""

    pk: int
    gm: User
    p1: User
    p2: User
    hero1: str
    hero2: str
    scout: str

    def run(self, user: User, command: dict[str, Any], rng: Any = None) -> None:
        viewer = Viewer(user_id=user.pk, is_gm=user == self.gm)
        services.run_command(self.pk, command, viewer=viewer, answer_npcs=False, rng=rng)

    @property
    def state(self) -> Any:
        return services.load_table(self.pk).state


def _d100() -> Hidden:
    t = make_d100_table(hidden_scout=True)
    t.run(t.gm, {"type": "start_combat"})
    return Hidden(t.pk, t.gm, t.p1, t.p2, t.seat("Radosław"), t.seat("Milena"), t.seat(SCOUT))


def _magus() -> Hidden:
    t = make_magus_table()
    scout = Character.objects.create(
        campaign=t.campaign,
        name=SCOUT,
        kind=Character.Kind.NPC,
        sheet=magus_sheet(obrona_fizyczna=1),
    )
    gm = t.gm_viewer
    services.add_combatants(t.encounter.pk, viewer=gm, characters=[scout.pk], hidden=True)
    table = Hidden(t.encounter.pk, t.gm, t.p1, t.p2, t.seat(t.hero1), t.seat(t.hero2), "")
    table.scout = t.seat(scout)
    t.run(t.gm, {"type": "start_combat"})
    declare = {"type": "declare", "action": "attack", "weapon": "Miecz"}
    t.run(t.p1, {**declare, "actor": table.hero1})
    t.run(t.p2, {**declare, "actor": table.hero2})
    for cid, c in table.state.combatants.items():
        if c.controller is None:
            t.run(t.gm, {"type": "declare", "actor": cid})
    for user, seat in ((t.p1, table.hero1), (t.p2, table.hero2)):
        t.run(user, {"type": "roll_initiative", "actor": seat})
    t.run(t.gm, {"type": "roll_initiatives"})
    return table


def _eleora() -> Hidden:
    party = make_party()
    scout = make_hero(party.campaign, None, SCOUT, kind=Character.Kind.NPC)
    services.add_combatants(
        party.encounter.pk, viewer=party.gm_viewer, characters=[scout.pk], hidden=True
    )
    seats = (f"c{party.hero1.pk}", f"c{party.hero2.pk}", f"c{scout.pk}")
    table = Hidden(party.encounter.pk, party.gm, party.p1, party.p2, *seats)
    # The scout first (it acts before anyone attacks it: a combatant yet to act is surprised).
    rolls = dict(
        zip((*seats, f"c{party.bandit.pk}"), ([5, 5], [4, 4], [6, 6], [1, 1]), strict=True)
    )
    table.run(party.gm, {"type": "start_combat", "rolls": rolls})
    return table


BUILDERS = {"d100": _d100, "magus": _magus, "eleora": _eleora}


def hidden_acts(ruleset: str) -> Hidden:
    """The table with the GM ending turns until its hidden scout acts."""
    table = BUILDERS[ruleset]()
    for _turn in range(8):
        if table.state.current == table.scout:
            return table
        table.run(table.gm, {"type": "end_turn", "actor": table.state.current})
    raise AssertionError("the scout never acts")


def attack(ruleset: str, actor: str, target: str) -> dict[str, Any]:
    kind = "declare_attack" if ruleset == "eleora" else "attack"
    command = {"type": kind, "actor": actor, "target": target}
    weapon = {"eleora": "Szabla", "magus": "Miecz"}.get(ruleset)
    return {**command, "weapon": weapon} if weapon else command


async def answer(tab: Tab, message: dict[str, Any]) -> dict[str, Any]:
    """A preview's or a route's answer (a fragment, or an error), for this socket alone."""
    await tab.send_text(json.dumps(message))
    while True:
        got = await tab.receive()
        if got.get("t") == "error" or (got.get("t") == "swap" and "seq" not in got):
            return got


@pytest.mark.parametrize("ruleset", ["d100", "magus", "eleora"])
async def test_it_never_names_the_hidden_npc_whose_turn_it_is(ruleset: str) -> None:
    table = await database_sync_to_async(hidden_acts)(ruleset)
    target = table.hero2
    tab = await open_tab(table, table.p1)  # type: ignore[arg-type]
    heard = [
        await tab.refused(attack(ruleset, table.hero1, target)),
        await tab.refused({"type": "end_turn", "actor": table.hero1}),
    ]
    preview = {"type": "preview", "id": "v1", "command": attack(ruleset, table.hero1, target)}
    heard.append(json.dumps(await answer(tab, preview), ensure_ascii=False))
    await tab.close()
    assert not [text for text in heard if SCOUT in text]
    assert any(HIDDEN in text for text in heard), heard


@pytest.mark.parametrize("ruleset", ["d100", "magus", "eleora"])
async def test_a_route_while_the_hidden_npc_acts_never_names_it(ruleset: str) -> None:
    def mapped() -> Hidden:
        table = hidden_acts(ruleset)
        if battle_maps_of(get_ruleset(services.load_table(table.pk).ruleset)) is None:
            pytest.skip(f"{ruleset} has no battle map")
        gm = Viewer(user_id=table.gm.pk, is_gm=True)
        services.edit_map(table.pk, viewer=gm, edit=Resize(8, 8))
        services.place_token(table.pk, viewer=gm, seat=table.hero1, to=(0, 0))
        services.place_token(table.pk, viewer=gm, seat=table.scout, to=(7, 7))
        return table

    table = await database_sync_to_async(mapped)()
    tab = await open_tab(table, table.p1)  # type: ignore[arg-type]
    route = await answer(tab, {"type": "route", "id": "r1", "actor": table.hero1, "to": [2, 0]})
    await tab.close()
    shown = json.dumps(route, ensure_ascii=False)
    assert SCOUT not in shown
    assert HIDDEN in shown or "Nie twoja tura" in shown, shown


def hidden_prompt(ruleset: str) -> tuple[Hidden, str]:
    """The GM's hero attacks the hidden scout: the scout's prompt stays open (no policy).

    The dice come from the table's own seed (the log must verify), so a Magus attack can
    fumble (every die a one) and ask nothing: then a new table is tried."""
    for _table in range(6):
        table = BUILDERS[ruleset]()
        for _turn in range(8):
            if table.state.current == table.hero1:
                break
            table.run(table.gm, {"type": "end_turn", "actor": table.state.current})
        table.run(table.gm, attack(ruleset, table.hero1, table.scout))
        prompts = [p for p in table.state.prompts if p.actor == table.scout]
        if prompts:
            (prompt,) = prompts
            return table, prompt.id
        _discard(table)
    raise AssertionError("the attack never asks the scout for its defence")


def _discard(table: Hidden) -> None:
    """Make room for the next try: its builder makes the same users again."""
    Encounter.objects.get(pk=table.pk).campaign.delete()
    User.objects.filter(pk__in=[table.gm.pk, table.p1.pk, table.p2.pk]).delete()


ANSWERS = {
    "d100": lambda actor, prompt: {"type": "defend", "actor": actor, "prompt": prompt},
    "magus": lambda actor, prompt: {"type": "answer", "actor": actor, "prompt": prompt},
}


@pytest.mark.parametrize("ruleset", ["d100", "magus"])
async def test_a_hidden_npcs_prompt_answers_as_one_that_does_not_exist(ruleset: str) -> None:
    table, prompt = await database_sync_to_async(hidden_prompt)(ruleset)
    tab = await open_tab(table, table.p2)  # type: ignore[arg-type]
    make = ANSWERS[ruleset]
    real = await tab.refused({**make(table.hero2, prompt), "option": ""})
    bogus = await tab.refused({**make(table.hero2, "p999"), "option": ""})
    await tab.close()
    assert SCOUT not in real
    assert real == bogus


@pytest.mark.parametrize("ruleset", ["d100", "magus", "eleora"])
def test_prompt_ids_cannot_be_guessed(ruleset: str) -> None:
    """Nor from the seed's commitment; the revealed seed gives them again (the log checks)."""
    table, first = hidden_prompt(ruleset)
    assert not re.fullmatch(r"p\d{1,6}", first), first
    assert len(first) >= 12
    encounter = Encounter.objects.get(pk=table.pk)
    report = verify.verify(encounter, seed=encounter.seed, gm_seed=encounter.gm_seed)
    assert report.ok and report.entries[-1].status == verify.OK


def test_in_english_the_hidden_npc_is_someone_hidden() -> None:
    table = hidden_acts("d100")
    viewer = Viewer(user_id=table.p1.pk, is_gm=False)
    with translation.override("en"), pytest.raises(Refused) as refused:
        services.run_command(table.pk, {"type": "end_turn", "actor": table.hero1}, viewer=viewer)
    assert refused.value.message == "Not your turn: someone hidden is acting now."


@pytest.mark.parametrize("ruleset", ["d100", "magus", "eleora"])
def test_the_prompt_of_a_player_attacked_by_a_hidden_npc_never_names_it(ruleset: str) -> None:
    table = hidden_acts(ruleset)
    if ruleset == "eleora":  # the next round: one yet to act in the first is surprised
        for _turn in range(4):
            table.run(table.gm, {"type": "end_turn", "actor": table.state.current})
        assert table.state.current == table.scout
    # Every die high: the scout's attack hits and asks Milena's player for a defence.
    table.run(table.gm, attack(ruleset, table.scout, table.hero2), rng=Faces(7))
    assert [p for p in table.state.prompts if p.actor == table.hero2]
    seen = services.load_table(table.pk)
    shown = fragments.render_one(seen, Viewer(user_id=table.p2.pk, is_gm=False), "table-prompts")
    assert 'id="prompt-' in shown
    assert SCOUT not in shown
