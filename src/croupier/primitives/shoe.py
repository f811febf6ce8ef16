"""The blackjack shoe: decks, shuffle, cut card and burns (RULES.md BJ 1, BJ 2, BJ 4).

A shoe drawn from a random source is shuffled whole (Fisher–Yates) and dealt from the top. A shoe fed by a
scripted or live source learns each card as it comes out and refuses one that it no longer holds: a
two-deck shoe holds every card twice between shuffles. Deciding *when* to shuffle or burn is the table's
business; the shoe says how many cards are out and whether the cut card has appeared.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from enum import Enum

from croupier.errors import InvalidInput, InvalidRules
from croupier.primitives.cards import RANKS, Card, Rank, deck
from croupier.primitives.chance import ChanceExhausted, ChanceSource, RandomSource

__all__ = ["BurnPolicy", "CardNotInShoeError", "Shoe", "default_cards_behind_cut"]

DECK_SIZE = 52
MIN_CARDS_BEHIND_CUT = 30
"""A multi-deck shoe has at least 30 cards behind the cut card (BJ 2.1)."""


class BurnPolicy(Enum):
    """How many cards are burned before the first round after a shuffle (BJ 4.1)."""

    PER_DECK = "per_deck"
    ONE = "one"


class CardNotInShoeError(InvalidInput):
    """A scripted or live card that the shoe no longer holds since its last shuffle (BJ 1: N decks of 52)."""


def default_cards_behind_cut(decks: int) -> int:
    """52·decks/4 (75% penetration), raised to 30 for a multi-deck shoe (BJ 2; SCENARIOS.md fine print)."""
    quarter = DECK_SIZE * decks // 4
    return quarter if decks == 1 else max(quarter, MIN_CARDS_BEHIND_CUT)


def _problems(decks: int, cards_behind_cut: object) -> list[str]:
    """Every problem with the cut card of a shoe of ``decks`` decks (BJ 2.1)."""
    if isinstance(cards_behind_cut, bool) or not isinstance(cards_behind_cut, int):
        return [f"cards_behind_cut {cards_behind_cut!r} is not a whole number of cards (BJ 2.1)."]
    problems = []
    size = DECK_SIZE * decks
    if decks > 1 and cards_behind_cut < MIN_CARDS_BEHIND_CUT:
        problems.append(
            f"cards_behind_cut {cards_behind_cut} is too few: a shoe of {decks} decks needs at least "
            f"{MIN_CARDS_BEHIND_CUT} cards behind the cut card (BJ 2.1)."
        )
    elif cards_behind_cut < 1:
        problems.append(
            f"cards_behind_cut {cards_behind_cut} is too few: the cut card needs a card behind it (BJ 2.1)."
        )
    if cards_behind_cut >= size:
        problems.append(
            f"cards_behind_cut {cards_behind_cut} is not less than the {size} cards of a {decks}-deck shoe (BJ 2.1)."
        )
    return problems


class Shoe:
    """``decks`` decks of 52 cards, a cut card ``cards_behind_cut`` cards from the back, and the burns.

    With a random ``source`` (``source.is_random``) each :meth:`shuffle` shuffles the whole shoe with
    ``source.shuffle``; otherwise each card is asked of ``source.card()`` as it is drawn and checked
    against the cards the shoe still holds. The shoe is shuffled when made.
    """

    def __init__(
        self,
        decks: int,
        source: ChanceSource,
        *,
        cards_behind_cut: int | None = None,
        burn_after_shuffle: BurnPolicy = BurnPolicy.ONE,
    ) -> None:
        if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
            raise InvalidRules(
                [f"decks {decks!r} is not allowed: a shoe holds one or more whole decks (BJ 1)."], rule="BJ 1"
            )
        behind = default_cards_behind_cut(decks) if cards_behind_cut is None else cards_behind_cut
        problems = _problems(decks, behind)
        if problems:
            raise InvalidRules(problems, rule="BJ 2.1")
        self._decks = decks
        self._cards_behind_cut = behind
        self._size = DECK_SIZE * decks
        self._cut_position = self._size - behind + 1
        self._burn_after_shuffle = BurnPolicy(burn_after_shuffle)
        if source.is_random and not isinstance(source, RandomSource):
            raise TypeError(f"{source!r} says it is random but cannot shuffle (it is not a RandomSource)")
        self._source = source
        self._shuffler = source if isinstance(source, RandomSource) and source.is_random else None
        self._order: list[Card] = []  # the shuffled shoe, random sources only
        self._left: Counter[Card] = Counter()
        self._dealt = 0
        self._restocked = False
        self._burned: list[Card] = []
        self.on_empty: Callable[[], None] | None = None
        """What a random shoe calls when it is out of cards in the middle of a round: its owner may
        :meth:`restock` it (the owner knows the cards in play); if it does not, :meth:`draw` raises."""
        self.shuffle()

    # -- configuration -------------------------------------------------------------------------------------

    @property
    def decks(self) -> int:
        """Number of 52-card decks (BJ 1)."""
        return self._decks

    @property
    def size(self) -> int:
        """Cards in a full shoe: 52·decks."""
        return self._size

    @property
    def cards_behind_cut(self) -> int:
        """Cards that lie behind the (second) cut card (BJ 2.1)."""
        return self._cards_behind_cut

    @property
    def cut_card_position(self) -> int:
        """Number of the first card behind the cut card, counting from 1 after a shuffle, burns included."""
        return self._cut_position

    @property
    def burn_after_shuffle(self) -> BurnPolicy:
        """The burn before the first round after a shuffle (BJ 4.1)."""
        return self._burn_after_shuffle

    @property
    def burn_after_shuffle_count(self) -> int:
        """Cards to burn before the first round after a shuffle: one per deck or one (BJ 4.1)."""
        return self._decks if self._burn_after_shuffle is BurnPolicy.PER_DECK else 1

    @property
    def is_random(self) -> bool:
        """True when the shoe is shuffled by a random source, False when its cards are supplied one by one."""
        return self._source.is_random

    # -- state ---------------------------------------------------------------------------------------------

    @property
    def dealt(self) -> int:
        """Cards out of the shoe since the last shuffle, burned cards included."""
        return self._dealt

    @property
    def remaining(self) -> int:
        """Cards still in the shoe."""
        return self._size - self._dealt

    @property
    def burned(self) -> tuple[Card, ...]:
        """The cards burned since the last shuffle, in order."""
        return tuple(self._burned)

    @property
    def cut_card_out(self) -> bool:
        """True once the first card behind the cut card is out: the current round is the last (BJ 2.2)."""
        return self._restocked or self._dealt >= self._cut_position

    def composition(self) -> dict[Rank, int]:
        """How many cards of each rank are still in the shoe."""
        counts = dict.fromkeys(RANKS, 0)
        if self._shuffler is not None:
            for card in self._order[self._dealt :]:
                counts[card.rank] += 1
            return counts
        for card, n in self._left.items():
            counts[card.rank] += n
        return counts

    def counts(self) -> dict[Card, int]:
        """The cards still in the shoe, each with how many of it are left (only cards with one or more left)."""
        if self._shuffler is not None:
            return dict(Counter(self._order[self._dealt :]))
        return {card: n for card, n in self._left.items() if n > 0}

    # -- actions -------------------------------------------------------------------------------------------

    def shuffle(self) -> None:
        """Start a fresh full shoe; a random source shuffles all 52·decks cards."""
        cards = deck() * self._decks
        # A random shoe knows its order; only a shoe fed card by card counts what it still holds.
        self._left = Counter() if self._shuffler is not None else Counter(cards)
        self._dealt = 0
        self._restocked = False
        self._burned = []
        if self._shuffler is not None:
            self._shuffler.shuffle(cards)
            self._order = cards
        else:
            self._order = []

    def draw(self) -> Card:
        """The next card out of the shoe.

        Raise :class:`ChanceExhausted` when the shoe is empty, and :class:`CardNotInShoeError` when a scripted
        or live card is one the shoe no longer holds (nothing is then counted as dealt).
        """
        dealt = self._dealt
        if dealt >= self._size:
            if self.on_empty is not None and self._shuffler is not None:
                self.on_empty()
                dealt = self._dealt
            if dealt >= self._size:
                raise ChanceExhausted(f"all {self._size} cards of the shoe are out; it must be shuffled")
        if self._shuffler is not None:
            self._dealt = dealt + 1
            return self._order[dealt]
        else:
            card = self._source.card()
            if self._left[card] == 0:
                raise CardNotInShoeError(
                    f"{card} cannot come out of the shoe: a {self._decks}-deck shoe holds it {self._decks} "
                    f"time{'s' if self._decks > 1 else ''} and all are out since the last shuffle.",
                    rule="BJ 1",
                )
        self._left[card] -= 1
        self._dealt += 1
        return card

    def burn(self, n: int = 1) -> list[Card]:
        """Draw ``n`` cards face down and set them aside (BJ 4); they count as dealt."""
        if n < 0:
            raise ValueError(f"cannot burn {n} cards")
        if n > self.remaining:
            raise ChanceExhausted(f"cannot burn {n} cards: only {self.remaining} are left in the shoe")
        cards = []
        for _ in range(n):
            card = self.draw()
            self._burned.append(card)
            cards.append(card)
        return cards

    def restock(self, in_play: list[Card]) -> None:
        """A random shoe that ran out mid-round: every card not in play (the discards) is shuffled back in and
        dealing goes on; :attr:`cut_card_out` stays true, so the next round starts on a fresh shoe."""
        if self._shuffler is None:
            raise ChanceExhausted("a scripted or live shoe cannot be restocked: its cards come from outside")
        rest = Counter(deck() * self._decks)
        rest.subtract(in_play)
        cards = list(rest.elements())
        self._shuffler.shuffle(cards)
        self._order = [*in_play, *cards]
        self._dealt = len(in_play)
        self._burned = []
        self._restocked = True

    def snapshot(self) -> tuple[object, ...]:
        """The shoe's state, for undoing a refused action (see :meth:`restore`)."""
        return (Counter(self._left), self._dealt, list(self._burned), self._order, self._restocked)

    def restore(self, state: tuple[object, ...]) -> None:
        """Go back to a :meth:`snapshot`."""
        left, dealt, burned, order, restocked = state
        assert isinstance(left, Counter) and isinstance(dealt, int) and isinstance(restocked, bool)
        assert isinstance(burned, list) and isinstance(order, list)
        self._left, self._dealt, self._burned, self._order = left, dealt, burned, order
        self._restocked = restocked

    def _peek_order(self) -> list[Card]:
        """The cards still in a random shoe, top first. For tests only: play never looks ahead."""
        if self._shuffler is None:
            raise ValueError("a scripted or live shoe does not know the order of its cards")
        return self._order[self._dealt :]

    def __repr__(self) -> str:
        return (
            f"Shoe(decks={self._decks}, cards_behind_cut={self._cards_behind_cut}, "
            f"dealt={self._dealt}, remaining={self.remaining})"
        )
