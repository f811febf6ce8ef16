"""The side bets of BJ 13 and their odds (BJ 14): what a box's cards win, as odds or ``None`` for a loss."""

from __future__ import annotations

from fractions import Fraction

from croupier.blackjack.rules import BlackjackRules, SevensMixedTriple
from croupier.errors import BetRejected
from croupier.primitives.cards import Card, Rank

SIDE_KEYS: tuple[str, ...] = ("any_pair", "sevens", "over_13", "under_13", "perfect_pairs")
"""The side-bet keys of a scenario (``over_13``/``under_13`` are the two sides of Over/Under 13)."""


STREAK_LEVELS: tuple[int, ...] = (2, 3, 4, 5)
"""The streak levels: 2, 3, 4 or 5 wins in a row (BJ 13.5)."""

_STREAK_LEVEL_TEXT = {str(level): level for level in STREAK_LEVELS}


def parse_streak_level(value: object) -> int:
    """A streak level (BJ 13.5) as a bet names it: the integer 2, 3, 4 or 5, or the ASCII string ``"2"`` …
    ``"5"``. Anything else (``"02"``, ``"²"``, ``"٢"``, ``" 2"``, ``2.0``, ``True``) raises :class:`BetRejected`."""
    if isinstance(value, str):
        level = _STREAK_LEVEL_TEXT.get(value)
    elif isinstance(value, int) and not isinstance(value, bool) and value in STREAK_LEVELS:
        level = value
    else:
        level = None
    if level is None:
        raise BetRejected(f"{value!r} is not a streak level: 2, 3, 4 or 5 wins in a row.", rule="BJ 13.5")
    return level


def side_kind(key: str) -> str:
    """The BJ 13 kind of a side-bet key: ``over_13`` and ``under_13`` are one kind, ``over_under_13``."""
    return "over_under_13" if key in ("over_13", "under_13") else key


def any_pair(rules: BlackjackRules, first_two: list[Card]) -> Fraction | None:
    """BJ 13.1: two cards of the same rank, whatever their suits (J-J is a pair, J-Q is not)."""
    return rules.paytables.any_pair if first_two[0].rank is first_two[1].rank else None


def perfect_pairs(rules: BlackjackRules, first_two: list[Card]) -> Fraction | None:
    """BJ 13.4/14.4: only the highest of perfect (same suit), coloured (same colour) and mixed pair is paid."""
    a, b = first_two
    if a.rank is not b.rank:
        return None
    p = rules.paytables
    if a.suit is b.suit:
        return p.perfect_pairs_perfect
    if a.colour == b.colour:
        return p.perfect_pairs_coloured
    return p.perfect_pairs_mixed


def over_under(rules: BlackjackRules, first_two: list[Card], key: str) -> Fraction | None:
    """BJ 13.3: the two cards' sum (ace 1, pictures 10) above 13 (over) or below 13 (under); 13 loses both."""
    total = first_two[0].rank.value_bj + first_two[1].rank.value_bj
    won = total > 13 if key == "over_13" else total < 13
    return rules.paytables.over_under_13 if won else None


def sevens(rules: BlackjackRules, first_two: list[Card], third: Card | None) -> Fraction | None:
    """BJ 13.2/14.2: two 7s (50 mixed suits, 150 one suit); with a third 7, 500 all suits different, 5000 one suit.

    ``third`` is the box's third card as the table's ``sevens_third_card`` reading counts it (or None). Three
    7s of two suits are paid as the first two (the literal reading) unless ``sevens_mixed_triple = pays_500``.
    """
    a, b = first_two
    if a.rank is not Rank.SEVEN or b.rank is not Rank.SEVEN:
        return None
    p = rules.paytables
    two = p.sevens_two_suited if a.suit is b.suit else p.sevens_two_mixed
    if third is None or third.rank is not Rank.SEVEN:
        return two
    suits = {a.suit, b.suit, third.suit}
    if len(suits) == 1:
        return p.sevens_three_suited
    if len(suits) == 3 or rules.sevens_mixed_triple is SevensMixedTriple.PAYS_500:
        return p.sevens_three_mixed
    return two


def special_bonus(first_three: list[Card]) -> bool:
    """BJ 15: suited 6-7-8 (any order) or three 7s (any suits)."""
    if len(first_three) != 3:
        return False
    a, b, c = first_three
    # Only a 6, a 7 and an 8 have the values 6, 7 and 8 (BJ 8), so the values name the ranks.
    if a.value == 7 and b.value == 7 and c.value == 7:
        return True
    return (
        a.suit is b.suit
        and b.suit is c.suit
        and a.value + b.value + c.value == 21
        and {a.value, b.value, c.value} == {6, 7, 8}
    )
