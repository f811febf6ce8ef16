"""The request bodies, validated at the edge (the service validates everything again), and the error shape. The
answers' shapes are :mod:`croupier.service.payloads`."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field, StringConstraints

from croupier.service.casino import RESULT_DISPLAY_SECONDS

Name = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")]
TableId = Annotated[str, StringConstraints(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$")]
RoundId = Annotated[str, StringConstraints(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$")]
IdempotencyKey = Annotated[str, StringConstraints(min_length=1, max_length=56, pattern=r"^[\x21-\x7e]+$")]
Password = Annotated[str, StringConstraints(min_length=1, max_length=1024)]
Amount = Annotated[int, Field(ge=1, le=10**12, strict=True)]
Stake = Annotated[int, Field(ge=1, le=10**12, strict=True)]
Word = Annotated[str, StringConstraints(min_length=1, max_length=32, pattern=r"^[a-z0-9_]+$")]
RoleName = Literal["player", "dealer", "admin"]


def _in_utc(moment: datetime) -> datetime:
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise ValueError("the instant is out of range in UTC") from None


Instant = Annotated[AwareDatetime, AfterValidator(_in_utc)]
"""A date-time with its time zone (``2025-01-31T20:00:00+08:00``, ``…Z``), taken as UTC; one without is a 422."""


class Body(BaseModel):
    """A request body: unknown fields are errors, strings are not coerced to numbers."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Error(BaseModel):
    """Every refusal: the error's kind, a full-sentence message, and the rule behind it (or null)."""

    error: str
    detail: str
    rule: str | None


class LoginRequest(Body):
    """A name and password."""

    username: Name
    password: Password


class NewAccount(Body):
    """An account an admin creates."""

    username: Name
    password: Password
    role: RoleName = "player"


class NewPassword(Body):
    """An account's new password, set by an admin (the password policy applies)."""

    password: Password


class NewRole(Body):
    """An account's new role."""

    role: RoleName


class Adjustment(Body):
    """An admin credit or debit."""

    amount: Amount
    memo: Annotated[str, StringConstraints(max_length=200)] | None = None


class OpenTable(Body):
    """A table to open: its id, game, rules document (null: the statute), live or RNG, its timers and dealers."""

    table_id: TableId
    game: Literal["roulette", "sicbo", "blackjack"]
    rules: dict[str, Any] | None = Field(default=None, max_length=200)
    live: bool = False
    betting_seconds: float = Field(default=15, gt=0, le=3600, strict=False)
    decision_seconds: float = Field(default=20, gt=0, le=3600, strict=False)
    result_display_seconds: float = Field(default=RESULT_DISPLAY_SECONDS, ge=0, le=60, strict=True)  # no true/false
    """How long each round's result stays on the table before the next betting window opens (the same pause for
    every client; 0: at once)."""
    dealers: list[Name] = Field(default_factory=list, max_length=50)
    """The dealers who run the table: a live table's results, bell and voids (an admin assigns them)."""


class Dealers(Body):
    """The dealers of a table (replacing those it had)."""

    dealers: list[Name] = Field(max_length=50)


class Bet(Body):
    """A scenario-style bet (shared/spec/SCENARIOS.md), for the caller. Roulette: ``type``, ``amount`` and
    ``numbers`` or ``index``; sic bo: ``type``, ``amount`` and ``face`` or ``total``; blackjack: ``box``,
    ``main`` and ``side`` / ``streak`` stakes."""

    type: Word | None = None
    amount: Stake | None = None
    numbers: list[Annotated[int, Field(ge=0, le=36)]] | None = Field(default=None, max_length=37)
    index: Annotated[int, Field(ge=0, le=12)] | None = None
    face: Annotated[int, Field(ge=1, le=6)] | None = None
    total: Annotated[int, Field(ge=3, le=18)] | None = None
    box: Annotated[int, Field(ge=1, le=12)] | None = None
    main: Stake | None = None
    side: dict[Word, Stake] | None = Field(default=None, max_length=10)
    streak: dict[Annotated[str, StringConstraints(pattern=r"^[0-9]{1,2}$")], Stake] | None = Field(
        default=None, max_length=10
    )
    client_seed: Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=r"^[ -~]+$")] | None = None
    """The player's own seed for a provably fair table (docs/fairness.md): 1 to 64 printable ASCII characters."""

    def document(self) -> dict[str, Any]:
        """The bet as the service takes it: the fields given."""
        return self.model_dump(exclude_none=True)


class Action(Body):
    """A blackjack answer to the pending decision, for a box (and hand) of the caller; ``amount`` is an
    insurance stake (BJ 12)."""

    action: Word
    box: Annotated[int, Field(ge=1, le=12)] | None = None
    hand: Annotated[int, Field(ge=0, le=32)] | None = None
    amount: Stake | None = None


class Report(Body):
    """A live table's result from the dealer: a pocket (0-36), three dice, or a card code (``"KD"``)."""

    result: (
        Annotated[int, Field(ge=-1000, le=1000)]
        | Annotated[list[Annotated[int, Field(ge=-1000, le=1000)]], Field(max_length=8)]
        | Annotated[str, StringConstraints(min_length=1, max_length=8)]
    )


class Void(Body):
    """Why the dealer voids the round (RO 2.2, SB 3.3, BJ 5.1)."""

    reason: Annotated[str, StringConstraints(min_length=1, max_length=200)]


CommandId = Annotated[str, StringConstraints(min_length=1, max_length=64)] | Annotated[int, Field(ge=0, le=2**53)]


class BetCommand(Body):
    """A bet sent over the table's WebSocket: as ``POST /api/tables/{id}/bets`` with its ``Idempotency-Key``."""

    type: Literal["bet"]
    id: CommandId
    key: IdempotencyKey
    bet: Bet


class ActCommand(Body):
    """A blackjack answer sent over the table's WebSocket: as ``POST /api/tables/{id}/actions``."""

    type: Literal["act"]
    id: CommandId
    key: IdempotencyKey
    action: Word
    box: Annotated[int, Field(ge=1, le=12)] | None = None
    hand: Annotated[int, Field(ge=0, le=32)] | None = None
    amount: Stake | None = None


Command = Annotated[BetCommand | ActCommand, Field(discriminator="type")]
