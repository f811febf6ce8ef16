"""The ledger's repository on SQLAlchemy: :class:`SqlLedgerStore` implements
:class:`croupier.service.ledger.LedgerStore` on SQLite and PostgreSQL.

A command runs in one database transaction. On PostgreSQL the round and the accounts it touches are locked with
``SELECT … FOR UPDATE`` (the ledger locks them in one global order: the round, then the accounts sorted by name),
so concurrent bets on one wallet are checked against its balance one after the other; on SQLite the write
transaction begins ``IMMEDIATE`` and holds the single write lock. A unique key inserted meanwhile by another
transaction, a deadlock or a serialization failure is reported as ``RetryableConflict``, and the ledger runs
the command again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, cast

from sqlalchemy import Engine, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import Session

from croupier.service.ledger import (
    Entry,
    EntryDraft,
    EntryKind,
    Hold,
    HoldStatus,
    LedgerTransaction,
    Posting,
    RetryableConflict,
    Round,
    RoundStatus,
    account_kind,
)
from croupier.storage.database import read_engine
from croupier.storage.models import AccountRow, EntryRow, HoldRow, PostingRow, RoundRow

RETRYABLE_SQLSTATES = {"23505", "40001", "40P01"}  # unique violation, serialization failure, deadlock


def is_retryable(error: DBAPIError) -> bool:
    """Whether ``error`` is a lost race (a duplicate key, a deadlock, a busy database) rather than a fault."""
    if getattr(error.orig, "sqlstate", None) in RETRYABLE_SQLSTATES:
        return True
    text = str(error.orig)
    return "UNIQUE constraint failed" in text or "database is locked" in text


class SqlLedgerStore:
    """The ledger's tables through an engine made by :func:`croupier.storage.database.create_engine`."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._reader = read_engine(engine)

    @contextmanager
    def transaction(self, *, write: bool = True) -> Iterator[LedgerTransaction]:
        """One database transaction, committed when the block ends normally."""
        try:
            with Session(self.engine if write else self._reader, autoflush=False) as session, session.begin():
                yield _SqlLedgerTransaction(session)
        except (IntegrityError, OperationalError) as error:
            if is_retryable(error):
                raise RetryableConflict(str(error.orig).splitlines()[0]) from error
            raise


def _entry(row: EntryRow, postings: Sequence[PostingRow]) -> Entry:
    return Entry(
        id=row.id,
        key=row.key,
        kind=cast(EntryKind, row.kind),
        fingerprint=row.fingerprint,
        postings=tuple(Posting(p.account, p.amount, p.bet_ref) for p in postings),
        created_at=row.created_at,
        round_id=row.round_id,
        table=row.table_id,
        actor=row.actor,
        memo=row.memo,
    )


def _hold(row: HoldRow) -> Hold:
    status = cast(HoldStatus, row.status)
    return Hold(
        row.round_id, row.bet_ref, row.player, row.table_id, row.amount, row.entry_id, status, row.closed_by, row.net
    )


def _round(row: RoundRow) -> Round:
    return Round(row.round_id, row.table_id, cast(RoundStatus, row.status), row.closed_by)


class _SqlLedgerTransaction:
    def __init__(self, session: Session) -> None:
        self.session = session

    def get_round(self, round_id: str, *, lock: bool = False) -> Round | None:
        query = select(RoundRow).where(RoundRow.round_id == round_id).execution_options(populate_existing=True)
        row = self.session.scalars(query.with_for_update() if lock else query).one_or_none()
        return None if row is None else _round(row)

    def put_round(self, record: Round) -> None:
        row = self.session.get(RoundRow, record.round_id)
        if row is None:
            row = RoundRow(round_id=record.round_id)
            self.session.add(row)
        row.table_id, row.status, row.closed_by = record.table, record.status, record.closed_by
        self.session.flush()

    def lock_accounts(self, accounts: Sequence[str]) -> dict[str, int]:
        if not accounts:
            return {}
        rows = [{"account": a, "kind": account_kind(a), "balance": 0} for a in accounts]
        dialect = postgresql if self.session.get_bind().dialect.name == "postgresql" else sqlite
        self.session.execute(dialect.insert(AccountRow).values(rows).on_conflict_do_nothing())
        query = (
            select(AccountRow.account, AccountRow.balance)
            .where(AccountRow.account.in_(accounts))
            .order_by(AccountRow.account)
            .with_for_update()
        )
        return {account: balance for account, balance in self.session.execute(query)}

    def find_entry(self, key: str) -> Entry | None:
        row = self.session.scalars(select(EntryRow).where(EntryRow.key == key)).one_or_none()
        if row is None:
            return None
        postings = self.session.scalars(select(PostingRow).where(PostingRow.entry_id == row.id).order_by(PostingRow.id))
        return _entry(row, postings.all())

    def append_entry(self, draft: EntryDraft) -> Entry:
        row = EntryRow(
            key=draft.key,
            kind=draft.kind,
            fingerprint=draft.fingerprint,
            round_id=draft.round_id,
            table_id=draft.table,
            actor=draft.actor,
            memo=draft.memo,
            created_at=draft.created_at,
        )
        self.session.add(row)
        self.session.flush()
        self.session.add_all(
            PostingRow(entry_id=row.id, account=p.account, amount=p.amount, bet_ref=p.bet_ref) for p in draft.postings
        )
        deltas: dict[str, int] = {}
        for p in draft.postings:
            deltas[p.account] = deltas.get(p.account, 0) + p.amount
        for account in sorted(deltas):
            if deltas[account]:
                change = update(AccountRow).where(AccountRow.account == account)
                self.session.execute(change.values(balance=AccountRow.balance + deltas[account]))
        self.session.flush()
        return Entry.from_draft(row.id, draft)

    def get_hold(self, round_id: str, bet_ref: str) -> Hold | None:
        row = self.session.get(HoldRow, (round_id, bet_ref), populate_existing=True)
        return None if row is None else _hold(row)

    def put_hold(self, record: Hold) -> None:
        row = self.session.get(HoldRow, (record.round_id, record.bet_ref))
        if row is None:
            row = HoldRow(round_id=record.round_id, bet_ref=record.bet_ref)
            self.session.add(row)
        values: dict[str, Any] = {
            "player": record.player,
            "table_id": record.table,
            "amount": record.amount,
            "entry_id": record.entry_id,
            "status": record.status,
            "closed_by": record.closed_by,
            "net": record.net,
        }
        for name, value in values.items():
            setattr(row, name, value)
        self.session.flush()

    def round_holds(self, round_id: str) -> list[Hold]:
        query = select(HoldRow).where(HoldRow.round_id == round_id).order_by(HoldRow.entry_id)
        return [_hold(row) for row in self.session.scalars(query.execution_options(populate_existing=True))]

    def balance(self, account: str) -> int:
        value = self.session.scalar(select(AccountRow.balance).where(AccountRow.account == account))
        return 0 if value is None else value

    def balances(self) -> dict[str, int]:
        query = select(AccountRow.account, AccountRow.balance).order_by(AccountRow.account)
        return {account: balance for account, balance in self.session.execute(query)}

    def entries(self, round_id: str | None = None) -> list[Entry]:
        rows = select(EntryRow).order_by(EntryRow.id)
        postings = select(PostingRow).order_by(PostingRow.id)
        if round_id is not None:
            rows = rows.where(EntryRow.round_id == round_id)
            postings = postings.join(EntryRow, EntryRow.id == PostingRow.entry_id).where(EntryRow.round_id == round_id)
        by_entry: dict[int, list[PostingRow]] = {}
        for posting in self.session.scalars(postings):
            by_entry.setdefault(posting.entry_id, []).append(posting)
        return [_entry(row, by_entry.get(row.id, [])) for row in self.session.scalars(rows)]

    def holds(self) -> list[Hold]:
        return [_hold(row) for row in self.session.scalars(select(HoldRow).order_by(HoldRow.entry_id))]

    def rounds(self) -> list[Round]:
        return [_round(row) for row in self.session.scalars(select(RoundRow).order_by(RoundRow.round_id))]
