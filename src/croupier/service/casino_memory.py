"""The casino's store in memory (:class:`~croupier.service.casino.CasinoStore`), for tests and demos: every
record is copied in and out, so nothing the casino holds aliases what is stored."""

from __future__ import annotations

import copy
import threading
from datetime import datetime

from croupier.service.casino import AuditRecord, RoundChange, RoundRecord, TableRecord
from croupier.service.ledger import LedgerTransaction
from croupier.service.round_state import JsonObject


class MemoryCasinoStore:
    """Tables, rounds and the audit log in dictionaries."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self.table_records: dict[str, TableRecord] = {}
        self.round_records: dict[str, RoundRecord] = {}
        self.audit_records: list[AuditRecord] = []

    def put_table(self, record: TableRecord) -> None:
        """Insert or replace a table."""
        with self._lock:
            self.table_records[record.table_id] = copy.deepcopy(record)

    def tables(self) -> list[TableRecord]:
        """Every table."""
        with self._lock:
            return [copy.deepcopy(r) for r in self.table_records.values()]

    def put_round(self, record: RoundRecord) -> None:
        """Insert or replace a round."""
        with self._lock:
            self.round_records[record.round_id] = copy.deepcopy(record)

    def append_round(self, change: RoundChange, *, within: LedgerTransaction) -> None:
        """Apply ``change`` to the stored round (the memory ledger commits ``within`` once this returns, and nothing
        after it can fail)."""
        with self._lock:
            copy.deepcopy(change).apply(self.round_records[change.round_id])

    def get_round(self, round_id: str) -> RoundRecord | None:
        """One round."""
        with self._lock:
            r = self.round_records.get(round_id)
            return copy.deepcopy(r) if r is not None else None

    def rounds(self, table_id: str, *, last: int | None = None) -> list[RoundRecord]:
        """The table's rounds in order (the ``last`` ones when given)."""
        with self._lock:
            mine = sorted((r for r in self.round_records.values() if r.table_id == table_id), key=lambda r: r.seq)
            if last is not None:
                mine = mine[-last:]
            return [copy.deepcopy(r) for r in mine]

    def add_audit(self, at: datetime, actor: str, action: str, table_id: str | None, detail: JsonObject) -> None:
        """Append to the audit log."""
        with self._lock:
            record = AuditRecord(len(self.audit_records) + 1, at, actor, action, table_id, copy.deepcopy(detail))
            self.audit_records.append(record)

    def audit(self, since: datetime | None = None) -> list[AuditRecord]:
        """The audit log from ``since``."""
        with self._lock:
            return [a for a in self.audit_records if since is None or a.at >= since]
