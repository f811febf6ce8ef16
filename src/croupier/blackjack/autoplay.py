"""A simple decision rule for simulated players (the demo, benchmarks): close to basic strategy, never
more than the legal answers the round lists."""

from __future__ import annotations

from croupier.blackjack.operations import Decision
from croupier.blackjack.round import BlackjackRound


def choose(actions: tuple[str, ...], total: int, soft: bool, pair_rank: str | None, up: int) -> str:
    """A basic-strategy-like play answer: split aces and eights, double 10 and 11 against a lower card, hit
    soft totals below 18 and hard totals below 17 unless the dealer shows 2-6 and the hand is 12 or more."""
    if pair_rank in ("A", "8") and "split" in actions:
        return "split"
    if total in (10, 11) and up < total and "double" in actions:
        return "double"
    if "claim_five_card" in actions:
        return "claim_five_card"
    hit = total < 18 if soft else (total < 17 and not (total >= 12 and 2 <= up <= 6))
    return "hit" if hit and "hit" in actions else "stand"


def answer(rnd: BlackjackRound, q: Decision) -> str:
    """The simulated player's answer to ``q``: play by :func:`choose`, follow the deciding player, decline
    insurance, even money and new Any Pair stakes."""
    if q.kind == "follow":
        return "follow"
    if q.kind != "play":
        return "decline"
    hand = rnd.boxes[q.box].hands[q.hand or 0]
    cards = hand.cards
    pair = cards[0].rank.value if len(cards) == 2 and cards[0].rank is cards[1].rank else None
    up = rnd.dealer[0].value
    hard = hand.hard
    soft = hand.aces > 0 and hard <= 11  # Hand.total and Hand.soft, written out
    return choose(q.actions, hard + 10 if soft else hard, soft, pair, 11 if up == 1 else up)
