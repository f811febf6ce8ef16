"""The simulated parts of the blackjack PAR sheet: what the combinatorial analysis does not give.

* :func:`table_run` — one box played flat by the basic-strategy chart through the table kernel
  (:func:`croupier.analysis.tablesim.simulate_table`), dealt from a continuous shuffler or from the shoe to its
  cut card: the mean net, its SD, the win/push/loss counts and the **amount wagered** (doubles and splits
  included), per round;
* :func:`sample_rounds` — the **per-round distribution of the net**: rounds dealt from freshly shuffled full
  shoes (numpy's PCG64 draws the first cards of each shoe's shuffle, a partial Fisher-Yates, finished for the rare
  round that needs more) and played card for card by the kernel (:func:`croupier.analysis.simulate.
  play_table_orders`), which returns each round's net. The distribution is simulated: splits make the exact
  one out of reach here (the analysis gives the mean, not the spread);
* the sections that show them: :func:`distribution_section` and :func:`cut_card_section`.

Every run's stream is named in the sheet, so each figure can be reproduced from the seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt
from matplotlib.figure import Figure

from croupier.analysis import _sim_kernels as sk
from croupier.analysis.chart import Chart
from croupier.analysis.simulate import STAKE, encode_chart, play_table_orders, shoe_codes
from croupier.analysis.tablesim import TableSetup, simulate_table
from croupier.blackjack.rules import BlackjackRules, DealingDevice
from croupier.report.html import Cell, FigureBlock, Section, TableBlock
from croupier.report.risk import wilson
from croupier.report.sections import Z95, pct

Ints = npt.NDArray[np.int64]

DIST_ROUNDS = 200_000
"""Rounds dealt for the per-round distribution (at most ``--rounds``): about half a second."""
DEPTH = 32
"""Cards of each shuffle drawn up front; a round that needs more (a few in a million) gets its shuffle finished."""
_CHUNK = 50_000
SAMPLE_KEY = 0x50415244
"""The spawn key of the distribution's stream (``SeedSequence(seed, spawn_key=(SAMPLE_KEY,))``)."""
SHOE_KEY = 0x53484F45
"""The spawn key from which the shoe run's seed is drawn (independent of the continuous run's)."""


# -- the table kernel's runs ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableRun:
    """One box's main bet played flat by the chart over ``rounds`` rounds (per unit of the initial bet)."""

    rounds: int
    seed: int
    mean: float
    """Mean net per round."""
    sd: float
    """SD of the net per round."""
    amount: float
    """Mean amount wagered per round (the initial bet, doubles and splits)."""
    amount_max: int
    """The most a round can stake (every split hand doubled): bounds the amount's SD."""
    wins: int
    pushes: int
    losses: int
    rounds_per_shoe: float | None
    cards_per_round: float
    continuous: bool
    seconds: float

    @property
    def se(self) -> float:
        """The standard error of :attr:`mean`."""
        return self.sd / math.sqrt(self.rounds)

    @property
    def amount_se(self) -> float:
        """An upper bound of the standard error of :attr:`amount`: the amount lies between 1 and
        :attr:`amount_max`, so its variance is at most ``(mean − 1)(max − mean)`` (Bhatia-Davis)."""
        return math.sqrt(max((self.amount - 1) * (self.amount_max - self.amount), 0.0) / self.rounds)

    @property
    def edge(self) -> float:
        """The simulated house edge per unit of the initial bet."""
        return -self.mean

    @property
    def edge_wagered(self) -> float:
        """The simulated house edge per unit wagered."""
        return -self.mean / self.amount


def derived_seed(seed: int, key: int) -> int:
    """A seed for another run of the same sheet, drawn from ``SeedSequence(seed, spawn_key=(key,))`` (63 bits)."""
    state = np.random.SeedSequence(seed, spawn_key=(key,)).generate_state(1, np.uint64)
    return int(state[0] >> np.uint64(1))


def deals_from_shoe(rules: BlackjackRules) -> bool:
    """Whether the table deals successive rounds from a shoe to a cut card (not a shuffler or dealing box)."""
    return rules.dealing_device is DealingDevice.SHOE


def table_run(rules: BlackjackRules, chart: Chart, rounds: int, seed: int, *, continuous: bool) -> TableRun:
    """``rounds`` rounds of one box flat-betting one unit by ``chart``, continuously shuffled or dealt from the
    shoe to the rules' cut card (BJ 2, BJ 4), through :func:`~croupier.analysis.tablesim.simulate_table`."""
    setup = TableSetup(rules, chart, continuous=continuous, path_rounds=0, fan_paths=0)
    res = simulate_table(setup, rounds, seed)
    out = res.to_json()
    assert res.totals is not None
    main = out["house"]["main_bet"]
    action = int(res.totals.acc[sk.C_ACTION]) / res.side_stake / res.rounds
    return TableRun(
        rounds=res.rounds,
        seed=seed,
        mean=float(main["player_ev"]),
        sd=float(main["sd"]),
        amount=action,
        amount_max=2 * rules.split_hands_limit,
        wins=int(main["results"]["win"]),
        pushes=int(main["results"]["push"]),
        losses=int(main["results"]["loss"]),
        rounds_per_shoe=out["cards"]["rounds_per_shoe"] if not setup.shuffled_each_round else None,
        cards_per_round=float(out["cards"]["per_round"]),
        continuous=setup.shuffled_each_round,
        seconds=res.wall_seconds,
    )


# -- the per-round distribution ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundSample:
    """The nets of ``rounds`` rounds dealt from freshly shuffled shoes, per unit of the initial bet: each net
    value and how many rounds ended with it."""

    rounds: int
    seed: int
    nets: tuple[Fraction, ...]
    counts: tuple[int, ...]

    def shares(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The net values and their shares of the rounds, as arrays."""
        values = np.array([float(v) for v in self.nets])
        return values, np.array(self.counts, np.float64) / self.rounds

    @property
    def kurtosis(self) -> float:
        """The sample's ``μ₄ / σ⁴`` (for the interval of a simulated SD)."""
        values, weights = self.shares()
        centred = values - float(values @ weights)
        var = float(centred**2 @ weights)
        return float(centred**4 @ weights) / var**2 if var > 0 else 0.0


def _orders(shoe: npt.NDArray[np.uint8], k: int, rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """``k`` shuffles of ``shoe``, one a row, whose first :data:`DEPTH` cards are uniformly random (a partial
    Fisher-Yates; the rest of each row holds the cards left, in no random order)."""
    size = len(shoe)
    deck = np.broadcast_to(shoe, (k, size)).copy()
    rows = np.arange(k)
    for j in range(min(DEPTH, size)):
        pick = rng.integers(j, size, k)
        drawn = deck[rows, pick]
        deck[rows, pick] = deck[:, j]
        deck[:, j] = drawn
    return deck


def sample_rounds(rules: BlackjackRules, chart: Chart, rounds: int, seed: int) -> RoundSample:
    """``rounds`` rounds, each from a freshly shuffled full shoe, played by ``chart`` card for card by the kernel;
    the stream is ``SeedSequence(seed, spawn_key=(SAMPLE_KEY,))``."""
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(SAMPLE_KEY,))))
    shoe = shoe_codes(rules).astype(np.uint8)
    play = encode_chart(chart)
    tally: dict[int, int] = {}
    left = rounds
    while left:
        k = min(left, _CHUNK)
        deck = _orders(shoe, k, rng)
        out = play_table_orders(rules, play, deck[:, :DEPTH].astype(np.int64))[:, 0, :]
        short = np.flatnonzero(out[:, 3])
        if short.size:  # finish those shuffles and play the rounds again from the whole shoe
            for i in short:
                tail = deck[i, DEPTH:]
                rng.shuffle(tail)
            again = play_table_orders(rules, play, deck[short].astype(np.int64))[:, 0, :]
            out[short] = again
        values, counts = np.unique(out[:, 0], return_counts=True)
        for v, c in zip(values.tolist(), counts.tolist(), strict=True):
            tally[v] = tally.get(v, 0) + c
        left -= k
    keys = sorted(tally)
    return RoundSample(rounds, seed, tuple(Fraction(v, STAKE) for v in keys), tuple(tally[v] for v in keys))


def distribution_figure(sample: RoundSample) -> Figure:
    """The share of rounds at each net (log scale) with its 95% Wilson interval."""
    fig = Figure(figsize=(7.5, 3.0))
    ax = fig.add_subplot()
    x = [float(v) for v in sample.nets]
    shares = [c / sample.rounds for c in sample.counts]
    lows, highs = zip(*(wilson(c, sample.rounds) for c in sample.counts), strict=True)
    err = [[s - lo for s, lo in zip(shares, lows, strict=True)], [hi - s for s, hi in zip(shares, highs, strict=True)]]
    ax.bar(x, shares, width=0.4, color="#9ecae1")
    ax.errorbar(x, shares, yerr=err, fmt="none", ecolor="#08306b", capsize=2, lw=0.8)
    ax.set_yscale("log")
    ax.set_xlabel("net of the round, units of the initial bet")
    ax.set_ylabel("share of rounds (log)")
    ax.set_title("The main bet's net per round (simulated, 95% intervals)", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def distribution_section(sample: RoundSample, run: TableRun, exact_ev: float) -> Section:
    """The main bet's per-round distribution (simulated, with 95% intervals), its mean and SD."""
    s = Section("Main bet: result per round")
    sd = run.sd
    sd_se = sd * math.sqrt(max(sample.kurtosis - 1, 0.0) / (4 * run.rounds))
    values, weights = sample.shares()
    s.paragraph(
        f"Simulated, with 95% intervals: the distribution of the net of one round played by the basic-strategy "
        f"chart, per unit of the initial bet, from {sample.rounds:,} rounds each dealt from a freshly shuffled "
        f"full shoe and played card for card by the simulation kernel (stream {SAMPLE_KEY:#x} of seed "
        f"{sample.seed}). Splits and doubles make the exact distribution out of reach here; the exact mean is the "
        f"combinatorial analysis's ({exact_ev:+.6f}). The sample's mean is {float(values @ weights):+.5f}."
    )
    rows: list[list[Cell | str]] = []
    for v, c in zip(sample.nets, sample.counts, strict=True):
        lo, hi = wilson(c, sample.rounds)
        rows.append(
            [
                Cell(f"{'+' if v > 0 else ''}{float(v):g}", "r"),
                Cell(f"{c:,}", "r"),
                Cell(f"{c / sample.rounds:.6f}", "r"),
                Cell(f"{lo:.6f} to {hi:.6f}", "r"),
            ]
        )
    s.add(
        TableBlock(
            ("net per unit", "rounds", "share", "95% interval (Wilson)"),
            rows,
            heading="Distribution of the net (simulated)",
            caption="A net of −2 is a doubled or split hand lost; +1.5 a blackjack paid 3 to 2; −0.5 a surrender; "
            "+0.5 the five-card claim (BJ 19).",
        ),
        FigureBlock(distribution_figure(sample), "Share of rounds at each net, log scale, with 95% intervals."),
    )
    s.paragraph(
        f"Standard deviation of the net per round (simulated over {run.rounds:,} rounds, continuous shuffle): "
        f"{sd:.4f}, 95% interval {sd - Z95 * sd_se:.4f} to {sd + Z95 * sd_se:.4f} (the delta method, with the "
        "sample's fourth moment)."
    )
    return s


def cut_card_section(
    rules: BlackjackRules, continuous: TableRun, shoe: TableRun | None, exact_edge: float, amount_note: str
) -> Section:
    """The effect of the cut card: the shoe dealt to its cut card against a continuous shuffle, both simulated,
    and against the exact full-shoe edge."""
    s = Section("Cut-card effect")
    if shoe is None or not deals_from_shoe(rules):
        device = str(rules.dealing_device.value).replace("_", " ")
        s.paragraph(
            f"These rules deal from a {device}: every round comes from a freshly shuffled shoe, so there is no cut "
            "card and the exact full-shoe figures are the table's."
        )
        return s
    behind = rules.behind_cut
    size = 52 * rules.decks
    s.paragraph(
        f"Simulated, labelled: the same basic-strategy play dealt from a {rules.decks}-deck shoe to its cut card "
        f"({behind} cards behind it: {pct(1 - behind / size, 1)} dealt; burns of BJ 4), against a continuous "
        f"shuffle, each over {shoe.rounds:,} rounds (the shoe run's seed {shoe.seed} is drawn from the sheet's "
        f"seed, so the two runs are independent). The exact edge is the combinatorial analysis of a full shoe, "
        "which is what a continuous shuffler deals. The cut-card effect is the shoe's edge minus the full shoe's: "
        "rounds dealt deep into a shoe differ from a full shoe's."
    )

    def line(name: str, run: TableRun) -> list[Cell | str]:
        return [
            name,
            Cell(f"{run.rounds:,}", "r"),
            Cell(f"{pct(run.edge, 4, sign=True)} ± {pct(Z95 * run.se, 4)}", "r"),
            Cell(pct(run.edge_wagered, 4, sign=True), "r"),
            Cell(f"{run.amount:.4f}", "r"),
            Cell(f"{run.sd:.4f}", "r"),
            Cell("—" if run.rounds_per_shoe is None else f"{run.rounds_per_shoe:.1f}", "r"),
            "simulated",
        ]

    rows: list[list[Cell | str]] = [
        [
            "full shoe (exact)",
            Cell("—", "r"),
            Cell(pct(exact_edge, 4, sign=True), "r"),
            Cell("—", "r"),
            Cell("—", "r"),
            Cell("—", "r"),
            Cell("—", "r"),
            "exact",
        ],
        line("continuous shuffle", continuous),
        line("shoe to the cut card", shoe),
    ]
    s.add(
        TableBlock(
            (
                "dealing",
                "rounds",
                "house edge per initial bet, 95%",
                "per unit wagered",
                "amount wagered per round",
                "SD per round",
                "rounds per shoe",
                "how",
            ),
            rows,
            caption=amount_note,
        )
    )
    effect = shoe.edge - exact_edge
    half = Z95 * shoe.se
    against = shoe.edge - continuous.edge
    half2 = Z95 * math.hypot(shoe.se, continuous.se)
    verdict = (
        "the interval holds 0: at this number of rounds the cut card's effect is not told apart from none"
        if abs(effect) <= half
        else f"the interval excludes 0: the cut card {'raises' if effect > 0 else 'lowers'} the house edge"
    )
    s.paragraph(
        f"Cut-card effect (shoe − exact full shoe): {pct(effect, 4, sign=True)}, 95% interval "
        f"{pct(effect - half, 4, sign=True)} to {pct(effect + half, 4, sign=True)}; {verdict}. Shoe − continuous "
        f"(both simulated): {pct(against, 4, sign=True)} ± {pct(half2, 4)}. More rounds (--rounds) narrow both "
        f"intervals as 1/√rounds; the shoe run took {shoe.seconds:.2f} s."
    )
    return s


def amount_note(run: TableRun) -> str:
    """What the amount wagered per round is and how precise."""
    return (
        f"Amount wagered per round: the initial bet plus every double and split stake, simulated; its 95% "
        f"interval is at most ± {Z95 * run.amount_se:.4f} (a round stakes 1 to {run.amount_max} units, which "
        "bounds its variance)."
    )


__all__ = [
    "DIST_ROUNDS",
    "RoundSample",
    "TableRun",
    "amount_note",
    "cut_card_section",
    "deals_from_shoe",
    "derived_seed",
    "distribution_section",
    "sample_rounds",
    "table_run",
]
