"""The casino's repository on SQLAlchemy: :class:`SqlCasinoStore` implements
:class:`croupier.service.casino.CasinoStore` on SQLite and PostgreSQL, one transaction per call (revision 0002).
A round's holds, steps and cards are stored as one JSON document, written whole with the round's status."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from croupier.service.casino import AuditRecord, RoundRecord, RoundStatus, TableRecord, TableStatus
from croupier.storage.models import CasinoAuditRow, CasinoRoundRow, CasinoTableRow


def _round(row: CasinoRoundRow) -> RoundRecord:
    status = cast(RoundStatus, row.status)
    return RoundRecord(row.round_id, row.table_id, row.seq, status, json.loads(row.data), row.opened_at, row.updated_at)


class SqlCasinoStore:
    """The ``casino_*`` tables through an engine made by :func:`croupier.storage.database.create_engine`."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session

    def put_table(self, record: TableRecord) -> None:
        """Insert or replace a table."""
        with self._session() as session:
            row = session.get(CasinoTableRow, record.table_id) or CasinoTableRow(table_id=record.table_id)
            row.game, row.rules, row.live = record.game, json.dumps(record.rules, sort_keys=True), record.live
            row.betting_seconds, row.decision_seconds = record.betting_seconds, record.decision_seconds
            row.status, row.opened_at = record.status, record.opened_at
            session.add(row)

    def tables(self) -> list[TableRecord]:
        """Every table."""
        with self._session() as session:
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
                )
                for r in rows
            ]

    def put_round(self, record: RoundRecord) -> None:
        """Insert or replace a round."""
        with self._session() as session:
            row = session.get(CasinoRoundRow, record.round_id) or CasinoRoundRow(round_id=record.round_id)
            row.table_id, row.seq, row.status = record.table_id, record.seq, record.status
            row.data = json.dumps(record.data, sort_keys=True, separators=(",", ":"))
            row.opened_at, row.updated_at = record.opened_at, record.updated_at
            session.add(row)

    def get_round(self, round_id: str) -> RoundRecord | None:
        """One round."""
        with self._session() as session:
            row = session.get(CasinoRoundRow, round_id)
            return None if row is None else _round(row)

    def rounds(self, table_id: str, *, last: int | None = None) -> list[RoundRecord]:
        """The table's rounds in order (the ``last`` ones when given)."""
        with self._session() as session:
            query = (
                select(CasinoRoundRow).where(CasinoRoundRow.table_id == table_id).order_by(CasinoRoundRow.seq.desc())
            )
            if last is not None:
                query = query.limit(last)
            return [_round(r) for r in reversed(session.scalars(query).all())]

    def add_audit(self, at: datetime, actor: str, action: str, table_id: str | None, detail: dict[str, Any]) -> None:
        """Append to the audit log."""
        with self._session() as session:
            text = json.dumps(detail, sort_keys=True, default=str)
            session.add(CasinoAuditRow(at=at, actor=actor, action=action, table_id=table_id, detail=text))

    def audit(self, since: datetime | None = None) -> list[AuditRecord]:
        """The audit log from ``since``."""
        with self._session() as session:
            query = select(CasinoAuditRow).order_by(CasinoAuditRow.id)
            if since is not None:
                query = query.where(CasinoAuditRow.at >= since)
            return [
                AuditRecord(r.id, r.at, r.actor, r.action, r.table_id, json.loads(r.detail))
                for r in session.scalars(query).all()
            ]

    def count_rounds(self) -> int:
        """How many rounds are stored (for tests and meters)."""
        with self._session() as session:
            return int(session.scalar(select(func.count()).select_from(CasinoRoundRow)) or 0)
