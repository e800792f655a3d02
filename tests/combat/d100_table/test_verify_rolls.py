"""A d100 fight with the encounter's own seeded dice, in both paces, checks out: once it ends,
every roll of its log is what the revealed seeds and the rules give again (combat/verify.py),
the GM's secret roll included once the GM's seed is revealed."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from combat import services, verify
from tests.combat.d100_table.helpers import (
    BANDIT,
    HERO1,
    HERO2,
    HOUR,
    WOLF,
    Clock,
    make_d100_table,
)

pytestmark = pytest.mark.django_db


def test_every_roll_of_a_seeded_fight_checks_out(server_clock: Clock) -> None:
    t = make_d100_table()

    def run(user: User, command: dict[str, object]) -> None:
        services.run_command(t.pk, command, viewer=t.viewer(user))

    run(t.gm, {"type": "start_combat"})
    run(t.p1, {"type": "attack", "actor": t.seat(HERO1), "target": t.seat(BANDIT)})
    run(t.gm, {"type": "gm_roll", "label": "Tajne", "threshold": 40, "secret": True})
    run(t.p1, {"type": "end_turn", "actor": t.seat(HERO1)})
    run(t.p2, {"type": "end_turn", "actor": t.seat(HERO2)})
    run(t.gm, {"type": "attack", "actor": t.seat(WOLF), "target": t.seat(HERO1)})
    server_clock.move(40)
    services.resolve_expired(t.pk)
    run(t.gm, {"type": "set_pace", "pace": "post"})  # the rest of turn 1, by post
    run(t.gm, {"type": "resolve_turn"})
    # Whatever the dice did so far: Milena is untouched, and so is the wolf.
    run(
        t.p2,
        {"type": "post", "actor": t.seat(HERO2), "action": {"kind": "rest"}, "defence": "blok"},
    )
    bite = {"kind": "attack", "target": t.seat(HERO2), "choice": "w0"}
    run(t.gm, {"type": "post", "actor": t.seat(WOLF), "action": bite})
    server_clock.move(30 * HOUR)
    services.resolve_expired(t.pk)
    run(t.gm, {"type": "resolve_turn"})
    run(t.gm, {"type": "end_combat"})
    encounter = t.row()
    assert verify.seed_revealed(encounter)
    report = verify.verify(encounter, gm_seed=encounter.gm_seed)
    assert report.ok, [(e.seq, e.status, e.problems) for e in report.mismatches]
    assert report.checked == len(report.rolls) >= 4


def test_no_gm_roll_is_drawn_from_the_seed_of_an_ended_fight(server_clock: Clock) -> None:
    """The d100 GM's roll after the end would come from the revealed seed: refused, in the
    player's language, and the log stays where the fight ended."""
    t = make_d100_table()
    services.run_command(t.pk, {"type": "start_combat"}, viewer=t.viewer(t.gm))
    services.run_command(t.pk, {"type": "end_combat"}, viewer=t.viewer(t.gm))
    ended = t.row()
    assert verify.seed_revealed(ended)
    for secret in (False, True):
        roll = {"type": "gm_roll", "label": "Łup", "threshold": 40, "secret": secret}
        with pytest.raises(services.Refused) as refused:
            services.run_command(t.pk, roll, viewer=t.viewer(t.gm))
        assert refused.value.code == "ziarno_jawne"
        with translation.override("en"), pytest.raises(services.Refused) as in_english:
            services.run_command(t.pk, roll, viewer=t.viewer(t.gm))
        assert "seed" in in_english.value.message
    assert t.row().seq == ended.seq
