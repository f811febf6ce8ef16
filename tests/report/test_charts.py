"""Strategy-chart renderers (croupier.report.charts) on hand-built charts: the grids, the Rich tables, the PNG
and the report section."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

from rich.console import Console

from croupier.analysis.chart import STAND, Chart
from croupier.blackjack.rules import MACAU_TYPICAL, STATUTE
from croupier.report import Report, strategy_chart_section
from croupier.report.charts import NOT_APPLICABLE, UP_LABELS, chart_grids, chart_png, chart_text, colour_of

from .conftest import check_html

PNG = b"\x89PNG\r\n\x1a\n"


def grid(chart: Chart, name: str, rules: object = STATUTE) -> dict[str, tuple[str, ...]]:
    """One grid of the chart as {row label: cells}."""
    (g,) = [g for g in chart_grids(chart, rules) if g.name == name]
    return dict(zip(g.rows, g.cells, strict=True))


def render(chart: Chart, rules: object = STATUTE) -> str:
    console = Console(record=True, width=200, no_color=True)
    console.print(chart_text(chart, rules, title="Basic"))
    return console.export_text()


class TestGrids:
    def test_columns_are_the_up_cards_two_to_ten_then_the_ace(self) -> None:
        assert UP_LABELS == ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")

    def test_hard_totals_merge_identical_consecutive_rows(self, chart: Chart) -> None:
        hard = grid(chart, "Hard totals")
        assert list(hard) == ["4–8", "9", "10", "11", "12", "13–16", "17–20"]
        assert hard["4–8"] == ("H",) * 10
        assert hard["9"] == ("H", "D", "D", "D", "D", "H", "H", "H", "H", "H")
        assert hard["12"] == ("H", "H", "S", "S", "S", "H", "H", "H", "H", "H")
        assert hard["17–20"] == ("S",) * 10

    def test_unmerged_rows_are_every_total_but_21(self, chart: Chart) -> None:
        hard, soft = chart_grids(chart, STATUTE, merge=False)[:2]
        assert hard.rows == tuple(str(t) for t in range(4, 21))
        assert soft.rows[0] == "12 (A,A)" and soft.rows[-1] == "20 (A,9)"

    def test_soft_rows_name_their_two_card_hands_and_show_ds(self, chart: Chart) -> None:
        soft = grid(chart, "Soft totals")
        assert soft["18 (A,7)"] == ("S", "Ds", "Ds", "Ds", "Ds", "S", "S", "H", "H", "H")
        assert soft["13–14 (A,2–A,3)"] == ("H", "H", "H", "D", "D", "H", "H", "H", "H", "H")
        assert "19–20 (A,8–A,9)" in soft

    def test_pairs_show_p_or_the_play_of_the_total(self, chart: Chart) -> None:
        pairs = grid(chart, "Pairs")
        assert list(pairs) == ["2,2", "3,3", "4,4", "5,5", "6,6", "7,7", "8,8", "9,9", "10,10", "A,A"]
        assert pairs["A,A"] == ("P",) * 10 and pairs["8,8"] == ("P",) * 10
        assert pairs["5,5"] == ("D",) * 8 + ("H", "H")  # never split: played as hard 10
        assert pairs["9,9"] == ("P",) * 5 + ("S", "P", "P", "S", "S")  # hard 18 where not split
        assert pairs["10,10"] == ("S",) * 10

    def test_surrender_rows_are_those_that_surrender_and_never_against_an_ace(self, chart: Chart) -> None:
        chart.surrender_hard[14, 1] = True  # against an ace only: BJ 18.1 forbids it, so the row is not shown
        surrender = grid(chart, "Surrender")
        assert list(surrender) == ["hard 15", "hard 16"]
        assert surrender["hard 16"] == ("",) * 7 + ("R", "R", NOT_APPLICABLE)

    def test_pairs_and_soft_hands_can_surrender(self) -> None:
        c = Chart()
        c.surrender_pair[8, 10] = True
        c.surrender_soft[17, 9] = True
        assert list(grid(c, "Surrender")) == ["soft 17", "8,8"]

    def test_a_chart_that_never_surrenders_says_so(self) -> None:
        (g,) = [g for g in chart_grids(Chart(), STATUTE) if g.name == "Surrender"]
        assert g.rows == () and "never surrenders" in g.note

    def test_no_surrender_grid_when_the_rules_waive_it(self, chart: Chart) -> None:
        names = [g.name for g in chart_grids(chart, replace(STATUTE, surrender=False))]
        assert names == ["Hard totals", "Soft totals", "Pairs", "Other decisions"]

    def test_five_card_row_and_even_money(self, chart: Chart) -> None:
        other = grid(chart, "Other decisions")
        assert other["5 cards"] == ("≤17",) * 5 + ("all",) * 4 + (NOT_APPLICABLE,)
        assert other["even money"] == (NOT_APPLICABLE,) * 8 + ("EM", "no")

    def test_five_card_row_only_where_the_rules_pay_it(self, chart: Chart) -> None:
        rules = replace(STATUTE, five_card_payment=False, even_money_on_ten=False)
        other = grid(chart, "Other decisions", rules)
        assert list(other) == ["even money"]
        assert other["even money"][-2:] == (NOT_APPLICABLE, "no")  # even money on a ten not offered

    def test_without_rules_every_grid_is_shown(self, chart: Chart) -> None:
        names = [g.name for g in chart_grids(chart)]
        assert names == ["Hard totals", "Soft totals", "Pairs", "Surrender", "Other decisions"]

    def test_a_never_claim_threshold_is_blank(self) -> None:
        c = Chart()
        c.five_card[2] = 0
        c.five_card[3] = 21
        row = grid(c, "Other decisions")["5 cards"]
        assert row[:2] == ("", "all")

    def test_every_letter_has_a_colour(self) -> None:
        for letter in ("H", "S", "D", "Ds", "P", "R", "EM", "≤17", "all", NOT_APPLICABLE):
            assert colour_of(letter).startswith("#")
        assert len({colour_of(x) for x in ("H", "S", "D", "Ds", "P", "R")}) == 6


class TestRenderers:
    def test_text_shows_every_table_and_the_legend(self, chart: Chart) -> None:
        text = render(chart)
        for part in ("Basic", "Hard totals", "Soft totals", "Pairs", "Surrender", "Other decisions", "13–16"):
            assert part in text
        assert "Ds double if allowed, else stand" in text and "R surrender" in text
        assert "≤17" in text

    def test_text_of_an_all_stand_chart(self) -> None:
        c = Chart()
        c.hard[:, :] = STAND
        text = render(c, MACAU_TYPICAL)
        assert "4–20" in text and "(none)" in text

    def test_png_to_a_buffer_and_a_path(self, chart: Chart, tmp_path: Path) -> None:
        buf = io.BytesIO()
        chart_png(chart, buf, "Basic strategy", rules=MACAU_TYPICAL)
        assert buf.getvalue().startswith(PNG)
        path = tmp_path / "chart.png"
        chart_png(chart, path, "Basic strategy")
        assert path.read_bytes().startswith(PNG) and path.stat().st_size > 10_000

    def test_section_renders_coloured_html_tables_and_a_pdf_figure(self, chart: Chart, tmp_path: Path) -> None:
        report = Report("Chart").add(strategy_chart_section(chart, MACAU_TYPICAL, note="Hand-built."))
        text = report.html()
        check_html(text)
        assert 'class="chart"' in text and f"background:{colour_of('P')}" in text
        assert "<h3>Hard totals</h3>" in text and "<h3>Surrender</h3>" in text
        assert "data:image/png" not in text  # the drawn chart is for the PDF only
        report.write_pdf(tmp_path / "chart.pdf")
        assert (tmp_path / "chart.pdf").read_bytes().startswith(b"%PDF")
