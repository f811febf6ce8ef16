"""Benchmark of the game-level tests of ``croupier rng test`` (issue 18): drawing and testing 10 million roulette
spins, 10 million sic bo rolls and 10 million blackjack cards (24,039 shoes of 8 decks) on one core.

Each figure is CPU time (``time.process_time``) with the process pinned to one core (``sched_setaffinity``
where the system has it): the draw from ``seeded:1`` (the engine's PCG64 stream, vectorised), the tests
(:func:`croupier.rng.game.run_game_tests`), and their sum. Beside it, the in-run baseline: one bare numpy pass
over the same data (``np.bincount`` of the pockets, of the dice faces, of the cards' identities), and the ratio
of the tests to it — how many bare passes over the data the whole suite costs. Numba's kernels are compiled (or
loaded from its cache) by a small warm-up run first. The median of ``--repeat`` runs is printed, the spread
beside it. The aim of the issue: well under a minute a game.

Run: ``.venv/bin/python bench/bench_rng.py [--outcomes 10000000] [--repeat 3]``.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import argparse
import statistics
import time
from collections.abc import Callable
from typing import TypeVar

import numpy as np

from croupier.rng.game import run_game_tests
from croupier.rng.results import overall
from croupier.rng.sources import Game, Sample, draw

T = TypeVar("T")


def cpu(run: Callable[[], T]) -> tuple[float, T]:
    """CPU seconds of ``run()``, and what it returned."""
    t0 = time.process_time()
    out = run()
    return time.process_time() - t0, out


def bare(sample: Sample) -> object:
    """One bare numpy pass over the data: the counts of its values."""
    if sample.game == "blackjack":
        return np.bincount((sample.data % 52).ravel(), minlength=52)
    return np.bincount(sample.data.ravel(), minlength=37)


def spread(xs: list[float]) -> str:
    return f"{statistics.median(xs):7.2f} s ({min(xs):.2f}-{max(xs):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--outcomes", type=int, default=10_000_000, help="spins, rolls, and cards of blackjack")
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    n = options.outcomes
    shoes = -(-n // 416)
    jobs: list[tuple[str, Game, int]] = [
        (f"roulette, {n:,} spins", "roulette", n),
        (f"sic bo, {n:,} rolls", "sicbo", n),
        (f"blackjack, {shoes:,} 8-deck shoes ({shoes * 416:,} cards)", "blackjack", shoes),
    ]
    for _, game, _ in jobs:  # warm-up: numba's kernels compiled or loaded from the cache
        run_game_tests(game, draw("seeded:2", game, 300 if game != "blackjack" else 10))
    print("CPU time on one core, median (range) of", options.repeat, "runs; source seeded:1")
    print(f"{'game':52s} {'draw':>20s} {'tests':>20s} {'draw + tests':>20s} {'bare bincount':>20s} {'tests/bare':>10s}")
    summary = []
    for name, game, size in jobs:
        t_draw: list[float] = []
        t_test: list[float] = []
        t_bare: list[float] = []
        ratios: list[float] = []
        verdict = ""
        for _ in range(options.repeat):
            d, sample = cpu(lambda game=game, size=size: draw("seeded:1", game, size))  # type: ignore[misc]
            t, results = cpu(lambda game=game, sample=sample: run_game_tests(game, sample))  # type: ignore[misc]
            b, _ = cpu(lambda sample=sample: bare(sample))  # type: ignore[misc]
            t_draw.append(d)
            t_test.append(t)
            t_bare.append(b)
            ratios.append(t / b if b > 0 else float("inf"))
            verdict = overall(results, 0.01)
        total = [a + b for a, b in zip(t_draw, t_test, strict=True)]
        print(
            f"{name:52s} {spread(t_draw):>20s} {spread(t_test):>20s} {spread(total):>20s} "
            f"{statistics.median(t_bare):16.3f} s {statistics.median(ratios):9.0f}x   ({verdict})"
        )
        summary.append(f"{game}_s={statistics.median(total):.2f} {game}_bare_ratio={statistics.median(ratios):.0f}")
    print(" ".join(summary))


if __name__ == "__main__":
    main()
