"""Sic bo dice (RULES.md SB 1)."""

from __future__ import annotations

from itertools import product

from croupier.errors import InvalidInput

FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)

Dice = tuple[int, int, int]
"""Three dice faces, in the order they were read."""

ALL_ROLLS: tuple[Dice, ...] = tuple(product(FACES, repeat=3))  # type: ignore[arg-type]
"""The 216 equally likely ordered outcomes of three fair dice."""


def check_dice(value: object) -> Dice:
    """Return ``value`` as a ``Dice`` triple if it is three faces 1-6, else raise ``ValueError`` (SB 1)."""
    if not isinstance(value, list | tuple) or len(value) != 3:
        raise InvalidInput(f"{value!r} is not three dice (RULES.md SB 1).", rule="SB 1")
    for face in value:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise InvalidInput(f"{face!r} is not a die face 1-6 (RULES.md SB 1) in {list(value)!r}.", rule="SB 1")
    return (value[0], value[1], value[2])


def is_triple(dice: Dice) -> bool:
    """All three dice show the same face."""
    return dice[0] == dice[1] == dice[2]


def opposite(face: int) -> int:
    """The face opposite ``face``: opposite faces sum to 7 (SB 1)."""
    return 7 - face
