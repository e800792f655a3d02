"""The benchmark's player: it reads the regions a socket was pushed, as a browser shows them,
and picks and fills one of their `<form data-ws>` forms as static/js/table.js `collect()`
would, without knowing any ruleset's rules.

Stdlib only, no Django: the load processes import it. A socket keeps each region's latest HTML
as a string (`Regions.update`, cheap: the payload is split at its regions' opening tags) and
parses them only when it must act (`Viewer.forms`: one regex pass over the tags forms are made
of, the forms for seats the viewer does not play cut out first). `choose` prefers, in order: an
answer to a prompt meant for this viewer, the GM's play of an NPC's turn, an attack, a move or
another action, ending the turn; `message` fills the chosen form into the message its submit
button would send; `route` taps a map beside a foe (the answer holds the move's confirm form).
"""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from scripts.bench.page import Page

# Regions a player acts from. The GM panel's forms (adding seats, undo, settings) are no play,
# nor are the GM's seat rows but for their "play this NPC's turn" forms.
ROUTE = "map-route-panel"  # a route's answer, to the asking socket alone: its confirm form
ACTING_REGIONS = ("table-prompts", "table-turn", "table-me", ROUTE)
PLAY_FORM = '<form data-ws="play"'
GM_ONLY = "table-order"  # the GM's seat rows: only their "Zagraj turę" (play) forms are play
NOT_PLAY = frozenset({"add", "undo", "policy", "autoplay", "preview", "route", "place"})
END_TURN = frozenset({"end_turn", "end_declarations", "pass"})
UNFILLED = ("checkbox", "radio", "hidden")  # a required field of these kinds is no text
ATTACK_WORDS = ("attack", "strike", "shoot", "spell", "cast", "charge")


class Regions:
    """One socket's latest HTML of each region, by element id, as raw strings."""

    def __init__(self) -> None:
        self.html = Page()
        self.version = 0  # bumped by every update: a parse of an older version is stale

    def update(self, payload: str) -> list[str]:
        """Take a push's `html` as the page does (`scripts.bench.page`); the ids of the
        regions it touched."""
        names = self.html.apply(payload)
        if names:
            self.version += 1
        return names

    def drop(self, name: str) -> None:
        """Forget a region (a route's answer, once the table moved on)."""
        if self.html.drop(name):
            self.version += 1

    def has_prompt_for_me(self) -> bool:
        return "prompt-mine" in self.html.get("table-prompts", "")


@dataclass
class Control:
    """A form control as collect() sees it."""

    tag: str  # input, select, textarea, button
    name: str
    type: str = "text"
    value: str = ""
    checked: bool = False
    disabled: bool = False
    required: bool = False
    attrs: dict[str, str] = field(default_factory=dict)
    options: list[tuple[str, bool]] = field(default_factory=list)  # select: (value, selected)

    @property
    def submits(self) -> bool:
        return self.tag == "button" and self.type == "submit" and not self.disabled


@dataclass
class Form:
    """A `<form data-ws>` of a region: what its submit button would send."""

    ws: str  # what data-ws names: command, play, …
    region: str
    attrs: dict[str, str]
    controls: list[Control] = field(default_factory=list)
    prompt: str = ""  # the prompt it answers ("" if none)
    mine: bool = False  # a prompt meant for this viewer

    def actor(self) -> str:
        """The seat it acts for ("" when it names none)."""
        for control in self.controls:
            if control.name in ("c.actor", "combatant") and control.type == "hidden":
                return control.value
        return ""

    def command_type(self) -> str:
        for control in self.controls:
            if control.name == "c.type" and control.tag == "input":
                return control.value
        return ""

    def submitter(self) -> Control | None:
        """The button a player presses: the first enabled submit that is not a preview."""
        for control in self.controls:
            if control.submits and control.attrs.get("data-kind") != "preview":
                return control
        return None

    def fillable(self) -> bool:
        """Whether a browser would send it: a submit button, no required field left empty."""
        if self.submitter() is None:
            return False
        for c in self.controls:
            empty = c.tag in ("input", "textarea") and not c.value
            if c.required and not c.disabled and empty and c.type not in UNFILLED:
                return False
        return True

    def kind(self) -> str:
        """What a player would call it: prompt, play, attack, move, end, other."""
        if self.prompt:
            return "prompt"
        if self.ws == "play":
            return "play"
        kind = self.command_type()
        if kind in END_TURN:
            return "end"
        if any(word in kind for word in ATTACK_WORDS):
            return "attack"
        return "move" if "move" in kind or self.region == ROUTE else "other"


# The tags a form is made of, in order (the templates quote every attribute with "): one C
# regex pass over a region instead of html.parser's tokeniser in Python: four times faster.
TAG = re.compile(r"<(/?)(form|input|select|option|textarea|button|article)\b([^>]*)>")
ATTR = re.compile(r'([\w:.-]+)(?:="([^"]*)")?')


def _attrs(text: str) -> dict[str, str]:
    return {k: html.unescape(v) if "&" in v else v for k, v in ATTR.findall(text)}


def _parse(region: str, text: str) -> tuple[list[Form], dict[str, list[Control]]]:
    """The data-ws forms of one region, and the inputs outside forms named by data-with."""
    found: list[Form] = []
    shared: dict[str, list[Control]] = {}
    form: Form | None = None
    select: Control | None = None
    prompt, mine = "", False
    for m in TAG.finditer(text):
        closing, tag, rest = m.groups()
        if closing:
            if tag == "form":
                form = None
            elif tag == "select":
                select = None
            elif tag == "article":
                prompt, mine = "", False
            continue
        a = _attrs(rest)
        if tag == "article":
            classes = a.get("class", "").split()
            if "prompt" in classes:
                prompt, mine = a.get("id", "prompt"), "prompt-mine" in classes
        elif tag == "form":
            form = None
            if "data-ws" in a:
                form = Form(a["data-ws"], region, a, prompt=prompt, mine=mine)
                found.append(form)
        elif tag == "option":
            if select is not None:
                select.options.append((a.get("value", ""), "selected" in a))
        else:
            control = _control(tag, a)
            if tag == "select":
                select = control
            elif tag == "textarea":
                control.value = html.unescape(text[m.end() : text.find("</textarea>", m.end())])
            if form is not None:
                form.controls.append(control)
            elif "data-with" in a:
                shared.setdefault(a["data-with"], []).append(control)
    return found, shared


def _control(tag: str, a: dict[str, str]) -> Control:
    default = {"button": "submit", "input": "text"}.get(tag, tag)
    return Control(
        tag,
        a.get("name", ""),
        type=a.get("type", default).lower(),
        value=a.get("value", ""),
        checked="checked" in a,
        disabled="disabled" in a,
        required="required" in a,
        attrs=a,
    )


def forms(
    regions: dict[str, str], own: Callable[[str], bool] | None = None
) -> tuple[list[Form], dict[str, list[Control]]]:
    """The forms of the regions a player acts from (and the GM's play forms of its seat rows),
    and the inputs outside any form that forms name in data-with; `own`: only the forms that
    act for a seat it accepts (or name none), the others not even parsed."""
    found: list[Form] = []
    shared: dict[str, list[Control]] = {}
    for name in (*ACTING_REGIONS, GM_ONLY):
        text = regions.get(name, "")
        if name == GM_ONLY:
            text = _play_forms(text)  # the rows are long; their play forms a few lines
        if "data-ws" not in text:
            continue
        if own is not None:
            text = _own_forms(text, own)
        region_forms, region_shared = _parse(name, text)
        found += region_forms
        for key, controls in region_shared.items():
            shared.setdefault(key, []).extend(controls)
    return found, shared


ACTOR = re.compile(r'name="(?:c\.actor|combatant)" value="([^"]*)"')


def _own_forms(text: str, own: Callable[[str], bool]) -> str:
    """`text` without the forms that act for a seat `own` refuses (the GM's page shows the
    players' turns with every form: parsing them would cost more than all the rest)."""
    parts, at = [], 0
    while (start := text.find("<form", at)) >= 0:
        end = text.find("</form>", start)
        end = len(text) if end < 0 else end + len("</form>")
        parts.append(text[at:start])
        actor = ACTOR.search(text, start, end)
        if actor is None or own(actor.group(1)):
            parts.append(text[start:end])
        at = end
    parts.append(text[at:])
    return "".join(parts)


def _play_forms(html: str) -> str:
    parts = []
    at = html.find(PLAY_FORM)
    while at >= 0:
        end = html.find("</form>", at)
        parts.append(html[at : end + 7])
        at = html.find(PLAY_FORM, end)
    return "".join(parts)


PREFERENCE = ("prompt", "play", "attack", "move", "other", "end")


def choose(found: list[Form], rng: random.Random, *, refused: Collection[str] = ()) -> Form | None:
    """The form a player would send: an answer to their prompt, else the GM's play of an NPC's
    turn, else an attack, else a move or another action or (one time in three, where both are
    offered) the end of the turn; a random one of that kind, leaving out forms refused lately
    (`refused`: their signatures) and prompts meant for someone else."""
    ranked: dict[str, list[Form]] = {}
    for form in found:
        if form.ws in NOT_PLAY or not form.fillable() or signature(form) in refused:
            continue
        if form.prompt and not form.mine:
            continue
        ranked.setdefault(form.kind(), []).append(form)
    if ranked.get("end") and (ranked.get("move") or ranked.get("other")) and rng.random() < 0.35:
        return rng.choice(ranked["end"])
    for kind in PREFERENCE:
        if ranked.get(kind):
            return rng.choice(ranked[kind])
    return None


class Refusals:
    """Forms the table refused (or that changed nothing), left out for the next few seqs: a
    player tries something else, and later the same again (the bow is reloaded by then)."""

    HOLD = 4  # seqs

    def __init__(self) -> None:
        self.at: dict[str, int] = {}

    def add(self, form: Form, seq: int) -> None:
        self.at[signature(form)] = seq

    def active(self, seq: int) -> set[str]:
        self.at = {sig: at for sig, at in self.at.items() if seq - at < self.HOLD}
        return set(self.at)


def signature(form: Form) -> str:
    """A form's identity across pushes: its kind, region, prompt and hidden fields."""
    hidden = ",".join(f"{c.name}={c.value}" for c in form.controls if c.type == "hidden")
    return f"{form.ws}|{form.region}|{form.prompt}|{hidden}"


def message(
    form: Form,
    shared: dict[str, list[Control]],
    rng: random.Random,
    *,
    command_id: str,
    seq: int,
    foe: Callable[[str], bool] = lambda seat: True,
) -> dict[str, Any]:
    """The message the form's submit button sends (collect() in static/js/table.js). A player
    makes two choices: a target (a `foe` where the select offers one) and, where a form
    asks for the kind of action, an attack more often than not; other selects keep theirs."""
    submitter = form.submitter()
    msg: dict[str, Any] = {"type": (submitter and submitter.attrs.get("data-kind")) or form.ws}
    command: dict[str, Any] = {}
    controls = [c for c in form.controls if c.name and not c.disabled and c.tag != "button"]
    if submitter is not None and submitter.name:
        controls.append(submitter)
    if "data-with" in form.attrs:
        controls += shared.get(form.attrs["data-with"], [])
    for c in controls:
        head, dot, rest = c.name.partition(".")
        in_command = head == "c" and bool(dot)
        bag, key = (command, rest) if in_command else (msg, c.name)
        if c.type == "checkbox" and "data-list" in c.attrs:
            if in_command:
                bag.setdefault(key, [])
            if c.checked:
                item = c.value if "data-text" in c.attrs else _number(c.value)
                bag.setdefault(key, []).append(item)
            continue
        if c.type == "radio" and not c.checked:
            continue
        value = _value(c, rng, foe)
        if value is None:
            continue
        if in_command:
            command[rest] = value
        elif dot:
            msg.setdefault(head, {})[rest] = value
        else:
            msg[c.name] = value
    if command:
        msg["command"] = command
    if form.ws != "policy":
        msg["id"] = ("p." if msg["type"] == "preview" else "") + command_id
    msg["seq"] = seq
    return msg


def _value(c: Control, rng: random.Random, foe: Callable[[str], bool]) -> Any:
    """fieldValue() of table.js; a select's value is its selected (else first) option, but
    for the choices `message` makes."""
    if c.type == "checkbox":
        return c.checked
    value = c.value
    if c.tag == "select":
        options = [v for v, _ in c.options]
        chosen = [v for v, selected in c.options if selected]
        value = chosen[0] if chosen else (options[0] if options else "")
        if c.name.endswith("target") and any(options):
            value = rng.choice([v for v in options if v and foe(v)] or [v for v in options if v])
        elif c.name.endswith(".action") and rng.random() < 0.8:
            value = next((v for v in options if any(w in v for w in ATTACK_WORDS)), value)
    if value == "":
        return None
    if "data-json" in c.attrs:
        return json.loads(value)
    if c.type == "number":
        return _number(value)
    return value


def _number(text: str) -> int | float:
    number = float(text)
    return int(number) if number.is_integer() else number


class Viewer:
    """One socket's page as the bot reads it: its regions, parsed when it must act (and again
    only after a push changed them)."""

    def __init__(self, user: str, *, gm: bool, controllers: dict[str, str] | None = None) -> None:
        """`controllers` (seat id -> user): the seats each player plays; with them, the forms
        for seats this viewer does not play are left out (the GM plays the seats no player
        does)."""
        self.user, self.gm = user, gm
        self.own: Callable[[str], bool] | None = None
        if controllers is not None:
            players = dict(controllers)
            self.own = (
                (lambda seat: seat not in players)
                if gm
                else (lambda seat: players.get(seat) == user)
            )
        self.regions = Regions()
        self._parsed: tuple[int, list[Form], dict[str, list[Control]]] = (-1, [], {})

    def forms(self) -> tuple[list[Form], dict[str, list[Control]]]:
        version, found, shared = self._parsed
        if version != self.regions.version:
            found, shared = forms(self.regions.html, self.own)
            self._parsed = (self.regions.version, found, shared)
        return found, shared

    def may_act(self) -> bool:
        """A player's page shows their turn or a prompt for them; the GM's page always may."""
        if self.gm:
            return True
        return "data-my-turn" in self.regions.html.get("table-turn", "") or (
            self.regions.has_prompt_for_me()
        )


def pick(
    viewers: list[Viewer],
    controllers: dict[str, str],
    rng: random.Random,
    *,
    refused: Collection[str] = (),
    prompts: bool = False,
) -> tuple[Viewer, Form] | None:
    """The viewer who acts and the form they send: a player for their own seats, the GM for
    the seats no player controls (`controllers`: seat id -> user). Where several may act at
    once (declarations made together), one of them at random; each ranks its page's forms
    (`choose`). None when nobody has anything to send. `prompts`: only answers to prompts
    (else everything but them: a prompt is answered when it opens)."""
    offers: list[tuple[Viewer, Form]] = []
    for viewer in viewers:
        if not viewer.may_act():
            continue
        found, _ = viewer.forms()
        mine = []
        for form in found:
            actor = form.actor()
            own = actor not in controllers if viewer.gm else controllers.get(actor) == viewer.user
            if (not actor or own) and prompts == bool(form.prompt):
                mine.append(form)
        best = choose(mine, rng, refused=refused)
        if best is not None:
            offers.append((viewer, best))
    return rng.choice(offers) if offers else None


def foe_of(viewer: Viewer, controllers: dict[str, str]) -> Callable[[str], bool]:
    """Whom this viewer's seats fight: a player the seats nobody plays, the GM the players'
    seats (each page shows whose seats are whose)."""
    if viewer.gm:
        return lambda seat: seat in controllers
    return lambda seat: seat not in controllers


TOKEN = re.compile(
    r'<g [^>]*?class="map-token[^"]*" data-seat="([^"]+)"[^>]*? data-field="(\d+),(\d+)"'
)
CURRENT = re.compile(r'data-seat="([^"]+)"[^>]*? data-current="1"')
SIZE = re.compile(r'data-cols="(\d+)" data-rows="(\d+)"')
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1))


def route(
    viewer: Viewer, foe: Callable[[str], bool], rng: random.Random, reach: float = 1.0
) -> dict[str, Any] | None:
    """A tap on the map beside a foe's token (or `reach` of the way there: a player who was
    told it is too far taps nearer), as static/js/map.js sends it for the token whose turn it
    is; the answer brings the form that confirms the move. None when the page has no map, or
    the turn is not this viewer's."""
    tokens = viewer.regions.html.get("table-map-tokens", "")
    current = CURRENT.search(tokens)
    size = SIZE.search(viewer.regions.html.get("table-map-terrain", ""))
    if current is None or size is None or not viewer.may_act():
        return None
    actor = current.group(1)
    if viewer.own is not None and not viewer.own(actor):
        return None
    fields = {seat: (int(x), int(y)) for seat, x, y in TOKEN.findall(tokens)}
    targets = [field for seat, field in fields.items() if foe(seat)]
    if not targets or actor not in fields:
        return None
    (x, y), (dx, dy), (ax, ay) = rng.choice(targets), rng.choice(STEPS), fields[actor]
    x, y = round(ax + (x + dx - ax) * reach), round(ay + (y + dy - ay) * reach)
    cols, rows = int(size.group(1)), int(size.group(2))
    to = [min(max(x, 0), cols - 1), min(max(y, 0), rows - 1)]
    return {"type": "route", "actor": actor, "to": to, "mode": ""}
