"""The numba kernels of :mod:`croupier.rng.sources` and :mod:`croupier.rng.game`: the loops numpy cannot vectorise.

Drawing from 64-bit words (``words``: a ``uint64`` array the Python side refills; ``pos``: the next unused word)
is done by one of three *methods*, each the mapping of a real generator:

* :data:`TOP` — the engine's: the top ``k = m.bit_length()`` bits of a word, rejected while ≥ ``m``
  (:meth:`croupier.primitives.chance.RandomSource.randbelow`);
* :data:`LOW` — the same with the **low** ``k`` bits (what a program using ``rand() & mask`` on an LCG does);
* :data:`MOD` — one byte of the word (two when ``m > 256``) reduced ``% m``: modulo bias, no rejection.

A kernel that runs out of words stops at the last outcome it completed and says where it stopped, so the Python
side can append fresh words after the unused ones and call again: the stream of outcomes is exactly the one a
loop drawing word after word would give.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

F = TypeVar("F", bound=Callable[..., Any])
I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]

TOP = 0
"""Top bits of the word, rejection (the engine)."""
LOW = 1
"""Low bits of the word, rejection."""
MOD = 2
"""A byte (two bytes above 256) of the word, ``% m``."""

FISHER_YATES = 0
"""Position ``i`` (from the last down to 1) swaps with ``j`` uniform in ``[0, i]`` (the engine)."""
NAIVE = 1
"""Position ``i`` (from the last down to 1) swaps with ``j`` uniform in ``[0, n)``: the engine's loop with the
bound of the whole list (``n^(n-1)`` equally likely paths onto ``n!`` orders, so some orders come more often)."""
SATTOLO = 2
"""Position ``i`` (from the last down to 1) swaps with ``j`` uniform in ``[0, i)``: a single cycle."""


def njit(fn: F) -> F:
    """Compile ``fn`` with numba (cached on disk, without the GIL), keeping its signature for the type checker."""
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


@njit
def _below(words: Any, pos: int, m: int, method: int) -> Any:
    """``(j, pos)``: ``j`` in ``[0, m)`` drawn from ``words[pos:]`` by ``method``; ``j = -1`` when the words ran
    out first (``pos`` is then past the end)."""
    n = words.shape[0]
    if method == MOD:
        if pos >= n:
            return -1, pos
        w = words[pos]
        mask = np.uint64(0xFF) if m <= 256 else np.uint64(0xFFFF)
        return np.int64((w & mask) % np.uint64(m)), pos + 1
    k = 0  # m.bit_length()
    t = m
    while t > 0:
        k += 1
        t >>= 1
    while pos < n:
        w = words[pos]
        pos += 1
        j = np.int64(w >> np.uint64(64 - k)) if method == TOP else np.int64(w & np.uint64((1 << k) - 1))
        if j < m:
            return j, pos
    return -1, pos


@njit
def draw_values(words: Any, pos: int, out: Any, start: int, m: int, method: int) -> Any:  # noqa: PLR0917
    """Fill ``out[start:]`` with values in ``[0, m)``; ``(filled_up_to, pos)`` where it stopped."""
    i = start
    while i < out.shape[0]:
        j, newpos = _below(words, pos, m, method)
        if j < 0:
            return i, pos
        out[i] = j
        pos = newpos
        i += 1
    return i, pos


@njit
def _shuffle_one(row: Any, words: Any, pos: int, kind: int, method: int) -> int:
    """Shuffle ``row`` in place; the new ``pos``, or -1 when the words ran out (``row`` is then half done)."""
    n = row.shape[0]
    for i in range(n - 1, 0, -1):
        bound = i + 1 if kind == FISHER_YATES else (n if kind == NAIVE else i)
        j, pos = _below(words, pos, bound, method)
        if j < 0:
            return -1
        tmp = row[i]
        row[i] = row[j]
        row[j] = tmp
    return pos


@njit
def shuffle_rows(words: Any, pos: int, rows: Any, start: int, kind: int, method: int) -> Any:  # noqa: PLR0917
    """Shuffle ``rows[start:]`` (each reset to ``0 … n-1`` first) one after another; ``(rows_done, pos)``."""
    r = start
    n = rows.shape[1]
    while r < rows.shape[0]:
        row = rows[r]
        for c in range(n):
            row[c] = c
        newpos = _shuffle_one(row, words, pos, kind, method)
        if newpos < 0:
            return r, pos
        pos = newpos
        r += 1
    return r, pos


@njit
def top_of_shuffles(  # noqa: PLR0917
    words: Any, pos: int, out: Any, start: int, m: int, kind: int, method: int
) -> Any:
    """Fill ``out[start:]`` with the first item of ``0 … m-1`` shuffled afresh for each value; ``(done, pos)``."""
    row = np.empty(m, dtype=np.int64)
    i = start
    while i < out.shape[0]:
        for c in range(m):
            row[c] = c
        newpos = _shuffle_one(row, words, pos, kind, method)
        if newpos < 0:
            return i, pos
        pos = newpos
        out[i] = row[0]
        i += 1
    return i, pos


@njit
def lcg_states(state: int, a: int, c: int, out: Any) -> Any:
    """Fill ``out`` with the successive states of the 32-bit LCG ``s ← a·s + c mod 2³²``; the last state."""
    s = np.uint64(state) & np.uint64(0xFFFFFFFF)
    ua = np.uint64(a)
    uc = np.uint64(c)
    for i in range(out.shape[0]):
        s = (ua * s + uc) & np.uint64(0xFFFFFFFF)
        out[i] = s
    return np.int64(s)


@njit
def coupon_segments(values: Any, d: int) -> Any:
    """Knuth's coupon collector: the lengths of the successive segments of ``values`` (each in ``[0, d)``) that
    each contain all ``d`` values, every segment ending at the value that completes it (the last, incomplete
    segment is dropped)."""
    n = values.shape[0]
    out = np.empty(n // d + 1, dtype=np.int64)
    seen = np.zeros(d, dtype=np.bool_)
    count = 0
    length = 0
    k = 0
    for i in range(n):
        v = values[i]
        length += 1
        if not seen[v]:
            seen[v] = True
            count += 1
            if count == d:
                out[k] = length
                k += 1
                length = 0
                count = 0
                seen[:] = False
    return out[:k]
