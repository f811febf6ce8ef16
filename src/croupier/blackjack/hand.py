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
    return sum(c.rank.value_bj for c in cards)


def best_total(cards: list[Card]) -> tuple[int, bool]:
    """The hand's total with one ace counted 11 when that does not bust it (BJ 8), and whether it is soft."""
    hard = 0
    ace = False
    for c in cards:
        v = c.rank.value_bj
        hard += v
        if v == 1:
            ace = True
    if ace and hard <= 11:
        return hard + 10, True
    return hard, False


def is_natural(cards: list[Card]) -> bool:
    """An ace and a ten-value card as two cards (BJ 10.1)."""
    if len(cards) != 2:
        return False
    a, b = cards[0].rank.value_bj, cards[1].rank.value_bj
    return (a == 1 and b == 10) or (a == 10 and b == 1)


def is_ace_six(cards: list[Card]) -> bool:
    """The dealer holds exactly a 6 and an ace (BJ 6.6, the literal reading)."""
    return len(cards) == 2 and {cards[0].rank, cards[1].rank} == {Rank.ACE, Rank.SIX}


class Hand:
    """One hand of a box: its cards, each bettor's stake on it, and how it ended.

    ``stakes`` maps bettor → main-bet money on this hand (the deciding player's and any followers').
    ``result`` maps bettor → net once the hand is settled early (surrender, special bonus, five cards,
    even money); hands still standing are settled against the dealer at the end.
    """

    __slots__ = (
        "any_pair_stakes",
        "cards",
        "done",
        "doubled",
        "early_net",
        "from_split",
        "split_ace",
        "stakes",
        "status",
    )

    def __init__(self, cards: list[Card], stakes: dict[str, int], *, from_split: bool = False) -> None:
        self.cards = cards
        self.stakes = stakes
        self.from_split = from_split
        self.split_ace = from_split and cards[0].rank is Rank.ACE
        self.doubled = False
        self.done = False
        self.status: HandStatus | None = None
        self.early_net: dict[str, int] = {}
        self.any_pair_stakes: dict[str, int] = {}

    @property
    def total(self) -> int:
        """The best total (BJ 8)."""
        return best_total(self.cards)[0]

    @property
    def soft(self) -> bool:
        """True when an ace counts 11."""
        return best_total(self.cards)[1]

    @property
    def is_bust(self) -> bool:
        """Over 21 (BJ 6.2)."""
        return hard_total(self.cards) > 21

    @property
    def is_blackjack(self) -> bool:
        """A two-card 21 that is a blackjack: never on a split hand (BJ 10.6)."""
        return not self.from_split and is_natural(self.cards)

    @property
    def settled_early(self) -> bool:
        """Surrendered, paid the special bonus, the five-card payment or even money."""
        return self.status in _EARLY

    def __repr__(self) -> str:
        return f"Hand({' '.join(map(str, self.cards))}, total={self.total}, status={self.status})"


_EARLY = frozenset({HandStatus.SURRENDERED, HandStatus.SPECIAL_BONUS, HandStatus.FIVE_CARD, HandStatus.EVEN_MONEY})
