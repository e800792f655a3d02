"""Rolls anyone can verify: committed seeds, the dice they give, and the check of a whole log.

When an encounter is created the server draws two secret seeds: the table's (every die of the
fight) and the GM's (the dice of secret GM rolls, `SecretRolls`). Everyone sees their hashes
from the start (the commitment); the table's seed is shown once the fight has ended, the GM's
only if the GM reveals it. Each command entry of the log has a *slot* and draws its dice from
`EntryDice(seed, slot)`; an undo takes the slot back with the entries, so the entry redone
after it gets the same dice: undo never rolls an entry again with other dice.

The algorithm, exactly (the verification page shows it, so anyone can recompute a roll):

- a seed is 64 lowercase hex digits (32 random bytes); its *bytes* are those 64 ASCII
  characters, and its commitment is `sha256(seed bytes)` in hex;
- the n-th value drawn for an entry (n = 0, 1, 2 …) is the first 8 bytes, read as an unsigned
  big-endian integer x, of `HMAC-SHA256(key = seed bytes, message = f"{slot}:{n}" in ASCII)`;
- `randint(a, b)`: with span = b − a + 1 and limit = 2⁶⁴ − (2⁶⁴ mod span), draw values until
  x < limit (rejection: no modulo bias), and the die shows a + (x mod span). Every draw,
  rejected or not, moves n on; the rules call randint in the order they roll;
- the k-th id an entry gives out (a prompt's, k = 0, 1, 2 …; `token()`) is the first 8 bytes,
  in hex, of `HMAC-SHA256(key = seed bytes, message = f"{slot}:id:{k}")`: no player can guess
  the id of a prompt that is not theirs, and the dice are not moved by it.

`verify(encounter)` folds the log entry by entry as `combat.log` does (the entries undone too,
each against the state it was decided on), decides every stored command of an entry again
with the entry's dice (the rulesets' codecs decode every mapping in sorted key order and the
engines keep it, `combat.rules.codec`: a state read back from PostgreSQL, whose jsonb keeps
keys in an order of its own, rolls for its combatants in the order the replay does) and
compares the events with the stored ones, and each roll of the log with the roll the seed
gives: match, mismatch (which entry, which roll), or not checkable (a
secret roll whose GM seed is kept, a fight not ended yet, an entry from before the seeds or
decided with dice a test injected).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from combat.access import Refused, Sight, Viewer, sight
from combat.fragments import engine_text, roll_numbers, roll_texts
from combat.log import Step, undone
from combat.models import Encounter
from combat.rules.base import Ruleset, RuleViolation, fill, secret_rolls_of
from combat.snapshots import load_table

SEED_BYTES = 32
_RANGE = 1 << 64

OK, MISMATCH, UNCHECKED = "ok", "mismatch", "unchecked"
INJECTED = "injected"  # `command["rng"]` of an entry decided with dice a caller injected

# Why an entry's rolls cannot be checked (a reason key -> its Polish msgid).
REASONS: dict[str, str] = {
    "sealed": gettext_noop("Ziarno zostanie ujawnione po zakończeniu starcia."),
    "gm_kept": gettext_noop("Tajny rzut MG: Mistrz Gry nie ujawnił swojego ziarna."),
    "no_seed": gettext_noop("Wpis sprzed wprowadzenia ziaren: jego kości nie mają ziarna."),
    INJECTED: gettext_noop("Wpis rozstrzygnięty kośćmi podanymi z zewnątrz (test)."),
}


def new_seed() -> str:
    """A fresh secret seed: 32 random bytes as 64 hex digits."""
    return secrets.token_hex(SEED_BYTES)


def commitment(seed: str) -> str:
    """The hash shown before the seed: sha256 of the seed's 64 ASCII characters, in hex."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


class EntryDice:
    """The dice of one log entry: HMAC-SHA256 of the seed over "slot:counter", 64 bits a draw,
    with rejection sampling (the RNG protocol's `randint`)."""

    def __init__(self, seed: str, slot: int) -> None:
        self._key = seed.encode("ascii")
        self.slot = slot
        self.counter = 0
        self.rolled = 0  # dice given out (randint calls): each must be a face the log shows
        self.tokens = 0  # ids given out (`token`)

    def draw(self) -> int:
        """The next 64-bit value of the entry's stream."""
        message = f"{self.slot}:{self.counter}".encode("ascii")
        self.counter += 1
        digest = hmac.new(self._key, message, hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big")

    def token(self) -> str:
        """The entry's next id (16 hex digits), from a stream of its own: ids do not move
        the dice."""
        message = f"{self.slot}:id:{self.tokens}".encode("ascii")
        self.tokens += 1
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()[:16]

    def randint(self, a: int, b: int) -> int:
        """Uniform in a..b inclusive."""
        span = b - a + 1
        if not 1 <= span <= _RANGE:
            raise ValueError(f"a range of 1 to 2**64 values, not {a}..{b}")
        limit = _RANGE - _RANGE % span
        while True:
            x = self.draw()
            if x < limit:
                self.rolled += 1
                return a + x % span


def secret_dice(rules: Ruleset, command: Any) -> bool:
    """Whether the command's dice are the GM's secret (drawn from the GM's seed)."""
    capability = secret_rolls_of(rules)
    return capability is not None and capability.secret_dice(command)


def seeded(encounter: Encounter) -> bool:
    """The encounter draws its dice from committed seeds (not one from before them)."""
    return bool(encounter.seed and encounter.gm_seed)


def seed_revealed(encounter: Encounter) -> bool:
    """The table's seed is public: the fight has ended (and an undo may not un-end it)."""
    return seeded(encounter) and encounter.phase == Encounter.Phase.ENDED


def gm_seed_revealed(encounter: Encounter) -> bool:
    return seeded(encounter) and encounter.gm_seed_revealed and seed_revealed(encounter)


# --- the check ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollCheck:
    """One roll of an entry: `n` its 1-based number in the entry (the anchor `#r<n>`), `line`
    the index of its log line; `dice` the faces the log shows, `expected` those the seed gives
    (None: not recomputed, or the seed gives no such roll)."""

    n: int
    line: int
    dice: tuple[int, ...]
    expected: tuple[int, ...] | None
    status: str


@dataclass(frozen=True)
class EntryCheck:
    """One command entry of the log checked: `status` OK, MISMATCH or UNCHECKED (`reason`, a
    key of REASONS); `problems` what did not match, each a (Polish msgid, params) pair."""

    seq: int
    slot: int | None
    status: str
    undone: bool
    secret: bool  # its dice are the GM's (a secret roll)
    lines: tuple[Mapping[str, Any], ...]
    rolls: tuple[RollCheck, ...] = ()
    reason: str = ""
    problems: tuple[tuple[str, Mapping[str, Any]], ...] = field(default=(), hash=False)

    def rolls_of(self, line: int) -> tuple[RollCheck, ...]:
        return tuple(r for r in self.rolls if r.line == line)


@dataclass(frozen=True)
class Report:
    """Every command entry of an encounter's log, checked against the seeds given.

    `seed_ok` / `gm_seed_ok`: whether the seed checked with matches its commitment (None:
    no seed to check with)."""

    entries: tuple[EntryCheck, ...]
    seed_ok: bool | None
    gm_seed_ok: bool | None

    @property
    def ok(self) -> bool:
        """Nothing that could be checked disagrees."""
        return not self.mismatches and self.seed_ok is not False and self.gm_seed_ok is not False

    @property
    def mismatches(self) -> list[EntryCheck]:
        return [e for e in self.entries if e.status == MISMATCH]

    @property
    def rolls(self) -> list[RollCheck]:
        return [r for e in self.entries for r in e.rolls]

    @property
    def checked(self) -> int:
        """Rolls recomputed from a seed (matching or not)."""
        return sum(1 for r in self.rolls if r.status != UNCHECKED)

    def entry(self, seq: int) -> EntryCheck | None:
        return next((e for e in self.entries if e.seq == seq), None)


def verify(encounter: Encounter, *, seed: str | None = None, gm_seed: str | None = None) -> Report:
    """Check every roll of the encounter's log against the seeds: by default the revealed
    ones (the table's once the fight has ended, the GM's once the GM reveals it)."""
    if seed is None:
        seed = encounter.seed if seed_revealed(encounter) else ""
    if gm_seed is None:
        gm_seed = encounter.gm_seed if gm_seed_revealed(encounter) else ""
    seed_ok = commitment(seed) == encounter.seed_hash if seed else None
    gm_seed_ok = commitment(gm_seed) == encounter.gm_seed_hash if gm_seed else None
    checker = _Checker(encounter.rules(), seed, gm_seed, seed_ok, gm_seed_ok)
    rows = list(
        encounter.entries.order_by("seq").values_list("seq", "command", "events", "undo_to", "slot")
    )
    taken_back = undone(Step(seq, (), undo_to) for seq, _c, _e, undo_to, _s in rows)
    rules = checker.rules
    start = rules.state_from_dict(encounter.initial)
    targets = {undo_to for _seq, _c, _e, undo_to, _s in rows if undo_to is not None}
    after: dict[int, Any] = {0: start}  # the states undos go back to (only those are kept)
    state = start
    checks = []
    for seq, command, events, undo_to, slot in rows:
        if undo_to is None:
            checks.append(checker.check(seq, command, events, slot, state, seq in taken_back))
        else:  # as `combat.log.effective`: what was in force after entry K, then its events
            state = after.get(undo_to, start)
        state = rules.replay(state, (rules.event_from_dict(e) for e in events))
        if seq in targets:
            after[seq] = state
    return Report(tuple(checks), seed_ok, gm_seed_ok)


class _Checker:
    def __init__(
        self,
        rules: Ruleset,
        seed: str,
        gm_seed: str,
        seed_ok: bool | None,
        gm_seed_ok: bool | None,
    ) -> None:
        self.rules = rules
        self.seeds = {False: seed, True: gm_seed}
        self.valid = {False: seed_ok, True: gm_seed_ok}

    def check(
        self,
        seq: int,
        command: Any,
        events: Sequence[Mapping[str, Any]],
        slot: int | None,
        before: Any,
        undone: bool,
    ) -> EntryCheck:
        command = command if isinstance(command, dict) else {}
        lines = tuple(command.get("lines") or ())
        shown = [
            (i, _faces(roll)) for i, line in enumerate(lines) for roll in line.get("rolls") or ()
        ]
        stored = command.get("commands")
        try:
            parsed = [self.rules.command_from_dict(c) for c in stored or ()]
        except (ValueError, TypeError, KeyError) as exc:
            return self._failed(seq, slot, undone, False, lines, shown, _unreadable(exc))
        secret = any(secret_dice(self.rules, c) for c in parsed)
        entry = EntryCheck(seq, slot, UNCHECKED, undone, secret, lines)

        def unchecked(reason: str) -> EntryCheck:
            rolls = tuple(RollCheck(n, i, d, None, UNCHECKED) for n, (i, d) in enumerate(shown, 1))
            return EntryCheck(seq, slot, UNCHECKED, undone, secret, lines, rolls, reason)

        if command.get("rng") == INJECTED:
            return unchecked(INJECTED)
        if stored is None or slot is None:
            return unchecked("no_seed")
        kinds = {secret_dice(self.rules, c) for c in parsed}
        if not all(self.seeds[kind] for kind in kinds):
            return unchecked("gm_kept" if secret else "sealed")
        if any(self.valid[kind] is False for kind in kinds):
            problem: tuple[str, Mapping[str, Any]] = (_FORGED, {})
            return self._failed(seq, slot, undone, secret, lines, shown, problem)
        return self._recompute(entry, parsed, events, before, shown)

    def _recompute(
        self,
        entry: EntryCheck,
        parsed: list[Any],
        events: Sequence[Mapping[str, Any]],
        before: Any,
        shown: list[tuple[int, tuple[int, ...]]],
    ) -> EntryCheck:
        rules, slot = self.rules, entry.slot
        assert slot is not None
        dice: dict[bool, EntryDice] = {}
        state, decided = before, []
        problems: list[tuple[str, Mapping[str, Any]]] = []
        try:
            for command in parsed:
                kind = secret_dice(rules, command)
                rng = dice.setdefault(kind, EntryDice(self.seeds[kind], slot))
                new = rules.decide(state, command, rng)
                decided += new
                state = rules.replay(state, new)
        except RuleViolation as refusal:
            problems.append((_REFUSED, {"detail": refusal.message}))
        except (ValueError, TypeError, LookupError) as exc:  # a log altered past making sense
            problems.append(_unreadable(exc))
        expected = _rolls(rules, before, decided)
        recomputed = _plain([rules.event_to_dict(e) for e in decided])
        kept = _plain(list(events))
        differs = not problems and recomputed != kept
        try:
            from_events = _rolls(rules, before, [rules.event_from_dict(e) for e in kept])
        except (ValueError, TypeError, KeyError) as exc:
            problems.append(_unreadable(exc))
            from_events = []
        rolls = []
        for n, (line, faces) in enumerate(shown, 1):
            seed_gives = expected[n - 1] if n <= len(expected) else None
            logged = from_events[n - 1] if n <= len(from_events) else None
            good = seed_gives is not None and faces == seed_gives and logged == seed_gives
            rolls.append(RollCheck(n, line, faces, seed_gives, OK if good else MISMATCH))
            if not good:
                problems.append(_roll_problem(n, faces, logged, seed_gives))
        if len(expected) > len(shown):
            problems.append((_MORE, {"n": len(expected) - len(shown)}))
        unshown = sum(d.rolled for d in dice.values()) - sum(map(len, expected))
        if unshown > 0 and not problems:
            problems.append((_UNSHOWN, {"n": unshown}))
        if differs:  # after the rolls: which roll differs tells more than which event
            k = next(
                (i for i, (a, b) in enumerate(zip(recomputed, kept, strict=False)) if a != b),
                min(len(recomputed), len(kept)),
            )
            problems.append((_EVENT, {"n": k + 1}))
        status = MISMATCH if problems else OK
        return EntryCheck(
            entry.seq,
            slot,
            status,
            entry.undone,
            entry.secret,
            entry.lines,
            tuple(rolls),
            problems=tuple(problems),
        )

    @staticmethod
    def _failed(
        seq: int,
        slot: int | None,
        undone: bool,
        secret: bool,
        lines: tuple[Mapping[str, Any], ...],
        shown: list[tuple[int, tuple[int, ...]]],
        problem: tuple[str, Mapping[str, Any]],
    ) -> EntryCheck:
        rolls = tuple(RollCheck(n, i, d, None, MISMATCH) for n, (i, d) in enumerate(shown, 1))
        return EntryCheck(seq, slot, MISMATCH, undone, secret, lines, rolls, problems=(problem,))


_FORGED = gettext_noop("Ziarno nie zgadza się ze skrótem ogłoszonym na początku.")
_REFUSED = gettext_noop("Reguły odmawiają rozstrzygnięcia wpisu na nowo: %(detail)s")
_EVENT = gettext_noop("Zdarzenie %(n)s wpisu różni się od tego, które dają ziarno i reguły.")
_MORE = gettext_noop("Ziarno i reguły dają o %(n)s rzutów więcej, niż pokazuje dziennik.")
_UNSHOWN = gettext_noop(
    "Kości rzucone przez reguły, których żaden rzut dziennika nie pokazuje: %(n)s."
)
_ROLL = gettext_noop("Rzut %(n)s: w dzienniku %(logged)s, z ziarna wychodzi %(expected)s.")
_ROLL_EVENTS = gettext_noop(
    "Rzut %(n)s: zapisane zdarzenia mówią %(stored)s, dziennik %(logged)s, "
    "z ziarna wychodzi %(expected)s."
)


def _roll_problem(
    n: int,
    logged: tuple[int, ...],
    stored: tuple[int, ...] | None,
    expected: tuple[int, ...] | None,
) -> tuple[str, Mapping[str, Any]]:
    def text(faces: tuple[int, ...] | None) -> str:
        return "–" if faces is None else " ".join(map(str, faces))

    params = {"n": n, "logged": text(logged), "expected": text(expected)}
    if stored == logged:
        return _ROLL, params
    return _ROLL_EVENTS, {**params, "stored": text(stored)}


def _unreadable(exc: Exception) -> tuple[str, Mapping[str, Any]]:
    return gettext_noop("Zapis wpisu jest nieczytelny: %(detail)s"), {"detail": str(exc)}


def _faces(roll: Any) -> tuple[int, ...]:
    dice = roll.get("dice") if isinstance(roll, Mapping) else getattr(roll, "dice", ())
    return tuple(int(d) for d in dice or ())


def _rolls(rules: Ruleset, state: Any, events: Iterable[Any]) -> list[tuple[int, ...]]:
    """The faces of every roll the events' log lines show, in order (told against the state
    before each event, as the append path tells them)."""
    faces = []
    for event in events:
        line = rules.describe(state, event)
        if line is not None:
            faces += [_faces(roll) for roll in line.rolls]
        state = rules.evolve(state, event)
    return faces


def _plain(data: Any) -> Any:
    """JSON as the database gives it back (tuples as lists), for comparing."""
    return json.loads(json.dumps(data))


# --- the pages ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollRow:
    """One roll on the verification pages, in the viewer's language; `expected` the faces the
    seed gives, shown where they differ."""

    n: int
    label: str
    summary: str
    dice: tuple[int, ...]
    modifiers: tuple[tuple[str, int], ...]
    status: str
    expected: str = ""


@dataclass(frozen=True)
class LineRow:
    text: str
    kind: str
    secret: bool
    rolls: tuple[RollRow, ...]


@dataclass(frozen=True)
class EntryRow:
    """One entry as this viewer may see it: the lines they see, and how many secret GM rolls
    (`secret_rolls`, of them `secret_checked` checked) it holds that they may not see."""

    seq: int
    slot: int | None
    undone: bool
    status: str
    gm_dice: bool
    reason: str
    problems: tuple[str, ...]
    lines: tuple[LineRow, ...]
    secret_rolls: int = 0
    secret_checked: int = 0

    @property
    def rolls(self) -> tuple[RollRow, ...]:
        return tuple(r for line in self.lines for r in line.rolls)


@dataclass(frozen=True)
class Tally:
    """The counts a viewer reads: "sprawdzono N z M rzutów"."""

    total: int = 0
    checked: int = 0
    mismatched: int = 0
    secret: int = 0
    secret_checked: int = 0
    unseen_mismatches: int = 0  # entries that disagree which the viewer sees nothing of


def page(encounter: Encounter, viewer: Viewer, seq: int | None = None) -> dict[str, Any]:
    """The context of the verification page (every roll), or of one entry's rolls (`seq`):
    what `Sight` lets this viewer see, each roll with its check."""
    table = load_table(encounter.pk)
    seen = sight(table.view, viewer)
    report = verify(encounter)
    rows: list[EntryRow] = []
    unseen = 0
    for check in report.entries:
        if seq is not None and check.seq != seq:
            continue
        row = _entry_row(check, seen)
        if row is None:
            unseen += check.status == MISMATCH
        elif seq is not None or row.rolls or row.secret_rolls or row.status == MISMATCH:
            rows.append(row)
    rolls = [r for row in rows for r in row.rolls]
    tally = Tally(
        total=len(rolls),
        checked=sum(1 for r in rolls if r.status != UNCHECKED),
        mismatched=sum(1 for r in rolls if r.status == MISMATCH),
        secret=sum(row.secret_rolls for row in rows),
        secret_checked=sum(row.secret_checked for row in rows),
        unseen_mismatches=unseen,
    )
    revealed, gm_revealed = seed_revealed(encounter), gm_seed_revealed(encounter)
    return {
        "table": table,
        "viewer": viewer,
        "report": report,
        "entries": rows,
        "mismatched": [row for row in rows if row.status == MISMATCH],
        "tally": tally,
        "seeded": seeded(encounter),
        "ended": encounter.phase == Encounter.Phase.ENDED,
        "seed_hash": encounter.seed_hash,
        "gm_seed_hash": encounter.gm_seed_hash,
        "seed": encounter.seed if revealed else "",
        "gm_seed": encounter.gm_seed if gm_revealed else "",
        "can_reveal": viewer.is_gm and revealed and not gm_revealed,
    }


def _entry_row(check: EntryCheck, seen: Sight) -> EntryRow | None:
    """The entry as this viewer sees it; None when they may see nothing of it."""
    lines: list[LineRow] = []
    secret_rolls = secret_checked = 0
    whole = True  # the viewer sees every line of the entry
    shown = {i for i, line in enumerate(check.lines) if seen.line(line)}
    first = roll_numbers(
        check.lines, {i for i, line in enumerate(check.lines) if seen.everyone(line)}
    )
    for i, line in enumerate(check.lines):
        rolls = check.rolls_of(i)
        if i in shown:
            lines.append(_line_row(line, first[i], rolls))
            continue
        whole = False
        if line.get("secret") and set(line.get("actors", ())) <= seen.seen:
            secret_rolls += len(rolls)
            secret_checked += sum(1 for r in rolls if r.status != UNCHECKED)
    if not lines and not secret_rolls:
        return None
    if whole:
        problems = tuple(fill(_(msgid), params, msgid) for msgid, params in check.problems)
    else:  # its details could tell what the viewer may not see
        problems = (_("Ten wpis nie zgadza się z ziarnem."),) if check.problems else ()
    return EntryRow(
        seq=check.seq,
        slot=check.slot,
        undone=check.undone,
        status=check.status,
        gm_dice=check.secret,
        reason=_(REASONS[check.reason]) if check.reason else "",
        problems=problems,
        lines=tuple(lines),
        secret_rolls=secret_rolls,
        secret_checked=secret_checked,
    )


def _line_row(line: Mapping[str, Any], first: int, checks: Sequence[RollCheck]) -> LineRow:
    text = engine_text(str(line.get("text", "")), line.get("params") or {}, "")
    rolls = []
    for k, roll in enumerate(line.get("rolls") or ()):
        shown = roll_texts(roll)
        check = checks[k] if k < len(checks) else None
        status = check.status if check is not None else UNCHECKED
        expected = check.expected if check is not None else None
        differs = status == MISMATCH and expected is not None
        rolls.append(
            RollRow(
                n=first + k,
                label=shown["label_text"],
                summary=shown["summary_text"],
                dice=tuple(shown.get("dice") or ()),
                modifiers=tuple((str(r), int(v)) for r, v in shown["modifier_texts"]),
                status=status,
                expected=" ".join(map(str, expected)) if differs and expected else "",
            )
        )
    return LineRow(text, str(line.get("kind", "")), bool(line.get("secret")), tuple(rolls))


def reveal_gm_seed(encounter_id: int, viewer: Viewer) -> None:
    """GM: make the seed of the secret GM rolls public, once the fight has ended."""
    if not viewer.is_gm:
        raise Refused("tylko_mg", _("Tylko Mistrz Gry może to zrobić."))
    ended = Encounter.objects.filter(pk=encounter_id, phase=Encounter.Phase.ENDED)
    if not ended.exclude(gm_seed="").update(gm_seed_revealed=True):
        raise Refused(
            "jeszcze_nie",
            _("Ziarno tajnych rzutów MG można ujawnić dopiero po zakończeniu starcia."),
        )
