"""The games croupier knows, with their rules classes, presets and loaders, for the CLI and tools."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from croupier import rulesdoc
from croupier.blackjack import rules as blackjack_rules
from croupier.errors import InvalidRules
from croupier.roulette import rules as roulette_rules
from croupier.sicbo import rules as sicbo_rules


@dataclass(frozen=True)
class Game:
    """One game: its name, rules class, presets and document loader."""

    name: str
    title: str
    statute: str
    rules_class: type[Any]
    presets: Mapping[str, Any]
    load: Callable[[Mapping[str, Any]], Any]


GAMES: dict[str, Game] = {
    "roulette": Game(
        "roulette",
        "Roulette",
        "Despacho 30/2003",
        roulette_rules.RouletteRules,
        roulette_rules.PRESETS,
        roulette_rules.load,
    ),
    "sicbo": Game("sicbo", "Sic Bo", "Despacho 31/2003", sicbo_rules.SicBoRules, sicbo_rules.PRESETS, sicbo_rules.load),
    "blackjack": Game(
        "blackjack",
        "Blackjack",
        "Despacho 57/2009",
        blackjack_rules.BlackjackRules,
        blackjack_rules.PRESETS,
        blackjack_rules.load,
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
