"""A sic bo round (SB 2-7) on the shared bet-then-result state machine.

Betting opens when the shaker has been pressed (SB 2) and closes at the bell (SB 3.1); the dice are read
(SB 3.2) and the round settled, every winning bet paid before the next roll (SB 4). A void roll (SB 3.3)
starts a new betting window: the bets already placed stand and may not be withdrawn, and new bets are taken.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from croupier.errors import IllegalAction
from croupier.primitives.chance import ChanceSource, SystemRandom
from croupier.primitives.dice import Dice, check_dice
from croupier.sicbo.bets import PAYMENT_RANK, Bet, make_bet, net
from croupier.sicbo.rules import SicBoRules
from croupier.wagering import Phase, Settlement, WagerRound

SicBoSettlement = Settlement[Bet, Dice]


@dataclass(frozen=True, slots=True)
class RollVoided:
    """A void roll (SB 3.3): the bets stand, betting opens again for new bets."""

    number: int


@dataclass(frozen=True, slots=True)
class DiceRolled:
    """The dice as read when the cover is lifted (SB 3.2)."""

    dice: Dice


class SicBoRound(WagerRound[Bet, Dice]):
    """One round at a sic bo table; ``roll(dice=None)`` serves an RNG, a script and a dice sensor."""

    RULE_BETTING = "SB 3.1"
    RULE_RESULT = "SB 3.2"
    RULE_SETTLE = "SB 4"
    RULE_VOID = "SB 3.3"

    def __init__(self, rules: SicBoRules, source: ChanceSource | None = None, *, auto_settle: bool = True) -> None:
        super().__init__(rules, source, auto_settle=auto_settle)
        self.rules: SicBoRules = rules

    @property
    def dice(self) -> Dice | None:
        """The dice, once read."""
        return self.outcome

    @property
    def void_rolls(self) -> int:
        """How many rolls were declared void (SB 3.3)."""
        return self.voids

    def _make_bet(self, player: str, bet_type: str, amount: object, placement: dict[str, Any]) -> Bet:
        unknown = set(placement) - {"face", "total"}
        if unknown:
            raise TypeError(f"unknown placement arguments {sorted(unknown)}")
        return make_bet(self.rules, player, bet_type, amount, face=placement.get("face"), total=placement.get("total"))

    def _check_outcome(self, value: object) -> Dice:
        return check_dice(value)

    def _draw(self) -> Dice:
        return self.source.dice()

    def _net(self, bet: Bet, outcome: Dice) -> int:
        return net(self.rules, bet, outcome)

    def _payment_key(self, index: int, bet: Bet) -> tuple[int, ...]:
        return (PAYMENT_RANK[bet.type], index)

    def _result_operation(self, outcome: Dice) -> DiceRolled:
        return DiceRolled(outcome)

    def _void_operation(self) -> RollVoided:
        # SB 3.3: a new round starts and new bets are taken; the placed bets stand, locked.
        self.phase = Phase.BETTING
        return RollVoided(self.voids)

    def void_roll(self) -> RollVoided:
        """Declare the roll void (SB 3.3)."""
        op = self.declare_void()
        assert isinstance(op, RollVoided)
        return op

    def roll(self, dice: Dice | None = None) -> DiceRolled:
        """The dice: as reported by a sensor or dealer, or drawn from the source; then settle."""
        op = self.declare_result(dice)
        assert isinstance(op, DiceRolled)
        return op


class SicBoTable:
    """A sic bo table: rules, chance source, the current round and the settled ones."""

    def __init__(self, rules: SicBoRules | None = None, source: ChanceSource | None = None) -> None:
        self.rules = rules if rules is not None else SicBoRules()
        self.source: ChanceSource = source if source is not None else SystemRandom()
        self.history: deque[SicBoSettlement] = deque(maxlen=1000)  # the most recent settled rounds
        self.round: SicBoRound | None = None

    def verify_open_round(self) -> None:
        """The next round opens only when every winning bet of this one is paid (SB 4)."""
        if self.round is not None and not self.round.is_over:
            raise IllegalAction("The dome is not covered again until every winning bet is paid.", rule="SB 4")

    def open_round(self) -> SicBoRound:
        """Press the shaker and open betting on a new round (SB 2)."""
        self.verify_open_round()
        if self.round is not None and self.round.settlement is not None:
            self.history.append(self.round.settlement)
        self.round = SicBoRound(self.rules, self.source)
        return self.round


__all__ = ["DiceRolled", "Phase", "RollVoided", "SicBoRound", "SicBoSettlement", "SicBoTable"]
