"""Benchmark: the blackjack Monte Carlo kernel's rounds per CPU second on one core (issue 15).

The statute's rules with 6 decks dealt to the cut card (BJ 2.1's default 78 cards behind it), one box played flat by
the basic strategy optimised for the rules; then the same with a continuous shuffler, with Hi-Lo counting, a bet
ramp, the Illustrious 18 and Fab 4 and every side bet settled, and with 7 boxes dealt.

Baselines, measured in the same process, CPU time (``time.process_time``):

* **bare**: a compiled loop that handles exactly as many cards the same way (the same xoshiro256++ stream and
  Lemire draws; the shoe shuffled in full by Fisher-Yates whenever the cut card came out and dealt in order) with
  no blackjack at all — the floor of any kernel dealing these cards;
* **engine**: the rules engine itself playing the same chart (``--engine-rounds``, default 3,000).

Each kernel figure is the median of ``--repeat`` runs (default 3) with the spread beside it. The kernel is compiled
(or loaded from numba's cache) by a warm-up call first. With ``--workers`` the driver's wall-clock throughput on 1
and 2 local processes is measured too. The last line is machine-readable:
``kernel_rounds_per_cpu_s=… bare_ratio=… engine_ratio=…``.

Run: ``.venv/bin/python bench/bench_simulate.py [--rounds N] [--repeat K] [--engine-rounds M] [--workers]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import replace

from croupier.analysis import _sim_kernels as sk
from croupier.analysis import counting
from croupier.analysis.basic_strategy import basic_strategy
from croupier.analysis.simulate import BlockTotals, bare_draws, engine_answer, run_blocks
from croupier.analysis.tablesim import Run, TableSetup, simulate_table
from croupier.blackjack.rules import BlackjackRules
from croupier.blackjack.table import BlackjackTable
from croupier.primitives.pcg import SeededRandom


def cpu(run: Callable[[], object]) -> float:
    """CPU seconds of ``run()``."""
    t0 = time.process_time()
    run()
    return time.process_time() - t0


def engine_seconds(rules: BlackjackRules, setup: TableSetup, n: int, seed: int = 1) -> float:
    """CPU seconds for ``n`` engine rounds played by the same chart (insurance declined)."""
    table = BlackjackTable(rules, SeededRandom(seed))
    answer = engine_answer(setup.chart)
    t0 = time.process_time()
    for _ in range(n):
        rnd = table.open_round()
        rnd.place_bet(1, "ana", main=2)
        rnd.close_betting()
        while (q := rnd.pending) is not None:
            rnd.act(answer(rnd, q))
    return time.process_time() - t0


def kernel(setup: TableSetup, n: int, seed: int, repeat: int) -> tuple[list[float], BlockTotals]:
    """Rounds per CPU second of the compiled simulation, ``repeat`` times, and the last run's totals."""
    job = setup.job()
    run_blocks(job, seed, 0, 10_000)  # compile or load from the cache
    rates = []
    totals = run_blocks(job, seed, 0, 1)
    for _ in range(repeat):
        t0 = time.process_time()
        totals = run_blocks(job, seed, 0, n)
        rates.append(n / (time.process_time() - t0))
    return rates, totals


def spread(rates: list[float]) -> str:
    """The median and the range of some rates, in millions."""
    return f"{statistics.median(rates) / 1e6:6.2f} M  ({min(rates) / 1e6:.2f}-{max(rates) / 1e6:.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000_000, help="rounds per run (default 20,000,000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (default 3)")
    parser.add_argument("--engine-rounds", type=int, default=3_000, help="engine rounds for the baseline")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", action="store_true", help="also time 1 and 2 local processes (wall clock)")
    args = parser.parse_args()
    n: int = args.rounds
    rules = BlackjackRules(decks=6)
    base = TableSetup(rules=rules, chart=basic_strategy(rules))
    print(f"{'kernel, rounds per CPU second (median of ' + str(args.repeat) + ')':58} {'rate':>8}")
    rates, totals = kernel(base, n, args.seed, args.repeat)
    cards = int(totals.acc[sk.C_CARDS])
    cut = base.size - base.behind_cut + 1
    bare_rates = []
    for _ in range(args.repeat):
        seconds = cpu(lambda: bare_draws(rules, n, cards, args.seed, cut=cut))
        bare_rates.append(n / seconds)
    eng = args.engine_rounds / engine_seconds(rules, base, args.engine_rounds, args.seed)
    k, b = statistics.median(rates), statistics.median(bare_rates)
    print(f"{'6 decks, statute, one box, to the cut card':58} {spread(rates)}")
    print(f"{'  bare: the same cards shuffled and dealt (%.2f/round)' % (cards / n):58} {spread(bare_rates)}")
    print(f"{'  engine, the same chart':58} {eng / 1e6:6.4f} M")
    others = {
        "continuous shuffler": replace(base, continuous=True),
        "Hi-Lo, 1-12 ramp + wong out, I18 + Fab 4, side bets": replace(
            base,
            count=counting.count_system("hi-lo"),
            ramp=counting.ramp("examples/counting/ramp.toml"),
            indices=counting.load_indices("i18+fab4"),
            side_bets=True,
        ),
        "7 boxes dealt, the counted box first": replace(base, boxes=7),
    }
    for name, setup in others.items():
        r, _ = kernel(setup, n // 2, args.seed, args.repeat)
        print(f"{name:58} {spread(r)}")
    if args.workers:
        for w in (1, 2):
            t0 = time.perf_counter()
            simulate_table(base, n, args.seed, Run(workers=w))
            print(f"{f'driver, {w} process(es), wall clock':58} {n / (time.perf_counter() - t0) / 1e6:6.2f} M")
    print(f"kernel_rounds_per_cpu_s={k:.0f} bare_ratio={k / b:.3f} engine_ratio={k / eng:.0f}")


if __name__ == "__main__":
    main()
