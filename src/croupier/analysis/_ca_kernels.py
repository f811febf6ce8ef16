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

Arguments come in bundles (tuples numba compiles as one argument each):

* ``tab``: the hand table ``(hc, hard, ace, ncards, child, order_desc, order_asc)``
  (:attr:`croupier.analysis.ca.HandTable.arrays`);
* ``seq``: the dealer's sequences ``(coef, len, out, start, v, m, most)`` after the up card;
* ``shoe``: ``(base, extra_v, extra_n)``, the shoe the hands draw from, which is the up card's shoe less
  ``extra_n`` cards of index ``extra_v`` (split hands: the other split card and any further pair cards);
* ``dealer``: ``(d_all, cache)``, the dealer's outcomes for every hand drawn from the up card's shoe and a memo
  for other shoes (:func:`dealer_of`);
* ``play``: ``(x, peek, bj_loss, bust_b, pay)``: the hole card that makes a blackjack (-1: none), whether the
  dealer peeks, what a stood and a busted hand get when a blackjack is found at the end, and the payoffs.
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
def dealer_dist(r: Any, seq: Any) -> Any:
    """Joint probabilities of the dealer's outcomes (17-21, bust, blackjack) drawing from composition ``r``:
    each sequence's legal orders times falling factorials of the counts it takes, summed by outcome and length
    before dividing by the falling factorial of the shoe's size."""
    seq_coef, seq_len, seq_out, seq_start, seq_v, seq_m, most = seq
    total = 0
    for v in range(10):
        total += r[v]
    ff = np.ones((10, 23))
    for v in range(10):
        for m in range(1, most[v] + 1):
            ff[v, m] = ff[v, m - 1] * (r[v] - m + 1) if r[v] - m + 1 > 0 else 0.0
    acc = np.zeros((7, 23))
    for k in range(seq_coef.shape[0]):
        p = seq_coef[k]
        for i in range(seq_start[k], seq_start[k + 1]):
            p *= ff[seq_v[i], seq_m[i]]
        acc[seq_out[k], seq_len[k]] += p
    out = np.zeros(7)
    ft = 1.0
    for n in range(1, 23):
        ft *= total - n + 1 if total - n + 1 > 0 else 0.0
        if ft == 0.0:
            break
        for o in range(7):
            out[o] += acc[o, n] / ft
    return out


EMPTY = -1
"""A free slot of the dealer memo's keys."""


def dealer_memo(capacity: int) -> tuple[Any, Any, Any]:
    """An empty memo of the dealer's outcomes by the cards taken out of an up card's shoe: (keys, values,
    count), an open-addressing table of ``capacity`` slots (a power of two) that :func:`dealer_of` fills to
    at most 70% and :func:`rehash` moves into a larger one."""
    return np.full(capacity, EMPTY, np.int64), np.zeros((capacity, 7)), np.zeros(1, np.int64)


@njit
def _slot(keys: Any, key: int) -> int:
    mask = keys.shape[0] - 1
    i: int = (key * 0x9E3779B1) & mask
    while keys[i] != EMPTY and keys[i] != key:
        i = (i + 1) & mask
    return i


@njit
def rehash(keys: Any, vals: Any, new_keys: Any, new_vals: Any) -> None:
    """Move a dealer memo into a larger, empty one."""
    for i in range(keys.shape[0]):
        if keys[i] != EMPTY:
            j = _slot(new_keys, keys[i])
            new_keys[j] = keys[i]
            new_vals[j] = vals[i]


@njit
def dealer_of(r: Any, h: int, hc: Any, child: Any, dealer: Any, extra_v: int, extra_n: int, seq: Any) -> Any:
    """The dealer's outcomes drawing from ``r``: the up card's shoe less hand ``h`` and ``extra_n`` more cards of
    index ``extra_v``. Read from ``d_all`` at the hand holding those cards when the table has it, else from the
    memo (keyed by the cards taken out, five bits a value), else computed and kept there while it has room:
    the same composition gives the same numbers whichever way it is found."""
    d_all, keys, vals, count = dealer
    c = h
    for _ in range(extra_n):
        if c < 0:
            break
        c = child[c, extra_v]
    if c >= 0:
        d = d_all[c]
        if d[0] + d[1] + d[2] + d[3] + d[4] + d[5] + d[6] > 0.0:
            return d
    key = 0
    for v in range(10):
        key |= (hc[h, v] + (extra_n if v == extra_v else 0)) << (5 * v)
    i = _slot(keys, key)
    if keys[i] == key:
        return vals[i]
    d = dealer_dist(r, seq)
    if count[0] * 10 < keys.shape[0] * 7:
        keys[i] = key
        vals[i] = d
        count[0] += 1
    return d


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
    q_base = r[x] if x >= 0 else 0
    for v in range(10):
        if r[v] == 0:
            continue
        p = r[v] / total
        c = child[h, v]
        if c >= 0:
            hit += p * values[c]
        else:
            q = 0.0
            if x >= 0 and total > 1:
                q = (q_base - (1 if v == x else 0)) / (total - 1)
            hit += p * _terminal(pay[3], bust_b, q, peek)
    return hit


@njit
def hand_total(hard: int, ace: bool) -> int:
    return hard + 10 if ace and hard <= 11 else hard


@njit
def optimal_pass(
    tab: Any, seq: Any, base: Any, play: Any, ends: Any, claim_ok: bool, min_cards: int, known: Any
) -> Any:
    """The dealer's outcomes, the best value and the best decision (stand / hit / claim) of every hand of at
    least ``min_cards`` cards drawn from ``base`` (the shoe after the up card; hands are removed from it). The
    dealer's outcomes are taken from ``known`` where it has them (the same shoe and dealer's rule)."""
    hc, hard, ace, ncards, child, order_desc, _ = tab
    x, peek, pay = play
    bj_loss, bust_b = ends
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
        d = known[h]
        if d[0] + d[1] + d[2] + d[3] + d[4] + d[5] + d[6] == 0.0:
            d = dealer_dist(r, seq)
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
def context_pass(
    tab: Any, seq: Any, shoe: Any, dealer: Any, play: Any, ends: Any, dec: Any, mask: Any, want: Any
) -> Any:
    """Every hand of three or more cards in ``mask`` dealt from the shoe: its value played by ``dec``, and what
    standing, hitting and claiming the five-card payment would give it, the later hands played by ``dec``.
    ``val`` is right where ``mask`` holds the hands ``dec`` hits into (:func:`mark_reach`); ``stand``, ``hit``
    and ``claim`` are filled only for the hands of ``want``, ``hit`` rightly where ``mask`` holds the hand's
    children too (:func:`mark_needed`). Only what is asked for is computed."""
    hc, hard, ace, ncards, child, order_desc, _ = tab
    base, extra_v, extra_n = shoe
    x, peek, pay = play
    bj_loss, bust_b = ends
    nh = hc.shape[0]
    val = np.zeros(nh)
    stand = np.zeros(nh)
    hit = np.full(nh, -np.inf)
    claim = np.zeros(nh)
    r = np.zeros(10, np.int64)
    for idx in range(nh):
        h = order_desc[idx]
        if not mask[h] or ncards[h] < 3:
            continue
        total = _left_after(base, hc, h, r)
        if total < 1:
            continue
        t = hand_total(hard[h], ace[h])
        choice = dec[h]
        hits = choice == D_HIT and t < 21 and total > 1
        full = want[h]
        if full or not (hits or choice == D_CLAIM):
            d = dealer_of(r, h, hc, child, dealer, extra_v, extra_n, seq)
            stand[h] = _stand(d, t, 1.0, bj_loss, peek, pay)
        if full or choice == D_CLAIM:
            claim[h] = _terminal(pay[4], pay[4], _q(r, x), peek)
        if t < 21 and total > 1 and (full or hits):
            hit[h] = _hit(r, total, child, h, val, x, peek, bust_b, pay)
        if choice == D_CLAIM:
            val[h] = claim[h]
        elif choice == D_HIT and t < 21 and total > 1:
            val[h] = hit[h]
        else:
            val[h] = stand[h]
    return val, stand, hit, claim


@njit
def mark_reach(tab: Any, dec: Any, roots: Any) -> Any:
    """Hands of three or more cards reachable from the hitting two-card ``roots`` under ``dec``."""
    _, _, _, ncards, child, _, order_asc = tab
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
def mark_needed(tab: Any, dec: Any, roots: Any) -> Any:
    """(needed, wanted): the hands whose values the chart optimiser needs from the two-card ``roots`` — those
    it may reach (every root hitting, then ``dec``), whose other choices it weighs (``wanted``), and every hand
    their other choice would lead to, played on by ``dec``."""
    _, _, _, ncards, child, _, order_asc = tab
    wanted = mark_reach(tab, dec, roots)
    needed = wanted.copy()
    for idx in range(child.shape[0]):
        h = order_asc[idx]
        if ncards[h] < 3 or not (wanted[h] or (needed[h] and dec[h] == D_HIT)):
            continue
        for v in range(10):
            c = child[h, v]
            if c >= 0:
                needed[c] = True
    return needed, wanted


@njit
def forward_reach(tab: Any, base: Any, dec: Any, reach: Any) -> None:
    """Carry the chance of reaching each hand of three or more cards (``reach``, filled in place from the
    three-card hands' chances) through the hands that ``dec`` hits, drawing from ``base``."""
    hc, hard, ace, ncards, child, _, order_asc = tab
    nh = hc.shape[0]
    r = np.zeros(10, np.int64)
    for idx in range(nh):
        h = order_asc[idx]
        if reach[h] == 0.0 or ncards[h] < 3 or dec[h] != D_HIT:
            continue
        if hand_total(hard[h], ace[h]) >= 21:
            continue
        total = _left_after(base, hc, h, r)
        if total < 2:
            continue
        for v in range(10):
            c = child[h, v]
            if r[v] > 0 and c >= 0:
                reach[c] += reach[h] * r[v] / total


@njit
def two_card_values(
    tab: Any, seq: Any, shoe: Any, dealer: Any, play: Any, stakes: Any, h: int, cont: Any, bonus: Any,
    want_double: bool,
) -> Any:  # fmt: skip
    """(stand, hit, double) of the two-card hand ``h`` drawn from the shoe: hitting continues with ``cont``
    (the three-card hands' values), doubling takes one card; a third card of index ``bonus[0]`` completes the
    special bonus with probability ``bonus[1]`` (3 times the stake at once). ``stakes``: what a stood, doubled,
    busted and busted doubled hand get for a dealer blackjack found at the end."""
    hc, hard, ace, _, child, _, _ = tab
    base, extra_v, extra_n = shoe
    x, peek, pay = play
    stand_bj, double_bj, bust_b, double_bust_b = stakes
    bonus_v, share = bonus
    r = np.zeros(10, np.int64)
    total = 0
    for v in range(10):
        r[v] = base[v] - hc[h, v]
        total += r[v]
    t = hand_total(hard[h], ace[h])
    stand = _stand(dealer_of(r, h, hc, child, dealer, extra_v, extra_n, seq), t, 1.0, stand_bj, peek, pay)
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
                d = dealer_of(r, c, hc, child, dealer, extra_v, extra_n, seq)
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


@njit
def two_card_batch(
    tab: Any, seq: Any, shoe: Any, dealer: Any, play: Any, stakes: Any, hands: Any, cont: Any, bonus_v: Any,
    share: Any, want_double: bool,
) -> Any:  # fmt: skip
    """:func:`two_card_values` of each hand of ``hands`` (with its own special-bonus card and share), as rows of
    (stand, hit, double): one call for many hands."""
    out = np.empty((hands.shape[0], 3))
    for i in range(hands.shape[0]):
        s, h, d = two_card_values(
            tab, seq, shoe, dealer, play, stakes, hands[i], cont, (bonus_v[i], share[i]), want_double
        )
        out[i, 0] = s
        out[i, 1] = h
        out[i, 2] = d
    return out
