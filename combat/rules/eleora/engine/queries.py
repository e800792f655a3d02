"""Questions the UI asks without changing anything: what may this character do now, what
are the odds of this attack for each answer the defender could give, and how hurt does a
character look to players who may not see its numbers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from combat.rules.base import Badge, LegalAction, RuleViolation, fill, gettext_noop, pgettext_noop
from combat.rules.dice import pool_size
from combat.rules.eleora import conditions as cond
from combat.rules.eleora import grid, odds
from combat.rules.eleora.attack import (
    NO_DAMAGE_SPECIALS,
    check_attack,
    damage_base,
    defence_modifiers,
    shield_or_one,
    weapon_profile,
)
from combat.rules.eleora.commands import AcceptOpportunity, DeclareAttack, Reaction
from combat.rules.eleora.engine.attacks import pending_attack
from combat.rules.eleora.engine.common import (
    reaction_refusal,
    require_action,
    require_no_prompts,
)
from combat.rules.eleora.prompts import NO_REACTION, REACTIONS, best_weapon, prompt_options
from combat.rules.eleora.sheet import derive
from combat.rules.eleora.state import UNARMED, Combatant, EncounterState, PendingAttack
from combat.rules.memo import PerState
from combat.rules.records import replace

Probe = Callable[[EncounterState, Combatant], None]


def _needs(condition: bool, code: str, message: str, **params: Any) -> None:
    """Refuse with `message` (a gettext_noop msgid filled from `params`) unless `condition`."""
    if not condition:
        raise RuleViolation(code, message, **params)


def _attack_probe(state: EncounterState, c: Combatant) -> None:
    _needs(
        any(e.status != "dead" for e in state.enemies_of(c.id)),
        "brak_celu",
        gettext_noop("Nie ma kogo zaatakować."),
    )


def _aim_probe(state: EncounterState, c: Combatant) -> None:
    cap = state.settings.aim_cap
    room = any(
        c.aim.get(e.id, 0) + e.stacks("odsloniecie") < cap
        for e in state.enemies_of(c.id)
        if e.status != "dead"
    )
    _needs(
        room,
        "limit_celowania",
        gettext_noop("Celowanie: limit +%(cap)s przy każdym wrogu."),
        cap=cap,
    )


# "Przygotowanie" the action (Prepare) reads like the setup phase ("Setup", the msgid
# "Przygotowanie"): its msgid names a context of its own, joined to it as gettext catalogues
# join them (combat/terms.py looks such a msgid up as it is).
PREPARE = "Przygotowanie"
PREPARE_MSGID = "eleora action\x04" + pgettext_noop("eleora action", "Przygotowanie")


def _label_msgid(label: str) -> str:
    return PREPARE_MSGID if label == PREPARE else label


# (key, label msgid, probe): the labels are rule terms, in the English digest's words.
ACTIONS: tuple[tuple[str, str, Probe | None], ...] = (
    ("atak", gettext_noop("Atak"), _attack_probe),
    ("celowanie", gettext_noop("Celowanie"), _aim_probe),
    ("inkantacja", gettext_noop("Inkantacja"), None),
    ("interakcja", gettext_noop("Interakcja"), None),
    ("komenda", gettext_noop("Komenda"), None),
    ("oddanie_inicjatywy", gettext_noop("Oddanie inicjatywy"), None),
    (
        "przeladowanie",
        gettext_noop("Przeładowanie"),
        lambda s, c: _needs(
            bool(c.unloaded), "naladowana", gettext_noop("Nie ma broni do przeładowania.")
        ),
    ),
    ("przygotowanie", PREPARE, None),
    (
        "ruch",
        gettext_noop("Ruch"),
        lambda s, c: _needs(
            not c.has("unieruchomienie"),
            "unieruchomienie",
            gettext_noop("Unieruchomienie: nie możesz się poruszyć."),
        ),
    ),
    (
        "wstanie",
        gettext_noop("Wstanie (Ruch)"),
        lambda s, c: _needs(
            c.has("powalenie"), "nie_lezy", gettext_noop("Postać nie jest Powalona.")
        ),
    ),
    (
        "sterowanie",
        gettext_noop("Sterowanie"),
        lambda s, c: _needs(
            c.mounted, "bez_wierzchowca", gettext_noop("Brak wierzchowca lub pojazdu.")
        ),
    ),
    ("dobycie", gettext_noop("Dobycie"), None),
    ("zaslona", gettext_noop("Zasłona"), None),
)
END_TURN = gettext_noop("Koniec tury")


def legal_actions(state: EncounterState, actor_id: str) -> list[LegalAction]:
    """Every action and reaction with whether it is available now, and why not (worked out
    once per state and actor: every viewer's turn and seat panels ask of the same state)."""
    return list(_legal.get(state, actor_id, lambda: _legal_actions(state, actor_id)))


_legal: PerState[tuple[LegalAction, ...]] = PerState()


def _legal_actions(state: EncounterState, actor_id: str) -> tuple[LegalAction, ...]:
    c = state.get(actor_id)
    result = [_action(state, c, key, label, probe) for key, label, probe in ACTIONS]
    result.append(_end_turn(state, c))
    result += _reactions(state, c)
    return tuple(result)


def _action(
    state: EncounterState, c: Combatant, key: str, label: str, probe: Probe | None
) -> LegalAction:
    try:
        require_no_prompts(state)
        require_action(state, c.id)
        if c.frenzy_bound and key not in ("atak", "ruch"):
            raise RuleViolation(
                "szal", gettext_noop("Szał: pierwsza akcja w turze musi być Atakiem.")
            )
        if probe is not None:
            probe(state, c)
    except RuleViolation as refusal:
        return refused(key, label, refusal.template, refusal.params)
    return allowed(key, label)


def allowed(key: str, label: str, *, reaction: bool = False) -> LegalAction:
    """An available action, its label a msgid."""
    return LegalAction(key, label, True, reaction=reaction, label_template=_label_msgid(label))


def refused(
    key: str,
    label: str,
    template: str,
    params: Mapping[str, Any] | None = None,
    *,
    reaction: bool = False,
) -> LegalAction:
    """An unavailable action: its reason as the msgid `template` filled from `params` (the
    Polish text in `reason`, the msgid and params kept for the table to translate)."""
    values = dict(params or {})
    return LegalAction(
        key,
        label,
        False,
        fill(template, values),
        reaction,
        label_template=_label_msgid(label),
        reason_template=template,
        reason_params=values,
    )


def _end_turn(state: EncounterState, c: Combatant) -> LegalAction:
    if state.current != c.id:
        return refused("koniec_tury", END_TURN, gettext_noop("Nie twoja tura."))
    if state.prompts:
        return refused("koniec_tury", END_TURN, gettext_noop("Czekamy na reakcję."))
    return allowed("koniec_tury", END_TURN)


# (key, label msgid, defensive, why not when nothing triggers it): labels are rule terms.
REACTION_ACTIONS: tuple[tuple[str, str, bool, str], ...] = (
    ("parowanie", gettext_noop("Parowanie"), True, gettext_noop("Brak deklaracji ataku.")),
    ("unik", gettext_noop("Unik"), True, gettext_noop("Brak deklaracji ataku.")),
    ("atak_okazyjny", gettext_noop("Atak okazyjny"), False, gettext_noop("Brak okazji.")),
    ("ucieczka", gettext_noop("Ucieczka"), True, gettext_noop("Brak ataku obszarowego.")),
    ("przepuszczenie", gettext_noop("Przepuszczenie"), False, ""),
    ("upuszczenie", gettext_noop("Upuszczenie"), False, gettext_noop("Nic w rękach.")),
    (
        "wyzwolenie",
        gettext_noop("Wyzwolenie"),
        False,
        gettext_noop("Nie ma z czego się wyzwalać."),
    ),
)


def _reactions(state: EncounterState, c: Combatant) -> list[LegalAction]:
    kinds = {p.kind for p in state.prompts if p.actor == c.id}
    holds_free = c.has("unieruchomienie") or any(x.mind for x in c.conditions)
    triggers = {
        "parowanie": "reakcja" in kinds,
        "unik": "reakcja" in kinds,
        "atak_okazyjny": "atak_okazyjny" in kinds,
        "ucieczka": "ucieczka" in kinds,
        "przepuszczenie": True,
        "upuszczenie": bool(c.held_items()),
        "wyzwolenie": holds_free,
    }
    result = []
    for key, label, defensive, why_not in REACTION_ACTIONS:
        refusal = reaction_refusal(c, defensive=defensive)
        if state.phase not in ("surprise", "combat"):
            why = gettext_noop("Walka nie trwa.")
            result.append(refused(key, label, why, reaction=True))
        elif refusal is not None:
            result.append(refused(key, label, refusal.template, refusal.params, reaction=True))
        elif triggers[key]:
            result.append(allowed(key, label, reaction=True))
        else:
            result.append(refused(key, label, why_not, reaction=True))
    return result


UNARMED_LABEL = gettext_noop("bez broni")


def weapon_choices(
    state: EncounterState, actor_id: str, targets: list[Combatant]
) -> list[dict[str, Any]]:
    """Each weapon of the attack form (the sheet's, then bare hands) with whether an Atak with
    it is allowed now against any of `targets`, and why not (in hand, loaded, not used this
    turn, in reach): `reason` is the Polish text of the msgid `reason_template` filled from
    `reason_params`, as for `LegalAction`. Whether an action is left is said once, not here."""
    c = state.get(actor_id)
    weapons = [(w.name, w.name, "", w.damage) for w in c.sheet.weapons]
    weapons.append((UNARMED, UNARMED_LABEL, UNARMED_LABEL, derive(c.sheet).unarmed_damage))
    result = []
    for key, name, name_template, damage in weapons:
        refusal = _weapon_refusal(state, c, key, targets)
        result.append(
            {
                "key": key,
                "name": name,
                "name_template": name_template,
                "damage": damage,
                "available": refusal is None,
                "reason": "" if refusal is None else refusal.message,
                "reason_template": "" if refusal is None else refusal.template,
                "reason_params": {} if refusal is None else dict(refusal.params),
            }
        )
    return result


def _weapon_refusal(
    state: EncounterState, c: Combatant, key: str, targets: list[Combatant]
) -> RuleViolation | None:
    """Why an Atak with this weapon is refused against every target (the first reason), or
    None when some target may be attacked with it."""
    first: RuleViolation | None = None
    for target in [t for t in targets if t.id != c.id]:
        try:
            check_attack(state, c, target, weapon_profile(c, key), None)
        except RuleViolation as refusal:
            first = first or refusal
            continue
        return None
    return first or RuleViolation("brak_celu", gettext_noop("Nie ma kogo zaatakować."))


def attack_odds(state: EncounterState, cmd: DeclareAttack) -> odds.AttackOdds:
    """Exact odds of an attack about to be declared, for each reaction the defender could
    choose."""
    base = pending_attack(state, cmd, cmd.target, opportunity=False)
    return pending_odds(state, base, _defender_options(state.get(cmd.target)))


def prompt_odds(state: EncounterState, prompt_id: str) -> odds.AttackOdds | None:
    """Exact odds of the attack behind a prompt, for each option its defender has.

    A reakcja prompt waits on an attack whose pool was fixed at the declaration (aim, Szarża
    and tokens are spent by then), so the odds come from that pending attack, keyed like
    `attack_odds` ("brak" is the prompt's "" option). For an Atak okazyjny offer: the odds of
    the attack accepting it would make. None for a prompt without an attack (Ucieczka)."""
    prompt = state.prompt(prompt_id)
    if prompt is None:
        return None
    if prompt.kind == "reakcja":
        attack = state.attack(prompt.attack_id or "")
        if attack is None:
            return None
        keys = [key for key, _ in prompt_options(state, prompt)]
        ordered = [NO_REACTION, *(k for k in keys if k != NO_REACTION)]
        return pending_odds(state, attack, {k or "brak": REACTIONS[k] for k in ordered})
    target = state.combatants.get(prompt.target or "")
    if prompt.kind == "atak_okazyjny" and target is not None:
        actor = state.get(prompt.actor)
        accept = AcceptOpportunity(
            actor=actor.id, prompt=prompt.id, weapon=best_weapon(actor, opportunity=True)
        )
        attack = pending_attack(state, accept, target.id, opportunity=True)
        return pending_odds(state, attack, _defender_options(target))
    return None


def _defender_options(target: Combatant) -> dict[str, tuple[Reaction, ...]]:
    """No reaction, and Parowanie and Unik when the defender may use a defensive reaction."""
    if reaction_refusal(target, defensive=True) is None and target.status == "active":
        return {"brak": (), "parowanie": ("parowanie",), "unik": ("unik",)}
    return {"brak": ()}


def pending_odds(
    state: EncounterState, attack: PendingAttack, options: Mapping[str, tuple[Reaction, ...]]
) -> odds.AttackOdds:
    """Odds of an attack with its pool fixed, for each option (reactions) of the defender."""
    target = state.get(attack.target)
    bonus, _ = shield_or_one(target, None)
    pools = {
        key: pool_size(
            defence_modifiers(
                state,
                target,
                replace(attack, reactions=chosen, parry_bonus=bonus if chosen else 0),
            )
        )
        for key, chosen in options.items()
    }
    damage, kind = damage_base(attack, state.get(attack.attacker), target)
    d = derive(target.sheet)
    return odds.attack_odds(
        pool_size(attack.modifiers),
        pools,
        damage,
        kind,
        odds.reduction_for(kind, d.pancerz, d.odpornosc),
        state.settings,
        auto_hit=attack.auto_hit,
        deals_damage=attack.special not in NO_DAMAGE_SPECIALS,
    )


def initiative_action(state: EncounterState, combatant_id: str) -> LegalAction:
    """Inicjatywa may be rolled before the fight, once per character."""
    c = state.get(combatant_id)
    label = gettext_noop("Inicjatywa")
    if state.phase != "setup":
        return refused("inicjatywa", label, gettext_noop("Walka już się zaczęła."))
    if c.setup_roll:
        rolled = " + ".join(str(face) for face in c.setup_roll)
        why = gettext_noop("Inicjatywa rzucona: %(rolled)s.")
        return refused("inicjatywa", label, why, {"rolled": rolled})
    return allowed("inicjatywa", label)


# (key, label) from unhurt to nearly dead; the thresholds between them are a table setting.
WOUND_LEVELS = (
    ("bez_ran", gettext_noop("Bez ran")),
    ("drasniety", gettext_noop("Draśnięcia")),
    ("ranny", gettext_noop("Rany")),
    ("ciezko_ranny", gettext_noop("Ciężkie rany")),
    ("ledwo_zywy", gettext_noop("Ledwo żyje")),
)
UNCONSCIOUS_LEVEL = ("nieprzytomny", gettext_noop("Nieprzytomność"))
DEAD_LEVEL = ("martwy", gettext_noop("Nie żyje"))


def wound_level(state: EncounterState, combatant_id: str) -> tuple[str, str]:
    """How hurt a character looks: its status, else the share of Zdrowie left against the
    table's thresholds (players see this for GM-run characters instead of the numbers)."""
    c = state.get(combatant_id)
    if c.status == "dead":
        return DEAD_LEVEL
    if c.status == "unconscious":
        return UNCONSCIOUS_LEVEL
    if c.damage_physical + c.damage_stun <= 0:
        return WOUND_LEVELS[0]
    left = 100 * c.health
    for level, threshold in zip(WOUND_LEVELS[1:], state.settings.wound_thresholds, strict=False):
        if left > threshold * c.max_health:
            return level
    return WOUND_LEVELS[-1]


def condition_badges(state: EncounterState, combatant_id: str) -> list[Badge]:
    """Each condition once, with stacks, turns left and difficulty; derived ones included."""
    c = state.get(combatant_id)
    badges = []
    if c.status == "unconscious":
        badges.append(_badge("nieprzytomnosc", ()))
    if c.position is not None:
        enemies = [e.position for e in state.enemies_of(c.id) if e.position and e.conscious]
        if grid.osaczenie(c.position, enemies, state.settings):
            badges.append(_badge("osaczenie", ()))
    for key in dict.fromkeys(x.key for x in c.conditions):
        badges.append(_badge(key, _detail([x for x in c.conditions if x.key == key])))
    return badges


DetailPart = tuple[str, Mapping[str, Any]]
NOTE = "%(note)s"  # a GM's note is shown as typed: no msgid, gettext leaves it as it is


def _badge(key: str, parts: tuple[DetailPart, ...]) -> Badge:
    spec = cond.spec(key)
    detail = ", ".join(fill(template, params) for template, params in parts)
    return Badge(key, spec.label, detail, spec.description, detail_parts=parts)


def _detail(instances: list[cond.ConditionInstance]) -> tuple[DetailPart, ...]:
    """(msgid, params) per part of a badge's detail: "×2", "tury: 3", "trudność 2", notes."""
    parts: list[DetailPart] = []
    stacks = sum(x.stacks for x in instances)
    if stacks > 1:
        parts.append(("×%(stacks)s", {"stacks": stacks}))  # the same in every language
    turns = [x.remaining for x in instances]
    if turns and None not in turns:
        left = max(t for t in turns if t is not None)
        parts.append((gettext_noop("tury: %(turns)s"), {"turns": left}))
    difficulties = [x.difficulty for x in instances if x.difficulty is not None]
    if difficulties:
        parts.append((gettext_noop("trudność %(difficulty)s"), {"difficulty": max(difficulties)}))
    parts += [(NOTE, {"note": x.note}) for x in instances if x.note]
    return tuple(parts)
