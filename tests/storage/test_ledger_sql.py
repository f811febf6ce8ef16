"""The ledger's shared suite and its random sequences on SQLite and PostgreSQL."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from sqlalchemy import Engine, text

from croupier.service.ledger import Ledger
from croupier.storage import SqlLedgerStore, create_engine
from croupier.storage.models import Base
from service.ledger_contract import LedgerContract, funded
from service.ledger_machine import machine_for
from service.support import Clock

SMALL = settings(max_examples=8, stateful_step_count=15, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture
def ledger(engine: Engine) -> Ledger:
    return Ledger(SqlLedgerStore(engine), clock=Clock())


class TestLedgerOnSql(LedgerContract):
    """The shared suite on :class:`SqlLedgerStore` (each test on SQLite and on PostgreSQL)."""

    def test_one_settlement_is_one_transaction(self, ledger: Ledger, engine: Engine) -> None:
        funded(ledger, ana=1000, bo=1000)
        for ref, player in (("b1", "ana"), ("b2", "bo")):
            ledger.hold(player, 100, table="T1", round_id="r1", bet_ref=ref, key=ref)
        # a rule the ledger never meets, that fails the settlement's last posting (bo's lost stake to the house)
        if engine.dialect.name == "postgresql":
            rule = "ALTER TABLE ledger_postings ADD CONSTRAINT no_b2 CHECK (account <> 'house' OR amount < 0) NOT VALID"
        else:
            rule = (
                "CREATE TRIGGER no_b2 BEFORE INSERT ON ledger_postings WHEN NEW.account = 'house' AND NEW.amount > 0 "
                "BEGIN SELECT RAISE(ABORT, 'no_b2'); END"
            )
        with engine.begin() as connection:
            connection.execute(text(rule))
        try:
            with pytest.raises(Exception, match="no_b2"):
                ledger.settle("r1", {"b1": 100, "b2": -100})
            assert ledger.wallet("ana") == 900 and ledger.held("ana") == 100 and ledger.balance("house") == 0
            assert {h.status for h in ledger.holds("r1")} == {"open"}
            assert [e.kind for e in ledger.entries("r1")] == ["hold", "hold"]
            ledger.check()
        finally:  # the rule must not outlive the test: the database is shared by the session
            drop = (
                "ALTER TABLE ledger_postings DROP CONSTRAINT no_b2"
                if engine.dialect.name == "postgresql"
                else "DROP TRIGGER no_b2"
            )
            with engine.begin() as connection:
                connection.execute(text(drop))

    def test_the_database_refuses_a_negative_wallet_on_its_own(self, engine: Engine) -> None:
        ledger = Ledger(SqlLedgerStore(engine))
        funded(ledger, ana=10)
        with pytest.raises(Exception, match="no_overdraft"), engine.begin() as connection:
            connection.execute(text("UPDATE ledger_accounts SET balance = -1 WHERE account = 'wallet:ana'"))
        assert ledger.wallet("ana") == 10


def _sqlite_store_factory(template: Path, folder: Path) -> SqlLedgerStore:
    path = folder / f"{uuid.uuid4().hex}.sqlite3"
    shutil.copyfile(template, path)
    return SqlLedgerStore(create_engine(f"sqlite:///{path}"))


def test_random_sequences_on_sqlite(sqlite_template: Path, tmp_path: Path) -> None:
    machine = machine_for(lambda: _sqlite_store_factory(sqlite_template, tmp_path))
    machine.TestCase.settings = SMALL
    machine.TestCase().runTest()


def test_random_sequences_on_postgresql(postgres_engine: Engine) -> None:
    tables = ", ".join(f'"{t.name}"' for t in Base.metadata.sorted_tables)

    def fresh() -> SqlLedgerStore:
        with postgres_engine.begin() as connection:
            connection.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
        return SqlLedgerStore(postgres_engine)

    machine = machine_for(fresh)
    machine.TestCase.settings = SMALL
    machine.TestCase().runTest()
