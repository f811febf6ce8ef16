"""Blackjack's exact combinatorial analysis (issue 4): the expected value of a round from a shoe of any
composition, for any valid :class:`~croupier.blackjack.rules.BlackjackRules`, played composition-dependently
(``"cd"``: the best decision for each hand composition against each up card, reused after splits) or by a
total-dependent chart (``"td"``: :func:`croupier.analysis.basic_strategy.basic_strategy`, optimised for the
shoe, or any :class:`Chart`).

How it is exact
---------------
* A hand is a multiset of card values; the shoe it draws from is the shoe after the up card and the hand. The
  dealer's outcomes for every shoe come from the dealer's drawing sequences, enumerated once per up card as
  multisets with their number of legal orders (:func:`_dealer_sequences`), so each probability is a product
  of falling factorials.
* By exchangeability, cards that nobody sees can be drawn in any order: the dealer's hole card is drawn
  after the player's cards. Under the peek (procedure 3) every value is the joint expectation with "no dealer
  blackjack", which keeps the player's decisions exact; the dealer-blackjack branch is added once per round.
  Without a hole card (procedures 1 and 2) a dealer blackjack is an outcome found at the end, settled as
  "original bet only" (RULES.md: one unit lost, split and double stakes returned, wins settled at once kept).
* **Splits** are exact for the fixed post-split strategy (each split hand is played by its own cards only):
  each hand's value depends on the other hands only through the cards they take, so, reordering unseen
  cards, the split is a sum over the patterns of pair cards and other cards dealt as the hands' second cards,
  and each pattern's "not a pair card" conditions expand by inclusion-exclusion into values of one hand from
  shoes with ``n`` more pair cards removed (:meth:`Analyser.split_value`). Resplits to ``split_hands_limit`` and
  resplit aces follow the rules; the player resplits whenever allowed.
* The special bonus (BJ 15) needs suits: a hand's two cards of different ranks are of one suit with
  probability 1/4 and a third card of a given rank is of that suit with probability 1/4 (suits are
  exchangeable within a rank; the up card's suit is not used).
* Two ten-value cards are a pair only when of one rank (``split_pair_by = rank``): the ranks are
  exchangeable, so each case — a pair or not, an up card of the pair's rank or not — is valued with its exact
  count of cards of the pair's rank (:meth:`Analyser.ten_pair_cases`).

Stated approximations (each below 1e-6 of a unit for six or eight decks): a split round in which the dealer
has a blackjack and *every* split hand was already settled as a win at once is counted as losing the original
bet; with ``busted_stakes_on_dealer_blackjack = lost`` busted split hands against a dealer blackjack lose as
under ``refunded`` (the two differ only when two split hands, or a doubled one, bust). The shoe is assumed
never to run out within a round. The chances of a round's result for the streak bet (:meth:`Analyser.results`)
are exact but for split rounds, whose hands are taken as independent once the dealer's outcome is known.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb
from typing import Literal, TypeVar

import numpy as np
import numpy.typing as npt

from croupier.analysis import _ca_kernels as k
from croupier.analysis.chart import DOUBLE_HIT, HIT, Chart
from croupier.analysis.dealer import Composition, composition, decks
from croupier.blackjack.rules import BlackjackRules, BustedStakes, DealerSoft17, DoubleOn
from croupier.errors import InvalidRules

Strategy = Literal["cd", "td"]
T = TypeVar("T")

THREADS = min(4, os.cpu_count() or 1)
"""Threads that share the up cards of an analysis (results are the same for any number)."""


@dataclass(frozen=True)
class _Pay:
    """What is counted: the expected net (:data:`EV`), or the chance that the box wins (:data:`WIN`) or loses
    (:data:`LOSS`) as the streak bet counts results (BJ 13.5), or the number of split hands (:data:`HANDS`).

    ``pay`` is the kernels' vector (win, push, loss, bust, five-card claim, special bonus, doubled stake);
    ``normal_b`` what a dealer blackjack found at the end (no peek) gives a stood, doubled, busted and busted
    doubled hand (``None``: the rules' "original bet only" settlement); ``split_b`` what it gives each split
    hand not settled at once; ``split_bj`` what it costs a split round once."""

    pay: npt.NDArray[np.float64]
    normal_b: tuple[float, float, float, float] | None
    split_b: float
    surrender: float
    peek_bj: float
    split_bj: float
    keep: tuple[float, float]
    even_money: float


ALL_OUTCOMES = [1.0] * 7


def _vector(*payoffs: float, outcomes: Sequence[float] = ALL_OUTCOMES) -> npt.NDArray[np.float64]:
    return np.array([*payoffs, *outcomes], np.float64)


EV = _Pay(_vector(1, 0, -1, -1, 0.5, 3, 2), None, 0.0, -0.5, -1.0, -1.0, (1.5, 0.0), 1.0)
WIN = _Pay(_vector(1, 0, 0, 0, 1, 1, 1), (0, 0, 0, 0), 0.0, 0.0, 0.0, 0.0, (1.0, 0.0), 1.0)
LOSS = _Pay(_vector(0, 0, 1, 1, 0, 0, 1), (1, 1, 1, 1), 1.0, 1.0, 1.0, 0.0, (0.0, 0.0), 0.0)
HANDS = _Pay(_vector(1, 1, 1, 1, 1, 1, 1), (1, 1, 1, 1), 1.0, 1.0, 0.0, 0.0, (1.0, 1.0), 1.0)


_ONE_HOT = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
MAJORITY_HANDS = 8
"""Split rounds of more hands are counted as of this many for the streak result (their chance is negligible)."""


@lru_cache(maxsize=4096)
def _majority(hands: int, win: float, push: float, loss: float) -> tuple[float, float]:
    """The chance that more of ``hands`` independent hands win than lose, and that more lose than win."""
    hands = min(hands, MAJORITY_HANDS)
    more_won = more_lost = 0.0
    for won in range(hands + 1):
        for lost in range(hands - won + 1):
            pushed = hands - won - lost
            ways = comb(hands, won) * comb(hands - won, lost)
            chance = ways * win**won * loss**lost * push**pushed
            if won > lost:
                more_won += chance
            elif lost > won:
                more_lost += chance
    return more_won, more_lost


def _split_hand_pay(win: float, push: float, loss: float, outcome: int | None) -> _Pay:
    """Counting one split hand's standing results against one dealer outcome (``None``: the results that do not
    depend on the dealer — busts count as ``loss``, five-card claims and special bonuses as ``win``)."""
    if outcome is None:
        return _Pay(_vector(0, 0, 0, loss, win, win, 1, outcomes=[0.0] * 7), None, 0.0, 0, 0, 0, (0, 0), 0)
    mask = [1.0 if o == outcome else 0.0 for o in range(7)]
    return _Pay(_vector(win, push, loss, 0, 0, 0, 1, outcomes=mask), None, 0.0, 0, 0, 0, (0, 0), 0)


IntArray = npt.NDArray[np.int64]

# -- tables ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandTable:
    """Every hand (multiset of card values, hard total at most 21) as arrays, children by card value."""

    hc: IntArray
    hard: IntArray
    ace: npt.NDArray[np.bool_]
    ncards: IntArray
    child: IntArray
    order_desc: IntArray
    order_asc: IntArray
    index: dict[tuple[int, ...], int]

    @property
    def arrays(self) -> tuple[IntArray, IntArray, npt.NDArray[np.bool_], IntArray, IntArray, IntArray, IntArray]:
        """The table as the kernels take it (their ``tab``)."""
        return self.hc, self.hard, self.ace, self.ncards, self.child, self.order_desc, self.order_asc

    def of(self, values: Sequence[int]) -> int:
        """The index of the hand holding the card values ``values`` (1-10)."""
        counts = [0] * 10
        for v in values:
            counts[v - 1] += 1
        return self.index[tuple(counts)]


@lru_cache(maxsize=1)
def _hand_table() -> HandTable:
    hands: list[tuple[int, ...]] = []

    def rec(value: int, room: int, cur: list[int]) -> None:
        if value > 10:
            if sum(cur):
                hands.append(tuple(cur))
            return
        n = 0
        while n * value <= room:
            cur.append(n)
            rec(value + 1, room - n * value, cur)
            cur.pop()
            n += 1

    rec(1, 21, [])
    index = {h: i for i, h in enumerate(hands)}
    hc = np.array(hands, np.int64)
    hard = (hc * np.arange(1, 11)).sum(axis=1)
    child = np.full((len(hands), 10), -1, np.int64)
    for i, h in enumerate(hands):
        for v in range(10):
            nxt = list(h)
            nxt[v] += 1
            child[i, v] = index.get(tuple(nxt), -1)
    ncards = hc.sum(axis=1)
    return HandTable(
        hc=hc,
        hard=hard,
        ace=hc[:, 0] > 0,
        ncards=ncards,
        child=child,
        order_desc=np.argsort(-ncards, kind="stable").astype(np.int64),
        order_asc=np.argsort(ncards, kind="stable").astype(np.int64),
        index=index,
    )


Sequences = tuple[
    npt.NDArray[np.float64], IntArray, IntArray, IntArray, IntArray, IntArray, IntArray
]  # coef, len, out, start, v, m, most (the most cards of each value a sequence takes)


@lru_cache(maxsize=64)
def _dealer_sequences(up: int, rule: DealerSoft17) -> Sequences:
    """The dealer's drawing sequences after the up card ``up`` (1-10): multisets of the cards drawn (the hole
    card first), their number of legal orders and their outcome (0-4: 17-21, 5: bust, 6: blackjack)."""
    ways: dict[tuple[int, ...], int] = {tuple([0] * 10): 1}
    done: dict[tuple[int, ...], tuple[int, int]] = {}
    frontier = [tuple([0] * 10)]
    for drawn in range(1, 23):
        nxt: dict[tuple[int, ...], int] = {}
        for state in frontier:
            w = ways[state]
            for v in range(10):
                s = list(state)
                s[v] += 1
                key = tuple(s)
                nxt[key] = nxt.get(key, 0) + w
        frontier = []
        for key, w in nxt.items():
            hard = up + sum((i + 1) * n for i, n in enumerate(key))
            soft = (up == 1 or key[0] > 0) and hard <= 11
            total = hard + 10 if soft else hard
            if drawn == 1 and {up, 1 + key.index(1)} == {1, 10}:
                done[key] = (w, 6)
            elif hard > 21:
                done[key] = (w, 5)
            elif total > 17 or (total == 17 and not _draws_on_soft_17(soft, drawn, up, key, rule)):
                done[key] = (w, total - 17)
            else:
                ways[key] = w
                frontier.append(key)
        if not frontier:
            break
    keys = list(done)
    coef = np.array([done[key][0] for key in keys], np.float64)
    length = np.array([sum(key) for key in keys], np.int64)
    out = np.array([done[key][1] for key in keys], np.int64)
    start = [0]
    vs: list[int] = []
    ms: list[int] = []
    for key in keys:
        for v, m in enumerate(key):
            if m:
                vs.append(v)
                ms.append(m)
        start.append(len(vs))
    most = np.zeros(10, np.int64)
    for v, m in zip(vs, ms, strict=True):
        most[v] = max(most[v], m)
    return coef, length, out, np.array(start, np.int64), np.array(vs, np.int64), np.array(ms, np.int64), most


def _draws_on_soft_17(soft: bool, drawn: int, up: int, key: tuple[int, ...], rule: DealerSoft17) -> bool:
    if not soft:
        return False
    if rule is DealerSoft17.HIT_ALL:
        return True
    if rule is DealerSoft17.HIT_ACE_SIX:
        return drawn == 1 and {up, 1 + key.index(1)} == {1, 6}
    return False


# -- the rules as the kernels need them ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Terms:
    peek_rule: bool
    soft17: DealerSoft17
    double_any: bool
    das: bool
    surrender: bool
    five_card: bool
    bonus: bool
    obo_double: bool
    refunded: bool
    hands: int
    resplit_aces: bool
    even_money_ten: bool
    insurance_limit: float
    by_rank: bool

    @classmethod
    def of(cls, rules: BlackjackRules) -> _Terms:
        return cls(
            peek_rule=rules.dealer_peeks,
            soft17=rules.dealer_soft_17,
            double_any=rules.double_on is DoubleOn.ANY_TWO,
            das=rules.double_after_split,
            surrender=rules.surrender,
            five_card=rules.five_card_payment,
            bonus=rules.special_bonus,
            obo_double=rules.double_on is DoubleOn.ANY_TWO or rules.lose_original_only_on_double,
            refunded=rules.busted_stakes_on_dealer_blackjack is BustedStakes.REFUNDED,
            hands=rules.split_hands_limit,
            resplit_aces=rules.resplit_aces,
            even_money_ten=rules.even_money_on_ten,
            insurance_limit=float(rules.insurance_limit),
            by_rank=rules.split_pair_by.value == "rank",
        )


BONUS_TRIOS: dict[frozenset[int], int] = {frozenset({6, 7}): 8, frozenset({6, 8}): 7, frozenset({7, 8}): 6}
"""Two different cards of the suited 6-7-8 and the value that completes it (BJ 15)."""


def _variants(values: tuple[int, int], terms: _Terms) -> list[tuple[float, int, float]]:
    """(probability, bonus value index, share) for a two-card hand: suited and unsuited where the special
    bonus makes suits matter (BJ 15)."""
    if not terms.bonus:
        return [(1.0, -1, 0.0)]
    if values == (7, 7):
        return [(1.0, 6, 1.0)]
    missing = BONUS_TRIOS.get(frozenset(values))
    if missing is None or values[0] == values[1]:
        return [(1.0, -1, 0.0)]
    return [(0.25, missing - 1, 0.25), (0.75, -1, 0.0)]


# -- results ----------------------------------------------------------------------------------------------------------


@dataclass
class UpCardResult:
    """The round's value against one up card, with the decision on every two-card hand."""

    up: int
    probability: float
    ev: float
    decisions: dict[tuple[int, int], str] = field(default_factory=dict)
    values: dict[tuple[int, int], dict[str, float]] = field(default_factory=dict)
    cases: dict[tuple[int, int], list[tuple[float, bool, float | None, str]]] = field(default_factory=dict)
    """For each two-card hand: (probability, a pair?, cards of the pair's rank left, decision) — more than one
    case only for two ten-value cards split by rank."""
    insurance: float | None = None


@dataclass
class Analysis:
    """The exact expected value of a round per unit of the initial bet."""

    rules: BlackjackRules
    composition: Composition
    strategy: Strategy
    ev: float
    by_up: list[UpCardResult]
    seconds: float
    chart: Chart | None = None

    @property
    def house_edge(self) -> float:
        return -self.ev

    @property
    def decks(self) -> float:
        return sum(self.composition) / 52


# -- the analyser ---------------------------------------------------------------------------------------------------


_DEALER_TABLES: dict[tuple[tuple[int, ...], DealerSoft17, int], npt.NDArray[np.float64]] = {}
"""The dealer's outcomes for every hand, by shoe, rule on soft 17 and up card, for the last few shoes analysed
(an analysis of another option on the same shoe, as the rule effects run, reads them instead of recomputing).
Each table is complete before it is kept and never written after (the kernels only read ``d_all``)."""
_DEALER_SHOES = 2


def _remember(key: tuple[tuple[int, ...], DealerSoft17, int], table: npt.NDArray[np.float64]) -> None:
    shoes = list(dict.fromkeys(k[:2] for k in _DEALER_TABLES))
    if key[:2] not in shoes and len(shoes) >= _DEALER_SHOES:
        for old in [k for k in _DEALER_TABLES if k[:2] == shoes[0]]:
            _DEALER_TABLES.pop(old, None)
    _DEALER_TABLES[key] = table


class _UpCard:
    """Everything about one up card: the shoe after it, the dealer's sequences and the hands' values."""

    def __init__(self, terms: _Terms, shoe: Composition, up: int) -> None:
        self.terms = terms
        self.up = up
        self.table = _hand_table()
        self.base = np.array(shoe, np.int64)
        self.base[up - 1] -= 1
        self.seq = _dealer_sequences(up, terms.soft17)
        self.x = 9 if up == 1 else (0 if up == 10 else -1)
        self.peek = terms.peek_rule and self.x >= 0
        self.claim_ok = terms.five_card and up != 1
        t = self.table
        self.tab = t.arrays
        self.play = (self.x, self.peek, EV.pay)
        key = (tuple(shoe), terms.soft17, up)
        known = _DEALER_TABLES.get(key)
        self.d_all, self.best, self.dec = k.optimal_pass(
            self.tab, self.seq, self.base, self.play, (-1.0, -1.0), self.claim_ok, 2,
            known if known is not None else np.zeros((len(t.hc), 7)),
        )  # fmt: skip
        if known is None:
            _remember(key, self.d_all)
        self.nothing = np.zeros(len(t.hc), np.bool_)
        self.memo_keys, self.memo_vals, self.memo_count = k.dealer_memo(1 << 12)
        """The dealer's outcomes for shoes that ``d_all`` does not hold (split hands' shoes)."""
        self.memo: dict[object, object] = {}
        """What callers keep about this up card across analyses (the chart optimiser's split values)."""
        self.double_bj = -1.0 if terms.obo_double else -2.0
        self.double_bust_b = -1.0 if terms.obo_double and terms.refunded else -2.0

    @property
    def dealer(self) -> tuple[npt.NDArray[np.float64], IntArray, npt.NDArray[np.float64], IntArray]:
        """The kernels' ``dealer`` bundle; the memo grows fourfold once half full (call :meth:`fit` after)."""
        return self.d_all, self.memo_keys, self.memo_vals, self.memo_count

    def fit(self) -> None:
        """Grow the dealer memo once it is half full."""
        if 2 * int(self.memo_count[0]) < len(self.memo_keys):
            return
        keys, vals, _ = k.dealer_memo(4 * len(self.memo_keys))
        k.rehash(self.memo_keys, self.memo_vals, keys, vals)
        self.memo_keys, self.memo_vals = keys, vals

    def context(
        self,
        shoe: tuple[IntArray, int, int],
        pay: _Pay,
        ends: tuple[float, float],
        *,
        dec: npt.NDArray[np.int8],
        mask: npt.NDArray[np.bool_],
        want: npt.NDArray[np.bool_] | None = None,
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """:func:`~croupier.analysis._ca_kernels.context_pass` against this up card: (value, stand, hit,
        claim) of every hand of three or more cards in ``mask`` (stand, hit and claim only for ``want``)."""
        want = self.nothing if want is None else want
        ends = (float(ends[0]), float(ends[1]))  # one compiled signature
        out = k.context_pass(self.tab, self.seq, shoe, self.dealer, (self.x, self.peek, pay.pay), ends, dec, mask, want)
        self.fit()
        return out  # type: ignore[no-any-return]

    def normal_b(self, pay: _Pay) -> tuple[float, float, float, float]:
        """A dealer blackjack found at the end: what a stood, doubled, busted and busted doubled hand get."""
        if pay.normal_b is None:
            return -1.0, self.double_bj, -1.0, self.double_bust_b
        return pay.normal_b

    def q(self, r: IntArray) -> float:
        return float(k._q(r, self.x)) if self.x >= 0 else 0.0

    def two_card(
        self,
        shoe: tuple[IntArray, int, int],
        h: int,
        cont: npt.NDArray[np.float64],
        variant: tuple[float, int, float],
        *,
        split_hand: bool,
        want_double: bool,
        pay: _Pay = EV,
    ) -> tuple[float, float, float]:
        """(stand, hit, double) of the two-card hand ``h`` drawn from ``shoe`` (the kernels' bundle: the up
        card's shoe less ``extra_n`` cards of index ``extra_v``)."""
        stakes = _floats((pay.split_b,) * 4 if split_hand else self.normal_b(pay))
        _, bonus_v, share = variant
        s, hit, dbl = k.two_card_values(
            self.tab, self.seq, shoe, self.dealer, (self.x, self.peek, pay.pay), stakes, h, cont, (bonus_v, share),
            want_double,
        )  # fmt: skip
        self.fit()
        return float(s), float(hit), float(dbl)

    def two_card_many(
        self,
        shoe: tuple[IntArray, int, int],
        hands: Sequence[tuple[int, tuple[float, int, float]]],
        cont: npt.NDArray[np.float64],
        *,
        split_hand: bool,
        pay: _Pay = EV,
    ) -> npt.NDArray[np.float64]:
        """:meth:`two_card` (doubling valued) of each (hand, variant) of ``hands`` in one call: rows of (stand,
        hit, double)."""
        stakes = _floats((pay.split_b,) * 4 if split_hand else self.normal_b(pay))
        index = np.array([h for h, _ in hands], np.int64)
        bonus_v = np.array([variant[1] for _, variant in hands], np.int64)
        share = np.array([variant[2] for _, variant in hands], np.float64)
        rows = k.two_card_batch(
            self.tab, self.seq, shoe, self.dealer, (self.x, self.peek, pay.pay), stakes, index, cont, bonus_v,
            share, True,
        )  # fmt: skip
        self.fit()
        return np.asarray(rows)


def _floats(values: Sequence[float]) -> tuple[float, float, float, float]:
    """Four stakes as floats, so that the kernels compile once."""
    a, b, c, d = (float(v) for v in values)
    return a, b, c, d


def _falling(n: float, m: int) -> float:
    out = 1.0
    for i in range(m):
        out *= n - i
    return out


@lru_cache(maxsize=64)
def _patterns(hands: int) -> tuple[dict[int, int], dict[int, int]]:
    """How many orders of second cards end a split with ``h`` hands below the limit (``N[h]``), and how many
    reach the limit with ``k`` other cards dealt first (``M[k]``). A pair card adds a hand while the limit
    allows; the split ends when every hand has its second card."""
    below: dict[int, int] = {}
    at_limit: dict[int, int] = {}
    if hands <= 2:
        return below, {0: 1}
    # state: (hands, waiting, others) -> count
    states = {(2, 2, 0): 1}
    while states:
        nxt: dict[tuple[int, int, int], int] = {}
        for (h, w, o), n in states.items():
            # a pair card
            if h + 1 >= hands:
                at_limit[o] = at_limit.get(o, 0) + n
            else:
                key = (h + 1, w + 1, o)
                nxt[key] = nxt.get(key, 0) + n
            # another card
            if w - 1 == 0:
                below[h] = below.get(h, 0) + n
            else:
                key = (h, w - 1, o + 1)
                nxt[key] = nxt.get(key, 0) + n
        states = nxt
    return below, at_limit


class _Plan:
    """How the player plays against one up card: the decisions on hands of three or more cards (kernel codes
    by hand index, ``dec``) with the values they give (``cont``), and on a split hand's first two cards
    (``roots``, kernel codes by (pair, other card, suit variant)). The box's first two cards are decided in
    :meth:`Analyser.up_card`."""

    def __init__(self, dec: npt.NDArray[np.int8], cont: npt.NDArray[np.float64]) -> None:
        self.dec = dec
        self.cont = cont
        self.roots: dict[tuple[int, int, int], int] = {}
        self.stand: npt.NDArray[np.float64] | None = None
        self.hit: npt.NDArray[np.float64] | None = None
        self.claim: npt.NDArray[np.float64] | None = None
        """For a chart's plan: what standing, hitting and claiming would give each hand (``cont`` is what the
        plan does)."""


class Analyser:
    """The combinatorial analysis of one rules object and shoe."""

    def __init__(self, rules: BlackjackRules, shoe: Sequence[int] | None = None) -> None:
        if not isinstance(rules, BlackjackRules):
            raise InvalidRules([f"rules must be BlackjackRules, not {type(rules).__name__}"])
        self.rules = rules
        self.terms = _Terms.of(rules)
        self.shoe: Composition = decks(rules.decks) if shoe is None else composition(shoe)
        if sum(self.shoe) < 8:
            raise InvalidRules([f"a shoe of {sum(self.shoe)} cards is too small for a round (at least 8)"])
        self._ups: dict[int, _UpCard] = {}

    def up(self, up: int) -> _UpCard:
        if up not in self._ups:
            self._ups[up] = _UpCard(self.terms, self.shoe, up)
        return self._ups[up]

    # -- the split ---------------------------------------------------------------------------------------------

    def split_weights(
        self, uc: _UpCard, pair: int, pair_cards: float | None = None
    ) -> list[tuple[IntArray, list[float]]]:
        """The split of a pair of value ``pair`` against ``uc``'s up card as a linear sum (see the module's
        docstring): for each number ``n`` of further pair cards taken out, the shoe the split hands draw from
        and the weight of each second card (value 1-10, index 0-9) of a split hand drawn from it. The split's
        value is the sum over ``n`` and the second card of weight times the value of the split hand (pair,
        card), plus the dealer-blackjack branch (:meth:`split_value`). Empty if the shoe holds no pair."""
        t = self.terms
        p = pair - 1
        limit = t.hands if (pair != 1 or t.resplit_aces) else 2
        shoe_after = uc.base.copy()
        shoe_after[p] -= 2
        if shoe_after[p] < 0:
            return []
        pairs_left: float = int(shoe_after[p]) if pair_cards is None else pair_cards
        total_left = int(shoe_after.sum())
        most = min(max(2 * limit - 4, 0), int(pairs_left))
        pf = [_falling(pairs_left, n) / _falling(total_left, n) for n in range(most + 1)]
        c_other = [0.0] * (most + 1)
        c_any = [0.0] * (most + 1)
        below, at_limit = _patterns(limit)
        for h, count in below.items():
            for j in range(h):
                n = h - 2 + j
                if n <= most:
                    c_other[n] += count * h * comb(h - 1, j) * (-1) ** j * pf[n]
        a = limit - 2
        for others, count in at_limit.items():
            for j in range(others + 1):
                n = a + j
                if n > most:
                    continue
                if j < others:
                    c_other[n] += count * others * comb(others - 1, j) * (-1) ** j * pf[n]
                c_any[n] += count * (limit - others) * comb(others, j) * (-1) ** j * pf[n]
        out: list[tuple[IntArray, list[float]]] = []
        for n in range(most + 1):
            base = uc.base.copy()
            base[p] -= 1 + n  # the other split card and n more pair cards
            shoe_n = shoe_after.copy()
            shoe_n[p] -= n
            total_n = total_left - n
            weights = [0.0] * 10
            for o in range(10):
                if shoe_n[o] <= 0:
                    continue
                weight = shoe_n[o] / total_n
                if o == p:
                    same_rank = (pairs_left - n) / total_n
                    weights[o] = c_other[n] * (weight - same_rank) + c_any[n] * weight
                else:
                    weights[o] = (c_other[n] + c_any[n]) * weight
            out.append((base, weights))
        return out

    def split_blackjack(self, uc: _UpCard, pair: int, pay: _Pay = EV) -> float:
        """What a split round gives once for a dealer blackjack found at the end (no peek): the original bet
        (BJ 16.6), weighted by its chance."""
        if uc.peek or uc.x < 0:
            return 0.0
        shoe_after = uc.base.copy()
        shoe_after[pair - 1] -= 2
        return float(pay.split_bj * shoe_after[uc.x] / shoe_after.sum())

    def split_value(
        self, uc: _UpCard, pair: int, plan: _Plan, pay: _Pay = EV, pair_cards: float | None = None
    ) -> float:
        """The exact value of splitting a pair of value ``pair`` against ``uc``'s up card, every split hand
        played by ``plan`` (see the module's docstring), with the dealer-blackjack branch without a hole card.

        ``pair_cards``: for ten-value cards split by rank (BJ 16 Reading), how many cards of the pair's rank
        are left after the pair; the other ten-value cards then give a split hand its second card without a
        resplit."""
        parts = self.split_weights(uc, pair, pair_cards)
        if not parts:
            return -np.inf
        table = uc.table
        roots = [
            table.of((pair, other))
            for other in range(1, 11)
            if pair != 1 and k.D_HIT in (plan.roots.get((pair, other, 0)), plan.roots.get((pair, other, 1)))
        ]
        reach = k.mark_reach(uc.tab, plan.dec, np.array(roots, np.int64))
        total = 0.0
        for n, (base, weights) in enumerate(parts):
            shoe = (base, pair - 1, n + 1)
            val, _, _, _ = uc.context(shoe, pay, (pay.split_b, pay.split_b), dec=plan.dec, mask=reach)
            jobs = [
                (other, i, variant)
                for other in range(1, 11)
                if weights[other - 1] != 0.0
                for i, variant in enumerate(_variants((pair, other), self.terms))
            ]
            rows = uc.two_card_many(
                shoe, [(table.of((pair, other)), variant) for other, _, variant in jobs], val, split_hand=True, pay=pay
            )
            for (other, i, variant), (s, hit, dbl) in zip(jobs, rows, strict=True):
                decision = k.D_STAND if pair == 1 else plan.roots[(pair, other, i)]  # split aces: one card
                value = s if decision == k.D_STAND else hit if decision == k.D_HIT else dbl
                total += weights[other - 1] * variant[0] * value
        return total + self.split_blackjack(uc, pair, pay)

    # -- plans -----------------------------------------------------------------------------------------------------

    def _two_card_values(
        self, uc: _UpCard, cont: npt.NDArray[np.float64], pay: _Pay = EV
    ) -> dict[tuple[int, int, int], tuple[float, float, float]]:
        table = uc.table
        jobs = [
            ((a, b, i), table.of((a, b)), variant)
            for a in range(1, 11)
            for b in range(a, 11)
            if not (table.hc[table.of((a, b))] > uc.base).any()
            for i, variant in enumerate(_variants((a, b), self.terms))
        ]
        rows = uc.two_card_many(
            (uc.base, 0, 0), [(h, variant) for _, h, variant in jobs], cont, split_hand=False, pay=pay
        )
        return {key: (float(s), float(hit), float(dbl)) for (key, _, _), (s, hit, dbl) in zip(jobs, rows, strict=True)}

    def _may_double_split(self, pair: int, other: int) -> bool:
        t = self.terms
        return t.das and pair != 1 and (t.double_any or pair + other == 11)

    def cd_plan(self, uc: _UpCard) -> tuple[_Plan, dict[tuple[int, int, int], tuple[float, float, float]]]:
        """The composition-dependent plan: the best decision for each composition, reused after splits."""
        plan = _Plan(uc.dec, uc.best)
        values = self._two_card_values(uc, uc.best)
        for (a, b, i), (s, hit, dbl) in values.items():
            for pair, other in ((a, b), (b, a)):
                options = {k.D_STAND: s, k.D_HIT: hit}
                if self._may_double_split(pair, other):
                    options[k.D_DOUBLE] = dbl
                plan.roots[(pair, other, i)] = max(options, key=lambda d: options[d])
        return plan, values

    def chart_plan(
        self, uc: _UpCard, chart: Chart, *, full: bool = False
    ) -> tuple[_Plan, dict[tuple[int, int, int], tuple[float, float, float]]]:
        """The plan of a total-dependent chart, and the values of the first two cards played by it; with
        ``full``, what standing, hitting and claiming would give every hand too (the chart optimiser's)."""
        table = uc.table
        up = uc.up
        soft = table.ace & (table.hard <= 11)
        total = np.where(soft, table.hard + 10, table.hard)
        hard_col, soft_col = (
            (chart.hard_multi[:, up], chart.soft_multi[:, up])
            if chart.hard_multi is not None and chart.soft_multi is not None
            else (chart.hard[:, up], chart.soft[:, up])
        )
        code = np.where(soft, soft_col[np.minimum(total, 21)], hard_col[np.minimum(total, 21)])
        dec = np.where(np.isin(code, (HIT, DOUBLE_HIT)) & (total < 21), k.D_HIT, k.D_STAND).astype(np.int8)
        if uc.claim_ok:
            dec[(table.ncards == 5) & (total <= chart.five_card[up])] = k.D_CLAIM
        dec[table.ncards < 3] = -1
        everything = np.ones(len(table.hc), np.bool_)
        cont, stand, hit, claim = uc.context(
            (uc.base, 0, 0), EV, (-1.0, -1.0), dec=dec, mask=everything, want=everything if full else None
        )
        plan = _Plan(dec, cont)
        plan.stand, plan.hit, plan.claim = stand, hit, claim
        for pair in range(1, 11):
            for other in range(1, 11):
                for i in range(2):
                    answer = chart.decide(
                        [pair, other],
                        up,
                        can_double=self._may_double_split(pair, other),
                        can_split=False,
                        can_surrender=False,
                        can_claim=False,
                    )
                    plan.roots[(pair, other, i)] = {"stand": k.D_STAND, "hit": k.D_HIT, "double": k.D_DOUBLE}[answer]
        return plan, self._two_card_values(uc, cont)

    # -- the round -------------------------------------------------------------------------------------------------

    def analyse(self, chart: Chart | None = None) -> Analysis:
        """The round's value played composition-dependently, or by ``chart``."""
        started = time.perf_counter()
        total_cards = sum(self.shoe)
        by_up = []
        ev = 0.0
        ups = [up for up in range(1, 11) if self.shoe[up - 1] > 0]
        for up, result in zip(ups, self.per_up_card(lambda up: self.up_card(up, chart), ups), strict=True):
            n_up = self.shoe[up - 1]
            result.probability = n_up / total_cards
            by_up.append(result)
            ev += result.probability * result.ev
        strategy: Strategy = "cd" if chart is None else "td"
        return Analysis(self.rules, self.shoe, strategy, ev, by_up, time.perf_counter() - started, chart)

    def per_up_card(self, work: Callable[[int], T], ups: Sequence[int]) -> list[T]:
        """``work`` for each up card, the up cards shared among :data:`THREADS` threads (the kernels run without
        the GIL; each up card's state is its own), the results in the order of ``ups``."""
        _hand_table()
        for up in ups:
            _dealer_sequences(up, self.terms.soft17)
        if THREADS < 2 or len(ups) < 2:
            return [work(up) for up in ups]
        with ThreadPoolExecutor(max_workers=THREADS) as pool:
            return list(pool.map(work, ups))

    def results(self, analysis: Analysis) -> dict[str, float]:
        """The chance that the box wins, pushes or loses a round played as ``analysis`` played it, as the
        streak bet counts results (BJ 13.5: blackjack, even money, the five-card claim and the special bonus
        win; surrender loses). Exact for rounds without a split; a split round's result (BJ 16.7: more hands
        won than lost) is taken from two hands with the split hands' exact chances of each result against each
        dealer outcome, independent once the dealer's outcome is known — the one approximation, checked by
        simulation (:mod:`croupier.analysis.simulate`)."""
        ups = [result.up for result in analysis.by_up]
        by_up = {result.up: result for result in analysis.by_up}
        parts = self.per_up_card(lambda up: self._up_card_results(by_up[up], analysis.chart), ups)
        win = sum(part[0] for part in parts)
        loss = sum(part[1] for part in parts)
        return {"win": float(win), "push": float(1 - win - loss), "loss": float(loss)}

    def _up_card_results(self, result: UpCardResult, chart: Chart | None) -> tuple[float, float]:
        """The chance that the box wins and loses, against one up card (weighted by its chance)."""
        everything = np.ones(len(_hand_table().hc), np.bool_)
        win = loss = 0.0
        uc = self.up(result.up)
        plan, _ = self.cd_plan(uc) if chart is None else self.chart_plan(uc, chart)
        base = uc.base
        left = int(base.sum())
        per_pay: list[dict[tuple[int, int, int], float]] = []
        for pay in (WIN, LOSS):
            stand_b, _, bust_b, _ = uc.normal_b(pay)
            cont, _, _, _ = uc.context((base, 0, 0), pay, (stand_b, bust_b), dec=plan.dec, mask=everything)
            values = self._two_card_values(uc, cont, pay)
            chosen: dict[tuple[int, int, int], float] = {}
            for (a, b), cases in result.cases.items():
                for i, (_, _, _, choice) in enumerate(cases):
                    if choice != "split":
                        options = self.first_options(uc, plan, values, (a, b), splits={}, pay=pay, allow_split=False)
                        chosen[(a, b, i)] = options[choice]
            per_pay.append(chosen)
        for (a, b), cases in result.cases.items():
            ways = base[a - 1] * (base[a - 1] - 1) if a == b else 2 * base[a - 1] * base[b - 1]
            prob = result.probability * ways / (left * (left - 1))
            for i, (weight, _, pair_cards, choice) in enumerate(cases):
                if choice == "split":
                    box_win, box_loss = self._split_result(uc, a, plan, pair_cards)
                    win += prob * weight * box_win
                    loss += prob * weight * box_loss
                else:
                    win += prob * weight * per_pay[0][(a, b, i)]
                    loss += prob * weight * per_pay[1][(a, b, i)]
        return win, loss

    def _split_result(
        self, uc: _UpCard, pair: int, plan: _Plan, pair_cards: float | None = None
    ) -> tuple[float, float]:
        """The chance that a split box wins and loses (BJ 13.5.5: more hands won than lost): the exact chance of
        each number of hands, and each hand's exact chances of each result against each dealer outcome,
        combined as if the hands were independent once the dealer's outcome is known (the dealer is what ties
        them together)."""
        shoe = uc.base.copy()
        shoe[pair - 1] -= 2
        q = uc.q(shoe)
        counts = self._hand_counts(pair, shoe, pair_cards)
        dealer = k.dealer_dist(shoe, uc.seq)
        noted = dealer[:6] / dealer[:6].sum()  # the dealer's outcome, given no blackjack
        by_outcome = [
            [self.split_value(uc, pair, plan, _split_hand_pay(*counts, outcome), pair_cards) for counts in _ONE_HOT]
            for outcome in range(6)
        ]
        free_win = self.split_value(uc, pair, plan, _split_hand_pay(1, 0, 0, None), pair_cards)
        free_loss = self.split_value(uc, pair, plan, _split_hand_pay(0, 0, 1, None), pair_cards)
        hands = sum(sum(row) for row in by_outcome) + free_win + free_loss
        win = loss = 0.0
        for o in range(6):
            if noted[o] <= 0:
                continue
            w = by_outcome[o][0] / (hands * noted[o]) + free_win / hands
            p = by_outcome[o][1] / (hands * noted[o])
            lose = by_outcome[o][2] / (hands * noted[o]) + free_loss / hands
            norm = w + p + lose
            w, p, lose = w / norm, p / norm, lose / norm
            for hands_dealt, chance in counts.items():
                box_win, box_loss = _majority(hands_dealt, w, p, lose)
                win += noted[o] * chance * box_win
                loss += noted[o] * chance * box_loss
        return (1 - q) * win, (1 - q) * loss + q

    def _hand_counts(self, pair: int, shoe: IntArray, pair_cards: float | None) -> dict[int, float]:
        """The chance that a split of ``pair`` ends with each number of hands (the player resplitting whenever
        allowed), ``shoe`` being what is left after the pair and the up card."""
        limit = self.terms.hands if (pair != 1 or self.terms.resplit_aces) else 2
        pairs = float(shoe[pair - 1]) if pair_cards is None else pair_cards
        total = float(shoe.sum())
        below, _ = _patterns(limit)
        out: dict[int, float] = {}
        for h, orders in below.items():
            out[h] = orders * _falling(pairs, h - 2) * _falling(total - pairs, h) / _falling(total, 2 * h - 2)
        out[limit] = max(0.0, 1.0 - sum(out.values()))
        return out

    def first_options(
        self,
        uc: _UpCard,
        plan: _Plan,
        values: dict[tuple[int, int, int], tuple[float, float, float]],
        cards: tuple[int, int],
        *,
        splits: dict[tuple[int, float | None], float],
        pay: _Pay = EV,
        allow_split: bool = True,
        pair_cards: float | None = None,
    ) -> dict[str, float]:
        """The value of every first decision the rules allow on the box's first two cards ``a``, ``b``
        (including the dealer-blackjack branch under the peek). ``allow_split`` and ``pair_cards`` say whether
        two ten-value cards are a pair by rank and how many of that rank are left (:meth:`ten_pair_cases`)."""
        t = self.terms
        up = uc.up
        a, b = cards
        r = uc.base - uc.table.hc[uc.table.of((a, b))]
        q = uc.q(r)
        if (a, b) == (1, 10):
            options = {"keep": pay.keep[0] * (1 - q) + pay.keep[1] * q}
            if up == 1 or (up == 10 and t.even_money_ten):
                options["even_money"] = pay.even_money
            return options
        options = {"stand": 0.0, "hit": 0.0}
        for i, variant in enumerate(_variants((a, b), t)):
            s, hit, dbl = values[(a, b, i)]
            options["stand"] += variant[0] * s
            options["hit"] += variant[0] * hit
            if t.double_any or a + b == 11:
                options["double"] = options.get("double", 0.0) + variant[0] * dbl
        if t.surrender and up != 1:
            options["surrender"] = float(k._terminal(pay.surrender, pay.surrender, q, uc.peek))
        if a == b and uc.base[a - 1] >= 2 and allow_split:
            if a == 10 and t.by_rank and pair_cards is None:
                pair_cards = self.shoe[9] / 4 - 2  # the usual case: the up card is not of the pair's rank
            key = (a, pair_cards)
            if key not in splits:
                splits[key] = self.split_value(uc, a, plan, pay, pair_cards)
            options["split"] = splits[key]
        if uc.peek:
            options = {name: v + pay.peek_bj * q for name, v in options.items()}  # the peeked blackjack
        return options

    def up_card(self, up: int, chart: Chart | None = None) -> UpCardResult:
        """The round's value against one up card."""
        t = self.terms
        uc = self.up(up)
        base = uc.base
        left = int(base.sum())
        result = UpCardResult(up=up, probability=0.0, ev=0.0)
        plan, values = self.cd_plan(uc) if chart is None else self.chart_plan(uc, chart)
        splits: dict[tuple[int, float | None], float] = {}
        ev = 0.0
        for a in range(1, 11):
            for b in range(a, 11):
                if (a, b, 0) not in values:
                    continue
                ways = base[a - 1] * (base[a - 1] - 1) if a == b else 2 * base[a - 1] * base[b - 1]
                prob = ways / (left * (left - 1))
                if prob == 0:
                    continue
                value = 0.0
                for weight, allow, pair_cards in self.ten_pair_cases(a, b, up):
                    options = self.first_options(
                        uc, plan, values, (a, b), splits=splits, allow_split=allow, pair_cards=pair_cards
                    )
                    choice = self._choose(uc, chart, a, b, options)
                    value += weight * options[choice]
                    result.cases.setdefault((a, b), []).append((weight, allow, pair_cards, choice))
                    if allow:  # the decision shown for the pair is the one on a pair
                        result.decisions[(a, b)] = choice
                        result.values[(a, b)] = options
                q = uc.q(base - uc.table.hc[uc.table.of((a, b))])
                if up == 1 and (a, b) != (1, 10) and chart is None and 3 * q - 1 > 0:
                    value += t.insurance_limit * (3 * q - 1)  # insure when it pays (BJ 12)
                ev += prob * value
        if up == 1:
            result.insurance = 3 * uc.q(base) - 1
        result.ev = ev
        return result

    def ten_pair_cases(self, a: int, b: int, up: int) -> list[tuple[float, bool, float | None]]:
        """(probability, a pair?, cards of the pair's rank left) for the box's first two cards: two ten-value
        cards are a pair only when of one rank (BJ 16 Reading, ``split_pair_by = rank``); the ranks are
        exchangeable, so a rank holds a quarter of the shoe's ten-value cards, and an up card of the same
        rank leaves one fewer."""
        if (a, b) != (10, 10) or not self.terms.by_rank:
            return [(1.0, True, None)]
        tens = self.shoe[9]
        rank = tens / 4
        if up != 10:
            same = (rank - 1) / (tens - 1)
            return [(same, True, max(rank - 2, 0.0)), (1 - same, False, None)]
        with_up = (rank - 1) / (tens - 1) * (rank - 2) / (tens - 2)
        without_up = (1 - (rank - 1) / (tens - 1)) * (rank - 1) / (tens - 2)
        return [
            (with_up, True, max(rank - 3, 0.0)),
            (without_up, True, max(rank - 2, 0.0)),
            (1 - with_up - without_up, False, None),
        ]

    def _choose(self, uc: _UpCard, chart: Chart | None, a: int, b: int, options: dict[str, float]) -> str:
        if chart is None:
            return max(options, key=lambda name: options[name])
        if (a, b) == (1, 10):
            return "even_money" if "even_money" in options and chart.even_money[uc.up] else "keep"
        answer = chart.decide(
            [a, b],
            uc.up,
            can_double="double" in options,
            can_split="split" in options,
            can_surrender="surrender" in options,
            can_claim=False,
        )
        return answer


def analyse(rules: BlackjackRules, shoe: Sequence[int] | None = None, strategy: Strategy = "cd") -> Analysis:
    """The exact expected value of a round per unit of the initial bet (see the module's docstring)."""
    if strategy == "cd":
        return Analyser(rules, shoe).analyse()
    if strategy == "td":
        from croupier.analysis.basic_strategy import basic_strategy

        analyser = Analyser(rules, shoe)
        return analyser.analyse(basic_strategy(rules, shoe, analyser))
    raise InvalidRules([f"strategy must be 'cd' or 'td', not {strategy!r}"])


def chart_value(rules: BlackjackRules, chart: Chart, shoe: Sequence[int] | None = None) -> float:
    """The exact expected value of a round played by ``chart`` (insurance declined)."""
    return Analyser(rules, shoe).analyse(chart).ev


RULES_NOT_READ: dict[str, str] = {
    "boxes": "the other boxes' cards are unseen by the box analysed: every round is off the top of the shoe",
    "dealing_device": "a dealing box's early hole card without the peek values as no hole card; its one deck is decks",
    "cards_behind_cut": "every round is analysed off the top of a full shoe",
    "max_boxes_per_player": "who bets on the boxes changes no card",
    "burn_after_shuffle": "a card burned unseen from a shuffled shoe changes no chance",
    "burn_each_round": "a card burned unseen from a shuffled shoe changes no chance",
    "burn_before_dealer_second_card": "a card burned unseen from a shuffled shoe changes no chance",
    "side_bets_offered": "the main bet only (the side bets: side_bets.py, first_two_cards.py)",
    "one_side_bet_per_box": "the main bet only",
    "any_pair_after_split": "the main bet only",
    "sevens_third_card": "the main bet only",
    "sevens_mixed_triple": "the main bet only",
    "paytables": "the main bet only: the side bets' odds",
    "split_after_declining": "the player resplits whenever allowed, and a pair not split first has no later split",
    "box_control": "who decides for the box changes no card; the play is the analysis' own",
    "max_bettors_per_box": "who bets on the box changes no card",
    "chip_unit": "values are per unit of the original bet",
    "min_bet": "values are per unit of the original bet",
    "max_bet": "values are per unit of the original bet",
}
"""The options of :class:`BlackjackRules` the analysis does not read, each with why it does not change what it
computes (``tests/analysis/test_rules_coverage.py`` checks that every other option is read)."""
