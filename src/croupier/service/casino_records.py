"""The casino's records and its repository port: tables, rounds and the audit log as stored, the
:class:`CasinoStore` port (implemented by :mod:`croupier.service.casino_memory` and
:mod:`croupier.storage.casino_store`), the event :class:`Subscription` and the casino's own errors."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol, cast

from croupier.errors import CroupierError
from croupier.service.accounts import User
from croupier.service.ledger import LedgerTransaction
from croupier.service.payloads import AuditLine
from croupier.service.round_state import Hold, JsonObject, RoundState, Step, hold_from_json, step_from_json
from croupier.service.table_games import view_event

TableStatus = Literal["open", "closed"]
RoundStatus = Literal["betting", "playing", "settling", "settled", "voiding", "voided"]


class UnknownTable(CroupierError):
    """A table id that names no open table (the server answers 404)."""

    kind = "unknown_table"


class UnknownRound(CroupierError):
    """A round id that names no round of the table (the server answers 404)."""

    kind = "unknown_round"


class TableExists(CroupierError):
    """An ``open_table`` for a table that is already open."""

    kind = "table_exists"


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A table as stored: its game, rules document, live or RNG, timers, whether it is open, and its dealers."""

    table_id: str
    game: str
    rules: JsonObject
    live: bool
    betting_seconds: float
    decision_seconds: float
    status: TableStatus
    opened_at: datetime
    dealers: tuple[str, ...] = ()
    """The dealers who run the table (a live table's results, bell and voids; issue 13)."""
    result_display_seconds: float = 0.0
    """How long a finished round's result stays on the table before the next betting window opens (issue 14)."""


@dataclass(slots=True)
class RoundRecord:
    """A round as stored: its status and its typed :class:`~croupier.service.round_state.RoundState` (``data`` is
    that state as its stored JSON document)."""

    round_id: str
    table_id: str
    seq: int
    status: RoundStatus
    state: RoundState
    opened_at: datetime
    updated_at: datetime

    @property
    def data(self) -> JsonObject:
        """The round's state as its stored JSON document."""
        return self.state.to_json()


@dataclass(frozen=True, slots=True)
class RoundChange:
    """What a command adds to a stored round without writing it whole (a bet: its hold and its step; an extra
    stake: its hold): ``holds`` and ``steps`` are appended, ``next`` becomes the round's last hold number, ``at``
    its ``updated_at``."""

    round_id: str
    at: datetime
    holds: tuple[Hold, ...]
    steps: tuple[Step, ...]
    next: int

    def apply(self, record: RoundRecord) -> None:
        """Apply the change to ``record`` (in place)."""
        record.state = record.state.add(holds=self.holds, steps=self.steps, next=self.next)
        record.updated_at = self.at

    def as_json(self) -> JsonObject:
        """The change as its stored JSON document: ``append`` (lists of the round's document) and ``set`` (keys)."""
        return {
            "append": {"holds": [h.to_json() for h in self.holds], "steps": [s.to_json() for s in self.steps]},
            "set": {"next": self.next},
        }

    @classmethod
    def from_json(cls, round_id: str, at: datetime, doc: Mapping[str, object]) -> RoundChange:
        """A stored change."""
        append = cast("Mapping[str, list[Mapping[str, object]]]", doc["append"])
        values = cast("Mapping[str, object]", doc["set"])
        return cls(
            round_id,
            at,
            tuple(hold_from_json(h) for h in append.get("holds", [])),
            tuple(step_from_json(s) for s in append.get("steps", [])),
            cast(int, values["next"]),
        )


@dataclass(frozen=True, slots=True)
class AuditRecord:
    """One line of the audit log."""

    id: int
    at: datetime
    actor: str
    action: str
    table_id: str | None
    detail: JsonObject

    def as_json(self) -> AuditLine:
        """The record as a JSON object."""
        return {
            "id": self.id,
            "at": self.at.isoformat(),
            "actor": self.actor,
            "action": self.action,
            "table": self.table_id,
            "detail": self.detail,
        }


class CasinoStore(Protocol):
    """The repository port of the casino: tables, rounds and the audit log. Each call is one transaction."""

    def put_table(self, record: TableRecord) -> None:
        """Insert or replace a table."""
        ...

    def tables(self) -> list[TableRecord]:
        """Every table, open or closed."""
        ...

    def put_round(self, record: RoundRecord) -> None:
        """Insert or replace a round."""
        ...

    def append_round(self, change: RoundChange, *, within: LedgerTransaction) -> None:
        """Add ``change`` to a stored round inside the ledger transaction ``within``, so that both commit together
        or not at all (a SQL store needs a transaction of a SQL ledger store on the same database); reading the
        round gives it with every change since it was last put."""
        ...

    def get_round(self, round_id: str) -> RoundRecord | None:
        """One round."""
        ...

    def rounds(self, table_id: str, *, last: int | None = None) -> list[RoundRecord]:
        """The table's rounds in order (only the ``last`` ones when given)."""
        ...

    def add_audit(self, at: datetime, actor: str, action: str, table_id: str | None, detail: JsonObject) -> None:
        """Append a line to the audit log."""
        ...

    def audit(self, since: datetime | None = None) -> list[AuditRecord]:
        """The audit log in order, from ``since``."""
        ...


class Subscription:
    """The events of one table, in order; :meth:`view_for` filters an event to what a user may see."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.events: deque[JsonObject] = deque(maxlen=10_000)

    def drain(self) -> list[JsonObject]:
        """Every event queued since the last drain."""
        out = list(self.events)
        self.events.clear()
        return out

    @staticmethod
    def view_for(user: User | None, event: Mapping[str, object]) -> JsonObject:
        """``event`` as ``user`` may see it: a face-down box card only for that box's bettors (BJ 5.2)."""
        return view_event(event, user.username if user is not None else None)
