"""The numba kernels of the NIST SP 800-22 battery (:mod:`croupier.rng.nist`): the loops numpy cannot vectorise.

* :func:`gf2_ranks` — the rank over GF(2) of many small binary matrices (section 2.5, binary matrix rank);
* :func:`linear_complexities` — the linear complexity of many blocks by Berlekamp–Massey (section 2.10).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

F = TypeVar("F", bound=Callable[..., Any])


def njit(fn: F) -> F:
    """Compile ``fn`` with numba (cached on disk, without the GIL), keeping its signature for the type checker."""
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


@njit
def gf2_ranks(rows: Any, m: int, q: int) -> Any:
    """The GF(2) rank of each ``m`` x ``q`` matrix in ``rows`` (uint64, one matrix row per entry, its ``q`` columns
    in the low ``q`` bits, the matrices' rows one after the other), by Gaussian elimination."""
    n_mat = rows.shape[0] // m
    out = np.empty(n_mat, np.int64)
    buf = np.empty(m, np.uint64)
    one = np.uint64(1)
    for k in range(n_mat):
        for i in range(m):
            buf[i] = rows[k * m + i]
        rank = 0
        for col in range(q - 1, -1, -1):
            mask = one << np.uint64(col)
            pivot = -1
            for i in range(rank, m):
                if buf[i] & mask:
                    pivot = i
                    break
            if pivot < 0:
                continue
            tmp = buf[rank]
            buf[rank] = buf[pivot]
            buf[pivot] = tmp
            for i in range(rank + 1, m):
                if buf[i] & mask:
                    buf[i] ^= buf[rank]
            rank += 1
            if rank == m:
                break
        out[k] = rank
    return out


@njit
def linear_complexities(blocks: Any) -> Any:
    """The linear complexity (the length of the shortest LFSR that generates it) of each row of ``blocks``
    (uint8 0/1, one block a row), by the Berlekamp–Massey algorithm over GF(2)."""
    n_blocks, size = blocks.shape
    out = np.empty(n_blocks, np.int64)
    c = np.zeros(size + 1, np.uint8)
    b = np.zeros(size + 1, np.uint8)
    t = np.zeros(size + 1, np.uint8)
    for k in range(n_blocks):
        s = blocks[k]
        c[:] = 0
        b[:] = 0
        c[0] = 1
        b[0] = 1
        big_l = 0  # the current complexity; deg C <= big_l
        lb = 0  # deg B <= lb
        last = -1  # the step at which B was taken
        for n in range(size):
            d = s[n]
            for i in range(1, big_l + 1):
                d ^= c[i] & s[n - i]
            if d == 0:
                continue
            shift = n - last
            if 2 * big_l <= n:
                for i in range(big_l + 1):
                    t[i] = c[i]
                for i in range(lb + 1):
                    if i + shift <= size:
                        c[i + shift] ^= b[i]
                for i in range(big_l + 1):
                    b[i] = t[i]
                lb = big_l
                big_l = n + 1 - big_l
                last = n
            else:
                for i in range(lb + 1):
                    if i + shift <= size:
                        c[i + shift] ^= b[i]
        out[k] = big_l
    return out
