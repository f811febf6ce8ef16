"""How accurate the table simulation is (issue 15's acceptance): its figures against exact values and against
published ones.

1. **Against the exact analysis.** A flat bettor playing the basic-strategy chart for the rules, one unit a round,
   on a continuous shuffler, earns what ``croupier edge blackjack --strategy td`` prints: the chart and its exact
   value come from :func:`~croupier.analysis.blackjack_math.analyse_main_bet` with ``"td"``, the code path of that
   command (``edge_report`` calls it), and 10,000,000 simulated rounds must agree with it within three standard
   errors. This is done for every distinct preset and for six more rule sets that between them give every option
   the play reads each of its values (one test checks that they do). ``bench/bench_simulate_accuracy.py`` runs the
   same comparison with 100,000,000 rounds a rule set.
2. **Against published Hi-Lo figures.** A six-deck shoe game dealt to a cut card at 75% penetration, counted with
   Hi-Lo: the flat bettor's advantage by true count must come out where card-counting references put it (the
   sources, their rules and the tolerances are in :func:`test_hi_lo_advantage_by_true_count_is_where_published`).

Fixed seeds: every figure here is the same on every run, and each assertion fails only if the simulation, the
analysis or the published figure is wrong beyond the stated tolerance.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from enum import Enum
from typing import Any

import pytest

from croupier.analysis import counting
from croupier.analysis.blackjack_math import analyse_main_bet
from croupier.analysis.chart import Chart
from croupier.analysis.tablesim import TableSetup, simulate_table
from croupier.blackjack.rules import (
    PRESETS,
    BlackjackRules,
    BustedStakes,
    DealerSoft17,
    DealingDevice,
    DoubleOn,
    SplitPairBy,
)

ROUNDS = 10_000_000
"""Rounds a rule set in the test (one standard error is about 0.036% of a unit)."""
SEED = 20_260_415
"""The seed of every comparison with the exact analysis."""

# == the rule sets ==============================================================================================


def distinct_presets() -> dict[str, BlackjackRules]:
    """Every preset once, under its first name (the aliases ``default`` and ``macau`` name the same rules)."""
    out: dict[str, BlackjackRules] = {}
    for name, rules in PRESETS.items():
        if all(rules != seen for seen in out.values()):
            out[name] = rules
    return out


VARIANTS: Mapping[str, BlackjackRules] = {
    # A US two-deck game: hole card and peek (BJ 5.2), dealer hits every soft 17 (BJ 6.1), split to three hands,
    # any two ten-value cards a pair (BJ 16.1), no surrender, no five-card or bonus payments, even money only
    # against an ace (BJ 10.3).
    "two-deck-hole-card-peek": BlackjackRules(
        decks=2,
        procedure=3,
        peek=True,
        dealer_soft_17=DealerSoft17.HIT_ALL,
        max_split_hands=3,
        split_pair_by=SplitPairBy.VALUE,
        surrender=False,
        five_card_payment=False,
        special_bonus=False,
        even_money_on_ten=False,
    ),
    # A hole card without the peek (BJ 5.2): a dealer blackjack is found after the players act. Doubling on 11
    # only (BJ 17.1), so a doubled box may lose its double too (BJ 10.7); busted split stakes lost (BJ 16.6);
    # no double after split, aces split once, split after declining (BJ 16.5); split to five hands by default.
    "six-deck-hole-card-no-peek": BlackjackRules(
        decks=6,
        dealing_device=DealingDevice.SHUFFLER,
        procedure=3,
        peek=False,
        dealer_soft_17=DealerSoft17.HIT_ALL,
        double_on=DoubleOn.ELEVEN,
        double_after_split=False,
        resplit_aces=False,
        split_after_declining=True,
        five_card_payment=False,
        lose_original_only_on_double=False,
        busted_stakes_on_dealer_blackjack=BustedStakes.LOST,
    ),
    # Procedure 2 (boxes face up, no hole card), dealer stands on soft 17, doubling on 11 only and losing the
    # double to a dealer blackjack, split to two hands, ten-value pairs by value, split after declining.
    "four-deck-face-up-eleven": BlackjackRules(
        decks=4,
        procedure=2,
        dealer_soft_17=DealerSoft17.STAND,
        double_on=DoubleOn.ELEVEN,
        max_split_hands=2,
        split_pair_by=SplitPairBy.VALUE,
        split_after_declining=True,
        surrender=False,
        special_bonus=False,
        even_money_on_ten=False,
        lose_original_only_on_double=False,
    ),
    # One deck from a dealing box (BJ 1): the dealer's second card comes before the players act, without a
    # peek; busted split stakes lost to a dealer blackjack, no double after split; otherwise the statute.
    "dealing-box": BlackjackRules(
        decks=1,
        dealing_device=DealingDevice.DEALING_BOX,
        double_after_split=False,
        busted_stakes_on_dealer_blackjack=BustedStakes.LOST,
    ),
    # One deck with a hole card and the peek, dealer stands on soft 17, aces split once, ten-value pairs by
    # value, no five-card or bonus payments, even money only against an ace.
    "one-deck-hole-card-peek": BlackjackRules(
        decks=1,
        procedure=3,
        dealer_soft_17=DealerSoft17.STAND,
        max_split_hands=4,
        resplit_aces=False,
        split_pair_by=SplitPairBy.VALUE,
        five_card_payment=False,
        special_bonus=False,
        even_money_on_ten=False,
    ),
    # Eight decks in a shuffler, procedure 2, dealer hits every soft 17, split to five hands, no surrender,
    # busted split stakes lost.
    "eight-deck-face-up-hit-17": BlackjackRules(
        decks=8,
        dealing_device=DealingDevice.SHUFFLER,
        procedure=2,
        dealer_soft_17=DealerSoft17.HIT_ALL,
        max_split_hands=5,
        surrender=False,
        busted_stakes_on_dealer_blackjack=BustedStakes.LOST,
    ),
}
"""Six rule sets that, with the presets, flip every option the play reads (see :data:`EVERY_VALUE`)."""

RULE_SETS: Mapping[str, BlackjackRules] = {**distinct_presets(), **VARIANTS}
"""What the simulation is compared with the exact analysis on: the presets, then the variants."""

_BOTH = frozenset({False, True})


def _all(kind: type[Enum]) -> frozenset[Any]:
    return frozenset(kind)


EVERY_VALUE: Mapping[str, frozenset[Any]] = {
    "procedure": frozenset({1, 2, 3}),  # BJ 5.2
    "peek": _BOTH,  # BJ 5.2
    "dealer_soft_17": _all(DealerSoft17),  # BJ 6.1
    "double_on": _all(DoubleOn),  # BJ 17.1
    "double_after_split": _BOTH,  # BJ 17.1
    "max_split_hands": frozenset({None, 2, 3, 4, 5}),  # BJ 16.1: the default and the limits the edge command flips
    "resplit_aces": _BOTH,  # BJ 16.3
    "split_pair_by": _all(SplitPairBy),  # BJ 16.1
    "split_after_declining": _BOTH,  # BJ 16.5
    "surrender": _BOTH,  # BJ 18
    "five_card_payment": _BOTH,  # BJ 19
    "special_bonus": _BOTH,  # BJ 15
    "even_money_on_ten": _BOTH,  # BJ 10.3
    "lose_original_only_on_double": _BOTH,  # BJ 10.7
    "busted_stakes_on_dealer_blackjack": _all(BustedStakes),  # BJ 16.6
    "decks": frozenset({1, 2, 4, 6, 8}),  # BJ 1: the deck counts the edge command's rule effects flip
    "dealing_device": _all(DealingDevice),  # BJ 1
}
"""Every option of :class:`BlackjackRules` that the play of a round reads, with every value it should take."""


def test_the_rule_sets_take_every_value_of_every_option_the_play_reads() -> None:
    """The presets and :data:`VARIANTS` together give each option of :data:`EVERY_VALUE` each of its values."""
    for option, values in EVERY_VALUE.items():
        taken = {getattr(rules, option) for rules in RULE_SETS.values()}
        assert taken == values, (option, taken)
    # The effective split limit takes every value too (None is 5 under procedure 3, else 4).
    assert {r.split_hands_limit for r in RULE_SETS.values()} == {2, 3, 4, 5}
    # Each flip is made where it changes the play: no peek under procedure 3 (a hole card not looked at); the
    # double lost to a dealer blackjack only with doubling on 11 (BJ 17.3 makes any-two doubles lose the
    # original bet only); busted split stakes lost only where a dealer blackjack is found after the players
    # act; aces resplit where a box may split into more than two hands.
    assert any(r.procedure == 3 and not r.peek for r in RULE_SETS.values())
    assert any(r.procedure == 3 and r.peek for r in RULE_SETS.values())
    assert all(r.double_on is DoubleOn.ELEVEN for r in RULE_SETS.values() if not r.lose_original_only_on_double)
    lost = [r for r in RULE_SETS.values() if r.busted_stakes_on_dealer_blackjack is BustedStakes.LOST]
    assert lost and not any(r.dealer_peeks for r in lost)
    assert any(r.resplit_aces and r.split_hands_limit > 2 for r in RULE_SETS.values())
    assert set(RULE_SETS) >= {"statute", "macau-typical"}


# == 1. the simulation against the exact analysis ==============================================================


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RULE_SETS))
def test_flat_basic_strategy_on_a_shuffler_earns_the_exact_edge(name: str) -> None:
    """10,000,000 rounds of the ``td`` chart on a continuous shuffler, one box, one unit a round, agree with the
    chart's exact value within three standard errors (a chance of 0.27% of failing were both right)."""
    rules = RULE_SETS[name]
    analysis, chart, _ = analyse_main_bet(rules, "td")
    assert chart is not None
    setup = TableSetup(rules=rules, chart=chart, continuous=True)
    out = simulate_table(setup, ROUNDS, SEED).to_json()
    assert out["run"]["rounds"] == ROUNDS and out["setup"]["shuffle"] == "continuous"
    main = out["house"]["main_bet"]
    sim, se, exact = main["player_ev"], main["se"], analysis.ev
    assert 0 < se < 0.0005
    assert abs(sim - exact) < 3 * se, f"{name}: simulated {sim:+.6f} ± {se:.6f}, exact {exact:+.6f}"


# == 2. Hi-Lo against published figures ========================================================================

HI_LO_RULES = BlackjackRules(
    decks=6,
    procedure=3,
    peek=True,
    dealer_soft_17=DealerSoft17.STAND,
    double_on=DoubleOn.ANY_TWO,
    double_after_split=True,
    max_split_hands=4,
    resplit_aces=False,
    split_pair_by=SplitPairBy.VALUE,
    surrender=False,
    five_card_payment=False,
    special_bonus=False,
    even_money_on_ten=False,
)
"""The sources' standard shoe game: six decks, hole card with the peek, dealer stands on soft 17, double on any
two cards and after a split, split to four hands, aces split once, no surrender; none of Macau's five-card,
bonus or even-money-on-ten payments."""
HI_LO_ROUNDS = 40_000_000
HI_LO_SEED = 1_963
FIT_COUNTS = range(-4, 7)
"""The floored true counts the line is fitted to: each holds at least 0.6% of the rounds."""


@pytest.fixture(scope="module")
def hi_lo_game() -> tuple[float, Chart]:
    """The exact off-the-top EV of :data:`HI_LO_RULES` and its basic-strategy chart (the ``td`` analysis)."""
    analysis, chart, _ = analyse_main_bet(HI_LO_RULES, "td")
    assert chart is not None
    return analysis.ev, chart


def _line(rows: Mapping[int, Mapping[str, Any]]) -> tuple[float, float, float, float, float]:
    """The weighted least-squares line of the flat EV on the true count over :data:`FIT_COUNTS`: a floored count
    ``k`` holds the true counts from ``k`` to ``k + 1`` and is placed at ``k + ½``; each is weighted by
    ``1/se²``. Returns the intercept, the slope, the sum of the weights, the weighted mean count and the
    weighted sum of squares about it (what the standard errors of the line need)."""
    x = [k + 0.5 for k in FIT_COUNTS]
    y = [rows[k]["player_ev"] for k in FIT_COUNTS]
    w = [1 / rows[k]["se"] ** 2 for k in FIT_COUNTS]
    total = math.fsum(w)
    x_mean = math.fsum(wi * xi for wi, xi in zip(w, x, strict=True)) / total
    y_mean = math.fsum(wi * yi for wi, yi in zip(w, y, strict=True)) / total
    sxx = math.fsum(wi * (xi - x_mean) ** 2 for wi, xi in zip(w, x, strict=True))
    slope = math.fsum(wi * (xi - x_mean) * (yi - y_mean) for wi, xi, yi in zip(w, x, y, strict=True)) / sxx
    return y_mean - slope * x_mean, slope, total, x_mean, sxx


@pytest.mark.slow
def test_hi_lo_advantage_by_true_count_is_where_published(hi_lo_game: tuple[float, Chart]) -> None:
    """Hi-Lo's flat-bet advantage by true count in a six-deck shoe, against two published rules of thumb.

    Sources:

    * The GameMaster's Blackjack School (1990, on the web since 1995; reprinted on Stanford Wong's bj21.com),
      lesson 1 defines its "fairly common game": six decks, double on any first two cards, double after
      splitting, dealer stands on A-6, no surrender (its matrix "6 Decks, S17, DA2, DAS, No surrender").
      Lesson 8 (http://www.blackjacks-online.com/blackjack-school/lessons-8.html): "Each increase of one in the
      True Count on the plus side adds to the players edge by 0.5. In a six-deck game the deck starts out in
      favor of the house at about 0.40. So just an increase of one in the True Count means that the house edge
      is put into neutral. An increase of two or three makes the player a favorite."
    * John Bukofsky, *Blackjack: Play Like the Pros* (Lyle Stuart, 2006), chapter 9, "Player Advantage": "With
      every point increase in the true count, the player's advantage increases on average by about 0.5
      percent … At a true 3, the card counter has about a 1.0 percent advantage. At a true 5, it's almost
      2 percent."

    Rules simulated (:data:`HI_LO_RULES`): the GameMaster's game, with what it leaves unsaid set as a US shoe
    game deals it — hole card and peek, split to four hands, aces split once, any two ten-value cards a pair —
    dealt from six decks to a cut card at 75% penetration (78 cards behind it), one box, one unit every round,
    the basic-strategy chart for the rules, the true count the running count over the exact decks left,
    floored. What the simulation cannot match: the sources' counters also use index plays (this one plays
    basic strategy throughout, which lowers the gain per count a little), and neither source states its
    penetration, its number of boxes or how it rounds the true count.

    Tolerances: each published figure is rounded — "0.5" to the nearest 0.05, "about 0.40" to the nearest
    0.05, "about 1.0" to the nearest quarter point, "almost 2" anywhere from 1.5 to 2 — and the simulated figure
    is allowed that rounding plus three of its standard errors (from the fit's weights). The off-the-top edge
    is the exact analysis of the full shoe (0.419%)."""
    off_the_top, chart = hi_lo_game
    # "In a six-deck game the deck starts out in favor of the house at about 0.40."
    assert -0.0045 < off_the_top < -0.0035, off_the_top

    setup = TableSetup(
        rules=HI_LO_RULES,
        chart=chart,
        penetration=0.75,
        count=counting.count_system("hi-lo"),
        true_count="exact",
    )
    assert setup.behind_cut == 78 and not setup.shuffled_each_round
    out = simulate_table(setup, HI_LO_ROUNDS, HI_LO_SEED).to_json()
    rows = {row["count"]: row for row in out["by_count"]}
    intercept, slope, total, x_mean, sxx = _line(rows)

    def at(count: float) -> tuple[float, float]:
        """The fitted line's EV at a true count, and its standard error."""
        return intercept + slope * count, math.sqrt(1 / total + (count - x_mean) ** 2 / sxx)

    # "Each increase of one in the True Count … adds to the players edge by 0.5" (both sources).
    slope_se = math.sqrt(1 / sxx)
    assert slope_se < 0.0002
    assert 0.0045 - 3 * slope_se < slope < 0.0055 + 3 * slope_se, (slope, slope_se)
    # At a true count of zero the shoe is as good as a full one: the line meets the off-the-top edge.
    ev0, se0 = at(0)
    assert abs(ev0 - off_the_top) < 3 * se0, (ev0, se0, off_the_top)
    # "Just an increase of one in the True Count means that the house edge is put into neutral": the line
    # crosses zero at a true count that rounds to 1.
    assert 0.5 < -intercept / slope < 1.5, -intercept / slope
    # "An increase of two or three makes the player a favorite"; and below a count of 1 the house is.
    for k in (2, 3):
        assert rows[k]["player_ev"] > 3 * rows[k]["se"], rows[k]
    for k in (-1, 0):
        assert rows[k]["player_ev"] < -3 * rows[k]["se"], rows[k]
    # Bukofsky: "At a true 3, … about a 1.0 percent advantage. At a true 5, it's almost 2 percent."
    ev3, se3 = at(3)
    assert 0.0075 - 3 * se3 < ev3 < 0.0125 + 3 * se3, (ev3, se3)
    ev5, se5 = at(5)
    assert 0.015 - 3 * se5 < ev5 < 0.020 + 3 * se5, (ev5, se5)
    # The advantage grows with the count from one floored count to the next over the fitted range.
    evs = [rows[k]["player_ev"] for k in FIT_COUNTS]
    assert all(b > a for a, b in itertools.pairwise(evs)), evs


@pytest.mark.slow
def test_hi_lo_most_frequent_true_count_is_zero(hi_lo_game: tuple[float, Chart]) -> None:
    """Norm Wattenberger, *Blackjack in Color*, chapter 2, "Data by Count"
    (https://www.blackjackincolor.com/truecount1.htm), on Hi-Lo in six decks: "Obviously the most frequent count
    by far is zero." The source estimates the decks left to the half deck, as ``true_count="half_deck"`` does;
    its chart gives no numbers, so only its claim is checked: the count of zero (floored: from 0 to 1, which
    holds every round dealt at a running count of 0, the first of every shoe among them) is the most frequent
    by more than a fifth again of the next. Same game as the advantage test, 10,000,000 rounds."""
    setup = TableSetup(
        rules=HI_LO_RULES,
        chart=hi_lo_game[1],
        penetration=0.75,
        count=counting.count_system("hi-lo"),
        true_count="half_deck",
    )
    out = simulate_table(setup, ROUNDS, HI_LO_SEED).to_json()
    freq = {row["count"]: row["frequency"] for row in out["by_count"]}
    assert math.isclose(math.fsum(freq.values()), 1.0, rel_tol=1e-12)
    zero = freq[0]
    runner_up = max(f for k, f in freq.items() if k != 0)
    assert zero > 1.2 * runner_up, (zero, runner_up)
