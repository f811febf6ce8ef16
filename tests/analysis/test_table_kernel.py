"""The table kernel (issue 15) agrees with the engine card for card at a whole table: three boxes dealt in
BJ 5.2's order (the general round, not the single-box one), the counted box insuring every time it is offered
(BJ 12) while the others decline, and every side bet of BJ 13 settled on the boxes' cards (BJ 14) — over rule
configurations that take every value of every option the kernel reads (those of ``test_simulate``), with three
charts, on stacked shoe orders.

Also the generator: xoshiro256++ against its authors' reference output, and Lemire's bounded draws uniform.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from scipy import stats
from tests.analysis.test_simulate import CONFIGS, aggressive_chart, random_chart, stacked_order

from croupier.analysis import _sim_kernels as sk
from croupier.analysis.chart import Chart
from croupier.analysis.simulate import (
    CARDS,
    STAKE,
    basic_chart,
    encode_chart,
    encode_sides,
    engine_answer,
    play_table_orders,
    shoe_codes,
    stream,
)
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import BlackjackRules, BurnAfterShuffle, SideBet
from croupier.blackjack.table import BlackjackTable
from croupier.primitives.chance import ScriptedSource

BOXES = 3
ORDERS = 120
SIDE_ON = {1: ("any_pair", "sevens", "perfect_pairs", "over_13"), 2: ("under_13",)}
"""The side bets placed on each box (box numbers from 1): one table with every side bet of BJ 13."""


def _rules(base: BlackjackRules) -> BlackjackRules:
    """The configuration with every side bet offered, several on one box."""
    from dataclasses import replace

    every = frozenset({SideBet.ANY_PAIR, SideBet.SEVENS, SideBet.OVER_UNDER_13, SideBet.PERFECT_PAIRS})
    return replace(base, side_bets_offered=every, one_side_bet_per_box=False)


def _insuring(chart: Chart) -> np.ndarray:
    """The chart's table with insurance always taken (the counted box)."""
    table = encode_chart(chart)
    table[sk.T_INS, 1] = 1
    return table


def _engine(rules: BlackjackRules, chart: Chart, order: np.ndarray, burns: int, unit: int) -> list[dict[str, int]]:
    """The engine's nets by box: main, insurance and each side bet placed there."""
    source = ScriptedSource(cards=[CARDS[c] for c in order])
    table = BlackjackTable(rules, source)
    rnd = table.open_round()
    for box in range(1, BOXES + 1):
        rnd.place_bet(box, f"p{box}", main=STAKE, side={key: unit for key in SIDE_ON.get(box, ())})
    rnd.close_betting()
    answer = engine_answer(chart)

    def act(r: BlackjackRound) -> None:
        q = r.pending
        assert q is not None
        if q.kind == "offer" and q.box == 1 and "insurance" in q.actions:
            r.act("insurance", amount=STAKE // 2)
        else:
            r.act(answer(r, q))

    while rnd.pending is not None:
        act(rnd)
    s = rnd.settlement
    assert s is not None
    out: list[dict[str, int]] = [{} for _ in range(BOXES)]
    for o in s.outcomes:
        kind = "main" if o.kind == "main" else o.kind
        out[o.box - 1][kind] = out[o.box - 1].get(kind, 0) + o.net
    return out


@pytest.mark.parametrize("index", range(0, len(CONFIGS), 2))
def test_three_boxes_insurance_and_side_bets_agree_with_the_engine(index: int) -> None:
    rules = _rules(CONFIGS[index])
    rng = np.random.default_rng(500 + index)
    burns = rules.decks if rules.burn_after_shuffle is BurnAfterShuffle.PER_DECK else 1
    shoe = shoe_codes(rules)
    unit = int(encode_sides(rules)[sk.SP_STAKE])
    mismatches = []
    insured = sides_won = 0
    for name, chart in (("basic", basic_chart()), ("aggressive", aggressive_chart()), ("random", random_chart(index))):
        orders = np.array([stacked_order(rng, shoe, burns) for _ in range(ORDERS)])
        kernel = play_table_orders(rules, _insuring(chart), orders[:, burns:], boxes=BOXES, others=encode_chart(chart))
        for order, row in zip(orders, kernel, strict=True):
            eng = _engine(rules, chart, order, burns, unit)
            ours: list[dict[str, int]] = []
            for b in range(BOXES):
                net, _result, _used, failed, _paths, ins, *sides = (int(x) for x in row[b])
                assert not failed
                got = {"main": net}
                if ins:
                    got["insurance"] = ins
                    insured += 1
                for key in SIDE_ON.get(b + 1, ()):
                    got[key] = sides[sk.SIDE_KEYS.index(key)]
                    sides_won += got[key] > 0
                ours.append(got)
            if ours != eng:
                mismatches.append((name, " ".join(str(CARDS[c]) for c in order[: burns + 24]), ours, eng))
    assert not mismatches, f"{len(mismatches)} rounds differ under {rules!r}; the first: {mismatches[:2]}"
    assert insured > 0 and sides_won > 0


def test_the_side_bet_unit_makes_every_payment_whole() -> None:
    rules = BlackjackRules()
    sp = encode_sides(rules)
    unit = int(sp[sk.SP_STAKE])
    assert unit % STAKE == 0
    assert Fraction(int(sp[sk.SP_ANY_PAIR]), unit) == rules.paytables.any_pair


# -- the generator -------------------------------------------------------------------------------------------


def test_xoshiro256pp_matches_its_reference_output() -> None:
    # The reference C code (prng.di.unimi.it/xoshiro256plusplus.c) from the state 1, 2, 3, 4 gives these first
    # outputs (computed with the reference formula in plain Python, 64-bit wrapping).
    def reference(state: list[int], n: int) -> list[int]:
        mask = 2**64 - 1
        s = list(state)
        out = []
        for _ in range(n):
            x = (s[0] + s[3]) & mask
            out.append((((x << 23) | (x >> 41)) + s[0]) & mask)
            t = (s[1] << 17) & mask
            s[2] ^= s[0]
            s[3] ^= s[1]
            s[1] ^= s[2]
            s[0] ^= s[3]
            s[2] ^= t
            s[3] = ((s[3] << 45) | (s[3] >> 19)) & mask
        return out

    state = np.array([1, 2, 3, 4], np.uint64)
    got = np.zeros(8, np.uint64)
    sk._raw64(state.copy(), 8, got)
    assert [int(x) for x in got] == reference([1, 2, 3, 4], 8)
    assert int(got[0]) == 41943041  # the reference code's first output from 1, 2, 3, 4


@pytest.mark.parametrize("bound", [2, 3, 37, 312, 416, 2**31 + 11])
def test_lemire_draws_are_uniform(bound: int) -> None:
    n = 200_000
    out = np.zeros(n, np.int64)
    sk._uniform_draws(stream(12, 0), n, bound, out)
    assert out.min() >= 0 and out.max() < bound
    if bound <= 416:
        counts = np.bincount(out, minlength=bound)
        assert stats.chisquare(counts).pvalue > 1e-4
    else:  # too many cells: the top and bottom halves and the mean
        assert abs(out.mean() / bound - 0.5) < 0.005


def test_streams_of_blocks_differ_and_repeat() -> None:
    assert not np.array_equal(stream(1, 0), stream(1, 1))
    assert np.array_equal(stream(1, 5), stream(1, 5))
    assert not np.array_equal(stream(1, 0), stream(2, 0))
