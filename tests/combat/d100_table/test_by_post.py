"""A d100 fight by post at the table: the GM switches the encounter to the post pace and starts;
the players post their action, defence and text in any order (each sees their own, not the
other's, while the posts are hidden), re-post, the GM sees who has posted and posts for an
absent one, moves the deadline; the deadline passes (the sweep), posting closes, the GM
resolves the turn in initiative order and the next turn opens with a new deadline; the players
are mailed when a turn opens for them (combat/posts.py, after commit: these tests run in
transactions, with Django's locmem mail backend)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from combat import sweeps
from combat.access import Refused
from tests.characters.helpers import forget_mails, sent_mails
from tests.combat.d100_table.helpers import (
    BANDIT,
    HERO1,
    HERO2,
    HOUR,
    T0,
    WOLF,
    Clock,
    D100Table,
    Dice,
    head_seq,
    make_d100_table,
    open_tab,
)
from tests.combat.magus_table.helpers import Form, forms_in

pytestmark = [pytest.mark.django_db(transaction=True)]

DAY = 24 * HOUR
CUT = "%(attacker)s trafia: %(target)s (%(means)s) — %(dealt)s obrażeń"


@pytest.fixture(autouse=True)
def locmem_mail(settings: Any) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def page(t: D100Table, user: Any) -> str:
    """The encounter page as `user` loads it (a refresh)."""
    client = Client()
    client.force_login(user)
    response = client.get(t.encounter.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def by_post(t: D100Table) -> None:
    """The GM switches the pace before the fight and starts: turn 1 opens for posts."""
    t.run(t.gm, {"type": "set_pace", "pace": "post"})
    t.run(t.gm, {"type": "start_combat"})


def post(
    t: D100Table, user: Any, name: str, action: dict[str, Any], defence: str, text: str
) -> None:
    command = {"type": "post", "actor": t.seat(name), "action": action}
    t.run(user, {**command, "defence": defence, "text": text})


def attack(t: D100Table, target: str, choice: str = "w0") -> dict[str, Any]:
    return {"kind": "attack", "target": t.seat(target), "choice": choice}


def test_the_post_turn_opens_with_a_deadline_and_mails_each_player() -> None:
    t = make_d100_table()
    by_post(t)
    view = t.table.view
    assert view.pace == "post" and view.deadline == T0 + DAY
    assert view.remind_at == T0 + DAY - 6 * HOUR
    assert set(view.acting) == set(view.waiting) == set(t.ids.values())
    messages = sorted(sent_mails(), key=lambda m: m.to)
    assert [m.to for m in messages] == [["gracz1@example.com"], ["gracz2@example.com"]]
    assert messages[0].subject == "Twój ruch: Na trakcie (Tura bojowa 1)"
    assert HERO1 in messages[0].body and HERO2 not in messages[0].body
    assert "2030-03-18 18:46 CET" in messages[0].body
    assert t.row().due == T0 + DAY - 6 * HOUR  # the reminder is the next thing due


def test_the_gm_sees_whom_the_by_post_mails_will_not_reach_and_the_players_do_not() -> None:
    t = make_d100_table()
    by_post(t)
    assert "Maili z tego stołu nie dostaną" not in page(t, t.gm)  # both are reachable
    t.p1.email = "nowy@example.com"  # changed, not yet confirmed
    t.p1.save(update_fields=["email"])
    t.campaign.memberships.filter(user=t.p2).update(mail_turn_open=False)
    html = page(t, t.gm)
    assert "Maili z tego stołu nie dostaną" in html
    assert f"<strong>gracz1</strong> ({HERO1}: brak potwierdzonego adresu e-mail)" in html
    assert f"<strong>gracz2</strong> ({HERO2}: maile o turach wyłączone)" in html
    for player in (t.p1, t.p2):
        assert "Maili z tego stołu nie dostaną" not in page(t, player)


def test_the_reminder_goes_to_the_player_who_has_not_posted(server_clock: Clock) -> None:
    t = make_d100_table()
    by_post(t)
    post(t, t.p1, HERO1, attack(t, BANDIT), "unik", "")
    forget_mails()
    server_clock.move(DAY - 6 * HOUR + 1)
    sweeps.sweep()
    (reminder,) = sent_mails()
    assert reminder.to == ["gracz2@example.com"] and HERO2 in reminder.body
    assert reminder.subject == "Przypomnienie: Na trakcie, termin 2030-03-18 18:46 CET"


def test_each_player_sees_their_own_post_and_not_the_others_until_the_resolve(
    server_clock: Clock,
) -> None:
    t = make_d100_table()
    by_post(t)
    server_clock.move(HOUR)
    spell = {"kind": "cast", "spell": 0, "target": t.seat(WOLF)}
    post(t, t.p2, HERO2, spell, "best", "Milena splata dłonie: ogień!")
    milena = page(t, t.p2)
    assert "Milena splata dłonie" in milena and "czar Ognisty pocisk → Szary wilk 1" in milena
    radek = page(t, t.p1)
    assert "Milena splata dłonie" not in radek and "Ognisty pocisk →" not in radek
    server_clock.move(HOUR)
    post(t, t.p1, HERO1, attack(t, BANDIT), "unik", "Radosław tnie szablą.")
    assert "Radosław tnie" not in page(t, t.p2) and "Milena splata dłonie" in page(t, t.p2)
    assert "Radosław tnie" in page(t, t.p1) and "Milena splata dłonie" not in page(t, t.p1)
    # Posting again replaces the post.
    post(t, t.p1, HERO1, attack(t, WOLF), "blok", "Jednak wilk.")
    (mine,) = [p for cid, p in t.state.posts.items() if cid == t.seat(HERO1)]
    assert mine.text == "Jednak wilk." and mine.defence == "blok" and len(t.state.posts) == 2
    radek = page(t, t.p1)
    assert "Jednak wilk." in radek and "Radosław tnie" not in radek
    assert "%(name)s zmienia wpis: %(what)s." in t.log_texts()
    # The GM reads every post and who has not posted yet.
    gm = page(t, t.gm)
    assert "Jednak wilk." in gm and "Milena splata dłonie" in gm
    assert gm.count("brak wpisu") == 2  # the wolf and the bandit
    assert set(t.table.view.waiting) == {t.seat(WOLF), t.seat(BANDIT)}


def test_the_gm_extends_posts_for_the_absent_and_resolves_after_the_deadline(
    server_clock: Clock,
) -> None:
    t = make_d100_table()
    by_post(t)
    forget_mails()
    server_clock.move(HOUR)
    post(t, t.p1, HERO1, attack(t, BANDIT), "unik", "Radosław tnie szablą.")
    # Milena's player is away: the GM moves the deadline a day on; she is mailed again.
    t.run(t.gm, {"type": "extend_deadline", "deadline": T0 + 2 * DAY})
    assert t.table.view.deadline == T0 + 2 * DAY
    assert [m.to for m in sent_mails()] == [["gracz2@example.com"]]
    assert "2030-03-19 18:46 CET" in sent_mails()[0].body
    # The deadline passes with nobody at the table: the sweep closes the posting.
    server_clock.move(2 * DAY)
    assert sweeps.sweep() == 1
    assert t.state.closed and "Termin minął: tura %(n)s zamknięta dla wpisów." in t.log_texts()
    late = {"type": "post", "actor": t.seat(HERO2), "action": {"kind": "rest"}, "defence": ""}
    with pytest.raises(Refused) as refused:
        t.run(t.p2, late)
    assert "Termin minął" in refused.value.message
    assert "Termin minął: wpisy do tej tury są zamknięte." in t.html(t.p2, "table-me")
    # The GM posts for Milena (after the deadline: the GM's post) and for the wolf.
    cut = {"kind": "attack", "target": t.seat(BANDIT), "choice": "w0"}
    t.run(t.gm, {"type": "post", "actor": t.seat(HERO2), "action": cut, "by_gm": True})
    bite = {"kind": "attack", "target": t.seat(HERO1), "choice": "w0"}
    t.run(t.gm, {"type": "post", "actor": t.seat(WOLF), "action": bite, "by_gm": True})
    assert "wpis MG" in page(t, t.gm)
    forget_mails()
    # Resolved in initiative order: Radosław (Zwinność 60), Milena (58), the wolf (55).
    # Radosław: Trafienie 20 (próg 60), the bandit's Blok 45 (próg 50: OoP 5) fails,
    # Obrażenia 70 (próg 75: 25), Odporność 48 (OoP 2: −10) → 15. Milena: Trafienie 20
    # (próg 63), Blok 45 fails, Obrażenia 55 (próg 60: 25), Odporność 48 → 15. The wolf:
    # Trafienie 90 (próg 60): a miss.
    resolved_at = server_clock.move(HOUR)
    t.run(t.gm, {"type": "resolve_turn"}, Dice(20, 45, 70, 48, 20, 45, 55, 48, 90))
    cuts = t.lines(CUT + " (surowe %(raw)s, odporność −%(soaked)s, pancerz %(percent)s%%: "
                   "−%(armour)s); %(target)s: %(left)s.")  # fmt: skip
    assert [line["params"]["attacker"] for line in cuts] == [HERO1, HERO2]
    assert t.state.get(t.seat(BANDIT)).pz == 80 - 15 - 15
    assert "%(attacker)s atakuje: %(target)s (%(means)s) — pudło." in t.log_texts()
    view = t.table.view
    assert view.round == 2 and view.deadline == resolved_at + DAY and not t.state.posts
    assert sorted(m.to[0] for m in sent_mails()) == ["gracz1@example.com", "gracz2@example.com"]
    assert all("(Tura bojowa 2)" in m.subject for m in sent_mails())
    # Now everyone reads every post of turn 1.
    for user in (t.p1, t.p2):
        html = page(t, user)
        assert "Wpisy tury 1:" in html and "Radosław: atak → Zbój (Szabla)" in html


def test_an_npc_without_a_post_defends_with_its_best_and_a_player_without_one_is_named() -> None:
    t = make_d100_table()
    by_post(t)
    post(t, t.p1, HERO1, attack(t, BANDIT), "unik", "")
    t.run(t.gm, {"type": "resolve_turn"}, Dice(20, 45, 90))  # the bandit's Blok; damage fails
    assert "%(name)s: brak wpisu." in t.log_texts()  # Milena
    (line,) = t.lines(
        "%(attacker)s trafia: %(target)s (%(means)s) — test obrażeń nieudany, bez obrażeń."
    )
    assert [r["label"] for r in line["rolls"]] == ["Trafienie", "Blok", "Obrażenia"]


# --- over the sockets, from the forms the pages render -------------------------------------------


def _form(html: str, command_type: str, field: str | None = None) -> Form:
    found = [f for f in forms_in(html, command_type) if field is None or _has(f, field)]
    assert len(found) == 1, [f.command() for f in found]
    return found[0]


def _has(form: Form, name: str) -> bool:
    return any(f.attrs.get("name") == name and f.attrs.get("type") != "hidden" for f in form.fields)


async def test_posts_over_the_sockets_stay_each_players_until_the_resolve(
    server_clock: Clock,
) -> None:
    t = await database_sync_to_async(make_d100_table)()
    await database_sync_to_async(by_post)(t)
    gm, p1, p2 = [await open_tab(t, u) for u in (t.gm, t.p1, t.p2)]
    bandit = await database_sync_to_async(t.seat)(BANDIT)
    cut = json.dumps({"kind": "attack", "target": bandit, "choice": "w0", "spell": -1,
                      "note": ""}, ensure_ascii=False)  # fmt: skip
    # Milena's player posts first, from her form: a rest, no defence, her text.
    form = _form(p2.region("table-turn"), "post")
    rest = json.dumps({"kind": "rest", "target": None, "choice": "", "spell": -1, "note": ""})
    values = {"c.action": rest, "c.defence": "", "c.text": "Milena łapie oddech."}
    await p2.command(form.command(values=values))
    form = _form(p1.region("table-turn"), "post")
    values = {"c.action": cut, "c.defence": "unik", "c.text": "Radosław tnie."}
    await p1.command(form.command(values=values))
    seq = await head_seq(t)
    for tab in (gm, p1, p2):
        await tab.until_seq(seq)
    assert not [p for p in p1.pushes if "Milena łapie oddech." in p]
    assert not [p for p in p2.pushes if "Radosław tnie." in p]
    assert "Radosław tnie." in p1.region("table-turn")
    panel = gm.region("table-gm")
    assert "Radosław tnie." in panel and "Milena łapie oddech." in panel
    assert panel.count("✓") == 2 and panel.count("brak wpisu") == 2
    # The GM sets the deadline anew, 48 hours from the server's clock, from the panel's form.
    form = _form(panel, "extend_deadline", "c.hours")
    await gm.command(form.command(values={"c.hours": "48"}))
    deadline = (await database_sync_to_async(lambda: t.table.view)()).deadline
    assert deadline == server_clock.now() + 48 * HOUR
    # The GM resolves now, from the panel: everyone reads both posts.
    (resolve,) = forms_in(gm.region("table-gm"), "resolve_turn")
    await gm.command(resolve.command())
    seq = await head_seq(t)
    for tab in (gm, p1, p2):
        await tab.until_seq(seq)
        log = tab.region("table-log")
        assert "Wpisy tury 1:" in log and "Radosław: atak → Zbój (Szabla)" in log
        assert "Milena: Odpoczynek" in log
    for tab in (gm, p1, p2):
        await tab.close()


def test_the_summary_counts_the_turns_played_not_the_one_opened_after_them() -> None:
    """Issue 22, point 6f: two by-post turns, then the end, and the summary said „rund: 3”
    (the third turn had opened, unplayed)."""
    t = make_d100_table()
    by_post(t)
    post(t, t.p1, HERO1, {"kind": "rest"}, "unik", "")
    t.run(t.gm, {"type": "resolve_turn"}, Dice(90, 90))
    post(t, t.p1, HERO1, {"kind": "rest"}, "unik", "")
    t.run(t.gm, {"type": "resolve_turn"}, Dice(90, 90))
    assert t.state.turn == 3
    t.run(t.gm, {"type": "end_combat"})
    status = t.html(t.p2, "table-status")
    assert "rund: 2" in status and "rund: 3" not in status
