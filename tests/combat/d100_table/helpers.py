"""A d100 table ("Kroniki Fallathanu (k100)") to play on: a GM, two players with a character
each, the GM's bandit (a campaign NPC), a wolf from the shared bestiary and, when asked, a
hidden scout; commands run through `combat.services` as the socket runs them.

Sheets are in the shape the characters app stores (PŻ, race, transformation, armour and
shield in one "profile" dict). The initiative order is by Zwinność: Radosław (60), Milena
(58), the wolf (55), the bandit (40), the scout (30).

The dice are scripted: `Dice(37, 80, …)` gives those faces in order (each clamped to the
die asked for), then `rest` (a plain 50: an ordinary success against most thresholds here).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from characters import account
from characters import services as characters_services
from characters.models import Campaign, Character, CreatureTemplate
from combat import fragments, services
from combat.models import Encounter
from combat.routing import websocket_urlpatterns
from combat.rules.base import RNG
from combat.services import Appended, Viewer
from scripts.bench.page import Page
from tests.characters.helpers import make_member, make_user

HERO1, HERO2, BANDIT, SCOUT = "Radosław", "Milena", "Zbój", "Zwiadowca"
WOLF_TEMPLATE = "Szary wilk"
WOLF = f"{WOLF_TEMPLATE} 1"
T0 = 1_900_000_000.0  # 2030-03-17 17:46:40 UTC
HOUR = 3600.0


class Clock:
    """The server's clock in the tests: it stands still until moved."""

    def __init__(self, at: float) -> None:
        self.at = at

    def now(self) -> float:
        return self.at

    def move(self, seconds: float) -> float:
        self.at += seconds
        return self.at


class Dice:
    """Faces in order (clamped to the die asked for), then `rest` for every die after them."""

    def __init__(self, *faces: int, rest: int = 50) -> None:
        self.faces = list(faces)
        self.rest = rest
        self.asked: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.asked.append((a, b))
        face = self.faces.pop(0) if self.faces else self.rest
        return max(a, min(face, b))


def d100_sheet(
    *,
    pz: int = 100,
    weapons: Iterable[tuple[str, str]] = (("Szabla", "traditional"),),
    spells: Iterable[dict[str, Any]] = (),
    armour: str = "",
    shield: bool = False,
    race: str = "czlowiek",
    transformation: str = "",
    akrobatyka: int = 20,
    medycyna: int = 0,
    **attributes: int,
) -> dict[str, Any]:
    """A sheet as the characters app stores it: every attribute 50 unless given."""
    keys = ("zwinnosc", "zmysly", "krzepa", "wytrzymalosc", "intelekt", "oglada")
    return {
        "attributes": {key: attributes.get(key, 50) for key in keys},
        "skills": {"akrobatyka": akrobatyka, "medycyna": medycyna},
        "profile": {
            "pz": pz,
            "race": race,
            "transformation": transformation,
            "armour": armour,
            "shield": shield,
        },
        "weapons": [{"name": name, "kind": kind} for name, kind in weapons],
        "spells": list(spells),
    }


@dataclass
class D100Table:
    gm: User
    p1: User
    p2: User
    campaign: Campaign
    hero1: Character
    hero2: Character
    bandit: Character
    encounter: Encounter
    wolf: CreatureTemplate | None = None
    scout: Character | None = None
    ids: dict[str, str] = field(default_factory=dict)  # name -> combatant id

    def learn_ids(self) -> None:
        self.ids = {c.name: cid for cid, c in self.state.combatants.items()}

    def viewer(self, user: User) -> Viewer:
        return Viewer(user_id=user.pk, is_gm=user == self.gm)

    @property
    def gm_viewer(self) -> Viewer:
        return self.viewer(self.gm)

    @property
    def pk(self) -> int:
        return self.encounter.pk

    def seat(self, name: str) -> str:
        return self.ids[name]

    def run(
        self,
        user: User,
        command: dict[str, Any],
        dice: RNG | None = None,
        *,
        now: float | None = None,
        answer_npcs: bool = False,
    ) -> Appended:
        """The command as `user` sends it (a fresh command id each time), at the server's
        clock unless `now` is given."""
        return services.run_command(
            self.pk,
            command,
            viewer=self.viewer(user),
            command_id=f"cmd-{next(_ids)}",
            rng=dice or Dice(),
            now=now,
            answer_npcs=answer_npcs,
        )

    @property
    def table(self) -> Any:
        return services.load_table(self.pk)

    @property
    def state(self) -> Any:
        return self.table.state

    @property
    def seq(self) -> int:
        return self.row().seq

    def row(self) -> Encounter:
        return Encounter.objects.get(pk=self.pk)

    def html(self, user: User, region: str | None = None) -> str:
        """What `user` is shown: one region, or every region of the page."""
        table, viewer = self.table, self.viewer(user)
        if region is not None:
            return fragments.render_one(table, viewer, region)
        return fragments.render_regions(table, viewer)

    def log_texts(self) -> list[str]:
        """Every log line's msgid, oldest first."""
        return [str(line["text"]) for entry in self.table.log for line in entry.lines]

    def lines(self, text: str) -> list[dict[str, Any]]:
        """The log lines with this msgid, oldest first."""
        return [
            dict(line) for entry in self.table.log for line in entry.lines if line["text"] == text
        ]


_ids = itertools.count(1)


def wolf_template(campaign: Campaign) -> CreatureTemplate:
    """The shared bestiary's wolf (the characters app's migration 0006), or the campaign's own
    when that migration is not there."""
    shared = CreatureTemplate.objects.filter(campaign=None, ruleset="d100", name=WOLF_TEMPLATE)
    found = shared.first()
    if found is not None:
        return found
    return CreatureTemplate.objects.create(
        campaign=campaign,
        ruleset="d100",
        name=WOLF_TEMPLATE,
        sheet=d100_sheet(
            pz=50, weapons=[("Kły", "small")], race="inna", zwinnosc=55, zmysly=60, krzepa=40
        ),
    )


def make_d100_table(
    *, hidden_scout: bool = False, wolf: bool = True, seated: bool = True, **settings: Any
) -> D100Table:
    """The table in its setup stage, everyone seated as the GM adds them from the panel (the
    bandit and the heroes, the wolf, then the scout hidden); `seated=False`: nobody yet (the
    scout, when asked for, is a campaign NPC all the same)."""
    gm = make_user("mistrz", email="mg@example.com")
    campaign = characters_services.create_campaign(
        gm=gm, name="Kroniki", description="", ruleset="d100"
    )
    if settings:
        campaign.settings = {**campaign.settings, **settings}
        campaign.save(update_fields=["settings"])
    p1, p2 = make_member(campaign, "gracz1"), make_member(campaign, "gracz2")
    account.mark_confirmed(p1, "gracz1@example.com")
    account.mark_confirmed(p2, "gracz2@example.com")
    hero1 = Character.objects.create(
        campaign=campaign,
        owner=p1,
        name=HERO1,
        sheet=d100_sheet(pz=120, armour="light", zwinnosc=60, krzepa=55, wytrzymalosc=50),
    )
    hero2 = Character.objects.create(
        campaign=campaign,
        owner=p2,
        name=HERO2,
        sheet=d100_sheet(
            pz=90,
            weapons=[("Sztylet", "small")],
            spells=[{"name": "Ognisty pocisk", "kind": "damage"}],
            zwinnosc=58,
            zmysly=60,
            intelekt=60,
        ),
    )
    bandit = Character.objects.create(
        campaign=campaign,
        name=BANDIT,
        kind=Character.Kind.NPC,
        sheet=d100_sheet(pz=80, weapons=[("Kord", "traditional")], zwinnosc=40, krzepa=50),
    )
    encounter = services.create_encounter(campaign=campaign, name="Na trakcie", by=gm)
    table = D100Table(gm, p1, p2, campaign, hero1, hero2, bandit, encounter)
    table.wolf = wolf_template(campaign) if wolf else None
    if hidden_scout:
        table.scout = Character.objects.create(
            campaign=campaign,
            name=SCOUT,
            kind=Character.Kind.NPC,
            sheet=d100_sheet(pz=60, weapons=[("Łuk", "bow")], zwinnosc=30),
        )
    if seated:
        creatures = {table.wolf.pk: 1} if table.wolf is not None else {}
        services.add_combatants(
            encounter.pk,
            viewer=table.gm_viewer,
            characters=[hero1.pk, hero2.pk, bandit.pk],
            creatures=creatures,
        )
        if table.scout is not None:
            services.add_combatants(
                encounter.pk, viewer=table.gm_viewer, characters=[table.scout.pk], hidden=True
            )
        table.learn_ids()
    return table


# --- sockets ------------------------------------------------------------------------------------

app = URLRouter(websocket_urlpatterns)


class Tab:
    """One browser tab of a user: its socket, and the regions it shows now (each push swaps
    those it carries, as htmx does)."""

    def __init__(self, ws: WebsocketCommunicator, name: str) -> None:
        self.ws = ws
        self.name = name
        self.seq = -1
        self.regions = Page()
        self.errors: list[str] = []
        self.pushes: list[str] = []  # the HTML of every push, in order

    @property
    def html(self) -> str:
        return "".join(self.regions.values())

    def region(self, name: str) -> str:
        return self.regions[name]

    async def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await self.ws.receive_from(timeout=10))
        if message.get("t") == "swap":
            self.pushes.append(str(message.get("html", "")))
            self.regions.apply(str(message.get("html", "")))
            self.seq = max(self.seq, int(message.get("seq", self.seq)))
        elif message.get("t") == "error":
            self.errors.append(str(message.get("message", "")))
        return message

    async def until_seq(self, seq: int) -> None:
        while self.seq < seq:
            await self.receive()

    async def command(
        self, command: dict[str, Any], message_id: str | None = None
    ) -> dict[str, Any]:
        """Send a command and wait until the table answers it (its push or its error)."""
        return await self.send({"type": "command", "command": command}, message_id)

    async def send(self, message: dict[str, Any], message_id: str | None = None) -> dict[str, Any]:
        """Send a message with an id and wait for its answer, returned: a push or an ack
        naming it, or an error for it."""
        message_id = message_id or f"ws-{next(_ids)}"
        text = json.dumps({**message, "id": message_id}, ensure_ascii=False)  # as a browser
        await self.ws.send_to(text_data=text)
        while True:
            answer = await self.receive()
            if answer.get("ack") == message_id or (
                answer.get("t") == "error" and answer.get("id") in (message_id, None)
            ):
                return answer

    async def send_text(self, text: str) -> None:
        await self.ws.send_to(text_data=text)

    async def refused(self, command: dict[str, Any]) -> str:
        """Send a command the table must refuse: the error's message."""
        answer = await self.command(command)
        assert answer.get("t") == "error", answer
        return str(answer["message"])

    async def close(self) -> None:
        await self.ws.disconnect()


async def open_tab(table: D100Table, user: User) -> Tab:
    """A socket for `user`, with the full table it is sent on connect."""
    ws = WebsocketCommunicator(app, f"/ws/encounters/{table.pk}/")
    ws.scope["user"] = user
    connected, _code = await ws.connect()
    assert connected
    tab = Tab(ws, user.username)
    while tab.seq < 0:
        await tab.receive()
    return tab


async def head_seq(table: D100Table) -> int:
    return (await Encounter.objects.aget(pk=table.pk)).seq
