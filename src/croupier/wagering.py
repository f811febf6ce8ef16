"""What roulette and sic bo share: a round of bets settled on one chance result.

A :class:`WagerRound` is a state machine driven by operations: betting open → the bell → the result (with
void results in between, each game deciding what a void means) → settlement, which collects every losing
bet first and then pays the winners in the game's order. Subclasses say how a bet is validated, how a result
is drawn and checked, what a bet nets and in which order winners are paid.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from croupier.errors import CroupierError, IllegalAction
from croupier.primitives.chance import ChanceSource, SystemRandom


class Phase(Enum):
    """Where a round stands."""

    BETTING = "betting"
    CLOSED = "closed"
    SETTLED = "settled"


class StakedBet(Protocol):
    """What settlement needs of a bet."""

    @property
    def player(self) -> str: ...

    @property
    def amount(self) -> int: ...


B = TypeVar("B", bound=StakedBet)
O = TypeVar("O")  # noqa: E741 - the outcome type (a pocket, three dice)


@dataclass(frozen=True, slots=True)
class BetPlaced(Generic[B]):
    """A bet accepted while betting was open."""

    index: int
    bet: B
    late: bool = False


@dataclass(frozen=True, slots=True)
class BetWithdrawn:
    """A bet taken back before the bell."""

    index: int


@dataclass(frozen=True, slots=True)
class BettingClosed:
    """The bell: no bet may be placed, changed or withdrawn."""


@dataclass(frozen=True, slots=True)
class LosingBetsCollected:
    """Settlement, first step: every losing bet is taken."""

    indexes: tuple[int, ...]
    amount: int


@dataclass(frozen=True, slots=True)
class WinningBetPaid:
    """Settlement: one winning bet paid (the operations log keeps the order of payment)."""

    index: int
    winnings: int


@dataclass(frozen=True, slots=True)
class BetResult(Generic[B]):
    """The outcome of one bet: ``net`` is the player's money change (+winnings, 0, or −stake)."""

    index: int
    bet: B
    net: int

    @property
    def won(self) -> bool:
        """True if the bet won."""
        return self.net > 0


@dataclass(frozen=True, slots=True)
class Settlement(Generic[B, O]):
    """A settled round: the result, every bet's net, the order of collection and of payment."""

    outcome: O
    voids: int
    results: tuple[BetResult[B], ...]
    collected: tuple[int, ...]
    payment_order: tuple[int, ...]

    def players(self) -> dict[str, int]:
        """Each bettor's net for the round (0 included), in order of first bet."""
        out: dict[str, int] = {}
        for r in self.results:
            out[r.bet.player] = out.get(r.bet.player, 0) + r.net
        return out

    @property
    def wagered(self) -> int:
        """The total staked."""
        return sum(r.bet.amount for r in self.results)

    @property
    def house_net(self) -> int:
        """The house's result: minus the players' nets (money is conserved)."""
        return -sum(r.net for r in self.results)


class WagerRound(ABC, Generic[B, O]):
    """One round of a bet-then-result game.

    Each action comes as ``verify_*`` (raises with the rule id), ``can_*`` (a bool) and the action itself,
    which returns its operation. A refused action changes nothing.
    """

    #: Rule ids cited by the shared checks: betting open/closed, result, settlement, void.
    RULE_BETTING: ClassVar[str]
    RULE_RESULT: ClassVar[str]
    RULE_SETTLE: ClassVar[str]
    RULE_VOID: ClassVar[str]

    def __init__(self, rules: Any, source: ChanceSource | None = None, *, auto_settle: bool = True) -> None:
        self.rules = rules
        self.source: ChanceSource = source if source is not None else SystemRandom()
        self.auto_settle = auto_settle
        self.phase = Phase.BETTING
        self.operations: list[object] = []
        self._bets: dict[int, B] = {}
        self._locked: set[int] = set()
        self._next_index = 0
        self.voids = 0
        self.outcome: O | None = None
        self.settlement: Settlement[B, O] | None = None

    # -- what a game supplies -----------------------------------------------------------------------------

    @abstractmethod
    def _make_bet(self, player: str, bet_type: str, amount: object, placement: dict[str, Any]) -> B:
        """Validate a bet against the rules (raise ``BetRejected``)."""

    @abstractmethod
    def _check_outcome(self, value: object) -> O:
        """Validate a reported result (raise ``ValueError``)."""

    @abstractmethod
    def _draw(self) -> O:
        """Draw a result from the chance source."""

    @abstractmethod
    def _net(self, bet: B, outcome: O) -> int:
        """The player's net on ``bet`` for ``outcome``."""

    @abstractmethod
    def _payment_key(self, index: int, bet: B) -> tuple[int, ...]:
        """Sort key of winning bets in the order they are paid."""

    @abstractmethod
    def _result_operation(self, outcome: O) -> object:
        """The operation recording the result."""

    @abstractmethod
    def _void_operation(self) -> object:
        """Record a void result and put the round where the game's rule says (bets always stand)."""

    # -- inspection ---------------------------------------------------------------------------------------

    @property
    def bets(self) -> dict[int, B]:
        """The standing bets by index (indexes are never reused within a round)."""
        return dict(self._bets)

    @property
    def is_over(self) -> bool:
        """True once the round is settled."""
        return self.phase is Phase.SETTLED

    @property
    def pending(self) -> tuple[str, ...]:
        """The legal next actions."""
        if self.phase is Phase.BETTING:
            return ("place_bet", "withdraw_bet", "close_betting")
        if self.phase is Phase.CLOSED:
            return ("settle",) if self.outcome is not None else ("result", "void")
        return ()

    # -- betting --------------------------------------------------------------------------------------------

    def verify_place_bet(self, player: str, bet_type: str, amount: object, **placement: Any) -> B:
        """Check a bet and return it validated; raise if it cannot be placed now."""
        if self.phase is not Phase.BETTING:
            raise IllegalAction("Betting is closed: no bet may be placed after the bell.", rule=self.RULE_BETTING)
        return self._make_bet(player, bet_type, amount, placement)

    def can_place_bet(self, player: str, bet_type: str, amount: object, **placement: Any) -> bool:
        """Whether :meth:`place_bet` would accept this bet."""
        return _succeeds(lambda: self.verify_place_bet(player, bet_type, amount, **placement))

    def place_bet(self, player: str, bet_type: str, amount: object, **placement: Any) -> BetPlaced[B]:
        """Place a bet while betting is open."""
        bet = self.verify_place_bet(player, bet_type, amount, **placement)
        op = BetPlaced(self._next_index, bet, late=self.voids > 0)
        self._bets[op.index] = bet
        self._next_index += 1
        self.operations.append(op)
        return op

    def verify_withdraw_bet(self, index: int) -> None:
        """Raise unless bet ``index`` may be withdrawn now (before the bell; never a bet standing from a void)."""
        if self.phase is not Phase.BETTING:
            raise IllegalAction(f"Bet {index} cannot be withdrawn: betting is closed.", rule=self.RULE_BETTING)
        if index not in self._bets:
            raise IllegalAction(f"There is no standing bet number {index} to withdraw.", rule=self.RULE_BETTING)
        if index in self._locked:
            raise IllegalAction(
                f"Bet {index} was placed before a void result and may not be withdrawn.", rule=self.RULE_VOID
            )

    def can_withdraw_bet(self, index: int) -> bool:
        """Whether :meth:`withdraw_bet` would succeed."""
        return _succeeds(lambda: self.verify_withdraw_bet(index))

    def withdraw_bet(self, index: int) -> BetWithdrawn:
        """Take a bet back before the bell."""
        self.verify_withdraw_bet(index)
        del self._bets[index]
        op = BetWithdrawn(index)
        self.operations.append(op)
        return op

    def verify_close_betting(self) -> None:
        """Raise unless betting is open."""
        if self.phase is not Phase.BETTING:
            raise IllegalAction("Betting is already closed for this round.", rule=self.RULE_BETTING)

    def can_close_betting(self) -> bool:
        """Whether the bell can be rung now."""
        return self.phase is Phase.BETTING

    def close_betting(self) -> BettingClosed:
        """Ring the bell: betting closes."""
        self.verify_close_betting()
        self.phase = Phase.CLOSED
        op = BettingClosed()
        self.operations.append(op)
        return op

    # -- the result ---------------------------------------------------------------------------------------

    def verify_result(self) -> None:
        """Raise unless a result (or a void) may be declared now: after the bell, before a result."""
        if self.phase is Phase.BETTING:
            raise IllegalAction("There is no result before the bell closes betting.", rule=self.RULE_BETTING)
        if self.outcome is not None or self.phase is Phase.SETTLED:
            raise IllegalAction("This round already has its result.", rule=self.RULE_RESULT)

    def can_result(self) -> bool:
        """Whether a result or a void may be declared now."""
        return _succeeds(self.verify_result)

    def declare_void(self) -> object:
        """Declare the running result void; every bet placed stands."""
        self.verify_result()
        self.voids += 1
        self._locked.update(self._bets)
        op = self._void_operation()
        self.operations.append(op)
        return op

    def declare_result(self, value: object | None = None) -> object:
        """Record the result — as reported (sensor, dealer, script) or drawn from the source — and settle."""
        self.verify_result()
        outcome = self._check_outcome(value) if value is not None else self._check_outcome(self._draw())
        self.outcome = outcome
        op = self._result_operation(outcome)
        self.operations.append(op)
        if self.auto_settle:
            self.settle()
        return op

    # -- settlement ---------------------------------------------------------------------------------------

    def verify_settle(self) -> None:
        """Raise unless the round has a result and is not settled yet."""
        if self.outcome is None:
            raise IllegalAction("There is no result to settle on yet.", rule=self.RULE_SETTLE)
        if self.phase is Phase.SETTLED:
            raise IllegalAction("This round is already settled.", rule=self.RULE_SETTLE)

    def settle(self) -> Settlement[B, O]:
        """Collect the losing bets, then pay the winners in the game's order."""
        self.verify_settle()
        assert self.outcome is not None
        outcome = self.outcome
        results = tuple(BetResult(i, b, self._net(b, outcome)) for i, b in self._bets.items())
        losers = tuple(r.index for r in results if r.net < 0)
        winners = sorted((r for r in results if r.net > 0), key=lambda r: self._payment_key(r.index, r.bet))
        self.operations.append(LosingBetsCollected(losers, sum(-r.net for r in results if r.net < 0)))
        for r in winners:
            self.operations.append(WinningBetPaid(r.index, r.net))
        self.settlement = Settlement(outcome, self.voids, results, losers, tuple(r.index for r in winners))
        self.phase = Phase.SETTLED
        return self.settlement


def _succeeds(check: Callable[[], object]) -> bool:
    """Whether ``check`` passes; a refusal is a :class:`CroupierError` (any other error is a bug and propagates)."""
    try:
        check()
    except CroupierError:
        return False
    return True
