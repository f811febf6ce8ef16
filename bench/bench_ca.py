"""Benchmark and full-precision figures of blackjack's exact combinatorial analysis (issue 4).

Prints, on one core (CPU time, ``time.process_time``, best of three after a warm-up that loads numba's cache):

* the composition-dependent EV of the 8-deck statutory game and of the 6-deck usual Macau game — the issue's
  aim is at most 2 seconds for 8 decks;
* the basic-strategy chart optimised and valued exactly;
* the full PAR sheet (``croupier par blackjack``; aim: under a minute);
* the published house edges the CA must reproduce (0.16%, 0.09%, ≈0.40%), to full precision;
* a baseline in the same process: the first-decision values of every two-card hand against one up card from a
  one-deck shoe, by the pure-Python analyser (:mod:`croupier.analysis.hand_ev`) and by the numba kernels; the
  ratio is the figure to compare across machines.

Run: ``make bench`` (or ``.venv/bin/python bench/bench_ca.py``).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from pathlib import Path
from tempfile import TemporaryDirectory

from croupier.analysis.basic_strategy import basic_strategy
from croupier.analysis.ca import Analyser, analyse
from croupier.analysis.dealer import decks, remove
from croupier.analysis.hand_ev import HandAnalyser, HandTerms
from croupier.blackjack.rules import MACAU_TYPICAL, STATUTE
from croupier.report.blackjack import blackjack_par

PLAIN = dataclasses.replace(MACAU_TYPICAL, five_card_payment=False, special_bonus=False)


def best_of(fn: Callable[[], object], runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def python_first_decisions(up: int) -> None:
    rules = dataclasses.replace(STATUTE, decks=1)
    analyser = HandAnalyser(HandTerms.of(rules, up))
    shoe = remove(decks(1), up)
    for a in range(1, 11):
        for b in range(a, 11):
            if (a, b) != (1, 10) and shoe[a - 1] > (a == b) and shoe[b - 1] > 0:
                analyser.decisions(remove(remove(shoe, a), b), [a, b])


def kernel_first_decisions(up: int) -> None:
    an = Analyser(dataclasses.replace(STATUTE, decks=1))
    an.cd_plan(an.up(up))


def main() -> None:
    analyse(STATUTE)  # warm-up: numba's compiled kernels come from the on-disk cache
    eight = best_of(lambda: analyse(STATUTE))
    six = best_of(lambda: analyse(PLAIN))
    chart_time = best_of(lambda: Analyser(PLAIN).analyse(basic_strategy(PLAIN)), runs=1)
    with TemporaryDirectory() as folder:
        t0 = time.process_time()
        blackjack_par(MACAU_TYPICAL, rounds=2_000_000, seed=1).write_html(Path(folder) / "par.html")
        par_time = time.process_time() - t0
    python = best_of(lambda: python_first_decisions(6), runs=1)
    kernel = best_of(lambda: kernel_first_decisions(6))
    print(f"CD EV, 8 decks (statute):             {eight:6.3f} s   ev {analyse(STATUTE).ev:+.12f}")
    print(f"CD EV, 6 decks (usual Macau game):    {six:6.3f} s")
    print(f"basic strategy optimised and valued:  {chart_time:6.3f} s")
    print(f"PAR sheet (2,000,000 rounds):         {par_time:6.3f} s")
    print("published house edges, composition-dependent, full precision:")
    for name, rules, printed in (
        ("6 decks S17 DAS split to 4, aces once, ES10, OBO", PLAIN, "0.16%"),
        ("  the same with resplit aces", dataclasses.replace(PLAIN, resplit_aces=True), "0.09%"),
        ("6 decks S17 DAS peek, split to 4, no surrender", dataclasses.replace(PLAIN, procedure=3, surrender=False),
         "0.40%"),
    ):  # fmt: skip
        print(f"  {name:52s} {analyse(rules).house_edge * 100:.6f}%   (published {printed})")
    print(
        f"baseline: first decisions vs a 6, one deck — pure Python {python:.3f} s, numba {kernel:.4f} s, "
        f"ratio {python / kernel:,.0f}x"
    )


if __name__ == "__main__":
    main()
