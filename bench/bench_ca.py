"""Benchmark of blackjack's exact analysis from the command line (issue 16, item 2), against the previous release.

Each figure is the wall-clock time of one ``croupier`` command, start-up included (numba's on-disk cache warm:
every command runs once untimed first). The same command of the previous release (:data:`PREVIOUS`, checked
out into a temporary git worktree and run on the same interpreter) runs in turn with it, so each ratio
compares the two on the machine as it is at that moment; the median and the spread of ``--repeat`` turns are
printed. The aims are the issue's, for a quiet machine.

Then the published house edges the analysis must reproduce, to full precision, and the optimal chart's edges.

Run: ``.venv/bin/python bench/bench_ca.py [--repeat 3] [--no-par]`` from a git checkout (the previous release
comes from its history).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from croupier.analysis.basic_strategy import basic_strategy
from croupier.analysis.ca import Analyser, analyse
from croupier.blackjack.rules import MACAU_TYPICAL, STATUTE, DealerSoft17, DoubleOn

ROOT = Path(__file__).resolve().parent.parent
PREVIOUS = "96cbc88"
"""The release before issue 16 (its chart was not optimal; its analysis took 4-5 s from the command line)."""

PLAIN = dataclasses.replace(MACAU_TYPICAL, five_card_payment=False, special_bonus=False)

RUN = "import sys; from croupier.cli import main; sys.argv = ['croupier', *sys.argv[1:]]; main()"


def commands(out: Path, par: bool) -> list[tuple[str, list[str], float]]:
    edge = ["edge", "blackjack", "--decks", "8", "--json"]
    jobs = [
        ("edge blackjack --decks 8 --json", edge, 1.2),
        ("  --strategy td", [*edge, "--strategy", "td"], 3.0),
        ("  --side-bets", [*edge, "--side-bets"], 4.0),
        ("  --effects", [*edge, "--effects"], 10.0),
    ]
    if par:
        jobs.append(("par blackjack (2,000,000 rounds)", ["par", "blackjack", "--out", str(out), "--seed", "1"], 30.0))
    return jobs


def timed(src: Path, args: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(src)}
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", RUN, *args], env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-par", action="store_true", help="leave out the PAR sheet (a minute a turn)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        previous = Path(folder) / "previous"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(previous), PREVIOUS],
            check=True,
            capture_output=True,
        )
        try:
            print(f"wall clock from the command line, median (range) of {options.repeat} turns; previous = {PREVIOUS}")
            print(f"{'command':36s} {'now':>16s} {'aim':>7s} {'previous':>16s} {'ratio':>6s}")
            for name, args, aim in commands(Path(folder) / "par.html", not options.no_par):
                for src in (ROOT / "src", previous / "src"):
                    timed(src, args)  # numba's cache, the page cache
                now: list[float] = []
                before: list[float] = []
                for _ in range(options.repeat):
                    now.append(timed(ROOT / "src", args))
                    before.append(timed(previous / "src", args))
                ratios = [b / n for n, b in zip(now, before, strict=True)]
                print(
                    f"{name:36s} {statistics.median(now):5.2f} s ({min(now):.2f}-{max(now):.2f}) {aim:5.1f} s "
                    f"{statistics.median(before):5.2f} s ({min(before):.2f}-{max(before):.2f}) "
                    f"{statistics.median(ratios):5.1f}x"
                )
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(previous)], check=False)
    print("published house edges, composition-dependent, full precision:")
    for name, rules, printed in (
        ("6 decks S17 DAS split to 4, aces once, ES10, OBO", PLAIN, "0.16%"),
        ("  the same with resplit aces", dataclasses.replace(PLAIN, resplit_aces=True), "0.09%"),
        ("6 decks S17 DAS peek, split to 4, no surrender", dataclasses.replace(PLAIN, procedure=3, surrender=False),
         "0.40%"),
    ):  # fmt: skip
        print(f"  {name:52s} {analyse(rules).house_edge * 100:.6f}%   (published {printed})")
    print("the optimal basic-strategy chart, continuous shuffler (the published textbook chart's edge):")
    for decks, printed in ((8, "0.48768%"), (6, "0.45999%")):
        rules = dataclasses.replace(
            STATUTE, decks=decks, procedure=3, dealer_soft_17=DealerSoft17.STAND, double_on=DoubleOn.ANY_TWO,
            double_after_split=True, max_split_hands=2, resplit_aces=False, surrender=False,
            five_card_payment=False, special_bonus=False,
        )  # fmt: skip
        an = Analyser(rules)
        edge = an.analyse(basic_strategy(rules, analyser=an)).house_edge * 100
        print(f"  {decks} decks S17 DAS, split to 2, no surrender, peek        {edge:.6f}%   (published {printed})")


if __name__ == "__main__":
    main()
