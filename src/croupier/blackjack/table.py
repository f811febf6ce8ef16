"""A blackjack table: the rules, the shoe and its cut card (BJ 2), the burns (BJ 4), and what spans rounds —
the open streak bets and their markers (BJ 13.5)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from croupier.blackjack.operations import Burned, Phase, Shuffled, StreakBet
from croupier.blackjack.probe import CardProbe
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import BlackjackRules, BurnAfterShuffle, DealingDevice
from croupier.errors import IllegalAction
from croupier.primitives.cards import Card
from croupier.primitives.chance import ChanceExhausted, ChanceSource, SystemRandom
from croupier.primitives.shoe import BurnPolicy, Shoe

if TYPE_CHECKING:
    from croupier.blackjack.operations import BlackjackSettlement


HISTORY = 1000
"""How many settled rounds a table keeps in :attr:`BlackjackTable.history` (the most recent)."""


@dataclass(frozen=True)
class TableState:
    """The table's state at the start of an all-or-nothing step."""

    shoe: Shoe | None
    shoe_state: tuple[object, ...] | None
    shuffle_next: bool
    rounds_played: int
    open_streaks: list[StreakBet]
    history: int


class BlackjackTable:
    """A table with its rules and a chance source (strong RNG by default; scripted or live for replay and
    card readers). Open a round, place bets, close betting: the deal and the dealer run by themselves."""

    def __init__(self, rules: BlackjackRules | None = None, source: ChanceSource | None = None) -> None:
        self.rules = rules if rules is not None else BlackjackRules()
        self.source: ChanceSource = source if source is not None else SystemRandom()
        self.shoe: Shoe | None = None
        self.open_streaks: list[StreakBet] = []
        self.round: BlackjackRound | None = None
        self.rounds_played = 0
        self._shuffle_next = True
        self._reads: list[Card] | None = None
        self._probe: CardProbe | None = None
        self.history: deque[BlackjackSettlement] = deque(maxlen=HISTORY)

    # -- rounds -----------------------------------------------------------------------------------------------

    def open_round(self) -> BlackjackRound:
        """Open betting on a new round; the previous round must be over."""
        rnd = self.round
        if rnd is not None and rnd.phase is not Phase.SETTLED and rnd.phase is not Phase.VOID:
            raise IllegalAction("The current round is not finished.", rule="BJ 7.1")
        self.round = BlackjackRound(self, list(self.open_streaks))
        return self.round

    def streak_markers(self) -> dict[int, list[StreakBet]]:
        """BJ 13.5.3: the open streak bets by box (their ``wins`` is where the marker stands)."""
        out: dict[int, list[StreakBet]] = {}
        for s in self.open_streaks:
            out.setdefault(s.box, []).append(s)
        return out

    def forfeit_streaks(self, player: str) -> list[StreakBet]:
        """A player who leaves forfeits his open streak bets (BJ 13.5 reading); returns them (they lose)."""
        gone = [s for s in self.open_streaks if s.player == player]
        self.open_streaks = [s for s in self.open_streaks if s.player != player]
        return gone

    # -- the shoe (BJ 2, BJ 4) ------------------------------------------------------------------------------

    @property
    def shuffle_due(self) -> bool:
        """Whether the shoe is shuffled before the next deal (none yet, or the cut card came out, BJ 2.2)."""
        return self.shoe is None or self._shuffle_next

    def _new_shoe(self) -> Shoe:
        r = self.rules
        policy = BurnPolicy.PER_DECK if r.burn_after_shuffle is BurnAfterShuffle.PER_DECK else BurnPolicy.ONE
        shoe = Shoe(r.decks, self.source, cards_behind_cut=r.behind_cut, burn_after_shuffle=policy)
        shoe.on_empty = self._restock
        return shoe

    def prepare_shoe(self, rnd: BlackjackRound) -> None:
        """Before a round's deal: shuffle when due and burn as BJ 4 and SCENARIOS.md "Shoe" say."""
        r = self.rules
        device = r.dealing_device
        if self.shoe is not None and not self._shuffle_next and device is DealingDevice.SHOE:
            # Dealing on from the same shoe: only BJ 4.2's burn before every later round.
            if r.burn_each_round:
                rnd.operations.append(Burned(self.draw(burn=True), "BJ 4.2"))
            return
        fresh = self.shoe is None or self._shuffle_next or device is not DealingDevice.SHOE
        if self.shoe is None:
            self.shoe = self._new_shoe()
        elif fresh:
            self.shoe.shuffle()
        first_of_scenario = self.rounds_played == 0
        if fresh:
            rnd.operations.append(Shuffled())
        if device is DealingDevice.SHUFFLER:
            # A continuous shuffler: the used cards go back in after every round (BJ 2.2); it burns per
            # burn_after_shuffle before the first round only, then one card a round with burn_each_round.
            burns = self.shoe.burn_after_shuffle_count if first_of_scenario else int(r.burn_each_round)
        elif fresh:
            burns = self.shoe.burn_after_shuffle_count
        else:
            burns = int(r.burn_each_round)
        rule = "BJ 4.1" if fresh and (device is not DealingDevice.SHUFFLER or first_of_scenario) else "BJ 4.2"
        for _ in range(burns):
            rnd.operations.append(Burned(self.draw(burn=True), rule))
        self._shuffle_next = False

    def drawer(self) -> Callable[[], Card]:
        """What a round calls for each card of a step: the shoe's own ``draw`` when the shoe is random (nothing to
        record: it never refuses a card, and it restocks through the table when it runs out), else :meth:`draw`,
        which keeps the cards a step reads so that an undone step can give them back."""
        shoe = self.shoe
        if shoe is not None and shoe.is_random and self._reads is None:
            return shoe.draw
        return self.draw

    def _restock(self) -> None:
        """A random shoe ran out mid-round: the discards are shuffled back in and dealing goes on (BJ 2.2)."""
        shoe = self.shoe
        if shoe is not None and shoe.is_random and self.round is not None:
            shoe.restock(self.round.cards_in_play())
            self.round.operations.append(Shuffled(discards=True))

    def draw(self, *, burn: bool = False) -> Card:
        """The next card out of the shoe (``burn``: set aside face down, BJ 4); a random shoe that runs out
        mid-round is restocked from the discards. Inside a step (:meth:`begin_step`) every card read is kept, to
        be given back to a scripted or live source if the step is undone."""
        if self._probe is not None:
            return self._probe.draw()
        shoe = self.shoe
        assert shoe is not None
        try:
            card = shoe.burn(1)[0] if burn else shoe.draw()
        except ChanceExhausted:
            if not shoe.is_random or self.round is None:
                raise
            self._restock()
            card = shoe.burn(1)[0] if burn else shoe.draw()
        if self._reads is not None:
            self._reads.append(card)
        return card

    # -- all or nothing (a refused action changes nothing) -----------------------------------------------------

    def begin_step(self) -> TableState | None:
        """Start an all-or-nothing step; return what :meth:`rollback_step` needs, or None when nothing can be
        refused. Only a scripted or live shoe can refuse a card, so only then is the table's state kept."""
        if self.source.is_random:
            return None
        self._reads = []
        return TableState(
            self.shoe,
            self.shoe.snapshot() if self.shoe is not None else None,
            self._shuffle_next,
            self.rounds_played,
            list(self.open_streaks),
            len(self.history),
        )

    @contextmanager
    def probing(self, operations: Sequence[object]) -> Iterator[CardProbe]:
        """A trial step on a scripted or live shoe (the cards come from outside, one by one): inside the block every
        card is read straight from the source (the shoe is not asked), the first card the source cannot give is
        replaced by a stand-in and the one after it stops the step (:class:`ProbeDone`); on leaving, the table is
        as it was and the cards read go back to the source. ``operations`` is the round's log. A random shoe has
        no trial: its shuffle would use up randomness (``IllegalAction``)."""
        if self.source.is_random:
            raise IllegalAction("A random shoe deals by itself: no card is waited for.", rule="BJ 5.2")
        saved = self.begin_step()
        assert saved is not None
        probe = self._probe = CardProbe(self.source, operations)
        try:
            yield probe
        finally:
            self._probe = None
            self._reads = probe.reads
            self.rollback_step(saved)

    def commit_step(self) -> None:
        """End a step begun by :meth:`begin_step` that went through."""
        self._reads = None

    def rollback_step(self, saved: TableState) -> None:
        """Undo the table's part of a refused step and give the cards it read back to the source."""
        reads, self._reads = self._reads or [], None
        self.shoe = saved.shoe
        if self.shoe is not None and saved.shoe_state is not None:
            self.shoe.restore(saved.shoe_state)
        self._shuffle_next = saved.shuffle_next
        self.rounds_played = saved.rounds_played
        self.open_streaks = saved.open_streaks
        while len(self.history) > saved.history:
            self.history.pop()
        if reads:
            self.source.unread(reads)

    def round_finished(self, rnd: BlackjackRound) -> None:
        """A round is settled or void: count it, keep its streak bets and settlement, and shuffle next when the
        cut card came out."""
        self.rounds_played += 1
        self.open_streaks = rnd.streaks_after  # the round's own new list: the table only ever replaces it
        if rnd.settlement is not None:
            self.history.append(rnd.settlement)
        shoe = self.shoe
        if shoe is not None and shoe.cut_card_out:
            self._shuffle_next = True  # BJ 2.2: the cut card came out, this round was the last
