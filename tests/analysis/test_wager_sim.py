"""The roulette and sic bo simulation (issue 15, croupier.analysis.wager_sim): nets settled by the engine agree with
``croupier odds``, simulated means lie near the exact edges, a seed means one result however the run is divided,
and the session and ruin figures agree with cases computed exactly by hand.

The exact session case: one even-money bet of 2 chips on red (RO 6, RO 7: wins with probability 18/37, nets +2 or
−2), a bankroll of 6 and 5 spins. Every one of the 2⁵ win/loss sequences is walked with the rule that a session
stops, ruined, before a spin whose stake its bankroll cannot cover; the probability of each sequence is
(18/37)^wins · (19/37)^losses, so ruin and each final result have exact Fraction probabilities.
"""

from __future__ import annotations

import itertools
import json
import math
import statistics
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from croupier.analysis import wager_sim as ws
from croupier.analysis.odds import roulette_placement
from croupier.errors import BetRejected, CroupierError, InvalidInput
from croupier.games import load_rules
from croupier.roulette import rules as roulette_rules
from croupier.roulette.bets import BET_TYPES as ROULETTE_TYPES
from support import invoke

ROULETTE = load_rules("roulette")
SICBO = load_rules("sicbo")


def _roulette_spec(rules: Any, bet_type: Any, amount: int) -> str:
    """The ``--bet`` text of croupier odds' representative placement of ``bet_type``."""
    place = roulette_placement(rules, bet_type)
    if "numbers" in place:
        return f"{bet_type.value}:{'-'.join(str(n) for n in place['numbers'])}={amount}"
    if "index" in place:
        return f"{bet_type.value}:{place['index']}={amount}"
    return f"{bet_type.value}={amount}"


def _sicbo_spec(name: str, amount: int) -> str:
    """The ``--bet`` text of croupier odds' sic bo row ``name`` (single and triple on face 1, totals one by one)."""
    if name.startswith("total_"):
        return f"total:{name.removeprefix('total_')}={amount}"
    if name in ("single", "triple"):
        return f"{name}:1={amount}"
    return f"{name}={amount}"


def _odds_rows(game: str) -> list[dict[str, Any]]:
    result = invoke("odds", game, "--json")
    assert result.exit_code == 0, result.output
    rows: list[dict[str, Any]] = json.loads(result.stdout)["bets"]
    return rows


@pytest.mark.parametrize("game", ["roulette", "sicbo"])
def test_enumeration_agrees_with_croupier_odds_for_every_bet(game: str) -> None:
    rows = _odds_rows(game)
    if game == "roulette":
        specs = [_roulette_spec(ROULETTE, t, 2) for t in ROULETTE_TYPES]
    else:
        specs = [_sicbo_spec(row["bet"], 2) for row in rows]
    bets = ws.stake_bets(game, ROULETTE if game == "roulette" else SICBO, specs)
    assert len(bets) == len(rows) == len(specs)
    for bet, row in zip(bets, rows, strict=True):
        assert len(bet.nets) == (37 if game == "roulette" else 216)
        assert str(bet.house_edge) == row["house_edge"], bet.spec
        assert str(bet.hit_frequency) == row["win_probability"], bet.spec
        assert round(bet.sd, 4) == row["sd"], bet.spec


def test_enumeration_follows_the_rules_paytable_and_the_engines_rounding() -> None:
    # Outside the statute: straight-up at 35/2 to 1. The engine pays whole chips, rounding down (roulette.bets.net):
    # a stake of 3 wins floor(3 · 35/2) = 52 on one pocket and loses 3 on 36, so the edge per unit is
    # (36 · 3 − 52)/(3 · 37) = 56/111; a stake of 2 wins exactly 35: (36 · 2 − 35)/(2 · 37) = 37/74 = 1/2.
    rules = roulette_rules.load({"paytables": {"straight": "35/2"}})
    (bet,) = ws.stake_bets("roulette", rules, ["straight:17=3"])
    assert bet.nets[17] == 52
    assert [n for p, n in enumerate(bet.nets) if p != 17] == [-3] * 36
    assert bet.house_edge == Fraction(56, 111)
    (even,) = ws.stake_bets("roulette", rules, ["straight:17=2"])
    assert even.nets[17] == 35 and even.house_edge == Fraction(1, 2)


def test_nets_are_the_engines_settlement_of_each_result() -> None:
    red, zero = ws.stake_bets("roulette", ROULETTE, ["red=4", "straight:0=2"])
    assert red.nets[0] == -4 and red.nets[1] == 4 and red.nets[2] == -4  # RO 8: zero loses red; 1 red, 2 black
    assert zero.nets[0] == 70 and set(zero.nets[1:]) == {-2}
    big, triple = ws.stake_bets("sicbo", SICBO, ["big=2", "triple:6=2"])
    rolls = ws.GAMES["sicbo"].outcomes
    assert big.nets[rolls.index((6, 6, 6))] == -2  # SB 7: a triple loses big
    assert big.nets[rolls.index((6, 6, 5))] == 2
    assert triple.nets[rolls.index((6, 6, 6))] == 300
    assert triple.placement == "triple 6"


def _exact_means_check(report: ws.WagerSimReport) -> None:
    for b in report.bets:
        assert b.simulated.spins == report.spins_drawn
        assert abs(b.simulated.mean - float(b.bet.ev)) < 4 * b.simulated.se, (b.bet.spec, b.simulated)
        assert b.simulated.sd == pytest.approx(b.bet.sd, rel=0.05)
    assert abs(report.combined.mean + float(report.house_edge)) < 4 * report.combined.se


def test_simulated_means_lie_within_four_standard_errors_of_the_exact_edges() -> None:
    bets = ["red=2", "split:0-3=2", "dozen:2=4", "nine:1-2-3-4-5-6-7-8-9=2", "twelve_special:B=2"]
    _exact_means_check(ws.simulate("roulette", ROULETTE, bets, spins=200, sessions=1000, seed=2024))
    bets = ["small=2", "single:4=2", "any_triple=2", "total:9=2", "triple:2=2"]
    _exact_means_check(ws.simulate("sicbo", SICBO, bets, spins=200, sessions=1000, seed=2024))


def test_same_seed_same_result_whatever_the_chunk_size() -> None:
    planned = ws.plan("roulette", ROULETTE, ["straight:0=2", "red=2"], spins=600, sessions=700, bankroll=40, seed=9)
    results = [ws.WagerSimulation(planned, chunk_sessions=c).run() for c in (1, 256, 300, 512, 10**6)]
    first = results[0]
    assert first.sessions is not None and first.sessions.ruined > 0  # ruin, paths and tiles all take part
    for other in results[1:]:
        assert (other.bets, other.combined, other.sessions, other.fan, other.hold) == (
            first.bets,
            first.combined,
            first.sessions,
            first.fan,
            first.hold,
        )
    again = ws.plan("roulette", ROULETTE, ["straight:0=2", "red=2"], spins=600, sessions=700, bankroll=40, seed=10)
    assert ws.WagerSimulation(again).run().sessions != first.sessions


def _walk_red(bankroll: int, spins: int, stake: int) -> tuple[Fraction, dict[int, Fraction]]:
    """P(ruin) and the distribution of the result, by walking every win/loss sequence (see the module docstring)."""
    win = Fraction(18, 37)
    ruin = Fraction(0)
    results: dict[int, Fraction] = {}
    for sequence in itertools.product((True, False), repeat=spins):
        p = math.prod((win if w else 1 - win) for w in sequence)
        money, ruined = bankroll, False
        for w in sequence:
            if money < stake:
                ruined = True
                break
            money += stake if w else -stake
        ruin += p if ruined else 0
        results[money - bankroll] = results.get(money - bankroll, Fraction(0)) + p
    return ruin, results


def test_ruin_and_session_results_agree_with_the_exact_walk() -> None:
    ruin, results = _walk_red(6, 5, 2)
    exact = ws.exact_sessions(ws.stake_bets("roulette", ROULETTE, ["red=2"])[0].nets, 2, 6, 5)
    assert exact is not None
    assert exact.ruined == pytest.approx(float(ruin), abs=1e-12)
    assert exact.mean == pytest.approx(float(sum(v * p for v, p in results.items())), abs=1e-12)
    assert exact.ahead == pytest.approx(float(sum(p for v, p in results.items() if v > 0)), abs=1e-12)
    assert exact.even == pytest.approx(float(results.get(0, 0)), abs=1e-12)

    k = 20_000
    report = ws.simulate("roulette", ROULETTE, ["red=2"], spins=5, sessions=k, bankroll=6, seed=77)
    s = report.sessions
    assert s is not None and s.exact == exact
    assert abs(s.ruined - float(ruin)) < 4 * math.sqrt(float(ruin * (1 - ruin)) / k)
    counts = dict(s.histogram)
    assert set(counts) <= set(results)
    for value, p in results.items():
        share = counts.get(value, 0) / k
        assert abs(share - float(p)) < 4 * math.sqrt(float(p * (1 - p)) / k) + 1e-9, value
    # A ruined session stopped before a spin: it played fewer than 5, and only ruin shortens a session.
    assert s.mean_spins_played < 5
    assert s.wagered == round(s.mean_spins_played * k) * 2
    assert s.house_win == -sum(v * c for v, c in s.histogram)


def test_without_possible_ruin_the_result_is_binomial() -> None:
    # 10 spins of 2 on red from 20 chips can never be ruined: the result is 2(2W − 10), W ~ Binomial(10, 18/37).
    report = ws.simulate("roulette", ROULETTE, ["red=2"], spins=10, sessions=4000, bankroll=20, seed=5)
    s = report.sessions
    assert s is not None and s.ruined == 0 and s.exact is not None and s.exact.ruined == 0
    p = 18 / 37
    assert s.exact.mean == pytest.approx(10 * (2 * p - 1) * 2)
    assert s.exact.sd == pytest.approx(4 * math.sqrt(10 * p * (1 - p)))
    ahead = sum(math.comb(10, w) * p**w * (1 - p) ** (10 - w) for w in range(6, 11))
    assert s.exact.ahead == pytest.approx(ahead)
    assert abs(s.ahead - ahead) < 4 * math.sqrt(ahead * (1 - ahead) / 4000)
    assert all(v % 4 == 0 for v, _ in s.histogram)  # results move in steps of two stakes


def test_fan_bands_and_paths() -> None:
    report = ws.simulate("roulette", ROULETTE, ["straight:7=2"], spins=60, sessions=500, bankroll=30, seed=3)
    fan, s = report.fan, report.sessions
    assert fan is not None and s is not None
    assert fan.spins == tuple(range(61)) and fan.sessions == 500
    assert len(fan.examples) == ws.EXAMPLE_PATHS
    bands = dict(fan.bands)
    finals = dict(s.percentiles)
    for q in (5, 25, 50, 75, 95):  # every session is in the fan: its last column is the final bankroll
        assert bands[q][-1] == finals[q] + 30
        assert bands[q][0] == 30
    assert all(bands[5][i] <= bands[50][i] <= bands[95][i] for i in range(61))
    for path in fan.examples:
        steps = np.diff(path)
        assert set(steps) <= {-2, 70, 0}
        # A session that cannot stake its next spin stays where it stopped, to the end.
        for i, money in enumerate(path[:-1]):
            if money < 2:
                assert set(path[i:]) == {money}


def test_the_hold_spread_narrows_and_matches_the_normal_approximation() -> None:
    planned = ws.plan("sicbo", SICBO, ["big=2", "total:10=2"], seed=1, hold_samples=4000)
    spread = ws.hold_spread(planned)
    assert [h.spins for h in spread] == list(ws.HOLD_SPINS)
    edge = (Fraction(1, 36) + Fraction(1, 8)) / 2
    sd = statistics.pstdev(planned.nets) / planned.stakes  # one roll's SD per unit staked
    for h in spread:
        assert h.mean == edge
        assert h.sd == pytest.approx(sd / math.sqrt(h.spins))
        assert h.simulated[0] < h.simulated[1] < float(edge) < h.simulated[2] < h.simulated[3]
        assert h.normal[1] == pytest.approx(float(edge) - 1.6448536 * h.sd)
    widths = [h.simulated[2] - h.simulated[1] for h in spread]
    assert all(a > b * 2.5 for a, b in itertools.pairwise(widths))  # about √10 ≈ 3.16 from one N to the next
    big = spread[-1]  # a million rolls: the simulated 5-95% range is the normal one to within sampling error
    assert big.simulated[1] == pytest.approx(big.normal[1], abs=0.15 * big.sd)
    assert big.simulated[2] == pytest.approx(big.normal[2], abs=0.15 * big.sd)
    assert ws.hold_spread(planned) == spread


def test_an_interrupted_run_reports_what_it_completed() -> None:
    planned = ws.plan("sicbo", SICBO, ["big=2"], spins=100, sessions=3000, seed=4)
    sim = ws.WagerSimulation(planned, chunk_sessions=256)
    steps = sim.steps()
    first = next(steps)
    assert first.sessions_done == 256 and first.spins_drawn == 25_600 and first.spins_total == 300_000
    partial = sim.report()
    assert partial.partial and partial.sessions is not None and partial.sessions.sessions == 256
    assert partial.bets[0].simulated.spins == 25_600
    for _ in steps:
        pass
    done = sim.report()
    assert not done.partial and done.sessions is not None and done.sessions.sessions == 3000
    whole = ws.WagerSimulation(planned).run()
    assert whole.sessions == done.sessions
    with pytest.raises(RuntimeError):
        next(sim.steps())


def test_the_json_is_plain_and_complete() -> None:
    report = ws.simulate("roulette", ROULETTE, None, spins=20, sessions=300, seed=8, source="preset statute")
    data = json.loads(json.dumps(report.to_json(), allow_nan=False))
    assert data["bets"][0]["bet"] == "red=2"  # the default: the table minimum on red
    assert data["bankroll"] == 100 and data["stakes_per_spin"] == 2
    assert data["combined"]["house_edge"] == "1/37"
    assert set(data["sessions"]["percentiles"]) == {"1", "5", "25", "50", "75", "95", "99"}
    assert all(isinstance(v, int) for v in data["sessions"]["percentiles"].values())
    assert [h["spins"] for h in data["hold"]] == [1000, 10_000, 100_000, 1_000_000]
    assert data["speed"]["spins_drawn"] == 6000 and data["rules"] == "preset statute"
    assert sum(data["sessions"]["histogram"]["sessions"]) == 300


def test_exact_sessions_are_left_out_when_too_large() -> None:
    nets = ws.stake_bets("roulette", ROULETTE, ["straight:1=2"])[0].nets
    assert ws.exact_sessions(nets, 2, 100, 100) is not None
    assert ws.exact_sessions(nets, 2, 100, 100_000) is None


@pytest.mark.parametrize(
    ("game", "kwargs", "error", "named"),
    [
        ("roulette", {"bets": ["nope=2"]}, BetRejected, "'nope'"),
        ("roulette", {"bets": ["straight:37=2"]}, BetRejected, "[37]"),
        ("roulette", {"bets": ["corner:1-2-3-5=2"]}, BetRejected, "[1, 2, 3, 5]"),
        ("roulette", {"bets": ["red=0"]}, BetRejected, "0 is not a positive amount"),
        ("roulette", {"bets": ["red=2.5"]}, InvalidInput, "'2.5'"),
        ("roulette", {"bets": ["red"]}, InvalidInput, "'red'"),
        ("sicbo", {"bets": ["total:18=2"]}, BetRejected, "18"),
        ("sicbo", {"bets": ["triple=2"]}, InvalidInput, "'triple=2'"),
        ("roulette", {"spins": 0}, InvalidInput, "spins 0"),
        ("roulette", {"sessions": -5}, InvalidInput, "sessions -5"),
        ("roulette", {"bankroll": 1}, InvalidInput, "bankroll 1"),
        ("roulette", {"seed": -2}, InvalidInput, "seed -2"),
        ("blackjack", {}, ValueError, "'blackjack'"),
    ],
)
def test_bad_input_names_the_value(game: str, kwargs: dict[str, Any], error: type[Exception], named: str) -> None:
    rules = SICBO if game == "sicbo" else ROULETTE
    with pytest.raises(error) as info:
        ws.plan(game, rules, **kwargs)
    assert named in str(info.value)
    if isinstance(info.value, CroupierError) and "bets" in kwargs and info.value.rule:
        assert info.value.rule in str(info.value)
