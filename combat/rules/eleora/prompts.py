"""Open prompts as the table shows them: the answers a combatant may give now, the command for
each answer, and the answer an automatic policy gives (GM-run characters and the simulator).

One path from an answer to a command serves the player's button, the NPC policy and the
simulator alike, so an automatic answer is never one a player could not have given.
"""

from __future__ import annotations

from typing import Literal, cast

from combat.rules.base import PromptView, RuleViolation
from combat.rules.eleora.attack import (
    SPECIAL_LABELS,
    best_shield,
    check_attack,
    shield_or_one,
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


def prompt_options(state: EncounterState, prompt: Prompt) -> tuple[tuple[str, str], ...]:
    """(key, Polish label) of every answer the rules allow now; "no reaction" always last."""
    actor = state.get(prompt.actor)
    if prompt.kind == "reakcja":
        offered = _defence_options(actor, prompt)
    elif prompt.kind == "atak_okazyjny":
        offered = _opportunity_options(state, actor, prompt)
    else:
        offered = _evade_options(actor)
    return (*offered, (NO_REACTION, "Nic"))


def _defence_options(actor: Combatant, prompt: Prompt) -> tuple[tuple[str, str], ...]:
    """Parowanie (with the shield it would use), Unik, and both when two reactions are left."""
    if reaction_refusal(actor, defensive=True) is not None:
        return ()
    options: list[tuple[str, str]] = []
    if "parowanie" in prompt.options:
        _, shield = shield_or_one(actor, None)
        options.append(("parowanie", f"Parowanie ({shield})" if shield else "Parowanie"))
    if "unik" in prompt.options:
        options.append(("unik", "Unik"))
    if len(options) == 2 and actor.reactions_left >= 2:
        options.append((BOTH, "Parowanie i Unik"))
    return tuple(options)


def _opportunity_options(
    state: EncounterState, actor: Combatant, prompt: Prompt
) -> tuple[tuple[str, str], ...]:
    """Atak okazyjny, if the actor may still react and its best melee weapon may strike."""
    target = state.combatants.get(prompt.target or "")
    if target is None or reaction_refusal(actor) is not None:
        return ()
    weapon = best_weapon(actor, opportunity=True)
    try:
        check_attack(state, actor, target, weapon_profile(actor, weapon), None, opportunity=True)
    except RuleViolation:
        return ()
    return (("atak_okazyjny", "Atak okazyjny"),)


def _evade_options(actor: Combatant) -> tuple[tuple[str, str], ...]:
    if reaction_refusal(actor, defensive=True) is not None or actor.has("unieruchomienie"):
        return ()
    return (("ucieczka", "Ucieczka"),)


# --- the command for an answer ----------------------------------------------------------------


def prompt_command(state: EncounterState, prompt: Prompt, option: str, now: float) -> Command:
    """The command answering `prompt` with one of its option keys (RuleViolation otherwise).

    An Atak okazyjny strikes with the actor's best melee weapon; Ucieczka off the map needs
    no path (on a map the table adds the squares to the Evade command)."""
    if option not in dict(prompt_options(state, prompt)):
        raise RuleViolation("reakcja", "Tej reakcji nie można tu użyć.", option=option)
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
        choice = defence_choice(state.get(prompt.actor), defence) or NO_REACTION
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


def defence_choice(actor: Combatant, defence: Defence) -> Literal["unik", "parowanie"] | None:
    """ "lepsza": Parowanie when the best shield (or +1) beats the Zręczność Unik adds."""
    if defence == "brak":
        return None
    if defence == "lepsza":
        shield = best_shield(actor)
        parry = shield.bonus if shield else 1
        return "parowanie" if parry > actor.sheet.attribute("zrecznosc") else "unik"
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
    options = prompt_options(state, prompt)
    if prompt.kind == "reakcja":
        attack = state.attack(prompt.attack_id or "")
        return PromptView(
            id=prompt.id,
            kind=prompt.kind,
            actor=prompt.actor,
            label=attack_label(state, attack) if attack else "Atak",
            options=options,
            deadline=prompt.deadline,
            attacker=attack.attacker if attack else None,
            attack_command=declared_attack(attack) if attack else None,
        )
    if prompt.kind == "atak_okazyjny":
        actor = state.get(prompt.actor)
        target = state.combatants.get(prompt.target or "")
        label = f"Atak okazyjny: {actor.name} → {target.name if target else prompt.target}"
        weapon = best_weapon(actor, opportunity=True)
        return PromptView(
            id=prompt.id,
            kind=prompt.kind,
            actor=prompt.actor,
            label=f"{label} ({prompt.trigger})" if prompt.trigger else label,
            options=options,
            deadline=prompt.deadline,
            attacker=prompt.actor,
            attack_command=AcceptOpportunity(actor=actor.id, prompt=prompt.id, weapon=weapon),
        )
    return PromptView(
        id=prompt.id,
        kind=prompt.kind,
        actor=prompt.actor,
        label=f"Ucieczka: {prompt.trigger or 'atak obszarowy'}",
        options=options,
        deadline=prompt.deadline,
    )


def attack_label(state: EncounterState, attack: PendingAttack) -> str:
    """ "Atak: Wilk 1 → Radosław (Kły)", with the special attack if any."""
    what = "bez broni" if attack.weapon == UNARMED else attack.weapon
    if attack.special:
        what = f"{what}, {SPECIAL_LABELS.get(attack.special, attack.special)}"
    kind = "Atak okazyjny" if attack.opportunity else "Atak"
    attacker, target = state.get(attack.attacker).name, state.get(attack.target).name
    return f"{kind}: {attacker} → {target} ({what})"


def declared_attack(attack: PendingAttack) -> DeclareAttack:
    """The pending attack as the command that declared it (its pool is fixed in the state)."""
    return DeclareAttack(
        actor=attack.attacker,
        target=attack.target,
        weapon=attack.weapon,
        special=cast(Special | None, attack.special),
        flat=attack.flat,
    )
