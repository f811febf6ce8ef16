"""The engine as the oracle of the rules: the exact expectation of a round over every order of a small shoe,
played card for card by the blackjack engine itself (issue 4, check (a)).

Whatever the analysers compute from formulas must agree with this walk over the engine's chance outcomes,
for the same shoe and the same way of playing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import permutations

from croupier.blackjack.operations import Decision
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import BlackjackRules
from croupier.blackjack.table import BlackjackTable
from croupier.errors import InvalidRules
from croupier.primitives.cards import Card
from croupier.primitives.chance import ScriptedSource

Decide = Callable[[BlackjackRound, Decision], str]
"""How the bettor answers each question of the round."""

MAX_CARDS = 9
"""The most cards :func:`engine_expectation` orders (9! = 362,880 rounds)."""


def engine_expectation(
    rules: BlackjackRules,
    prefix: Sequence[Card],
    rest: Sequence[Card],
    decide: Decide,
    *,
    stake: int = 2,
) -> Fraction:
    """The exact mean net per unit staked of one box's main bet, over every order of ``rest`` after the fixed
    cards ``prefix`` (burns included), each round played by the engine with ``decide`` answering."""
    if len(rest) > MAX_CARDS:
        raise InvalidRules([f"{len(rest)} cards to order is too many for an exact walk (at most {MAX_CARDS})"])
    orders = set(permutations(rest))
    total = Fraction(0)
    for order in orders:
        table = BlackjackTable(rules, ScriptedSource(cards=[*prefix, *order]))
        rnd = table.open_round()
        rnd.place_bet(1, "oracle", main=stake)
        rnd.close_betting()
        while (q := rnd.pending) is not None:
            rnd.act(decide(rnd, q))
        assert rnd.settlement is not None
        total += Fraction(rnd.settlement.players()["oracle"], stake)
    return total / len(orders)
