"""The numba kernels of the combinatorial analysis (:mod:`croupier.analysis.ca`).

Everything here works on *hands as multisets* of card values (index 0 = ace … 9 = ten-value) taken from a
fixed table (:func:`croupier.analysis.ca._hand_table`) and on the dealer's drawing sequences as multisets with
their number of legal orders (:func:`croupier.analysis.ca._dealer_sequences`). Values are **joint**
expectations: under the peek they are expectations times the indicator that the dealer has no blackjack (the
hole card is drawn, by exchangeability, after the player's cards), so decisions compare them directly and the
round adds the dealer-blackjack branch once.

The payoffs come in ``pay``: (win, push, loss, bust, five-card claim, special bonus, doubled stake) per unit
of the stake, then a weight for each dealer outcome (17-21, bust, blackjack) a standing hand meets: the
expected value is (1, 0, -1, -1, 0.5, 3, 2) with every weight 1; indicators count the chance of a result.
Terminal payoffs are a pair ``(a, b)``: ``a`` when the dealer has no blackjack, ``b`` when he has (only
without the peek, where the blackjack is found at the end). ``q`` is the chance the dealer's hole card, drawn
from what is left, completes a blackjack.
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


# Decision codes of the kernels.
D_STAND = 0
D_HIT = 1
D_CLAIM = 2
D_DOUBLE = 3


@njit
def dealer_dist(r: Any, seq_coef: Any, seq_len: Any, seq_out: Any, seq_start: Any, seq_v: Any, seq_m: Any) -> Any:
    """Joint probabilities of the dealer's outcomes (17-21, bust, blackjack) drawing from composition ``r``."""
    total = 0
    for v in range(10):
        total += r[v]
    ff = np.ones((10, 23))
    for v in range(10):
        for m in range(1, 23):
            ff[v, m] = ff[v, m - 1] * (r[v] - m + 1) if r[v] - m + 1 > 0 else 0.0
    ft = np.ones(23)
    for n in range(1, 23):
        ft[n] = ft[n - 1] * (total - n + 1) if total - n + 1 > 0 else 0.0
    out = np.zeros(7)
    for k in range(seq_coef.shape[0]):
        n = seq_len[k]
        if ft[n] == 0.0:
            continue
        p = seq_coef[k]
        for i in range(seq_start[k], seq_start[k + 1]):
            p *= ff[seq_v[i], seq_m[i]]
            if p == 0.0:
                break
        if p != 0.0:
            out[seq_out[k]] += p / ft[n]
    return out


@njit
def _q(r: Any, x: int) -> float:
    """The chance that a hole card drawn from ``r`` is ``x`` (-1: no blackjack possible)."""
    if x < 0:
        return 0.0
    total = 0
    for v in range(10):
        total += r[v]
    return r[x] / total if total > 0 else 0.0


@njit
def _terminal(a: float, b: float, q: float, peek: bool) -> float:
    if peek:
        return a * (1.0 - q)
    return a * (1.0 - q) + b * q


@njit
def _stand(d: Any, total: int, stake: float, bj_loss: float, peek: bool, pay: Any) -> float:
    """A standing hand of ``total`` against the dealer's joint outcome probabilities ``d``, each outcome
    weighted by ``pay[7 + outcome]`` (all 1 but when one dealer outcome is singled out)."""
    value = d[5] * stake * pay[0] * pay[12]
    for o in range(5):
        dealer = 17 + o
        if total > dealer:
            value += d[o] * stake * pay[0] * pay[7 + o]
        elif total < dealer:
            value += d[o] * stake * pay[2] * pay[7 + o]
        else:
            value += d[o] * stake * pay[1] * pay[7 + o]
    if not peek:
        value += d[6] * bj_loss * pay[13]
    return float(value)


@njit
def _left_after(base: Any, hc: Any, h: int, r: Any) -> int:
    """Fill ``r`` with the shoe ``base`` less hand ``h``; the cards left, or -1 if the shoe cannot hold it."""
    total = 0
    ok = True
    for v in range(10):
        r[v] = base[v] - hc[h, v]
        if r[v] < 0:
            ok = False
        total += r[v]
    return total if ok else -1


@njit
def _hit(r: Any, total: int, child: Any, h: int, values: Any, x: int, peek: bool, bust_b: float, pay: Any) -> float:
    """Hitting hand ``h`` (the shoe ``r`` of ``total`` cards left): the next hands' ``values``, or a bust."""
    hit = 0.0
    for v in range(10):
        if r[v] == 0:
            continue
        p = r[v] / total
        c = child[h, v]
        if c >= 0:
            hit += p * values[c]
        else:
            r[v] -= 1
            hit += p * _terminal(pay[3], bust_b, _q(r, x), peek)
            r[v] += 1
    return hit


@njit
def hand_total(hard: int, ace: bool) -> int:
    return hard + 10 if ace and hard <= 11 else hard


@njit
def optimal_pass(
    base: Any,
    hc: Any,
    hard: Any,
    ace: Any,
    ncards: Any,
    child: Any,
    order_desc: Any,
    seq_coef: Any,
    seq_len: Any,
    seq_out: Any,
    seq_start: Any,
    seq_v: Any,
    seq_m: Any,
    x: int,
    peek: bool,
    claim_ok: bool,
    bj_loss: float,
    bust_b: float,
    min_cards: int,
    pay: Any,
) -> Any:
    """The dealer's outcomes, the best value and the best decision (stand / hit / claim) of every hand of at
    least ``min_cards`` cards drawn from ``base`` (the shoe after the up card; hands are removed from it)."""
    nh = hc.shape[0]
    d_all = np.zeros((nh, 7))
    best = np.full(nh, np.nan)
    dec = np.full(nh, -1, np.int8)
    r = np.zeros(10, np.int64)
    for idx in range(nh):
        h = order_desc[idx]
        if ncards[h] < min_cards:
            continue
        total = _left_after(base, hc, h, r)
        if total < 1:
            continue
        d = dealer_dist(r, seq_coef, seq_len, seq_out, seq_start, seq_v, seq_m)
        d_all[h] = d
        t = hand_total(hard[h], ace[h])
        value = _stand(d, t, 1.0, bj_loss, peek, pay)
        choice = D_STAND
        if claim_ok and ncards[h] == 5:
            claim = _terminal(pay[4], pay[4], _q(r, x), peek)
            if claim > value:
                value = claim
                choice = D_CLAIM
        if t < 21 and total > 1:
            hit = _hit(r, total, child, h, best, x, peek, bust_b, pay)
            if hit > value:
                value = hit
                choice = D_HIT
        best[h] = value
        dec[h] = choice
    return d_all, best, dec


@njit
def fixed_pass(
    base: Any,
    hc: Any,
    hard: Any,
    ace: Any,
    ncards: Any,
    child: Any,
    order_desc: Any,
    seq_coef: Any,
    seq_len: Any,
    seq_out: Any,
    seq_start: Any,
    seq_v: Any,
    seq_m: Any,
    x: int,
    peek: bool,
    dec: Any,
    reach: Any,
    bj_loss: float,
    bust_b: float,
    pay: Any,
) -> Any:
    """The value of every reachable hand (``reach``) of three or more cards played by the fixed decisions
    ``dec`` from ``base``; only the hands that stand need the dealer's outcomes."""
    nh = hc.shape[0]
    val = np.full(nh, np.nan)
    r = np.zeros(10, np.int64)
    for idx in range(nh):
        h = order_desc[idx]
        if not reach[h] or ncards[h] < 3:
            continue
        total = _left_after(base, hc, h, r)
        if total < 1:
            val[h] = 0.0  # a hand that cannot be dealt from this shoe has no weight
            continue
        choice = dec[h]
        t = hand_total(hard[h], ace[h])
        if choice == D_CLAIM:
            val[h] = _terminal(pay[4], pay[4], _q(r, x), peek)
        elif choice == D_HIT and t < 21 and total > 1:
            hit = _hit(r, total, child, h, val, x, peek, bust_b, pay)
            val[h] = hit
        else:
            d = dealer_dist(r, seq_coef, seq_len, seq_out, seq_start, seq_v, seq_m)
            val[h] = _stand(d, t, 1.0, bj_loss, peek, pay)
    return val


@njit
def mark_reach(child: Any, order_asc: Any, ncards: Any, dec: Any, roots: Any) -> Any:
    """Hands of three or more cards reachable from the hitting two-card ``roots`` under ``dec``."""
    nh = child.shape[0]
    reach = np.zeros(nh, np.bool_)
    for i in range(roots.shape[0]):
        h = roots[i]
        for v in range(10):
            c = child[h, v]
            if c >= 0:
                reach[c] = True
    for idx in range(nh):
        h = order_asc[idx]
        if not reach[h] or ncards[h] < 3 or dec[h] != D_HIT:
            continue
        for v in range(10):
            c = child[h, v]
            if c >= 0:
                reach[c] = True
    return reach


@njit
def two_card_values(
    base: Any,
    h: int,
    hc: Any,
    hard: Any,
    ace: Any,
    child: Any,
    cont: Any,
    d_all: Any,
    d_h: Any,
    seq_coef: Any,
    seq_len: Any,
    seq_out: Any,
    seq_start: Any,
    seq_v: Any,
    seq_m: Any,
    x: int,
    peek: bool,
    bonus_v: int,
    share: float,
    stand_bj: float,
    double_bj: float,
    bust_b: float,
    double_bust_b: float,
    want_double: bool,
    pay: Any,
) -> Any:
    """(stand, hit, double) of the two-card hand ``h`` drawn from ``base``: hitting continues with ``cont``
    (the three-card hands' values), doubling takes one card; a third card of value ``bonus_v`` completes the
    special bonus with probability ``share`` (3 times the stake at once)."""
    r = np.zeros(10, np.int64)
    total = 0
    for v in range(10):
        r[v] = base[v] - hc[h, v]
        total += r[v]
    t = hand_total(hard[h], ace[h])
    stand = _stand(d_h, t, 1.0, stand_bj, peek, pay)
    hit = 0.0
    double = 0.0
    if total < 2:
        return stand, -np.inf, -np.inf
    for v in range(10):
        if r[v] == 0:
            continue
        p = r[v] / total
        c = child[h, v]
        r[v] -= 1
        q = _q(r, x)
        dbl = 0.0
        if c >= 0:
            h_next = cont[c]
            if want_double:
                d = d_all[c]
                if d[0] + d[1] + d[2] + d[3] + d[4] + d[5] + d[6] == 0.0:
                    d = dealer_dist(r, seq_coef, seq_len, seq_out, seq_start, seq_v, seq_m)
                dbl = _stand(d, hand_total(hard[c], ace[c]), pay[6], double_bj, peek, pay)
        else:
            h_next = _terminal(pay[3], bust_b, q, peek)
            dbl = _terminal(pay[3] * pay[6], double_bust_b, q, peek)
        if v == bonus_v and share > 0.0:
            h_next = share * _terminal(pay[5], pay[5], q, peek) + (1.0 - share) * h_next
            dbl = share * _terminal(pay[5] * pay[6], pay[5] * pay[6], q, peek) + (1.0 - share) * dbl
        r[v] += 1
        hit += p * h_next
        double += p * dbl
    if not want_double:
        double = -np.inf
    return stand, hit, double
