"""A small self-contained report builder: sections of paragraphs, tables, figures and preformatted text,
written as one HTML file (CSS inline, figures embedded as base64 PNG, no external asset or link) or as a PDF
typeset from the same HTML (:mod:`croupier.report.pdf`: Chromium's print to PDF, A4 pages with numbered
footers; the CSS's print rules keep headings with what follows and tables and figures whole where they fit).

Figures are :class:`matplotlib.figure.Figure` objects made without pyplot (no global state, no GUI backend):
the report renders them to PNG. Text is escaped where it is rendered; a :class:`Cell`, :class:`Paragraph` or
:class:`Preformatted` never holds markup.
"""

from __future__ import annotations

import base64
import html
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Literal

from matplotlib.figure import Figure

Media = Literal["both", "html", "pdf"]
"""Where a block appears: in both renderings, or only in the HTML or only in the PDF."""
Target = Literal["html", "pdf"]
"""What :meth:`Report.html` renders for: the HTML file, or the page Chromium prints to PDF."""

LONG_TABLE = 20
"""Tables with more rows than this may break across pages (their header row repeats); shorter ones are kept
whole on one page."""

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
td.r { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
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
pre.doc { background: #f7f7f7; border: 1px solid #ddd; padding: 0.6em; font-size: 0.8em; overflow-x: auto;
          white-space: pre-wrap; word-break: break-all; }
.warning { border: 2px solid #b02a37; background: #f8d7da; color: #58151c; padding: 0.5em 0.9em; margin: 1em 0;
           font-weight: 600; }
.warning::before { content: "WARNING: "; font-weight: 800; }
code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
table.signoff { width: 100%; }
table.signoff td { height: 2.6em; vertical-align: bottom; }
@page { size: A4; margin: 14mm 11mm 16mm 11mm; }
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 9pt; }
  h1 { font-size: 1.5em; }
  h2 { margin-top: 1.2em; break-after: avoid; }
  h3, caption { break-after: avoid; }
  table, figure, .warning, pre.doc { break-inside: avoid; }
  table.long { break-inside: auto; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; }
  td { overflow-wrap: break-word; }
  figure img { max-height: 240mm; }
  section.page { break-before: page; }
  a { color: inherit; text-decoration: none; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
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
    """A paragraph of plain text (escaped when rendered); ``warning`` draws it as a boxed warning."""

    text: str
    dim: bool = False
    media: Media = "both"
    warning: bool = False


@dataclass(frozen=True)
class Preformatted:
    """Text shown exactly as given, in a monospace box (a document the reader may copy, e.g. a rules file)."""

    text: str
    heading: str | None = None
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


Block = Paragraph | TableBlock | FigureBlock | Preformatted


@dataclass
class Section:
    """A titled part of a report: a list of blocks, rendered in order (``new_page``: printed from a fresh page)."""

    title: str
    blocks: list[Block] = field(default_factory=list)
    anchor: str = ""
    new_page: bool = False

    def __post_init__(self) -> None:
        if not self.anchor:
            self.anchor = re.sub(r"[^a-z0-9]+", "-", self.title.lower()).strip("-") or "section"

    def add(self, *blocks: Block) -> Section:
        """Append blocks; returns the section, for chaining."""
        self.blocks.extend(blocks)
        return self

    def paragraph(self, text: str, *, dim: bool = False, media: Media = "both", warning: bool = False) -> Section:
        """Append a :class:`Paragraph`."""
        return self.add(Paragraph(text, dim, media, warning))

    def figures(self) -> list[Figure]:
        """The section's figures."""
        return [b.figure for b in self.blocks if isinstance(b, FigureBlock)]


@dataclass
class Report:
    """A whole report: a title, a subtitle, a table of facts (``meta``: game, rules, seed, ...), warnings shown
    above everything else, and sections. ``footer`` is printed at the foot of every PDF page beside its number."""

    title: str
    subtitle: str = ""
    meta: list[tuple[str, str]] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    generated: datetime = field(default_factory=lambda: datetime.now(UTC))
    warnings: list[str] = field(default_factory=list)
    footer: str = ""

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

    def html(self, target: Target = "html") -> str:
        """The report as one self-contained HTML document: for the HTML file, or (``pdf``) the page Chromium
        prints, with the blocks meant for the PDF instead of those meant only for the screen."""
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
        out += [f'<div class="warning" role="alert">{e(w)}</div>' for w in self.warnings]
        skip = "pdf" if target == "html" else "html"
        anchors = _unique_anchors(self.sections)
        out.append("<nav><ol>")
        out += [f'<li><a href="#{a}">{e(s.title)}</a></li>' for s, a in zip(self.sections, anchors, strict=True)]
        out.append("</ol></nav>")
        for s, a in zip(self.sections, anchors, strict=True):
            out.append(f'<section id="{a}" class="page">' if s.new_page else f'<section id="{a}">')
            out.append(f"<h2>{e(s.title)}</h2>")
            out += [_block_html(b) for b in s.blocks if b.media != skip]
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

    def pdf(self) -> bytes:
        """The report typeset as a PDF from :meth:`html` (``ValueError`` naming what is missing when no PDF
        engine is installed: :func:`croupier.report.pdf.check_engine`)."""
        from croupier.report.pdf import render_pdf

        return render_pdf(self.html("pdf"), footer=self.footer or self.title)

    def write_pdf(self, path: str | Path | IO[bytes]) -> None:
        """Write :meth:`pdf` to a path or a binary stream (``OSError`` if it cannot be written)."""
        data = self.pdf()
        if isinstance(path, str | Path):
            Path(path).write_bytes(data)
        else:
            path.write(data)

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
        if b.warning:
            return f'<div class="warning" role="alert">{e(b.text)}</div>'
        return f'<p class="dim">{e(b.text)}</p>' if b.dim else f"<p>{e(b.text)}</p>"
    if isinstance(b, Preformatted):
        heading = f"<h3>{e(b.heading)}</h3>" if b.heading else ""
        return f'{heading}<pre class="doc">{e(b.text)}</pre>'
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
    classes = " ".join(c for c in (t.css_class, "long" if len(t.rows) > LONG_TABLE else "") if c)
    out.append(f'<table class="{e(classes)}">' if classes else "<table>")
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
