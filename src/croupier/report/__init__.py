"""Reports: a self-contained HTML (and PDF) report builder, the sections PAR sheets are made of, the roulette and
sic bo PAR sheets, and strategy-chart renderers. Needs the ``math`` extra (numpy, matplotlib)."""

from __future__ import annotations

from croupier.report.html import Cell, FigureBlock, Paragraph, Report, Section, TableBlock, figure_png
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
    "BetRow",
    "Cell",
    "FigureBlock",
    "McRow",
    "Paragraph",
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
