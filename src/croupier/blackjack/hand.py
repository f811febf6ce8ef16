"""Blackjack hands: cards, totals (BJ 8), blackjack (BJ 10.1), pairs (BJ 16), and who has money on them."""

from __future__ import annotations

from enum import StrEnum

from croupier.primitives.cards import Card, Rank


class HandStatus(StrEnum):
    """How a hand ended (SCENARIOS.md output ``status``)."""

    STOOD = "stood"
    BUST = "bust"
    BLACKJACK = "blackjack"
    SURRENDERED = "surrendered"
    EVEN_MONEY = "even_money"
    FIVE_CARD = "five_card"
    SPECIAL_BONUS = "special_bonus"
    DOUBLED = "doubled"


def hard_total(cards: list[Card]) -> int:
    """The sum with every ace counted 1."""
    return sum(c.value for c in cards)


def best_total(cards: list[Card]) -> tuple[int, bool]:
    """The hand's total with one ace counted 11 when that does not bust it (BJ 8), and whether it is soft."""
    hard = 0
    ace = False
    for c in cards:
        hard += c.value
        ace = ace or c.is_ace
    if ace and hard <= 11:
        return hard + 10, True
    return hard, False


def is_natural(cards: list[Card]) -> bool:
    """An ace and a ten-value card as two cards (BJ 10.1)."""
    return len(cards) == 2 and cards[0].value + cards[1].value == 11 and (cards[0].is_ace or cards[1].is_ace)


def is_ace_six(cards: list[Card]) -> bool:
    """The dealer holds exactly a 6 and an ace (BJ 6.6, the literal reading)."""
    # Two cards worth 7 in all, one of them an ace: the other is a six.
    return len(cards) == 2 and cards[0].value + cards[1].value == 7 and (cards[0].is_ace or cards[1].is_ace)


HandState = tuple[
    list[Card], int, int, dict[str, int], bool, bool, bool, bool, HandStatus | None, dict[str, int], dict[str, int], int
]
"""What :meth:`Hand.save` keeps."""


class Hand:
    """One hand of a box: its cards, each bettor's stake on it, and how it ended.

    ``stakes`` maps bettor → main-bet money on this hand (the deciding player's and any followers').
    ``result`` maps bettor → net once the hand is settled early (surrender, special bonus, five cards,
    even money); hands still standing are settled against the dealer at the end.
    """

    __slots__ = (
        "aces",
        "any_pair_stakes",
        "cards",
        "done",
        "doubled",
        "early_net",
        "from_split",
        "hard",
        "hidden",
        "split_ace",
        "stakes",
        "status",
    )

    def __init__(self, cards: list[Card], stakes: dict[str, int], *, from_split: bool = False) -> None:
        self.cards = cards
        hard = aces = 0
        for c in cards:
            hard += c.value
            aces += c.is_ace
        self.hard = hard
        self.aces = aces
        self.stakes = stakes
        self.from_split = from_split
        self.split_ace = from_split and cards[0].rank is Rank.ACE
        self.doubled = False
        self.done = False
        self.status: HandStatus | None = None
        self.early_net: dict[str, int] = {}
        self.any_pair_stakes: dict[str, int] = {}
        self.hidden = 0  # leading cards dealt face down (procedure 1), seen only by the box's bettors

    def add(self, card: Card) -> None:
        """Give the hand a card."""
        self.cards.append(card)
        self.hard += card.value
        self.aces += card.is_ace

    def pop(self) -> Card:
        """Take the last card off (a split moves it to the new hand)."""
        card = self.cards.pop()
        self.hard -= card.value
        self.aces -= card.is_ace
        return card

    @property
    def total(self) -> int:
        """The best total (BJ 8)."""
        return self.hard + 10 if self.aces and self.hard <= 11 else self.hard

    @property
    def soft(self) -> bool:
        """True when an ace counts 11."""
        return bool(self.aces) and self.hard <= 11

    @property
    def is_bust(self) -> bool:
        """Over 21 (BJ 6.2)."""
        return self.hard > 21

    @property
    def is_blackjack(self) -> bool:
        """A two-card 21 that is a blackjack: never on a split hand (BJ 10.6)."""
        return not self.from_split and len(self.cards) == 2 and self.hard == 11 and self.aces == 1

    @property
    def settled_early(self) -> bool:
        """Surrendered, paid the special bonus, the five-card payment or even money."""
        st = self.status
        return (
            st is HandStatus.SURRENDERED
            or st is HandStatus.SPECIAL_BONUS
            or st is HandStatus.FIVE_CARD
            or (st is HandStatus.EVEN_MONEY)
        )

    def save(self) -> HandState:
        """The hand's state, to go back to with :meth:`restore` (an all-or-nothing step that is undone)."""
        return (
            list(self.cards), self.hard, self.aces, dict(self.stakes), self.from_split, self.split_ace, self.doubled,
            self.done, self.status, dict(self.early_net), dict(self.any_pair_stakes), self.hidden,
        )  # fmt: skip

    def restore(self, state: HandState) -> None:
        """Go back to a :meth:`save`."""
        (
            self.cards, self.hard, self.aces, self.stakes, self.from_split, self.split_ace, self.doubled,
            self.done, self.status, self.early_net, self.any_pair_stakes, self.hidden,
        ) = state  # fmt: skip

    def __repr__(self) -> str:
        return f"Hand({' '.join(map(str, self.cards))}, total={self.total}, status={self.status})"
