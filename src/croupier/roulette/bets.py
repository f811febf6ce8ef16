"""Roulette bets: the RO 6 types, their placements, and which numbers each covers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from croupier.errors import BetRejected
from croupier.money import check_stake
from croupier.primitives import wheel
from croupier.roulette.rules import BET_IDS, RouletteRules


class BetType(StrEnum):
    """The bet types of RO 6."""

    STRAIGHT = "straight"
    SPLIT = "split"
    STREET = "street"
    CORNER = "corner"
    SIX_LINE = "six_line"
    NINE = "nine"
    TWELVE_SPECIAL = "twelve_special"
    COLUMN = "column"
    DOZEN = "dozen"
    LOW = "low"
    HIGH = "high"
    ODD = "odd"
    EVEN = "even"
    RED = "red"
    BLACK = "black"


BET_TYPES: tuple[BetType, ...] = tuple(BetType)
assert tuple(t.value for t in BET_TYPES) == BET_IDS

# RO 5.1: winning bets are paid columns and dozens first (with the two twelve-number sets), then the
# nine-number bets, the even-money bets (red/black, odd/even, low/high), six-number lines, corners,
# streets, splits, and single numbers last.
PAYMENT_RANK: dict[BetType, int] = {
    BetType.COLUMN: 0,
    BetType.DOZEN: 0,
    BetType.TWELVE_SPECIAL: 0,
    BetType.NINE: 1,
    BetType.RED: 2,
    BetType.BLACK: 2,
    BetType.ODD: 2,
    BetType.EVEN: 2,
    BetType.LOW: 2,
    BetType.HIGH: 2,
    BetType.SIX_LINE: 3,
    BetType.CORNER: 4,
    BetType.STREET: 5,
    BetType.SPLIT: 6,
    BetType.STRAIGHT: 7,
}

_BY_NUMBERS: dict[BetType, tuple[int, frozenset[frozenset[int]] | None, str]] = {
    BetType.STRAIGHT: (1, None, "one number 0-36"),
    BetType.SPLIT: (2, wheel.SPLITS, "two numbers adjacent on the layout (or 0 with 1, 2 or 3)"),
    BetType.STREET: (3, wheel.STREETS, "a row n, n+1, n+2 (n = 1, 4, …, 34) or 0-1-2 or 0-2-3"),
    BetType.CORNER: (4, wheel.CORNERS, "four numbers meeting at a corner, or 0-1-2-3"),
    BetType.SIX_LINE: (6, wheel.SIX_LINES, "two adjacent rows (1-6, 4-9, …, 31-36)"),
    BetType.NINE: (9, None, "one of the table's nine-number blocks"),
}
_BY_INDEX: dict[BetType, tuple[frozenset[int], ...]] = {
    BetType.TWELVE_SPECIAL: wheel.TWELVE_SPECIAL,
    BetType.COLUMN: wheel.COLUMNS,
    BetType.DOZEN: wheel.DOZENS,
}
_FIXED: dict[BetType, frozenset[int]] = {
    BetType.LOW: wheel.LOW,
    BetType.HIGH: wheel.HIGH,
    BetType.ODD: wheel.ODD,
    BetType.EVEN: wheel.EVEN,
    BetType.RED: wheel.RED,
    BetType.BLACK: wheel.BLACK,
}


@dataclass(frozen=True, slots=True)
class Bet:
    """A validated roulette bet: who, what type, which numbers it covers, how much."""

    player: str
    type: BetType
    covers: frozenset[int]
    amount: int
    index: int | None = None

    @property
    def placement(self) -> str:
        """A short human description of where the chips lie, e.g. ``split 0-3`` or ``dozen 2``."""
        if self.index is not None:
            return f"{self.type.value} {self.index}"
        if self.type in _FIXED:
            return self.type.value
        return f"{self.type.value} " + "-".join(str(n) for n in sorted(self.covers))

    def wins_on(self, pocket: int) -> bool:
        """Whether the bet wins when ``pocket`` comes up (RO 4, RO 8: zero wins only bets covering it)."""
        return pocket in self.covers


def bet_type_of(name: object) -> BetType:
    """The :class:`BetType` named ``name``; :class:`BetRejected` (RO 6) otherwise."""
    try:
        return BetType(str(name))
    except ValueError:
        raise BetRejected(f"{name!r} is not a roulette bet; the bets are {', '.join(BET_IDS)}.", rule="RO 6") from None


def covered_numbers(
    rules: RouletteRules,
    bet_type: BetType,
    numbers: Sequence[int] | None = None,
    index: int | None = None,
) -> frozenset[int]:
    """The numbers a placement covers, checking it is one RO 6 allows; :class:`BetRejected` otherwise."""
    label = bet_type.value
    if index is not None and (isinstance(index, bool) or not isinstance(index, int)):
        raise BetRejected(f"{index!r} is not an index: a {label} bet's index is a whole number.", rule="RO 6")
    if numbers is not None and (
        isinstance(numbers, str | bytes)
        or not isinstance(numbers, Sequence)
        or any(isinstance(n, bool) or not isinstance(n, int) for n in numbers)
    ):
        raise BetRejected(f"{numbers!r} is not a list of numbers for a {label} bet.", rule="RO 6")
    if bet_type in _BY_NUMBERS:
        if index is not None:
            raise BetRejected(f"a {label} bet names its numbers, not an index ({index}).", rule="RO 6")
        count, allowed, shape = _BY_NUMBERS[bet_type]
        if not numbers:
            raise BetRejected(f"a {label} bet must name its numbers: {shape}.", rule="RO 6")
        chosen = frozenset(numbers)
        if len(numbers) != count or len(chosen) != count:
            raise BetRejected(f"{list(numbers)} is not a {label} placement: it needs {shape}.", rule="RO 6")
        if bet_type is BetType.NINE:
            allowed = frozenset(rules.nine_number_blocks)
        if any(not 0 <= n <= 36 for n in chosen) or (allowed is not None and chosen not in allowed):
            raise BetRejected(f"{list(numbers)} is not a {label} placement: it needs {shape}.", rule="RO 6")
        return chosen
    if numbers:
        raise BetRejected(f"a {label} bet takes no numbers ({list(numbers)} given).", rule="RO 6")
    if bet_type in _BY_INDEX:
        sets = _BY_INDEX[bet_type]
        valid = "1 (set A) or 2 (set B)" if bet_type is BetType.TWELVE_SPECIAL else "1, 2 or 3"
        if index is None or not 1 <= index <= len(sets):
            raise BetRejected(f"{index!r} is not a {label} index: it must be {valid}.", rule="RO 6")
        return sets[index - 1]
    if index is not None:
        raise BetRejected(f"a {label} bet takes no index ({index} given).", rule="RO 6")
    return _FIXED[bet_type]


def make_bet(
    rules: RouletteRules,
    player: str,
    bet_type: BetType | str,
    amount: object,
    *,
    numbers: Sequence[int] | None = None,
    index: int | None = None,
) -> Bet:
    """Validate a placement and a stake against the table's rules and return the :class:`Bet`."""
    kind = bet_type if isinstance(bet_type, BetType) else bet_type_of(bet_type)
    covers = covered_numbers(rules, kind, numbers, index)
    stake = check_stake(
        amount,
        bet_type=kind.value,
        chip_unit=rules.chip_unit,
        min_bet=rules.min_bet,
        max_bet=rules.max_bet,
    )
    if not isinstance(player, str) or not player:
        raise BetRejected(f"{player!r} is not a player name.", rule="RO 6")
    return Bet(player, kind, covers, stake, index if kind in _BY_INDEX else None)


def net(rules: RouletteRules, bet: Bet, pocket: int) -> int:
    """The player's net on ``bet`` when ``pocket`` wins: +stake × odds (RO 7) or −stake (RO 5, RO 8)."""
    if bet.wins_on(pocket):
        # Odds outside the statute may be fractional; the house pays whole units, rounding down.
        return (bet.amount * rules.odds(bet.type.value)).__floor__()
    return -bet.amount
