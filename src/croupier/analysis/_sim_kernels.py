"""The compiled side of the blackjack Monte Carlo (:mod:`croupier.analysis.simulate`,
:mod:`croupier.analysis.tablesim`): a whole table's round over integer arrays, numba-compiled and cached on disk.

Everything here sees only arrays, packed by the Python side:

* ``r`` — the rules as integers (the ``R_*`` slots);
* ``tb`` — the play tables, ``tb[who, part, row, up]``: ``who`` 0 is the counted box, 1 every other box; ``part``
  0 is the count at which an index play starts (:data:`NO_INDEX` where there is none), 1 the cell at or above that
  count, 2 the cell below it; rows are the chart's parts (the ``T_*`` offsets), columns the up card 1-10;
* ``shoe`` — card codes ``4 * rank + suit`` (rank 0 = ace … 12 = king, suits spades, hearts, diamonds, clubs);
* ``st`` — the card source: next position, end, mode (0 deal in order, 1 draw at random from the rest: a lazy
  Fisher-Yates shuffle), failure flag, where the burn before the dealer's second card lies;
* ``rng`` — a xoshiro256++ state (four unsigned 64-bit words), drawn from by Lemire's unbiased bounded method;
* ``hs``/``hc`` — every hand's state and cards (``H`` rows per box, ``H`` = the split limit + 1), flattened:
  field ``f`` of hand ``i`` is ``hs[i * H_FIELDS + f]``, its card ``k`` ``hc[i * MAX_CARDS + k]``;
* ``bs`` — every box's state and, after the round, its results (the ``B_*`` slots), flattened likewise.

Two-dimensional arrays would read better, but numba then multiplies by strides it reads at run time and checks
two indices for wraparound, and a round costs a third more.

The round follows :class:`~croupier.blackjack.round.BlackjackRound` step for step (the module docstring of
:mod:`croupier.analysis.simulate` lists the steps); a test plays the same shoe orders through both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from croupier.analysis.chart import DOUBLE_HIT, DOUBLE_STAND, HIT, STAND

I64 = npt.NDArray[np.int64]
I8 = npt.NDArray[np.int8]
U64 = npt.NDArray[np.uint64]
F = TypeVar("F", bound=Callable[..., Any])
Job = tuple[I64, I64, I64, I64, I64, I64, I64]
"""What a table simulation reads: rules, play tables, side-bet paytable, configuration, tag of each card code,
units bet at each count, the count at which each side bet is bet."""
Work = tuple[I64, U64, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64]
"""A table's working arrays, owned by the Python side (the compiled functions never allocate): the shoe, the
generator's state, the table's state between calls (``ks``), the card source (``st``), side-bet nets, two
52-counts for a restock, a restock's cards (twice the shoe), hands, hand cards, boxes, dealer cards."""
Out = tuple[I64, I64, I64]
"""What a table simulation adds to: the totals, the totals by count (flattened: field ``f`` of count ``c`` at
``(c - COUNT_MIN) * BN_FIELDS + f``), the fan of bankroll paths (flattened, path by path)."""


_OPTIONS: dict[str, Any] = {"cache": True, "error_model": "numpy", "_nrt": False}
"""How every function here is compiled (``_nrt`` is numba's switch for its reference counting)."""


def _jit(fn: F) -> F:
    """Compile ``fn`` with numba in nopython mode, cached on disk, without numba's reference counting.

    The round passes its arrays through a dozen small inlined helpers, and numba's reference counting of them
    (``NRT_incref``/``NRT_decref`` that its pruning pass cannot remove around branches) took two thirds of a
    round's time. These functions therefore never allocate: every array comes from the Python side, which owns
    it; and ``error_model="numpy"`` leaves no exception to raise in them."""
    return cast(F, numba.njit(**_OPTIONS)(fn))


def _jit_inline(fn: F) -> F:
    """Compile a small helper of the hot path, or a step of :func:`_round_one`, inlined into its callers by numba
    (``inline="always"``): LLVM does not inline across numba's functions by itself, and a step called through a
    real call would cost the single-box round a tenth of its speed. Kept to those: numba's inlining costs compile
    time at every call site (the steps are each called once, and the round is compiled twice)."""
    return cast(F, numba.njit(inline="always", **_OPTIONS)(fn))


STAKE = 2
"""The original stake of one unit, in chips: every payment on it (3 to 2, surrender, five cards, insurance of
half the bet) is a whole number of chips."""

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

# -- the play tables: rows by part of the chart, columns by up card 0-10 -------------------------------------

T_HARD = 0
T_SOFT = 22
T_SPLIT = 44
T_SUR_HARD = 55
T_SUR_SOFT = 77
T_SUR_PAIR = 99
T_FIVE = 110
T_EVEN = 111
T_INS = 112
T_ROWS = 113

COUNT_MIN, COUNT_MAX = -30, 30
"""The counts the kernel tells apart (a round's count is clipped to them)."""
COUNT_BINS = COUNT_MAX - COUNT_MIN + 1
NO_INDEX = COUNT_MAX + 1
"""The index threshold of a cell without an index play: no count reaches it."""
NO_COUNT = COUNT_MIN - 1
"""The count the boxes of a game without counting play at: below every index."""

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

# -- a box's state and results: one row of ``bs`` per box ----------------------------------------------------

B_HANDS = 0
B_DID_SPLIT = 1
B_DID_DOUBLE = 2
B_DECLINED = 3  # a split was offered and not taken (BJ 16.5)
B_SURRENDERED = 4
B_DEALT = 5  # cards dealt to the box
B_THIRD = 6  # the box's third card, or -1
B_THIRD_AFTER_SPLIT = 7  # the first split came when the box had two cards (its third card followed a split)
B_FIRST0 = 8
B_FIRST1 = 9
B_INSURED = 10
B_NET = 11  # the main bet's net in chips on the original stake of STAKE chips
B_INS_NET = 12  # the insurance's net in chips (half the stake insured)
B_RESULT = 13
B_PATHS = 14
B_ACTION = 15  # chips staked on the main bet in all (doubles and splits included)
B_FIELDS = 16

# -- the card source: ``st`` ---------------------------------------------------------------------------------

S_POS = 0  # next card of ``shoe`` to deal
S_END = 1  # cards of ``shoe`` that may be dealt
S_MODE = 2  # 0: deal ``shoe`` in order; 1: draw each card at random from the rest (lazy Fisher-Yates)
S_FAILED = 3  # the source ran out mid-round
S_BURN = 4  # where the burn before the dealer's second card lies, or -1
S_DEALER_BJ = 5  # the round's dealer had a blackjack
S_SIZE = 6

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
    "insurance",
)
"""What :data:`RoundOutcome.paths` may name, by bit of the kernel's flags."""


def _path(name: str) -> int:
    """The flag of a path: the bit of its place in :data:`PATH_NAMES` (the one list of them)."""
    return 1 << PATH_NAMES.index(name)


PATH_SPLIT = _path("split")
PATH_RESPLIT = _path("resplit")
PATH_DOUBLE = _path("double")
PATH_SURRENDER = _path("surrender")
PATH_FIVE_CARD = _path("five_card")
PATH_SPECIAL_BONUS = _path("special_bonus")
PATH_EVEN_MONEY = _path("even_money")
PATH_BLACKJACK = _path("blackjack")
PATH_DEALER_BLACKJACK = _path("dealer_blackjack")
PATH_PEEKED = _path("peeked_blackjack")
PATH_SKIPPED = _path("dealer_second_card_skipped")
PATH_ORIGINAL_BET_ONLY = _path("original_bet_only")
PATH_INSURANCE = _path("insurance")

# -- side bets: ``sp`` holds the paytable in chips on a stake of sp[SP_STAKE] chips ------------------------

SIDE_KEYS: tuple[str, ...] = ("any_pair", "sevens", "over_13", "under_13", "perfect_pairs")
"""The side bets the simulation settles on the counted box, in the kernel's order."""
N_SIDE = 5
SP_STAKE = 0  # chips of one unit: a multiple of STAKE and of every odds' denominator
SP_ANY_PAIR = 1
SP_PP_PERFECT = 2
SP_PP_COLOURED = 3
SP_PP_MIXED = 4
SP_OVER_UNDER = 5
SP_SEVENS_TWO_MIXED = 6
SP_SEVENS_TWO_SUITED = 7
SP_SEVENS_THREE_MIXED = 8
SP_SEVENS_THREE_SUITED = 9
SP_MIXED_TRIPLE_500 = 10  # three 7s of two suits pay 500 (else as the first two)
SP_THIRD_ANY = 11  # the third 7 is the box's third card whatever came before (else only after a split of 7s)
SP_SIZE = 12

# -- the table simulation: ``cfg`` ---------------------------------------------------------------------------

G_BOXES = 0
G_SEAT = 1  # the counted box, 0-based
G_CONTINUOUS = 2  # 1: every round from a freshly shuffled full shoe
G_CUT = 3  # cards out (burns included) once the first card behind the cut card is out: size - behind + 1
G_BURN_AFTER_SHUFFLE = 4
G_BURN_EACH_ROUND = 5
G_SHUFFLER = 6  # a shuffler: the burns after a shuffle come before the first round only
G_SCALE = 7  # the count's tags are multiplied by this to be whole
G_TRUE = 8  # 0 running count; 1 true count by the exact cards left; 2 by the half decks left
G_IRC = 9  # the initial running count (scaled)
G_WONG_IN = 10
G_WONG_OUT = 11
G_SIDE_UNITS = 12  # units staked on each side bet the counter bets
G_PATH_ROUNDS = 13  # rounds of one bankroll path (0: none)
G_BANKROLL = 14  # the bankroll of a path, in chips
G_FAN_PATHS = 15  # paths of the first chunk recorded for the fan chart
G_FAN_STEP = 16  # rounds between two recorded points of a path
G_COUNTING = 17  # 1: keep the count (else every round is at count 0)
G_SIDES = 18  # 1: settle the side bets on the counted box
G_SIZE = 19

# -- the table's state between calls: ``ks`` (a simulation may be run in pieces with the same result) ----------

K_POS = 0  # cards out of the shoe
K_RC = 1  # the running count (scaled)
K_SHUFFLE_NEXT = 2
K_INSIDE = 3  # the counter is in (not wonged out)
K_FIRST = 4  # no round dealt yet (a shuffler's first burns)
K_PATH_K = 5  # bankroll paths begun
K_PATH_N = 6  # rounds of the current path
K_PATH_SUM = 7
K_PATH_RUINED = 8
K_SIZE = 9


def new_state(irc: int) -> I64:
    """The state of a table before its first round: a shoe to shuffle, the count at ``irc``."""
    ks = np.zeros(K_SIZE, np.int64)
    ks[K_RC] = irc
    ks[K_SHUFFLE_NEXT] = 1
    ks[K_INSIDE] = 1
    ks[K_FIRST] = 1
    return ks


# -- the accumulators: ``acc`` (totals) and ``bins`` (by count) -----------------------------------------------

C_ROUNDS = 0
C_NET = 1  # the counter's net, every bet, in chips of 1/sp[SP_STAKE] of a unit (as every C_ sum of money)
C_SQUARES = 2
C_WAGERED = 3  # the counter's initial main bets, chips
C_ACTION = 4  # everything the counter staked: main bets with doubles and splits, insurance, side bets
C_IN = 5  # rounds the counter had a bet
C_WINS = 6  # C_WINS + result code: the counted box's wins, pushes and losses (flat)
C_PREVIOUS = 9  # the previous round's result code, or -1
C_TRANSITIONS = 10  # 3x3 counts of (previous result, result)
C_CARDS = 19
C_SHOES = 20
C_RESTOCKS = 21
C_INSURED = 22
C_FLAT = 23  # the counted box's main bet, one unit every round, in chips of STAKE
C_FLAT_SQ = 24
C_PATHS = 25  # bankroll paths finished
C_RUINED = 26  # of which the bankroll ran out
C_SIDE_NET = 27  # + side: the counter's side-bet net, chips (stake sp[SP_STAKE] per unit)
C_SIDE_BETS = 32  # + side: side bets the counter placed
C_SIDE_SQ = 37
C_MAIN_NET = 42  # the counter's main-bet net (insurance and side bets apart)
C_SIZE = 43

BN_N = 0
BN_FLAT = 1  # the counted box's main bet, one unit, in chips of STAKE
BN_FLAT_SQ = 2
BN_IN = 3
BN_NET = 4  # the counter's net, every bet, in chips of 1/sp[SP_STAKE] of a unit
BN_SIDE = 5  # + side: one unit on each side bet, every round, in chips of 1/sp[SP_STAKE] of a unit
BN_SIDE_SQ = 10
BN_FIELDS = 15


@_jit_inline
def _ix(k: int) -> np.uint64:
    """An array index as an unsigned integer: numba then leaves out the wraparound of negative indices, two
    instructions and a register at every one of the round's hundreds of array accesses (every index here is
    in range)."""
    return np.uint64(k)


# == random numbers: xoshiro256++ and Lemire's bounded draws ====================================================

_M32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(0x100000000)


@_jit_inline
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@_jit_inline
def _next64(s: U64) -> np.uint64:
    """The next output of xoshiro256++ (Blackman and Vigna) from the state ``s``."""
    s0 = s[0]
    s1 = s[1]
    s2 = s[2]
    s3 = s[3]
    result = _rotl(s0 + s3, 23) + s0
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    s[0] = s0
    s[1] = s1
    s[2] = s2
    s[3] = s3
    return np.uint64(result)


@_jit_inline
def _below(s: U64, n: int) -> int:
    """A uniform integer in ``[0, n)``, ``0 < n < 2**32``: Lemire's multiply-and-reject on 32 random bits, unbiased."""
    nn = np.uint64(n)
    m = (_next64(s) >> np.uint64(32)) * nn
    low = m & _M32
    if low < nn:
        floor = (_TWO32 - nn) % nn
        while low < floor:
            m = (_next64(s) >> np.uint64(32)) * nn
            low = m & _M32
    return int(m >> np.uint64(32))


# == the round =================================================================================================


@_jit_inline
def _value(code: int) -> int:
    """Blackjack value of a card code (ace 1, pictures 10)."""
    rank = code >> 2
    return rank + 1 if rank < 9 else 10


TAKE_FREE, TAKE_LAZY, TAKE_CHECKED = 0, 1, 2
"""How :func:`_round_one` takes its cards: in order from a source that cannot run out during the round (the
driver checked :data:`ROOM`), at random from the rest (a lazy Fisher-Yates), or in order with the check."""
ROOM = 2 * MAX_CARDS + 8
"""More cards than a round of one box that does not split can take (a hand takes cards while its hard total is
at most 20, the dealer's while below 17: fewer than :data:`MAX_CARDS` each), burns included."""


@_jit_inline
def _take(shoe: I64, rng: U64, pos: int, end: int, mode: int) -> int:
    """The card at place ``pos`` of the source, taken as ``mode`` says (a lazy Fisher-Yates draws it at random from
    ``shoe[pos:end]`` and swaps it into place), for a caller that keeps the source's position in a local variable
    (``pos``, counted past ``end`` when the source runs out: the last card is then dealt again and the caller
    flags the round)."""
    if mode == TAKE_FREE:
        return int(shoe[_ix(pos)])
    q = min(pos, end - 1)
    if mode == TAKE_CHECKED:
        return int(shoe[_ix(q)])
    j = q + _below(rng, end - q)
    c = shoe[_ix(j)]
    shoe[_ix(j)] = shoe[_ix(q)]
    shoe[_ix(q)] = c
    return int(c)


@_jit_inline
def _draw(shoe: I64, st: I64, rng: U64) -> int:
    """The next card code: the shoe's next card in order (mode 0: a shoe shuffled in full at the shuffle), or one
    drawn at random from the cards left (mode 1: a lazy Fisher-Yates, for a shoe shuffled before every round).
    When the source has no more cards the failure flag is set and the last card is dealt again, so that the
    round runs to its end (the caller discards it)."""
    pos = st[S_POS]
    end = st[S_END]
    st[S_FAILED] |= pos >= end
    st[S_POS] = min(pos, end - 1) + 1
    return _take(shoe, rng, pos, end, TAKE_LAZY if st[S_MODE] != 0 else TAKE_CHECKED)


@_jit
def _shuffle(shoe: I64, rng: U64) -> None:
    """Fisher-Yates shuffle of the whole shoe in place, with Lemire's unbiased draws."""
    for k in range(shoe.shape[0] - 1, 0, -1):
        j = _below(rng, k + 1)
        c = shoe[_ix(k)]
        shoe[_ix(k)] = shoe[_ix(j)]
        shoe[_ix(j)] = c


@_jit
def _give(hs: I64, hc: I64, bs: I64, b: int, i: int, code: int) -> None:
    """Put a card on hand ``i`` of box ``b``."""
    n = hs[_ix(i * H_FIELDS + H_N)]
    hc[_ix(i * MAX_CARDS + n)] = code
    hs[_ix(i * H_FIELDS + H_N)] = n + 1
    v = _value(code)
    hs[_ix(i * H_FIELDS + H_HARD)] += v
    if v == 1:
        hs[_ix(i * H_FIELDS + H_ACES)] += 1
    dealt = bs[_ix(b * B_FIELDS + B_DEALT)] + 1
    bs[_ix(b * B_FIELDS + B_DEALT)] = dealt
    if dealt == 3:
        bs[_ix(b * B_FIELDS + B_THIRD)] = code


@_jit_inline
def _cell(tb: I64, who: int, count: int, row: int, up: int) -> int:
    """The play table's cell for the count: the index play's at or above its count, else below (``tb`` is the
    tables flattened: ``[who, part, row, up]`` at ``((who * 3 + part) * T_ROWS + row) * 11 + up``)."""
    k = (who * 3 * T_ROWS + row) * 11 + up
    if count >= tb[_ix(k)]:
        return int(tb[_ix(k + T_ROWS * 11)])
    return int(tb[_ix(k + 2 * T_ROWS * 11)])


@_jit_inline
def _own_cell(tb: I64, plain: bool, count: int, row: int, up: int) -> int:
    """:func:`_cell` of the counted box's table; ``plain`` when no index play of it can apply (the count is fixed
    below every index), so that the cell is read without the compare."""
    if plain:
        return int(tb[_ix(2 * T_ROWS * 11 + row * 11 + up)])
    return _cell(tb, 0, count, row, up)


@_jit_inline
def _special_bonus(hc: I64, i: int) -> bool:
    """BJ 15: the hand's three cards are three 7s, or a 6, 7 and 8 of one suit."""
    r0, r1, r2 = hc[_ix(i * MAX_CARDS + 0)] >> 2, hc[_ix(i * MAX_CARDS + 1)] >> 2, hc[_ix(i * MAX_CARDS + 2)] >> 2
    if r0 == 6 and r1 == 6 and r2 == 6:
        return True
    suited = (hc[_ix(i * MAX_CARDS + 0)] & 3) == (hc[_ix(i * MAX_CARDS + 1)] & 3) and (
        hc[_ix(i * MAX_CARDS + 1)] & 3
    ) == (hc[_ix(i * MAX_CARDS + 2)] & 3)
    return bool(suited and r0 + r1 + r2 == 18 and min(r0, r1, r2) == 5 and max(r0, r1, r2) == 7)


@_jit_inline
def _decide(
    tb: I64,
    who: int,
    count: int,
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
    """:meth:`Chart.decide` over the legal actions (with the index plays at ``count``), standing where the
    answer is not legal."""
    if can_claim and n == 5 and total <= _cell(tb, who, count, T_FIVE, up):
        return A_CLAIM
    if total >= 21:
        return A_STAND
    v0 = _value(hc[_ix(i * MAX_CARDS + 0)])
    v1 = _value(hc[_ix(i * MAX_CARDS + 1)])
    if can_surrender and n == 2:
        if v0 == v1:
            row = T_SUR_PAIR + v0
        elif soft:
            row = T_SUR_SOFT + total
        else:
            row = T_SUR_HARD + total
        if _cell(tb, who, count, row, up) != 0:
            return A_SURRENDER
    if can_split and n == 2 and v0 == v1 and _cell(tb, who, count, T_SPLIT + v0, up) != 0:
        return A_SPLIT
    code = _cell(tb, who, count, (T_SOFT if soft else T_HARD) + total, up)
    if code == DOUBLE_HIT or code == DOUBLE_STAND:
        if can_double:
            return A_DOUBLE
        action = A_HIT if code == DOUBLE_HIT else A_STAND
    else:
        action = A_HIT if code == HIT else A_STAND
    if action == A_HIT and not can_hit:
        return A_STAND
    return action


@_jit
def _split(hs: I64, hc: I64, i: int, last: int) -> None:
    """BJ 16: hand ``i``'s second card starts a new hand, put right after it (the box's later hands, up to
    row ``last``, move along)."""
    for j in range(last, i, -1):
        for f in range(H_FIELDS):
            hs[_ix((j + 1) * H_FIELDS + f)] = hs[_ix(j * H_FIELDS + f)]
        for k in range(hs[_ix(j * H_FIELDS + H_N)]):
            hc[_ix((j + 1) * MAX_CARDS + k)] = hc[_ix(j * MAX_CARDS + k)]
    moved = hc[_ix(i * MAX_CARDS + 1)]
    v = _value(moved)
    hs[_ix(i * H_FIELDS + H_N)] = 1
    hs[_ix(i * H_FIELDS + H_HARD)] -= v
    if v == 1:
        hs[_ix(i * H_FIELDS + H_ACES)] -= 1
    hs[_ix(i * H_FIELDS + H_FROM_SPLIT)] = 1
    hs[_ix(i * H_FIELDS + H_SPLIT_ACE)] = 1 if _value(hc[_ix(i * MAX_CARDS + 0)]) == 1 else 0
    for f in range(H_FIELDS):
        hs[_ix((i + 1) * H_FIELDS + f)] = 0
    hs[_ix((i + 1) * H_FIELDS + H_STAKE)] = STAKE
    hs[_ix((i + 1) * H_FIELDS + H_FROM_SPLIT)] = 1
    hs[_ix((i + 1) * H_FIELDS + H_SPLIT_ACE)] = 1 if v == 1 else 0
    hc[_ix((i + 1) * MAX_CARDS + 0)] = moved
    hs[_ix((i + 1) * H_FIELDS + H_N)] = 1
    hs[_ix((i + 1) * H_FIELDS + H_HARD)] = v
    hs[_ix((i + 1) * H_FIELDS + H_ACES)] = 1 if v == 1 else 0


@_jit
def _reset_box(hs: I64, bs: I64, b: int, h: int = 0) -> None:
    """Box ``b`` before the deal, its first hand in row ``h``: one empty hand of the original stake."""
    for f in range(H_FIELDS):
        hs[_ix(h * H_FIELDS + f)] = 0
    hs[_ix(h * H_FIELDS + H_STAKE)] = STAKE
    for f in range(B_FIELDS):
        bs[_ix(b * B_FIELDS + f)] = 0
    bs[_ix(b * B_FIELDS + B_HANDS)] = 1
    bs[_ix(b * B_FIELDS + B_THIRD)] = -1


@_jit
def _deal_start(r: I64, shoe: I64, st: I64, rng: U64, hs: I64, hc: I64, bs: I64, dc: I64, boxes: int) -> int:
    """BJ 5.2: a card to each box from the dealer's left, the dealer's up card, the second cards, and the hole
    card where there is one. Returns the dealer's cards so far."""
    per = r[R_SPLIT_HANDS] + 1
    for b in range(boxes):
        h = b * per
        _reset_box(hs, bs, b, h)
        c = _draw(shoe, st, rng)
        _give(hs, hc, bs, b, h, c)
    c = _draw(shoe, st, rng)
    dc[0] = c
    for b in range(boxes):
        h = b * per
        c = _draw(shoe, st, rng)
        _give(hs, hc, bs, b, h, c)
        bs[_ix(b * B_FIELDS + B_FIRST0)] = hc[_ix(h * MAX_CARDS + 0)]
        bs[_ix(b * B_FIELDS + B_FIRST1)] = hc[_ix(h * MAX_CARDS + 1)]
        if hs[_ix(h * H_FIELDS + H_HARD)] == 11 and hs[_ix(h * H_FIELDS + H_ACES)] == 1:
            hs[_ix(h * H_FIELDS + H_STATUS)] = ST_BLACKJACK
            hs[_ix(h * H_FIELDS + H_DONE)] = 1
            bs[_ix(b * B_FIELDS + B_PATHS)] |= PATH_BLACKJACK
    if r[R_HOLE] != 0:
        c = _draw(shoe, st, rng)
        dc[1] = c
        return 2
    return 1


@_jit
def _offers(r: I64, tb: I64, hs: I64, bs: I64, boxes: int, seat: int, count: int, up: int) -> None:
    """BJ 10.3 and BJ 12: even money to a blackjack against an ace (or a ten, where allowed), insurance to the
    other boxes against an ace — taken by the counted box as its table says, declined by the others'."""
    per = r[R_SPLIT_HANDS] + 1
    for b in range(boxes):
        h = b * per
        who = 0 if b == seat else 1
        if hs[_ix(h * H_FIELDS + H_STATUS)] == ST_BLACKJACK:
            if (up == 1 or (up == 10 and r[R_EVEN_MONEY_TEN] != 0)) and _cell(tb, who, count, T_EVEN, up) != 0:
                hs[_ix(h * H_FIELDS + H_STATUS)] = ST_EVEN_MONEY
                hs[_ix(h * H_FIELDS + H_EARLY)] = 1
                hs[_ix(h * H_FIELDS + H_EARLY_NET)] = hs[_ix(h * H_FIELDS + H_STAKE)]
                bs[_ix(b * B_FIELDS + B_PATHS)] |= PATH_EVEN_MONEY
        elif up == 1 and _cell(tb, who, count, T_INS, 1) != 0:
            bs[_ix(b * B_FIELDS + B_INSURED)] = 1
            bs[_ix(b * B_FIELDS + B_PATHS)] |= PATH_INSURANCE


@_jit
def _play_box(
    r: I64, tb: I64, who: int, count: int, shoe: I64, st: I64, rng: U64, hs: I64, hc: I64, bs: I64, b: int, up: int
) -> None:
    """BJ 6, 15-19: the box's hands in the engine's order, by its table. The hand in play is held in local
    variables (numba keeps them in registers) and written back when it is done or split."""
    per = r[R_SPLIT_HANDS] + 1
    base = b * per
    five_ok = r[R_FIVE_CARD] != 0 and up != 1
    bonus_ok = r[R_BONUS] != 0
    hands = bs[_ix(b * B_FIELDS + B_HANDS)]
    dealt = bs[_ix(b * B_FIELDS + B_DEALT)]
    declined = bs[_ix(b * B_FIELDS + B_DECLINED)] != 0
    did_split = bs[_ix(b * B_FIELDS + B_DID_SPLIT)] != 0
    i = base
    while i < base + hands:
        if hs[_ix(i * H_FIELDS + H_DONE)] != 0:
            i += 1
            continue
        n = hs[_ix(i * H_FIELDS + H_N)]
        hard = hs[_ix(i * H_FIELDS + H_HARD)]
        aces = hs[_ix(i * H_FIELDS + H_ACES)]
        stake = hs[_ix(i * H_FIELDS + H_STAKE)]
        from_split = hs[_ix(i * H_FIELDS + H_FROM_SPLIT)] != 0
        split_ace = hs[_ix(i * H_FIELDS + H_SPLIT_ACE)] != 0
        status = ST_NONE
        early = 0
        early_net = 0
        doubled = 0
        while True:
            if n == 1:  # a split hand's second card, dealt when its turn comes
                c = _draw(shoe, st, rng)
                hc[_ix(i * MAX_CARDS + 1)] = c
                n = 2
                v = _value(c)
                hard += v
                aces += v == 1
                dealt += 1
                if dealt == 3:
                    bs[_ix(b * B_FIELDS + B_THIRD)] = c
            soft = aces > 0 and hard <= 11
            total = hard + 10 if soft else hard
            five = five_ok and n == 5 and total <= 21
            can_hit = can_double = can_split = can_surrender = can_claim = False
            asked = False
            pair_ok = False
            if n == 2 and hands < r[R_SPLIT_HANDS] and (not declined or r[R_SPLIT_AFTER_DECLINING] != 0):
                a0 = hc[_ix(i * MAX_CARDS + 0)]
                a1 = hc[_ix(i * MAX_CARDS + 1)]
                pair_ok = (a0 >> 2) == (a1 >> 2) if r[R_PAIR_BY_RANK] != 0 else _value(a0) == _value(a1)
            if total > 21:
                asked = False
            elif split_ace:
                # BJ 16.3: one card only; an ace received may be split again while resplit_aces allows.
                if pair_ok and r[R_RESPLIT_ACES] != 0:
                    can_split = asked = True
            elif total == 21:
                if five:
                    can_claim = asked = True
            else:
                asked = can_hit = True
                if n == 2:
                    # BJ 17.1: any two cards or a hard 11; after a split only with DAS (never on split aces).
                    can_double = (not from_split or r[R_DAS] != 0) and (r[R_DOUBLE_ANY] != 0 or hard == 11)
                    can_split = pair_ok
                    can_surrender = not did_split and r[R_SURRENDER] != 0 and up != 1 and i == base and not from_split
                can_claim = five
            if not asked:
                status = ST_BUST if hard > 21 else ST_STOOD
                break
            action = _decide(
                tb, who, count, hc, i, n, total, soft, up, can_hit, can_double, can_split, can_surrender, can_claim
            )
            if can_split and action != A_SPLIT:
                declined = True  # BJ 16.5: a split offered and not taken
            if action == A_HIT or action == A_DOUBLE:
                if action == A_DOUBLE:
                    bs[_ix(b * B_FIELDS + B_DID_DOUBLE)] = 1
                    bs[_ix(b * B_FIELDS + B_PATHS)] |= PATH_DOUBLE
                    doubled = 1
                    stake *= 2
                c = _draw(shoe, st, rng)
                hc[_ix(i * MAX_CARDS + n)] = c
                n += 1
                v = _value(c)
                hard += v
                aces += v == 1
                dealt += 1
                if dealt == 3:
                    bs[_ix(b * B_FIELDS + B_THIRD)] = c
                if hard > 21:
                    status = ST_BUST
                    break
                if n == 3 and bonus_ok and _special_bonus(hc, i):
                    status = ST_SPECIAL_BONUS
                    early = 1
                    early_net = 3 * stake
                    bs[_ix(b * B_FIELDS + B_PATHS)] |= PATH_SPECIAL_BONUS
                    break
                if doubled:
                    status = ST_DOUBLED
                    break
            elif action == A_STAND:
                status = ST_STOOD
                break
            elif action == A_SPLIT:
                if did_split:
                    bs[_ix(b * B_FIELDS + B_PATHS)] |= PATH_RESPLIT
                else:
                    bs[_ix(b * B_FIELDS + B_PATHS)] |= PATH_SPLIT
                    if dealt == 2:
                        bs[_ix(b * B_FIELDS + B_THIRD_AFTER_SPLIT)] = 1
                did_split = True
                hs[_ix(i * H_FIELDS + H_N)] = n
                hs[_ix(i * H_FIELDS + H_HARD)] = hard
                hs[_ix(i * H_FIELDS + H_ACES)] = aces
                hs[_ix(i * H_FIELDS + H_STAKE)] = stake
                _split(hs, hc, i, base + hands - 1)
                hands += 1
                n = 1
                hard = hs[_ix(i * H_FIELDS + H_HARD)]
                aces = hs[_ix(i * H_FIELDS + H_ACES)]
                from_split = True
                split_ace = hs[_ix(i * H_FIELDS + H_SPLIT_ACE)] != 0
            elif action == A_SURRENDER:
                bs[_ix(b * B_FIELDS + B_SURRENDERED)] = 1
                bs[_ix(b * B_FIELDS + B_PATHS)] |= PATH_SURRENDER
                status = ST_SURRENDERED
                early = 1
                early_net = -(stake // 2)
                break
            else:  # A_CLAIM
                bs[_ix(b * B_FIELDS + B_PATHS)] |= PATH_FIVE_CARD
                status = ST_FIVE_CARD
                early = 1
                early_net = stake // 2
                break
        hs[_ix(i * H_FIELDS + H_N)] = n
        hs[_ix(i * H_FIELDS + H_HARD)] = hard
        hs[_ix(i * H_FIELDS + H_ACES)] = aces
        hs[_ix(i * H_FIELDS + H_STAKE)] = stake
        hs[_ix(i * H_FIELDS + H_FROM_SPLIT)] = from_split
        hs[_ix(i * H_FIELDS + H_SPLIT_ACE)] = split_ace
        hs[_ix(i * H_FIELDS + H_DOUBLED)] = doubled
        hs[_ix(i * H_FIELDS + H_DONE)] = 1
        hs[_ix(i * H_FIELDS + H_STATUS)] = status
        hs[_ix(i * H_FIELDS + H_EARLY)] = early
        hs[_ix(i * H_FIELDS + H_EARLY_NET)] = early_net
        i += 1
    bs[_ix(b * B_FIELDS + B_HANDS)] = hands
    bs[_ix(b * B_FIELDS + B_DEALT)] = dealt
    bs[_ix(b * B_FIELDS + B_DECLINED)] = declined
    bs[_ix(b * B_FIELDS + B_DID_SPLIT)] = did_split


@_jit
def _original_only(r: I64, bs: I64, b: int) -> bool:
    """RULES.md "Original bet only": the box split, or doubled where that rule reaches doubles."""
    return bool(
        bs[_ix(b * B_FIELDS + B_DID_SPLIT)] != 0
        or (bs[_ix(b * B_FIELDS + B_DID_DOUBLE)] != 0 and (r[R_DOUBLE_ANY] != 0 or r[R_LOSE_ORIGINAL_DOUBLE] != 0))
    )


@_jit_inline
def _dealer_draws(r: I64, dc: I64, dn: int, d_hard: int, d_aces: int) -> bool:
    """BJ 6.1: whether the dealer draws on this hand (soft 17 as the rules read it)."""
    d_soft = d_aces > 0 and d_hard <= 11
    d_total = d_hard + 10 if d_soft else d_hard
    if d_total < 17:
        return True
    if d_total == 17 and d_soft:
        rule = r[R_SOFT17]
        if rule == S17_HIT_ALL:
            return True
        if rule == S17_HIT_ACE_SIX and dn == 2:
            return bool((dc[0] >> 2) + (dc[1] >> 2) == 5 and ((dc[0] >> 2) == 0 or (dc[1] >> 2) == 0))  # an ace and a 6
    return False


@_jit
def _settle_box(r: I64, hs: I64, bs: I64, b: int, d_total: int, dealer_bj: bool) -> None:
    """The settlement summary, then "Original bet only", the box's result (BJ 13.5) and its insurance."""
    per = r[R_SPLIT_HANDS] + 1
    base = b * per
    dealer_bust = d_total > 21
    won = lost = net = action = 0
    for h in range(base, base + bs[_ix(b * B_FIELDS + B_HANDS)]):
        stake = hs[_ix(h * H_FIELDS + H_STAKE)]
        action += stake
        hard = hs[_ix(h * H_FIELDS + H_HARD)]
        if hs[_ix(h * H_FIELDS + H_EARLY)] != 0:
            x = hs[_ix(h * H_FIELDS + H_EARLY_NET)]
        elif hard > 21:
            x = -stake
        elif (
            hs[_ix(h * H_FIELDS + H_FROM_SPLIT)] == 0
            and hs[_ix(h * H_FIELDS + H_N)] == 2
            and hard == 11
            and hs[_ix(h * H_FIELDS + H_ACES)] == 1
        ):
            x = 0 if dealer_bj else stake * 3 // 2
        elif dealer_bj:
            x = -stake
        else:
            total = hard + 10 if hs[_ix(h * H_FIELDS + H_ACES)] > 0 and hard <= 11 else hard
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
    if dealer_bj and _original_only(r, bs, b):
        bs[_ix(b * B_FIELDS + B_PATHS)] |= PATH_ORIGINAL_BET_ONLY
        kept = rest = busted = 0
        for h in range(base, base + bs[_ix(b * B_FIELDS + B_HANDS)]):
            if hs[_ix(h * H_FIELDS + H_EARLY)] != 0 and hs[_ix(h * H_FIELDS + H_EARLY_NET)] > 0:
                kept += hs[_ix(h * H_FIELDS + H_EARLY_NET)]
            else:
                rest += 1
                if hs[_ix(h * H_FIELDS + H_HARD)] > 21:
                    busted += hs[_ix(h * H_FIELDS + H_STAKE)]
        lose = max(busted, STAKE) if r[R_BUSTED_LOST] != 0 else STAKE
        net = kept - lose if rest > 0 else kept
    bs[_ix(b * B_FIELDS + B_NET)] = net
    bs[_ix(b * B_FIELDS + B_ACTION)] = action
    if bs[_ix(b * B_FIELDS + B_SURRENDERED)] != 0 or lost > won:
        bs[_ix(b * B_FIELDS + B_RESULT)] = LOSS
    elif won > lost:
        bs[_ix(b * B_FIELDS + B_RESULT)] = WIN
    else:
        bs[_ix(b * B_FIELDS + B_RESULT)] = PUSH
    if bs[_ix(b * B_FIELDS + B_INSURED)] != 0:
        bs[_ix(b * B_FIELDS + B_INS_NET)] = (
            STAKE if dealer_bj else -(STAKE // 2)
        )  # half the stake insured, paid 2 to 1 (BJ 12.2)
    if dealer_bj:
        bs[_ix(b * B_FIELDS + B_PATHS)] |= PATH_DEALER_BLACKJACK


@_jit
def _round(
    r: I64, tb: I64, boxes: int, seat: int, count: int, shoe: I64, st: I64, rng: U64, hs: I64, hc: I64, bs: I64, dc: I64
) -> None:
    """Deal, play, draw and settle one round for ``boxes`` boxes from ``shoe`` at ``st[S_POS]``; ``seat`` plays
    by ``tb[0]`` at ``count``, the other boxes by ``tb[1]``. Each box's results go to its row of ``bs``; when the
    source runs out, ``st[S_FAILED]`` is set (and the results are meaningless)."""
    st[S_FAILED] = 0
    st[S_BURN] = -1
    st[S_DEALER_BJ] = 0
    dn = _deal_start(r, shoe, st, rng, hs, hc, bs, dc, boxes)
    _round_rest(r, tb, boxes, seat, count, shoe, st, rng, hs, hc, bs, dc, dn)


@_jit
def _round_rest(
    r: I64, tb: I64, boxes: int, seat: int, count: int, shoe: I64, st: I64, rng: U64, hs: I64, hc: I64, bs: I64,
    dc: I64, dn: int,
) -> None:  # fmt: skip
    """:func:`_round` after the deal (``dn`` dealer cards): offers, the peek, the boxes' play, the dealer and
    the settlement."""
    up = _value(dc[0])
    d_hard = up
    d_aces = 1 if up == 1 else 0
    if dn == 2:
        v = _value(dc[1])
        d_hard += v
        d_aces += 1 if v == 1 else 0
    if up == 1 or up == 10:
        _offers(r, tb, hs, bs, boxes, seat, count, up)
    per = r[R_SPLIT_HANDS] + 1
    # BJ 5.2 procedure 3: the peek ends the round on a dealer blackjack.
    peeked = r[R_PEEK] != 0 and dn == 2 and (up == 1 or up == 10) and d_hard == 11 and d_aces == 1
    if peeked:
        for b in range(boxes):
            bs[_ix(b * B_FIELDS + B_PATHS)] |= PATH_PEEKED
    else:
        for b in range(boxes):
            _play_box(r, tb, 0 if b == seat else 1, count, shoe, st, rng, hs, hc, bs, b, up)
        # The dealer (BJ 6.1, BJ 5.2): is any stake still open, does any hand stand?
        maybe_bj = up == 1 or up == 10
        any_open = False
        standing = False
        for b in range(boxes):
            if up == 1 and bs[_ix(b * B_FIELDS + B_INSURED)] != 0:
                any_open = True
            obo = _original_only(r, bs, b)
            for h in range(b * per, b * per + bs[_ix(b * B_FIELDS + B_HANDS)]):
                status = hs[_ix(h * H_FIELDS + H_STATUS)]
                if status == ST_STOOD or status == ST_DOUBLED:
                    any_open = True
                    standing = True
                elif status == ST_BLACKJACK or (status == ST_BUST and obo and r[R_BUSTED_LOST] == 0 and maybe_bj):
                    any_open = True
        play_on = True
        if r[R_HOLE] == 0:
            if not any_open:
                play_on = False
                for b in range(boxes):
                    bs[_ix(b * B_FIELDS + B_PATHS)] |= PATH_SKIPPED
            else:
                if r[R_BURN_SECOND] != 0:
                    c = _draw(shoe, st, rng)  # BJ 4.2
                    st[S_BURN] = st[S_POS] - 1
                c = _draw(shoe, st, rng)
                dc[_ix(dn)] = c
                dn += 1
                v = _value(c)
                d_hard += v
                d_aces += 1 if v == 1 else 0
        if play_on and standing and not (dn == 2 and d_hard == 11 and d_aces == 1):
            while _dealer_draws(r, dc, dn, d_hard, d_aces):
                c = _draw(shoe, st, rng)
                dc[_ix(dn)] = c
                dn += 1
                v = _value(c)
                d_hard += v
                d_aces += 1 if v == 1 else 0
    d_total = d_hard + 10 if d_aces > 0 and d_hard <= 11 else d_hard
    dealer_bj = dn == 2 and d_hard == 11 and d_aces == 1
    st[S_DEALER_BJ] = 1 if dealer_bj else 0
    for b in range(boxes):
        _settle_box(r, hs, bs, b, d_total, dealer_bj)


@_jit
def _round_rest_apart(
    r: I64, tb: I64, count: int, shoe: I64, st: I64, rng: U64, hs: I64, hc: I64, bs: I64, dc: I64, dn: int
) -> None:
    """:func:`_round_rest` for one box, compiled on its own (a pair leaves :func:`_round_one` for it)."""
    _round_rest(r, tb, 1, 0, count, shoe, st, rng, hs, hc, bs, dc, dn)


@_jit_inline
def _bonus_cards(c0: int, c1: int, c2: int) -> bool:
    """BJ 15 on three card codes: three 7s, or a 6, 7 and 8 of one suit."""
    r0, r1, r2 = c0 >> 2, c1 >> 2, c2 >> 2
    if r0 == 6 and r1 == 6 and r2 == 6:
        return True
    suited = (c0 & 3) == (c1 & 3) and (c1 & 3) == (c2 & 3)
    return bool(suited and r0 + r1 + r2 == 18 and min(r0, r1, r2) == 5 and max(r0, r1, r2) == 7)


@_jit_inline
def _deal_one(r: I64, shoe: I64, rng: U64, pos: int, end: int, mode: int) -> tuple[int, int, int, int, int]:
    """BJ 5.2 for one box: its first card, the dealer's up card, its second card and the hole card where there is
    one (-1 where there is none), and the source's position after them."""
    c0 = _take(shoe, rng, pos, end, mode)
    up_code = _take(shoe, rng, pos + 1, end, mode)
    c1 = _take(shoe, rng, pos + 2, end, mode)
    pos += 3
    hole = -1
    if r[R_HOLE] != 0:
        hole = _take(shoe, rng, pos, end, mode)
        pos += 1
    return c0, up_code, c1, hole, pos


@_jit
def _hand_over(
    r: I64, tb: I64, count: int, shoe: I64, st: I64, rng: U64, hs: I64, hc: I64, bs: I64, dc: I64,
    c0: int, up_code: int, c1: int, hole: int, pos: int, end: int,
) -> None:  # fmt: skip
    """A pair the box's table splits: the general round from the cards :func:`_deal_one` dealt (compiled on its
    own: the rare way out of :func:`_round_one`)."""
    st[S_POS] = min(pos, end)
    st[S_FAILED] = pos > end
    _reset_box(hs, bs, 0, 0)
    _give(hs, hc, bs, 0, 0, c0)
    dc[0] = up_code
    _give(hs, hc, bs, 0, 0, c1)
    bs[_ix(B_FIRST0)] = c0
    bs[_ix(B_FIRST1)] = c1
    dn = 1
    if hole >= 0:
        dc[1] = hole
        dn = 2
    st[S_DEALER_BJ] = 0
    _round_rest_apart(r, tb, count, shoe, st, rng, hs, hc, bs, dc, dn)


@_jit_inline
def _first_offers(r: I64, tb: I64, plain: bool, count: int, up: int, hard: int, aces: int) -> tuple[int, int, int, int]:
    """A blackjack, and the offers on the first two cards: even money against an ace or, where the rules allow, a
    ten (BJ 10.3), insurance against an ace (BJ 12). Returns the status, the early net, the path bits and whether
    the box insured."""
    status = ST_NONE
    early_net = 0
    paths = 0
    insured = 0
    if hard == 11 and aces == 1:
        status = ST_BLACKJACK
        paths |= PATH_BLACKJACK
        if (up == 1 or (up == 10 and r[R_EVEN_MONEY_TEN] != 0)) and _own_cell(tb, plain, count, T_EVEN, up) != 0:
            status = ST_EVEN_MONEY
            early_net = STAKE
            paths |= PATH_EVEN_MONEY
    elif up == 1 and _own_cell(tb, plain, count, T_INS, 1) != 0:
        insured = 1
        paths |= PATH_INSURANCE
    return status, early_net, paths, insured


@_jit_inline
def _surrenders(r: I64, tb: I64, plain: bool, count: int, v0: int, v1: int, hard: int, aces: int, up: int) -> bool:
    """BJ 18: whether the box surrenders its first two cards (asked before anything else the table plays on them)."""
    if r[R_SURRENDER] == 0 or up == 1:
        return False
    if v0 == v1:
        row = T_SUR_PAIR + v0
    elif aces > 0:
        row = T_SUR_SOFT + hard + 10
    else:
        row = T_SUR_HARD + hard
    return _own_cell(tb, plain, count, row, up) != 0


@_jit_inline
def _play_hand_one(
    r: I64, tb: I64, plain: bool, count: int, shoe: I64, rng: U64, pos: int, end: int, mode: int,
    c0: int, c1: int, hard: int, aces: int, up: int,
) -> tuple[int, int, int, int, int, int, int, int, bool, int]:  # fmt: skip
    """BJ 15, 17, 19: the box's one hand played by its table from its first two cards (no split, no surrender).
    Returns the status, the early net, the path bits, the hard total, the aces, the cards, the third card (or
    -1), the stake, whether it doubled, and the source's position."""
    five_ok = r[R_FIVE_CARD] != 0 and up != 1
    bonus_ok = r[R_BONUS] != 0
    double_any = r[R_DOUBLE_ANY] != 0
    n = 2
    c2 = -1
    stake = STAKE
    paths = 0
    status = ST_NONE
    early_net = 0
    doubled = False
    while status == ST_NONE:
        soft = aces > 0 and hard <= 11
        total = hard + 10 if soft else hard
        if total >= 21:
            if total == 21 and five_ok and n == 5 and total <= _own_cell(tb, plain, count, T_FIVE, up):
                status = ST_FIVE_CARD  # BJ 19
                early_net = stake // 2
                paths |= PATH_FIVE_CARD
            else:
                status = ST_BUST if total > 21 else ST_STOOD
            break
        if five_ok and n == 5 and total <= _own_cell(tb, plain, count, T_FIVE, up):
            status = ST_FIVE_CARD  # BJ 19
            early_net = stake // 2
            paths |= PATH_FIVE_CARD
            break
        code = _own_cell(tb, plain, count, (T_SOFT if soft else T_HARD) + total, up)
        if code == DOUBLE_HIT or code == DOUBLE_STAND:
            if n == 2 and (double_any or hard == 11):
                paths |= PATH_DOUBLE  # BJ 17
                doubled = True
                stake = 2 * STAKE
                code = HIT
            else:
                code = HIT if code == DOUBLE_HIT else STAND
        if code != HIT:
            status = ST_STOOD
            break
        c = _take(shoe, rng, pos, end, mode)
        pos += 1
        n += 1
        if n == 3:
            c2 = c
        v = _value(c)
        hard += v
        aces += v == 1
        if hard > 21:
            status = ST_BUST
            break
        if n == 3 and bonus_ok and _bonus_cards(c0, c1, c):
            status = ST_SPECIAL_BONUS  # BJ 15
            early_net = 3 * stake
            paths |= PATH_SPECIAL_BONUS
            break
        if doubled:
            status = ST_DOUBLED
            break
    return status, early_net, paths, hard, aces, n, c2, stake, doubled, pos


@_jit_inline
def _second_card(
    r: I64, shoe: I64, st: I64, rng: U64, pos: int, end: int, mode: int, dn: int, d_hard: int, d_aces: int
) -> tuple[int, int, int, int]:
    """The dealer's second card without a hole card, after the burn of BJ 4.2 where the rules have it. Returns the
    source's position and the dealer's cards, hard total and aces."""
    if r[R_BURN_SECOND] != 0:
        pos += 1  # BJ 4.2
        _take(shoe, rng, pos - 1, end, mode)
        st[S_BURN] = min(pos, end) - 1
    c = _take(shoe, rng, pos, end, mode)
    pos += 1
    dn += 1
    v = _value(c)
    d_hard += v
    d_aces += v == 1
    return pos, dn, d_hard, d_aces


@_jit_inline
def _draw_to_17(
    r: I64, shoe: I64, rng: U64, pos: int, end: int, mode: int, dn: int, d_hard: int, d_aces: int
) -> tuple[int, int, int, int]:
    """BJ 6.1: the dealer draws to 17, a soft 17 drawn to as the rules read it (a soft 17 of two cards is an ace
    and a 6). Returns the source's position and the dealer's cards, hard total and aces."""
    s17 = r[R_SOFT17]
    while True:
        d_soft = d_aces > 0 and d_hard <= 11
        d_total = d_hard + 10 if d_soft else d_hard
        if d_total > 17 or (
            d_total == 17 and not (d_soft and (s17 == S17_HIT_ALL or (s17 == S17_HIT_ACE_SIX and dn == 2)))
        ):
            break
        c = _take(shoe, rng, pos, end, mode)
        pos += 1
        dn += 1
        v = _value(c)
        d_hard += v
        d_aces += v == 1
    return pos, dn, d_hard, d_aces


@_jit_inline
def _settle_one(
    r: I64, status: int, early_net: int, hard: int, aces: int, stake: int, doubled: bool, d_total: int,
    dealer_bj: bool,
) -> tuple[int, int, bool]:  # fmt: skip
    """The settlement summary and "Original bet only" for the one hand. Returns the hand's outcome (its sign is the
    box's result), the main bet's net, and whether "Original bet only" settled it."""
    # The comparison, without a branch (the outcome is as good as random): a bust loses, a dealer's bust loses
    # to every hand left; then the rarer settlements that override it.
    total = hard + 10 if aces > 0 and hard <= 11 else hard
    p = total if hard <= 21 else -1
    d = d_total if d_total <= 21 else 0
    x = stake * ((p > d) - (p < d))
    if status == ST_BLACKJACK:
        x = 0 if dealer_bj else stake * 3 // 2
    elif dealer_bj:
        x = -stake
    if status == ST_SURRENDERED or status == ST_SPECIAL_BONUS or status == ST_FIVE_CARD or status == ST_EVEN_MONEY:
        x = early_net
    net = x
    original = False
    if dealer_bj and doubled and (r[R_DOUBLE_ANY] != 0 or r[R_LOSE_ORIGINAL_DOUBLE] != 0):
        original = True
        busted = stake if hard > 21 else 0
        net = -max(busted, STAKE) if r[R_BUSTED_LOST] != 0 else -STAKE
    return x, net, original


@_jit_inline
def _round_one(
    r: I64,
    tb: I64,
    plain: bool,
    count: int,
    shoe: I64,
    st: I64,
    rng: U64,
    hs: I64,
    hc: I64,
    bs: I64,
    dc: I64,
    mode: int,
) -> None:
    """:func:`_round` for one box, the hand, the dealer and the card source held in local variables (no array is
    read or written card by card): the simulation's common case, about twice as fast. A pair the rules let
    split and the table splits goes to the general round after the deal (the only way a box gets a second
    hand); the card-for-card test with the engine plays both. ``plain``: see :func:`_own_cell`; ``mode``: see
    :data:`TAKE_FREE`."""
    end = st[S_END]
    st[S_BURN] = -1
    c0, up_code, c1, hole, pos = _deal_one(r, shoe, rng, st[S_POS], end, mode)
    v0 = _value(c0)
    v1 = _value(c1)
    up = _value(up_code)
    if (
        r[R_SPLIT_HANDS] > 1
        and ((c0 >> 2) == (c1 >> 2) if r[R_PAIR_BY_RANK] != 0 else v0 == v1)
        and _own_cell(tb, plain, count, T_SPLIT + v0, up) != 0
    ):
        # A pair the box's table splits. (A pair it does not split plays on here: a split it declines changes
        # nothing for a box that cannot split later.)
        _hand_over(r, tb, count, shoe, st, rng, hs, hc, bs, dc, c0, up_code, c1, hole, pos, end)
        return
    hard = v0 + v1
    aces = (v0 == 1) + (v1 == 1)
    n = 2
    c2 = -1  # the box's third card
    stake = STAKE
    doubled = False
    d_hard = up
    d_aces = 1 if up == 1 else 0
    dn = 1
    if hole >= 0:
        dn = 2
        vh = _value(hole)
        d_hard += vh
        d_aces += vh == 1
    status, early_net, paths, insured = _first_offers(r, tb, plain, count, up, hard, aces)
    peeked = r[R_PEEK] != 0 and dn == 2 and (up == 1 or up == 10) and d_hard == 11 and d_aces == 1
    if peeked:
        paths |= PATH_PEEKED
    elif status == ST_NONE:
        if _surrenders(r, tb, plain, count, v0, v1, hard, aces, up):
            status = ST_SURRENDERED
            early_net = -(stake // 2)
            paths |= PATH_SURRENDER
        else:
            status, early_net, played, hard, aces, n, c2, stake, doubled, pos = _play_hand_one(
                r, tb, plain, count, shoe, rng, pos, end, mode, c0, c1, hard, aces, up
            )
            paths |= played
        # The dealer (BJ 6.1, BJ 5.2): is any stake still open, does the hand stand?
        obo = doubled and (r[R_DOUBLE_ANY] != 0 or r[R_LOSE_ORIGINAL_DOUBLE] != 0)
        standing = status == ST_STOOD or status == ST_DOUBLED
        any_open = (
            standing or insured != 0 or (status == ST_BUST and obo and r[R_BUSTED_LOST] == 0 and (up == 1 or up == 10))
        )
        play_on = True
        if r[R_HOLE] == 0:
            if not any_open:
                play_on = False
                paths |= PATH_SKIPPED
            else:
                pos, dn, d_hard, d_aces = _second_card(r, shoe, st, rng, pos, end, mode, dn, d_hard, d_aces)
        if play_on and standing and not (dn == 2 and d_hard == 11 and d_aces == 1):
            pos, dn, d_hard, d_aces = _draw_to_17(r, shoe, rng, pos, end, mode, dn, d_hard, d_aces)
    elif status == ST_BLACKJACK and r[R_HOLE] == 0:
        # A blackjack is still open: the dealer's second card decides it (BJ 5.2, BJ 10.2).
        pos, dn, d_hard, d_aces = _second_card(r, shoe, st, rng, pos, end, mode, dn, d_hard, d_aces)
    elif r[R_HOLE] == 0:
        paths |= PATH_SKIPPED  # even money settled the box: no stake is open
    st[S_POS] = min(pos, end)
    st[S_FAILED] = pos > end
    d_total = d_hard + 10 if d_aces > 0 and d_hard <= 11 else d_hard
    dealer_bj = dn == 2 and d_hard == 11 and d_aces == 1
    x, net, original = _settle_one(r, status, early_net, hard, aces, stake, doubled, d_total, dealer_bj)
    if dealer_bj:
        paths |= PATH_DEALER_BLACKJACK
    if original:
        paths |= PATH_ORIGINAL_BET_ONLY
    st[S_DEALER_BJ] = dealer_bj
    bs[B_HANDS] = 1
    bs[B_DID_SPLIT] = 0
    bs[B_DID_DOUBLE] = doubled
    bs[B_SURRENDERED] = status == ST_SURRENDERED
    bs[B_DEALT] = n
    bs[B_THIRD] = c2
    bs[B_THIRD_AFTER_SPLIT] = 0
    bs[B_FIRST0] = c0
    bs[B_FIRST1] = c1
    bs[B_INSURED] = insured
    bs[B_NET] = net
    bs[B_INS_NET] = (STAKE if dealer_bj else -(STAKE // 2)) if insured else 0
    bs[B_RESULT] = PUSH - (x > 0) + (x < 0)  # (a surrender's net is below 0: a loss)
    bs[B_PATHS] = paths
    bs[B_ACTION] = stake


@_jit
def _round_one_apart(
    r: I64, tb: I64, plain: bool, count: int, shoe: I64, st: I64, rng: U64, hs: I64, hc: I64, bs: I64, dc: I64
) -> None:
    """:func:`_round_one` compiled on its own, taking its cards as ``st`` says with the check: for the callers off
    the hot path (each inlined copy of the round costs numba about a minute of compiling)."""
    _round_one(r, tb, plain, count, shoe, st, rng, hs, hc, bs, dc, TAKE_LAZY if st[S_MODE] else TAKE_CHECKED)


@_jit
def _play_round(
    r: I64, tb: I64, boxes: int, seat: int, count: int, shoe: I64, st: I64, rng: U64, hs: I64, hc: I64, bs: I64, dc: I64
) -> None:
    """One round: :func:`_round_one` for a lone box, else :func:`_round`."""
    if boxes == 1:
        _round_one_apart(r, tb, False, count, shoe, st, rng, hs, hc, bs, dc)
    else:
        _round(r, tb, boxes, seat, count, shoe, st, rng, hs, hc, bs, dc)


@_jit
def _round_apart(
    r: I64, tb: I64, boxes: int, seat: int, count: int, shoe: I64, st: I64, rng: U64, hs: I64, hc: I64, bs: I64, dc: I64
) -> None:
    """:func:`_play_round` compiled on its own, for the callers off the hot path (a restock, scripted orders)."""
    _play_round(r, tb, boxes, seat, count, shoe, st, rng, hs, hc, bs, dc)


@_jit
def _side_nets(sp: I64, bs: I64, b: int, out: I64) -> None:
    """The side bets of BJ 13-14 on box ``b``'s cards, in chips on a stake of ``sp[SP_STAKE]``, into ``out``
    in :data:`SIDE_KEYS` order."""
    stake = sp[SP_STAKE]
    a = bs[_ix(b * B_FIELDS + B_FIRST0)]
    c = bs[_ix(b * B_FIELDS + B_FIRST1)]
    ra, rc = a >> 2, c >> 2
    sa, sc = a & 3, c & 3
    pair = ra == rc
    out[0] = sp[SP_ANY_PAIR] if pair else -stake
    if pair:
        if sa == sc:
            out[4] = sp[SP_PP_PERFECT]
        elif (sa == 1 or sa == 2) == (sc == 1 or sc == 2):  # hearts and diamonds are red
            out[4] = sp[SP_PP_COLOURED]
        else:
            out[4] = sp[SP_PP_MIXED]
    else:
        out[4] = -stake
    total = _value(a) + _value(c)
    out[2] = sp[SP_OVER_UNDER] if total > 13 else -stake
    out[3] = sp[SP_OVER_UNDER] if total < 13 else -stake
    if ra == 6 and rc == 6:
        two = sp[SP_SEVENS_TWO_SUITED] if sa == sc else sp[SP_SEVENS_TWO_MIXED]
        third = bs[_ix(b * B_FIELDS + B_THIRD)]
        if (
            third >= 0
            and (third >> 2) == 6
            and (sp[SP_THIRD_ANY] != 0 or bs[_ix(b * B_FIELDS + B_THIRD_AFTER_SPLIT)] != 0)
        ):
            st3 = third & 3
            if sa == sc and sc == st3:
                two = sp[SP_SEVENS_THREE_SUITED]
            elif (sa != sc and sc != st3 and sa != st3) or sp[SP_MIXED_TRIPLE_500] != 0:
                two = sp[SP_SEVENS_THREE_MIXED]
        out[1] = two
    else:
        out[1] = -stake


@_jit
def _play_orders(r: I64, tb: I64, sp: I64, boxes: int, orders: I64, lengths: I64, out: I64, work: Work) -> None:
    """Play one round from the start of each row of ``orders`` for ``boxes`` boxes (box 0 plays by ``tb[0]``):
    ``out[k, b]`` gets box ``b``'s net, result, cards used, failed, path flags, insurance net and side-bet nets."""
    _, rng, _, st, sides, _, _, _, hs, hc, bs, dc = work
    # Box 0 is the counted box, at count 0: typed as integers, not as the literal 0 (numba would compile the whole
    # round again for the literals, when the table simulation's copy serves).
    seat = count = int(np.int64(0))
    for k in range(orders.shape[0]):
        row = orders[_ix(k)]
        st[S_POS] = 0
        st[S_END] = lengths[_ix(k)]
        st[S_MODE] = 0
        _round_apart(r, tb, boxes, seat, count, row, st, rng, hs, hc, bs, dc)
        for b in range(boxes):
            out[k, b, 0] = bs[_ix(b * B_FIELDS + B_NET)]
            out[k, b, 1] = bs[_ix(b * B_FIELDS + B_RESULT)]
            out[k, b, 2] = st[S_POS]
            out[k, b, 3] = st[S_FAILED]
            out[k, b, 4] = bs[_ix(b * B_FIELDS + B_PATHS)]
            out[k, b, 5] = bs[_ix(b * B_FIELDS + B_INS_NET)]
            if st[S_FAILED] == 0:
                _side_nets(sp, bs, b, sides)
                for s in range(N_SIDE):
                    out[k, b, 6 + s] = sides[_ix(s)]


# == the table simulation =======================================================================================


@_jit_inline
def _count_of(g: I64, rc: int, left: int) -> int:
    """The round's count (see :mod:`croupier.analysis.counting`): the running count, or the true count by the
    exact cards left or by the half decks left, floored and clipped."""
    mode = g[G_TRUE]
    scale = g[G_SCALE]
    if mode == 0:
        c = rc // scale
    elif left <= 0:
        c = 0
    elif mode == 1:
        c = (rc * 52) // (scale * left)
    else:
        halves = max((2 * left + 26) // 52, 1)
        c = (2 * rc) // (scale * halves)
    return int(min(max(c, COUNT_MIN), COUNT_MAX))


@_jit
def _burn(shoe: I64, st: I64, rng: U64, n: int) -> None:
    """Burn ``n`` cards face down (BJ 4): drawn and discarded unseen."""
    for _ in range(n):
        if st[S_POS] >= st[S_END]:
            return
        _draw(shoe, st, rng)


@_jit
def _restock(
    r: I64, tb: I64, boxes: int, seat: int, count: int, shoe: I64, st: I64, rng: U64, hs: I64, hc: I64, bs: I64,
    dc: I64, start: int, full: I64, left: I64, scratch: I64,
) -> bool:  # fmt: skip
    """The shoe ran out mid-round: the cards in play stay, every other card is shuffled back in (the burn before
    the dealer's second card included) and the round is played again from the same cards followed by the
    restocked ones (the engine's restock). False when even that runs out."""
    size = shoe.shape[0]
    drawn = size - start
    for code in range(52):
        left[_ix(code)] = full[_ix(code)]
    for k in range(start, size):
        if k != st[S_BURN]:
            left[_ix(shoe[_ix(k)])] -= 1
        scratch[_ix(k - start)] = shoe[_ix(k)]
    m = drawn
    for code in range(52):
        for _ in range(left[_ix(code)]):
            scratch[_ix(m)] = code
            m += 1
    for k in range(drawn, m):  # shuffle the restocked part in full: the replayed round draws it in order
        j = k + _below(rng, m - k)
        t = scratch[_ix(k)]
        scratch[_ix(k)] = scratch[_ix(j)]
        scratch[_ix(j)] = t
    st[S_POS] = 0
    st[S_END] = m
    st[S_MODE] = 0
    _round_apart(r, tb, boxes, seat, count, scratch, st, rng, hs, hc, bs, dc)
    return bool(st[S_FAILED] == 0)


@_jit
def _shoe_counts(shoe: I64, full: I64) -> None:
    """How many of each card code the shoe holds, into ``full`` (for a restock)."""
    for k in range(52):
        full[_ix(k)] = 0
    for k in range(shoe.shape[0]):
        full[_ix(shoe[_ix(k)])] += 1


@_jit_inline
def _burns(g: I64, fresh: bool, first: bool) -> int:
    """The cards burnt before a round (BJ 4): after a shuffle, or before each round; a shuffler burns after the
    shuffle before the first round only."""
    if g[G_SHUFFLER] != 0:
        return int(g[G_BURN_AFTER_SHUFFLE] if first else g[G_BURN_EACH_ROUND])
    return int(g[G_BURN_AFTER_SHUFFLE] if fresh else g[G_BURN_EACH_ROUND])


@_jit
def _run_table(job: Job, work: Work, out: Out, rounds: int) -> int:
    """``rounds`` rounds at one table (its state in ``work``'s ``ks``): dealt to the cut card, or every round from
    a freshly shuffled shoe; counted with the scaled tag of each card code, the counter betting ``ramp[_ix(count)]``
    units on box ``g[G_SEAT]`` while in (wonging by ``g[G_WONG_IN]``/``g[G_WONG_OUT]``) and each side bet at or
    above its ``side_at`` count. Adds to ``acc``, ``bins`` and the fan of bankroll paths. Returns 0, or 1 when a
    round needed more cards than the shoe holds."""
    r, tb, sp, g, tags, ramp, side_at = job
    counting = g[G_COUNTING] != 0 and g[G_CONTINUOUS] == 0
    plain = not counting
    for k in range(T_ROWS * 11):  # the counted box's index thresholds: is any at or below the fixed count 0?
        plain = plain and tb[_ix(k)] > 0
    shoe, rng, ks, st, sides, full, left, scratch, hs, hc, bs, dc = work
    acc, bins, fan = out
    size = shoe.shape[0]
    _shoe_counts(shoe, full)
    boxes = g[G_BOXES]
    seat = g[G_SEAT]
    continuous = g[G_CONTINUOUS] != 0
    track_sides = g[G_SIDES] != 0
    by_count = g[G_COUNTING] != 0 or track_sides
    cut = g[G_CUT]
    side_stake = sp[SP_STAKE]
    to_unit = side_stake // STAKE  # the counter's sums are in chips of 1/side_stake of a unit
    side_units = g[G_SIDE_UNITS]
    path_rounds = g[G_PATH_ROUNDS]
    bankroll = g[G_BANKROLL]
    fan_step = max(g[G_FAN_STEP], 1)
    fan_paths = g[G_FAN_PATHS]
    pos = ks[K_POS]
    rc = ks[K_RC]
    shuffle_next = ks[K_SHUFFLE_NEXT] != 0
    inside = ks[K_INSIDE] != 0
    first = ks[K_FIRST] != 0
    path_k = ks[K_PATH_K]
    path_n = ks[K_PATH_N]
    path_sum = ks[K_PATH_SUM]
    path_ruined = ks[K_PATH_RUINED] != 0
    fan_width = fan.shape[0] // max(fan_paths, 1)
    net_sum = net_sq = main_sum = wagered = action_sum = flat_sum = flat_sq = 0
    wins = pushes = cards = shoes = restocks = n_in = n_insured = 0
    previous = acc[C_PREVIOUS]
    for _ in range(rounds):
        fresh = shuffle_next or continuous
        if fresh:
            pos = 0
            rc = g[G_IRC]
            shoes += 1
            inside = g[G_WONG_IN] <= 0
            if not continuous:
                _shuffle(shoe, rng)
        st[S_POS] = pos
        st[S_END] = size
        st[S_MODE] = 1 if continuous else 0
        burns = _burns(g, fresh, first)
        if burns:
            _burn(shoe, st, rng, burns)
        first = False
        shuffle_next = False
        start = st[S_POS]
        count = _count_of(g, rc, size - start) if counting else 0
        inside = count >= (g[G_WONG_OUT] if inside else g[G_WONG_IN])
        units = ramp[_ix(count - COUNT_MIN)] if inside else 0
        if boxes == 1:
            # (a round that cannot run out takes its cards without the check)
            mode = TAKE_LAZY if continuous else (TAKE_FREE if size - start >= ROOM else TAKE_CHECKED)
            _round_one(r, tb, plain, count, shoe, st, rng, hs, hc, bs, dc, mode)
        else:
            _round(r, tb, boxes, seat, count, shoe, st, rng, hs, hc, bs, dc)
        if st[S_FAILED] != 0:
            if not _restock(r, tb, boxes, seat, count, shoe, st, rng, hs, hc, bs, dc, start, full, left, scratch):
                ks[K_POS] = size
                ks[K_SHUFFLE_NEXT] = 1
                return 1
            restocks += 1
            used = st[S_POS]
            shuffle_next = True
            pos = size
        else:
            used = st[S_POS] - start
            # The count takes every card the round showed (burns are never seen).
            if counting:
                burn_at = st[S_BURN]
                for k in range(start, st[S_POS]):
                    if k != burn_at:
                        rc += tags[_ix(shoe[_ix(k)])]
            pos = st[S_POS]
            if pos >= cut:
                shuffle_next = True  # BJ 2.2: the cut card came out, this round was the last
        # -- the round's results
        so = seat * B_FIELDS
        flat = bs[_ix(so + B_NET)]
        result = bs[_ix(so + B_RESULT)]
        insured = bs[_ix(so + B_INSURED)]
        main_net = units * flat * to_unit
        net = main_net + units * bs[_ix(so + B_INS_NET)] * to_unit
        action = units * (bs[_ix(so + B_ACTION)] + insured * (STAKE // 2)) * to_unit
        k = (count - COUNT_MIN) * BN_FIELDS
        if by_count:  # (without a count or side bets, the one row of count 0 is the totals: the caller fills it)
            bins[_ix(k + BN_N)] += 1
            bins[_ix(k + BN_FLAT)] += flat
            bins[_ix(k + BN_FLAT_SQ)] += flat * flat
        if track_sides:
            _side_nets(sp, bs, seat, sides)
            for s in range(N_SIDE):
                x = sides[_ix(s)]
                bins[_ix(k + BN_SIDE + s)] += x
                bins[_ix(k + BN_SIDE_SQ + s)] += x * x
                if inside and count >= side_at[_ix(s)]:
                    x *= side_units
                    acc[_ix(C_SIDE_NET + s)] += x
                    acc[_ix(C_SIDE_SQ + s)] += x * x
                    acc[_ix(C_SIDE_BETS + s)] += 1
                    action += side_units * side_stake
                    net += x
        if inside:
            if by_count:
                bins[_ix(k + BN_IN)] += 1
                bins[_ix(k + BN_NET)] += net
            n_in += 1
            n_insured += insured
        net_sum += net
        net_sq += net * net
        main_sum += main_net
        wagered += units
        action_sum += action
        flat_sum += flat
        flat_sq += flat * flat
        wins += result == WIN  # (branch-free: the result is as good as random)
        pushes += result == PUSH
        if previous >= 0:
            acc[_ix(C_TRANSITIONS + 3 * previous + result)] += 1
        previous = result
        cards += used
        # -- bankroll paths: fixed runs of rounds, the first few recorded for the fan chart
        if path_rounds > 0:
            path_sum += net
            path_n += 1
            if path_sum <= -bankroll:
                path_ruined = True
            if path_k < fan_paths and path_n % fan_step == 0:
                fan[_ix(path_k * fan_width + path_n // fan_step)] = path_sum
            if path_n == path_rounds:
                acc[C_PATHS] += 1
                if path_ruined:
                    acc[C_RUINED] += 1
                path_k += 1
                path_n = 0
                path_sum = 0
                path_ruined = False
    acc[C_ROUNDS] += rounds
    acc[C_NET] += net_sum
    acc[C_SQUARES] += net_sq
    acc[C_MAIN_NET] += main_sum
    acc[C_WAGERED] += wagered * side_stake
    acc[C_ACTION] += action_sum
    acc[C_FLAT] += flat_sum
    acc[C_FLAT_SQ] += flat_sq
    acc[_ix(C_WINS + WIN)] += wins
    acc[_ix(C_WINS + PUSH)] += pushes
    acc[_ix(C_WINS + LOSS)] += rounds - wins - pushes
    acc[C_PREVIOUS] = previous
    acc[C_CARDS] += cards
    acc[C_SHOES] += shoes
    acc[C_RESTOCKS] += restocks
    acc[C_IN] += n_in
    acc[C_INSURED] += n_insured
    ks[K_POS] = pos
    ks[K_RC] = rc
    ks[K_SHUFFLE_NEXT] = 1 if shuffle_next else 0
    ks[K_INSIDE] = 1 if inside else 0
    ks[K_FIRST] = 1 if first else 0
    ks[K_PATH_K] = path_k
    ks[K_PATH_N] = path_n
    ks[K_PATH_SUM] = path_sum
    ks[K_PATH_RUINED] = 1 if path_ruined else 0
    return 0


@_jit
def _bare(shoe: I64, rounds: int, cards: int, cut: int, rng: U64, st: I64) -> int:
    """A baseline: ``cards`` cards over ``rounds`` rounds handled as :func:`_run_table` handles them, with no
    blackjack at all: a shoe shuffled in full (Fisher-Yates) whenever ``cut`` cards are out and dealt in order,
    or, when ``cut`` is 0, every card drawn at random from a full shoe (a lazy Fisher-Yates, a fresh shoe every
    round). Returns the sum of their codes."""
    size = shoe.shape[0]
    each = cards // rounds
    extra = cards - each * rounds
    total = 0
    pos = cut
    for k in range(rounds):
        if cut == 0:
            pos = 0
        elif pos >= cut:
            _shuffle(shoe, rng)
            pos = 0
        st[S_POS] = pos
        st[S_END] = size
        st[S_MODE] = 1 if cut == 0 else 0
        for _ in range(each + (1 if k < extra else 0)):
            total += _draw(shoe, st, rng)
        pos = st[S_POS]
    return total


@_jit
def _uniform_draws(rng: U64, n: int, bound: int, out: I64) -> None:
    """``n`` draws of :func:`_below` into ``out`` (for the generator's own tests)."""
    for k in range(n):
        out[_ix(k)] = _below(rng, bound)


@_jit
def _raw64(rng: U64, n: int, out: U64) -> None:
    """``n`` raw xoshiro256++ outputs into ``out`` (checked against the reference vectors)."""
    for k in range(n):
        out[_ix(k)] = _next64(rng)
