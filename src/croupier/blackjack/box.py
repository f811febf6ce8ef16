"""Boxes in play (BJ 3, BJ 20): the bettors on each box, its deciding player, its hands."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from croupier.blackjack.hand import Hand, HandState
from croupier.primitives.cards import Card


@dataclass
class Bettor:
    """One player's money on one box for this round."""

    player: str
    main: int = 0
    side: dict[str, int] = field(default_factory=dict)
    streak: dict[int, int] = field(default_factory=dict)
    insurance: int = 0
    even_money: bool = False


BoxState = tuple[dict[str, Any], list[tuple[Hand, HandState]], list[tuple[Bettor, int, bool]]]
"""What :meth:`Box.save` keeps."""


class Box:
    """A box in play: its bettors (in the order their bets were placed), deciding player and hands."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.seated: str | None = None
        self.bettors: dict[str, Bettor] = {}
        self.decider = ""
        self.hands: list[Hand] = []
        self.first_two: list[Card] = []
        self.third_card: Card | None = None
        self.split_any_pair: list[tuple[str, int, int, bool]] = []
        """Any Pair stakes on split hands, settled on each hand's first two cards: (bettor, stake, hand, pair)."""
        self.third_after_split = False
        self.declined_split = False
        self.did_split = False
        self.did_double = False
        self.surrendered = False
        self.cards_dealt = 0

    def save(self) -> BoxState:
        """The box's state in play (its flags, hands and the bettors' insurance and even money), to go back to
        with :meth:`restore` when an all-or-nothing step is undone."""
        state = dict(vars(self))
        state["bettors"] = dict(self.bettors)
        state["hands"] = list(self.hands)
        state["first_two"] = list(self.first_two)
        state["split_any_pair"] = list(self.split_any_pair)
        hands = [(h, h.save()) for h in self.hands]
        bettors = [(bt, bt.insurance, bt.even_money) for bt in self.bettors.values()]
        return state, hands, bettors

    def restore(self, saved: BoxState) -> None:
        """Go back to a :meth:`save`."""
        state, hands, bettors = saved
        vars(self).clear()
        vars(self).update(state)
        for hand, hand_state in hands:
            hand.restore(hand_state)
        for bettor, insurance, even_money in bettors:
            bettor.insurance = insurance
            bettor.even_money = even_money

    @property
    def has_main(self) -> bool:
        """Some bettor has a main bet here."""
        return any(b.main for b in self.bettors.values())

    @property
    def is_blackjack(self) -> bool:
        """The box's first two cards are a blackjack (BJ 10.1)."""
        return len(self.hands) == 1 and self.hands[0].is_blackjack
