"""The dice of an entry (combat/verify.py): HMAC-SHA256 of the seed over "slot:counter", 64 bits
a draw, rejection sampling; the same seed and slot always give the same dice, every face of a
die comes up equally often, and the algorithm is exactly the one the verification page shows."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combat.verify import EntryDice, commitment, new_seed

SEED = "0" * 64
seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)
slots = st.integers(min_value=1, max_value=10**9)


def by_hand(seed: str, slot: int, a: int, b: int, count: int) -> list[int]:
    """The page's recipe, written out again from its text."""
    rolls, n = [], 0
    k = b - a + 1
    limit = 2**64 - 2**64 % k
    while len(rolls) < count:
        mac = hmac.new(seed.encode("ascii"), f"{slot}:{n}".encode("ascii"), hashlib.sha256)
        n += 1
        x = int.from_bytes(mac.digest()[:8], "big")
        if x < limit:
            rolls.append(a + x % k)
    return rolls


def test_the_dice_of_a_known_seed_stay_what_they_were() -> None:
    """A change to the algorithm would make every stored encounter fail its check."""
    d6 = EntryDice(SEED, 1)
    assert [d6.randint(1, 6) for _ in range(10)] == [4, 4, 1, 6, 3, 1, 6, 4, 4, 4]
    d100 = EntryDice(SEED, 2)
    assert [d100.randint(1, 100) for _ in range(5)] == [82, 55, 12, 50, 51]


def test_the_first_draw_of_a_slot_is_hmac_sha256_of_slot_and_counter() -> None:
    mac = hmac.new(SEED.encode(), b"12:0", hashlib.sha256).digest()
    assert EntryDice(SEED, 12).draw() == int.from_bytes(mac[:8], "big")


def test_the_commitment_is_the_sha256_of_the_seeds_text() -> None:
    seed = new_seed()
    assert len(seed) == 64 and int(seed, 16) >= 0 and seed != new_seed()
    assert commitment(seed) == hashlib.sha256(seed.encode()).hexdigest()


def test_a_draw_at_or_over_the_limit_is_rejected_not_folded_modulo() -> None:
    class Scripted(EntryDice):
        def __init__(self, values: list[int]) -> None:
            super().__init__(SEED, 1)
            self.values = values

        def draw(self) -> int:
            self.counter += 1
            return self.values.pop(0)

    limit = 2**64 - 2**64 % 6  # 2**64 - 4
    dice = Scripted([limit, 2**64 - 1, limit - 1, 7])
    assert dice.randint(1, 6) == 1 + (limit - 1) % 6  # two draws thrown away first
    assert dice.counter == 3 and dice.randint(1, 6) == 2


def test_an_empty_or_too_wide_range_is_refused() -> None:
    with pytest.raises(ValueError):
        EntryDice(SEED, 1).randint(3, 2)
    with pytest.raises(ValueError):
        EntryDice(SEED, 1).randint(0, 2**64)
    assert 0 <= EntryDice(SEED, 1).randint(0, 2**64 - 1) < 2**64


@given(seed=seeds, slot=slots, a=st.integers(-1000, 1000), width=st.integers(0, 10**6))
@settings(max_examples=200, deadline=None)
def test_the_same_seed_and_slot_give_the_same_dice_within_their_range(
    seed: str, slot: int, a: int, width: int
) -> None:
    b = a + width
    first, again = EntryDice(seed, slot), EntryDice(seed, slot)
    rolls = [first.randint(a, b) for _ in range(20)]
    assert rolls == [again.randint(a, b) for _ in range(20)]
    assert all(a <= r <= b for r in rolls)
    assert rolls == by_hand(seed, slot, a, b, 20)


@given(seed=seeds, slot=slots)
@settings(max_examples=50, deadline=None)
def test_another_slot_gives_other_dice(seed: str, slot: int) -> None:
    here, next_slot = EntryDice(seed, slot), EntryDice(seed, slot + 1)
    assert [here.draw() for _ in range(4)] != [next_slot.draw() for _ in range(4)]


@given(seed=seeds, slot=slots, sides=st.sampled_from([2, 3, 6, 10, 20, 100]))
@settings(max_examples=30, deadline=None)
def test_every_face_comes_up_equally_often(seed: str, slot: int, sides: int) -> None:
    """Pearson's chi-square over 300 rolls a face, against a bound a fair die exceeds with a
    probability below one in a billion (so this never fails by chance)."""
    per_face = 300
    dice = EntryDice(seed, slot)
    counts = Counter(dice.randint(1, sides) for _ in range(per_face * sides))
    assert set(counts) == set(range(1, sides + 1))
    chi2 = sum((counts[f] - per_face) ** 2 / per_face for f in range(1, sides + 1))
    dof = sides - 1
    # Wilson–Hilferty: the chi-square quantile at z = 6 (p ≈ 1e-9) for dof degrees of freedom.
    bound = dof * (1 - 2 / (9 * dof) + 6 * (2 / (9 * dof)) ** 0.5) ** 3
    assert chi2 < bound, (sides, chi2, bound)
