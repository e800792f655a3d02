"""The d100 log: one `LogLine` per event, told against the state BEFORE it.

Every d100 test is one `RollView` (`test_view`: the attribute and its value first, then the
modifiers as built, the cap's correction last; the summary "próg · OoP · level"); the GM's
d6/d2 of the crit tables are RollViews of 6 or 2 sides telling what they gave.

Who sees what: the GM's own bookkeeping (hiding, revealing numbers) and secret GM rolls are
secret lines; a by-post turn's posts are secret while `posts_hidden` until the turn resolves
(the poster's player sees their own post on their turn panel; `PostsRevealed` then tells
everyone every post). A PŻ count after a blow is told as numbers only for a combatant whose
numbers the players see (a player's character, or one the GM revealed); for the others the
wound level a player sees on its card.

Names and numbers are params; a few rule words the engine chose (a condition's label, a
standing) are params too and stay Polish, as the README says.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from combat.rules import battlemap, vocabulary
from combat.rules.base import (
    LogLine,
    Quote,
    RollView,
    RuleViolation,
    fill,
    gettext_noop,
    text_param,
)
from combat.rules.d100 import conditions as cond
from combat.rules.d100 import crits
from combat.rules.d100.check import LEVEL_LABELS, TestRoll
from combat.rules.d100.engine.common import default_choice
from combat.rules.d100.equipment import attack_profile
from combat.rules.d100.events import (
    Applied,
    AttackDeclared,
    AttackResolved,
    Bled,
    CombatEnded,
    CombatStarted,
    ConditionAdded,
    ConditionRemoved,
    CritRoll,
    Damaged,
    DeadlineSet,
    DeadlinesMoved,
    Event,
    FallenDecided,
    FallRolled,
    FreeActed,
    FullActed,
    GMRolled,
    Harm,
    Healed,
    HiddenSet,
    Joined,
    MapEdited,
    Moved,
    OrderSet,
    PaceSet,
    Placed,
    Posted,
    PostingClosed,
    PostSkipped,
    PostsRevealed,
    PromptClosed,
    RestDeclared,
    RestResolved,
    SpellResolved,
    StatsRevealed,
    Summoned,
    Transformed,
    TurnBegan,
    TurnClosed,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
    Vanished,
)
from combat.rules.d100.settings import ATTRIBUTES, SKILLS
from combat.rules.d100.state import Action, Combatant, Effect, EncounterState, Post
from combat.rules.narration import Narrator, line, name_of
from combat.rules.records import replace

# Events the log does not tell (bookkeeping): an undo restarting the deadlines.
SILENT: frozenset[type[Event]] = frozenset({DeadlinesMoved})

STAT_LABELS: dict[str, str] = {**dict(ATTRIBUTES), **dict(SKILLS)}
THRESHOLD = gettext_noop("Próg")
CAPPED = gettext_noop("Limit modyfikatorów")
SUMMARY = gettext_noop("próg %(threshold)s · OoP %(oop)s · %(level)s")
CRIT_LABELS = {
    crits.HIT_LUCK: gettext_noop("Krytyczne szczęście: Trafienie (k6 MG)"),
    crits.HIT_BAD: gettext_noop("Krytyczny pech: Trafienie (k2 MG)"),
    crits.DEFENCE_LUCK: gettext_noop("Krytyczne szczęście: obrona (k2 MG)"),
    crits.DEFENCE_BAD: gettext_noop("Krytyczny pech: obrona (k2 MG)"),
}
CRIT_SUMMARY = gettext_noop("→ %(effect)s")
FALL_SUMMARY = gettext_noop("%(percent)s%% maks. PŻ")
DEFENCE_LABELS = {"unik": gettext_noop("Unik"), "blok": gettext_noop("Blok")}
POST_DEFENCES = {
    "unik": gettext_noop("Unik"),
    "blok": gettext_noop("Blok"),
    "": gettext_noop("bez obrony"),
    "best": gettext_noop("najlepsza obrona"),
}

# Wound levels by the share of PŻ left (spec: bez_ran 100%, drasniety ≥ 75, ranny ≥ 50,
# ciezko_ranny ≥ 25, ledwo_zywy > 0), then the standings of one out of the fight.
WOUND_LEVELS: dict[str, str] = {
    "bez_ran": gettext_noop("Bez ran"),
    "drasniety": gettext_noop("Draśnięty"),
    "ranny": gettext_noop("Ranny"),
    "ciezko_ranny": gettext_noop("Ciężko ranny"),
    "ledwo_zywy": gettext_noop("Ledwo żywy"),
    "nieprzytomny": gettext_noop("Nieprzytomny"),
    "martwy": gettext_noop("Martwy"),
}
STANDINGS: dict[str, str] = {
    "nieprzytomny": gettext_noop("traci przytomność"),
    "pokonany": gettext_noop("pada (decyzja MG)"),
    "martwy": gettext_noop("ginie"),
}


def wound_level(pz: int, max_pz: int, status: str = "") -> str:
    """The wound level key of a combatant with `pz` of `max_pz` PŻ in this standing."""
    if status == "martwy":
        return "martwy"
    if status or pz <= 0:
        return "nieprzytomny"
    share = pz * 100 / max_pz if max_pz else 0.0
    if share >= 100:
        return "bez_ran"
    if share >= 75:
        return "drasniety"
    if share >= 50:
        return "ranny"
    if share >= 25:
        return "ciezko_ranny"
    return "ledwo_zywy"


# --- rolls ------------------------------------------------------------------------------------


def test_view(test: TestRoll) -> RollView:
    """One d100 test as the log shows it: the attribute and its value, then the modifiers as
    built (and the cap's correction when the cap held them), the level in the summary."""
    first = (STAT_LABELS.get(test.attribute, THRESHOLD) if test.attribute else THRESHOLD, test.base)
    modifiers = (first, *test.modifiers)
    built = sum(value for _reason, value in test.modifiers)
    if built != test.modifier:
        modifiers += ((CAPPED, test.modifier - built),)
    return RollView(
        label=test.label,
        dice=(test.roll,),
        result=test.roll,
        modifiers=modifiers,
        sides=100,
        summary=SUMMARY,
        summary_params={
            "threshold": test.threshold,
            "oop": test.oop,
            "level": text_param(LEVEL_LABELS.get(test.level, test.level)),
        },
    )


test_view.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


def crit_view(crit: CritRoll) -> RollView:
    """The GM's d6 or d2 of a crit table and the effect it gave."""
    return RollView(
        label=CRIT_LABELS.get(crit.table, crit.table),
        dice=(crit.roll,),
        result=crit.roll,
        sides=crit.sides,
        summary=CRIT_SUMMARY,
        summary_params={"effect": crits.EFFECT_LABELS.get(crit.effect, crit.effect)},
    )


def _views(*items: TestRoll | CritRoll | None) -> tuple[RollView, ...]:
    out: list[RollView] = []
    for item in items:
        if isinstance(item, TestRoll):
            out.append(test_view(item))
        elif isinstance(item, CritRoll):
            out.append(crit_view(item))
    return tuple(out)


# --- words ------------------------------------------------------------------------------------


def shows_numbers(c: Combatant) -> bool:
    """Whether the players see this combatant's PŻ as numbers (`combat.access.Sight.seat`)."""
    return c.controller is not None or c.revealed


def left_text(c: Combatant, pz: int, status: str = "") -> str:
    """What is left of `c` after a change: "34/60 PŻ" where the players see its numbers, its
    wound level word otherwise (the GM reads the numbers on its card)."""
    status = status or c.status
    if shows_numbers(c) and status != "martwy":
        return f"{pz}/{c.max_pz} PŻ"
    return WOUND_LEVELS[wound_level(pz, c.max_pz, status)]


def turns_text(effect: Effect) -> str:
    """When an effect acts: "tura 3", "tury 3–4", "do odwołania" (Polish rule words)."""
    if effect.until == 0:
        return fill(gettext_noop("od tury %(start)s do odwołania"), {"start": effect.start})
    if effect.until == effect.start:
        return fill(gettext_noop("tura %(start)s"), {"start": effect.start})
    return fill(
        gettext_noop("tury %(start)s–%(until)s"), {"start": effect.start, "until": effect.until}
    )


def effect_label(effect: Effect) -> str:
    """A condition's rule word, a modifier as "krytyczne szczęście: +5 do Trafienia", a spell's
    effect as its name."""
    if effect.key == cond.MODYFIKATOR:
        roll = cond.ROLL_LABELS.get(effect.roll, effect.roll)
        reason = effect.label or cond.SPECS[cond.MODYFIKATOR].label
        return f"{reason}: {effect.value:+d} do {roll}"
    if effect.key == cond.CZAR:
        return effect.label or cond.SPECS[cond.CZAR].label
    spec = cond.SPECS.get(effect.key)
    label = spec.label if spec else effect.key
    if effect.key == cond.KRWAWIENIE and effect.value:
        return f"{label} ({effect.value} PŻ)"
    if effect.key == cond.ZACHWIANIE and effect.value:
        return f"{label} (−{effect.value})"
    return label


def _applied_texts(state: EncounterState, applied: Iterable[Applied]) -> list[str]:
    return [
        f"{name_of(state, a.target)}: {effect_label(a.effect)} ({turns_text(a.effect)})"
        for a in applied
    ]


def _harm_texts(state: EncounterState, harms: Iterable[Harm], main: str | None) -> list[str]:
    """What blows did besides the main one's PŻ (told in the line itself): Urazy, standings,
    and the PŻ of any other harm (crit bad luck on oneself)."""
    out: list[str] = []
    for h in harms:
        c = state.combatants.get(h.target)
        if c is None:
            continue
        if h.target != main and h.amount:
            out.append(f"{c.name}: −{h.amount} PŻ ({left_text(c, c.pz - h.amount, h.down)})")
        if h.injuries:
            word = "Uraz" if h.injuries == 1 else f"Urazy ×{h.injuries}"
            out.append(f"{c.name}: {word}")
        if h.down:
            out.append(f"{c.name} {STANDINGS.get(h.down, h.down)}")
    return out


def means_of(state: EncounterState, attacker: str, choice: str, spell: int = -1) -> str:
    """What an attack is made with: the spell's or weapon's name, claws, bare hands."""
    c = state.combatants.get(attacker)
    if c is None:
        return choice
    if spell >= 0:
        spells = c.spells
        return str(spells[spell].get("name", "")) if spell < len(spells) else str(spell)
    choice = choice or default_choice(state, c)
    try:
        profile = attack_profile(c.sheet, choice, state.settings, transformed=c.transformed)
    except RuleViolation:  # a name only: a choice the sheet cannot make is shown as it is
        return choice
    return profile.label


Part = tuple[str, Mapping[str, Any]]
TEXT = gettext_noop("%(text)s")


def action_parts(state: EncounterState, actor: str, action: Action) -> tuple[Part, ...]:
    """A structured action in a few words, as (msgid, params) parts: "atak → Ork (Szabla)"."""
    target = name_of(state, action.target) if action.target else ""
    if action.kind == "attack":
        means = means_of(state, actor, action.choice)
        return (
            (
                gettext_noop("atak → %(target)s (%(means)s)"),
                {"target": target, "means": text_param(means)},
            ),
        )
    if action.kind == "cast":
        spell = means_of(state, actor, "", action.spell)
        if action.target:
            return (
                (gettext_noop("czar %(spell)s → %(target)s"), {"spell": spell, "target": target}),
            )
        return ((gettext_noop("czar %(spell)s"), {"spell": spell}),)
    if action.kind == "rest":
        return ((gettext_noop("Odpoczynek"), {}),)
    if action.kind == "transform":
        return ((gettext_noop("Przemiana"), {}),)
    if action.kind == "full":
        return ((gettext_noop("akcja pełna: %(note)s"), {"note": action.note}),)
    return ((gettext_noop("bez akcji pełnej"), {}),)


def action_text(state: EncounterState, actor: str, action: Action) -> str:
    """`action_parts` in Polish."""
    return "".join(fill(t, p) for t, p in action_parts(state, actor, action))


def post_param(state: EncounterState, post: Post) -> tuple[str, dict[str, Any]]:
    """A post in a few words, as a text param (translated where it is shown): its action and
    its defence."""
    parts = action_parts(state, post.actor, post.action)
    what = {f"p{i}": text_param(t, **p) for i, (t, p) in enumerate(parts)}
    return text_param(
        gettext_noop("%(what)s; obrona: %(defence)s"),
        what=text_param("".join(f"%({key})s" for key in what), **what),
        defence=text_param(POST_DEFENCES.get(post.defence, post.defence)),
    )


# --- the dispatch -----------------------------------------------------------------------------


def describe(state: EncounterState, event: Event) -> LogLine | None:
    """The log line of `event` told against `state` (the state before it); None: silent."""
    if type(event) in SILENT:
        return None
    return NARRATORS[type(event)](state, event)


def _combat_started(state: EncounterState, e: CombatStarted) -> LogLine:
    if e.pace == "post":
        return line(gettext_noop("Walka się zaczyna: tury przez posty."), "turn")
    return line(gettext_noop("Walka się zaczyna."), "turn")


def _order_set(state: EncounterState, e: OrderSet) -> LogLine:
    seen = [c for c in e.order if c in state.combatants and not state.get(c).hidden]
    text = (
        gettext_noop("Mistrz Gry ustala kolejność: %(order)s.")
        if e.fixed
        else gettext_noop("Kolejność: %(order)s.")
    )
    return line(text, "turn", order=", ".join(name_of(state, c) for c in seen) or "—")


def _pace_set(state: EncounterState, e: PaceSet) -> LogLine:
    if e.pace == "post":
        return line(gettext_noop("Tempo: tura przez posty, do terminu."), "turn")
    return line(gettext_noop("Tempo: na żywo."), "turn")


def _fallen_decided(state: EncounterState, e: FallenDecided) -> LogLine:
    text = (
        gettext_noop("Mistrz Gry rozstrzyga: %(name)s ginie.")
        if e.outcome == "martwy"
        else gettext_noop("Mistrz Gry rozstrzyga: %(name)s żyje, nieprzytomny.")
    )
    return line(text, "gm", [e.target], name=name_of(state, e.target))


def _deadline_set(state: EncounterState, e: DeadlineSet) -> LogLine:
    if e.reopened:
        return line(gettext_noop("Mistrz Gry przesuwa termin: wpisy znów otwarte."), "turn")
    return line(gettext_noop("Mistrz Gry przesuwa termin tury."), "turn")


def _turn_started(state: EncounterState, e: TurnStarted) -> LogLine:
    text = (
        gettext_noop("Tura bojowa %(n)s: czas na wpisy.")
        if e.deadline is not None
        else gettext_noop("Tura bojowa %(n)s.")
    )
    return line(text, "turn", n=e.turn)


def _turn_began(state: EncounterState, e: TurnBegan) -> LogLine:
    name = name_of(state, e.combatant)
    return line(gettext_noop("Działa: %(name)s."), "turn", [e.combatant], name=name)


def _turn_ended(state: EncounterState, e: TurnEnded) -> LogLine:
    name = name_of(state, e.combatant)
    return line(gettext_noop("%(name)s kończy turę."), "turn", [e.combatant], name=name)


def _posting_closed(state: EncounterState, e: PostingClosed) -> LogLine:
    return line(gettext_noop("Termin minął: tura %(n)s zamknięta dla wpisów."), "turn", n=e.turn)


def _turn_closed(state: EncounterState, e: TurnClosed) -> LogLine:
    return line(gettext_noop("Koniec tury bojowej %(n)s."), "turn", n=e.turn)


def _vanished(state: EncounterState, e: Vanished) -> LogLine:
    name = name_of(state, e.combatant)
    return line(gettext_noop("%(name)s znika."), "turn", [e.combatant], name=name)


def _full_acted(state: EncounterState, e: FullActed) -> LogLine:
    text = gettext_noop("%(name)s — akcja pełna: %(note)s")
    name = name_of(state, e.combatant)
    return line(text, "action", [e.combatant], name=name, note=e.note or "—")


def _rest_declared(state: EncounterState, e: RestDeclared) -> LogLine:
    text = gettext_noop("%(name)s odpoczywa (Odpoczynek: test Ogłady na koniec tury).")
    return line(text, "action", [e.combatant], name=name_of(state, e.combatant))


def _condition_removed(state: EncounterState, e: ConditionRemoved) -> LogLine:
    spec = cond.SPECS.get(e.condition)
    text = gettext_noop("%(name)s: koniec — %(condition)s.")
    return line(
        text, "condition", [e.target], name=name_of(state, e.target),
        condition=spec.label if spec else e.condition,
    )  # fmt: skip


# --- the map ----------------------------------------------------------------------------------


def _placed(state: EncounterState, e: Placed) -> LogLine:
    name = name_of(state, e.combatant)
    if e.to is None:
        text = gettext_noop("Mistrz Gry zdejmuje z mapy: %(name)s.")
        return line(text, "move", [e.combatant], name=name)
    text = gettext_noop("Mistrz Gry stawia na polu %(field)s: %(name)s.")
    return line(text, "move", [e.combatant], name=name, field=battlemap.label(e.to))


def _moved(state: EncounterState, e: Moved) -> LogLine:
    text = gettext_noop("%(name)s idzie z %(start)s na %(field)s (%(metres)s m).")
    metres = e.cost * (state.battlemap.metres if state.battlemap is not None else 1)
    return line(
        text, "move", [e.combatant], name=name_of(state, e.combatant),
        start=battlemap.label(e.path[0]), field=battlemap.label(e.path[-1]), metres=metres,
    )  # fmt: skip


def _map_edited(state: EncounterState, e: MapEdited) -> LogLine:
    """Laying, resizing and removing the map are told to everyone; painting and its look
    are the GM's own lines (a drag paints many times)."""
    match e.edit:
        case battlemap.Resize(width=w, height=h) if state.battlemap is None:
            text = gettext_noop("Mistrz Gry rozkłada mapę: %(width)s × %(height)s pól.")
            return line(text, "gm", [], width=w, height=h)
        case battlemap.Resize(width=w, height=h):
            text = gettext_noop("Mistrz Gry zmienia rozmiar mapy: %(width)s × %(height)s pól.")
            return line(text, "gm", [], width=w, height=h)
        case battlemap.Remove():
            text = gettext_noop("Mistrz Gry zdejmuje mapę: pozycje znów są opisowe.")
            return line(text, "gm", [])
        case battlemap.Paint(fields=fields):
            text = gettext_noop("Mistrz Gry maluje mapę (%(n)s pól).")
            return line(text, "gm", [], secret=True, n=len(fields))
    return line(gettext_noop("Mistrz Gry zmienia wygląd mapy."), "gm", [], secret=True)


# --- the cases --------------------------------------------------------------------------------


def _damaged(state: EncounterState, e: Damaged) -> LogLine:
    c = state.get(e.harm.target)
    extra = _harm_texts(state, [e.harm], c.id)
    params: dict[str, str | int] = {
        "name": c.name,
        "amount": e.harm.amount,
        "left": left_text(c, c.pz - e.harm.amount, e.harm.down),
        "note": e.note,
        "effects": "; ".join(extra),
    }
    if e.source == "pech":
        text = (
            gettext_noop(
                "%(name)s rani się (krytyczny pech): −%(amount)s PŻ (%(left)s). "
                "Skutki: %(effects)s."
            )
            if extra
            else gettext_noop("%(name)s rani się (krytyczny pech): −%(amount)s PŻ (%(left)s).")
        )
    elif e.note:
        text = (
            gettext_noop(
                "Mistrz Gry: %(name)s traci %(amount)s PŻ (%(left)s) — %(note)s. "
                "Skutki: %(effects)s."
            )
            if extra
            else gettext_noop("Mistrz Gry: %(name)s traci %(amount)s PŻ (%(left)s) — %(note)s.")
        )
    else:
        text = (
            gettext_noop(
                "Mistrz Gry: %(name)s traci %(amount)s PŻ (%(left)s). Skutki: %(effects)s."
            )
            if extra
            else gettext_noop("Mistrz Gry: %(name)s traci %(amount)s PŻ (%(left)s).")
        )
    return line(text, "damage", [c.id], params)


def _bled(state: EncounterState, e: Bled) -> LogLine:
    harm = e.harm
    c = state.get(harm.target)
    extra = _harm_texts(state, [harm], harm.target)
    params: dict[str, str | int] = {
        "name": c.name,
        "amount": harm.amount,
        "left": left_text(c, c.pz - harm.amount, harm.down),
        "effects": "; ".join(extra),
    }
    text = (
        gettext_noop("%(name)s krwawi: −%(amount)s PŻ (%(left)s). Skutki: %(effects)s.")
        if extra
        else gettext_noop("%(name)s krwawi: −%(amount)s PŻ (%(left)s).")
    )
    return line(text, "damage", [c.id], params)


def _healed(state: EncounterState, e: Healed) -> LogLine:
    c = state.get(e.target)
    extra: list[str] = []
    if e.woke:
        extra.append(fill(gettext_noop("%(name)s odzyskuje przytomność"), {"name": c.name}))
    if e.injuries:
        extra.append(f"Urazy −{e.injuries}")
    if e.stopped_bleeding:
        extra.append(gettext_noop("Krwawienie zatamowane"))
    status = "" if e.woke else c.status
    params: dict[str, str | int] = {
        "name": c.name,
        "amount": e.amount,
        "left": left_text(replace(c, status=status), min(c.max_pz, c.pz + e.amount), status),
        "effects": "; ".join(extra),
        "note": e.note,
    }
    if e.note:
        text = (
            gettext_noop("%(name)s: +%(amount)s PŻ (%(left)s) — %(note)s. Skutki: %(effects)s.")
            if extra
            else gettext_noop("%(name)s: +%(amount)s PŻ (%(left)s) — %(note)s.")
        )
    else:
        text = (
            gettext_noop("%(name)s: +%(amount)s PŻ (%(left)s). Skutki: %(effects)s.")
            if extra
            else gettext_noop("%(name)s: +%(amount)s PŻ (%(left)s).")
        )
    return line(text, "heal", [c.id], params)


def _condition_added(state: EncounterState, e: ConditionAdded) -> LogLine:
    target, effect = e.target, e.effect
    params: dict[str, Any] = {
        "name": name_of(state, target),
        "condition": text_param(effect_label(effect)),
        "start": effect.start,
        "until": effect.until,
    }
    if effect.until == 0:
        text = gettext_noop("%(name)s: %(condition)s (od tury %(start)s do odwołania).")
    elif effect.until == effect.start:
        text = gettext_noop("%(name)s: %(condition)s (tura %(start)s).")
    else:
        text = gettext_noop("%(name)s: %(condition)s (tury %(start)s–%(until)s).")
    return line(text, "condition", [target], params)


def _fall(state: EncounterState, e: FallRolled) -> LogLine:
    c = state.get(e.target)
    r = e.result
    rolls: tuple[RollView, ...] = ()
    if r.roll:
        rolls = (
            RollView(
                label=gettext_noop("Upadek"),
                dice=(r.roll,),
                result=r.percent,
                modifiers=r.modifiers,
                sides=100,
                summary=FALL_SUMMARY,
                summary_params={"percent": r.percent},
            ),
        )
    rolls += _views(r.acrobatics)
    if not r.roll:
        text = gettext_noop("%(name)s spada z %(height)s m: za nisko, bez obrażeń.")
        return line(text, "damage", [c.id], rolls=rolls, name=c.name, height=r.height)
    extra = _harm_texts(state, [e.harm], c.id)
    params: dict[str, str | int] = {
        "name": c.name,
        "height": r.height,
        "percent": r.percent,
        "damage": e.harm.amount,
        "left": left_text(c, c.pz - e.harm.amount, e.harm.down),
        "effects": "; ".join(extra),
    }
    # The percent and the damage together give the maximum PŻ: told only where the players
    # see the numbers anyway.
    text = FALL_TEXTS[r.halved, shows_numbers(c), bool(extra)]
    return line(text, "damage", [c.id], params, rolls=rolls)


# (Akrobatyka halved it, the players see its numbers, with effects) -> the fall's line.
FALL_TEXTS: dict[tuple[bool, bool, bool], str] = {
    (True, True, False): gettext_noop(
        "%(name)s spada z %(height)s m: %(percent)s%% maks. PŻ, Akrobatyka połowi — "
        "%(damage)s obrażeń (%(left)s)."
    ),
    (True, True, True): gettext_noop(
        "%(name)s spada z %(height)s m: %(percent)s%% maks. PŻ, Akrobatyka połowi — "
        "%(damage)s obrażeń (%(left)s). Skutki: %(effects)s."
    ),
    (False, True, False): gettext_noop(
        "%(name)s spada z %(height)s m: %(percent)s%% maks. PŻ — %(damage)s obrażeń (%(left)s)."
    ),
    (False, True, True): gettext_noop(
        "%(name)s spada z %(height)s m: %(percent)s%% maks. PŻ — %(damage)s obrażeń "
        "(%(left)s). Skutki: %(effects)s."
    ),
    (True, False, False): gettext_noop(
        "%(name)s spada z %(height)s m: %(percent)s%% maks. PŻ, Akrobatyka połowi (%(left)s)."
    ),
    (True, False, True): gettext_noop(
        "%(name)s spada z %(height)s m: %(percent)s%% maks. PŻ, Akrobatyka połowi "
        "(%(left)s). Skutki: %(effects)s."
    ),
    (False, False, False): gettext_noop(
        "%(name)s spada z %(height)s m: %(percent)s%% maks. PŻ (%(left)s)."
    ),
    (False, False, True): gettext_noop(
        "%(name)s spada z %(height)s m: %(percent)s%% maks. PŻ (%(left)s). Skutki: %(effects)s."
    ),
}


def _gm_roll(state: EncounterState, e: GMRolled) -> LogLine:
    r = e.roll
    view = test_view(r)
    label = e.label or r.label
    view = RollView(
        label or gettext_noop("Rzut Mistrza Gry"), view.dice, view.result, view.modifiers,
        view.sides, view.summary, view.summary_params,
    )  # fmt: skip
    params: dict[str, Any] = {
        "label": label or "—",
        "roll": r.roll,
        "threshold": r.threshold,
        "level": text_param(LEVEL_LABELS.get(r.level, r.level)),
    }
    if e.target:
        text = gettext_noop(
            "Rzut Mistrza Gry (%(name)s): %(label)s — %(roll)s przeciw %(threshold)s, %(level)s."
        )
        params["name"] = name_of(state, e.target)
        return line(text, "gm", [e.target], params, rolls=(view,), secret=e.secret)
    text = gettext_noop("Rzut Mistrza Gry: %(label)s — %(roll)s przeciw %(threshold)s, %(level)s.")
    return line(text, "gm", [], params, rolls=(view,), secret=e.secret)


def _skipped(state: EncounterState, e: TurnSkipped) -> LogLine | None:
    name = name_of(state, e.combatant)
    if e.reason == "martwy":
        return None  # the dead do not act: no line every turn
    if e.reason == "ogluszenie":
        text = gettext_noop("%(name)s jest ogłuszony: traci turę.")
    elif e.reason == "nieprzytomny":
        text = gettext_noop("%(name)s jest nieprzytomny: pomija turę.")
    elif e.reason == "pokonany":
        text = gettext_noop("%(name)s jest pokonany: pomija turę.")
    else:
        text = gettext_noop("%(name)s pomija turę.")
    return line(text, "turn", [e.combatant], name=name)


def _posted(state: EncounterState, e: Posted) -> LogLine:
    """A post, hidden until the resolve when `posts_hidden` (the GM's line; the poster sees
    their own post on their turn panel)."""
    post = e.post
    name = name_of(state, post.actor)
    what = post_param(state, post)
    secret = state.settings.posts_hidden
    actors = [post.actor]
    if post.action.target and post.action.target in state.combatants:
        actors.append(post.action.target)
    replacing = post.actor in state.posts
    if post.by_gm:
        text = (
            gettext_noop("Mistrz Gry zmienia wpis za: %(name)s — %(what)s.")
            if replacing
            else gettext_noop("Mistrz Gry wpisuje za: %(name)s — %(what)s.")
        )
    elif replacing:
        text = gettext_noop("%(name)s zmienia wpis: %(what)s.")
    else:
        text = gettext_noop("%(name)s wysyła wpis: %(what)s.")
    return line(text, "post", actors, secret=secret, name=name, what=what)


def _revealed(state: EncounterState, e: PostsRevealed) -> LogLine:
    """Every post of the turn, public, each quoted on its own with its author; posts of
    hidden combatants stay out of it."""
    quotes = []
    for post in e.posts:
        c = state.combatants.get(post.actor)
        if c is None or c.hidden:
            continue
        target = state.combatants.get(post.action.target or "")
        if target is not None and target.hidden:
            post = replace(post, action=replace(post.action, target=None))
        quotes.append(Quote(c.name, post_param(state, post), post.text.strip()))
    if not quotes:
        return line(gettext_noop("Wpisy tury %(n)s: —."), "post", [], n=e.turn)
    told = line(gettext_noop("Wpisy tury %(n)s:"), "post", [], n=e.turn)
    return replace(told, quotes=tuple(quotes))


def _post_skipped(state: EncounterState, e: PostSkipped) -> LogLine:
    name = name_of(state, e.actor)
    actors = [e.actor]
    if e.reason == "brak":
        text = gettext_noop("%(name)s: brak wpisu.")
    elif e.reason == "ogluszenie":
        text = gettext_noop("%(name)s jest ogłuszony: wpis przepada.")
    elif e.reason == "poza_walka":
        text = gettext_noop("%(name)s nie walczy: wpis przepada.")
    elif e.reason == "cel_poza_walka":
        target = name_of(state, e.target) if e.target else ""
        if e.target:
            actors.append(e.target)
        text = gettext_noop("%(name)s: %(target)s już nie walczy — atak przepada.")
        return line(text, "post", actors, name=name, target=target)
    else:
        text = gettext_noop("%(name)s: wpisu nie da się wykonać — %(detail)s")
        return line(text, "post", actors, name=name, detail=e.detail or "—")
    return line(text, "post", actors, name=name)


def _rest(state: EncounterState, e: RestResolved) -> LogLine:
    c = state.get(e.combatant)
    if e.interrupted or e.roll is None:
        text = gettext_noop("%(name)s: Odpoczynek przerwany — zaatakowany w tej turze.")
        return line(text, "heal", [c.id], name=c.name)
    rolls = _views(e.roll)
    if e.roll.success:
        status = "" if e.healed else c.status
        left = left_text(replace(c, status=status), min(c.max_pz, c.pz + e.healed), status)
        text = gettext_noop("%(name)s: Odpoczynek udany, +%(healed)s PŻ (%(left)s).")
        return line(text, "heal", [c.id], rolls=rolls, name=c.name, healed=e.healed, left=left)
    text = gettext_noop("%(name)s: Odpoczynek nieudany.")
    return line(text, "heal", [c.id], rolls=rolls, name=c.name)


FREE_TEXTS = {
    ("move", False): gettext_noop("%(name)s — ruch."),
    ("move", True): gettext_noop("%(name)s — ruch: %(note)s"),
    ("reload", False): gettext_noop("%(name)s — przeładowanie."),
    ("reload", True): gettext_noop("%(name)s — przeładowanie: %(note)s"),
    ("other", False): gettext_noop("%(name)s — akcja darmowa."),
    ("other", True): gettext_noop("%(name)s — akcja darmowa: %(note)s"),
    ("change_weapon", False): gettext_noop("%(name)s zmienia broń: %(weapon)s."),
    ("change_weapon", True): gettext_noop("%(name)s zmienia broń: %(weapon)s. %(note)s"),
}


def _free(state: EncounterState, e: FreeActed) -> LogLine:
    name = state.get(e.combatant).name
    kind = e.kind if (e.kind, False) in FREE_TEXTS else "other"
    text = FREE_TEXTS[kind, bool(e.note)]
    weapon = means_of(state, e.combatant, e.choice) if kind == "change_weapon" else ""
    return line(text, "action", [e.combatant], name=name, note=e.note, weapon=weapon)


TRANSFORMATIONS = {"wampir": gettext_noop("Wampir"), "wilkolak": gettext_noop("Wilkołak")}


def _transformed(state: EncounterState, e: Transformed) -> LogLine:
    name = state.get(e.combatant).name
    if not e.form:
        text = gettext_noop("%(name)s wraca do swojej postaci (Przemiana).")
        return line(text, "action", [e.combatant], name=name)
    mods = ", ".join(f"{STAT_LABELS.get(k, k)} {v:+d}" for k, v in e.mods) or "—"
    text = gettext_noop("%(name)s przemienia się: %(form)s (%(mods)s).")
    form = TRANSFORMATIONS.get(e.form, e.form)
    return line(text, "action", [e.combatant], name=name, form=form, mods=mods)


def _declared(state: EncounterState, e: AttackDeclared) -> LogLine:
    """The attack declared; "time for the target's reaction" only where a player's prompt
    waits (a GM-run target's policy answers at once, or the GM does at the table)."""
    target = state.combatants.get(e.target)
    awaited = e.prompt is not None and target is not None and target.controller is not None
    params: dict[str, str | int] = {
        "attacker": name_of(state, e.attacker),
        "target": name_of(state, e.target),
        "means": means_of(state, e.attacker, e.choice, e.spell),
    }
    text = (
        gettext_noop("%(attacker)s atakuje: %(target)s (%(means)s) — czas na reakcję celu.")
        if awaited
        else gettext_noop("%(attacker)s atakuje: %(target)s (%(means)s).")
    )
    return line(text, "attack", [e.attacker, e.target], params)


def _fell_through(state: EncounterState, e: PromptClosed) -> LogLine:
    """A prompt closed unrolled: the attack it waited on fell through."""
    prompt = state.prompt(e.prompt)
    detail = e.detail or "—"
    if prompt is None:
        return line(gettext_noop("Atak przepada: %(detail)s"), "attack", [], detail=detail)
    text = gettext_noop("Atak %(attacker)s → %(target)s przepada: %(detail)s")
    return line(
        text, "attack", [prompt.attacker, prompt.actor], detail=detail,
        attacker=name_of(state, prompt.attacker),
        target=name_of(state, prompt.actor),
    )  # fmt: skip


ATTACK_TEXTS: dict[tuple[str, bool], str] = {
    ("pudlo", False): gettext_noop("%(attacker)s atakuje: %(target)s (%(means)s) — pudło."),
    ("pudlo", True): gettext_noop(
        "%(attacker)s atakuje: %(target)s (%(means)s) — pudło. Skutki: %(effects)s."
    ),
    ("pech", False): gettext_noop(
        "%(attacker)s atakuje: %(target)s (%(means)s) — krytyczny pech, tura stracona."
    ),
    ("pech", True): gettext_noop(
        "%(attacker)s atakuje: %(target)s (%(means)s) — krytyczny pech, tura stracona. "
        "Skutki: %(effects)s."
    ),
    ("unikniety", False): gettext_noop(
        "%(attacker)s atakuje: %(target)s (%(means)s) — %(defence)s: atak uniknięty."
    ),
    ("unikniety", True): gettext_noop(
        "%(attacker)s atakuje: %(target)s (%(means)s) — %(defence)s: atak uniknięty. "
        "Skutki: %(effects)s."
    ),
    ("zablokowany", False): gettext_noop(
        "%(attacker)s atakuje: %(target)s (%(means)s) — %(defence)s: atak zablokowany."
    ),
    ("zablokowany", True): gettext_noop(
        "%(attacker)s atakuje: %(target)s (%(means)s) — %(defence)s: atak zablokowany. "
        "Skutki: %(effects)s."
    ),
    ("bez_obrazen", False): gettext_noop(
        "%(attacker)s trafia: %(target)s (%(means)s) — test obrażeń nieudany, bez obrażeń."
    ),
    ("bez_obrazen", True): gettext_noop(
        "%(attacker)s trafia: %(target)s (%(means)s) — test obrażeń nieudany, bez obrażeń. "
        "Skutki: %(effects)s."
    ),
    ("obrazenia", False): gettext_noop(
        "%(attacker)s trafia: %(target)s (%(means)s) — %(dealt)s obrażeń (surowe %(raw)s, "
        "odporność −%(soaked)s, pancerz %(percent)s%%: −%(armour)s); %(target)s: %(left)s."
    ),
    ("obrazenia", True): gettext_noop(
        "%(attacker)s trafia: %(target)s (%(means)s) — %(dealt)s obrażeń (surowe %(raw)s, "
        "odporność −%(soaked)s, pancerz %(percent)s%%: −%(armour)s); %(target)s: %(left)s. "
        "Skutki: %(effects)s."
    ),
    ("negacja", False): gettext_noop(
        "%(attacker)s trafia: %(target)s (%(means)s) — %(dealt)s obrażeń (surowe %(raw)s, "
        "odporność −%(soaked)s, pancerz pominięty: negacja); %(target)s: %(left)s."
    ),
    ("negacja", True): gettext_noop(
        "%(attacker)s trafia: %(target)s (%(means)s) — %(dealt)s obrażeń (surowe %(raw)s, "
        "odporność −%(soaked)s, pancerz pominięty: negacja); %(target)s: %(left)s. "
        "Skutki: %(effects)s."
    ),
}


def attack_case(e: AttackResolved) -> str:
    """Which way an attack went: "pech", "pudlo", "unikniety" (Unik), "zablokowany" (Blok),
    "bez_obrazen", "negacja", "obrazenia"."""
    if e.hit.level == "crit_bad":
        return "pech"
    if not e.hit.success:
        return "pudlo"
    if e.avoided:
        return "zablokowany" if e.defence == "blok" else "unikniety"
    if e.damage is None or not e.damage.success:
        return "bez_obrazen"
    return "negacja" if e.armour_negated else "obrazenia"


def _attack(state: EncounterState, e: AttackResolved) -> LogLine:
    target = state.get(e.target)
    main = next((h for h in e.harms if h.target == e.target), None)
    case = attack_case(e)
    extra = _harm_texts(state, e.harms, e.target if case in ("obrazenia", "negacja") else None)
    extra += _applied_texts(state, e.applied)
    if e.expired:
        extra.insert(0, gettext_noop("brak reakcji w czasie"))
    amount, down = (main.amount, main.down) if main else (0, "")
    params: dict[str, Any] = {
        "attacker": name_of(state, e.attacker),
        "target": target.name,
        "means": e.label or means_of(state, e.attacker, e.choice, e.spell),
        "defence": text_param(DEFENCE_LABELS.get(e.defence, e.defence)),
        "dealt": e.dealt,
        "raw": e.raw,
        "soaked": e.soaked,
        "percent": e.armour_percent,
        "armour": e.armour,
        "left": left_text(target, target.pz - amount, down),
        "effects": "; ".join(extra),
    }
    rolls = _views(
        e.hit, e.hit_crit, e.defence_roll, e.defence_crit, e.damage, e.resistance, *e.bleed_rolls
    )
    text = ATTACK_TEXTS[case, bool(extra)]
    return line(text, "attack", [e.attacker, e.target], params, rolls=rolls)


SPELL_TEXTS: dict[tuple[str, bool], str] = {
    ("pech", False): gettext_noop("%(caster)s rzuca czar %(spell)s: krytyczny pech."),
    ("pech", True): gettext_noop(
        "%(caster)s rzuca czar %(spell)s: krytyczny pech. Skutki: %(effects)s."
    ),
    ("pudlo", False): gettext_noop("%(caster)s rzuca czar %(spell)s: nie trafia."),
    ("pudlo", True): gettext_noop(
        "%(caster)s rzuca czar %(spell)s: nie trafia. Skutki: %(effects)s."
    ),
    ("nie_dziala", False): gettext_noop("%(caster)s rzuca czar %(spell)s: czar nie działa."),
    ("nie_dziala", True): gettext_noop(
        "%(caster)s rzuca czar %(spell)s: czar nie działa. Skutki: %(effects)s."
    ),
    ("odparty", False): gettext_noop("%(caster)s rzuca czar %(spell)s: %(target)s się opiera."),
    ("odparty", True): gettext_noop(
        "%(caster)s rzuca czar %(spell)s: %(target)s się opiera. Skutki: %(effects)s."
    ),
    ("dziala", False): gettext_noop(
        "%(caster)s rzuca czar %(spell)s: działa na %(target)s (tury: %(turns)s)."
    ),
    ("dziala", True): gettext_noop(
        "%(caster)s rzuca czar %(spell)s: działa na %(target)s (tury: %(turns)s). "
        "Skutki: %(effects)s."
    ),
    ("przyzwanie", False): gettext_noop("%(caster)s rzuca czar %(spell)s: przyzwanie się udaje."),
    ("przyzwanie", True): gettext_noop(
        "%(caster)s rzuca czar %(spell)s: przyzwanie się udaje. Skutki: %(effects)s."
    ),
}


def spell_case(e: SpellResolved) -> str:
    """Which way an effect or summoning spell went."""
    if e.hit.level == "crit_bad":
        return "pech"
    if not e.hit.success:
        return "pudlo"
    if e.resisted:
        return "odparty"
    if not e.success:
        return "nie_dziala"
    return "przyzwanie" if e.kind == "summon" else "dziala"


def _spell(state: EncounterState, e: SpellResolved) -> LogLine:
    target = e.target or e.caster
    actors = [e.caster] + ([e.target] if e.target and e.target != e.caster else [])
    case = spell_case(e)
    extra = _applied_texts(state, e.applied)
    params: dict[str, str | int] = {
        "caster": name_of(state, e.caster),
        "spell": e.name,
        "target": name_of(state, target),
        "turns": e.turns,
        "effects": "; ".join(extra),
    }
    rolls = _views(e.hit, e.effect, e.resistance, e.resistance_crit)
    return line(SPELL_TEXTS[case, bool(extra)], "spell", actors, params, rolls=rolls)


def _summoned(state: EncounterState, e: Summoned) -> LogLine:
    """A summoning; its PŻ told where the players see them (a player's summon, or one of
    their own spell that turned on them), not for a summon of the GM's."""
    c = e.combatant
    caster = c.summon.caster if c.summon else ""
    params: dict[str, str | int] = {
        "name": c.name,
        "caster": name_of(state, caster),
        "pz": c.max_pz,
    }
    actors = [c.id] + ([caster] if caster else [])
    summoner = state.combatants.get(caster)
    numbers = shows_numbers(c) or (summoner is not None and shows_numbers(summoner))
    hostile = c.summon is not None and c.summon.hostile
    return line(SUMMON_TEXTS[hostile, numbers], "spell", actors, params)


SUMMON_TEXTS: dict[tuple[bool, bool], str] = {
    (False, True): gettext_noop("%(caster)s przyzywa: %(name)s (%(pz)s PŻ)."),
    (False, False): gettext_noop("%(caster)s przyzywa: %(name)s."),
    (True, True): gettext_noop(
        "Przybywa przyzwany %(name)s (%(pz)s PŻ) — krytyczny pech: atakuje %(caster)s!"
    ),
    (True, False): gettext_noop(
        "Przybywa przyzwany %(name)s — krytyczny pech: atakuje %(caster)s!"
    ),
}


NARRATORS: dict[type[Event], Narrator] = {
    Joined: vocabulary.joined,
    HiddenSet: vocabulary.hidden_set,
    StatsRevealed: vocabulary.stats_revealed,
    CombatEnded: vocabulary.combat_ended,
    CombatStarted: _combat_started,
    OrderSet: _order_set,
    PaceSet: _pace_set,
    Damaged: _damaged,
    Healed: _healed,
    ConditionAdded: _condition_added,
    ConditionRemoved: _condition_removed,
    FallRolled: _fall,
    GMRolled: _gm_roll,
    FallenDecided: _fallen_decided,
    DeadlineSet: _deadline_set,
    TurnStarted: _turn_started,
    TurnBegan: _turn_began,
    TurnSkipped: _skipped,
    TurnEnded: _turn_ended,
    Posted: _posted,
    PostingClosed: _posting_closed,
    PostsRevealed: _revealed,
    PostSkipped: _post_skipped,
    Bled: _bled,
    RestResolved: _rest,
    Vanished: _vanished,
    TurnClosed: _turn_closed,
    FreeActed: _free,
    FullActed: _full_acted,
    RestDeclared: _rest_declared,
    Transformed: _transformed,
    AttackDeclared: _declared,
    AttackResolved: _attack,
    PromptClosed: _fell_through,
    SpellResolved: _spell,
    Summoned: _summoned,
    MapEdited: _map_edited,
    Placed: _placed,
    Moved: _moved,
}
