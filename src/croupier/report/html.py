"""A small self-contained report builder: sections of paragraphs, tables and figures, written as one HTML file
(CSS inline, figures embedded as base64 PNG, no external asset or link) or as a PDF (matplotlib's
``PdfPages``: the tables as monospaced text pages, the figures as pages).

Figures are :class:`matplotlib.figure.Figure` objects made without pyplot (no global state, no GUI backend):
the report renders them to PNG for HTML and draws them into the PDF. Text is escaped where it is rendered;
a :class:`Cell` or :class:`Paragraph` never holds markup.
"""

from __future__ import annotations

import base64
import html
import io
import re
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Literal

from matplotlib.figure import Figure

Media = Literal["both", "html", "pdf"]
"""Where a block appears: in both renderings, or only in the HTML or only in the PDF."""

CSS = """
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 2em auto; max-width: 1100px;
       color: #1d1d1f; line-height: 1.4; padding: 0 1em; }
h1 { font-size: 1.7em; margin-bottom: 0.1em; }
h2 { font-size: 1.3em; border-bottom: 2px solid #ccc; padding-bottom: 0.2em; margin-top: 2em; }
h3 { font-size: 1.05em; margin-bottom: 0.3em; }
.subtitle { color: #555; margin-top: 0; }
table { border-collapse: collapse; margin: 0.6em 0 1em 0; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; vertical-align: top; }
th { background: #f0f0f0; text-align: left; }
td.r { text-align: right; font-variant-numeric: tabular-nums; }
td.c { text-align: center; }
tr.flag td { background: #fff3cd; }
td.bad { background: #f8d7da; font-weight: bold; }
td.good { background: #d4edda; }
caption { caption-side: bottom; text-align: left; color: #555; font-size: 0.9em; padding-top: 0.3em; }
figure { margin: 1em 0; }
figure img { max-width: 100%; border: 1px solid #eee; }
figcaption { color: #555; font-size: 0.9em; }
.meta td:first-child { font-weight: bold; }
.dim { color: #777; font-size: 0.9em; }
nav ol { columns: 2; }
table.chart td { text-align: center; min-width: 2.2em; padding: 0.15em 0.3em; }
table.chart th { text-align: center; }
"""


@dataclass(frozen=True)
class Cell:
    """A table cell: its text and, optionally, a CSS class (``r`` right-aligned, ``c`` centred, ``bad``,
    ``good``) and a background colour (``#rrggbb``)."""

    text: str
    cls: str = ""
    background: str | None = None
    title: str | None = None


CellLike = Cell | str


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of plain text (escaped when rendered)."""

    text: str
    dim: bool = False
    media: Media = "both"


@dataclass(frozen=True)
class TableBlock:
    """A table: headers, rows of cells, optional heading and caption. ``flagged`` holds the indices of rows to
    highlight (e.g. options that differ from the statute). ``css_class`` is added to the ``<table>``."""

    headers: Sequence[str]
    rows: Sequence[Sequence[CellLike]]
    heading: str | None = None
    caption: str | None = None
    flagged: frozenset[int] = frozenset()
    css_class: str = ""
    media: Media = "both"


@dataclass(frozen=True)
class FigureBlock:
    """A matplotlib figure with its caption (embedded as a base64 PNG in HTML, drawn as a page in the PDF)."""

    figure: Figure
    caption: str = ""
    alt: str = ""
    dpi: int = 110
    media: Media = "both"


Block = Paragraph | TableBlock | FigureBlock


@dataclass
class Section:
    """A titled part of a report: a list of blocks, rendered in order."""

    title: str
    blocks: list[Block] = field(default_factory=list)
    anchor: str = ""

    def __post_init__(self) -> None:
        if not self.anchor:
            self.anchor = re.sub(r"[^a-z0-9]+", "-", self.title.lower()).strip("-") or "section"

    def add(self, *blocks: Block) -> Section:
        """Append blocks; returns the section, for chaining."""
        self.blocks.extend(blocks)
        return self

    def paragraph(self, text: str, *, dim: bool = False, media: Media = "both") -> Section:
        """Append a :class:`Paragraph`."""
        return self.add(Paragraph(text, dim, media))

    def figures(self) -> list[Figure]:
        """The section's figures."""
        return [b.figure for b in self.blocks if isinstance(b, FigureBlock)]


@dataclass
class Report:
    """A whole report: a title, a subtitle, a table of facts (``meta``: game, rules, seed, ...) and sections."""

    title: str
    subtitle: str = ""
    meta: list[tuple[str, str]] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    generated: datetime = field(default_factory=lambda: datetime.now(UTC))

    def add(self, *sections: Section) -> Report:
        """Append sections; returns the report, for chaining."""
        self.sections.extend(sections)
        return self

    def section(self, title: str) -> Section:
        """The first section called ``title``; ``KeyError`` if there is none."""
        for s in self.sections:
            if s.title == title:
                return s
        raise KeyError(title)

    # -- HTML -----------------------------------------------------------------------------------------------

    def html(self) -> str:
        """The report as one self-contained HTML document."""
        e = html.escape
        out = [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{e(self.title)}</title>",
            f"<style>{CSS}</style>",
            "</head>",
            "<body>",
            f"<h1>{e(self.title)}</h1>",
        ]
        if self.subtitle:
            out.append(f'<p class="subtitle">{e(self.subtitle)}</p>')
        meta = [*self.meta, ("generated", self.generated.strftime("%Y-%m-%d %H:%M UTC"))]
        out.append(_table_html(TableBlock(("", ""), [list(m) for m in meta], css_class="meta"), headers=False))
        anchors = _unique_anchors(self.sections)
        out.append("<nav><ol>")
        out += [f'<li><a href="#{a}">{e(s.title)}</a></li>' for s, a in zip(self.sections, anchors, strict=True)]
        out.append("</ol></nav>")
        for s, a in zip(self.sections, anchors, strict=True):
            out.append(f'<section id="{a}">')
            out.append(f"<h2>{e(s.title)}</h2>")
            out += [_block_html(b) for b in s.blocks if b.media != "pdf"]
            out.append("</section>")
        out += ["</body>", "</html>", ""]
        return "\n".join(out)

    def write_html(self, path: str | Path | IO[str]) -> None:
        """Write :meth:`html` to a path or a text stream (``OSError`` if it cannot be written)."""
        text = self.html()
        if isinstance(path, str | Path):
            Path(path).write_text(text, encoding="utf-8")
        else:
            path.write(text)

    # -- PDF ------------------------------------------------------------------------------------------------

    def write_pdf(self, path: str | Path | IO[bytes]) -> None:
        """Write the report as a PDF: a title page, each section's text and tables as monospaced pages, each
        figure as a page of its own (``OSError`` if it cannot be written)."""
        from matplotlib.backends.backend_pdf import PdfPages

        with PdfPages(path, metadata={"Title": self.title, "Creator": "croupier"}) as pdf:
            head = [self.title, "=" * len(self.title), self.subtitle, ""]
            head += [f"{k}: {v}" for k, v in self.meta]
            head += ["", "Contents:"] + [f"  {i}. {s.title}" for i, s in enumerate(self.sections, start=1)]
            for page in _text_pages(head):
                pdf.savefig(page)
            for i, s in enumerate(self.sections, start=1):
                lines = [f"{i}. {s.title}", "-" * (len(s.title) + 3), ""]
                for b in s.blocks:
                    if b.media == "html":
                        continue
                    if isinstance(b, FigureBlock):
                        if lines:
                            for page in _text_pages(lines):
                                pdf.savefig(page)
                            lines = []
                        pdf.savefig(b.figure)
                    elif isinstance(b, Paragraph):
                        lines += [*textwrap.wrap(b.text, PDF_COLUMNS), ""]
                    else:
                        lines += [*_table_text(b), ""]
                if any(line.strip() for line in lines):
                    for page in _text_pages(lines):
                        pdf.savefig(page)

    def close(self) -> None:
        """Release the figures' memory (the report cannot be rendered afterwards)."""
        for s in self.sections:
            for f in s.figures():
                f.clear()


def _unique_anchors(sections: Sequence[Section]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for s in sections:
        n = seen.get(s.anchor, 0)
        seen[s.anchor] = n + 1
        out.append(s.anchor if n == 0 else f"{s.anchor}-{n + 1}")
    return out


def _block_html(b: Block) -> str:
    e = html.escape
    if isinstance(b, Paragraph):
        return f'<p class="dim">{e(b.text)}</p>' if b.dim else f"<p>{e(b.text)}</p>"
    if isinstance(b, FigureBlock):
        caption = f"<figcaption>{e(b.caption)}</figcaption>" if b.caption else ""
        src = "data:image/png;base64," + base64.b64encode(figure_png(b.figure, dpi=b.dpi)).decode("ascii")
        return f'<figure><img src="{src}" alt="{e(b.alt or b.caption)}">{caption}</figure>'
    return _table_html(b)


def _cell(c: CellLike) -> Cell:
    return c if isinstance(c, Cell) else Cell(c)


def _table_html(t: TableBlock, *, headers: bool = True) -> str:
    e = html.escape
    out = []
    if t.heading:
        out.append(f"<h3>{e(t.heading)}</h3>")
    out.append(f'<table class="{e(t.css_class)}">' if t.css_class else "<table>")
    if t.caption:
        out.append(f"<caption>{e(t.caption)}</caption>")
    if headers:
        out.append("<thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in t.headers) + "</tr></thead>")
    out.append("<tbody>")
    for i, row in enumerate(t.rows):
        tr = '<tr class="flag">' if i in t.flagged else "<tr>"
        tds = []
        for c in map(_cell, row):
            attrs = f' class="{e(c.cls)}"' if c.cls else ""
            if c.background:
                attrs += f' style="background:{e(c.background)}"'
            if c.title:
                attrs += f' title="{e(c.title)}"'
            tds.append(f"<td{attrs}>{e(c.text)}</td>")
        out.append(tr + "".join(tds) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def figure_png(fig: Figure, *, dpi: int = 110) -> bytes:
    """A figure as PNG bytes (no software metadata, so the file holds no link)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight", metadata={"Software": None})
    return buf.getvalue()


# -- PDF text pages -----------------------------------------------------------------------------------------

PDF_COLUMNS = 150
"""Characters per line of a PDF text page (A4 landscape, 6.5 pt monospace)."""
PDF_LINES = 62
"""Lines per PDF text page."""
_CELL_WIDTH = 46


def _table_text(t: TableBlock) -> list[str]:
    """A table as monospaced lines: long cells wrapped, flagged rows marked with ``*``."""
    rows = [list(t.headers), *([_cell(c).text for c in r] for r in t.rows)]
    ncols = max(len(r) for r in rows)
    rows = [r + [""] * (ncols - len(r)) for r in rows]
    widths = [max(1, min(_CELL_WIDTH, max(len(r[j]) for r in rows))) for j in range(ncols)]
    mark = bool(t.flagged)
    room = PDF_COLUMNS - 2 * ncols - (2 if mark else 0)
    while sum(widths) > room and max(widths) > 8:  # narrow the widest columns until the table fits the page
        widths[widths.index(max(widths))] -= 1
    out = [t.heading, ""] if t.heading else []
    for i, row in enumerate(rows):
        wrapped = [textwrap.wrap(c, w) or [""] for c, w in zip(row, widths, strict=True)]
        for k in range(max(len(w) for w in wrapped)):
            prefix = ("* " if (i - 1) in t.flagged and k == 0 else "  ") if mark else ""
            cells = [(w[k] if k < len(w) else "").ljust(widths[j]) for j, w in enumerate(wrapped)]
            out.append((prefix + "  ".join(cells)).rstrip())
        if i == 0:
            out.append(("  " if mark else "") + "  ".join("-" * w for w in widths))
    if t.caption:
        out += textwrap.wrap(t.caption, PDF_COLUMNS)
    if mark:
        out.append("* differs from the statute")
    return out


def _text_pages(lines: Iterable[str]) -> list[Figure]:
    """Monospaced A4-landscape pages holding ``lines`` (long lines are cut at :data:`PDF_COLUMNS`)."""
    chunk: list[str] = []
    pages = []
    for line in lines:
        chunk.append(line[:PDF_COLUMNS])
        if len(chunk) == PDF_LINES:
            pages.append(_page(chunk))
            chunk = []
    if chunk:
        pages.append(_page(chunk))
    return pages


def _page(lines: list[str]) -> Figure:
    fig = Figure(figsize=(11.69, 8.27))
    fig.text(0.04, 0.96, "\n".join(lines), family="monospace", fontsize=6.5, va="top", ha="left")
    return fig
