"""The error hierarchy: every refusal is a ``ValueError`` naming the value and the rule.

Nothing is ever half-applied: code raises one of these *before* it changes any state or money.
"""

from __future__ import annotations


class CroupierError(ValueError):
    """Base of every error croupier raises on bad input.

    ``rule`` is the rule id of ``shared/spec/RULES.md`` behind the refusal (``"RO 6"``), or ``None``
    when the input is malformed rather than against a rule.
    """

    kind = "error"

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def as_dict(self) -> dict[str, str | None]:
        """The error object the server and CLI report: ``{"error", "detail", "rule"}``."""
        return {"error": self.kind, "detail": self.message, "rule": self.rule}


class InvalidRules(CroupierError):
    """A rules configuration with one or more problems; ``problems`` lists every one of them."""

    kind = "invalid_rules"

    def __init__(self, problems: list[str], *, rule: str | None = None) -> None:
        self.problems = list(problems)
        if len(problems) == 1:
            message = problems[0]
        else:
            message = f"{len(problems)} problems in the rules: " + "; ".join(problems)
        super().__init__(message, rule=rule)


class BetRejected(CroupierError):
    """A well-formed bet that the table does not take (placement, limits, timing)."""

    kind = "bet_rejected"


class IllegalAction(CroupierError):
    """An action that is not allowed at this point of the round."""

    kind = "illegal_action"


class OutOfTurn(IllegalAction):
    """An action by, or for, another box, hand or player than the one the round is waiting for."""

    kind = "unexpected_action"


class InvalidInput(CroupierError):
    """A result reported from outside that names no real card, pocket or dice (a mistyped or misread value)."""

    kind = "invalid_input"


class InvalidScenario(CroupierError):
    """A malformed scenario file (see shared/spec/SCENARIOS.md)."""

    kind = "invalid_scenario"
