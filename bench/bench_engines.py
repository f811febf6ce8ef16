"""Benchmark: engine rounds per second for roulette and sic bo, and the time of ``croupier odds``.

A table of 7 players with 5 bets each plays full rounds (open betting, 35 bets validated and placed, the
bell, the result from a seeded PCG64 stream, settlement in the statutory order). Each figure is printed with
its ratio to a baseline measured in the same process: a bare loop that draws the same result from the same
generator and settles the same bets with plain integer arithmetic, no validation, no state machine. Times are
CPU time of this process (``time.process_time``), the best of several runs.
Run: ``make bench`` (or ``.venv/bin/python bench/bench_engines.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from croupier.analysis.odds import roulette_odds, sicbo_odds
from croupier.demo import random_roulette_bet, random_sicbo_bet
from croupier.primitives.pcg import SeededRandom
from croupier.roulette import RouletteRound, RouletteRules
from croupier.sicbo import SicBoRound, SicBoRules
from croupier.sicbo.bets import make_bet as make_sicbo_bet
from croupier.sicbo.bets import odds_for

PLAYERS = ("ana", "bo", "cy", "dee", "eli", "fay", "gus")
BETS_EACH = 5
AMOUNT = 10


def best_rate(fn: Callable[[int], None], n: int, repeats: int = 3) -> float:
    """Calls of ``fn``'s body per second: the best of ``repeats`` timings of ``n`` iterations."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        fn(n)
        best = min(best, time.process_time() - t0)
    return n / best


def best_seconds(fn: Callable[[], Any], repeats: int = 5) -> float:
    """The best wall time of ``repeats`` calls."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def main() -> None:
    choose = SeededRandom(1)
    r_rules, s_rules = RouletteRules(), SicBoRules()
    r_bets = [(p, random_roulette_bet(choose, r_rules.nine_number_blocks)) for p in PLAYERS for _ in range(BETS_EACH)]
    s_bets = [(p, random_sicbo_bet(choose)) for p in PLAYERS for _ in range(BETS_EACH)]

    rng = SeededRandom(2)

    def roulette_engine(n: int) -> None:
        for _ in range(n):
            rnd = RouletteRound(r_rules, rng)
            for player, bet in r_bets:
                rnd.place_bet(player, amount=AMOUNT, **bet)
            rnd.close_betting()
            rnd.spin()

    # Baseline: the covered numbers and odds are precomputed once; per round only the draw and the sums.
    probe = RouletteRound(r_rules, rng)
    covered = [
        (probe.verify_place_bet(p, amount=AMOUNT, **b).covers, int(r_rules.odds(b["bet_type"]))) for p, b in r_bets
    ]

    def roulette_bare(n: int) -> None:
        for _ in range(n):
            pocket = rng.pocket()
            _ = sum(AMOUNT * odds if pocket in cov else -AMOUNT for cov, odds in covered)

    def sicbo_engine(n: int) -> None:
        for _ in range(n):
            rnd = SicBoRound(s_rules, rng)
            for player, bet in s_bets:
                rnd.place_bet(player, amount=AMOUNT, **bet)
            rnd.close_betting()
            rnd.roll()

    prepared = [make_sicbo_bet(s_rules, p, amount=AMOUNT, **b) for p, b in s_bets]

    def sicbo_bare(n: int) -> None:
        for _ in range(n):
            dice = rng.dice()
            _ = sum(-AMOUNT if (o := odds_for(s_rules, b, dice)) is None else AMOUNT * o for b in prepared)

    rows = [
        ("roulette round, 7 players × 5 bets", best_rate(roulette_engine, 2000), best_rate(roulette_bare, 2000)),
        ("sic bo round, 7 players × 5 bets", best_rate(sicbo_engine, 2000), best_rate(sicbo_bare, 2000)),
    ]
    print(f"{'benchmark':40} {'engine/s':>12} {'baseline/s':>12} {'engine÷baseline':>16}")
    for name, engine, bare in rows:
        print(f"{name:40} {engine:12,.0f} {bare:12,.0f} {engine / bare:16.3f}")

    # croupier odds: exact enumeration (37 pockets × 15 bet types; 216 rolls × 19 bets), against a baseline
    # that merely iterates the same outcome spaces the same number of times.
    t_ro = best_seconds(lambda: roulette_odds(r_rules))
    t_sb = best_seconds(lambda: sicbo_odds(s_rules))
    t_base = best_seconds(
        lambda: [p for _ in range(15) for p in range(37)] + [d for _ in range(19) for d in range(216)]
    )
    print(f"\n{'croupier odds':40} {'seconds':>12} {'baseline s':>12} {'odds÷baseline':>16}")
    print(f"{'odds roulette + sicbo':40} {t_ro + t_sb:12.5f} {t_base:12.6f} {(t_ro + t_sb) / t_base:16.1f}")
    print(f"{'  roulette':40} {t_ro:12.5f}")
    print(f"{'  sicbo':40} {t_sb:12.5f}")


if __name__ == "__main__":
    main()
