"""The casino's repository on SQLAlchemy: :class:`SqlCasinoStore` implements
:class:`croupier.service.casino.CasinoStore` on SQLite and PostgreSQL, one transaction per call (revision 0002).
A round's holds, steps and cards are stored as one JSON document, written whole with the round's status; a bet adds
a small row of changes instead (in the ledger's transaction that holds its stake), merged in when the round is read
and folded into the document when it is next written whole."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import Any, cast

import orjson
from sqlalchemy import Connection, Engine, Table, bindparam, delete, func, insert, select
from sqlalchemy.orm import Session

from croupier.service.casino import AuditRecord, RoundChange, RoundRecord, RoundStatus, TableRecord, TableStatus
from croupier.service.ledger import LedgerTransaction
from croupier.service.round_state import RoundState
from croupier.storage.database import read_engine
from croupier.storage.fastpath import DialectStatements, FastStatements
from croupier.storage.groups import commit_groups
from croupier.storage.ledger_store import sql_connection
from croupier.storage.models import CasinoAuditRow, CasinoRoundChangeRow, CasinoRoundRow, CasinoTableRow

CHANGES = cast(Table, CasinoRoundChangeRow.__table__)
ADD_CHANGE = FastStatements(
    insert(CHANGES).values({c: bindparam(c) for c in ("round_id", "at", "change")})
)  # on a bet's hot path (croupier.storage.fastpath)
ROUNDS = cast(Table, CasinoRoundRow.__table__)
ROUND_COLUMNS = ("round_id", "table_id", "seq", "status", "data", "opened_at", "updated_at")


def _upsert_round(dialect: Any) -> Any:
    upsert = dialect.insert(ROUNDS).values({c: bindparam(c) for c in ROUND_COLUMNS})
    return upsert.on_conflict_do_update(
        index_elements=[ROUNDS.c.round_id], set_={c: upsert.excluded[c] for c in ROUND_COLUMNS[1:]}
    )


# A round written whole (each clock's tick writes two: the one settled, the one opened): on the fast path too.
PUT_ROUND = DialectStatements(_upsert_round)
FOLD_CHANGES = FastStatements(delete(CHANGES).where(CHANGES.c.round_id == bindparam("round_id")))
# Every settlement writes an audit line (in the clock's tick, where an ORM session cost a tenth of the tick).
AUDIT = cast(Table, CasinoAuditRow.__table__)
ADD_AUDIT = FastStatements(
    insert(AUDIT).values({c: bindparam(c) for c in ("at", "actor", "action", "table_id", "detail")})
)


def _dumps(value: Any) -> str:
    # orjson: a round's document and each bet's change are encoded on the hot path (json reads them back).
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()


def round_record(row: CasinoRoundRow) -> RoundRecord:
    """The round as ``row`` holds it when it was last written whole (its later changes not applied: a settled
    round's result is in it, what the bias watch reads, :mod:`croupier.rng.watch`)."""
    return RoundRecord(
        row.round_id,
        row.table_id,
        row.seq,
        cast(RoundStatus, row.status),
        RoundState.from_json(json.loads(row.data)),
        row.opened_at,
        row.updated_at,
    )


def _rounds(session: Session, rows: list[CasinoRoundRow]) -> list[RoundRecord]:
    """The rounds of ``rows`` with the changes appended to each since it was written whole."""
    records = {row.round_id: round_record(row) for row in rows}
    if records:
        query = (
            select(CasinoRoundChangeRow)
            .where(CasinoRoundChangeRow.round_id.in_(list(records)))
            .order_by(CasinoRoundChangeRow.id)
        )
        for change in session.scalars(query):
            body = json.loads(change.change)
            RoundChange.from_json(change.round_id, change.at, body).apply(records[change.round_id])
    return list(records.values())


class SqlCasinoStore:
    """The ``casino_*`` tables through an engine made by :func:`croupier.storage.database.create_engine`."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._reader = read_engine(engine)
        self._groups = commit_groups(engine)

    @contextmanager
    def _session(self, *, write: bool = True) -> Iterator[Session]:
        """A transaction; a read one (``write=False``) takes no write lock (SQLite: a deferred ``BEGIN``). Inside a
        group commit (:mod:`croupier.storage.groups`) a write is a savepoint of the group's transaction."""
        joined = self._groups.joined() if write else None
        if joined is not None:
            with (
                Session(bind=joined, join_transaction_mode="create_savepoint", expire_on_commit=False) as session,
                session.begin(),
            ):
                yield session
            return
        with Session(self.engine if write else self._reader, expire_on_commit=False) as session, session.begin():
            yield session

    def _writing(self) -> AbstractContextManager[Connection]:
        """The connection for a fast-path write: the open group's on this thread, else a transaction of its own."""
        joined = self._groups.joined()
        return contextlib.nullcontext(joined) if joined is not None else self.engine.begin()

    def put_table(self, record: TableRecord) -> None:
        """Insert or replace a table."""
        with self._session() as session:
            row = session.get(CasinoTableRow, record.table_id) or CasinoTableRow(table_id=record.table_id)
            row.game, row.rules, row.live = record.game, json.dumps(record.rules, sort_keys=True), record.live
            row.betting_seconds, row.decision_seconds = record.betting_seconds, record.decision_seconds
            row.status, row.opened_at = record.status, record.opened_at
            row.dealers = json.dumps(list(record.dealers))
            row.result_display_seconds = record.result_display_seconds
            session.add(row)

    def tables(self) -> list[TableRecord]:
        """Every table."""
        with self._session(write=False) as session:
            rows = session.scalars(select(CasinoTableRow).order_by(CasinoTableRow.table_id)).all()
            return [
                TableRecord(
                    r.table_id,
                    r.game,
                    json.loads(r.rules),
                    r.live,
                    r.betting_seconds,
                    r.decision_seconds,
                    cast(TableStatus, r.status),
                    r.opened_at,
                    tuple(json.loads(r.dealers)),
                    r.result_display_seconds,
                )
                for r in rows
            ]

    def put_round(self, record: RoundRecord) -> None:
        """Insert or replace a round (whole: the changes appended to it are folded in and deleted)."""
        values = {
            "round_id": record.round_id,
            "table_id": record.table_id,
            "seq": record.seq,
            "status": record.status,
            "data": _dumps(record.state.to_json()),
            "opened_at": record.opened_at,
            "updated_at": record.updated_at,
        }
        with self._writing() as connection:
            PUT_ROUND.on(connection).run(connection, values)
            FOLD_CHANGES.on(connection).run(connection, {"round_id": record.round_id})

    def append_round(self, change: RoundChange, *, within: LedgerTransaction) -> None:
        """Add ``change`` to a stored round in the SQL ledger transaction ``within`` (on this store's database)."""
        connection = sql_connection(within)
        if connection.engine is not self.engine and connection.engine.url != self.engine.url:
            raise ValueError("The casino's store and the ledger's must be on one database to commit together.")
        values = {"round_id": change.round_id, "at": change.at, "change": _dumps(change.as_json())}
        ADD_CHANGE.on(connection).run(connection, values)

    def get_round(self, round_id: str) -> RoundRecord | None:
        """One round."""
        with self._session(write=False) as session:
            row = session.get(CasinoRoundRow, round_id)
            return None if row is None else _rounds(session, [row])[0]

    def rounds(self, table_id: str, *, last: int | None = None) -> list[RoundRecord]:
        """The table's rounds in order (the ``last`` ones when given)."""
        with self._session(write=False) as session:
            query = (
                select(CasinoRoundRow).where(CasinoRoundRow.table_id == table_id).order_by(CasinoRoundRow.seq.desc())
            )
            if last is not None:
                query = query.limit(last)
            return _rounds(session, list(reversed(session.scalars(query).all())))

    def add_audit(self, at: datetime, actor: str, action: str, table_id: str | None, detail: dict[str, Any]) -> None:
        """Append to the audit log."""
        values = {
            "at": at,
            "actor": actor,
            "action": action,
            "table_id": table_id,
            "detail": json.dumps(detail, sort_keys=True, default=str),
        }
        with self._writing() as connection:
            ADD_AUDIT.on(connection).run(connection, values)

    def audit(self, since: datetime | None = None) -> list[AuditRecord]:
        """The audit log from ``since``."""
        with self._session(write=False) as session:
            query = select(CasinoAuditRow).order_by(CasinoAuditRow.id)
            if since is not None:
                query = query.where(CasinoAuditRow.at >= since)
            return [
                AuditRecord(r.id, r.at, r.actor, r.action, r.table_id, json.loads(r.detail))
                for r in session.scalars(query).all()
            ]

    def count_rounds(self) -> int:
        """How many rounds are stored (for tests and meters)."""
        with self._session(write=False) as session:
            return int(session.scalar(select(func.count()).select_from(CasinoRoundRow)) or 0)
