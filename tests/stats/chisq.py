"""Reusable chi-square tests for chance sources: pockets, dice, serial pairs, card positions.

Each test collects counts from a generator given as a plain callable, so the same functions check
``SeededRandom``, ``SystemRandom`` and the deliberately biased generators of the test suite alike.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

from croupier.primitives.dice import Dice

Draw = Callable[[], int]
"""A generator of integers in ``[0, k)``, e.g. ``source.pocket``."""
Roll = Callable[[], Dice]
"""A generator of three dice, e.g. ``source.dice``."""
Shuffle = Callable[[MutableSequence[int]], None]
"""An in-place shuffle, e.g. ``source.shuffle``."""


@dataclass(frozen=True)
class ChiSquare:
    """The outcome of one chi-square test."""

    name: str
    statistic: float
    df: int
    p_value: float

    def rejects(self, alpha: float) -> bool:
        """True when uniformity is rejected at level ``alpha`` (e.g. 0.01 for a 99% test)."""
        return self.p_value < alpha

    def __str__(self) -> str:
        return f"{self.name}: chi2 = {self.statistic:.1f} on {self.df} df, p = {self.p_value:.3g}"


def uniformity(counts: np.ndarray, name: str = "uniformity") -> ChiSquare:
    """Pearson's chi-square test that ``counts`` (any shape) come from equally likely cells."""
    flat = np.asarray(counts, dtype=float).ravel()
    statistic, p_value = stats.chisquare(flat)
    return ChiSquare(name, float(statistic), flat.size - 1, float(p_value))


def pocket_counts(draw: Draw, n: int, k: int = 37) -> np.ndarray:
    """How often each of ``k`` outcomes came up in ``n`` draws; refuses values outside ``[0, k)``."""
    counts = np.bincount(np.fromiter((draw() for _ in range(n)), dtype=np.int64, count=n), minlength=k)
    if counts.size != k:
        raise ValueError(f"the generator gave values outside 0..{k - 1}")
    return counts


def pocket_test(draw: Draw, n: int, k: int = 37) -> ChiSquare:
    """Uniformity of ``n`` single draws over ``k`` outcomes (the 37 pockets of the wheel by default)."""
    return uniformity(pocket_counts(draw, n, k), f"{k} outcomes")


def dice_test(roll: Roll, n: int) -> ChiSquare:
    """Uniformity of ``n`` rolls over the 216 ordered outcomes of three dice."""
    codes = ((a - 1) * 36 + (b - 1) * 6 + (c - 1) for a, b, c in (roll() for _ in range(n)))
    return uniformity(pocket_counts(lambda: next(codes), n, 216), "216 ordered dice")


def serial_pair_test(draw: Draw, n_pairs: int, k: int = 37) -> ChiSquare:
    """Uniformity of ``n_pairs`` non-overlapping consecutive pairs over the ``k × k`` cells.

    Non-overlapping pairs are independent under the null, so the statistic is chi-square with
    ``k² − 1`` degrees of freedom (overlapping pairs would need Good's correction).
    """
    codes = (draw() * k + draw() for _ in range(n_pairs))
    return uniformity(pocket_counts(lambda: next(codes), n_pairs, k * k), f"{k}x{k} serial pairs")


def position_counts(shuffle: Shuffle, n_items: int, trials: int) -> np.ndarray:
    """``counts[i, j]``: how often item ``i`` landed in position ``j`` over ``trials`` shuffles."""
    counts = np.zeros((n_items, n_items), dtype=np.int64)
    positions = np.arange(n_items)
    for _ in range(trials):
        items = list(range(n_items))
        shuffle(items)
        counts[items, positions] += 1
    return counts


def position_test(shuffle: Shuffle, n_items: int, trials: int) -> ChiSquare:
    """Whether every item is equally likely to land in every position after a shuffle.

    Each shuffle adds a permutation matrix, so the cells are not independent: under a uniform shuffle the
    centred counts live in the ``(n−1)²``-dimensional space of matrices with zero row and column sums, and
    by symmetry their covariance is a multiple of the identity there. Pearson's statistic times
    ``(n−1)/n`` is therefore asymptotically chi-square with ``(n−1)²`` degrees of freedom.
    """
    counts = position_counts(shuffle, n_items, trials)
    expected = trials / n_items
    pearson = float(((counts - expected) ** 2).sum() / expected)
    statistic = pearson * (n_items - 1) / n_items
    df = (n_items - 1) ** 2
    return ChiSquare(f"{n_items}-card positions", statistic, df, float(stats.chi2.sf(statistic, df)))
