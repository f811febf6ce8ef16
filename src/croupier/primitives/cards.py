"""Playing cards: rank, suit, colour, blackjack value; parsed from and formatted as ``TS`` / ``10S``."""

from __future__ import annotations

from enum import Enum

from croupier.errors import InvalidInput


class Suit(Enum):
    """The four suits, by their one-letter code."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def colour(self) -> str:
        """``"red"`` for hearts and diamonds, ``"black"`` for spades and clubs."""
        return "red" if self in (Suit.HEARTS, Suit.DIAMONDS) else "black"

    @property
    def symbol(self) -> str:
        """The suit symbol, for display."""
        return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[self.value]


class Rank(Enum):
    """The thirteen ranks, by their one-letter code (T for ten)."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def value_bj(self) -> int:
        """Blackjack value (BJ 8), counting the ace as 1."""
        if self is Rank.ACE:
            return 1
        if self in (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING):
            return 10
        return int(self.value)

    @property
    def is_ten_value(self) -> bool:
        """Ten, jack, queen or king."""
        return self.value_bj == 10


RANKS: tuple[Rank, ...] = tuple(Rank)
SUITS: tuple[Suit, ...] = tuple(Suit)


class Card:
    """One card of a 52-card deck. Immutable and interned: ``Card(rank, suit)`` always returns the same object,
    so cards compare and hash by identity (fast in the engine's inner loops)."""

    __slots__ = ("code", "is_ace", "rank", "suit", "value")

    rank: Rank
    suit: Suit
    value: int
    """Blackjack value with the ace as 1 (BJ 8); hand totals decide when an ace counts 11."""
    code: str
    is_ace: bool

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        card = _INTERNED.get((rank, suit))
        if card is None:
            card = object.__new__(cls)
            for name, value in (
                ("rank", rank),
                ("suit", suit),
                ("value", rank.value_bj),
                ("code", rank.value + suit.value),
                ("is_ace", rank is Rank.ACE),
            ):
                object.__setattr__(card, name, value)
            _INTERNED[(rank, suit)] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cards are immutable (cannot set {name})")

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit]]:
        return (Card, (self.rank, self.suit))

    @property
    def colour(self) -> str:
        """``"red"`` or ``"black"``."""
        return self.suit.colour

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def pretty(self) -> str:
        """``"10♥"`` style, for people."""
        rank = "10" if self.rank is Rank.TEN else self.rank.value
        return rank + self.suit.symbol


_INTERNED: dict[tuple[Rank, Suit], Card] = {}

_RANK_BY_CODE = {r.value: r for r in Rank} | {"10": Rank.TEN}
_SUIT_BY_CODE = {s.value: s for s in Suit}


def parse_card(text: object) -> Card:
    """Parse ``"TS"``, ``"10S"``, ``"AH"``; upper case only. Raise ``ValueError`` naming the text."""
    if not isinstance(text, str) or len(text) not in (2, 3):
        raise InvalidInput(f"{text!r} is not a card (rank A 2-9 T J Q K or 10, then suit S H D C).", rule="BJ 1")
    rank = _RANK_BY_CODE.get(text[:-1])
    suit = _SUIT_BY_CODE.get(text[-1])
    if rank is None or suit is None:
        raise InvalidInput(f"{text!r} is not a card (rank A 2-9 T J Q K or 10, then suit S H D C).", rule="BJ 1")
    return Card(rank, suit)


def format_card(card: Card) -> str:
    """The two-character code, e.g. ``"TS"``."""
    return str(card)


def deck() -> list[Card]:
    """One deck of 52 cards (no jokers, BJ 1), in a fixed order."""
    return [Card(rank, suit) for suit in SUITS for rank in RANKS]
