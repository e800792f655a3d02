"""Rolls anyone can verify (issue #13, point 3): every die of an encounter comes from its
committed seed and the entry's slot; once the fight has ended the revealed seed recomputes
every roll of the log (the undone ones too), and the check fails, naming the entry and the
roll, when one stored face is altered. An undo never rolls an entry again with other dice.
The pages show each check to whoever may see the roll."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import random
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

import pytest
from django.urls import reverse

from combat import services, snapshots, verify
from combat.models import Encounter, EncounterEntry
from combat.rules.base import prompts_of
from combat.services import Refused
from tests.characters.helpers import client_for, make_user
from tests.combat.magus_table.helpers import MagusTable, make_magus_table
from tests.combat.table.helpers import Party, make_party, start

pytestmark = pytest.mark.django_db

T0 = 1_000.0
_ids = itertools.count(1)


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Seeds drawn in a known order, so each fight plays the same way on every run."""
    seeds = (hashlib.sha256(f"seed-{n}".encode()).hexdigest() for n in itertools.count())
    monkeypatch.setattr(verify, "new_seed", lambda: next(seeds))
    yield


# --- an Eleora fight --------------------------------------------------------------------------


def ids(party: Party) -> tuple[str, str, str]:
    return f"c{party.hero1.pk}", f"c{party.hero2.pk}", f"c{party.bandit.pk}"


def run(party: Party, command: dict[str, Any], now: float = T0, **kw: Any) -> int:
    done = services.run_command(
        party.encounter.pk, command, viewer=kw.pop("viewer", party.gm_viewer), now=now, **kw
    )
    return done.head if done.head is not None else done.seq


def answer(party: Party, option: str, now: float) -> int:
    table = services.load_table(party.encounter.pk)
    rules = party.encounter.rules()
    prompt = table.state.prompts[0]
    command = rules.command_to_dict(rules.prompt_command(table.state, prompt.id, option, now))
    owner = party.p1 if prompt.actor == ids(party)[0] else party.p2
    return run(party, command, now, viewer=party.viewer(owner))


def attack(actor: str, target: str) -> dict[str, Any]:
    return {"type": "declare_attack", "actor": actor, "target": target, "weapon": "Szabla"}


def play_a_fight(party: Party, *, end: bool = True) -> dict[str, int]:
    """A whole fight through the services: attacks, a player's answer undone and given again,
    one the NPC's policy answers by itself, a secret and an open GM roll, the end. The seqs
    of note."""
    hero1, hero2, bandit = ids(party)
    start(party)
    seqs = {"hero_attack": run(party, attack(hero1, bandit))}
    run(party, {"type": "end_turn", "actor": hero1})
    run(party, {"type": "end_turn", "actor": hero2})
    seqs["bandit_attack"] = run(party, attack(bandit, hero1))
    seqs["answered"] = answer(party, "parowanie", T0 + 2)
    services.undo(party.encounter.pk, viewer=party.gm_viewer, to_seq=seqs["bandit_attack"])
    seqs["answered_again"] = answer(party, "parowanie", T0 + 3)
    run(party, {"type": "end_turn", "actor": bandit})  # round 2: the bandit may react now
    seqs["hero_attacks_again"] = services.run_command(
        party.encounter.pk, attack(hero1, bandit), viewer=party.viewer(party.p1), now=T0 + 4
    ).seq
    seqs["npc_answer"] = fresh(party.encounter).seq  # its policy answered at once
    seqs["secret_roll"] = run(party, {"type": "gm_roll", "dice": 4, "label": "Tropy wilków"})
    seqs["open_roll"] = run(party, {"type": "gm_roll", "dice": 3, "secret": False})
    if end:
        seqs["end"] = run(party, {"type": "end_combat", "winner": "druzyna"})
    return seqs


def fresh(encounter: Encounter) -> Encounter:
    return Encounter.objects.get(pk=encounter.pk)


def entry(encounter: Encounter, seq: int) -> EncounterEntry:
    return EncounterEntry.objects.get(encounter=encounter, seq=seq)


def faces_of(events: Any) -> list[list[int]]:
    """Every list of faces in stored events, in order."""
    found: list[list[int]] = []
    if isinstance(events, dict):
        for key, value in events.items():
            if key == "faces" and isinstance(value, list):
                found.append(value)
            else:
                found += faces_of(value)
    elif isinstance(events, list):
        for value in events:
            found += faces_of(value)
    return found


def alter_one_face(encounter: Encounter, seq: int) -> None:
    """Change the first stored face of entry `seq`'s events (to another face of a d6)."""
    row = entry(encounter, seq)
    events = row.events
    faces = faces_of(events)[0]
    faces[0] = faces[0] % 6 + 1
    EncounterEntry.objects.filter(pk=row.pk).update(events=events)


def test_a_new_encounter_commits_to_two_seeds_by_their_hashes() -> None:
    encounter = fresh(make_party().encounter)
    assert len(encounter.seed) == len(encounter.gm_seed) == 64
    assert encounter.seed != encounter.gm_seed
    assert encounter.seed_hash == verify.commitment(encounter.seed)
    assert encounter.gm_seed_hash == verify.commitment(encounter.gm_seed)


def test_a_whole_fight_verifies_from_its_revealed_seed_its_undone_entry_too() -> None:
    party = make_party()
    seqs = play_a_fight(party)
    encounter = fresh(party.encounter)
    report = verify.verify(encounter)

    assert report.ok and report.seed_ok is True and report.gm_seed_ok is None
    npc = entry(encounter, seqs["npc_answer"])
    assert seqs["npc_answer"] > seqs["hero_attacks_again"] and npc.user_id is None
    assert "reaction_chosen" in [e["type"] for e in npc.events]
    statuses = {e.seq: e.status for e in report.entries}
    secret = report.entry(seqs["secret_roll"])
    assert secret is not None and secret.reason == "gm_kept" and secret.secret
    assert {s for seq, s in statuses.items() if seq != seqs["secret_roll"]} == {verify.OK}
    undone = report.entry(seqs["answered"])
    assert undone is not None and undone.undone and undone.status == verify.OK
    assert len(undone.rolls) == 2  # the attack and the parry, checked though undone
    rolls = report.rolls
    assert len(rolls) >= 8 and report.checked == len(rolls) - len(secret.rolls)


def test_the_secret_gm_roll_is_checked_once_the_gm_reveals_the_gm_seed() -> None:
    party = make_party()
    seqs = play_a_fight(party)
    verify.reveal_gm_seed(party.encounter.pk, party.gm_viewer)
    report = verify.verify(fresh(party.encounter))
    assert report.ok and report.gm_seed_ok is True
    secret = report.entry(seqs["secret_roll"])
    assert secret is not None and secret.status == verify.OK and secret.rolls
    assert report.checked == len(report.rolls)


def test_the_check_fails_and_names_the_entry_when_one_stored_face_is_altered() -> None:
    party = make_party()
    seqs = play_a_fight(party)
    assert verify.verify(fresh(party.encounter)).ok
    alter_one_face(party.encounter, seqs["hero_attack"])

    report = verify.verify(fresh(party.encounter))
    assert not report.ok
    assert [e.seq for e in report.mismatches] == [seqs["hero_attack"]]
    (bad,) = report.mismatches
    assert [r.status for r in bad.rolls] == [verify.MISMATCH, verify.OK]
    texts = [msgid % params for msgid, params in bad.problems]
    assert any(text.startswith("Rzut 1:") for text in texts), texts


def test_the_check_fails_when_a_face_the_log_shows_is_altered() -> None:
    party = make_party()
    seqs = play_a_fight(party)
    row = entry(party.encounter, seqs["open_roll"])
    command = row.command
    (line,) = [line for line in command["lines"] if line["rolls"]]
    line["rolls"][0]["dice"][0] = line["rolls"][0]["dice"][0] % 6 + 1
    EncounterEntry.objects.filter(pk=row.pk).update(command=command)

    report = verify.verify(fresh(party.encounter))
    assert [e.seq for e in report.mismatches] == [seqs["open_roll"]]


def test_a_wrong_seed_does_not_match_its_commitment_and_checks_nothing_as_good() -> None:
    party = make_party()
    play_a_fight(party)
    report = verify.verify(fresh(party.encounter), seed="0" * 64)
    assert report.seed_ok is False and not report.ok
    assert all(e.status != verify.OK for e in report.entries if e.rolls and not e.secret)


def test_a_redo_after_an_undo_draws_the_same_dice() -> None:
    party = make_party()
    seqs = play_a_fight(party, end=False)
    first, again = (
        entry(party.encounter, seqs["answered"]),
        entry(party.encounter, seqs["answered_again"]),
    )
    assert first.slot == again.slot is not None
    assert faces_of(first.events) == faces_of(again.events) != []


def test_an_undo_takes_the_slot_back_so_the_attack_made_again_rolls_the_same() -> None:
    party = make_party()
    start(party)
    hero1, _hero2, bandit = ids(party)
    before = fresh(party.encounter).slot
    attacked = run(party, attack(hero1, bandit))
    assert entry(party.encounter, attacked).slot == fresh(party.encounter).slot == before + 1
    services.undo(party.encounter.pk, viewer=party.gm_viewer, to_seq=attacked - 1)
    assert fresh(party.encounter).slot == before
    assert entry(party.encounter, attacked + 1).slot is None  # the undo draws nothing
    again = run(party, attack(hero1, bandit))
    assert entry(party.encounter, again).slot == before + 1
    first_faces = faces_of(entry(party.encounter, attacked).events)
    assert faces_of(entry(party.encounter, again).events) == first_faces != []


def test_nothing_is_checked_before_the_end_and_the_server_can_check_with_the_seed() -> None:
    party = make_party()
    play_a_fight(party, end=False)
    encounter = fresh(party.encounter)
    sealed = verify.verify(encounter)
    assert sealed.checked == 0 and sealed.seed_ok is None
    assert {e.reason for e in sealed.entries} == {"sealed", "gm_kept"}
    with_seeds = verify.verify(encounter, seed=encounter.seed, gm_seed=encounter.gm_seed)
    assert with_seeds.ok and with_seeds.checked == len(with_seeds.rolls) > 0


def test_an_ended_fight_whose_seed_is_public_cannot_be_undone_to_before_its_end() -> None:
    party = make_party()
    seqs = play_a_fight(party)
    with pytest.raises(Refused) as refused:
        services.undo(party.encounter.pk, viewer=party.gm_viewer, to_seq=seqs["end"] - 1)
    assert refused.value.code == "ziarno_jawne"
    assert "ziarno" in refused.value.message
    assert fresh(party.encounter).phase == Encounter.Phase.ENDED


def test_no_die_is_drawn_from_the_seed_of_an_ended_fight() -> None:
    """Once the seed is public anyone could foretell the next entry's dice: after the end a
    command that would roll (an open or a secret GM roll) is refused and changes nothing."""
    party = make_party()
    seqs = play_a_fight(party)
    for command in (
        {"type": "gm_roll", "dice": 3, "secret": False},
        {"type": "gm_roll", "dice": 4, "label": "Łup"},
    ):
        with pytest.raises(Refused) as refused:
            run(party, command, now=T0 + 10)
        assert refused.value.code == "ziarno_jawne"
        assert "ziarno" in refused.value.message
    encounter = fresh(party.encounter)
    assert encounter.seq == seqs["end"] and encounter.phase == Encounter.Phase.ENDED
    assert verify.verify(encounter).ok


def test_dice_a_test_injects_are_not_checkable_and_take_no_slot() -> None:
    party = make_party()
    start(party)
    hero1, _hero2, bandit = ids(party)
    slot = fresh(party.encounter).slot
    injected = run(party, attack(hero1, bandit), rng=random.Random(1))
    assert entry(party.encounter, injected).slot is None and fresh(party.encounter).slot == slot
    run(party, {"type": "end_combat", "winner": "druzyna"})
    report = verify.verify(fresh(party.encounter))
    found = report.entry(injected)
    assert found is not None and found.reason == verify.INJECTED and found.rolls
    assert report.ok and all(r.status == verify.UNCHECKED for r in found.rolls)


def test_an_encounter_from_before_the_seeds_rolls_as_before_and_is_not_checkable() -> None:
    party = make_party(with_combatants=False)
    Encounter.objects.filter(pk=party.encounter.pk).update(
        seed="", seed_hash="", gm_seed="", gm_seed_hash=""
    )
    heroes = [party.hero1.pk, party.hero2.pk, party.bandit.pk]
    services.add_combatants(party.encounter.pk, viewer=party.gm_viewer, characters=heroes)
    start(party)
    hero1, _hero2, bandit = ids(party)
    attacked = run(party, attack(hero1, bandit))
    run(party, {"type": "end_combat", "winner": "druzyna"})
    assert entry(party.encounter, attacked).slot is None and faces_of(
        entry(party.encounter, attacked).events
    )
    report = verify.verify(fresh(party.encounter))
    assert report.checked == 0 and report.seed_ok is None
    assert {e.reason for e in report.entries} == {"no_seed"}
    # … and an undo of it to before its end is allowed: it has no seed to give away.
    services.undo(party.encounter.pk, viewer=party.gm_viewer, to_seq=attacked)
    assert fresh(party.encounter).phase != Encounter.Phase.ENDED


# --- a Magus fight and a duel: the same check, whatever the ruleset ----------------------------


def magus_run(t: MagusTable, who: Any, command: dict[str, Any]) -> int:
    done = services.run_command(
        t.encounter.pk, command, viewer=t.viewer(who), command_id=f"verify-{next(_ids)}"
    )
    return done.head if done.head is not None else done.seq


def magus_answer(t: MagusTable, option: str) -> int:
    rules = t.encounter.rules()
    prompts = prompts_of(rules)
    assert prompts is not None
    (prompt,) = prompts.open_prompts(t.state)
    command = prompts.prompt_command(t.state, prompt.id, option)
    return magus_run(t, t.gm, rules.command_to_dict(command))


def test_a_whole_magus_fight_verifies_from_its_revealed_seed() -> None:
    t = make_magus_table()
    hero1, hero2, bandit = t.seat(t.hero1), t.seat(t.hero2), t.seat(t.bandit)
    magus_run(t, t.gm, {"type": "start_combat"})
    declare = {"type": "declare", "actor": hero1, "action": "attack", "weapon": "Miecz"}
    magus_run(t, t.p1, declare)
    magus_run(t, t.p2, {"type": "declare", "actor": hero2})
    magus_run(t, t.gm, {"type": "declare", "actor": bandit})
    magus_run(t, t.p1, {"type": "roll_initiative", "actor": hero1})
    magus_run(t, t.p2, {"type": "roll_initiative", "actor": hero2})
    magus_run(t, t.gm, {"type": "roll_initiatives"})
    while t.state.current != hero1:
        magus_run(t, t.gm, {"type": "end_turn", "actor": t.state.current})
    attacked = magus_run(
        t, t.p1, {"type": "attack", "actor": hero1, "target": bandit, "weapon": "Miecz"}
    )
    answered = magus_answer(t, "unik")  # the GM answers for the bandit
    services.undo(t.encounter.pk, viewer=t.gm_viewer, to_seq=attacked)
    again = magus_answer(t, "unik")
    magus_run(t, t.gm, {"type": "end_combat"})

    encounter = fresh(t.encounter)
    assert encounter.phase == Encounter.Phase.ENDED
    first, redone = entry(encounter, answered), entry(encounter, again)
    assert first.slot == redone.slot and faces_of(first.events) == faces_of(redone.events)
    report = verify.verify(encounter)
    assert report.ok and report.checked == len(report.rolls) >= 4
    assert {e.status for e in report.entries} == {verify.OK}
    undone = report.entry(answered)
    assert undone is not None and undone.undone

    alter_one_face(encounter, attacked)
    broken = verify.verify(fresh(encounter))
    assert [e.seq for e in broken.mismatches] == [attacked]


def test_a_whole_duel_verifies_from_its_revealed_seed() -> None:
    from tests.combat.table.duel_table import make_duel_table, seat_ids

    d = make_duel_table()
    gm = services.Viewer(user_id=d.gm.pk, is_gm=True)
    pk = d.encounter.pk
    services.add_combatants(pk, viewer=gm, characters=[d.hero.pk, d.npc.pk])
    services.run_command(pk, {"type": "start_round"}, viewer=gm)
    rules = d.encounter.rules()
    prompts = prompts_of(rules)
    assert prompts is not None
    for _turn in range(4):
        state = services.load_table(pk).state
        hero, npc = seat_ids(state)
        current = rules.table_view(state).current
        other = npc if current == hero else hero
        services.run_command(pk, {"type": "attack", "actor": current, "target": other}, viewer=gm)
        state = services.load_table(pk).state
        for prompt in prompts.open_prompts(state):
            option = prompt.options[0][0]
            answer = prompts.prompt_command(state, prompt.id, option)
            services.run_command(pk, rules.command_to_dict(answer), viewer=gm)
        state = services.load_table(pk).state
        if rules.table_view(state).current == current:
            services.run_command(pk, {"type": "end_turn", "actor": current}, viewer=gm)
    services.run_command(pk, {"type": "end_fight"}, viewer=gm)

    report = verify.verify(fresh(d.encounter))
    assert report.ok and report.checked == len(report.rolls) >= 4


# --- the pages --------------------------------------------------------------------------------


def rolls_url(party: Party, seq: int | None = None) -> str:
    if seq is None:
        return reverse("encounter_rolls", args=[party.encounter.pk])
    return reverse("encounter_roll", args=[party.encounter.pk, seq])


def test_the_rolls_page_checks_every_roll_and_shows_the_seed_and_the_algorithm() -> None:
    party = make_party()
    seqs = play_a_fight(party)
    encounter = fresh(party.encounter)
    report = verify.verify(encounter)
    html = client_for(party.gm).get(rolls_url(party)).content.decode()
    assert encounter.seed in html and encounter.seed_hash in html
    assert encounter.gm_seed not in html and encounter.gm_seed_hash in html
    assert f"Sprawdzono {report.checked} z {len(report.rolls)} rzutów." in html
    assert "Każdy sprawdzony rzut zgadza się z ziarnem." in html
    assert "HMAC-SHA256" in html and "Ujawnij ziarno tajnych rzutów" in html
    assert f'id="e{seqs["hero_attack"]}-r1"' in html
    assert html.count('class="verify-roll verify-ok"') == report.checked


def test_before_the_end_the_page_shows_the_hashes_and_checks_nothing() -> None:
    party = make_party()
    play_a_fight(party, end=False)
    encounter = fresh(party.encounter)
    html = client_for(party.p1).get(rolls_url(party)).content.decode()
    assert encounter.seed_hash in html and encounter.seed not in html
    assert "Ziarno zostanie ujawnione po zakończeniu starcia" in html
    assert "Sprawdzono 0 z" in html and "verify-ok" not in html


def test_the_page_names_the_entry_and_the_roll_that_do_not_match() -> None:
    party = make_party()
    seqs = play_a_fight(party)
    alter_one_face(party.encounter, seqs["hero_attack"])
    html = client_for(party.p1).get(rolls_url(party)).content.decode()
    assert "Nie wszystko zgadza się z ziarnem." in html and "Niezgodne: 1." in html
    link = f'<a href="#e{seqs["hero_attack"]}">Wpis {seqs["hero_attack"]}</a>'
    assert f"{link}: Rzut 1: zapisane zdarzenia mówią" in html


def test_players_see_how_many_secret_gm_rolls_there_were_but_not_their_dice() -> None:
    party = make_party()
    seqs = play_a_fight(party)
    secret = entry(party.encounter, seqs["secret_roll"])
    faces = " ".join(map(str, faces_of(secret.events)[0]))
    for url in (rolls_url(party), rolls_url(party, seqs["secret_roll"])):
        html = client_for(party.p1).get(url).content.decode()
        assert "Tajne rzuty MG: 1 (sprawdzone: 0)." in html
        assert "Tropy wilków" not in html and f"[{faces}]" not in html
        gm = client_for(party.gm).get(url).content.decode()
        assert "Tropy wilków" in gm and f"[{faces}]" in gm
    verify.reveal_gm_seed(party.encounter.pk, party.gm_viewer)
    html = client_for(party.p1).get(rolls_url(party)).content.decode()
    assert "Tajne rzuty MG: 1 (sprawdzone: 1)." in html and "Tropy wilków" not in html
    assert fresh(party.encounter).gm_seed in html


def test_a_player_sees_no_roll_of_a_hidden_npc() -> None:
    party = make_party(with_combatants=False)
    pk = party.encounter.pk
    services.add_combatants(pk, viewer=party.gm_viewer, characters=[party.hero1.pk, party.hero2.pk])
    services.add_combatants(pk, viewer=party.gm_viewer, characters=[party.bandit.pk], hidden=True)
    start(party)
    hero1, hero2, bandit = ids(party)
    run(party, {"type": "end_turn", "actor": hero1})
    run(party, {"type": "end_turn", "actor": hero2})
    hidden_attack = run(party, attack(bandit, hero1))
    answer(party, "parowanie", T0 + 1)
    run(party, {"type": "end_combat", "winner": "druzyna"})
    gm = client_for(party.gm).get(rolls_url(party)).content.decode()
    assert "Bandyta" in gm
    player = client_for(party.p1).get(rolls_url(party)).content.decode()
    assert "Bandyta" not in player
    assert client_for(party.p1).get(rolls_url(party, hidden_attack)).status_code == 404
    assert client_for(party.gm).get(rolls_url(party, hidden_attack)).status_code == 200


def test_a_rolls_permanent_link_shows_its_entry_with_an_anchor_per_roll() -> None:
    party = make_party()
    seqs = play_a_fight(party)
    page = client_for(party.p2).get(rolls_url(party, seqs["hero_attack"]))
    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="r1"' in html and 'id="r2"' in html and 'id="r3"' not in html
    assert html.count("verify-roll verify-ok") == 2
    assert client_for(party.p2).get(rolls_url(party, 999)).status_code == 404


def test_non_members_get_404_on_the_rolls_pages_and_the_reveal() -> None:
    party = make_party()
    seqs = play_a_fight(party)
    stranger = client_for(make_user("obcy"))
    assert stranger.get(rolls_url(party)).status_code == 404
    assert stranger.get(rolls_url(party, seqs["hero_attack"])).status_code == 404
    reveal = reverse("encounter_reveal_gm_seed", args=[party.encounter.pk])
    assert stranger.post(reveal).status_code == 404
    assert not fresh(party.encounter).gm_seed_revealed


def test_only_the_gm_reveals_the_gm_seed_and_only_after_the_end() -> None:
    party = make_party()
    play_a_fight(party, end=False)
    reveal = reverse("encounter_reveal_gm_seed", args=[party.encounter.pk])
    assert client_for(party.p1).post(reveal).status_code == 403
    page = client_for(party.gm).post(reveal, follow=True)
    assert "dopiero po zakończeniu starcia" in page.content.decode()
    assert not fresh(party.encounter).gm_seed_revealed
    run(party, {"type": "end_combat", "winner": "druzyna"})
    assert client_for(party.p1).post(reveal).status_code == 403
    assert not fresh(party.encounter).gm_seed_revealed
    assert client_for(party.gm).get(reveal).status_code == 405
    assert client_for(party.gm).post(reveal).status_code == 302
    assert fresh(party.encounter).gm_seed_revealed
    with pytest.raises(Refused):
        verify.reveal_gm_seed(party.encounter.pk, party.viewer(party.p1))


def test_the_table_shows_the_seed_hash_and_links_each_roll_to_its_permanent_link() -> None:
    party = make_party()
    seqs = play_a_fight(party, end=False)
    encounter = fresh(party.encounter)
    html = client_for(party.p1).get(reverse("encounter", args=[encounter.pk])).content.decode()
    assert f"<code>{encounter.seed_hash[:8]}</code>" in html and encounter.seed not in html
    assert f'href="{rolls_url(party)}"' in html
    assert f'href="{rolls_url(party, seqs["hero_attack"])}#r2"' in html
    log = client_for(party.p1).get(reverse("encounter-log", args=[encounter.pk])).content
    assert f'href="{rolls_url(party, seqs["open_roll"])}#r1"' in log.decode()


def test_the_initiative_the_server_rolls_is_listed_and_checks_out() -> None:
    """Issue 22, point 8: Eleora's initiative rolls had no roll number and were missing from
    the verification page. One rolled in the setup, the others at the start, a joiner's."""
    party = make_party(with_combatants=False)
    pk = party.encounter.pk
    services.add_combatants(pk, viewer=party.gm_viewer, characters=[party.hero1.pk])
    services.add_combatants(pk, viewer=party.gm_viewer, characters=[party.bandit.pk])
    hero1, hero2, bandit = ids(party)
    rolled = run(party, {"type": "roll_initiative", "actor": hero1}, viewer=party.viewer(party.p1))
    started = run(party, {"type": "start_combat"})
    services.add_combatants(pk, viewer=party.gm_viewer, characters=[party.hero2.pk])
    joined = fresh(party.encounter).seq
    run(party, {"type": "end_combat", "winner": "druzyna"})

    report = verify.verify(fresh(party.encounter))
    assert report.ok, [(e.seq, e.problems) for e in report.mismatches]
    for seq in (rolled, started, joined):
        checked = report.entry(seq)
        assert checked is not None and checked.rolls, seq
        assert {r.status for r in checked.rolls} == {verify.OK}
    html = client_for(party.p2).get(rolls_url(party)).content.decode()
    assert html.count("Inicjatywa") >= 3
    assert f'id="e{rolled}-r1"' in html and f'id="e{joined}-r1"' in html
    assert html.count('class="verify-roll verify-ok"') == report.checked == len(report.rolls)


def test_dice_the_rules_draw_but_no_line_shows_fail_the_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A die no log line shows could never be checked: the check says so (as the initiative
    dice were, before issue 22's point 8)."""
    from combat.rules.eleora import narrate
    from combat.rules.eleora.events import InitiativeRolled

    told = narrate.NARRATORS[InitiativeRolled]

    def untold(state: Any, e: Any) -> Any:
        return replace(told(state, e), rolls=())

    monkeypatch.setitem(narrate.NARRATORS, InitiativeRolled, untold)
    party = make_party()
    run(party, {"type": "start_combat"})  # the engine rolls everyone's 2d6, told without them
    run(party, {"type": "end_combat", "winner": "druzyna"})
    report = verify.verify(fresh(party.encounter))
    assert not report.ok
    texts = [msgid % params for e in report.mismatches for msgid, params in e.problems]
    assert texts == ["Kości rzucone przez reguły, których żaden rzut dziennika nie pokazuje: 6."]


# --- the order of a state's mappings ----------------------------------------------------------


def reordered(data: Any) -> Any:
    """The JSON with every object's keys in reverse order, as jsonb may hand them back."""
    if isinstance(data, dict):
        return {key: reordered(data[key]) for key in reversed(list(data))}
    if isinstance(data, list):
        return [reordered(item) for item in data]
    return data


def unsorted_mappings(value: Any, path: str = "state") -> list[str]:
    """Where a typed state holds a mapping whose keys are not in sorted order."""
    found: list[str] = []
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            found += unsorted_mappings(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, Mapping):
        keys = [str(k) for k in value]
        if keys != sorted(keys):
            found.append(path)
        for key, item in value.items():
            found += unsorted_mappings(item, f"{path}.{key}")
    elif isinstance(value, tuple | list):
        for i, item in enumerate(value):
            found += unsorted_mappings(item, f"{path}[{i}]")
    return found


def test_a_state_read_back_in_another_key_order_rolls_the_same_dice() -> None:
    """PostgreSQL's jsonb hands an object's keys back in an order of its own: the server's
    initiative, rolled for each combatant on a state read back so, still checks out against
    the replay of the log (the codecs decode every mapping in sorted key order)."""
    party = make_party()
    pk = party.encounter.pk
    stored = fresh(party.encounter).state
    Encounter.objects.filter(pk=pk).update(state=reordered(stored))
    snapshots.clear_cache()
    started = run(party, {"type": "start_combat"})
    run(party, {"type": "end_combat", "winner": "druzyna"})

    report = verify.verify(fresh(party.encounter))
    assert report.ok, [(e.seq, e.problems) for e in report.mismatches]
    checked = report.entry(started)
    assert checked is not None and len(checked.rolls) == 3
    assert {r.status for r in checked.rolls} == {verify.OK}


def test_the_states_of_a_fight_keep_their_mappings_in_sorted_key_order() -> None:
    """The order the decode gives is the order the engine keeps: the head the append path
    folded (new combatants, conditions, aims added on the way) and the replay of the log."""
    party = make_party(with_combatants=False)
    pk = party.encounter.pk
    for character in (party.bandit, party.hero2, party.hero1):  # joined out of sorted order
        services.add_combatants(pk, viewer=party.gm_viewer, characters=[character.pk])
    hero1, _hero2, bandit = ids(party)
    run(party, {"type": "start_combat"})
    current = services.load_table(pk).state.current
    run(party, attack(current, hero1 if current == bandit else bandit))
    head = services.load_table(pk).state
    assert list(head.combatants) == sorted(head.combatants)
    assert unsorted_mappings(head) == []
    assert unsorted_mappings(snapshots.replay_state(fresh(party.encounter))) == []
