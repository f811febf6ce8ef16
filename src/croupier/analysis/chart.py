"""A total-dependent blackjack strategy chart (issue 4): what a player does from the hand's total, whether it
is soft, whether it is a pair, and the dealer's up card — the printable "basic strategy".

The chart is data: small integer arrays that the exact analyser (:mod:`croupier.analysis.ca`) optimises and
evaluates, the Monte Carlo kernel (:mod:`croupier.analysis.simulate`) plays at speed, and :meth:`Chart.decide`
plays through the engine. Indices are card values: up card ``1`` is an ace, ``10`` any ten-value card; totals
index rows directly (``hard[16, 10]`` is hard 16 against a ten).

Codes of the ``hard`` and ``soft`` tables: :data:`STAND`, :data:`HIT`, :data:`DOUBLE_HIT` (double where the
rules allow it, else hit) and :data:`DOUBLE_STAND` (double where allowed, else stand).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from croupier.errors import InvalidRules

STAND = 0
HIT = 1
DOUBLE_HIT = 2
DOUBLE_STAND = 3

CODES: dict[int, str] = {STAND: "S", HIT: "H", DOUBLE_HIT: "D", DOUBLE_STAND: "Ds"}
"""The letters a printed chart uses for each code."""

Table = npt.NDArray[np.int8]
Flags = npt.NDArray[np.bool_]


def _hand(cards: Sequence[int]) -> tuple[int, bool]:
    """(total, soft) of a hand of card values (an ace counts 11 where that does not bust it)."""
    hard = sum(cards)
    if 1 in cards and hard <= 11:
        return hard + 10, True
    return hard, False


@dataclass(frozen=True, eq=False)
class Chart:
    """A total-dependent strategy. Every table is indexed ``[row, up]`` with ``up`` 1 (ace) to 10.

    * ``hard[t, up]``, ``soft[t, up]``: the play code for a hard or soft total ``t`` (4-21; soft 12-21).
    * ``split[v, up]``: split a pair of value ``v`` (a pair as the rules define it) when allowed.
    * ``surrender_hard[t, up]``, ``surrender_soft[t, up]``, ``surrender_pair[v, up]``: surrender the box's
      first two cards (BJ 18) when allowed; checked before the split.
    * ``five_card[up]``: claim the five-card payment (BJ 19) on a five-card hand whose total is at most this
      (0: never).
    * ``even_money[up]``: take even money with a blackjack against ``up`` (1 or 10) when offered (BJ 10.3).
    * ``hard_multi[t, up]``, ``soft_multi[t, up]`` (the second kind of chart, :attr:`by_cards`): :data:`STAND`
      or :data:`HIT` for hands of three or more cards, which then no longer read ``hard`` and ``soft``
      (``None``: one entry per total for every hand).
    """

    hard: Table = field(default_factory=lambda: np.zeros((22, 11), np.int8))
    soft: Table = field(default_factory=lambda: np.zeros((22, 11), np.int8))
    split: Flags = field(default_factory=lambda: np.zeros((11, 11), np.bool_))
    surrender_hard: Flags = field(default_factory=lambda: np.zeros((22, 11), np.bool_))
    surrender_soft: Flags = field(default_factory=lambda: np.zeros((22, 11), np.bool_))
    surrender_pair: Flags = field(default_factory=lambda: np.zeros((11, 11), np.bool_))
    five_card: Table = field(default_factory=lambda: np.zeros(11, np.int8))
    even_money: Flags = field(default_factory=lambda: np.zeros(11, np.bool_))
    hard_multi: Table | None = None
    soft_multi: Table | None = None

    @property
    def by_cards(self) -> bool:
        """Whether hands of three or more cards have entries of their own (``hard_multi``, ``soft_multi``)."""
        return self.hard_multi is not None

    def __post_init__(self) -> None:
        shapes = {
            "hard": (22, 11),
            "soft": (22, 11),
            "split": (11, 11),
            "surrender_hard": (22, 11),
            "surrender_soft": (22, 11),
            "surrender_pair": (11, 11),
            "five_card": (11,),
            "even_money": (11,),
        }
        for name, shape in shapes.items():
            value = getattr(self, name)
            if not isinstance(value, np.ndarray) or value.shape != shape:
                raise InvalidRules([f"chart table {name} must be an array of shape {shape}"])
        if not np.isin(self.hard, list(CODES)).all() or not np.isin(self.soft, list(CODES)).all():
            raise InvalidRules([f"chart play codes must be among {sorted(CODES)}"])
        if (self.hard_multi is None) != (self.soft_multi is None):
            raise InvalidRules(["chart tables hard_multi and soft_multi come together or not at all"])
        for name in ("hard_multi", "soft_multi"):
            value = getattr(self, name)
            if value is None:
                continue
            if not isinstance(value, np.ndarray) or value.shape != (22, 11):
                raise InvalidRules([f"chart table {name} must be an array of shape (22, 11)"])
            if not np.isin(value, [STAND, HIT]).all():
                raise InvalidRules([f"chart table {name} holds stand ({STAND}) or hit ({HIT}) only (BJ 17.1)"])

    def play_code(self, total: int, soft: bool, cards: int, up: int) -> int:
        """The play code for a hand of ``cards`` cards and ``total`` (soft or not) against ``up``."""
        if cards >= 3 and self.hard_multi is not None and self.soft_multi is not None:
            return int((self.soft_multi if soft else self.hard_multi)[total, up])
        return int((self.soft if soft else self.hard)[total, up])

    def decide(
        self,
        cards: Sequence[int],
        up: int,
        *,
        can_double: bool,
        can_split: bool,
        can_surrender: bool,
        can_claim: bool,
    ) -> str:
        """The chart's answer for a hand of card values ``cards`` against ``up``, given what the rules allow
        now: ``"claim_five_card"``, ``"surrender"``, ``"split"``, ``"double"``, ``"hit"`` or ``"stand"``."""
        total, soft = _hand(cards)
        if can_claim and len(cards) == 5 and total <= self.five_card[up]:
            return "claim_five_card"
        if total >= 21:
            return "stand"
        if can_surrender and len(cards) == 2:
            if cards[0] == cards[1]:
                flag = self.surrender_pair[cards[0], up]
            else:
                flag = (self.surrender_soft if soft else self.surrender_hard)[total, up]
            if flag:
                return "surrender"
        if can_split and len(cards) == 2 and cards[0] == cards[1] and self.split[cards[0], up]:
            return "split"
        code = self.play_code(total, soft, len(cards), up)
        if code in (DOUBLE_HIT, DOUBLE_STAND):
            if can_double:
                return "double"
            return "hit" if code == DOUBLE_HIT else "stand"
        return "hit" if code == HIT else "stand"
