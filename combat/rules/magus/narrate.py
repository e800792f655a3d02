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


def describe(state: EncounterState, event: Event) -> LogLine | None:  # noqa: C901 - a dispatch
    names = {cid: c.name for cid, c in state.combatants.items()}
    match event:
        case Joined() | HiddenSet() | StatsRevealed() | CombatEnded():
            return vocabulary.describe(state, event)
        case MapEdited(edit=edit):
            return _line(MAP_TEXTS[type(edit).__name__], "gm", [], secret=True)
        case CombatantPlaced(combatant=cid, to=to):
            if to is None:
                text = gettext_noop("%(name)s schodzi z mapy.")
                return _line(text, "move", [cid], name=names[cid])
            text = gettext_noop("%(name)s staje na polu %(field)s.")
            return _line(text, "move", [cid], name=names[cid], field=bm.label(to))
        case GroundGiven(combatant=cid, path=path):
            return _line(
                gettext_noop("%(name)s oddaje pole: cofa się o %(n)s heksów na %(field)s."),
                "move", [cid], name=names[cid], n=len(path) - 1, field=bm.label(path[-1]),
            )  # fmt: skip
        case CombatStarted(surprised=surprised):
            if surprised:
                who = ", ".join(names[c] for c in surprised)
                text = gettext_noop("Walka się zaczyna. Zaskoczeni: %(names)s.")
                return _line(text, "turn", [], names=who)
            return _line(gettext_noop("Walka się zaczyna."), "turn", [])
        case HealthEdited():
            text = gettext_noop(
                "Mistrz Gry ustawia: %(name)s — obrażenia %(damage)s, ogłuszenie %(stun)s,"
                " Rany %(wounds)s."
            )
            return _line(
                text, "gm", [event.target], secret=True, name=names[event.target],
                damage=event.damage, stun=event.stun, wounds=event.wounds,
            )  # fmt: skip
        case ConditionAdded(target=t, condition=key):
            label = cond.SPECS[key].label if key in cond.SPECS else key
            text = CONDITION_TEXTS.get((key, True), gettext_noop("%(name)s: %(condition)s."))
            return _line(text, "condition", [t], name=names[t], condition=text_param(label))
        case ConditionRemoved(target=t, condition=key):
            label = cond.SPECS[key].label if key in cond.SPECS else key
            text = CONDITION_TEXTS.get(
                (key, False), gettext_noop("%(name)s: koniec stanu %(condition)s.")
            )
            return _line(text, "condition", [t], name=names[t], condition=text_param(label))
        case RoundStarted(round=n):
            return _line(gettext_noop("Runda %(n)s: deklaracje."), "turn", [], n=n)
        case Announced(combatant=cid):
            return _line(
                gettext_noop("%(name)s zadeklarował(a)."), "declare", [cid], name=names[cid]
            )
        case Declared(combatant=cid, declaration=d):
            text = gettext_noop("Deklaracja: %(name)s — %(what)s.")
            what = declaration_param(state, d)
            return _line(text, "declare", [cid], secret=True, name=names[cid], what=what)
        case StrainPaid():
            return _strain(state, names, event)
        case Revealed():
            return _revealed(state, event)
        case InitiativeRolled(combatant=cid, roll=roll):
            text = gettext_noop("%(name)s: Inicjatywa %(total)s.")
            view = roll.view(gettext_noop("Inicjatywa"))
            return _line(text, "roll", [cid], rolls=(view,), name=names[cid], total=roll.total)
        case InitiativeSet(combatant=cid, value=value, rider=rider) if rider:
            text = gettext_noop("%(name)s działa na Inicjatywie jeźdźca (%(rider)s): %(total)s.")
            return _line(
                text, "roll", [cid, rider], name=names[cid], rider=names[rider], total=value
            )
        case InitiativeSet(combatant=cid, value=value):
            text = gettext_noop("%(name)s działa z opóźnienia: Inicjatywa %(total)s.")
            return _line(text, "roll", [cid], name=names[cid], total=value)
        case OrderSet(order=order):
            who = ", ".join(names[c] for c in order if not state.get(c).hidden)
            return _line(gettext_noop("Kolejność: %(order)s."), "turn", [], order=who)
        case TurnBegan(combatant=cid, interrupting=other) if other is not None:
            text = gettext_noop("%(name)s działa przed: %(other)s.")
            return _line(text, "turn", [cid, other], name=names[cid], other=names[other])
        case TurnBegan(combatant=cid):
            return _line(gettext_noop("Działa: %(name)s."), "turn", [cid], name=names[cid])
        case TurnEnded(combatant=cid):
            return _line(gettext_noop("%(name)s kończy turę."), "turn", [cid], name=names[cid])
        case Held(combatant=cid, trigger=trigger):
            text = gettext_noop("%(name)s powstrzymuje działanie: %(trigger)s.")
            return _line(text, "turn", [cid], name=names[cid], trigger=trigger)
        case Delayed(combatant=cid, next_round=True):
            text = gettext_noop("%(name)s opóźnia działanie do następnej rundy.")
            return _line(text, "turn", [cid], name=names[cid])
        case Delayed(combatant=cid):
            return _line(
                gettext_noop("%(name)s opóźnia działanie."), "turn", [cid], name=names[cid]
            )
        case Moved(combatant=cid, metres=m, running=running, path=path) if path:
            text = (
                gettext_noop("%(name)s biegnie %(metres)s m na pole %(field)s.")
                if running
                else gettext_noop("%(name)s przemieszcza się o %(metres)s m na pole %(field)s.")
            )
            return _line(text, "move", [cid], name=names[cid], metres=m, field=bm.label(path[-1]))
        case Moved(combatant=cid, metres=m, running=running):
            text = (
                gettext_noop("%(name)s biegnie %(metres)s m.")
                if running
                else gettext_noop("%(name)s przemieszcza się o %(metres)s m.")
            )
            return _line(text, "move", [cid], name=names[cid], metres=m)
        case SimpleActed(combatant=cid, count=n, note=note):
            text = gettext_noop("%(name)s: akcje proste ×%(n)s %(note)s")
            return _line(text, "action", [cid], name=names[cid], n=n, note=note)
        case ActionUsed(combatant=cid, note=note):
            text = gettext_noop("%(name)s: akcja standardowa %(note)s")
            return _line(text, "action", [cid], name=names[cid], note=note)
        case ActionChanged(combatant=cid, action=action):
            text = CHANGED_TEXTS.get(
                action, gettext_noop("%(name)s zmienia akcję: %(action)s (+2 do trudności).")
            )
            label = ACTION_LABELS.get(action, action)
            return _line(text, "action", [cid], name=names[cid], action=label)
        case GotUp(combatant=cid, roll=roll, success=success):
            text = (
                gettext_noop("%(name)s wstaje (%(total)s vs %(dn)s).")
                if success
                else gettext_noop("%(name)s nie zdołał wstać (%(total)s vs %(dn)s).")
            )
            view = roll.view(opt.label(opt.POWSTANIE))
            return _line(
                text, "roll", [cid], rolls=(view,), name=names[cid], total=roll.total, dn=event.dn
            )
        case SustainedTested(combatant=cid, success=success):
            text = (
                gettext_noop("%(name)s: test działania podtrzymywanego udany.")
                if success
                else gettext_noop("%(name)s: test działania podtrzymywanego nieudany.")
            )
            return _line(text, "action", [cid], name=names[cid])
        case SustainedRolled(combatant=cid, roll=roll, passed=passed):
            text = (
                gettext_noop(
                    "%(name)s: test działania podtrzymywanego udany (%(total)s vs %(dn)s)."
                )
                if passed
                else gettext_noop(
                    "%(name)s: test działania podtrzymywanego nieudany (%(total)s vs %(dn)s)."
                )
            )
            view = roll.view(gettext_noop("Działanie podtrzymywane"))
            return _line(
                text, "roll", [cid], rolls=(view,), name=names[cid], total=roll.total, dn=event.dn
            )
        case SustainedAdvanced(combatant=cid):
            return _sustained_round(state, names, event)
        case SustainedCheckSet(combatant=cid, skill=skill, dn=dn):
            if not skill:
                text = gettext_noop("%(name)s: działanie podtrzymywane bez testu MG.")
                return _line(text, "gm", [cid], name=names[cid])
            text = gettext_noop("%(name)s: MG wymaga testu %(skill)s vs %(dn)s co rundę.")
            return _line(text, "gm", [cid], name=names[cid], skill=skill, dn=dn)
        case SurpriseDifficulty():
            return _surprise_dn(event)
        case SurpriseRolled():
            return _surprise(names, event)
        case Mounted(rider=rider, mount=mount):
            text = gettext_noop("%(name)s dosiada: %(mount)s.")
            return _line(text, "move", [rider, mount], name=names[rider], mount=names[mount])
        case Dismounted(rider=rider, mount=mount):
            text = gettext_noop("%(name)s zsiada: %(mount)s.")
            return _line(text, "move", [rider, mount], name=names[rider], mount=names[mount])
        case ImpactRolled():
            return _impact(names, event)
        case SaddleRolled(rider=rider, roll=roll, dn=dn, success=success, fall=fall):
            text = (
                gettext_noop("%(name)s utrzymuje się w siodle (%(total)s vs %(dn)s).")
                if success
                else gettext_noop(
                    "%(name)s spada z siodła (%(total)s vs %(dn)s): %(fall)s obrażeń, powalony."
                )
            )
            rolls: tuple[RollView, ...] = (roll.view(gettext_noop("Pewny dosiad")),)
            if fall is not None:
                rolls += (fall.view(gettext_noop("Upadek")),)
            return _line(
                text, "roll", [rider], rolls=rolls, name=names[rider], total=roll.total, dn=dn,
                fall=fall.total if fall else 0,
            )  # fmt: skip
        case RecoveryTested(combatant=cid, heals=heals, roll=roll, healed=healed):
            text = (
                gettext_noop("%(name)s: test zdrowienia %(total)s — leczy %(healed)s ogłuszenia.")
                if heals == "stun"
                else gettext_noop("%(name)s: test zdrowienia %(total)s — leczy %(healed)s obrażeń.")
            )
            view = roll.view(gettext_noop("Test zdrowienia"))
            return _line(
                text, "roll", [cid], rolls=(view,), name=names[cid], total=roll.total,
                healed=healed,
            )  # fmt: skip
        case WoundHealed(combatant=cid):
            text = gettext_noop("%(name)s: Rana wyleczona po całonocnym odpoczynku.")
            return _line(text, "condition", [cid], name=names[cid])
        case TimePassed(night=True):
            return _line(gettext_noop("Mija noc: całonocny odpoczynek."), "turn", [])
        case TimePassed(seconds=seconds):
            text = gettext_noop("Mija czas: %(seconds)s s.")
            return _line(text, "turn", [], seconds=seconds)
        case SustainedCompleted(combatant=cid):
            text = gettext_noop("%(name)s kończy działanie podtrzymywane.")
            return _line(text, "action", [cid], name=names[cid])
        case Bled(combatant=cid, cause=cause, damage=damage, roll=roll):
            label = cond.SPECS[cause].label if cause in cond.SPECS else cause
            text = BLED_TEXTS.get(
                cause, gettext_noop("%(name)s traci krew (%(cause)s): %(damage)s obrażeń.")
            )
            rolls = (roll.view(gettext_noop("Obrażenia")),) if roll else ()
            return _line(
                text, "damage", [cid], rolls=rolls, name=names[cid], cause=label, damage=damage
            )
        case RoundEnded(round=n):
            return _line(gettext_noop("Koniec rundy %(n)s."), "turn", [], n=n)
        case AttackRolled():
            return _attack(state, names, event)
        case DefenceRolled():
            text = (
                gettext_noop("%(name)s: %(talent)s udany (%(total)s ≥ %(needed)s).")
                if event.success
                else gettext_noop("%(name)s: %(talent)s nieudany (%(total)s < %(needed)s).")
            )
            talent = TALENT_LABELS.get(event.talent, event.talent)
            text = DEFENCE_TEXTS.get((event.talent, event.success), text)
            view = event.roll.view(talent)
            return _line(
                text, "roll", [event.defender], rolls=(view,), name=names[event.defender],
                talent=talent, total=event.roll.total, needed=event.needed,
            )  # fmt: skip
        case PromptClosed(expired=True):
            return _line(gettext_noop("Czas na obronę minął."), "attack", [])
        case PromptClosed():
            return None
        case DamageRolled():
            return _damage(state, names, event)
        case CheckRolled():
            return _check(names, event)
        case ItemDamaged(combatant=cid, item=item, kind=kind):
            text = gettext_noop("%(name)s: uszkodzony przedmiot (%(what)s) — %(item)s.")
            label = ITEM_KINDS.get(kind, kind)
            return _line(text, "damage", [cid], name=names[cid], item=item, what=label)
    return None


def _sustained_round(
    state: EncounterState, names: dict[str, str], e: SustainedAdvanced
) -> LogLine | None:
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
    return _line(
        text, "action", [c.id], name=names[c.id], label=after.label, progress=after.progress,
        rounds=after.rounds,
    )  # fmt: skip


def _surprise_dn(e: SurpriseDifficulty) -> LogLine:
    parts = "; ".join(f"{reason} {value:+d}" for reason, value in e.modifiers) or "—"
    text = gettext_noop(
        "Test zaskoczenia strony %(side)s: trudność %(dn)s (%(source)s %(base)s; %(parts)s)."
    )
    rolls = tuple(roll.view(gettext_noop("Podkradanie się")) for _, roll in e.sneaks)
    return _line(
        text, "gm", [cid for cid, _ in e.sneaks], rolls=rolls, secret=True, side=e.side, dn=e.dn,
        source=e.source, base=e.base, parts=parts,
    )  # fmt: skip


def _surprise(names: dict[str, str], e: SurpriseRolled) -> LogLine:
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
    return _line(
        text, "roll", [e.combatant], rolls=rolls, name=names[e.combatant], reason=reason,
        damage=damage,
    )  # fmt: skip


def _impact(names: dict[str, str], e: ImpactRolled) -> LogLine:
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
    return _line(
        text, "roll", [e.rider, e.target], rolls=rolls, name=names[e.rider], total=e.roll.total,
        dn=e.dn, fall=e.fall.total if e.fall else 0,
    )  # fmt: skip


def _strain(state: EncounterState, names: dict[str, str], e: StrainPaid) -> LogLine:
    text = STRAIN_TEXTS.get(
        e.reason,
        gettext_noop("%(name)s: Wyczerpanie %(points)s (%(reason)s), obrażenia +%(damage)s."),
    )
    reason = (
        opt.label(e.reason) if e.reason in opt.OPTIONS else TALENT_LABELS.get(e.reason, e.reason)
    )
    secret = state.phase == "declare"
    return _line(
        text, "damage", [e.combatant], secret=secret, name=names[e.combatant],
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
    return _line(text, "declare", [], all="; ".join(parts) or "—")


def _attack(state: EncounterState, names: dict[str, str], e: AttackRolled) -> LogLine:
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
    return _line(
        text, "attack", [e.attacker, e.target], rolls=(view,), attacker=names[e.attacker],
        target=names[e.target], means=means, total=e.roll.total, dn=e.dn, level=text_param(level),
    )  # fmt: skip


def _damage(state: EncounterState, names: dict[str, str], e: DamageRolled) -> LogLine:
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
    return _line(
        text, "damage", [e.target, e.attacker], rolls=(view,), name=names[e.target], dealt=e.dealt
    )


def _check(names: dict[str, str], e: CheckRolled) -> LogLine:
    label = CHECK_LABELS.get(e.kind, e.kind)
    text = (
        gettext_noop("%(name)s — %(check)s: udany (%(total)s vs %(dn)s).")
        if e.success
        else gettext_noop("%(name)s — %(check)s: nieudany (%(total)s vs %(dn)s).")
    )
    text = CHECK_TEXTS.get((e.kind, e.success), text)
    if e.result is not None:  # built on a roll another line shows: its faces once, there
        return _line(
            text, "roll", [e.combatant], name=names[e.combatant], check=label,
            total=e.result, dn=e.dn,
        )  # fmt: skip
    view = e.roll.view(label)
    return _line(
        text, "roll", [e.combatant], rolls=(view,), name=names[e.combatant], check=label,
        total=e.roll.total, dn=e.dn,
    )  # fmt: skip


def _line(
    text: str,
    kind: str,
    actors: list[str],
    *,
    rolls: tuple[RollView, ...] = (),
    secret: bool = False,
    **params: Any,
) -> LogLine:
    return LogLine(text, params, kind, tuple(actors), rolls, secret)
