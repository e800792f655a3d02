"""A Magus table to play on: a GM, two players with a swordsman each, and a bandit NPC who
knows Unik and Riposta; commands run through `combat.services` as the socket runs them.

The dice are injected: `Faces(n)` shows `n` on every die (capped below the die's maximum, so
nothing explodes), so an attack with a high face hits the bandit's low Obrona Fizyczna.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from django.contrib.auth.models import User

from characters import services as characters_services
from characters.models import Campaign, Character
from combat import fragments, services
from combat.models import Encounter
from combat.rules.magus.sheet import ATTRIBUTES, STATS, TALENTS, Armour, Weapon
from combat.services import Appended, Viewer
from tests.characters.helpers import make_member, make_user

HERO1, HERO2, BANDIT, SCOUT = "Radosław", "Milena", "Zbój", "Zwiadowca"


class Faces:
    """Every die shows `face` (below its maximum: no die explodes)."""

    def __init__(self, face: int) -> None:
        self.face = face

    def randint(self, a: int, b: int) -> int:
        return max(a, min(self.face, b - 1))


def magus_sheet(**attributes: int) -> dict[str, Any]:
    """A valid Magus sheet: a swordsman (Zręczność 6, Broń Biała 3, Unik 2, Riposta 1)."""
    values = dict.fromkeys([key for key, _label in ATTRIBUTES], 5)
    values.update({"zrecznosc": 6, "obrona_fizyczna": 7, "obrona_magiczna": 6})
    values.update({"obrona_spoleczna": 6, "prog_ran": 10, "prog_przytomnosci": 30})
    values.update({"prog_smierci": 38, "testy_zdrowienia": 2, "ruch": 12, "ruch_pelny": 24})
    for key, _label in STATS:
        values.setdefault(key, 0)
    values.update(attributes)
    skills = dict.fromkeys([key for key, _label, _attribute in TALENTS], 0)
    skills.update({"bron_biala": 3, "unik": 2, "riposta": 1})
    return {
        "attributes": values,
        "skills": skills,
        "weapons": [dataclasses.asdict(Weapon("Miecz", damage=4, size=2))],
        "armour": [dataclasses.asdict(Armour("Skórznia", 2, 1, 0))],
        "shields": [],
        "spells": [],
        "items": [],
    }


@dataclass
class MagusTable:
    gm: User
    p1: User
    p2: User
    campaign: Campaign
    hero1: Character
    hero2: Character
    bandit: Character
    encounter: Encounter

    def viewer(self, user: User) -> Viewer:
        return Viewer(user_id=user.pk, is_gm=user == self.gm)

    @property
    def gm_viewer(self) -> Viewer:
        return self.viewer(self.gm)

    def seat(self, character: Character) -> str:
        return f"c{character.pk}"

    def run(self, user: User, command: dict[str, Any], face: int = 5) -> Appended:
        """The command as `user` sends it (a fresh command id each time)."""
        return services.run_command(
            self.encounter.pk,
            command,
            viewer=self.viewer(user),
            command_id=f"cmd-{next(_ids)}",
            rng=Faces(face),
            answer_npcs=False,
        )

    @property
    def table(self) -> Any:
        return services.load_table(self.encounter.pk)

    @property
    def state(self) -> Any:
        return self.table.state

    def html(self, user: User, region: str | None = None) -> str:
        """What `user` is shown: one region, or every region of the page."""
        table, viewer = self.table, self.viewer(user)
        if region is not None:
            return fragments.render_one(table, viewer, region)
        return fragments.render_regions(table, viewer)


_ids = itertools.count(1)


def make_magus_table(*, policy: str = "ask", hidden_scout: bool = False) -> MagusTable:
    """The table in its setup stage with the three (or, with the hidden scout, four) seated."""
    gm = make_user("mistrz")
    campaign = characters_services.create_campaign(
        gm=gm, name="Przełęcz", description="", ruleset="magus"
    )
    campaign.settings = {**campaign.settings, "npc_default_policy": policy}
    campaign.save(update_fields=["settings"])
    p1, p2 = make_member(campaign, "gracz1"), make_member(campaign, "gracz2")
    hero1 = Character.objects.create(campaign=campaign, owner=p1, name=HERO1, sheet=magus_sheet())
    hero2 = Character.objects.create(
        campaign=campaign, owner=p2, name=HERO2, sheet=magus_sheet(zrecznosc=5)
    )
    bandit = Character.objects.create(
        campaign=campaign,
        name=BANDIT,
        kind=Character.Kind.NPC,
        sheet=magus_sheet(zrecznosc=4, obrona_fizyczna=2),
    )
    encounter = services.create_encounter(campaign=campaign, name="Na przełęczy", by=gm)
    table = MagusTable(gm, p1, p2, campaign, hero1, hero2, bandit, encounter)
    services.add_combatants(
        encounter.pk, viewer=table.gm_viewer, characters=[hero1.pk, hero2.pk, bandit.pk]
    )
    if hidden_scout:
        scout = Character.objects.create(
            campaign=campaign, name=SCOUT, kind=Character.Kind.NPC, sheet=magus_sheet()
        )
        services.add_combatants(
            encounter.pk, viewer=table.gm_viewer, characters=[scout.pk], hidden=True
        )
    return table


# --- forms as the browser sends them ------------------------------------------------------------


@dataclass
class Field:
    tag: str
    attrs: dict[str, str]
    # a select's options: (value, selected)
    options: list[tuple[str, bool]] = dataclasses.field(default_factory=list)
    text: str = ""
    labelled: bool = False  # inside a <label>, or named by aria-label
    case: str | None = None  # inside a [data-case] group: shown when its switch names this


@dataclass
class Form:
    attrs: dict[str, str]
    fields: list[Field] = dataclasses.field(default_factory=list)

    def buttons(self) -> list[Field]:
        """The buttons shown: of the [data-case] groups only the one its data-switch select
        names (static/js/table.js), as rendered."""
        switch = next((f for f in self.fields if "data-switch" in f.attrs), None)
        shown = None
        if switch is not None and switch.options:
            shown = next((v for v, sel in switch.options if sel), switch.options[0][0])
        return [f for f in self.fields if f.tag == "button" and f.case in (None, shown)]

    def button(self, text: str) -> Field:
        found = [b for b in self.buttons() if b.text == text] or [
            b for b in self.buttons() if text in b.text
        ]
        assert len(found) == 1, f"{text!r} among {[b.text for b in self.buttons()]}"
        return found[0]

    def command(
        self,
        *,
        values: dict[str, Any] | None = None,
        checked: set[str] | None = None,
        submitter: Field | None = None,
    ) -> dict[str, Any]:
        """The command static/js/table.js builds from this form (`collect`), with the inputs
        named in `values` set and the checkboxes of `checked` ("name=value") ticked.

        Lists: a ticked `data-list` checkbox named `c.<field>` adds its value to that list
        (text with `data-text`), as the table's script is asked to do (see the report)."""
        values = values or {}
        command: dict[str, Any] = {}
        for f in self.fields + ([submitter] if submitter is not None else []):
            name = f.attrs.get("name", "")
            if not name or "disabled" in f.attrs or (f.tag == "button" and f is not submitter):
                continue
            head, _, rest = name.partition(".")
            if head != "c":
                continue
            kind = f.attrs.get("type", "")
            if f.tag == "input" and kind == "checkbox":
                ticked = f"{name}={f.attrs.get('value', 'on')}" in (checked or set()) or (
                    checked is None and "checked" in f.attrs
                )
                if "data-list" in f.attrs:
                    if ticked:
                        raw = f.attrs.get("value", "")
                        item = raw if "data-text" in f.attrs else int(raw)
                        command.setdefault(rest, []).append(item)
                    continue
                command[rest] = ticked
                continue
            if f.tag == "select":
                first = f.options[0][0] if f.options else ""
                value = next((v for v, sel in f.options if sel), first)
            else:
                value = f.attrs.get("value", "")
            if kind != "hidden":  # what the user sets: the visible control
                value = str(values.get(name, value))
            if value == "":
                continue
            if "data-json" in f.attrs:
                command[rest] = json.loads(value)
            elif kind == "number":
                command[rest] = int(value)
            else:
                command[rest] = value
        return command


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._open: Field | None = None
        self._labels = 0
        self._case: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v if v is not None else "" for k, v in attrs}
        if tag == "label":
            self._labels += 1
        if "data-case" in found:
            self._case = found["data-case"]
        if tag == "form" and "data-ws" in found:
            self._form = Form(found)
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag in ("input", "select", "button", "textarea"):
            labelled = self._labels > 0 or "aria-label" in found
            field = Field(tag, found, labelled=labelled, case=self._case)
            self._form.fields.append(field)
            self._open = field if tag != "input" else None
        elif tag == "option" and self._open is not None and self._open.tag == "select":
            self._open.options.append((found.get("value", ""), "selected" in found))

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self._labels -= 1
        if tag == "ul":  # a [data-case] group is a list (no list inside it)
            self._case = None
        if tag == "form":
            self._form = None
        if self._open is not None and tag == self._open.tag:
            self._open.text = " ".join(self._open.text.split())
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._open is not None and self._open.tag == "button":
            self._open.text += data


def forms_in(html: str, command_type: str | None = None) -> list[Form]:
    """The `data-ws` forms of `html` (those whose hidden c.type is `command_type`)."""
    parser = _Forms()
    parser.feed(html)
    forms = parser.forms
    if command_type is not None:
        forms = [f for f in forms if f.command().get("type") == command_type]
    return forms
