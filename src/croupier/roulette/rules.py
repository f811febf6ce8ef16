"""Roulette rules as a document: table limits, the RO 7 paytable and the RO 6 nine-number blocks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, ClassVar

from croupier import rulesdoc
from croupier.money import Limit
from croupier.primitives.wheel import NINE_BLOCKS
from croupier.rulesdoc import OptionKind, dump_odds, option, parse_odds

BET_IDS: tuple[str, ...] = (
    "straight", "split", "street", "corner", "six_line", "nine", "twelve_special",
    "column", "dozen", "low", "high", "odd", "even", "red", "black",
)  # fmt: skip
"""The RO 6 bet types, by id."""

STATUTE_ODDS: Mapping[str, Fraction] = MappingProxyType(
    {
        "straight": Fraction(35),
        "split": Fraction(17),
        "street": Fraction(11),
        "corner": Fraction(8),
        "six_line": Fraction(5),
        "nine": Fraction(3),
        "twelve_special": Fraction(2),
        "column": Fraction(2),
        "dozen": Fraction(2),
        "low": Fraction(1),
        "high": Fraction(1),
        "odd": Fraction(1),
        "even": Fraction(1),
        "red": Fraction(1),
        "black": Fraction(1),
    }
)
"""RO 7: the odds (to 1) of every bet type."""


def _parse_paytable(value: object) -> Mapping[str, Fraction]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{value!r} is not an object of odds by bet type")
    table = dict(STATUTE_ODDS)
    for key, odds in value.items():
        if key not in STATUTE_ODDS:
            raise ValueError(f"{key!r} is not a roulette bet type (one of {', '.join(BET_IDS)})")
        table[key] = parse_odds(odds)
    return MappingProxyType(table)


def _dump_paytable(table: Mapping[str, Fraction]) -> dict[str, int | str]:
    return {k: dump_odds(v) for k, v in table.items()}


def _parse_blocks(value: object) -> tuple[frozenset[int], ...]:
    if not isinstance(value, list | tuple) or not value:
        raise ValueError(f"{value!r} is not a non-empty list of lists of nine numbers")
    blocks: list[frozenset[int]] = []
    for block in value:
        if not isinstance(block, list | tuple) or not all(
            isinstance(n, int) and not isinstance(n, bool) for n in block
        ):
            raise ValueError(f"{block!r} is not a list of numbers")
        blocks.append(frozenset(block))
        if len(block) != 9 or len(set(block)) != 9:
            raise ValueError(f"{list(block)!r} is not nine different numbers")
        if not all(0 <= n <= 36 for n in block):
            raise ValueError(f"{list(block)!r} holds a number outside 0-36")
    return tuple(blocks)


def _dump_blocks(blocks: tuple[frozenset[int], ...]) -> list[list[int]]:
    return [sorted(b) for b in blocks]


_CHIP, _MIN, _MAX = rulesdoc.limit_fields(BET_IDS)


@dataclass(frozen=True, kw_only=True)
class RouletteRules:
    """The rules of one roulette table. Defaults are the statute (preset ``statute``)."""

    GAME: ClassVar[str] = "roulette"

    chip_unit: int = _CHIP
    min_bet: Limit = _MIN
    max_bet: Limit = _MAX
    paytables: Mapping[str, Fraction] = option(
        rule="RO 7",
        kind=OptionKind.OUTSIDE,
        doc="Odds (to 1) by bet type; the statute's are straight 35 … even-money 1.",
        parse=_parse_paytable,
        dump=_dump_paytable,
        default_factory=lambda: STATUTE_ODDS,
    )
    nine_number_blocks: tuple[frozenset[int], ...] = option(
        rule="RO 6",
        kind=OptionKind.OUTSIDE,
        doc="The nine-number bets a player may place; default three adjacent rows (1-9, 4-12, …, 28-36).",
        parse=_parse_blocks,
        dump=_dump_blocks,
        default=NINE_BLOCKS,
    )

    def __post_init__(self) -> None:
        rulesdoc.raise_problems(self)

    def problems(self) -> list[str]:
        """Every violated constraint, as full sentences."""
        out = rulesdoc.limit_problems(self.chip_unit, self.min_bet, self.max_bet, BET_IDS)
        missing = [k for k in BET_IDS if k not in self.paytables]
        if missing:
            out.append(f"paytables lacks odds for {', '.join(missing)} (RO 7).")
        for key, odds in self.paytables.items():
            if key not in STATUTE_ODDS:
                out.append(f"paytables names {key!r}, which is not a roulette bet type (RO 7).")
            elif odds <= 0:
                out.append(f"paytables gives {key} odds {odds}; odds must be positive (RO 7).")
        if not self.nine_number_blocks:
            out.append("nine_number_blocks is empty; at least one block is needed (RO 6).")
        for block in self.nine_number_blocks:
            if len(block) != 9 or not all(0 <= n <= 36 for n in block):
                out.append(f"nine_number_blocks holds {sorted(block)}, not nine numbers 0-36 (RO 6).")
        return out

    def odds(self, bet_type: str) -> Fraction:
        """The odds (to 1) this table pays on ``bet_type``."""
        return self.paytables[bet_type]


STATUTE = RouletteRules()
PRESETS: Mapping[str, RouletteRules] = MappingProxyType({"statute": STATUTE, "default": STATUTE})
"""Named rule sets: ``statute`` (alias ``default``) is RULES.md as written."""


def load(document: Mapping[str, Any]) -> RouletteRules:
    """Roulette rules from a document (a TOML/JSON object or a scenario's ``rules``)."""
    return rulesdoc.load(RouletteRules, document, PRESETS, game="roulette")
