"""Real-browser fixtures: a daphne server on a fresh demo database, and Debian's Chromium.

The server is a separate process (like production): migrations and `seed_demo` run against a
temporary SQLite file, then daphne serves the ASGI app on a free loopback port.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from scripts.bench.processes import free_port, wait_for_port
from tests.smtp import SmtpServer

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DEMO_PASSWORD = "eleora-demo"
# Screenshots go to build/ (git-ignored); `make screenshots` points SCREENSHOTS_DIR at the
# tracked docs/screenshots/ to refresh the README's pictures.
SCREENSHOTS = ROOT / os.environ.get("SCREENSHOTS_DIR", "build/screenshots")
CLOCK_OFFSET = "clock-offset"  # in the server's folder: the seconds its clock is ahead


def server_env(tmp: Path, smtp_port: int | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp / 'browser.sqlite3'}",
        MEDIA_ROOT=str(tmp / "media"),
        FAST_PASSWORD_HASHER="1",
        DEBUG="1",
        PYTHONUNBUFFERED="1",
        DJANGO_SETTINGS_MODULE="tests.settings",  # the test suite's rulesets too (tests/duel)
        # A clock the tests move (`move_clock`) and a sweep every second (deadlines and
        # by-post reminders: combat/sweeps.py).
        CLOCK_OFFSET_FILE=str(tmp / CLOCK_OFFSET),
        SWEEP_S="1",
    )
    if smtp_port is not None:  # the server's mails go to the tests' SMTP server (tests/smtp.py)
        env.update(
            EMAIL_HOST="127.0.0.1",
            EMAIL_PORT=str(smtp_port),
            EMAIL_USE_TLS="0",
            EMAIL_USE_SSL="0",
            MAIL_THREAD="1",
        )
    return env


def move_server_clock(tmp: Path, seconds: float) -> float:
    """Move the live server's clock (combat/clock.py) `seconds` further on; the offset now."""
    path = tmp / CLOCK_OFFSET
    try:
        offset = float(path.read_text().strip() or 0)
    except (OSError, ValueError):
        offset = 0.0
    offset += seconds
    path.write_text(repr(offset))
    return offset


@pytest.fixture(scope="session", autouse=True)
def screenshots_dir() -> Path:
    """The folder the tests' screenshots go to, made on first use."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def move_clock(server_tmp: Path) -> Iterator[Callable[[float], float]]:
    """`move_clock(seconds)`: the live server's clock jumps that far ahead (a by-post deadline
    days away passes at once; its sweeper notices within a second). Back after the test."""
    yield lambda seconds: move_server_clock(server_tmp, seconds)
    (server_tmp / CLOCK_OFFSET).write_text("0")


@pytest.fixture(scope="session")
def server_tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The live server's folder: its database, media and log."""
    return tmp_path_factory.mktemp("server")


@pytest.fixture(scope="session")
def live_url(server_tmp: Path, smtp_server: SmtpServer) -> Iterator[str]:
    tmp = server_tmp
    env = server_env(tmp, smtp_server.port)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([*manage, "seed_demo"], cwd=ROOT, env=env, check=True, capture_output=True)
    port = free_port()
    env["SITE_URL"] = f"http://127.0.0.1:{port}"  # the links in its mails
    log = (tmp / "daphne.log").open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "eleora_site.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for_port(proc, port)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def new_context(browser: Browser) -> Iterator:
    """Open separate browser contexts (separate users); all are closed after the test."""
    opened: list[BrowserContext] = []

    def make(**kwargs: object) -> BrowserContext:
        ctx = browser.new_context(locale="pl-PL", **kwargs)  # type: ignore[arg-type]
        ctx.set_default_timeout(10_000)
        opened.append(ctx)
        return ctx

    yield make
    for ctx in opened:
        ctx.close()


def sign_in(page: Page, base: str, username: str, password: str = DEMO_PASSWORD) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.locator("main").get_by_role("button", name="Zaloguj").click()
    page.wait_for_url(lambda url: "/accounts/login" not in url)


@dataclass(frozen=True)
class DuelServer:
    url: str
    encounter: int

    @property
    def table(self) -> str:
        return f"{self.url}/encounters/{self.encounter}/"


def seed_duel() -> None:
    """Run inside the server's `manage.py shell` (after `seed_demo`): the demo GM's duel
    campaign, gracz1's hero and the NPC, and an empty encounter (the GM adds both fighters at
    the table); prints the ids as JSON on its last line."""
    from django.contrib.auth.models import User

    from characters import services as characters_services
    from characters.models import Character
    from combat import services
    from tests.combat.table.duel_table import HERO, NPC, duel_sheet

    master, hero_owner = User.objects.get(username="mistrz"), User.objects.get(username="gracz1")
    campaign = characters_services.create_campaign(
        gm=master,
        name="Pojedynek na moście",
        description="Dwóch na wąskim moście.",
        ruleset="duel",
    )
    characters_services.join_campaign(campaign=campaign, user=hero_owner)
    Character.objects.create(
        campaign=campaign, owner=hero_owner, name=HERO, sheet=duel_sheet(10, 5, 30, premia=1)
    )
    Character.objects.create(
        campaign=campaign, name=NPC, kind=Character.Kind.NPC, sheet=duel_sheet(10, 10, 30)
    )
    encounter = services.create_encounter(campaign=campaign, name="Most nad Czarną Wodą", by=master)
    print(json.dumps({"campaign": campaign.pk, "encounter": encounter.pk}))  # noqa: T201


@pytest.fixture(scope="session")
def duel_server(live_url: str, server_tmp: Path) -> DuelServer:
    """The live server with a campaign of the ruleset that lives in the tests (tests/duel),
    seeded by `seed_duel`: the server runs with the test settings, which register it."""
    ids = _server_shell(server_tmp, "from tests.browser.conftest import seed_duel; seed_duel()")
    return DuelServer(live_url, ids["encounter"])


# --- Magus (issue #12): a campaign of its own for tests/browser/test_magus.py ----------------
# Separate from the demo's Magus campaign: its NPC hits every time (a huge attack step), the
# phone player's hero knows Unik, and the declarations have a short countdown.

MAGUS_CAMPAIGN = "Magus: próba przeglądarki"
# Each hero's weapon is its own, so one declaration's text is never part of the other's.
MAGUS_HEROES = {"gracz1": ("Borys Topornik", "Topór"), "gracz2": ("Wiesna Zwinna", "Szabla")}
MAGUS_NPC = "Ork Siekacz"
# An encounter keeps the campaign's settings of the moment it opens, so one countdown serves
# every round: long enough for a test to declare round 1 in, short enough to wait out in 2.
MAGUS_DECLARATION_S = 15
MAGUS_REACTION_S = 30  # the defence prompt's countdown


def _magus_sheet(
    attributes: dict[str, int], skills: dict[str, int], weapon: tuple[str, int]
) -> dict[str, object]:
    """A Magus sheet (combat/rules/magus/sheet.py): steps, ranks, one melee weapon, armour."""
    base = {
        "zrecznosc": 6, "sila": 5, "zywotnosc": 5, "percepcja": 5, "sila_woli": 5,
        "charyzma": 5, "obrona_fizyczna": 7, "obrona_magiczna": 6, "obrona_spoleczna": 6,
        "prog_ran": 10, "prog_przytomnosci": 60, "prog_smierci": 80, "testy_zdrowienia": 2,
        "ruch": 12, "ruch_pelny": 24,
    }  # fmt: skip
    name, damage = weapon
    blade = {"name": name, "kind": "melee", "damage": damage, "size": 2}
    return {
        "attributes": {**base, **attributes},
        "skills": skills,
        "weapons": [{**blade, "two_handed": False, "magic": False, "lance": False}],
        "armour": [{"name": "Skórznia", "physical": 2, "mystic": 0, "initiative_penalty": 0}],
        "shields": [],
        "spells": [],
        "items": [],
    }


def seed_magus() -> None:
    """Run inside the server's `manage.py shell` (after `seed_demo`): the campaign, its two
    heroes and the NPC; prints the campaign's id as JSON on its last line."""
    from django.contrib.auth.models import User

    from characters import services as characters_services
    from characters.models import Character

    master = User.objects.get(username="mistrz")
    campaign = characters_services.create_campaign(
        gm=master, name=MAGUS_CAMPAIGN, description="Dwoje bohaterów i ork.", ruleset="magus"
    )
    campaign.settings = {
        **campaign.settings,
        "declaration_timeout_s": MAGUS_DECLARATION_S,
        "reaction_timeout_s": MAGUS_REACTION_S,
        "npc_default_policy": "none",
        # With no Rule of One the orc's lowest attack (4, on d20+d10+d8+d4) still beats the
        # heroes' Obrona Fizyczna 3: its attack always hits and asks for a defence.
        "rule_of_one": False,
    }
    campaign.save(update_fields=["settings"])
    for user, (name, weapon) in MAGUS_HEROES.items():
        owner = User.objects.get(username=user)
        characters_services.join_campaign(campaign=campaign, user=owner)
        Character.objects.create(
            campaign=campaign,
            owner=owner,
            name=name,
            sheet=_magus_sheet({"obrona_fizyczna": 3}, {"bron_biala": 3, "unik": 4}, (weapon, 3)),
        )
    Character.objects.create(
        campaign=campaign,
        name=MAGUS_NPC,
        kind=Character.Kind.NPC,
        # Broń Biała 15 on Zręczność 10: step 25 (d20+d10+d8+d4); no defensive talent, so
        # attacks on it ask nobody.
        sheet=_magus_sheet(
            {"zrecznosc": 10, "sila": 3, "prog_przytomnosci": 150, "prog_smierci": 200},
            {"bron_biala": 15},
            ("Tasak", 2),
        ),
    )
    print(json.dumps({"campaign": campaign.pk}))  # noqa: T201 - the fixture reads it


def _server_shell(server_tmp: Path, code: str) -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-c", code],
        cwd=ROOT,
        env=server_env(server_tmp),
        check=True,
        capture_output=True,
        text=True,
    )
    found: dict[str, int] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


@dataclass(frozen=True)
class MagusServer:
    url: str
    campaign: int

    @property
    def encounters(self) -> str:
        """The campaign's list of encounters, where the GM opens a new one."""
        return f"{self.url}/campaigns/{self.campaign}/encounters/"


@pytest.fixture(scope="session")
def magus_server(live_url: str, server_tmp: Path) -> MagusServer:
    """The live server with the Magus campaign of `seed_magus` added (each test opens its
    own encounter of it at the table, as the GM does)."""
    ids = _server_shell(server_tmp, "from tests.browser.conftest import seed_magus; seed_magus()")
    return MagusServer(live_url, ids["campaign"])


# --- Kroniki Fallathanu, d100 (issue #13): a campaign of its own for tests/browser/test_d100.py
# Two heroes and a bandit (by post also an archer hidden from the players). Both encounters are
# seated here, before the fight, with fixed seeds: every die of a test is the same on every run
# (the by-post turn's export is compared with checked files, tests/browser/d100_expected/). The
# seeds were picked (by replaying the tests' commands with verify.EntryDice) so that both attacks
# of the live round land, and by post Dobrogost's crit makes the bandit bleed and the bandit's
# blow gets through Jaga's Unik; the tests' commands must stay the same, entry by entry, for
# the dice to stay. The initiative order is fixed by Zwinność: Dobrogost, Jaga, (the archer,)
# the bandit. The bandit's PŻ are many: no blow of a hero ends the fight.

D100_CAMPAIGN = "Kroniki: próba przeglądarki"
D100_HEROES = {"gracz1": "Dobrogost Miecznik", "gracz2": "Jaga Zwinna"}
D100_NPC = "Zbój z Lasu"
D100_NPC_PZ = 600
D100_HIDDEN = "Łucznik w zaroślach"  # by post only, hidden from the players: never named to them
D100_LIVE = "Próba na żywo"
D100_POST = "Próba przez posty"
# The table's seed and the GM's of each encounter (64 hex digits, as verify.new_seed makes).
D100_SEEDS = {
    D100_LIVE: (
        "94dc6b6debe4d5ba9adc0d8802a08277518723471e7db876cac20911b3219702",
        "c3a8e1f05d7b29c46e0f8a3d1b5c7e92a4f6d8b0c2e4a6f8d0b2c4e6a8f0d2b4",
    ),
    D100_POST: (
        "b70ab598c23ada47e83c6f4fad1748e6ac6e4a0493a0d1dc2f06f0cebf4a13f1",
        "17d3f9b5e1c7a3d9f5b1e7c3a9d5f1b7e3c9a5d1f7b3e9c5a1d7f3b9e5c1a7d3",
    ),
}


def _d100_sheet(
    stats: tuple[int, int, int, int, int, int],
    pz: int,
    weapon: tuple[str, str],
    *,
    armour: str = "",
) -> dict[str, object]:
    """A d100 sheet as the characters app stores it (combat/rules/d100/sheet.py): Zwinność,
    Zmysły, Krzepa, Wytrzymałość, Intelekt, Ogłada; PŻ; one weapon (name, kind)."""
    keys = ("zwinnosc", "zmysly", "krzepa", "wytrzymalosc", "intelekt", "oglada")
    name, kind = weapon
    return {
        "attributes": dict(zip(keys, stats, strict=True)),
        "skills": {"akrobatyka": 20, "medycyna": 0},
        "profile": {
            "pz": pz, "race": "czlowiek", "transformation": "", "armour": armour, "shield": False,
        },
        "weapons": [{"name": name, "kind": kind}],
        "spells": [],
    }  # fmt: skip


D100_SHEETS = {
    "Dobrogost Miecznik": _d100_sheet((70, 50, 60, 50, 30, 40), 120, ("Szabla", "traditional")),
    "Jaga Zwinna": _d100_sheet((65, 55, 40, 45, 35, 45), 160, ("Sztylet", "small")),
    D100_NPC: _d100_sheet((45, 40, 55, 50, 20, 30), D100_NPC_PZ, ("Topór", "heavy")),
    D100_HIDDEN: _d100_sheet((50, 60, 40, 40, 20, 30), 80, ("Łuk", "bow")),
}


def seed_d100() -> None:
    """Run inside the server's `manage.py shell` (after `seed_demo`): the campaign, its two
    heroes (their players have seed_demo's confirmed addresses: the by-post mails need them),
    the bandit, and the two encounters with everyone seated and their seeds fixed; prints the
    ids as JSON."""
    from django.contrib.auth.models import User

    from characters import services as characters_services
    from characters.models import Character
    from characters.sheets import clean_sheet
    from combat import services as combat_services
    from combat import verify

    master = User.objects.get(username="mistrz")
    campaign = characters_services.create_campaign(
        gm=master, name=D100_CAMPAIGN, description="Dwoje bohaterów i zbój.", ruleset="d100"
    )
    rules = campaign.rules()
    for user, name in D100_HEROES.items():
        owner = User.objects.get(username=user)
        characters_services.join_campaign(campaign=campaign, user=owner)
        sheet = clean_sheet(D100_SHEETS[name], rules=rules, settings=campaign.settings)
        Character.objects.create(campaign=campaign, owner=owner, name=name, sheet=sheet)
    npcs = {}
    for name in (D100_NPC, D100_HIDDEN):
        sheet = clean_sheet(D100_SHEETS[name], rules=rules, settings=campaign.settings)
        npcs[name] = Character.objects.create(
            campaign=campaign, name=name, kind=Character.Kind.NPC, sheet=sheet
        ).pk
    seated = list(
        campaign.characters.exclude(pk=npcs[D100_HIDDEN])
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    gm = combat_services.Viewer(user_id=master.pk, is_gm=True)
    ids = {"campaign": campaign.pk}
    for name, (seed, gm_seed) in D100_SEEDS.items():
        encounter = combat_services.create_encounter(campaign=campaign, name=name, by=master)
        encounter.seed, encounter.seed_hash = seed, verify.commitment(seed)
        encounter.gm_seed, encounter.gm_seed_hash = gm_seed, verify.commitment(gm_seed)
        encounter.save(update_fields=["seed", "seed_hash", "gm_seed", "gm_seed_hash"])
        combat_services.add_combatants(encounter.pk, viewer=gm, characters=seated)
        if name == D100_POST:
            hidden = [npcs[D100_HIDDEN]]
            combat_services.add_combatants(encounter.pk, viewer=gm, characters=hidden, hidden=True)
        ids[name] = encounter.pk
    print(json.dumps(ids))  # noqa: T201 - the fixture reads it


@dataclass(frozen=True)
class D100Server:
    url: str
    tmp: Path  # the server's folder (for `_server_shell`)
    mail: SmtpServer  # what the server mailed
    campaign: int
    live: int  # the encounter played live, seated, before its fight
    post: int  # the encounter played by post, seated, before its fight

    def table(self, encounter: int) -> str:
        return f"{self.url}/encounters/{encounter}/"


@pytest.fixture(scope="session")
def d100_server(live_url: str, server_tmp: Path, smtp_server: SmtpServer) -> D100Server:
    """The live server with the d100 campaign of `seed_d100` added."""
    ids = _server_shell(server_tmp, "from tests.browser.conftest import seed_d100; seed_d100()")
    return D100Server(
        live_url, server_tmp, smtp_server, ids["campaign"], ids[D100_LIVE], ids[D100_POST]
    )


# --- the demo's Magus fight, again (issue #22): a fresh copy of seed_demo's „Zasadzka w wąwozie”
# (its six seats and its ravine map, laid by the GM's commands as the demo's is) per test, so a
# test may play it while the demo's own encounter stays in its setup for anyone who opens it.


def seed_magus_demo_copy(name: str) -> None:
    """Run inside the server's `manage.py shell` (after `seed_demo`): a new encounter of the
    demo's Magus campaign seated and mapped as its own; prints its id as JSON."""
    from django.contrib.auth.models import User

    from characters.management.commands.seed_demo import (
        MAGUS_CAMPAIGN,
        MAGUS_ENCOUNTER,
        MAPS,
        Command,
    )
    from characters.models import Campaign

    master = User.objects.get(username="mistrz")
    campaign = Campaign.objects.get(name=MAGUS_CAMPAIGN, gm=master)
    seed = Command()
    seated = list(campaign.characters.order_by("pk").values_list("pk", flat=True))
    encounter = seed._table(campaign, master, name, seated)
    seed._lay_map(encounter.pk, master, MAPS[MAGUS_ENCOUNTER])
    print(json.dumps({"encounter": encounter.pk}))  # noqa: T201 - the fixture reads it


@pytest.fixture
def magus_demo_copy(live_url: str, server_tmp: Path, request: pytest.FixtureRequest) -> str:
    """The table URL of a fresh copy of the demo's Magus encounter (a short name: a phone
    shows it whole)."""
    name = f"Wąwóz {request.node.name.split('_')[1]}"
    code = (
        f"from tests.browser.conftest import seed_magus_demo_copy; seed_magus_demo_copy({name!r})"
    )
    ids = _server_shell(server_tmp, code)
    return f"{live_url}/encounters/{ids['encounter']}/"
