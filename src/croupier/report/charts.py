"""Strategy-chart renderers for :class:`croupier.analysis.chart.Chart`: a Rich rendering for the terminal, a
coloured matplotlib image, and coloured HTML tables for reports — all from one list of :class:`ChartGrid`.

The grids (rows: the player's hand; columns: the dealer's up card 2-10, then A):

* **Hard totals** 4-20 and **soft totals** 12-20 (A,A is soft 12 when it is not split); for a chart by cards
  (``Chart.by_cards``), these are the two-card entries, followed by the entries for hands of three or more
  cards (hard 6-20, soft 13-20). 21 is never a decision
  (the hand stands), so it is not shown. Consecutive totals with identical rows are merged (``5–8``).
* **Pairs** 2,2 … 10,10, A,A: ``P`` where the chart splits; elsewhere the letter the pair is played by as a
  total (5,5 is hard 10, A,A soft 12), so the row is complete when a split is not taken or not allowed.
* **Surrender** (BJ 18, the box's first two cards, checked before the split): ``R`` where the chart surrenders;
  only rows with at least one ``R`` are shown. Not against an ace (BJ 18.1): that column is ``–``. The grid is
  left out when the rules do not offer surrender.
* **Other decisions**: the five-card claim (BJ 19; ``≤17`` claims a five-card hand totalling 17 or less, ``all``
  every one, blank never; ``–`` against an ace) where the rules offer it, and even money (BJ 10.3; ``EM`` taken,
  ``no`` declined) against the up cards where it is offered.

Letters: ``H`` hit, ``S`` stand, ``D`` double where allowed else hit, ``Ds`` double where allowed else stand,
``P`` split, ``R`` surrender.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from croupier.analysis.chart import CODES, Chart

UP_CARDS: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
"""The dealer's up cards in column order (1 is the ace)."""
UP_LABELS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")

HARD_ROWS = range(4, 21)
SOFT_ROWS = range(12, 21)
PAIR_ROWS: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)

NOT_APPLICABLE = "–"

COLOURS: dict[str, str] = {
    "H": "#f2a7a0",
    "S": "#f7e07e",
    "D": "#7fcf7f",
    "Ds": "#c8eab0",
    "P": "#8ec3ef",
    "R": "#c9b0e8",
    "EM": "#f5c48c",
    "claim": "#f5c48c",
    "no": "#ffffff",
    "": "#ffffff",
    NOT_APPLICABLE: "#e4e4e4",
}
"""Background colour of each action (``claim``: any five-card threshold)."""

LEGEND: tuple[tuple[str, str], ...] = (
    ("H", "hit"),
    ("S", "stand"),
    ("D", "double if allowed, else hit"),
    ("Ds", "double if allowed, else stand"),
    ("P", "split"),
    ("R", "surrender"),
)

_RICH_STYLES: dict[str, str] = {
    "H": "black on #f2a7a0",
    "S": "black on #f7e07e",
    "D": "black on #7fcf7f",
    "Ds": "black on #c8eab0",
    "P": "black on #8ec3ef",
    "R": "black on #c9b0e8",
    "EM": "black on #f5c48c",
    "claim": "black on #f5c48c",
    NOT_APPLICABLE: "dim",
}


@dataclass(frozen=True)
class ChartGrid:
    """One table of a chart: its name, row labels and a cell text for each row and up card (2-10, A)."""

    name: str
    rows: tuple[str, ...]
    cells: tuple[tuple[str, ...], ...]
    note: str = ""


def colour_of(cell: str) -> str:
    """The background colour of a cell's text (a five-card threshold counts as ``claim``)."""
    if cell in COLOURS:
        return COLOURS[cell]
    return COLOURS["claim"] if cell.startswith("≤") or cell == "all" else "#ffffff"


def _style_of(cell: str) -> str:
    if cell in _RICH_STYLES:
        return _RICH_STYLES[cell]
    return _RICH_STYLES["claim"] if cell.startswith("≤") or cell == "all" else ""


def _merge(labels: list[int], cells: list[tuple[str, ...]]) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """Merge runs of consecutive totals with identical rows into one row labelled ``a–b``."""
    out_labels: list[str] = []
    out_cells: list[tuple[str, ...]] = []
    i = 0
    while i < len(labels):
        j = i
        while j + 1 < len(labels) and cells[j + 1] == cells[i]:
            j += 1
        name = str(labels[i]) if i == j else f"{labels[i]}–{labels[j]}"
        out_labels.append(name)
        out_cells.append(cells[i])
        i = j + 1
    return tuple(out_labels), tuple(out_cells)


def _pair_label(v: int) -> str:
    return "A,A" if v == 1 else f"{v},{v}"


def chart_grids(chart: Chart, rules: Any = None, *, merge: bool = True) -> list[ChartGrid]:
    """The grids of ``chart`` as shown for ``rules`` (a :class:`~croupier.blackjack.rules.BlackjackRules`;
    ``None`` shows every grid and row as if every option were offered). ``merge`` groups consecutive hard or
    soft totals whose rows are identical."""
    surrender = True if rules is None else bool(rules.surrender)
    five_card = True if rules is None else bool(rules.five_card_payment)
    em_on_ten = True if rules is None else bool(rules.even_money_on_ten)

    def play(table: Any, total: int) -> tuple[str, ...]:
        return tuple(CODES[int(table[total, up])] for up in UP_CARDS)

    grids = []
    tables: list[tuple[str, Any, range, bool]] = [
        ("Hard totals", chart.hard, HARD_ROWS, False),
        ("Soft totals", chart.soft, SOFT_ROWS, True),
    ]
    if chart.hard_multi is not None and chart.soft_multi is not None:  # the chart by cards
        tables = [
            ("Hard totals, two cards", chart.hard, HARD_ROWS, False),
            ("Soft totals, two cards", chart.soft, SOFT_ROWS, True),
            ("Hard totals, three or more cards", chart.hard_multi, range(6, 21), False),
            ("Soft totals, three or more cards", chart.soft_multi, range(13, 21), True),
        ]
    for name, table, rows, soft in tables:
        labels = list(rows)
        cells = [play(table, t) for t in labels]
        if merge:
            row_names, merged = _merge(labels, cells)
        else:
            row_names, merged = tuple(str(t) for t in labels), tuple(cells)
        if soft:  # soft totals also name the two-card hand they come from (A,2 is soft 13)
            row_names = tuple(_soft_name(r) for r in row_names)
        grids.append(ChartGrid(name, row_names, merged))

    pair_cells = []
    for v in PAIR_ROWS:
        fallback = play(chart.soft, 12) if v == 1 else play(chart.hard, 2 * v)
        pair_cells.append(tuple("P" if chart.split[v, up] else fallback[k] for k, up in enumerate(UP_CARDS)))
    grids.append(
        ChartGrid(
            "Pairs",
            tuple(_pair_label(v) for v in PAIR_ROWS),
            tuple(pair_cells),
            "P: split; other cells: the pair is played as its total (A,A as soft 12).",
        )
    )

    if surrender:
        rows_s: list[str] = []
        cells_s: list[tuple[str, ...]] = []
        for label, flags in _surrender_rows(chart):
            if any(flags[k] for k, up in enumerate(UP_CARDS) if up != 1):
                rows_s.append(label)
                cells_s.append(
                    tuple(NOT_APPLICABLE if up == 1 else ("R" if flags[k] else "") for k, up in enumerate(UP_CARDS))
                )
        note = "Surrender the first two cards (BJ 18), before splitting; never against an ace (BJ 18.1)."
        if not rows_s:
            note = "The chart never surrenders (BJ 18)."
        grids.append(ChartGrid("Surrender", tuple(rows_s), tuple(cells_s), note))

    other_rows: list[str] = []
    other_cells: list[tuple[str, ...]] = []
    if five_card:
        other_rows.append("5 cards")
        other_cells.append(tuple(_claim(int(chart.five_card[up]), up) for up in UP_CARDS))
    em_ups = {1, 10} if em_on_ten else {1}
    other_rows.append("even money")
    other_cells.append(
        tuple(("EM" if chart.even_money[up] else "no") if up in em_ups else NOT_APPLICABLE for up in UP_CARDS)
    )
    notes = []
    if five_card:
        notes.append("5 cards: claim the five-card payment (BJ 19) on a total up to the figure shown; blank: never.")
    notes.append("Even money with a blackjack (BJ 10.3): EM take it, no decline; – not offered.")
    grids.append(ChartGrid("Other decisions", tuple(other_rows), tuple(other_cells), " ".join(notes)))
    return grids


def _soft_name(label: str) -> str:
    """``13`` → ``13 (A,2)``; ``19–20`` → ``19–20 (A,8–A,9)``; 12 is A,A."""
    parts = [int(p) for p in label.split("–")]
    hands = ["A,A" if t == 12 else f"A,{t - 11}" for t in parts]
    return f"{label} ({'–'.join(hands)})"


def _surrender_rows(chart: Chart) -> list[tuple[str, list[bool]]]:
    out = []
    for t in range(5, 21):
        out.append((f"hard {t}", [bool(chart.surrender_hard[t, up]) for up in UP_CARDS]))
    for t in range(13, 21):
        out.append((f"soft {t}", [bool(chart.surrender_soft[t, up]) for up in UP_CARDS]))
    for v in PAIR_ROWS:
        out.append((_pair_label(v), [bool(chart.surrender_pair[v, up]) for up in UP_CARDS]))
    return out


def _claim(threshold: int, up: int) -> str:
    if up == 1:
        return NOT_APPLICABLE
    if threshold <= 0:
        return ""
    return "all" if threshold >= 21 else f"≤{threshold}"


# -- Rich ---------------------------------------------------------------------------------------------------


def chart_text(chart: Chart, rules: Any = None, *, title: str | None = None) -> RenderableType:
    """The chart as Rich tables (hard, soft, pairs, surrender, other decisions) with a legend."""
    parts: list[RenderableType] = []
    if title:
        parts.append(Text(title, style="bold"))
    for g in chart_grids(chart, rules):
        table = Table(title=g.name, caption=g.note or None, title_justify="left", caption_justify="left")
        table.add_column("", no_wrap=True)
        for label in UP_LABELS:
            table.add_column(label, justify="center", no_wrap=True)
        for row, cells in zip(g.rows, g.cells, strict=True):
            table.add_row(row, *(Text(c, style=_style_of(c)) for c in cells))
        if not g.rows:
            table.add_row("(none)", *([""] * len(UP_LABELS)))
        parts.append(table)
    parts.append(Text("  ".join(f"{k} {v}" for k, v in LEGEND), style="dim"))
    return Group(*parts)


# -- matplotlib ---------------------------------------------------------------------------------------------

_CELL_W = 0.42
_CELL_H = 0.24
_LABEL_W = 1.35


def chart_figure(chart: Chart, rules: Any = None, title: str = "Strategy chart") -> Figure:
    """The chart as a coloured matplotlib figure: hard totals and surrender on the left; soft totals, pairs and
    the other decisions on the right; a legend at the bottom."""
    grids = chart_grids(chart, rules)
    by_name = {g.name: g for g in grids}
    left = [by_name[n] for n in ("Hard totals", "Surrender") if n in by_name]
    right = [by_name[n] for n in ("Soft totals", "Pairs", "Other decisions") if n in by_name]

    def height(col: Sequence[ChartGrid]) -> float:
        return sum((len(g.rows) + 2.6) * _CELL_H for g in col)

    grid_w = _LABEL_W + len(UP_LABELS) * _CELL_W
    width = 2 * grid_w + 0.9
    top_margin, legend_h = 0.55, 0.75
    total_h = max(height(left), height(right)) + top_margin + legend_h
    fig = Figure(figsize=(width, total_h))
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(0, width)
    ax.set_ylim(total_h, 0)
    ax.axis("off")
    ax.text(width / 2, 0.3, title, ha="center", va="center", fontsize=12, weight="bold")
    for col, x0 in ((left, 0.3), (right, 0.6 + grid_w)):
        y = top_margin
        for g in col:
            y = _draw_grid(ax, g, x0, y)
    y = total_h - legend_h + 0.15
    x = 0.3
    for letter, meaning in LEGEND:
        ax.add_patch(Rectangle((x, y), _CELL_W, _CELL_H, facecolor=COLOURS[letter], edgecolor="#888", lw=0.5))
        ax.text(x + _CELL_W / 2, y + _CELL_H / 2, letter, ha="center", va="center", fontsize=7)
        ax.text(x + _CELL_W + 0.06, y + _CELL_H / 2, meaning, ha="left", va="center", fontsize=7)
        x += _CELL_W + 0.12 + 0.058 * len(meaning) + 0.2
        if x > width - 2.0:
            x, y = 0.3, y + _CELL_H + 0.08
    return fig


def _draw_grid(ax: Any, g: ChartGrid, x0: float, y0: float) -> float:
    """Draw one grid with its heading at ``(x0, y0)``; return the y below it."""
    ax.text(x0, y0 + _CELL_H * 0.5, g.name, ha="left", va="center", fontsize=9, weight="bold")
    y = y0 + _CELL_H
    for k, label in enumerate(UP_LABELS):
        ax.text(x0 + _LABEL_W + (k + 0.5) * _CELL_W, y + _CELL_H / 2, label, ha="center", va="center", fontsize=7)
    y += _CELL_H
    for row, cells in zip(g.rows, g.cells, strict=True):
        ax.text(x0 + _LABEL_W - 0.06, y + _CELL_H / 2, row, ha="right", va="center", fontsize=6.5)
        for k, cell in enumerate(cells):
            x = x0 + _LABEL_W + k * _CELL_W
            ax.add_patch(Rectangle((x, y), _CELL_W, _CELL_H, facecolor=colour_of(cell), edgecolor="#888", lw=0.5))
            ax.text(x + _CELL_W / 2, y + _CELL_H / 2, cell, ha="center", va="center", fontsize=6.5)
        y += _CELL_H
    if not g.rows:
        ax.text(x0 + _LABEL_W, y + _CELL_H / 2, g.note, ha="left", va="center", fontsize=6.5, style="italic")
        y += _CELL_H
    return y + 0.6 * _CELL_H


def chart_png(
    chart: Chart, path_or_buffer: str | Path | IO[bytes], title: str = "Strategy chart", rules: Any = None
) -> None:
    """Draw the chart (see :func:`chart_figure`) as a PNG to a path or a binary stream."""
    fig = chart_figure(chart, rules, title)
    fig.savefig(path_or_buffer, format="png", dpi=130, metadata={"Software": None})
