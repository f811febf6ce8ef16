"""What every game's scenario reader shares: the error object of SCENARIOS.md, the checks of a file's shape,
and :class:`GameRunner`, the interface a game's reader implements (the table of runners is
:data:`croupier.replay.core.RUNNERS`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from croupier.errors import CroupierError
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
