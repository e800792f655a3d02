"""Real-browser fixtures: a daphne server on a fresh demo database, and Debian's Chromium.

The server is a separate process (like production): migrations and `seed_demo` run against a
temporary SQLite file, then daphne serves the ASGI app on a free loopback port.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from scripts.bench.processes import free_port, wait_for_port

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


def server_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp / 'browser.sqlite3'}",
        MEDIA_ROOT=str(tmp / "media"),
        FAST_PASSWORD_HASHER="1",
        DEBUG="1",
        PYTHONUNBUFFERED="1",
        DJANGO_SETTINGS_MODULE="tests.settings",  # the test suite's rulesets too (tests/duel)
    )
    return env


@pytest.fixture(scope="session", autouse=True)
def screenshots_dir() -> Path:
    """The folder the tests' screenshots go to, made on first use."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture(scope="session")
def server_tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The live server's folder: its database, media and log."""
    return tmp_path_factory.mktemp("server")


@pytest.fixture(scope="session")
def live_url(server_tmp: Path) -> Iterator[str]:
    tmp = server_tmp
    env = server_env(tmp)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([*manage, "seed_demo"], cwd=ROOT, env=env, check=True, capture_output=True)
    port = free_port()
    log = (tmp / "daphne.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "eleora_site.asgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
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


@pytest.fixture(scope="session")
def duel_server(live_url: str, server_tmp: Path) -> DuelServer:
    """The live server with a campaign of the ruleset that lives in the tests (tests/duel):
    the server runs with the test settings, which register it."""
    seed = "from tests.duel.seed import seed_duel; seed_duel()"
    seeded = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-c", seed],
        cwd=ROOT,
        env=server_env(server_tmp),
        check=True,
        capture_output=True,
        text=True,
    )
    ids = json.loads(seeded.stdout.strip().splitlines()[-1])
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
