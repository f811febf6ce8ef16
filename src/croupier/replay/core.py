"""Scenario files (shared/spec/SCENARIOS.md): read a file, pick its game's runner, play it.

Each game's reader is a :class:`GameRunner` (``load_rules`` and ``parse_round`` check the whole file, raising
``invalid_scenario`` before anything runs; ``run`` plays the parsed rounds), listed in :data:`RUNNERS` by the
scenario's ``game`` value. The readers import only :mod:`croupier.replay.common` and the engines, so this module
imports them all at load time, without an import cycle.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from croupier.errors import InvalidRules
from croupier.games import GAMES
from croupier.replay.common import (
    CODES,
    GameRunner,
    ScenarioError,
    check_keys,
    from_refusal,
    invalid,
    need_int,
    need_object,
    need_str,
)
from croupier.replay.explain import transcript

RUNNERS: Mapping[str, GameRunner] = {name: game.part("replay") for name, game in GAMES.items()}
"""The games ``replay`` knows, by the scenario's ``game`` value: each game's ``replay`` part in the one registry
:data:`croupier.games.GAMES` (``croupier.replay.wager.ROULETTE``, ``.SICBO``, ``croupier.replay.blackjack.RUNNER``)."""


def _runners() -> Mapping[str, GameRunner]:
    """:data:`RUNNERS` (kept for callers of the former lazily filled table)."""
    return RUNNERS


def _check_paytables(rules_doc: Mapping[str, Any]) -> None:
    """SCENARIOS.md: paytable odds are positive integers, written as JSON integers. croupier's one extension: odds
    that are not whole (analysis of other paytables) may be written as a fraction ``"p/q"``, as ``croupier`` itself
    exports them; an integer written as a string (``"11"``) is refused."""

    def walk(value: object, where: str) -> None:
        if isinstance(value, Mapping):
            for key, item in value.items():
                walk(item, f"{where} {key}")
        elif isinstance(value, list):
            for k, item in enumerate(value):
                walk(item, f"{where} [{k}]")
        elif isinstance(value, str) and ("/" not in value or Fraction(value).denominator == 1):
            # (load_rules has already refused text that is not odds)
            raise invalid(f"The rules are invalid: paytables odds{where} {value!r} must be a positive integer.")

    if "paytables" in rules_doc:
        walk(rules_doc["paytables"], "")


def replay(scenario: object, *, explain: bool = False) -> dict[str, Any]:
    """Run a scenario (the parsed JSON) and return its output; raise :class:`ScenarioError`.

    With ``explain`` the output also holds ``"transcript"``: per round, the readable steps with the rule id
    behind each one.
    """
    doc = need_object(scenario, "The scenario")
    # "fair": a provably fair table's record of the round (croupier.fair), checked by `croupier verify`, not here.
    check_keys(doc, {"game", "rules", "rounds", "expect", "expect_error", "fair"}, "The scenario")
    game = doc.get("game")
    if not isinstance(game, str) or game not in RUNNERS:  # a list or object game is not hashable
        raise invalid(f"game {game!r} is not one of {', '.join(sorted(RUNNERS))}.")
    runner = RUNNERS[game]
    rules_doc = doc.get("rules", {})
    if not isinstance(rules_doc, dict):
        raise invalid(f"rules must be an object of options, not {rules_doc!r}.")
    try:
        rules = runner.load_rules(rules_doc)
    except InvalidRules as exc:
        raise invalid(f"The rules are invalid: {exc.message}") from None
    _check_paytables(rules_doc)
    rounds = doc.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise invalid("rounds must be a non-empty list of rounds.")
    parsed = [runner.parse_round(rules, need_object(r, f"Round {i}", round=i), i) for i, r in enumerate(rounds)]
    played: list[Any] = []
    outputs = runner.run(rules, parsed, played)
    totals: dict[str, int] = {}
    for out in outputs:
        for player, amount in out["players"].items():
            totals[player] = totals.get(player, 0) + amount
    result: dict[str, Any] = {"game": game, "rounds": outputs, "totals": totals}
    if explain:
        result["transcript"] = [transcript(rnd) for rnd in played]
    return result


def replay_file(path: str | Path, *, explain: bool = False) -> dict[str, Any]:
    """Read a scenario file and run it."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise invalid(f"Cannot read the scenario file {str(p)!r}: {exc}.") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        # ValueError: JSONDecodeError, and an integer over Python's digit limit (int_max_str_digits);
        # RecursionError: arrays or objects nested too deeply for the parser.
        raise invalid(f"{str(p)!r} is not valid JSON: {exc}.") from None
    return replay(data, explain=explain)


__all__ = [
    "CODES",
    "RUNNERS",
    "GameRunner",
    "ScenarioError",
    "check_keys",
    "from_refusal",
    "invalid",
    "need_int",
    "need_object",
    "need_str",
    "replay",
    "replay_file",
]
