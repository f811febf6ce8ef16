"""The PDF (croupier.report.pdf): typeset by Chromium from the report's own HTML, and a clear refusal (exit 2,
nothing written) when no PDF engine is installed."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from matplotlib.figure import Figure

from croupier.report import FigureBlock, Report, Section, TableBlock
from croupier.report.pdf import ENV, check_engine
from support import invoke


def pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", data))


def fonts(data: bytes) -> set[str]:
    return {m.decode() for m in re.findall(rb"/BaseFont\s*/[A-Z]{6}\+([A-Za-z0-9-]+)", data)}


def test_a_report_is_typeset_not_dumped(tmp_path: Path) -> None:
    fig = Figure(figsize=(3, 2))
    fig.add_subplot().plot([0, 1], [1, 0])
    big = TableBlock(("n", "text"), [[str(i), "word " * 12] for i in range(120)], heading="A long table")
    report = Report("R", meta=[("k", "v")], footer="the footer").add(
        Section("First").paragraph("A paragraph.").add(big), Section("Second").add(FigureBlock(fig, "a plot"))
    )
    report.warnings.append("A warning.")
    data = report.pdf()
    assert data.startswith(b"%PDF-") and pages(data) >= 3  # the long table breaks across pages
    used = fonts(data)
    assert any("Mono" not in f for f in used), used  # proportional text, not a monospace dump
    assert b"/Subtype /Image" in data or b"/Subtype/Image" in data  # the figure is an embedded picture
    report.write_pdf(tmp_path / "r.pdf")
    assert (tmp_path / "r.pdf").read_bytes()[:5] == b"%PDF-"
    check_engine()


class TestNoEngine:
    def refused(self, tmp_path: Path) -> str:
        out, pdf = tmp_path / "r.html", tmp_path / "r.pdf"
        result = invoke("par", "roulette", "--out", str(out), "--pdf", str(pdf), "--rounds", "10")
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output
        assert not out.exists() and not pdf.exists()  # refused before any work
        return " ".join(result.output.split())

    def test_without_playwright(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wide: None) -> None:
        monkeypatch.setitem(sys.modules, "playwright.sync_api", None)
        message = self.refused(tmp_path)
        assert "--pdf needs Playwright, which is not installed" in message
        assert "pip install 'croupier[pdf]'" in message and "apt-get install chromium" in message

    def test_with_a_named_browser_that_is_not_there(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wide: None
    ) -> None:
        monkeypatch.setenv(ENV, str(tmp_path / "no-chromium"))
        assert f"${ENV} is" in self.refused(tmp_path) and "not an executable file" in self.refused(tmp_path)

    def test_the_pdf_on_the_report_itself(self, tmp_path: Path, wide: None) -> None:
        out = tmp_path / "r.html"
        result = invoke("par", "sicbo", "--out", str(out), "--pdf", str(out), "--rounds", "10")
        assert result.exit_code == 2 and "is the HTML report's own path" in " ".join(result.output.split())
        assert not out.exists()
