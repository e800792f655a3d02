"""Close combat needs an adjacent target on a laid map (issue 22, point 7): at a d100 table a
wolf bit a hero nine fields away. The rules have no reach; the table setting (on by default,
the GM's to turn off) refuses it with a typed reason, the turn panel says why, and the GM's
NPC walks up instead of biting across the map."""

from __future__ import annotations

import pytest

from combat import fragments, services
from combat.services import Refused
from tests.combat.d100_table.helpers import BANDIT, HERO1, HERO2, WOLF, D100Table, make_d100_table

pytestmark = pytest.mark.django_db


def on_a_laid_map(t: D100Table, **fields: tuple[int, int]) -> None:
    """A 14 × 3 map, each named token on its field, the fight started."""
    t.run(t.gm, {"type": "edit_map", "edit": {"width": 14, "height": 3}})
    for name, to in fields.items():
        t.run(t.gm, {"type": "place_combatant", "target": t.seat(name), "to": list(to)})
    t.run(t.gm, {"type": "start_combat"})


def spread(t: D100Table) -> None:
    on_a_laid_map(
        t, **{HERO1: (0, 0), HERO2: (0, 2), WOLF: (9, 0), BANDIT: (13, 2)}
    )  # Radosław is nine fields from the wolf


def test_a_melee_attack_nine_fields_away_is_refused_and_the_log_is_unchanged() -> None:
    t = make_d100_table()
    spread(t)
    seq = t.seq
    with pytest.raises(Refused) as refused:
        t.run(t.p1, {"type": "attack", "actor": t.seat(HERO1), "target": t.seat(WOLF)})
    assert refused.value.code == "poza_zasiegiem"
    assert refused.value.message == f"{WOLF} jest poza zasięgiem walki wręcz: 9 m."
    assert t.seq == seq
    attack = {"type": "attack", "actor": t.seat(HERO1), "target": t.seat(WOLF)}
    with pytest.raises(Refused) as preview:
        fragments.render_preview(t.table, t.viewer(t.p1), attack)
    assert preview.value.message == f"{WOLF} jest poza zasięgiem walki wręcz: 9 m."


def test_the_turn_panel_disables_the_attack_and_says_why() -> None:
    t = make_d100_table()
    spread(t)
    html = t.html(t.p1)
    assert f"{WOLF} jest poza zasięgiem walki wręcz: 9 m." in html
    assert 'class="action action-atak"' in html and "d100-attack" not in html


def test_with_the_gms_setting_off_the_attack_reaches_across_the_map() -> None:
    t = make_d100_table(melee_needs_adjacent=False)
    spread(t)
    done = t.run(t.p1, {"type": "attack", "actor": t.seat(HERO1), "target": t.seat(WOLF)})
    assert done.seq == t.seq
    assert t.state.prompts or "pudło" in " ".join(t.log_texts())


def test_the_wolf_walks_up_to_its_prey_instead_of_biting_across_the_map() -> None:
    t = make_d100_table()
    services.set_autoplay(t.pk, viewer=t.gm_viewer, combatant=t.seat(WOLF), policy="atakuj")
    on_a_laid_map(t, **{HERO1: (0, 0), HERO2: (0, 2), WOLF: (9, 0), BANDIT: (13, 2)})
    t.run(t.p1, {"type": "end_turn", "actor": t.seat(HERO1)}, answer_npcs=True)
    t.run(t.p2, {"type": "end_turn", "actor": t.seat(HERO2)}, answer_npcs=True)
    wolf = t.state.get(t.seat(WOLF))
    assert wolf.position is not None and wolf.position[0] == 3  # its 6 m towards Milena
    assert not t.state.prompts  # no bite from afar
    assert t.table.view.current == t.seat(BANDIT)


def test_the_attack_form_starts_on_the_enemy_in_reach_and_names_the_far_one() -> None:
    t = make_d100_table()
    on_a_laid_map(t, **{HERO1: (0, 0), HERO2: (0, 2), WOLF: (9, 0), BANDIT: (1, 1)})
    html = t.html(t.p1)
    assert "d100-attack" in html
    assert f'<option value="{t.seat(BANDIT)}" selected>' in html
    assert f'<option value="{t.seat(WOLF)}" disabled>' in html
    assert f"{WOLF} jest poza zasięgiem walki wręcz: 9 m." in html
