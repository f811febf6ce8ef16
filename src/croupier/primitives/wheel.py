"""The single-zero roulette wheel and its layout (RULES.md RO 1, RO 6)."""

from __future__ import annotations

from enum import Enum

from croupier.errors import InvalidInput

POCKETS: tuple[int, ...] = tuple(range(37))
"""The 37 pockets, 0 to 36 (RO 1)."""

RED: frozenset[int] = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
BLACK: frozenset[int] = frozenset(set(range(1, 37)) - RED)

WHEEL_ORDER: tuple[int, ...] = (
    0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10,
    5, 24, 16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26,
)  # fmt: skip
"""Clockwise from 0 (RO 1 reading)."""


class Colour(Enum):
    """Pocket colour."""

    RED = "red"
    BLACK = "black"
    GREEN = "green"


def colour(pocket: int) -> Colour:
    """The colour of a pocket: 0 is green."""
    check_pocket(pocket)
    if pocket == 0:
        return Colour.GREEN
    return Colour.RED if pocket in RED else Colour.BLACK


def check_pocket(pocket: object) -> int:
    """Return ``pocket`` if it is a pocket number 0-36, else raise ``ValueError`` (RO 1)."""
    if isinstance(pocket, bool) or not isinstance(pocket, int) or not 0 <= pocket <= 36:
        raise InvalidInput(f"{pocket!r} is not a pocket of the single-zero wheel (0-36, RULES.md RO 1).", rule="RO 1")
    return pocket


def wheel_neighbours(pocket: int, distance: int = 1) -> tuple[int, ...]:
    """The pockets ``distance`` steps either side of ``pocket`` on the wheel, left first."""
    i = WHEEL_ORDER.index(check_pocket(pocket))
    n = len(WHEEL_ORDER)
    left = [WHEEL_ORDER[(i - k) % n] for k in range(distance, 0, -1)]
    right = [WHEEL_ORDER[(i + k) % n] for k in range(1, distance + 1)]
    return (*left, *right)


# Layout geometry: numbers 1-36 in 12 rows of three; row r (0-based) holds 3r+1, 3r+2, 3r+3 and
# column c (1-3) holds the numbers n with n % 3 == c % 3. Zero sits above the first row, touching 1, 2, 3.


def row_of(number: int) -> int:
    """0-based layout row of a number 1-36."""
    return (number - 1) // 3


def column_of(number: int) -> int:
    """Layout column (1, 2 or 3) of a number 1-36."""
    return (number - 1) % 3 + 1


def _row(r: int) -> frozenset[int]:
    return frozenset({3 * r + 1, 3 * r + 2, 3 * r + 3})


def _build_splits() -> frozenset[frozenset[int]]:
    out: set[frozenset[int]] = {frozenset({0, 1}), frozenset({0, 2}), frozenset({0, 3})}
    for n in range(1, 37):
        if column_of(n) < 3:
            out.add(frozenset({n, n + 1}))
        if n + 3 <= 36:
            out.add(frozenset({n, n + 3}))
    return frozenset(out)


def _build_corners() -> frozenset[frozenset[int]]:
    out: set[frozenset[int]] = {frozenset({0, 1, 2, 3})}
    for n in range(1, 34):
        if column_of(n) < 3:
            out.add(frozenset({n, n + 1, n + 3, n + 4}))
    return frozenset(out)


SPLITS = _build_splits()
"""Every two-number placement: numbers adjacent on the layout, and 0-1, 0-2, 0-3 (RO 6)."""
STREETS: frozenset[frozenset[int]] = frozenset(
    {_row(r) for r in range(12)} | {frozenset({0, 1, 2}), frozenset({0, 2, 3})}
)
"""Every three-number placement: the 12 rows and the trios 0-1-2, 0-2-3 (RO 6)."""
CORNERS = _build_corners()
"""Every four-number placement: four numbers meeting at a corner, and 0-1-2-3 (RO 6)."""
SIX_LINES: frozenset[frozenset[int]] = frozenset(_row(r) | _row(r + 1) for r in range(11))
"""Every six-number placement: two adjacent rows (RO 6)."""
NINE_BLOCKS: tuple[frozenset[int], ...] = tuple(_row(r) | _row(r + 1) | _row(r + 2) for r in range(10))
"""The default nine-number blocks: three adjacent rows (RO 6 reading)."""
TWELVE_SPECIAL: tuple[frozenset[int], frozenset[int]] = (
    frozenset({1, 3, 5, 13, 15, 17, 20, 22, 24, 32, 34, 36}),
    frozenset({2, 4, 6, 14, 16, 18, 19, 21, 23, 31, 33, 35}),
)
"""The two twelve-number sets A and B listed in the statute (RO 6)."""
COLUMNS: tuple[frozenset[int], ...] = tuple(frozenset(n for n in range(1, 37) if column_of(n) == c) for c in (1, 2, 3))
DOZENS: tuple[frozenset[int], ...] = tuple(frozenset(range(12 * d + 1, 12 * d + 13)) for d in range(3))
LOW: frozenset[int] = frozenset(range(1, 19))
HIGH: frozenset[int] = frozenset(range(19, 37))
ODD: frozenset[int] = frozenset(range(1, 37, 2))
EVEN: frozenset[int] = frozenset(range(2, 37, 2))
