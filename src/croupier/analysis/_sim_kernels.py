"""The compiled side of the Monte Carlo kernel (:mod:`croupier.analysis.simulate`): a blackjack round for one
box over integer arrays, numba-compiled and cached on disk. Everything here sees only arrays: the rules, the
chart, the shoe and the hands are packed by :mod:`croupier.analysis.simulate`, whose docstring describes the
round the kernel plays and its layouts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from croupier.analysis.chart import DOUBLE_HIT, DOUBLE_STAND, HIT

I64 = npt.NDArray[np.int64]
I8 = npt.NDArray[np.int8]
F = TypeVar("F", bound=Callable[..., Any])


def _jit(fn: F) -> F:
    """Compile ``fn`` with numba in nopython mode, cached on disk."""
    return cast(F, numba.njit(cache=True)(fn))


def _jit_inline(fn: F) -> F:
    """Compile a small helper of the round, inlined into its callers."""
    return cast(F, numba.njit(cache=True, inline="always")(fn))


STAKE = 2
"""The original stake the kernel plays, in chips: every payment on it is a whole number of chips."""

RESULTS: tuple[str, str, str] = ("win", "push", "loss")
"""The box results for the streak bet (BJ 13.5), by the kernel's result code 0, 1, 2."""
WIN, PUSH, LOSS = 0, 1, 2

# -- the rules as integers ----------------------------------------------------------------------------------

R_PROCEDURE = 0
R_HOLE = 1  # the dealer's second card is dealt before the players act (procedure 3, dealing box)
R_PEEK = 2  # procedure 3 with the peek
R_SOFT17 = 3  # 0 hit_ace_six, 1 hit_all, 2 stand
R_DOUBLE_ANY = 4  # double_on any_two (1) or eleven (0)
R_DAS = 5
R_SPLIT_HANDS = 6
R_RESPLIT_ACES = 7
R_PAIR_BY_RANK = 8
R_SPLIT_AFTER_DECLINING = 9
R_SURRENDER = 10
R_FIVE_CARD = 11
R_BONUS = 12
R_EVEN_MONEY_TEN = 13
R_LOSE_ORIGINAL_DOUBLE = 14
R_BUSTED_LOST = 15
R_BURN_SECOND = 16  # burn before the dealer's face-up second card (no hole card)
R_SIZE = 17

S17_HIT_ACE_SIX, S17_HIT_ALL, S17_STAND = 0, 1, 2

# -- the chart as one int8 table (rows by part, columns by up card 0-10) --------------------------------------

T_HARD = 0
T_SOFT = 22
T_SPLIT = 44
T_SUR_HARD = 55
T_SUR_SOFT = 77
T_SUR_PAIR = 99
T_FIVE = 110
T_EVEN = 111
T_ROWS = 112

# -- a hand's state: one row of ``hs`` per hand, its cards in the same row of ``hc`` --------------------------

H_N = 0
H_HARD = 1
H_ACES = 2
H_FROM_SPLIT = 3
H_SPLIT_ACE = 4
H_DOUBLED = 5
H_DONE = 6
H_STATUS = 7
H_EARLY = 8  # settled at once (surrender, special bonus, five cards, even money)
H_EARLY_NET = 9
H_STAKE = 10
H_FIELDS = 11
MAX_CARDS = 24
"""Room for a hand's cards: a hand takes cards while its hard total is 21 or less, so at most 22."""

ST_NONE, ST_STOOD, ST_BUST, ST_BLACKJACK, ST_SURRENDERED = 0, 1, 2, 3, 4
ST_EVEN_MONEY, ST_FIVE_CARD, ST_SPECIAL_BONUS, ST_DOUBLED = 5, 6, 7, 8

A_HIT, A_STAND, A_DOUBLE, A_SPLIT, A_SURRENDER, A_CLAIM = 0, 1, 2, 3, 4, 5

# -- the card source and the round's results: ``st`` ---------------------------------------------------------

S_POS = 0  # next card of ``shoe`` to deal
S_END = 1  # cards of ``shoe`` that may be dealt
S_MODE = 2  # 0: deal ``shoe`` in order; 1: draw each card at random from the rest (partial Fisher-Yates)
S_RESULT = 3
S_NET = 4  # chips on the original stake of STAKE chips
S_FAILED = 5  # the source ran out mid-round
S_BURN = 6  # where the burn before the dealer's second card lies, or -1
S_PATHS = 7  # bit flags of what the round went through (see PATH_NAMES)
S_SIZE = 8

PATH_NAMES: tuple[str, ...] = (
    "split",
    "resplit",
    "double",
    "surrender",
    "five_card",
    "special_bonus",
    "even_money",
    "blackjack",
    "dealer_blackjack",
    "peeked_blackjack",
    "dealer_second_card_skipped",
    "original_bet_only",
)
"""What :data:`RoundOutcome.paths` may name, by bit of the kernel's flags."""

# -- the accumulators of a simulation: ``acc`` --------------------------------------------------------------

C_NET = 0
C_SQUARES = 1
C_WINS = 2  # C_WINS + result code: wins, pushes, losses
C_PREVIOUS = 5  # the previous round's result code, or -1
C_TRANSITIONS = 6  # 3x3 counts of (previous result, result)
C_CARDS = 15
C_SHOES = 16
C_RESTOCKS = 17
C_SIZE = 18

# -- a shoe dealt to the cut card: ``sh`` --------------------------------------------------------------------

SH_POS = 0
SH_SHUFFLE_NEXT = 1
SH_CUT = 2  # cards out (burns included) once the first card behind the cut card is out: size - behind + 1
SH_BURN_AFTER_SHUFFLE = 3
SH_BURN_EACH_ROUND = 4
SH_DEVICE = 5  # 0 shoe, 1 dealing box, 2 shuffler
SH_ROUNDS = 6
SH_SIZE = 7


# == the kernel ==============================================================================================


@_jit_inline
def _value(code: int) -> int:
    """Blackjack value of a card code (ace 1, pictures 10)."""
    rank = code >> 2
    return rank + 1 if rank < 9 else 10


@_jit_inline
def _draw(shoe: I64, st: I64) -> int:
    """The next card code, or -1 (and the failure flag set) when the source has no more cards."""
    pos = st[S_POS]
    end = st[S_END]
    if pos >= end:
        st[S_FAILED] = 1
        return -1
    if st[S_MODE] == 1:
        j = pos + np.random.randint(0, end - pos)
        c = shoe[j]
        shoe[j] = shoe[pos]
        shoe[pos] = c
    st[S_POS] = pos + 1
    return int(shoe[pos])


@_jit_inline
def _give(hs: I64, hc: I64, i: int, code: int) -> None:
    """Put a card on hand ``i``."""
    n = hs[i, H_N]
    hc[i, n] = code
    hs[i, H_N] = n + 1
    v = _value(code)
    hs[i, H_HARD] += v
    if v == 1:
        hs[i, H_ACES] += 1


@_jit_inline
def _special_bonus(hc: I64, i: int) -> bool:
    """BJ 15: the hand's three cards are three 7s, or a 6, 7 and 8 of one suit."""
    r0, r1, r2 = hc[i, 0] >> 2, hc[i, 1] >> 2, hc[i, 2] >> 2
    if r0 == 6 and r1 == 6 and r2 == 6:
        return True
    suited = (hc[i, 0] & 3) == (hc[i, 1] & 3) and (hc[i, 1] & 3) == (hc[i, 2] & 3)
    return bool(suited and r0 + r1 + r2 == 18 and min(r0, r1, r2) == 5 and max(r0, r1, r2) == 7)


@_jit_inline
def _after_card(r: I64, hs: I64, hc: I64, i: int) -> None:
    """A hand got a card by a hit or a double: bust, special bonus (BJ 15), or the end of a double."""
    if hs[i, H_HARD] > 21:
        hs[i, H_DONE] = 1
        hs[i, H_STATUS] = ST_BUST
    elif hs[i, H_N] == 3 and r[R_BONUS] != 0 and _special_bonus(hc, i):
        hs[i, H_DONE] = 1
        hs[i, H_STATUS] = ST_SPECIAL_BONUS
        hs[i, H_EARLY] = 1
        hs[i, H_EARLY_NET] = 3 * hs[i, H_STAKE]
    elif hs[i, H_DOUBLED] != 0:
        hs[i, H_DONE] = 1
        hs[i, H_STATUS] = ST_DOUBLED


@_jit_inline
def _may_split(r: I64, hs: I64, hc: I64, i: int, hands: int, declined: bool) -> bool:  # noqa: PLR0917
    """BJ 16: a pair (by rank or value), within the hand limit, not after a declined split, aces as allowed."""
    a, b = hc[i, 0], hc[i, 1]
    pair = (a >> 2) == (b >> 2) if r[R_PAIR_BY_RANK] != 0 else _value(a) == _value(b)
    if not pair or hands >= r[R_SPLIT_HANDS]:
        return False
    if declined and r[R_SPLIT_AFTER_DECLINING] == 0:
        return False
    return not (hs[i, H_SPLIT_ACE] != 0 and r[R_RESPLIT_ACES] == 0)


@_jit_inline
def _may_double(r: I64, hs: I64, i: int) -> bool:
    """BJ 17.1: any two cards or a hard 11; after a split only with DAS, never on split aces."""
    if hs[i, H_FROM_SPLIT] != 0 and (r[R_DAS] == 0 or hs[i, H_SPLIT_ACE] != 0):
        return False
    return bool(r[R_DOUBLE_ANY] != 0 or hs[i, H_HARD] == 11)


@_jit_inline
def _decide(  # noqa: PLR0917
    tab: I8,
    hc: I64,
    i: int,
    n: int,
    total: int,
    soft: bool,
    up: int,
    can_hit: bool,
    can_double: bool,
    can_split: bool,
    can_surrender: bool,
    can_claim: bool,
) -> int:
    """:meth:`Chart.decide` over the legal actions, standing where the chart's answer is not legal."""
    if can_claim and n == 5 and total <= tab[T_FIVE, up]:
        return A_CLAIM
    if total >= 21:
        return A_STAND
    v0 = _value(hc[i, 0])
    v1 = _value(hc[i, 1])
    if can_surrender and n == 2:
        if v0 == v1:
            flag = tab[T_SUR_PAIR + v0, up]
        elif soft:
            flag = tab[T_SUR_SOFT + total, up]
        else:
            flag = tab[T_SUR_HARD + total, up]
        if flag != 0:
            return A_SURRENDER
    if can_split and n == 2 and v0 == v1 and tab[T_SPLIT + v0, up] != 0:
        return A_SPLIT
    code = tab[T_SOFT + total, up] if soft else tab[T_HARD + total, up]
    if code in (DOUBLE_HIT, DOUBLE_STAND):
        if can_double:
            return A_DOUBLE
        action = A_HIT if code == DOUBLE_HIT else A_STAND
    else:
        action = A_HIT if code == HIT else A_STAND
    if action == A_HIT and not can_hit:
        return A_STAND
    return action


@_jit
def _split(hs: I64, hc: I64, i: int, hands: int) -> None:
    """BJ 16: hand ``i``'s second card starts a new hand, put right after it (later hands move along)."""
    for j in range(hands - 1, i, -1):
        for f in range(H_FIELDS):
            hs[j + 1, f] = hs[j, f]
        for k in range(hs[j, H_N]):
            hc[j + 1, k] = hc[j, k]
    moved = hc[i, 1]
    v = _value(moved)
    hs[i, H_N] = 1
    hs[i, H_HARD] -= v
    if v == 1:
        hs[i, H_ACES] -= 1
    hs[i, H_FROM_SPLIT] = 1
    hs[i, H_SPLIT_ACE] = 1 if _value(hc[i, 0]) == 1 else 0
    for f in range(H_FIELDS):
        hs[i + 1, f] = 0
    hs[i + 1, H_STAKE] = STAKE
    hs[i + 1, H_FROM_SPLIT] = 1
    hs[i + 1, H_SPLIT_ACE] = 1 if v == 1 else 0
    _give(hs, hc, i + 1, moved)


@_jit
def _play_round(r: I64, tab: I8, shoe: I64, st: I64, hs: I64, hc: I64, dc: I64) -> None:  # noqa: PLR0917
    """Deal, play, draw and settle one round from ``shoe`` at ``st[S_POS]`` (see the module docstring).

    The net (chips on :data:`STAKE`), the result code and the path flags go to ``st``; when the source runs
    out, ``st[S_FAILED]`` is set and the round is abandoned where it stood.
    """
    st[S_FAILED] = 0
    st[S_BURN] = -1
    paths = 0
    for f in range(H_FIELDS):
        hs[0, f] = 0
    hs[0, H_STAKE] = STAKE
    hands = 1
    # BJ 5.2: a card to the box, the dealer's up card, the box's second card; the hole card if any.
    c = _draw(shoe, st)
    if c < 0:
        return
    _give(hs, hc, 0, c)
    up_code = _draw(shoe, st)
    if up_code < 0:
        return
    dc[0] = up_code
    dn = 1
    up = _value(up_code)
    d_hard = up
    d_aces = 1 if up == 1 else 0
    c = _draw(shoe, st)
    if c < 0:
        return
    _give(hs, hc, 0, c)
    if hs[0, H_HARD] == 11 and hs[0, H_ACES] == 1:
        hs[0, H_STATUS] = ST_BLACKJACK
        hs[0, H_DONE] = 1
        paths |= 1 << 7
    if r[R_HOLE] != 0:
        c = _draw(shoe, st)
        if c < 0:
            return
        dc[1] = c
        dn = 2
        v = _value(c)
        d_hard += v
        d_aces += 1 if v == 1 else 0
    up_ace = up == 1
    up_ten = up == 10
    # BJ 10.3: even money; insurance (BJ 12) is declined.
    if hs[0, H_STATUS] == ST_BLACKJACK and (up_ace or (up_ten and r[R_EVEN_MONEY_TEN] != 0)) and tab[T_EVEN, up] != 0:
        hs[0, H_STATUS] = ST_EVEN_MONEY
        hs[0, H_EARLY] = 1
        hs[0, H_EARLY_NET] = hs[0, H_STAKE]
        paths |= 1 << 6
    peeked_bj = (
        r[R_PEEK] != 0 and dn == 2 and (up_ace or up_ten) and d_hard == 11 and d_aces == 1
    )  # procedure 3: the peek ends the round
    did_split = False
    did_double = False
    declined = False
    surrendered = False
    if peeked_bj:
        paths |= 1 << 9
    else:
        i = 0
        while i < hands:
            while hs[i, H_DONE] == 0:
                if hs[i, H_N] == 1:
                    c = _draw(shoe, st)  # a split hand's second card, dealt when its turn comes
                    if c < 0:
                        return
                    _give(hs, hc, i, c)
                n = hs[i, H_N]
                hard = hs[i, H_HARD]
                soft = hs[i, H_ACES] > 0 and hard <= 11
                total = hard + 10 if soft else hard
                five = n == 5 and total <= 21 and r[R_FIVE_CARD] != 0 and not up_ace
                can_hit = can_double = can_split = can_surrender = can_claim = False
                asked = False
                if total > 21:
                    asked = False
                elif hs[i, H_SPLIT_ACE] != 0:
                    # BJ 16.3: one card only; an ace received may be split again while resplit_aces allows.
                    if n == 2 and _may_split(r, hs, hc, i, hands, declined):
                        can_split = asked = True
                elif total == 21:
                    if five:
                        can_claim = asked = True
                else:
                    asked = can_hit = True
                    if n == 2:
                        can_double = _may_double(r, hs, i)
                        can_split = _may_split(r, hs, hc, i, hands, declined)
                        can_surrender = (
                            not did_split and r[R_SURRENDER] != 0 and not up_ace and i == 0 and hs[i, H_FROM_SPLIT] == 0
                        )
                    can_claim = five
                if not asked:
                    hs[i, H_DONE] = 1
                    hs[i, H_STATUS] = ST_BUST if hard > 21 else ST_STOOD
                    break
                action = _decide(
                    tab, hc, i, n, total, soft, up, can_hit, can_double, can_split, can_surrender, can_claim
                )
                if can_split and action != A_SPLIT:
                    declined = True  # BJ 16.5: a split offered and not taken
                if action == A_HIT:
                    c = _draw(shoe, st)
                    if c < 0:
                        return
                    _give(hs, hc, i, c)
                    _after_card(r, hs, hc, i)
                elif action == A_STAND:
                    hs[i, H_DONE] = 1
                    hs[i, H_STATUS] = ST_STOOD
                elif action == A_DOUBLE:
                    did_double = True
                    paths |= 1 << 2
                    hs[i, H_DOUBLED] = 1
                    hs[i, H_STAKE] *= 2
                    c = _draw(shoe, st)
                    if c < 0:
                        return
                    _give(hs, hc, i, c)
                    _after_card(r, hs, hc, i)
                elif action == A_SPLIT:
                    paths |= (1 << 1) if did_split else 1
                    did_split = True
                    _split(hs, hc, i, hands)
                    hands += 1
                elif action == A_SURRENDER:
                    surrendered = True
                    paths |= 1 << 3
                    hs[i, H_DONE] = 1
                    hs[i, H_STATUS] = ST_SURRENDERED
                    hs[i, H_EARLY] = 1
                    hs[i, H_EARLY_NET] = -(hs[i, H_STAKE] // 2)
                else:  # A_CLAIM
                    paths |= 1 << 4
                    hs[i, H_DONE] = 1
                    hs[i, H_STATUS] = ST_FIVE_CARD
                    hs[i, H_EARLY] = 1
                    hs[i, H_EARLY_NET] = hs[i, H_STAKE] // 2
                if hs[i, H_STATUS] == ST_SPECIAL_BONUS:
                    paths |= 1 << 5
            i += 1
        # The dealer (BJ 6.1, BJ 5.2): is any stake still open, does any hand stand?
        maybe_bj = up_ace or up_ten
        obo = did_split or (did_double and (r[R_DOUBLE_ANY] != 0 or r[R_LOSE_ORIGINAL_DOUBLE] != 0))
        any_open = False
        standing = False
        for h in range(hands):
            status = hs[h, H_STATUS]
            if status in (ST_STOOD, ST_DOUBLED):
                any_open = True
                standing = True
            elif status == ST_BLACKJACK or (status == ST_BUST and obo and r[R_BUSTED_LOST] == 0 and maybe_bj):
                any_open = True
        play_on = True
        if r[R_HOLE] == 0:
            if not any_open:
                play_on = False
                paths |= 1 << 10
            else:
                if r[R_BURN_SECOND] != 0:
                    c = _draw(shoe, st)  # BJ 4.2
                    if c < 0:
                        return
                    st[S_BURN] = st[S_POS] - 1
                c = _draw(shoe, st)
                if c < 0:
                    return
                dc[dn] = c
                dn += 1
                v = _value(c)
                d_hard += v
                d_aces += 1 if v == 1 else 0
        if play_on and standing and not (dn == 2 and d_hard == 11 and d_aces == 1):
            rule = r[R_SOFT17]
            while True:
                d_soft = d_aces > 0 and d_hard <= 11
                d_total = d_hard + 10 if d_soft else d_hard
                draw = d_total < 17
                if d_total == 17 and d_soft:
                    if rule == S17_HIT_ALL:
                        draw = True
                    elif rule == S17_HIT_ACE_SIX and dn == 2:
                        ranks = (dc[0] >> 2) + (dc[1] >> 2)
                        draw = ranks == 5 and ((dc[0] >> 2) == 0 or (dc[1] >> 2) == 0)  # an ace and a 6
                if not draw:
                    break
                c = _draw(shoe, st)
                if c < 0:
                    return
                dc[dn] = c
                dn += 1
                v = _value(c)
                d_hard += v
                d_aces += 1 if v == 1 else 0
    # Settlement: the summary table, then "Original bet only".
    d_total = d_hard + 10 if d_aces > 0 and d_hard <= 11 else d_hard
    dealer_bj = dn == 2 and d_hard == 11 and d_aces == 1
    dealer_bust = d_total > 21
    if dealer_bj:
        paths |= 1 << 8
    won = 0
    lost = 0
    net = 0
    for h in range(hands):
        stake = hs[h, H_STAKE]
        hard = hs[h, H_HARD]
        if hs[h, H_EARLY] != 0:
            x = hs[h, H_EARLY_NET]
        elif hard > 21:
            x = -stake
        elif hs[h, H_FROM_SPLIT] == 0 and hs[h, H_N] == 2 and hard == 11 and hs[h, H_ACES] == 1:
            x = 0 if dealer_bj else stake * 3 // 2
        elif dealer_bj:
            x = -stake
        else:
            total = hard + 10 if hs[h, H_ACES] > 0 and hard <= 11 else hard
            if dealer_bust or total > d_total:
                x = stake
            elif total < d_total:
                x = -stake
            else:
                x = 0
        net += x
        if x > 0:
            won += 1
        elif x < 0:
            lost += 1
    if dealer_bj and (did_split or (did_double and (r[R_DOUBLE_ANY] != 0 or r[R_LOSE_ORIGINAL_DOUBLE] != 0))):
        paths |= 1 << 11
        kept = 0
        rest = 0
        busted = 0
        for h in range(hands):
            if hs[h, H_EARLY] != 0 and hs[h, H_EARLY_NET] > 0:
                kept += hs[h, H_EARLY_NET]
            else:
                rest += 1
                if hs[h, H_HARD] > 21:
                    busted += hs[h, H_STAKE]
        lose = max(busted, STAKE) if r[R_BUSTED_LOST] != 0 else STAKE
        net = kept - lose if rest > 0 else kept
    st[S_NET] = net
    if surrendered or lost > won:
        st[S_RESULT] = LOSS
    elif won > lost:
        st[S_RESULT] = WIN
    else:
        st[S_RESULT] = PUSH
    st[S_PATHS] = paths


@_jit
def _play_orders(r: I64, tab: I8, orders: I64, lengths: I64, out: I64, hs: I64, hc: I64, dc: I64) -> None:  # noqa: PLR0917
    """Play one round from the start of each row of ``orders``: ``out`` rows get net, result, cards used,
    failed and path flags."""
    st = np.zeros(S_SIZE, np.int64)
    for k in range(orders.shape[0]):
        row = orders[k]
        st[S_POS] = 0
        st[S_END] = lengths[k]
        st[S_MODE] = 0
        _play_round(r, tab, row, st, hs, hc, dc)
        out[k, 0] = st[S_NET]
        out[k, 1] = st[S_RESULT]
        out[k, 2] = st[S_POS]
        out[k, 3] = st[S_FAILED]
        out[k, 4] = st[S_PATHS]


@_jit
def _seed(seed: int) -> None:
    """Seed numba's generator (the one every compiled function of this process draws from)."""
    np.random.seed(seed)


@_jit
def _count(acc: I64, st: I64, cards: int) -> None:
    """Add one round's result to the accumulators."""
    net = st[S_NET]
    result = st[S_RESULT]
    acc[C_NET] += net
    acc[C_SQUARES] += net * net
    acc[C_WINS + result] += 1
    previous = acc[C_PREVIOUS]
    if previous >= 0:
        acc[C_TRANSITIONS + 3 * previous + result] += 1
    acc[C_PREVIOUS] = result
    acc[C_CARDS] += cards


@_jit
def _run_continuous(r: I64, tab: I8, shoe: I64, rounds: int, acc: I64, hs: I64, hc: I64, dc: I64) -> int:  # noqa: PLR0917
    """``rounds`` rounds, each from a freshly shuffled full ``shoe`` (the cards are drawn at random from it one
    by one, which is the same). Returns 0, or 1 when a round needed more cards than the shoe holds."""
    st = np.zeros(S_SIZE, np.int64)
    size = shoe.shape[0]
    for _ in range(rounds):
        st[S_POS] = 0
        st[S_END] = size
        st[S_MODE] = 1
        _play_round(r, tab, shoe, st, hs, hc, dc)
        if st[S_FAILED] != 0:
            return 1
        _count(acc, st, st[S_POS])
        acc[C_SHOES] += 1
    return 0


@_jit
def _shuffle(cards: I64, start: int, end: int) -> None:
    """Fisher-Yates shuffle of ``cards[start:end]`` in place."""
    for k in range(end - 1, start, -1):
        j = start + np.random.randint(0, k - start + 1)
        c = cards[k]
        cards[k] = cards[j]
        cards[j] = c


@_jit
def _run_shoe(  # noqa: PLR0917
    r: I64, tab: I8, shoe: I64, sh: I64, rounds: int, acc: I64, hs: I64, hc: I64, dc: I64, scratch: I64
) -> int:
    """``rounds`` successive rounds from one ``shoe`` (state in ``sh``), as the table deals them: a fresh shoe
    when the cut card came out in the last round (every round with a dealing box or a shuffler), the burns of
    BJ 4, and a shoe that runs out mid-round has its discards shuffled back in (the engine's restock). Returns
    0, or 1 when even the restocked shoe ran out."""
    st = np.zeros(S_SIZE, np.int64)
    size = shoe.shape[0]
    counts = np.zeros(52, np.int64)
    for k in range(size):
        counts[shoe[k]] += 1
    for _ in range(rounds):
        device = sh[SH_DEVICE]
        fresh = sh[SH_SHUFFLE_NEXT] != 0 or device != 0
        if fresh:
            _shuffle(shoe, 0, size)
            sh[SH_POS] = 0
            acc[C_SHOES] += 1
        if device == 2:  # a shuffler burns after the shuffle before the first round only
            burns = sh[SH_BURN_AFTER_SHUFFLE] if sh[SH_ROUNDS] == 0 else sh[SH_BURN_EACH_ROUND]
        elif fresh:
            burns = sh[SH_BURN_AFTER_SHUFFLE]
        else:
            burns = sh[SH_BURN_EACH_ROUND]
        sh[SH_SHUFFLE_NEXT] = 0
        start = min(sh[SH_POS] + burns, size)
        st[S_POS] = start
        st[S_END] = size
        st[S_MODE] = 0
        _play_round(r, tab, shoe, st, hs, hc, dc)
        if st[S_FAILED] != 0:
            # The shoe ran out: the cards in play stay, every other card is shuffled back in (the burn before
            # the dealer's second card included) and the round goes on from them. The round is played again
            # from the same cards followed by the restocked ones; the next round starts a fresh shoe.
            drawn = size - start
            left = counts.copy()
            for k in range(start, size):
                if k != st[S_BURN]:
                    left[shoe[k]] -= 1
                scratch[k - start] = shoe[k]
            m = drawn
            for code in range(52):
                for _ in range(left[code]):
                    scratch[m] = code
                    m += 1
            _shuffle(scratch, drawn, m)
            st[S_POS] = 0
            st[S_END] = m
            _play_round(r, tab, scratch, st, hs, hc, dc)
            if st[S_FAILED] != 0:
                return 1
            _count(acc, st, st[S_POS])
            acc[C_RESTOCKS] += 1
            sh[SH_POS] = size
            sh[SH_SHUFFLE_NEXT] = 1
        else:
            _count(acc, st, st[S_POS] - start)
            sh[SH_POS] = st[S_POS]
            if st[S_POS] >= sh[SH_CUT]:
                sh[SH_SHUFFLE_NEXT] = 1  # BJ 2.2: the cut card came out, this round was the last
        sh[SH_ROUNDS] += 1
    return 0


@_jit
def _bare(shoe: I64, rounds: int, cards: int) -> int:
    """A baseline: ``cards`` cards drawn at random over ``rounds`` rounds as :func:`_run_continuous` draws
    them (partial Fisher-Yates from a full shoe), with no blackjack at all; returns the sum of their codes."""
    st = np.zeros(S_SIZE, np.int64)
    size = shoe.shape[0]
    each = cards // rounds
    extra = cards - each * rounds
    total = 0
    for k in range(rounds):
        st[S_POS] = 0
        st[S_END] = size
        st[S_MODE] = 1
        for _ in range(each + (1 if k < extra else 0)):
            total += _draw(shoe, st)
    return total
