"""Benchmark target: a real browser. The GM clicks in one Chromium tab; how long until the two
players' tabs have swapped in the result? Target: p95 ≤ 100 ms.

`measure` drives Debian's Chromium (Playwright, headless) against a server someone else runs:
three browser contexts, one per user, signed in by their Django session cookie (no login
form). The GM's page ends the current combatant's turn `clicks` times (the GM may act for
anyone, so this works whoever's turn it is); each click is one sample per player tab: the
moment that tab swapped the push in (`window.eleoraSwaps`, recorded by static/js/table.js with
`Date.now()`) minus the moment of the click, read in the GM's page from the same clock (one
machine: every tab's `Date.now()` is the system clock). The second player is on a phone
(390×844, touch).

`python -m scripts.bench.browser [--clicks N] [--pg] [--redis URL]` starts its own server
(daphne on a temporary SQLite database, or with --pg a private PostgreSQL database and, if
$REDIS_URL or --redis is given, Redis as the channel layer), seeds the demo and prints the
result as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import json
import math
import os
import re
import statistics
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Locator, Page, expect, sync_playwright

TARGET_MS = 100
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 900}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}
SEATS = (("mistrz", DESKTOP), ("gracz1", DESKTOP), ("gracz2", PHONE))  # the GM first
TIMEOUT_MS = 15_000

# In the clicking page: remember when the next press begins (its first pointer, touch, mouse
# or click event, captured before any handler of the page runs), on the clock table.js uses.
ARM_CLICK = """() => {
  window.benchClickAt = null;
  if (window.benchArmed) return;
  window.benchArmed = true;
  const mark = () => { if (window.benchClickAt === null) window.benchClickAt = Date.now(); };
  for (const type of ["pointerdown", "touchstart", "mousedown", "click"]) {
    window.addEventListener(type, mark, { capture: true });
  }
}"""
CLICKED_AT = "() => window.benchClickAt"
SWAPPED_AFTER = "s => window.eleoraSwaps.some(e => e.seq > s)"
FIRST_SWAP_AFTER = "s => window.eleoraSwaps.find(e => e.seq > s).at"
# The clicker's own answer: a swap, or a refusal shown in the toast.
ANSWERED = (
    "s => window.eleoraSwaps.some(e => e.seq > s) || !document.getElementById('table-toast').hidden"
)
AT_LEAST = "s => Number(document.getElementById('table').dataset.seq) >= s"
ONLINE = re.compile(r"\bconn-online\b")


@dataclass
class Seat:
    user: str
    page: Page
    touch: bool

    def seq(self) -> int:
        return int(self.page.locator("#table").get_attribute("data-seq") or "0")

    def press(self, target: Locator) -> None:
        if self.touch:
            target.tap()
        else:
            target.click()

    def wait_online(self) -> None:
        expect(self.page.locator("#conn")).to_have_class(ONLINE, timeout=TIMEOUT_MS)
        # The socket's first push is swapped in: from now on every push counts.
        self.page.wait_for_function("() => window.eleoraSwaps.length > 0")


def percentile(samples: list[float], p: float) -> float:
    """Nearest rank: the smallest sample with at least p% of the samples at or below it."""
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def summarise(clicks: int, samples: list[float], chromium: str) -> dict[str, Any]:
    p95 = round(percentile(samples, 95), 1)
    return {
        "clicks": clicks,
        "samples": len(samples),
        "min_ms": round(min(samples), 1),
        "p50_ms": round(statistics.median(samples), 1),
        "p95_ms": p95,
        "max_ms": round(max(samples), 1),
        "target_ms": TARGET_MS,
        "met": p95 <= TARGET_MS,
        "chromium": chromium,
    }


def measure(
    base_url: str, sessions: dict[str, str], encounter_id: int, clicks: int = 40
) -> dict[str, Any]:
    """Click → swap in the other tabs, `clicks` times; see the module's docstring.

    `sessions` maps "mistrz", "gracz1" and "gracz2" to Django session keys on the server at
    `base_url`; the encounter may be in setup (the GM starts it) or already running. Raises
    RuntimeError if a command is refused or the table cannot go on (ended, a pending prompt).
    Safe to call from a thread that runs an asyncio loop (Playwright's sync API cannot run
    there, so it then runs in a worker thread)."""
    if clicks < 1:
        raise ValueError("clicks must be at least 1")
    missing = {user for user, _ in SEATS} - set(sessions)
    if missing:
        raise ValueError(f"no session for {sorted(missing)}")
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _measure(base_url, sessions, encounter_id, clicks)
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="bench-browser") as pool:
        return pool.submit(_measure, base_url, sessions, encounter_id, clicks).result()


def _measure(
    base_url: str, sessions: dict[str, str], encounter_id: int, clicks: int
) -> dict[str, Any]:
    base_url = base_url.rstrip("/")
    url = f"{base_url}/encounters/{encounter_id}/"
    host = urlsplit(base_url).hostname or ""
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            seats: list[Seat] = []
            for user, options in SEATS:
                context = browser.new_context(locale="pl-PL", **options)
                context.set_default_timeout(TIMEOUT_MS)
                # For the whole host: the page's socket (/ws/…) must carry it too.
                context.add_cookies(
                    [{"name": "sessionid", "value": sessions[user], "domain": host, "path": "/"}]
                )
                seats.append(Seat(user, context.new_page(), touch=options is PHONE))
            for seat in seats:
                response = seat.page.goto(url)
                if response is None or not response.ok or "/accounts/login" in seat.page.url:
                    status = response.status if response else "no response"
                    raise RuntimeError(f"{seat.user} cannot open {url}: {status} ({seat.page.url})")
            for seat in seats:
                seat.wait_online()
            samples = _play(seats, clicks)
            return summarise(clicks, samples, browser.version)
        finally:
            browser.close()


def _play(seats: list[Seat], clicks: int) -> list[float]:
    gm = seats[0]
    if gm.page.locator("#table-gm").count() == 0:
        raise RuntimeError("the first seat is not the encounter's GM (no GM panel)")
    _settle(seats)
    start = gm.page.locator("#table-gm").get_by_role("button", name="Rozpocznij walkę")
    if start.count():
        _send(gm, start, seats)
    end_turn = gm.page.locator("#table-turn").get_by_role("button", name="Zakończ turę")
    samples: list[float] = []
    for _ in range(clicks):
        if end_turn.count() != 1 or not end_turn.is_enabled():
            status = gm.page.locator("#table-status").inner_text().strip()
            prompts = gm.page.locator("#table-prompts .prompt").count()
            raise RuntimeError(f"no turn to end: {status!r}, {prompts} pending prompt(s)")
        samples.extend(_send(gm, end_turn, seats))
    return samples


def _send(clicker: Seat, button: Locator, seats: list[Seat]) -> list[float]:
    """Press `button`; once every page shows the result, the click → swap times elsewhere."""
    before = {seat.user: seat.seq() for seat in seats}
    clicker.page.evaluate(ARM_CLICK)
    clicker.press(button)
    clicker.page.wait_for_function(ANSWERED, arg=before[clicker.user])
    toast = clicker.page.locator("#table-toast")
    if toast.is_visible():
        raise RuntimeError(f"{clicker.user}: command refused: {toast.inner_text()}")
    clicked = clicker.page.evaluate(CLICKED_AT)
    if clicked is None:
        raise RuntimeError("the click reached no event listener of the page")
    samples = []
    for seat in seats:
        if seat is clicker:
            continue
        seat.page.wait_for_function(SWAPPED_AFTER, arg=before[seat.user])
        samples.append(float(seat.page.evaluate(FIRST_SWAP_AFTER, before[seat.user])) - clicked)
    _settle(seats)
    return samples


def _settle(seats: list[Seat]) -> None:
    """Until every page shows the newest seq any of them shows (the next click sees a quiet,
    agreed table: the GM's button is the fresh one, every baseline is right)."""
    seq = max(seat.seq() for seat in seats)
    for seat in seats:
        seat.page.wait_for_function(AT_LEAST, arg=seq)
    seqs = {seat.user: seat.seq() for seat in seats}
    if len(set(seqs.values())) != 1:
        raise RuntimeError(f"the pages disagree: {seqs}")


# --- by hand: its own server ----------------------------------------------------------------


@contextlib.contextmanager
def _database(tmp: Path, pg: bool) -> Iterator[str]:
    if not pg:
        yield f"sqlite:///{tmp / 'db.sqlite3'}"
        return
    from scripts.bench.processes import private_database

    with private_database("eleora_bench_browser") as url:
        yield url


def main(argv: list[str] | None = None) -> int:
    from scripts.bench.processes import Daphne, prepare_demo, server_env

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clicks", type=int, default=40)
    parser.add_argument("--pg", action="store_true", help="a private PostgreSQL database")
    parser.add_argument(
        "--redis", default=None, help="channel layer URL (with --pg, default: $REDIS_URL)"
    )
    args = parser.parse_args(argv)
    redis = args.redis or (os.environ.get("REDIS_URL") if args.pg else None) or None
    with tempfile.TemporaryDirectory(prefix="eleora-bench-browser-") as name:
        tmp = Path(name)
        with _database(tmp, args.pg) as database:
            env = server_env(tmp, database, redis)
            demo = prepare_demo(env)
            server = Daphne(env, tmp, "bench")
            try:
                server.start()
                result = measure(server.base, demo.sessions, demo.encounter, args.clicks)
            except BaseException:
                print(server.logs(), file=sys.stderr)
                raise
            finally:
                server.close()
    result["database"] = "postgresql" if args.pg else "sqlite"
    result["channel_layer"] = "redis" if redis else "in-memory"
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
