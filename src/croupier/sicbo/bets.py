"""Sic bo bets (SB 5), what they pay (SB 6) and the triple rule (SB 7)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from croupier.errors import BetRejected
from croupier.money import check_stake
from croupier.primitives.dice import Dice, is_triple
from croupier.sicbo.rules import BET_IDS, TOTALS, SicBoRules


class BetType(StrEnum):
    """The bet types of SB 5."""

    SMALL = "small"
    BIG = "big"
    SINGLE = "single"
    TRIPLE = "triple"
    ANY_TRIPLE = "any_triple"
    TOTAL = "total"


BET_TYPES: tuple[BetType, ...] = tuple(BetType)
assert tuple(t.value for t in BET_TYPES) == BET_IDS

# SB 4 only requires every winning bet to be paid before the next roll; croupier pays them in the order of
# the layout: small/big, totals, singles, any triple, specific triples.
PAYMENT_RANK: dict[BetType, int] = {
    BetType.SMALL: 0,
    BetType.BIG: 0,
    BetType.TOTAL: 1,
    BetType.SINGLE: 2,
    BetType.ANY_TRIPLE: 3,
    BetType.TRIPLE: 4,
}


@dataclass(frozen=True, slots=True)
class Bet:
    """A validated sic bo bet; ``target`` is the face (single, triple) or the total (total), else None."""

    player: str
    type: BetType
    amount: int
    target: int | None = None

    @property
    def placement(self) -> str:
        """A short description, e.g. ``single 3`` or ``total 11``."""
        return self.type.value if self.target is None else f"{self.type.value} {self.target}"


def bet_type_of(name: object) -> BetType:
    """The :class:`BetType` named ``name``; :class:`BetRejected` (SB 5) otherwise."""
    try:
        return BetType(str(name))
    except ValueError:
        raise BetRejected(f"{name!r} is not a sic bo bet; the bets are {', '.join(BET_IDS)}.", rule="SB 5") from None


def make_bet(
    rules: SicBoRules,
    player: str,
    bet_type: BetType | str,
    amount: object,
    *,
    face: int | None = None,
    total: int | None = None,
) -> Bet:
    """Validate a bet and its stake against the table's rules and return the :class:`Bet`."""
    kind = bet_type if isinstance(bet_type, BetType) else bet_type_of(bet_type)
    target: int | None = None
    if kind in (BetType.SINGLE, BetType.TRIPLE):
        if total is not None:
            raise BetRejected(f"a {kind.value} bet names a face, not a total ({total}).", rule="SB 5")
        if face is None or isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise BetRejected(f"{face!r} is not a die face for a {kind.value} bet: it must be 1-6.", rule="SB 5")
        target = face
    elif kind is BetType.TOTAL:
        if face is not None:
            raise BetRejected(f"a total bet names a total, not a face ({face}).", rule="SB 5")
        if total is None or isinstance(total, bool) or not isinstance(total, int) or total not in TOTALS:
            raise BetRejected(f"{total!r} is not a total bet: it must be 4-17.", rule="SB 5")
        target = total
    elif face is not None or total is not None:
        given = face if face is not None else total
        raise BetRejected(f"a {kind.value} bet takes no face or total ({given} given).", rule="SB 5")
    stake = check_stake(
        amount, bet_type=kind.value, chip_unit=rules.chip_unit, min_bet=rules.min_bet, max_bet=rules.max_bet
    )
    if not isinstance(player, str) or not player:
        raise BetRejected(f"{player!r} is not a player name.", rule="SB 5")
    return Bet(player, kind, stake, target)


def odds_for(rules: SicBoRules, bet: Bet, dice: Dice) -> Fraction | None:
    """The odds the bet is paid at for ``dice`` (SB 6), or None if it loses (SB 5, SB 7)."""
    p = rules.paytables
    total = sum(dice)
    match bet.type:
        case BetType.SMALL:
            return p.small if 4 <= total <= 10 and not is_triple(dice) else None
        case BetType.BIG:
            return p.big if 11 <= total <= 17 and not is_triple(dice) else None
        case BetType.SINGLE:
            hits = dice.count(bet.target or 0)
            return p.single[hits - 1] if hits else None
        case BetType.TRIPLE:
            return p.triple if is_triple(dice) and dice[0] == bet.target else None
        case BetType.ANY_TRIPLE:
            return p.any_triple if is_triple(dice) else None
        case BetType.TOTAL:
            return p.total[total] if total == bet.target else None


def net(rules: SicBoRules, bet: Bet, dice: Dice) -> int:
    """The player's net on ``bet`` for ``dice``: +stake × odds, or −stake."""
    odds = odds_for(rules, bet, dice)
    if odds is None:
        return -bet.amount
    return (bet.amount * odds).__floor__()  # fractional odds (outside the statute) round down
