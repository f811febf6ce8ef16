"""What a house compares with its books: the spread of a bet's result, per round and over many rounds.

* :func:`session_distribution` — the exact distribution of the net of ``n`` independent unit bets (FFT
  convolution of the one-round distribution);
* hold ranges — the central 90/95/99% range of the house's result over 1,000 to 1,000,000 rounds as a share of
  the amount wagered (the *hold*), exact from that distribution where its support is small enough
  (:func:`exact_hold_ranges`), otherwise by the normal approximation (:func:`normal_hold_ranges`); each range
  says which;
* intervals for simulated figures: :func:`wilson` (a share of rounds), :func:`sd_interval` (a standard
  deviation, from the fourth moment);
* :func:`hold_section` and :func:`per_round_table`, the sections and tables the PAR sheets show them in.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

from croupier.analysis.odds import BetOdds
from croupier.report.html import Cell, Section, TableBlock
from croupier.report.sections import Z95, exact, pct

Floats = npt.NDArray[np.float64]

HORIZONS: tuple[int, ...] = (1_000, 10_000, 100_000, 1_000_000)
"""The numbers of rounds the hold ranges are given for."""
LEVELS: tuple[float, ...] = (0.90, 0.95, 0.99)
"""The probabilities of the central ranges."""
MAX_SUPPORT = 4_000_000
"""Largest support (in the bet's smallest unit of net) of an exact session distribution."""
HOLD_SUPPORT = 1 << 20
"""Largest lattice of an exact hold range (an FFT of that size takes a few hundredths of a second); where the
sum needs more, the normal approximation is used, and said."""
HOLD_TOLERANCE = 1e-6
"""The probability an exact hold range may misplace: a sum whose support is wider than the lattice is computed
modulo the lattice's size, and the mass that folds in from outside a window around the mean is at most this
(Bernstein's inequality sizes the window)."""


def z_of(level: float) -> float:
    """The two-sided normal quantile of a central range of probability ``level`` (1.6449 for 90%)."""
    return NormalDist().inv_cdf(0.5 + level / 2)


def session_distribution(odds: BetOdds, rounds: int, max_support: int = MAX_SUPPORT) -> tuple[Floats, Floats] | None:
    """The exact distribution of the net of ``rounds`` independent unit bets (support, probabilities), by FFT
    convolution of the one-round distribution; ``None`` where the support would exceed ``max_support``."""
    scale = math.lcm(*(o.net.denominator for o in odds.outcomes))
    nets = [int(o.net * scale) for o in odds.outcomes]
    low, high = min(nets), max(nets)
    span = (high - low) * rounds + 1
    if span > max_support:
        return None
    one = np.zeros(high - low + 1)
    for o, v in zip(odds.outcomes, nets, strict=True):
        one[v - low] += float(o.probability)
    size = 1 << (span - 1).bit_length()
    probs = np.fft.irfft(np.fft.rfft(one, size) ** rounds, size)[:span]
    probs = np.clip(probs, 0.0, None)
    probs /= probs.sum()
    support = (np.arange(span) + low * rounds) / scale
    return support, probs


# -- hold ranges -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HoldRange:
    """The central range of probability ``level`` of the house's hold (its result as a share of the amount
    wagered) over ``rounds`` rounds; ``exact`` says whether it comes from the exact distribution (else the
    normal approximation)."""

    rounds: int
    level: float
    low: float
    high: float
    exact: bool


def normal_hold_ranges(
    edge: float, sd: float, horizons: Sequence[int] = HORIZONS, levels: Sequence[float] = LEVELS
) -> list[HoldRange]:
    """The hold ranges by the normal approximation: the hold over ``n`` rounds is about normal with mean
    ``edge`` and SD ``sd / √n`` (``edge`` and ``sd`` per round, per unit wagered)."""
    return [
        HoldRange(n, level, edge - z_of(level) * sd / math.sqrt(n), edge + z_of(level) * sd / math.sqrt(n), False)
        for n in horizons
        for level in levels
    ]


def _quantile(support: Floats, cdf: Floats, p: float) -> float:
    """The smallest value whose distribution function reaches ``p`` (a hair of rounding allowed)."""
    i = int(np.searchsorted(cdf, p - 1e-12, side="left"))
    return float(support[min(i, len(support) - 1)])


def sum_distribution(
    odds: BetOdds, rounds: int, max_size: int = HOLD_SUPPORT, tolerance: float = HOLD_TOLERANCE
) -> tuple[Floats, Floats] | None:
    """The distribution of the net of ``rounds`` independent unit bets (support, probabilities) on a lattice of
    at most ``max_size`` points: the whole support when it fits (exact), else a window around the mean wide
    enough that, by Bernstein's inequality, at most ``tolerance`` of probability lies outside it; the sum is then
    computed modulo the window's size (a circular convolution), so what lies outside folds in and misplaces at
    most ``tolerance``. None where even that window does not fit."""
    scale = math.lcm(*(o.net.denominator for o in odds.outcomes))
    nets = [int(o.net * scale) for o in odds.outcomes]
    span = (max(nets) - min(nets)) * rounds + 1
    mean = float(odds.ev) * scale
    # Bernstein: P(|S − ES| ≥ t) ≤ 2·exp(−t²/2 / (n·σ² + b·t/3)) with |X − EX| ≤ b; solved for the tolerance.
    big = max(abs(v - mean) for v in nets)
    var = float(odds.variance) * scale * scale * rounds
    log = math.log(2 / tolerance)
    reach = log * big / 3 + math.sqrt((log * big / 3) ** 2 + 2 * log * var)
    window = span if span <= max_size else 2 * math.ceil(reach) + 3
    if window > max_size:
        return None
    size = 1 << (window - 1).bit_length()
    one = np.zeros(size)
    for o, v in zip(odds.outcomes, nets, strict=True):
        one[v % size] += float(o.probability)
    folded = np.clip(np.fft.irfft(np.fft.rfft(one) ** rounds, size), 0.0, None)
    folded /= folded.sum()
    centre = round(float(odds.ev) * scale * rounds)
    start = min(nets) * rounds if span <= size else centre - size // 2
    values = start + (np.arange(size) - start) % size  # the value in the window of each residue
    order = np.argsort(values)
    return values[order] / scale, folded[order]


def exact_hold_ranges(
    odds: BetOdds,
    horizons: Sequence[int] = HORIZONS,
    levels: Sequence[float] = LEVELS,
    max_size: int = HOLD_SUPPORT,
) -> list[HoldRange]:
    """The hold ranges of one unit bet placed every round: from the exact distribution of the sum
    (:func:`sum_distribution`: the range holds at least ``level``, the discrete tails left out being each below
    ``(1 − level)/2``), else by the normal approximation."""
    out: list[HoldRange] = []
    for n in horizons:
        dist = sum_distribution(odds, n, max_size)
        if dist is None:
            out += normal_hold_ranges(float(odds.house_edge), odds.sd, (n,), levels)
            continue
        support, probs = dist
        cdf = np.cumsum(probs)
        for level in levels:
            tail = (1 - level) / 2
            # the house's result is minus the player's: its range is minus the player's, reversed
            low_player, high_player = _quantile(support, cdf, tail), _quantile(support, cdf, 1 - tail)
            out.append(HoldRange(n, level, -high_player / n, -low_player / n, True))
    return out


def hold_section(
    rows: Sequence[tuple[str, Sequence[HoldRange]]],
    *,
    note: str,
    title: str = "Hold ranges",
    digits: int = 2,
) -> Section:
    """A table of hold ranges: one line per bet and number of rounds, a column per probability, each line
    saying whether it is exact or the normal approximation."""
    section = Section(title)
    section.paragraph(note)
    levels = sorted({r.level for _, ranges in rows for r in ranges})
    table: list[list[Cell | str]] = []
    for name, ranges in rows:
        by_rounds: dict[int, dict[float, HoldRange]] = {}
        for r in ranges:
            by_rounds.setdefault(r.rounds, {})[r.level] = r
        for i, (n, by_level) in enumerate(sorted(by_rounds.items())):
            method = "exact" if all(r.exact for r in by_level.values()) else "normal approx."
            line: list[Cell | str] = [name if i == 0 else "", Cell(f"{n:,}", "r"), method]
            for level in levels:
                r = by_level[level]
                line.append(Cell(f"{_share(r.low, digits)} to {_share(r.high, digits)}", "r"))
            table.append(line)
    section.add(
        TableBlock(
            ("bet", "rounds", "method", *(f"{level:.0%} range" for level in levels)),
            table,
            caption="The house's result over that many rounds as a share of the amount wagered; positive: the "
            "house wins. Each range is central: the hold falls below it, or above it, with at most half the rest "
            "of the probability.",
        )
    )
    return section


# -- intervals of simulated figures -----------------------------------------------------------------------------


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share ``k / n`` (good near 0 and 1, where the normal interval is not)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def sd_interval(values: Floats, weights: Floats, rounds: int, z: float = Z95) -> tuple[float, float, float]:
    """The SD of a distribution given as values and their shares of the rounds, with a normal interval for an
    SD estimated from ``rounds`` rounds (the delta method: ``Var(s²) ≈ (μ₄ − σ⁴)/n``)."""
    mean = float(values @ weights)
    centred = values - mean
    var = float((centred**2) @ weights)
    m4 = float((centred**4) @ weights)
    sd = math.sqrt(var)
    se = math.sqrt(max(m4 - var * var, 0.0) / max(rounds, 1)) / (2 * sd) if sd > 0 else 0.0
    return sd, sd - z * se, sd + z * se


# -- the per-round table -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PerRound:
    """A bet's figures per round: the average amount wagered (units of the initial bet), the house edge per unit
    of the initial bet and per unit wagered, and the SD of the net per unit of the initial bet; ``how`` says
    where they come from (exact, simulated)."""

    bet: str
    amount: str
    edge_initial: str
    edge_wagered: str
    sd: str
    how: str


def per_round_table(rows: Sequence[PerRound], caption: str) -> TableBlock:
    """:class:`PerRound` rows as a table."""
    return TableBlock(
        (
            "bet",
            "amount wagered per round",
            "edge per unit of initial bet",
            "edge per unit wagered",
            "SD of the net per round",
            "how",
        ),
        [
            [r.bet, Cell(r.amount, "r"), Cell(r.edge_initial, "r"), Cell(r.edge_wagered, "r"), Cell(r.sd, "r"), r.how]
            for r in rows
        ],
        heading="Per round",
        caption=caption,
    )


def outcome_rows(odds: BetOdds, name: str | None = None) -> list[list[Cell | str]]:
    """A bet's outcomes: net per unit (the paytable's odds on a win), exact probability, and its contribution to
    the house edge (−probability × net), then a total line whose contribution is the house edge."""
    rows: list[list[Cell | str]] = []
    for i, o in enumerate(odds.outcomes):
        p = o.probability
        rows.append(
            [
                (name or odds.bet) if i == 0 else "",
                o.name,
                Cell(_net(o.net), "r"),
                Cell(_probability(p), "r"),
                Cell(pct(-p * o.net, 4, sign=True), "r"),
            ]
        )
    total = sum((o.probability for o in odds.outcomes), Fraction(0))
    rows.append(
        [
            "",
            Cell("total: the house edge", "dim"),
            "",
            Cell(_probability(total), "r"),
            Cell(_edge(odds.house_edge), "r"),
        ]
    )
    return rows


OUTCOME_HEADERS = ("bet", "outcome", "net per unit", "probability", "contribution to the house edge")


MAX_DENOMINATOR = 10**12
"""Fractions with a larger denominator (a probability carried from a float) are shown in decimals only."""


def _probability(p: Fraction) -> str:
    if p.denominator > MAX_DENOMINATOR:
        return f"{float(p):.10f}"
    return f"{exact(p)} = {float(p):.8f}" if p.denominator > 1 else exact(p)


def _share(x: float, digits: int) -> str:
    """A signed percentage, without the sign of a value that rounds to zero."""
    rounded = round(x * 100, digits)
    return f"{rounded:+.{digits}f}%" if rounded else f"{0:.{digits}f}%"


def _edge(edge: Fraction) -> str:
    shown = pct(edge, 4, sign=True)
    return shown if edge.denominator > MAX_DENOMINATOR else f"{shown} = {exact(edge)}"


def _net(net: Fraction) -> str:
    return f"{'+' if net > 0 else ''}{exact(net)}"


__all__ = [
    "HOLD_SUPPORT",
    "HORIZONS",
    "LEVELS",
    "OUTCOME_HEADERS",
    "HoldRange",
    "PerRound",
    "exact_hold_ranges",
    "hold_section",
    "normal_hold_ranges",
    "outcome_rows",
    "per_round_table",
    "sd_interval",
    "session_distribution",
    "sum_distribution",
    "wilson",
]
