"""Exact odds of the blackjack side bets settled on a box's first two cards (BJ 13.1, 13.3, 13.4; BJ 14).

A box's first two cards are a uniformly random ordered pair of distinct cards of the shoe: the burns, the
dealer's up card and the other boxes' cards dealt in between are unseen, so by symmetry they change nothing.
Every figure is therefore an exact fraction over the ``52·N·(52·N − 1)`` ordered pairs of an ``N``-deck shoe,
computed by counting card pairs (rank, suit) — suits matter for Perfect Pairs — and paid from the table's own
paytable. (Any Pair's stakes on split hands and the Sevens bet depend on the player's decisions and come with
the combinatorial analysis.)
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from croupier.analysis.odds import BetOdds, Outcome
from croupier.blackjack import sidebets
from croupier.blackjack.rules import BlackjackRules
from croupier.errors import InvalidRules
from croupier.primitives.cards import Card, deck

PairRule = Callable[[BlackjackRules, list[Card]], tuple[str, Fraction | None]]


def _pairs(decks: int) -> list[tuple[Card, Card, int]]:
    """Every ordered pair of card kinds with its number of ordered pairs of physical cards."""
    if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
        raise InvalidRules([f"decks {decks!r} must be a whole number ≥ 1 (BJ 1)"])
    kinds = deck()
    out = []
    for a in kinds:
        for b in kinds:
            ways = decks * (decks - 1) if a is b else decks * decks
            if ways:
                out.append((a, b, ways))
    return out


def first_two_odds(rules: BlackjackRules, name: str, judge: PairRule, rule: str, pays: Fraction) -> BetOdds:
    """Tally ``judge`` (outcome name, odds or None) over every first-two-card pair of the rules' shoe."""
    total = 52 * rules.decks * (52 * rules.decks - 1)
    counts: dict[tuple[str, Fraction], int] = {}
    for a, b, ways in _pairs(rules.decks):
        label, odds = judge(rules, [a, b])
        key = (label, odds if odds is not None else Fraction(-1))
        counts[key] = counts.get(key, 0) + ways
    outcomes = tuple(
        Outcome(label, Fraction(n, total), net) for (label, net), n in sorted(counts.items(), key=lambda kv: -kv[0][1])
    )
    return BetOdds(name, pays, outcomes, rule)


def _any_pair(rules: BlackjackRules, two: list[Card]) -> tuple[str, Fraction | None]:
    odds = sidebets.any_pair(rules, two)
    return ("pair" if odds is not None else "loss", odds)


def _perfect_pairs(rules: BlackjackRules, two: list[Card]) -> tuple[str, Fraction | None]:
    odds = sidebets.perfect_pairs(rules, two)
    if odds is None:
        return ("loss", None)
    a, b = two
    label = "perfect pair" if a.suit is b.suit else ("coloured pair" if a.colour == b.colour else "mixed pair")
    return (label, odds)


def _over_under(key: str) -> PairRule:
    def judge(rules: BlackjackRules, two: list[Card]) -> tuple[str, Fraction | None]:
        odds = sidebets.over_under(rules, two, key)
        return ("win" if odds is not None else "loss", odds)

    return judge


def first_two_card_side_bets(rules: BlackjackRules | None = None) -> list[BetOdds]:
    """Exact odds of Any Pair (the original stake), Perfect Pairs, Over 13 and Under 13 for the rules' shoe."""
    r = rules if rules is not None else BlackjackRules()
    p = r.paytables
    return [
        first_two_odds(r, "any_pair", _any_pair, "BJ 14.1", p.any_pair),
        first_two_odds(r, "perfect_pairs", _perfect_pairs, "BJ 14.4", p.perfect_pairs_perfect),
        first_two_odds(r, "over_13", _over_under("over_13"), "BJ 14.3", p.over_under_13),
        first_two_odds(r, "under_13", _over_under("under_13"), "BJ 14.3", p.over_under_13),
    ]
