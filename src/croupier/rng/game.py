"""Game-level tests of a sample of outcomes (family ``game``): what a testing laboratory checks beyond the bits
(GLI-19 §3) — every outcome as likely as the statute says, and no outcome telling anything about the next.

Every test returns a :class:`~croupier.rng.results.TestResult`. The chi-square tests compare counts with their
exact probabilities (fractions of the 37 pockets, the 216 rolls, the cards of ``d`` decks drawn without
replacement); a test whose smallest expected count would be below :data:`MIN_EXPECTED` (5), or whose sample is
too short for its statistic, is **skipped** with a reason saying what it needs and what it got.

* Roulette (:func:`roulette_tests`): pocket uniformity; serial pairs (37 × 37, non-overlapping); serial triples
  over three classes (0-12, 13-24, 25-36) and over the 37 pockets; runs of red, black and zero; Knuth's gap
  test for zero, the first dozen and red; Knuth's coupon collector over the 37 pockets.
* Sic bo (:func:`sicbo_tests`, rolls of three faces 1-6): face uniformity; the 216 ordered rolls (each die's
  position independent of the others); the 56 combinations (1/216, 3/216, 6/216); totals 3-18; serial pairs of
  rolls (by total class) and of consecutive dice; runs of small, big and triple; gaps of triples, of totals 10
  and 11, and of a six; coupon collector over the six faces.
* Blackjack (:func:`blackjack_tests`, shoes of card ids in dealing order, see :mod:`croupier.rng.sources`:
  rank ``id % 13`` with 0 = ace … 12 = king, suit ``(id // 13) % 4``, card ``id % 52``): each card's position
  (52 cards × 52·d positions, and 52 cards × position buckets for smaller samples); the cards left where the
  unshuffled order had them; the player's first two cards (pairs, soft and hard totals, blackjack) and the
  dealer's up card against their exact probabilities; the serial correlation of consecutive ranks. Only a
  card's identity is tested (``id % 52``): copies of a card in a multi-deck shoe are alike.

  The hands are dealt as the engine deals the first round after a shuffle with one burn card (BJ 4.1, 5.1):
  position 0 is burned, positions 1 and 3 are the player's two cards, position 2 the dealer's up card; the
  first round of each shoe only, so that the hands of a sample are independent.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from itertools import product

import numpy as np
import numpy.typing as npt
from scipy import stats

from croupier.primitives.cards import deck
from croupier.primitives.wheel import RED
from croupier.rng import _game_kernels as gk
from croupier.rng.results import TestResult
from croupier.rng.sources import Sample

__all__ = [
    "FAMILY",
    "MIN_EXPECTED",
    "blackjack_tests",
    "coupon_probabilities",
    "first_two_probabilities",
    "roulette_tests",
    "run_game_tests",
    "sicbo_combination_probabilities",
    "sicbo_tests",
    "sicbo_total_probabilities",
    "uniformity",
]

FAMILY = "game"
MIN_EXPECTED = 5.0
"""The smallest expected count of a cell for Pearson's chi-square approximation."""
MAX_BINS = 40
"""Gap, run and coupon lengths are grouped into at most this many classes of about equal expectation."""
DECK = 52

Progress = Callable[[int, int], None]
F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]
Test = Callable[[], TestResult]

_RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
_RANK_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


# -- chi-square machinery --------------------------------------------------------------------------------------


def _needs(name: str, n: int, need: int, unit: str, why: str) -> TestResult:
    return TestResult.skip(name, FAMILY, n, f"needs at least {need:,} {unit} ({why}); got {n:,}")


def _chi2(
    name: str,
    counts: npt.ArrayLike,
    expected: npt.ArrayLike,
    n: int,
    *,
    df: int | None = None,
    scale: float = 1.0,
    detail: dict[str, object] | None = None,
) -> tuple[float, float, int]:
    """Pearson's statistic of ``counts`` against ``expected`` (cells of zero expectation must be empty: a count
    there gives p = 0), scaled by ``scale``; ``(statistic, p_value, df)``."""
    obs = np.asarray(counts, dtype=np.float64).ravel()
    exp = np.asarray(expected, dtype=np.float64).ravel()
    live = exp > 0
    stat = float(np.sum((obs[live] - exp[live]) ** 2 / exp[live])) * scale
    dof = int(np.count_nonzero(live)) - 1 if df is None else df
    impossible = int(obs[~live].sum())
    if detail is not None and impossible:
        detail["impossible_outcomes"] = impossible
    p = 0.0 if impossible else float(stats.chi2.sf(stat, dof))
    return stat, p, dof


def uniformity(counts: npt.ArrayLike, probabilities: npt.ArrayLike, name: str) -> TestResult:
    """Chi-square goodness of fit of ``counts`` to the exact ``probabilities`` (same length, summing to 1).

    Skipped when a cell's expected count would be below :data:`MIN_EXPECTED`. ``detail`` holds, cell by cell,
    the ``counts``, the ``expected`` counts and ``z``: the deviation in standard deviations of a binomial count,
    ``(count - n·p) / √(n·p·(1 - p))``, what a report plots as per-pocket deviations; and ``df``.
    """
    obs = np.asarray(counts, dtype=np.int64).ravel()
    prob = np.asarray(probabilities, dtype=np.float64).ravel()
    if obs.shape != prob.shape:
        raise ValueError(f"{name}: {obs.size} counts but {prob.size} probabilities")
    if np.any(prob < 0) or not math.isclose(float(prob.sum()), 1.0, rel_tol=1e-9):
        raise ValueError(f"{name}: the probabilities must be non-negative and sum to 1")
    if np.any(obs < 0):
        raise ValueError(f"{name}: counts cannot be negative")
    if np.count_nonzero(prob) < 2:
        raise ValueError(f"{name}: a chi-square needs at least two possible outcomes")
    n = int(obs.sum())
    least = float(prob[prob > 0].min())
    need = math.ceil(MIN_EXPECTED / least)
    if n < need:
        return _needs(name, n, need, "outcomes", f"every expected count at least {MIN_EXPECTED:g}")
    exp = n * prob
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(prob > 0, (obs - exp) / np.sqrt(exp * (1 - prob)), 0.0)
    detail: dict[str, object] = {
        "counts": obs.tolist(),
        "expected": exp.tolist(),
        "z": [float(x) for x in z],
    }
    stat, p, dof = _chi2(name, obs, exp, n, detail=detail)
    detail["df"] = dof
    return TestResult.of(name, FAMILY, stat, [p], n, detail)


def _grouped(values: I64, pmf: F64, first: int, total: int) -> tuple[float, float, int, dict[str, object]] | None:
    """Chi-square of the lengths ``values`` (each ≥ ``first``) against ``pmf`` (``pmf[k]`` the chance of length
    ``first + k``, its last cell the chance of that length or more), the lengths grouped into at most
    :data:`MAX_BINS` classes of expectation at least :data:`MIN_EXPECTED`; None when fewer than two classes."""
    g = values.size
    if g == 0:
        return None
    exp = g * pmf
    target = max(MIN_EXPECTED, g / MAX_BINS)
    edges = [0]
    acc = 0.0
    for k, e in enumerate(exp):
        acc += e
        if acc >= target and k + 1 < exp.size:
            edges.append(k + 1)
            acc = 0.0
    if acc < target and len(edges) > 1:
        edges.pop()  # the tail too small: merged into the class before
    if len(edges) < 2:
        return None
    idx = np.minimum(values - first, pmf.size - 1)
    hist = np.bincount(idx, minlength=pmf.size).astype(np.float64)
    obs = np.add.reduceat(hist, edges)
    expg = np.add.reduceat(exp, edges)
    stat, p, dof = _chi2("", obs, expg, g)
    lows = [first + e for e in edges]
    detail: dict[str, object] = {
        "from": lows,
        "counts": obs.astype(np.int64).tolist(),
        "expected": expg.tolist(),
    }
    return stat, p, dof, detail


def _geometric_pmf(p: float, g: int) -> F64:
    """``P(L = first + k) = p·(1-p)^k`` with the last cell the tail, long enough that ``g`` samples expect
    less than one in it."""
    q = 1.0 - p
    size = 2 if q <= 0 else max(2, min(100_000, math.ceil(math.log(1.0 / max(g, 1) / 10) / math.log(q)) + 1))
    k = np.arange(size, dtype=np.float64)
    pmf = p * q**k
    pmf[-1] = q ** (size - 1)
    return pmf


def _combine(
    name: str, n: int, parts: Sequence[tuple[str, tuple[float, float, int, dict[str, object]] | None]], need: str
) -> TestResult:
    """One result of several independent chi-squares (each its own p-value, combined by Šidák)."""
    ran = [(label, part) for label, part in parts if part is not None]
    if not ran:
        return TestResult.skip(name, FAMILY, n, need)
    detail: dict[str, object] = {label: {**part[3], "statistic": part[0], "df": part[2]} for label, part in ran}
    left = [label for label, part in parts if part is None]
    if left:
        detail["too_few"] = left
    return TestResult.of(name, FAMILY, sum(part[0] for _, part in ran), [part[1] for _, part in ran], n, detail)


# -- tests shared by the games -------------------------------------------------------------------------------


def _serial(name: str, values: I64, k: int, probs: F64, *, width: int, unit: str) -> TestResult:
    """Non-overlapping ``width``-tuples of ``values`` (classes ``0 … k-1`` of chances ``probs``) against the
    products of their chances."""
    n = values.size
    tuples = n // width
    least = float(probs.min()) ** width
    need = math.ceil(MIN_EXPECTED / least) * width
    if n < need:
        return _needs(name, n, need, unit, f"{k}^{width} cells each expecting at least {MIN_EXPECTED:g}")
    idx = np.zeros(tuples, dtype=np.int64)
    for i in range(width):
        idx = idx * k + values[i : tuples * width : width]
    counts = np.bincount(idx, minlength=k**width)
    cell = probs
    for _ in range(width - 1):
        cell = np.multiply.outer(cell, probs).ravel()
    exp = tuples * cell
    stat, p, dof = _chi2(name, counts, exp, tuples)
    z = (counts - exp) / np.sqrt(exp * (1 - cell))
    worst = int(np.argmax(np.abs(z)))
    cells = [int(c) for c in np.unravel_index(worst, (k,) * width)]
    detail: dict[str, object] = {"tuples": tuples, "df": dof, "max_abs_z": float(abs(z[worst])), "worst": cells}
    if k**width <= 1500:
        detail["z"] = [float(x) for x in z]
    return TestResult.of(name, FAMILY, stat, [p], n, detail)


def _runs(name: str, symbols: I64, probs: Sequence[float], labels: Sequence[str], unit: str) -> TestResult:
    """Lengths of runs of each symbol (the last, unfinished run left out) against the geometric law: a run of
    a symbol of chance ``p`` has length ``l`` with chance ``p^(l-1)·(1-p)``, independently of the others."""
    n = symbols.size
    if n < 2:
        return _needs(name, n, 2, unit, "runs")
    change = np.flatnonzero(symbols[1:] != symbols[:-1]) + 1
    starts = np.concatenate(([0], change))
    lengths = np.diff(np.concatenate((starts, [n])))[:-1]
    kinds = symbols[starts][:-1]
    parts = []
    for s, (p, label) in enumerate(zip(probs, labels, strict=True)):
        runs = lengths[kinds == s].astype(np.int64)
        parts.append((label, _grouped(runs, _geometric_pmf(1.0 - p, runs.size), 1, runs.size)))
    return _combine(
        name, n, parts, f"needs enough runs of each kind for two classes of {MIN_EXPECTED:g}; got {n:,} {unit}"
    )


def _gaps(name: str, masks: Sequence[tuple[str, npt.NDArray[np.bool_], float]], unit: str) -> TestResult:
    """Knuth's gap test (TAOCP 3.3.2 B) for each subset: the number of outcomes outside it between successive
    outcomes in it, against ``p·(1-p)^r``."""
    n = masks[0][1].size if masks else 0
    parts = []
    for label, mask, p in masks:
        gaps = np.diff(np.flatnonzero(mask)) - 1
        parts.append((label, _grouped(gaps.astype(np.int64), _geometric_pmf(p, gaps.size), 0, gaps.size)))
    return _combine(name, n, parts, f"needs enough gaps for two classes of {MIN_EXPECTED:g} each; got {n:,} {unit}")


@cache
def coupon_probabilities(d: int, longest: int) -> tuple[float, ...]:
    """Knuth's coupon collector law (TAOCP 3.3.2 D) for ``d`` equally likely values: the chance that a segment
    needs exactly ``r`` values to hold all ``d``, ``d!/d^r · S(r-1, d-1)`` (S: Stirling numbers of the second
    kind), for ``r = d … longest - 1``, then the chance of ``longest`` or more, ``1 - d!/d^(longest-1) ·
    S(longest-1, d)``. Computed exactly in integers, returned as floats."""
    if d < 1 or longest <= d:
        raise ValueError(f"coupon probabilities need 1 ≤ d < longest, not d={d}, longest={longest}")
    # Stirling numbers S(r, k) for k ≤ d, row by row: S(r, k) = k·S(r-1, k) + S(r-1, k-1)
    row = [1] + [0] * d  # S(0, ·)
    rows = [row]
    for _ in range(1, longest):
        prev = rows[-1]
        rows.append([0] + [k * prev[k] + prev[k - 1] for k in range(1, d + 1)])
    fact = math.factorial(d)
    out = [float(Fraction(fact * rows[r - 1][d - 1], d**r)) for r in range(d, longest)]
    out.append(float(1 - Fraction(fact * rows[longest - 1][d], d ** (longest - 1))))
    return tuple(out)


def _coupon(name: str, values: I64, d: int, unit: str) -> TestResult:
    """Knuth's coupon collector test over values ``0 … d-1`` (equally likely)."""
    n = values.size
    segments = gk.coupon_segments(values, d)
    g = int(segments.size)
    # long enough that g segments expect well under one beyond it: d·(ln d + ln 10g) values
    longest = d + 1 + math.ceil(d * (math.log(d) + math.log(10 * max(g, 1))))
    pmf = np.asarray(coupon_probabilities(d, longest), dtype=np.float64)
    part = _grouped(segments, pmf, d, g)
    if part is None:
        return TestResult.skip(
            name,
            FAMILY,
            n,
            f"needs enough complete segments for two classes of {MIN_EXPECTED:g}: got {g} "
            f"segment{'s' if g != 1 else ''} in {n:,} {unit}",
        )
    stat, p, dof, detail = part
    return TestResult.of(name, FAMILY, stat, [p], n, {**detail, "segments": g, "df": dof})


# -- roulette ------------------------------------------------------------------------------------------------

_POCKETS = 37
_ROULETTE_P = np.full(_POCKETS, 1 / _POCKETS)
_RED_MASK = np.array([p in RED for p in range(_POCKETS)])
_COLOUR = np.where(_RED_MASK, 0, 1)
_COLOUR[0] = 2
_THIRDS = np.minimum(np.maximum(np.arange(_POCKETS) - 1, 0) // 12, 2)  # 0-12, 13-24, 25-36
_THIRDS_P = np.array([13, 12, 12], dtype=np.float64) / _POCKETS


def _pockets(pockets: npt.ArrayLike) -> I64:
    a = np.asarray(pockets).astype(np.int64, copy=False).ravel()
    if a.size and (a.min() < 0 or a.max() > 36):
        bad = a[(a < 0) | (a > 36)][0]
        raise ValueError(f"{int(bad)} is not a roulette pocket 0-36")
    return a


def _roulette_plan(pockets: npt.ArrayLike) -> list[Test]:
    a = _pockets(pockets)
    unit = "spins"
    return [
        lambda: uniformity(np.bincount(a, minlength=_POCKETS), _ROULETTE_P, "roulette: pockets"),
        lambda: _serial("roulette: serial pairs", a, _POCKETS, _ROULETTE_P, width=2, unit=unit),
        lambda: _serial("roulette: serial triples of 0-12, 13-24, 25-36", _THIRDS[a], 3, _THIRDS_P, width=3, unit=unit),
        lambda: _serial("roulette: serial triples", a, _POCKETS, _ROULETTE_P, width=3, unit=unit),
        lambda: _runs("roulette: runs of red, black and zero", _COLOUR[a], (18 / 37, 18 / 37, 1 / 37),
                      ("red", "black", "zero"), unit),
        lambda: _gaps(
            "roulette: gaps",
            [("zero", a == 0, 1 / 37), ("first dozen", (a >= 1) & (a <= 12), 12 / 37), ("red", _RED_MASK[a], 18 / 37)],
            unit,
        ),
        lambda: _coupon("roulette: coupon collector (37 pockets)", a, _POCKETS, unit),
    ]  # fmt: skip


def roulette_tests(pockets: npt.ArrayLike) -> list[TestResult]:
    """Every roulette test of ``pockets`` (a 1-D array of pockets 0-36 in the order they came)."""
    return [test() for test in _roulette_plan(pockets)]


# -- sic bo --------------------------------------------------------------------------------------------------

_ROLLS = tuple(product(range(1, 7), repeat=3))


@cache
def _combination_table() -> tuple[tuple[tuple[int, int, int], ...], tuple[Fraction, ...]]:
    combos = sorted({tuple(sorted(r)) for r in _ROLLS})
    probs = [Fraction(sum(1 for r in _ROLLS if tuple(sorted(r)) == c), 216) for c in combos]
    return tuple((c[0], c[1], c[2]) for c in combos), tuple(probs)


def sicbo_combination_probabilities() -> dict[tuple[int, int, int], Fraction]:
    """The 56 unordered combinations of three dice (faces in ascending order) and their exact chances: 1/216 for
    a triple, 3/216 for a double, 6/216 for three different faces."""
    combos, probs = _combination_table()
    return dict(zip(combos, probs, strict=True))


def sicbo_total_probabilities() -> dict[int, Fraction]:
    """Totals 3-18 of three dice and their exact chances (out of 216)."""
    return {t: Fraction(sum(1 for r in _ROLLS if sum(r) == t), 216) for t in range(3, 19)}


_COMBO_INDEX = np.array([_combination_table()[0].index(tuple(sorted(r))) for r in _ROLLS], dtype=np.int64)
"""The index of each ordered roll's combination (the rolls in the order of ``product``: 36·(a-1) + 6·(b-1) + c-1)."""
_COMBO_P = np.array([float(p) for p in _combination_table()[1]])
_TOTAL_P = np.array([float(p) for p in sicbo_total_probabilities().values()])
_TOTAL_CLASS = np.array([0] * 5 + [1] * 2 + [2, 3] + [4] * 2 + [5] * 5)  # totals 3-7, 8-9, 10, 11, 12-13, 14-18
_TOTAL_CLASS_P = np.array([35, 46, 27, 27, 46, 35], dtype=np.float64) / 216


def _dice(dice: npt.ArrayLike) -> I64:
    a = np.asarray(dice).astype(np.int64, copy=False)
    if a.ndim != 2 or a.shape[1] != 3:
        raise ValueError(f"sic bo rolls must be an (N, 3) array of faces, not of shape {a.shape}")
    if a.size and (a.min() < 1 or a.max() > 6):
        bad = a[(a < 1) | (a > 6)][0]
        raise ValueError(f"{int(bad)} is not a die face 1-6")
    return a


def _sicbo_plan(dice: npt.ArrayLike) -> list[Test]:
    a = _dice(dice)
    n = a.shape[0]
    faces = (a - 1).ravel()
    ordered = (a[:, 0] - 1) * 36 + (a[:, 1] - 1) * 6 + (a[:, 2] - 1)
    totals = a.sum(axis=1)
    triple = (a[:, 0] == a[:, 1]) & (a[:, 1] == a[:, 2])
    kind = np.where(triple, 2, np.where(totals >= 11, 1, 0))  # small, big, triple
    unit = "rolls"

    def faces_test() -> TestResult:
        r = uniformity(np.bincount(faces, minlength=6), np.full(6, 1 / 6), "sic bo: faces")
        return TestResult(r.name, r.family, r.statistic, r.p_value, n, r.p_values, r.skipped, r.detail)

    return [
        faces_test,
        lambda: uniformity(np.bincount(ordered, minlength=216), np.full(216, 1 / 216),
                           "sic bo: ordered rolls (each die's position)"),
        lambda: uniformity(np.bincount(_COMBO_INDEX[ordered], minlength=56), _COMBO_P, "sic bo: 56 combinations"),
        lambda: uniformity(np.bincount(totals - 3, minlength=16), _TOTAL_P, "sic bo: totals 3-18"),
        lambda: _serial("sic bo: serial pairs of rolls (total 3-7, 8-9, 10, 11, 12-13, 14-18)",
                        _TOTAL_CLASS[totals - 3], 6, _TOTAL_CLASS_P, width=2, unit=unit),
        lambda: _serial("sic bo: serial pairs of consecutive dice", faces, 6, np.full(6, 1 / 6), width=2, unit="dice"),
        lambda: _runs("sic bo: runs of small, big and triple", kind, (105 / 216, 105 / 216, 6 / 216),
                      ("small", "big", "triple"), unit),
        lambda: _gaps("sic bo: gaps", [("triple", triple, 6 / 216),
                                       ("total 10 or 11", (totals == 10) | (totals == 11), 54 / 216),
                                       ("a six (die by die)", faces == 5, 1 / 6)], unit),
        lambda: _coupon("sic bo: coupon collector (6 faces, die by die)", faces, 6, "dice"),
    ]  # fmt: skip


def sicbo_tests(dice: npt.ArrayLike) -> list[TestResult]:
    """Every sic bo test of ``dice`` (an ``(N, 3)`` array of faces 1-6, one roll a row, in the order rolled)."""
    return [test() for test in _sicbo_plan(dice)]


# -- blackjack -----------------------------------------------------------------------------------------------

BURN, PLAYER_FIRST, DEALER_UP, PLAYER_SECOND = 0, 1, 2, 3
"""Positions in a fresh shoe of the first round's burn card and cards (BJ 4.1, 5.1; one box)."""


def _hand_category(r1: int, r2: int) -> str:
    """The category of a two-card hand of ranks ``r1``, ``r2`` (0 = ace … 12 = king)."""
    if r1 == r2:
        return f"pair {_RANK_LABELS[r1]}"
    v1, v2 = _RANK_VALUES[r1], _RANK_VALUES[r2]
    if 1 in (v1, v2):
        other = v1 + v2 - 1
        return "blackjack" if other == 10 else f"soft {11 + other}"
    return f"hard {v1 + v2}"


@cache
def _hand_table(decks: int) -> tuple[tuple[str, ...], tuple[Fraction, ...], tuple[int, ...]]:
    """Hand categories in a fixed order, their exact chances for ``decks`` decks, and each ordered rank pair's
    category index (``13·r1 + r2``)."""
    m = DECK * decks
    each = 4 * decks
    chance: dict[str, Fraction] = {}
    for r1, r2 in product(range(13), repeat=2):
        p = Fraction(each * (each - (r1 == r2)), m * (m - 1))
        key = _hand_category(r1, r2)
        chance[key] = chance.get(key, Fraction(0)) + p

    def order(name: str) -> tuple[int, int]:
        kind, _, rest = name.partition(" ")
        rank = {"pair": 0, "soft": 1, "blackjack": 2, "hard": 3}[kind]
        return rank, (_RANK_LABELS.index(rest) if kind == "pair" else int(rest or 0))

    names = tuple(sorted(chance, key=order))
    index = tuple(names.index(_hand_category(r1, r2)) for r1, r2 in product(range(13), repeat=2))
    return names, tuple(chance[k] for k in names), index


def first_two_probabilities(decks: int) -> dict[str, Fraction]:
    """The exact chances of the player's first two cards from a fresh shoe of ``decks`` decks (drawn without
    replacement), by category: ``pair A`` … ``pair K`` (same rank), ``soft 13`` … ``soft 20`` (an ace and a
    2-9), ``blackjack`` (an ace and a ten-value card) and ``hard 5`` … ``hard 20`` (two different ranks, no ace)."""
    names, probs, _ = _hand_table(decks)
    return dict(zip(names, probs, strict=True))


def _shoes(shoes: npt.ArrayLike, decks: int) -> I64:
    a = np.asarray(shoes).astype(np.int64, copy=False)
    m = DECK * decks
    if a.ndim != 2 or a.shape[1] != m:
        raise ValueError(f"shoes of {decks} deck{'s' if decks != 1 else ''} must be an (S, {m}) array, not {a.shape}")
    if a.size and (a.min() < 0 or a.max() >= m):
        raise ValueError(f"card ids of a {decks}-deck shoe are 0-{m - 1}; found {int(a.min())}-{int(a.max())}")
    if a.shape[0]:
        rows = np.arange(a.shape[0], dtype=np.int64)[:, np.newaxis] * DECK
        per_row = np.bincount((rows + a % DECK).ravel(), minlength=a.shape[0] * DECK).reshape(-1, DECK)
        if np.any(per_row != decks):
            bad = int(np.flatnonzero(np.any(per_row != decks, axis=1))[0])
            raise ValueError(
                f"shoe {bad} is not a shuffled shoe: a shoe of {decks} deck{'s' if decks != 1 else ''} holds each "
                f"card {decks} time{'s' if decks != 1 else ''}"
            )
    return a


def _positions(cards: I64, decks: int, buckets: int) -> TestResult:
    """Card (52) × position (``buckets`` equal groups of positions): each card's place after the shuffle.

    Each shoe puts every card in ``decks`` places and every place holds one card, so the table's margins are
    fixed: Pearson's statistic times ``(m-1)/m`` (m = 52·decks) is chi-square on ``51·(buckets-1)`` degrees of
    freedom (the hypergeometric variance of a table with fixed margins)."""
    s, m = cards.shape
    full = buckets == m
    name = "blackjack: card × position" if full else f"blackjack: card × position ({buckets} groups of {m // buckets})"
    cell = decks / buckets  # expected per shoe in each cell
    need = math.ceil(MIN_EXPECTED / cell)
    if s < need:
        return _needs(name, s, need, "shoes", f"{DECK} × {buckets} cells each expecting at least {MIN_EXPECTED:g}")
    pos = np.arange(m, dtype=np.int64) // (m // buckets)
    idx = (cards % DECK) * buckets + pos[np.newaxis, :]
    counts = np.bincount(idx.ravel(), minlength=DECK * buckets).reshape(DECK, buckets)
    exp = s * cell
    stat, p, dof = _chi2(name, counts, np.full(counts.shape, exp), s, df=(DECK - 1) * (buckets - 1),
                         scale=(m - 1) / m)  # fmt: skip
    z = (counts - exp) / math.sqrt(exp * (1 - 1 / DECK))
    worst = np.unravel_index(int(np.argmax(np.abs(z))), z.shape)
    codes = [c.code for c in deck()]
    detail: dict[str, object] = {
        "df": dof,
        "max_abs_z": float(abs(z[worst])),
        "worst": {"card": codes[int(worst[0])], "position": int(worst[1]) * (m // buckets)},
    }
    if not full:
        detail["cards"] = codes
        detail["z"] = [[float(x) for x in row] for row in z]
    return TestResult.of(name, FAMILY, stat, [p], s, detail)


def _matches(cards: I64, decks: int) -> TestResult:
    """The cards of each shoe still where the unshuffled order (card ``p mod 52`` at position ``p``) had one of
    them, against their exact mean ``d`` and variance under a uniform shuffle (normal over the shoes)."""
    name = "blackjack: cards left in place"
    s, m = cards.shape
    d = decks
    if s * d < 50:
        return _needs(name, s, math.ceil(50 / d), "shoes", "50 cards expected in place, for the normal law")
    hits = np.count_nonzero(cards % DECK == np.arange(m) % DECK, axis=1)
    mean = float(d)
    var = d + (d * (d - 1) ** 2 + (m - d) * d * d) / (m - 1) - d * d
    total = int(hits.sum())
    z = (total - s * mean) / math.sqrt(s * var)
    p = float(2 * stats.norm.sf(abs(z)))
    hist = np.bincount(hits, minlength=4)
    return TestResult.of(name, FAMILY, z, [p], s, {"observed": total, "expected": s * mean, "z": z,
                                                 "per_shoe": hist.tolist()})  # fmt: skip


def _first_two(cards: I64, decks: int) -> TestResult:
    names, probs, index = _hand_table(decks)
    ranks = cards % 13
    cat = np.asarray(index)[ranks[:, PLAYER_FIRST] * 13 + ranks[:, PLAYER_SECOND]]
    r = uniformity(np.bincount(cat, minlength=len(names)), [float(p) for p in probs],
                   "blackjack: player's first two cards")  # fmt: skip
    if r.skipped:
        return TestResult.skip(r.name, FAMILY, r.n, r.skipped.replace("outcomes", "shoes"))
    return TestResult(r.name, r.family, r.statistic, r.p_value, r.n, r.p_values, None, {**r.detail, "hands": names,
                      "positions": [PLAYER_FIRST, PLAYER_SECOND]})  # fmt: skip


def _up_card(cards: I64) -> TestResult:
    r = uniformity(np.bincount(cards[:, DEALER_UP] % 13, minlength=13), np.full(13, 1 / 13),
                   "blackjack: dealer's up card")  # fmt: skip
    if r.skipped:
        return TestResult.skip(r.name, FAMILY, r.n, r.skipped.replace("outcomes", "shoes"))
    return TestResult(r.name, r.family, r.statistic, r.p_value, r.n, r.p_values, None,
                      {**r.detail, "ranks": list(_RANK_LABELS), "position": DEALER_UP})  # fmt: skip


def wald_wolfowitz_moments(x: Sequence[float] | npt.ArrayLike) -> tuple[float, float]:
    """The exact mean and variance, over uniformly random orders of the values ``x``, of their circular serial
    sum ``R = Σ x_i·x_(i+1)`` (``x_(n+1) = x_1``) (Wald and Wolfowitz, 1943)."""
    v = np.asarray(x, dtype=np.float64)
    n = v.size
    s1, s2, s3, s4 = (float(np.sum(v**k)) for k in (1, 2, 3, 4))
    mean = (s1 * s1 - s2) / (n - 1)
    var = (
        (s2 * s2 - s4) / (n - 1)
        + (s1**4 - 4 * s1 * s1 * s2 + 4 * s1 * s3 + s2 * s2 - 2 * s4) / ((n - 1) * (n - 2))
        - mean * mean
    )
    return mean, var


def _serial_ranks(cards: I64, decks: int) -> TestResult:
    """The circular serial sum of consecutive ranks (1 = ace … 13 = king) of each shoe, summed over the shoes,
    against its exact mean and variance under uniform shuffles (Wald–Wolfowitz); ``r`` in the detail is the
    average serial correlation."""
    name = "blackjack: serial correlation of consecutive ranks"
    s, m = cards.shape
    if s < 5:
        return _needs(name, s, 5, "shoes", "for the normal law of the summed serial statistic")
    ranks = (cards % 13 + 1).astype(np.float64)
    serial = np.sum(ranks * np.roll(ranks, -1, axis=1), axis=1)
    mean, var = wald_wolfowitz_moments(np.tile(np.arange(1, 14, dtype=np.float64), 4 * decks))
    z = (float(serial.sum()) - s * mean) / math.sqrt(s * var)
    p = float(2 * stats.norm.sf(abs(z)))
    mu = 7.0
    sigma2 = float(np.mean((np.arange(1, 14) - mu) ** 2))
    r = (float(serial.mean()) / m - mu * mu) / sigma2
    return TestResult.of(name, FAMILY, z, [p], s, {"z": z, "r": r, "expected_r": -1 / (m - 1)})


def _blackjack_plan(shoes: npt.ArrayLike, decks: int) -> list[Test]:
    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= 8:
        raise ValueError(f"a shoe holds 1 to 8 decks, not {decks!r}")
    a = _shoes(shoes, decks)
    m = DECK * decks
    return [
        lambda: _positions(a, decks, m),
        lambda: _positions(a, decks, max(4, decks)),
        lambda: _matches(a, decks),
        lambda: _first_two(a, decks),
        lambda: _up_card(a),
        lambda: _serial_ranks(a, decks),
    ]


def blackjack_tests(shoes: npt.ArrayLike, decks: int) -> list[TestResult]:
    """Every blackjack test of ``shoes`` (an ``(S, 52·decks)`` array of card ids in dealing order, one shuffled
    shoe a row; see the module's docstring for the ids and the positions dealt)."""
    return [test() for test in _blackjack_plan(shoes, decks)]


# -- dispatch ------------------------------------------------------------------------------------------------


def run_game_tests(
    game: str, sample: Sample | npt.ArrayLike, *, decks: int | None = None, progress: Progress | None = None
) -> list[TestResult]:
    """The tests of ``game`` (``roulette``, ``sicbo``, ``blackjack``) on ``sample``, calling ``progress(done,
    total)`` after each test. ``sample`` may be a :class:`croupier.rng.sources.Sample` (its data and decks are
    used) or the data itself; blackjack's ``decks`` default to the sample's, else to the shoes' width / 52."""
    if isinstance(sample, Sample):
        data: npt.ArrayLike = sample.data
        if decks is None and sample.decks:
            decks = sample.decks
    else:
        data = sample
    if game == "roulette":
        plan = _roulette_plan(data)
    elif game == "sicbo":
        plan = _sicbo_plan(data)
    elif game == "blackjack":
        arr = np.asarray(data)
        plan = _blackjack_plan(arr, decks if decks is not None else (arr.shape[-1] // DECK if arr.ndim == 2 else 0))
    else:
        raise ValueError(f"no game tests for {game!r}: choose roulette, sicbo or blackjack")
    out: list[TestResult] = []
    for i, test in enumerate(plan):
        out.append(test())
        if progress is not None:
            progress(i + 1, len(plan))
    return out
