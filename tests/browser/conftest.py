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
