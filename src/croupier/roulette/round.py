"""A roulette round (RO 2-5, RO 8) on the shared bet-then-result state machine.

Phases: betting (RO 3: open once the previous round is settled) → the bell → spin(s) → settled. A void spin
(RO 2.2) leaves every bet standing and the round waiting for another spin, which the ball starts from the
previous winning pocket. Settlement (RO 5.1) collects the losing bets first, then pays the winning ones in the
statutory order; the operations log and ``Settlement.payment_order`` show that order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from croupier.errors import IllegalAction
from croupier.primitives.chance import ChanceSource, SystemRandom
from croupier.primitives.wheel import check_pocket
from croupier.roulette.bets import PAYMENT_RANK, Bet, make_bet, net
from croupier.roulette.rules import RouletteRules
from croupier.wagering import Phase, Settlement, WagerRound

RouletteSettlement = Settlement[Bet, int]


@dataclass(frozen=True, slots=True)
class SpinVoided:
    """A void spin (RO 2.2): the bets stand; the ball goes back to ``restart_pocket`` and is spun again."""

    restart_pocket: int | None


@dataclass(frozen=True, slots=True)
class BallLanded:
    """The winning pocket (RO 4); ``launched_from`` is the pocket the ball was spun from (RO 2.2)."""

    pocket: int
    launched_from: int | None


class RouletteRound(WagerRound[Bet, int]):
    """One round at a roulette table; ``spin(pocket=None)`` serves an RNG, a script and a wheel sensor."""

    RULE_BETTING = "RO 3"
    RULE_RESULT = "RO 4"
    RULE_SETTLE = "RO 5.1"
    RULE_VOID = "RO 2.2"

    def __init__(
        self,
        rules: RouletteRules,
        source: ChanceSource | None = None,
        *,
        launch_pocket: int | None = None,
        auto_settle: bool = True,
    ) -> None:
        super().__init__(rules, source, auto_settle=auto_settle)
        self.rules: RouletteRules = rules
        self.launch_pocket = launch_pocket

    @property
    def pocket(self) -> int | None:
        """The winning pocket, once the ball has landed."""
        return self.outcome

    @property
    def void_spins(self) -> int:
        """How many spins were declared void (RO 2.2)."""
        return self.voids

    def _make_bet(self, player: str, bet_type: str, amount: object, placement: dict[str, Any]) -> Bet:
        unknown = set(placement) - {"numbers", "index"}
        if unknown:
            raise TypeError(f"unknown placement arguments {sorted(unknown)}")
        numbers: Sequence[int] | None = placement.get("numbers")
        index: int | None = placement.get("index")
        return make_bet(self.rules, player, bet_type, amount, numbers=numbers, index=index)

    def _check_outcome(self, value: object) -> int:
        return check_pocket(value)

    def _draw(self) -> int:
        return self.source.pocket()

    def _net(self, bet: Bet, outcome: int) -> int:
        return net(self.rules, bet, outcome)

    def _payment_key(self, index: int, bet: Bet) -> tuple[int, ...]:
        return (PAYMENT_RANK[bet.type], index)

    def _result_operation(self, outcome: int) -> BallLanded:
        return BallLanded(outcome, self.launch_pocket)

    def _void_operation(self) -> SpinVoided:
        # RO 2.2: the ball is placed in the previous winning pocket and spun again; betting stays closed.
        return SpinVoided(self.launch_pocket)

    def void_spin(self) -> SpinVoided:
        """Declare the running spin void (RO 2.2)."""
        op = self.declare_void()
        assert isinstance(op, SpinVoided)
        return op

    def spin(self, pocket: int | None = None) -> BallLanded:
        """The ball lands: ``pocket`` as reported by a wheel sensor or dealer, or drawn from the source."""
        op = self.declare_result(pocket)
        assert isinstance(op, BallLanded)
        return op


class RouletteTable:
    """A roulette table: its rules, chance source, and what spans rounds (the last winning pocket)."""

    def __init__(self, rules: RouletteRules | None = None, source: ChanceSource | None = None) -> None:
        self.rules = rules if rules is not None else RouletteRules()
        self.source: ChanceSource = source if source is not None else SystemRandom()
        self.last_pocket: int | None = None
        self.history: deque[RouletteSettlement] = deque(maxlen=1000)  # the most recent settled rounds
        self.round: RouletteRound | None = None

    def verify_open_round(self) -> None:
        """Betting opens only once the previous round is settled (RO 3)."""
        if self.round is not None and not self.round.is_over:
            raise IllegalAction("Betting opens only after the previous round is settled.", rule="RO 3")

    def open_round(self) -> RouletteRound:
        """Open betting on a new round (RO 3)."""
        self.verify_open_round()
        if self.round is not None and self.round.settlement is not None:
            self.history.append(self.round.settlement)
            self.last_pocket = self.round.settlement.outcome
        self.round = RouletteRound(self.rules, self.source, launch_pocket=self.last_pocket)
        return self.round


__all__ = ["BallLanded", "Phase", "RouletteRound", "RouletteSettlement", "RouletteTable", "SpinVoided"]
