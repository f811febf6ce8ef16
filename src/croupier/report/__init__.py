"""Reports: a self-contained HTML report builder (and its PDF, typeset by Chromium: :mod:`croupier.report.pdf`),
the sections PAR sheets are made of, the roulette, sic bo and blackjack PAR sheets, and strategy-chart renderers.
Needs the ``math`` extra (numpy, matplotlib); the PDF needs the ``pdf`` extra and a Chromium."""

from __future__ import annotations

from croupier.report.html import (
    LONG_TABLE,
    Cell,
    FigureBlock,
    Paragraph,
    Preformatted,
    Report,
    Section,
    TableBlock,
    figure_png,
)
from croupier.report.sections import (
    BetRow,
    McRow,
    RuleEffect,
    bets_section,
    monte_carlo_section,
    rule_effects_section,
    rules_section,
    strategy_chart_section,
)

__all__ = [
    "LONG_TABLE",
    "BetRow",
    "Cell",
    "FigureBlock",
    "McRow",
    "Paragraph",
    "Preformatted",
    "Report",
    "RuleEffect",
    "Section",
    "TableBlock",
    "bets_section",
    "figure_png",
    "monte_carlo_section",
    "rule_effects_section",
    "rules_section",
    "strategy_chart_section",
]
