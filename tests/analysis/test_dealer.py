"""The dealer's exact final-hand probabilities (issue 4's first building block), checked by brute force."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import pytest

from croupier.analysis.dealer import OUTCOMES, dealer_probabilities, decks, remove
from croupier.blackjack.rules import DealerSoft17
from croupier.errors import InvalidRules

RULES = list(DealerSoft17)


def brute_force(cards: list[int], up: int, rule: DealerSoft17, peeked: bool) -> dict[str, Fraction]:
    """Deal every ordering of a small shoe to a dealer showing ``up`` and count how each hand ends."""
    counts: dict[str, Fraction] = dict.fromkeys(OUTCOMES, Fraction(0))
    orders = list(permutations(cards))
    survived = 0
    for order in orders:
        hand = [up]
        i = 0
        while True:
            hard = sum(hand)
            soft = 1 in hand and hard <= 11
            total = hard + 10 if soft else hard
            if len(hand) == 2 and sorted(hand) == [1, 10]:
                outcome = "blackjack"
                break
            ace_six = len(hand) == 2 and sorted(hand) == [1, 6]
            draw = total < 17 or (
                total == 17
                and soft
                and (rule is DealerSoft17.HIT_ALL or (rule is DealerSoft17.HIT_ACE_SIX and ace_six))
            )
            if not draw:
                outcome = "bust" if total > 21 else str(total)
                break
            hand.append(order[i])
            i += 1
        if peeked and outcome == "blackjack":
            continue
        survived += 1
        counts[outcome] += 1
    return {k: v / survived for k, v in counts.items()}


def as_comp(cards: list[int]) -> list[int]:
    return [cards.count(v) for v in range(1, 11)]


SHOES = [
    [1, 6, 2, 4, 10, 5, 3],  # soft hands of every kind
    [6, 1, 1, 5, 3, 10, 9],
    [10, 10, 1, 1, 7, 2, 4],
]


@pytest.mark.parametrize("rule", RULES, ids=[r.value for r in RULES])
@pytest.mark.parametrize("shoe", SHOES)
@pytest.mark.parametrize("up", [1, 6, 10, 5])
@pytest.mark.parametrize("peeked", [False, True])
def test_bj_6_1_dealer_probabilities_equal_brute_force(
    rule: DealerSoft17, shoe: list[int], up: int, peeked: bool
) -> None:
    if peeked and up not in (1, 10):
        peeked = False
    exact = dealer_probabilities(as_comp(shoe), up, rule, peeked=peeked, exact=True)
    expected = brute_force(shoe, up, rule, peeked)
    assert dict(zip(OUTCOMES, exact, strict=True)) == expected
    assert sum(exact) == 1


def test_bj_6_6_hit_ace_six_draws_only_on_the_two_card_ace_six() -> None:
    # A shoe of one six and tens: showing an ace, the two-card A-6 draws a ten and ends on hard 17 ...
    p = dealer_probabilities(as_comp([6, 10, 10]), 1, DealerSoft17.HIT_ACE_SIX, exact=True)
    assert p[OUTCOMES.index("17")] == Fraction(1, 3)  # A-6 then T: 17
    assert p[OUTCOMES.index("blackjack")] == Fraction(2, 3)
    # ... and standing on soft 17 keeps it as 17 without a draw: the same count, but it never needed a card.
    q = dealer_probabilities(as_comp([6]), 1, DealerSoft17.STAND, exact=True)
    assert q[OUTCOMES.index("17")] == 1
    with pytest.raises(InvalidRules, match="ran out"):
        dealer_probabilities(as_comp([6]), 1, DealerSoft17.HIT_ACE_SIX)  # A-6 must draw from an empty shoe


def test_the_six_deck_figures_a_player_can_check() -> None:
    # Showing a 6, six decks, standing on soft 17: the dealer busts 42.28% of the time (the usual table figure).
    p = dealer_probabilities(remove(decks(6), 6), 6, DealerSoft17.STAND)
    assert round(float(p[5]), 4) == 0.4228
    # Showing an ace, no peek: a blackjack whenever the hole card is one of the 96 tens among 311 cards.
    q = dealer_probabilities(remove(decks(6), 1), 1, DealerSoft17.STAND)
    assert q[6] == pytest.approx(96 / 311, abs=1e-15)


def test_bad_shoes_get_a_clear_error() -> None:
    with pytest.raises(InvalidRules, match="10 counts"):
        dealer_probabilities([4] * 9, 5)
    with pytest.raises(InvalidRules, match="≥ 0"):
        dealer_probabilities([4, 4, 4, -1, 4, 4, 4, 4, 4, 16], 5)
    with pytest.raises(InvalidRules, match="empty"):
        dealer_probabilities([0] * 10, 5)
    with pytest.raises(InvalidRules, match="up card"):
        dealer_probabilities(decks(1), 11)
    with pytest.raises(InvalidRules, match="decks"):
        decks(0)
