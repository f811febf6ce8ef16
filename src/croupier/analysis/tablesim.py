"""Blackjack simulation at scale (issue 15): the whole table, card counting, side bets, and what a counter or a
house wants to know, on one core, local processes or a Ray cluster.

A :class:`TableSetup` says what is simulated: the rules, how many boxes are dealt (BJ 5.2's order: the counted
box's neighbours change what it sees and where the cut card falls), which box is counted, the shoe's
penetration or a continuous shuffler, the counting system, the bet ramp (with wonging), the index plays and the
side bets. :func:`simulate_table` deals it in blocks of :data:`~croupier.analysis.simulate.BLOCK` rounds, each
block from its own xoshiro256++ stream spawned from one ``SeedSequence`` and starting a fresh shoe, so the same
seed gives the same result on one process, on N processes or on Ray. :class:`TableResult` turns the totals into
figures: EV with confidence intervals, SD, the frequency and EV of each count, SCORE, N0, the desirability index,
risk of ruin (formula and simulated), the house's edge by count for the main bet and each side bet.

Units: one unit is the counter's minimum bet; money sums are kept in whole chips of a unit (the kernel's
``sp[SP_STAKE]``), so nothing is lost to rounding until the figures are printed.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from multiprocessing import get_context
from typing import Any

import numpy as np

from croupier import __version__
from croupier.analysis import _sim_kernels as sk
from croupier.analysis.chart import Chart
from croupier.analysis.counting import FLAT, CountSystem, IndexPlay, Ramp, index_tables, true_count_method
from croupier.analysis.simulate import (
    BLOCK,
    STAKE,
    BlockTotals,
    TableJob,
    encode_chart,
    encode_rules,
    encode_sides,
    play_tables,
    run_blocks,
    set_dealing,
    shoe_codes,
)
from croupier.blackjack.rules import BlackjackRules, DealingDevice
from croupier.errors import InvalidInput

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""

Progress = Callable[[int, int, "BlockTotals | None"], None]
"""Told (rounds done, rounds in all, the totals so far or None) as the simulation goes."""


@dataclass(frozen=True)
class TableSetup:
    """What a table simulation deals and how the counted box plays and bets."""

    rules: BlackjackRules
    chart: Chart
    """The basic strategy every box plays (the counted box with the index plays on top)."""
    boxes: int = 1
    """Boxes dealt each round, 1 to ``rules.boxes`` (BJ 1, BJ 5.2)."""
    seat: int = 1
    """The counted box, 1 (the first dealt, at the dealer's left) to ``boxes``."""
    penetration: float | None = None
    """The share of the shoe dealt before the cut card; None: the rules' ``cards_behind_cut`` (BJ 2.1)."""
    continuous: bool | None = None
    """Shuffle before every round (a continuous shuffler); None: as the rules' dealing device says."""
    count: CountSystem | None = None
    true_count: str = "exact"
    """How a balanced count becomes a true count: ``exact`` (cards left) or ``half_deck`` (rounded)."""
    ramp: Ramp = FLAT
    indices: tuple[IndexPlay, ...] = ()
    side_bets: bool = False
    """Settle every side bet on the counted box each round (the house's exposure, and the counter's bets)."""
    bankroll: int = 1000
    """The counter's bankroll in units, for the risk of ruin."""
    path_rounds: int = 10_000
    """Rounds of one bankroll path (the simulated risk of ruin and the fan chart)."""
    fan_paths: int = 40
    rounds_per_hour: int = 100
    composition: tuple[int, ...] | None = None
    """Ten counts by value (ace, 2-9, tens) instead of ``rules.decks`` decks."""
    chart_name: str = "td"
    """What :attr:`chart` is, for the record: ``td`` (optimised for the rules) or ``textbook``."""

    def problems(self) -> list[str]:
        """Every setting out of range, as a sentence naming the value (and the rule)."""
        out: list[str] = []
        r = self.rules
        if _not_int(self.boxes) or not 1 <= self.boxes <= r.boxes:
            out.append(f"boxes {self.boxes!r} must be from 1 to the table's {r.boxes} boxes (BJ 1)")
        elif _not_int(self.seat) or not 1 <= self.seat <= self.boxes:
            out.append(f"seat {self.seat!r} must be one of the {self.boxes} boxes dealt, 1 to {self.boxes} (BJ 5.2)")
        if self.penetration is not None and not (
            isinstance(self.penetration, int | float)
            and not isinstance(self.penetration, bool)
            and 0 < self.penetration < 1
        ):
            out.append(f"penetration {self.penetration!r} must lie strictly between 0 and 1 (BJ 2.1)")
        if self.true_count not in ("exact", "half_deck"):
            out.append(f"true count {self.true_count!r} must be exact or half_deck")
        if _not_int(self.bankroll) or self.bankroll < 1:
            out.append(f"bankroll {self.bankroll!r} must be a whole number of units ≥ 1")
        if _not_int(self.path_rounds) or self.path_rounds < 0:
            out.append(f"path rounds {self.path_rounds!r} must be a whole number ≥ 0")
        if _not_int(self.fan_paths) or not 0 <= self.fan_paths <= 1000:
            out.append(f"fan paths {self.fan_paths!r} must be a whole number from 0 to 1000")
        if _not_int(self.rounds_per_hour) or self.rounds_per_hour < 1:
            out.append(f"rounds per hour {self.rounds_per_hour!r} must be a whole number ≥ 1")
        return out

    def check(self) -> None:
        """Raise :class:`InvalidInput` naming every bad setting."""
        problems = self.problems()
        if problems:
            raise InvalidInput("; ".join(problems))

    @property
    def shuffled_each_round(self) -> bool:
        """Whether every round is dealt from a freshly shuffled shoe."""
        if self.continuous is not None:
            return self.continuous or self.rules.dealing_device is not DealingDevice.SHOE
        return self.rules.dealing_device is not DealingDevice.SHOE

    @property
    def size(self) -> int:
        """Cards in the shoe."""
        return sum(self.composition) if self.composition is not None else 52 * self.rules.decks

    @property
    def behind_cut(self) -> int:
        """Cards behind the cut card: the penetration's, else the rules'."""
        if self.penetration is None:
            return self.rules.behind_cut
        return max(1, min(self.size - 1, round(self.size * (1 - self.penetration))))

    def job(self) -> TableJob:
        """The packed arrays the compiled simulation reads."""
        self.check()
        r = self.rules
        shoe = shoe_codes(r, list(self.composition) if self.composition is not None else None)
        g = np.zeros(sk.G_SIZE, np.int64)
        g[sk.G_BOXES] = self.boxes
        g[sk.G_SEAT] = self.seat - 1
        set_dealing(g, r, len(shoe), continuous=self.shuffled_each_round, behind=self.behind_cut)
        tags = np.zeros(52, np.int64)
        if self.count is not None:
            scaled = self.count.scaled_tags()
            for code in range(52):
                rank = code >> 2
                tags[code] = scaled[min(rank + 1, 10) - 1]
            g[sk.G_COUNTING] = 1
            g[sk.G_SCALE] = self.count.scale
            g[sk.G_TRUE] = self.count.count_mode(self.true_count)
            g[sk.G_IRC] = self.count.initial_running_count(r.decks)
        else:
            g[sk.G_SCALE] = 1
        g[sk.G_WONG_IN] = self.ramp.enter_at
        g[sk.G_WONG_OUT] = self.ramp.leave_below
        g[sk.G_SIDE_UNITS] = self.ramp.side_units
        g[sk.G_SIDES] = self.side_bets or bool(self.ramp.side_bets)
        g[sk.G_PATH_ROUNDS] = self.path_rounds
        g[sk.G_BANKROLL] = 0  # set below, in chips of the side unit
        sides = encode_sides(r)
        g[sk.G_BANKROLL] = self.bankroll * int(sides[sk.SP_STAKE])
        g[sk.G_FAN_PATHS] = self.fan_paths if self.path_rounds else 0
        g[sk.G_FAN_STEP] = max(1, self.path_rounds // 200)
        chart_table = encode_chart(self.chart)
        counted = index_tables(self.indices, chart_table, r.even_money_on_ten) if self.indices else chart_table
        return TableJob(
            rules=encode_rules(r),
            tables=play_tables(counted, chart_table),
            sides=sides,
            config=g,
            tags=tags,
            ramp=np.asarray(self.ramp.units_table(), np.int64),
            side_at=np.asarray(self.ramp.side_bet_thresholds(), np.int64),
            shoe=shoe,
            hand_rows=r.split_hands_limit + 1,
        )

    def describe(self) -> dict[str, Any]:
        """The setup as plain data (for the JSON and the report)."""
        r = self.rules
        return {
            "decks": r.decks if self.composition is None else None,
            "composition": list(self.composition) if self.composition is not None else None,
            "boxes": self.boxes,
            "seat": self.seat,
            "chart": self.chart_name,
            "fan_paths": self.fan_paths,
            "shuffle": "continuous" if self.shuffled_each_round else "shoe",
            "penetration": None if self.shuffled_each_round else round(1 - self.behind_cut / self.size, 4),
            "cards_behind_cut": None if self.shuffled_each_round else self.behind_cut,
            "count": None
            if self.count is None
            else {
                "name": self.count.name,
                "tags": [str(t) for t in self.count.tags],
                "balanced": self.count.balanced,
                "true_count": self.true_count if self.count.balanced else "running count",
                "initial_running_count": self.count.initial_running_count(r.decks) / self.count.scale,
            },
            "ramp": {
                "name": self.ramp.name,
                "steps": [list(s) for s in self.ramp.steps],
                "wong_in": self.ramp.wong_in,
                "wong_out": self.ramp.wong_out,
                "side_bets": dict(self.ramp.side_bets),
                "side_units": self.ramp.side_units,
            },
            "indices": [
                {"hand": p.hand, "up": p.up, "at": p.at, "above": p.above, "below": p.below} for p in self.indices
            ],
            "side_bets": self.side_bets or bool(self.ramp.side_bets),
            "bankroll_units": self.bankroll,
            "path_rounds": self.path_rounds,
            "rounds_per_hour": self.rounds_per_hour,
        }


def _not_int(value: object) -> bool:
    return isinstance(value, bool) or not isinstance(value, int)


# == running the blocks =========================================================================================


@dataclass(frozen=True)
class Run:
    """How and where the blocks run."""

    workers: int = 1
    """Local processes (1: in this process)."""
    ray: str | None = None
    """A Ray cluster's address, ``"local"`` for a Ray started here, or None (no Ray)."""
    chunk: int = 100_000
    """Rounds per compiled call between progress reports in this process."""


def blocks_of(rounds: int) -> list[tuple[int, int]]:
    """The fixed blocks of a run: (block number, rounds), every block :data:`BLOCK` rounds but the last."""
    return [(k, min(BLOCK, rounds - k * BLOCK)) for k in range(math.ceil(rounds / BLOCK))]


def _run_block(job: TableJob, seed: int, block: int, rounds: int) -> tuple[int, BlockTotals, float]:
    """One block in a worker: its number, its totals and the CPU seconds it took."""
    t0 = time.process_time()
    totals = run_blocks(job, seed, block, rounds)
    return block, totals, time.process_time() - t0


def _merge(parts: dict[int, BlockTotals]) -> BlockTotals | None:
    """The totals of the blocks done, added in block order. Only block 0 records the fan of bankroll paths:
    without it (an interrupted run) the fan is left empty."""
    out: BlockTotals | None = None
    for k in sorted(parts):
        out = parts[k] if out is None else out + parts[k]
    if out is not None and 0 not in parts:
        out = BlockTotals(out.acc, out.bins, out.fan[:0])
    return out


def _check_run(rounds: int, seed: int, run: Run) -> None:
    problems = []
    if _not_int(rounds) or rounds < 1:
        problems.append(f"rounds {rounds!r} must be a whole number ≥ 1")
    if _not_int(seed) or not 0 <= seed < 2**63:
        problems.append(f"seed {seed!r} must be a whole number from 0 to 2**63 - 1")
    if _not_int(run.workers) or not 1 <= run.workers <= 1024:
        problems.append(f"workers {run.workers!r} must be a whole number from 1 to 1024")
    if run.ray is not None and run.workers != 1:
        problems.append("give --workers or --ray, not both (Ray decides where the blocks run)")
    if problems:
        raise InvalidInput("; ".join(problems))


def simulate_table(
    setup: TableSetup, rounds: int, seed: int, run: Run = Run(), progress: Progress | None = None
) -> TableResult:
    """``rounds`` rounds of ``setup`` from ``seed``, in fixed blocks on this process, on ``run.workers`` local
    processes or on Ray. Ctrl+C (KeyboardInterrupt) stops it and returns what the finished blocks (or, in this
    process, chunks) hold, marked ``interrupted``."""
    _check_run(rounds, seed, run)
    job = setup.job()
    wall0 = time.perf_counter()
    cpu0 = time.process_time()
    interrupted = False
    if run.ray is not None:
        parts, cpu, interrupted = _on_ray(job, rounds, seed, run.ray, progress)
    elif run.workers > 1:
        parts, cpu, interrupted = _on_processes(job, rounds, seed, run.workers, progress)
    else:
        parts, interrupted = _in_process(job, rounds, seed, run.chunk, progress)
        cpu = time.process_time() - cpu0
    totals = _merge(parts)
    wall = time.perf_counter() - wall0
    return TableResult(
        setup=setup,
        totals=totals,
        rounds_asked=rounds,
        seed=seed,
        cpu_seconds=cpu,
        wall_seconds=wall,
        workers=run.workers,
        ray=run.ray,
        interrupted=interrupted,
        side_stake=int(job.sides[sk.SP_STAKE]),
    )


def _in_process(
    job: TableJob, rounds: int, seed: int, chunk: int, progress: Progress | None
) -> tuple[dict[int, BlockTotals], bool]:
    parts: dict[int, BlockTotals] = {}
    done_before = 0
    current: list[BlockTotals] = []

    def tell(done: int, _total: int) -> None:
        if progress is not None:
            progress(done_before + done, rounds, _merge(parts))

    block = 0
    try:
        for block, n in blocks_of(rounds):
            current.clear()
            parts[block] = run_blocks(job, seed, block, n, chunk=chunk, progress=tell, keep=current)
            done_before += n
    except KeyboardInterrupt:
        if current and block not in parts:  # the block cut short: the chunks it finished
            parts[block] = current[0]
        return parts, True
    return parts, False


def _on_processes(
    job: TableJob, rounds: int, seed: int, workers: int, progress: Progress | None
) -> tuple[dict[int, BlockTotals], float, bool]:
    parts: dict[int, BlockTotals] = {}
    cpu = 0.0
    done = 0
    interrupted = False
    # Forked workers start at once with the compiled kernel already loaded; elsewhere they start afresh.
    context = get_context("fork" if sys.platform == "linux" else "spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending: set[Future[tuple[int, BlockTotals, float]]] = {
            pool.submit(_run_block, job, seed, block, n) for block, n in blocks_of(rounds)
        }
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    block, totals, seconds = f.result()
                    parts[block] = totals
                    cpu += seconds
                    done += totals.rounds
                if progress is not None:
                    progress(done, rounds, _merge(parts))
        except KeyboardInterrupt:
            interrupted = True
            for f in pending:
                f.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
    return parts, cpu, interrupted


def _on_ray(
    job: TableJob, rounds: int, seed: int, address: str, progress: Progress | None
) -> tuple[dict[int, BlockTotals], float, bool]:
    try:
        import ray
    except ModuleNotFoundError:
        raise InvalidInput("--ray needs Ray: pip install 'croupier[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address != "local":
            options["address"] = address
        else:
            options["num_cpus"] = os.cpu_count() or 1
        try:
            ray.init(**options)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise InvalidInput(f"cannot start or reach Ray at {address!r}: {exc}") from None
    remote = ray.remote(_run_block)
    job_ref = ray.put(job)
    refs = [remote.remote(job_ref, seed, block, n) for block, n in blocks_of(rounds)]
    parts: dict[int, BlockTotals] = {}
    cpu = 0.0
    done = 0
    interrupted = False
    try:
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                block, totals, seconds = ray.get(ref)
                parts[block] = totals
                cpu += seconds
                done += totals.rounds
            if progress is not None:
                progress(done, rounds, _merge(parts))
    except KeyboardInterrupt:
        interrupted = True
        for ref in pending:
            ray.cancel(ref, force=True)
    finally:
        if started_here:
            ray.shutdown()
    return parts, cpu, interrupted


# == the figures ================================================================================================


def _ci(mean: float, se: float) -> list[float]:
    return [mean - Z95 * se, mean + Z95 * se]


def _log_phi(x: float) -> float:
    """``log Φ(x)``, the standard normal distribution function, accurate far into the lower tail."""
    tail = 0.5 * math.erfc(-x / math.sqrt(2))
    if tail > 1e-300:
        return math.log(tail)
    # Φ(x) ~ φ(x)/|x| (1 - 1/x² + 3/x⁴) for x → -∞
    return -x * x / 2 - math.log(-x * math.sqrt(2 * math.pi)) + math.log1p(-1 / x**2 + 3 / x**4)


def ruin_formula(ev: float, sd: float, bankroll: float, rounds: int | None = None) -> float:
    """The risk of losing ``bankroll`` units with an EV and SD per round (the diffusion approximation): over an
    unlimited horizon ``exp(-2·ev·B/sd²)`` (1 when ev ≤ 0), or within ``rounds`` rounds
    ``Φ((-B - ev·T)/(sd·√T)) + exp(-2·ev·B/sd²)·Φ((-B + ev·T)/(sd·√T))`` (the second term in logarithms, so that
    neither a vanishing tail nor a huge exponential is lost)."""
    if sd <= 0:
        return 0.0 if ev >= 0 else 1.0
    var = sd * sd
    if rounds is None:
        return 1.0 if ev <= 0 else math.exp(-2 * ev * bankroll / var)
    s = sd * math.sqrt(rounds)
    first = math.exp(_log_phi((-bankroll - ev * rounds) / s))
    second = math.exp(min(-2 * ev * bankroll / var + _log_phi((-bankroll + ev * rounds) / s), 0.0))
    return min(1.0, first + second)


@dataclass(frozen=True)
class TableResult:
    """A table simulation's totals and the figures drawn from them (:meth:`to_json`)."""

    setup: TableSetup
    totals: BlockTotals | None
    rounds_asked: int
    seed: int
    cpu_seconds: float
    wall_seconds: float
    workers: int
    ray: str | None
    interrupted: bool
    side_stake: int
    figures: dict[str, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "figures", _figures(self))

    @property
    def rounds(self) -> int:
        """Rounds dealt."""
        return 0 if self.totals is None else int(self.totals.acc[sk.C_ROUNDS])

    def to_json(self) -> dict[str, Any]:
        """Everything as plain data: the setup, the run, the counter's and the house's figures."""
        return self.figures


def _money(chips: int, unit: int) -> float:
    return chips / unit


def _figures(res: TableResult) -> dict[str, Any]:
    setup = res.setup
    n = res.rounds
    run = {
        "rounds_asked": res.rounds_asked,
        "rounds": n,
        "seed": res.seed,
        "interrupted": res.interrupted,
        "workers": res.workers,
        "ray": res.ray,
        "cpu_seconds": round(res.cpu_seconds, 3),
        "wall_seconds": round(res.wall_seconds, 3),
        "rounds_per_cpu_s": round(n / res.cpu_seconds) if res.cpu_seconds > 0 else None,
        "rounds_per_s": round(n / res.wall_seconds) if res.wall_seconds > 0 else None,
        "block_rounds": BLOCK,
        "version": __version__,
    }
    out: dict[str, Any] = {"game": "blackjack", "setup": setup.describe(), "run": run}
    if res.totals is None or n == 0:
        return out
    acc, bins = res.totals.acc, res.totals.bins
    if setup.count is None and not (setup.side_bets or setup.ramp.side_bets):
        # Without a count or side bets the kernel keeps no totals by count: every round is at count 0.
        bins = bins.copy()
        row = bins[-sk.COUNT_MIN]
        row[sk.BN_N] = acc[sk.C_ROUNDS]
        row[sk.BN_FLAT] = acc[sk.C_FLAT]
        row[sk.BN_FLAT_SQ] = acc[sk.C_FLAT_SQ]
        row[sk.BN_IN] = acc[sk.C_IN]
        row[sk.BN_NET] = acc[sk.C_NET]
    u = res.side_stake
    net, sq = int(acc[sk.C_NET]), int(acc[sk.C_SQUARES])
    ev = net / u / n
    var = max(sq / u / u / n - ev * ev, 0.0) * n / max(n - 1, 1)
    sd = math.sqrt(var)
    se = sd / math.sqrt(n)
    wagered = int(acc[sk.C_WAGERED]) / u
    action = int(acc[sk.C_ACTION]) / u
    rph = setup.rounds_per_hour
    n_in = int(acc[sk.C_IN])
    counter: dict[str, Any] = {
        "ev_per_round": {"mean": ev, "se": se, "ci95": _ci(ev, se)},
        "ev_per_100": {"mean": 100 * ev, "se": 100 * se, "ci95": _ci(100 * ev, 100 * se)},
        "sd_per_round": sd,
        "sd_per_100": 10 * sd,
        "rounds_played": n_in,
        "share_played": n_in / n,
        "average_bet": wagered / n,
        "average_bet_played": wagered / n_in if n_in else None,
        "edge_per_initial_bet": net / u / wagered if wagered else None,
        "edge_per_amount_wagered": net / u / action if action else None,
        "insured": int(acc[sk.C_INSURED]),
        "win_per_hour": ev * rph,
        "sd_per_hour": sd * math.sqrt(rph),
        "hours": n / rph,
        "score": 1e6 * (ev / sd) ** 2 if sd > 0 and ev > 0 else 0.0,
        "n0": (sd / ev) ** 2 if ev > 0 else None,
        "desirability_index": 1000 * ev / sd if sd > 0 else None,
    }
    paths = int(acc[sk.C_PATHS])
    bankroll = setup.bankroll
    counter["risk_of_ruin"] = {
        "bankroll_units": bankroll,
        "formula": ruin_formula(ev, sd, bankroll),
        "formula_within_path": ruin_formula(ev, sd, bankroll, setup.path_rounds) if setup.path_rounds else None,
        "simulated_within_path": int(acc[sk.C_RUINED]) / paths if paths else None,
        "paths": paths,
        "path_rounds": setup.path_rounds,
    }
    flat, flat_sq = int(acc[sk.C_FLAT]), int(acc[sk.C_FLAT_SQ])
    flat_ev = flat / STAKE / n
    flat_sd = math.sqrt(max(flat_sq / STAKE**2 / n - flat_ev**2, 0.0) * n / max(n - 1, 1))
    flat_se = flat_sd / math.sqrt(n)
    house: dict[str, Any] = {
        "main_bet": {
            "player_ev": flat_ev,
            "se": flat_se,
            "ci95": _ci(flat_ev, flat_se),
            "house_edge": -flat_ev,
            "sd": flat_sd,
            "results": {
                "win": int(acc[sk.C_WINS + sk.WIN]),
                "push": int(acc[sk.C_WINS + sk.PUSH]),
                "loss": int(acc[sk.C_WINS + sk.LOSS]),
            },
        }
    }
    tracked = setup.side_bets or bool(setup.ramp.side_bets)
    by_count: list[dict[str, Any]] = []
    for k in range(sk.COUNT_BINS):
        row = bins[k]
        m = int(row[sk.BN_N])
        if m == 0:
            continue
        f_mean = int(row[sk.BN_FLAT]) / STAKE / m
        f_sd = math.sqrt(max(int(row[sk.BN_FLAT_SQ]) / STAKE**2 / m - f_mean**2, 0.0))
        entry: dict[str, Any] = {
            "count": k + sk.COUNT_MIN,
            "rounds": m,
            "frequency": m / n,
            "player_ev": f_mean,
            "se": f_sd / math.sqrt(m),
            "ci95": _ci(f_mean, f_sd / math.sqrt(m)),
            "rounds_played": int(row[sk.BN_IN]),
            "counter_net_units": int(row[sk.BN_NET]) / u,
        }
        if tracked:
            entry["side_bets_player_ev"] = {key: int(row[sk.BN_SIDE + s]) / u / m for s, key in enumerate(sk.SIDE_KEYS)}
        by_count.append(entry)
    if tracked:
        sides: dict[str, Any] = {}
        for s, key in enumerate(sk.SIDE_KEYS):
            total = int(bins[:, sk.BN_SIDE + s].sum())
            total_sq = int(bins[:, sk.BN_SIDE_SQ + s].sum())
            mean = total / u / n
            s_sd = math.sqrt(max(total_sq / u / u / n - mean**2, 0.0))
            placed = int(acc[sk.C_SIDE_BETS + s])
            bet_net = int(acc[sk.C_SIDE_NET + s]) / u
            sides[key] = {
                "player_ev": mean,
                "se": s_sd / math.sqrt(n),
                "ci95": _ci(mean, s_sd / math.sqrt(n)),
                "house_edge": -mean,
                "counter_bets": placed,
                "counter_bet_at": dict(setup.ramp.side_bets).get(key),
                "counter_ev_per_bet": bet_net / placed / setup.ramp.side_units if placed else None,
            }
        house["side_bets"] = sides
    out["counter"] = counter
    out["house"] = house
    out["by_count"] = by_count
    out["cards"] = {
        "dealt": int(acc[sk.C_CARDS]),
        "per_round": int(acc[sk.C_CARDS]) / n,
        "shoes": int(acc[sk.C_SHOES]),
        "rounds_per_shoe": n / int(acc[sk.C_SHOES]) if acc[sk.C_SHOES] else None,
        "restocks": int(acc[sk.C_RESTOCKS]),
    }
    fan = res.totals.fan
    if fan.size and setup.path_rounds:
        whole = min(fan.shape[0], min(BLOCK, n) // setup.path_rounds)  # block 0's finished paths
        out["fan"] = {
            "step_rounds": max(1, setup.path_rounds // 200),
            "paths": [[round(float(x) / u, 2) for x in fan[p]] for p in range(whole)],
        }
    return out


def figures_table(result: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """The headline figures of :meth:`TableResult.to_json` as (label, text) lines."""
    c = result.get("counter")
    if c is None:
        yield ("rounds", "none finished")
        return
    e = c["ev_per_round"]
    yield ("EV per round", f"{e['mean']:+.5f} units (95% CI {e['ci95'][0]:+.5f} to {e['ci95'][1]:+.5f})")
    e100 = c["ev_per_100"]
    yield ("EV per 100 rounds", f"{e100['mean']:+.3f} units ± {Z95 * e100['se']:.3f}")
    yield ("SD per round / per 100", f"{c['sd_per_round']:.4f} / {c['sd_per_100']:.3f} units")
    yield ("Average bet", f"{c['average_bet']:.3f} units ({100 * c['share_played']:.1f}% of rounds played)")
    if c["edge_per_initial_bet"] is not None:
        yield ("Edge per unit bet", f"{100 * c['edge_per_initial_bet']:+.4f}%")
    yield ("Win per hour", f"{c['win_per_hour']:+.3f} units at {result['setup']['rounds_per_hour']} rounds/h")
    yield ("SCORE / N0 / DI", f"{c['score']:.2f} / {_opt(c['n0'], '.0f')} / {_opt(c['desirability_index'], '.3f')}")
    ror = c["risk_of_ruin"]
    yield (
        "Risk of ruin",
        f"{100 * ror['formula']:.2f}% (formula, bankroll {ror['bankroll_units']} units); within "
        f"{ror['path_rounds']:,} rounds {_pct(ror['formula_within_path'])} formula, "
        f"{_pct(ror['simulated_within_path'])} simulated over {ror['paths']:,} paths",
    )
    h = result["house"]["main_bet"]
    yield ("House edge, main bet (flat)", f"{100 * h['house_edge']:+.4f}% ± {100 * Z95 * h['se']:.4f}")
    for key, side in result["house"].get("side_bets", {}).items():
        yield (f"House edge, {key}", f"{100 * side['house_edge']:+.3f}% ± {100 * Z95 * side['se']:.3f}")


def _opt(value: float | None, spec: str) -> str:
    return "—" if value is None else format(value, spec)


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.2f}%"


def penetration_sweep(
    setup: TableSetup, penetrations: Sequence[float], rounds: int, seed: int, run: Run = Run()
) -> list[dict[str, Any]]:
    """The counter's and the house's figures at each penetration (the same seed at each)."""
    rows = []
    for p in penetrations:
        res = simulate_table(replace(setup, penetration=p), rounds, seed, run).to_json()
        if "counter" not in res:
            continue
        rows.append(
            {
                "penetration": p,
                "ev_per_round": res["counter"]["ev_per_round"],
                "edge_per_initial_bet": res["counter"]["edge_per_initial_bet"],
                "score": res["counter"]["score"],
                "side_bets": {k: v["counter_ev_per_bet"] for k, v in res["house"].get("side_bets", {}).items()},
            }
        )
    return rows


def true_count_setting(name: str) -> str:
    """Check a true-count method name (``exact`` or ``half_deck``)."""
    true_count_method(name)
    return name


__all__ = [
    "Run",
    "TableResult",
    "TableSetup",
    "blocks_of",
    "figures_table",
    "penetration_sweep",
    "ruin_formula",
    "simulate_table",
]
