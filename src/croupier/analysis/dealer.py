"""The dealer's final-hand probabilities from any shoe: the first building block of blackjack's exact
combinatorial analysis (issue 4).

A shoe is a *composition*: how many cards of each value remain, ace first, then 2-9, then the ten-value
cards (``(aces, twos, …, nines, tens)``). Given the dealer's up card and the composition the dealer draws
from, :func:`dealer_probabilities` gives the exact probability of each way the dealer's hand ends — 17, 18,
19, 20, 21, bust, or a blackjack — under the table's soft-17 reading (RULES.md BJ 6.1/6.6: ``hit_ace_six``
draws only on the two-card ace-six, ``hit_all`` on every soft 17, ``stand`` on none).

With ``peeked=True`` the probabilities are conditioned on the dealer not holding a blackjack (procedure 3
after the peek); otherwise (procedures 1 and 2, no hole card) a blackjack is one of the outcomes. Exact
fractions are available for small shoes and tests (``exact=True``); floats are used for real shoes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache, lru_cache

from croupier.blackjack.rules import DealerSoft17
from croupier.errors import InvalidRules

OUTCOMES: tuple[str, ...] = ("17", "18", "19", "20", "21", "bust", "blackjack")
"""The ways a dealer's hand ends, in the order of :func:`dealer_probabilities`'s result."""

Composition = tuple[int, int, int, int, int, int, int, int, int, int]


def composition(counts: Sequence[int]) -> Composition:
    """Check a composition: ten non-negative whole counts (ace, 2-9, ten-values) with at least one card."""
    if len(counts) != 10:
        raise InvalidRules([f"a shoe composition has 10 counts (ace, 2-9, ten-values), not {len(counts)}"])
    for value, n in zip(range(1, 11), counts, strict=True):
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise InvalidRules([f"the count of {value}s in the shoe must be a whole number ≥ 0, not {n!r}"])
    if sum(counts) == 0:
        raise InvalidRules(["the shoe is empty: there is nothing to draw"])
    return (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6], counts[7], counts[8],
            counts[9])  # fmt: skip


def decks(n: int) -> Composition:
    """The composition of ``n`` full decks."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidRules([f"decks {n!r} must be a whole number ≥ 1 (BJ 1)"])
    return (4 * n, 4 * n, 4 * n, 4 * n, 4 * n, 4 * n, 4 * n, 4 * n, 4 * n, 16 * n)


def remove(comp: Composition, value: int) -> Composition:
    """The composition after a card of ``value`` (1-10) leaves the shoe (it may then be empty)."""
    if comp[value - 1] <= 0:
        raise InvalidRules([f"the shoe holds no {value} to remove"])
    out = list(comp)
    out[value - 1] -= 1
    return tuple(out)  # type: ignore[return-value]


def _must_draw(hard: int, soft: bool, two_card_ace_six: bool, rule: DealerSoft17) -> bool:
    total = hard + 10 if soft else hard
    if total < 17:
        return True
    if total == 17 and soft:
        return rule is DealerSoft17.HIT_ALL or (rule is DealerSoft17.HIT_ACE_SIX and two_card_ace_six)
    return False


def dealer_probabilities(
    comp: Sequence[int],
    up: int,
    rule: DealerSoft17 = DealerSoft17.HIT_ACE_SIX,
    *,
    peeked: bool = False,
    exact: bool = False,
) -> tuple[float | Fraction, ...]:
    """Probabilities of :data:`OUTCOMES` for a dealer showing ``up`` (1 = ace … 10) who draws from ``comp``.

    ``comp`` is the shoe the hole card and the draws come from (the up card already removed). With
    ``peeked`` the result is conditioned on no dealer blackjack; the ``blackjack`` entry is then 0.
    """
    if isinstance(up, bool) or not isinstance(up, int) or not 1 <= up <= 10:
        raise InvalidRules([f"the dealer's up card value must be 1 (ace) to 10, not {up!r}"])
    start = composition(comp)
    solve = _solver(DealerSoft17(rule), exact)
    one: float | Fraction = Fraction(1) if exact else 1.0
    zero: float | Fraction = one - one
    total = sum(start)
    result = [zero] * 7
    excluded = zero
    # The second (hole) card: a blackjack is recorded, or excluded when the dealer has peeked.
    for value in range(1, 11):
        n = start[value - 1]
        if n == 0:
            continue
        p = Fraction(n, total) if exact else n / total
        if {up, value} == {1, 10}:
            if peeked:
                excluded += p
            else:
                result[6] += p
            continue
        hard = up + value
        soft = up == 1 or value == 1
        two_ace_six = {up, value} == {1, 6}
        sub = solve(remove(start, value), hard, soft, two_ace_six)
        for i in range(6):
            result[i] += p * sub[i]
    if peeked:
        keep = one - excluded
        if keep == 0:
            raise InvalidRules(["this shoe always gives the dealer a blackjack: no hand survives the peek"])
        result = [r / keep for r in result]
    return tuple(result)


Probabilities = tuple[float | Fraction, ...]
Solver = Callable[[Composition, int, bool, bool], Probabilities]


@lru_cache(maxsize=8)
def _solver(rule: DealerSoft17, exact: bool) -> Solver:
    """A memoised solver of the dealer's draw for one soft-17 reading (exact fractions or floats)."""
    one: float | Fraction = Fraction(1) if exact else 1.0

    @cache
    def solve(comp: Composition, hard: int, soft: bool, two_ace_six: bool) -> Probabilities:
        """Outcome probabilities (17-21, bust) of a dealer hand ``hard``/``soft`` drawing from ``comp``."""
        if hard > 21:
            return (one * 0, one * 0, one * 0, one * 0, one * 0, one)
        if not _must_draw(hard, soft and hard <= 11, two_ace_six, rule):
            total = hard + 10 if soft and hard <= 11 else hard
            out = [one * 0] * 6
            out[total - 17] = one
            return tuple(out)
        n = sum(comp)
        if n == 0:
            raise InvalidRules(["the shoe ran out while the dealer had to draw"])
        acc = [one * 0] * 6
        for value in range(1, 11):
            k = comp[value - 1]
            if k == 0:
                continue
            p = Fraction(k, n) if exact else k / n
            sub = solve(remove(comp, value), hard + value, soft or value == 1, False)
            for i in range(6):
                acc[i] += p * sub[i]
        return tuple(acc)

    return solve


def bust_probability(comp: Sequence[int], up: int, rule: DealerSoft17 = DealerSoft17.HIT_ACE_SIX) -> float:
    """The chance the dealer busts showing ``up`` (no peek), as a float."""
    return float(dealer_probabilities(comp, up, rule)[5])
