"""Chi-square checks that the chance sources are uniform, and that the checks catch classic biases.

Every test on ``SeededRandom`` uses fixed seeds, so its outcome is deterministic: a pass at the 99% level is
a pass every time. ``SystemRandom`` cannot be seeded; its tests use the 99.9% level, so a correct source
still fails one of them about once in a thousand runs — a known, accepted flake risk (rerun before
suspecting the source).

The second half runs the same functions on deliberately broken generators (modulo bias, the naive
"swap with any position" shuffle, Sattolo's off-by-one Fisher–Yates, a sticky wheel) and requires the
suite to reject them at the fixed seed. The sample sizes give each bias a non-centrality far above the
critical value (e.g. modulo bias over 100,000 spins: λ ≈ 155 against a critical value of 58.6 on 36 df).
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence

import pytest

from croupier.primitives.cards import deck
from croupier.primitives.chance import RandomSource, SystemRandom
from croupier.primitives.pcg import SeededRandom
from croupier.primitives.shoe import Shoe

from .chisq import ChiSquare, dice_test, pocket_test, position_test, serial_pair_test

pytestmark = pytest.mark.stats

ALPHA = 0.01  # 99% level, for the seeded (deterministic) runs
ALPHA_SYSTEM = 0.001  # 99.9% level for the unseeded SystemRandom (see the module docstring)
SEEDS = (20240601, 7)

SPINS = 100_000
ROLLS = 60_000
PAIRS = 37 * 37 * 30
SHUFFLES = {8: 5_000, 52: 2_000}  # deck size -> shuffles


def sources() -> list[tuple[str, Callable[[int], RandomSource], float]]:
    """(id, factory taking a seed, alpha) for every source that must pass."""
    seeded = [(f"seeded-{s}", lambda i, s=s: SeededRandom([s, i]), ALPHA) for s in SEEDS]
    return [*seeded, ("system", lambda i: SystemRandom(), ALPHA_SYSTEM)]


SOURCES = pytest.mark.parametrize(
    ("factory", "alpha"), [(f, a) for _, f, a in sources()], ids=[n for n, _, _ in sources()]
)


def assert_uniform(result: ChiSquare, alpha: float) -> None:
    assert not result.rejects(alpha), f"uniformity rejected: {result}"


def assert_rejected(result: ChiSquare, alpha: float = ALPHA) -> None:
    assert result.rejects(alpha), f"bias not detected: {result}"


# -- the sources in use must pass ---------------------------------------------------------------------------


class TestSourcesAreUniform:
    @SOURCES
    def test_pockets(self, factory: Callable[[int], RandomSource], alpha: float) -> None:
        assert_uniform(pocket_test(factory(1).pocket, SPINS), alpha)

    @SOURCES
    def test_dice(self, factory: Callable[[int], RandomSource], alpha: float) -> None:
        assert_uniform(dice_test(factory(2).dice, ROLLS), alpha)

    @SOURCES
    def test_serial_pairs_of_pockets(self, factory: Callable[[int], RandomSource], alpha: float) -> None:
        assert_uniform(serial_pair_test(factory(3).pocket, PAIRS), alpha)

    @SOURCES
    @pytest.mark.parametrize("n_cards", sorted(SHUFFLES))
    def test_card_positions(self, factory: Callable[[int], RandomSource], alpha: float, n_cards: int) -> None:
        assert_uniform(position_test(factory(4).shuffle, n_cards, SHUFFLES[n_cards]), alpha)

    @SOURCES
    def test_shoe_positions(self, factory: Callable[[int], RandomSource], alpha: float) -> None:
        """A one-deck shoe shuffled by the source: every card equally likely in every position."""
        source = factory(5)
        index = {card: i for i, card in enumerate(deck())}

        def shoe_shuffle(items: MutableSequence[int]) -> None:
            items[:] = [index[card] for card in Shoe(1, source)._peek_order()]

        assert_uniform(position_test(shoe_shuffle, 52, SHUFFLES[52]), alpha)


# -- deliberately biased generators must be caught ----------------------------------------------------------


def modulo_pocket(rng: RandomSource) -> Callable[[], int]:
    """``byte % 37``: pockets 0-33 come up 7 times in 256, pockets 34-36 only 6 times."""
    return lambda: (rng.next_u64() & 0xFF) % 37


def naive_shuffle(rng: RandomSource) -> Callable[[MutableSequence[int]], None]:
    """Swap every position with *any* position: n**n equally likely paths onto n! orders, so biased."""

    def shuffle(items: MutableSequence[int]) -> None:
        n = len(items)
        for i in range(n):
            j = rng.randbelow(n)
            items[i], items[j] = items[j], items[i]

    return shuffle


def sattolo_shuffle(rng: RandomSource) -> Callable[[MutableSequence[int]], None]:
    """Fisher–Yates with the off-by-one ``randbelow(i)``: only cyclic orders, no card ever stays put."""

    def shuffle(items: MutableSequence[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = rng.randbelow(i)
            items[i], items[j] = items[j], items[i]

    return shuffle


def sticky_pocket(rng: RandomSource, repeat: float = 0.02) -> Callable[[], int]:
    """A wheel that repeats the previous pocket 2% of the time: uniform alone, but correlated in pairs."""
    last = [rng.pocket()]

    def draw() -> int:
        if rng.randbelow(1000) >= repeat * 1000:
            last[0] = rng.pocket()
        return last[0]

    return draw


class TestBiasIsDetected:
    @pytest.mark.parametrize("seed", SEEDS)
    def test_modulo_bias(self, seed: int) -> None:
        assert_rejected(pocket_test(modulo_pocket(SeededRandom(seed)), SPINS))

    @pytest.mark.parametrize("seed", SEEDS)
    @pytest.mark.parametrize("n_cards", sorted(SHUFFLES))
    def test_naive_shuffle(self, seed: int, n_cards: int) -> None:
        assert_rejected(position_test(naive_shuffle(SeededRandom(seed)), n_cards, SHUFFLES[n_cards]))

    @pytest.mark.parametrize("seed", SEEDS)
    def test_sattolo_off_by_one(self, seed: int) -> None:
        assert_rejected(position_test(sattolo_shuffle(SeededRandom(seed)), 8, SHUFFLES[8]))

    @pytest.mark.parametrize("seed", SEEDS)
    def test_sticky_wheel_passes_uniformity_but_fails_serial_pairs(self, seed: int) -> None:
        assert_uniform(pocket_test(sticky_pocket(SeededRandom(seed)), SPINS), ALPHA)
        assert_rejected(serial_pair_test(sticky_pocket(SeededRandom(seed)), PAIRS))
