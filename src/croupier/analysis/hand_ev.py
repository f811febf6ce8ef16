"""Exact expected value of one blackjack hand's decisions from any shoe: stand, hit (playing on optimally,
composition-dependent), double, surrender and the five-card claim — the second building block of the
combinatorial analysis (issue 4; splits, the special bonus and the side bets come with the full analyser).

Values are per unit of the hand's stake, for a hand against the dealer's up card, the shoe being what is left
after the up card and the hand's cards. Two dealing procedures matter (RULES.md BJ 5.2):

* **No peek** (procedures 1 and 2, and 3 without the peek): the dealer's hole card comes from the same shoe and
  a dealer blackjack is one of the outcomes, found only at the end. A stood hand loses its stake to it; a
  doubled hand loses only the original stake when "original bet only" applies (BJ 10.7, 17.3), and a busted
  doubled hand too when busted stakes are refunded.
* **Peek** (procedure 3): the player knows the hole card does not make a blackjack. The player's cards are
  then drawn from a shoe conditioned on that: the chance of drawing ``c`` is weighted by the chance that the
  hole card, drawn from what is left, still completes no blackjack; the dealer's final hand is conditioned the
  same way (:func:`croupier.analysis.dealer.dealer_probabilities` with ``peeked``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from croupier.analysis.dealer import Composition, composition, dealer_probabilities, remove
from croupier.blackjack.rules import BlackjackRules, BustedStakes, DealerSoft17, DoubleOn
from croupier.errors import InvalidRules
from croupier.primitives.cards import Card, Rank

Policy = Callable[[int, bool, int], str]
"""A fixed way to play on after the first decision: ``(total, soft, cards) -> "hit" | "stand"``."""


@dataclass(frozen=True)
class HandTerms:
    """The parts of a table's rules that decide one hand's value."""

    up: int
    peeked: bool
    soft17: DealerSoft17 = DealerSoft17.HIT_ACE_SIX
    double_any_two: bool = True
    original_only_on_double: bool = True
    busted_refunded: bool = True
    surrender: bool = True
    five_card: bool = True
    special_bonus: bool = True

    @classmethod
    def of(cls, rules: BlackjackRules, up: int) -> HandTerms:
        """The terms of ``rules`` against an up card of value ``up`` (1 = ace … 10)."""
        peeked = rules.dealer_peeks and up in (1, 10)
        return cls(
            up=up,
            peeked=peeked,
            soft17=rules.dealer_soft_17,
            double_any_two=rules.double_on is DoubleOn.ANY_TWO,
            original_only_on_double=rules.double_on is DoubleOn.ANY_TWO or rules.lose_original_only_on_double,
            busted_refunded=rules.busted_stakes_on_dealer_blackjack is BustedStakes.REFUNDED,
            surrender=rules.surrender,
            five_card=rules.five_card_payment,
            special_bonus=rules.special_bonus,
        )


RULES_NOT_READ: Mapping[str, str] = {
    "decks": "the hand is valued from the composition given (dealer.py likewise)",
    "boxes": "one hand from the composition given: other cards are in it or unseen",
    "dealing_device": "a hole card dealt early without the peek values as no hole card",
    "cards_behind_cut": "one hand from the composition given",
    "max_boxes_per_player": "who bets on the boxes changes no card",
    "burn_after_shuffle": "burnt cards are in the composition given or unseen",
    "burn_each_round": "burnt cards are in the composition given or unseen",
    "burn_before_dealer_second_card": "a card burned unseen changes no chance",
    "even_money_on_ten": "even money is valued by even_money_values from the composition, offered or not",
    "insurance_limit": "insurance is valued per unit by insurance_value, whatever the stake",
    "side_bets_offered": "the main bet only",
    "one_side_bet_per_box": "the main bet only",
    "any_pair_after_split": "the main bet only",
    "sevens_third_card": "the main bet only",
    "sevens_mixed_triple": "the main bet only",
    "paytables": "the main bet only: the side bets' odds",
    "max_split_hands": "one hand, never split here (splits: the full analyser, ca.py)",
    "resplit_aces": "one hand, never split here",
    "split_pair_by": "one hand, never split here",
    "split_after_declining": "one hand, never split here",
    "double_after_split": "the hand's first decision, never on a split hand here",
    "box_control": "who decides for the box changes no card",
    "max_bettors_per_box": "who bets on the box changes no card",
    "chip_unit": "values are per unit of the hand's stake",
    "min_bet": "values are per unit of the hand's stake",
    "max_bet": "values are per unit of the hand's stake",
}
"""The options of :class:`BlackjackRules` that :meth:`HandTerms.of` (and so the hand analyser and
:mod:`croupier.analysis.dealer` under it) does not read, each with why it does not change what they compute
(``tests/analysis/test_rules_coverage.py`` checks that every other option is read)."""


def _total(hard: int, soft: bool) -> int:
    return hard + 10 if soft and hard <= 11 else hard


def _no_blackjack_weight(comp: Composition, up: int) -> float:
    """The chance that a hole card drawn from ``comp`` does not give a dealer showing ``up`` a blackjack."""
    n = sum(comp)
    if up == 1:
        return 1 - comp[9] / n
    if up == 10:
        return 1 - comp[0] / n
    return 1.0


class HandAnalyser:
    """Exact values of a hand's decisions for one set of :class:`HandTerms` (results are memoised)."""

    def __init__(self, terms: HandTerms) -> None:
        if not 1 <= terms.up <= 10:
            raise InvalidRules([f"the dealer's up card value must be 1 (ace) to 10, not {terms.up!r}"])
        self.terms = terms
        self._stand = lru_cache(maxsize=None)(self._stand_uncached)
        self._best = lru_cache(maxsize=None)(self._best_uncached)

    # -- the draws ---------------------------------------------------------------------------------------------

    def draws(self, comp: Composition) -> list[tuple[int, float, Composition]]:
        """``(value, probability, shoe after)`` for the hand's next card, conditioned as the terms say."""
        n = sum(comp)
        if n < 2:
            raise InvalidRules(["the shoe holds no card for the hand: what is left is the dealer's hole card"])
        out = []
        for value in range(1, 11):
            k = comp[value - 1]
            if k == 0:
                continue
            after = remove(comp, value)
            weight = k / n
            if self.terms.peeked:
                weight *= _no_blackjack_weight(after, self.terms.up) if sum(after) else 0.0
            if weight > 0:  # a card after which the hole card must make a blackjack cannot be drawn
                out.append((value, weight, after))
        total = sum(w for _, w, _ in out)
        if total == 0:
            raise InvalidRules(["no card can be drawn without giving the dealer a blackjack"])
        return [(v, w / total, after) for v, w, after in out]

    # -- standing -------------------------------------------------------------------------------------------------

    def stand(self, comp: Sequence[int], total: int) -> float:
        """The value of standing on ``total`` (over 21: a bust) with ``comp`` left in the shoe."""
        return self._stand(composition(comp), total)

    def _stand_uncached(self, comp: Composition, total: int) -> float:
        p = [float(x) for x in dealer_probabilities(comp, self.terms.up, self.terms.soft17, peeked=self.terms.peeked)]
        blackjack = p[6]
        if total > 21:
            return -1.0
        value = -blackjack
        for i, dealer_total in enumerate((17, 18, 19, 20, 21)):
            value += p[i] * (1 if total > dealer_total else (-1 if total < dealer_total else 0))
        return value + p[5]  # the dealer busts: every standing hand wins (BJ 9)

    # -- playing on -------------------------------------------------------------------------------------------------

    def best(self, comp: Sequence[int], hard: int, soft: bool, cards: int) -> float:
        """The best value of a hand (``hard`` total, ``soft`` if it holds an ace) after its first decision:
        stand, hit on, or claim five cards (BJ 19)."""
        return self._best(composition(comp), hard, soft, cards)

    def _best_uncached(self, comp: Composition, hard: int, soft: bool, cards: int) -> float:
        if hard > 21:
            return -1.0
        total = _total(hard, soft)
        options = [self._stand(comp, total)]
        if cards == 5 and self.terms.five_card and self.terms.up != 1:
            options.append(0.5)
        if total < 21 and sum(comp) > 1:  # the last card left is the dealer's hole card
            options.append(self._hit(comp, hard, soft, cards, self._best))
        return max(options)

    def _hit(
        self, comp: Composition, hard: int, soft: bool, cards: int, then: Callable[[Composition, int, bool, int], float]
    ) -> float:
        return sum(p * then(after, hard + v, soft or v == 1, cards + 1) for v, p, after in self.draws(comp))

    def play(self, comp: Sequence[int], hard: int, soft: bool, cards: int, policy: Policy) -> float:
        """The value of playing on by a fixed ``policy`` instead of optimally (for checks and charts)."""
        start = composition(comp)

        def value(c: Composition, h: int, s: bool, n: int) -> float:
            if h > 21:
                return -1.0
            total = _total(h, s)
            if total < 21 and sum(c) > 1 and policy(total, s and h <= 11, n) == "hit":
                return self._hit(c, h, s, n, value)
            return self._stand(c, total)

        return value(start, hard, soft, cards)

    # -- the first decision ------------------------------------------------------------------------------------------

    def double(self, comp: Sequence[int], hard: int, soft: bool, bonus: Mapping[int, float] | None = None) -> float:
        """Doubling (BJ 17): twice the stake, one card; a dealer blackjack takes only the original stake when
        "original bet only" applies (and, with busted stakes refunded, from a busted double too). A third card
        completing the special bonus pays 3 times the doubled stake at once (BJ 15)."""
        t = self.terms
        value = 0.0
        shares = bonus if bonus is not None and t.special_bonus else {}
        for v, p_card, after in self.draws(composition(comp)):
            share = shares.get(v, 0.0)
            value += p_card * share * 6.0  # the bonus on the doubled stake (two units) pays 3 times it
            p = p_card * (1 - share)
            h = hard + v
            bj = 0.0 if t.peeked else float(dealer_probabilities(after, t.up, t.soft17)[6])
            bj_loss = -1.0 if t.original_only_on_double else -2.0
            if h > 21:
                busted_bj_loss = bj_loss if t.busted_refunded else -2.0
                value += p * ((1 - bj) * -2.0 + bj * busted_bj_loss)
            else:
                stood = self._stand(after, _total(h, soft or v == 1))  # includes −bj for the blackjack
                value += p * (2 * (stood + bj) + bj * bj_loss)
        return value

    def decisions(
        self, comp: Sequence[int], cards: Sequence[int], bonus: Mapping[int, float] | None = None
    ) -> dict[str, float]:
        """The value of every first decision the terms allow on a two-card hand ``cards`` (values 1-10),
        ``comp`` being the shoe after the up card and these cards: stand, hit, double, surrender.

        ``bonus`` (see :func:`special_bonus_shares`) gives, for each card value, the share of the shoe's cards
        of that value that would complete the special bonus as the hand's third card (BJ 15)."""
        if len(cards) != 2:
            raise InvalidRules([f"a first decision is on two cards, not {len(cards)}"])
        start = composition(comp)
        hard = sum(cards)
        soft = 1 in cards
        shares = bonus if bonus is not None and self.terms.special_bonus else {}
        hit = 0.0
        for v, p, after in self.draws(start):
            share = shares.get(v, 0.0)
            hit += p * (share * 3.0 + (1 - share) * self._best(after, hard + v, soft or v == 1, 3))
        out = {"stand": self._stand(start, _total(hard, soft)), "hit": hit}
        if self.terms.double_any_two or hard == 11:
            out["double"] = self.double(start, hard, soft, shares)
        if self.terms.surrender and self.terms.up != 1:
            out["surrender"] = -0.5
        return out


def special_bonus_shares(first_two: Sequence[Card], remaining: Mapping[Card, int]) -> dict[int, float]:
    """For a hand's first two cards, the share of the remaining cards of each value that would complete the
    special bonus (BJ 15) as its third card: any 7 after two 7s; the missing rank of a suited 6-7-8 in the
    same suit. ``remaining`` counts the cards left in the shoe by (rank, suit)."""
    a, b = first_two
    if a.rank is Rank.SEVEN and b.rank is Rank.SEVEN:
        return {7: 1.0}
    trio = {Rank.SIX, Rank.SEVEN, Rank.EIGHT}
    if a.suit is not b.suit or a.rank is b.rank or a.rank not in trio or b.rank not in trio:
        return {}
    (missing,) = trio - {a.rank, b.rank}
    value = missing.value_bj
    of_value = sum(n for card, n in remaining.items() if card.value == value)
    return {value: remaining.get(Card(missing, a.suit), 0) / of_value} if of_value else {}


def insurance_value(comp: Sequence[int]) -> float:
    """The value per unit of insurance against an ace (BJ 12): +2 when the hole card, drawn from ``comp``
    (the shoe after every card seen), is a ten-value card, −1 otherwise. Insure only when it is positive."""
    c = composition(comp)
    tens = c[9] / sum(c)
    return 2 * tens - (1 - tens)


def even_money_values(comp: Sequence[int], up: int) -> dict[str, float]:
    """A blackjack against an ace or a ten-value card (BJ 10.3): taking even money is worth +1 at once;
    keeping the blackjack is worth 1.5 unless the hole card, drawn from ``comp``, gives the dealer a
    blackjack too (a push)."""
    if up not in (1, 10):
        raise InvalidRules([f"even money is offered against an ace or a ten-value card, not a {up}"])
    c = composition(comp)
    completes = c[9] if up == 1 else c[0]
    dealer_blackjack = completes / sum(c)
    return {"even_money": 1.0, "keep": 1.5 * (1 - dealer_blackjack)}
