"""A blackjack round as a state machine driven by operations (BJ 5-20, SCENARIOS.md "The order in which a
round asks").

Phases: ``BETTING`` (bets placed per box and bettor) → ``close_betting()`` → the deal (BJ 5.2) → ``OFFERS``
(even money BJ 10.3, insurance BJ 12; then the peek in procedure 3) → ``PLAY`` (boxes from the left, hands in
order: hit/stand/double/split/surrender/five-card claim, followers' and Any Pair questions) → the dealer
(BJ 6.1) → settlement ("Original bet only", the summary table, side bets BJ 13-14, streaks BJ 13.5) →
``SETTLED`` (or ``VOID``, BJ 5.1.2).

:attr:`BlackjackRound.pending` says who must answer what, with the legal answers; every action is verified
first and a refused one raises (:class:`IllegalAction`, :class:`OutOfTurn`, :class:`BetRejected`) with the rule
id and changes nothing. The operations log is the round's history. What spans rounds (the shoe, open streak
bets) lives on :class:`croupier.blackjack.table.BlackjackTable`.

A scripted or live card source can refuse a card in the middle of a step (no card reported yet, a card the shoe
no longer holds); which cards a step needs is only known as they come out, so such a step is undone from a
restore point of the round's own state (:meth:`Box.save`, :meth:`Hand.save`) and the cards read go back to the
source. A random shoe never refuses a card and takes no restore point.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypedDict, TypeVar

from croupier.blackjack import settlement, sidebets
from croupier.blackjack.box import Bettor, Box
from croupier.blackjack.hand import Hand, HandStatus, best_total, is_ace_six, is_natural
from croupier.blackjack.operations import (
    OFFER_ACTIONS,
    PLAY_ACTIONS,
    Answered,
    BetOutcome,
    BetPlaced,
    BettingClosed,
    BlackjackSettlement,
    BoxOutcome,
    Burned,
    CardVoided,
    Dealt,
    Decision,
    HandOutcome,
    HoleCardTurned,
    Operation,
    Paid,
    Peeked,
    Phase,
    RoundVoided,
    Settled,
    StreakBet,
    answered,
    dealt,
    play_question,
)
from croupier.blackjack.probe import ProbeDone
from croupier.blackjack.rules import (
    AnyPairAfterSplit,
    BlackjackRules,
    BustedStakes,
    DealerSoft17,
    DoubleOn,
    SideBet,
    SplitPairBy,
)
from croupier.errors import BetRejected, CroupierError, IllegalAction, OutOfTurn
from croupier.money import check_stake
from croupier.primitives.cards import Card, Rank
from croupier.statute import LIMITS

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from croupier.blackjack.table import BlackjackTable


class Who(TypedDict, total=False):
    """Who an answer is for, checked against the question (an answer for anyone else is refused)."""

    box: int
    player: str
    hand: int


@dataclass(frozen=True)
class NextCard:
    """Where the next card out of the shoe goes (:meth:`BlackjackRound.next_card`): ``burn`` (BJ 4), a ``box``'s
    hand (``box``, ``hand``; ``face_up`` False for a face-down card, procedure 1), the ``dealer``'s face-up card,
    or the dealer's face-down ``hole`` card (procedure 3, a dealing box)."""

    to: Literal["burn", "box", "dealer", "hole"]
    box: int | None = None
    hand: int | None = None
    face_up: bool = True


T = TypeVar("T")

_BETTING, _OFFERS, _PLAY, _SETTLED, _VOID = Phase.BETTING, Phase.OFFERS, Phase.PLAY, Phase.SETTLED, Phase.VOID
_STOOD, _BUST, _DOUBLED, _BLACKJACK = HandStatus.STOOD, HandStatus.BUST, HandStatus.DOUBLED, HandStatus.BLACKJACK
_HIT_STAND = ("hit", "stand")
_HIT_STAND_CLAIM = ("hit", "stand", "claim_five_card")
_CLAIM_STAND = ("claim_five_card", "stand")
_SPLIT_STAND = ("split", "stand")
_TWO_CARD_OPTIONS = {
    (double, split, surrender): ("hit", "stand")
    + (("double",) if double else ())
    + (("split",) if split else ())
    + (("surrender",) if surrender else ())
    for double in (False, True)
    for split in (False, True)
    for surrender in (False, True)
}
"""The answers to a hand's first two cards: hit, stand, then double, split, surrender as allowed."""
_STAKE_ACTIONS = frozenset({"double", "split", "follow"})
_STAKE_RULES = {"double": "BJ 17.1", "split": "BJ 16.2", "follow": "BJ 20.1"}
_BETTING_CLOSED = BettingClosed()
_SETTLED_OP = Settled()


def _hand_outcome(h: Hand) -> HandOutcome:
    """A hand as it ended, for the settlement record."""
    hard = h.hard
    total = hard + 10 if h.aces and hard <= 11 else hard  # Hand.total, written out
    return HandOutcome(tuple(h.cards), total, (h.status or _STOOD)._value_)


class BlackjackRound:
    """One round at a blackjack table. Made by :meth:`BlackjackTable.open_round`."""

    # Scalars that start the same in every round (an instance value replaces them when they change).
    hole_hidden: bool = False
    settlement: BlackjackSettlement | None = None
    _box_i: int = 0
    _hand_i: int = 0
    _after_questions: tuple[str, Box, int] | None = None
    _streaks_placed: bool = False
    _early_bj_known: bool = False

    def __init__(self, table: BlackjackTable, open_streaks: list[StreakBet]) -> None:
        self.table = table
        self._draw: Callable[[], Card] = table.draw  # the next card (BlackjackTable.drawer once the shoe is ready)
        self.rules: BlackjackRules = table.rules
        self.phase = _BETTING
        self.operations: list[Operation] = []
        self.boxes: dict[int, Box] = {}
        self.dealer: list[Card] = []
        self._open_streaks = open_streaks
        self._questions: list[Decision] = []  # a handful at most: a list is lighter than a deque
        self._order: list[Box] = []
        self._players: list[str] = []
        self.streaks_after: list[StreakBet] = []

    # == inspection ==============================================================================================

    @property
    def is_over(self) -> bool:
        """True once the round is settled or void."""
        return self.phase is _SETTLED or self.phase is _VOID

    @property
    def pending(self) -> Decision | None:
        """The question the round waits on, or None (betting, or over)."""
        return self._questions[0] if self._questions else None

    @property
    def up_card(self) -> Card | None:
        """The dealer's first (face-up) card."""
        return self.dealer[0] if self.dealer else None

    def dealer_total(self) -> int:
        """The dealer's total so far."""
        return best_total(self.dealer)[0] if self.dealer else 0

    def next_card(self, answer: str | None = None, *, amount: int | None = None) -> NextCard | None:
        """Where the next card the shoe must give goes, on a table whose cards come from outside (a scripted
        source, a card reader or a dealer: the cards already given come first): for a live table's dealer.

        In the betting phase, the card of the deal that closing betting starts (the burns BJ 4.1-4.2, one card to
        each box from the dealer's left, the dealer's up card, the second cards, the hole card: BJ 5.1-5.2). With a
        question pending, the card answering it with ``answer`` (and ``amount``, as :meth:`act`) draws: a hit or
        a double (BJ 6.4, BJ 17.2), a split hand's second card (BJ 16), the dealer's cards after the last
        decision (BJ 6.1). None when that step needs no further card, when a question waits and ``answer`` is
        None (the card depends on the answer), or when the round is over. Nothing changes: the step is tried and
        undone (:meth:`BlackjackTable.probing`). Raises as :meth:`verify_close_betting` or :meth:`verify` would,
        and ``IllegalAction`` for a random shoe, which deals by itself.
        """
        if self.is_over:
            return None
        step: Callable[[], object]
        if self.phase is _BETTING:
            if answer is not None:
                raise IllegalAction(f"{answer!r}: the cards are not dealt yet.", rule="BJ 5.1")
            self.verify_close_betting()
            step = self._close_betting
        elif answer is None or not self._questions:
            return None
        else:
            q = self.verify(answer, amount=amount)
            step = lambda: self._act(q, answer, amount)  # noqa: E731 - a one-line trial step
        saved, draw = self._save(), self._draw
        op: object = None
        with self.table.probing(self.operations) as probe:
            try:
                step()
            except ProbeDone:
                pass
            finally:
                if probe.at is not None and probe.at < len(self.operations):
                    op = self.operations[probe.at]
                self._restore(saved)
                self._draw = draw
        if isinstance(op, Burned):
            return NextCard("burn", face_up=False)
        if isinstance(op, Dealt):
            if op.box is None:
                return NextCard("dealer") if op.face_up else NextCard("hole", face_up=False)
            return NextCard("box", op.box, op.hand, op.face_up)
        return None

    # == betting =================================================================================================

    def verify_place_bet(
        self,
        box: int,
        player: str,
        *,
        main: int = 0,
        side: Mapping[str, int] | None = None,
        streak: Mapping[Any, int] | None = None,
    ) -> Bettor:
        """Check a bettor's stakes on a box; return the bettor record as it would be, or raise BetRejected.

        Streak levels are 2-5 (:func:`croupier.blackjack.sidebets.parse_streak_level` also takes ``"2"`` …
        ``"5"``). A bet that stakes nothing (no main, side or streak stake) is refused.
        """
        r = self.rules
        if self.phase is not _BETTING:
            raise IllegalAction("Betting is closed for this round.", rule="BJ 5.1")
        if not isinstance(player, str) or not player:
            raise BetRejected(f"{player!r} is not a player name.", rule="BJ 3")
        if isinstance(box, bool) or not isinstance(box, int) or not 1 <= box <= r.boxes:
            raise BetRejected(f"Box {box!r} is not on this table: boxes are 1 to {r.boxes}.", rule="BJ 1")
        if not main and not side and not streak:
            raise BetRejected(
                f"{player}'s bet on box {box} stakes nothing: a bet is a main bet, a side bet or a streak bet.",
                rule="BJ 3",
            )
        current = self.boxes.get(box)
        existing = current.bettors.get(player) if current is not None else None
        if main:
            if (
                type(main) is int  # a plain int: not a bool, not a float
                and main > 0
                and not main % (2 * r.chip_unit)
                and r.main_bet_range[0] <= main <= r.main_bet_range[1]
            ):
                pass  # the usual case, checked inline; check_stake says why anything else is refused
            else:
                check_stake(
                    main,
                    bet_type="main",
                    chip_unit=r.chip_unit,
                    min_bet=r.min_bet,
                    max_bet=r.max_bet,
                    multiple=2,
                    what="a main bet",
                )
        elif main != 0:
            check_stake(main, bet_type="main", chip_unit=r.chip_unit, min_bet=r.min_bet, max_bet=r.max_bet)
        if side:
            for key, stake in side.items():
                if key not in sidebets.SIDE_KEYS:
                    raise BetRejected(f"{key!r} is not a side bet ({', '.join(sidebets.SIDE_KEYS)}).", rule="BJ 13")
                if SideBet(sidebets.side_kind(key)) not in r.side_bets_offered:
                    raise BetRejected(f"This table does not offer the {key} side bet.", rule="BJ 13")
                check_stake(stake, bet_type=key, chip_unit=r.chip_unit, min_bet=r.min_bet, max_bet=r.max_bet)
        if existing is None:
            merged = Bettor(player, main, {}, {})
        else:
            merged = Bettor(player, existing.main + main, dict(existing.side), dict(existing.streak))
            if main and merged.main > r.max_bet.for_type("main"):
                raise BetRejected(
                    f"{main} more on box {box} makes {player}'s main bet {merged.main}, above the table maximum "
                    f"{r.max_bet.for_type('main')}.",
                    rule=LIMITS,
                )
        if side:
            for key, stake in side.items():
                merged.side[key] = merged.side.get(key, 0) + stake
                if merged.side[key] > r.max_bet.for_type(key):
                    raise BetRejected(
                        f"{stake} more makes {player}'s {key} bet on box {box} {merged.side[key]}, above the "
                        f"table maximum {r.max_bet.for_type(key)}.",
                        rule=LIMITS,
                    )
        if streak:
            for level_key, stake in streak.items():
                if SideBet.STREAK not in r.side_bets_offered:
                    raise BetRejected("This table does not offer the streak bet.", rule="BJ 13.5")
                level = sidebets.parse_streak_level(level_key)
                check_stake(stake, bet_type="streak", chip_unit=r.chip_unit, min_bet=r.min_bet, max_bet=r.max_bet)
                if merged.main <= 0:
                    raise BetRejected(
                        f"{player} has no main bet on box {box}: a streak bet needs the bettor's own main bet.",
                        rule="BJ 13.5.4",
                    )
                if level in merged.streak or any(
                    s.box == box and s.player == player and s.level == level for s in self._open_streaks
                ):
                    raise BetRejected(
                        f"{player} already has a streak bet on {level} wins open on box {box}.", rule="BJ 13.5.3"
                    )
                merged.streak[level] = stake
        if r.one_side_bet_per_box and (merged.side or merged.streak):
            kinds = {sidebets.side_kind(k) for k in merged.side} | ({"streak"} if merged.streak else set())
            if len(kinds) > 1:
                raise BetRejected(
                    f"{player} may place one kind of side bet per box, not {', '.join(sorted(kinds))} on box {box}.",
                    rule="BJ 13",
                )
        if existing is None:
            limit = r.bettors_per_box_limit if current is not None else None
            if limit is not None and current is not None and len(current.bettors) >= limit:
                raise BetRejected(f"Box {box} already has {limit} bettors, the most this table allows.", rule="BJ 20.1")
            if r.max_boxes_per_player is not None:
                # SCENARIOS.md: every box on which the player holds any bet, main or side, counts.
                mine = {n for n, b in self.boxes.items() if player in b.bettors}
                if box not in mine and len(mine) >= r.max_boxes_per_player:
                    raise BetRejected(
                        f"{player} already bets on {len(mine)} boxes, the most this table allows.", rule="BJ 3"
                    )
        return merged

    def can_place_bet(
        self,
        box: int,
        player: str,
        *,
        main: int = 0,
        side: Mapping[str, int] | None = None,
        streak: Mapping[Any, int] | None = None,
    ) -> bool:
        """Whether :meth:`place_bet` would accept these stakes."""
        try:
            self.verify_place_bet(box, player, main=main, side=side, streak=streak)
        except CroupierError:
            return False
        return True

    def place_bet(
        self,
        box: int,
        player: str,
        *,
        main: int = 0,
        side: Mapping[str, int] | None = None,
        streak: Mapping[Any, int] | None = None,
    ) -> BetPlaced:
        """Place (or add to) a bettor's main bet, side bets and streak bets on a box."""
        merged = self.verify_place_bet(box, player, main=main, side=side, streak=streak)
        b = self.boxes.get(box)
        if b is None:
            b = self.boxes[box] = Box(box)
        b.bettors[player] = merged
        if player not in self._players:
            self._players.append(player)
        levels: tuple[tuple[int, int], ...] = ()
        if streak:
            self._streaks_placed = True
            levels = tuple(sorted((sidebets.parse_streak_level(k), v) for k, v in streak.items()))
        op = BetPlaced(box, player, main, tuple(sorted(side.items())) if side else (), levels)
        self.operations.append(op)
        return op

    def seat(self, box: int, player: str | None) -> None:
        """Record who sits at a box (the seated player decides under BJ 20.1.1 and 20.1.2)."""
        if self.phase is not _BETTING:
            raise IllegalAction("Seats are taken before the deal.", rule="BJ 20.1")
        b = self.boxes.get(box)
        if b is None:
            b = self.boxes[box] = Box(box)
        b.seated = player

    def forfeit_streaks(self, player: str) -> None:
        """BJ 13.5.4 (reading): a player who does not bet again on a box where his streak bets are open forfeits
        them, on the table and on this round; call it before betting closes."""
        if self.phase is not _BETTING:
            raise IllegalAction("Streak bets are forfeited before betting closes.", rule="BJ 13.5.4")
        self.table.forfeit_streaks(player)
        self._open_streaks[:] = [s for s in self._open_streaks if s.player != player]

    def verify_close_betting(self) -> None:
        """Raise unless every box has a main bet and every open streak bet is backed by its main bet."""
        if self.phase is not _BETTING:
            raise IllegalAction("Betting is already closed for this round.", rule="BJ 5.1")
        live = False
        for b in self.boxes.values():
            if b.bettors:
                live = True
                for bt in b.bettors.values():
                    if bt.main:
                        break
                else:
                    raise BetRejected(
                        f"Box {b.number} carries only side bets: a side bet needs a main bet on its box.",
                        rule="BJ 13",
                    )
        if not live:
            raise IllegalAction("No box has a bet: there is nothing to deal.", rule="BJ 5.1")
        for s in self._open_streaks:
            box = self.boxes.get(s.box)
            bettor = box.bettors.get(s.player) if box else None
            if bettor is None or bettor.main <= 0:
                raise BetRejected(
                    f"{s.player} has a streak bet open on box {s.box} and must place a main bet there every round "
                    "until it is decided.",
                    rule="BJ 13.5.4",
                )

    def close_betting(self) -> BettingClosed:
        """Close betting and deal (BJ 5.2); the round then waits on its first question, if any."""
        self.verify_close_betting()
        if self.table.source.is_random:
            return self._close_betting()
        return self._atomic(self._close_betting)

    def _close_betting(self) -> BettingClosed:
        op = _BETTING_CLOSED
        self.operations.append(op)
        self.phase = _OFFERS
        boxes = self.boxes
        order: list[Box] = []
        for n in sorted(boxes) if len(boxes) > 1 else boxes:
            b = boxes[n]
            if b.bettors:
                b.decider = self._decider(b)
                order.append(b)
        self._order = order
        self.table.prepare_shoe(self)
        self._draw = self.table.drawer()
        self._deal()
        self._queue_offers()
        self._advance()
        return op

    def _decider(self, box: Box) -> str:
        """BJ 20.1: who decides for the box."""
        if self.rules.box_control == 3:
            mains = [b for b in box.bettors.values() if b.main > 0]
            top = max(b.main for b in mains)
            tied = [b.player for b in mains if b.main == top]
            return box.seated if box.seated in tied else tied[0]
        seated = box.bettors.get(box.seated) if box.seated else None
        if seated is not None and seated.main > 0:
            return seated.player
        for b in box.bettors.values():
            if b.main > 0:
                return b.player
        raise AssertionError(f"box {box.number} has no main bet")  # verify_close_betting refuses that

    # == cards =====================================================================================================

    def _burn(self, rule: str) -> None:
        card = self.table.draw(burn=True)
        self.operations.append(Burned(card, rule))

    def cards_in_play(self) -> list[Card]:
        """The cards on the table now: every hand's and the dealer's."""
        return [c for b in self._order for h in b.hands for c in h.cards] + list(self.dealer)

    def _atomic(self, step: Callable[[], T]) -> T:
        """Run ``step`` all or nothing: when a scripted or live source refuses a card mid-step (an unknown or
        impossible card, no card to give), the round and table go back to where they were and the cards read
        are given back, so the step can be tried again."""
        saved_table = self.table.begin_step()
        if saved_table is None:
            return step()
        saved = self._save()
        try:
            result = step()
        except BaseException:
            self._restore(saved)
            self.table.rollback_step(saved_table)
            raise
        self.table.commit_step()
        return result

    def _save(self) -> tuple[Any, ...]:
        """A restore point: the round's own state (not the table's, see :meth:`BlackjackTable.begin_step`)."""
        return (
            self.phase, len(self.operations), list(self.dealer), self.hole_hidden, list(self._questions),
            list(self._order), self._box_i, self._hand_i, self._after_questions, list(self._players),
            self._early_bj_known, self.settlement, list(self.streaks_after), list(self._open_streaks),
            dict(self.boxes), [(b, b.save()) for b in self.boxes.values()],
        )  # fmt: skip

    def _restore(self, saved: tuple[Any, ...]) -> None:
        """Go back to a :meth:`_save` restore point."""
        (
            self.phase, n_operations, self.dealer, self.hole_hidden, questions, self._order, self._box_i,
            self._hand_i, self._after_questions, self._players, self._early_bj_known, self.settlement,
            self.streaks_after, open_streaks, self.boxes, boxes,
        ) = saved  # fmt: skip
        del self.operations[n_operations:]
        self._questions = questions
        self._open_streaks[:] = open_streaks
        for b, state in boxes:
            b.restore(state)

    def _give(self, box: Box, index: int) -> Card:
        card = self._draw()
        hand = box.hands[index]
        cards = hand.cards
        cards.append(card)
        hand.hard += card.value
        hand.aces += card.is_ace
        n_dealt = box.cards_dealt = box.cards_dealt + 1
        if n_dealt == 3 and box.third_card is None:
            box.third_card = card
        n = len(cards)
        if hand.any_pair_stakes and n == 2:
            # BJ 13.1 reading: a split hand's Any Pair stakes are decided by its first two cards, now known
            # (a later resplit of this hand starts new hands and new stakes).
            pair = cards[0].rank is cards[1].rank
            for p, stake in hand.any_pair_stakes.items():
                box.split_any_pair.append((p, stake, index, pair))
            hand.any_pair_stakes = {}
        face_up = self.rules.procedure != 1 or n > 2 or hand.from_split
        if not face_up:
            hand.hidden = n
        self.operations.append(dealt(card, box.number, index, face_up))
        return card

    def _deal_dealer(self, face_up: bool) -> Card:
        card = self._draw()
        self.dealer.append(card)
        self.operations.append(dealt(card, None, None, face_up))
        return card

    def _deal(self) -> None:
        """BJ 5.1/5.2: one card to each box from the left, the dealer's up card, the second round of cards,
        and the hole card in procedure 3 or with a dealing box."""
        # The first two cards of a box, written out (the general case is :meth:`_give`): no third card, no
        # split, face down only in procedure 1 (BJ 5.2).
        draw = self._draw
        ops = self.operations
        face_up = self.rules.procedure != 1
        order = self._order
        for b in order:
            stakes: dict[str, int] = {}
            for p, bt in b.bettors.items():
                if bt.main > 0:
                    stakes[p] = bt.main
            card = draw()
            b.hands = [Hand([card], stakes)]
            b.cards_dealt = 1
            if not face_up:
                b.hands[0].hidden = 1
            ops.append(dealt(card, b.number, 0, face_up))
        self._deal_dealer(True)
        for b in order:
            card = draw()
            hand = b.hands[0]
            hand.add(card)
            b.cards_dealt = 2
            if not face_up:
                hand.hidden = 2
            ops.append(dealt(card, b.number, 0, face_up))
            b.first_two = list(hand.cards)
            if hand.is_blackjack:
                hand.status = _BLACKJACK
                hand.done = True
        if self.rules.has_hole_card:
            self._deal_dealer(False)
            self.hole_hidden = True

    # == offers (BJ 10.3, BJ 12) and the peek =====================================================================

    def _queue_offers(self) -> None:
        up = self.dealer[0]
        ace, ten = up.is_ace, up.value == 10
        if not ace and not ten:
            return
        r = self.rules
        for b in self._order:
            bj = b.is_blackjack
            for bettor in b.bettors.values():
                if bettor.main <= 0:
                    continue
                if (ace and bj) or (ten and bj and r.even_money_on_ten):
                    self._questions.append(
                        Decision("offer", b.number, 0, bettor.player, ("even_money", "decline"), rule="BJ 10.3")
                    )
                elif ace:
                    cap = self._insurance_cap(bettor.main)
                    low = -(-r.min_stake("insurance") // r.chip_unit) * r.chip_unit
                    actions = ("insurance", "decline") if cap >= max(low, r.chip_unit) else ("decline",)
                    self._questions.append(
                        Decision("offer", b.number, None, bettor.player, actions, max_insurance=cap, rule="BJ 12.1")
                    )

    def _insurance_cap(self, main: int) -> int:
        """BJ 12.1, SCENARIOS.md: the most insurance a bettor may place, in whole chip units."""
        r = self.rules
        limit = r.insurance_limit
        cap = min(main * limit.numerator // limit.denominator, r.max_bet.for_type("insurance"))  # ⌊limit × main⌋
        return cap - cap % r.chip_unit

    def _peek(self) -> bool:
        """Procedure 3 with the peek under an ace or ten: True when the dealer's blackjack ends the round."""
        if not self.rules.dealer_peeks or len(self.dealer) < 2:
            return False
        up = self.dealer[0]
        if not up.is_ace and up.value != 10:
            return False
        bj = is_natural(self.dealer)
        self.operations.append(Peeked(bj))
        if bj:
            self._early_bj_known = True
        return bj

    # == answering =================================================================================================

    def verify(self, action: str, *, box: int | None = None, player: str | None = None, hand: int | None = None,
               amount: int | None = None) -> Decision:  # fmt: skip
        """Check that ``action`` answers the pending question; return the question, or raise.

        ``box``, ``player`` and ``hand`` (when given) must be those the round waits on (else
        :class:`OutOfTurn`); ``player`` defaults to the one asked, and an insurance offer is for the box's only
        hand, 0. ``amount`` is the insurance stake; with ``double``, ``split`` or ``follow`` it is optional and,
        when given, must be the stake the answer adds (:meth:`answer_stake`), else :class:`BetRejected`.
        """
        if not self._questions:
            if self.phase is _BETTING:
                raise IllegalAction(f"{action!r}: the cards are not dealt yet.", rule="BJ 5.1")
            raise OutOfTurn(f"{action!r}: the round is over and waits on nobody.", rule="BJ 6.3")
        q = self._questions[0]
        if box is not None and box != q.box:
            raise OutOfTurn(
                f"{action!r} for box {box}, but the round waits on box {q.box} ({q.player}).", rule="BJ 6.3"
            )
        if player is not None and player != q.player:
            raise OutOfTurn(
                f"{action!r} by {player}, but the round waits on {q.player} at box {q.box}.", rule="BJ 20.2"
            )
        if hand is not None and hand != (0 if q.hand is None else q.hand):
            if q.hand is None:
                raise OutOfTurn(
                    f"{action!r} for hand {hand}, but the offer to {q.player} at box {q.box} is for its only hand, 0.",
                    rule="BJ 6.3",
                )
            raise OutOfTurn(f"{action!r} for hand {hand}, but box {q.box} plays hand {q.hand}.", rule="BJ 6.3")
        insurance_offer = q.kind == "offer" and q.hand is None
        if action not in q.actions and not (action == "insurance" and insurance_offer):
            raise IllegalAction(self._why_not(action, q), rule=self._rule_of(action, q))
        if action == "insurance":
            self._verify_insurance(q, amount)
        elif amount is not None and action in _STAKE_ACTIONS:
            if isinstance(amount, bool) or not isinstance(amount, int):
                raise BetRejected(f"{action} with an amount of {amount!r}: give a whole amount.", rule=LIMITS)
            stake = self._answer_stake(q, action, amount)
            if amount != stake:
                raise BetRejected(
                    f"{action} by {q.player} at box {q.box} adds {stake}, not {amount}.", rule=_STAKE_RULES[action]
                )
        return q

    def _verify_insurance(self, q: Decision, amount: object) -> None:
        """BJ 12.1 and the table limits: whole chip units, from the insurance minimum up to the bettor's cap. An
        offer whose cap is below the insurance minimum lists only ``decline``: insuring there is a refused bet
        (whatever the amount), not an illegal action (scenario ``blackjack-own-err-insurance-minimum-above-cap``)."""
        r = self.rules
        low = r.min_stake("insurance")
        if "insurance" not in q.actions:
            raise BetRejected(
                f"{q.player} cannot insure at box {q.box}: the insurance minimum {low} is above the limit "
                f"{q.max_insurance} ({r.insurance_limit} of the main bet, BJ 12.1).",
                rule=LIMITS,
            )
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise BetRejected(f"Insurance of {amount!r}: give a whole amount.", rule="BJ 12.1")
        if amount < low or amount % r.chip_unit:
            raise BetRejected(
                f"Insurance of {amount} must be whole chip units of {r.chip_unit}, at least {low}.", rule=LIMITS
            )
        if amount > q.max_insurance:
            raise BetRejected(
                f"Insurance of {amount} is over the limit of {q.max_insurance} "
                f"({r.insurance_limit} of the main bet, BJ 12.1).",
                rule="BJ 12.1",
            )

    def can(self, action: str, *, box: int | None = None, player: str | None = None, hand: int | None = None,
            amount: int | None = None) -> bool:  # fmt: skip
        """Whether :meth:`act` would accept this answer now."""
        try:
            self.verify(action, box=box, player=player, hand=hand, amount=amount)
        except CroupierError:
            return False
        return True

    def answer_stake(self, action: str, amount: int | None) -> int:
        """What answering the pending question with ``action`` adds to the answering bettor's stakes: a double,
        his stake on the hand; a split, his main bet; a follow, his stake on the hand after a double or his main
        bet after a split; insurance, ``amount``; new Any Pair stakes, twice his Any Pair bet; else nothing."""
        if not self._questions:
            raise IllegalAction(f"{action!r}: no question is waiting for an answer.", rule="BJ 6.3")
        return self._answer_stake(self._questions[0], action, amount)

    def _answer_stake(self, q: Decision, action: str, amount: int | None) -> int:
        b = self.boxes[q.box]
        if action == "double":
            return b.hands[q.hand or 0].stakes[q.player]
        if action == "split":
            return b.bettors[q.player].main
        if action == "follow":
            after = self._after_questions
            if after is not None and after[0] == "double":
                return b.hands[q.hand or 0].stakes.get(q.player, 0)
            return b.bettors[q.player].main
        if action == "insurance":
            return amount or 0
        if action == "any_pair":
            return 2 * b.bettors[q.player].side.get("any_pair", 0)
        return 0

    def act(self, action: str, *, box: int | None = None, player: str | None = None, hand: int | None = None,
            amount: int | None = None) -> Answered:  # fmt: skip
        """Answer the pending question with ``action`` (see :data:`PLAY_ACTIONS`, :data:`OFFER_ACTIONS`,
        ``follow``, ``any_pair``), then run the round on to its next question."""
        q = self.verify(action, box=box, player=player, hand=hand, amount=amount)
        if self.table.source.is_random:
            return self._act(q, action, amount)
        return self._atomic(lambda: self._act(q, action, amount))

    def _act(self, q: Decision, action: str, amount: int | None) -> Answered:
        del self._questions[0]
        op = answered(q, action, amount or 0)
        self.operations.append(op)
        b = self.boxes[q.box]
        kind = q.kind
        if kind == "play":
            self._answer_play(b, q, action)
        elif kind == "offer":
            self._answer_offer(b, q, action, amount or 0)
        elif kind == "follow":
            if action == "follow":
                self._follow(b, q)
        elif kind == "any_pair" and action == "any_pair":
            stake = b.bettors[q.player].side["any_pair"]
            for i in (q.hand or 0, (q.hand or 0) + 1):
                b.hands[i].any_pair_stakes[q.player] = stake
        self._advance()
        return op

    # The action triads of STYLE.md: verify_*, can_*, and the action.
    def hit(self, **who: Unpack[Who]) -> Answered:
        """Draw a card (BJ 6.4)."""
        return self.act("hit", **who)

    def stand(self, **who: Unpack[Who]) -> Answered:
        """Take no more cards."""
        return self.act("stand", **who)

    def double(self, **who: Unpack[Who]) -> Answered:
        """Double the bet for exactly one more card (BJ 17)."""
        return self.act("double", **who)

    def split(self, **who: Unpack[Who]) -> Answered:
        """Split a pair into two hands (BJ 16)."""
        return self.act("split", **who)

    def surrender(self, **who: Unpack[Who]) -> Answered:
        """Give up the hand for half the bet (BJ 18)."""
        return self.act("surrender", **who)

    def claim_five_card(self, **who: Unpack[Who]) -> Answered:
        """Take the five-card payment of half the bet (BJ 19)."""
        return self.act("claim_five_card", **who)

    def insure(self, amount: int, **who: Unpack[Who]) -> Answered:
        """Place insurance of ``amount`` (BJ 12)."""
        return self.act("insurance", amount=amount, **who)

    def take_even_money(self, **who: Unpack[Who]) -> Answered:
        """Take even money on a blackjack (BJ 10.3)."""
        return self.act("even_money", **who)

    def decline(self, **who: Unpack[Who]) -> Answered:
        """Refuse the pending offer (insurance, even money, follow, Any Pair)."""
        return self.act("decline", **who)

    def follow(self, **who: Unpack[Who]) -> Answered:
        """Add a stake to the deciding player's double or split (BJ 20 reading)."""
        return self.act("follow", **who)

    def place_any_pair(self, **who: Unpack[Who]) -> Answered:
        """Place Any Pair stakes on the two hands a split produced (BJ 13.1 reading)."""
        return self.act("any_pair", **who)

    def verify_hit(self) -> Decision:
        """Raise unless ``hit`` is a legal answer now."""
        return self.verify("hit")

    def can_hit(self) -> bool:
        """Whether ``hit`` is a legal answer now."""
        return self.can("hit")

    def verify_double(self) -> Decision:
        """Raise unless ``double`` is a legal answer now."""
        return self.verify("double")

    def can_double(self) -> bool:
        """Whether ``double`` is a legal answer now."""
        return self.can("double")

    def verify_split(self) -> Decision:
        """Raise unless ``split`` is a legal answer now."""
        return self.verify("split")

    def can_split(self) -> bool:
        """Whether ``split`` is a legal answer now."""
        return self.can("split")

    def verify_surrender(self) -> Decision:
        """Raise unless ``surrender`` is a legal answer now."""
        return self.verify("surrender")

    def can_surrender(self) -> bool:
        """Whether ``surrender`` is a legal answer now."""
        return self.can("surrender")

    def _why_not(self, action: str, q: Decision) -> str:
        asked = f"{q.player} at box {q.box}" + (f", hand {q.hand}" if q.hand is not None and q.kind == "play" else "")
        reason = {
            "surrender": " (surrender is the first decision on the first two cards, not against an ace, BJ 18)",
            "double": " (doubling is on the first two cards as the table allows, BJ 17.1)",
            "split": " (a split needs a pair, within the table's hand limit, BJ 16)",
            "claim_five_card": " (five cards totalling 21 or less, dealer not showing an ace, BJ 19)",
            "insurance": " (insurance is offered when the dealer shows an ace, BJ 12.1)",
            "even_money": " (even money is for a blackjack against an ace or ten-value card, BJ 10.3)",
        }.get(action, "")
        return f"{action!r} is not allowed now{reason}: {asked} may answer {', '.join(q.actions)}."

    @staticmethod
    def _rule_of(action: str, q: Decision) -> str:
        return {
            "surrender": "BJ 18.1",
            "double": "BJ 17.1",
            "split": "BJ 16.1",
            "claim_five_card": "BJ 19.1",
            "insurance": "BJ 12.1",
            "even_money": "BJ 10.3",
            "hit": "BJ 6.4",
            "follow": "BJ 20.1",
            "any_pair": "BJ 13.1",
        }.get(action, q.rule or "BJ 6.5")

    def _answer_offer(self, b: Box, q: Decision, action: str, amount: int) -> None:
        bettor = b.bettors[q.player]
        if action == "insurance":
            bettor.insurance = amount
        elif action == "even_money":
            bettor.even_money = True
            hand = b.hands[0]
            net = hand.stakes[q.player]
            hand.early_net[q.player] = net
            self.operations.append(Paid(b.number, 0, q.player, "even_money", net, "BJ 10.3"))
            if all(p in hand.early_net for p in hand.stakes):
                hand.status = HandStatus.EVEN_MONEY

    # == play ======================================================================================================

    def _play_options(self, b: Box, i: int) -> tuple[str, ...]:
        hand = b.hands[i]
        hard = hand.hard
        if hard > 21:
            return ()
        n = len(hand.cards)
        if hand.split_ace:
            # BJ 16.3: one card only; an ace received may be split again while resplit_aces allows.
            if n == 2 and self._may_split(b, hand):
                return _SPLIT_STAND
            return ()
        r = self.rules
        up_ace = self.dealer[0].is_ace
        five = n == 5 and r.five_card_payment and not up_ace
        if (hard + 10 if hand.aces and hard <= 11 else hard) == 21:
            return _CLAIM_STAND if five else ()
        if n != 2:
            return _HIT_STAND_CLAIM if five else _HIT_STAND
        from_split = hand.from_split
        # BJ 17.1: doubling (after a split only as the table allows, never on split aces, handled above).
        double = (not from_split or r.double_after_split) and (r.double_on is DoubleOn.ANY_TWO or hard == 11)
        a, c = hand.cards
        split = (a.rank is c.rank or (r.split_pair_by is SplitPairBy.VALUE and a.value == c.value)) and self._may_split(
            b, hand
        )
        surrender = not b.did_split and r.surrender and not up_ace and i == 0 and not from_split
        return _TWO_CARD_OPTIONS[double, split, surrender]

    def _may_split(self, b: Box, hand: Hand) -> bool:
        r = self.rules
        a, c = hand.cards
        pair = a.rank is c.rank if r.split_pair_by is SplitPairBy.RANK else a.value == c.value
        if not pair or len(b.hands) >= r.split_hands_limit:
            return False
        if b.declined_split and not r.split_after_declining:
            return False
        return not (hand.split_ace and not r.resplit_aces)

    def _answer_play(self, b: Box, q: Decision, action: str) -> None:
        i = q.hand or 0
        hand = b.hands[i]
        if "split" in q.actions and action != "split":
            b.declined_split = True  # BJ 16.5: a split that was offered and not taken
        if action == "hit":
            self._give(b, i)
            self._after_card(b, i)
        elif action == "stand":
            hand.done = True
            hand.status = _STOOD
        elif action == "double":
            b.did_double = True
            hand.doubled = True
            hand.hidden = 0  # the cards are turned up to double
            decider = q.player
            hand.stakes[decider] += hand.stakes[decider]
            self._ask_follow(b, i, decider)
            self._after_questions = ("double", b, i)
        elif action == "split":
            self._split(b, i, q.player)
        elif action == "surrender":
            b.surrendered = True
            hand.done = True
            hand.status = HandStatus.SURRENDERED
            for p, stake in hand.stakes.items():
                hand.early_net[p] = -(stake // 2)
                self.operations.append(Paid(b.number, i, p, "surrender", -(stake // 2), "BJ 18.1"))
        elif action == "claim_five_card":
            hand.done = True
            hand.status = HandStatus.FIVE_CARD
            for p, stake in hand.stakes.items():
                won = settlement.paid(stake, settlement.FIVE_CARD_PAYS)
                hand.early_net[p] = won
                self.operations.append(Paid(b.number, i, p, "five_card", won, "BJ 19.1"))

    def _ask_follow(self, b: Box, i: int, decider: str) -> None:
        if len(b.bettors) == 1:
            return
        stakes = b.hands[i].stakes
        for bettor in b.bettors.values():
            if bettor.player != decider and bettor.player in stakes:
                self._questions.append(
                    Decision("follow", b.number, i, bettor.player, ("follow", "decline"), rule="BJ 20.1")
                )

    def _follow(self, b: Box, q: Decision) -> None:
        i = q.hand or 0
        kind = self._after_questions[0] if self._after_questions else ""
        if kind == "double":
            b.hands[i].stakes[q.player] *= 2
        else:  # a split: the follower's original main bet goes on the new hand
            b.hands[i + 1].stakes[q.player] = b.bettors[q.player].main

    def _split(self, b: Box, i: int, decider: str) -> None:
        hand = b.hands[i]
        hand.hidden = 0  # the pair is shown to split it
        moved = hand.pop()
        first_split = not b.did_split
        b.did_split = True
        if first_split and b.cards_dealt == 2:
            b.third_after_split = True
        new = Hand([moved], {decider: b.bettors[decider].main}, from_split=True)
        hand.from_split = True
        hand.split_ace = hand.cards[0].rank is Rank.ACE
        b.hands.insert(i + 1, new)
        self._ask_follow(b, i, decider)
        if self.rules.any_pair_after_split is AnyPairAfterSplit.NEW_STAKE:
            for bettor in b.bettors.values():
                if "any_pair" in bettor.side:
                    self._questions.append(
                        Decision("any_pair", b.number, i, bettor.player, ("any_pair", "decline"), rule="BJ 13.1")
                    )
        self._after_questions = ("split", b, i)

    def _after_card(self, b: Box, i: int) -> None:
        """A hand got a card by a hit or a double: bust, special bonus (BJ 15), 21."""
        hand = b.hands[i]
        if hand.hard > 21:
            hand.done = True
            hand.status = _BUST
            hand.hidden = 0  # BJ 6.2: a bust is shown at once
            return
        if len(hand.cards) == 3 and self.rules.special_bonus and sidebets.special_bonus(hand.cards):
            hand.done = True
            hand.status = HandStatus.SPECIAL_BONUS
            for p, stake in hand.stakes.items():
                won = settlement.paid(stake, settlement.SPECIAL_BONUS_PAYS)
                hand.early_net[p] = won
                self.operations.append(Paid(b.number, i, p, "special_bonus", won, "BJ 15"))
            return
        if hand.doubled:
            hand.done = True
            hand.status = _DOUBLED

    def _finish_questions(self) -> None:
        """After the follow and Any Pair questions: deal the doubled hand's card, or play on after a split."""
        if self._after_questions is None:
            return
        kind, b, i = self._after_questions
        self._after_questions = None
        if kind == "double":
            self._give(b, i)
            self._after_card(b, i)

    # == the run loop ==============================================================================================

    def _advance(self) -> None:
        """Run the dealer's steps until a question is pending or the round is settled."""
        while not self._questions:
            phase = self.phase
            if phase is _PLAY:
                if self._after_questions is not None:
                    self._finish_questions()
                    if self._questions:
                        return
                if not self._next_play_question():
                    self._dealer_plays()
                    self._settle()
                return
            if phase is not _OFFERS:
                return
            if self._peek():
                self._settle()
                return
            self.phase = _PLAY

    def _next_play_question(self) -> bool:
        """Find the next hand that must decide; False when every box is played."""
        order = self._order
        box_i, hand_i = self._box_i, self._hand_i
        while box_i < len(order):
            b = order[box_i]
            hands = b.hands
            while hand_i < len(hands):
                hand = hands[hand_i]
                if not hand.done:
                    if len(hand.cards) == 1:
                        self._give(b, hand_i)  # a split hand's second card, dealt when its turn comes
                    opts = self._play_options(b, hand_i)
                    if opts:
                        self._box_i, self._hand_i = box_i, hand_i
                        self._questions.append(play_question(b.number, hand_i, b.decider, opts))
                        return True
                    hand.done = True
                    if hand.status is None:
                        hand.status = _BUST if hand.hard > 21 else _STOOD
                hand_i += 1
            box_i += 1
            hand_i = 0
        self._box_i, self._hand_i = box_i, hand_i
        return False

    # == the dealer (BJ 6.1, BJ 5.2) ==============================================================================

    def _unsettled(self) -> tuple[bool, bool]:
        """(any stake still unsettled, some unsettled non-blackjack hand standing) — SCENARIOS.md step 4."""
        up = self.dealer[0]
        maybe_bj = up.is_ace or up.value == 10
        r = self.rules
        refunded = r.busted_stakes_on_dealer_blackjack is BustedStakes.REFUNDED
        order = self._order
        any_open = standing = False
        for b in order:
            if up.is_ace:  # insurance is only offered against an ace
                for bt in b.bettors.values():
                    if bt.insurance:
                        any_open = True
            for h in b.hands:
                st = h.status
                if st is _STOOD or st is _DOUBLED:
                    any_open = standing = True
                elif st is _BLACKJACK:
                    for p in h.stakes:
                        if p not in h.early_net:
                            any_open = True
                elif st is _BUST and maybe_bj and refunded and settlement.original_bet_only(r, b):
                    any_open = True
        return any_open, standing

    def _dealer_plays(self) -> None:
        any_open, standing = self._unsettled()
        r = self.rules
        if not r.has_hole_card:
            if not any_open:
                return
            if r.burn_before_dealer_second_card:
                self._burn("BJ 4.2")
            self._deal_dealer(True)
        elif len(self.dealer) < 2:
            self._deal_dealer(True)  # the hole card was voided (BJ 6.1): the dealer completes from the shoe
        elif self.hole_hidden:
            self.hole_hidden = False
            self.operations.append(HoleCardTurned(self.dealer[1]))
        dealer = self.dealer
        if not standing or is_natural(dealer):
            return
        rule = r.dealer_soft_17
        draw = self._draw
        ops = self.operations
        hard = 0
        ace = False
        for c in dealer:
            hard += c.value
            ace = ace or c.is_ace
        while True:
            soft = ace and hard <= 11
            total = hard + 10 if soft else hard
            if total < 17 or (
                total == 17
                and soft
                and (rule is DealerSoft17.HIT_ALL or (rule is DealerSoft17.HIT_ACE_SIX and is_ace_six(dealer)))
            ):
                card = draw()  # BJ 6.1: the dealer draws, face up (_deal_dealer, written out)
                dealer.append(card)
                ops.append(dealt(card, None, None, True))
                hard += card.value
                ace = ace or card.is_ace
                continue
            return

    # == settlement ==================================================================================================

    def _settle(self) -> None:
        dealer = self.dealer
        if self.hole_hidden and len(dealer) > 1:
            self.hole_hidden = False
            self.operations.append(HoleCardTurned(dealer[1]))
        r = self.rules
        hard = 0
        ace = False
        for c in dealer:
            hard += c.value
            ace = ace or c.is_ace
        dealer_total = hard + 10 if ace and hard <= 11 else hard  # BJ 8
        dealer_bj = dealer_total == 21 and len(dealer) == 2  # BJ 10.1
        dealer_bust = dealer_total > 21
        outcomes: list[BetOutcome] = []
        boxes_out: list[BoxOutcome] = []
        still_open: list[StreakBet] = []
        streaks = bool(self._open_streaks) or self._streaks_placed
        for b in self._order:
            number = b.number
            results: dict[str, str] = {}
            mains = settlement.main_results(r, b, dealer_total, dealer_bj, dealer_bust)
            for bettor in b.bettors.values():
                p = bettor.player
                if bettor.main > 0:
                    net, result, rule = mains[p]
                    results[p] = result
                    outcomes.append(BetOutcome(number, p, "main", bettor.main, net, rule))
                if bettor.insurance:
                    net = (
                        settlement.paid(bettor.insurance, settlement.INSURANCE_PAYS) if dealer_bj else -bettor.insurance
                    )
                    outcomes.append(BetOutcome(number, p, "insurance", bettor.insurance, net, "BJ 12.2"))
                if bettor.side:
                    for key, stake in bettor.side.items():
                        outcomes.append(settlement.side_outcome(r, b, p, key, stake))
                if b.split_any_pair:
                    for who, stake, hand_index, pair in b.split_any_pair:
                        if who == p:
                            odds = r.paytables.any_pair if pair else None
                            rule = f"BJ 13.1, split hand {hand_index}"
                            outcomes.append(BetOutcome(number, p, "any_pair", stake, settlement.pay(stake, odds), rule))
            if streaks:
                for s in self._streaks_for(b):
                    outcome, left = settlement.streak_step(r, s, results.get(s.player, "push"))
                    outcomes.append(outcome)
                    if left is not None:
                        still_open.append(left)
            hands = (_hand_outcome(b.hands[0]),) if len(b.hands) == 1 else tuple(map(_hand_outcome, b.hands))
            boxes_out.append(BoxOutcome(number, results.get(b.decider, "push"), hands))
        self.streaks_after = still_open
        self.settlement = BlackjackSettlement(
            tuple(dealer), dealer_total, dealer_bj, tuple(boxes_out), tuple(outcomes), False, tuple(self._players)
        )
        self.phase = _SETTLED
        self._questions.clear()
        self.operations.append(_SETTLED_OP)
        self.table.round_finished(self)

    def _streaks_for(self, b: Box) -> list[StreakBet]:
        out = [s for s in self._open_streaks if s.box == b.number] if self._open_streaks else []
        for bettor in b.bettors.values():
            if bettor.streak:
                out += [
                    StreakBet(b.number, bettor.player, level, stake) for level, stake in sorted(bettor.streak.items())
                ]
        return out

    # == live-table corrections (BJ 5.1, BJ 6.1) ====================================================================

    def void_round(self, reason: str = "a dealing error that cannot be corrected") -> RoundVoided:
        """BJ 5.1.2: every card of the round is void and every bet returned (early payments included)."""
        if self.is_over:
            raise IllegalAction("A settled round cannot be voided.", rule="BJ 5.1.2")
        op = RoundVoided(reason)
        self.operations.append(op)
        self._questions.clear()
        outcomes = [
            BetOutcome(n, bt.player, "main", bt.main, 0, "BJ 5.1.2", "void")
            for n, b in sorted(self.boxes.items())
            for bt in b.bettors.values()
            if bt.main
        ]
        self.settlement = BlackjackSettlement(
            tuple(self.dealer), self.dealer_total(), False, (), tuple(outcomes), void=True,
            player_order=tuple(self._players),
        )  # fmt: skip
        self.streaks_after = list(self._open_streaks)
        self.phase = Phase.VOID
        self.table.round_finished(self)
        return op

    def void_exposed_card(self) -> CardVoided:
        """BJ 5.1.1: a card exposed by accident is void and burned (it left the shoe; nobody receives it)."""
        if self.phase not in (Phase.OFFERS, Phase.PLAY):
            raise IllegalAction("Cards are exposed only while the round is being dealt or played.", rule="BJ 5.1.1")

        def expose() -> CardVoided:
            op = CardVoided(self.table.draw(), "BJ 5.1.1")
            self.operations.append(op)
            return op

        return self._atomic(expose)

    def void_dealer_card(self, card: Card) -> CardVoided:
        """BJ 6.1: a card the dealer drew wrongly is void and removed from the dealer's hand."""
        if card not in self.dealer[1:]:
            raise IllegalAction(f"{card} is not a card the dealer drew.", rule="BJ 6.1")
        if self.is_over:
            raise IllegalAction("The round is settled.", rule="BJ 6.1")
        if self.hole_hidden and self.dealer.index(card) == 1:
            self.hole_hidden = False
        self.dealer.remove(card)
        op = CardVoided(card, "BJ 6.1")
        self.operations.append(op)
        return op


__all__ = ["OFFER_ACTIONS", "PLAY_ACTIONS", "Bettor", "BlackjackRound", "Box", "Decision", "NextCard", "Phase"]
