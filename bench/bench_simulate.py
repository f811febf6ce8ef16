"""Benchmark: the Monte Carlo kernel's rounds per second on one core (issue 4).

One box, one bettor, the textbook chart of :func:`croupier.analysis.simulate.basic_chart`, the statutory rules
(procedure 1, no hole card; surrender, five cards, special bonus) with 6 and with 8 decks: 10,000,000 rounds
each (``--rounds``) dealt from a freshly shuffled shoe every round (:func:`simulate`), and a tenth as many
dealt from one shoe to the cut card (:func:`simulate_shoe`).

Two baselines, measured in the same process: a bare compiled loop that draws exactly as many cards at random,
the same way, with no blackjack at all (the floor of any kernel dealing from a freshly shuffled shoe), and the
engine itself playing the same chart from a seeded shoe (``--engine-rounds``, default 3,000). The kernel is
compiled (or loaded from numba's cache) by a warm-up call first. Times are CPU time of this process
(``time.process_time``); the ratios are the figures to compare across machines.
Run: ``.venv/bin/python bench/bench_simulate.py [--rounds N] [--engine-rounds M]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from croupier.analysis.simulate import SimulationResult, bare_draws, basic_chart, engine_answer, simulate, simulate_shoe
from croupier.blackjack.rules import BlackjackRules
from croupier.blackjack.table import BlackjackTable
from croupier.primitives.pcg import SeededRandom


def timed(run: Callable[..., SimulationResult], *args: Any) -> tuple[float, SimulationResult]:
    """CPU seconds of ``run(*args)`` and its result."""
    t0 = time.process_time()
    out = run(*args)
    return time.process_time() - t0, out


def engine_seconds(rules: BlackjackRules, n: int, seed: int = 1) -> float:
    """Seconds for ``n`` engine rounds played by the same chart (insurance declined)."""
    table = BlackjackTable(rules, SeededRandom(seed))
    answer = engine_answer(basic_chart())
    t0 = time.process_time()
    for _ in range(n):
        rnd = table.open_round()
        rnd.place_bet(1, "ana", main=2)
        rnd.close_betting()
        while (q := rnd.pending) is not None:
            rnd.act(answer(rnd, q))
    return time.process_time() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000_000, help="rounds per rule set (default 10,000,000)")
    parser.add_argument("--engine-rounds", type=int, default=3_000, help="engine rounds for the baseline")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    n: int = args.rounds
    chart = basic_chart()
    simulate(BlackjackRules(), chart, 1_000, 0)  # compile or load the kernel
    simulate_shoe(BlackjackRules(), chart, 1_000, 0)
    bare_draws(BlackjackRules(), 10, 10)
    print(f"{'benchmark':40} {'rounds/s':>12} {'ns/round':>9}  {'mean ± SE (per unit)':>22}")
    for decks in (6, 8):
        rules = BlackjackRules(decks=decks)
        secs, out = timed(simulate, rules, chart, n, args.seed)
        shoe_n = max(n // 10, 1)
        shoe_secs, shoe_out = timed(simulate_shoe, rules, chart, shoe_n, args.seed)
        t0 = time.process_time()
        bare_draws(rules, n, out.cards, args.seed)
        bare = time.process_time() - t0
        eng = engine_seconds(rules, args.engine_rounds, args.seed)
        name = f"{decks} decks, statute"
        print(
            f"{name + ', fresh shoe':40} {n / secs:12,.0f} {1e9 * secs / n:9.0f}  {out.mean:+.5f} ± {out.std_error:.5f}"
        )
        print(
            f"{name + ', to the cut card':40} {shoe_n / shoe_secs:12,.0f} {1e9 * shoe_secs / shoe_n:9.0f}  "
            f"{shoe_out.mean:+.5f} ± {shoe_out.std_error:.5f}"
        )
        bare_name = f"  bare draws, same cards ({out.cards / n:.2f}/round)"
        print(f"{bare_name:40} {n / bare:12,.0f} {1e9 * bare / n:9.0f}")
        print(f"{'  engine, same chart':40} {args.engine_rounds / eng:12,.0f} {1e9 * eng / args.engine_rounds:9.0f}")
        print(
            f"  kernel ÷ bare speed: {bare / secs:.3f}   kernel ÷ engine speed: "
            f"{(n / secs) / (args.engine_rounds / eng):,.0f}×"
        )


if __name__ == "__main__":
    main()
