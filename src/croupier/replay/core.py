"""Scenario parsing shared by every game, the error object, and the dispatch to each game's runner.

A game plugs in by registering a :class:`GameRunner` in :data:`RUNNERS`: ``parse`` checks the whole file
(raising ``invalid_scenario`` before anything runs) and ``run`` plays the parsed rounds.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from croupier.errors import CroupierError, InvalidRules
from croupier.rulesdoc import is_free_text

CODES = (
    "invalid_scenario",
    "bet_rejected",
    "illegal_action",
    "unexpected_action",
    "cards_exhausted",
    "cards_left_over",
)


class ScenarioError(CroupierError):
    """A scenario that is invalid or breaks a rule: ``code`` is one of :data:`CODES`."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        round: int | None = None,
        action: int | None = None,
        rule: str | None = None,
    ) -> None:
        super().__init__(message, rule=rule)
        assert code in CODES, code
        self.code = code
        self.round = round
        self.action = action

    def as_object(self) -> dict[str, Any]:
        """``{"error": {"code", "message", "round", "action"}}`` as SCENARIOS.md prints it."""
        return {
            "error": {
                "code": self.code,
                "message": self.message,
                "round": self.round,
                "action": self.action,
                "rule": self.rule,
            }
        }


def invalid(message: str, *, round: int | None = None, action: int | None = None) -> ScenarioError:
    """An ``invalid_scenario`` error."""
    return ScenarioError("invalid_scenario", message, round=round, action=action)


def from_refusal(exc: CroupierError, code: str, *, round: int, action: int | None = None) -> ScenarioError:
    """Wrap an engine refusal (``BetRejected``, ``IllegalAction``) as a scenario error."""
    return ScenarioError(code, exc.message, round=round, action=action, rule=exc.rule)


def check_keys(obj: Mapping[str, Any], allowed: set[str], where: str, *, round: int | None = None) -> None:
    """Refuse keys outside ``allowed`` (free-text keys are always allowed)."""
    for key in obj:
        if key not in allowed and not is_free_text(key):
            raise invalid(f"{where} has an unknown key {key!r} (allowed: {', '.join(sorted(allowed))}).", round=round)


def need_object(value: object, where: str, *, round: int | None = None) -> dict[str, Any]:
    """``value`` if it is a JSON object, else ``invalid_scenario``."""
    if not isinstance(value, dict):
        raise invalid(f"{where} must be an object, not {value!r}.", round=round)
    return value


def need_int(value: object, where: str, *, round: int | None = None) -> int:
    """``value`` if it is an integer (not a boolean or float), else ``invalid_scenario``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise invalid(f"{where} must be an integer, not {value!r}.", round=round)
    return value


def need_str(value: object, where: str, *, round: int | None = None) -> str:
    """``value`` if it is a non-empty string, else ``invalid_scenario``."""
    if not isinstance(value, str) or not value:
        raise invalid(f"{where} must be a non-empty string, not {value!r}.", round=round)
    return value


@dataclass(frozen=True)
class GameRunner:
    """How one game reads and plays scenarios."""

    load_rules: Callable[[Mapping[str, Any]], Any]
    parse_round: Callable[[Any, dict[str, Any], int], Any]
    run: Callable[[Any, list[Any], list[Any]], list[dict[str, Any]]]
    """``run(rules, parsed_rounds, played)`` returns each round's output and appends each engine round to
    ``played`` (for ``--explain`` and tests)."""


RUNNERS: dict[str, GameRunner] = {}
"""The games ``replay`` knows, by the scenario's ``game`` value."""


def _runners() -> dict[str, GameRunner]:
    if not RUNNERS:
        from croupier.replay import blackjack, wager

        wager.register(RUNNERS)
        blackjack.register(RUNNERS)
    return RUNNERS


def replay(scenario: object, *, explain: bool = False) -> dict[str, Any]:
    """Run a scenario (the parsed JSON) and return its output; raise :class:`ScenarioError`.

    With ``explain`` the output also holds ``"transcript"``: per round, the readable steps with the rule id
    behind each one.
    """
    doc = need_object(scenario, "The scenario")
    check_keys(doc, {"game", "rules", "rounds", "expect", "expect_error"}, "The scenario")
    runners = _runners()
    game = doc.get("game")
    if not isinstance(game, str) or game not in runners:  # a list or object game is not hashable
        raise invalid(f"game {game!r} is not one of {', '.join(sorted(runners))}.")
    runner = runners[game]
    rules_doc = doc.get("rules", {})
    if not isinstance(rules_doc, dict):
        raise invalid(f"rules must be an object of options, not {rules_doc!r}.")
    try:
        rules = runner.load_rules(rules_doc)
    except InvalidRules as exc:
        raise invalid(f"The rules are invalid: {exc.message}") from None
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
        from croupier.replay.explain import transcript

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
