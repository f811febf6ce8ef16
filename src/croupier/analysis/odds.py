"""Exact odds of every roulette and sic bo bet, by enumeration of the equally likely results.

Nothing here is typed in: each bet is settled by the engine's own payout function against every pocket
(37) or every ordered roll of three dice (216), under the table's rules object, so a changed paytable or
nine-number block changes the figures. Probabilities and edges are exact :class:`~fractions.Fraction`s.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from croupier.primitives.dice import ALL_ROLLS, Dice, is_triple
from croupier.primitives.wheel import POCKETS
from croupier.roulette.bets import BET_TYPES as ROULETTE_TYPES
from croupier.roulette.bets import Bet as RouletteBet
from croupier.roulette.bets import BetType as RouletteBetType
from croupier.roulette.bets import covered_numbers
from croupier.roulette.rules import RouletteRules
from croupier.sicbo.bets import Bet as SicBoBet
from croupier.sicbo.bets import BetType as SicBoBetType
from croupier.sicbo.bets import odds_for
from croupier.sicbo.rules import TOTALS, SicBoRules


@dataclass(frozen=True)
class Outcome:
    """One way a bet ends: its exact probability and the net per unit staked."""

    name: str
    probability: Fraction
    net: Fraction


@dataclass(frozen=True)
class BetOdds:
    """The exact figures of one bet (per unit staked)."""

    bet: str
    pays: Fraction | tuple[Fraction, ...]
    outcomes: tuple[Outcome, ...]
    rule: str

    @property
    def win_probability(self) -> Fraction:
        """Probability that the bet wins anything."""
        return sum((o.probability for o in self.outcomes if o.net > 0), Fraction(0))

    @property
    def ev(self) -> Fraction:
        """Expected net per unit staked."""
        return sum((o.probability * o.net for o in self.outcomes), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        """Minus the expected net per unit staked."""
        return -self.ev

    @property
    def variance(self) -> Fraction:
        """Variance of the net per unit staked."""
        second = sum((o.probability * o.net * o.net for o in self.outcomes), Fraction(0))
        return second - self.ev**2

    @property
    def sd(self) -> float:
        """Standard deviation of the net per unit staked."""
        return math.sqrt(self.variance)

    def as_json(self) -> dict[str, Any]:
        """The JSON shape of ``croupier odds --json``."""
        return {
            "bet": self.bet,
            "pays": _num(self.pays) if isinstance(self.pays, Fraction) else [_num(p) for p in self.pays],
            "win_probability": str(self.win_probability),
            "house_edge": str(self.house_edge),
            "house_edge_pct": round(float(self.house_edge) * 100, 4),
            "hit_frequency": round(float(self.win_probability), 6),
            "sd": round(self.sd, 4),
            "rule": self.rule,
            "outcomes": [
                {"outcome": o.name, "probability": str(o.probability), "net": _num(o.net)} for o in self.outcomes
            ],
        }


def _num(x: Fraction) -> int | str:
    return int(x) if x.denominator == 1 else str(x)


def _tally(
    name: str,
    pays: Fraction | tuple[Fraction, ...],
    rule: str,
    results: Iterable[tuple[str, Fraction]],
    n: int,
) -> BetOdds:
    """Group equally likely results (outcome name, net per unit) into outcomes with exact probabilities."""
    counts: dict[tuple[str, Fraction], int] = {}
    for key in results:
        counts[key] = counts.get(key, 0) + 1
    ordered = sorted(counts.items(), key=lambda kv: (-kv[0][1], kv[0][0]))
    return BetOdds(name, pays, tuple(Outcome(k[0], Fraction(c, n), k[1]) for k, c in ordered), rule)


# -- roulette -------------------------------------------------------------------------------------------------

_REPRESENTATIVE: dict[RouletteBetType, dict[str, Any]] = {
    RouletteBetType.STRAIGHT: {"numbers": [17]},
    RouletteBetType.SPLIT: {"numbers": [17, 20]},
    RouletteBetType.STREET: {"numbers": [16, 17, 18]},
    RouletteBetType.CORNER: {"numbers": [16, 17, 19, 20]},
    RouletteBetType.SIX_LINE: {"numbers": [16, 17, 18, 19, 20, 21]},
    RouletteBetType.TWELVE_SPECIAL: {"index": 1},
    RouletteBetType.COLUMN: {"index": 1},
    RouletteBetType.DOZEN: {"index": 1},
}


def roulette_placement(rules: RouletteRules, bet_type: RouletteBetType) -> dict[str, Any]:
    """A representative placement of ``bet_type`` (every placement of a type covers as many numbers)."""
    if bet_type is RouletteBetType.NINE:
        return {"numbers": sorted(rules.nine_number_blocks[0])}
    return _REPRESENTATIVE.get(bet_type, {})


def roulette_bet_odds(rules: RouletteRules, bet_type: RouletteBetType, placement: dict[str, Any]) -> BetOdds:
    """Exact figures of one roulette placement over the 37 pockets (RO 1, RO 7, RO 8)."""
    covers = covered_numbers(rules, bet_type, placement.get("numbers"), placement.get("index"))
    bet = RouletteBet("analyst", bet_type, covers, 1)  # per unit staked; table limits play no part in the odds
    odds = rules.odds(bet_type.value)
    results = (("win", odds) if bet.wins_on(p) else ("loss", Fraction(-1)) for p in POCKETS)
    return _tally(bet_type.value, odds, "RO 7", results, len(POCKETS))


def roulette_odds(rules: RouletteRules | None = None) -> list[BetOdds]:
    """Every RO 6 bet type's exact odds under ``rules``."""
    r = rules if rules is not None else RouletteRules()
    return [roulette_bet_odds(r, t, roulette_placement(r, t)) for t in ROULETTE_TYPES]


# -- sic bo -------------------------------------------------------------------------------------------------------


def _sicbo_bet_odds(
    rules: SicBoRules,
    name: str,
    bet_type: SicBoBetType,
    label: Callable[[Dice, Fraction | None], str],
    **placement: int,
) -> BetOdds:
    # Per unit staked: the placement is one of the fixed SB 5 targets, and table limits play no part in the odds.
    bet = SicBoBet("analyst", bet_type, 1, placement.get("face", placement.get("total")))
    p = rules.paytables
    pays: Fraction | tuple[Fraction, ...]
    match bet_type:
        case SicBoBetType.SMALL:
            pays = p.small
        case SicBoBetType.BIG:
            pays = p.big
        case SicBoBetType.SINGLE:
            pays = p.single
        case SicBoBetType.TRIPLE:
            pays = p.triple
        case SicBoBetType.ANY_TRIPLE:
            pays = p.any_triple
        case SicBoBetType.TOTAL:
            pays = p.total[placement["total"]]

    def results() -> Iterable[tuple[str, Fraction]]:
        for dice in ALL_ROLLS:
            odds = odds_for(rules, bet, dice)
            yield (label(dice, odds), odds if odds is not None else Fraction(-1))

    return _tally(name, pays, "SB 6", results(), len(ALL_ROLLS))


def _win_loss(dice: Dice, odds: Fraction | None) -> str:
    return "win" if odds is not None else "loss"


def _small_big(dice: Dice, odds: Fraction | None) -> str:
    if odds is not None:
        return "win"
    return "loss: triple (SB 7)" if is_triple(dice) else "loss"


def _single(face: int) -> Callable[[Dice, Fraction | None], str]:
    def label(dice: Dice, odds: Fraction | None) -> str:
        hits = dice.count(face)
        return ("loss", "one die", "two dice", "three dice")[hits]

    return label


def sicbo_odds(rules: SicBoRules | None = None) -> list[BetOdds]:
    """Every SB 5 bet's exact odds under ``rules``; totals are listed one by one (``total_4`` … ``total_17``)."""
    r = rules if rules is not None else SicBoRules()
    out = [
        _sicbo_bet_odds(r, "small", SicBoBetType.SMALL, _small_big),
        _sicbo_bet_odds(r, "big", SicBoBetType.BIG, _small_big),
        _sicbo_bet_odds(r, "single", SicBoBetType.SINGLE, _single(1), face=1),
        _sicbo_bet_odds(r, "triple", SicBoBetType.TRIPLE, _win_loss, face=1),
        _sicbo_bet_odds(r, "any_triple", SicBoBetType.ANY_TRIPLE, _win_loss),
    ]
    out += [_sicbo_bet_odds(r, f"total_{t}", SicBoBetType.TOTAL, _win_loss, total=t) for t in TOTALS]
    return out


def odds_table(game: str, rules: Any = None) -> list[BetOdds]:
    """The odds of every bet of ``game``: its ``odds`` part in :data:`croupier.games.GAMES` (roulette, sic bo)."""
    from croupier.games import game as game_of

    try:
        odds = game_of(game).part("odds")
    except LookupError:
        raise ValueError(f"{game!r} has no odds table here (roulette or sicbo)") from None
    table: list[BetOdds] = odds(rules)
    return table
