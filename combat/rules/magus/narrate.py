"""The log: one `LogLine` per event, told against the state BEFORE it.

Declarations are secret until the reveal: `Announced` is the public "X zadeklarował(a)",
`Declared` (its content) and the Strain paid in the declaration phase are GM-only lines, and
`Revealed` tells everyone every declaration. The GM's edits are GM-only lines too.
"""

from __future__ import annotations

from typing import Any

from combat.rules import battlemap as bm
from combat.rules import vocabulary
from combat.rules.base import LogLine, RollView, fill, gettext_noop, text_param
from combat.rules.magus import conditions as cond
from combat.rules.magus import options as opt
from combat.rules.magus import sustained as sus
from combat.rules.magus.engine.attack import TALENT_LABELS
from combat.rules.magus.events import (
    ActionChanged,
    ActionUsed,
    Announced,
    AttackRolled,
    Bled,
    CheckRolled,
    CombatantPlaced,
    CombatEnded,
    CombatStarted,
    ConditionAdded,
    ConditionRemoved,
    DamageRolled,
    DeadlinesMoved,
    Declared,
    DefenceRolled,
    Delayed,
    Dismounted,
    Event,
    GotUp,
    GroundGiven,
    HealthEdited,
    Held,
    HiddenSet,
    ImpactRolled,
    InitiativeRolled,
    InitiativeSet,
    ItemDamaged,
    Joined,
    MapEdited,
    Mounted,
    Moved,
    OrderSet,
    PromptClosed,
    RecoveryTested,
    Revealed,
    RoundEnded,
    RoundStarted,
    SaddleRolled,
    SimpleActed,
    StatsRevealed,
    StrainPaid,
    SurpriseDifficulty,
    SurpriseRolled,
    SustainedAdvanced,
    SustainedCheckSet,
    SustainedCompleted,
    SustainedRolled,
    SustainedTested,
    TimePassed,
    TurnBegan,
    TurnEnded,
    WoundHealed,
)
from combat.rules.magus.levels import LEVELS
from combat.rules.magus.state import Declaration, EncounterState
from combat.rules.narration import Narrator, line, name_of

LEVEL_LABELS = {lvl.key: lvl.label for lvl in LEVELS}
MAP_TEXTS = {
    "Remove": gettext_noop("Mistrz Gry usuwa mapę."),
    "Paint": gettext_noop("Mistrz Gry maluje mapę."),
    "Resize": gettext_noop("Mistrz Gry ustawia rozmiar mapy."),
    "Look": gettext_noop("Mistrz Gry zmienia wygląd mapy."),
}
ACTION_LABELS = {
    "none": gettext_noop("bez akcji standardowej"),
    "attack": gettext_noop("atak"),
    "spell": gettext_noop("czar"),
    "test": gettext_noop("test"),
    "sustained": gettext_noop("działanie podtrzymywane"),
}
CHECK_LABELS = {
    "rownowaga": gettext_noop("Test równowagi"),
    "powalenie": gettext_noop("Atak by powalić: test równowagi"),
    "bron": gettext_noop("Utrzymanie broni"),
    "tarcza": gettext_noop("Strzaskanie tarczy"),
}

ITEM_KINDS = {
    "bron": gettext_noop("broń"),
    "tarcza": gettext_noop("tarcza"),
    "zbroja": gettext_noop("zbroja"),
}

# One msgid per case: a log line's params are shown as they are (not translated), so a
# label in a line is part of its msgid.
STRAIN_TEXTS = {
    "bieg": gettext_noop("%(name)s: Wyczerpanie %(points)s (Bieg), obrażenia +%(damage)s."),
    "agresywny_atak": gettext_noop(
        "%(name)s: Wyczerpanie %(points)s (Agresywny atak), obrażenia +%(damage)s."
    ),
    "oddawanie_pola": gettext_noop(
        "%(name)s: Wyczerpanie %(points)s (Oddawanie pola), obrażenia +%(damage)s."
    ),
    "przycelowanie": gettext_noop(
        "%(name)s: Wyczerpanie %(points)s (Przycelowanie), obrażenia +%(damage)s."
    ),
    "precyzyjny_atak": gettext_noop(
        "%(name)s: Wyczerpanie %(points)s (Precyzyjny atak), obrażenia +%(damage)s."
    ),
    "powstanie": gettext_noop(
        "%(name)s: Wyczerpanie %(points)s (Powstanie), obrażenia +%(damage)s."
    ),
    "strzaskanie_tarczy": gettext_noop(
        "%(name)s: Wyczerpanie %(points)s (Strzaskanie tarczy), obrażenia +%(damage)s."
    ),
    "ruch_dzielony": gettext_noop(
        "%(name)s: Wyczerpanie %(points)s (Ruch dzielony), obrażenia +%(damage)s."
    ),
    "zmiana_akcji": gettext_noop(
        "%(name)s: Wyczerpanie %(points)s (Zmiana akcji), obrażenia +%(damage)s."
    ),
    "unik": gettext_noop("%(name)s: Wyczerpanie %(points)s (Unik), obrażenia +%(damage)s."),
    "riposta": gettext_noop("%(name)s: Wyczerpanie %(points)s (Riposta), obrażenia +%(damage)s."),
}
ATTACK_TEXTS = {
    "pathetic": gettext_noop(
        "%(attacker)s atakuje: %(target)s (%(means)s), %(total)s vs %(dn)s — Żałosna porażka."
    ),
    "poor": gettext_noop(
        "%(attacker)s atakuje: %(target)s (%(means)s), %(total)s vs %(dn)s — Porażka."
    ),
    "average": gettext_noop(
        "%(attacker)s atakuje: %(target)s (%(means)s), %(total)s vs %(dn)s — Przeciętny sukces."
    ),
    "good": gettext_noop(
        "%(attacker)s atakuje: %(target)s (%(means)s), %(total)s vs %(dn)s — Duży sukces."
    ),
    "excellent": gettext_noop(
        "%(attacker)s atakuje: %(target)s (%(means)s), %(total)s vs %(dn)s — Ogromny sukces."
    ),
    "extraordinary": gettext_noop(
        "%(attacker)s atakuje: %(target)s (%(means)s), %(total)s vs %(dn)s — Nadzwyczajny sukces."
    ),
}
UNARMED_TEXTS = {
    "pathetic": gettext_noop(
        "%(attacker)s atakuje: %(target)s (bez broni), %(total)s vs %(dn)s — Żałosna porażka."
    ),
    "poor": gettext_noop(
        "%(attacker)s atakuje: %(target)s (bez broni), %(total)s vs %(dn)s — Porażka."
    ),
    "average": gettext_noop(
        "%(attacker)s atakuje: %(target)s (bez broni), %(total)s vs %(dn)s — Przeciętny sukces."
    ),
    "good": gettext_noop(
        "%(attacker)s atakuje: %(target)s (bez broni), %(total)s vs %(dn)s — Duży sukces."
    ),
    "excellent": gettext_noop(
        "%(attacker)s atakuje: %(target)s (bez broni), %(total)s vs %(dn)s — Ogromny sukces."
    ),
    "extraordinary": gettext_noop(
        "%(attacker)s atakuje: %(target)s (bez broni), %(total)s vs %(dn)s — Nadzwyczajny sukces."
    ),
}
CHANGED_TEXTS = {
    "none": gettext_noop("%(name)s zmienia akcję: bez akcji standardowej (+2 do trudności)."),
    "attack": gettext_noop("%(name)s zmienia akcję: atak (+2 do trudności)."),
    "spell": gettext_noop("%(name)s zmienia akcję: czar (+2 do trudności)."),
    "test": gettext_noop("%(name)s zmienia akcję: test (+2 do trudności)."),
    "sustained": gettext_noop("%(name)s zmienia akcję: działanie podtrzymywane (+2 do trudności)."),
}
DEFENCE_TEXTS = {
    ("unik", True): gettext_noop("%(name)s: Unik udany (%(total)s ≥ %(needed)s)."),
    ("unik", False): gettext_noop("%(name)s: Unik nieudany (%(total)s < %(needed)s)."),
    ("riposta", True): gettext_noop("%(name)s: Riposta udana (%(total)s ≥ %(needed)s)."),
    ("riposta", False): gettext_noop("%(name)s: Riposta nieudana (%(total)s < %(needed)s)."),
}
CHECK_TEXTS = {
    ("rownowaga", True): gettext_noop("%(name)s — Test równowagi: udany (%(total)s vs %(dn)s)."),
    ("rownowaga", False): gettext_noop(
        "%(name)s — Test równowagi: nieudany (%(total)s vs %(dn)s)."
    ),
    ("powalenie", True): gettext_noop(
        "%(name)s — Atak by powalić: test równowagi: udany (%(total)s vs %(dn)s)."
    ),
    ("powalenie", False): gettext_noop(
        "%(name)s — Atak by powalić: test równowagi: nieudany (%(total)s vs %(dn)s)."
    ),
    ("bron", True): gettext_noop("%(name)s — Utrzymanie broni: udany (%(total)s vs %(dn)s)."),
    ("bron", False): gettext_noop("%(name)s — Utrzymanie broni: nieudany (%(total)s vs %(dn)s)."),
    ("tarcza", True): gettext_noop("%(name)s — Strzaskanie tarczy: udany (%(total)s vs %(dn)s)."),
    ("tarcza", False): gettext_noop(
        "%(name)s — Strzaskanie tarczy: nieudany (%(total)s vs %(dn)s)."
    ),
}
CONDITION_TEXTS = {
    ("otoczony", True): gettext_noop("%(name)s: Otoczony."),
    ("otoczony", False): gettext_noop("%(name)s: koniec stanu Otoczony."),
    ("powalony", True): gettext_noop("%(name)s: Powalony."),
    ("powalony", False): gettext_noop("%(name)s: koniec stanu Powalony."),
    ("ogluszony", True): gettext_noop("%(name)s: Ogłuszony."),
    ("ogluszony", False): gettext_noop("%(name)s: koniec stanu Ogłuszony."),
    ("zaskoczony", True): gettext_noop("%(name)s: Zaskoczony."),
    ("zaskoczony", False): gettext_noop("%(name)s: koniec stanu Zaskoczony."),
    ("nieprzytomny", True): gettext_noop("%(name)s: Nieprzytomny."),
    ("nieprzytomny", False): gettext_noop("%(name)s: koniec stanu Nieprzytomny."),
    ("krwotok", True): gettext_noop("%(name)s: Krwotok."),
    ("krwotok", False): gettext_noop("%(name)s: koniec stanu Krwotok."),
    ("oderwana_konczyna", True): gettext_noop("%(name)s: Oderwana kończyna."),
    ("oderwana_konczyna", False): gettext_noop("%(name)s: koniec stanu Oderwana kończyna."),
}
BLED_TEXTS = {
    "krwotok": gettext_noop("%(name)s traci krew (Krwotok): %(damage)s obrażeń."),
    "oderwana_konczyna": gettext_noop(
        "%(name)s traci krew (Oderwana kończyna): %(damage)s obrażeń."
    ),
}

# A declaration's summary in parts: (msgid, params) pairs shown one after another, each in the
# viewer's language (`{% for t, p in parts %}{% tr t p %}{% endfor %}`). Labels (the action
# kind, a sustained action's example, the options) are msgids of their own; names, numbers and
# punctuation are the plain `TEXT` part.
TEXT = gettext_noop("%(text)s")
Part = tuple[str, dict[str, str | int]]


def declaration_parts(state: EncounterState, d: Declaration) -> tuple[Part, ...]:
    """A declaration in a few words, part by part: "atak", " (Miecz) → Ork", "; ",
    "Agresywny atak" (`declaration_text` joins them in Polish)."""
    if d.empty:
        return ((gettext_noop("brak deklaracji"), {}),)
    parts: list[Part] = [(ACTION_LABELS.get(d.action, d.action), {})]
    text = ""
    means = d.weapon or d.spell
    if means:
        text += f" ({means})"
    if d.target and d.target in state.combatants:
        text += f" → {state.get(d.target).name}"
    if d.action == "sustained":
        preset = sus.PRESET.get(d.preset)
        rounds = d.rounds or (preset.high if preset else 0)
        if d.note or preset is None:
            text += f" «{d.note}», {rounds}"
        else:
            parts += [(TEXT, {"text": text + " «"}), (preset.label, {})]
            text = f"», {rounds}"
    if d.move:
        text += f", {d.move} m"
    if d.simple:
        text += f", +{d.simple}"
    for i, key in enumerate(d.options):
        text += "; " if i == 0 else ", "
        parts += [(TEXT, {"text": text}), (opt.label(key), {})]
        text = ""
    if text:
        parts.append((TEXT, {"text": text}))
    return tuple(parts)


def declaration_param(state: EncounterState, d: Declaration) -> tuple[str, dict[str, Any]]:
    """A declaration as a text param (translated where it is shown), part by part."""
    parts = {f"p{i}": text_param(t, **p) for i, (t, p) in enumerate(declaration_parts(state, d))}
    return text_param("".join(f"%({key})s" for key in parts), **parts)


def declaration_text(state: EncounterState, d: Declaration) -> str:
    """A declaration in a few Polish words: "atak (Miecz) → Ork; Agresywny atak"."""
    return fill(*declaration_param(state, d))


# Events the log does not tell (bookkeeping): an undo restarting the deadlines.
SILENT: frozenset[type[Event]] = frozenset({DeadlinesMoved})


def describe(state: EncounterState, event: Event) -> LogLine | None:
    """The log line of `event` told against `state` (the state before it); None: silent."""
    if type(event) in SILENT:
        return None
    return NARRATORS[type(event)](state, event)


def _label(key: str) -> str:
    """A condition's rule word."""
    return cond.SPECS[key].label if key in cond.SPECS else key


# --- the GM and the map -----------------------------------------------------------------------


def _map_edited(state: EncounterState, e: MapEdited) -> LogLine:
    return line(MAP_TEXTS[type(e.edit).__name__], "gm", secret=True)


def _placed(state: EncounterState, e: CombatantPlaced) -> LogLine:
    name = name_of(state, e.combatant)
    if e.to is None:
        return line(gettext_noop("%(name)s schodzi z mapy."), "move", [e.combatant], name=name)
    text = gettext_noop("%(name)s staje na polu %(field)s.")
    return line(text, "move", [e.combatant], name=name, field=bm.label(e.to))


def _ground_given(state: EncounterState, e: GroundGiven) -> LogLine:
    text = gettext_noop("%(name)s oddaje pole: cofa się o %(n)s heksów na %(field)s.")
    return line(
        text, "move", [e.combatant], name=name_of(state, e.combatant), n=len(e.path) - 1,
        field=bm.label(e.path[-1]),
    )  # fmt: skip


def _health_edited(state: EncounterState, e: HealthEdited) -> LogLine:
    text = gettext_noop(
        "Mistrz Gry ustawia: %(name)s — obrażenia %(damage)s, ogłuszenie %(stun)s, Rany %(wounds)s."
    )
    return line(
        text, "gm", [e.target], secret=True, name=name_of(state, e.target),
        damage=e.damage, stun=e.stun, wounds=e.wounds,
    )  # fmt: skip


def _condition_added(state: EncounterState, e: ConditionAdded) -> LogLine:
    text = CONDITION_TEXTS.get((e.condition, True), gettext_noop("%(name)s: %(condition)s."))
    label = text_param(_label(e.condition))
    return line(text, "condition", [e.target], name=name_of(state, e.target), condition=label)


def _condition_removed(state: EncounterState, e: ConditionRemoved) -> LogLine:
    text = CONDITION_TEXTS.get(
        (e.condition, False), gettext_noop("%(name)s: koniec stanu %(condition)s.")
    )
    label = text_param(_label(e.condition))
    return line(text, "condition", [e.target], name=name_of(state, e.target), condition=label)


def _time_passed(state: EncounterState, e: TimePassed) -> LogLine:
    if e.night:
        return line(gettext_noop("Mija noc: całonocny odpoczynek."), "turn")
    return line(gettext_noop("Mija czas: %(seconds)s s."), "turn", seconds=e.seconds)


# --- rounds and turns -------------------------------------------------------------------------


def _combat_started(state: EncounterState, e: CombatStarted) -> LogLine:
    if e.surprised:
        who = ", ".join(name_of(state, c) for c in e.surprised)
        return line(gettext_noop("Walka się zaczyna. Zaskoczeni: %(names)s."), "turn", names=who)
    return line(gettext_noop("Walka się zaczyna."), "turn")


def _round_started(state: EncounterState, e: RoundStarted) -> LogLine:
    return line(gettext_noop("Runda %(n)s: deklaracje."), "turn", n=e.round)


def _round_ended(state: EncounterState, e: RoundEnded) -> LogLine:
    return line(gettext_noop("Koniec rundy %(n)s."), "turn", n=e.round)


def _announced(state: EncounterState, e: Announced) -> LogLine:
    text = gettext_noop("%(name)s zadeklarował(a).")
    return line(text, "declare", [e.combatant], name=name_of(state, e.combatant))


def _declared(state: EncounterState, e: Declared) -> LogLine:
    text = gettext_noop("Deklaracja: %(name)s — %(what)s.")
    what = declaration_param(state, e.declaration)
    name = name_of(state, e.combatant)
    return line(text, "declare", [e.combatant], secret=True, name=name, what=what)


def _initiative_rolled(state: EncounterState, e: InitiativeRolled) -> LogLine:
    text = gettext_noop("%(name)s: Inicjatywa %(total)s.")
    view = e.roll.view(gettext_noop("Inicjatywa"))
    name = name_of(state, e.combatant)
    return line(text, "roll", [e.combatant], rolls=(view,), name=name, total=e.roll.total)


def _initiative_set(state: EncounterState, e: InitiativeSet) -> LogLine:
    name = name_of(state, e.combatant)
    if e.rider:
        text = gettext_noop("%(name)s działa na Inicjatywie jeźdźca (%(rider)s): %(total)s.")
        rider = name_of(state, e.rider)
        return line(text, "roll", [e.combatant, e.rider], name=name, rider=rider, total=e.value)
    text = gettext_noop("%(name)s działa z opóźnienia: Inicjatywa %(total)s.")
    return line(text, "roll", [e.combatant], name=name, total=e.value)


def _order_set(state: EncounterState, e: OrderSet) -> LogLine:
    who = ", ".join(name_of(state, c) for c in e.order if not state.get(c).hidden)
    return line(gettext_noop("Kolejność: %(order)s."), "turn", order=who)


def _turn_began(state: EncounterState, e: TurnBegan) -> LogLine:
    name = name_of(state, e.combatant)
    if e.interrupting is not None:
        text = gettext_noop("%(name)s działa przed: %(other)s.")
        other = name_of(state, e.interrupting)
        return line(text, "turn", [e.combatant, e.interrupting], name=name, other=other)
    return line(gettext_noop("Działa: %(name)s."), "turn", [e.combatant], name=name)


def _turn_ended(state: EncounterState, e: TurnEnded) -> LogLine:
    text = gettext_noop("%(name)s kończy turę.")
    return line(text, "turn", [e.combatant], name=name_of(state, e.combatant))


def _held(state: EncounterState, e: Held) -> LogLine:
    text = gettext_noop("%(name)s powstrzymuje działanie: %(trigger)s.")
    name = name_of(state, e.combatant)
    return line(text, "turn", [e.combatant], name=name, trigger=e.trigger)


def _delayed(state: EncounterState, e: Delayed) -> LogLine:
    text = (
        gettext_noop("%(name)s opóźnia działanie do następnej rundy.")
        if e.next_round
        else gettext_noop("%(name)s opóźnia działanie.")
    )
    return line(text, "turn", [e.combatant], name=name_of(state, e.combatant))


# --- actions ----------------------------------------------------------------------------------


def _moved(state: EncounterState, e: Moved) -> LogLine:
    name = name_of(state, e.combatant)
    if e.path:
        text = (
            gettext_noop("%(name)s biegnie %(metres)s m na pole %(field)s.")
            if e.running
            else gettext_noop("%(name)s przemieszcza się o %(metres)s m na pole %(field)s.")
        )
        field = bm.label(e.path[-1])
        return line(text, "move", [e.combatant], name=name, metres=e.metres, field=field)
    text = (
        gettext_noop("%(name)s biegnie %(metres)s m.")
        if e.running
        else gettext_noop("%(name)s przemieszcza się o %(metres)s m.")
    )
    return line(text, "move", [e.combatant], name=name, metres=e.metres)


def _simple_acted(state: EncounterState, e: SimpleActed) -> LogLine:
    text = gettext_noop("%(name)s: akcje proste ×%(n)s %(note)s")
    name = name_of(state, e.combatant)
    return line(text, "action", [e.combatant], name=name, n=e.count, note=e.note)


def _action_used(state: EncounterState, e: ActionUsed) -> LogLine:
    text = gettext_noop("%(name)s: akcja standardowa %(note)s")
    return line(text, "action", [e.combatant], name=name_of(state, e.combatant), note=e.note)


def _action_changed(state: EncounterState, e: ActionChanged) -> LogLine:
    text = CHANGED_TEXTS.get(
        e.action, gettext_noop("%(name)s zmienia akcję: %(action)s (+2 do trudności).")
    )
    label = ACTION_LABELS.get(e.action, e.action)
    return line(text, "action", [e.combatant], name=name_of(state, e.combatant), action=label)


def _got_up(state: EncounterState, e: GotUp) -> LogLine:
    text = (
        gettext_noop("%(name)s wstaje (%(total)s vs %(dn)s).")
        if e.success
        else gettext_noop("%(name)s nie zdołał wstać (%(total)s vs %(dn)s).")
    )
    view = e.roll.view(opt.label(opt.POWSTANIE))
    return line(
        text, "roll", [e.combatant], rolls=(view,), name=name_of(state, e.combatant),
        total=e.roll.total, dn=e.dn,
    )  # fmt: skip


def _mount(state: EncounterState, e: Mounted | Dismounted) -> LogLine:
    text = (
        gettext_noop("%(name)s dosiada: %(mount)s.")
        if isinstance(e, Mounted)
        else gettext_noop("%(name)s zsiada: %(mount)s.")
    )
    return line(
        text, "move", [e.rider, e.mount], name=name_of(state, e.rider),
        mount=name_of(state, e.mount),
    )  # fmt: skip


def _item_damaged(state: EncounterState, e: ItemDamaged) -> LogLine:
    text = gettext_noop("%(name)s: uszkodzony przedmiot (%(what)s) — %(item)s.")
    label = ITEM_KINDS.get(e.kind, e.kind)
    name = name_of(state, e.combatant)
    return line(text, "damage", [e.combatant], name=name, item=e.item, what=label)


# --- sustained actions ------------------------------------------------------------------------


def _sustained_tested(state: EncounterState, e: SustainedTested) -> LogLine:
    text = (
        gettext_noop("%(name)s: test działania podtrzymywanego udany.")
        if e.success
        else gettext_noop("%(name)s: test działania podtrzymywanego nieudany.")
    )
    return line(text, "action", [e.combatant], name=name_of(state, e.combatant))


def _sustained_rolled(state: EncounterState, e: SustainedRolled) -> LogLine:
    text = (
        gettext_noop("%(name)s: test działania podtrzymywanego udany (%(total)s vs %(dn)s).")
        if e.passed
        else gettext_noop(
            "%(name)s: test działania podtrzymywanego nieudany (%(total)s vs %(dn)s)."
        )
    )
    view = e.roll.view(gettext_noop("Działanie podtrzymywane"))
    return line(
        text, "roll", [e.combatant], rolls=(view,), name=name_of(state, e.combatant),
        total=e.roll.total, dn=e.dn,
    )  # fmt: skip


def _sustained_check_set(state: EncounterState, e: SustainedCheckSet) -> LogLine:
    name = name_of(state, e.combatant)
    if not e.skill:
        text = gettext_noop("%(name)s: działanie podtrzymywane bez testu MG.")
        return line(text, "gm", [e.combatant], name=name)
    text = gettext_noop("%(name)s: MG wymaga testu %(skill)s vs %(dn)s co rundę.")
    return line(text, "gm", [e.combatant], name=name, skill=e.skill, dn=e.dn)


def _sustained_completed(state: EncounterState, e: SustainedCompleted) -> LogLine:
    text = gettext_noop("%(name)s kończy działanie podtrzymywane.")
    return line(text, "action", [e.combatant], name=name_of(state, e.combatant))


# --- rolls and harm ---------------------------------------------------------------------------


def _saddle(state: EncounterState, e: SaddleRolled) -> LogLine:
    text = (
        gettext_noop("%(name)s utrzymuje się w siodle (%(total)s vs %(dn)s).")
        if e.success
        else gettext_noop(
            "%(name)s spada z siodła (%(total)s vs %(dn)s): %(fall)s obrażeń, powalony."
        )
    )
    rolls: tuple[RollView, ...] = (e.roll.view(gettext_noop("Pewny dosiad")),)
    if e.fall is not None:
        rolls += (e.fall.view(gettext_noop("Upadek")),)
    return line(
        text, "roll", [e.rider], rolls=rolls, name=name_of(state, e.rider), total=e.roll.total,
        dn=e.dn, fall=e.fall.total if e.fall else 0,
    )  # fmt: skip


def _recovery(state: EncounterState, e: RecoveryTested) -> LogLine:
    text = (
        gettext_noop("%(name)s: test zdrowienia %(total)s — leczy %(healed)s ogłuszenia.")
        if e.heals == "stun"
        else gettext_noop("%(name)s: test zdrowienia %(total)s — leczy %(healed)s obrażeń.")
    )
    view = e.roll.view(gettext_noop("Test zdrowienia"))
    return line(
        text, "roll", [e.combatant], rolls=(view,), name=name_of(state, e.combatant),
        total=e.roll.total, healed=e.healed,
    )  # fmt: skip


def _wound_healed(state: EncounterState, e: WoundHealed) -> LogLine:
    text = gettext_noop("%(name)s: Rana wyleczona po całonocnym odpoczynku.")
    return line(text, "condition", [e.combatant], name=name_of(state, e.combatant))


def _bled(state: EncounterState, e: Bled) -> LogLine:
    text = BLED_TEXTS.get(
        e.cause, gettext_noop("%(name)s traci krew (%(cause)s): %(damage)s obrażeń.")
    )
    rolls = (e.roll.view(gettext_noop("Obrażenia")),) if e.roll else ()
    return line(
        text, "damage", [e.combatant], rolls=rolls, name=name_of(state, e.combatant),
        cause=_label(e.cause), damage=e.damage,
    )  # fmt: skip


def _defence(state: EncounterState, e: DefenceRolled) -> LogLine:
    text = (
        gettext_noop("%(name)s: %(talent)s udany (%(total)s ≥ %(needed)s).")
        if e.success
        else gettext_noop("%(name)s: %(talent)s nieudany (%(total)s < %(needed)s).")
    )
    talent = TALENT_LABELS.get(e.talent, e.talent)
    text = DEFENCE_TEXTS.get((e.talent, e.success), text)
    return line(
        text, "roll", [e.defender], rolls=(e.roll.view(talent),), name=name_of(state, e.defender),
        talent=talent, total=e.roll.total, needed=e.needed,
    )  # fmt: skip


def _prompt_closed(state: EncounterState, e: PromptClosed) -> LogLine | None:
    """Only an expiry is news: an answer is told by the roll it makes."""
    return line(gettext_noop("Czas na obronę minął."), "attack") if e.expired else None


def _sustained_round(state: EncounterState, e: SustainedAdvanced) -> LogLine | None:
    c = state.get(e.combatant)
    if (
        c.sustained is None
        or c.sustained.complete
        or (e.passed is None) != (c.sustained.test is None)
    ):
        return None  # not the state this event was decided in
    after = sus.advance(c.sustained, e.passed)
    text = gettext_noop("%(name)s: %(label)s — runda %(progress)s z %(rounds)s.")
    if e.passed is False and after.progress == c.sustained.progress:
        text = gettext_noop("%(name)s: %(label)s — runda bez postępu (%(progress)s z %(rounds)s).")
    return line(
        text, "action", [c.id], name=c.name, label=after.label, progress=after.progress,
        rounds=after.rounds,
    )  # fmt: skip


def _surprise_dn(state: EncounterState, e: SurpriseDifficulty) -> LogLine:
    parts = "; ".join(f"{reason} {value:+d}" for reason, value in e.modifiers) or "—"
    text = gettext_noop(
        "Test zaskoczenia strony %(side)s: trudność %(dn)s (%(source)s %(base)s; %(parts)s)."
    )
    rolls = tuple(roll.view(gettext_noop("Podkradanie się")) for _, roll in e.sneaks)
    return line(
        text, "gm", [cid for cid, _ in e.sneaks], rolls=rolls, secret=True, side=e.side, dn=e.dn,
        source=e.source, base=e.base, parts=parts,
    )  # fmt: skip


def _surprise(state: EncounterState, e: SurpriseRolled) -> LogLine:
    rolls: tuple[RollView, ...] = ()
    if e.roll is not None:
        rolls += (e.roll.view(gettext_noop("Test zaskoczenia")),)
    reason = e.reason  # surprise.NOTICED, SURPRISED, UNAWARE or WARNED
    damage = 0
    if e.brooch is not None:
        if e.brooch.roll is not None:
            rolls += (e.brooch.roll.view(gettext_noop("Brosza ostrzeżenia")),)
        damage = e.brooch.damage
    text = (
        gettext_noop("%(name)s jest zaskoczony: %(reason)s.")
        if e.surprised
        else gettext_noop("%(name)s nie daje się zaskoczyć: %(reason)s.")
    )
    if damage:
        text = gettext_noop(
            "%(name)s nie daje się zaskoczyć: %(reason)s (brosza zadaje %(damage)s obrażeń)."
        )
    return line(
        text, "roll", [e.combatant], rolls=rolls, name=name_of(state, e.combatant), reason=reason,
        damage=damage,
    )  # fmt: skip


def _impact(state: EncounterState, e: ImpactRolled) -> LogLine:
    if e.success:
        text = gettext_noop("%(name)s po szarży: utrzymuje się (%(total)s vs %(dn)s).")
    elif e.falls:
        text = gettext_noop(
            "%(name)s po szarży spada z konia (%(total)s vs %(dn)s): %(fall)s obrażeń."
        )
    else:
        text = gettext_noop("%(name)s po szarży traci broń (%(total)s vs %(dn)s).")
    rolls: tuple[RollView, ...] = (e.roll.view(gettext_noop("Test po szarży")),)
    if e.fall is not None:
        rolls += (e.fall.view(gettext_noop("Upadek")),)
    return line(
        text, "roll", [e.rider, e.target], rolls=rolls, name=name_of(state, e.rider),
        total=e.roll.total, dn=e.dn, fall=e.fall.total if e.fall else 0,
    )  # fmt: skip


def _strain(state: EncounterState, e: StrainPaid) -> LogLine:
    text = STRAIN_TEXTS.get(
        e.reason,
        gettext_noop("%(name)s: Wyczerpanie %(points)s (%(reason)s), obrażenia +%(damage)s."),
    )
    reason = (
        opt.label(e.reason) if e.reason in opt.OPTIONS else TALENT_LABELS.get(e.reason, e.reason)
    )
    secret = state.phase == "declare"
    return line(
        text, "damage", [e.combatant], secret=secret, name=name_of(state, e.combatant),
        points=e.points, reason=text_param(reason), damage=e.damage,
    )  # fmt: skip


def _revealed(state: EncounterState, e: Revealed) -> LogLine:
    parts = []
    for cid, c in state.combatants.items():
        if c.hidden:
            continue  # the reveal is public: a hidden combatant stays out of it
        if cid in e.defaulted:
            parts.append(f"{c.name}: {gettext_noop('brak deklaracji')}")
        elif c.declaration is not None:
            parts.append(f"{c.name}: {declaration_text(state, c.declaration)}")
    text = (
        gettext_noop("Czas minął. Deklaracje: %(all)s.")
        if e.expired
        else gettext_noop("Deklaracje: %(all)s.")
    )
    return line(text, "declare", [], all="; ".join(parts) or "—")


def _attack(state: EncounterState, e: AttackRolled) -> LogLine:
    level = LEVEL_LABELS.get(e.level, e.level)
    means = e.weapon or e.spell or gettext_noop("bez broni")
    texts = ATTACK_TEXTS if e.weapon or e.spell else UNARMED_TEXTS
    text = texts.get(
        e.level,
        gettext_noop(
            "%(attacker)s atakuje: %(target)s (%(means)s), %(total)s vs %(dn)s — %(level)s."
        ),
    )
    view = e.roll.view(gettext_noop("Atak"))
    return line(
        text, "attack", [e.attacker, e.target], rolls=(view,),
        attacker=name_of(state, e.attacker), target=name_of(state, e.target), means=means,
        total=e.roll.total, dn=e.dn, level=text_param(level),
    )  # fmt: skip


def _damage(state: EncounterState, e: DamageRolled) -> LogLine:
    target = state.get(e.target)
    after = target.damage + (e.dealt if e.kind == "damage" else 0)
    if e.kind == "stun":
        text = gettext_noop("%(name)s: %(dealt)s obrażeń ogłuszających.")
    elif e.kind == "none":
        text = gettext_noop("%(name)s: wynik obrażeń %(dealt)s (bez obrażeń).")
    elif target.death_rating and after >= target.death_rating:
        text = gettext_noop("%(name)s: %(dealt)s obrażeń — ginie.")
    elif target.unconsciousness_rating and after + target.stun >= target.unconsciousness_rating:
        text = gettext_noop("%(name)s: %(dealt)s obrażeń — traci przytomność.")
    elif e.wound:
        text = gettext_noop("%(name)s: %(dealt)s obrażeń i Rana.")
    else:
        text = gettext_noop("%(name)s: %(dealt)s obrażeń.")
    mods: list[tuple[str, int]] = []
    if e.armour:
        mods.append((gettext_noop("Pancerz"), -e.armour))
    view = e.roll.view(gettext_noop("Obrażenia"))
    view = RollView(
        view.label, view.dice, e.dealt, view.modifiers + tuple(mods), view.sides, view.summary
    )
    actors = [e.target, e.attacker]
    return line(text, "damage", actors, rolls=(view,), name=target.name, dealt=e.dealt)


def _check(state: EncounterState, e: CheckRolled) -> LogLine:
    label = CHECK_LABELS.get(e.kind, e.kind)
    text = (
        gettext_noop("%(name)s — %(check)s: udany (%(total)s vs %(dn)s).")
        if e.success
        else gettext_noop("%(name)s — %(check)s: nieudany (%(total)s vs %(dn)s).")
    )
    text = CHECK_TEXTS.get((e.kind, e.success), text)
    if e.result is not None:  # built on a roll another line shows: its faces once, there
        return line(
            text, "roll", [e.combatant], name=name_of(state, e.combatant), check=label,
            total=e.result, dn=e.dn,
        )  # fmt: skip
    view = e.roll.view(label)
    return line(
        text, "roll", [e.combatant], rolls=(view,), name=name_of(state, e.combatant), check=label,
        total=e.roll.total, dn=e.dn,
    )  # fmt: skip


NARRATORS: dict[type[Event], Narrator] = {
    Joined: vocabulary.joined,
    HiddenSet: vocabulary.hidden_set,
    StatsRevealed: vocabulary.stats_revealed,
    CombatEnded: vocabulary.combat_ended,
    MapEdited: _map_edited,
    CombatantPlaced: _placed,
    GroundGiven: _ground_given,
    HealthEdited: _health_edited,
    ConditionAdded: _condition_added,
    ConditionRemoved: _condition_removed,
    TimePassed: _time_passed,
    CombatStarted: _combat_started,
    RoundStarted: _round_started,
    RoundEnded: _round_ended,
    Announced: _announced,
    Declared: _declared,
    StrainPaid: _strain,
    Revealed: _revealed,
    InitiativeRolled: _initiative_rolled,
    InitiativeSet: _initiative_set,
    OrderSet: _order_set,
    TurnBegan: _turn_began,
    TurnEnded: _turn_ended,
    Held: _held,
    Delayed: _delayed,
    Moved: _moved,
    SimpleActed: _simple_acted,
    ActionUsed: _action_used,
    ActionChanged: _action_changed,
    GotUp: _got_up,
    Mounted: _mount,
    Dismounted: _mount,
    ItemDamaged: _item_damaged,
    SustainedTested: _sustained_tested,
    SustainedRolled: _sustained_rolled,
    SustainedAdvanced: _sustained_round,
    SustainedCheckSet: _sustained_check_set,
    SustainedCompleted: _sustained_completed,
    SurpriseDifficulty: _surprise_dn,
    SurpriseRolled: _surprise,
    ImpactRolled: _impact,
    SaddleRolled: _saddle,
    RecoveryTested: _recovery,
    WoundHealed: _wound_healed,
    Bled: _bled,
    AttackRolled: _attack,
    DefenceRolled: _defence,
    PromptClosed: _prompt_closed,
    DamageRolled: _damage,
    CheckRolled: _check,
}
