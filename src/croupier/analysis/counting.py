"""Card counting for the blackjack simulation (issue 15, item 3): the counting systems, the count a round is
bet and played by, bet ramps with wonging and side bets bet only at a count, and index plays — as files a
person writes (TOML or JSON) and as the integer tables the simulation kernel reads.

The kernel's count
------------------
A round's *count* is one integer, clipped to :data:`COUNT_MIN` … :data:`COUNT_MAX`:

* a **balanced** system (a full deck's tags sum to 0) bets by the floor of the *true count*, the running count
  divided by the decks left; the decks left are the cards left / 52 (``"exact"``) or that rounded to the
  nearest half deck, at least half a deck (``"half_deck"``, as a player estimates it from the discard tray);
* an **unbalanced** system (KO) bets by the floor of the running count itself, which starts at the system's
  initial running count (:meth:`CountSystem.initial_running_count`).

Running counts are kept in whole *scaled* units, the tags times :attr:`CountSystem.scale` (Wong Halves' half
tags make its scale 2), so the kernel never sees a fraction. :meth:`CountSystem.count` is the reference the
kernel must agree with.

The tables
----------
The chart is one ``int8`` table of shape ``(T_ROWS, 11)`` (:func:`pack_chart`, the rows of
:mod:`croupier.analysis._sim_kernels`): columns are the dealer's up card, 1 (ace) to 10; the hard and soft rows
hold :mod:`croupier.analysis.chart`'s play codes, the split, surrender, even-money (BJ 10.3) and insurance
(BJ 12) rows 0 or 1. Index plays become three tables of the same shape (:func:`index_tables`): the kernel
plays ``above[row, up]`` when the count is at least ``at[row, up]``, else ``below[row, up]``.

Errors are :class:`~croupier.errors.InvalidInput` naming the offending value; the command line reports them
with exit status 2.
"""

from __future__ import annotations

import itertools
import json
import math
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from croupier.analysis._sim_kernels import (
    T_EVEN,
    T_FIVE,
    T_HARD,
    T_INS,
    T_ROWS,
    T_SOFT,
    T_SPLIT,
    T_SUR_HARD,
    T_SUR_PAIR,
    T_SUR_SOFT,
)
from croupier.analysis.chart import DOUBLE_HIT, DOUBLE_STAND, HIT, STAND, Chart
from croupier.blackjack.rules import BlackjackRules
from croupier.blackjack.sidebets import SIDE_KEYS
from croupier.errors import InvalidInput

I8 = npt.NDArray[np.int8]
I64 = npt.NDArray[np.int64]

# == the kernel's constants ==================================================================================

COUNT_MIN = -30
COUNT_MAX = 30
"""The range a round's count is clipped to (a ramp's units table has one entry for each count in it)."""
NO_INDEX = COUNT_MAX + 1
"""``at`` of a cell without an index play, and the threshold of what is never done: no count reaches it."""

TrueCountMethod = Literal["exact", "half_deck"]
TRUE_COUNT_METHODS: tuple[str, ...] = ("exact", "half_deck")
"""How the decks left are reckoned: the exact cards left / 52, or rounded to the nearest half deck."""
TC_RUNNING, TC_EXACT, TC_HALF_DECK = 0, 1, 2
"""The kernel's count modes: the running count (an unbalanced system), the true count by the exact cards left,
and by the half decks left (:meth:`CountSystem.count_mode`)."""


CARD_VALUES: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
"""The card values in the order of every tag vector: ace, 2-9, ten-values."""
DECK_COUNTS: tuple[int, ...] = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
"""Cards of each value in one deck (the ten-values are four ranks)."""
CARDS_PER_DECK = 52


def _fail(message: str, *, rule: str | None = None) -> InvalidInput:
    return InvalidInput(message, rule=rule)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_document(path: Path, what: str) -> dict[str, Any]:
    """A TOML (or, by its ``.json`` suffix, JSON) file as a dict, or an error naming the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise _fail(f"cannot read the {what} file {str(path)!r}: {exc}") from None
    kind = "JSON" if path.suffix.lower() == ".json" else "TOML"
    try:
        data = json.loads(text) if kind == "JSON" else tomllib.loads(text)
    except (ValueError, RecursionError) as exc:
        raise _fail(f"the {what} file {str(path)!r} is not valid {kind}: {exc}") from None
    if not isinstance(data, dict):
        raise _fail(f"the {what} file {str(path)!r} must hold a table of keys, not {type(data).__name__}")
    return data


def _check_keys(data: Mapping[str, Any], allowed: Iterable[str], where: str) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise _fail(f"unknown key {unknown[0]!r} in {where} (the keys are: {', '.join(allowed)})")


def _count_in_range(value: object, what: str) -> int:
    """A count threshold: a whole number in COUNT_MIN..COUNT_MAX."""
    if not _is_int(value):
        raise _fail(f"{what} {value!r} must be a whole number")
    assert isinstance(value, int)
    if not COUNT_MIN <= value <= COUNT_MAX:
        raise _fail(f"{what} {value} is outside the counts {COUNT_MIN}..{COUNT_MAX} the simulation uses")
    return value


# == counting systems ========================================================================================


def _number(value: object, what: str) -> Fraction:
    """A tag or count as a fraction: an integer, a decimal, or a fraction written as a string ("1/2")."""
    if isinstance(value, bool):
        raise _fail(f"{what} must be a number, not {value!r}")
    if isinstance(value, Fraction | int):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _fail(f"{what} must be a finite number, not {value!r}")
        return Fraction(str(value))
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            pass
    raise _fail(f"{what} must be a number, not {value!r}")


MAX_SCALE = 1000
"""The finest tag croupier counts: a multiple of 1/1000 (the kernel's running count must stay a small integer)."""


@dataclass(frozen=True)
class CountSystem:
    """A point count: a tag per card value, in :data:`CARD_VALUES` order (ace, 2, 3, …, 9, ten-values).

    ``irc`` is a fixed initial running count (in count units) from a tags file, used whatever the number of
    decks; ``None`` takes :meth:`initial_running_count`'s rule.
    """

    name: str
    tags: tuple[Fraction, ...]
    irc: Fraction | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.tags, Sequence) or isinstance(self.tags, str):
            raise _fail(f"tags {self.tags!r} of {self.name!r} must be a list of 10 numbers: ace, 2-9, ten")
        tags = tuple(self.tags)
        if len(tags) != 10:
            raise _fail(
                f"counting system {self.name!r} has {len(tags)} tags; it needs 10, one per card value: "
                "ace, 2, 3, 4, 5, 6, 7, 8, 9, ten"
            )
        object.__setattr__(
            self, "tags", tuple(_number(t, f"the tag of {v}") for t, v in zip(tags, CARD_VALUES, strict=True))
        )
        if self.scale > MAX_SCALE:
            raise _fail(
                f"the tags of {self.name!r} are whole only in units of 1/{self.scale}; croupier counts in units "
                f"of at most 1/{MAX_SCALE}"
            )
        if self.irc is not None:
            irc = _number(self.irc, "the initial running count")
            if (irc * self.scale).denominator != 1:
                raise _fail(f"initial running count {irc} of {self.name!r} is not a whole number of tag units")
            object.__setattr__(self, "irc", irc)

    @property
    def scale(self) -> int:
        """The smallest positive integer that makes every tag whole (2 for Wong Halves)."""
        return math.lcm(*(t.denominator for t in self.tags))

    def scaled_tags(self) -> tuple[int, ...]:
        """The tags times :attr:`scale`: what the kernel adds to its running count for each card value."""
        return tuple(int(t * self.scale) for t in self.tags)

    @property
    def imbalance_per_deck(self) -> Fraction:
        """The sum of the tags over a full deck of 52 cards (0 for a balanced system, +4 for KO)."""
        return sum((t * n for t, n in zip(self.tags, DECK_COUNTS, strict=True)), Fraction(0))

    @property
    def balanced(self) -> bool:
        """Whether a full deck's tags sum to zero."""
        return self.imbalance_per_deck == 0

    @property
    def uses_true_count(self) -> bool:
        """Balanced systems bet and play by the true count, unbalanced ones by the running count."""
        return self.balanced

    def initial_running_count(self, decks: int) -> int:
        """The running count at a shuffle, in scaled units: 0 for a balanced system; for an unbalanced one
        ``-imbalance × (decks - 1)``, so that the count reaches 0 about a deck from the end of the shoe — KO's
        published rule ``4 - 4 × decks`` (Vancura and Fuchs, *Knock-Out Blackjack*, 1998)."""
        if not _is_int(decks) or decks < 1:
            raise _fail(f"decks {decks!r} must be a whole number ≥ 1 (BJ 1)", rule="BJ 1")
        if self.irc is not None:
            return int(self.irc * self.scale)
        if self.balanced:
            return 0
        return int(-self.imbalance_per_deck * (decks - 1) * self.scale)

    def running_count(self, values: Iterable[int], decks: int) -> int:
        """The running count, in scaled units, after the cards of ``values`` (1 = ace … 10) have been seen."""
        scaled = self.scaled_tags()
        out = self.initial_running_count(decks)
        for v in values:
            if not _is_int(v) or not 1 <= v <= 10:
                raise _fail(f"card value {v!r} must be 1 (ace) to 10")
            out += scaled[v - 1]
        return out

    def count_mode(self, method: TrueCountMethod | str = "exact") -> int:
        """The kernel's count mode: :data:`TC_RUNNING` for an unbalanced system, else the code of the
        true-count ``method`` (checked either way)."""
        code = true_count_method(method)
        return code if self.uses_true_count else TC_RUNNING

    def count(self, running: int, cards_left: int, method: TrueCountMethod | str = "exact") -> int:
        """The round's count from the running count (scaled units) and the cards left: the floor of the true
        count for a balanced system, of the running count for an unbalanced one, clipped to
        :data:`COUNT_MIN` … :data:`COUNT_MAX`. Integer arithmetic throughout, as the kernel does it."""
        mode = self.count_mode(method)
        if not _is_int(running):
            raise _fail(f"running count {running!r} must be a whole number of scaled units")
        if not _is_int(cards_left) or cards_left < 1:
            raise _fail(f"cards left {cards_left!r} must be a whole number ≥ 1")
        if mode == TC_RUNNING:
            value = running // self.scale
        elif mode == TC_EXACT:
            # running / scale / (cards_left / 52)
            value = (running * CARDS_PER_DECK) // (self.scale * cards_left)
        else:
            half_decks = max(1, (cards_left + 13) // 26)  # nearest half deck, halves rounded up
            value = (2 * running) // (self.scale * half_decks)
        return max(COUNT_MIN, min(COUNT_MAX, value))


def true_count_method(method: str) -> int:
    """The kernel's mode of a true-count method (:data:`TRUE_COUNT_METHODS`), or an error naming it."""
    if method == "exact":
        return TC_EXACT
    if method == "half_deck":
        return TC_HALF_DECK
    raise _fail(f"true-count method {method!r} is not one of {', '.join(TRUE_COUNT_METHODS)}")


def _system(name: str, *tags: int | str) -> CountSystem:
    return CountSystem(name, tuple(Fraction(t) for t in tags))


SYSTEMS: Mapping[str, CountSystem] = {
    # Harvey Dubner's count (1963), as Stanford Wong, Professional Blackjack (1975) and Don Schlesinger,
    # Blackjack Attack (3rd ed., 2005) use it.
    "hi-lo": _system("Hi-Lo", -1, 1, 1, 1, 1, 1, 0, 0, 0, -1),
    # Olaf Vancura and Ken Fuchs, Knock-Out Blackjack (1998): Hi-Lo with the 7 counted +1, unbalanced.
    "ko": _system("KO", -1, 1, 1, 1, 1, 1, 1, 0, 0, -1),
    # Charles Einstein's count as Lance Humble and Carl Cooper, The World's Greatest Blackjack Book (1980)
    # give it: the ace and the 2 neutral.
    "hi-opt-i": _system("Hi-Opt I", 0, 0, 1, 1, 1, 1, 0, 0, 0, -1),
    # Humble and Cooper (1980), the level-two Hi-Opt.
    "hi-opt-ii": _system("Hi-Opt II", 0, 1, 1, 2, 2, 1, 1, 0, 0, -2),
    # Bryce Carlson, Blackjack for Blood (1992).
    "omega-ii": _system("Omega II", 0, 1, 1, 2, 2, 2, 1, 0, -1, -2),
    # Arnold Snyder, Blackbelt in Blackjack (1983).
    "zen": _system("Zen", -1, 1, 1, 2, 2, 2, 1, 0, 0, -2),
    # Stanford Wong, Professional Blackjack (1975).
    "wong-halves": _system("Wong Halves", -1, "1/2", 1, 1, "3/2", 1, "1/2", 0, "-1/2", -1),
}
"""The built-in systems by name, each with the tags its author published (sources in the comments above;
checked in the tests against a second, independent table)."""

SYSTEM_ALIASES: Mapping[str, str] = {
    **{name: name for name in SYSTEMS},
    "hilo": "hi-lo",
    "high-low": "hi-lo",
    "knock-out": "ko",
    "hiopt-i": "hi-opt-i",
    "hiopt-ii": "hi-opt-ii",
    "hi-opt-1": "hi-opt-i",
    "hi-opt-2": "hi-opt-ii",
    "omega-2": "omega-ii",
    "omega": "omega-ii",
    "zen-count": "zen",
    "halves": "wong-halves",
}
"""Every name :func:`count_system` accepts for a built-in system."""


def _key(name: str) -> str:
    return "-".join(name.strip().lower().replace("_", "-").split())


def count_system(spec: str | Path | CountSystem) -> CountSystem:
    """A counting system: a built-in name (:data:`SYSTEM_ALIASES`), or a TOML/JSON file of the form
    ``name = "…"``, ``tags = [ace, 2, 3, 4, 5, 6, 7, 8, 9, ten]`` (numbers; halves as ``0.5`` or ``"1/2"``) and
    optionally ``initial_running_count``."""
    if isinstance(spec, CountSystem):
        return spec
    if isinstance(spec, str) and _key(spec) in SYSTEM_ALIASES:
        return SYSTEMS[SYSTEM_ALIASES[_key(spec)]]
    path = Path(spec)
    if path.suffix.lower() in (".toml", ".json") or path.exists():
        return load_count_system(path)
    raise _fail(
        f"unknown counting system {str(spec)!r}: the built-in systems are {', '.join(SYSTEMS)} "
        "(or give a TOML/JSON tags file)"
    )


def load_count_system(path: str | Path) -> CountSystem:
    """A counting system from a TOML/JSON tags file (see :func:`count_system`)."""
    p = Path(path)
    data = _read_document(p, "tags")
    _check_keys(data, ("name", "tags", "initial_running_count"), f"the tags file {str(p)!r}")
    name = data.get("name", p.stem)
    if not isinstance(name, str) or not name.strip():
        raise _fail(f"the name {name!r} in the tags file {str(p)!r} must be a non-empty string")
    if "tags" not in data:
        raise _fail(f"the tags file {str(p)!r} has no tags: give tags = [ace, 2, 3, 4, 5, 6, 7, 8, 9, ten]")
    tags = data["tags"]
    if not isinstance(tags, list):
        raise _fail(f"tags {tags!r} in {str(p)!r} must be a list of 10 numbers: ace, 2, 3, 4, 5, 6, 7, 8, 9, ten")
    irc = data.get("initial_running_count")
    return CountSystem(name.strip(), tuple(tags), None if irc is None else _number(irc, "the initial running count"))


# == bet ramps ===============================================================================================


@dataclass(frozen=True)
class Ramp:
    """How a counter bets by the count.

    * ``steps``: ``(count at least, units)`` pairs, counts strictly increasing, units whole, at least 1 and
      never falling as the count rises; below the first step the first step's units are bet.
    * ``wong_in`` / ``wong_out``: a counter who is out comes in when the count is at least ``wong_in``; one
      who is in leaves when the count is below ``wong_out`` (``wong_out ≤ wong_in``). Without ``wong_in`` the
      counter comes back as soon as the count is at least ``wong_out`` again (sitting out the rounds below it); without
      ``wong_out`` the counter never leaves. At a shuffle the counter is in when a fresh shoe's count of 0 is
      at least :attr:`enter_at` (:attr:`starts_in`), and otherwise back-counts from the top of the shoe.
    * ``side_bets``: ``(side-bet key, count at least)`` pairs, keys from
      :data:`~croupier.blackjack.sidebets.SIDE_KEYS`: the side bet is placed (``side_units`` units) only at
      that count or above (BJ 13).
    """

    steps: tuple[tuple[int, int], ...]
    wong_in: int | None = None
    wong_out: int | None = None
    side_bets: tuple[tuple[str, int], ...] = ()
    side_units: int = 1
    name: str = "ramp"

    def __post_init__(self) -> None:
        problems = _ramp_problems(self)
        if len(problems) == 1:
            raise _fail(problems[0])
        if problems:
            raise _fail(f"{len(problems)} problems in the ramp {self.name!r}: " + "; ".join(problems))
        object.__setattr__(self, "steps", tuple((int(c), int(u)) for c, u in self.steps))
        object.__setattr__(self, "side_bets", tuple((str(k), int(c)) for k, c in self.side_bets))

    def units_at(self, count: int) -> int:
        """The units bet at ``count``."""
        units = self.steps[0][1]
        for at, step_units in self.steps:
            if count >= at:
                units = step_units
        return units

    def units_table(self) -> list[int]:
        """The units bet at each count from :data:`COUNT_MIN` to :data:`COUNT_MAX` (the kernel's table)."""
        return [self.units_at(c) for c in range(COUNT_MIN, COUNT_MAX + 1)]

    @property
    def enter_at(self) -> int:
        """The count at which a counter who is out comes in (the kernel's ``G_WONG_IN``): ``wong_in``, else
        ``wong_out``, else :data:`COUNT_MIN` (always)."""
        if self.wong_in is not None:
            return self.wong_in
        return COUNT_MIN if self.wong_out is None else self.wong_out

    @property
    def leave_below(self) -> int:
        """The count below which a counter who is in leaves (the kernel's ``G_WONG_OUT``; :data:`COUNT_MIN`:
        never)."""
        return COUNT_MIN if self.wong_out is None else self.wong_out

    @property
    def starts_in(self) -> bool:
        """Whether the counter is in at a shuffle: the count of a fresh shoe, 0, is at least :attr:`enter_at`."""
        return self.enter_at <= 0

    def plays(self, count: int, playing: bool) -> bool:
        """Whether the counter plays a round at ``count``, given whether the counter played the round before (or, on
        the first round after a shuffle, :attr:`starts_in`)."""
        return count >= self.leave_below if playing else count >= self.enter_at

    def side_bet_thresholds(self) -> tuple[int, ...]:
        """The count at which each side bet of :data:`SIDE_KEYS` is placed, in that order (:data:`NO_INDEX`:
        never)."""
        at = dict(self.side_bets)
        return tuple(at.get(key, NO_INDEX) for key in SIDE_KEYS)


def _ramp_problems(ramp: Ramp) -> list[str]:
    out: list[str] = []
    steps = list(ramp.steps) if isinstance(ramp.steps, Sequence) else None
    if not steps:
        out.append(f"ramp steps {ramp.steps!r} must be a non-empty list of [count, units] pairs")
    else:
        good: list[tuple[int, int]] = []
        for i, step in enumerate(steps, 1):
            if not isinstance(step, Sequence) or isinstance(step, str) or len(step) != 2:
                out.append(f"ramp step {i} {step!r} must be a [count, units] pair")
                continue
            count, units = step
            if not _is_int(count):
                out.append(f"ramp step {i}: count {count!r} must be a whole number")
            elif not COUNT_MIN <= count <= COUNT_MAX:
                out.append(f"ramp step {i}: count {count} is outside the counts {COUNT_MIN}..{COUNT_MAX}")
            if not _is_int(units):
                out.append(f"ramp step {i}: units {units!r} must be a whole number")
            elif units < 1:
                out.append(f"ramp step {i}: units {units} must be at least 1")
            if _is_int(count) and _is_int(units):
                good.append((count, units))
        for (c0, u0), (c1, u1) in itertools.pairwise(good):
            if c1 <= c0:
                out.append(f"ramp counts must strictly increase: count {c1} follows count {c0}")
            if u1 < u0:
                out.append(
                    f"ramp units fall from {u0} at count {c0} to {u1} at count {c1}: units must not decrease "
                    "as the count rises"
                )
    for label, value in (("wong_in", ramp.wong_in), ("wong_out", ramp.wong_out)):
        if value is not None:
            if not _is_int(value):
                out.append(f"{label} {value!r} must be a whole number")
            elif not COUNT_MIN <= value <= COUNT_MAX:
                out.append(f"{label} {value} is outside the counts {COUNT_MIN}..{COUNT_MAX}")
    if _is_int(ramp.wong_in) and _is_int(ramp.wong_out):
        assert ramp.wong_in is not None and ramp.wong_out is not None
        if ramp.wong_out > ramp.wong_in:
            out.append(
                f"wong_out {ramp.wong_out} is above wong_in {ramp.wong_in}: the count for leaving must not be above "
                "the count for coming in (wong_out ≤ wong_in)"
            )
    seen: set[str] = set()
    for pair in ramp.side_bets:
        if not isinstance(pair, Sequence) or isinstance(pair, str) or len(pair) != 2:
            out.append(f"side bet {pair!r} must be a (key, count) pair")
            continue
        key, count = pair
        if key not in SIDE_KEYS:
            out.append(f"unknown side bet {key!r} (the side bets: {', '.join(SIDE_KEYS)}; BJ 13)")
        elif key in seen:
            out.append(f"side bet {key!r} is given twice")
        seen.add(str(key))
        if not _is_int(count):
            out.append(f"side bet {key!r}: count {count!r} must be a whole number")
        elif not COUNT_MIN <= count <= COUNT_MAX:
            out.append(f"side bet {key!r}: count {count} is outside the counts {COUNT_MIN}..{COUNT_MAX}")
    if not _is_int(ramp.side_units):
        out.append(f"side_units {ramp.side_units!r} must be a whole number")
    elif ramp.side_units < 1:
        out.append(f"side_units {ramp.side_units} must be at least 1")
    return out


FLAT = Ramp(steps=((COUNT_MIN, 1),), name="flat")
"""One unit at every count, never wonging, no side bets."""

RAMP_KEYS: tuple[str, ...] = ("name", "steps", "wong_in", "wong_out", "side_bets", "side_units")


def load_ramp(path: str | Path) -> Ramp:
    """A ramp from a TOML/JSON file: ``steps = [[-30, 1], [2, 2], [3, 4]]``, optional ``wong_in``,
    ``wong_out``, ``side_units`` and ``name``, and a ``[side_bets]`` table of ``key = count``."""
    p = Path(path)
    data = _read_document(p, "ramp")
    _check_keys(data, RAMP_KEYS, f"the ramp file {str(p)!r}")
    if "steps" not in data:
        raise _fail(f"the ramp file {str(p)!r} has no steps: give steps = [[count, units], …]")
    steps = data["steps"]
    if not isinstance(steps, list):
        raise _fail(f"steps {steps!r} in {str(p)!r} must be a list of [count, units] pairs")
    side = data.get("side_bets", {})
    if not isinstance(side, dict):
        raise _fail(f"side_bets {side!r} in {str(p)!r} must be a table of side-bet key = count")
    name = data.get("name", p.stem)
    if not isinstance(name, str):
        raise _fail(f"the name {name!r} in the ramp file {str(p)!r} must be a string")
    return Ramp(
        steps=tuple(tuple(s) if isinstance(s, list) else s for s in steps),
        wong_in=data.get("wong_in"),
        wong_out=data.get("wong_out"),
        side_bets=tuple(side.items()),
        side_units=data.get("side_units", 1),
        name=name,
    )


def ramp(spec: str | Path | Ramp) -> Ramp:
    """A ramp: ``"flat"`` (:data:`FLAT`) or a TOML/JSON file (:func:`load_ramp`)."""
    if isinstance(spec, Ramp):
        return spec
    if isinstance(spec, str) and _key(spec) == "flat":
        return FLAT
    return load_ramp(spec)


# == index plays =============================================================================================

DECISIONS: tuple[str, ...] = (
    "hard",
    "soft",
    "pair",
    "surrender hard",
    "surrender soft",
    "surrender pair",
    "insurance",
)
"""The decisions an index play may name, as its ``hand`` begins: ``"hard 16"``, ``"pair A"``, ``"insurance"``."""

_PLAYS = {"hit": HIT, "stand": STAND, "double": DOUBLE_HIT, "double_stand": DOUBLE_STAND}
ACTIONS: Mapping[str, Mapping[str, int]] = {
    "hard": _PLAYS,
    "soft": _PLAYS,
    "pair": {"split": 1, "no_split": 0},
    "surrender hard": {"surrender": 1, "no_surrender": 0},
    "surrender soft": {"surrender": 1, "no_surrender": 0},
    "surrender pair": {"surrender": 1, "no_surrender": 0},
    "insurance": {"insure": 1, "no_insurance": 0},
}
"""The actions each decision takes, with the table code each writes (``double``: double, else hit;
``double_stand``: double, else stand)."""
_ALL_ACTIONS = tuple(dict.fromkeys(a for actions in ACTIONS.values() for a in actions))

_FIRST_ROW = {
    "hard": T_HARD,
    "soft": T_SOFT,
    "pair": T_SPLIT,
    "surrender hard": T_SUR_HARD,
    "surrender soft": T_SUR_SOFT,
    "surrender pair": T_SUR_PAIR,
}
_TOTALS = {
    "hard": range(4, 22),
    "soft": range(12, 22),
    "pair": range(1, 11),
    "surrender hard": range(4, 22),
    "surrender soft": range(12, 22),
    "surrender pair": range(1, 11),
    "insurance": range(0, 1),
}


def _value_text(value: int) -> str:
    return "A" if value == 1 else str(value)


@dataclass(frozen=True)
class IndexPlay:
    """One index play: for ``decision`` with ``total`` (a pair's card value, 1 = aces; 0 for insurance)
    against the up card ``up`` (1 = ace … 10), play ``above`` when the count is at least ``at``, else
    ``below`` (``None``: the chart's play)."""

    decision: str
    total: int
    up: int
    at: int
    above: str
    below: str | None = None

    def __post_init__(self) -> None:
        if self.decision not in ACTIONS:
            raise _fail(f"unknown decision {self.decision!r} (the decisions: {', '.join(DECISIONS)})")
        if not _is_int(self.total) or self.total not in _TOTALS[self.decision]:
            span = _TOTALS[self.decision]
            raise _fail(f"{self.decision} {self.total!r} is not a hand: the totals are {span[0]}..{span[-1]}")
        if not _is_int(self.up) or not 1 <= self.up <= 10:
            raise _fail(f"up card {self.up!r} is outside A-10")
        if self.decision == "insurance" and self.up != 1:
            raise _fail(
                f"insurance against up card {_value_text(self.up)}: insurance is offered only against an ace",
                rule="BJ 12.1",
            )
        _count_in_range(self.at, f"the index of {self.hand} against {_value_text(self.up)}")
        actions = ACTIONS[self.decision]
        for label, action in (("above", self.above), ("below", self.below)):
            if action is None and label == "below":
                continue
            if action not in actions:
                known = "an action" if action in _ALL_ACTIONS else "an unknown action"
                raise _fail(
                    f"{label} = {action!r} is {known} that does not fit the hand {self.hand!r} "
                    f"(its actions: {', '.join(actions)})"
                )
        if self.above == self.below:
            raise _fail(f"the index of {self.hand} against {_value_text(self.up)} plays {self.above} both sides")

    @property
    def hand(self) -> str:
        """The hand as a file names it: ``"hard 16"``, ``"surrender pair 8"``, ``"insurance"``."""
        if self.decision == "insurance":
            return "insurance"
        if self.decision.endswith("pair"):
            return f"{self.decision} {_value_text(self.total)}"
        return f"{self.decision} {self.total}"

    @property
    def row(self) -> int:
        """The row of the kernel's tables this play writes."""
        return T_INS if self.decision == "insurance" else _FIRST_ROW[self.decision] + self.total

    def codes(self) -> tuple[int, int | None]:
        """The table codes of ``above`` and ``below`` (``None``: the chart's)."""
        actions = ACTIONS[self.decision]
        return actions[self.above], None if self.below is None else actions[self.below]


def _parse_hand(text: object) -> tuple[str, int]:
    if not isinstance(text, str):
        raise _fail(f'hand {text!r} must be a string such as "hard 16", "pair A" or "insurance"')
    words = text.strip().lower().split()
    if words == ["insurance"]:
        return "insurance", 0
    if len(words) >= 2:
        decision = " ".join(words[:-1])
        if decision in _FIRST_ROW:
            number = words[-1]
            if decision.endswith("pair"):
                value = 1 if number == "a" else int(number) if number.isdecimal() and number != "1" else None
            else:
                value = int(number) if number.isdecimal() else None
            if value is not None and value in _TOTALS[decision]:
                return decision, value
            span = "A, 2..10" if decision.endswith("pair") else f"{_TOTALS[decision][0]}..{_TOTALS[decision][-1]}"
            raise _fail(f"hand {text!r}: {words[-1]!r} is not a {decision} ({span})")
    raise _fail(
        f'unknown decision in hand {text!r}: the hands are "hard N", "soft N", "pair V" (V = A, 2..10), '
        '"surrender hard N", "surrender soft N", "surrender pair V" and "insurance"'
    )


def _parse_up(value: object) -> int:
    if _is_int(value):
        assert isinstance(value, int)
        if 2 <= value <= 10:
            return value
    elif isinstance(value, str):
        text = value.strip().upper()
        if text in ("A", "ACE"):
            return 1
        if text.isdecimal() and 2 <= int(text) <= 10:
            return int(text)
    raise _fail(f'up card {value!r} is outside A-10 (give 2-10 or "A")')


INDEX_KEYS: tuple[str, ...] = ("hand", "up", "at", "above", "below")


def index_play(entry: Mapping[str, Any], where: str = "an index play") -> IndexPlay:
    """One index play from a file's entry: ``hand``, ``up`` (2-10 or ``"A"``; not needed for insurance),
    ``at``, ``above`` and optionally ``below``."""
    if not isinstance(entry, Mapping):
        raise _fail(f"{where} {entry!r} must be a table of {', '.join(INDEX_KEYS)}")
    _check_keys(entry, INDEX_KEYS, where)
    for key in ("hand", "at", "above"):
        if key not in entry:
            raise _fail(f"{where} has no {key!r}")
    decision, total = _parse_hand(entry["hand"])
    if "up" in entry:
        up = _parse_up(entry["up"])
    elif decision == "insurance":
        up = 1
    else:
        raise _fail(f"{where} ({entry['hand']}) has no 'up' card")
    if not _is_int(entry["at"]):
        raise _fail(f"{where} ({entry['hand']}): at {entry['at']!r} must be a whole number")
    above, below = entry["above"], entry.get("below")
    for label, action in (("above", above), ("below", below)):
        if action is not None and not isinstance(action, str):
            raise _fail(f"{where} ({entry['hand']}): {label} {action!r} must be an action name")
    return IndexPlay(decision, total, up, entry["at"], above, below)


def _plays(*rows: tuple[str, int | str, int, str, str | None]) -> tuple[IndexPlay, ...]:
    out = []
    for hand, up, at, above, below in rows:
        entry: dict[str, Any] = {"hand": hand, "up": up, "at": at, "above": above}
        if below is not None:
            entry["below"] = below
        out.append(index_play(entry))
    return tuple(out)


ILLUSTRIOUS_18: tuple[IndexPlay, ...] = _plays(
    ("insurance", "A", 3, "insure", None),
    ("hard 16", 10, 0, "stand", None),
    ("hard 15", 10, 4, "stand", None),
    ("pair 10", 5, 5, "split", None),
    ("pair 10", 6, 4, "split", None),
    ("hard 10", 10, 4, "double", None),
    ("hard 12", 3, 2, "stand", None),
    ("hard 12", 2, 3, "stand", None),
    ("hard 11", "A", 1, "double", None),
    ("hard 9", 2, 1, "double", None),
    ("hard 10", "A", 4, "double", None),
    ("hard 9", 7, 3, "double", None),
    ("hard 16", 9, 5, "stand", None),
    ("hard 13", 2, -1, "stand", "hit"),
    ("hard 12", 4, 0, "stand", "hit"),
    ("hard 12", 5, -2, "stand", "hit"),
    ("hard 12", 6, -1, "stand", "hit"),
    ("hard 13", 3, -2, "stand", "hit"),
)
"""Don Schlesinger's Illustrious 18 for Hi-Lo, multi-deck, dealer stands on soft 17 (Blackjack Attack:
Playing the Pros' Way, 3rd ed., RGE Publishing 2005; first published as "Attacking the Shoe", Blackjack Forum,
September 1986), in Schlesinger's order of value. The count is the true count; ``below`` is given where the basic play
is the ``above`` play (the negative indices: hit below them), and is otherwise the chart's play."""

FAB_4: tuple[IndexPlay, ...] = _plays(
    ("surrender hard 14", 10, 3, "surrender", None),
    ("surrender hard 15", 10, 0, "surrender", "no_surrender"),
    ("surrender hard 15", 9, 2, "surrender", None),
    ("surrender hard 15", "A", 1, "surrender", None),
)
"""Schlesinger's Fab 4 late-surrender indices for Hi-Lo, multi-deck, dealer stands on soft 17 (Blackjack
Attack, 3rd ed., 2005). 15 against a ten is a basic surrender at a count of 0 and above, so below 0 it is
played without surrendering. (Against an ace the index is lower where the dealer hits soft 17.) They were
made for surrender after the peek; with the no-hole-card early surrender of BJ 18 they are an approximation."""

INDEX_SETS: Mapping[str, tuple[IndexPlay, ...]] = {
    "illustrious18": ILLUSTRIOUS_18,
    "fab4": FAB_4,
    "i18+fab4": ILLUSTRIOUS_18 + FAB_4,
    "none": (),
}
"""The built-in index sets (for Hi-Lo) by name."""
_INDEX_ALIASES = {
    **{name: name for name in INDEX_SETS},
    "i18": "illustrious18",
    "illustrious-18": "illustrious18",
    "fab-4": "fab4",
    "illustrious18+fab4": "i18+fab4",
}


def load_indices(spec: str | Path | Sequence[IndexPlay]) -> tuple[IndexPlay, ...]:
    """Index plays: a built-in set (:data:`INDEX_SETS`: ``illustrious18``, ``fab4``, ``i18+fab4``, ``none``)
    or a TOML/JSON file of ``[[play]]`` entries such as ``hand = "hard 16"``, ``up = 10``, ``at = 0``,
    ``above = "stand"`` (see :func:`index_play`). No two plays may write the same cell."""
    if not isinstance(spec, str | Path):
        return _unique(tuple(spec))
    if isinstance(spec, str) and _key(spec) in _INDEX_ALIASES:
        return INDEX_SETS[_INDEX_ALIASES[_key(spec)]]
    p = Path(spec)
    if p.suffix.lower() not in (".toml", ".json") and not p.exists():
        raise _fail(
            f"unknown index set {str(spec)!r}: the built-in sets are {', '.join(INDEX_SETS)} "
            "(or give a TOML/JSON index file)"
        )
    data = _read_document(p, "index")
    _check_keys(data, ("name", "play"), f"the index file {str(p)!r}")
    entries = data.get("play", [])
    if not isinstance(entries, list):
        raise _fail(f"play in {str(p)!r} must be a list of [[play]] entries, not {entries!r}")
    return _unique(tuple(index_play(e, f"index play {i} of {str(p)!r}") for i, e in enumerate(entries, 1)))


def _unique(plays: tuple[IndexPlay, ...]) -> tuple[IndexPlay, ...]:
    seen: dict[tuple[int, int], IndexPlay] = {}
    for play in plays:
        if not isinstance(play, IndexPlay):
            raise _fail(f"{play!r} is not an index play")
        cell = (play.row, play.up)
        if cell in seen:
            raise _fail(f"the index play for {play.hand} against {_value_text(play.up)} is given twice")
        seen[cell] = play
    return plays


def pack_chart(chart: Chart) -> I8:
    """The chart's tables stacked into the kernel's one ``int8`` table, insurance never taken (the basic
    strategy: BJ 12 insurance costs a basic-strategy player)."""
    from croupier.analysis.simulate import encode_chart

    return encode_chart(chart)


def index_tables(indices: Sequence[IndexPlay], chart_table: I8 | Chart, even_money_on_ten: bool) -> tuple[I64, I8, I8]:
    """The index plays as the kernel's ``(at, above, below)`` tables (see the module's docstring).

    A cell without an index has ``at`` = :data:`NO_INDEX` and ``above`` = ``below`` = the chart's cell; an
    index without ``below`` keeps the chart's cell below it. An insurance index also moves even money against
    an ace (``T_EVEN``, column 1) with the same threshold: a blackjack's even money is its insurance (BJ 10.3,
    12).

    ``even_money_on_ten`` says whether the rules offer even money against a ten-value card (BJ 10.3). The
    insurance index does not move that cell: against a ten the dealer's blackjack is a hole ace, which the
    count of tens does not measure, and even money is worth taking there only if more than a third of the
    cards left were aces. The cell keeps the chart's play (never, in basic strategy) whichever the rules.
    """
    table = pack_chart(chart_table) if isinstance(chart_table, Chart) else np.asarray(chart_table)
    if table.shape != (T_ROWS, 11):
        raise _fail(f"the chart table has shape {table.shape}; the kernel's is ({T_ROWS}, 11)")
    if not isinstance(even_money_on_ten, bool | np.bool_):
        raise _fail(f"even_money_on_ten {even_money_on_ten!r} must be true or false", rule="BJ 10.3")
    plays = _unique(tuple(indices))
    at = np.full((T_ROWS, 11), NO_INDEX, np.int64)
    above = table.astype(np.int8, copy=True)
    below = table.astype(np.int8, copy=True)
    for play in plays:
        hi, lo = play.codes()
        cells = [(play.row, play.up)]
        if play.decision == "insurance":
            cells.append((T_EVEN, 1))
        for row, up in cells:
            at[row, up] = play.at
            above[row, up] = hi
            if lo is not None:
                below[row, up] = lo
    return at, above, below


# == the figures of merit ====================================================================================


def _weighted_pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's correlation of two vectors over the 52 cards of a deck (each value weighted by its cards)."""
    w = np.array(DECK_COUNTS, np.float64)
    xa = np.array(x, np.float64)
    ya = np.array(y, np.float64)
    xd = xa - (w * xa).sum() / w.sum()
    yd = ya - (w * ya).sum() / w.sum()
    sxx, syy = float((w * xd * xd).sum()), float((w * yd * yd).sum())
    if sxx == 0 or syy == 0:
        raise _fail("a correlation needs tags and effects that are not all equal")
    return float((w * xd * yd).sum()) / math.sqrt(sxx * syy)


def effects_of_removal(rules: BlackjackRules, chart: Chart | None = None) -> tuple[float, ...]:
    """The effects of removal on the player's expectation per unit bet, in :data:`CARD_VALUES` order: the exact
    value of a round (:mod:`croupier.analysis.ca`) from the rules' full shoe less one card of each value, minus
    that from the full shoe, played throughout by ``chart`` (default: the basic strategy of the full shoe, as
    Griffin's effects of removal are for the basic-strategy player, The Theory of Blackjack, 1979)."""
    from croupier.analysis.basic_strategy import basic_strategy
    from croupier.analysis.ca import chart_value
    from croupier.analysis.dealer import decks, remove

    shoe = decks(rules.decks)
    strategy = basic_strategy(rules) if chart is None else chart
    base = chart_value(rules, strategy, shoe)
    return tuple(chart_value(rules, strategy, remove(shoe, v)) - base for v in range(1, 11))


def betting_correlation(system: CountSystem | str, eors: Sequence[float]) -> float:
    """The betting correlation (BC): Pearson's correlation between the system's tags and the effects of
    removal ``eors`` (ace, 2-9, ten) over the cards of a deck, the ten-values counting four times."""
    s = count_system(system)
    if len(eors) != 10:
        raise _fail(f"{len(eors)} effects of removal given; give 10: ace, 2, 3, 4, 5, 6, 7, 8, 9, ten")
    return _weighted_pearson([float(t) for t in s.tags], [float(e) for e in eors])


def insurance_eors(decks: int = 1) -> tuple[Fraction, ...]:
    """The exact effects of removal on insurance (BJ 12: pays 2 to 1 when the hole card is a ten) per unit
    insured, from ``decks`` decks less the dealer's up ace: removing a ten lowers the bet's value, any other card
    raises it by the same amount whatever its value."""
    if not _is_int(decks) or decks < 1:
        raise _fail(f"decks {decks!r} must be a whole number ≥ 1 (BJ 1)", rule="BJ 1")
    tens, cards = 16 * decks, 52 * decks - 1

    def value(t: int, n: int) -> Fraction:
        return 3 * Fraction(t, n) - 1

    base = value(tens, cards)
    other = value(tens, cards - 1) - base
    ten = value(tens - 1, cards - 1) - base
    return (other,) * 9 + (ten,)


def insurance_correlation(system: CountSystem | str) -> float:
    """The insurance correlation (IC): Pearson's correlation between the system's tags and the effects of
    removal on insurance (:func:`insurance_eors`) over the cards of a deck. Those effects take one value on the
    tens and one on the rest, so the correlation is that with "is a ten", the same for any number of decks."""
    s = count_system(system)
    return _weighted_pearson([float(t) for t in s.tags], [float(e) for e in insurance_eors()])


__all__ = [
    "ACTIONS",
    "CARD_VALUES",
    "COUNT_MAX",
    "COUNT_MIN",
    "DECISIONS",
    "DECK_COUNTS",
    "FAB_4",
    "FLAT",
    "ILLUSTRIOUS_18",
    "INDEX_SETS",
    "NO_INDEX",
    "SYSTEMS",
    "SYSTEM_ALIASES",
    "TC_EXACT",
    "TC_HALF_DECK",
    "TC_RUNNING",
    "TRUE_COUNT_METHODS",
    "T_EVEN",
    "T_FIVE",
    "T_HARD",
    "T_INS",
    "T_ROWS",
    "T_SOFT",
    "T_SPLIT",
    "T_SUR_HARD",
    "T_SUR_PAIR",
    "T_SUR_SOFT",
    "CountSystem",
    "IndexPlay",
    "Ramp",
    "betting_correlation",
    "count_system",
    "effects_of_removal",
    "index_play",
    "index_tables",
    "insurance_correlation",
    "insurance_eors",
    "load_count_system",
    "load_indices",
    "load_ramp",
    "pack_chart",
    "ramp",
    "true_count_method",
]
