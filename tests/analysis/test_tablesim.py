"""The blackjack table simulation at scale (issue 15): the same seed gives the same result whatever the workers,
the chunks or Ray; Ctrl+C returns a consistent partial result; the figures follow their definitions (EV, SD,
SCORE, N0, DI, risk of ruin); and the whole table behaves as a table of seven boxes must (BJ 5.2, BJ 2.2).

The counted game of these tests is Hi-Lo with the example ramp (1-12 units, wonging out below -1, Over 13 from
a count of 3), the Illustrious 18 and the Fab 4, on the second of two boxes, with every side bet settled.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from scipy import stats

from croupier.analysis import _sim_kernels as sk
from croupier.analysis import counting
from croupier.analysis.simulate import BLOCK, STAKE, BlockTotals, basic_chart, run_blocks
from croupier.analysis.tablesim import (
    Z95,
    Run,
    TableSetup,
    blocks_of,
    ruin_formula,
    simulate_table,
)
from croupier.blackjack.rules import STATUTE
from croupier.errors import InvalidInput

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "counting"
SEED = 20_150_015
ROUNDS = 5 * BLOCK // 2
"""Two and a half blocks: two whole blocks and a half one, so that three workers each deal one."""
TIMING = ("cpu_seconds", "wall_seconds", "rounds_per_cpu_s", "rounds_per_s", "workers", "ray")
"""The run's fields that say how and how fast it ran, not what it dealt."""


def without_timing(out: dict[str, Any]) -> dict[str, Any]:
    """A copy of a result's JSON less the run's timing fields (and where it ran)."""
    out = copy.deepcopy(out)
    for key in TIMING:
        del out["run"][key]
    return out


@pytest.fixture(scope="module")
def counted() -> TableSetup:
    """Hi-Lo, the example ramp, i18+fab4, box 2 of 2 counted, side bets settled (statute rules, 8 decks)."""
    return TableSetup(
        rules=STATUTE,
        chart=basic_chart(),
        boxes=2,
        seat=2,
        count=counting.count_system("hi-lo"),
        ramp=counting.ramp(EXAMPLES / "ramp.toml"),
        indices=counting.load_indices("i18+fab4"),
        side_bets=True,
    )


@pytest.fixture(scope="module")
def reference(counted: TableSetup) -> dict[str, Any]:
    """The counted game's :data:`ROUNDS` rounds from :data:`SEED` in this process, in the default chunks."""
    return simulate_table(counted, ROUNDS, SEED).to_json()


# == the same seed, the same result =============================================================================


def test_the_blocks_are_fixed_by_the_rounds_alone() -> None:
    assert BLOCK == 1_000_000
    assert blocks_of(ROUNDS) == [(0, BLOCK), (1, BLOCK), (2, BLOCK // 2)]
    assert blocks_of(BLOCK) == [(0, BLOCK)]
    assert blocks_of(1) == [(0, 1)]


def test_the_reference_run_dealt_every_round(reference: dict[str, Any]) -> None:
    run = reference["run"]
    assert (run["rounds_asked"], run["rounds"], run["interrupted"]) == (ROUNDS, ROUNDS, False)
    assert (run["seed"], run["workers"], run["ray"], run["block_rounds"]) == (SEED, 1, None, BLOCK)
    assert reference["house"]["side_bets"]["over_13"]["counter_bets"] > 0  # the ramp bets Over 13 from +3


@pytest.mark.parametrize("workers", [2, 3])
def test_local_processes_give_the_same_result(counted: TableSetup, reference: dict[str, Any], workers: int) -> None:
    reports: list[int] = []
    result = simulate_table(
        counted, ROUNDS, SEED, Run(workers=workers), progress=lambda done, _n, _t: reports.append(done)
    )
    out = result.to_json()
    assert out["run"]["workers"] == workers and out["run"]["ray"] is None
    assert without_timing(out) == without_timing(reference)
    # A report each time blocks finish (two may finish together): rounds done, rising to all of them.
    assert reports == sorted(reports) and reports[-1] == ROUNDS and len(reports) <= len(blocks_of(ROUNDS))


def test_ray_gives_the_same_result(counted: TableSetup, reference: dict[str, Any]) -> None:
    out = simulate_table(counted, ROUNDS, SEED, Run(ray="local")).to_json()
    assert out["run"]["ray"] == "local" and out["run"]["workers"] == 1
    assert without_timing(out) == without_timing(reference)


def test_a_job_with_read_only_arrays_runs_on_the_kernels_one_compiled_signature(counted: TableSetup) -> None:
    """Ray hands a worker the job's arrays read-only (zero-copy from its object store). numba types those apart
    from writable arrays: without a copy a cold Ray worker compiled a second specialisation of the round for a
    minute, next to the one the disk cache held. The same deal, on the signatures already compiled."""
    job = counted.job()
    writable = run_blocks(job, SEED, 0, 2_000)
    compiled = set(sk._run_table.signatures)
    frozen = {}
    for name in ("rules", "tables", "sides", "config", "tags", "ramp", "side_at", "shoe"):
        array = getattr(job, name).copy()
        array.flags.writeable = False
        frozen[name] = array
    read_only = run_blocks(replace(job, **frozen), SEED, 0, 2_000)
    assert set(sk._run_table.signatures) == compiled
    assert (read_only.acc == writable.acc).all() and (read_only.bins == writable.bins).all()
    assert (read_only.fan == writable.fan).all() and read_only.rounds == 2_000


@pytest.mark.parametrize("chunk", [7_919, 2 * BLOCK])
def test_the_chunks_change_nothing(counted: TableSetup, reference: dict[str, Any], chunk: int) -> None:
    reports: list[int] = []
    out = simulate_table(
        counted, ROUNDS, SEED, Run(chunk=chunk), progress=lambda d, _n, _t: reports.append(d)
    ).to_json()
    assert without_timing(out) == without_timing(reference)
    assert reports == sorted(reports) and reports[-1] == ROUNDS
    assert len(reports) == sum(math.ceil(n / chunk) for _, n in blocks_of(ROUNDS))


def test_different_seeds_deal_different_games(counted: TableSetup) -> None:
    other = simulate_table(counted, BLOCK // 4, SEED + 1).to_json()
    same = simulate_table(counted, BLOCK // 4, SEED).to_json()
    assert other["counter"]["ev_per_round"] != same["counter"]["ev_per_round"]
    assert other["cards"] != same["cards"] and other["by_count"] != same["by_count"]
    assert other["fan"] != same["fan"]


# == Ctrl+C: the partial result ==================================================================================


def _consistent(out: dict[str, Any]) -> None:
    """The figures of a (partial) result add up: rounds by count, rounds played, nets, results, frequencies."""
    n = out["run"]["rounds"]
    rows = out["by_count"]
    assert sum(r["rounds"] for r in rows) == n
    assert sum(r["rounds_played"] for r in rows) == out["counter"]["rounds_played"]
    assert math.fsum(r["frequency"] for r in rows) == pytest.approx(1, abs=1e-12)
    assert math.fsum(r["counter_net_units"] for r in rows) == pytest.approx(out["counter"]["ev_per_round"]["mean"] * n)
    assert sum(out["house"]["main_bet"]["results"].values()) == n
    assert out["cards"]["dealt"] > 0 and out["cards"]["shoes"] > 0


def test_ctrl_c_returns_the_chunks_finished(counted: TableSetup) -> None:
    reports: list[tuple[int, int, BlockTotals | None]] = []

    def interrupt(done: int, total: int, totals: BlockTotals | None) -> None:
        reports.append((done, total, totals))
        raise KeyboardInterrupt

    result = simulate_table(counted, ROUNDS, SEED, Run(chunk=50_000), progress=interrupt)
    assert reports == [(50_000, ROUNDS, None)]  # one report, before any block was finished
    assert result.interrupted and result.rounds == 50_000 < ROUNDS
    out = result.to_json()
    assert out["run"]["interrupted"] is True and out["run"]["rounds_asked"] == ROUNDS
    _consistent(out)
    # The chunk finished is the start of the same seed's game: a run of exactly that many rounds.
    whole = simulate_table(counted, 50_000, SEED).to_json()
    for out_ in (out, whole):
        for key in ("interrupted", "rounds_asked"):
            del out_["run"][key]
    assert without_timing(out) == without_timing(whole)


def test_ctrl_c_in_a_later_block_keeps_the_blocks_before_it(counted: TableSetup) -> None:
    def interrupt(done: int, _total: int, totals: BlockTotals | None) -> None:
        if done >= 1_200_000:
            assert totals is not None and totals.rounds == BLOCK  # the finished block 0
            raise KeyboardInterrupt

    out = simulate_table(counted, ROUNDS, SEED, Run(chunk=100_000), progress=interrupt).to_json()
    assert out["run"]["interrupted"] is True and out["run"]["rounds"] == 1_200_000
    _consistent(out)
    whole = simulate_table(counted, 1_200_000, SEED).to_json()
    assert out["counter"] == whole["counter"] and out["by_count"] == whole["by_count"]
    assert out["house"] == whole["house"] and out["cards"] == whole["cards"] and out["fan"] == whole["fan"]


def test_ctrl_c_with_local_processes_keeps_the_finished_blocks(counted: TableSetup) -> None:
    def interrupt(_done: int, _total: int, _totals: BlockTotals | None) -> None:
        raise KeyboardInterrupt

    out = simulate_table(counted, 3 * BLOCK, SEED, Run(workers=2), progress=interrupt).to_json()
    n = out["run"]["rounds"]
    assert out["run"]["interrupted"] is True
    assert n in (BLOCK, 2 * BLOCK)  # the blocks finished by the first report; the rest were cancelled
    _consistent(out)


# == the figures ===================================================================================================


def test_a_flat_bettor_without_a_count_earns_the_main_bets_ev() -> None:
    """One unit every round, no count, a continuous shuffler: the counter's net is the main bet's, insurance
    never being taken (BJ 12) and no side bet placed."""
    setup = TableSetup(rules=STATUTE, chart=basic_chart(), continuous=True)
    result = simulate_table(setup, BLOCK, SEED)
    assert result.totals is not None
    acc, unit = result.totals.acc, result.side_stake
    assert int(acc[sk.C_NET]) * STAKE == int(acc[sk.C_FLAT]) * unit
    assert int(acc[sk.C_SQUARES]) * STAKE**2 == int(acc[sk.C_FLAT_SQ]) * unit**2
    out = result.to_json()
    counter, main = out["counter"], out["house"]["main_bet"]
    assert counter["ev_per_round"]["mean"] == main["player_ev"]
    assert counter["edge_per_initial_bet"] == pytest.approx(main["player_ev"], rel=1e-12)
    assert counter["sd_per_round"] == pytest.approx(main["sd"], rel=1e-12)  # both with n - 1
    assert (counter["insured"], counter["share_played"], counter["average_bet"]) == (0, 1, 1)
    assert out["setup"]["shuffle"] == "continuous" and out["setup"]["penetration"] is None
    assert out["cards"]["shoes"] == BLOCK  # a fresh shoe every round
    assert [(r["count"], r["frequency"]) for r in out["by_count"]] == [(0, 1)]  # no count: every round at 0
    assert "side_bets" not in out["house"]


def test_the_counters_figures_follow_their_definitions(reference: dict[str, Any]) -> None:
    """EV, SD and their intervals, per 100 rounds and per hour; SCORE, N0 and DI (Schlesinger, Blackjack Attack,
    3rd ed., 2005): SCORE = 10⁶ (EV/SD)² is the win per 100 rounds of the same ramp scaled to the Kelly bet of a
    10,000-unit bankroll, whose risk of ruin is then e⁻² = 13.5%; DI = 1000 EV/SD = √SCORE; N0 = (SD/EV)², the
    rounds after which the EV equals one SD."""
    c, n = reference["counter"], reference["run"]["rounds"]
    ev, sd = c["ev_per_round"]["mean"], c["sd_per_round"]
    assert ev > 0  # the ramp beats the game
    se = c["ev_per_round"]["se"]
    assert se == pytest.approx(sd / math.sqrt(n))
    assert c["ev_per_round"]["ci95"] == pytest.approx([ev - Z95 * se, ev + Z95 * se])
    assert c["ev_per_100"]["mean"] == pytest.approx(100 * ev) and c["sd_per_100"] == pytest.approx(10 * sd)
    rph = reference["setup"]["rounds_per_hour"]
    assert c["win_per_hour"] == pytest.approx(ev * rph) and c["sd_per_hour"] == pytest.approx(sd * math.sqrt(rph))
    assert c["hours"] == pytest.approx(n / rph)
    assert c["desirability_index"] == pytest.approx(1000 * ev / sd)
    assert c["score"] == pytest.approx(c["desirability_index"] ** 2)
    assert c["n0"] == pytest.approx((sd / ev) ** 2) and c["n0"] == pytest.approx(1e6 / c["score"])
    kelly = 10_000 * ev / sd**2  # the ramp's bets times this: the Kelly bettor of a 10,000-unit bankroll
    assert 100 * kelly * ev == pytest.approx(c["score"])
    assert ruin_formula(kelly * ev, kelly * sd, 10_000) == pytest.approx(math.exp(-2))
    assert c["average_bet"] == pytest.approx(c["share_played"] * c["average_bet_played"])
    ror = c["risk_of_ruin"]
    assert ror["formula"] == ruin_formula(ev, sd, ror["bankroll_units"])
    assert ror["formula_within_path"] == ruin_formula(ev, sd, ror["bankroll_units"], ror["path_rounds"])
    assert ror["paths"] == (n // BLOCK) * (BLOCK // ror["path_rounds"]) + (n % BLOCK) // ror["path_rounds"]


def test_the_figures_by_count_add_up_to_the_whole(reference: dict[str, Any]) -> None:
    rows, n = reference["by_count"], reference["run"]["rounds"]
    _consistent(reference)
    assert [r["count"] for r in rows] == sorted(r["count"] for r in rows)
    main = reference["house"]["main_bet"]
    assert math.fsum(r["frequency"] * r["player_ev"] for r in rows) == pytest.approx(main["player_ev"])
    for key, side in reference["house"]["side_bets"].items():
        by_count = math.fsum(r["frequency"] * r["side_bets_player_ev"][key] for r in rows)
        assert by_count == pytest.approx(side["player_ev"], abs=1e-12), key
    # The count tells: the main bet's EV at +4 and above beats its EV at -4 and below by a wide margin.
    assert _mean_ev(r for r in rows if r["count"] >= 4) - _mean_ev(r for r in rows if r["count"] <= -4) > 0.03
    assert reference["counter"]["rounds_played"] == sum(r["rounds_played"] for r in rows) < n  # wonged out at times


def _mean_ev(rows: Iterable[dict[str, Any]]) -> float:
    """The main bet's flat EV over some counts' rounds."""
    part = list(rows)
    return math.fsum(r["player_ev"] * r["rounds"] for r in part) / sum(r["rounds"] for r in part)


def test_the_simulated_ruin_agrees_with_the_formula() -> None:
    """A flat bettor with 20 units over paths of 400 rounds: the share of paths ruined agrees with the diffusion
    formula within sampling error and the walk's discreteness (a round's loss may carry a path past the
    bankroll, where the formula's Brownian path stops exactly on it)."""
    setup = TableSetup(rules=STATUTE, chart=basic_chart(), continuous=True, bankroll=20, path_rounds=400)
    ror = simulate_table(setup, BLOCK, SEED).to_json()["counter"]["risk_of_ruin"]
    assert ror["paths"] == BLOCK // 400
    se = math.sqrt(ror["formula_within_path"] * (1 - ror["formula_within_path"]) / ror["paths"])
    assert 0.2 < ror["formula_within_path"] < 0.6
    assert abs(ror["simulated_within_path"] - ror["formula_within_path"]) < 4 * se + 0.02


def test_the_fan_holds_block_zeros_paths(reference: dict[str, Any], counted: TableSetup) -> None:
    fan = reference["fan"]
    assert fan["step_rounds"] == counted.path_rounds // 200
    assert len(fan["paths"]) == counted.fan_paths
    assert all(len(p) == 201 and p[0] == 0 for p in fan["paths"])
    assert len({tuple(p) for p in fan["paths"]}) == counted.fan_paths  # forty different paths


# == the risk of ruin's formula against closed forms ==============================================================


def _first_passage(ev: float, sd: float, bankroll: float, rounds: int) -> float:
    """P(a Brownian motion from ``bankroll`` with drift ``ev`` < 0 reaches 0 by ``rounds``): its first-passage
    time is inverse Gaussian with mean B/|ev| and shape B²/sd² (Chhikara and Folks, The Inverse Gaussian
    Distribution, 1989, ch. 1), which scipy parametrises as ``invgauss(mu=mean/shape, scale=shape)``."""
    mean, shape = bankroll / abs(ev), bankroll**2 / sd**2
    return float(stats.invgauss.cdf(rounds, mu=mean / shape, scale=shape))


@pytest.mark.parametrize(("ev", "sd", "bankroll"), [(0.01, 1.1, 100), (0.0235, 2.45, 1000), (1e-4, 1.15, 50)])
def test_unlimited_ruin_is_the_exponential_formula(ev: float, sd: float, bankroll: int) -> None:
    assert ruin_formula(ev, sd, bankroll) == pytest.approx(math.exp(-2 * ev * bankroll / sd**2), rel=1e-14)
    # A bankroll of SD²/EV units: e⁻², Schlesinger's 13.5% of a Kelly bettor.
    assert ruin_formula(ev, sd, sd**2 / ev) == pytest.approx(math.exp(-2))
    assert ruin_formula(ev, sd, bankroll, 10**12) == pytest.approx(ruin_formula(ev, sd, bankroll), rel=1e-9)


def test_ruin_without_an_edge_or_without_risk() -> None:
    assert ruin_formula(0.0, 1.1, 100) == 1.0 and ruin_formula(-0.01, 1.1, 100) == 1.0
    assert ruin_formula(0.01, 0.0, 100) == 0.0 and ruin_formula(0.0, 0.0, 100, 50) == 0.0
    assert ruin_formula(-0.01, 0.0, 100) == 1.0
    # No drift: the reflection principle, 2 Φ(-B/(SD √T)).
    for bankroll, rounds in ((10, 100), (100, 10_000), (1000, 10_000)):
        expected = math.erfc(bankroll / (1.15 * math.sqrt(2 * rounds)))
        assert ruin_formula(0.0, 1.15, bankroll, rounds) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("ev", "sd", "bankroll", "rounds"),
    [(-0.01, 1.1, 50, 1000), (-0.005, 1.15, 200, 100_000), (-0.02, 1.0, 100, 5000), (-0.005, 1.15, 3000, 600_000)],
)
def test_ruin_within_a_horizon_is_the_first_passage_law(ev: float, sd: float, bankroll: int, rounds: int) -> None:
    assert ruin_formula(ev, sd, bankroll, rounds) == pytest.approx(_first_passage(ev, sd, bankroll, rounds), rel=1e-6)
    # With an edge the law is the same, tilted by exp(-2 EV B / SD²) (Girsanov).
    tilted = math.exp(2 * ev * bankroll / sd**2) * _first_passage(ev, sd, bankroll, rounds)
    assert ruin_formula(-ev, sd, bankroll, rounds) == pytest.approx(tilted, rel=1e-6)


def test_ruin_grows_with_the_horizon() -> None:
    risks = [ruin_formula(0.01, 1.15, 40, t) for t in (10, 100, 1000, 10_000, 100_000)]
    assert risks == sorted(risks) and risks[-1] <= ruin_formula(0.01, 1.15, 40) <= 1


def test_ruin_of_a_losing_bettor_with_a_large_bankroll() -> None:
    ev, sd, bankroll, rounds = -0.005, 1.15, 5000, 1_000_000
    assert ruin_formula(ev, sd, bankroll, rounds) == pytest.approx(_first_passage(ev, sd, bankroll, rounds), rel=1e-6)


# == the whole table ===========================================================================================


def test_the_first_and_the_last_box_see_the_same_game(counted: TableSetup) -> None:
    """Seven boxes (BJ 1's table, dealt in BJ 5.2's order), the counted box first or last: every box bets and
    plays by the count at the start of the round, so the first and the last box's EVs agree within 4 SE, the
    counter's with the ramp and the main bet's flat."""
    rounds = 3 * BLOCK
    first = simulate_table(replace(counted, boxes=7, seat=1), rounds, SEED).to_json()
    last = simulate_table(replace(counted, boxes=7, seat=7), rounds, SEED + 7).to_json()
    a, b = first["counter"]["ev_per_round"], last["counter"]["ev_per_round"]
    assert abs(a["mean"] - b["mean"]) < 4 * math.hypot(a["se"], b["se"])
    a, b = first["house"]["main_bet"], last["house"]["main_bet"]
    assert abs(a["player_ev"] - b["player_ev"]) < 4 * math.hypot(a["se"], b["se"])
    assert first["cards"]["per_round"] == pytest.approx(last["cards"]["per_round"], rel=0.01)


def _cards(boxes: int, **options: Any) -> dict[str, Any]:
    setup = TableSetup(rules=STATUTE, chart=basic_chart(), boxes=boxes, seat=boxes, **options)
    out: dict[str, Any] = simulate_table(setup, 300_000, SEED).to_json()["cards"]
    return out


@pytest.fixture(scope="module")
def tables() -> dict[int, dict[str, Any]]:
    """The cards figures of a table of 1, 2, 4 and 7 boxes (statute shoe: 8 decks, 104 cards behind the cut)."""
    return {boxes: _cards(boxes) for boxes in (1, 2, 4, 7)}


def test_more_boxes_take_more_cards_a_round(tables: dict[int, dict[str, Any]]) -> None:
    per_round = [tables[b]["per_round"] for b in sorted(tables)]
    assert per_round == sorted(per_round)
    for boxes, cards in tables.items():  # a box takes about 2.7 cards, the dealer about 2.7 (ENHC: fewer at times)
        assert 2.3 * (boxes + 1) < cards["per_round"] < 3.1 * (boxes + 1)


def test_the_cut_card_comes_out_after_fewer_rounds(tables: dict[int, dict[str, Any]]) -> None:
    """BJ 2.2: the round in which the cut card comes out is the shoe's last. 8 decks less 104 cards behind the
    cut and the one card burned after the shuffle (BJ 4.1): at least 312 cards are dealt from each shoe, and
    less than one more round's."""
    per_shoe = [tables[b]["rounds_per_shoe"] for b in sorted(tables)]
    assert per_shoe == sorted(per_shoe, reverse=True)
    for cards in tables.values():
        dealt = cards["rounds_per_shoe"] * cards["per_round"]
        assert 312 < dealt < 312 + cards["per_round"]
        assert cards["restocks"] == 0


def test_penetration_moves_the_cut_card(tables: dict[int, dict[str, Any]]) -> None:
    setup = TableSetup(rules=STATUTE, chart=basic_chart(), penetration=0.5)
    assert setup.behind_cut == 208 and setup.describe()["penetration"] == 0.5
    half = _cards(1, penetration=0.5)
    assert half["rounds_per_shoe"] < 0.7 * tables[1]["rounds_per_shoe"]
    assert 207 < half["rounds_per_shoe"] * half["per_round"] < 207 + half["per_round"]


# == what the driver refuses =====================================================================================


def test_every_bad_setting_is_named_at_once() -> None:
    setup = TableSetup(rules=STATUTE, chart=basic_chart(), boxes=8, penetration=1.5, bankroll=0, true_count="thirds")
    with pytest.raises(InvalidInput) as info:
        setup.check()
    message = str(info.value)
    for part in ("boxes 8", "table's 7 boxes (BJ 1)", "penetration 1.5", "bankroll 0", "true count 'thirds'"):
        assert part in message
    seat = TableSetup(rules=STATUTE, chart=basic_chart(), boxes=3, seat=4)
    assert seat.problems() == ["seat 4 must be one of the 3 boxes dealt, 1 to 3 (BJ 5.2)"]


@pytest.mark.parametrize(
    ("rounds", "seed", "run", "named"),
    [
        (0, 1, Run(), "rounds 0"),
        (10, -1, Run(), "seed -1"),
        (10, 1, Run(workers=0), "workers 0"),
        (10, 1, Run(workers=2, ray="local"), "--workers or --ray"),
    ],
)
def test_a_bad_run_is_refused_before_anything_runs(rounds: int, seed: int, run: Run, named: str) -> None:
    def never(*_: object) -> None:
        raise AssertionError("nothing may run")

    with pytest.raises(InvalidInput, match=named):
        simulate_table(TableSetup(rules=STATUTE, chart=basic_chart()), rounds, seed, run, progress=never)
