"""Benchmark: the table simulation against the exact analysis, 100,000,000 rounds a rule set (issue 15).

The comparison of ``tests/analysis/test_tablesim_accuracy.py`` with ten times its rounds, so a third of its
standard error: for each rule set of that test (every distinct preset and six variants that between them flip
every option the play reads), the basic-strategy chart for the rules and its exact value from
:func:`~croupier.analysis.blackjack_math.analyse_main_bet` with ``"td"`` (the code path of
``croupier edge blackjack --strategy td``), then a flat bettor playing that chart on a continuous shuffler, one box,
one unit a round. Each line prints the simulated EV with its standard error, the exact EV, and their difference
in standard errors; the last line sums the squared differences (about as many as rule sets run, if the
simulation and the analysis agree; over 3 standard errors on any one line deserves a look).

Run: ``.venv/bin/python bench/bench_simulate_accuracy.py [--rounds N] [--seed S] [--workers W] [--rules NAME …]``
(about 8 CPU seconds per 100,000,000 rounds and 2-5 seconds of analysis per rule set).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from croupier.analysis.blackjack_math import analyse_main_bet
from croupier.analysis.tablesim import Run, TableSetup, simulate_table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "analysis"))

from test_tablesim_accuracy import RULE_SETS  # the test's rule sets (tests/ is no package)


def compare(name: str, rounds: int, seed: int, workers: int) -> float:
    """Print one rule set's comparison and return the difference in standard errors."""
    rules = RULE_SETS[name]
    t0 = time.process_time()
    analysis, chart, _ = analyse_main_bet(rules, "td")
    analysed = time.process_time() - t0
    if chart is None:
        raise ValueError(f"the td analysis of {name!r} gave no chart")
    result = simulate_table(TableSetup(rules=rules, chart=chart, continuous=True), rounds, seed, Run(workers=workers))
    out = result.to_json()
    main = out["house"]["main_bet"]
    sim, se, exact = float(main["player_ev"]), float(main["se"]), analysis.ev
    z = (sim - exact) / se
    print(
        f"{name:28} {sim:+.6f} ± {se:.6f}  {exact:+.6f}  {z:+6.2f}  "
        f"{analysed:5.1f} s  {out['run']['cpu_seconds']:6.1f} s"
    )
    return z


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100_000_000, help="rounds per rule set (default 100,000,000)")
    parser.add_argument("--seed", type=int, default=2_026_415)
    parser.add_argument("--workers", type=int, default=1, help="local processes (default 1)")
    parser.add_argument(
        "--rules",
        action="append",
        choices=list(RULE_SETS),
        help="a rule set to compare (repeatable; default every one)",
    )
    args = parser.parse_args()
    names: list[str] = args.rules or list(RULE_SETS)
    print(f"{args.rounds:,} rounds a rule set, seed {args.seed}, continuous shuffler, td chart, one unit a round")
    print(f"{'rule set':28} {'simulated EV ± SE':>20}  {'exact EV':>9}  {'diff/SE':>6}  {'CA':>7}  {'sim CPU':>8}")
    zs = [compare(name, args.rounds, args.seed, args.workers) for name in names]
    worst = max(zs, key=abs)
    print(f"rule_sets={len(zs)} sum_z2={sum(z * z for z in zs):.2f} max_abs_z={abs(worst):.2f}")


if __name__ == "__main__":
    main()
