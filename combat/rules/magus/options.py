"""The combat options table (Opcje walki) as data, and the pure functions that read it: the
Strain of each option, which options combine, and what they add to attacks, damage, defences.

Options marked `declared` are chosen in the declaration phase, before Initiative; the others
are rows of the same table the act phase uses (Zmiana akcji, Powstrzymanie akcji, Powstanie)
or states and flags (Powalony, Utrata przytomności, Atak z tyłu). Every number is a setting
(`MagusSettings`), named in the row.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from combat.rules.base import RuleViolation, gettext_noop
from combat.rules.magus.dice import Adjustment
from combat.rules.magus.settings import MagusSettings
from combat.rules.magus.sheet import CLOSE_COMBAT, Sheet

BIEG = "bieg"
AGRESYWNY = "agresywny_atak"
POWALENIE = "atak_by_powalic"
OGLUSZENIE = "atak_by_ogluszyc"
POSTAWA = "postawa_obronna"
ODDAWANIE = "oddawanie_pola"
ZMIANA = "zmiana_akcji"
POWSTRZYMANIE = "powstrzymanie_akcji"
PRZYCELOWANIE = "przycelowanie"
PRECYZYJNY = "precyzyjny_atak"
OMINIECIE = "ominiecie_tarczy"
POWALONY = "powalony"
POWSTANIE = "powstanie"
STRZASKANIE = "strzaskanie_tarczy"
UTRATA = "utrata_przytomnosci"
Z_TYLU = "atak_z_tylu"
RUCH_DZIELONY = "ruch_dzielony"


@dataclass(frozen=True)
class Option:
    """One row of the table: its key, Polish label (msgid), the setting holding its Strain
    (None: no Strain) and whether it is chosen in the declaration phase."""

    key: str
    label: str
    strain_setting: str | None
    declared: bool
    needs_attack: bool = False  # only with a declared attack
    description: str = ""


OPTIONS: dict[str, Option] = {
    o.key: o
    for o in (
        Option(
            BIEG,
            gettext_noop("Bieg"),
            "running_strain",
            True,
            description=gettext_noop("Szybkość ruchu ×2; zużywa akcję standardową; Otoczony"),
        ),
        Option(
            AGRESYWNY,
            gettext_noop("Agresywny atak"),
            "aggressive_strain",
            True,
            needs_attack=True,
            description=gettext_noop("+3 do ataku i obrażeń (tylko wręcz); −3 OF i OM"),
        ),
        Option(
            POWALENIE,
            gettext_noop("Atak by powalić"),
            None,
            True,
            needs_attack=True,
            description=gettext_noop("obrażenia − pancerz to trudność testu równowagi celu"),
        ),
        Option(
            OGLUSZENIE,
            gettext_noop("Atak by ogłuszyć"),
            None,
            True,
            needs_attack=True,
            description=gettext_noop("obrażenia ogłuszające; Rana = Ogłuszony"),
        ),
        Option(
            POSTAWA,
            gettext_noop("Postawa obronna"),
            None,
            True,
            description=gettext_noop("+3 OF i OM; −3 do wyniku każdej akcji (także Uniku)"),
        ),
        Option(
            ODDAWANIE,
            gettext_noop("Oddawanie pola"),
            "giving_ground_strain",
            True,
            description=gettext_noop("+1 OF za każdy oddany heks; −2 do testów ataku"),
        ),
        Option(
            ZMIANA,
            gettext_noop("Zmiana akcji"),
            None,
            False,
            description=gettext_noop("+2 do trudności za każdą zmianę; Wyczerpanie jak pierwotna"),
        ),
        Option(
            POWSTRZYMANIE,
            gettext_noop("Powstrzymanie akcji"),
            None,
            False,
            description=gettext_noop("działa przed tym, czyja kolej; +2 do trudności"),
        ),
        Option(
            PRZYCELOWANIE,
            gettext_noop("Przycelowanie"),
            "aiming_strain",
            True,
            description=gettext_noop("+2 (+3 po dwóch rundach) do ataku na odległość"),
        ),
        Option(
            PRECYZYJNY,
            gettext_noop("Precyzyjny atak"),
            "called_shot_strain",
            True,
            needs_attack=True,
            description=gettext_noop("wybrana lokacja lub broń; −3 do wyniku ataku"),
        ),
        Option(
            OMINIECIE,
            gettext_noop("Ominięcie tarczy"),
            None,
            True,
            needs_attack=True,
            description=gettext_noop("tarcza celu odjęta od Inicjatywy; wygrana omija tarczę"),
        ),
        Option(
            POWALONY,
            gettext_noop("Powalony"),
            None,
            False,
            description=gettext_noop("bez opcji walki; −3 OF i OM; −3 do testów akcji"),
        ),
        Option(
            POWSTANIE,
            gettext_noop("Powstanie"),
            "getting_up_strain",
            False,
            description=gettext_noop("akcja prosta: Zręczność − kara pancerza vs 6"),
        ),
        Option(
            STRZASKANIE,
            gettext_noop("Strzaskanie tarczy"),
            "shatter_shield_strain",
            True,
            needs_attack=True,
            description=gettext_noop("przy przebiciu: obrażenia + wielkość broni vs próg tarczy"),
        ),
        Option(
            UTRATA,
            gettext_noop("Utrata przytomności"),
            None,
            False,
            description=gettext_noop("tylko testy zdrowienia; −3 OF i OM; bez akcji"),
        ),
        Option(
            Z_TYLU,
            gettext_noop("Atak z tyłu"),
            None,
            False,
            description=gettext_noop("cel −2 OF, OM, OS; atakujący musi widzieć cel"),
        ),
        Option(
            RUCH_DZIELONY,
            gettext_noop("Ruch dzielony"),
            "split_move_strain",
            True,
            description=gettext_noop("ruch – atak – ruch; po zużyciu szybkości ruchu Otoczony"),
        ),
    )
}
DECLARABLE = tuple(key for key, o in OPTIONS.items() if o.declared)
# Pairs that do not combine (the attack's purpose, or opposite stances).
EXCLUSIVE = (
    frozenset({POWALENIE, OGLUSZENIE}),
    frozenset({POWALENIE, STRZASKANIE}),
    frozenset({OGLUSZENIE, STRZASKANIE}),
    frozenset({AGRESYWNY, POSTAWA}),
)
# Aiming is all a character does in its round (no movement, no simple action, no attack).
NOT_WITH_AIMING = frozenset(DECLARABLE) - {PRZYCELOWANIE, POSTAWA}


def label(key: str) -> str:
    return OPTIONS[key].label if key in OPTIONS else key


def strain(key: str, settings: MagusSettings) -> int:
    """The Strain (Wyczerpanie) one option costs a round (0 for an option without it)."""
    name = OPTIONS[key].strain_setting if key in OPTIONS else None
    return int(getattr(settings, name)) if name else 0


def strain_damage(points: int, settings: MagusSettings) -> int:
    """Strain paid as damage: `strain_damage` points of damage per point of Strain."""
    return points * settings.strain_damage


def check_options(
    options: Iterable[str],
    *,
    sheet: Sheet,
    action: str,
    weapon: str,
    ground: int,
    knocked_down: bool,
    settings: MagusSettings,
) -> tuple[str, ...]:
    """The declared options, checked (RuleViolation naming the first that may not be used),
    without repeats, in the table's order."""
    chosen = tuple(dict.fromkeys(options))
    for key in chosen:
        if key not in OPTIONS or not OPTIONS[key].declared:
            raise RuleViolation(
                "opcja", gettext_noop("Nie ma takiej opcji walki: %(option)s."), option=key
            )
    if chosen and knocked_down:
        raise RuleViolation(
            "powalony_opcje", gettext_noop("Powalona postać nie może używać opcji walki.")
        )
    for pair in EXCLUSIVE:
        if pair <= set(chosen):
            first, second = sorted(pair)
            raise RuleViolation(
                "opcje_razem",
                gettext_noop("Opcji %(first)s i %(second)s nie można łączyć."),
                first=label(first),
                second=label(second),
            )
    for key in chosen:
        _check_one(key, set(chosen), sheet, action, weapon, ground, settings)
    return tuple(k for k in DECLARABLE if k in chosen)


def _check_one(
    key: str,
    chosen: set[str],
    sheet: Sheet,
    action: str,
    weapon: str,
    ground: int,
    settings: MagusSettings,
) -> None:
    option = OPTIONS[key]
    attacking = action in ("attack", "spell")
    if option.needs_attack and not attacking:
        raise RuleViolation(
            "opcja_atak",
            gettext_noop("%(option)s wymaga zadeklarowanego ataku."),
            option=option.label,
        )
    used = next((w for w in sheet.weapons if w.name == weapon), None)
    if key == AGRESYWNY and (action != "attack" or used is None or used.kind not in CLOSE_COMBAT):
        raise RuleViolation(
            "agresywny_wrecz", gettext_noop("Agresywny atak tylko w walce wręcz (bronią białą).")
        )
    if key == STRZASKANIE and (used is None or used.size < settings.shatter_min_size):
        raise RuleViolation(
            "strzaskanie_rozmiar",
            gettext_noop("Strzaskanie tarczy tylko bronią o rozmiarze co najmniej %(size)s."),
            size=settings.shatter_min_size,
        )
    if key == BIEG and action != "none":
        raise RuleViolation(
            "bieg_akcja", gettext_noop("Bieg zużywa akcję standardową: nie deklaruj innej.")
        )
    if key == RUCH_DZIELONY and settings.initiative_movement:
        raise RuleViolation(
            "ruch_dzielony_inicjatywa",
            gettext_noop("Przy ruchu bazującym na Inicjatywie nie ma Ruchu dzielonego."),
        )
    if key == PRZYCELOWANIE and (action != "none" or chosen & NOT_WITH_AIMING):
        raise RuleViolation(
            "przycelowanie_samo",
            gettext_noop("Przycelowanie: w tej rundzie można tylko celować."),
        )
    if key == ODDAWANIE:
        most = min(sheet.rank("bron_biala"), sheet.stat("ruch"))
        if not 2 <= ground <= most:
            raise RuleViolation(
                "oddawanie_pola",
                gettext_noop("Oddawanie pola: od 2 do %(most)s m (ranga Broni Białej, ruch)."),
                most=most,
            )


# --- what the options add ---------------------------------------------------------------------


def attack_adjustments(
    options: Iterable[str], settings: MagusSettings, *, aim: int, ranged: bool
) -> list[Adjustment]:
    """The declared options' bonuses and penalties to the attack test's result."""
    chosen = set(options)
    out: list[Adjustment] = []
    if AGRESYWNY in chosen:
        out.append(Adjustment(settings.aggressive_bonus, label(AGRESYWNY)))
    if ODDAWANIE in chosen:
        out.append(Adjustment(-settings.giving_ground_attack_penalty, label(ODDAWANIE)))
    if PRECYZYJNY in chosen:
        out.append(Adjustment(-settings.called_shot_penalty, label(PRECYZYJNY)))
    if POSTAWA in chosen:
        out.append(Adjustment(-settings.defensive_stance_penalty, label(POSTAWA)))
    if ranged and aim > 0:
        bonus = settings.aim_bonus if aim == 1 else settings.aim_bonus_second_round
        out.append(Adjustment(bonus, label(PRZYCELOWANIE)))
    return out


def action_adjustments(options: Iterable[str], settings: MagusSettings) -> list[Adjustment]:
    """What the options take off every other action test (a defensive talent, Powstanie)."""
    if POSTAWA in set(options):
        return [Adjustment(-settings.defensive_stance_penalty, label(POSTAWA))]
    return []


def damage_bonus(options: Iterable[str], settings: MagusSettings) -> int:
    """Steps the options add to the damage test (Agresywny atak)."""
    return settings.aggressive_bonus if AGRESYWNY in set(options) else 0


def defence_modifiers(
    options: Iterable[str], settings: MagusSettings, *, ground: int, defence: str
) -> list[tuple[str, int]]:
    """(reason, value) the defender's own declared options add to one of its defences."""
    chosen = set(options)
    physical_or_mystic = defence in ("obrona_fizyczna", "obrona_magiczna")
    out: list[tuple[str, int]] = []
    if AGRESYWNY in chosen and physical_or_mystic:
        out.append((label(AGRESYWNY), -settings.aggressive_defence_penalty))
    if POSTAWA in chosen and physical_or_mystic:
        out.append((label(POSTAWA), settings.defensive_stance_bonus))
    if ODDAWANIE in chosen and defence == "obrona_fizyczna":
        out.append((label(ODDAWANIE), ground // 2))
    return out
