"""A Monte Carlo kernel for one box's main bet (issue 4): numba-compiled rounds that agree card for card with
the blackjack engine, and the simulations built on them.

One box, one bettor, an original stake of two chips (the smallest main bet, so that 3 to 2, surrender and the
five-card payment are whole, RULES.md "Money and table limits"), played by a :class:`~croupier.analysis.chart.
Chart`: insurance always declined (BJ 12), even money as the chart says (BJ 10.3), no side bets. The kernel
follows :class:`~croupier.blackjack.round.BlackjackRound` step for step:

* the deal of BJ 5.2 — box, dealer's up card, box, and the hole card only in procedure 3 or with a dealing
  box; the peek only in procedure 3 with ``peek``;
* the play of BJ 6 and 15-19 in the engine's order — a split hand gets its second card when its turn comes,
  a resplit hand is played before the hands split earlier, the legal actions are exactly the engine's
  (``_play_options``) and the chart answers as :meth:`Chart.decide` does, standing where its answer is not
  legal (a split ace that may only be split again or stand);
* the dealer of BJ 6.1/6.6 and 5.2: without a hole card the second card (after the optional burn of BJ 4.2)
  is dealt only when some stake is still open, and the dealer draws on only when a hand stands;
* the settlement summary and "Original bet only" of RULES.md, and the box's streak result (BJ 13.5.5-13.5.6).

Cards are integer codes ``4 * rank + suit`` (rank 0 = ace … 12 = king in :data:`~croupier.primitives.cards.
RANKS` order, suit in :data:`~croupier.primitives.cards.SUITS` order): ranks decide pairs (BJ 16) and the
three 7s, suits the suited 6-7-8 (BJ 15). :func:`play_cards` plays one given order; :func:`simulate` deals
every round from a freshly shuffled full shoe (a continuous shuffler, BJ 2 Reading); :func:`simulate_shoe`
deals successive rounds from one shoe to the cut card (BJ 2.2), with the burns of BJ 4.

The compiled functions are cached on disk (``cache=True``): the first call in a fresh checkout compiles for a few
seconds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from croupier.analysis import _sim_kernels as sk
from croupier.analysis._sim_kernels import I8, I64, MAX_CARDS, PATH_NAMES, RESULTS, STAKE
from croupier.analysis.chart import DOUBLE_HIT, DOUBLE_STAND, HIT, STAND, Chart
from croupier.blackjack.operations import Decision
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import (
    BlackjackRules,
    BurnAfterShuffle,
    BustedStakes,
    DealerSoft17,
    DealingDevice,
    DoubleOn,
    SplitPairBy,
)
from croupier.errors import InvalidInput, InvalidRules
from croupier.primitives.cards import RANKS, SUITS, Card, deck

# == the Python side =========================================================================================


def card_code(card: Card) -> int:
    """The kernel's code of a card: ``4 * rank + suit``."""
    return 4 * _RANK_INDEX[card.rank] + _SUIT_INDEX[card.suit]


_RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}
_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}
CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for rank in RANKS for suit in SUITS)
"""The card of each kernel code."""


def encode_rules(rules: BlackjackRules) -> I64:
    """The options the kernel plays by, as the integer vector the compiled functions read."""
    out = np.zeros(sk.R_SIZE, np.int64)
    out[sk.R_PROCEDURE] = rules.procedure
    out[sk.R_HOLE] = rules.has_hole_card
    out[sk.R_PEEK] = rules.dealer_peeks
    out[sk.R_SOFT17] = {
        DealerSoft17.HIT_ACE_SIX: sk.S17_HIT_ACE_SIX,
        DealerSoft17.HIT_ALL: sk.S17_HIT_ALL,
        DealerSoft17.STAND: sk.S17_STAND,
    }[rules.dealer_soft_17]
    out[sk.R_DOUBLE_ANY] = rules.double_on is DoubleOn.ANY_TWO
    out[sk.R_DAS] = rules.double_after_split
    out[sk.R_SPLIT_HANDS] = rules.split_hands_limit
    out[sk.R_RESPLIT_ACES] = rules.resplit_aces
    out[sk.R_PAIR_BY_RANK] = rules.split_pair_by is SplitPairBy.RANK
    out[sk.R_SPLIT_AFTER_DECLINING] = rules.split_after_declining
    out[sk.R_SURRENDER] = rules.surrender
    out[sk.R_FIVE_CARD] = rules.five_card_payment
    out[sk.R_BONUS] = rules.special_bonus
    out[sk.R_EVEN_MONEY_TEN] = rules.even_money_on_ten
    out[sk.R_LOSE_ORIGINAL_DOUBLE] = rules.lose_original_only_on_double
    out[sk.R_BUSTED_LOST] = rules.busted_stakes_on_dealer_blackjack is BustedStakes.LOST
    out[sk.R_BURN_SECOND] = rules.burn_before_dealer_second_card
    return out


def encode_chart(chart: Chart) -> I8:
    """The chart's tables stacked into the one int8 table the compiled functions read."""
    out = np.zeros((sk.T_ROWS, 11), np.int8)
    out[sk.T_HARD : sk.T_HARD + 22] = chart.hard
    out[sk.T_SOFT : sk.T_SOFT + 22] = chart.soft
    out[sk.T_SPLIT : sk.T_SPLIT + 11] = chart.split
    out[sk.T_SUR_HARD : sk.T_SUR_HARD + 22] = chart.surrender_hard
    out[sk.T_SUR_SOFT : sk.T_SUR_SOFT + 22] = chart.surrender_soft
    out[sk.T_SUR_PAIR : sk.T_SUR_PAIR + 11] = chart.surrender_pair
    out[sk.T_FIVE] = chart.five_card
    out[sk.T_EVEN] = chart.even_money
    return out


Composition = Sequence[int] | Sequence[Card]


def shoe_codes(rules: BlackjackRules, composition: Composition | None = None) -> I64:
    """The codes of a full shoe: ``rules.decks`` decks, or ``composition`` — the shoe's cards themselves, or
    ten counts by value (ace, 2-9, ten-values; dealer.py's composition), each value's cards spread in turn
    over its ranks and the four suits (so the suits and the ranks of the ten-values are as even as the counts
    allow)."""
    if composition is None:
        cards = deck() * rules.decks
    elif all(isinstance(c, Card) for c in composition):
        cards = [c for c in composition if isinstance(c, Card)]
    else:
        counts = [n for n in composition if isinstance(n, int) and not isinstance(n, bool) and n >= 0]
        if len(counts) != 10 or len(counts) != len(composition):
            raise InvalidRules(
                [f"a composition is the shoe's cards or ten counts (ace, 2-9, tens), not {list(composition)!r}"]
            )
        cards = []
        for value, n in zip(range(1, 11), counts, strict=True):
            ranks = [rank for rank in RANKS if rank.value_bj == value]
            size = len(ranks)
            kinds = [Card(ranks[k % size], SUITS[(k % size + k // size) % 4]) for k in range(4 * size)]
            cards += [kinds[k % len(kinds)] for k in range(n)]
    if len(cards) < 4:
        raise InvalidRules([f"a shoe of {len(cards)} cards cannot deal a round"])
    return np.array([card_code(c) for c in cards], np.int64)


def _workspace(rules: BlackjackRules) -> tuple[I64, I64, I64]:
    """The kernel's room for a round: hand states, hand cards, dealer cards."""
    hands = rules.split_hands_limit + 1
    return (
        np.zeros((hands, sk.H_FIELDS), np.int64),
        np.zeros((hands, MAX_CARDS), np.int64),
        np.zeros(MAX_CARDS, np.int64),
    )


@dataclass(frozen=True)
class RoundOutcome:
    """One round of one box, as the kernel played it."""

    net: Fraction
    """The main bet's net per unit of the original stake."""
    result: str
    """The box's result for the streak bet: ``"win"``, ``"push"`` or ``"loss"`` (BJ 13.5)."""
    cards_used: int
    """Cards taken from the given order, the burn before the dealer's second card included."""
    paths: frozenset[str]
    """What the round went through, among :data:`PATH_NAMES`."""


def _paths(flags: int) -> frozenset[str]:
    return frozenset(name for bit, name in enumerate(PATH_NAMES) if flags >> bit & 1)


def play_orders(rules: BlackjackRules, chart: Chart, orders: npt.ArrayLike) -> I64:
    """Play one round from the start of each row of ``orders`` (card codes; rows padded with -1 after their
    last card). Returns one row per order: net in chips on a stake of :data:`STAKE`, result code (0 win,
    1 push, 2 loss), cards used, 1 if the order ran out, the path flags (bits of :data:`PATH_NAMES`)."""
    codes = np.ascontiguousarray(orders, dtype=np.int64)
    if codes.ndim != 2:
        raise InvalidInput(f"orders must be a table of card codes, one order a row, not of shape {codes.shape}")
    if codes.size and (codes.max() >= 52 or codes.min() < -1):
        raise InvalidInput("a card code is 4 × rank + suit, from 0 to 51 (-1 pads a row)")
    lengths = np.where((codes < 0).any(axis=1), (codes < 0).argmax(axis=1), codes.shape[1]).astype(np.int64)
    out = np.zeros((codes.shape[0], 5), np.int64)
    hs, hc, dc = _workspace(rules)
    sk._play_orders(encode_rules(rules), encode_chart(chart), codes, lengths, out, hs, hc, dc)
    return out


def play_cards(rules: BlackjackRules, chart: Chart, cards: Sequence[Card]) -> RoundOutcome:
    """Play one round from ``cards`` in order: the deal starts with the first card (the table's burns before
    the round are not part of it; the burn before the dealer's second card is)."""
    row = play_orders(rules, chart, np.array([[card_code(c) for c in cards]], np.int64))[0]
    if row[3]:
        raise InvalidInput(f"{len(cards)} cards are not enough to finish the round", rule="BJ 5")
    return RoundOutcome(Fraction(int(row[0]), STAKE), RESULTS[row[1]], int(row[2]), _paths(int(row[4])))


@dataclass(frozen=True)
class SimulationResult:
    """The totals of a simulation of one box's main bet, per unit of the original stake."""

    rounds: int
    mean: float
    """Mean net per round."""
    std_error: float
    """Standard error of :attr:`mean`."""
    wins: int
    pushes: int
    losses: int
    """The box's streak results (BJ 13.5): wins, pushes and losses."""
    net_sum: float
    net_sum_squares: float
    """Sum of the nets and of their squares (exact: nets are multiples of ½)."""
    transitions: tuple[tuple[int, int, int], ...]
    """Counts of consecutive results: ``transitions[a][b]`` rounds with result ``b`` after a round with
    result ``a`` (0 win, 1 push, 2 loss)."""
    cards: int
    """Cards dealt (burns within rounds included)."""
    shoes: int
    """Shuffles (every round in :func:`simulate`)."""
    restocks: int = 0
    """Rounds in which the shoe ran out and the discards were shuffled back in (:func:`simulate_shoe`)."""

    @property
    def results(self) -> dict[str, int]:
        """The streak results by name."""
        return {"win": self.wins, "push": self.pushes, "loss": self.losses}


Progress = Callable[[int, int], None]
"""Told (rounds done, rounds in all) after every chunk."""

CHUNK = 1_000_000
"""Rounds per compiled call between progress reports."""


def _result(acc: I64, rounds: int) -> SimulationResult:
    s, q = int(acc[sk.C_NET]), int(acc[sk.C_SQUARES])
    mean = s / STAKE / rounds if rounds else 0.0
    if rounds > 1:
        var = (q / STAKE**2 - rounds * mean * mean) / (rounds - 1)
        se = math.sqrt(max(var, 0.0) / rounds)
    else:
        se = math.nan
    t = [int(x) for x in acc[sk.C_TRANSITIONS : sk.C_TRANSITIONS + 9]]
    return SimulationResult(
        rounds=rounds,
        mean=mean,
        std_error=se,
        wins=int(acc[sk.C_WINS + sk.WIN]),
        pushes=int(acc[sk.C_WINS + sk.PUSH]),
        losses=int(acc[sk.C_WINS + sk.LOSS]),
        net_sum=s / STAKE,
        net_sum_squares=q / STAKE**2,
        transitions=((t[0], t[1], t[2]), (t[3], t[4], t[5]), (t[6], t[7], t[8])),
        cards=int(acc[sk.C_CARDS]),
        shoes=int(acc[sk.C_SHOES]),
        restocks=int(acc[sk.C_RESTOCKS]),
    )


def _check(rounds: int, seed: int) -> None:
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        raise InvalidRules([f"rounds {rounds!r} must be a whole number ≥ 0"])
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
        raise InvalidRules([f"seed {seed!r} must be a whole number from 0 to 2**32 - 1"])


def simulate(
    rules: BlackjackRules,
    chart: Chart,
    rounds: int,
    seed: int,
    *,
    composition: Composition | None = None,
    progress: Progress | None = None,
    chunk: int = CHUNK,
) -> SimulationResult:
    """``rounds`` rounds, each dealt from a freshly shuffled full shoe (``composition``, default
    ``rules.decks`` decks), played by ``chart``. Burns before a round are left out: a card burned from a
    shuffled shoe changes nothing (BJ 2 Reading). The same seed gives the same result whatever ``chunk``."""
    _check(rounds, seed)
    r, tab, shoe = encode_rules(rules), encode_chart(chart), shoe_codes(rules, composition)
    hs, hc, dc = _workspace(rules)
    acc = np.zeros(sk.C_SIZE, np.int64)
    acc[sk.C_PREVIOUS] = -1
    sk._seed(seed)
    done = 0
    while done < rounds:
        k = min(max(chunk, 1), rounds - done)
        if sk._run_continuous(r, tab, shoe, k, acc, hs, hc, dc):
            raise InvalidRules([f"a round needed more than the shoe's {len(shoe)} cards"])
        done += k
        if progress is not None:
            progress(done, rounds)
    return _result(acc, rounds)


def simulate_shoe(
    rules: BlackjackRules,
    chart: Chart,
    rounds: int,
    seed: int,
    *,
    composition: Composition | None = None,
    progress: Progress | None = None,
    chunk: int = CHUNK,
) -> SimulationResult:
    """``rounds`` successive rounds dealt from one shoe as the table deals them (BJ 2, BJ 4): shuffled when
    the cut card (``rules.behind_cut`` cards from the back) came out in the round before, or every round with
    a dealing box or a shuffler; the burns after a shuffle and, if set, before every later round. A shoe that
    runs out mid-round gets its discards shuffled back in and the next round starts a fresh shoe."""
    _check(rounds, seed)
    r, tab, shoe = encode_rules(rules), encode_chart(chart), shoe_codes(rules, composition)
    size = len(shoe)
    behind = rules.behind_cut
    if not 0 < behind < size:
        raise InvalidRules([f"{behind} cards behind the cut card do not fit a shoe of {size} cards (BJ 2.1)"])
    hs, hc, dc = _workspace(rules)
    sh = np.zeros(sk.SH_SIZE, np.int64)
    sh[sk.SH_SHUFFLE_NEXT] = 1
    sh[sk.SH_CUT] = size - behind + 1
    sh[sk.SH_BURN_AFTER_SHUFFLE] = rules.decks if rules.burn_after_shuffle is BurnAfterShuffle.PER_DECK else 1
    sh[sk.SH_BURN_EACH_ROUND] = rules.burn_each_round
    sh[sk.SH_DEVICE] = {DealingDevice.SHOE: 0, DealingDevice.DEALING_BOX: 1, DealingDevice.SHUFFLER: 2}[
        rules.dealing_device
    ]
    scratch = np.zeros(2 * size, np.int64)
    acc = np.zeros(sk.C_SIZE, np.int64)
    acc[sk.C_PREVIOUS] = -1
    sk._seed(seed)
    done = 0
    while done < rounds:
        k = min(max(chunk, 1), rounds - done)
        if sk._run_shoe(r, tab, shoe, sh, k, acc, hs, hc, dc, scratch):
            raise InvalidRules([f"a round needed more than the shoe's {size} cards"])
        done += k
        if progress is not None:
            progress(done, rounds)
    return _result(acc, rounds)


def bare_draws(rules: BlackjackRules, rounds: int, cards: int, seed: int = 1) -> int:
    """A baseline for benchmarks: draw ``cards`` cards over ``rounds`` rounds from freshly shuffled shoes as
    :func:`simulate` does, with no play at all (returns a checksum of the cards)."""
    sk._seed(seed)
    return int(sk._bare(shoe_codes(rules), rounds, cards))


# == the engine's side ======================================================================================


def engine_answer(chart: Chart) -> Callable[[BlackjackRound, Decision], str]:
    """How a bettor playing ``chart`` answers the engine, exactly as the kernel plays: even money as the chart
    says, insurance, new Any Pair stakes and every other offer declined; play by :meth:`Chart.decide` over
    the legal actions, standing where its answer is not among them."""

    def answer(rnd: BlackjackRound, q: Decision) -> str:
        up = rnd.dealer[0].value
        if q.kind == "offer":
            return "even_money" if "even_money" in q.actions and chart.even_money[up] else "decline"
        if q.kind == "follow":
            return "follow"
        if q.kind != "play":
            return "decline"
        hand = rnd.boxes[q.box].hands[q.hand or 0]
        action = chart.decide(
            [c.value for c in hand.cards],
            up,
            can_double="double" in q.actions,
            can_split="split" in q.actions,
            can_surrender="surrender" in q.actions,
            can_claim="claim_five_card" in q.actions,
        )
        return action if action in q.actions else "stand"

    return answer


def basic_chart() -> Chart:
    """A textbook multi-deck basic strategy as a chart, for benchmarks and checks (not optimised for these
    rules: :mod:`croupier.analysis.ca` finds the best chart). Hard: double 9 against 3-6, 10 against 2-9, 11
    against 2-10; stand on 12 against 4-6 and on 13-16 against 2-6. Soft: double 13-14 against 5-6, 15-16
    against 4-6, 17 against 3-6, 18 against 3-6 (else stand against 2, 7, 8); hit soft 18 against 9, ten, ace.
    Split aces and eights always, nines against 2-6 and 8-9, sevens, threes and twos against 2-7, sixes
    against 2-6, fours against 5-6. Surrender hard 15 against a ten and hard 16 against 9 or a ten. Claim the
    five-card payment on 16 or less against 2-6, on 17 or less against 7 up. No even money."""
    ups = range(1, 11)
    hard = np.full((22, 11), STAND, np.int8)
    soft = np.full((22, 11), STAND, np.int8)
    split = np.zeros((11, 11), np.bool_)
    sur_hard = np.zeros((22, 11), np.bool_)
    for up in ups:
        weak = 2 <= up <= 6
        for t in range(4, 22):
            if t <= 8:
                code = HIT
            elif t == 9:
                code = DOUBLE_HIT if 3 <= up <= 6 else HIT
            elif t == 10:
                code = DOUBLE_HIT if 2 <= up <= 9 else HIT
            elif t == 11:
                code = DOUBLE_HIT if up != 1 else HIT
            elif t == 12:
                code = STAND if 4 <= up <= 6 else HIT
            elif t <= 16:
                code = STAND if weak else HIT
            else:
                code = STAND
            hard[t, up] = code
        for t in range(12, 22):
            if t <= 14:
                code = DOUBLE_HIT if 5 <= up <= 6 else HIT
            elif t <= 16:
                code = DOUBLE_HIT if 4 <= up <= 6 else HIT
            elif t == 17:
                code = DOUBLE_HIT if 3 <= up <= 6 else HIT
            elif t == 18:
                code = DOUBLE_STAND if 3 <= up <= 6 else (STAND if up in (2, 7, 8) else HIT)
            else:
                code = STAND
            soft[t, up] = code
        split[1, up] = split[8, up] = True
        split[9, up] = up in (2, 3, 4, 5, 6, 8, 9)
        split[7, up] = split[3, up] = split[2, up] = 2 <= up <= 7
        split[6, up] = weak
        split[4, up] = up in (5, 6)
    sur_hard[15, 10] = True
    sur_hard[16, 9] = sur_hard[16, 10] = True
    five = np.array([0, 17, 16, 16, 16, 16, 16, 17, 17, 17, 17], np.int8)
    return Chart(hard=hard, soft=soft, split=split, surrender_hard=sur_hard, five_card=five)


__all__ = [
    "CARDS",
    "PATH_NAMES",
    "RESULTS",
    "STAKE",
    "RoundOutcome",
    "SimulationResult",
    "bare_draws",
    "basic_chart",
    "card_code",
    "encode_chart",
    "encode_rules",
    "engine_answer",
    "play_cards",
    "play_orders",
    "shoe_codes",
    "simulate",
    "simulate_shoe",
]
