"""The ledger's repository on SQLAlchemy: :class:`SqlLedgerStore` implements
:class:`croupier.service.ledger.LedgerStore` on SQLite and PostgreSQL.

A command runs in one database transaction, in SQLAlchemy Core statements (a bet is a handful of them). On
PostgreSQL the round and the accounts it touches are locked with ``SELECT … FOR UPDATE`` (the ledger locks them in
one global order: the round, then the accounts sorted by name), so concurrent bets on one wallet are checked against
its balance one after the other; on SQLite the write transaction begins ``IMMEDIATE`` and holds the single write
lock. A unique key inserted meanwhile by another transaction, a deadlock or a serialization failure is reported as
``RetryableConflict``, and the ledger runs the command again.

**Group commit.** Inside :meth:`SqlLedgerStore.group`, the write transactions of the thread that opened it share one
database transaction, each in its own savepoint (a refused command rolls back to its savepoint and the others stand),
and the whole group commits once when the block ends: one durable commit (one ``fsync`` on SQLite) for many bets.
Nothing of the group is durable before that commit, so its caller must show nothing of it before the block ends."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, cast

from sqlalchemy import (
    Connection,
    Engine,
    Row,
    Table,
    bindparam,
    insert,
    literal_column,
    null,
    select,
    union_all,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

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
    prepare_hold,
)
from croupier.storage.database import read_engine
from croupier.storage.fastpath import DialectStatements, FastStatements
from croupier.storage.groups import commit_groups
from croupier.storage.models import AccountRow, EntryRow, HoldRow, PostingRow, RoundRow

MAX_FAST_LOCK = 400  # accounts locked by one compiled statement (beyond: SQLAlchemy's expanding IN)
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
        self._groups = commit_groups(engine)

    def group(self) -> AbstractContextManager[None]:
        """Group commit on this store's database (:mod:`croupier.storage.groups`), shared with the casino's store."""
        return self._groups.group()

    @contextmanager
    def transaction(self, *, write: bool = True) -> Iterator[LedgerTransaction]:
        """One database transaction, committed when the block ends normally (inside :meth:`group`, on its
        thread, a write transaction is a savepoint of the group's)."""
        joined = self._groups.joined() if write else None
        try:
            if joined is not None:
                with _savepoint(joined):
                    yield _SqlLedgerTransaction(joined)
                return
            with (self.engine if write else self._reader).begin() as connection:
                yield _SqlLedgerTransaction(connection)
        except (IntegrityError, OperationalError) as error:
            if is_retryable(error):
                raise RetryableConflict(str(error.orig).splitlines()[0]) from error
            raise


@contextmanager
def _savepoint(connection: Connection) -> Iterator[None]:
    """A savepoint on the driver (cheaper than ``begin_nested`` for one per bet): released when the block ends
    normally, rolled back to when it raises."""
    cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute("SAVEPOINT croupier_command")
        try:
            yield
        except BaseException:
            cursor.execute("ROLLBACK TO SAVEPOINT croupier_command")
            cursor.execute("RELEASE SAVEPOINT croupier_command")
            raise
        cursor.execute("RELEASE SAVEPOINT croupier_command")
    finally:
        cursor.close()


def sql_connection(tx: LedgerTransaction) -> Connection:
    """The database connection of a transaction of :class:`SqlLedgerStore`, for another store's writes that must
    commit with it (``TypeError`` for any other transaction)."""
    if not isinstance(tx, _SqlLedgerTransaction):
        raise TypeError(f"{type(tx).__name__} is not a transaction of a SQL ledger store.")
    return tx.connection


ENTRIES, POSTINGS, HOLDS, ROUNDS, ACCOUNTS = (
    cast(Table, row.__table__) for row in (EntryRow, PostingRow, HoldRow, RoundRow, AccountRow)
)


class _Statements:
    """The statements of the ledger's other commands and readings, built once per dialect (a bet's and a
    settlement's are :class:`_Fast`)."""

    def __init__(self, dialect: Any) -> None:
        upsert = dialect.insert(ROUNDS)
        self.put_round = upsert.on_conflict_do_update(
            index_elements=[ROUNDS.c.round_id],
            set_={c: upsert.excluded[c] for c in ("table_id", "status", "closed_by")},
        )
        self.lock_accounts = (
            select(ACCOUNTS.c.account, ACCOUNTS.c.balance)
            .where(ACCOUNTS.c.account.in_(bindparam("accounts", expanding=True)))
            .order_by(ACCOUNTS.c.account)
            .with_for_update()
        )
        self.add_accounts = dialect.insert(ACCOUNTS).on_conflict_do_nothing()
        self.find_entry = select(ENTRIES).where(ENTRIES.c.key == bindparam("key"))
        self.entry_postings = (
            select(POSTINGS).where(POSTINGS.c.entry_id == bindparam("entry_id")).order_by(POSTINGS.c.id)
        )
        self.balance = select(ACCOUNTS.c.balance).where(ACCOUNTS.c.account == bindparam("account"))


STATEMENTS = {"postgresql": _Statements(postgresql), "sqlite": _Statements(sqlite)}

ROUND_COLUMNS = (ROUNDS.c.round_id, ROUNDS.c.table_id, ROUNDS.c.status, ROUNDS.c.closed_by)
HOLD_COLUMNS = ("round_id", "bet_ref", "player", "table_id", "amount", "entry_id", "status", "closed_by", "net")
ENTRY_COLUMNS = ("key", "kind", "fingerprint", "round_id", "table_id", "actor", "memo", "created_at")


def _upsert_hold(dialect: Any) -> Any:
    upsert = dialect.insert(HOLDS).values({c: bindparam(c) for c in HOLD_COLUMNS})
    return upsert.on_conflict_do_update(
        index_elements=[HOLDS.c.round_id, HOLDS.c.bet_ref],
        set_={c: upsert.excluded[c] for c in HOLD_COLUMNS[2:]},
    )


class _Fast:
    """The hot path's statements (:mod:`croupier.storage.fastpath`): what a bet and a settlement run."""

    # ruff: noqa: RUF012 (class-level constants, never mutated)

    get_round = FastStatements(select(*ROUND_COLUMNS).where(ROUNDS.c.round_id == bindparam("round_id")))
    lock_round = FastStatements(
        select(*ROUND_COLUMNS).where(ROUNDS.c.round_id == bindparam("round_id")).with_for_update()
    )
    lock_accounts: dict[int, FastStatements] = {}  # by how many accounts (a settlement locks a few per player)

    @classmethod
    def lock(cls, n: int) -> FastStatements:
        """The statement that locks ``n`` accounts (compiled on first use)."""
        fast = cls.lock_accounts.get(n)
        if fast is None:
            fast = cls.lock_accounts[n] = FastStatements(
                select(ACCOUNTS.c.account, ACCOUNTS.c.balance)
                .where(ACCOUNTS.c.account.in_([bindparam(f"a{i}") for i in range(n)]))
                .order_by(ACCOUNTS.c.account)
                .with_for_update()
            )
        return fast

    find_entry = FastStatements(select(ENTRIES.c.id).where(ENTRIES.c.key == bindparam("key")))
    add_entry = FastStatements(insert(ENTRIES).values({c: bindparam(c) for c in ENTRY_COLUMNS}).returning(ENTRIES.c.id))
    add_postings = FastStatements(
        insert(POSTINGS).values({c: bindparam(c) for c in ("entry_id", "account", "amount", "bet_ref")})
    )
    move = FastStatements(
        update(ACCOUNTS)
        .where(ACCOUNTS.c.account == bindparam("target"))
        .values(balance=ACCOUNTS.c.balance + bindparam("delta"))
    )
    get_hold = FastStatements(
        select(*(HOLDS.c[c] for c in HOLD_COLUMNS)).where(
            HOLDS.c.round_id == bindparam("round_id"), HOLDS.c.bet_ref == bindparam("bet_ref")
        )
    )
    put_hold = DialectStatements(_upsert_hold)
    close_hold = FastStatements(
        update(HOLDS)
        .where(HOLDS.c.round_id == bindparam("round_id"), HOLDS.c.bet_ref == bindparam("bet_ref"))
        .values(status=bindparam("status"), closed_by=bindparam("closed_by"), net=bindparam("net"))
    )
    round_holds = FastStatements(
        select(*(HOLDS.c[c] for c in HOLD_COLUMNS))
        .where(HOLDS.c.round_id == bindparam("round_id"))
        .order_by(HOLDS.c.entry_id)
    )
    # SQLite: what a bet's hold reads first, in one statement (its write lock is the whole database's, held since
    # BEGIN IMMEDIATE, so there is nothing to lock row by row): tagged rows of the round, the two accounts, the
    # entry under the key and the bet's hold.
    prepare_hold = FastStatements(
        union_all(
            select(
                literal_column("'r'"), ROUNDS.c.round_id, ROUNDS.c.table_id, ROUNDS.c.status, ROUNDS.c.closed_by
            ).where(ROUNDS.c.round_id == bindparam("round_id")),
            select(literal_column("'a'"), ACCOUNTS.c.account, ACCOUNTS.c.balance, null(), null()).where(
                ACCOUNTS.c.account.in_([bindparam("a0"), bindparam("a1")])
            ),
            select(literal_column("'e'"), ENTRIES.c.id, null(), null(), null()).where(
                ENTRIES.c.key == bindparam("key")
            ),
            select(literal_column("'h'"), HOLDS.c.bet_ref, null(), null(), null()).where(
                HOLDS.c.round_id == bindparam("round_id"), HOLDS.c.bet_ref == bindparam("bet_ref")
            ),
        )
    )


def _entry(row: Row[Any], postings: Sequence[Row[Any]]) -> Entry:
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


def _hold(row: Row[Any]) -> Hold:
    status = cast(HoldStatus, row.status)
    return Hold(
        row.round_id, row.bet_ref, row.player, row.table_id, row.amount, row.entry_id, status, row.closed_by, row.net
    )


def _round(row: Row[Any]) -> Round:
    return Round(row.round_id, row.table_id, cast(RoundStatus, row.status), row.closed_by)


class _SqlLedgerTransaction:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self._sql = STATEMENTS["postgresql" if connection.dialect.name == "postgresql" else "sqlite"]

    def get_round(self, round_id: str, *, lock: bool = False) -> Round | None:
        query = _Fast.lock_round if lock else _Fast.get_round
        rows = query.on(self.connection).run(self.connection, {"round_id": round_id})
        return Round(rows[0][0], rows[0][1], rows[0][2], rows[0][3]) if rows else None

    def put_round(self, record: Round) -> None:
        values = {"round_id": record.round_id, "table_id": record.table, "status": record.status}
        self.connection.execute(self._sql.put_round, {**values, "closed_by": record.closed_by})

    def lock_accounts(self, accounts: Sequence[str]) -> dict[str, int]:
        if not accounts:
            return {}
        if len(accounts) <= MAX_FAST_LOCK:
            fast = _Fast.lock(len(accounts)).on(self.connection)
            locked = fast.run(self.connection, {f"a{i}": a for i, a in enumerate(accounts)})
            if len(locked) == len(set(accounts)):
                return {account: balance for account, balance in locked}
        params = {"accounts": list(accounts)}
        found = {account: balance for account, balance in self.connection.execute(self._sql.lock_accounts, params)}
        if len(found) < len(set(accounts)):  # create the missing ones, then lock them all
            rows = [{"account": a, "kind": account_kind(a), "balance": 0} for a in accounts if a not in found]
            self.connection.execute(self._sql.add_accounts, rows)
            found = {account: balance for account, balance in self.connection.execute(self._sql.lock_accounts, params)}
        return found

    def prepare_hold(
        self, round_id: str, accounts: Sequence[str], key: str, bet_ref: str
    ) -> tuple[Round | None, dict[str, int], bool, Hold | None]:
        connection = self.connection
        if connection.dialect.name != "sqlite" or len(accounts) != 2:
            return prepare_hold(self, round_id, accounts, key, bet_ref)  # row locks, in the ledger's order
        values = {"round_id": round_id, "a0": accounts[0], "a1": accounts[1], "key": key, "bet_ref": bet_ref}
        record: Round | None = None
        balances: dict[str, int] = {}
        known = held = False
        for tag, first, second, third, fourth in _Fast.prepare_hold.on(connection).run(connection, values):
            if tag == "r":
                record = Round(first, second, third, fourth)
            elif tag == "a":
                balances[first] = second
            elif tag == "e":
                known = True
            else:
                held = True
        if len(balances) < len(set(accounts)):
            balances = self.lock_accounts(accounts)  # creates the missing ones
        return record, {a: balances[a] for a in accounts}, known, self.get_hold(round_id, bet_ref) if held else None

    def find_entry(self, key: str) -> Entry | None:
        if not _Fast.find_entry.on(self.connection).run(self.connection, {"key": key}):
            return None  # the usual case, on the hot path
        row = self.connection.execute(self._sql.find_entry, {"key": key}).one_or_none()
        if row is None:
            return None
        return _entry(row, self.connection.execute(self._sql.entry_postings, {"entry_id": row.id}).all())

    def append_entry(self, draft: EntryDraft) -> Entry:
        values = {
            "key": draft.key,
            "kind": draft.kind,
            "fingerprint": draft.fingerprint,
            "round_id": draft.round_id,
            "table_id": draft.table,
            "actor": draft.actor,
            "memo": draft.memo,
            "created_at": draft.created_at,
        }
        connection = self.connection
        entry_id: int = _Fast.add_entry.on(connection).run(connection, values)[0][0]
        rows = [
            {"entry_id": entry_id, "account": p.account, "amount": p.amount, "bet_ref": p.bet_ref}
            for p in draft.postings
        ]
        _Fast.add_postings.on(connection).run_many(connection, rows)
        deltas: dict[str, int] = {}
        for p in draft.postings:
            deltas[p.account] = deltas.get(p.account, 0) + p.amount
        moves = [{"target": account, "delta": deltas[account]} for account in sorted(deltas) if deltas[account]]
        _Fast.move.on(connection).run_many(connection, moves)
        return Entry.from_draft(entry_id, draft)

    def get_hold(self, round_id: str, bet_ref: str) -> Hold | None:
        values = {"round_id": round_id, "bet_ref": bet_ref}
        rows = _Fast.get_hold.on(self.connection).run(self.connection, values)
        return Hold(*rows[0]) if rows else None

    def put_hold(self, record: Hold) -> None:
        self.put_holds([record])

    def put_holds(self, records: Sequence[Hold]) -> None:
        rows = [
            {
                "round_id": r.round_id,
                "bet_ref": r.bet_ref,
                "player": r.player,
                "table_id": r.table,
                "amount": r.amount,
                "entry_id": r.entry_id,
                "status": r.status,
                "closed_by": r.closed_by,
                "net": r.net,
            }
            for r in records
        ]
        connection = self.connection
        if len(rows) > 1 and all(r.status != "open" for r in records):
            # A settlement's or a void's: the holds exist, only their closing changes (an update costs less than
            # an upsert); should any be missing, they are all written by the upsert below instead.
            closing = _Fast.close_hold.on(connection)
            if closing.run_many(connection, rows) == len(rows):
                return
        fast = _Fast.put_hold
        if len(rows) == 1:
            fast.on(connection).run(connection, rows[0])
        else:
            fast.on(connection).run_many(connection, rows)

    def round_holds(self, round_id: str) -> list[Hold]:
        rows = _Fast.round_holds.on(self.connection).run(self.connection, {"round_id": round_id})
        return [Hold(*row) for row in rows]

    def balance(self, account: str) -> int:
        value = self.connection.scalar(self._sql.balance, {"account": account})
        return 0 if value is None else int(value)

    def balances(self) -> dict[str, int]:
        query = select(ACCOUNTS.c.account, ACCOUNTS.c.balance).order_by(ACCOUNTS.c.account)
        return {account: balance for account, balance in self.connection.execute(query)}

    def entries(self, round_id: str | None = None) -> list[Entry]:
        rows = select(ENTRIES).order_by(ENTRIES.c.id)
        postings = select(POSTINGS).order_by(POSTINGS.c.id)
        if round_id is not None:
            rows = rows.where(ENTRIES.c.round_id == round_id)
            postings = postings.join(ENTRIES, ENTRIES.c.id == POSTINGS.c.entry_id).where(ENTRIES.c.round_id == round_id)
        by_entry: dict[int, list[Row[Any]]] = {}
        for posting in self.connection.execute(postings):
            by_entry.setdefault(posting.entry_id, []).append(posting)
        return [_entry(row, by_entry.get(row.id, [])) for row in self.connection.execute(rows)]

    def holds(self) -> list[Hold]:
        return [_hold(row) for row in self.connection.execute(select(HOLDS).order_by(HOLDS.c.entry_id))]

    def rounds(self) -> list[Round]:
        return [_round(row) for row in self.connection.execute(select(ROUNDS).order_by(ROUNDS.c.round_id))]
