"""The certification's report (``croupier rng test --report FILE.html``): every test, its statistic, p-value and
verdict at the chosen alpha, the overall verdict, the plots (the p-values' histogram, the per-pocket and per-face
deviations), the source and the samples, and the fingerprint of the data tested. Built with
:mod:`croupier.report.html` (one self-contained HTML file; figures drawn with matplotlib, no pyplot)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure

from croupier import __version__
from croupier.report.html import Cell, CellLike, FigureBlock, Report, Section, TableBlock
from croupier.rng.certify import Certification, GameRun
from croupier.rng.results import TestResult, overall, sidak

HIST_BINS = 10


def _p(p: float | None) -> str:
    if p is None:
        return "—"
    return f"{p:.2e}" if p < 1e-4 else f"{p:.6f}"


def _stat(s: float | None) -> str:
    if s is None or not math.isfinite(s):
        return "—"
    return f"{s:.6g}"


def _verdict_cell(v: str) -> Cell:
    return Cell(v, "bad" if v == "fail" else "good" if v == "pass" else "c")


def results_table(results: Sequence[TestResult], alpha: float, heading: str | None = None) -> TableBlock:
    """One row per test: name, statistic, p-value (and how many it combines), verdict, sample, note."""
    rows: list[list[CellLike]] = []
    for r in results:
        ps = f" (min of {len(r.p_values)})" if len(r.p_values) > 1 else ""
        rows.append(
            [
                r.name,
                Cell(_stat(r.statistic), "r"),
                Cell(_p(r.p_value) + ps, "r"),
                _verdict_cell(r.verdict(alpha)),
                Cell(f"{r.n:,}", "r"),
                r.skipped or "",
            ]
        )
    return TableBlock(("test", "statistic", "p-value", f"verdict at {alpha:g}", "n", "note"), rows, heading=heading)


def runs_table(game: GameRun, alpha: float) -> TableBlock:
    """Over repeated runs: for each test, how many runs ran and failed, the smallest p-value, its Šidák adjustment
    over the runs, and the second level's KS p-value."""
    second = {r.name.removesuffix(" (KS over runs)"): r for r in game.second}
    order: list[str] = []
    by: dict[str, list[TestResult]] = {}
    for run in game.runs:
        for r in run:
            if r.name not in by:
                order.append(r.name)
                by[r.name] = []
            by[r.name].append(r)
    rows: list[list[CellLike]] = []
    for name in order:
        ran = [r.p_value for r in by[name] if r.p_value is not None]
        fails = sum(1 for p in ran if p < alpha)
        low = min(ran) if ran else None
        ks = second.get(name)
        rows.append(
            [
                name,
                Cell(f"{len(ran)}/{len(by[name])}", "r"),
                Cell(str(fails), "r"),
                Cell(_p(low), "r"),
                Cell(_p(sidak(ran) if ran else None), "r"),
                Cell(_p(ks.p_value) if ks is not None else "—", "r"),
                _verdict_cell(ks.verdict(alpha)) if ks is not None else Cell("—", "c"),
            ]
        )
    return TableBlock(
        ("test", "runs ran", f"runs below {alpha:g}", "smallest p", "adjusted over runs", "KS p (2nd level)", "KS"),
        rows,
        caption=(
            f"{len(game.runs)} runs of {game.size:,} each. Some runs below alpha are expected by chance "
            f"(about {alpha:g} of them); the adjusted p-value and the second level say whether there are too many."
        ),
    )


def p_histogram(results: Sequence[TestResult]) -> Figure | None:
    """The histogram of every first-level p-value, against the count a uniform law expects in each bin."""
    ps = [p for r in results if r.family != "second-level" for p in r.p_values]
    if len(ps) < HIST_BINS:
        return None
    fig = Figure(figsize=(7.0, 3.2))
    ax = fig.add_subplot(1, 1, 1)
    ax.hist(ps, bins=HIST_BINS, range=(0.0, 1.0), color="#4c72b0", edgecolor="white")
    ax.axhline(len(ps) / HIST_BINS, color="#b02a37", linestyle="--", label="expected if uniform")
    ax.set_xlabel("p-value")
    ax.set_ylabel("tests")
    ax.set_title(f"{len(ps):,} p-values")
    ax.legend(loc="upper right")
    return fig


def deviation_figure(result: TestResult, labels: Sequence[str], what: str) -> Figure | None:
    """A bar per pocket or face: its deviation from expectation in standard deviations (``z``), with the band a
    single cell leaves by chance once in a hundred."""
    z = result.detail.get("z")
    if not isinstance(z, list) or len(z) != len(labels):
        return None
    values = np.asarray(z, dtype=np.float64)
    fig = Figure(figsize=(9.0 if len(labels) > 12 else 5.0, 3.0))
    ax = fig.add_subplot(1, 1, 1)
    colours = ["#b02a37" if abs(v) > 2.576 else "#4c72b0" for v in values]
    ax.bar(range(len(labels)), values, color=colours)
    for y in (-2.576, 2.576):
        ax.axhline(y, color="#777", linestyle=":", linewidth=1)
    ax.axhline(0, color="#333", linewidth=0.8)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, fontsize=7 if len(labels) > 12 else 9)
    ax.set_ylabel("z (standard deviations)")
    ax.set_xlabel(what)
    return fig


def _first(game: GameRun, name: str) -> TestResult | None:
    for r in game.runs[0]:
        if r.name == name and r.p_value is not None:
            return r
    return None


def build(cert: Certification) -> Report:
    """The report of a certification run."""
    alpha = cert.alpha
    counts = cert.counts()
    verdict = cert.verdict.upper()
    rep = Report(
        title="croupier RNG certification",
        subtitle=f"{cert.source}: {verdict} at alpha {alpha:g}",
        meta=[
            ("source", cert.source),
            ("alpha", f"{alpha:g}"),
            ("runs", str(cert.repeat)),
            ("verdict", verdict),
            ("tests", f"{counts['pass']} passed, {counts['fail']} failed, {counts['skipped']} skipped"),
            ("fingerprint", cert.fingerprint),
            ("croupier", __version__),
            ("CPU time", f"{cert.seconds:.1f} s (croupier's process; dieharder's own time not included)"),
        ],
        footer=f"croupier RNG certification · {cert.fingerprint[:16]}",
    )
    if cert.verdict == "fail":
        rep.warnings.append(
            f"The source FAILS at alpha {alpha:g}: a sound generator fails this run with probability at most {alpha:g}."
        )
    s = Section("Verdict")
    s.paragraph(
        f"Overall verdict: {verdict}. Each test's p-value combines its own p-values (Šidák: 1 − (1 − min p)^k); the "
        f"overall verdict adjusts the smallest of all {counts['pass'] + counts['fail']} p-values the same way, so "
        f"that a sound generator fails the whole run with probability at most alpha = {alpha:g}. A test that "
        "could not give a meaningful p-value on its sample is skipped and says why."
    )
    s.add(
        TableBlock(
            ("game", "sample", "per run", "fingerprint (SHA-256 of the data)", "verdict"),
            [
                [
                    g.game,
                    g.description,
                    Cell(f"{g.size:,} × {len(g.runs)}", "r"),
                    g.fingerprint,
                    _verdict_cell(_game_verdict(g, alpha)),
                ]
                for g in cert.games
            ],
        )
    )
    fig = p_histogram(cert.results())
    if fig is not None:
        s.add(FigureBlock(fig, "The first-level p-values: a sound generator's are uniform on (0, 1).", dpi=90))
    rep.add(s)
    for g in cert.games:
        sec = Section(_title(g.game))
        sec.paragraph(f"{g.description}. Fingerprint {g.fingerprint}.")
        if len(g.runs) == 1:
            sec.add(results_table(g.runs[0], alpha))
        else:
            sec.add(runs_table(g, alpha))
            sec.add(results_table(g.runs[0], alpha, heading="The first run, test by test"))
            sec.add(results_table(g.second, alpha, heading="Second level: KS uniformity of each test's p-values"))
        if g.game == "roulette":
            r = _first(g, "roulette: pockets")
            f = deviation_figure(r, [str(i) for i in range(37)], "pocket") if r else None
            if f is not None:
                sec.add(FigureBlock(f, "Per-pocket deviation from 1/37 (first run); dotted: |z| = 2.576.", dpi=90))
        if g.game == "sicbo":
            r = _first(g, "sic bo: faces")
            f = deviation_figure(r, [str(i) for i in range(1, 7)], "face") if r else None
            if f is not None:
                sec.add(FigureBlock(f, "Per-face deviation from 1/6 (first run); dotted: |z| = 2.576.", dpi=90))
        rep.add(sec)
    if cert.dieharder:
        d = Section("dieharder")
        d.paragraph(
            "Debian's dieharder on the same byte stream (a generator: read for as long as dieharder asks; a file: "
            "its bytes, and a test that needed more is skipped). Each line's p-value p is taken two-sided, "
            "2·min(p, 1 − p), as dieharder itself fails values near 1 too."
        )
        d.add(results_table(cert.dieharder, alpha))
        rep.add(d)
    watch = cert.extra.get("watch")
    if isinstance(watch, Mapping):
        rep.add(watch_section(watch))
    return rep


def watch_section(watch: Mapping[str, object]) -> Section:
    """A table's bias watch (:mod:`croupier.rng.watch`): the flag, the rounds needed, the sequential chi-square and
    the pockets or faces furthest from expectation."""
    sec = Section("Bias watch")
    chi = watch.get("chi_square")
    needed = watch.get("needed")
    pocket = watch.get("needed_pocket")
    cell = "pocket" if watch.get("game") == "roulette" else "face"
    if isinstance(chi, Mapping) and isinstance(needed, Mapping) and isinstance(pocket, Mapping):
        flag = "FLAGGED" if watch.get("flagged") else "not flagged"
        sec.paragraph(
            f"Over {watch.get('rounds')} settled rounds ({watch.get('first_round')} to {watch.get('last_round')}; "
            f"{watch.get('voids')} void results left out) the table is {flag}: chi-square "
            f"{_stat(_num(chi, 'statistic'))} on {chi.get('df')} degrees of freedom, p = {_p(_num(chi, 'p_value'))} "
            f"(critical value {_stat(_num(chi, 'critical'))} at alpha {watch.get('alpha')})."
        )
        sec.paragraph(
            f"A {cell} at {_stat(_num(needed, 'bias'))} (the others sharing the rest) is detected with probability "
            f"{watch.get('power')} by the watch's chi-square over {needed.get('rounds')} rounds, and by the single-"
            f"{cell} test over {pocket.get('rounds')} rounds."
        )
    points = watch.get("sequence")
    if isinstance(points, list) and len(points) > 1 and isinstance(chi, Mapping):
        xs = [float(p["rounds"]) for p in points if isinstance(p, Mapping)]
        ys = [float(p["statistic"]) for p in points if isinstance(p, Mapping)]
        fig = Figure(figsize=(7.0, 3.0))
        ax = fig.add_subplot(1, 1, 1)
        ax.plot(xs, ys, color="#4c72b0", label="chi-square of the rounds so far")
        critical = _num(chi, "critical")
        if critical is not None:
            ax.axhline(critical, color="#b02a37", linestyle="--", label="critical value")
        ax.set_xlabel("rounds")
        ax.set_ylabel("chi-square")
        ax.legend(loc="upper left")
        sec.add(FigureBlock(fig, "The sequential view: the cumulative chi-square over the window.", dpi=90))
    cells = watch.get("furthest")
    if isinstance(cells, list) and cells:
        rows: list[list[CellLike]] = [
            [
                str(c.get("cell")),
                Cell(str(c.get("count")), "r"),
                Cell(f"{_num(c, 'expected') or 0:.1f}", "r"),
                Cell(f"{_num(c, 'z') or 0:+.2f}", "r"),
                Cell(_p(_num(c, "p_value")), "r"),
                Cell(_p(_num(c, "p_adjusted")), "r"),
            ]
            for c in cells
            if isinstance(c, Mapping)
        ]
        sec.add(
            TableBlock(
                (cell, "count", "expected", "z", "p-value", f"adjusted for every {cell}"),
                rows,
                heading=f"The {cell}s furthest from expectation",
            )
        )
    return sec


def _num(doc: Mapping[str, object], key: str) -> float | None:
    value = doc.get(key)
    return float(value) if isinstance(value, int | float) else None


def _game_verdict(g: GameRun, alpha: float) -> str:
    return overall(g.results(), alpha)


def _title(game: str) -> str:
    return {
        "bits": "Bit level: NIST SP 800-22",
        "roulette": "Roulette",
        "sicbo": "Sic bo",
        "blackjack": "Blackjack",
    }.get(game, game)
