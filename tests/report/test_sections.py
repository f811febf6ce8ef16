"""The report builder (croupier.report.html) and the reusable sections (croupier.report.sections)."""

from __future__ import annotations

import base64
import io
import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from matplotlib.figure import Figure

from croupier.blackjack.rules import MACAU_TYPICAL, STATUTE
from croupier.report import (
    LONG_TABLE,
    BetRow,
    Cell,
    FigureBlock,
    McRow,
    Preformatted,
    Report,
    RuleEffect,
    Section,
    TableBlock,
    bets_section,
    monte_carlo_section,
    rule_effects_section,
    rules_section,
)
from croupier.roulette import rules as roulette_rules

from .conftest import check_html


def small_figure() -> Figure:
    fig = Figure(figsize=(2, 1))
    fig.add_subplot().plot([0, 1], [1, 0])
    return fig


def rows_of(text: str, heading: str) -> list[str]:
    """The <tr> rows of the table after ``<h3>heading</h3>``."""
    part = text.split(f"<h3>{heading}</h3>", 1)[1].split("</table>", 1)[0]
    return re.findall(r"<tr[^>]*>.*?</tr>", part)


class TestBuilder:
    def test_html_is_well_formed_escaped_and_self_contained(self) -> None:
        section = Section("Odd <names> & more").paragraph("<script>alert(1)</script> & co")
        section.add(
            TableBlock(("a", "b<"), [["x", Cell("1", "r", background="#ffffff", title="t")]], caption="c", heading="h"),
            FigureBlock(small_figure(), "a plot"),
        )
        report = Report("T & <t>", "sub", meta=[("seed", "1")]).add(section, Section("Odd <names> & more"))
        text = report.html()
        parsed = check_html(text)
        assert "<script>" not in text and "&lt;script&gt;" in text
        assert "<title>T &amp; &lt;t&gt;</title>" in text
        assert parsed.ids == ["odd-names-more", "odd-names-more-2"]  # repeated titles get distinct anchors
        (src,) = parsed.srcs
        assert base64.b64decode(src.split(",", 1)[1]).startswith(b"\x89PNG")

    def test_media_selects_html_or_pdf(self) -> None:
        s = Section("S").paragraph("only in the pdf", media="pdf").paragraph("only in html", media="html")
        text = Report("R").add(s).html()
        assert "only in html" in text and "only in the pdf" not in text
        printed = Report("R").add(s).html("pdf")
        assert "only in the pdf" in printed and "only in html" not in printed

    def test_warnings_documents_and_print_rules(self) -> None:
        long = TableBlock(("n",), [[str(i)] for i in range(LONG_TABLE + 1)])
        short = TableBlock(("n",), [["1"]])
        s = Section("S", new_page=True).paragraph("Careful <now>.", warning=True)
        s.add(Preformatted('{"a": "<b>"}\n', heading="Doc"), long, short)
        report = Report("R", warnings=["Top & first."]).add(s)
        text = report.html()
        check_html(text)
        assert text.index('<div class="warning" role="alert">Top &amp; first.</div>') < text.index("<nav>")
        assert '<div class="warning" role="alert">Careful &lt;now&gt;.</div>' in text
        assert '<h3>Doc</h3><pre class="doc">{&quot;a&quot;: &quot;&lt;b&gt;&quot;}\n</pre>' in text
        assert text.count('<table class="long">') == 1 and '<section id="s" class="page">' in text
        assert "@page { size: A4" in text and "break-inside: avoid" in text

    def test_write_html_and_pdf(self, tmp_path: Path) -> None:
        big = TableBlock(("n", "text"), [[str(i), "word " * 30] for i in range(80)], flagged=frozenset({3}))
        report = Report("R", meta=[("k", "v")]).add(Section("S").add(big, FigureBlock(small_figure(), "plot")))
        report.write_html(tmp_path / "r.html")
        check_html((tmp_path / "r.html").read_text(encoding="utf-8"))
        buf = io.StringIO()
        report.write_html(buf)
        assert buf.getvalue() == (tmp_path / "r.html").read_text(encoding="utf-8")[: len(buf.getvalue())]
        report.write_pdf(tmp_path / "r.pdf")
        data = (tmp_path / "r.pdf").read_bytes()
        assert data.startswith(b"%PDF") and data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") >= 3

    def test_section_lookup(self) -> None:
        report = Report("R").add(Section("A"), Section("B"))
        assert report.section("B").title == "B"


class TestRulesSection:
    def test_statute_rules_list_every_option_unflagged(self) -> None:
        text = Report("R").add(rules_section(STATUTE)).html()
        check_html(text)
        rows = rows_of(text, "Every option")
        assert len(rows) == 1 + 35  # the header and every blackjack option
        assert not any('class="flag"' in r for r in rows)
        assert "Every option is the statute&#x27;s." in text

    def test_differences_are_flagged_with_what_they_need(self) -> None:
        rules = replace(MACAU_TYPICAL, special_bonus=False)
        text = Report("R").add(rules_section(rules)).html()
        check_html(text)
        flagged = {re.findall(r"<td>([a-z_0-9]+)</td>", r)[0] for r in rows_of(text, "Every option") if "flag" in r}
        assert flagged == {"decks", "dealing_device", "dealer_soft_17", "resplit_aces", "special_bonus"}
        diffs = rows_of(text, "Differences from the statute")
        by_option = {re.findall(r"<td>([a-z_0-9.]+)</td>", r)[0]: r for r in diffs[1:]}
        assert "needs the regulator&#x27;s prior approval" in by_option["decks"]
        assert "<td>6</td><td>8</td>" in by_option["decks"]
        assert "outside the statute: for analysis" in by_option["dealer_soft_17"]
        assert "waivable rule" in by_option["special_bonus"]
        assert "<td>BJ 15</td>" in by_option["special_bonus"]

    def test_a_changed_paytable_entry_is_named(self) -> None:
        rules = roulette_rules.load({"paytables": {"straight": 34}, "min_bet": 10})
        text = Report("R").add(rules_section(rules)).html()
        diffs = rows_of(text, "Differences from the statute")
        assert [re.findall(r"<td>([a-z_.]+)</td>", r)[0] for r in diffs[1:]] == ["min_bet", "paytables.straight"]
        assert "differs in straight: outside the statute" in text
        assert "table limit: the house&#x27;s own choice" in text


class TestTableSections:
    def test_bets_with_exact_and_float_figures(self) -> None:
        rows = [
            BetRow("straight", Fraction(1, 37), Fraction(1, 37), 5.8378, "RO 7", pays="35"),
            BetRow("main bet", 0.004321, 0.43, 1.15, "BJ 7"),
        ]
        text = Report("R").add(bets_section(rows, note="n")).html()
        check_html(text)
        assert '<td class="r">1/37</td><td class="r">2.7027%</td>' in text
        assert "1/37 = 0.027027" in text and "0.4321%" in text and "0.430000" in text and "BJ 7" in text

    def test_bets_without_pays_or_fractions_leave_those_columns_out(self) -> None:
        text = Report("R").add(bets_section([BetRow("main", 0.005, 0.43, 1.15, "BJ 7")])).html()
        assert "<th>pays</th>" not in text and "<th>house edge</th>" not in text and "<th>edge %</th>" in text

    def test_rule_effects_show_signed_changes(self) -> None:
        rows = [
            RuleEffect("dealer_soft_17", "stand", "hit_all", 0.0022, "BJ 6.1"),
            RuleEffect("surrender", True, False, Fraction(-1, 1000)),
        ]
        text = Report("R").add(rule_effects_section(rows)).html()
        check_html(text)
        assert "+0.2200%" in text and "-0.1000%" in text
        assert "<td>true</td><td>false</td>" in text

    def test_monte_carlo_marks_inside_and_outside(self) -> None:
        rows = [
            McRow("edge: a", Fraction(1, 37), 1 / 37 + 0.001, 0.001),  # z = 1: inside
            McRow("edge: b", 0.05, 0.06, 0.001),  # z = 10: outside
            McRow("rounds per shoe", 40.0, 40.5, 0.3, percent=False),
        ]
        assert [r.inside for r in rows] == [True, False, True]
        assert round(rows[1].z, 6) == 10 and rows[0].low < 1 / 37 < rows[0].high
        assert McRow("x", 0.0, 0.0, 0.0).inside and McRow("x", 0.0, 1.0, 0.0).z == float("inf")
        text = Report("R").add(monte_carlo_section(rows, rounds=1000, seed=7, what="rounds")).html()
        check_html(text)
        assert "2 of 3 exact figures lie inside" in text and "1,000 simulated rounds (seed 7)" in text
        assert ">NO</td>" in text and "40.500000" in text
