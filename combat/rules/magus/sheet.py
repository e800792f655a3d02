"""A Magus character sheet as pure data: attribute steps, talents and skills with ranks, the
defences and ratings the sheet records, and the equipment.

The stored JSON (validated by the characters app from `MagusRuleset.attributes/skills/
sheet_sections`) has the shape {"attributes": {key: int}, "skills": {key: rank}, "weapons":
[...], "armour": [...], "shields": [...], "spells": [...], "items": [...]}; `Sheet.from_dict`
reads it. The digest's DEFAULT (§8 #5): the defences, the Wound Threshold and the
Unconsciousness and Death Ratings are entered per character, not computed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from combat.rules.base import gettext_noop

# Attribute steps (ED attributes are used by their step).
ATTRIBUTES: tuple[tuple[str, str], ...] = (
    ("zrecznosc", gettext_noop("Zręczność")),
    ("sila", gettext_noop("Siła")),
    ("zywotnosc", gettext_noop("Żywotność")),
    ("percepcja", gettext_noop("Percepcja")),
    ("sila_woli", gettext_noop("Siła Woli")),
    ("charyzma", gettext_noop("Charyzma")),
)
# Values the sheet records (§2): defences, ratings, recovery and movement.
STATS: tuple[tuple[str, str], ...] = (
    ("obrona_fizyczna", gettext_noop("Obrona Fizyczna")),
    ("obrona_magiczna", gettext_noop("Obrona Magiczna")),
    ("obrona_spoleczna", gettext_noop("Obrona Społeczna")),
    ("prog_ran", gettext_noop("Próg Ran")),
    ("prog_przytomnosci", gettext_noop("Próg Utraty Przytomności")),
    ("prog_smierci", gettext_noop("Próg Śmierci")),
    ("testy_zdrowienia", gettext_noop("Testy zdrowienia na dzień")),
    ("ruch", gettext_noop("Szybkość ruchu (m)")),
    ("ruch_pelny", gettext_noop("Pełna szybkość (m)")),
)
# Talents and skills by rank; the test step is rank + the step of the attribute beside it.
TALENTS: tuple[tuple[str, str, str], ...] = (
    ("bron_biala", gettext_noop("Broń Biała"), "zrecznosc"),
    ("walka_wrecz", gettext_noop("Walka Wręcz"), "zrecznosc"),
    ("strzelectwo", gettext_noop("Strzelectwo"), "zrecznosc"),
    ("rzucanie", gettext_noop("Rzucanie bronią"), "zrecznosc"),
    ("rzucanie_czarow", gettext_noop("Rzucanie czarów"), "percepcja"),
    ("unik", gettext_noop("Unik"), "zrecznosc"),
    ("riposta", gettext_noop("Riposta"), "zrecznosc"),
    ("sprint", gettext_noop("Sprint"), "zrecznosc"),
    ("szarza", gettext_noop("Szarża"), "sila"),
    ("pewny_dosiad", gettext_noop("Pewny dosiad"), "sila"),
    ("ognista_krew", gettext_noop("Ognista Krew"), "zywotnosc"),
    ("przeszukiwanie", gettext_noop("Przeszukiwanie"), "percepcja"),
    ("podkradanie", gettext_noop("Podkradanie się"), "zrecznosc"),
)
TALENT_ATTRIBUTE = {key: attribute for key, _label, attribute in TALENTS}
# The defensive talents: one of them at most against one attack.
DEFENSIVE_TALENTS = ("unik", "riposta")
# The talent an attack with each weapon kind is tested with.
ATTACK_TALENT = {
    "melee": "bron_biala",
    "unarmed": "walka_wrecz",
    "missile": "strzelectwo",
    "thrown": "rzucanie",
}
CLOSE_COMBAT = frozenset({"melee", "unarmed"})
# Item kinds with a rule of their own.
BROOCH = "brosza_ostrzezenia"
HEALING_ELIXIR = "eliksir_zdrowienia"
SADDLE = "siodlo"  # Walka jeździecka: a creature with a saddle is a mount (may be mounted)


@dataclass(frozen=True)
class Weapon:
    name: str
    kind: str = "melee"  # melee | unarmed | missile | thrown
    damage: int = 0  # the weapon's damage step, added to Siła
    size: int = 1
    two_handed: bool = False
    magic: bool = False  # thread or magic weapon: no ×3 damage cap
    lance: bool = False


@dataclass(frozen=True)
class Armour:
    name: str
    physical: int = 0
    mystic: int = 0
    initiative_penalty: int = 0


@dataclass(frozen=True)
class Shield:
    name: str
    physical: int = 0
    mystic: int = 0
    initiative_penalty: int = 0
    destruction: int = 10  # destruction threshold (Strzaskanie tarczy)
    magic: bool = False


@dataclass(frozen=True)
class Spell:
    name: str
    effect_step: int = 0
    defence: str = "obrona_magiczna"  # the defence its attack test goes against


@dataclass(frozen=True)
class Item:
    name: str
    kind: str = "other"  # other | brosza_ostrzezenia | eliksir_zdrowienia | siodlo
    count: int = 1


@dataclass(frozen=True)
class Sheet:
    """A character's numbers; every missing value reads as its minimum (0, or step 1)."""

    name: str
    attributes: Mapping[str, int]
    skills: Mapping[str, int]
    weapons: tuple[Weapon, ...] = ()
    armour: tuple[Armour, ...] = ()
    shields: tuple[Shield, ...] = ()
    spells: tuple[Spell, ...] = ()
    items: tuple[Item, ...] = ()

    def step(self, attribute: str) -> int:
        """An attribute's step (at least 1)."""
        return max(1, int(self.attributes.get(attribute, 1)))

    def stat(self, key: str) -> int:
        return int(self.attributes.get(key, 0))

    def rank(self, talent: str) -> int:
        return int(self.skills.get(talent, 0))

    def talent_step(self, talent: str) -> int:
        """Rank + attribute step; an untrained talent (rank 0) tests the attribute alone."""
        return self.rank(talent) + self.step(TALENT_ATTRIBUTE.get(talent, "zrecznosc"))

    @property
    def physical_armour(self) -> int:
        return sum(a.physical for a in self.armour)

    @property
    def mystic_armour(self) -> int:
        return sum(a.mystic for a in self.armour)

    @property
    def shield(self) -> Shield | None:
        return self.shields[0] if self.shields else None

    @property
    def initiative_step(self) -> int:
        """Zręczność step minus the armour's and the shield's initiative penalties (at least 1)."""
        penalty = sum(a.initiative_penalty for a in self.armour)
        penalty += sum(s.initiative_penalty for s in self.shields[:1])
        return max(1, self.step("zrecznosc") - penalty)

    @property
    def armour_penalty(self) -> int:
        """What worn armour takes off a Powstanie test (its initiative penalty)."""
        return sum(a.initiative_penalty for a in self.armour)

    def damage_step(self, weapon: Weapon) -> int:
        return self.step("sila") + weapon.damage

    @property
    def is_mount(self) -> bool:
        """A creature that carries a rider (Walka jeździecka): its sheet lists a saddle."""
        return self.has_item(SADDLE)

    def has_item(self, kind: str) -> bool:
        return any(i.kind == kind and i.count > 0 for i in self.items)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], name: str = "") -> Sheet:
        """A sheet from its stored JSON (already validated by the app); ValueError if the
        shape is wrong."""
        if not isinstance(data, Mapping):
            raise ValueError("a Magus sheet must be a JSON object")
        try:
            return cls(
                name=str(data.get("name", name)),
                attributes={str(k): int(v) for k, v in dict(data.get("attributes", {})).items()},
                skills={str(k): int(v) for k, v in dict(data.get("skills", {})).items()},
                weapons=tuple(Weapon(**w) for w in data.get("weapons", ())),
                armour=tuple(Armour(**a) for a in data.get("armour", ())),
                shields=tuple(Shield(**s) for s in data.get("shields", ())),
                spells=tuple(Spell(**s) for s in data.get("spells", ())),
                items=tuple(Item(**i) for i in data.get("items", ())),
            )
        except (TypeError, ValueError) as error:
            raise ValueError(f"malformed Magus sheet: {error}") from None

    def to_dict(self) -> dict[str, Any]:
        from dataclasses import asdict

        return {
            "name": self.name,
            "attributes": dict(self.attributes),
            "skills": dict(self.skills),
            "weapons": [asdict(w) for w in self.weapons],
            "armour": [asdict(a) for a in self.armour],
            "shields": [asdict(s) for s in self.shields],
            "spells": [asdict(s) for s in self.spells],
            "items": [asdict(i) for i in self.items],
        }
