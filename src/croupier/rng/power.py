"""The power of the suite: the smallest sample at which it catches each broken generator.

For each broken generator of :data:`croupier.rng.sources.BROKEN` and each game (roulette, sic bo, blackjack,
bits), :func:`smallest_failing` draws samples of growing size from the generator with a fixed seed — doubling
from a small start, then bisecting between the last size that passed and the first that failed — and runs the
game's suite on each (:func:`suite`: :func:`croupier.rng.game.run_game_tests`, or for bits the NIST battery
:func:`croupier.rng.nist.battery`). The generator is *caught* at the first size whose overall verdict
(:func:`croupier.rng.results.overall`) is ``fail``; the row names the test with the smallest p-value there. A
generator not caught up to the largest size tried is reported so, never as caught.

The verdict is not strictly monotone in the size (a bias shows more and more, but each sample also has its
luck), so the size found is the smallest of the sizes tried, with the seed stated: rerunning gives the same.

The good generators (``seeded:SEED``, ``system``) are run through the same suite at :data:`GOOD_SAMPLES` — larger
than any sample on which a broken generator was caught — and must pass (:func:`good_rows`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from croupier.rng.game import run_game_tests
from croupier.rng.results import TestResult, check_alpha, overall
from croupier.rng.sources import BROKEN, GAMES, Game, Sample, draw

__all__ = [
    "DEFAULT_MAX",
    "DEFAULT_START",
    "GAMES",
    "GOOD_SAMPLES",
    "PowerRow",
    "format_table",
    "good_rows",
    "power_table",
    "smallest_failing",
    "suite",
]

DEFAULT_START: dict[Game, int] = {"roulette": 200, "sicbo": 100, "blackjack": 5, "bits": 1_000}
"""Where the search starts: about the smallest sample on which some test of the game runs."""
DEFAULT_MAX: dict[Game, int] = {"roulette": 10_000_000, "sicbo": 10_000_000, "blackjack": 25_000, "bits": 8_000_000}
"""The largest sample tried: 10 million spins, rolls or (in 8-deck shoes) cards, 8 million bits."""
GOOD_SAMPLES: dict[Game, int] = {"roulette": 1_000_000, "sicbo": 1_000_000, "blackjack": 2_500, "bits": 1_000_000}
"""The samples the good generators must pass: a million spins, rolls, cards (8-deck shoes) and bits, more than
any broken generator needs to be caught. (``system`` draws through the engine's Python code: a few seconds.)"""

Status = Literal["caught", "not caught", "passed", "failed"]
Log = Callable[[str], None]


@dataclass(frozen=True)
class PowerRow:
    """One line of the power table: the ``generator`` (a source spec), the ``game``, the ``status`` (``caught``
    or ``not caught`` for a broken generator, ``passed`` or ``failed`` for a good one), the smallest sample that
    failed (``caught_at``; None when none did), the largest size tried (``tried_up_to``), the test with the
    smallest p-value on the deciding sample and that p-value, and the sizes tried in order with their
    verdicts (``trail``)."""

    generator: str
    game: Game
    status: Status
    caught_at: int | None
    tried_up_to: int
    test: str | None
    p_value: float | None
    trail: tuple[tuple[int, str], ...] = ()

    def describe(self) -> str:
        """A sentence for the table."""
        unit = _unit(self.game)
        if self.status == "caught":
            return f"caught at {self.caught_at:,} {unit} by {self.test} (p = {self.p_value:.3g})"
        if self.status == "not caught":
            return f"not caught up to {self.tried_up_to:,} {unit} (smallest p: {self.test}, {self.p_value:.3g})"
        verdict = "passes" if self.status == "passed" else "FAILS"
        return f"{verdict} at {self.tried_up_to:,} {unit} (smallest p: {self.test}, {self.p_value:.3g})"

    def cells(self) -> tuple[str, str, str, str, str]:
        """The row for a table of columns generator, game, caught at, by, p-value."""
        unit = _unit(self.game)
        if self.status == "caught":
            at = f"{self.caught_at:,} {unit}"
        elif self.status == "not caught":
            at = f"not caught up to {self.tried_up_to:,} {unit}"
        else:
            at = f"{'passes' if self.status == 'passed' else 'FAILS'} at {self.tried_up_to:,} {unit}"
        p = "" if self.p_value is None else f"{self.p_value:.3g}"
        return self.generator, self.game, at, self.test or "", p

    def to_json(self) -> dict[str, object]:
        """The row as JSON: every field, the unit of the sizes and the sentence of :meth:`describe`."""
        return {
            "generator": self.generator,
            "game": self.game,
            "status": self.status,
            "caught_at": self.caught_at,
            "tried_up_to": self.tried_up_to,
            "unit": _unit(self.game),
            "test": self.test,
            "p_value": self.p_value,
            "trail": [[n, v] for n, v in self.trail],
            "description": self.describe(),
        }


def _unit(game: str) -> str:
    return {"roulette": "spins", "sicbo": "rolls", "blackjack": "shoes", "bits": "bits"}[game]


def suite(sample: Sample) -> list[TestResult]:
    """The tests of a sample's game: the game tests, or for bits the NIST SP 800-22 battery."""
    if sample.game == "bits":
        from croupier.rng.nist import battery

        return battery(sample.data)
    return run_game_tests(sample.game, sample)


def _weakest(results: Sequence[TestResult]) -> tuple[str | None, float | None]:
    ran = [r for r in results if r.p_value is not None]
    if not ran:
        return None, None
    worst = min(ran, key=lambda r: r.p_value if r.p_value is not None else 1.0)
    return worst.name, worst.p_value


def smallest_failing(
    generator: str,
    game: Game,
    *,
    alpha: float = 0.01,
    start: int | None = None,
    max_samples: int | None = None,
    decks: int = 8,
    refine: int = 3,
    log: Log | None = None,
) -> PowerRow:
    """The smallest sample of ``game`` from ``generator`` (a source spec, e.g. ``broken:stuck-bit:1``) on which
    the suite's overall verdict at ``alpha`` is ``fail``: sizes double from ``start`` up to ``max_samples``,
    then ``refine`` bisection steps between the last size that passed and the first that failed."""
    alpha = check_alpha(alpha)
    size = start if start is not None else DEFAULT_START[game]
    top = max_samples if max_samples is not None else DEFAULT_MAX[game]
    trail: list[tuple[int, str]] = []

    def verdict(n: int) -> tuple[bool, list[TestResult]]:
        results = suite(draw(generator, game, n, decks=decks))
        v = overall(results, alpha)
        trail.append((n, v))
        if log is not None:
            name, p = _weakest(results)
            log(f"{generator} {game} {n:,}: {v} ({name}, p = {p if p is None else f'{p:.3g}'})")
        return v == "fail", results

    passed = 0
    tried = 0
    while True:
        size = min(size, top)
        failed, results = verdict(size)
        tried = size
        if failed:
            break
        if size >= top:
            name, p = _weakest(results)
            return PowerRow(generator, game, "not caught", None, tried, name, p, tuple(trail))
        passed = size
        size *= 2
    caught, caught_results = size, results
    lo, hi = passed, size
    for _ in range(refine):
        mid = (lo + hi) // 2
        if mid <= lo or mid >= hi:
            break
        failed, results = verdict(mid)
        if failed:
            hi, caught, caught_results = mid, mid, results
        else:
            lo = mid
    name, p = _weakest(caught_results)
    return PowerRow(generator, game, "caught", caught, tried, name, p, tuple(trail))


def good_rows(
    generators: Sequence[str] = ("seeded:1", "system"),
    games: Sequence[Game] = GAMES,
    *,
    alpha: float = 0.01,
    samples: dict[Game, int] | None = None,
    decks: int = 8,
) -> list[PowerRow]:
    """The good generators through the suite at ``samples`` (default :data:`GOOD_SAMPLES`): each must pass."""
    alpha = check_alpha(alpha)
    sizes = {**GOOD_SAMPLES, **(samples or {})}
    rows = []
    for gen in generators:
        for game in games:
            n = sizes[game]
            results = suite(draw(gen, game, n, decks=decks))
            v = overall(results, alpha)
            name, p = _weakest(results)
            rows.append(PowerRow(gen, game, "failed" if v == "fail" else "passed", None, n, name, p, ((n, v),)))
    return rows


def power_table(
    alpha: float = 0.01,
    games: Sequence[Game] = GAMES,
    generators: Sequence[str] = tuple(BROKEN),
    max_samples: dict[Game, int] | None = None,
    *,
    seed: int = 1,
    decks: int = 8,
    log: Log | None = None,
) -> list[PowerRow]:
    """For each broken generator (by name, seeded with ``seed``) and each game, the smallest sample that fails
    the suite at ``alpha`` (:func:`smallest_failing`), up to ``max_samples[game]`` (default
    :data:`DEFAULT_MAX`)."""
    tops = {**DEFAULT_MAX, **(max_samples or {})}
    rows = []
    for name in generators:
        if name not in BROKEN:
            raise ValueError(f"unknown broken generator {name!r}: choose one of {', '.join(BROKEN)}")
        for game in games:
            rows.append(
                smallest_failing(f"broken:{name}:{seed}", game, alpha=alpha, max_samples=tops[game], decks=decks,
                                 log=log)
            )  # fmt: skip
    return rows


def format_table(rows: Sequence[PowerRow]) -> str:
    """The rows as a plain-text table, one line each."""
    width = max((len(r.generator) for r in rows), default=10)
    return "\n".join(f"{r.generator:<{width}}  {r.game:<9}  {r.describe()}" for r in rows)
