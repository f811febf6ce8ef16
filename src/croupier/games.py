"""The one registry of the games croupier knows, read by every layer: each game's rules class, presets and loader,
its bet kinds, the rule ids the layers cite for what every game has (the betting window, a void result, the
bets, the odds, closing a table), and where each layer's part of the game lives (its exact odds, its PAR sheet,
its scenario runner, its casino table adapter), imported only when used so that this module stays as light as
the engines."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from croupier import rulesdoc
from croupier.blackjack import rules as blackjack_rules
from croupier.errors import InvalidRules
from croupier.roulette import rules as roulette_rules
from croupier.roulette.round import RouletteRound
from croupier.sicbo import rules as sicbo_rules
from croupier.sicbo.round import SicBoRound

Part = Literal["odds", "par", "replay", "table"]


@dataclass(frozen=True)
class RuleIds:
    """The rules every game has, by id: the betting window and its bell, a void result or round, what may be bet
    and its limits, the payouts, and why a table with a round in play may not close."""

    betting: str
    void: str
    bets: str
    odds: str
    close: str


@dataclass(frozen=True)
class Game:
    """One game: its name, statute, rules class, presets, document loader, bet kinds, rule ids and the places of
    its parts in the other layers (``"module:name"``, see :meth:`part`)."""

    name: str
    title: str
    statute: str
    rules_class: type[Any]
    presets: Mapping[str, Any]
    load: Callable[[Mapping[str, Any]], Any]
    bet_kinds: tuple[str, ...]
    """The bet kinds whose stakes the rules limit (RO 6, SB 5, BJ 13 and the main bet)."""
    rules: RuleIds
    parts: Mapping[Part, str]

    def part(self, name: Part) -> Any:
        """A layer's part of the game, imported now: ``odds`` (exact odds of every bet by enumeration; only games
        small enough), ``par`` (the PAR sheet builder), ``replay`` (the scenario runner), ``table`` (the casino's
        table adapter). ``LookupError`` when the game has no such part."""
        where = self.parts.get(name)
        if where is None:
            raise LookupError(f"{self.title} has no {name} part.")
        module, _, attribute = where.partition(":")
        return getattr(importlib.import_module(module), attribute)


GAMES: dict[str, Game] = {
    "roulette": Game(
        "roulette",
        "Roulette",
        "Despacho 30/2003",
        roulette_rules.RouletteRules,
        roulette_rules.PRESETS,
        roulette_rules.load,
        roulette_rules.BET_IDS,
        RuleIds(RouletteRound.RULE_BETTING, RouletteRound.RULE_VOID, "RO 6", "RO 7", RouletteRound.RULE_BETTING),
        {
            "odds": "croupier.analysis.odds:roulette_odds",
            "par": "croupier.report.par:roulette_par",
            "replay": "croupier.replay.wager:ROULETTE",
            "table": "croupier.service.table_games:RouletteGame",
        },
    ),
    "sicbo": Game(
        "sicbo",
        "Sic Bo",
        "Despacho 31/2003",
        sicbo_rules.SicBoRules,
        sicbo_rules.PRESETS,
        sicbo_rules.load,
        sicbo_rules.BET_IDS,
        RuleIds(SicBoRound.RULE_BETTING, SicBoRound.RULE_VOID, "SB 5", "SB 6", SicBoRound.RULE_SETTLE),
        {
            "odds": "croupier.analysis.odds:sicbo_odds",
            "par": "croupier.report.par:sicbo_par",
            "replay": "croupier.replay.wager:SICBO",
            "table": "croupier.service.table_games:SicBoGame",
        },
    ),
    "blackjack": Game(
        "blackjack",
        "Blackjack",
        "Despacho 57/2009",
        blackjack_rules.BlackjackRules,
        blackjack_rules.PRESETS,
        blackjack_rules.load,
        blackjack_rules.BET_KINDS,
        RuleIds("BJ 5.1", "BJ 5.1.2", "BJ 3", "BJ 14", "BJ 7.1"),
        {
            "par": "croupier.report.blackjack:blackjack_par",
            "replay": "croupier.replay.blackjack:RUNNER",
            "table": "croupier.service.table_games:BlackjackGame",
        },
    ),
}


def game(name: str) -> Game:
    """The :class:`Game` called ``name``; ``ValueError`` naming the choices otherwise."""
    if name not in GAMES:
        raise ValueError(f"{name!r} is not a game croupier knows (one of {', '.join(GAMES)}).")
    return GAMES[name]


def infer_game(document: Mapping[str, Any]) -> Game:
    """The game a rules document is for: its ``game`` key, else the one game whose options it names."""
    named = document.get("game")
    if isinstance(named, str):
        try:
            return game(named)
        except ValueError as exc:
            raise InvalidRules([str(exc)]) from None
    keys = {k for k in document if k not in ("preset", "game") and not rulesdoc.is_free_text(k)}
    candidates = [g for g in GAMES.values() if keys <= {s.name for s in rulesdoc.option_specs(g.rules_class)}]
    if len(candidates) == 1:
        return candidates[0]
    raise InvalidRules(
        ['the rules file does not say its game: add game = "roulette", "sicbo" or "blackjack", or pass --game']
    )


def load_rules(name: str, *, preset: str | None = None, path: str | None = None) -> Any:
    """The rules of game ``name`` from a preset or a rules file (default: the statute)."""
    g = game(name)
    if path is not None:
        document = rulesdoc.read_document(path)
        return g.load(document)
    return g.load({"preset": preset or "statute"})
