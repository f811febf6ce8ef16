"""The casino's records and its repository port: tables, rounds and the audit log as stored, the
:class:`CasinoStore` port (implemented by :mod:`croupier.service.casino_memory` and
:mod:`croupier.storage.casino_store`), the event :class:`Subscription` and the casino's own errors."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, Protocol

from croupier.errors import CroupierError
from croupier.service import casino_games as games
from croupier.service.accounts import User
from croupier.service.ledger import LedgerTransaction

TableStatus = Literal["open", "closed"]
RoundStatus = Literal["betting", "playing", "settling", "settled", "voiding", "voided"]


class UnknownTable(CroupierError):
    """A table id that names no open table (the server answers 404)."""

    kind = "unknown_table"


class TableExists(CroupierError):
    """An ``open_table`` for a table that is already open."""

    kind = "table_exists"


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A table as stored: its game, rules document, live or RNG, timers, and whether it is open."""

    table_id: str
    game: str
    rules: dict[str, Any]
    live: bool
    betting_seconds: float
    decision_seconds: float
    status: TableStatus
    opened_at: datetime


@dataclass(slots=True)
class RoundRecord:
    """A round as stored. ``data`` is JSON: ``holds`` (every bet and extra stake with its ledger key and status
    ``held``, stored in the ledger's transaction that holds it; ``pending`` only in rounds of earlier versions,
    which recovery reconciles with the ledger), ``steps`` (see :mod:`croupier.service.casino_games`), ``cards``
    (blackjack, in the order they left the shoe), ``reported`` (live cards not used yet), ``acts`` (answers by
    idempotency key), ``stalled`` (a live step waiting for a card), ``nets``, ``outcome`` and ``entry`` (the
    settling entry)."""

    round_id: str
    table_id: str
    seq: int
    status: RoundStatus
    data: dict[str, Any]
    opened_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class RoundChange:
    """What a command adds to a stored round without writing it whole (a bet: its hold and its step): ``append``
    extends lists of the round's ``data``, ``set`` replaces keys of it, ``at`` becomes its ``updated_at``."""

    round_id: str
    at: datetime
    append: dict[str, list[Any]]
    set: dict[str, Any]

    def apply(self, record: RoundRecord) -> None:
        """Apply the change to ``record`` (in place)."""
        for key, items in self.append.items():
            record.data.setdefault(key, []).extend(items)
        record.data.update(self.set)
        record.updated_at = self.at

    def as_json(self) -> dict[str, Any]:
        """The change's ``append`` and ``set`` as one JSON object."""
        return {"append": self.append, "set": self.set}


@dataclass(frozen=True, slots=True)
class AuditRecord:
    """One line of the audit log."""

    id: int
    at: datetime
    actor: str
    action: str
    table_id: str | None
    detail: dict[str, Any]

    def as_json(self) -> dict[str, Any]:
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

    def add_audit(self, at: datetime, actor: str, action: str, table_id: str | None, detail: dict[str, Any]) -> None:
        """Append a line to the audit log."""
        ...

    def audit(self, since: datetime | None = None) -> list[AuditRecord]:
        """The audit log in order, from ``since``."""
        ...


class Subscription:
    """The events of one table, in order; :meth:`view_for` filters an event to what a user may see."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.events: deque[dict[str, Any]] = deque(maxlen=10_000)

    def drain(self) -> list[dict[str, Any]]:
        """Every event queued since the last drain."""
        out = list(self.events)
        self.events.clear()
        return out

    @staticmethod
    def view_for(user: User | None, event: Mapping[str, Any]) -> dict[str, Any]:
        """``event`` as ``user`` may see it: a face-down box card only for that box's bettors (BJ 5.2)."""
        return games.view_event(event, user.username if user is not None else None)
