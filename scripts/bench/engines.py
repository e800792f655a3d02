"""Benchmark: the table's costliest regions in Django's template engine and in Jinja2.

Issue #24, point 3: move the live fragments to Jinja2 only if it renders them at least three
times faster. `scripts.bench.profile` names the costliest regions: the player's own cards
(`table-me`, with the ruleset's seat partial and the health, counters and badges partials),
the turn panel (`table-turn`, with the ruleset's turn partial) and the log (`table-log`, its
entries rendered one by one through combat/_log_lines.html and put in the region whole).

Nothing of this is in the product: the live pipeline renders with Django alone. The Jinja2
side lives here: Django's own `Jinja2` backend built by `backend()` on the twins under
scripts/bench/jinja2/ (the same names as the Django templates), with `environment()` as its
environment: Django's gettext (the i18n extension, new style), autoescaping on, and the
table's `tr` and filters as the very functions of combat/templatetags/table.py. `JinjaRender`
is `combat.fragments.Render`'s twin: the same `View`, the same records (`View.part`), the same
context, only the engine differs.

On a played Eleora table (the clones world of `scripts.bench.world`: five heroes, three
wolves; then the cache benchmark's seeded play, attacks and their prompts included, until the
log window holds its 60 entries, stopped at the start of a hero's turn), for the GM and for
that hero's player: each row (a region whole, or `log-entry`: the newest entry with a roll
as a push sends it, an out-of-band swap) is rendered in both engines, first in Polish and in
English with the HTML compared (whitespace runs collapsed, and `&#39;`/`&#34;` read as
`&#x27;`/`&quot;`: the same characters as each engine's escaping writes them); then timed in
Polish, N renders per engine, the engines taking turns, best of K rounds. The records' data
(texts, rolls, panels) is worked out before the timing, once for both engines: what is timed
is the templates' work, the `tr`/gettext/`reverse` calls they make included. The verdict:
Jinja2 at least 3× faster on every region (both audiences summed).

`python -m scripts.bench.engines [--renders N] [--rounds K] [--json]`
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = Path(__file__).resolve().parent / "jinja2"
# (what, audience): a region whole, or one log entry as a push sends it
ROWS = (
    ("table-me", "player"),  # the GM holds no card of their own
    ("table-turn", "gm"),
    ("table-turn", "player"),
    ("table-log", "gm"),
    ("table-log", "player"),
    ("log-entry", "gm"),
    ("log-entry", "player"),
)
REGIONS = tuple(dict.fromkeys(what for what, _audience in ROWS))
LANGUAGES = ("pl", "en")
LOG_ENTRIES = 60  # the log window (combat.snapshots.LOG_WINDOW) full
THRESHOLD = 3.0  # Jinja2 this many times faster: the live fragments move to it (issue #24)
ENTITIES = {"&#39;": "&#x27;", "&#34;": "&quot;"}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--renders", type=int, default=200, help="renders per round (200)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, best kept (default 5)")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(work(args.renders, args.rounds)))
        return 0
    result = measure(args.renders, args.rounds)
    print(json.dumps(result, indent=1) if args.json else report(result))
    return 0


# --- the Jinja2 side ---------------------------------------------------------------------------


def environment(**options: Any) -> Any:
    """The backend's environment (`OPTIONS["environment"]`): the twins read as the Django
    templates do. Missing values render empty whatever DEBUG says, as Django's do, and a
    template's last newline is kept, as Django keeps it."""
    import jinja2
    from django.utils.translation import gettext, ngettext, npgettext, pgettext

    from combat.templatetags import table

    options["undefined"] = jinja2.Undefined
    options.setdefault("keep_trailing_newline", True)
    env = jinja2.Environment(**options, extensions=["jinja2.ext.i18n"])
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext, ngettext, newstyle=True, pgettext=pgettext, npgettext=npgettext
    )
    env.globals.update(url=url, tr=jinja2.pass_context(tr))
    env.filters.update(
        badge_detail=table.badge_detail,
        get_item=table.get_item,
        shared_reason=table.shared_reason,
    )
    return env


@cache
def backend() -> Any:
    """Django's `Jinja2` backend on scripts/bench/jinja2/ (not in settings.TEMPLATES: nothing
    live renders through it)."""
    from django.template.backends.jinja2 import Jinja2

    return Jinja2(
        {
            "NAME": "bench-jinja2",
            "DIRS": [TEMPLATES],
            "APP_DIRS": False,
            "OPTIONS": {"environment": "scripts.bench.engines.environment"},
        }
    )


def url(name: str, *args: Any) -> str:
    """`{% url name arg… %}`."""
    from django.urls import reverse

    return reverse(name, args=args)


def tr(
    context: Any, msgid: str, params: Mapping[str, Any] | None = None, fallback: str = ""
) -> str:
    """`{{ tr(msgid, params, fallback) }}`: Django's `{% tr %}` itself, which reads only the
    context's `sight` (a Jinja2 context answers `get` as Django's does)."""
    from combat.templatetags import table

    return table.tr(context, msgid, params, fallback)


class JinjaRender:
    """`combat.fragments.Render` in Jinja2: a region as its block of the encounter twin, a log
    entry through the `_log_lines.html` twin (the bench renders no order rows)."""

    def __init__(self, view: Any) -> None:
        self.view = view

    def region(self, part: Any, items: str) -> str:
        from django.utils.safestring import mark_safe

        from combat import fragments
        from combat.terms import ruleset_terms

        view = self.view
        ctx = view.context((part.id,), oob=True)
        ctx["items"] = mark_safe(items)  # noqa: S308 - the items' own rendered, escaped HTML
        with ruleset_terms(view.table.ruleset):
            found = backend().env.get_template(fragments.TEMPLATE)
            render = found.blocks[part.id.replace("-", "_")]
            return "".join(render(found.new_context(ctx)))

    def item(self, part: Any, item: Any, *, swap: bool) -> str:
        from combat.terms import ruleset_terms

        view = self.view
        if part.id != "table-log":
            raise NotImplementedError(part.id)
        ctx = {**view.base, "lines": view.log_by_id[item.id].lines, "swap": swap}
        with ruleset_terms(view.table.ruleset):
            return str(backend().get_template("combat/_log_lines.html").render(ctx))


# --- the measurement ---------------------------------------------------------------------------


def measure(renders: int = 200, rounds: int = 5) -> dict[str, Any]:
    """The figures, from a fresh interpreter on a SQLite database of its own."""
    with tempfile.TemporaryDirectory(prefix="eleora-engines-") as tmp:
        env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
        env.update(
            DATABASE_URL=f"sqlite:///{Path(tmp) / 'bench.sqlite3'}",
            DJANGO_SETTINGS_MODULE="eleora_site.settings",
            DEBUG="0",  # as served: cached templates, no debug info
            SECRET_KEY="bench-engines-" + "x" * 40,
            ALLOW_IN_MEMORY_LAYER="1",
            FAST_PASSWORD_HASHER="1",
            LOG_LEVEL="ERROR",
        )
        args = ["--worker", "--renders", str(renders), "--rounds", str(rounds)]
        command = [sys.executable, "-m", "scripts.bench.engines", *args]
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"the worker failed:\n{done.stderr[-4000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def work(renders: int, rounds: int) -> dict[str, Any]:
    """In the worker: build the table, compare the engines' HTML, time them."""
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    table, viewers = played_table()
    out: dict[str, Any] = {
        "renders": renders,
        "rounds": rounds,
        "table": {
            "log_entries": len(table.log),
            "log_lines": sum(len(e.lines) for e in table.log),
            "seats": len(table.view.seats),
        },
        "same_html": {},
        "rows": {},
    }
    for what, audience in ROWS:
        row = f"{what} {audience}"
        viewer = viewers[audience]
        out["same_html"][row] = {lang: same_html(table, viewer, what, lang) for lang in LANGUAGES}
        out["rows"][row] = timed(table, viewer, what, renders, rounds)
    out["totals"] = totals(out["rows"])
    return out


def played_table() -> tuple[Any, dict[str, Any]]:
    """The clones table played until its log window is full, stopped at the start of a hero's
    turn (both actions left, no prompt open); the GM and that hero's player as viewers."""
    from combat import services
    from combat.access import Viewer
    from scripts.bench import caches, world

    made = world.clones(1)
    table = made["tables"][0]
    seat = {
        "pk": table["pk"],
        "gm": _user_id(world.GM),
        "players": [_user_id(name) for name in world.PLAYERS],
    }
    player = caches.Player([seat], "A", seed=7)
    player.dice = random.Random(7)
    here = player.seats[0]
    for _n in range(2000):
        state = here.table.state
        current = state.combatants.get(state.current or "")
        full = len(here.table.log) >= LOG_ENTRIES
        fresh = current is not None and current.controller and current.actions_left >= 2
        if full and not state.prompts and fresh:
            break
        _step(player, here, services)
    else:
        raise RuntimeError("the table never reached a full log on a hero's turn")
    owner = next(v for v in here.viewers if v.controller == current.controller)
    return here.table, {"gm": here.viewers[0], "player": Viewer(owner.user_id, False)}


def _step(player: Any, seat: Any, services: Any) -> None:
    """One action of the cache benchmark's play, without its push."""
    player.count += 1
    player.clock += 0.01
    for _kind, command, viewer in player.candidates(seat):
        if player.timed_command(seat, command, viewer) is not None:
            break
    seat.table = services.load_table(seat.pk)


def _user_id(name: str) -> int:
    from django.contrib.auth.models import User

    return int(User.objects.get(username=name).pk)


def renderers(table: Any, viewer: Any, what: str) -> dict[str, Callable[[], str]]:
    """The row rendered from one `View` (its records worked out once) by each engine's
    renderer, as `combat.pushes` calls them: a region whole with its items, or the newest log
    entry with a roll as an out-of-band swap."""
    from combat import fragments

    view = fragments.View(table, viewer)
    engines = {"django": fragments.Render(view), "jinja2": JinjaRender(view)}
    if what == "log-entry":
        part = view.part("table-log")
        entry = next(i for i in part.items or () if _has_roll(view, i.id))
        return {
            name: (lambda r=render: r.item(part, entry, swap=True))
            for name, render in engines.items()
        }
    part = view.part(what)

    def whole(render: Any) -> str:
        items = "".join(render.item(part, i, swap=False) for i in part.items or ())
        return str(render.region(part, items))

    return {name: (lambda r=render: whole(r)) for name, render in engines.items()}


def _has_roll(view: Any, item_id: str) -> bool:
    return any(line.rolls for line in view.log_by_id[item_id].lines)


def normalised(html: str) -> str:
    """The HTML with whitespace runs collapsed and the engines' spellings of ' and " made one."""
    for entity, same in ENTITIES.items():
        html = html.replace(entity, same)
    return re.sub(r"\s+", " ", html).strip()


def same_html(table: Any, viewer: Any, what: str, language: str) -> dict[str, Any]:
    """Whether both engines render the row alike in `language`; where not, the first
    difference."""
    from django.utils import translation

    with translation.override(language):
        html = {engine: render() for engine, render in renderers(table, viewer, what).items()}
    a, b = normalised(html["django"]), normalised(html["jinja2"])
    at = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    result: dict[str, Any] = {"same": a == b, "bytes": len(html["django"].encode())}
    if a != b:
        result["django"] = a[max(0, at - 80) : at + 120]
        result["jinja2"] = b[max(0, at - 80) : at + 120]
    return result


def timed(table: Any, viewer: Any, what: str, renders: int, rounds: int) -> dict[str, float]:
    """ms per render in each engine, best of `rounds`."""
    from django.utils import translation

    best = {"django": float("inf"), "jinja2": float("inf")}
    with translation.override("pl"):
        engines = renderers(table, viewer, what)
        for render in engines.values():
            render()  # compiled, and every part of the records worked out
        for _round in range(rounds):
            for engine, render in engines.items():
                t0 = time.perf_counter()
                for _n in range(renders):
                    render()
                best[engine] = min(best[engine], 1000 * (time.perf_counter() - t0) / renders)
    return {
        "django_ms": round(best["django"], 4),
        "jinja2_ms": round(best["jinja2"], 4),
        "ratio": round(best["django"] / best["jinja2"], 2),
    }


def totals(rows: dict[str, dict[str, float]]) -> dict[str, dict[str, Any]]:
    """Each region over its audiences, and whether Jinja2 meets the threshold on it."""
    out = {}
    for what in REGIONS:
        found = [figures for row, figures in rows.items() if row.split()[0] == what]
        django_ms = sum(r["django_ms"] for r in found)
        jinja2_ms = sum(r["jinja2_ms"] for r in found)
        out[what] = {
            "django_ms": round(django_ms, 4),
            "jinja2_ms": round(jinja2_ms, 4),
            "ratio": round(django_ms / jinja2_ms, 2),
            "meets_threshold": django_ms / jinja2_ms >= THRESHOLD,
        }
    return out


def report(result: dict[str, Any]) -> str:
    """The figures as a table, then the comparison and the verdict."""
    t = result["table"]
    lines = [
        f"Table: {t['seats']} seats, {t['log_entries']} log entries ({t['log_lines']} lines); "
        f"{result['renders']} renders per engine per round, best of {result['rounds']} rounds.",
        f"{'row':<22} {'Django ms':>10} {'Jinja2 ms':>10} {'ratio':>7}",
    ]
    rows = [*result["rows"].items()]
    rows += [(f"{what} (all)", figures) for what, figures in result["totals"].items()]
    for row, f in rows:
        ms = f"{f['django_ms']:>10.3f} {f['jinja2_ms']:>10.3f}"
        lines.append(f"{row:<22} {ms} {f['ratio']:>6.2f}×")
    same = all(c["same"] for langs in result["same_html"].values() for c in langs.values())
    lines.append(f"Same HTML in {', '.join(LANGUAGES)}: {'yes' if same else 'NO'}")
    for row, langs in result["same_html"].items():
        for lang, check in langs.items():
            if not check["same"]:
                lines.append(f"  {row} {lang}: django …{check['django']}…")
                lines.append(f"  {' ' * len(row)} {lang}: jinja2 …{check['jinja2']}…")
    meets = all(figures["meets_threshold"] for figures in result["totals"].values())
    lines.append(
        f"Jinja2 at least {THRESHOLD:g}× faster on every row: "
        f"{'yes: move the live fragments' if meets else 'no: they stay on Django'}"
    )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
