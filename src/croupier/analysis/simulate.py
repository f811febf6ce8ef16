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
from collections.abc import Callable, Mapping, Sequence
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
    SevensMixedTriple,
    SevensThirdCard,
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
    """The chart's tables stacked into the one int8 table the compiled functions read (insurance never taken).
    The kernel plays one entry per total: a chart with entries of its own for hands of three or more cards
    (``basic_strategy(kind="cards")``) is refused rather than played wrongly."""
    if chart.by_cards:
        raise InvalidRules(
            ["the simulation plays charts of one entry per total; a chart by cards (--chart cards) is for the exact "
             "analysis only"]
        )  # fmt: skip
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


def play_tables(counted: Play, others: Play | None = None) -> I64:
    """The kernel's play tables, flattened from ``[who, part, row, up]``: ``counted`` for the counted box and
    ``others`` (default the same chart with no index plays) for every other box. A :data:`Play` is an encoded
    chart, or (at, above, below) index tables."""

    def parts(play: Play) -> tuple[npt.ArrayLike, npt.ArrayLike, npt.ArrayLike]:
        if isinstance(play, tuple):
            return play
        return np.full((sk.T_ROWS, 11), sk.NO_INDEX, np.int64), play, play

    base: Play = np.asarray(counted[1], np.int8) if isinstance(counted, tuple) else counted
    out = np.zeros((2, 3, sk.T_ROWS, 11), np.int64)
    plays: tuple[Play, Play] = (counted, others if others is not None else base)
    for who, play in enumerate(plays):
        for part, table in enumerate(parts(play)):
            out[who, part] = table
    return out.ravel()


def encode_sides(rules: BlackjackRules) -> I64:
    """The side bets' paytable (BJ 14) in chips on a stake of one unit: the unit is the smallest number of chips
    that is a multiple of :data:`STAKE` and of every odds' denominator, so every payment is whole."""
    p = rules.paytables
    odds = [p.any_pair, p.perfect_pairs_perfect, p.perfect_pairs_coloured, p.perfect_pairs_mixed, p.over_under_13,
            p.sevens_two_mixed, p.sevens_two_suited, p.sevens_three_mixed, p.sevens_three_suited]  # fmt: skip
    unit = STAKE
    for o in odds:
        unit = math.lcm(unit, Fraction(o).denominator)
    out = np.zeros(sk.SP_SIZE, np.int64)
    out[sk.SP_STAKE] = unit
    for slot, o in zip(range(sk.SP_ANY_PAIR, sk.SP_SEVENS_THREE_SUITED + 1), odds, strict=True):
        out[slot] = int(Fraction(o) * unit)
    out[sk.SP_MIXED_TRIPLE_500] = rules.sevens_mixed_triple is SevensMixedTriple.PAYS_500
    out[sk.SP_THIRD_ANY] = rules.sevens_third_card is SevensThirdCard.ANY
    return out


RULES_NOT_READ: Mapping[str, str] = {
    "max_boxes_per_player": "the boxes dealt are the setup's; who bets on them changes no card",
    "insurance_limit": "the counted box insures half its stake, which every limit (0.5 to 1) accepts",
    "side_bets_offered": "every side bet is settled on the counted box, offered or not (the house's what-if)",
    "one_side_bet_per_box": "every side bet is settled on the counted box (the house's what-if)",
    "any_pair_after_split": "only the original Any Pair stake is settled; a stake on a split hand is a new bet",
    "box_control": "each box plays by its chart, whoever decides",
    "max_bettors_per_box": "who bets on a box changes no card",
    "chip_unit": "the kernel counts in chips of its own unit (STAKE)",
    "min_bet": "the counter bets in units of the ramp",
    "max_bet": "the counter bets in units of the ramp",
}
"""The options of :class:`BlackjackRules` that the simulation's setup (:func:`encode_rules`, :func:`encode_sides`,
:func:`set_dealing`, :func:`shoe_codes`, :func:`flat_job` and :meth:`~croupier.analysis.tablesim.TableSetup.job`)
does not read, each with why it does not change what the kernel computes (``tests/analysis/test_rules_coverage.py``
checks that every other option is read)."""


Composition = Sequence[int] | Sequence[Card]
Play = I8 | tuple[npt.ArrayLike, npt.ArrayLike, npt.ArrayLike]
"""What a box plays by: an encoded chart, or index tables (count at which each cell's index starts, the cell at
or above it, the cell below it)."""


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


def workspace(rules: BlackjackRules, boxes: int = 1, shoe: I64 | None = None, seed: int = 0, block: int = 0) -> sk.Work:
    """The kernel's working arrays for ``boxes`` boxes dealt from ``shoe`` (a copy; default ``rules.decks``
    decks) with the generator of block ``block`` of ``seed`` (the compiled functions never allocate)."""
    cards = (shoe_codes(rules) if shoe is None else shoe).copy()
    rows = boxes * (rules.split_hands_limit + 1)
    return (
        cards,
        stream(seed, block),
        sk.new_state(0),
        np.zeros(sk.S_SIZE, np.int64),
        np.zeros(sk.N_SIDE, np.int64),
        np.zeros(52, np.int64),
        np.zeros(52, np.int64),
        np.zeros(2 * len(cards) + MAX_CARDS, np.int64),
        np.zeros(rows * sk.H_FIELDS, np.int64),
        np.zeros(rows * MAX_CARDS, np.int64),
        np.zeros(boxes * sk.B_FIELDS, np.int64),
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


def play_table_orders(
    rules: BlackjackRules, play: Play, orders: npt.ArrayLike, *, boxes: int = 1, others: Play | None = None
) -> I64:
    """Play one round of ``boxes`` boxes from the start of each row of ``orders`` (card codes; rows padded with
    -1 after their last card); box 0 plays by ``play``, the others by ``others`` (default the same). Returns
    ``out[k, b]``: box ``b``'s net in chips on a stake of :data:`STAKE`, result code (0 win, 1 push, 2 loss),
    cards used, 1 if the order ran out, path flags (bits of :data:`PATH_NAMES`), insurance net in chips, and the
    nets of one unit on each side bet of :data:`~croupier.analysis._sim_kernels.SIDE_KEYS` (in chips of
    :func:`encode_sides`'s unit)."""
    codes = np.ascontiguousarray(orders, dtype=np.int64)
    if codes.ndim != 2:
        raise InvalidInput(f"orders must be a table of card codes, one order a row, not of shape {codes.shape}")
    if codes.size and (codes.max() >= 52 or codes.min() < -1):
        raise InvalidInput("a card code is 4 × rank + suit, from 0 to 51 (-1 pads a row)")
    lengths = np.where((codes < 0).any(axis=1), (codes < 0).argmax(axis=1), codes.shape[1]).astype(np.int64)
    out = np.zeros((codes.shape[0], boxes, 6 + sk.N_SIDE), np.int64)
    tb = play_tables(play, others)
    sk._play_orders(encode_rules(rules), tb, encode_sides(rules), boxes, codes, lengths, out, workspace(rules, boxes))
    return out


def play_orders(rules: BlackjackRules, chart: Chart, orders: npt.ArrayLike) -> I64:
    """Play one round of one box from the start of each row of ``orders`` (card codes; rows padded with -1
    after their last card). Returns one row per order: net in chips on a stake of :data:`STAKE`, result code
    (0 win, 1 push, 2 loss), cards used, 1 if the order ran out, the path flags (bits of :data:`PATH_NAMES`)."""
    return play_table_orders(rules, encode_chart(chart), orders)[:, 0, :5]


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

BLOCK = 1_000_000
"""Rounds per block of a simulation: block ``k`` of a seed deals from its own xoshiro256++ stream, spawned as
``SeedSequence(seed, spawn_key=(k,))``, and starts a fresh shoe, so a result depends on the seed and the number
of rounds only — not on chunks, progress reports, processes or machines."""


def stream(seed: int, block: int) -> npt.NDArray[np.uint64]:
    """The xoshiro256++ state of block ``block`` of ``seed`` (never all zero)."""
    state = np.asarray(np.random.SeedSequence(seed, spawn_key=(block,)).generate_state(4, np.uint64), np.uint64)
    if not state.any():  # pragma: no cover - a chance of 2**-256
        state[0] = 1
    return state


@dataclass(frozen=True, eq=False)
class TableJob:
    """Everything the compiled table simulation reads, packed (see :mod:`croupier.analysis._sim_kernels`)."""

    rules: I64
    tables: I64
    sides: I64
    config: I64
    tags: I64
    """The count's scaled tag of each card code."""
    ramp: I64
    """Units bet at each count from COUNT_MIN to COUNT_MAX."""
    side_at: I64
    """The count at or above which the counter bets each side bet (NO_INDEX: never)."""
    shoe: I64
    hand_rows: int

    @property
    def fan_shape(self) -> tuple[int, int]:
        """The recorded bankroll paths: paths × points."""
        g = self.config
        points = int(g[sk.G_PATH_ROUNDS]) // max(int(g[sk.G_FAN_STEP]), 1) + 1 if g[sk.G_PATH_ROUNDS] else 1
        return int(g[sk.G_FAN_PATHS]), points


@dataclass(frozen=True, eq=False)
class BlockTotals:
    """The raw totals of some blocks of a simulation (add them with ``+``)."""

    acc: I64
    bins: I64
    """The totals by count: one row per count from COUNT_MIN to COUNT_MAX."""
    fan: I64
    """The first block's recorded bankroll paths (chips of the side unit), one row per path."""

    @property
    def rounds(self) -> int:
        """Rounds dealt."""
        return int(self.acc[sk.C_ROUNDS])

    def __add__(self, other: BlockTotals) -> BlockTotals:
        acc = self.acc + other.acc
        acc[sk.C_PREVIOUS] = -1
        return BlockTotals(acc, self.bins + other.bins, self.fan)


def flat_job(
    rules: BlackjackRules, chart: Chart, *, continuous: bool, composition: Composition | None = None
) -> TableJob:
    """One box played flat by ``chart``, no counting: dealt every round from a freshly shuffled shoe
    (``continuous``) or from one shoe to the cut card as the table deals it (BJ 2, BJ 4)."""
    shoe = shoe_codes(rules, composition)
    g = np.zeros(sk.G_SIZE, np.int64)
    g[sk.G_BOXES] = 1
    g[sk.G_SCALE] = 1
    g[sk.G_WONG_IN] = sk.COUNT_MIN
    g[sk.G_WONG_OUT] = sk.COUNT_MIN
    g[sk.G_SIDE_UNITS] = 1
    set_dealing(g, rules, len(shoe), continuous=continuous, behind=rules.behind_cut)
    return TableJob(
        rules=encode_rules(rules),
        tables=play_tables(encode_chart(chart)),
        sides=encode_sides(rules),
        config=g,
        tags=np.zeros(52, np.int64),
        ramp=np.ones(sk.COUNT_BINS, np.int64),
        side_at=np.full(sk.N_SIDE, sk.NO_INDEX, np.int64),
        shoe=shoe,
        hand_rows=rules.split_hands_limit + 1,
    )


def set_dealing(g: I64, rules: BlackjackRules, size: int, *, continuous: bool, behind: int) -> None:
    """The dealing part of a table's configuration: continuous (a fresh shoe every round: a shuffler, a dealing
    box, or asked for) or dealt to the cut card ``behind`` cards from the back, with the burns of BJ 4."""
    shuffled_each_round = continuous or rules.dealing_device is not DealingDevice.SHOE
    if not shuffled_each_round and not 0 < behind < size:
        raise InvalidRules([f"{behind} cards behind the cut card do not fit a shoe of {size} cards (BJ 2.1)"])
    g[sk.G_CONTINUOUS] = shuffled_each_round
    g[sk.G_CUT] = size - behind + 1
    # A card burned from a freshly shuffled shoe changes nothing (BJ 2 Reading): only a shoe's burns are dealt.
    if not shuffled_each_round:
        g[sk.G_BURN_AFTER_SHUFFLE] = rules.decks if rules.burn_after_shuffle is BurnAfterShuffle.PER_DECK else 1
        g[sk.G_BURN_EACH_ROUND] = rules.burn_each_round


def run_blocks(
    job: TableJob,
    seed: int,
    first: int,
    rounds: int,
    *,
    chunk: int = CHUNK,
    progress: Progress | None = None,
    keep: list[BlockTotals] | None = None,
) -> BlockTotals:
    """``rounds`` rounds of ``job`` from block ``first`` of ``seed`` on (whole blocks of :data:`BLOCK` rounds but
    the last), reporting to ``progress`` after every ``chunk`` rounds or block's end. ``keep`` gets the totals
    being filled, so that a caller interrupted midway still has the chunks finished."""
    acc = np.zeros(sk.C_SIZE, np.int64)
    bins = np.zeros((sk.COUNT_BINS, sk.BN_FIELDS), np.int64)
    fan = np.zeros(job.fan_shape, np.int64)
    scratch_fan = np.zeros(fan.size, np.int64)
    totals = BlockTotals(acc, bins, fan)
    if keep is not None:
        keep.append(totals)
    boxes = int(job.config[sk.G_BOXES])
    # A job that reached a worker through Ray's object store holds read-only arrays, which numba types apart from
    # writable ones: a second specialisation of the kernel, compiled afresh (a minute) in every cold worker. Copies
    # (a few kB) keep the one signature the disk cache already holds.
    rules, tables, sides, config, tags, ramp, side_at = (
        a if a.flags.writeable else a.copy()
        for a in (job.rules, job.tables, job.sides, job.config, job.tags, job.ramp, job.side_at)
    )
    inputs: sk.Job = (rules, tables, sides, config, tags, ramp, side_at)
    done = 0
    block = first
    while done < rounds:
        size = min(BLOCK, rounds - done)
        work = workspace_of(job, boxes, seed, block)
        acc[sk.C_PREVIOUS] = -1
        left = size
        while left:
            k = min(max(chunk, 1), left)
            out: sk.Out = (acc, bins.reshape(-1), fan.reshape(-1) if block == 0 else scratch_fan)
            if sk._run_table(inputs, work, out, k):
                raise InvalidRules([f"a round needed more than the shoe's {len(job.shoe)} cards"])
            left -= k
            done += k
            if progress is not None:
                progress(done, rounds)
        block += 1
    return totals


def workspace_of(job: TableJob, boxes: int, seed: int, block: int) -> sk.Work:
    """The working arrays of block ``block`` of ``job``: a fresh shoe, the block's stream, a table before its
    first round."""
    rows = boxes * job.hand_rows
    size = len(job.shoe)
    return (
        job.shoe.copy(),
        stream(seed, block),
        sk.new_state(int(job.config[sk.G_IRC])),
        np.zeros(sk.S_SIZE, np.int64),
        np.zeros(sk.N_SIDE, np.int64),
        np.zeros(52, np.int64),
        np.zeros(52, np.int64),
        np.zeros(2 * size + MAX_CARDS, np.int64),
        np.zeros(rows * sk.H_FIELDS, np.int64),
        np.zeros(rows * MAX_CARDS, np.int64),
        np.zeros(boxes * sk.B_FIELDS, np.int64),
        np.zeros(MAX_CARDS, np.int64),
    )


def _result(totals: BlockTotals) -> SimulationResult:
    acc, rounds = totals.acc, totals.rounds
    s, q = int(acc[sk.C_FLAT]), int(acc[sk.C_FLAT_SQ])
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
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise InvalidRules([f"seed {seed!r} must be a whole number from 0 to 2**63 - 1"])


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
    job = flat_job(rules, chart, continuous=True, composition=composition)
    return _result(run_blocks(job, seed, 0, rounds, chunk=chunk, progress=progress))


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
    runs out mid-round gets its discards shuffled back in and the next round starts a fresh shoe. Every block
    of :data:`BLOCK` rounds starts a fresh shoe."""
    _check(rounds, seed)
    job = flat_job(rules, chart, continuous=False, composition=composition)
    return _result(run_blocks(job, seed, 0, rounds, chunk=chunk, progress=progress))


def bare_draws(rules: BlackjackRules, rounds: int, cards: int, seed: int = 1, *, cut: int = 0) -> int:
    """A baseline for benchmarks: ``cards`` cards over ``rounds`` rounds drawn as the simulation draws them (the
    same generator and lazy Fisher-Yates; a fresh shoe once ``cut`` cards are out, or every round when ``cut``
    is 0), with no blackjack at all (returns a checksum of the cards)."""
    if rounds <= 0:
        return 0
    return int(sk._bare(shoe_codes(rules), rounds, cards, cut, stream(seed, 0), np.zeros(sk.S_SIZE, np.int64)))


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
    "play_table_orders",
    "shoe_codes",
    "simulate",
    "simulate_shoe",
]
