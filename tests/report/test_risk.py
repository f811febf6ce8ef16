"""Hold ranges, sum distributions and the intervals of simulated figures (croupier.report.risk), checked against
binomial sums written out by hand and the normal approximation."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from croupier.analysis.odds import BetOdds, Outcome, roulette_odds
from croupier.report import Report
from croupier.report.risk import (
    HORIZONS,
    LEVELS,
    exact_hold_ranges,
    hold_section,
    normal_hold_ranges,
    outcome_rows,
    sd_interval,
    session_distribution,
    sum_distribution,
    wilson,
    z_of,
)
from croupier.roulette.rules import RouletteRules

from .conftest import check_html

STRAIGHT, RED = (roulette_odds(RouletteRules())[i] for i in (0, -2))


def binomial_cdf(n: int, k: int, p: Fraction) -> Fraction:
    """P(X ≤ k) for X ~ Binomial(n, p), exactly."""
    return sum((math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k + 1)), Fraction(0))


class TestSumDistribution:
    def test_the_folded_window_matches_the_whole_support(self) -> None:
        whole = session_distribution(STRAIGHT, 2_000)
        folded = sum_distribution(STRAIGHT, 2_000, max_size=1 << 12)  # the support is 72,001 wide
        assert whole is not None and folded is not None
        assert len(folded[0]) == 4096 and np.all(np.diff(folded[0]) > 0)
        exact_probs = dict(zip(whole[0].tolist(), whole[1].tolist(), strict=True))
        assert max(abs(exact_probs.get(v, 0.0) - p) for v, p in zip(*folded, strict=True)) < 1e-9
        assert math.isclose(float(folded[0] @ folded[1]), -2_000 / 37, rel_tol=1e-6)

    def test_no_window_fits_a_huge_sum(self) -> None:
        assert sum_distribution(STRAIGHT, 10**9) is None


class TestHoldRanges:
    def test_red_over_a_thousand_spins_is_the_binomial_range(self) -> None:
        # the house's result over n spins on red: n − 2W with W ~ Binomial(n, 18/37) wins
        n = 1_000
        for r in exact_hold_ranges(RED, (n,)):
            tail = Fraction(1 - r.level) / 2
            # the house's hold is at least r.low exactly when W ≤ (n − n·low)/2
            high_wins = round((n - n * r.low) / 2)
            low_wins = round((n - n * r.high) / 2)
            assert r.exact
            assert binomial_cdf(n, high_wins, Fraction(18, 37)) >= 1 - tail - Fraction(1, 10**9)
            assert binomial_cdf(n, high_wins - 1, Fraction(18, 37)) < 1 - tail
            assert binomial_cdf(n, low_wins - 1, Fraction(18, 37)) < tail
            assert binomial_cdf(n, low_wins, Fraction(18, 37)) >= tail - Fraction(1, 10**9)

    def test_every_horizon_and_level_and_the_ranges_shrink(self) -> None:
        ranges = exact_hold_ranges(STRAIGHT)
        assert [(r.rounds, r.level) for r in ranges] == [(n, level) for n in HORIZONS for level in LEVELS]
        assert all(r.exact and r.low < 1 / 37 < r.high for r in ranges)
        widths = {(r.rounds, r.level): r.high - r.low for r in ranges}
        for level in LEVELS:
            assert [widths[n, level] for n in HORIZONS] == sorted((widths[n, level] for n in HORIZONS), reverse=True)
        # at a million spins the exact range is the normal one to a few hundredths of a percentage point
        (million,) = [r for r in ranges if r.rounds == 1_000_000 and r.level == 0.95]
        (normal,) = normal_hold_ranges(1 / 37, STRAIGHT.sd, (1_000_000,), (0.95,))
        assert abs(million.low - normal.low) < 3e-4 and abs(million.high - normal.high) < 3e-4

    def test_normal_ranges(self) -> None:
        (r,) = normal_hold_ranges(0.01, 1.2, (10_000,), (0.95,))
        assert not r.exact and math.isclose(r.high - 0.01, 1.959964 * 1.2 / 100, rel_tol=1e-6)
        assert math.isclose(z_of(0.90), 1.6448536, rel_tol=1e-6) and math.isclose(z_of(0.99), 2.5758293, rel_tol=1e-6)

    def test_a_jackpot_bet_is_exact_where_the_normal_approximation_is_far_off(self) -> None:
        # one chance in 5,000 of 4,999 to 1: the sum over 1,000 bets is nothing like a normal
        outcomes = (
            Outcome("win", Fraction(1, 5000), Fraction(4999)),
            Outcome("loss", Fraction(4999, 5000), Fraction(-1)),
        )
        lottery = BetOdds("jackpot", Fraction(4999), outcomes, "X")
        (exact_r,) = exact_hold_ranges(lottery, (1_000,), (0.90,))
        # P(no win in 1,000) = 0.8187 and P(≤ 1 win) = 0.9825: the 90% range runs from one win to none
        assert exact_r.exact and exact_r.high == 1.0 and exact_r.low == pytest.approx(-(4999 - 999) / 1000)

    def test_section_marks_the_method(self) -> None:
        rows = [("straight", exact_hold_ranges(STRAIGHT, (1_000,))), ("main", normal_hold_ranges(0.005, 1.1, (1_000,)))]
        text = Report("R").add(hold_section(rows, note="Note.")).html()
        check_html(text)
        assert '<td>straight</td><td class="r">1,000</td><td>exact</td>' in text
        assert '<td>main</td><td class="r">1,000</td><td>normal approx.</td>' in text
        assert text.count("90% range") == 1


class TestIntervals:
    def test_wilson(self) -> None:
        lo, hi = wilson(0, 100)
        assert lo < 1e-12 and math.isclose(hi, 0.036994, rel_tol=1e-4)
        lo, hi = wilson(50, 100)
        assert math.isclose(lo, 0.40383, rel_tol=1e-4) and math.isclose(hi, 0.59617, rel_tol=1e-4)

    def test_sd_interval_of_a_coin(self) -> None:
        # ±1 with equal chances: SD 1, μ₄ = 1, so Var(s²) ≈ 0 and the interval is a point
        sd, lo, hi = sd_interval(np.array([-1.0, 1.0]), np.array([0.5, 0.5]), 1_000)
        assert sd == 1.0 and lo == hi == 1.0
        sd, lo, hi = sd_interval(np.array([-1.0, 35.0]), np.array([36 / 37, 1 / 37]), 10_000)
        assert math.isclose(sd, STRAIGHT.sd) and lo < sd < hi

    def test_outcome_rows_add_up_to_the_edge(self) -> None:
        rows = outcome_rows(STRAIGHT)
        assert len(rows) == 3 and rows[0][0] == "straight"
        texts = [[getattr(c, "text", c) for c in row] for row in rows]
        assert texts[0][2:] == ["+35", "1/37 = 0.02702703", "-94.5946%"]
        assert texts[1][2:] == ["-1", "36/37 = 0.97297297", "+97.2973%"]
        assert texts[2][3:] == ["1", "+2.7027% = 1/37"]
        floaty = BetOdds("f", Fraction(2), (Outcome("a", Fraction(0.3), Fraction(2)),
                                            Outcome("b", 1 - Fraction(0.3), Fraction(-1))), "X")  # fmt: skip
        assert [getattr(c, "text", c) for c in outcome_rows(floaty)[0]][3] == "0.3000000000"
