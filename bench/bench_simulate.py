"""Benchmark: the blackjack Monte Carlo kernel's rounds per CPU second on one core (issue 15).

The statute's rules with 6 decks dealt to the cut card (BJ 2.1's default 78 cards behind it), one box played flat by
the basic strategy optimised for the rules; then the same with a continuous shuffler, with Hi-Lo counting, a bet
ramp, the Illustrious 18 and Fab 4 and every side bet settled, and with 7 boxes dealt.

Baselines, measured in the same process, CPU time (``time.process_time``):

* **bare**: a compiled loop that handles exactly as many cards the same way (the same xoshiro256++ stream and
  Lemire draws; the shoe shuffled in full by Fisher-Yates whenever the cut card came out and dealt in order) with
  no blackjack at all — the floor of any kernel dealing these cards;
* **engine**: the rules engine itself playing the same chart (``--engine-rounds``, default 3,000);
* **minimal game**: a reference, not a simulator — the same cards dealt the same way to a game of hit, stand and
  double only (no split, surrender, five cards, special bonus, insurance, even money, statistics), played by the
  same chart's hard and soft tables: roughly the fastest a round of blackjack can be written in this style, so
  the ceiling of the ratio to the bare loop on the machine measured.

Each kernel figure is the median of ``--repeat`` runs (default 3) with the spread beside it; the headline kernel,
the bare loop and the minimal game run in turns, and the ratios are the median of those taken within a turn.
The kernel is compiled (or loaded from numba's cache) by a warm-up call first. With ``--workers`` the driver's
wall-clock throughput on 1 and 2 local processes is measured too. The last line is machine-readable:
``kernel_rounds_per_cpu_s=… bare_ratio=… engine_ratio=…``.

Run: ``.venv/bin/python bench/bench_simulate.py [--rounds N] [--repeat K] [--engine-rounds M] [--workers]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import replace

import numba
import numpy as np

from croupier.analysis import _sim_kernels as sk
from croupier.analysis import counting
from croupier.analysis.basic_strategy import basic_strategy
from croupier.analysis.chart import DOUBLE_HIT, DOUBLE_STAND, STAND, Chart
from croupier.analysis.simulate import BlockTotals, bare_draws, engine_answer, run_blocks, shoe_codes, stream
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


@numba.njit(cache=True, error_model="numpy")
def _minimal(shoe: sk.I64, rng: sk.U64, rounds: int, cut: int, hard_t: sk.I64, soft_t: sk.I64) -> int:  # noqa: PLR0917
    """The minimal game (codes in the tables: 0 hit, 1 stand, 2 double); returns the net in chips."""
    pos = cut
    net = 0
    for _ in range(rounds):
        if pos >= cut:
            sk._shuffle(shoe, rng)
            pos = 0
        start = pos
        c0, up, c1 = shoe[pos], shoe[pos + 1], shoe[pos + 2]
        pos += 3
        u = min((up >> 2) + 1, 10)
        v0, v1 = min((c0 >> 2) + 1, 10), min((c1 >> 2) + 1, 10)
        hard = v0 + v1
        aces = (v0 == 1) + (v1 == 1)
        stake = 2
        blackjack = hard == 11 and aces > 0
        bust = False
        n = 2
        while not blackjack:
            soft = aces > 0 and hard <= 11
            total = hard + 10 if soft else hard
            if total >= 21:
                break
            code = soft_t[total * 11 + u] if soft else hard_t[total * 11 + u]
            if code == 1:
                break
            if code == 2 and n == 2:
                stake = 4
            v = min((shoe[pos] >> 2) + 1, 10)
            pos += 1
            hard += v
            aces += v == 1
            n += 1
            if hard > 21:
                bust = True
                break
            if stake == 4:
                break
        if bust:
            net -= stake
            continue
        d_hard = u
        d_aces = u == 1
        while True:
            v = min((shoe[pos] >> 2) + 1, 10)
            pos += 1
            d_hard += v
            d_aces += v == 1
            d_total = d_hard + 10 if d_aces > 0 and d_hard <= 11 else d_hard
            if d_total >= 17:
                break
        dealer_bj = d_hard == 11 and d_aces > 0 and pos - start == n + 2
        total = hard + 10 if aces > 0 and hard <= 11 else hard
        if blackjack:
            net += 0 if dealer_bj else 3
        elif dealer_bj or (d_total <= 21 and total < d_total):
            net -= stake
        elif d_total > 21 or total > d_total:
            net += stake
    return int(net)


def minimal_rate(chart: Chart, rules: BlackjackRules, n: int, seed: int, cut: int) -> float:
    """Rounds per CPU second of the minimal game on ``rules``' shoe."""

    def codes(table: object) -> sk.I64:
        a = np.asarray(table, np.int64).reshape(-1)
        return np.where(a == STAND, 1, np.where((a == DOUBLE_HIT) | (a == DOUBLE_STAND), 2, 0)).astype(np.int64)

    hard_t, soft_t = codes(chart.hard), codes(chart.soft)
    _minimal(shoe_codes(rules), stream(seed, 0), 1_000, cut, hard_t, soft_t)
    return n / cpu(lambda: _minimal(shoe_codes(rules), stream(seed, 0), n, cut, hard_t, soft_t))


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
    # The kernel, the bare loop and the minimal game run in turns, and each ratio is taken within one turn: this
    # machine's speed drifts by up to 1.6x from one second to the next, and a ratio of medians taken minutes
    # apart would carry that drift.
    job = base.job()
    run_blocks(job, args.seed, 0, 10_000)  # compile or load from the cache
    cards = int(run_blocks(job, args.seed, 0, n).acc[sk.C_CARDS])
    cut = base.size - base.behind_cut + 1
    rates, bare_rates, minimal, ratios, minimal_ratios = [], [], [], [], []
    for _ in range(args.repeat):
        rates.append(n / cpu(lambda: run_blocks(job, args.seed, 0, n)))
        bare_rates.append(n / cpu(lambda: bare_draws(rules, n, cards, args.seed, cut=cut)))
        minimal.append(minimal_rate(base.chart, rules, n, args.seed, cut))
        ratios.append(rates[-1] / bare_rates[-1])
        minimal_ratios.append(minimal[-1] / bare_rates[-1])
    eng = args.engine_rounds / engine_seconds(rules, base, args.engine_rounds, args.seed)
    k = statistics.median(rates)
    ratio = statistics.median(ratios)
    print(f"{'6 decks, statute, one box, to the cut card':58} {spread(rates)}")
    print(f"{'  bare: the same cards shuffled and dealt (%.2f/round)' % (cards / n):58} {spread(bare_rates)}")
    print(f"{'  engine, the same chart':58} {eng / 1e6:6.4f} M")
    print(f"{'  minimal game (hit/stand/double)':58} {spread(minimal)}")
    print(
        f"kernel/bare in each turn: median {ratio:.3f} ({min(ratios):.3f}-{max(ratios):.3f}); "
        f"minimal game/bare {statistics.median(minimal_ratios):.3f} "
        f"({min(minimal_ratios):.3f}-{max(minimal_ratios):.3f})"
    )
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
    print(f"kernel_rounds_per_cpu_s={k:.0f} bare_ratio={ratio:.3f} engine_ratio={k / eng:.0f}")


if __name__ == "__main__":
    main()
