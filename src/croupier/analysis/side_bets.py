"""Exact odds of the blackjack side bets that depend on how the box is played: Sevens (BJ 13.2, BJ 14.2), the
Any Pair stakes on split hands (BJ 13.1 Reading, BJ 14.1) and Streak (BJ 13.5, BJ 14.5).

Sevens and the split stakes are exact fractions for the rules' ``N``-deck shoe (or any shoe given as card
counts). The cards that decide them are enumerated by kind, with their multiplicities, in the order BJ 5.2
deals them: the box's first card, the dealer's up card, the box's second card, the hole card where the dealer
peeks (procedure 3), then the cards the box receives after the player's decision. The burns, the other boxes'
cards and every card drawn between two deciding cards (another box's play, a split hand's hits and doubles)
are unseen by the bet, and *when* each deciding card comes depends only on the cards already dealt. By the
predictable sampling theorem for exchangeable sequences (Kallenberg 1988, a shuffled shoe being exchangeable)
the deciding cards are then distributed exactly as the first cards of the shoe, so that play changes nothing;
the tests check this against brute force with hits in between and against the engine itself.

The player's decision on a pair comes from a :class:`~croupier.analysis.chart.Chart` (asked with what the rules
allow at that moment) or from a plain function; the dealer's up card is known when he decides.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from numbers import Rational
from typing import Any

from croupier.analysis.chart import Chart
from croupier.analysis.first_two_cards import first_two_odds
from croupier.analysis.odds import BetOdds, Outcome
from croupier.blackjack import sidebets
from croupier.blackjack.rules import (
    AnyPairAfterSplit,
    BlackjackRules,
    DoubleOn,
    SevensMixedTriple,
    SevensThirdCard,
    SplitPairBy,
)
from croupier.errors import InvalidRules
from croupier.primitives.cards import RANKS, Card, Rank, deck

SevensPlay = Chart | Callable[[int], str]
"""How the player plays a 7-7 against the dealer's up card (1 for an ace, 10 for a ten-value card): a chart, or
a function ``up -> "split" | "hit" | "double" | "stand" | "surrender"``."""

PairPlay = Chart | Callable[[int, int], str]
"""How the player plays a pair of card value ``v`` (1-10) against the up card: a chart, or a function
``(v, up) -> action`` of the same actions; only ``"split"`` matters to the split stakes."""

ACTIONS: tuple[str, ...] = ("split", "double", "hit", "stand", "surrender")
"""The answers a player may give on the box's first two cards when they are a pair (BJ 6.5, 16, 17, 18)."""

THIRD_CARD_ACTIONS: frozenset[str] = frozenset({"split", "double", "hit"})
"""The decisions after which the box receives a third card (BJ 6.4, 16.1, 17.2)."""

RULES_NOT_READ: Mapping[str, str] = {
    "boxes": "the other boxes' cards are unseen by the bet (the module's docstring)",
    "dealing_device": "a hole card dealt early without the peek ends no round before the player decides",
    "cards_behind_cut": "the odds are exact off a full shoe; the deciding cards are distributed as its first cards",
    "max_boxes_per_player": "who bets on the boxes changes no card",
    "burn_after_shuffle": "burnt cards are unseen by the bet",
    "burn_each_round": "burnt cards are unseen by the bet",
    "burn_before_dealer_second_card": "burnt cards are unseen by the bet",
    "dealer_soft_17": "the dealer's drawing settles none of these bets (streak: from the results given)",
    "lose_original_only_on_double": "a main-bet settlement (streak: from the results given)",
    "busted_stakes_on_dealer_blackjack": "a main-bet settlement (streak: from the results given)",
    "five_card_payment": "a main-bet payment (streak: from the results given)",
    "special_bonus": "a main-bet payment; the third 7 counts for the Sevens whatever it pays",
    "even_money_on_ten": "an offer to a blackjack, which is no pair",
    "insurance_limit": "insurance settles none of these bets",
    "side_bets_offered": "the odds of each bet, offered or not",
    "one_side_bet_per_box": "the odds per bet placed, whatever else the box bets",
    "split_after_declining": "the play answers every pair of a box alike, so a declined split is never offered again",
    "box_control": "who decides for the box is the play given",
    "max_bettors_per_box": "who bets on the box changes no card",
    "chip_unit": "odds per unit staked",
    "min_bet": "odds per unit staked",
    "max_bet": "odds per unit staked",
}
"""The options of :class:`BlackjackRules` that :func:`any_pair_odds`, :func:`sevens_odds` and :func:`streak_odds`
do not read, each with why it does not change what they compute (``tests/analysis/test_rules_coverage.py`` checks
that every other option is read)."""

_UPS = range(1, 11)


# -- input checks ---------------------------------------------------------------------------------------------


def _check_rules(rules: object) -> BlackjackRules:
    if not isinstance(rules, BlackjackRules):
        raise InvalidRules([f"rules {rules!r} must be a BlackjackRules object (BJ 1-21)."])
    return rules


def _check_play(play: object, what: str) -> None:
    if not isinstance(play, Chart) and not callable(play):
        raise InvalidRules([f"play {play!r} must be a Chart or a function giving the {what}."])


def _first_decision(rules: BlackjackRules, play: PairPlay, value: int, up: int) -> str:
    """The player's decision on the box's first two cards, a pair of card ``value``, against ``up``; a
    function's answer is checked against what the rules allow on those cards (BJ 16.1, 17.1, 18.1)."""
    can_double = rules.double_on is DoubleOn.ANY_TWO  # a pair's hard total is even, never 11 (BJ 17.1.3)
    can_surrender = rules.surrender and up != 1
    if isinstance(play, Chart):
        return play.decide(
            [value, value], up, can_double=can_double, can_split=True, can_surrender=can_surrender, can_claim=False
        )
    action = play(value, up)
    if not isinstance(action, str) or action not in ACTIONS:
        raise InvalidRules([f"play gives {action!r} for {value}-{value} against {up}; expected one of {ACTIONS}."])
    if action == "double" and not can_double:
        raise InvalidRules(
            [f"play doubles {value}-{value} against {up}, but double_on is {rules.double_on.value} (BJ 17.1)."]
        )
    if action == "surrender" and not can_surrender:
        why = "the up card is an ace" if rules.surrender else "surrender is not offered"
        raise InvalidRules([f"play surrenders {value}-{value} against {up}, but {why} (BJ 18.1)."])
    return action


def _shoe(decks: int) -> dict[Card, int]:
    return {card: decks for card in deck()}


def _check_shoe(shoe: Mapping[Card, int], need: int) -> int:
    for card, n in shoe.items():
        if not isinstance(card, Card) or isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise InvalidRules([f"a shoe maps cards to counts ≥ 0, not {card!r}: {n!r} (BJ 1)."])
    size = sum(shoe.values())
    if size < need:
        raise InvalidRules([f"a shoe of {size} cards cannot deal the {need} cards the bet needs (BJ 1)."])
    return size


# -- Sevens (BJ 13.2, BJ 14.2) -------------------------------------------------------------------------------


def _sevens_label(rules: BlackjackRules, two: tuple[Card, Card], third: Card | None) -> tuple[str, Fraction]:
    """The outcome's name and the net per unit, paid by the engine's own :func:`sidebets.sevens`."""
    odds = sidebets.sevens(rules, list(two), third)
    assert odds is not None  # two 7s always win something
    a, b = two
    two_name = "two 7s, one suit" if a.suit is b.suit else "two 7s, mixed suits"
    if third is None or third.rank is not Rank.SEVEN:
        return two_name, odds
    suits = {a.suit, b.suit, third.suit}
    if len(suits) == 1:
        return "three 7s, one suit", odds
    if len(suits) == 3:
        return "three 7s, three suits", odds
    if rules.sevens_mixed_triple is SevensMixedTriple.PAYS_500:
        return "three 7s, two suits", odds
    return f"three 7s, two suits (paid as {two_name})", odds


def _sevens_from_shoe(rules: BlackjackRules, shoe: Mapping[Card, int], play: SevensPlay) -> BetOdds:
    """Sevens from any shoe given as counts of card kinds (the tests use small hand-made shoes)."""
    peek = rules.dealer_peeks
    size = _check_shoe(shoe, 5 if peek else 4)
    # Card classes: each suit of 7 on its own (suits decide the payment), the other cards by value (the up card's
    # value decides the play, the hole card's whether the dealer has blackjack).
    sevens = [c for c in shoe if c.rank is Rank.SEVEN and shoe[c]]
    by_value: dict[int, int] = {}
    for c, count in shoe.items():
        if c.rank is not Rank.SEVEN and count:
            by_value[c.value] = by_value.get(c.value, 0) + count
    cards: list[Card | None] = [*sevens, *(None for _ in by_value)]
    values = [7] * len(sevens) + list(by_value)
    n = [shoe[c] for c in sevens] + list(by_value.values())
    classes = range(len(n))
    seven_ids = range(len(sevens))
    pair_play = _as_pair_play(play)
    decision = {up: _first_decision(rules, pair_play, 7, up) for up in set(values)}
    counted = {"split"} if rules.sevens_third_card is SevensThirdCard.AFTER_SPLIT else THIRD_CARD_ACTIONS

    weights: dict[tuple[str, Fraction], dict[int, int]] = {}

    def add(two: tuple[Card, Card], third: Card | None, ways: int, depth: int) -> None:
        key = _sevens_label(rules, two, third)
        by_depth = weights.setdefault(key, {})
        by_depth[depth] = by_depth.get(depth, 0) + ways

    for i1 in seven_ids:
        w1 = n[i1]
        n[i1] -= 1
        for iu in classes:
            wu = n[iu]
            if not wu:
                continue
            n[iu] -= 1
            up = values[iu]
            for i2 in seven_ids:
                w2 = n[i2]
                if not w2:
                    continue
                n[i2] -= 1
                two = (sevens[i1], sevens[i2])
                holes: list[int | None] = list(classes) if peek and up in (1, 10) else [None]
                for ih in holes:
                    wh = 1 if ih is None else n[ih]
                    if not wh:
                        continue
                    depth = 3 if ih is None else 4
                    blackjack = ih is not None and values[ih] + up == 11
                    if ih is not None:
                        n[ih] -= 1
                    ways = w1 * wu * w2 * wh
                    if blackjack or decision[up] not in counted:
                        # BJ 5.2 procedure 3: the peek ends the round; or no third card counts.
                        add(two, None, ways, depth)
                    else:
                        for it in classes:
                            if n[it]:
                                add(two, cards[it], ways * n[it], depth + 1)
                    if ih is not None:
                        n[ih] += 1
                n[i2] += 1
            n[iu] += 1
        n[i1] += 1

    outcomes = [
        Outcome(name, sum((Fraction(w, math.perm(size, d)) for d, w in by_depth.items()), Fraction(0)), net)
        for (name, net), by_depth in weights.items()
    ]
    won = sum((o.probability for o in outcomes), Fraction(0))
    if won < 1:
        outcomes.append(Outcome("loss", 1 - won, Fraction(-1)))
    outcomes.sort(key=lambda o: (-o.net, o.name))
    p = rules.paytables
    pays = (p.sevens_two_mixed, p.sevens_two_suited, p.sevens_three_mixed, p.sevens_three_suited)
    return BetOdds("sevens", pays, tuple(outcomes), "BJ 14.2")


def sevens_odds(rules: BlackjackRules, play: SevensPlay) -> BetOdds:
    """Exact odds of the Sevens bet (BJ 13.2, BJ 14.2) for the rules' shoe, with 7-7 played by ``play``.

    The bet wins on the box's first two cards being 7s (50 to 1 mixed suits, 150 one suit) and, with a third 7,
    500 for three suits all different and 5000 for one suit (only the highest line is paid). Which card is the
    third follows ``rules.sevens_third_card``: ``after_split`` (BJ 13.2 Reading) counts it only when the player
    splits the 7s (it is then the second card of the first split hand); ``any`` counts the box's next card by
    hit, double or split. A stand or a surrender leaves two 7s; so does a dealer's blackjack found by the peek
    (BJ 5.2 procedure 3), which ends the round before the player decides. Three 7s of two suits are paid per
    ``rules.sevens_mixed_triple`` (BJ 14.2 Reading), all from ``rules.paytables``.

    ``play`` is a :class:`Chart`, asked on the 7-7 with what the rules allow against each up card (split;
    double under ``double_on = any_two``; surrender unless the up card is an ace), or a function of the up
    card (1-10) returning ``"split"``, ``"hit"``, ``"double"``, ``"stand"`` or ``"surrender"``. Outcomes are
    exact fractions; the third card's chance depends on the suits left after the first two 7s and the up card.
    """
    r = _check_rules(rules)
    _check_play(play, "7-7 play from the up card")
    return _sevens_from_shoe(r, _shoe(r.decks), play)


def _as_pair_play(play: SevensPlay) -> PairPlay:
    """A 7-7 play by up card as a play of pairs (only ever asked about 7-7)."""
    if isinstance(play, Chart):
        return play
    return lambda _value, up: play(up)


# -- Any Pair with the stakes on split hands (BJ 13.1 Reading, BJ 14.1) ---------------------------------------


@dataclass(frozen=True)
class AnyPairOdds:
    """Any Pair's original stake and the new stakes on split hands (BJ 13.1 Reading), per original stake.

    ``split_stakes`` is the expected number of new stakes (each equal to the original) that splits offer and
    the player places; ``split_wins`` the expected number of them that win (their hand's first two cards are a
    pair by rank), each paid ``pays`` to 1.
    """

    original: BetOdds
    pays: Fraction
    split_stakes: Fraction
    split_wins: Fraction
    rule: str = "BJ 13.1, BJ 14.1"

    @property
    def split_ev(self) -> Fraction:
        """Expected net of the split stakes, per original stake."""
        return self.pays * self.split_wins - (self.split_stakes - self.split_wins)

    @property
    def split_win_probability(self) -> Fraction | None:
        """The chance that one split stake wins (None when no split stake is ever placed)."""
        return self.split_wins / self.split_stakes if self.split_stakes else None

    @property
    def split_house_edge(self) -> Fraction | None:
        """Minus the expected net per unit staked on split hands (None when none is ever placed)."""
        return -self.split_ev / self.split_stakes if self.split_stakes else None

    @property
    def total_staked(self) -> Fraction:
        """Expected total staked (original plus split stakes), per original stake."""
        return 1 + self.split_stakes

    @property
    def ev(self) -> Fraction:
        """Expected net of the original and the split stakes together, per original stake."""
        return self.original.ev + self.split_ev

    @property
    def house_edge(self) -> Fraction:
        """The combined house edge: minus the expected net per unit staked in total."""
        return -self.ev / self.total_staked

    def as_json(self) -> dict[str, Any]:
        """The figures as JSON (fractions as strings, as :meth:`BetOdds.as_json`)."""

        def opt(x: Fraction | None) -> str | None:
            return None if x is None else str(x)

        return {
            "bet": "any_pair",
            "original": self.original.as_json(),
            "split_stakes": str(self.split_stakes),
            "split_wins": str(self.split_wins),
            "split_win_probability": opt(self.split_win_probability),
            "split_house_edge": opt(self.split_house_edge),
            "house_edge": str(self.house_edge),
            "house_edge_pct": round(float(self.house_edge) * 100, 4),
            "rule": self.rule,
        }


def _split_decision(rules: BlackjackRules, play: PairPlay, value: int, up: int) -> bool:
    """Whether the player splits a split hand's pair of ``value`` against ``up`` (no surrender after a split,
    BJ 18 Reading)."""
    if isinstance(play, Chart):
        can_double = rules.double_after_split and value != 1 and rules.double_on is DoubleOn.ANY_TWO
        decided = play.decide(
            [value, value], up, can_double=can_double, can_split=True, can_surrender=False, can_claim=False
        )
        return decided == "split"
    return play(value, up) == "split"


_A, _B, _DRAWN = 0, 1, 2
"""Where a waiting split hand's first card came from: the box's first card, its second, or a later draw."""

_Draws = tuple[Fraction, Fraction, Fraction, Fraction]
"""Expected (new stakes, pool cards drawn by hands whose first card is _A, _B, _DRAWN)."""

_NOTHING: _Draws = (Fraction(0), Fraction(0), Fraction(0), Fraction(0))


def _plus(x: _Draws, y: _Draws) -> _Draws:
    return (x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3])


def _times(k: Fraction, x: _Draws) -> _Draws:
    return (k * x[0], k * x[1], k * x[2], k * x[3])


def _drawn_by(kind: int, p: Fraction) -> _Draws:
    """``p`` pool cards drawn by a hand of ``kind``."""
    out = [Fraction(0)] * 4
    out[1 + kind] = p
    return (out[0], out[1], out[2], out[3])


class _SplitWalk:
    """The split process after a box's first split, as a walk over "the next card is a pool card or not".

    Call the cards that pair with the split cards the *pool* (the pair's rank, or every rank of its value with
    ``split_pair_by = value``). The hands get their second cards in the engine's order: the hand split last
    gets its card first, and a pool card splits it again while fewer than ``limit`` hands exist (and
    ``resplit`` holds). Whether a hand is split depends only on whether it draws a pool card, never on which
    rank, so the walk only needs where the front hand's first card came from (:data:`_A`, :data:`_B`,
    :data:`_DRAWN`), how many drawn-card hands wait behind it, whether the hand of the pair's second card still
    waits, and how many pool cards and cards are left; so one walk serves every pair and up card.
    """

    def __init__(self, limit: int, resplit: bool) -> None:
        self.limit = limit
        self.resplit = resplit
        self.go = cache(self._go)

    def _go(self, waiting: tuple[int, int, bool], left: int, size: int, hands: int) -> _Draws:
        """Expected new stakes and pool draws from here, ``waiting`` being (the front hand's kind, drawn-card
        hands behind it, whether the pair's second card's hand waits); the front hand gets its second card
        now, from ``size`` cards of which ``left`` are pool cards."""
        front, drawn, b_waits = waiting
        if size < 1 + drawn + b_waits:
            raise InvalidRules(["the shoe runs out before every split hand has its second card (BJ 16)."])
        p = Fraction(left, size)
        if not self.resplit or hands >= self.limit:
            # No more splits: by exchangeability each waiting hand's second card is any card left.
            out = _plus(_drawn_by(front, p), _drawn_by(_DRAWN, drawn * p))
            return _plus(out, _drawn_by(_B, p)) if b_waits else out
        out = _NOTHING
        if left:  # a pool card: a pair, split again; the front hand waits again, a drawn-card hand behind it
            after = self.go((front, drawn + 1, b_waits), left - 1, size - 1, hands + 1)
            out = _plus(_plus(_drawn_by(front, p), _times(p, after)), (2 * p, Fraction(0), Fraction(0), Fraction(0)))
        if size > left:  # any other card: the front hand is played and the next waiting hand comes
            if drawn:
                rest = self.go((_DRAWN, drawn - 1, b_waits), left, size - 1, hands)
            elif b_waits:
                rest = self.go((_B, 0, False), left, size - 1, hands)
            else:
                rest = _NOTHING
            out = _plus(out, _times(Fraction(size - left, size), rest))
        return out

    def stakes(
        self, rules: BlackjackRules, pair: tuple[Rank, Rank], counts: Mapping[Rank, int], size: int
    ) -> tuple[Fraction, Fraction]:
        """(expected new stakes, expected winning new stakes) from the first split of ``pair`` on, with
        ``counts`` and ``size`` what is left in the shoe.

        Given the walk, the pool cards come in a uniformly random order of the pool, so a hand whose first
        card has the known rank ``r`` wins with a pool draw with probability ``n_r / n`` (``n`` the pool's
        size when the split is made), and a hand whose first card was itself drawn from the pool wins with one
        with probability ``Σ n_r (n_r − 1) / (n (n − 1))``.
        """
        value = pair[0].value_bj
        by_value = rules.split_pair_by is SplitPairBy.VALUE
        pool = [counts.get(r, 0) for r in RANKS if (r.value_bj == value if by_value else r is pair[0])]
        n = sum(pool)
        new, by_a, by_b, by_drawn = self.go((_A, 0, True), n, size, 2)
        wins = Fraction(0)
        if n:
            wins = (counts.get(pair[0], 0) * by_a + counts.get(pair[1], 0) * by_b) / n
        if n > 1:
            wins += by_drawn * sum(c * (c - 1) for c in pool) / (n * (n - 1))
        return new + 2, wins


def _any_pair_from_shoe(rules: BlackjackRules, counts: Mapping[Rank, int], play: PairPlay) -> AnyPairOdds:
    """Any Pair from any shoe given as counts by rank (suits play no part in it)."""
    for rank, c in counts.items():
        if not isinstance(rank, Rank) or isinstance(c, bool) or not isinstance(c, int) or c < 0:
            raise InvalidRules([f"a shoe maps ranks to counts ≥ 0, not {rank!r}: {c!r} (BJ 1)."])
    n = {r: counts.get(r, 0) for r in RANKS}
    size = sum(n.values())
    if size < 2:
        raise InvalidRules([f"a shoe of {size} cards cannot deal a box's first two cards (BJ 5.2)."])
    pays = rules.paytables.any_pair
    p_pair = Fraction(sum(c * (c - 1) for c in n.values()), size * (size - 1))
    outcomes = [Outcome("pair", p_pair, pays), Outcome("loss", 1 - p_pair, Fraction(-1))]
    original = BetOdds("any_pair", pays, tuple(o for o in outcomes if o.probability), "BJ 14.1")
    if rules.any_pair_after_split is AnyPairAfterSplit.NONE:
        return AnyPairOdds(original, pays, Fraction(0), Fraction(0))

    peek = rules.dealer_peeks
    by_value = rules.split_pair_by is SplitPairBy.VALUE
    limit = rules.split_hands_limit
    walks = {flag: _SplitWalk(limit, flag) for flag in (False, True)}
    splits = {(v, up): _first_decision(rules, play, v, up) == "split" for v in _UPS for up in _UPS}
    resplits = {(v, up): _split_decision(rules, play, v, up) for v in _UPS for up in _UPS}
    stakes = wins = Fraction(0)
    for a in RANKS:
        wa = n[a]
        if not wa:
            continue
        n[a] -= 1
        for u in RANKS:
            wu = n[u]
            if not wu:
                continue
            n[u] -= 1
            up = u.value_bj
            for b in RANKS:
                wb = n[b]
                pair = a is b or (by_value and a.value_bj == b.value_bj)
                if not wb or not pair or not splits[(a.value_bj, up)]:
                    continue
                n[b] -= 1
                for h in RANKS if peek and up in (1, 10) else (None,):
                    wh = 1 if h is None else n[h]
                    if not wh or (h is not None and h.value_bj + up == 11):
                        continue  # the peek finds a blackjack: the round ends before any split (BJ 5.2)
                    if h is not None:
                        n[h] -= 1
                    depth = 3 if h is None else 4
                    p = Fraction(wa * wu * wb * wh, math.perm(size, depth))
                    resplit = resplits[(a.value_bj, up)] and (a is not Rank.ACE or rules.resplit_aces)
                    s, w = walks[resplit].stakes(rules, (a, b), n, size - depth)
                    stakes += p * s
                    wins += p * w
                    if h is not None:
                        n[h] += 1
                n[b] += 1
            n[u] += 1
        n[a] += 1
    return AnyPairOdds(original, pays, stakes, wins)


def any_pair_odds(rules: BlackjackRules, play: PairPlay) -> AnyPairOdds:
    """Exact odds of Any Pair (BJ 13.1, BJ 14.1) for the rules' shoe, the stakes on split hands included.

    The original stake is settled on the box's first two cards alone (reusing
    :mod:`croupier.analysis.first_two_cards`). With ``any_pair_after_split = new_stake`` (BJ 13.1 Reading),
    each split creates two hands and offers a new stake equal to the original on each; **the player is assumed
    always to take the offered stakes**. A new stake wins ``pays`` to 1 when its hand's first two cards are a
    pair by rank (BJ 13.1: J-J, not J-Q), whatever ``split_pair_by`` says about splitting.

    ``play`` decides the splits: a :class:`Chart` (asked on the box's first two cards with what the rules
    allow, so that its surrender may come first, and on split hands without surrender), or a function
    ``(value, up) -> action``. A pair for splitting is by rank, or by value with ``split_pair_by = value``
    (BJ 16 Reading); a split hand whose first two cards form such a pair is split again while fewer than
    ``rules.split_hands_limit`` hands exist and, for aces, while ``resplit_aces`` allows. Every split hand
    holds a card of the value first split, so the chart answers every later pair as it answered the first and
    BJ 16.5's "declined" rule never applies. A dealer's blackjack found by the peek (BJ 5.2 procedure 3) ends
    the round before any split.
    """
    r = _check_rules(rules)
    _check_play(play, "play of a pair of value v against the up card")
    counts = {rank: 4 * r.decks for rank in RANKS}
    shoe = _any_pair_from_shoe(r, counts, play)
    original = first_two_odds(r, "any_pair", _any_pair_judge, "BJ 14.1", r.paytables.any_pair)
    return AnyPairOdds(original, shoe.pays, shoe.split_stakes, shoe.split_wins)


def _any_pair_judge(rules: BlackjackRules, two: list[Card]) -> tuple[str, Fraction | None]:
    odds = sidebets.any_pair(rules, two)
    return ("pair" if odds is not None else "loss", odds)


# -- Streak (BJ 13.5, BJ 14.5) ------------------------------------------------------------------------------


def _probability(name: str, x: object) -> Fraction:
    """An exact probability from a Fraction, an int or a float (a float is read as its shortest decimal)."""
    if isinstance(x, bool) or not isinstance(x, Rational | float):
        raise InvalidRules([f"{name} probability {x!r} must be a Fraction or a float (BJ 13.5)."])
    if isinstance(x, float) and not math.isfinite(x):
        raise InvalidRules([f"{name} probability {x!r} must be a number between 0 and 1 (BJ 13.5)."])
    value = Fraction(repr(x)) if isinstance(x, float) else Fraction(x)
    if not 0 <= value <= 1:
        raise InvalidRules([f"{name} probability {x!r} must be between 0 and 1 (BJ 13.5)."])
    return value


FLOAT_TOLERANCE = 1e-9
"""How far float probabilities of win, push and loss may sum from 1 (they are then rescaled to sum to 1)."""


def streak_odds(
    rules: BlackjackRules, win: Fraction | float, push: Fraction | float, loss: Fraction | float | None = None
) -> list[BetOdds]:
    """Exact odds of the Streak bet on 2, 3, 4 and 5 wins in a row (BJ 13.5, BJ 14.5), from the per-round
    probabilities of the box's result, paid from ``rules.paytables``.

    The box's result is that of its hand(s) as the engine settles it: a blackjack, even money, the five-card
    payment and the special bonus are wins; a split box with more hands won than lost wins and with as many
    won as lost pushes (BJ 13.5.5); a **surrender is a loss** (BJ 13.5.6). A push leaves the marker where it is
    (BJ 13.5.2), so the bet on ``k`` wins is won with probability ``(win / (win + loss)) ** k``.

    **Assumption: rounds are independent and identically distributed** — a continuous shuffler (BJ 2
    Reading) or the average over a shoe. In a shoe dealt down to the cut card consecutive rounds are
    correlated and the figures are an approximation.

    ``loss`` defaults to ``1 − win − push``. Probabilities may be Fractions, ints or floats; a float is read as
    its shortest decimal (0.43 is 43/100), and floats that sum within :data:`FLOAT_TOLERANCE` of 1 are rescaled
    to sum to 1 exactly. The result is exact for those values.
    """
    r = _check_rules(rules)
    w, p = _probability("win", win), _probability("push", push)
    if loss is None:
        if w + p > 1:
            raise InvalidRules([f"win {win!r} and push {push!r} probabilities sum above 1 (BJ 13.5)."])
        lo = 1 - w - p
    else:
        lo = _probability("loss", loss)
        total = w + p + lo
        floats = any(isinstance(x, float) for x in (win, push, loss))
        if total != 1 and not (floats and abs(total - 1) <= FLOAT_TOLERANCE):
            raise InvalidRules(
                [f"win {win!r}, push {push!r} and loss {loss!r} probabilities sum to {float(total)}, not 1 (BJ 13.5)."]
            )
        w, lo = w / total, lo / total
    if w + lo == 0:
        raise InvalidRules([f"a box that only pushes (push probability {push!r}) never decides a streak (BJ 13.5.2)."])
    q = w / (w + lo)
    out = []
    for level in (2, 3, 4, 5):
        odds = r.paytables.streak_odds(level)
        p_win = q**level
        outcomes = (Outcome(f"{level} wins in a row", p_win, odds), Outcome("loss", 1 - p_win, Fraction(-1)))
        out.append(BetOdds(f"streak_{level}", odds, tuple(o for o in outcomes if o.probability), "BJ 14.5"))
    return out


__all__ = [
    "ACTIONS",
    "FLOAT_TOLERANCE",
    "THIRD_CARD_ACTIONS",
    "AnyPairOdds",
    "PairPlay",
    "SevensPlay",
    "any_pair_odds",
    "sevens_odds",
    "streak_odds",
]
