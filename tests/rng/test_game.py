"""The game-level tests of :mod:`croupier.rng.game`: they pass good samples, fail biased ones, skip samples too
small for them with the reason, and their exact probabilities agree with brute-force enumeration."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import permutations, product

import numpy as np
import pytest
from scipy import stats

from croupier.primitives.cards import deck
from croupier.rng import game
from croupier.rng.game import (
    blackjack_tests,
    coupon_probabilities,
    first_two_probabilities,
    roulette_tests,
    run_game_tests,
    sicbo_combination_probabilities,
    sicbo_tests,
    sicbo_total_probabilities,
    uniformity,
    wald_wolfowitz_moments,
)
from croupier.rng.results import TestResult, overall
from croupier.rng.sources import draw

ALPHA = 0.01


def by_name(results: list[TestResult], start: str) -> TestResult:
    found = [r for r in results if r.name == start] or [r for r in results if r.name.startswith(start)]
    assert len(found) == 1, [r.name for r in results]
    return found[0]


def assert_all_pass(results: list[TestResult]) -> None:
    for r in results:
        assert r.verdict(0.001) != "fail", (r.name, r.p_value)
    assert overall(results, ALPHA) == "pass"


# -- good samples pass ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_good_roulette_passes(seed: int) -> None:
    results = roulette_tests(draw(f"seeded:{seed}", "roulette", 60_000).data)
    assert_all_pass(results)
    ran = [r.name for r in results if r.skipped is None]
    assert len(ran) == 6  # every test but the 37^3 triples, which need 759,795 spins
    assert by_name(results, "roulette: serial triples").skipped is not None


@pytest.mark.parametrize("seed", [1, 2])
def test_good_sicbo_passes(seed: int) -> None:
    results = sicbo_tests(draw(f"seeded:{seed}", "sicbo", 20_000).data)
    assert_all_pass(results)
    assert all(r.skipped is None for r in results)


@pytest.mark.parametrize(("decks", "shoes"), [(1, 1_200), (8, 300)])
def test_good_blackjack_passes(decks: int, shoes: int) -> None:
    results = blackjack_tests(draw("seeded:5", "blackjack", shoes, decks=decks).data, decks)
    assert_all_pass(results)
    ran = {r.name for r in results if r.skipped is None}
    assert "blackjack: card × position" in ran
    if decks == 1:
        assert "blackjack: player's first two cards" in ran


def test_p_values_of_good_samples_are_uniform() -> None:
    """Over 120 seeded samples the pocket test's p-values look uniform (the chi-square law is the right one)."""
    ps = [
        by_name(roulette_tests(draw(f"seeded:{100 + s}", "roulette", 3_000).data), "roulette: pockets").p_value
        for s in range(120)
    ]
    assert stats.kstest(ps, "uniform").pvalue > 0.001


# -- biased samples fail -------------------------------------------------------------------------------------


def test_pocket_17_overrepresented_fails_uniformity() -> None:
    pockets = draw("seeded:3", "roulette", 50_000).data.copy()
    pockets[::60] = 17  # about 1.7% more 17s: 17 comes ~1.6 times as often as it should
    result = by_name(roulette_tests(pockets), "roulette: pockets")
    assert result.verdict(ALPHA) == "fail"
    z = result.detail["z"]
    assert isinstance(z, list) and int(np.argmax(z)) == 17 and z[17] > 10


def test_sticky_wheel_passes_pockets_but_fails_serial_pairs() -> None:
    """A wheel that repeats the last pocket 3% of the time: every pocket as likely, but not independent."""
    rng = np.random.default_rng(7)
    fresh = rng.integers(0, 37, 100_000)
    repeat = rng.random(100_000) < 0.03
    pockets = fresh.copy()
    for i in range(1, pockets.size):
        if repeat[i]:
            pockets[i] = pockets[i - 1]
    results = roulette_tests(pockets)
    assert by_name(results, "roulette: pockets").verdict(ALPHA) == "pass"
    assert by_name(results, "roulette: serial pairs").verdict(ALPHA) == "fail"
    assert overall(results, ALPHA) == "fail"


def test_loaded_dice_fail() -> None:
    rng = np.random.default_rng(11)
    p = np.array([0.16, 0.16, 0.16, 0.16, 0.16, 0.20])  # a six 20% of the time
    dice = rng.choice(np.arange(1, 7), size=(5_000, 3), p=p)
    results = sicbo_tests(dice)
    assert by_name(results, "sic bo: faces").verdict(ALPHA) == "fail"
    assert overall(results, ALPHA) == "fail"


def test_dice_that_never_repeat_the_first_die_fail_the_position_test() -> None:
    """Dice each fair on its own, but the second never shows the first's face: only the joint test sees it."""
    rng = np.random.default_rng(13)
    first = rng.integers(1, 7, 20_000)
    second = (first - 1 + rng.integers(1, 6, 20_000)) % 6 + 1
    third = rng.integers(1, 7, 20_000)
    results = sicbo_tests(np.column_stack([first, second, third]))
    assert by_name(results, "sic bo: faces").verdict(ALPHA) == "pass"
    assert by_name(results, "sic bo: ordered rolls").verdict(ALPHA) == "fail"


def test_sattolo_fails_the_position_tests() -> None:
    shoes = draw("broken:off-by-one-fisher-yates", "blackjack", 1_000, decks=1).data
    assert not np.any(shoes == np.arange(52))  # never a card in place
    results = blackjack_tests(shoes, 1)
    assert by_name(results, "blackjack: card × position").verdict(ALPHA) == "fail"
    assert by_name(results, "blackjack: cards left in place").verdict(ALPHA) == "fail"


def test_shoes_dealt_in_order_fail() -> None:
    shoes = np.tile(np.arange(52), (300, 1))
    assert overall(blackjack_tests(shoes, 1), ALPHA) == "fail"


def test_impossible_outcome_gives_p_zero() -> None:
    r = uniformity([10, 10, 1], [0.5, 0.5, 0.0], "two-sided coin")
    assert r.p_value == 0.0 and r.detail["impossible_outcomes"] == 1


# -- skipped with the reason ---------------------------------------------------------------------------------


def test_small_samples_are_skipped_with_their_reason() -> None:
    results = roulette_tests(draw("seeded:1", "roulette", 100).data)
    pockets = by_name(results, "roulette: pockets")
    assert pockets.p_value is None and pockets.verdict(ALPHA) == "skipped"
    assert pockets.skipped == "needs at least 185 outcomes (every expected count at least 5); got 100"
    pairs = by_name(results, "roulette: serial pairs")
    assert pairs.skipped is not None and "13,690 spins" in pairs.skipped and "got 100" in pairs.skipped
    coupon = by_name(results, "roulette: coupon collector")
    assert coupon.skipped is not None and "segment" in coupon.skipped


def test_small_blackjack_samples_still_test_something() -> None:
    results = blackjack_tests(draw("seeded:1", "blackjack", 40).data, 8)
    full = by_name(results, "blackjack: card × position")
    assert full.skipped is not None and "needs at least 260 shoes" in full.skipped and "got 40" in full.skipped
    coarse = by_name(results, "blackjack: card × position (8 groups")
    assert coarse.p_value is not None
    hands = by_name(results, "blackjack: player's first two cards")
    assert hands.skipped is not None and "shoes" in hands.skipped


def test_uniformity_reports_per_cell_deviations() -> None:
    r = uniformity([30, 10, 20], [1 / 3, 1 / 3, 1 / 3], "three")
    assert r.detail["counts"] == [30, 10, 20]
    assert r.detail["expected"] == pytest.approx([20, 20, 20])
    z = r.detail["z"]
    assert isinstance(z, list) and z[0] == pytest.approx(10 / np.sqrt(20 * 2 / 3))
    assert r.statistic == pytest.approx(10.0) and r.p_value == pytest.approx(np.exp(-5))
    with pytest.raises(ValueError, match="3 counts but 2 probabilities"):
        uniformity([1, 2, 3], [0.5, 0.5], "bad")
    with pytest.raises(ValueError, match="sum to 1"):
        uniformity([1, 2], [0.5, 0.6], "bad")


# -- exact probabilities -------------------------------------------------------------------------------------


def test_sicbo_combinations_by_enumeration() -> None:
    combos = sicbo_combination_probabilities()
    assert len(combos) == 56 and sum(combos.values()) == 1
    kinds = {len(set(c)): set() for c in combos}
    for c, p in combos.items():
        kinds[len(set(c))].add(p)
    assert kinds == {1: {Fraction(1, 216)}, 2: {Fraction(3, 216)}, 3: {Fraction(6, 216)}}
    assert sum(1 for c in combos if len(set(c)) == 1) == 6 and sum(1 for c in combos if len(set(c)) == 2) == 30


def test_sicbo_totals_by_enumeration() -> None:
    totals = sicbo_total_probabilities()
    counts = {t: sum(1 for r in product(range(1, 7), repeat=3) if sum(r) == t) for t in range(3, 19)}
    assert totals == {t: Fraction(c, 216) for t, c in counts.items()}
    assert totals[10] == totals[11] == Fraction(27, 216) and sum(totals.values()) == 1


@pytest.mark.parametrize("decks", [1, 2])
def test_first_two_cards_by_enumeration(decks: int) -> None:
    """Every ordered pair of distinct cards of the shoe, each equally likely, classified one by one."""
    cards = deck() * decks
    tally: dict[str, int] = {}
    for a, b in permutations(range(len(cards)), 2):
        ra, rb = a % 13, b % 13
        key = game._hand_category(ra, rb)
        tally[key] = tally.get(key, 0) + 1
    total = len(cards) * (len(cards) - 1)
    assert first_two_probabilities(decks) == {k: Fraction(v, total) for k, v in tally.items()}
    assert first_two_probabilities(1)["blackjack"] == Fraction(2 * 4 * 16, 52 * 51)
    assert first_two_probabilities(1)["pair A"] == Fraction(4 * 3, 52 * 51)
    assert [c.code for c in cards[:13]] == ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS",
                                            "KS"]  # fmt: skip


@pytest.mark.parametrize("d", [2, 6, 37])
def test_coupon_law_matches_a_markov_chain(d: int) -> None:
    """Stirling numbers against the chain 'how many distinct values seen so far', step by step."""
    longest = d + 8 * d
    law = coupon_probabilities(d, longest)
    assert sum(law) == pytest.approx(1.0, abs=1e-12)
    state = np.zeros(d + 1)
    state[0] = 1.0
    chain = []
    seen = np.arange(d)
    for _ in range(1, longest):  # chain[r - 1] = P(the d-th distinct value comes at the r-th draw)
        new = np.zeros(d + 1)
        new[1:] += state[:d] * (d - seen) / d  # a new value
        new[:d] += state[:d] * seen / d  # a value already seen
        chain.append(new[d])
        new[d] = 0.0
        state = new
    assert law[:-1] == pytest.approx(chain[d - 1 :], rel=1e-9, abs=1e-300)
    assert law[-1] == pytest.approx(1 - sum(chain), abs=1e-12)


def test_wald_wolfowitz_moments_by_enumeration() -> None:
    x = [1, 1, 2, 5, 5, 9, 13]
    sums = [sum(p[i] * p[(i + 1) % len(p)] for i in range(len(p))) for p in permutations(x)]
    mean, var = wald_wolfowitz_moments(x)
    assert mean == pytest.approx(np.mean(sums)) and var == pytest.approx(np.var(sums))


def test_cards_left_in_place_variance() -> None:
    """The exact variance used for cards left in place, against all orders of a 2-deck shoe of 3 cards."""
    d, kinds = 2, 3
    m = d * kinds
    hits = [sum(p[i] % kinds == i % kinds for i in range(m)) for p in permutations(range(m))]
    var = d + (d * (d - 1) ** 2 + (m - d) * d * d) / (m - 1) - d * d
    assert np.mean(hits) == pytest.approx(d) and np.var(hits) == pytest.approx(var)


# -- the dispatcher ------------------------------------------------------------------------------------------


def test_dispatcher_runs_each_game_and_reports_progress() -> None:
    seen: list[tuple[int, int]] = []
    sample = draw("seeded:4", "blackjack", 50, decks=2)
    results = run_game_tests("blackjack", sample, progress=lambda done, total: seen.append((done, total)))
    assert len(results) == len(seen) and seen[-1] == (len(results), len(results))
    assert all(r.family == "game" for r in results)
    assert run_game_tests("roulette", draw("seeded:1", "roulette", 500).data)[0].name == "roulette: pockets"
    with pytest.raises(ValueError, match="no game tests for 'baccarat'"):
        run_game_tests("baccarat", np.zeros(3))


def test_bad_values_are_refused() -> None:
    with pytest.raises(ValueError, match="37 is not a roulette pocket"):
        roulette_tests(np.array([1, 2, 37]))
    with pytest.raises(ValueError, match="0 is not a die face"):
        sicbo_tests(np.array([[1, 2, 0]]))
    shoe = np.arange(52)
    shoe[5] = 4
    with pytest.raises(ValueError, match="shoe 1 is not a shuffled shoe"):
        blackjack_tests(np.vstack([np.arange(52), shoe]), 1)


@pytest.mark.parametrize(("name", "n"), [("roulette", 800_000), ("sicbo", 3_000), ("blackjack", 1_000)])
def test_results_are_plain_json(name: str, n: int) -> None:
    for r in run_game_tests(name, draw("seeded:6", name, n, decks=1)):  # type: ignore[arg-type]
        json.dumps(r.to_json(ALPHA), allow_nan=False)
