"""A trial step on a scripted or live shoe (:meth:`croupier.blackjack.table.BlackjackTable.probing`): where the
next card a step needs goes, for a live table's dealer (:meth:`croupier.blackjack.round.BlackjackRound.next_card`)."""

from __future__ import annotations

from collections.abc import Sequence

from croupier.primitives.cards import Card, Rank, Suit
from croupier.primitives.chance import ChanceExhausted, ChanceSource


class CardProbe:
    """What :meth:`BlackjackTable.probing` hands out: the cards a trial step read from the source, and where the
    first card the source could not give would have gone (the index of its operation in the round's log)."""

    STAND_IN = Card(Rank.TWO, Suit.CLUBS)
    """The card a trial step receives in place of the first card not yet given: only where it lands is read (the
    trial stops at the next draw, and is undone)."""

    def __init__(self, source: ChanceSource, operations: Sequence[object]) -> None:
        self.source = source
        self.operations = operations
        self.reads: list[Card] = []
        self.at: int | None = None

    def draw(self) -> Card:
        """The next reported card; in place of the first missing one, :attr:`STAND_IN` (its operation will be the
        next in the log: every draw is logged at once); then the trial stops."""
        if self.at is not None:
            raise ProbeDone
        try:
            card = self.source.card()
        except ChanceExhausted:
            self.at = len(self.operations)
            return self.STAND_IN
        self.reads.append(card)
        return card


class ProbeDone(Exception):
    """A trial step (:meth:`BlackjackTable.probing`) asked for the card after the one it was looking for."""
