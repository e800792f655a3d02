"""Open prompts as the table shows them: the answers a combatant may give now, the command for
each answer, and the answer an automatic policy gives (GM-run characters and the simulator).

One path from an answer to a command serves the player's button, the NPC policy and the
simulator alike, so an automatic answer is never one a player could not have given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, cast

from combat.rules.base import Names, PromptView, RuleViolation, fill, gettext_noop, text_param
from combat.rules.eleora.attack import (
    SPECIAL_MSGIDS,
    best_shield,
    check_attack,
    shield_or_one,
    unik_dice,
    weapon_profile,
)
from combat.rules.eleora.commands import (
    AcceptOpportunity,
    ChooseReaction,
    Command,
    DeclareAttack,
    DeclineOpportunity,
    Evade,
    Reaction,
    Special,
)
from combat.rules.eleora.engine.common import reaction_refusal
from combat.rules.eleora.events import DeadlinesMoved, Event
from combat.rules.eleora.settings import TableSettings
from combat.rules.eleora.state import UNARMED, Combatant, EncounterState, PendingAttack, Prompt

Defence = Literal["unik", "parowanie", "brak", "lepsza"]
NO_REACTION = ""  # the option key of "no reaction" on every prompt
BOTH = "parowanie+unik"
REACTIONS: dict[str, tuple[Reaction, ...]] = {
    NO_REACTION: (),
    "parowanie": ("parowanie",),
    "unik": ("unik",),
    BOTH: ("parowanie", "unik"),
}


# --- what a combatant may answer --------------------------------------------------------------

# (key, msgid, params) of one answer; its Polish label is `fill(msgid, params)`.
Option = tuple[str, str, Mapping[str, Any]]
NONE: Mapping[str, Any] = {}


def prompt_options(state: EncounterState, prompt: Prompt) -> tuple[tuple[str, str], ...]:
    """(key, Polish label) of every answer the rules allow now; "no reaction" always last."""
    return tuple(
        (key, fill(msgid, params)) for key, msgid, params in option_templates(state, prompt)
    )


def option_templates(state: EncounterState, prompt: Prompt) -> tuple[Option, ...]:
    """(key, msgid, params) of every answer the rules allow now; "no reaction" always last."""
    actor = state.get(prompt.actor)
    if prompt.kind == "reakcja":
        offered = _defence_options(actor, prompt)
    elif prompt.kind == "atak_okazyjny":
        offered = _opportunity_options(state, actor, prompt)
    else:
        offered = _evade_options(actor)
    return (*offered, (NO_REACTION, gettext_noop("Nic"), NONE))


def _defence_options(actor: Combatant, prompt: Prompt) -> tuple[Option, ...]:
    """Parowanie (with the shield it would use), Unik, and both when two reactions are left."""
    if reaction_refusal(actor, defensive=True) is not None:
        return ()
    options: list[Option] = []
    if "parowanie" in prompt.options:
        _, shield = shield_or_one(actor, None)
        if shield:
            options.append(
                ("parowanie", gettext_noop("Parowanie (%(shield)s)"), {"shield": shield})
            )
        else:
            options.append(("parowanie", gettext_noop("Parowanie"), NONE))
    if "unik" in prompt.options:
        options.append(("unik", gettext_noop("Unik"), NONE))
    if len(options) == 2 and actor.reactions_left >= 2:
        options.append((BOTH, gettext_noop("Parowanie i Unik"), NONE))
    return tuple(options)


def _opportunity_options(
    state: EncounterState, actor: Combatant, prompt: Prompt
) -> tuple[Option, ...]:
    """Atak okazyjny, if the actor may still react and its best melee weapon may strike."""
    target = state.combatants.get(prompt.target or "")
    if target is None or reaction_refusal(actor) is not None:
        return ()
    weapon = best_weapon(actor, opportunity=True)
    try:
        check_attack(state, actor, target, weapon_profile(actor, weapon), None, opportunity=True)
    except RuleViolation:
        return ()
    return (("atak_okazyjny", gettext_noop("Atak okazyjny"), NONE),)


def _evade_options(actor: Combatant) -> tuple[Option, ...]:
    if reaction_refusal(actor, defensive=True) is not None or actor.has("unieruchomienie"):
        return ()
    return (("ucieczka", gettext_noop("Ucieczka"), NONE),)


# --- the command for an answer ----------------------------------------------------------------


def prompt_command(state: EncounterState, prompt: Prompt, option: str, now: float) -> Command:
    """The command answering `prompt` with one of its option keys (RuleViolation otherwise).

    An Atak okazyjny strikes with the actor's best melee weapon; Ucieczka off the map needs
    no path (on a map the table adds the squares to the Evade command)."""
    if option not in dict(prompt_options(state, prompt)):
        raise RuleViolation(
            "reakcja", gettext_noop("Tej reakcji nie można tu użyć."), option=option
        )
    actor, pid = prompt.actor, prompt.id
    if prompt.kind == "atak_okazyjny":
        if option == NO_REACTION:
            return DeclineOpportunity(actor=actor, prompt=pid, now=now)
        weapon = best_weapon(state.get(actor), opportunity=True)
        return AcceptOpportunity(actor=actor, prompt=pid, weapon=weapon, now=now)
    if prompt.kind == "ucieczka" and option != NO_REACTION:
        return Evade(actor=actor, prompt=pid, now=now)
    return ChooseReaction(actor=actor, prompt=pid, reactions=REACTIONS[option], now=now)


# --- automatic answers ------------------------------------------------------------------------


def policy_option(
    state: EncounterState, prompt: Prompt, defence: Defence, opportunity: bool = True
) -> str:
    """The option a policy picks; "no reaction" when its choice is not allowed now."""
    if prompt.kind == "reakcja":
        choice = defence_choice(state.get(prompt.actor), defence, state.settings) or NO_REACTION
    elif prompt.kind == "atak_okazyjny" and opportunity:
        choice = "atak_okazyjny"
    else:
        choice = NO_REACTION  # Ucieczka needs a square to run to: the policy stays put
    return choice if choice in dict(prompt_options(state, prompt)) else NO_REACTION


def auto_answer(
    state: EncounterState, prompt: Prompt, defence: Defence, opportunity: bool, now: float
) -> Command:
    """The command a policy answers a prompt with."""
    return prompt_command(state, prompt, policy_option(state, prompt, defence, opportunity), now)


def defence_choice(
    actor: Combatant, defence: Defence, settings: TableSettings
) -> Literal["unik", "parowanie"] | None:
    """ "lepsza": Parowanie when the best shield (or +1) beats the dice Unik adds now."""
    if defence == "brak":
        return None
    if defence == "lepsza":
        shield = best_shield(actor)
        parry = shield.bonus if shield else 1
        return "parowanie" if parry > unik_dice(actor, settings) else "unik"
    return defence


def best_weapon(me: Combatant, *, opportunity: bool = False) -> str:
    """The most damaging weapon the rules let it use now (bare hands always work in melee)."""
    usable = [
        w
        for w in me.sheet.weapons
        if me.holds(w.name)
        and w.name not in me.unloaded
        and (opportunity or w.name not in me.weapons_used)
        and not (w.ranged and me.has("oslepienie"))
    ]
    if opportunity:
        usable = [w for w in usable if not w.ranged]
    if usable:
        return max(usable, key=lambda w: w.damage).name
    return UNARMED


# --- the prompt card --------------------------------------------------------------------------


def open_prompts(state: EncounterState) -> list[PromptView]:
    """Every open prompt, oldest first, as the table shows it."""
    return [prompt_view(state, p) for p in state.prompts]


def prompt_view(state: EncounterState, prompt: Prompt) -> PromptView:
    templates = option_templates(state, prompt)
    common: dict[str, Any] = {
        "id": prompt.id,
        "kind": prompt.kind,
        "actor": prompt.actor,
        "options": tuple((key, fill(msgid, params)) for key, msgid, params in templates),
        "option_templates": templates,
        "deadline": prompt.deadline,
    }
    if prompt.kind == "reakcja":
        attack = state.attack(prompt.attack_id or "")
        msgid, params = attack_label(state, attack) if attack else (_ATTACK, NONE)
        return PromptView(
            label=fill(msgid, params),
            label_template=msgid,
            label_params=params,
            attacker=attack.attacker if attack else None,
            attack_command=declared_attack(attack) if attack else None,
            **common,
        )
    if prompt.kind == "atak_okazyjny":
        actor = state.get(prompt.actor)
        target = state.combatants.get(prompt.target or "")
        params = {
            "attacker": Names.of(actor),
            "target": Names.of(target) if target else prompt.target,
            "trigger": text_param(prompt.trigger),
        }
        msgid = (
            gettext_noop("Atak okazyjny: %(attacker)s → %(target)s (%(trigger)s)")
            if prompt.trigger
            else gettext_noop("Atak okazyjny: %(attacker)s → %(target)s")
        )
        weapon = best_weapon(actor, opportunity=True)
        return PromptView(
            label=fill(msgid, params),
            label_template=msgid,
            label_params=params,
            attacker=prompt.actor,
            attack_command=AcceptOpportunity(actor=actor.id, prompt=prompt.id, weapon=weapon),
            **common,
        )
    if prompt.trigger:
        msgid, params = (
            gettext_noop("Ucieczka: %(trigger)s"),
            {"trigger": text_param(prompt.trigger)},
        )
    else:
        msgid, params = gettext_noop("Ucieczka: atak obszarowy"), {}
    return PromptView(
        label=fill(msgid, params), label_template=msgid, label_params=params, **common
    )


_ATTACK = gettext_noop("Atak")


def attack_label(state: EncounterState, attack: PendingAttack) -> tuple[str, dict[str, Any]]:
    """ "Atak: Wilk 1 → Radosław (Kły)", with the special attack if any, as a msgid and its
    params. The kind (Atak, Atak okazyjny) and the special attack are rule terms, texts the
    table translates inside the label."""
    kind = gettext_noop("Atak okazyjny") if attack.opportunity else _ATTACK
    special = SPECIAL_MSGIDS.get(attack.special, attack.special) if attack.special else ""
    params: dict[str, Any] = {
        "kind": text_param(kind),
        "attacker": Names.of(state.get(attack.attacker)),  # hidden: „ktoś ukryty”
        "target": Names.of(state.get(attack.target)),
        "weapon": attack.weapon,
        "special": text_param(special) if special else "",
    }
    unarmed = attack.weapon == UNARMED
    if attack.special and unarmed:
        msgid = gettext_noop("%(kind)s: %(attacker)s → %(target)s (bez broni, %(special)s)")
    elif attack.special:
        msgid = gettext_noop("%(kind)s: %(attacker)s → %(target)s (%(weapon)s, %(special)s)")
    elif unarmed:
        msgid = gettext_noop("%(kind)s: %(attacker)s → %(target)s (bez broni)")
    else:
        msgid = gettext_noop("%(kind)s: %(attacker)s → %(target)s (%(weapon)s)")
    return msgid, params


def declared_attack(attack: PendingAttack) -> DeclareAttack:
    """The pending attack as the command that declared it (its pool is fixed in the state)."""
    return DeclareAttack(
        actor=attack.attacker,
        target=attack.target,
        weapon=attack.weapon,
        special=cast(Special | None, attack.special),
        flat=attack.flat,
    )


def resume(state: EncounterState, *, paused_at: float, now: float, minimum: float) -> list[Event]:
    """An undo brought this state back: each open prompt gets the time it had left at
    `paused_at` (at least `minimum` seconds), counted from `now`."""
    deadlines = {p.id: now + max(p.deadline - paused_at, minimum) for p in state.prompts}
    return [DeadlinesMoved(deadlines=deadlines)] if deadlines else []
