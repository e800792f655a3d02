"""A live d100 round at the table, through `combat.services` with scripted dice: a player's
attack on the GM's NPC (answered by its policy), an NPC's attack on a player's character with
the reaction prompt, its answer, an undo that brings the prompt back, the prompt's deadline
passing as no reaction, and what each viewer is shown of it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from combat import services
from combat.rules.base import fill
from tests.combat.d100_table.helpers import (
    BANDIT,
    HERO1,
    HERO2,
    SCOUT,
    WOLF,
    Clock,
    D100Table,
    Dice,
    make_d100_table,
)

pytestmark = pytest.mark.django_db

HITS = (
    "%(attacker)s trafia: %(target)s (%(means)s) — %(dealt)s obrażeń (surowe %(raw)s, "
    "odporność −%(soaked)s, pancerz %(percent)s%%: −%(armour)s); %(target)s: %(left)s."
)
HITS_WITH = HITS[:-1] + ". Skutki: %(effects)s."
AVOIDED = "%(attacker)s atakuje: %(target)s (%(means)s) — %(defence)s: atak uniknięty."


def row(html: str, cid: str) -> str:
    """One combatant's row of the order."""
    start = html.index(f'id="row-{cid}"')
    return html[start : html.index("</li>", start)]


def summaries(line: dict[str, Any]) -> list[tuple[str, int, int, str]]:
    """(label, threshold, OoP, level) of each d100 roll of a log line."""
    return [
        (r["label"], r["summary_params"]["threshold"], r["summary_params"]["oop"],
         fill("%(level)s", r["summary_params"]))
        for r in line["rolls"]
        if r["sides"] == 100
    ]  # fmt: skip


def to_wolf_attack(t: D100Table) -> None:
    """The round up to the wolf's attack on Milena, her prompt open."""
    t.run(t.gm, {"type": "start_combat"})
    t.run(t.p1, {"type": "end_turn", "actor": t.seat(HERO1)})
    t.run(t.p2, {"type": "end_turn", "actor": t.seat(HERO2)})
    assert t.table.view.current == t.seat(WOLF)
    t.run(t.gm, {"type": "attack", "actor": t.seat(WOLF), "target": t.seat(HERO2)})


def test_the_order_goes_by_zwinnosc_and_the_first_player_acts() -> None:
    t = make_d100_table(hidden_scout=True)
    t.run(t.gm, {"type": "start_combat"})
    view = t.table.view
    assert view.order == tuple(t.seat(n) for n in (HERO1, HERO2, WOLF, BANDIT, SCOUT))
    assert view.current == t.seat(HERO1) and view.label == "Tura bojowa %(n)s"
    turn = t.html(t.p1, "table-turn")
    assert "Atak lub czar" in turn and 'name="c.target"' in turn
    assert "Atak lub czar" not in t.html(t.p2, "table-turn")


def test_a_players_attack_on_an_npc_is_answered_by_its_policy_and_logged_with_every_roll() -> None:
    t = make_d100_table()
    t.run(t.gm, {"type": "start_combat"})
    attack = {"type": "attack", "actor": t.seat(HERO1), "target": t.seat(BANDIT)}
    # Trafienie 40 (próg 60), the bandit's best answer is Blok: 45 (próg 50, OoP 5 < 20);
    # Obrażenia 70 (próg 75: OoP 5 → 25), Odporność 48 (próg 50: OoP 2 → −10).
    t.run(t.p1, attack, Dice(40, 45, 70, 48), answer_npcs=True)
    assert not t.state.prompts
    (line,) = t.lines(HITS)
    assert summaries(line) == [
        ("Trafienie", 60, 20, "zwykły sukces"),
        ("Blok", 50, 5, "zwykły sukces"),
        ("Obrażenia", 75, 5, "zwykły sukces"),
        ("Odporność", 50, 2, "minimalny sukces"),
    ]
    assert line["params"]["dealt"] == 15 and line["params"]["left"] == "Draśnięty"
    bandit = t.seat(BANDIT)
    assert t.state.get(bandit).pz == 65
    for player in (t.p1, t.p2):
        order = t.html(player, "table-order")
        assert "Draśnięty" in row(order, bandit) and "65/80" not in row(order, bandit)
        log = t.html(player, "table-log")
        assert "Radosław trafia: Zbój (Szabla) — 15 obrażeń" in log
        assert "próg 60 · OoP 20 · zwykły sukces" in log and "65/80" not in log
    assert "65/80" in row(t.html(t.gm, "table-order"), bandit)


def test_an_npc_attack_opens_the_players_prompt_with_the_options_and_their_odds() -> None:
    t = make_d100_table()
    to_wolf_attack(t)
    (prompt,) = t.state.prompts
    assert prompt.actor == t.seat(HERO2) and prompt.options == ("unik", "blok")
    card = t.html(t.p2, "table-prompts")
    assert f'data-my-prompt="{prompt.id}"' in card
    for label in ("Unik (próg 58)", "Blok (próg 50)", "Bez obrony", "szansa, że cię trafi"):
        assert label in card, label
    assert "Kły: Trafienie 60, Obrażenia 50." in card
    chips = re.findall(r'<strong class="odds-num">(\d+)%</strong>', card)
    assert len(chips) == 3 and chips[2] == "60"  # with no defence: the hit chance, 60%
    assert f'id="prompt-{prompt.id}"' not in t.html(t.p1, "table-prompts")
    gm = t.html(t.gm, "table-prompts")
    assert f'id="prompt-{prompt.id}"' in gm and "data-my-prompt" not in gm
    assert "Czekamy na: Milena" in gm


def test_the_players_unik_resolves_the_attack_for_everyone_alike() -> None:
    t = make_d100_table()
    to_wolf_attack(t)
    (prompt,) = t.state.prompts
    answer = {"type": "defend", "actor": t.seat(HERO2), "prompt": prompt.id, "option": "unik"}
    t.run(t.p2, answer, Dice(30, 20))  # Trafienie OoP 30, Unik OoP 38: avoided
    assert not t.state.prompts
    (line,) = t.lines(AVOIDED)
    assert summaries(line) == [
        ("Trafienie", 60, 30, "zwykły sukces"),
        ("Unik", 58, 38, "zwykły sukces"),
    ]
    logs = {u.username: t.html(u, "table-log") for u in (t.gm, t.p1, t.p2)}
    assert logs["gracz1"] == logs["gracz2"]  # one audience, one rendering
    for log in logs.values():
        assert "Szary wilk 1 atakuje: Milena (Kły) — Unik: atak uniknięty." in log
        assert "próg 58 · OoP 38 · zwykły sukces" in log


def test_an_undo_brings_the_prompt_back_with_time_to_answer(server_clock: Clock) -> None:
    t = make_d100_table()
    to_wolf_attack(t)
    before = t.seq
    (prompt,) = t.state.prompts
    server_clock.move(20)  # ten seconds of the thirty left
    answer = {"type": "defend", "actor": t.seat(HERO2), "prompt": prompt.id, "option": "unik"}
    t.run(t.p2, answer, Dice(30, 20))
    server_clock.move(100)
    services.undo(t.pk, viewer=t.gm_viewer, to_seq=before)
    (back,) = t.state.prompts
    assert back.id == prompt.id and back.deadline == server_clock.now() + 10
    assert f'data-my-prompt="{prompt.id}"' in t.html(t.p2, "table-prompts")
    assert "Mistrz Gry cofa starcie do kroku" in t.html(t.p1, "table-log")


def test_a_prompt_whose_deadline_passed_lands_as_no_reaction_and_an_undo_reopens_it(
    server_clock: Clock,
) -> None:
    t = make_d100_table()
    to_wolf_attack(t)
    (prompt,) = t.state.prompts
    assert services.resolve_expired(t.pk) is None  # not yet
    before = t.seq
    server_clock.move(31)
    assert services.resolve_expired(t.pk) is not None
    assert not t.state.prompts
    (entry,) = [e for e in t.table.log if e.seq == before + 1]
    (line,) = [x for x in entry.lines if x["params"].get("attacker") == WOLF]
    assert "brak reakcji w czasie" in str(line["params"].get("effects", ""))
    assert [r["label"] for r in line["rolls"]][:1] == ["Trafienie"]
    assert not {"Unik", "Blok"} & {r["label"] for r in line["rolls"]}
    assert "brak reakcji w czasie" in t.html(t.p2, "table-log")
    # The GM takes it back: the prompt is open again, with the minimum time to answer.
    services.undo(t.pk, viewer=t.gm_viewer, to_seq=before)
    (back,) = t.state.prompts
    assert back.id == prompt.id and back.deadline == server_clock.now() + services.RESUME_MINIMUM
    assert f'data-my-prompt="{prompt.id}"' in t.html(t.p2, "table-prompts")


def test_a_player_never_sees_the_hidden_npc_nor_an_npcs_numbers() -> None:
    t = make_d100_table(hidden_scout=True)
    for stage in ("setup", "running"):
        if stage == "running":
            t.run(t.gm, {"type": "start_combat"})
        assert SCOUT in t.html(t.gm)
        for player in (t.p1, t.p2):
            html = t.html(player)
            assert SCOUT not in html and t.seat(SCOUT) not in html
            assert "/50" not in row(t.html(player, "table-order"), t.seat(WOLF))
            assert "/80" not in row(t.html(player, "table-order"), t.seat(BANDIT))
    # A fall tells its percent of the maximum PŻ: with the damage it would give them away.
    t.run(t.gm, {"type": "fall", "target": t.seat(BANDIT), "height": 10}, Dice(50))
    log = t.html(t.p1, "table-log")
    fall = log[log.index("Zbój spada z 10 m") :]
    assert "maks. PŻ (" in fall and "obrażeń" not in fall[: fall.index("</")]
    services.run_command(
        t.pk,
        {"type": "reveal_stats", "target": t.seat(BANDIT), "revealed": True},
        viewer=t.gm_viewer,
    )
    pz = t.state.get(t.seat(BANDIT)).pz
    assert pz < 80 and f"{pz}/80" in row(t.html(t.p1, "table-order"), t.seat(BANDIT))


def test_an_npc_playing_itself_attacks_waits_for_the_answer_and_ends_its_turn() -> None:
    t = make_d100_table()
    services.set_autoplay(t.pk, viewer=t.gm_viewer, combatant=t.seat(WOLF), policy="atakuj")
    t.run(t.gm, {"type": "start_combat"})
    t.run(t.p1, {"type": "end_turn", "actor": t.seat(HERO1)}, answer_npcs=True)
    t.run(t.p2, {"type": "end_turn", "actor": t.seat(HERO2)}, answer_npcs=True)
    (prompt,) = t.state.prompts  # the wolf went for the weakest: Milena, 90 PŻ
    assert prompt.actor == t.seat(HERO2) and prompt.attacker == t.seat(WOLF)
    answer = {"type": "defend", "actor": t.seat(HERO2), "prompt": prompt.id, "option": "blok"}
    t.run(t.p2, answer, Dice(90), answer_npcs=True)  # a miss; the wolf ends its turn
    assert t.table.view.current == t.seat(BANDIT)
    assert "%(attacker)s atakuje: %(target)s (%(means)s) — pudło." in t.log_texts()
    # The GM has the bandit play this one turn: it attacks, Radosław's prompt waits.
    services.play_turn(t.pk, viewer=t.gm_viewer, combatant=t.seat(BANDIT))
    (prompt,) = t.state.prompts
    assert prompt.attacker == t.seat(BANDIT) and prompt.actor == t.seat(HERO2)
    assert f'data-my-prompt="{prompt.id}"' in t.html(t.p2, "table-prompts")


def test_by_post_an_npc_playing_itself_posts_its_attack_and_best_defence() -> None:
    t = make_d100_table()
    services.set_autoplay(t.pk, viewer=t.gm_viewer, combatant=t.seat(WOLF), policy="atakuj")
    t.run(t.gm, {"type": "set_pace", "pace": "post"})
    t.run(t.gm, {"type": "start_combat"}, answer_npcs=True)
    wolf = t.state.posts[t.seat(WOLF)]
    assert wolf.action.kind == "attack" and wolf.action.target == t.seat(HERO2)
    assert wolf.defence == "best" and not wolf.by_gm
    assert t.seat(WOLF) not in t.table.view.waiting
    (line,) = t.lines("%(name)s wysyła wpis: %(what)s.")
    assert line["secret"] and line["params"]["name"] == WOLF
    for player in (t.p1, t.p2):
        assert "wysyła wpis" not in t.html(player, "table-log")


def test_no_time_for_a_reaction_is_logged_where_none_is_awaited() -> None:
    """Issue 22, point 6d: „— czas na reakcję celu” stood in the log beside the miss an NPC's
    own policy had already answered; only a player's prompt really waits."""
    t = make_d100_table()
    t.run(t.gm, {"type": "start_combat"})
    attack = {"type": "attack", "actor": t.seat(HERO1), "target": t.seat(BANDIT)}
    t.run(t.p1, attack, Dice(99, 45), answer_npcs=True)  # Trafienie 99: a miss
    log = t.html(t.p1, "table-log")
    assert "Radosław atakuje: Zbój (Szabla)" in log and "czas na reakcję" not in log
    t.run(t.p1, {"type": "end_turn", "actor": t.seat(HERO1)})
    t.run(t.p2, {"type": "end_turn", "actor": t.seat(HERO2)})
    t.run(t.gm, {"type": "attack", "actor": t.seat(WOLF), "target": t.seat(HERO2)})
    assert "Szary wilk 1 atakuje: Milena (Kły) — czas na reakcję celu." in t.html(t.p2, "table-log")
