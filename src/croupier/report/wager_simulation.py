"""The report of ``croupier simulate roulette|sicbo --report FILE.html``: one self-contained HTML page (the
project's :class:`~croupier.report.html.Report`) with the bets' exact edges and their Monte Carlo confirmation,
the fan of bankroll paths, the histogram of session results beside the exact figures, and the spread of the
house's hold over 1,000 to 1,000,000 spins, simulated and by the normal approximation."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure

from croupier import __version__
from croupier.analysis.wager_sim import Fan, HoldSpread, SessionFigures, WagerSimReport
from croupier.games import game
from croupier.report.html import Cell, FigureBlock, Report, Section, TableBlock
from croupier.report.sections import BetRow, McRow, bets_section, monte_carlo_section, pct, rules_section

_HISTOGRAM_BARS = 80
"""Above this many distinct results the histogram groups them into this many bins."""


def simulation_report(result: WagerSimReport) -> Report:
    """The report of a roulette or sic bo simulation (see the module's docstring)."""
    p = result.plan
    g = game(p.game)
    what = f"{p.round_name}s"
    report = Report(
        f"{g.title} simulation: sessions, bankroll paths and the hold",
        f"{g.statute}: {p.sessions:,} sessions of {p.spins:,} {what}, staking {', '.join(b.spec for b in p.bets)} "
        f"on every {p.round_name} from a bankroll of {p.bankroll:,} chips"
        + (" (interrupted: partial result)" if result.partial else ""),
    )
    report.meta += [
        ("game", f"{g.title} ({g.statute})"),
        ("rules", p.source or "given in Python"),
        ("bets on every " + p.round_name, ", ".join(f"{b.spec} ({b.placement})" for b in p.bets)),
        ("stakes per " + p.round_name, f"{p.stakes:,} chips"),
        ("bankroll", f"{p.bankroll:,} chips"),
        ("sessions", f"{_sessions_done(result):,} of {p.sessions:,}" if result.partial else f"{p.sessions:,}"),
        ("seed", str(p.seed)),
        ("speed", _speed(result)),
        ("software", f"croupier {__version__}"),
    ]
    if p.command:
        report.meta.append(("repeat with", p.command))
    report.add(_summary(result))
    report.add(_bets(result))
    report.add(_sessions(result))
    report.add(_hold(result))
    report.add(rules_section(p.rules))
    return report


def _sessions_done(result: WagerSimReport) -> int:
    return result.sessions.sessions if result.sessions is not None else 0


def _speed(result: WagerSimReport) -> str:
    what = f"{result.plan.round_name}s"
    if result.cpu_seconds <= 0:
        return f"{result.spins_drawn:,} {what} drawn"
    return (
        f"{result.spins_drawn:,} {what} drawn in {result.cpu_seconds:.2f} s of CPU time "
        f"({result.rounds_per_cpu_second:,.0f} per CPU second)"
    )


def _summary(result: WagerSimReport) -> Section:
    p = result.plan
    s = Section("Summary")
    s.paragraph(
        f"The house edge on the stakes of one {p.round_name}, all bets together, is exactly {result.house_edge} = "
        f"{pct(result.house_edge)}: on average the house keeps {float(result.house_edge) * p.stakes:.4f} of the "
        f"{p.stakes} chips staked on each {p.round_name}. The SD of one {p.round_name}'s net is {result.sd:.4f} per "
        "unit staked."
    )
    f = result.sessions
    if f is None:
        s.paragraph("The run was interrupted before any session completed: there are no session figures.")
    else:
        s.paragraph(
            f"Over {f.sessions:,} sessions the mean result was {f.mean:+,.2f} chips (SD {f.sd:,.2f}); "
            f"{f.ahead:.2%} of sessions ended ahead and {f.ruined:.2%} were ruined (could not stake the next "
            f"{p.round_name})."
        )
    if result.partial:
        s.paragraph(
            "The run was interrupted (Ctrl+C): the per-bet figures use the spins drawn before it stopped, the "
            "session figures the sessions it completed.",
            dim=True,
        )
    s.paragraph(
        "Every bet's net for every equally likely result was settled by the game's own engine (a round of the game "
        "with the bets placed, the bell rung and the result declared), so the simulation cannot disagree with it. "
        "Results are drawn with numpy's PCG64DXSM from streams spawned from one SeedSequence in fixed blocks: the "
        "same seed gives the same figures however the run is divided.",
        dim=True,
    )
    return s


def _bets(result: WagerSimReport) -> Section:
    p = result.plan
    section = bets_section(
        [BetRow(f"{b.spec} ({b.placement})", b.house_edge, b.hit_frequency, b.sd, b.rule) for b in p.bets],
        title="Bets",
        note=(
            f"Exact figures per unit staked, by enumeration of the {len(p.nets)} equally likely "
            f"{'pockets' if p.game == 'roulette' else 'ordered rolls of three dice'}, each bet settled by the "
            "game's engine under the table's rules (its stake, placement and paytable)."
        ),
    )
    rows = [
        McRow(f"house edge: {b.bet.spec}", b.bet.house_edge, -b.simulated.mean, b.simulated.se) for b in result.bets
    ]
    if len(result.bets) > 1:
        rows.append(McRow("house edge: all bets", result.house_edge, -result.combined.mean, result.combined.se))
    mc = monte_carlo_section(
        [r for r in rows if result.spins_drawn > 0],
        rounds=result.spins_drawn,
        seed=p.seed,
        title="Monte Carlo confirmation of the edges",
        what=f"{p.round_name}s",
        note=(
            f"Every drawn {p.round_name} counts, including those a ruined session no longer played; the simulated "
            "house edge is minus the mean net per unit staked."
        ),
    )
    section.blocks.extend(mc.blocks)
    return section


def _sessions(result: WagerSimReport) -> Section:
    p = result.plan
    s = Section("Sessions")
    f = result.sessions
    if f is None:
        s.paragraph("No session completed.")
        return s
    s.paragraph(
        f"Each session starts with {p.bankroll:,} chips and stakes {p.stakes:,} on each of its {p.spins:,} "
        f"{p.round_name}s; before each {p.round_name} the bankroll must cover the stakes, else the session stops "
        "there, ruined. A session's result is its final bankroll less the starting one. The exact column is the "
        "distribution of a session's result computed step by step over the bankroll's values (shown when small "
        "enough to compute)."
    )
    e = f.exact

    def share(x: float) -> Cell:
        return Cell(f"{x:.4%}", "r")

    dash = Cell("—", "r")
    rows: list[list[Cell | str]] = [
        ["mean result (chips)", Cell(f"{f.mean:+,.3f}", "r"), Cell(f"{e.mean:+,.3f}", "r") if e else dash],
        ["SD of the result (chips)", Cell(f"{f.sd:,.3f}", "r"), Cell(f"{e.sd:,.3f}", "r") if e else dash],
        ["ended ahead", share(f.ahead), share(e.ahead) if e else dash],
        ["ended even", share(f.even), share(e.even) if e else dash],
        ["ended behind", share(f.behind), share(e.behind) if e else dash],
        ["ruined", share(f.ruined), share(e.ruined) if e else dash],
        [f"mean {p.round_name}s played", Cell(f"{f.mean_spins_played:,.2f}", "r"), dash],
        ["hold (house win ÷ amount wagered)", share(f.hold), share(float(result.house_edge))],
    ]
    s.add(TableBlock(("figure", "simulated", "exact"), rows, heading="Session figures"))
    s.add(
        TableBlock(
            [f"{q}%" for q, _ in f.percentiles],
            [[Cell(f"{v:+,}", "r") for _, v in f.percentiles]],
            heading="Percentiles of a session's result (chips)",
            caption="The smallest result with at least that share of sessions at or below it.",
        )
    )
    if result.fan is not None:
        s.add(
            FigureBlock(
                fan_figure(result.fan, p.bankroll, p.stakes, p.round_name),
                f"The bankroll through a session: percentile bands over the first {result.fan.sessions:,} sessions, "
                f"their median, and {len(result.fan.examples)} example sessions. A ruined session stays where it "
                "stopped.",
            )
        )
    s.add(
        FigureBlock(
            histogram_figure(f, p.round_name, p.spins),
            "How many sessions ended with each result, with the simulated mean and the exact one (where computed).",
        )
    )
    return s


def _hold(result: WagerSimReport) -> Section:
    p = result.plan
    what = f"{p.round_name}s"
    s = Section("The house's hold")
    s.paragraph(
        f"The hold over N {what} is the house's win divided by the amount wagered (N × {p.stakes:,} chips). Its mean "
        f"is the house edge, {pct(result.house_edge)}, whatever N; its spread narrows as 1/√N. Simulated: "
        f"{result.hold[0].samples:,} samples for each N, each the count of every net in N {what} drawn at once "
        "(a multinomial draw, exactly the distribution of N independent results). Normal: the mean ± the normal "
        "quantiles times the exact SD of one result over √N."
    )

    def band(x: tuple[float, float, float, float], lo: int, hi: int) -> Cell:
        return Cell(f"{x[lo]:+.3%} … {x[hi]:+.3%}", "r")

    rows: list[list[Cell | str]] = [
        [
            Cell(f"{h.spins:,}", "r"),
            Cell(f"{float(h.mean):.4%}", "r"),
            Cell(f"{h.sd:.4%}", "r"),
            band(h.simulated, 1, 2),
            band(h.normal, 1, 2),
            band(h.simulated, 0, 3),
            band(h.normal, 0, 3),
        ]
        for h in result.hold
    ]
    headers = ("N", "mean", "SD", "5%-95% simulated", "5%-95% normal", "1%-99% simulated", "1%-99% normal")
    s.add(TableBlock(headers, rows))
    s.add(FigureBlock(hold_figure(result.hold, what), "The hold's 5%-95% and 1%-99% ranges against N."))
    return s


# -- figures ----------------------------------------------------------------------------------------------------


def fan_figure(fan: Fan, bankroll: int, stakes: int, round_name: str) -> Figure:
    """The fan of bankroll paths: 5-95% and 25-75% bands, the median, example paths, the starting bankroll and the
    line below which a session cannot stake its next round."""
    fig = Figure(figsize=(7.5, 3.6))
    ax = fig.add_subplot()
    x = np.asarray(fan.spins)
    bands = dict(fan.bands)
    for path in fan.examples:
        ax.plot(x, path, color="#888888", lw=0.5, alpha=0.6)
    if 5 in bands and 95 in bands:
        ax.fill_between(x, bands[5], bands[95], color="#9ecae1", alpha=0.5, label="5%-95%")
    if 25 in bands and 75 in bands:
        ax.fill_between(x, bands[25], bands[75], color="#3182bd", alpha=0.5, label="25%-75%")
    if 50 in bands:
        ax.plot(x, bands[50], color="#08306b", lw=1.4, label="median")
    ax.axhline(bankroll, color="black", lw=0.7, ls="--", label="starting bankroll")
    ax.axhline(stakes, color="#c0392b", lw=0.7, ls=":", label="one round's stakes (ruin below)")
    ax.set_xlabel(f"{round_name}s played")
    ax.set_ylabel("bankroll (chips)")
    ax.set_title("Bankroll paths", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def histogram_figure(f: SessionFigures, round_name: str, spins: int) -> Figure:
    """How many sessions ended with each result (grouped into bins when there are many distinct results)."""
    fig = Figure(figsize=(7.5, 3.2))
    ax = fig.add_subplot()
    values = np.asarray([v for v, _ in f.histogram], np.float64)
    counts = np.asarray([c for _, c in f.histogram], np.float64)
    if len(values) <= _HISTOGRAM_BARS:
        width = float(np.min(np.diff(values))) * 0.8 if len(values) > 1 else 1.0
        ax.bar(values, counts / f.sessions, width=width, color="#9ecae1")
    else:
        # Results lie on a lattice (multiples of the step between them): bins of whole lattice steps, centred on
        # lattice points, so that no bin holds more lattice points than its neighbours.
        step = math.gcd(*(int(d) for d in np.diff(values)))
        width = step * math.ceil((values[-1] - values[0]) / (step * _HISTOGRAM_BARS))
        edges = np.arange(values[0] - step / 2, values[-1] + width, width)
        ax.hist(values, bins=[float(e) for e in edges], weights=counts / f.sessions, color="#9ecae1")
    ax.axvline(0.0, color="black", lw=0.6)
    ax.axvline(f.mean, color="#08306b", lw=1.0, label=f"simulated mean {f.mean:+,.2f}")
    if f.exact is not None:
        ax.axvline(f.exact.mean, color="#c0392b", lw=1.0, ls="--", label=f"exact mean {f.exact.mean:+,.2f}")
    ax.set_xlabel(f"result after {spins:,} {round_name}s (chips)")
    ax.set_ylabel("share of sessions")
    ax.set_title("Session results", fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def hold_figure(hold: Sequence[HoldSpread], what: str) -> Figure:
    """The hold's simulated and normal 5-95% (thick) and 1-99% (thin) ranges for each N, on a log scale of N."""
    fig = Figure(figsize=(7.5, 3.2))
    ax = fig.add_subplot()
    for h in hold:
        for shift, q, colour in ((0.94, h.simulated, "#3182bd"), (1.06, h.normal, "#c0392b")):
            x = h.spins * shift
            ax.plot([x, x], [q[0] * 100, q[3] * 100], color=colour, lw=1)
            ax.plot([x, x], [q[1] * 100, q[2] * 100], color=colour, lw=4)
    if hold:
        ax.axhline(float(hold[0].mean) * 100, color="black", lw=0.7, ls="--", label="house edge")
    ax.plot([], [], color="#3182bd", lw=4, label="simulated")
    ax.plot([], [], color="#c0392b", lw=4, label="normal approximation")
    ax.set_xscale("log")
    ax.set_xlabel(f"N ({what})")
    ax.set_ylabel("hold, % of the amount wagered")
    ax.set_title("The spread of the hold", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig
