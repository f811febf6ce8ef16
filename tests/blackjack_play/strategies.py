"""Random valid blackjack tables, bets and legal decisions, for property tests and the soak.

Every generator takes a :class:`Chooser`, so the same code serves hypothesis (:class:`DrawChooser`, which
shrinks) and a plain seeded ``random.Random`` (:class:`RandomChooser`, fast and deterministic, for the soak).

- :func:`make_rules` / :func:`rules_strategy`: valid ``BlackjackRules`` over every option.
- :func:`place_random_bets`: 1-7 boxes with 1-3 bettors each, within every limit of the table (main bets in
  multiples of two chip units, side bets only as offered and as ``one_side_bet_per_box`` allows, streak bets
  with the bettor's own main bet and the main bets that open streaks require).
- :func:`play_round`: answers every pending question uniformly among ``pending.actions`` (insurance with a
  random legal amount), checking on the way that each question has a legal answer.
- :class:`ShoeLedger`, :func:`check_round`: card conservation, money conservation and the bookkeeping
  invariants, checked after each round.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Protocol, TypeVar

from hypothesis import strategies as st

from croupier.blackjack.operations import (
    OFFER_ACTIONS,
    PLAY_ACTIONS,
    Answered,
    BetPlaced,
    Burned,
    CardVoided,
    Dealt,
    Decision,
    HoleCardTurned,
    Shuffled,
)
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import (
    BET_KINDS,
    AnyPairAfterSplit,
    BlackjackPaytable,
    BlackjackRules,
    BurnAfterShuffle,
    BustedStakes,
    DealerSoft17,
    DealingDevice,
    DoubleOn,
    SevensMixedTriple,
    SevensThirdCard,
    SideBet,
    SplitPairBy,
)
from croupier.blackjack.table import BlackjackTable
from croupier.money import DEFAULT_MAX_BET, DEFAULT_MIN_BET, Limit
from croupier.primitives.cards import RANKS, Card
from croupier.primitives.chance import ChanceExhausted, ScriptedSource

T = TypeVar("T")

PLAYERS = ("ana", "bo", "cy", "di", "ed", "fu")
"""The pool of bettors; ``zed`` sits at boxes without betting."""

ALL_ACTIONS = (*PLAY_ACTIONS, *OFFER_ACTIONS, "follow", "any_pair")
"""Every answer a round knows."""

MAX_ANSWERS = 2_000
"""More answers than any round can ask (7 boxes x 3 bettors, split to the limit, hit to 21 on every hand)."""

SIDE_KEYS_BY_KIND: dict[SideBet, tuple[str, ...]] = {
    SideBet.ANY_PAIR: ("any_pair",),
    SideBet.SEVENS: ("sevens",),
    SideBet.OVER_UNDER_13: ("over_13", "under_13"),
    SideBet.PERFECT_PAIRS: ("perfect_pairs",),
}


# -- choosers ----------------------------------------------------------------------------------------------


class Chooser(Protocol):
    """Where every random choice of the generators comes from."""

    def integer(self, lo: int, hi: int) -> int: ...

    def chance(self, percent: int) -> bool: ...

    def choice(self, items: Sequence[T]) -> T: ...


class RandomChooser:
    """Choices from a seeded ``random.Random`` (fast; for the soak)."""

    def __init__(self, seed: int | random.Random) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self._random = self.rng.random

    def integer(self, lo: int, hi: int) -> int:
        return lo + int(self._random() * (hi - lo + 1))

    def chance(self, percent: int) -> bool:
        return self._random() * 100 < percent

    def choice(self, items: Sequence[T]) -> T:
        return items[int(self._random() * len(items))]


class DrawChooser:
    """Choices drawn through hypothesis (``data.draw`` or a composite's ``draw``), so that they shrink."""

    def __init__(self, draw: Callable[[st.SearchStrategy[Any]], Any]) -> None:
        self.draw = draw

    def integer(self, lo: int, hi: int) -> int:
        return int(self.draw(st.integers(lo, hi)))

    def chance(self, percent: int) -> bool:
        # Shrinks towards False ("the simpler table").
        return bool(self.draw(st.integers(0, 99)) >= 100 - percent)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.integer(0, len(items) - 1)]


def subset(c: Chooser, items: Sequence[T], percent: int = 50) -> list[T]:
    """Each item kept with ``percent`` % chance."""
    return [x for x in items if c.chance(percent)]


# -- rules ----------------------------------------------------------------------------------------------------


def legal_amounts(rules: BlackjackRules, kind: str, multiple: int = 1) -> range:
    """The stakes a table takes for a bet kind: whole multiples of ``chip_unit·multiple`` within the limits."""
    step = rules.chip_unit * multiple
    low = rules.min_stake(kind)
    high = rules.max_bet.for_type(kind)
    first = -(-low // step) * step
    return range(first, high + 1, step)


@dataclass(frozen=True)
class BetFacts:
    """What a table takes, worked out once per rules: the stakes of each bet kind and the side-bet kinds
    that can be placed."""

    amounts: dict[str, range]
    side_kinds: tuple[tuple[SideBet, tuple[str, ...]], ...]
    streak: bool


_FACTS: dict[int, tuple[BlackjackRules, BetFacts]] = {}


def bet_facts(rules: BlackjackRules) -> BetFacts:
    """The :class:`BetFacts` of ``rules`` (cached by identity: rules hold mappings and are not hashable)."""
    hit = _FACTS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    amounts = {kind: legal_amounts(rules, kind) for kind in BET_KINDS}
    amounts["main"] = legal_amounts(rules, "main", 2)
    side_kinds = tuple(
        (kind, tuple(k for k in keys if amounts[k]))
        for kind, keys in SIDE_KEYS_BY_KIND.items()
        if kind in rules.side_bets_offered and any(amounts[k] for k in keys)
    )
    facts = BetFacts(amounts, side_kinds, SideBet.STREAK in rules.side_bets_offered and bool(amounts["streak"]))
    if len(_FACTS) > 1_000:
        _FACTS.clear()
    _FACTS[id(rules)] = (rules, facts)
    return facts


def pick_amount(c: Chooser, amounts: range) -> int:
    """A stake among ``amounts``: usually small, sometimes the largest."""
    if c.chance(5):
        return amounts[-1]
    return amounts[c.integer(0, min(len(amounts), 30) - 1)]


def _limits(c: Chooser, chip: int) -> tuple[Limit, Limit]:
    """``min_bet``/``max_bet``: the defaults, one pair for every kind, or a pair per kind.

    Limits are whole chip units (a limit off the chip unit can leave a bet kind with no legal stake at all:
    see test_invariants.test_insurance_offered_with_no_legal_amount); the main bet always has a legal
    stake (a multiple of two chip units).
    """
    mode = c.integer(0, 2)
    if mode == 0:
        low = -(-DEFAULT_MIN_BET // chip) * chip
        return Limit(low), Limit(DEFAULT_MAX_BET // chip * chip)
    if mode == 1:
        low = chip * c.integer(1, 10)
        high = low + 2 * chip * c.integer(1, 500)
        return Limit(low), Limit(high)
    lows: dict[str, int] = {}
    highs: dict[str, int] = {}
    for kind in BET_KINDS:
        if c.chance(50):
            lows[kind] = chip * c.integer(1, 20)
        if c.chance(50):
            highs[kind] = max(lows.get(kind, DEFAULT_MIN_BET), chip) + chip * c.integer(0, 300)
    base_low = -(-DEFAULT_MIN_BET // chip) * chip
    for kind in BET_KINDS:
        low = lows.get(kind, base_low)
        high = highs.get(kind, DEFAULT_MAX_BET)
        if kind == "main":  # a legal main bet: a multiple of two chip units within the limits
            need = -(-low // (2 * chip)) * 2 * chip
            if high < need:
                highs[kind] = need
        elif high < low:
            highs[kind] = low
    return (
        Limit(base_low, MappingProxyType(lows)),
        Limit(DEFAULT_MAX_BET // chip * chip, MappingProxyType(highs)),
    )


def _paytable(c: Chooser) -> BlackjackPaytable:
    odds = [Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(5), Fraction(11), Fraction(50)]
    parts: dict[str, Any] = {}
    for name in BlackjackPaytable.__slots__:
        if name != "streak" and c.chance(30):
            parts[name] = c.choice(odds)
    if c.chance(30):
        parts["streak"] = tuple(c.choice(odds) for _ in range(4))
    return BlackjackPaytable(**parts)


def make_rules(c: Chooser, *, safe_shoe: bool = False) -> BlackjackRules:
    """Valid rules over every option of ``BlackjackRules``.

    ``safe_shoe`` keeps a shoe's cut card far enough forward that a round of seven boxes cannot run the shoe
    dry (a shoe that runs dry mid-round strands the round: see test_invariants.test_shoe_runs_dry_mid_round).
    """
    device = c.choice(list(DealingDevice))
    decks = 1 if device is DealingDevice.DEALING_BOX else c.choice([1, 1, 2, 2, 4, 6, 8, c.integer(1, 8)])
    size = 52 * decks
    behind: int | None = None
    if c.chance(40):
        behind = c.integer(30, size - 1) if decks > 1 else c.integer(1, 51)
    if safe_shoe and device is DealingDevice.SHOE:
        floor = min(80, size - 13)  # a 7-box round takes fewer cards than this in practice
        default = max(size // 4, 30) if decks > 1 else 13
        if (behind if behind is not None else default) < floor:
            behind = floor
    box_control = c.integer(1, 3)
    max_bettors = None
    if c.chance(30):
        max_bettors = c.integer(1, 3 if box_control == 2 else 4)
    chip = c.choice([1, 1, 1, 2, 5, 10, 25])
    min_bet, max_bet = _limits(c, chip)
    offered = frozenset(subset(c, list(SideBet), 40))
    return BlackjackRules(
        decks=decks,
        boxes=c.integer(6, 9),
        dealing_device=device,
        cards_behind_cut=behind,
        max_boxes_per_player=c.integer(1, 4) if c.chance(30) else None,
        burn_after_shuffle=c.choice(list(BurnAfterShuffle)),
        burn_each_round=c.chance(50),
        burn_before_dealer_second_card=c.chance(50),
        procedure=c.integer(1, 3),
        peek=c.chance(70),
        dealer_soft_17=c.choice(list(DealerSoft17)),
        lose_original_only_on_double=c.chance(50),
        even_money_on_ten=c.chance(50),
        insurance_limit=c.choice([Fraction(1, 2), Fraction(3, 5), Fraction(2, 3), Fraction(3, 4), Fraction(1)]),
        side_bets_offered=offered,
        one_side_bet_per_box=c.chance(60),
        any_pair_after_split=c.choice(list(AnyPairAfterSplit)),
        sevens_third_card=c.choice(list(SevensThirdCard)),
        sevens_mixed_triple=c.choice(list(SevensMixedTriple)),
        paytables=_paytable(c) if c.chance(25) else BlackjackPaytable(),
        special_bonus=c.chance(60),
        max_split_hands=c.integer(2, 6) if c.chance(40) else None,
        resplit_aces=c.chance(50),
        split_pair_by=c.choice(list(SplitPairBy)),
        split_after_declining=c.chance(30),
        double_on=c.choice(list(DoubleOn)),
        double_after_split=c.chance(60),
        surrender=c.chance(60),
        five_card_payment=c.chance(60),
        box_control=box_control,
        max_bettors_per_box=max_bettors,
        busted_stakes_on_dealer_blackjack=c.choice(list(BustedStakes)),
        chip_unit=chip,
        min_bet=min_bet,
        max_bet=max_bet,
    )


@st.composite
def rules_strategy(draw: Callable[[st.SearchStrategy[Any]], Any], *, safe_shoe: bool = True) -> BlackjackRules:
    """Hypothesis strategy: random valid ``BlackjackRules`` (see :func:`make_rules`)."""
    return make_rules(DrawChooser(draw), safe_shoe=safe_shoe)


# -- bets ---------------------------------------------------------------------------------------------------------


@dataclass
class BetPlan:
    """One bettor's stakes on one box."""

    box: int
    player: str
    main: int = 0
    side: dict[str, int] = field(default_factory=dict)
    streak: dict[int, int] = field(default_factory=dict)


def _side_and_streak(c: Chooser, rules: BlackjackRules, plan: BetPlan, open_levels: set[int]) -> None:
    facts = bet_facts(rules)
    free_levels = [lv for lv in (2, 3, 4, 5) if lv not in open_levels]
    options: list[SideBet] = [kind for kind, _ in facts.side_kinds]
    if plan.main > 0 and facts.streak and free_levels:
        options.append(SideBet.STREAK)
    if not options:
        return
    if rules.one_side_bet_per_box:
        chosen = [c.choice(options)] if (plan.main == 0 or c.chance(50)) else []
    else:
        chosen = subset(c, options, 35)
        if plan.main == 0 and not chosen:
            chosen = [c.choice(options)]
    for kind in chosen:
        if kind is SideBet.STREAK:
            levels = subset(c, free_levels, 40) or [c.choice(free_levels)]
            plan.streak = {lv: pick_amount(c, facts.amounts["streak"]) for lv in levels}
            continue
        keys = dict(facts.side_kinds)[kind]
        picked = subset(c, keys, 50) or [c.choice(keys)]
        for key in picked:
            plan.side[key] = pick_amount(c, facts.amounts[key])


def plan_bets(c: Chooser, table: BlackjackTable, *, max_boxes: int = 7) -> tuple[list[BetPlan], dict[int, str | None]]:
    """A random legal layout for the table's next round: bets in placement order, and who sits where."""
    rules = table.rules
    forced: dict[int, list[str]] = {}
    open_levels: dict[tuple[int, str], set[int]] = {}
    for s in table.open_streaks:
        players = forced.setdefault(s.box, [])
        if s.player not in players:
            players.append(s.player)
        open_levels.setdefault((s.box, s.player), set()).add(s.level)
    per_box = min(3, rules.bettors_per_box_limit or 3)
    target = c.integer(1, min(max_boxes, rules.boxes))
    boxes = list(forced)
    free = [b for b in range(1, rules.boxes + 1) if b not in forced]
    while len(boxes) < target and free:
        boxes.append(free.pop(c.integer(0, len(free) - 1)))
    on: dict[int, list[str]] = {b: list(forced.get(b, [])) for b in boxes}
    count: Counter[str] = Counter(p for ps in on.values() for p in ps)
    for b in boxes:
        want = c.integer(1, per_box)
        while len(on[b]) < want:
            eligible = [
                p
                for p in PLAYERS
                if p not in on[b] and (rules.max_boxes_per_player is None or count[p] < rules.max_boxes_per_player)
            ]
            if not eligible:
                break
            p = c.choice(eligible)
            on[b].append(p)
            count[p] += 1
    plans: list[BetPlan] = []
    seats: dict[int, str | None] = {}
    main_amounts = bet_facts(rules).amounts["main"]
    for b in boxes:
        if not on[b]:
            continue
        for i, p in enumerate(on[b]):
            plan = BetPlan(b, p)
            must_main = i == 0 or (b, p) in open_levels
            if must_main or c.chance(75):
                plan.main = pick_amount(c, main_amounts)
            _side_and_streak(c, rules, plan, open_levels.get((b, p), set()))
            if plan.main == 0 and not plan.side:
                plan.main = pick_amount(c, main_amounts)
            plans.append(plan)
        seats[b] = c.choice([None, on[b][0], c.choice(on[b]), "zed"])
    return plans, seats


def place_random_bets(
    c: Chooser, table: BlackjackTable, rnd: BlackjackRound, *, max_boxes: int = 7, add_to_percent: int = 0
) -> list[BetPlan]:
    """Place a random legal layout on ``rnd``; ``add_to_percent`` % of bettors place their side bets in a
    second ``place_bet`` call (adding to their bet)."""
    plans, seats = plan_bets(c, table, max_boxes=max_boxes)
    for plan in plans:
        if plan.main and (plan.side or plan.streak) and c.chance(add_to_percent):
            rnd.place_bet(plan.box, plan.player, main=plan.main)
            rnd.place_bet(plan.box, plan.player, side=plan.side, streak=plan.streak)
        else:
            rnd.place_bet(plan.box, plan.player, main=plan.main, side=plan.side, streak=plan.streak)
    for box, seated in seats.items():
        rnd.seat(box, seated)
    return plans


# -- decisions -----------------------------------------------------------------------------------------------------


def insurance_amounts(rules: BlackjackRules, q: Decision) -> range:
    """The insurance stakes the pending offer allows: whole chip units from the minimum up to the cap."""
    step = rules.chip_unit
    low = rules.min_stake("insurance")
    first = -(-low // step) * step
    return range(first, q.max_insurance + 1, step)


def check_pending(rnd: BlackjackRound, q: Decision, *, thorough: bool = True) -> None:
    """The pending question has a legal answer, and every listed action is accepted (insurance with its
    smallest and largest legal amounts); with ``thorough``, also when the box, player and hand asked are
    named, and every other action is refused."""
    assert q.actions, f"{q} offers no answer"
    assert len(set(q.actions)) == len(q.actions), q
    assert q.box in rnd.boxes and q.player in rnd.boxes[q.box].bettors, q
    for a in q.actions:
        amount = None
        if a == "insurance":
            amounts = insurance_amounts(rnd.rules, q)
            assert amounts, f"insurance offered with no legal amount: {q}"
            amount = amounts[-1]
            assert rnd.can(a, amount=amounts[0]), q
        assert rnd.can(a, amount=amount), (a, q)
        if thorough:
            assert rnd.can(a, box=q.box, player=q.player, hand=q.hand, amount=amount), (a, q)
    if thorough:
        for a in ALL_ACTIONS:
            if a not in q.actions:
                assert not rnd.can(a, amount=rnd.rules.chip_unit), (a, q)


def choose_answer(c: Chooser, rnd: BlackjackRound, q: Decision) -> tuple[str, int | None]:
    """A uniform choice among the legal answers; insurance with a random legal amount."""
    action = c.choice(q.actions)
    if action != "insurance":
        return action, None
    amounts = insurance_amounts(rnd.rules, q)
    return action, amounts[c.integer(0, len(amounts) - 1)]


class ShoeRanDry(Exception):
    """The table's random shoe ran out of cards in the middle of a round (a known defect: the round is
    stranded, neither over nor waiting on anybody)."""


def play_round(
    c: Chooser,
    rnd: BlackjackRound,
    *,
    check: bool = True,
    thorough: bool = True,
    expose_percent: int = 0,
) -> int:
    """Close betting and answer every question until the round is over; return the number of answers.

    Raise :class:`ShoeRanDry` (after voiding the round, BJ 5.1.2) if a random shoe runs out of cards.
    """
    answers = 0
    try:
        rnd.close_betting()
        while not rnd.is_over:
            q = rnd.pending
            assert q is not None, f"round neither over nor waiting (phase {rnd.phase})"
            if check:
                check_pending(rnd, q, thorough=thorough)
            if expose_percent and c.chance(expose_percent):
                rnd.void_exposed_card()
            action, amount = choose_answer(c, rnd, q)
            rnd.act(action, box=q.box, player=q.player, hand=q.hand, amount=amount)
            answers += 1
            assert answers <= MAX_ANSWERS, "the round does not end"
    except ChanceExhausted:
        shoe = rnd.table.shoe
        assert shoe is not None and shoe.is_random and shoe.remaining == 0
        rnd.void_round("the shoe ran dry")
        raise ShoeRanDry from None
    return answers


# -- invariants ------------------------------------------------------------------------------------------------------


def drawn_cards(rnd: BlackjackRound) -> list[Card | None]:
    """The cards that left the shoe in ``rnd``, in order; ``None`` marks a shuffle.

    When a shoe runs out mid-round its discards are shuffled back (``Shuffled(discards=True)``): the cards
    then out of the new shoe are those dealt so far this round, which stay on the table."""
    out: list[Card | None] = []
    dealt: list[Card] = []
    for op in rnd.operations:
        if isinstance(op, Dealt):
            dealt.append(op.card)
        if isinstance(op, Shuffled):
            out.append(None)
            if op.discards:
                out.extend(dealt)
        elif isinstance(op, Burned | Dealt) or (isinstance(op, CardVoided) and op.rule != "BJ 6.1"):
            out.append(op.card)  # (a dealer card voided under BJ 6.1 was already dealt)
    return out


class ShoeLedger:
    """The cards out of the table's shoe since its last shuffle, as the operations tell it."""

    def __init__(self, rules: BlackjackRules) -> None:
        self.decks = rules.decks
        self.out: Counter[Card] = Counter()
        self.rounds = 0

    def absorb(self, rnd: BlackjackRound) -> None:
        """Count the round's cards; the first round of a table must start with a shuffle."""
        cards = drawn_cards(rnd)
        if self.rounds == 0:
            assert cards and cards[0] is None, "the first round starts on a fresh shoe"
        self.rounds += 1
        for card in cards:
            if card is None:
                self.out.clear()
            else:
                self.out[card] += 1

    def check(self, table: BlackjackTable, *, composition: bool = True) -> None:
        """Every card out came from the shoe once: no card more often than the decks hold it, and the shoe's
        counts (dealt, remaining, composition) agree with the operations."""
        shoe = table.shoe
        assert shoe is not None
        worst = max(self.out.values(), default=0)
        assert worst <= self.decks, f"a card came out {worst} times from a {self.decks}-deck shoe"
        n = sum(self.out.values())
        assert shoe.dealt == n, (shoe.dealt, n)
        assert shoe.remaining == 52 * self.decks - n
        if not composition:
            return
        left = Counter({r: 4 * self.decks for r in RANKS})
        for card, k in self.out.items():
            left[card.rank] -= k
        assert shoe.composition() == dict(left)


def check_round(rnd: BlackjackRound, open_before: Sequence[Any]) -> None:
    """Money and bookkeeping of a settled round (``open_before``: the table's open streaks before it)."""
    s = rnd.settlement
    assert rnd.is_over and s is not None and not s.void
    assert rnd.pending is None
    nets = s.players()
    for o in s.outcomes:
        assert type(o.net) is int and type(o.stake) is int, o
    assert sum(nets.values()) + s.house_net == 0
    bettors = {p for b in rnd.boxes.values() for p in b.bettors}
    assert set(nets) == bettors
    # Cards: what the operations dealt is what the hands and the dealer hold.
    to_box: dict[int, list[int]] = {}
    dealer: list[Card] = []
    hole: list[Card] = []
    for op in rnd.operations:
        if isinstance(op, Dealt):
            if op.box is None:
                dealer.append(op.card)
            else:
                to_box.setdefault(op.box, []).append(id(op.card))  # cards are interned
        elif isinstance(op, HoleCardTurned):
            hole.append(op.card)
    assert tuple(dealer) == s.dealer_cards
    assert all(len(dealer) > 1 and card == dealer[1] for card in hole)
    assert len(s.boxes) == len(to_box)
    for b in s.boxes:
        assert sorted(id(card) for h in b.hands for card in h.cards) == sorted(to_box[b.box]), b.box
    # Each bettor with a main bet has one main outcome, losing at most his stakes on the box's hands (doubles
    # and splits included); no other bet loses more than its stake.
    mains: dict[tuple[int, str], int] = {}
    streaks = False
    for o in s.outcomes:
        if o.kind == "main":
            mains[(o.box, o.player)] = mains.get((o.box, o.player), 0) + 1
            on_hands = sum(h.stakes.get(o.player, 0) for h in rnd.boxes[o.box].hands)
            assert o.net >= -on_hands, (o, on_hands)
        else:
            assert o.net >= -o.stake, o
            streaks = streaks or o.kind.startswith("streak_")
    for n, box in rnd.boxes.items():
        for p, bt in box.bettors.items():
            assert mains.get((n, p), 0) == (1 if bt.main > 0 else 0), (n, p)
            streaks = streaks or bool(bt.streak)
    if not (streaks or open_before or rnd.table.open_streaks):
        return
    # Streaks: every open or new streak bet is judged once; those still open stay on the table.
    judged = Counter(
        (o.box, o.player, int(o.kind.removeprefix("streak_"))) for o in s.outcomes if o.kind.startswith("streak_")
    )
    expected = Counter((x.box, x.player, x.level) for x in open_before)
    for n, box in rnd.boxes.items():
        for p, bt in box.bettors.items():
            for level in bt.streak:
                expected[(n, p, level)] += 1
    assert judged == expected, (judged, expected)
    still = {(o.box, o.player, int(o.kind.removeprefix("streak_"))) for o in s.outcomes if o.status == "open"}
    assert {(x.box, x.player, x.level) for x in rnd.table.open_streaks} == still


# -- replays ------------------------------------------------------------------------------------------------------


def rerun_scripted(rules: BlackjackRules, rounds: Sequence[BlackjackRound]) -> list[BlackjackRound]:
    """Play ``rounds`` again on a fresh table whose shoe is scripted with the same cards, placing the same
    bets, seats and answers; return the new rounds."""
    source = ScriptedSource()
    table = BlackjackTable(rules, source)
    out: list[BlackjackRound] = []
    for old in rounds:
        if any(isinstance(op, Shuffled) and op.discards for op in old.operations):
            break  # a shoe restocked mid-round from its discards cannot be scripted: the rounds end here
        source.add_cards(c for c in drawn_cards(old) if c is not None)
        rnd = table.open_round()
        for op in old.operations:
            if isinstance(op, BetPlaced):
                rnd.place_bet(op.box, op.player, main=op.main, side=dict(op.side), streak=dict(op.streak))
        for n, box in old.boxes.items():
            if box.bettors:
                rnd.seat(n, box.seated)
        rnd.close_betting()
        for op in old.operations:
            if isinstance(op, Answered):
                amount = op.amount if op.action == "insurance" else None
                rnd.act(op.action, box=op.box, player=op.player, hand=op.hand, amount=amount)
            elif isinstance(op, CardVoided) and op.rule == "BJ 5.1.1":
                rnd.void_exposed_card()
        out.append(rnd)
    return out
