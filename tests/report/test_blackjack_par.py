"""The blackjack PAR sheet (issue 4): one self-contained HTML report with the rules and the options needing
approval, every bet's exact edge, the strategy chart, the rule effects and a Monte Carlo confirmation."""

from __future__ import annotations

import re
from pathlib import Path

from croupier.analysis.ca import analyse
from croupier.blackjack.rules import MACAU_TYPICAL
from support import invoke


def test_blackjack_par_sheet_is_complete_and_self_contained(tmp_path: Path) -> None:
    out = tmp_path / "bj.html"
    pdf = tmp_path / "bj.pdf"
    result = invoke(
        "par", "blackjack", "--preset", "macau", "--out", str(out), "--pdf", str(pdf), "--rounds", "400000",
        "--seed", "3",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert not re.search(r"https?:|<script|<link", html)
    edge = f"{analyse(MACAU_TYPICAL).house_edge * 100:.4f}%"
    assert edge in html  # the exact composition-dependent edge
    for part in (
        "Rules", "Basic strategy", "Rule effects", "Monte Carlo confirmation", "needs the regulator",
        "any pair", "perfect pairs", "over 13", "under 13", "sevens", "streak 5", "insurance",
        "five_card_payment", "Hard totals", "data:image/png;base64,",
    ):  # fmt: skip
        assert part in html, part
    assert "2 of 2 exact figures lie inside" in html
    assert pdf.read_bytes()[:5] == b"%PDF-"
