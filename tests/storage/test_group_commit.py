"""Group commit (``croupier.storage.groups``) and the bet's fast path (``croupier.storage.fastpath``) on SQLite and
PostgreSQL, through :meth:`Casino.batch`: what a batch writes is seen by nobody else (another engine on the same
database) until the block ends, then all of it; a refused bet in a batch changes nothing and the others stand; the
same key answers the same inside the open group; events and ``on_commit`` labels come only after the commit, in
order; a failed commit keeps nothing, shows nothing and rebuilds the tables from the store; a tick in a batch is
one commit; the fast path raises SQLAlchemy's errors and writes times the ORM reads back."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from typing import Any, cast

import pytest
from sqlalchemy import Connection, Engine, Table, bindparam, event, func, insert, select
from sqlalchemy.exc import IntegrityError, OperationalError, StatementError
from sqlalchemy.orm import Session

from croupier.errors import IllegalAction
from croupier.primitives.pcg import SeededRandom
from croupier.service.accounts import AccountService, Role, User
from croupier.service.casino import Casino
from croupier.service.ledger import (
    EntryDraft,
    IdempotencyConflict,
    InsufficientFunds,
    Ledger,
    Posting,
    RetryableConflict,
)
from croupier.service.ledger import wallet as wallet_account
from croupier.service.memory import MemoryAccountStore
from croupier.storage import SqlLedgerStore, create_engine
from croupier.storage.casino_store import SqlCasinoStore
from croupier.storage.database import READ_ONLY, read_engine
from croupier.storage.fastpath import FastStatement
from croupier.storage.groups import commit_groups
from croupier.storage.models import (
    AccountRow,
    CasinoAuditRow,
    CasinoRoundChangeRow,
    EntryRow,
    HoldRow,
    PostingRow,
)
from service.support import CHEAP_HASHER, TEST_POLICY, Clock

ACCOUNTS, POSTINGS = cast(Table, AccountRow.__table__), cast(Table, PostingRow.__table__)
FUNDS = 10_000


def count(engine: Engine, row: type[Any], *where: Any) -> int:
    """Rows of ``row`` in a read transaction on ``engine`` (SQLite: a plain ``BEGIN``, no write lock wanted)."""
    with read_engine(engine).connect() as connection:
        return int(connection.scalar(select(func.count()).select_from(row).where(*where)) or 0)


@dataclass
class Harness:
    """A casino on ``engine`` (accounts in memory, a fake clock, seeded chance) and a second engine on the same
    database, ``other``: what another process would see. Each ``on_commit`` label is kept with the number of
    ledger holds ``other`` could see when it was reported."""

    engine: Engine
    other: Engine
    clock: Clock = field(default_factory=Clock)
    labels: list[tuple[str, int]] = field(default_factory=list)
    users: dict[str, User] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.ledger = Ledger(SqlLedgerStore(self.engine), clock=self.clock)
        self.seen = Ledger(SqlLedgerStore(self.other))
        self.accounts = AccountService(MemoryAccountStore(), hasher=CHEAP_HASHER, clock=self.clock, policy=TEST_POLICY)
        for name, role in (("root", Role.ADMIN), ("ana", Role.PLAYER), ("bo", Role.PLAYER)):
            self.users[name] = self.accounts.create(name, "password1", role)
        self.casino = Casino(
            self.ledger,
            self.accounts,
            SqlCasinoStore(self.engine),
            clock=self.clock,
            source_factory=lambda table_id: SeededRandom(11 + len(table_id)),
            on_commit=self.hook,
        )
        self.casino.recover()

    def hook(self, label: str) -> None:
        self.labels.append((label, count(self.other, HoldRow)))

    @property
    def admin(self) -> User:
        return self.users["root"]

    def fund(self, amount: int = FUNDS) -> None:
        for player in ("ana", "bo"):
            self.casino.credit(self.admin, player, amount, key=f"fund-{player}")

    def bet(self, player: str, table: str, bet: dict[str, Any], key: str) -> dict[str, Any]:
        return self.casino.place_bet(self.users[player], table, bet, key)

    def new_labels(self, since: int) -> list[str]:
        return [label for label, _ in self.labels[since:]]

    def check(self) -> None:
        self.ledger.check()
        assert self.ledger.problems() == []
        report = self.casino.reconciliation(self.admin)
        assert report["ok"], report["problems"]


@pytest.fixture
def h(engine: Engine) -> Iterator[Harness]:
    other = create_engine(engine.url)
    try:
        yield Harness(engine, other)
    finally:
        other.dispose()


@contextmanager
def commits_counted(engine: Engine) -> Iterator[list[int]]:
    """The commits of write transactions on ``engine`` while the block runs (read transactions are not counted)."""
    seen: list[int] = []

    def on_commit(connection: Connection) -> None:
        if not connection.get_execution_options().get(READ_ONLY, False):
            seen.append(1)

    event.listen(engine, "commit", on_commit)
    try:
        yield seen
    finally:
        event.remove(engine, "commit", on_commit)


@contextmanager
def group_commit_fails(engine: Engine) -> Iterator[list[int]]:
    """The open group's commit raises ``OperationalError`` (as a full disk or a lost server would), once."""
    groups = commit_groups(engine)
    failed: list[int] = []

    def on_commit(connection: Connection) -> None:
        group = groups._group
        if not failed and group is not None and connection is group.connection:
            failed.append(1)
            raise OperationalError("COMMIT", {}, Exception("disk I/O error (injected)"))

    event.listen(engine, "commit", on_commit)
    try:
        yield failed
    finally:
        event.remove(engine, "commit", on_commit)


def placed(events: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(e["player"], e["ref"]) for e in events if e["type"] == "bet_placed"]


# -- (a) nothing is seen before the block ends -----------------------------------------------------------------------


def test_bets_in_a_batch_are_seen_by_nobody_until_it_ends(h: Harness) -> None:
    h.fund()
    h.casino.open_table(h.admin, table_id="R1", game="roulette", betting_seconds=10)
    entries = count(h.other, EntryRow)
    with h.casino.batch():
        first = h.bet("ana", "R1", {"type": "red", "amount": 100}, "k1")
        h.bet("bo", "R1", {"type": "black", "amount": 50}, "k1")
        h.bet("ana", "R1", {"type": "straight", "numbers": [17], "amount": 10}, "k2")
        assert first["ref"] == "b1"
        assert h.seen.wallet("ana") == FUNDS and h.seen.wallet("bo") == FUNDS
        assert h.seen.held("ana") == 0
        assert count(h.other, EntryRow) == entries
        assert count(h.other, HoldRow) == 0 and count(h.other, CasinoRoundChangeRow) == 0
        assert [r.data["holds"] for r in SqlCasinoStore(h.other).rounds("R1")] == [[]]
    assert h.seen.wallet("ana") == FUNDS - 110 and h.seen.wallet("bo") == FUNDS - 50
    assert h.seen.held("ana") == 110
    assert count(h.other, EntryRow) == entries + 3 and count(h.other, HoldRow) == 3
    (record,) = SqlCasinoStore(h.other).rounds("R1")
    assert [(b["player"], b["ref"], b["amount"]) for b in record.data["holds"]] == [
        ("ana", "b1", 100),
        ("bo", "b2", 50),
        ("ana", "b3", 10),
    ]
    view = h.casino.table_view(h.admin, "R1")["view"]
    assert [(b["player"], b["amount"]) for b in view["bets"]] == [("ana", 100), ("bo", 50), ("ana", 10)]
    h.check()


# -- (b) a refused bet in a batch ------------------------------------------------------------------------------------


def test_a_refused_bet_in_a_batch_changes_nothing_and_the_others_commit(h: Harness) -> None:
    h.fund(1000)
    h.casino.open_table(h.admin, table_id="R1", game="roulette", betting_seconds=10)
    h.casino.open_table(h.admin, table_id="R2", game="roulette", betting_seconds=30)
    with h.casino.batch():
        first = h.bet("ana", "R1", {"type": "red", "amount": 600}, "k1")
        # The wallet counted against the holds of the open group: 400 left, not 1000.
        with pytest.raises(InsufficientFunds):
            h.bet("ana", "R2", {"type": "red", "amount": 600}, "k2")
        with h.ledger.store.transaction() as tx:  # read inside the open group: the refusal took nothing
            assert tx.balance(wallet_account("ana")) == 400
        # The same key and bet again, inside the open group: the same answer, no second hold.
        assert h.bet("ana", "R1", {"type": "red", "amount": 600}, "k1") == first
        with pytest.raises(IdempotencyConflict):
            h.bet("ana", "R1", {"type": "black", "amount": 600}, "k1")
        with pytest.raises(IdempotencyConflict):
            h.bet("ana", "R2", {"type": "red", "amount": 600}, "k1")
        h.clock.advance(seconds=15)  # R1's window is over, R2's is not
        with pytest.raises(IllegalAction) as late:
            h.bet("bo", "R1", {"type": "red", "amount": 10}, "kb")
        assert late.value.rule == "RO 3"
        second = h.bet("bo", "R2", {"type": "odd", "amount": 20}, "kb2")
        third = h.bet("ana", "R2", {"type": "even", "amount": 400}, "k3")  # exactly what is left
    assert (first["ref"], second["ref"], third["ref"]) == ("b1", "b1", "b2")
    assert h.seen.wallet("ana") == 0 and h.seen.held("ana") == 1000
    assert h.seen.wallet("bo") == 980 and h.seen.held("bo") == 20
    with read_engine(h.other).connect() as connection:
        keys = set(connection.scalars(select(EntryRow.key).where(EntryRow.kind == "hold")))
    assert keys == {"bet:ana:k1", "bet:bo:kb2", "bet:ana:k3"}
    store = SqlCasinoStore(h.other)
    assert [(b["key"], b["amount"]) for b in store.rounds("R1")[0].data["holds"]] == [("bet:ana:k1", 600)]
    assert [(b["key"], b["amount"]) for b in store.rounds("R2")[0].data["holds"]] == [
        ("bet:bo:kb2", 20),
        ("bet:ana:k3", 400),
    ]
    assert h.new_labels(0).count("bet_held") == 3
    for table, bets in (("R1", [("ana", 600)]), ("R2", [("bo", 20), ("ana", 400)])):
        view = h.casino.table_view(h.admin, table)["view"]
        assert [(b["player"], b["amount"]) for b in view["bets"]] == bets
    h.check()


# -- (c) events and labels after the commit --------------------------------------------------------------------------


def test_events_and_labels_are_reported_only_after_the_commit_in_order(h: Harness) -> None:
    h.fund()
    h.casino.open_table(h.admin, table_id="R1", game="roulette", betting_seconds=10)
    sub = h.casino.subscribe("R1")
    since = len(h.labels)
    audits = count(h.other, CasinoAuditRow)
    with h.casino.batch():
        h.bet("ana", "R1", {"type": "red", "amount": 100}, "k1")
        h.casino.log("ops", "note", why="in the batch")
        h.bet("bo", "R1", {"type": "black", "amount": 50}, "k1")
        h.casino.open_table(h.admin, table_id="S1", game="sicbo", betting_seconds=10)
        h.bet("bo", "S1", {"type": "big", "amount": 5}, "k2")
        assert len(h.labels) == since and not sub.events
    assert h.new_labels(since) == [
        "bet_held",
        "audit:note",
        "bet_held",
        "table_opened",
        "audit:table_opened",
        "round_opened",
        "bet_held",
    ]
    # Each label was reported once the whole group was durable (all three holds seen by another engine).
    assert [n for _, n in h.labels[since:]] == [3] * 7
    assert count(h.other, CasinoAuditRow) == audits + 2
    events = sub.drain()
    assert placed(events) == [("ana", "b1"), ("bo", "b2")]
    assert [e["seq"] for e in events] == sorted(e["seq"] for e in events)
    h.check()


# -- (d) a failed commit ---------------------------------------------------------------------------------------------


def test_a_failed_group_commit_keeps_nothing_shows_nothing_and_rebuilds_the_tables(h: Harness) -> None:
    h.fund()
    h.casino.open_table(h.admin, table_id="R1", game="roulette", betting_seconds=10)
    before = h.bet("ana", "R1", {"type": "red", "amount": 100}, "k0")
    sub = h.casino.subscribe("R1")
    since, entries = len(h.labels), count(h.other, EntryRow)
    with group_commit_fails(h.engine) as failed, pytest.raises(OperationalError), h.casino.batch():
        lost = h.bet("ana", "R1", {"type": "black", "amount": 200}, "k1")
        h.bet("bo", "R1", {"type": "odd", "amount": 30}, "k1")
    assert failed, "the injected failure did not run: the test proves nothing"
    assert lost["ref"] == "b2"
    assert count(h.other, EntryRow) == entries and count(h.other, HoldRow) == 1
    assert count(h.engine, HoldRow) == 1  # nor on the casino's own engine (its group was rolled back)
    assert h.seen.wallet("ana") == FUNDS - 100 and h.seen.wallet("bo") == FUNDS
    assert "bet_held" not in h.new_labels(since)
    assert placed(sub.drain()) == []
    # The table was rebuilt from the store: the bet stored before stands, the lost ones are gone.
    view = h.casino.table_view(h.admin, "R1")
    assert view["status"] == "betting" and view["round"] == before["round"]
    assert [(b["player"], b["amount"]) for b in view["view"]["bets"]] == [("ana", 100)]
    # The keys of the lost bets were never used: the same keys bet now, as new bets.
    again = h.bet("ana", "R1", {"type": "black", "amount": 200}, "k1")
    assert again["ref"] == "b2" and again["round"] == before["round"]
    h.bet("bo", "R1", {"type": "odd", "amount": 30}, "k1")
    assert h.seen.wallet("ana") == FUNDS - 300 and h.seen.wallet("bo") == FUNDS - 30
    assert placed(sub.drain()) == [("ana", "b2"), ("bo", "b3")]
    h.clock.advance(seconds=11)
    h.casino.tick()
    assert SqlCasinoStore(h.other).get_round(before["round"]).status == "settled"  # type: ignore[union-attr]
    h.check()


def test_a_failed_tick_commit_settles_nothing_and_a_later_tick_does(h: Harness) -> None:
    h.fund()
    h.casino.open_table(h.admin, table_id="R1", game="roulette", betting_seconds=10)
    placed_bet = h.bet("ana", "R1", {"type": "red", "amount": 100}, "k0")
    sub = h.casino.subscribe("R1")
    since = len(h.labels)
    h.clock.advance(seconds=11)
    with group_commit_fails(h.engine) as failed, pytest.raises(OperationalError), h.casino.batch():
        h.casino.tick()
    assert failed
    record = SqlCasinoStore(h.other).get_round(placed_bet["round"])
    assert record is not None and record.status == "betting" and "nets" not in record.data
    assert h.seen.round(placed_bet["round"]).status == "open"  # type: ignore[union-attr]
    assert h.seen.held("ana") == 100
    assert not {"bell", "result", "ledger_settled", "round_settled"} & set(h.new_labels(since))
    assert not {"betting_closed", "result", "settled"} & {e["type"] for e in sub.drain()}
    assert h.casino.table_view(h.admin, "R1")["round"] == placed_bet["round"]
    h.clock.advance(seconds=11)  # the rebuilt table's window started again at the rebuild
    with h.casino.batch():
        h.casino.tick()
    record = SqlCasinoStore(h.other).get_round(placed_bet["round"])
    assert record is not None and record.status == "settled"
    assert h.seen.wallet("ana") == FUNDS + record.data["nets"]["b1"] and h.seen.held("ana") == 0
    h.check()


# -- (e) a tick in one commit ----------------------------------------------------------------------------------------


def test_a_tick_in_a_batch_settles_every_table_in_one_commit(h: Harness) -> None:
    h.fund()
    h.casino.open_table(h.admin, table_id="R1", game="roulette", betting_seconds=10)
    h.casino.open_table(h.admin, table_id="S1", game="sicbo", betting_seconds=10)
    subs = {t: h.casino.subscribe(t) for t in ("R1", "S1")}
    for n in (1, 2):
        h.bet("ana", "R1", {"type": "red", "amount": 100}, f"r{n}")
        h.bet("bo", "S1", {"type": "small", "amount": 40}, f"s{n}")
        for sub in subs.values():
            sub.drain()
        h.clock.advance(seconds=11)
        since = len(h.labels)
        with commits_counted(h.engine) as commits:
            if n == 1:
                with h.casino.batch():
                    assert h.casino.tick() == []  # nothing is shown before the commit
                    assert not any(sub.events for sub in subs.values())
                    assert len(h.labels) == since
            else:  # the same tick without a batch: a commit at every boundary
                h.casino.tick()
        labels = h.new_labels(since)
        assert labels.count("ledger_settled") == 2 and labels.count("round_opened") == 2
        if n == 1:
            assert len(commits) == 1, labels
        else:
            assert len(commits) >= len(labels) > 1
        for table, sub in subs.items():
            record = SqlCasinoStore(h.other).get_round(f"{table}.{n}")
            assert record is not None and record.status == "settled"
            kinds = [e["type"] for e in sub.drain()]
            assert kinds == ["betting_closed", "result", "settled", "betting_open"], (table, kinds)
            assert h.casino.table_view(h.admin, table)["round"] == f"{table}.{n + 1}"
        h.ledger.check()
        assert h.ledger.problems() == []
    assert h.seen.held("ana") == 0 and h.seen.held("bo") == 0
    h.check()


# -- (f) the fast path -----------------------------------------------------------------------------------------------

ADD_ACCOUNT = insert(ACCOUNTS).values(account=bindparam("account"), kind=bindparam("kind"), balance=bindparam("b"))
ADD_POSTING = insert(POSTINGS).values(
    entry_id=bindparam("entry_id"), account=bindparam("account"), amount=bindparam("amount"), bet_ref=bindparam("ref")
)


def test_fast_statement_errors_are_sqlalchemys(engine: Engine) -> None:
    fast = FastStatement(ADD_ACCOUNT, engine.dialect)
    posting = FastStatement(ADD_POSTING, engine.dialect)
    with engine.connect() as connection:
        with connection.begin():
            assert fast.run(connection, {"account": "wallet:zed", "kind": "wallet", "b": 0}) == []
        with connection.begin():
            with pytest.raises(IntegrityError) as error:
                fast.run(connection, {"account": "wallet:zed", "kind": "wallet", "b": 5})
            assert isinstance(error.value.orig, connection.dialect.loaded_dbapi.Error)
            assert error.value.statement == fast.sql
            connection.rollback()
        with connection.begin():  # run_many: a posting of an entry that does not exist (a foreign key)
            with pytest.raises(IntegrityError):
                rows = [{"entry_id": 424242, "account": "wallet:zed", "amount": 1, "ref": None}] * 2
                posting.run_many(connection, rows)
            connection.rollback()
        with connection.begin():
            assert connection.scalar(select(ACCOUNTS.c.balance).where(ACCOUNTS.c.account == "wallet:zed")) == 0


def credit_draft(key: str, at: datetime, amount: int = 5) -> EntryDraft:
    postings = (Posting("external", -amount), Posting("wallet:ana", amount))
    return EntryDraft(key, "credit", "digest", postings, at, None, None, "root", None)


def test_a_duplicate_in_a_group_rolls_back_to_its_savepoint_and_the_group_commits(engine: Engine) -> None:
    store = SqlLedgerStore(engine)
    at = datetime(2026, 1, 1, tzinfo=UTC)
    with store.transaction() as tx:
        tx.lock_accounts(["external", "wallet:ana"])
        tx.append_entry(credit_draft("c1", at))
    with store.group():
        with pytest.raises(RetryableConflict), store.transaction() as tx:
            tx.append_entry(credit_draft("c1", at))  # the key is taken: a unique violation on the fast path
        with store.transaction() as tx:  # PostgreSQL: the group's transaction is usable again
            tx.append_entry(credit_draft("c2", at, 7))
        assert count(engine, EntryRow) == 1  # another connection sees nothing of the group yet
    with store.transaction(write=False) as tx:
        assert [e.key for e in tx.entries()] == ["c1", "c2"]
        assert tx.balance("wallet:ana") == 12 and tx.balance("external") == -12


def test_a_time_written_by_the_fast_path_reads_back_equal_through_the_orm(engine: Engine) -> None:
    macau = timezone(timedelta(hours=8))
    at = datetime(2026, 3, 4, 5, 6, 7, 890123, tzinfo=macau)
    ledger = Ledger(SqlLedgerStore(engine), clock=lambda: at)
    entry = ledger.credit("ana", 5, by="root", key="t1")  # written by FastStatement (add_entry)
    with Session(engine) as session:
        row = session.get(EntryRow, entry.id)
        assert row is not None and row.created_at == at and row.created_at.utcoffset() == timedelta(0)
        # The same time written by the ORM is stored alike (SQLite compares the stored texts).
        session.add(EntryRow(key="t2", kind="credit", fingerprint="f", created_at=at))
        session.commit()
        stored = session.execute(select(EntryRow.created_at).order_by(EntryRow.id)).scalars().all()
        assert stored == [at, at]
    with engine.connect() as connection:
        raw = connection.exec_driver_sql("SELECT created_at FROM ledger_entries ORDER BY id").all()
        assert raw[0] == raw[1]
    assert ledger.entries()[0].created_at == at
    naive: Callable[[], datetime] = lambda: datetime(2026, 3, 4, 5, 6, 7)  # noqa: E731
    with pytest.raises((ValueError, StatementError)):
        Ledger(SqlLedgerStore(engine), clock=naive).credit("ana", 5, by="root", key="t3")
    assert [e.key for e in ledger.entries()] == ["t1", "t2"]


def test_groups_keep_their_connection_and_a_failed_group_gives_it_up(engine: Engine) -> None:
    store = SqlLedgerStore(engine)
    at = datetime(2026, 1, 1, tzinfo=UTC)
    with store.transaction() as tx:
        tx.lock_accounts(["external", "wallet:ana"])

    def group_connection(key: str, *, fail: bool = False) -> Connection:
        with store.group():
            with store.transaction() as tx:
                tx.append_entry(credit_draft(key, at))
            joined = commit_groups(engine).joined()
            assert joined is not None
            if fail:
                raise RuntimeError("the group's block fails")
            return joined

    first = group_connection("c1")
    assert group_connection("c2") is first  # the next group starts on the same connection
    with pytest.raises(RuntimeError):
        group_connection("c3", fail=True)
    assert first.closed  # given up (and its transaction rolled back), not kept
    third = group_connection("c4")
    assert third is not first and not third.closed
    with group_commit_fails(engine) as failed, pytest.raises(OperationalError):
        group_connection("c5")
    assert failed and third.closed  # discarded: its driver's transaction could not be trusted again
    fourth = group_connection("c6")
    assert fourth is not third
    with store.transaction(write=False) as tx:
        assert [e.key for e in tx.entries()] == ["c1", "c2", "c4", "c6"]
    engine.dispose()  # the kept connection goes back with the engine's others
    assert fourth.closed
