"""Reusable report sections: the parts a PAR sheet of any game is assembled from.

* :func:`rules_section` — every option of a table, its value, the statute's, its rule id and kind, the
  options that differ from the statute flagged with what they need (BJ 21), and the list for an application;
* :func:`bets_section` — rows of :class:`BetRow` (bet, house edge, hit frequency, SD, rule id);
* :func:`strategy_chart_section` — a blackjack :class:`~croupier.analysis.chart.Chart` as coloured tables;
* :func:`rule_effects_section` — rows of :class:`RuleEffect` (option, from, to, change in edge);
* :func:`monte_carlo_section` — rows of :class:`McRow` (figure, exact, simulated mean, SE) with 95% intervals.

Each returns a :class:`~croupier.report.html.Section` to :meth:`~croupier.report.html.Report.add`; more blocks
(paragraphs, figures) can be appended to it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from matplotlib.figure import Figure

from croupier import rulesdoc
from croupier.report.charts import LEGEND, UP_LABELS, chart_figure, chart_grids, colour_of
from croupier.report.html import Cell, FigureBlock, Section, TableBlock
from croupier.rulesdoc import OptionKind

Number = Fraction | float

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""

NEEDS: dict[OptionKind, str] = {
    OptionKind.APPROVAL: "needs the regulator's prior approval (BJ 21.1, 21.3)",
    OptionKind.WAIVABLE: "drops a waivable rule: needs the regulator's permission (BJ 21.2)",
    OptionKind.OUTSIDE: "outside the statute: for analysis and simulation only",
    OptionKind.LIMIT: "table limit: the house's own choice",
}
"""What an option that differs from the statute needs, by its kind (RULES.md)."""


# -- formatting ---------------------------------------------------------------------------------------------


def pct(x: Number, digits: int = 4, *, sign: bool = False) -> str:
    """``x`` as a percentage: ``pct(Fraction(1, 37))`` is ``2.7027%``."""
    return f"{float(x) * 100:+.{digits}f}%" if sign else f"{float(x) * 100:.{digits}f}%"


def exact(x: Number) -> str:
    """A Fraction as ``p/q`` (an integer as itself); a float as empty text (no exact value)."""
    if isinstance(x, Fraction):
        return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    return ""


def _r(text: str) -> Cell:
    return Cell(text, "r")


# -- rules ----------------------------------------------------------------------------------------------------


def rules_section(rules: Any, *, statute: Any = None, title: str = "Rules") -> Section:
    """Every option of ``rules`` (any game's rules object): value, the statute's value, rule id, kind and
    whether it differs; rows that differ are flagged, and the differences are listed again on their own with
    what each needs (the list a house files with the regulator, BJ 21).

    ``statute`` defaults to the game's ``statute`` preset.
    """
    from croupier.games import game

    g = game(rules.GAME)
    base = statute if statute is not None else g.presets["statute"]
    diffs = rulesdoc.differences(rules, base)
    doc = rulesdoc.document(rules, effective=True)
    section = Section(title)
    section.paragraph(
        f"{g.title} ({g.statute}) as configured: every option, its value, the statute's default, the rule behind "
        "it and its kind (RULES.md). Highlighted rows differ from the statute."
    )
    rows: list[list[Cell | str]] = []
    flagged = set()
    for i, spec in enumerate(rulesdoc.option_specs(g.rules_class)):
        value = doc[spec.name]
        theirs = _statute_value(spec, rules, base)
        mine = [d for d in diffs if d.option == spec.name or d.option.startswith(spec.name + ".")]
        if mine:
            flagged.add(i)
            kinds = sorted({d.kind for d in mine}, key=list(OptionKind).index)
            status = "; ".join(NEEDS[k] for k in kinds)
            if len(mine) > 1 or mine[0].option != spec.name:
                status = f"differs in {', '.join(d.option.split('.', 1)[-1] for d in mine)}: {status}"
        else:
            status = "as the statute"
        rows.append(
            [
                spec.name,
                rulesdoc.format_value(value),
                rulesdoc.format_value(theirs),
                spec.rule,
                str(spec.kind_for(value)),
                Cell(status, "bad" if mine and any(d.kind is not OptionKind.LIMIT for d in mine) else ""),
                Cell(spec.doc, "dim"),
            ]
        )
    section.add(
        TableBlock(
            ("option", "value", "statute", "rule", "kind", "status", "meaning"),
            rows,
            heading="Every option",
            flagged=frozenset(flagged),
        )
    )
    if diffs:
        diff_rows: list[Sequence[Cell | str]] = [
            [
                d.option,
                rulesdoc.format_value(d.value),
                rulesdoc.format_value(d.statute),
                str(d.kind),
                d.rule,
                NEEDS[d.kind],
            ]
            for d in diffs
        ]
        approval = sum(d.kind in (OptionKind.APPROVAL, OptionKind.WAIVABLE) for d in diffs)
        outside = sum(d.kind is OptionKind.OUTSIDE for d in diffs)
        section.add(
            TableBlock(
                ("option", "value", "statute", "kind", "rule", "needs"),
                diff_rows,
                heading="Differences from the statute",
                caption=(
                    f"{len(diffs)} difference(s): {approval} need the regulator's approval or permission, "
                    f"{outside} outside the statute."
                ),
            )
        )
    else:
        section.paragraph("Every option is the statute's.")
    return section


def _statute_value(spec: rulesdoc.OptionSpec, rules: Any, statute: Any) -> object:
    """The statute's value of an option, as :func:`rulesdoc.differences` compares it (a default that follows
    other options is taken under this table's other options)."""
    if spec.effective is not None:
        return spec.value_in(replace(rules, **{spec.name: getattr(statute, spec.name)}))
    return spec.value_in(statute)


# -- bets -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BetRow:
    """One bet's figures per unit staked. ``house_edge`` is minus the expected net; ``hit_frequency`` the
    probability that the bet wins anything; ``sd`` the standard deviation of the net. Fractions are shown
    exactly as well as in decimals. ``pays`` (odds as text, e.g. ``35`` or ``1/2/3``) is optional."""

    bet: str
    house_edge: Number
    hit_frequency: Number
    sd: float
    rule: str
    pays: str | None = None


def bets_section(rows: Sequence[BetRow], *, title: str = "Bets", note: str | None = None) -> Section:
    """A table of every bet: pays (if given), house edge (exact and %), hit frequency, SD per unit, rule id."""
    section = Section(title)
    if note:
        section.paragraph(note)
    with_pays = any(r.pays is not None for r in rows)
    with_exact = any(isinstance(r.house_edge, Fraction) for r in rows)
    headers = ["bet"]
    headers += ["pays"] if with_pays else []
    headers += ["house edge"] if with_exact else []
    headers += ["edge %", "hit frequency", "SD", "rule"]
    table: list[list[Cell | str]] = []
    for r in rows:
        line: list[Cell | str] = [r.bet]
        if with_pays:
            line.append(_r(r.pays or ""))
        if with_exact:
            line.append(_r(exact(r.house_edge)))
        hit = f"{float(r.hit_frequency):.6f}"
        if isinstance(r.hit_frequency, Fraction):
            hit = f"{exact(r.hit_frequency)} = {hit}"
        line += [_r(pct(r.house_edge)), _r(hit), _r(f"{r.sd:.4f}"), r.rule]
        table.append(line)
    section.add(
        TableBlock(
            headers,
            table,
            caption="Per unit staked: house edge = −E[net]; hit frequency = P(the bet wins anything); SD of the net.",
        )
    )
    return section


# -- strategy chart ---------------------------------------------------------------------------------------------


def strategy_chart_section(chart: Any, rules: Any = None, *, title: str = "Strategy chart", note: str = "") -> Section:
    """A blackjack chart as coloured tables (hard, soft, pairs, surrender, other decisions) in HTML and as a
    drawn figure in the PDF (:mod:`croupier.report.charts`)."""
    section = Section(title)
    if note:
        section.paragraph(note)
    for g in chart_grids(chart, rules):
        rows: list[list[Cell | str]] = [
            [row, *(Cell(c, "c", background=colour_of(c)) for c in cells)]
            for row, cells in zip(g.rows, g.cells, strict=True)
        ]
        section.add(
            TableBlock(("", *UP_LABELS), rows, heading=g.name, caption=g.note or None, css_class="chart", media="html")
        )
    section.paragraph("Legend: " + "; ".join(f"{k} {v}" for k, v in LEGEND) + ".", media="html")
    section.add(FigureBlock(chart_figure(chart, rules, title), media="pdf"))
    return section


# -- rule effects ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleEffect:
    """The change in the house edge when one option goes from ``before`` to ``after`` (positive: the house gains).
    Values are shown as written in a rules file."""

    option: str
    before: object
    after: object
    edge_change: Number
    rule: str = ""


def rule_effects_section(
    rows: Sequence[RuleEffect], *, title: str = "Rule effects", note: str | None = None
) -> Section:
    """A table of rule effects: option, from, to, change in the house edge (percentage points), rule id."""
    section = Section(title)
    if note:
        section.paragraph(note)
    table: list[list[Cell | str]] = [
        [
            r.option,
            rulesdoc.format_value(r.before),
            rulesdoc.format_value(r.after),
            Cell(pct(r.edge_change, sign=True), "r bad" if r.edge_change > 0 else "r good"),
            r.rule,
        ]
        for r in rows
    ]
    section.add(
        TableBlock(
            ("option", "from", "to", "change in house edge", "rule"),
            table,
            caption="Change in the house edge per unit of the initial bet; positive favours the house.",
        )
    )
    return section


# -- Monte Carlo ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class McRow:
    """One figure confirmed by simulation: its exact value, the simulated mean and the mean's standard error.
    ``percent`` shows the values as percentages (edges); otherwise as plain numbers."""

    name: str
    exact: Number
    mean: float
    se: float
    percent: bool = True

    @property
    def low(self) -> float:
        """Lower end of the 95% confidence interval."""
        return self.mean - Z95 * self.se

    @property
    def high(self) -> float:
        """Upper end of the 95% confidence interval."""
        return self.mean + Z95 * self.se

    @property
    def inside(self) -> bool:
        """Whether the exact value lies in the 95% interval."""
        return self.low <= float(self.exact) <= self.high

    @property
    def z(self) -> float:
        """(simulated − exact) / SE."""
        diff = self.mean - float(self.exact)
        return diff / self.se if self.se > 0 else (0.0 if diff == 0 else math.copysign(math.inf, diff))


def monte_carlo_section(
    rows: Sequence[McRow],
    *,
    rounds: int,
    seed: int | str | None,
    title: str = "Monte Carlo confirmation",
    what: str = "rounds",
    note: str | None = None,
    plot: bool = True,
    independent: bool = False,
) -> Section:
    """Each figure's exact value against its simulated mean, SE, 95% interval and z-score, marking whether the
    exact value lies inside; a summary sentence; and (``plot``) a figure of the intervals. ``independent``: the
    figures come from independent runs, so the number outside is Binomial(n, 5%) and its tail is given."""
    section = Section(title)
    section.paragraph(
        f"{rounds:,} simulated {what}" + (f" (seed {seed})" if seed is not None else "") + ". " + (note or "")
    )

    def f(x: Number, r: McRow) -> str:
        return pct(x) if r.percent else f"{float(x):.6f}"

    table: list[list[Cell | str]] = [
        [
            r.name,
            _r(f(r.exact, r)),
            _r(f(r.mean, r)),
            _r(f(r.se, r)),
            _r(f"[{f(r.low, r)}, {f(r.high, r)}]"),
            _r(f"{r.z:+.2f}"),
            Cell("yes" if r.inside else "NO", "c good" if r.inside else "c bad"),
        ]
        for r in rows
    ]
    section.add(TableBlock(("figure", "exact", "simulated", "SE", "95% interval", "z", "exact inside"), table))
    inside = sum(r.inside for r in rows)
    text = (
        f"{inside} of {len(rows)} exact figures lie inside their 95% confidence intervals. Each interval misses "
        "the true value with probability 5%, so about one figure in twenty is expected outside by chance"
    )
    if independent:
        outside = len(rows) - inside
        tail = binomial_tail(len(rows), outside, 0.05)
        text += (
            f". The figures come from independent runs, so the number outside is Binomial({len(rows)}, 5%): "
            f"{outside} or more outside happens by chance with probability {tail:.3f}."
        )
    else:
        text += "; figures simulated from the same rounds are correlated."
    section.paragraph(text)
    if plot and rows:
        section.add(
            FigureBlock(
                mc_figure(rows),
                "Simulated minus exact, with the 95% interval: a bar crossing zero holds the exact value.",
            )
        )
    return section


def binomial_tail(n: int, k: int, p: float) -> float:
    """P(X ≥ k) for X ~ Binomial(n, p)."""
    return min(1.0, sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(max(k, 0), n + 1)))


def mc_figure(rows: Sequence[McRow]) -> Figure:
    """Each figure's simulated value minus its exact value, with the 95% interval as an error bar: a bar that
    crosses zero holds the exact value. Edges are in percentage points."""
    n = len(rows)
    fig = Figure(figsize=(7.5, 1.0 + 0.24 * n))
    ax = fig.add_subplot()
    ys = list(range(n))[::-1]
    for y, r in zip(ys, rows, strict=True):
        s = 100.0 if r.percent else 1.0
        colour = "#2b7bba" if r.inside else "#c0392b"
        ax.errorbar([(r.mean - float(r.exact)) * s], [y], xerr=[Z95 * r.se * s], fmt="o", color=colour, ms=3,
                    capsize=3, lw=1)  # fmt: skip
    ax.axvline(0.0, color="black", lw=0.8)
    ax.set_yticks(ys, [r.name for r in rows], fontsize=7)
    ax.set_xlabel("simulated − exact (percentage points for edges), 95% interval")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig
