"""The Monte Carlo kernel (:mod:`croupier.analysis.simulate`) agrees with the engine card for card, and its
simulations are right in the mean and show no serial dependence (issue 4).

The agreement test plays the same shoe orders through the kernel and through the engine (a scripted shoe,
every question answered by :func:`engine_answer`), over rule configurations that together take every value of
every option the kernel reads, with three charts: a textbook one, an aggressive one that splits everything,
doubles, surrenders and claims wherever it can, and a random one. Orders are full shuffled shoes of one or two
decks, most of them stacked to force pairs, aces, ten-values, low cards (five-card hands) and sixes to eights
(the special bonus) to the front. The table's burns before the round are the first cards of the script; the
kernel gets the rest.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from scipy import stats

from croupier.analysis.basic_strategy import basic_strategy
from croupier.analysis.ca import Analyser, chart_value
from croupier.analysis.chart import DOUBLE_HIT, DOUBLE_STAND, HIT, STAND, Chart
from croupier.analysis.simulate import (
    CARDS,
    PATH_NAMES,
    RESULTS,
    STAKE,
    basic_chart,
    card_code,
    engine_answer,
    play_cards,
    play_orders,
    shoe_codes,
    simulate,
    simulate_shoe,
)
from croupier.blackjack.rules import (
    MACAU_TYPICAL,
    BlackjackRules,
    BurnAfterShuffle,
    BustedStakes,
    DealerSoft17,
    DealingDevice,
    DoubleOn,
    SplitPairBy,
)
from croupier.blackjack.table import BlackjackTable
from croupier.primitives.cards import deck, parse_card
from croupier.primitives.chance import ScriptedSource

# -- rule configurations ------------------------------------------------------------------------------------

OPTIONS: dict[str, list[Any]] = {
    "procedure": [1, 2, 3],
    "peek": [True, False],
    "dealer_soft_17": list(DealerSoft17),
    "double_on": list(DoubleOn),
    "double_after_split": [True, False],
    "max_split_hands": [2, 4, 5, None],
    "resplit_aces": [True, False],
    "split_pair_by": list(SplitPairBy),
    "split_after_declining": [False, True],
    "surrender": [True, False],
    "five_card_payment": [True, False],
    "special_bonus": [True, False],
    "busted_stakes_on_dealer_blackjack": list(BustedStakes),
    "even_money_on_ten": [True, False],
    "lose_original_only_on_double": [True, False],
    "burn_after_shuffle": list(BurnAfterShuffle),
    "burn_before_dealer_second_card": [False, True],
    "dealing_device": [DealingDevice.SHOE, DealingDevice.SHUFFLER, DealingDevice.SHOE, DealingDevice.DEALING_BOX],
    "decks": [1, 2],
}
N_CONFIGS = 24
ORDERS_PER_CHART = 300


def configurations() -> list[BlackjackRules]:
    """``N_CONFIGS`` rule sets: option values in rotation (each option by its own stride, so that values
    meet in many combinations), every value of every option in at least one of them."""
    rng = np.random.default_rng(20240611)
    out = []
    for k in range(N_CONFIGS):
        opts = {name: values[(k + int(rng.integers(len(values)))) % len(values)] for name, values in OPTIONS.items()}
        opts["procedure"] = OPTIONS["procedure"][k % 3]
        if opts["dealing_device"] is DealingDevice.DEALING_BOX:
            opts["decks"] = 1
        out.append(BlackjackRules(**opts))
    return out


CONFIGS = configurations()


def test_the_configurations_take_every_value() -> None:
    for name, values in OPTIONS.items():
        taken = {getattr(r, name) for r in CONFIGS}
        assert set(values) <= taken, name
    assert {r.split_hands_limit for r in CONFIGS} >= {2, 4, 5}
    assert {(r.has_hole_card, r.dealer_peeks) for r in CONFIGS} == {(False, False), (True, False), (True, True)}


# -- charts -------------------------------------------------------------------------------------------------


def aggressive_chart() -> Chart:
    """Splits every pair, doubles wherever it may (standing doubles on hard and soft 17-18), hits hard 12-16
    for five-card hands, surrenders hard 14-16 and some pairs against 9 and ten, claims every five-card hand
    and takes every even money."""
    hard = np.full((22, 11), HIT, np.int8)
    soft = np.full((22, 11), HIT, np.int8)
    for up in range(1, 11):
        hard[9:12, up] = DOUBLE_HIT
        hard[17:19, up] = DOUBLE_STAND if up % 2 else STAND
        soft[13:18, up] = DOUBLE_HIT if up % 2 == 0 else HIT
        soft[18, up] = DOUBLE_STAND
    hard[19:22] = STAND
    soft[19:22] = STAND
    sur_hard = np.zeros((22, 11), np.bool_)
    sur_hard[14:17, 9:11] = True
    sur_soft = np.zeros((22, 11), np.bool_)
    sur_soft[15, 10] = True
    sur_pair = np.zeros((11, 11), np.bool_)
    sur_pair[(5, 8), 10] = True
    return Chart(
        hard=hard,
        soft=soft,
        split=np.ones((11, 11), np.bool_),
        surrender_hard=sur_hard,
        surrender_soft=sur_soft,
        surrender_pair=sur_pair,
        five_card=np.full(11, 21, np.int8),
        even_money=np.ones(11, np.bool_),
    )


def random_chart(seed: int) -> Chart:
    """Every entry at random."""
    rng = np.random.default_rng(seed)
    return Chart(
        hard=rng.integers(0, 4, (22, 11)).astype(np.int8),
        soft=rng.integers(0, 4, (22, 11)).astype(np.int8),
        split=rng.random((11, 11)) < 0.5,
        surrender_hard=rng.random((22, 11)) < 0.2,
        surrender_soft=rng.random((22, 11)) < 0.2,
        surrender_pair=rng.random((11, 11)) < 0.2,
        five_card=rng.integers(0, 22, 11).astype(np.int8),
        even_money=rng.random(11) < 0.5,
    )


# -- shoe orders --------------------------------------------------------------------------------------------

THEMES = ("uniform", "pair", "aces", "tens", "low", "bonus")
WEIGHTS = (0.15, 0.25, 0.1, 0.15, 0.15, 0.2)


def _forward(rng: np.random.Generator, order: np.ndarray, chosen: np.ndarray, p: float) -> np.ndarray:
    """Move the chosen cards of ``order`` towards the front: each next card is a chosen one with chance ``p``."""
    picked, others = list(order[chosen]), list(order[~chosen])
    out = []
    while picked:
        out.append(picked.pop() if rng.random() < p or not others else others.pop())
    return np.array(out + others[::-1], np.int64)


def stacked_order(rng: np.random.Generator, shoe: np.ndarray, burns: int) -> np.ndarray:
    """A shuffled shoe, stacked by a theme drawn at random (``burns`` cards are burned before the deal)."""
    order = rng.permutation(shoe)
    ranks, suits = order >> 2, order & 3
    theme = THEMES[rng.choice(len(THEMES), p=WEIGHTS)]
    if theme == "uniform":
        return order
    if theme == "pair":
        rank = int(rng.integers(13)) if rng.random() < 0.8 else 6
        order = _forward(rng, order, ranks == rank, 0.45)
        # the box's two cards (the first and third dealt) of that rank
        targets = (burns, burns + 2)
        sources = [int(x) for x in np.flatnonzero((order >> 2) == rank) if x not in targets]
        for pos in targets:
            if order[pos] >> 2 != rank:
                src = sources.pop(0)
                order[[pos, src]] = order[[src, pos]]
        return order
    if theme == "aces":
        return _forward(rng, order, ranks == 0, 0.8)
    if theme == "tens":
        return _forward(rng, order, (ranks == 0) | (ranks >= 9), 0.75)
    if theme == "low":
        return _forward(rng, order, ranks <= 4, 0.85)
    suit = int(rng.integers(4))
    return _forward(rng, order, ((ranks >= 5) & (ranks <= 7) & (suits == suit)) | (ranks == 6), 0.85)


# -- the engine's side --------------------------------------------------------------------------------------


STATUS_PATHS = {"surrendered": "surrender", "five_card": "five_card", "special_bonus": "special_bonus"}
STATUS_PATHS |= {"even_money": "even_money", "doubled": "double"}


@dataclass
class EngineRound:
    net: int
    result: str
    used: int
    paths: set[str]


def engine_round(rules: BlackjackRules, chart: Chart, order: np.ndarray, burns: int) -> EngineRound:
    """One round played by the engine from a scripted shoe, ``burns`` cards burned before it."""
    source = ScriptedSource(cards=[CARDS[c] for c in order])
    table = BlackjackTable(rules, source)
    rnd = table.open_round()
    rnd.place_bet(1, "p", main=STAKE)
    rnd.close_betting()
    answer = engine_answer(chart)
    while (q := rnd.pending) is not None:
        rnd.act(answer(rnd, q))
    s = rnd.settlement
    assert s is not None
    box = s.boxes[0]
    statuses = {h.status for h in box.hands}
    paths = {STATUS_PATHS[status] for status in statuses if status in STATUS_PATHS}
    if len(box.hands) >= 2:
        paths.add("split")
    if len(box.hands) >= 3:
        paths.add("resplit")
    if statuses & {"blackjack", "even_money"}:
        paths.add("blackjack")
    if s.dealer_blackjack:
        paths.add("dealer_blackjack")
    return EngineRound(s.players()["p"], box.result, len(order) - source.cards_left - burns, paths)


CHECKED_PATHS = {"split", "resplit", "surrender", "five_card", "special_bonus", "even_money", "blackjack"}
CHECKED_PATHS |= {"dealer_blackjack"}


def expected_paths(rules: BlackjackRules) -> set[str]:
    """What a configuration's rounds must go through, over all three charts."""
    out = {"split", "double", "blackjack", "dealer_blackjack", "even_money"}
    if not rules.dealer_peeks:
        out.add("original_bet_only")
    if rules.split_hands_limit >= 3:
        out.add("resplit")
    if rules.surrender:
        out.add("surrender")
    if rules.five_card_payment:
        out.add("five_card")
    if rules.special_bonus:
        out.add("special_bonus")
    if rules.dealer_peeks:
        out.add("peeked_blackjack")
    if not rules.has_hole_card:
        out.add("dealer_second_card_skipped")
    return out


@pytest.mark.parametrize("index", range(N_CONFIGS))
def test_the_kernel_agrees_with_the_engine_card_for_card(index: int) -> None:
    rules = CONFIGS[index]
    rng = np.random.default_rng(1000 + index)
    burns = rules.decks if rules.burn_after_shuffle is BurnAfterShuffle.PER_DECK else 1
    shoe = shoe_codes(rules)
    seen: Counter[str] = Counter()
    mismatches = []
    for name, chart in (("basic", basic_chart()), ("aggressive", aggressive_chart()), ("random", random_chart(index))):
        orders = np.array([stacked_order(rng, shoe, burns) for _ in range(ORDERS_PER_CHART)])
        kernel = play_orders(rules, chart, orders[:, burns:])
        for order, (net, result, used, failed, flags) in zip(orders, kernel, strict=True):
            assert not failed
            paths = {p for bit, p in enumerate(PATH_NAMES) if int(flags) >> bit & 1}
            seen.update(paths)
            eng = engine_round(rules, chart, order, burns)
            ours = EngineRound(int(net), RESULTS[result], int(used), paths & CHECKED_PATHS)
            engine_view = EngineRound(eng.net, eng.result, eng.used, eng.paths - {"double"})
            if ours != engine_view or not eng.paths <= paths:
                mismatches.append((name, " ".join(str(CARDS[c]) for c in order[: burns + 20]), ours, eng))
    assert not mismatches, f"{len(mismatches)} rounds differ under {rules!r}; the first: {mismatches[:3]}"
    missing = expected_paths(rules) - set(seen)
    assert not missing, f"no round went through {sorted(missing)} (seen {dict(seen)})"


# -- play_cards by hand ------------------------------------------------------------------------------------


def cards(text: str) -> list[Any]:
    return [parse_card(c) for c in text.split()]


NO_FRILLS = dict(surrender=False, five_card_payment=False, special_bonus=False)


@pytest.mark.parametrize(
    ("options", "deal", "net", "result", "used"),
    [
        # box T 9 against a 6 (procedure 1: the dealer's second card after play): 16 draws a 5 to 21
        ({}, "TS 6H 9D TC 5C", -1, "loss", 5),
        # blackjack against a 9: the dealer's second card is still dealt, a stake being open
        ({}, "AS 9H KD 2C", "3/2", "win", 4),
        # 6♠ 7♠ against a 7 hits an 8♠: the special bonus (BJ 15) pays 3 at once, the dealer deals nothing more
        ({}, "6S 7H 7S 8S", 3, "win", 4),
        # hard 16 against a ten surrendered (BJ 18): half the stake, a loss for the streak
        ({}, "TS TH 6D", "-1/2", "loss", 3),
        # procedure 3, 8s split against a 6 (hole card 5): 8+3 doubled to 21, 8+2 doubled to 19; dealer 21
        ({"procedure": 3, **NO_FRILLS}, "8S 6H 8D 5C 3H TS 2C 9H TD", -2, "loss", 9),
        # procedure 1, 11 doubled against a ten, the dealer's blackjack found at the end: the original bet only
        (NO_FRILLS, "6S TH 5D 4C AC", -1, "loss", 5),
        # five cards of 17 against a 9: claimed for half the stake (BJ 19); the dealer deals nothing more
        ({}, "2S 9H 3D 2C 4H 6C", "1/2", "win", 6),
    ],
)
def test_play_cards_by_hand(options: dict[str, Any], deal: str, net: object, result: str, used: int) -> None:
    rules = BlackjackRules(decks=2, **options)
    out = play_cards(rules, basic_chart(), cards(deal))
    assert (out.net, out.result, out.cards_used) == (Fraction(str(net)), result, used)
    order = np.array([card_code(c) for c in cards("2H " + deal)])
    eng = engine_round(rules, basic_chart(), order, 1)
    assert (Fraction(eng.net, STAKE), eng.result, eng.used) == (out.net, out.result, out.cards_used)


def test_play_cards_needs_enough_cards() -> None:
    with pytest.raises(ValueError, match="not enough"):
        play_cards(BlackjackRules(), basic_chart(), cards("TS 6H"))


def test_card_codes_round_trip() -> None:
    assert [card_code(c) for c in CARDS] == list(range(52))


# -- simulations --------------------------------------------------------------------------------------------


def test_simulate_is_reproducible_whatever_the_chunks() -> None:
    rules = BlackjackRules(decks=6)
    calls: list[tuple[int, int]] = []
    a = simulate(rules, basic_chart(), 30_000, 7, progress=lambda d, n: calls.append((d, n)), chunk=7_000)
    b = simulate(rules, basic_chart(), 30_000, 7)
    assert a == b
    assert calls == [(7_000, 30_000), (14_000, 30_000), (21_000, 30_000), (28_000, 30_000), (30_000, 30_000)]
    assert a.wins + a.pushes + a.losses == a.rounds == a.shoes == 30_000
    assert sum(map(sum, a.transitions)) == 30_000 - 1
    assert a.mean == pytest.approx(a.net_sum / a.rounds)


def test_simulate_shoe_deals_to_the_cut_card() -> None:
    rules = BlackjackRules(decks=2, cards_behind_cut=40)
    out = simulate_shoe(rules, basic_chart(), 20_000, 3)
    # each shoe deals 104 - 40 cards and then finishes its round, one burn after each shuffle
    per_shoe = out.cards / out.shoes
    assert 64 - 1 <= per_shoe <= 64 + 12
    assert out.rounds == 20_000


def test_a_value_composition_builds_the_shoe() -> None:
    rules = BlackjackRules(decks=1)
    codes = shoe_codes(rules, [4, 4, 4, 4, 4, 4, 4, 4, 4, 16])
    assert sorted(codes) == list(range(52))
    out = simulate(rules, basic_chart(), 1_000, 1, composition=deck())
    assert out == simulate(rules, basic_chart(), 1_000, 1)


def without_ten_splits(chart: Chart) -> Chart:
    split = chart.split.copy()
    split[10] = False
    return replace(chart, split=split)


@pytest.mark.parametrize(
    ("rules", "chart"),
    [
        pytest.param(BlackjackRules(decks=6), basic_chart(), id="statute-6-decks-basic"),
        pytest.param(
            BlackjackRules(decks=6, procedure=3, dealer_soft_17=DealerSoft17.STAND, resplit_aces=False),
            basic_chart(),
            id="procedure-3-stand-soft-17-basic",
        ),
        pytest.param(
            BlackjackRules(decks=2, procedure=3), without_ten_splits(aggressive_chart()), id="2-decks-aggressive"
        ),
        pytest.param(BlackjackRules(decks=6), aggressive_chart(), id="ten-value-pairs-split-by-rank"),
    ],
)
def test_the_mean_agrees_with_the_exact_value(rules: BlackjackRules, chart: Chart) -> None:
    exact = chart_value(rules, chart)
    out = simulate(rules, chart, 2_000_000, 11)
    assert abs(out.mean - exact) < 3 * out.std_error, (out.mean, out.std_error, exact)


@pytest.mark.parametrize("rules", [MACAU_TYPICAL, BlackjackRules()], ids=["macau-typical", "statute"])
def test_ten_million_rounds_agree_with_the_combinatorial_analysis(rules: BlackjackRules) -> None:
    # Issue 4 check (b): the basic-strategy chart for the shoe, valued exactly by the CA, against 10,000,000
    # rounds of the kernel; and the chances of the box's result (the streak bet's input) the CA gives.
    analyser = Analyser(rules)
    chart = basic_strategy(rules, analyser=analyser)
    analysis = analyser.analyse(chart)
    out = simulate(rules, chart, 10_000_000, 2026)
    assert abs(out.mean - analysis.ev) < 3 * out.std_error, (out.mean, out.std_error, analysis.ev)
    results = analyser.results(analysis)
    for name, count in out.results.items():
        p = results[name]
        se = math.sqrt(p * (1 - p) / out.rounds)
        assert abs(count / out.rounds - p) < 3 * se, (name, count / out.rounds, p, se)


def test_streak_results_from_one_shoe_show_no_serial_dependence() -> None:
    out = simulate_shoe(BlackjackRules(decks=6), basic_chart(), 400_000, 5)
    table = np.array(out.transitions)
    _, p_value, _, _ = stats.chi2_contingency(table)
    assert p_value > 0.001, table


def test_a_shoe_that_runs_out_mid_round_is_restocked() -> None:
    # Two cards behind the cut card of one deck: the last round of a shoe often needs more than are left.
    rules = BlackjackRules(decks=1, cards_behind_cut=2)
    out = simulate_shoe(rules, aggressive_chart(), 20_000, 9)
    assert out.restocks > 0
    assert out.wins + out.pushes + out.losses == out.rounds
    assert out.shoes >= out.restocks
    fresh = simulate(rules, aggressive_chart(), 20_000, 9)
    assert abs(out.mean - fresh.mean) < 5 * (out.std_error + fresh.std_error)
