"""Money: integers in the table's smallest unit, and the per-bet-type table limits.

RULES.md "Money and table limits": amounts are whole chip units; each table sets ``min_bet`` and ``max_bet``
per bet type (defaults 2 and 1,000,000 units).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from croupier.errors import BetRejected
from croupier.statute import LIMITS

DEFAULT_MIN_BET = 2
DEFAULT_MAX_BET = 1_000_000
DEFAULT_CURRENCY = "MOP"
"""The currency amounts are shown in when a deployment names none (Macau's pataca)."""


def check_currency(code: str) -> str:
    """``code`` if it is an ISO 4217 currency code (three capital letters), else ``ValueError`` naming it."""
    if not (len(code) == 3 and code.isascii() and code.isalpha() and code.isupper()):
        raise ValueError(f"currency {code!r} is not an ISO 4217 code (three capital letters, e.g. MOP or HKD).")
    return code


def is_amount(value: object) -> bool:
    """True for a plain ``int`` (booleans and floats are not money)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Limit:
    """A limit that is one integer for every bet type, or an integer per bet type with a fallback."""

    default: int
    by_type: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    def for_type(self, bet_type: str) -> int:
        """The limit that applies to ``bet_type``."""
        return self.by_type.get(bet_type, self.default)

    def as_document(self) -> int | dict[str, int]:
        """The value as it is written in a rules file."""
        return dict(self.by_type) if self.by_type else self.default


def check_stake(
    amount: object,
    *,
    bet_type: str,
    chip_unit: int,
    min_bet: Limit,
    max_bet: Limit,
    multiple: int = 1,
    what: str | None = None,
) -> int:
    """Return ``amount`` if it is a legal stake for ``bet_type``; else raise ``BetRejected``.

    ``multiple`` is the number of chip units the amount must be a multiple of (2 for a blackjack main bet).
    """
    label = what or f"a {bet_type} bet"
    if not is_amount(amount):
        raise BetRejected(f"{amount!r} is not an amount of money for {label}: amounts are integers.", rule=LIMITS)
    assert isinstance(amount, int)
    if amount <= 0:
        raise BetRejected(f"{amount} is not a positive amount for {label}.", rule=LIMITS)
    step = chip_unit * multiple
    if amount % step:
        unit = f"{multiple} chip units ({step})" if multiple > 1 else f"the chip unit {chip_unit}"
        raise BetRejected(f"{amount} for {label} is not a multiple of {unit}.", rule=LIMITS)
    low, high = min_bet.for_type(bet_type), max_bet.for_type(bet_type)
    if amount < low:
        raise BetRejected(f"{amount} for {label} is below the table minimum {low}.", rule=LIMITS)
    if amount > high:
        raise BetRejected(f"{amount} for {label} is above the table maximum {high}.", rule=LIMITS)
    return amount
