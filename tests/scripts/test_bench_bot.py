"""The benchmark's bot (scripts/bench/bot.py) against pages the app renders: on a table of
each ruleset from the benchmark's world (scripts/bench/world.py) it finds a form, fills it as
static/js/table.js would, and the table runs it; played for a while, it attacks, answers the
prompts it is asked and moves the log on. Also the load's Poisson schedule."""

from __future__ import annotations

import json
import random
import statistics
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from combat import consumers, fragments, protocol, services
from combat.access import Refused, viewer_at
from scripts.bench import bot, world
from scripts.bench.load import arrivals


@pytest.fixture(autouse=True)
def fresh_caches() -> Iterator[None]:
    """Each test's database is rolled back and its ids reused: so are the caches by id."""
    services.clear_cache()
    fragments.clear_caches()
    yield
    services.clear_cache()
    fragments.clear_caches()


@pytest.fixture
def tables(db: Any) -> dict[str, dict[str, Any]]:
    """The benchmark's first three tables, one of each ruleset, by ruleset."""
    return {t["ruleset"]: t for t in world.build(3)["tables"]}


class Player:
    """A table's pages as the load keeps them, pushed by rendering every region anew."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec, self.pk = spec, spec["pk"]
        self.users = {name: User.objects.get(username=name) for name in spec["users"]}
        self.viewers = [
            bot.Viewer(name, gm=i == 0, controllers=spec["controllers"])
            for i, name in enumerate(spec["users"])
        ]
        self.rng = random.Random(self.pk)
        self.refusals = bot.Refusals()
        self.sent: Counter[str] = Counter()
        self.done: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()

    def push(self) -> int:
        table = services.load_table(self.pk)
        for viewer in self.viewers:
            seen = viewer_at(self.users[viewer.user], self.pk)
            assert seen is not None
            viewer.regions.update("".join(fragments.regions(table, seen).values()))
        return table.seq

    def step(self, step: int) -> dict[str, Any] | None:
        """One action, a prompt's answer first when one is open; the message it sent."""
        seq = self.push()
        refused = self.refusals.active(seq)
        controllers = self.spec["controllers"]
        got = bot.pick(self.viewers, controllers, self.rng, refused=refused, prompts=True)
        got = got or bot.pick(self.viewers, controllers, self.rng, refused=refused)
        if got is None:
            return None
        viewer, form = got
        message = bot.message(
            form,
            viewer.forms()[1],
            self.rng,
            command_id=f"bot-{self.pk}-{step}",
            seq=seq,
            foe=bot.foe_of(viewer, controllers),
        )
        self.sent[form.kind()] += 1
        seen = viewer_at(self.users[viewer.user], self.pk)
        assert seen is not None
        try:
            consumers._dispatch(self.pk, seen, protocol.parse(json.dumps(message)))
        except Refused as refusal:
            self.refused[refusal.message] += 1
            self.refusals.add(form, seq)
            return message
        if services.load_table(self.pk).seq == seq or form.kind() == "play":
            self.refusals.add(form, seq)  # changed nothing, or played: something else next
        if services.load_table(self.pk).seq > seq:
            self.done[form.kind()] += 1
        return message


@pytest.mark.parametrize("ruleset", world.RULESETS)
def test_it_fills_a_command_the_table_runs(tables: dict[str, Any], ruleset: str) -> None:
    spec = tables[ruleset]
    player = Player(spec)
    # The rules may refuse a pick (a random foe out of reach: the world's places vary); the
    # bot then leaves that form out and fills another, as the load does.
    for step in range(10):
        before = player.push()
        message = player.step(step)
        assert message is not None
        assert message["type"] in ("command", "play") and message["seq"] == before
        if services.load_table(spec["pk"]).seq > before:
            break
    else:
        pytest.fail(f"ten picks and none ran: {player.refused}")


@pytest.mark.parametrize("ruleset", world.RULESETS)
def test_it_plays_a_table_with_attacks_and_answers(tables: dict[str, Any], ruleset: str) -> None:
    player = Player(tables[ruleset])
    start = player.push()
    for step in range(40):
        player.step(step)
    assert player.done["attack"] + player.done["play"] > 0, (player.done, player.refused)
    assert services.load_table(player.pk).seq > start + 15, (player.done, player.refused)
    # Refusals happen (a bow not loaded, a target out of reach); most actions are not.
    assert sum(player.refused.values()) < sum(player.sent.values()) / 2, player.refused


def test_it_answers_a_prompt_meant_for_it(tables: dict[str, Any]) -> None:
    player = Player(tables["eleora"])
    for step in range(60):
        player.push()
        if any(v.regions.has_prompt_for_me() for v in player.viewers):
            break
        player.step(step)
    else:
        pytest.fail(f"no prompt in 60 actions: {player.done}, {player.refused}")
    got = bot.pick(player.viewers, player.spec["controllers"], player.rng, prompts=True)
    assert got is not None
    viewer, form = got
    assert form.kind() == "prompt" and form.mine
    seq = player.push()
    player.step(99)
    assert services.load_table(player.pk).seq > seq, player.refused


@pytest.mark.parametrize("ruleset", ["eleora", "d100"])
def test_it_moves_a_token_by_a_tap_on_the_map_and_its_confirm(
    tables: dict[str, Any], ruleset: str
) -> None:
    player = Player(tables[ruleset])
    seq = player.push()
    controllers = player.spec["controllers"]
    (viewer,) = [v for v in player.viewers if bot.route(v, lambda seat: True, player.rng)]
    seen = viewer_at(player.users[viewer.user], player.pk)
    assert seen is not None
    # Too far, or a wall or a token in the way (the world's rolls and places vary): the panel
    # says why, and the bot taps nearer.
    foe = bot.foe_of(viewer, controllers)
    taps = [bot.route(viewer, foe, player.rng, reach) for reach in (1.0,) * 4 + (0.5,) * 4]
    # Last, the fields around the actor itself (every foe may stand behind walls or others).
    near = bot.route(viewer, lambda seat: True, player.rng, 0.0)
    assert near is not None
    (x, y) = near["to"]
    taps += [{**near, "to": [x + dx, y + dy]} for dx, dy in bot.STEPS if x + dx >= 0 <= y + dy]
    for tap in taps:
        answer = consumers._dispatch(player.pk, seen, protocol.parse(json.dumps(tap)))
        assert isinstance(answer, str) and bot.ROUTE in viewer.regions.update(answer)
        confirms = [f for f in viewer.forms()[0] if f.region == bot.ROUTE and f.fillable()]
        if confirms:
            break
    else:
        pytest.fail("no tap near the actor or a foe could be confirmed")
    assert confirms[0].kind() == "move"
    sent = bot.message(confirms[0], {}, player.rng, command_id="move-1", seq=seq)
    consumers._dispatch(player.pk, seen, protocol.parse(json.dumps(sent)))
    assert services.load_table(player.pk).seq > seq


def test_the_world_varies_its_tables(db: Any) -> None:
    made = world.build(6)["tables"]
    assert [t["ruleset"] for t in made] == list(world.RULESETS) * 2
    assert all(4 <= len(t["users"]) <= 6 for t in made)
    players = [name for t in made for name in t["users"][1:]]
    assert len(players) == len(set(players))  # every player at one table only
    assert {t["map"] for t in made if t["ruleset"] == "d100"} == {True, False}
    for spec in made:
        table = services.load_table(spec["pk"])
        assert table.view.stage == "running"
        npcs = [cid for cid in table.view.order if cid not in spec["controllers"]]
        assert 2 <= len(npcs) <= 4 and 3 <= len(spec["controllers"]) <= 5


FORM = """<section id="table-turn" class="card" hx-swap-oob="true">
<form data-ws="command" class="stack">
  <input type="hidden" name="c.type" value="declare"><input type="hidden" name="c.actor" value="c4">
  <select name="c.weapon"><option value="Łuk">Łuk</option>
    <option value="Nóż" selected>Nóż</option></select>
  <input type="number" name="c.move" value="3">
  <input type="hidden" name="c.now" value="0.0" data-json>
  <input type="checkbox" name="c.options" value="bieg" data-list data-text checked>
  <input type="checkbox" name="c.options" value="unik" data-list data-text>
  <input type="checkbox" name="c.flat" data-bool>
  <input type="radio" name="c.mode" value="a"><input type="radio" name="c.mode" value="b" checked>
  <input type="text" name="c.note" value="">
  <button class="btn" type="submit" data-kind="preview">Pokaż szanse</button>
  <button class="btn btn-primary" type="submit">Deklaruj</button>
</form></section><section id="table-me" class="me" hx-swap-oob="true"></section>"""


def test_it_fills_a_form_as_collect_does() -> None:
    regions = bot.Regions()
    assert regions.update(FORM) == ["table-turn", "table-me"]
    found, shared = bot.forms(regions.html)
    (form,) = found
    message = bot.message(form, shared, random.Random(1), command_id="abc", seq=7)
    assert message == {
        "type": "command",
        "id": "abc",
        "seq": 7,
        "command": {
            "type": "declare",
            "actor": "c4",
            "weapon": "Nóż",
            "move": 3,
            "now": 0.0,
            "options": ["bieg"],
            "flat": False,
            "mode": "b",
        },
    }


def test_the_schedule_is_poisson_at_the_mean_rate_and_reproducible() -> None:
    plan = {"period": 2.0, "start_at": 1000.0, "duration": 4000.0, "seed": 3}
    specs = [{"pk": pk} for pk in range(5)]
    due = arrivals(plan, specs)
    assert due == arrivals(plan, specs) and due == sorted(due)
    assert all(1000.0 <= at < 5000.0 for at, _, _ in due)
    for i in range(5):
        times = [at for at, _, t in due if t == i]
        gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
        assert statistics.fmean(gaps) == pytest.approx(2.0, rel=0.1)
        assert statistics.stdev(gaps) == pytest.approx(2.0, rel=0.15)  # exponential: sd = mean
    assert arrivals({**plan, "seed": 4}, specs) != due
