"""The d100 partials (templates/combat/rulesets/d100/) render every panel, and each form
they hold sends a command the codec reads and the rules take, as static/js/table.js builds it
(hidden `c.*` inputs, JSON where marked `data-json`, a select's chosen option, checkboxes as
booleans, empty fields left out). Who sees a post: `combat.access.Sight` on the log's lines."""

from __future__ import annotations

import dataclasses
import json
from html.parser import HTMLParser
from typing import Any

import pytest
from django.template.loader import render_to_string

from combat.access import Viewer, sight
from combat.rules.base import fill
from combat.rules.d100 import RULESET, codec, engine, narrate, prompts, table
from combat.rules.d100.commands import Attack, Damage, Expire, Post, ResolveTurn
from combat.rules.d100.state import Action
from tests.combat.rules.d100.engine_kit import Table, fighter

GM = Viewer(user_id=1, is_gm=True)
ALA = Viewer(user_id=2, is_gm=False)  # plays Ala ("2")
BOB = Viewer(user_id=3, is_gm=False)  # plays Bob ("3")
PARTIALS = "combat/rulesets/d100/"
SPELLS = [{"name": "Ogień", "kind": "damage"}, {"name": "Tarcza", "kind": "positive"}]


class Forms(HTMLParser):
    """The forms of a page, each as the JS would send its first submit button's command."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self._form: dict[str, Any] | None = None
        self._select: dict[str, Any] | None = None
        self._textarea: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("data-ws") == "command":
            self._form = {"fields": [], "html_id": a.get("id", "")}
            self.forms.append(self._form)
        if self._form is None:
            return
        if tag == "input" and a.get("name"):
            self._form["fields"].append(dict(a, tag="input"))
        elif tag == "select":
            self._select = dict(a, tag="select", options=[])
            self._form["fields"].append(self._select)
        elif tag == "option" and self._select is not None:
            self._select["options"].append(a)
        elif tag == "textarea":
            self._textarea = dict(a, tag="textarea", text="")
            self._form["fields"].append(self._textarea)

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea["text"] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def value_of(field: dict[str, Any]) -> Any:
    """A field's value as table.js's `fieldValue` reads it (None: left out)."""
    if field["tag"] == "select":
        options = field["options"]
        chosen = next((o for o in options if "selected" in o), options[0] if options else None)
        raw = chosen.get("value", "") if chosen else ""
    elif field["tag"] == "textarea":
        raw = field["text"]
    elif field.get("type") == "checkbox":
        return "checked" in field
    else:
        raw = field.get("value", "")
    if raw == "":
        return None
    if "data-json" in field:
        return json.loads(raw)
    if field.get("type") == "number":
        return float(raw) if "." in raw else int(raw)
    return raw


def commands(html: str) -> list[dict[str, Any]]:
    parser = Forms()
    parser.feed(html)
    found = []
    for form in parser.forms:
        command: dict[str, Any] = {}
        for field in form["fields"]:
            name = field.get("name", "")
            value = value_of(field)
            if name.startswith("c.") and value is not None:
                command[name[2:]] = value
        found.append(command)
    return found


def render(name: str, panel: Any, viewer: Viewer, **extra: Any) -> str:
    context = {"panel": panel, "viewer": viewer, "partials": PARTIALS, **extra}
    return render_to_string(PARTIALS + name, context)


def taken(state: Any, data: dict[str, Any]) -> bool:
    command = codec.command_from_dict({**data, "now": 2000.0})
    return engine.refusal(state, command) is None


def fight(**settings: Any) -> Table:
    return Table(
        fighter("ala", "a", "2", zwinnosc=60, spells=SPELLS, transformation="wampir"),
        fighter("bob", "a", "3"),
        fighter("ork", "b", armour="light"),
        **settings,
    )


def everyone(t: Table) -> frozenset[str]:
    return frozenset(t.state.combatants)


@pytest.mark.parametrize("viewer", [GM, ALA])
def test_the_live_turn_partial_sends_commands_the_rules_take(viewer: Viewer) -> None:
    t = fight()
    t.start()
    html = render("turn.html", table.turn_panel(t.state, "ala", everyone(t)), viewer)
    assert 'id="odds-preview"' in html and 'data-kind="preview"' in html
    sent = commands(html)
    types = [c["type"] for c in sent]
    assert types[:2] == ["attack", "cast"]
    assert {"rest", "transform", "end_turn", "full_action", "free_action"} <= set(types)
    for command in sent:
        assert taken(t.state, command), command
    attack = sent[0]
    assert attack == {"type": "attack", "actor": "ala", "target": "ork", "choice": "w0"}


def test_with_no_enemy_left_the_cast_form_still_shows() -> None:
    t = fight()
    t.start()
    t.do(Damage(target="ork", amount=500))
    html = render("turn.html", table.turn_panel(t.state, "ala", everyone(t)), ALA)
    assert "Nie ma kogo zaatakować." in html and "Rzuć czar" in html
    (cast,) = [c for c in commands(html) if c["type"] == "cast"]
    assert cast["actor"] == "ala" and cast["spell"] == 1  # Tarcza chosen: Ogień hits nobody


def test_a_refused_action_shows_its_reason_instead_of_a_form() -> None:
    t = fight()
    t.start()
    t.do(Attack(actor="ala", target="ork"))
    html = render("turn.html", table.turn_panel(t.state, "ala", everyone(t)), ALA)
    assert "Najpierw Ork musi odpowiedzieć na atak." in html
    assert commands(html) == []


@pytest.mark.parametrize("viewer", [GM, ALA])
def test_the_post_partial_sends_one_post_with_action_defence_and_text(viewer: Viewer) -> None:
    t = fight(pace="post")
    t.start(now=1000)
    attack = Action("attack", target="ork", choice="w0")
    t.do(Post(actor="ala", action=attack, defence="unik", text="Tnę <mocno>!", now=1500))
    html = render("turn.html", table.turn_panel(t.state, "ala", everyone(t)), viewer)
    assert "Tnę &lt;mocno&gt;!" in html and "Zmień wpis" in html
    assert ("Wpis gracza:" if viewer.is_gm else "Twój wpis:") in html
    (post,) = commands(html)
    assert post["type"] == "post" and post["actor"] == "ala"
    assert post["action"] == dataclasses.asdict(attack)
    assert post["defence"] == "unik" and post["text"] == "Tnę <mocno>!"
    assert post.get("by_gm", False) is viewer.is_gm
    assert taken(t.state, post)
    assert ('id="odds-preview"' in html) is not viewer.is_gm


def test_a_closed_turn_tells_the_player_and_keeps_the_gms_form() -> None:
    t = fight(pace="post")
    t.start(now=1000)
    t.do(Expire(now=10**9))
    panel = table.turn_panel(t.state, "ala", everyone(t))
    player = render("turn.html", panel, ALA)
    assert "Termin minął" in player and commands(player) == []
    (post,) = commands(render("turn.html", panel, GM))
    assert post["by_gm"] is True
    assert engine.refusal(t.state, codec.command_from_dict({**post, "now": 10**9 + 5.0})) is None


def test_the_setup_turn_partial_shows_the_thresholds() -> None:
    t = fight()
    html = render("turn.html", table.turn_panel(t.state, "ala", everyone(t)), ALA)
    assert "Miecz: 60 / 70" in html


def test_the_gm_panel_starts_switches_rolls_and_ends() -> None:
    t = fight()
    html = render("gm_panel.html", table.gm_panel(t.state), GM)
    sent = commands(html)
    assert [c["type"] for c in sent] == ["set_pace", "start_combat", "gm_roll", "end_combat"]
    for command in sent:
        assert taken(t.state, command), command
    t.start()
    running = commands(render("gm_panel.html", table.gm_panel(t.state), GM))
    assert [c["type"] for c in running] == ["set_pace", "gm_roll", "end_combat"]
    assert running[1] == {"type": "gm_roll", "threshold": 50, "secret": True}


def test_the_gm_panel_by_post_lists_posts_extends_resolves_and_posts_for_the_absent() -> None:
    t = fight(pace="post")
    t.start(now=1000)
    t.do(Post(actor="ala", action=Action("rest"), text="Odpoczywam.", now=1500))
    html = render("gm_panel.html", table.gm_panel(t.state), GM)
    assert "Odpoczywam." in html and "brak wpisu" in html
    sent = commands(html)
    kinds = [c["type"] for c in sent]
    assert {"resolve_turn", "extend_deadline", "gm_roll", "end_combat"} <= set(kinds)
    extend, anew = [c for c in sent if c["type"] == "extend_deadline"]
    assert extend["deadline"] == 1000 + 24 * 3600 + 6 * 3600
    assert anew["hours"] == 24
    for command in sent:
        assert taken(t.state, command), command
    t.do(Expire(now=10**9))
    closed = render("gm_panel.html", table.gm_panel(t.state), GM)
    posts = [c for c in commands(closed) if c["type"] == "post"]
    assert [p["actor"] for p in posts] == ["ala", "bob", "ork"]
    assert all(p["by_gm"] for p in posts)


def test_the_gm_seat_partial_sends_its_commands() -> None:
    t = fight()
    t.start()
    t.do(Damage(target="ork", amount=500))
    html = render("gm_seat.html", table.gm_seat_panel(t.state, "ork"), GM)
    sent = commands(html)
    kinds = [c["type"] for c in sent]
    assert kinds[:2] == ["decide_fallen", "decide_fallen"]
    assert {"damage", "heal", "add_condition", "fall", "set_order"} <= set(kinds)
    for command in sent:
        if command["type"] != "damage":  # the dead take no more: the form is there anyway
            assert taken(t.state, command), command


def test_the_seat_and_prompt_partials_render() -> None:
    t = fight(pace="post")
    t.start(now=1000)
    t.do(Post(actor="ala", action=Action("rest"), now=1500))
    seat = render("seat.html", table.seat_panel(t.state, "ala", everyone(t)), ALA)
    assert "Twój wpis:" in seat and "Odpoczynek" in seat and "Unik 60 · Blok 50" in seat
    live = fight()
    live.start()
    live.do(Attack(actor="ala", target="ork"))
    card = render("prompt.html", prompts.prompt_panel(live.state, "p1"), BOB)
    assert "Miecz: Trafienie 60, Obrażenia 70." in card and "Pancerz 10%." in card
    assert render("prompt.html", None, BOB).strip() == ""
    t.do(Expire(now=10**9))
    closed = render("seat.html", table.seat_panel(t.state, "ala", everyone(t)), ALA)
    assert "Termin minął: wpisy do tej tury są zamknięte." in closed
    fallen = render("prompt.html", prompts.PromptPanel(fallen="Ork jest już poza walką."), BOB)
    assert "Atak przepada: Ork jest już poza walką." in fallen


# --- who sees a post --------------------------------------------------------------------------


def lines(t: Table, events: list[Any], before: Any) -> list[dict[str, Any]]:
    out = []
    state = before
    for event in events:
        line = narrate.describe(state, event)
        if line is not None:
            out.append(dataclasses.asdict(line))
        state = RULESET.evolve(state, event)
    return out


def test_a_hidden_post_is_the_gms_until_the_turn_resolves() -> None:
    t = fight(pace="post")
    t.start(now=1000)
    before = t.state
    events = t.do(Post(actor="ala", action=Action("rest"), text="Sekret.", now=1500))
    (posted,) = lines(t, events, before)
    view = RULESET.table_view(t.state)
    assert sight(view, GM).line(posted)
    assert not sight(view, BOB).line(posted)
    assert not sight(view, ALA).line(posted)  # the poster reads it on their own turn panel
    post = table.turn_panel(t.state, "ala", everyone(t)).post
    assert post is not None and post.mine is not None
    assert post.mine.text == "Sekret."
    before = t.state
    resolved = lines(t, t.do(ResolveTurn(now=2000), [90]), before)
    revealed = next(line for line in resolved if line["kind"] == "post")
    (quote,) = revealed["quotes"]  # the post, quoted with its author
    assert quote["author"] == "Ala" and "Odpoczynek" in fill(*quote["action"])
    for viewer in (GM, ALA, BOB):
        assert sight(RULESET.table_view(t.state), viewer).line(revealed)


def test_open_posts_are_seen_by_every_player_who_sees_the_poster() -> None:
    t = fight(pace="post", posts_hidden=False)
    t.start(now=1000)
    before = t.state
    (posted,) = lines(t, t.do(Post(actor="ala", action=Action("rest"), now=1500)), before)
    view = RULESET.table_view(t.state)
    assert all(sight(view, v).line(posted) for v in (GM, ALA, BOB))
