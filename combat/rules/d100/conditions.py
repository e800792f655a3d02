"""Conditions (§6 of the digest) and timed modifiers as data: what each does, when it acts.

A combatant keeps them as `state.Effect` records acting in turns `start`..`until`. Timing
(§6): immediate effects (Ogłuszenie, Powalenie, Rozbrojenie) act in the turn inflicted and
the next; Zachwianie in the next turn (at high difficulty, crit bad luck's lasts 2 turns or
doubles its penalty: `high_stagger`); Krwawienie ticks at the end of the turn inflicted and
the `bleed_turns` − 1 following. A "modyfikator" adds its value to one kind of test (`ROLLS`).
"""

from __future__ import annotations

from dataclasses import dataclass

from combat.rules.base import gettext_noop
from combat.rules.d100.settings import D100Settings
from combat.rules.d100.state import Combatant, Effect

OGLUSZENIE = "ogluszenie"
POWALENIE = "powalenie"
ROZBROJENIE = "rozbrojenie"
KRWAWIENIE = "krwawienie"
ZACHWIANIE = "zachwianie"
MODYFIKATOR = "modyfikator"
CZAR = "czar"

# The kinds of tests a modifier may change (Effect.roll).
TRAFIENIE = "trafienie"  # every hit test (weapons and spells)
OBRAZENIA = "obrazenia"  # every damage test (weapons and spells: "also for magic")
UNIK = "unik"
BLOK = "blok"
UMYSL = "umysl"  # the defence against mind-affecting magic
CZAR_TRAFIENIE = "czar_trafienie"  # Zmysły when casting
CZAR_OBRAZENIA = "czar_obrazenia"  # Intelekt when casting (damage or effect)
ROLLS: tuple[str, ...] = (TRAFIENIE, OBRAZENIA, UNIK, BLOK, UMYSL, CZAR_TRAFIENIE, CZAR_OBRAZENIA)


@dataclass(frozen=True)
class Spec:
    key: str
    label: str
    description: str
    no_actions: bool = False


SPECS: dict[str, Spec] = {
    s.key: s
    for s in (
        Spec(
            OGLUSZENIE,
            gettext_noop("Ogłuszenie"),
            gettext_noop("żadnych akcji, bez Uniku i Bloku"),
            no_actions=True,
        ),
        Spec(
            POWALENIE,
            gettext_noop("Powalenie"),
            gettext_noop("tylko ataki i Uniki z parteru, z modyfikatorem −%(penalty)s"),
        ),
        Spec(
            ROZBROJENIE,
            gettext_noop("Rozbrojenie"),
            gettext_noop("bez ataków bronią; Unik bez kar za zbroję i tarczę"),
        ),
        Spec(
            KRWAWIENIE,
            gettext_noop("Krwawienie"),
            gettext_noop("%(value)s PŻ na koniec tury"),
        ),
        Spec(
            ZACHWIANIE,
            gettext_noop("Zachwianie"),
            gettext_noop("−%(value)s do Trafienia i Uniku"),
        ),
        Spec(MODYFIKATOR, gettext_noop("Modyfikator"), gettext_noop("%(value)s do %(roll)s")),
        Spec(CZAR, gettext_noop("Czar"), gettext_noop("efekt czaru %(label)s")),
    )
}
# What the GM may put on a combatant by hand.
GM_CONDITIONS: tuple[str, ...] = (OGLUSZENIE, POWALENIE, ROZBROJENIE, KRWAWIENIE, ZACHWIANIE)
ROLL_LABELS: dict[str, str] = {
    TRAFIENIE: gettext_noop("Trafienia"),
    OBRAZENIA: gettext_noop("Obrażeń"),
    UNIK: gettext_noop("Uniku"),
    BLOK: gettext_noop("Bloku"),
    UMYSL: gettext_noop("obrony przed magią umysłu"),
    CZAR_TRAFIENIE: gettext_noop("Zmysłów przy czarowaniu"),
    CZAR_OBRAZENIA: gettext_noop("Intelektu przy czarowaniu"),
}


def immediate(key: str, turn: int, *, source: str = "", hand: str = "") -> Effect:
    """Ogłuszenie, Powalenie, Rozbrojenie: this turn and the next (§6 timing)."""
    return Effect(key=key, start=turn, until=turn + 1, source=source, hand=hand)


def stagger(
    turn: int, settings: D100Settings, *, bad_luck: bool = False, source: str = ""
) -> Effect:
    """Zachwianie in the next turn; crit bad luck at high difficulty lasts 2 turns or doubles
    the penalty (`high_stagger`)."""
    penalty, until = settings.stagger_penalty, turn + 1
    if bad_luck and settings.high:
        factor = settings.high_bad_luck_factor
        if settings.high_stagger == "duration":
            until = turn + factor
        else:
            penalty *= factor
    return Effect(key=ZACHWIANIE, start=turn + 1, until=until, value=penalty, source=source)


def bleeding(turn: int, per_turn: int, settings: D100Settings, *, source: str = "") -> Effect:
    """Krwawienie: `per_turn` PŻ at the end of this turn and the bleed_turns − 1 following."""
    return Effect(
        key=KRWAWIENIE,
        start=turn,
        until=turn + settings.bleed_turns - 1,
        value=per_turn,
        source=source,
    )


def modifier(roll: str, value: int, start: int, label: str, *, source: str = "") -> Effect:
    """A modifier of one kind of test for one turn (`start`)."""
    return Effect(
        key=MODYFIKATOR, start=start, until=start, value=value, roll=roll, label=label,
        source=source,
    )  # fmt: skip


def stunned(c: Combatant, turn: int) -> bool:
    return c.has(OGLUSZENIE, turn)


def knocked_down(c: Combatant, turn: int) -> bool:
    return c.has(POWALENIE, turn)


def disarm(c: Combatant, turn: int) -> Effect | None:
    return next(iter(c.effects_at(turn, ROZBROJENIE)), None)


def condition_modifiers(
    c: Combatant, turn: int, roll: str, settings: D100Settings, *, spell: bool = False
) -> list[tuple[str, int]]:
    """What `c`'s conditions and timed modifiers add to a test of kind `roll` ("trafienie",
    "obrazenia", "unik", "blok", "umysl"; `spell`: cast, so the casting modifiers count)."""
    out: list[tuple[str, int]] = []
    if roll in (TRAFIENIE, UNIK):
        if knocked_down(c, turn):
            out.append((SPECS[POWALENIE].label, -settings.knockdown_penalty))
        for e in c.effects_at(turn, ZACHWIANIE):
            out.append((SPECS[ZACHWIANIE].label, -e.value))
    kinds = {roll}
    if spell and roll == TRAFIENIE:
        kinds.add(CZAR_TRAFIENIE)
    if spell and roll == OBRAZENIA:
        kinds.add(CZAR_OBRAZENIA)
    for e in c.effects_at(turn, MODYFIKATOR):
        if e.roll in kinds:
            out.append((e.label or SPECS[MODYFIKATOR].label, e.value))
    return out
