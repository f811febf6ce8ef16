"""PAR sheets of roulette and sic bo: a warning when a bet favours the player (with the options that cause
it), the rules listing, every bet's exact house edge, hit frequency and SD, the exact distribution of each
bet's result per round with each outcome's contribution to the edge, the hold ranges, a session's result, a
Monte Carlo confirmation, and the rules' fingerprint with a sign-off block — as one
:class:`~croupier.report.html.Report`.

The exact figures are :mod:`croupier.analysis.odds` (enumeration of the 37 pockets or the 216 ordered rolls).
The simulation draws pockets (``integers(0, 37)``) or three dice (``integers(1, 7)``) from numpy's PCG64
seeded through a ``SeedSequence``, in chunks; each bet's net for each result is settled by the engine's own
payout rules (:meth:`~croupier.roulette.bets.Bet.wins_on` with the table's odds, :func:`~croupier.sicbo.bets.
odds_for`), so the simulated means rest on the settlement code, not on the tallied odds. A run is summarised
without loss by how often each result came up, so any number of rounds takes memory of one chunk.

Every bet is simulated on its own stream of spins or rolls (stream ``k`` of the seed, :func:`simulate_bets`):
bets sharing one stream are correlated (every representative roulette placement covers 17, so one lucky
pocket moved six intervals at once), and the count of exact values outside their 95% intervals would not be
the Binomial(n, 5%) the reader is told to expect. With independent streams it is.

The blackjack PAR sheet is assembled from the same sections by ``croupier.report.blackjack.blackjack_par``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from matplotlib.figure import Figure

from croupier import __version__
from croupier.analysis.odds import BetOdds, odds_table, roulette_placement
from croupier.games import game as game_of
from croupier.primitives.dice import ALL_ROLLS
from croupier.primitives.wheel import POCKETS
from croupier.report.filing import causes, filing_section, fingerprint
from croupier.report.html import Cell, FigureBlock, Report, Section, TableBlock
from croupier.report.risk import (
    OUTCOME_HEADERS,
    PerRound,
    exact_hold_ranges,
    hold_section,
    outcome_rows,
    per_round_table,
    session_distribution,
)
from croupier.report.sections import BetRow, McRow, bets_section, exact, monte_carlo_section, pct, rules_section
from croupier.roulette.bets import BET_TYPES as ROULETTE_TYPES
from croupier.roulette.bets import Bet as RouletteBet
from croupier.roulette.bets import covered_numbers
from croupier.rulesdoc import differences
from croupier.sicbo.bets import Bet as SicBoBet
from croupier.sicbo.bets import BetType as SicBoBetType
from croupier.sicbo.bets import odds_for
from croupier.sicbo.rules import TOTALS

DEFAULT_ROUNDS = 1_000_000
"""Spins or rolls simulated by default."""
MAX_ROUNDS = 10**8
"""The most rounds a PAR sheet simulates for each bet (about a minute of drawing for every bet together)."""
SESSION_ROUNDS = 100
"""Rounds in the "session" whose result the report shows."""
_CHUNK = 1 << 20
_SESSION_SAMPLE = 1_000_000
"""At most this many rounds (the first) are grouped into simulated sessions."""

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class WagerBet:
    """A bet of a roulette or sic bo PAR sheet: its exact odds and its net per unit for every equally likely
    result (37 pockets, or the 216 ordered rolls of :data:`~croupier.primitives.dice.ALL_ROLLS`)."""

    odds: BetOdds
    nets: tuple[Fraction, ...]

    @property
    def name(self) -> str:
        """The bet's name in the odds table (``straight``, ``total_10``)."""
        return self.odds.bet


def wager_bets(game: str, rules: Any) -> list[WagerBet]:
    """Every bet of ``game`` (``roulette`` or ``sicbo``) under ``rules``, with its net for every result, settled
    by the engine's payout rules for the same placement :mod:`croupier.analysis.odds` analyses."""
    table = odds_table(game, rules)
    return _roulette_bets(rules, table) if game == "roulette" else _sicbo_bets(rules, table)


def _roulette_bets(rules: Any, table: Sequence[BetOdds]) -> list[WagerBet]:
    out = []
    for bet_type, odds in zip(ROULETTE_TYPES, table, strict=True):
        place = roulette_placement(rules, bet_type)
        covers = covered_numbers(rules, bet_type, place.get("numbers"), place.get("index"))
        bet = RouletteBet("par", bet_type, covers, 1)
        pays = rules.odds(bet_type.value)
        out.append(WagerBet(odds, tuple(pays if bet.wins_on(p) else Fraction(-1) for p in POCKETS)))
    return out


def _sicbo_bets(rules: Any, table: Sequence[BetOdds]) -> list[WagerBet]:
    # The placements of croupier.analysis.odds.sicbo_odds, in its order: single and triple on face 1.
    placements: list[tuple[SicBoBetType, int | None]] = [
        (SicBoBetType.SMALL, None),
        (SicBoBetType.BIG, None),
        (SicBoBetType.SINGLE, 1),
        (SicBoBetType.TRIPLE, 1),
        (SicBoBetType.ANY_TRIPLE, None),
        *((SicBoBetType.TOTAL, t) for t in TOTALS),
    ]
    out = []
    for (bet_type, target), odds in zip(placements, table, strict=True):
        bet = SicBoBet("par", bet_type, 1, target)
        nets = []
        for dice in ALL_ROLLS:
            paid = odds_for(rules, bet, dice)
            nets.append(paid if paid is not None else Fraction(-1))
        out.append(WagerBet(odds, tuple(nets)))
    return out


# -- simulation -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Simulation:
    """A simulated run: how often each result came up, the first results in order (for sessions), the seed."""

    counts: Ints
    first: Ints
    rounds: int
    seed: int

    def mean_and_se(self, nets: Sequence[Fraction]) -> tuple[float, float]:
        """The simulated mean net per unit of a bet with these per-result nets, and its standard error."""
        x = np.array([float(v) for v in nets])
        n = self.rounds
        mean = float(self.counts @ x) / n
        second = float(self.counts @ (x * x)) / n
        var = max(second - mean * mean, 0.0) * n / (n - 1) if n > 1 else 0.0
        return mean, math.sqrt(var / n)


def _check_run(rounds: int, seed: int | None) -> None:
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise ValueError(f"rounds {rounds!r} must be a whole number from 1 to {MAX_ROUNDS:,}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ValueError(f"seed {seed!r} must be a whole number ≥ 0")


def _draw(game: str, rounds: int, seq: np.random.SeedSequence, keep: int) -> tuple[Ints, Ints]:
    """How often each result came up in ``rounds`` draws from ``seq``, and the first ``keep`` results."""
    rng = np.random.Generator(np.random.PCG64(seq))
    size = len(POCKETS) if game == "roulette" else len(ALL_ROLLS)
    counts = np.zeros(size, np.int64)
    first: Ints | None = None
    left = rounds
    while left:
        k = min(left, _CHUNK)
        if game == "roulette":
            results = rng.integers(0, 37, size=k, dtype=np.int64)
        else:  # ALL_ROLLS is product(1..6, repeat=3): roll (a, b, c) is at 36(a−1) + 6(b−1) + (c−1)
            dice = rng.integers(1, 7, size=(k, 3), dtype=np.int64)
            results = 36 * (dice[:, 0] - 1) + 6 * (dice[:, 1] - 1) + (dice[:, 2] - 1)
        counts += np.bincount(results, minlength=size)
        if first is None:
            first = results[:keep].copy()
        left -= k
    assert first is not None
    return counts, first


def simulate(game: str, rounds: int, seed: int | None = None) -> Simulation:
    """Draw ``rounds`` spins (37 pockets) or rolls (three dice) from a seeded PCG64; ``seed`` None takes fresh
    OS entropy (recorded in the result, so the run can be repeated)."""
    _check_run(rounds, seed)
    seq = np.random.SeedSequence(seed)
    counts, first = _draw(game, rounds, seq, _SESSION_SAMPLE)
    return Simulation(counts, first, rounds, int(seq.entropy))  # type: ignore[arg-type]


def simulate_bets(
    game: str, bets: int, rounds: int, seed: int | None = None, *, keep: Sequence[int] = ()
) -> list[Simulation]:
    """``rounds`` spins or rolls for each of ``bets`` bets, bet ``k`` on its own stream (``SeedSequence(seed,
    spawn_key=(k,))``): independent runs, so that the bets' simulated figures are independent. ``seed`` None
    takes fresh OS entropy (recorded). The bets numbered in ``keep`` keep their first results (for sessions)."""
    _check_run(rounds, seed)
    root = np.random.SeedSequence(seed)
    used = int(root.entropy)  # type: ignore[arg-type]
    out = []
    for k in range(bets):
        seq = np.random.SeedSequence(used, spawn_key=(k,))
        counts, first = _draw(game, rounds, seq, _SESSION_SAMPLE if k in keep else 0)
        out.append(Simulation(counts, first, rounds, used))
    return out


# -- sessions -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionFigures:
    """A session of ``rounds`` unit bets on one bet: expected net, SD and P(ahead / even / behind)."""

    bet: str
    expected: float
    sd: float
    ahead: float | None
    even: float | None
    behind: float | None


def session_figures(odds: BetOdds, rounds: int) -> tuple[SessionFigures, tuple[Floats, Floats] | None]:
    """The session figures of a bet and its exact session distribution (if not too large)."""
    dist = session_distribution(odds, rounds)
    ahead = even = behind = None
    if dist is not None:
        support, probs = dist
        ahead = float(probs[support > 0].sum())
        even = float(probs[support == 0].sum())
        behind = float(probs[support < 0].sum())
    return SessionFigures(odds.bet, float(odds.ev) * rounds, odds.sd * math.sqrt(rounds), ahead, even, behind), dist


# -- figures -------------------------------------------------------------------------------------------------


def edge_figure(bets: Sequence[WagerBet], title: str) -> Figure:
    """House edge by bet, as horizontal bars labelled with the percentage."""
    names = [b.name for b in bets]
    edges = [float(b.odds.house_edge) * 100 for b in bets]
    fig = Figure(figsize=(7.5, 0.9 + 0.25 * len(bets)))
    ax = fig.add_subplot()
    ys = list(range(len(bets)))[::-1]
    colours = ["#c0392b" if e > 0 else "#27ae60" for e in edges]
    ax.barh(ys, edges, color=colours)
    for y, e in zip(ys, edges, strict=True):
        ax.text(e, y, f" {e:.4f}%", va="center", ha="left" if e >= 0 else "right", fontsize=7)
    ax.set_yticks(ys, names, fontsize=7)
    ax.set_xlabel("house edge, % of the stake")
    ax.set_title(title, fontsize=10)
    ax.set_xlim(min(0.0, *edges) * 1.25, max(0.0, *edges) * 1.25 + 0.5)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def session_figure(
    chosen: Sequence[tuple[WagerBet, tuple[Floats, Floats] | None, Simulation | None]], rounds: int
) -> Figure:
    """One panel per bet: the exact distribution of a session's net (line) and the simulated sessions' relative
    frequencies (bars, from the first results of the bet's own simulated stream)."""
    fig = Figure(figsize=(7.5, 2.3 * len(chosen)))
    axes = fig.subplots(len(chosen), 1, squeeze=False)[:, 0]
    for ax, (bet, dist, sim) in zip(axes, chosen, strict=True):
        if sim is not None and len(sim.first) >= rounds * 50:
            nets = np.array([float(v) for v in bet.nets])
            k = len(sim.first) // rounds
            sessions = nets[sim.first[: k * rounds]].reshape(k, rounds).sum(axis=1)
            values, freq = np.unique(np.round(sessions, 9), return_counts=True)
            ax.bar(values, freq / k, width=_bar_width(values), color="#9ecae1", label=f"simulated ({k:,} sessions)")
        if dist is not None:
            support, probs = dist
            keep = probs > 1e-7 * probs.max()  # the visible part: far tails are left out of the plot
            ax.plot(support[keep], probs[keep], ".-", color="#08306b", ms=2, lw=0.7, label="exact")
        ax.axvline(0.0, color="black", lw=0.6)
        ax.set_title(f"{bet.name}: net after {rounds} unit bets", fontsize=9)
        ax.set_ylabel("probability", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def _bar_width(values: Floats) -> float:
    if len(values) < 2:
        return 1.0
    return float(np.min(np.diff(values))) * 0.8


def _representative(bets: Sequence[WagerBet]) -> list[WagerBet]:
    """The bets of lowest, median and highest SD (each once)."""
    ordered = sorted(bets, key=lambda b: b.odds.sd)
    picks = [ordered[0], ordered[len(ordered) // 2], ordered[-1]]
    out: list[WagerBet] = []
    for b in picks:
        if b not in out:
            out.append(b)
    return out


# -- the report ---------------------------------------------------------------------------------------------


def roulette_par(rules: Any, *, rounds: int | None, seed: int | None, source: str = "") -> Report:
    """The PAR sheet of a roulette table (:func:`wager_par`; ``rounds`` None: the default number of spins)."""
    return wager_par("roulette", rules, rounds=DEFAULT_ROUNDS if rounds is None else rounds, seed=seed, source=source)


def sicbo_par(rules: Any, *, rounds: int | None, seed: int | None, source: str = "") -> Report:
    """The PAR sheet of a sic bo table (:func:`wager_par`; ``rounds`` None: the default number of rolls)."""
    return wager_par("sicbo", rules, rounds=DEFAULT_ROUNDS if rounds is None else rounds, seed=seed, source=source)


def wager_par(
    game: str,
    rules: Any,
    *,
    rounds: int = DEFAULT_ROUNDS,
    seed: int | None = None,
    source: str = "",
) -> Report:
    """The PAR sheet of a roulette or sic bo table as a :class:`~croupier.report.html.Report`.

    ``rounds`` spins or rolls are simulated for each bet (0: no simulation) with ``seed`` (None: fresh entropy,
    recorded in the report); ``source`` says where the rules came from (a preset, a file) for the report's
    header and the command that reproduces the rules' fingerprint.
    """
    if game not in ("roulette", "sicbo"):
        raise ValueError(f"{game!r} has no wager PAR sheet (roulette or sicbo)")
    g = game_of(game)
    what = "spins" if game == "roulette" else "rolls"
    bets = wager_bets(game, rules)
    statute = g.presets["statute"]
    diffs = differences(rules, statute)
    shown = _representative(bets)
    # the session plot's bets keep their first results; the others need only their counts
    keep = [i for i, b in enumerate(bets) if b in shown]
    sims = simulate_bets(game, len(bets), rounds, seed, keep=keep) if rounds else []
    digest = fingerprint(game, rules)

    report = Report(
        f"{g.title} PAR sheet",
        f"{g.statute}: exact house edge, result per round, hold ranges and standard deviation of every bet, with a "
        "Monte Carlo confirmation",
        footer=f"{g.title} PAR sheet · rules SHA-256 {digest[:16]}… · croupier {__version__}",
    )
    report.meta += [
        ("game", f"{g.title} ({g.statute})"),
        ("rules", source or "given in Python"),
        ("rules fingerprint (SHA-256)", digest),
        ("differences from the statute", str(len(diffs)) if diffs else "none"),
        ("simulation", f"{rounds:,} {what} for each bet, seed {sims[0].seed}" if sims else "none"),
        ("software", f"croupier {__version__}"),
    ]
    report.warnings += _favoured(game, rules, statute, bets)
    report.add(_summary(g.title, bets, diffs, what))
    report.add(rules_section(rules))

    bets_part = bets_section(
        [
            BetRow(b.name, b.odds.house_edge, b.odds.win_probability, b.odds.sd, b.odds.rule, _pays(b.odds))
            for b in bets
        ],
        title="Bets",
        note=(
            f"Exact figures by enumeration of the {len(bets[0].nets)} equally likely "
            f"{'pockets' if game == 'roulette' else 'ordered rolls of three dice'}, each bet settled by the "
            "table's own paytable. Odds are 'A to 1'."
        ),
    )
    bets_part.add(FigureBlock(edge_figure(bets, f"{g.title}: house edge by bet"), "House edge by bet."))
    report.add(bets_part)
    report.add(_per_round(bets, what))
    report.add(_holds(bets, what))
    report.add(_sessions(bets, shown, sims, what))
    if sims:
        rows = []
        for b, sim in zip(bets, sims, strict=True):
            mean, se = sim.mean_and_se(b.nets)
            rows.append(McRow(f"house edge: {b.name}", b.odds.house_edge, -mean, se))
        report.add(
            monte_carlo_section(
                rows,
                rounds=rounds,
                seed=sims[0].seed,
                what=f"{what} for each bet",
                independent=True,
                note=(
                    f"Every bet is staked on {rounds:,} {what} of its own (bet k on stream k of the seed: "
                    "independent runs) and settled by the engine's payout rules; the simulated house edge is minus "
                    "the mean net per unit, SE its standard error from the bet's own per-round variance."
                ),
            )
        )
    report.add(filing_section(game, rules, source=source, generated=report.generated))
    return report


def _favoured(game: str, rules: Any, statute: Any, bets: Sequence[WagerBet]) -> list[str]:
    """A warning for each bet whose house edge is zero or negative, naming the options that cause it."""
    out = []
    for i, b in enumerate(bets):
        if b.odds.house_edge > 0:
            continue

        def edge_of(r: Any, i: int = i) -> Fraction:
            return odds_table(game, r)[i].house_edge

        why = causes(game, rules, statute, edge_of)
        side = "favours the player" if b.odds.house_edge < 0 else "gives the house no edge"
        out.append(
            f"The {b.name} bet {side}: house edge {exact(b.odds.house_edge)} = {pct(b.odds.house_edge, sign=True)}, "
            f"{why.text()}."
        )
    return out


def _pays(odds: BetOdds) -> str:
    if isinstance(odds.pays, Fraction):
        return exact(odds.pays)
    return "/".join(exact(p) for p in odds.pays)


def _summary(title: str, bets: Sequence[WagerBet], diffs: Sequence[Any], what: str) -> Section:
    low = min(bets, key=lambda b: b.odds.house_edge)
    high = max(bets, key=lambda b: b.odds.house_edge)
    s = Section("Summary")
    if low.odds.house_edge == high.odds.house_edge:
        s.paragraph(
            f"{len(bets)} bets, every one with the same house edge, {exact(low.odds.house_edge)} = "
            f"{pct(low.odds.house_edge)}."
        )
    else:
        s.paragraph(
            f"{len(bets)} bets. The lowest house edge is {low.name}'s, {exact(low.odds.house_edge)} = "
            f"{pct(low.odds.house_edge)}; the highest {high.name}'s, {exact(high.odds.house_edge)} = "
            f"{pct(high.odds.house_edge)}."
        )
    if diffs:
        s.paragraph(
            f"These rules differ from the statute in {len(diffs)} place(s): "
            + ", ".join(f"{d.option} ({d.kind})" for d in diffs)
            + ". See Rules."
        )
    else:
        s.paragraph(f"These are the statute's {title} rules.")
    favoured = [b.name for b in bets if b.odds.house_edge <= 0]
    if favoured:
        s.paragraph(f"Bets without a house edge: {', '.join(favoured)} (see the warnings above).", warning=True)
    else:
        s.paragraph("Every bet has a positive house edge: none favours the player.")
    return s


def _per_round(bets: Sequence[WagerBet], what: str) -> Section:
    s = Section("Result per round")
    s.paragraph(
        "Exact, by enumeration: the distribution of each bet's net in one round, per unit staked, with each "
        "outcome's contribution to the house edge (−probability × net; the contributions add up to the edge). A "
        f"bet is one stake settled on the {what[:-1]} it is placed on, so the amount wagered per round is the "
        "initial bet and the edge per unit wagered is the edge per unit of the initial bet."
    )
    s.add(
        per_round_table(
            [
                PerRound(
                    b.name,
                    "1 unit",
                    pct(b.odds.house_edge, sign=True),
                    pct(b.odds.house_edge, sign=True),
                    f"{b.odds.sd:.4f}",
                    "exact",
                )
                for b in bets
            ],
            caption="Per unit of the initial bet; the SD is that of the player's net in one round.",
        )
    )
    rows: list[list[Cell | str]] = []
    for b in bets:
        rows += outcome_rows(b.odds)
    s.add(TableBlock(OUTCOME_HEADERS, rows, heading="Outcomes: the distribution of the net per round"))
    return s


def _holds(bets: Sequence[WagerBet], what: str) -> Section:
    return hold_section(
        [(b.name, exact_hold_ranges(b.odds)) for b in bets],
        note=(
            f"What a house compares with its actual hold: the central 90%, 95% and 99% ranges of its result "
            f"over 1,000 to 1,000,000 {what} with one unit on the bet every time, as a share of the amount "
            "wagered. 'exact': from the exact distribution of the sum (FFT convolution of the per-round "
            "distribution; where the sum's support is too wide, on a window around the mean outside which "
            "Bernstein's inequality leaves less than 10⁻⁶ of probability); 'normal approx.': mean = house edge, "
            "SD = the bet's SD / √rounds, used only where even that window is too wide, at numbers of rounds where "
            "the normal approximation is "
            "close. A table's hold mixes its bets in proportion to what is staked on each."
        ),
    )


def _sessions(bets: Sequence[WagerBet], shown: Sequence[WagerBet], sims: Sequence[Simulation], what: str) -> Section:
    s = Section("A session's result")
    s.paragraph(
        f"A session of {SESSION_ROUNDS} {what} with one unit on the bet every time: the expected net, its standard "
        "deviation, and the exact chances of ending ahead, even or behind (the distribution of the sum of "
        f"{SESSION_ROUNDS} independent results, by convolution)."
    )
    rows: list[list[Cell | str]] = []
    dists = {}
    for b in bets:
        f, dist = session_figures(b.odds, SESSION_ROUNDS)
        dists[b.name] = dist

        def p(x: float | None) -> Cell:
            return Cell("—" if x is None else f"{x:.4f}", "r")

        rows.append(
            [b.name, Cell(f"{f.expected:+.4f}", "r"), Cell(f"{f.sd:.4f}", "r"), p(f.ahead), p(f.even), p(f.behind)]
        )
    s.add(TableBlock(("bet", "expected net", "SD", "P(ahead)", "P(even)", "P(behind)"), rows))
    sim_of = dict(zip((b.name for b in bets), sims, strict=False))
    chosen = [(b, dists[b.name], sim_of.get(b.name)) for b in shown]
    s.add(
        FigureBlock(
            session_figure(chosen, SESSION_ROUNDS),
            f"The net of a {SESSION_ROUNDS}-{what[:-1]} session for the bets of lowest, median and highest SD: exact "
            "distribution and simulated sessions (the first simulated rounds of the bet's own stream, in order).",
        )
    )
    return s
