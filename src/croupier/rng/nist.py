"""The NIST SP 800-22 rev. 1a battery: the fifteen statistical tests of a bit sequence.

A. Rukhin et al., *A Statistical Test Suite for Random and Pseudorandom Number Generators for Cryptographic
Applications*, NIST Special Publication 800-22 revision 1a (April 2010). Section 2 of the document defines each
test, its statistic and its p-value; section 3 derives the reference distributions; Appendix B publishes the
p-values of its reference sequences (the binary expansions of e, pi, sqrt 2, sqrt 3 and a SHA-1 generator).

Every test here takes a one-dimensional array of 0s and 1s (:func:`bits_from_bytes` turns bytes into one, most
significant bit first) and returns a :class:`~croupier.rng.results.TestResult` of family ``nist``. The
document's parameters are keyword arguments with its recommended values as defaults (those of Appendix B:
block frequency M = 128, non-overlapping template m = 9 over all 148 aperiodic templates, overlapping template
m = 9, universal L and Q from n, linear complexity M = 500, serial m = 16, approximate entropy m = 10). Tests
with several p-values (serial: 2; cumulative sums: forward and backward; random excursions: 8 states; random
excursions variant: 18 states; non-overlapping template: one per template) keep them all in ``p_values``, and
their ``p_value`` is the Šidák combination of the smallest (:func:`croupier.rng.results.sidak`).

A sample smaller than a test's stated requirement (section 2.x.7 of each test, and the tables of 2.4 and 2.9)
is **skipped** with the reason: what the test needs and what it got, never a meaningless p-value. Keyword
``enforce_minimum=False`` lifts the recommended minimum (not the structural one: at least one block, one
cycle) so the document's own small worked examples can be reproduced; a p-value from such a sample is only
illustrative.

The statistics reproduce the document's published p-values (its worked examples and Appendix B, to the six
decimals it prints) except where the document's reference code used other constants than its text; the text
is followed there, and a ``probabilities`` keyword takes the code's constants to reproduce the published
numbers: overlapping template (2.8: the text's corrected class probabilities, which the exact computation here
gives to six decimals, against the code's original Poisson approximation) and linear complexity (2.10: the
text's pi_0 = 0.010417 against the code's 0.01047). The longest-run probabilities are exact for M = 8 and 128
(what the document's example uses) and the document's table for M = 10^4 (what its published values use).
:func:`battery` runs the tests in the document's order.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import numpy as np
import scipy.fft
from numpy.typing import NDArray
from scipy.special import erfc, gammaincc, ndtr

from croupier.rng import _nist_kernels as kern
from croupier.rng.results import TestResult

__all__ = [
    "NIST_TESTS",
    "aperiodic_templates",
    "approximate_entropy",
    "battery",
    "binary_matrix_rank",
    "bits_from_bytes",
    "block_frequency",
    "cumulative_sums",
    "discrete_fourier_transform",
    "frequency",
    "linear_complexity",
    "longest_run_of_ones",
    "longest_run_probabilities",
    "non_overlapping_template",
    "overlapping_probabilities",
    "overlapping_template",
    "random_excursions",
    "random_excursions_variant",
    "runs",
    "serial",
    "universal",
]

NIST_TESTS: tuple[str, ...] = (
    "frequency",
    "block frequency",
    "runs",
    "longest run of ones",
    "binary matrix rank",
    "discrete Fourier transform",
    "non-overlapping template",
    "overlapping template",
    "universal",
    "linear complexity",
    "serial",
    "approximate entropy",
    "cumulative sums",
    "random excursions",
    "random excursions variant",
)
"""The fifteen tests in SP 800-22's order (sections 2.1 to 2.15)."""

FAMILY = "nist"

Bits = NDArray[np.uint8]


# --------------------------------------------------------------------------------------------------- input


def bits_from_bytes(data: bytes) -> Bits:
    """The bits of ``data`` as a uint8 array of 0s and 1s, the most significant bit of each byte first."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise ValueError(f"data must be bytes, not {type(data).__name__} {data!r:.80}")
    if len(data) == 0:
        raise ValueError("data must hold at least one byte, not b''")
    return np.unpackbits(np.frombuffer(bytes(data), dtype=np.uint8))


def _as_bits(bits: object) -> Bits:
    """``bits`` as a contiguous uint8 array of 0s and 1s, else ``ValueError`` naming the offending value."""
    try:
        arr = np.asarray(bits)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"bits must be a one-dimensional array of 0s and 1s, not {bits!r:.80}") from exc
    if arr.ndim == 0:
        raise ValueError(f"bits must be a one-dimensional array of 0s and 1s, not {bits!r:.80}")
    if arr.ndim != 1:
        raise ValueError(f"bits must be a one-dimensional array of 0s and 1s, not an array of shape {arr.shape}")
    if arr.size == 0:
        raise ValueError("bits must hold at least one bit, not an empty array")
    if arr.dtype != np.bool_ and not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"bits must be an array of 0s and 1s (integers or booleans), not of dtype {arr.dtype}")
    if arr.dtype != np.bool_:
        bad = np.flatnonzero((arr != 0) & (arr != 1))
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"bits must be 0s and 1s, not {arr[i].item()!r} (bits[{i}])")
    return np.ascontiguousarray(arr, dtype=np.uint8)


def _skip(name: str, n: int, reason: str) -> TestResult:
    return TestResult.skip(name, FAMILY, n, reason)


def _igamc(a: float, x: float) -> float:
    """The upper regularised incomplete gamma function Q(a, x) of SP 800-22 section 5.5.3 (``igamc``)."""
    return float(gammaincc(a, x))


def _erfc(x: float) -> float:
    return float(erfc(x))


def _chi2(observed: NDArray[Any], expected: NDArray[Any]) -> float:
    return float(np.sum((observed - expected) ** 2 / expected))


def _class_probabilities(probabilities: Sequence[float], classes: int) -> NDArray[np.float64]:
    """``probabilities`` as an array of ``classes`` positive numbers summing to 1, else ``ValueError``."""
    probs = np.asarray(probabilities, dtype=float)
    if probs.shape != (classes,) or not np.all(probs > 0.0) or abs(float(probs.sum()) - 1.0) > 1e-3:
        raise ValueError(f"probabilities must be {classes} positive numbers summing to 1, not {probabilities!r}")
    return probs


def _windows(x: Bits, m: int) -> NDArray[np.int64]:
    """The value of every overlapping m-bit window of ``x`` read cyclically (the sequence extended by its first
    m - 1 bits, as in sections 2.11.4 and 2.12.4), first bit most significant: ``n`` values."""
    n = x.size
    ext = np.concatenate((x, x[: m - 1])) if m > 1 else x
    w = np.zeros(n, dtype=np.int64)
    for k in range(m):
        w <<= 1
        w |= ext[k : k + n]
    return w


def _cyclic_counts(x: Bits, m: int) -> NDArray[np.int64]:
    """The number of occurrences of each m-bit pattern among the n cyclic windows of ``x`` (index = pattern)."""
    if m == 0:
        return np.array([x.size], dtype=np.int64)
    counts: NDArray[np.int64] = np.bincount(_windows(x, m), minlength=1 << m).astype(np.int64)
    return counts


def _marginal(counts: NDArray[np.int64]) -> NDArray[np.int64]:
    """The (m-1)-bit cyclic counts from the m-bit ones: a cyclic window's first m - 1 bits are the (m-1)-window
    at the same place."""
    coarser: NDArray[np.int64] = counts.reshape(-1, 2).sum(axis=1)
    return coarser


# --------------------------------------------------------------------------------------------------- 2.1


def frequency(bits: object, *, enforce_minimum: bool = True) -> TestResult:
    """The frequency (monobit) test, SP 800-22 section 2.1: S_n = the sum of the bits as ±1,
    s_obs = |S_n| / sqrt(n), p = erfc(s_obs / sqrt 2). Needs n ≥ 100 (2.1.7)."""
    name = "frequency"
    x = _as_bits(bits)
    n = x.size
    if enforce_minimum and n < 100:
        return _skip(name, n, f"needs n ≥ 100 bits (SP 800-22 2.1.7), got n = {n}")
    ones = int(np.count_nonzero(x))
    s_n = 2 * ones - n
    s_obs = abs(s_n) / math.sqrt(n)
    p = _erfc(s_obs / math.sqrt(2.0))
    return TestResult.of(name, FAMILY, s_obs, [p], n, {"S_n": s_n, "ones": ones})


# --------------------------------------------------------------------------------------------------- 2.2


def block_frequency(bits: object, *, M: int = 128, enforce_minimum: bool = True) -> TestResult:  # noqa: N803
    """The frequency test within a block, SP 800-22 section 2.2: the proportion of ones pi_i in each of the
    N = floor(n / M) blocks of M bits, chi^2 = 4M sum (pi_i - 1/2)^2, p = igamc(N/2, chi^2/2). Needs n ≥ 100 and
    M ≥ 20 (2.2.7); Appendix B uses M = 128, the default."""
    name = "block frequency"
    x = _as_bits(bits)
    n = x.size
    if M < 1:
        raise ValueError(f"block frequency M must be a positive number of bits, not {M!r}")
    if enforce_minimum and (n < 100 or M < 20):
        return _skip(name, n, f"needs n ≥ 100 bits and M ≥ 20 (SP 800-22 2.2.7), got n = {n}, M = {M}")
    big_n = n // M
    if big_n < 1:
        return _skip(name, n, f"needs at least one block of M = {M} bits, got n = {n}")
    counts = x[: big_n * M].reshape(big_n, M).sum(axis=1, dtype=np.int64)
    pi = counts / M
    chi2 = 4.0 * M * float(np.sum((pi - 0.5) ** 2))
    p = _igamc(big_n / 2.0, chi2 / 2.0)
    return TestResult.of(name, FAMILY, chi2, [p], n, {"M": M, "N": big_n})


# --------------------------------------------------------------------------------------------------- 2.3


def runs(bits: object, *, enforce_minimum: bool = True) -> TestResult:
    """The runs test, SP 800-22 section 2.3: V_n(obs) = the number of runs, p = erfc(|V_n - 2n pi (1 - pi)| /
    (2 sqrt(2n) pi (1 - pi))). Its frequency prerequisite (2.3.4 step 2): when |pi - 1/2| ≥ tau = 2 / sqrt(n) the
    test is not run and its p-value is 0.0, as the document prescribes. Needs n ≥ 100 (2.3.7)."""
    name = "runs"
    x = _as_bits(bits)
    n = x.size
    if enforce_minimum and n < 100:
        return _skip(name, n, f"needs n ≥ 100 bits (SP 800-22 2.3.7), got n = {n}")
    pi = int(np.count_nonzero(x)) / n
    tau = 2.0 / math.sqrt(n)
    v_obs = 1 + int(np.count_nonzero(x[1:] != x[:-1]))
    detail: dict[str, object] = {"pi": pi, "tau": tau, "V_n": v_obs}
    if abs(pi - 0.5) >= tau:
        detail["prerequisite"] = f"frequency prerequisite failed: |pi - 1/2| = {abs(pi - 0.5):.6g} ≥ tau"
        return TestResult.of(name, FAMILY, float(v_obs), [0.0], n, detail)
    q = pi * (1.0 - pi)
    p = _erfc(abs(v_obs - 2.0 * n * q) / (2.0 * math.sqrt(2.0 * n) * q))
    return TestResult.of(name, FAMILY, float(v_obs), [p], n, detail)


# --------------------------------------------------------------------------------------------------- 2.4

# SP 800-22 2.4.2/2.4.4 and 3.4: block length M -> the smallest and the largest longest-run class.
_LONGEST_RUN_CLASSES = {8: (1, 4), 128: (4, 9), 10_000: (10, 16)}

# SP 800-22 3.4's probabilities for M = 10^4 as the document tabulates them (and as its published p-values use
# them); they come from an approximation and differ from the exact distribution by up to 0.0016.
_LONGEST_RUN_10000 = (0.0882, 0.2092, 0.2483, 0.1933, 0.1208, 0.0675, 0.0727)


@cache
def longest_run_probabilities(M: int) -> tuple[float, ...]:  # noqa: N803
    """The class probabilities of the longest run of ones in a block of ``M`` bits (SP 800-22 3.4). For M = 8
    and 128 the exact distribution (the document's table rounds it to 4 places; its worked example 2.4.8 uses
    the exact values): a walk over the length of the current run, capped at the largest class. For M = 10^4
    the document's table."""
    if M not in _LONGEST_RUN_CLASSES:
        raise ValueError(f"longest run of ones M must be 8, 128 or 10000 (SP 800-22 2.4.2), not {M!r}")
    if M == 10_000:
        return _LONGEST_RUN_10000
    lo, hi = _LONGEST_RUN_CLASSES[M]

    def at_most(k: int) -> float:  # P(longest run ≤ k)
        dist = np.zeros(k + 1)
        dist[0] = 1.0
        for _ in range(M):
            new = np.zeros_like(dist)
            new[0] = 0.5 * dist.sum()
            new[1:] = 0.5 * dist[:-1]
            dist = new
        return float(dist.sum())

    cdf = [at_most(k) for k in range(lo, hi)]
    return (cdf[0], *(b - a for a, b in itertools.pairwise(cdf)), 1.0 - cdf[-1])


def longest_run_of_ones(bits: object, *, M: int | None = None) -> TestResult:  # noqa: N803
    """The test for the longest run of ones in a block, SP 800-22 section 2.4: the longest run in each of the
    N = floor(n / M) blocks, counted in K + 1 classes against the probabilities of 3.4
    (:func:`longest_run_probabilities`), chi^2 = sum (v_i - N pi_i)^2 / (N pi_i), p = igamc(K/2, chi^2/2).
    M from n by the table of 2.4.2: n ≥ 128: M = 8; n ≥ 6272: M = 128; n ≥ 750,000: M = 10^4; ``M`` may name
    one of these three."""
    name = "longest run of ones"
    x = _as_bits(bits)
    n = x.size
    if M is not None:
        size = M
    elif n < 128:
        return _skip(name, n, f"needs n ≥ 128 bits (SP 800-22 2.4.2), got n = {n}")
    else:
        size = 8 if n < 6272 else 128 if n < 750_000 else 10_000
    probs = longest_run_probabilities(size)
    big_n = n // size
    if big_n < 1:
        return _skip(name, n, f"needs at least one block of M = {size} bits, got n = {n}")
    lo, hi = _LONGEST_RUN_CLASSES[size]
    blocks = np.zeros((big_n, size + 1), dtype=np.int8)  # a 0 after each block keeps runs inside it
    blocks[:, :size] = x[: big_n * size].reshape(big_n, size)
    edges = np.diff(np.concatenate(([0], blocks.ravel(), [0])))
    starts = np.flatnonzero(edges == 1)
    lengths = np.flatnonzero(edges == -1) - starts
    longest = np.zeros(big_n, dtype=np.int64)
    np.maximum.at(longest, starts // (size + 1), lengths)
    v = np.bincount(np.clip(longest, lo, hi) - lo, minlength=hi - lo + 1)
    k = len(probs) - 1
    expected = big_n * np.asarray(probs)
    chi2 = _chi2(v.astype(float), expected)
    p = _igamc(k / 2.0, chi2 / 2.0)
    return TestResult.of(name, FAMILY, chi2, [p], n, {"M": size, "N": big_n, "K": k, "v": v.tolist()})


# --------------------------------------------------------------------------------------------------- 2.5


def _rank_probabilities(m: int, q: int) -> tuple[float, float, float]:
    """The chance that a random m x q binary matrix has full rank, rank one less, or less (SP 800-22 3.5)."""

    def p(r: int) -> float:
        prod = 1.0
        for i in range(r):
            prod *= (1.0 - 2.0 ** (i - q)) * (1.0 - 2.0 ** (i - m)) / (1.0 - 2.0 ** (i - r))
        return 2.0 ** (r * (q + m - r) - m * q) * prod

    full = min(m, q)
    p_full, p_less = p(full), p(full - 1)
    return p_full, p_less, 1.0 - p_full - p_less


def binary_matrix_rank(
    bits: object,
    *,
    M: int = 32,  # noqa: N803
    Q: int = 32,  # noqa: N803
    enforce_minimum: bool = True,
) -> TestResult:
    """The binary matrix rank test, SP 800-22 section 2.5: the GF(2) rank of the N = floor(n / MQ) disjoint
    M x Q matrices (rows of Q consecutive bits), counted as full rank F_M, rank M - 1 and lower against the
    probabilities of 3.5, chi^2 over the three classes, p = igamc(1, chi^2/2) = exp(-chi^2/2). Needs
    n ≥ 38 M Q (2.5.7)."""
    name = "binary matrix rank"
    x = _as_bits(bits)
    n = x.size
    if M < 1 or not 1 <= Q <= 64:
        raise ValueError(f"binary matrix rank needs M ≥ 1 and 1 ≤ Q ≤ 64, not M = {M!r}, Q = {Q!r}")
    if enforce_minimum and n < 38 * M * Q:
        return _skip(name, n, f"needs n ≥ 38·M·Q = {38 * M * Q} bits (SP 800-22 2.5.7), got n = {n}")
    big_n = n // (M * Q)
    if big_n < 1:
        return _skip(name, n, f"needs at least one {M} x {Q} matrix ({M * Q} bits), got n = {n}")
    rows = x[: big_n * M * Q].reshape(big_n * M, Q).astype(np.uint64)
    weights = np.left_shift(np.uint64(1), np.arange(Q - 1, -1, -1, dtype=np.uint64))
    packed = (rows * weights).sum(axis=1, dtype=np.uint64)
    ranks = kern.gf2_ranks(packed, M, Q)
    full = min(M, Q)
    f_full = int(np.count_nonzero(ranks == full))
    f_less = int(np.count_nonzero(ranks == full - 1))
    observed = np.array([f_full, f_less, big_n - f_full - f_less], dtype=float)
    expected = big_n * np.array(_rank_probabilities(M, Q))
    chi2 = _chi2(observed, expected)
    p = math.exp(-chi2 / 2.0)
    detail = {"M": M, "Q": Q, "N": big_n, "F_M": f_full, "F_M-1": f_less, "F_rest": big_n - f_full - f_less}
    return TestResult.of(name, FAMILY, chi2, [p], n, detail)


# --------------------------------------------------------------------------------------------------- 2.6


def discrete_fourier_transform(bits: object, *, enforce_minimum: bool = True) -> TestResult:
    """The discrete Fourier transform (spectral) test, SP 800-22 section 2.6 as corrected in rev. 1a: the
    moduli of the first n/2 DFT coefficients of the ±1 sequence against the threshold T = sqrt(ln(1/0.05) n),
    N_0 = 0.95 n / 2 expected below it, N_1 observed, d = (N_1 - N_0) / sqrt(n 0.95 0.05 / 4),
    p = erfc(|d| / sqrt 2). Needs n ≥ 1000 (2.6.7)."""
    name = "discrete Fourier transform"
    x = _as_bits(bits)
    n = x.size
    if enforce_minimum and n < 1000:
        return _skip(name, n, f"needs n ≥ 1000 bits (SP 800-22 2.6.7), got n = {n}")
    if n < 2:
        return _skip(name, n, f"needs at least 2 bits, got n = {n}")
    spectrum = np.abs(scipy.fft.rfft(2.0 * x - 1.0)[: n // 2])
    threshold = math.sqrt(math.log(1.0 / 0.05) * n)
    n0 = 0.95 * n / 2.0
    n1 = int(np.count_nonzero(spectrum < threshold))
    d = (n1 - n0) / math.sqrt(n * 0.95 * 0.05 / 4.0)
    p = _erfc(abs(d) / math.sqrt(2.0))
    return TestResult.of(name, FAMILY, d, [p], n, {"T": threshold, "N_0": n0, "N_1": n1})


# --------------------------------------------------------------------------------------------------- 2.7


def _is_aperiodic(t: str) -> bool:
    """Whether template ``t`` cannot overlap a shifted copy of itself (no proper prefix equals a suffix)."""
    return all(t[k:] != t[: len(t) - k] for k in range(1, len(t)))


@cache
def aperiodic_templates(m: int) -> tuple[str, ...]:
    """The aperiodic templates of ``m`` bits in increasing order (148 for m = 9), as SP 800-22 2.7 uses them."""
    if not 2 <= m <= 16:
        raise ValueError(f"template length m must be in 2..16, not {m!r}")
    return tuple(t for t in (format(v, f"0{m}b") for v in range(1 << m)) if _is_aperiodic(t))


def non_overlapping_template(
    bits: object,
    *,
    m: int = 9,
    blocks: int = 8,
    templates: Sequence[str] | None = None,
    enforce_minimum: bool = True,
) -> TestResult:
    """The non-overlapping template matching test, SP 800-22 section 2.7: in each of N = ``blocks`` blocks of
    M = floor(n / N) bits, W_j = the number of non-overlapping occurrences of template B (the window moves one
    bit on a mismatch, m bits on a match); mu = (M - m + 1) / 2^m, sigma^2 = M (2^-m - (2m - 1) 2^-2m),
    chi^2 = sum (W_j - mu)^2 / sigma^2, p = igamc(N/2, chi^2/2): one p-value per template, by default every
    aperiodic template of m = 9 bits (148). Templates must be aperiodic (the document's theory assumes it), so
    that their non-overlapping occurrences are all their occurrences. Needs N ≤ 100 (2.7.7) and, here, mu ≥ 10
    (the normal approximation of W_j)."""
    name = "non-overlapping template"
    x = _as_bits(bits)
    n = x.size
    if not 2 <= m <= 16:
        raise ValueError(f"non-overlapping template m must be in 2..16, not {m!r}")
    chosen = aperiodic_templates(m) if templates is None else tuple(templates)
    if not chosen:
        raise ValueError("non-overlapping template needs at least one template, not none")
    for t in chosen:
        if not isinstance(t, str) or len(t) != m or set(t) - {"0", "1"}:
            raise ValueError(f"a template must be a string of m = {m} 0s and 1s, not {t!r}")
        if not _is_aperiodic(t):
            raise ValueError(f"template {t!r} is periodic (overlaps itself); SP 800-22 2.7 uses aperiodic ones")
    if blocks < 1:
        raise ValueError(f"non-overlapping template blocks must be ≥ 1, not {blocks!r}")
    big_m = n // blocks
    mu = (big_m - m + 1) / 2.0**m
    if enforce_minimum and (blocks > 100 or mu < 10.0):
        return _skip(
            name,
            n,
            f"needs N ≤ 100 blocks (SP 800-22 2.7.7) and an expected count mu = (M - m + 1)/2^m ≥ 10 per block, "
            f"i.e. n ≥ {blocks * (10 * 2**m + m - 1)} bits for m = {m}, N = {blocks}; got n = {n}, mu = {mu:.3g}",
        )
    if big_m < m:
        return _skip(name, n, f"needs blocks of at least m = {m} bits, got M = {big_m} (n = {n})")
    sigma2 = big_m * (1.0 / 2.0**m - (2.0 * m - 1.0) / 2.0 ** (2 * m))
    w_all = _windows(x, m)  # window values at every position (the cyclic tail is never used below)
    per_pos = big_m - m + 1
    table = np.stack(
        [np.bincount(w_all[j * big_m : j * big_m + per_pos], minlength=1 << m) for j in range(blocks)]
    )  # (N, 2^m): occurrences of each pattern in each block
    values = np.array([int(t, 2) for t in chosen])
    w = table[:, values].astype(float)  # (N, templates)
    chi2 = np.sum((w - mu) ** 2, axis=0) / sigma2
    ps = [_igamc(blocks / 2.0, c / 2.0) for c in chi2]
    detail = {
        "m": m,
        "N": blocks,
        "M": big_m,
        "mu": mu,
        "sigma2": sigma2,
        "templates": list(chosen),
        "chi2": chi2.tolist(),
        "W": w.astype(int).T.tolist(),
    }
    return TestResult.of(name, FAMILY, float(chi2.max()), ps, n, detail)


# --------------------------------------------------------------------------------------------------- 2.8


@cache
def overlapping_probabilities(m: int, M: int, K: int) -> tuple[float, ...]:  # noqa: N803
    """The chance that a block of ``M`` random bits holds 0, 1, ..., K - 1 and ≥ K overlapping occurrences of
    the template of ``m`` ones, exactly: a walk over the length of the current run of ones (capped at m - 1)
    and the count so far (capped at K). For m = 9, M = 1032, K = 5 it gives rev. 1a's values (2.8.4 step 5,
    computed as section 3.8 prescribes): 0.364091, 0.185659, 0.139381, 0.100571, 0.070432, 0.139865."""
    dist = np.zeros((m, K + 1))  # [run of ones (capped at m - 1), count (capped at K)]
    dist[0, 0] = 1.0
    for _ in range(M):
        new = np.zeros_like(dist)
        new[0] += 0.5 * dist.sum(axis=0)  # a 0 ends the run
        new[1:m] += 0.5 * dist[: m - 1]  # a 1 lengthens a run shorter than m - 1 ...
        done = 0.5 * dist[m - 1]  # ... or completes an occurrence, the run staying at m - 1
        new[m - 1, 1:] += done[:-1]
        new[m - 1, K] += done[K]
        dist = new
    return tuple(float(v) for v in dist.sum(axis=0))


def overlapping_template(
    bits: object,
    *,
    m: int = 9,
    M: int = 1032,  # noqa: N803
    K: int = 5,  # noqa: N803
    probabilities: Sequence[float] | None = None,
    enforce_minimum: bool = True,
) -> TestResult:
    """The overlapping template matching test, SP 800-22 section 2.8: the template of m ones, its overlapping
    occurrences counted in each of the N = floor(n / M) blocks of M bits, the blocks classed by 0, 1, ..., K - 1
    and ≥ K occurrences against the probabilities pi_i (:func:`overlapping_probabilities`, or the K + 1 given
    as ``probabilities``), chi^2 over the K + 1 classes, p = igamc(K/2, chi^2/2). The document's published
    p-values (2.8.8, Appendix B) were computed by its reference code with the original Poisson approximation
    of section 3.8 (pi_0 = e^-eta, ...), not with rev. 1a's corrected values it prints in 2.8.4; passing those
    as ``probabilities`` reproduces them. Needs N min(pi_i) ≥ 5 (2.8.7; about 73,000 bits for the defaults;
    the document recommends n ≥ 10^6)."""
    name = "overlapping template"
    x = _as_bits(bits)
    n = x.size
    if m < 1 or m > M or K < 1:
        raise ValueError(f"overlapping template needs m ≥ 1, M ≥ m and K ≥ 1, not m = {m!r}, M = {M!r}, K = {K!r}")
    big_n = n // M
    probs = _class_probabilities(overlapping_probabilities(m, M, K) if probabilities is None else probabilities, K + 1)
    if enforce_minimum and big_n * probs.min() < 5.0:
        need = math.ceil(5.0 / probs.min()) * M
        return _skip(name, n, f"needs N·min(pi_i) ≥ 5 (SP 800-22 2.8.7), i.e. n ≥ {need} bits for M = {M}; got n = {n}")
    if big_n < 1:
        return _skip(name, n, f"needs at least one block of M = {M} bits, got n = {n}")
    cs = np.concatenate(([0], np.cumsum(x, dtype=np.int64)))
    ones = (cs[m:] - cs[:-m]) == m  # at each position, whether the m bits from there are all ones
    hits = np.zeros(big_n * M, dtype=np.int64)
    usable = min(ones.size, big_n * M)
    hits[:usable] = ones[:usable]
    counts = hits.reshape(big_n, M)[:, : M - m + 1].sum(axis=1)
    v = np.bincount(np.minimum(counts, K), minlength=K + 1)
    chi2 = _chi2(v.astype(float), big_n * probs)
    p = _igamc(K / 2.0, chi2 / 2.0)
    return TestResult.of(name, FAMILY, chi2, [p], n, {"m": m, "M": M, "K": K, "N": big_n, "v": v.tolist()})


# --------------------------------------------------------------------------------------------------- 2.9

# SP 800-22 2.9.4 step 5: L -> (expected value, variance) of f_n.
_UNIVERSAL = {
    1: (0.7326495, 0.690),
    2: (1.5374383, 1.338),
    3: (2.4016068, 1.901),
    4: (3.3112247, 2.358),
    5: (4.2534266, 2.705),
    6: (5.2177052, 2.954),
    7: (6.1962507, 3.125),
    8: (7.1836656, 3.238),
    9: (8.1764248, 3.311),
    10: (9.1723243, 3.356),
    11: (10.170032, 3.384),
    12: (11.168765, 3.401),
    13: (12.168070, 3.410),
    14: (13.167693, 3.416),
    15: (14.167488, 3.419),
    16: (15.167379, 3.421),
}


def _universal_min_n(big_l: int) -> int:
    """The table of 2.9.7: n ≥ (Q + K) L with Q = 10·2^L and K = 1000·2^L (387,840 bits for L = 6)."""
    return 1010 * (1 << big_l) * big_l


def universal(
    bits: object,
    *,
    L: int | None = None,  # noqa: N803
    Q: int | None = None,  # noqa: N803
    enforce_minimum: bool = True,
) -> TestResult:
    """Maurer's "universal statistical" test, SP 800-22 section 2.9: the sequence cut into L-bit blocks, the
    first Q initialise a table of the last place each pattern was seen, and the next K = floor(n / L) - Q add
    log2 of the distance back to their pattern's last place; f_n = that sum / K, c = 0.7 - 0.8/L +
    (4 + 32/L) K^(-3/L) / 15, sigma = c sqrt(variance(L) / K), p = erfc(|f_n - expectedValue(L)| /
    (sqrt 2 sigma)). L from n by the table of 2.9.7 (n ≥ 387,840: L = 6, ..., n ≥ 1,059,061,760: L = 16),
    Q = 10·2^L; a given L needs n ≥ 1010·2^L·L."""
    name = "universal"
    x = _as_bits(bits)
    n = x.size
    if L is None:
        fitting = [big_l for big_l in range(6, 17) if n >= _universal_min_n(big_l)]
        if not fitting:
            return _skip(name, n, f"needs n ≥ {_universal_min_n(6):,} bits (SP 800-22 2.9.7, L = 6), got n = {n:,}")
        big_l = max(fitting)
    else:
        big_l = L
    if big_l not in _UNIVERSAL:
        raise ValueError(f"universal L must be in 1..16 (SP 800-22 2.9.4), not {big_l!r}")
    big_q = 10 * (1 << big_l) if Q is None else Q
    if big_q < 1:
        raise ValueError(f"universal Q must be a positive number of blocks, not {big_q!r}")
    if enforce_minimum and n < _universal_min_n(big_l):
        return _skip(
            name, n, f"needs n ≥ {_universal_min_n(big_l):,} bits for L = {big_l} (SP 800-22 2.9.7), got n = {n:,}"
        )
    blocks = n // big_l
    big_k = blocks - big_q
    if big_k < 1:
        return _skip(name, n, f"needs more than Q = {big_q} blocks of L = {big_l} bits, got {blocks}")
    values = np.zeros(blocks, dtype=np.int64)
    for bit in x[: blocks * big_l].reshape(blocks, big_l).T:
        values <<= 1
        values |= bit
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    prev = np.zeros(blocks, dtype=np.int64)  # 1-based place of the pattern's previous occurrence, 0 if none
    same = ordered[1:] == ordered[:-1]
    prev[order[1:][same]] = order[:-1][same] + 1
    places = np.arange(big_q + 1, blocks + 1, dtype=np.int64)
    total = float(np.sum(np.log2((places - prev[big_q:]).astype(float))))
    f_n = total / big_k
    expected, variance = _UNIVERSAL[big_l]
    c = 0.7 - 0.8 / big_l + (4.0 + 32.0 / big_l) * big_k ** (-3.0 / big_l) / 15.0
    sigma = c * math.sqrt(variance / big_k)
    p = _erfc(abs(f_n - expected) / (math.sqrt(2.0) * sigma))
    detail = {"L": big_l, "Q": big_q, "K": big_k, "sum": total, "sigma": sigma}
    return TestResult.of(name, FAMILY, f_n, [p], n, detail)


# --------------------------------------------------------------------------------------------------- 2.10

# SP 800-22 2.10.4 step 6 (section 3.10): the class probabilities of T_i. The reference code behind the
# document's published p-values uses pi_0 = 0.01047 instead; the text's value is used here.
_LINEAR_COMPLEXITY = (0.010417, 0.03125, 0.125, 0.5, 0.25, 0.0625, 0.020833)


def linear_complexity(
    bits: object,
    *,
    M: int = 500,  # noqa: N803
    probabilities: Sequence[float] | None = None,
    enforce_minimum: bool = True,
) -> TestResult:
    """The linear complexity test, SP 800-22 section 2.10: L_i = the linear complexity of each of the
    N = floor(n / M) blocks of M bits (Berlekamp–Massey), mu = M/2 + (9 + (-1)^(M+1))/36 - (M/3 + 2/9)/2^M,
    T_i = (-1)^M (L_i - mu) + 2/9 counted in 7 classes (≤ -2.5, ..., > 2.5) against pi_0..pi_6 of 2.10.4,
    chi^2 over the classes, p = igamc(3, chi^2/2). ``probabilities`` replaces pi_0..pi_6: the document's
    published p-values (2.10.8, Appendix B) come from its reference code, whose pi_0 is 0.01047 (the text's
    is 0.010417, 1/96 rounded); passing that reproduces them. Needs 500 ≤ M ≤ 5000 (2.10.7) and N min(pi_i) ≥ 5 (N ≥ 480
    blocks, 240,000 bits for M = 500; the document recommends n ≥ 10^6)."""
    name = "linear complexity"
    x = _as_bits(bits)
    n = x.size
    if M < 1:
        raise ValueError(f"linear complexity M must be a positive number of bits, not {M!r}")
    big_n = n // M
    probs = _class_probabilities(_LINEAR_COMPLEXITY if probabilities is None else probabilities, 7)
    if enforce_minimum:
        need = math.ceil(5.0 / probs.min())
        if not 500 <= M <= 5000 or big_n < need:
            return _skip(
                name,
                n,
                f"needs 500 ≤ M ≤ 5000 (SP 800-22 2.10.7) and N ≥ {need} blocks so that N·min(pi_i) ≥ 5, "
                f"i.e. n ≥ {need * M:,} bits for M = {M}; got n = {n:,} (N = {big_n})",
            )
    if big_n < 1:
        return _skip(name, n, f"needs at least one block of M = {M} bits, got n = {n}")
    complexities = kern.linear_complexities(x[: big_n * M].reshape(big_n, M))
    sign = -1.0 if M % 2 else 1.0
    mu = M / 2.0 + (9.0 - sign) / 36.0 - (M / 3.0 + 2.0 / 9.0) / 2.0**M
    t = sign * (complexities - mu) + 2.0 / 9.0
    v = np.bincount(np.searchsorted(np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5]), t, side="left"), minlength=7)
    chi2 = _chi2(v.astype(float), big_n * probs)
    p = _igamc(3.0, chi2 / 2.0)
    return TestResult.of(name, FAMILY, chi2, [p], n, {"M": M, "N": big_n, "mu": mu, "v": v.tolist()})


# --------------------------------------------------------------------------------------------------- 2.11


def _psi2(counts: NDArray[np.int64], n: int) -> float:
    """psi^2_m = 2^m / n sum(v_i^2) - n (SP 800-22 2.11.4 step 3), exactly in integers before the division."""
    return (counts.size * int(np.sum(counts.astype(object) ** 2)) - n * n) / n


def serial(bits: object, *, m: int = 16, enforce_minimum: bool = True) -> TestResult:
    """The serial test, SP 800-22 section 2.11: psi^2_m, psi^2_(m-1), psi^2_(m-2) from the cyclic counts of all
    m-, (m-1)- and (m-2)-bit patterns, del = psi^2_m - psi^2_(m-1), del2 = psi^2_m - 2 psi^2_(m-1) +
    psi^2_(m-2), p_1 = igamc(2^(m-2), del/2), p_2 = igamc(2^(m-3), del2/2): two p-values. Needs
    m < floor(log2 n) - 2 (2.11.7); Appendix B uses m = 16, the default (n ≥ 2^19 = 524,288 bits)."""
    name = "serial"
    x = _as_bits(bits)
    n = x.size
    if not 2 <= m <= 25:
        raise ValueError(f"serial m must be in 2..25, not {m!r}")
    if enforce_minimum and m >= math.floor(math.log2(n)) - 2:
        return _skip(
            name,
            n,
            f"needs m < floor(log2 n) - 2 (SP 800-22 2.11.7), i.e. n ≥ {2 ** (m + 3):,} bits for "
            f"m = {m}; got n = {n:,}",
        )
    c_m = _cyclic_counts(x, m)
    c_m1 = _marginal(c_m)
    c_m2 = _marginal(c_m1) if m >= 3 else np.array([n], dtype=np.int64)
    psi_m, psi_m1 = _psi2(c_m, n), _psi2(c_m1, n)
    psi_m2 = _psi2(c_m2, n) if m >= 3 else 0.0
    del1 = psi_m - psi_m1
    del2 = psi_m - 2.0 * psi_m1 + psi_m2
    p1 = _igamc(2.0 ** (m - 2), del1 / 2.0)
    p2 = _igamc(2.0 ** (m - 3), del2 / 2.0)
    detail = {"m": m, "psi2_m": psi_m, "psi2_m-1": psi_m1, "psi2_m-2": psi_m2, "del": del1, "del2": del2}
    return TestResult.of(name, FAMILY, del1, [p1, p2], n, detail)


# --------------------------------------------------------------------------------------------------- 2.12


def _phi(counts: NDArray[np.int64], n: int) -> float:
    c = counts[counts > 0] / n
    return float(np.sum(c * np.log(c)))


def approximate_entropy(bits: object, *, m: int = 10, enforce_minimum: bool = True) -> TestResult:
    """The approximate entropy test, SP 800-22 section 2.12: phi^(m) = sum pi_i ln pi_i over the cyclic m-bit
    pattern frequencies, ApEn(m) = phi^(m) - phi^(m+1), chi^2 = 2n (ln 2 - ApEn(m)), p = igamc(2^(m-1),
    chi^2/2). Needs m < floor(log2 n) - 5 (2.12.7); Appendix B uses m = 10, the default (n ≥ 2^16 = 65,536
    bits)."""
    name = "approximate entropy"
    x = _as_bits(bits)
    n = x.size
    if not 1 <= m <= 24:
        raise ValueError(f"approximate entropy m must be in 1..24, not {m!r}")
    if enforce_minimum and m >= math.floor(math.log2(n)) - 5:
        return _skip(
            name,
            n,
            f"needs m < floor(log2 n) - 5 (SP 800-22 2.12.7), i.e. n ≥ {2 ** (m + 6):,} bits for "
            f"m = {m}; got n = {n:,}",
        )
    c_m1 = _cyclic_counts(x, m + 1)
    c_m = _marginal(c_m1)
    apen = _phi(c_m, n) - _phi(c_m1, n)
    chi2 = 2.0 * n * (math.log(2.0) - apen)
    p = _igamc(2.0 ** (m - 1), chi2 / 2.0)
    return TestResult.of(name, FAMILY, chi2, [p], n, {"m": m, "ApEn": apen})


# --------------------------------------------------------------------------------------------------- 2.13


def _cusum_p(z: int, n: int) -> float:
    """SP 800-22 2.13.4 step 4: the chance that the maximal excursion of a random walk of n steps is ≥ z."""
    sq = math.sqrt(n)
    k1 = np.arange(math.ceil((-n / z + 1) / 4), math.floor((n / z - 1) / 4) + 1)
    k2 = np.arange(math.ceil((-n / z - 3) / 4), math.floor((n / z - 1) / 4) + 1)
    s1 = float(np.sum(ndtr((4 * k1 + 1) * z / sq) - ndtr((4 * k1 - 1) * z / sq)))
    s2 = float(np.sum(ndtr((4 * k2 + 3) * z / sq) - ndtr((4 * k2 + 1) * z / sq)))
    return 1.0 - s1 + s2


def cumulative_sums(bits: object, *, enforce_minimum: bool = True) -> TestResult:
    """The cumulative sums (cusum) test, SP 800-22 section 2.13: z = the largest |partial sum| of the ±1
    sequence, forward (mode 0) and backward (mode 1), each with its p-value from 2.13.4 step 4: two p-values.
    Needs n ≥ 100 (2.13.7)."""
    name = "cumulative sums"
    x = _as_bits(bits)
    n = x.size
    if enforce_minimum and n < 100:
        return _skip(name, n, f"needs n ≥ 100 bits (SP 800-22 2.13.7), got n = {n}")
    steps = 2 * x.astype(np.int64) - 1
    z_fwd = int(np.max(np.abs(np.cumsum(steps))))
    z_bwd = int(np.max(np.abs(np.cumsum(steps[::-1]))))
    ps = [_cusum_p(z_fwd, n), _cusum_p(z_bwd, n)]
    return TestResult.of(name, FAMILY, float(max(z_fwd, z_bwd)), ps, n, {"z_forward": z_fwd, "z_backward": z_bwd})


# --------------------------------------------------------------------------------------------------- 2.14, 2.15


def _excursions(x: Bits, reach: int) -> tuple[int, NDArray[np.int64], NDArray[np.int64]]:
    """The random walk's cycles (SP 800-22 2.14.4 steps 1-4): J, and the state and the cycle of every step
    that visits a state -reach..-1, 1..reach (in the walk's order, so the cycles are non-decreasing)."""
    walk = np.cumsum(2 * x.astype(np.int64) - 1)
    zero = walk == 0
    cycles = int(np.count_nonzero(zero)) + (1 if walk[-1] != 0 else 0)
    cycle_of = np.concatenate(([0], np.cumsum(zero)[:-1]))  # the zeros strictly before each step
    keep = (~zero) & (np.abs(walk) <= reach)
    return cycles, walk[keep], cycle_of[keep]


def _cycles_needed(n: int) -> int:
    return max(500, math.ceil(0.005 * math.sqrt(n)))


def _excursion_probabilities(x: int) -> NDArray[np.float64]:
    """pi_k(x), k = 0..5 (≥ 5), the chance that a cycle visits state x exactly k times (SP 800-22 3.14)."""
    a = 1.0 / (2.0 * abs(x))
    return np.array(
        [1.0 - a] + [(1.0 / (4.0 * x * x)) * (1.0 - a) ** (k - 1) for k in range(1, 5)] + [a * (1.0 - a) ** 4]
    )


def random_excursions(bits: object, *, enforce_minimum: bool = True) -> TestResult:
    """The random excursions test, SP 800-22 section 2.14: the ±1 partial sums cut into J cycles at their
    zeros; for each state x = -4..-1, 1..4, v_k(x) = the number of cycles visiting x exactly k times (k = 0..4,
    ≥ 5), chi^2(x) = sum (v_k(x) - J pi_k(x))^2 / (J pi_k(x)), p = igamc(5/2, chi^2(x)/2): eight p-values.
    Needs J ≥ max(500, 0.005 sqrt(n)) cycles (2.14.7)."""
    name = "random excursions"
    x = _as_bits(bits)
    n = x.size
    cycles, states_visited, cycle_of = _excursions(x, 4)
    need = _cycles_needed(n) if enforce_minimum else 1
    if cycles < need:
        return _skip(name, n, f"needs J ≥ {need} cycles of the random walk (SP 800-22 2.14.7), got J = {cycles}")
    states = [-4, -3, -2, -1, 1, 2, 3, 4]
    chi2s, ps, table = [], [], []
    for s in states:
        _, visits = np.unique(cycle_of[states_visited == s], return_counts=True)  # per cycle that visits s
        v = np.bincount(np.minimum(visits, 5), minlength=6)
        v[0] = cycles - visits.size
        chi2 = _chi2(v.astype(float), cycles * _excursion_probabilities(s))
        chi2s.append(chi2)
        ps.append(_igamc(2.5, chi2 / 2.0))
        table.append(v.tolist())
    worst = int(np.argmin(ps))
    detail = {"J": cycles, "states": states, "chi2": chi2s, "v": table}
    return TestResult.of(name, FAMILY, chi2s[worst], ps, n, detail)


def random_excursions_variant(bits: object, *, enforce_minimum: bool = True) -> TestResult:
    """The random excursions variant test, SP 800-22 section 2.15: xi(x) = the total number of visits of the
    ±1 partial sums to state x = -9..-1, 1..9 over the J cycles, p = erfc(|xi(x) - J| / sqrt(2J (4|x| - 2))):
    eighteen p-values. Needs J ≥ max(500, 0.005 sqrt(n)) cycles (2.15.7)."""
    name = "random excursions variant"
    x = _as_bits(bits)
    n = x.size
    cycles, states_visited, _ = _excursions(x, 9)
    need = _cycles_needed(n) if enforce_minimum else 1
    if cycles < need:
        return _skip(name, n, f"needs J ≥ {need} cycles of the random walk (SP 800-22 2.15.7), got J = {cycles}")
    states = [s for s in range(-9, 10) if s != 0]
    totals = np.bincount(states_visited + 9, minlength=19)
    xi = [int(totals[s + 9]) for s in states]
    dev = [abs(v - cycles) / math.sqrt(2.0 * cycles * (4.0 * abs(s) - 2.0)) for v, s in zip(xi, states, strict=True)]
    ps = [_erfc(d) for d in dev]
    detail = {"J": cycles, "states": states, "xi": xi}
    return TestResult.of(name, FAMILY, max(dev), ps, n, detail)


# --------------------------------------------------------------------------------------------------- battery

_RUNNERS: dict[str, Callable[[Bits], TestResult]] = {
    "frequency": frequency,
    "block frequency": block_frequency,
    "runs": runs,
    "longest run of ones": longest_run_of_ones,
    "binary matrix rank": binary_matrix_rank,
    "discrete Fourier transform": discrete_fourier_transform,
    "non-overlapping template": non_overlapping_template,
    "overlapping template": overlapping_template,
    "universal": universal,
    "linear complexity": linear_complexity,
    "serial": serial,
    "approximate entropy": approximate_entropy,
    "cumulative sums": cumulative_sums,
    "random excursions": random_excursions,
    "random excursions variant": random_excursions_variant,
}


def battery(bits: object, *, tests: Sequence[str] | None = None) -> list[TestResult]:
    """Run the SP 800-22 tests named in ``tests`` (default: all fifteen, :data:`NIST_TESTS`) on ``bits`` with
    the document's recommended parameters: one result per test, in the document's order, skipped ones
    included."""
    x = _as_bits(bits)
    if tests is None:
        wanted = set(NIST_TESTS)
    else:
        if isinstance(tests, str):
            raise ValueError(f"tests must be a sequence of test names, not the string {tests!r}")
        wanted = set(tests)
        unknown = sorted(wanted - set(NIST_TESTS))
        if unknown:
            raise ValueError(f"unknown NIST test {unknown[0]!r}; the tests are {', '.join(NIST_TESTS)}")
    return [_RUNNERS[t](x) for t in NIST_TESTS if t in wanted]
