"""Exact side-bet odds on a box's first two cards (BJ 13.1, 13.3, 13.4), checked by brute-force enumeration
of every ordered pair of physical cards for one and two decks (issue 4, check (c))."""

from __future__ import annotations

from fractions import Fraction as F  # noqa: N817

import pytest

from croupier.analysis.first_two_cards import first_two_card_side_bets
from croupier.blackjack.rules import BlackjackRules, load
from croupier.primitives.cards import deck


def brute_force(decks: int) -> dict[str, F]:
    """The expected net per unit of each bet, from every ordered pair of distinct physical cards."""
    shoe = deck() * decks
    totals = dict.fromkeys(("any_pair", "perfect_pairs", "over_13", "under_13"), F(0))
    n = 0
    for i, a in enumerate(shoe):
        for j, b in enumerate(shoe):
            if i == j:
                continue
            n += 1
            pair = a.rank == b.rank
            totals["any_pair"] += 11 if pair else -1
            if not pair:
                totals["perfect_pairs"] += -1
            elif a.suit == b.suit:
                totals["perfect_pairs"] += 25
            elif (a.suit.value in "HD") == (b.suit.value in "HD"):
                totals["perfect_pairs"] += 12
            else:
                totals["perfect_pairs"] += 5
            points = a.rank.value_bj + b.rank.value_bj  # ace 1, pictures 10 (BJ 13.3 reading)
            totals["over_13"] += 1 if points > 13 else -1
            totals["under_13"] += 1 if points < 13 else -1
    return {k: v / n for k, v in totals.items()}


@pytest.mark.parametrize("decks", [1, 2])
def test_bj_14_first_two_card_side_bets_equal_brute_force(decks: int) -> None:
    exact = {b.bet: b.ev for b in first_two_card_side_bets(BlackjackRules(decks=decks))}
    assert exact == brute_force(decks)


def test_bj_14_1_any_pair_closed_form() -> None:
    # P(pair) = (4N − 1)/(52N − 1); EV = 12·P − 1.
    for decks, house_edge in ((1, F(5, 17)), (8, F(43, 415))):
        odds = {b.bet: b for b in first_two_card_side_bets(BlackjackRules(decks=decks))}
        assert odds["any_pair"].house_edge == house_edge
        assert odds["any_pair"].win_probability == F(4 * decks - 1, 52 * decks - 1)


def test_bj_14_4_perfect_pairs_six_decks() -> None:
    # Given the first card, of the 311 left: 5 make a perfect pair (25), 6 a coloured pair (12), 12 a mixed
    # pair (5): EV = (125 + 72 + 60 − 288)/311 = −31/311.
    odds = {b.bet: b for b in first_two_card_side_bets(BlackjackRules(decks=6))}
    assert odds["perfect_pairs"].ev == F(-31, 311)
    lines = {o.name: o.probability for o in odds["perfect_pairs"].outcomes}
    assert lines == {
        "perfect pair": F(5, 311),
        "coloured pair": F(6, 311),
        "mixed pair": F(12, 311),
        "loss": F(288, 311),
    }


def test_a_changed_paytable_changes_the_figures() -> None:
    rules = load({"decks": 8, "paytables": {"any_pair": 12}})
    odds = {b.bet: b for b in first_two_card_side_bets(rules)}
    assert odds["any_pair"].ev == F(13 * 31 - 415, 415)
