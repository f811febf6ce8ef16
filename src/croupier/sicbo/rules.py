"""Sic bo rules as a document: table limits and the SB 6 paytable."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from types import MappingProxyType
from typing import Any, ClassVar

from croupier import rulesdoc
from croupier.money import Limit
from croupier.rulesdoc import OptionKind, dump_odds, option, parse_odds

BET_IDS: tuple[str, ...] = ("small", "big", "single", "triple", "any_triple", "total")
"""The SB 5 bet types."""

TOTALS: tuple[int, ...] = tuple(range(4, 18))


STATUTE_TOTALS: Mapping[int, Fraction] = MappingProxyType(
    {
        4: Fraction(50), 17: Fraction(50), 5: Fraction(18), 16: Fraction(18),
        6: Fraction(14), 15: Fraction(14), 7: Fraction(12), 14: Fraction(12),
        8: Fraction(8), 13: Fraction(8), 9: Fraction(6), 10: Fraction(6), 11: Fraction(6), 12: Fraction(6),
    }
)  # fmt: skip
"""SB 6: the odds of the total bets."""


@dataclass(frozen=True, slots=True)
class SicBoPaytable:
    """SB 6 odds (to 1). ``single`` gives the odds for one, two and three matching dice."""

    small: Fraction = Fraction(1)
    big: Fraction = Fraction(1)
    single: tuple[Fraction, Fraction, Fraction] = (Fraction(1), Fraction(2), Fraction(3))
    triple: Fraction = Fraction(150)
    any_triple: Fraction = Fraction(24)
    total: Mapping[int, Fraction] = field(default_factory=lambda: STATUTE_TOTALS)

    def __hash__(self) -> int:
        return hash((self.small, self.big, self.single, self.triple, self.any_triple, tuple(self.total.items())))

    def as_document(self) -> dict[str, object]:
        """The paytable as written in a rules file."""
        return {
            "small": dump_odds(self.small),
            "big": dump_odds(self.big),
            "single": [dump_odds(o) for o in self.single],
            "triple": dump_odds(self.triple),
            "any_triple": dump_odds(self.any_triple),
            "total": {str(t): dump_odds(self.total[t]) for t in sorted(self.total)},
        }


STATUTE_PAYTABLE = SicBoPaytable()


def _parse_paytable(value: object) -> SicBoPaytable:
    if not isinstance(value, Mapping):
        raise ValueError(f"{value!r} is not an object of odds by bet type")
    base = STATUTE_PAYTABLE
    parts: dict[str, Any] = {}
    for key, odds in value.items():
        if key not in BET_IDS:
            raise ValueError(f"{key!r} is not a sic bo bet type (one of {', '.join(BET_IDS)})")
        if key == "single":
            if not isinstance(odds, list | tuple) or len(odds) != 3:
                raise ValueError(f"single odds {odds!r} must list three odds: one, two and three dice")
            parts["single"] = tuple(parse_odds(o) for o in odds)
        elif key == "total":
            if not isinstance(odds, Mapping):
                raise ValueError(f'total odds {odds!r} must be an object by total ("4" … "17")')
            table = dict(base.total)
            for total, o in odds.items():
                if str(total) not in {str(t) for t in TOTALS}:
                    raise ValueError(f"{total!r} is not a total bet (4 to 17)")
                table[int(total)] = parse_odds(o)
            parts["total"] = MappingProxyType(table)
        else:
            parts[key] = parse_odds(odds)
    return replace(base, **parts)


_CHIP, _MIN, _MAX = rulesdoc.limit_fields(BET_IDS)


@dataclass(frozen=True, kw_only=True)
class SicBoRules:
    """The rules of one sic bo table. Defaults are the statute (preset ``statute``)."""

    GAME: ClassVar[str] = "sicbo"

    chip_unit: int = _CHIP
    min_bet: Limit = _MIN
    max_bet: Limit = _MAX
    paytables: SicBoPaytable = option(
        rule="SB 6",
        kind=OptionKind.OUTSIDE,
        doc="Odds (to 1) by bet type; any part may be given, the rest keeps the statute's.",
        parse=_parse_paytable,
        dump=SicBoPaytable.as_document,
        default=STATUTE_PAYTABLE,
    )

    def __post_init__(self) -> None:
        rulesdoc.raise_problems(self)

    def problems(self) -> list[str]:
        """Every violated constraint, as full sentences."""
        out = rulesdoc.limit_problems(self.chip_unit, self.min_bet, self.max_bet, BET_IDS)
        p = self.paytables
        named = [("small", p.small), ("big", p.big), ("triple", p.triple), ("any_triple", p.any_triple)]
        named += [(f"single ({i + 1} dice)", o) for i, o in enumerate(p.single)]
        named += [(f"total {t}", p.total.get(t, Fraction(0))) for t in TOTALS]
        for label, odds in named:
            if odds <= 0:
                out.append(f"paytables gives {label} odds {odds}; odds must be positive (SB 6).")
        return out


STATUTE = SicBoRules()
PRESETS: Mapping[str, SicBoRules] = MappingProxyType({"statute": STATUTE, "default": STATUTE})
"""Named rule sets: ``statute`` (alias ``default``) is RULES.md as written."""


def load(document: Mapping[str, Any]) -> SicBoRules:
    """Sic bo rules from a document (a TOML/JSON object or a scenario's ``rules``)."""
    return rulesdoc.load(SicBoRules, document, PRESETS, game="sicbo")
