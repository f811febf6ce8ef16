"""The analysers agree with the engine: one hand's value from :mod:`croupier.analysis.hand_ev` equals the
exact expectation of the engine playing every order of a small shoe the same way (issue 4, check (a))."""

from __future__ import annotations

import pytest

from croupier.analysis.hand_ev import HandAnalyser, HandTerms
from croupier.analysis.oracle import engine_expectation
from croupier.blackjack.operations import Decision
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import BlackjackRules, DealerSoft17
from croupier.primitives.cards import parse_card

REST = ["TS", "9S", "8S", "7S", "6S", "5S"]


def hit_below(n: int):
    def decide(rnd: BlackjackRound, q: Decision) -> str:
        if q.kind != "play":
            return "decline"
        hand = rnd.boxes[q.box].hands[q.hand or 0]
        return "hit" if hand.total < n and "hit" in q.actions else "stand"

    return decide


@pytest.mark.parametrize(("first", "up", "second"), [("TH", "6H", "4D"), ("AH", "9C", "5D"), ("9H", "TC", "3D")])
@pytest.mark.parametrize("n", [13, 18])
@pytest.mark.parametrize("soft17", [DealerSoft17.HIT_ACE_SIX, DealerSoft17.STAND])
def test_one_hand_s_value_equals_the_engine_walk(
    first: str, up: str, second: str, n: int, soft17: DealerSoft17
) -> None:
    # Procedure 1 (no hole card): burn, box card, dealer's up card, box card; then every order of REST.
    rules = BlackjackRules(
        decks=1, surrender=False, five_card_payment=False, special_bonus=False, dealer_soft_17=soft17
    )
    prefix = [parse_card(c) for c in ("3C", first, up, second)]
    rest = [parse_card(c) for c in REST]
    oracle = engine_expectation(rules, prefix, rest, hit_below(n))
    a, u, b = (parse_card(c) for c in (first, up, second))
    comp = [sum(c.value == v for c in rest) for v in range(1, 11)]
    analyser = HandAnalyser(HandTerms(up=u.value, peeked=False, soft17=soft17, five_card=False, special_bonus=False))
    policy = lambda total, soft, cards: "hit" if total < n else "stand"  # noqa: E731
    value = analyser.play(comp, a.value + b.value, a.is_ace or b.is_ace, 2, policy)
    assert float(oracle) == pytest.approx(value, abs=1e-12)
