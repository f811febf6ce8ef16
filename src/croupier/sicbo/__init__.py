"""Sic bo, Despacho 31/2003 (RULES.md SB 1-7)."""

from croupier.sicbo.bets import BET_TYPES, Bet, BetType, make_bet
from croupier.sicbo.round import Phase, SicBoRound, SicBoSettlement, SicBoTable
from croupier.sicbo.rules import PRESETS, SicBoPaytable, SicBoRules

__all__ = [
    "BET_TYPES",
    "PRESETS",
    "Bet",
    "BetType",
    "Phase",
    "SicBoPaytable",
    "SicBoRound",
    "SicBoRules",
    "SicBoSettlement",
    "SicBoTable",
    "make_bet",
]
