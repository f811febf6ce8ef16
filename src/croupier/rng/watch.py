"""The bias watch on a live table (issue 18, section 2): does a dealer's wheel or shaker favour a pocket or a face?

A live roulette wheel or sic bo shaker is a physical device: a worn fret, a tilted wheel or a loaded die makes some
results more frequent than the statute's law (RO 1: 37 equally likely pockets; SB 1: three fair dice). The watch
reads a table's recorded results (:func:`table_results`) and tests them (:func:`watch`).

**The flag.** The watch flags a table when Pearson's chi-square goodness-of-fit test of the pocket (or face)
counts over the window rejects uniformity at ``alpha``: with ``k`` cells (37 pockets; 6 faces, the three dice of
each roll counted as three observations, independent under a fair shaker) and ``m`` observations, ``X² = Σ (O_i −
m/k)² / (m/k)`` against the chi-square law with ``k − 1`` degrees of freedom. This is **one test over a fixed window**
(the last ``n`` results), not a check after every spin: looking again after each spin and stopping at the first
crossing would raise the false-alarm rate far above ``alpha`` (with thousands of looks it tends to certainty). So
the chance that a fair table is flagged is ``alpha`` (the chi-square law is asymptotic; the watch refuses to test
while any expected count is below 5, where it is not). The surveillance team that wants to watch continuously runs
the watch on consecutive, non-overlapping windows of the designed size, each at ``alpha``.

**Rounds needed.** ``rounds_needed`` (:class:`Detection`, ``test="chi-square"``) is the smallest window at which
*that same test* flags a biased device with probability ``power``. The alternative (``bias``) is one pocket (or face)
at probability ``b``, the others sharing ``1 − b`` equally; by default ``b`` is 1.5 times the fair chance (1.5/37 for
a pocket, 1.5/6 for a face). The textbook answer takes the statistic to be noncentral chi-square with ``k − 1``
degrees of freedom and noncentrality ``λ = m · Σ (p_i − q_i)² / q_i`` (``q_i = 1/k``, ``m`` observations: one
pocket or three dice a round) and solves ``P(ncx2(k − 1, λ) > crit) = power``: 6,017 spins for 1.5/37 at ``alpha``
0.01 and power 0.9 (reported as ``textbook_rounds``). That law assumes the alternative's counts vary as the fair
law's; a pocket at 1.5/37 varies more, and a Monte Carlo of the test at 6,017 spins flags it only 86 % of the time.
So the watch computes the power from the law of the statistic under the alternative itself (a Gaussian quadratic
form with the alternative's covariance, matched on four cumulants by a noncentral chi-square: Liu, Tang & Zhang
2009), which follows the Monte Carlo to within a point, and answers the smallest window where that power reaches
``power``: **6,521 spins** for 1.5/37 (163 rolls for a face at 1.5/6). Run at that window, the watch's flag is the
designed test: "flags within the number of spins the report says it needs" means exactly that its power there is
``power`` (``tests/rng/test_watch.py`` checks it by Monte Carlo).

**The pocket test**, the reading a surveillance team looks at: each pocket's count against its binomial law
``Bin(m, 1/k)``, as a standardised deviation ``z = (O − m/k) / sqrt(m/k · (1 − 1/k))`` and an exact two-sided
binomial p-value (``2 · min(P(X ≥ O), P(X ≤ O))``). The furthest pocket of 37 fair ones has a nominal p-value below
0.05 most of the time (1 − 0.95³⁷ ≈ 85 %), so each p-value comes with its Šidák adjustment over the ``k`` cells,
``1 − (1 − p)^k``, and the pocket test fails when the smallest adjusted p-value is below ``alpha`` (the chance of a
fair table failing it is then at most ``alpha``). Its own rounds needed (``test="pocket"``) is computed exactly, on
the binomial law of the loaded pocket's count, for the same two-sided rejection region; against a single loaded
pocket it needs fewer spins than the chi-square (4,162 rather than 6,521 for 1.5/37), while the chi-square also
sees a bias spread over several pockets (a tilted wheel favours a sector). **The flag is the chi-square's alone**;
the pocket test says which pocket, and a team that acts on either test accepts up to ``2 · alpha`` false alarms.

**The sequential view** (:class:`SequencePoint`): the chi-square statistic and its p-value over the window's first
``j`` rounds, for ``j`` at up to ``points`` checkpoints from the first that has 5 expected per cell to the window's
end, so a plot shows how the evidence built up. It is for reading: a crossing of the critical line before the
window's end is not a flag (the repeated looks above).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Literal, cast

import numpy as np
import numpy.typing as npt
from scipy import optimize, stats

from croupier.errors import CroupierError
from croupier.rng.game import uniformity
from croupier.rng.results import TestResult, Verdict, check_alpha, sidak

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from croupier.service.casino_records import RoundRecord

WatchGame = Literal["roulette", "sicbo"]
GAMES: dict[str, tuple[int, int, int]] = {"roulette": (37, 0, 1), "sicbo": (6, 1, 3)}
"""Per game: the number of cells (pockets, faces), the first cell's number and the observations per round."""
MIN_EXPECTED = 5.0
"""No test while a cell's expected count is below this (the chi-square and normal laws do not hold there)."""
BIAS_RATIO = 1.5
"""The default alternative: one pocket or face at 1.5 times its fair chance."""
POINTS = 200
TOP = 5
MAX_ROUNDS = 10**9
"""A bias that needs more rounds than this to detect is refused as undetectable."""

Test = Literal["chi-square", "pocket"]


class NotWatchable(CroupierError):
    """A table whose results the watch does not test (blackjack: a shoe, not a wheel or dice)."""

    kind = "not_watchable"


# -- the recorded results -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableResults:
    """A table's settled results in order, oldest first: ``outcomes`` (roulette: the pockets, shape ``(n,)``; sic
    bo: the dice, shape ``(n, 3)``), the ``rounds`` they settled and the ``times`` they settled at, and ``voids``,
    how many void spins or rolls (RO 2.2, SB 3.3) those rounds had (not results: not counted)."""

    table_id: str
    game: WatchGame
    outcomes: npt.NDArray[np.int64]
    rounds: tuple[str, ...]
    times: tuple[datetime, ...]
    voids: int = 0

    def __len__(self) -> int:
        return len(self.rounds)


def _game_of(table_id: str, game: str) -> WatchGame:
    if game not in GAMES:
        raise NotWatchable(
            f"Table {table_id!r} plays {game}: the bias watch tests a wheel's pockets or a shaker's dice "
            "(roulette, sic bo), not a shoe's cards."
        )
    return cast(WatchGame, game)


def _check_last(last: object) -> int | None:
    if last is None:
        return None
    if isinstance(last, bool) or not isinstance(last, int) or last < 1:
        raise ValueError(f"last must be a whole number of rounds of at least 1, not {last!r}")
    return last


def results_of(table_id: str, game: str, records: Iterable[RoundRecord], last: int | None = None) -> TableResults:
    """The results of ``records`` (a table's stored rounds, in order): each **settled** round's result (the last
    ``result`` step: a pocket or three dice); a void spin or roll before it (RO 2.2, SB 3.3) is no result, nor is a
    voided round or one still in play. Only the ``last`` results when given."""
    from croupier.service.round_state import ResultStep, VoidResultStep

    kind = _game_of(table_id, game)
    last = _check_last(last)
    values: list[object] = []
    rounds: list[str] = []
    times: list[datetime] = []
    voids: list[int] = []
    for record in records:
        if record.status != "settled":
            continue
        results = [s.value for s in record.state.steps if isinstance(s, ResultStep)]
        if not results:
            continue
        values.append(results[-1])
        rounds.append(record.round_id)
        times.append(record.updated_at)
        voids.append(sum(isinstance(s, VoidResultStep) for s in record.state.steps))
    if last is not None:
        values, rounds, times, voids = values[-last:], rounds[-last:], times[-last:], voids[-last:]
    return TableResults(table_id, kind, _outcomes(kind, values), tuple(rounds), tuple(times), sum(voids))


def _outcomes(game: WatchGame, values: Sequence[object]) -> npt.NDArray[np.int64]:
    if game == "sicbo":
        return np.asarray(values, dtype=np.int64).reshape(-1, 3)
    return np.asarray(values, dtype=np.int64).reshape(-1)


def read_results(engine: Engine, table_id: str, last: int | None = None) -> TableResults:
    """The results of ``table_id`` in the casino's store on ``engine`` (read-only transactions), as
    :func:`results_of` says: the last ``last`` settled rounds, read straight from ``casino_rounds`` (a settled round
    is written whole with its result; the bets appended since are not needed). ``UnknownTable`` when the database
    has no such table (open or closed), :class:`NotWatchable` for a blackjack table."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from croupier.service.casino_records import UnknownTable
    from croupier.storage.casino_store import round_record
    from croupier.storage.database import read_engine
    from croupier.storage.models import CasinoRoundRow, CasinoTableRow

    last = _check_last(last)
    with Session(read_engine(engine)) as session, session.begin():
        game = session.scalar(select(CasinoTableRow.game).where(CasinoTableRow.table_id == table_id))
        if game is None:
            raise UnknownTable(f"There is no table {table_id!r} in the database.")
        _game_of(table_id, game)
        query = (
            select(CasinoRoundRow)
            .where(CasinoRoundRow.table_id == table_id, CasinoRoundRow.status == "settled")
            .order_by(CasinoRoundRow.seq.desc())
        )
        if last is not None:
            query = query.limit(last)
        records = [round_record(row) for row in reversed(session.scalars(query).all())]
    return results_of(table_id, game, records, last)


def table_results(database_url: str, table_id: str, last: int | None = None) -> TableResults:
    """The results of ``table_id`` in the database at ``database_url`` (what ``croupier serve --database`` takes:
    ``sqlite:///file``, ``postgresql://…``), read-only, without migrating it: :func:`read_results`.

    Blackjack tables are refused (:class:`NotWatchable`): the watch is for wheels and dice (a shoe's cards are
    dealt without replacement; their tests are :mod:`croupier.rng.game`'s). ``UnknownTable`` names a table the
    database does not have; ``ValueError`` a database that is not there or not croupier's."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from croupier.server.compose import database_url as sqlalchemy_url
    from croupier.storage.database import create_engine

    if not database_url:
        raise ValueError("name the database: a URL such as sqlite:///data/croupier.sqlite3")
    url = make_url(sqlalchemy_url(database_url))
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        from pathlib import Path

        if not Path(url.database).is_file():  # SQLite would create an empty file: say that none is there
            raise ValueError(f"there is no SQLite database at {url.database}")
    engine = create_engine(url)
    try:
        return read_results(engine, table_id, last)
    except SQLAlchemyError as error:
        raise ValueError(f"cannot read the casino's tables from {url.render_as_string()}: {error}") from error
    finally:
        engine.dispose()


# -- the statistics -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Detection:
    """How many rounds a test needs to detect a device with one cell at probability ``bias`` (the others sharing
    the rest equally) with probability ``power`` at level ``alpha``: ``test`` is ``chi-square`` (the watch's flag;
    ``noncentrality`` is ``λ`` per round, ``textbook_rounds`` the plain noncentral chi-square's figure) or ``pocket``
    (the Šidák-adjusted single-cell test, exact binomial); ``power_at_window`` is the test's power at the window the
    watch was given."""

    test: Test
    bias: float
    power: float
    rounds: int
    power_at_window: float | None = None
    noncentrality: float | None = None
    textbook_rounds: int | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "test": self.test,
            "bias": self.bias,
            "power": self.power,
            "rounds": self.rounds,
            "power_at_window": self.power_at_window,
            "noncentrality": self.noncentrality,
            "textbook_rounds": self.textbook_rounds,
        }


@dataclass(frozen=True)
class Cell:
    """One pocket (or face): its ``count``, the ``expected`` count, the standardised deviation ``z``, its exact
    two-sided binomial ``p_value`` and that p-value adjusted for the number of cells (Šidák)."""

    cell: int
    count: int
    expected: float
    z: float
    p_value: float
    p_adjusted: float

    def to_json(self) -> dict[str, object]:
        return {
            "cell": self.cell,
            "count": self.count,
            "expected": self.expected,
            "z": self.z,
            "p_value": self.p_value,
            "p_adjusted": self.p_adjusted,
        }


@dataclass(frozen=True)
class SequencePoint:
    """The chi-square statistic and p-value over the window's first ``rounds`` rounds (its last round's id and
    settlement time when known)."""

    rounds: int
    statistic: float
    p_value: float
    round: str | None = None
    at: datetime | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "rounds": self.rounds,
            "statistic": self.statistic,
            "p_value": self.p_value,
            "round": self.round,
            "at": self.at.isoformat() if self.at is not None else None,
        }


@dataclass(frozen=True)
class WatchReport:
    """What :func:`watch` found (see the module docstring): the chi-square over the window (``result``, its
    ``verdict`` and ``flagged``, the watch's flag), the ``counts`` by cell, the ``furthest`` cells, the pocket test's
    verdict, the ``sequence`` and the rounds ``needed`` by the chi-square and by the pocket test."""

    game: WatchGame
    rounds: int
    observations: int
    alpha: float
    power: float
    bias: float
    result: TestResult
    critical: float
    counts: tuple[int, ...]
    expected: float
    furthest: tuple[Cell, ...]
    pocket_verdict: Verdict
    pocket_p_value: float | None
    sequence: tuple[SequencePoint, ...]
    needed: Detection
    needed_pocket: Detection
    min_rounds: int
    table_id: str | None = None
    first_round: str | None = None
    last_round: str | None = None
    voids: int = 0
    notes: tuple[str, ...] = field(default=())

    @property
    def verdict(self) -> Verdict:
        """The chi-square's verdict at ``alpha``: ``fail`` flags the table; ``skipped`` for too small a window."""
        return self.result.verdict(self.alpha)

    @property
    def flagged(self) -> bool:
        """Whether the watch flags the table (the chi-square over the window rejects uniformity at ``alpha``)."""
        return self.verdict == "fail"

    def to_json(self) -> dict[str, object]:
        """The report as JSON (the endpoint's answer, ``croupier.server.watch.WatchAnswer``)."""
        k, first, _ = GAMES[self.game]
        return {
            "table": self.table_id,
            "game": self.game,
            "rounds": self.rounds,
            "observations": self.observations,
            "first_round": self.first_round,
            "last_round": self.last_round,
            "voids": self.voids,
            "alpha": self.alpha,
            "power": self.power,
            "bias": self.bias,
            "verdict": self.verdict,
            "flagged": self.flagged,
            "skipped": self.result.skipped,
            "min_rounds": self.min_rounds,
            "chi_square": {
                "statistic": self.result.statistic,
                "df": k - 1,
                "p_value": self.result.p_value,
                "critical": self.critical,
            },
            "cells": list(range(first, first + k)),
            "counts": list(self.counts),
            "expected": self.expected,
            "furthest": [c.to_json() for c in self.furthest],
            "pocket_test": {"verdict": self.pocket_verdict, "p_value": self.pocket_p_value},
            "sequence": [p.to_json() for p in self.sequence],
            "needed": self.needed.to_json(),
            "needed_pocket": self.needed_pocket.to_json(),
            "notes": list(self.notes),
        }


def _check_game(game: object) -> WatchGame:
    if game not in GAMES:
        raise ValueError(f"game must be roulette or sicbo, not {game!r}")
    return cast(WatchGame, game)


def _check_power(power: object, alpha: float) -> float:
    if isinstance(power, bool) or not isinstance(power, int | float) or not 0.0 < float(power) < 1.0:
        raise ValueError(f"power must be a number in (0, 1), not {power!r}")
    if float(power) <= alpha:
        raise ValueError(f"power must be above alpha ({alpha}), not {power!r}")
    return float(power)


def default_bias(game: str) -> float:
    """The default alternative's probability of the loaded cell: 1.5 times the fair chance."""
    k = GAMES[_check_game(game)][0]
    return BIAS_RATIO / k


def _check_bias(bias: object, game: WatchGame) -> float:
    k = GAMES[game][0]
    if bias is None:
        return BIAS_RATIO / k
    if isinstance(bias, bool) or not isinstance(bias, int | float) or not 0.0 < float(bias) < 1.0:
        raise ValueError(f"bias must be a probability in (0, 1), not {bias!r}")
    if math.isclose(float(bias), 1.0 / k, rel_tol=1e-9):
        raise ValueError(f"bias {bias!r} is the fair chance 1/{k}: there is no bias to detect")
    return float(bias)


def alternative(game: str, bias: float) -> npt.NDArray[np.float64]:
    """The biased device's law: the first cell at ``bias``, the others sharing ``1 − bias`` equally."""
    k = GAMES[_check_game(game)][0]
    p = np.full(k, (1.0 - bias) / (k - 1))
    p[0] = bias
    return p


def _per_observation_noncentrality(k: int, bias: float) -> float:
    """``Σ (p_i − q_i)² / q_i`` for one cell at ``bias`` and the others equal: ``k² (bias − 1/k)² / (k − 1)``."""
    q = 1.0 / k
    return k * k * (bias - q) ** 2 / (k - 1)


def _chi_square_lambda(df: int, alpha: float, power: float) -> float:
    """The noncentrality at which the noncentral chi-square law of the statistic exceeds the critical value with
    probability ``power`` (the textbook local approximation)."""
    crit = float(stats.chi2.isf(alpha, df))

    def gap(lam: float) -> float:
        return float(stats.ncx2.sf(crit, df, lam)) - power

    high = 1.0
    while gap(high) < 0:
        high *= 2.0
    return float(optimize.brentq(gap, 1e-12, high, xtol=1e-10))


class _ChiSquarePower:
    """The power of the chi-square test against the law ``p`` at ``m`` observations, through the law of a Gaussian
    quadratic form matched by a noncentral chi-square on four cumulants (Liu, Tang & Zhang 2009).

    The standardised counts ``Y_i = (O_i − m q_i) / sqrt(m q_i)`` are about normal with mean ``sqrt(m) v`` (``v_i =
    (p_i − q_i) / sqrt(q_i)``) and covariance ``S = (diag(p) − p pᵀ) / q``; ``X² = |Y|²`` then has the cumulants
    ``κ_r = 2^(r−1) (r−1)! c_r`` with ``c_r = tr(S^r) + r m vᵀ S^(r−1) v``. The plain noncentral chi-square takes
    ``S`` to be the fair law's (local alternatives) and, against a pocket at 1.5/37, overstates the power (0.86 where
    it promises 0.9, by Monte Carlo); this one follows the simulated power to within a point."""

    def __init__(self, p: npt.NDArray[np.float64], q: float, crit: float) -> None:
        k = len(p)
        s = (np.diag(p) - np.outer(p, p)) / q
        v = (p - q) / math.sqrt(q)
        power = np.eye(k)
        self.traces: list[float] = []
        self.shifts: list[float] = []
        for r in range(1, 5):
            self.shifts.append(r * float(v @ power @ v))  # r vᵀ S^(r−1) v
            power = power @ s
            self.traces.append(float(np.trace(power)))
        self.crit = crit

    def __call__(self, m: int) -> float:
        c1, c2, c3, c4 = (t + m * w for t, w in zip(self.traces, self.shifts, strict=True))
        s1, s2 = c3 / c2**1.5, c4 / c2**2
        if s1 * s1 > s2:
            a = 1.0 / (s1 - math.sqrt(s1 * s1 - s2))
            delta = s1 * a**3 - a * a
            dof = a * a - 2.0 * delta
        else:
            a, delta, dof = 1.0 / s1, 0.0, c2**3 / c3**2
        t = (self.crit - c1) / math.sqrt(2.0 * c2) * math.sqrt(2.0) * a + dof + delta
        law = stats.ncx2(dof, delta) if delta > 0 else stats.chi2(dof)
        return float(law.sf(t))


def _smallest(reaches: Callable[[int], bool], start: int, what: str) -> int:
    """The smallest window (rounds) at which ``reaches`` holds, ``reaches`` growing with the window: by doubling from
    ``start``, then bisection."""
    low, high = 0, max(1, start)
    while not reaches(high):
        low, high = high, high * 2
        if high > MAX_ROUNDS:
            raise ValueError(f"detecting {what} needs more than {MAX_ROUNDS:,} rounds")
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if reaches(mid) else (mid, high)
    return high


def _cell_level(alpha: float, k: int) -> float:
    """The per-cell level of the Šidák-adjusted pocket test: ``1 − (1 − alpha)^(1/k)``."""
    return -math.expm1(math.log1p(-alpha) / k)


def _cell_power(m: npt.ArrayLike, k: int, bias: float, alpha: float) -> npt.NDArray[np.float64]:
    """The exact power of the pocket test on the loaded cell's count alone, at ``m`` observations (an array): its
    two-sided rejection region under the fair law ``Bin(m, 1/k)`` at the per-cell level (counts ``≤ low`` or ``≥
    high``, each tail at most half the level), weighed under ``Bin(m, bias)``. (The other cells, a little below
    their expectation, seldom add to it: the figure is a slight underestimate.)"""
    ms = np.asarray(m, dtype=np.int64)
    q, half = 1.0 / k, _cell_level(alpha, k) / 2.0
    high = stats.binom.isf(half, ms, q) + 1  # the smallest x with P(X ≥ x) ≤ half
    low = stats.binom.ppf(half, ms, q)  # the smallest x with P(X ≤ x) ≥ half …
    low = np.where(stats.binom.cdf(low, ms, q) > half, low - 1, low)  # … less one where that tail is over half
    power = stats.binom.sf(high - 1, ms, bias) + np.where(low >= 0, stats.binom.cdf(low, ms, bias), 0.0)
    return np.asarray(power, dtype=np.float64)


SCAN = 20_000
"""How far below the bisection's answer the pocket test's smallest window is looked for, at most."""


def _pocket_rounds(k: int, per_round: int, bias: float, *, alpha: float, power: float, start: int, what: str) -> int:
    """The smallest window at which the pocket test's exact power reaches ``power``. That power is not monotone in
    the window (it jumps where a critical count moves by one): a bisection finds a window that reaches it, then every
    window down to four fifths of that one (at most :data:`SCAN` of them) is computed at once, and the smallest that
    reaches it is the answer."""

    def reaches(n: int) -> bool:
        return bool(_cell_power(n * per_round, k, bias, alpha) >= power)

    found = _smallest(reaches, start, what)
    lowest = max(1, found - min(SCAN, found // 5))
    windows = np.arange(lowest, found + 1, dtype=np.int64)
    reached = np.flatnonzero(_cell_power(windows * per_round, k, bias, alpha) >= power)
    return int(windows[reached[0]])


@functools.lru_cache(maxsize=256)
def _needed(kind: WatchGame, alpha: float, power: float, b: float) -> tuple[int, int, int]:
    """(the chi-square's rounds, the textbook noncentral chi-square's, the pocket test's): :func:`detection`."""
    k, _, per_round = GAMES[kind]
    delta = _per_observation_noncentrality(k, b)
    what = f"a {'pocket' if kind == 'roulette' else 'face'} at {b:.6g} with power {power:g} at alpha {alpha:g}"
    textbook = math.ceil(_chi_square_lambda(k - 1, alpha, power) / (per_round * delta))
    if textbook > MAX_ROUNDS:
        raise ValueError(f"detecting {what} needs more than {MAX_ROUNDS:,} rounds")
    chi_power = _ChiSquarePower(alternative(kind, b), 1.0 / k, float(stats.chi2.isf(alpha, k - 1)))
    chi_rounds = _smallest(lambda n: chi_power(n * per_round) >= power, textbook, what)
    pocket = _pocket_rounds(k, per_round, b, alpha=alpha, power=power, start=chi_rounds // 2, what=what)
    return chi_rounds, textbook, pocket


def detection(
    game: str, *, alpha: float = 0.01, power: float = 0.9, bias: float | None = None, window: int | None = None
) -> tuple[Detection, Detection]:
    """The rounds the chi-square (the watch's flag) and the pocket test need to detect one cell at ``bias`` (default
    1.5 times fair) with probability ``power`` at ``alpha`` (module docstring); with ``window``, each test's power at
    that many rounds as well."""
    kind = _check_game(game)
    alpha = check_alpha(alpha)
    power = _check_power(power, alpha)
    b = _check_bias(bias, kind)
    k, _, per_round = GAMES[kind]
    chi_rounds, textbook, pocket_rounds = _needed(kind, alpha, power, b)
    at_window: tuple[float | None, float | None] = (None, None)
    if window is not None:
        chi_power = _ChiSquarePower(alternative(kind, b), 1.0 / k, float(stats.chi2.isf(alpha, k - 1)))
        at_window = (
            chi_power(window * per_round) if window > 0 else 0.0,
            float(_cell_power(window * per_round, k, b, alpha)) if window > 0 else 0.0,
        )
    delta = _per_observation_noncentrality(k, b)
    return (
        Detection("chi-square", b, power, chi_rounds, at_window[0], per_round * delta, textbook),
        Detection("pocket", b, power, pocket_rounds, at_window[1]),
    )


def rounds_needed(game: str, *, alpha: float = 0.01, power: float = 0.9, bias: float | None = None) -> int:
    """The window (rounds) at which the watch's flag, the chi-square, detects one cell at ``bias`` with probability
    ``power`` (:func:`detection`)."""
    return detection(game, alpha=alpha, power=power, bias=bias)[0].rounds


def _cells(game: WatchGame, outcomes: object) -> npt.NDArray[np.int64]:
    """The outcomes as cell indices 0..k-1, checked (pockets 0-36; three faces 1-6 per roll)."""
    k, first, per_round = GAMES[game]
    array = np.asarray(outcomes)
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"{game} results are whole numbers, not {array.dtype}")
    array = array.astype(np.int64)
    if game == "sicbo":
        if array.size == 0:
            array = array.reshape(0, per_round)
        if array.ndim != 2 or array.shape[1] != per_round:
            raise ValueError(f"sic bo results are rolls of three dice, shape (n, 3), not {array.shape}")
        flat = array.reshape(-1)
    else:
        if array.ndim != 1:
            raise ValueError(f"roulette results are pockets, shape (n,), not {array.shape}")
        flat = array
    if flat.size and (flat.min() < first or flat.max() > first + k - 1):
        raise ValueError(f"{game} results are {first} to {first + k - 1}, not {int(flat.min())}…{int(flat.max())}")
    return flat - first


def watch(
    game: str,
    outcomes: object,
    *,
    alpha: float = 0.01,
    power: float = 0.9,
    bias: float | None = None,
    rounds: Sequence[str] | None = None,
    times: Sequence[datetime] | None = None,
    table_id: str | None = None,
    voids: int = 0,
    points: int = POINTS,
    top: int = TOP,
) -> WatchReport:
    """The bias watch over ``outcomes`` (roulette: pockets ``(n,)``; sic bo: rolls ``(n, 3)``), oldest first: the
    fixed-window chi-square (the flag) at ``alpha``, the sequential view at up to ``points`` checkpoints, the
    ``top`` cells furthest from expectation, and the rounds the chi-square and the pocket test need to detect one
    cell at ``bias`` (default 1.5 times fair) with probability ``power`` (see the module docstring). ``rounds`` and
    ``times`` (the round ids and times of the outcomes) label the sequence; ``table_id`` and ``voids`` are carried
    into the report. A window with an expected count below 5 per cell is skipped, saying so. ``ValueError`` names
    a bad ``alpha``, ``power``, ``bias`` or outcome."""
    kind = _check_game(game)
    alpha = check_alpha(alpha)
    power = _check_power(power, alpha)
    b = _check_bias(bias, kind)
    k, first, per_round = GAMES[kind]
    cells = _cells(kind, outcomes)
    n = len(cells) // per_round
    if rounds is not None and len(rounds) != n:
        raise ValueError(f"{len(rounds)} round ids for {n} results")
    if times is not None and len(times) != n:
        raise ValueError(f"{len(times)} times for {n} results")
    m = n * per_round
    counts = np.bincount(cells, minlength=k).astype(np.int64)
    min_rounds = math.ceil(MIN_EXPECTED * k / per_round)
    needed, needed_pocket = detection(kind, alpha=alpha, power=power, bias=b, window=n)
    crit = float(stats.chi2.isf(alpha, k - 1))
    name = "bias watch: pockets" if kind == "roulette" else "bias watch: dice faces"
    notes: list[str] = []
    unit = "pocket" if kind == "roulette" else "face"
    if n < min_rounds:
        reason = (
            f"{n} results give {m / k:.2f} expected per {unit}: the test needs at least {MIN_EXPECTED:g} expected "
            f"per {unit}, {min_rounds} results"
        )
        result = TestResult.skip(name, "game", m, reason)  # n: the observations, as uniformity counts them
        return WatchReport(
            kind, n, m, alpha, power, b, result, crit, tuple(int(c) for c in counts), m / k, (), "skipped", None, (),
            needed, needed_pocket, min_rounds, table_id, rounds[0] if rounds else None,
            rounds[-1] if rounds else None, voids, (reason,),
        )  # fmt: skip
    expected = m / k
    # the window's test: the battery's chi-square of uniformity (croupier.rng.game), over the m pockets or dice
    result = uniformity(counts, np.full(k, 1.0 / k), name)
    assert result.statistic is not None  # 5 expected per cell: checked above
    # each cell against Bin(m, 1/k): the standardised deviation and the exact two-sided p-value, Šidák over k cells
    q = 1.0 / k
    z = (counts - expected) / math.sqrt(m * q * (1 - q))
    upper = stats.binom.sf(counts - 1, m, q)
    lower = stats.binom.cdf(counts, m, q)
    cell_p = np.minimum(1.0, 2.0 * np.minimum(upper, lower))
    adjusted = [sidak([float(p)] * k) for p in cell_p]  # 1 − (1 − p)^k: the chance of one so far among k cells
    order = np.argsort(-np.abs(z), kind="stable")[: max(0, min(top, k))]
    furthest = tuple(
        Cell(int(i) + first, int(counts[i]), expected, float(z[i]), float(cell_p[i]), float(adjusted[i])) for i in order
    )
    pocket_p = sidak([float(p) for p in cell_p])
    pocket_verdict: Verdict = "fail" if pocket_p < alpha else "pass"
    if n < needed.rounds:
        notes.append(
            f"the window holds {n} rounds, fewer than the {needed.rounds} the chi-square needs to detect a {unit} at "
            f"{b:.4f} with power {power:g}: its power here is {needed.power_at_window:.2f}"
        )
    notes.append(
        f"the furthest of {k} {unit}s is read with its p-value adjusted for {k} looks (Šidák); the flag is the "
        "chi-square over the whole window, tested once"
    )
    return WatchReport(
        kind, n, m, alpha, power, b, result, crit, tuple(int(c) for c in counts), expected, furthest, pocket_verdict,
        pocket_p, _sequence(cells, k, per_round, start=min_rounds, n=n, points=points, rounds=rounds, times=times),
        needed, needed_pocket,
        min_rounds, table_id, rounds[0] if rounds else None, rounds[-1] if rounds else None, voids, tuple(notes),
    )  # fmt: skip


def _sequence(
    cells: npt.NDArray[np.int64],
    k: int,
    per_round: int,
    *,
    start: int,
    n: int,
    points: int,
    rounds: Sequence[str] | None,
    times: Sequence[datetime] | None,
) -> tuple[SequencePoint, ...]:
    """The cumulative chi-square at up to ``points`` checkpoints from ``start`` rounds to ``n`` (always ``n``)."""
    if points <= 0 or n < start:
        return ()
    marks = np.unique(np.linspace(start, n, num=min(points, n - start + 1)).round().astype(np.int64))
    # the counts at each checkpoint, from the running counts of each cell
    running = np.zeros((len(marks), k), dtype=np.int64)
    previous = 0
    total = np.zeros(k, dtype=np.int64)
    for i, mark in enumerate(marks):
        total += np.bincount(cells[previous * per_round : mark * per_round], minlength=k)
        running[i] = total
        previous = int(mark)
    m = marks * per_round
    expected = m / k
    statistics = ((running - expected[:, None]) ** 2).sum(axis=1) / expected
    p_values = stats.chi2.sf(statistics, k - 1)
    return tuple(
        SequencePoint(
            int(mark),
            float(s),
            float(p),
            rounds[int(mark) - 1] if rounds is not None else None,
            times[int(mark) - 1] if times is not None else None,
        )
        for mark, s, p in zip(marks, statistics, p_values, strict=True)
    )


def watch_table(
    results: TableResults,
    *,
    alpha: float = 0.01,
    power: float = 0.9,
    bias: float | None = None,
    points: int = POINTS,
    top: int = TOP,
) -> WatchReport:
    """:func:`watch` over a table's recorded results (:func:`table_results`), labelled with its rounds."""
    return watch(
        results.game,
        results.outcomes,
        alpha=alpha,
        power=power,
        bias=bias,
        rounds=results.rounds,
        times=results.times,
        table_id=results.table_id,
        voids=results.voids,
        points=points,
        top=top,
    )
