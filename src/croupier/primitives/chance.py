"""Chance sources: where every random result comes from.

One interface, four kinds:

* :class:`SystemRandom` — the operating system's entropy (``secrets``); the default for play.
* :class:`SeededRandom` — reproducible PCG64 streams with ``SeedSequence``-style seed spawning, for
  simulation and replay (see :mod:`croupier.primitives.pcg`).
* :class:`ScriptedSource` — results fixed in advance (scenario files, tests).
* :class:`LiveSource` — results typed in by a dealer or reported by a wheel, dice or shoe sensor.

Every integer draw is exactly unbiased: :meth:`RandomSource.randbelow` rejects out-of-range values
(never ``x % n`` nor ``floor(u * n)``), and :meth:`RandomSource.shuffle` is a Fisher–Yates shuffle over the
whole sequence.
"""

from __future__ import annotations

import secrets
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable, MutableSequence
from typing import TypeVar

from croupier.primitives.cards import Card, parse_card
from croupier.primitives.dice import Dice, check_dice
from croupier.primitives.wheel import check_pocket

T = TypeVar("T")


class ChanceExhausted(LookupError):
    """A scripted or live source has no result to give."""


class ChanceSource(ABC):
    """Where a game's chance steps take their results from."""

    #: True when the source draws at random (a shoe is then shuffled by it); False when results are
    #: supplied from outside (script, dealer, sensor).
    is_random: bool = True

    @abstractmethod
    def pocket(self) -> int:
        """The winning pocket of a roulette spin, 0-36."""

    @abstractmethod
    def dice(self) -> Dice:
        """The three dice of a sic bo roll."""

    @abstractmethod
    def card(self) -> Card:
        """The next card out of a shoe whose order is not known in advance (script, card reader)."""

    def unread(self, cards: Iterable[Card]) -> None:
        """Give back cards that were read but not used (a refused action is undone): they come out again
        first, in the same order. Only sources that name cards one by one support it."""
        raise TypeError(f"{type(self).__name__} shuffles the shoe; it has no cards to give back")


class RandomSource(ChanceSource):
    """A source that draws uniformly at random from 64-bit words."""

    is_random = True

    @abstractmethod
    def next_u64(self) -> int:
        """One uniformly distributed 64-bit word."""

    def getrandbits(self, k: int) -> int:
        """``k`` uniformly distributed bits (k ≥ 0)."""
        if k < 0:
            raise ValueError(f"cannot draw {k} bits")
        out, have = 0, 0
        while have < k:
            out = (out << 64) | self.next_u64()
            have += 64
        return out >> (have - k)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection: draw ``n.bit_length()`` bits, retry if ≥ n."""
        if n <= 0:
            raise ValueError(f"randbelow needs a positive bound, not {n}")
        k = n.bit_length()
        while True:
            x = self.getrandbits(k)
            if x < n:
                return x

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates (Durstenfeld) shuffle of the whole sequence, in place.

        Each position ``i`` swaps with ``j`` uniform in ``[0, i]``, drawn exactly as :meth:`randbelow` does
        (the top ``bit_length`` bits of a 64-bit word, rejected while ≥ i + 1), inlined for speed.
        """
        draw = self.next_u64
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            shift = 64 - n.bit_length()
            j = draw() >> shift
            while j >= n:
                j = draw() >> shift
            items[i], items[j] = items[j], items[i]

    def pocket(self) -> int:
        return self.randbelow(37)

    def dice(self) -> Dice:
        return (1 + self.randbelow(6), 1 + self.randbelow(6), 1 + self.randbelow(6))

    def card(self) -> Card:
        raise ChanceExhausted("a random source shuffles the shoe; it does not name cards one by one")


class SystemRandom(RandomSource):
    """Cryptographically strong randomness from the operating system (``secrets``)."""

    def next_u64(self) -> int:
        return secrets.randbits(64)

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError(f"randbelow needs a positive bound, not {n}")
        return secrets.randbelow(n)  # itself a rejection sampler over getrandbits


class ScriptedSource(ChanceSource):
    """Results given in advance, consumed in order: pockets, dice and cards each from their own queue."""

    is_random = False

    def __init__(
        self,
        *,
        pockets: Iterable[int] = (),
        dice: Iterable[Dice] = (),
        cards: Iterable[Card | str] = (),
    ) -> None:
        self._pockets = deque([check_pocket(p) for p in pockets])
        self._dice = deque([check_dice(d) for d in dice])
        self._cards = deque([c if isinstance(c, Card) else parse_card(c) for c in cards])

    def pocket(self) -> int:
        if not self._pockets:
            raise ChanceExhausted("the script has no more spins")
        return self._pockets.popleft()

    def dice(self) -> Dice:
        if not self._dice:
            raise ChanceExhausted("the script has no more rolls")
        return self._dice.popleft()

    def card(self) -> Card:
        if not self._cards:
            raise ChanceExhausted("the script has no more cards")
        return self._cards.popleft()

    @property
    def cards_left(self) -> int:
        """Scripted cards not yet dealt."""
        return len(self._cards)

    def add_cards(self, cards: Iterable[Card | str]) -> None:
        """Append cards to the script (all or none: an unknown card adds nothing)."""
        self._cards.extend([c if isinstance(c, Card) else parse_card(c) for c in cards])

    def unread(self, cards: Iterable[Card]) -> None:
        self._cards.extendleft(reversed(list(cards)))


Reader = Callable[[str], object]
"""A live input: called with what is wanted (``"pocket"``, ``"dice"``, ``"card"``), returns the raw result."""


class LiveSource(ChanceSource):
    """Results from the table itself: typed by the dealer or reported by a wheel, dice or shoe sensor.

    ``reader`` is asked for each result; what it returns is validated like any other input (a pocket 0-36,
    three faces 1-6, a card code) and a bad reading raises ``ValueError`` naming the value and the rule.
    """

    is_random = False

    def __init__(self, reader: Reader) -> None:
        self._reader = reader
        self._returned: deque[Card] = deque()

    def pocket(self) -> int:
        raw = self._reader("pocket")
        if isinstance(raw, str) and raw.strip().isdigit():
            raw = int(raw.strip())
        return check_pocket(raw)

    def dice(self) -> Dice:
        raw = self._reader("dice")
        if isinstance(raw, str):
            parts = raw.replace(",", " ").split()
            raw = [int(p) if p.isdigit() else p for p in parts]
        return check_dice(raw)

    def card(self) -> Card:
        if self._returned:
            return self._returned.popleft()
        raw = self._reader("card")
        return raw if isinstance(raw, Card) else parse_card(str(raw).strip().upper())

    def unread(self, cards: Iterable[Card]) -> None:
        self._returned.extendleft(reversed(list(cards)))


def queue_reader(values: Iterable[object]) -> Reader:
    """A reader that hands out ``values`` in order, e.g. results pushed by a sensor driver."""
    pending = deque(values)

    def read(what: str) -> object:
        if not pending:
            raise ChanceExhausted(f"no {what} has been reported yet")
        return pending.popleft()

    return read
