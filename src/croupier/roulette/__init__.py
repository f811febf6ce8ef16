"""Roulette, Despacho 30/2003 (RULES.md RO 1-8)."""

from croupier.roulette.bets import BET_TYPES, Bet, BetType, make_bet
from croupier.roulette.round import Phase, RouletteRound, RouletteSettlement, RouletteTable
from croupier.roulette.rules import PRESETS, RouletteRules

__all__ = [
    "BET_TYPES",
    "PRESETS",
    "Bet",
    "BetType",
    "Phase",
    "RouletteRound",
    "RouletteRules",
    "RouletteSettlement",
    "RouletteTable",
    "make_bet",
]
