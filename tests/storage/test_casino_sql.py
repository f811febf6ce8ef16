"""The casino's contract on SQLite and PostgreSQL (:class:`SqlCasinoStore`, revision 0002): the same tests as on
the memory stores, each world on an emptied database; the crash test stops at every third boundary."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import Engine, text

from croupier.storage import SqlLedgerStore, create_engine
from croupier.storage.casino_store import SqlCasinoStore
from croupier.storage.models import Base
from service.test_casino import CasinoContract
from service.test_casino_support import World


def _empty(engine: Engine) -> None:
    with engine.begin() as connection:
        for table in reversed(Base.metadata.sorted_tables):
            connection.execute(text(f'DELETE FROM "{table.name}"'))


class TestCasinoOnSql(CasinoContract):
    """The contract on the SQL stores."""

    crash_stride = 3

    @pytest.fixture
    def factory(self, engine: Engine) -> object:
        def make() -> World:
            _empty(engine)
            return World(SqlLedgerStore(engine), SqlCasinoStore(engine))

        return make

    @pytest.fixture
    def world(self, factory: object) -> World:
        assert callable(factory)
        made = factory()
        assert isinstance(made, World)
        return made


def test_the_store_round_trips_a_round(sqlite_engine: Engine) -> None:
    store = SqlCasinoStore(sqlite_engine)
    world = World(SqlLedgerStore(sqlite_engine), store)
    world.fund("ana")
    world.casino.open_table(world.admin, table_id="R1", game="roulette")
    world.casino.place_bet(world.users["ana"], "R1", {"type": "red", "amount": 10}, "k")
    (record,) = store.rounds("R1")
    assert record.data["holds"][0]["status"] == "held" and store.get_round("R1.1") == record
    assert store.count_rounds() == 1 and store.audit()[0].action == "credit"


def test_audit_lines_read_back_as_written_alone_or_in_a_group(engine: Engine) -> None:
    """An audit line is written on the fast path (a Core statement on the driver's cursor), alone in a transaction
    of its own or inside a group commit (seen by nobody else until the group commits), and reads back through the
    ORM with its time in UTC and its detail as given."""
    _empty(engine)
    store = SqlCasinoStore(engine)
    macau = timezone(timedelta(hours=8))
    at = datetime(2026, 3, 4, 5, 6, 7, 890123, tzinfo=macau)
    store.add_audit(at, "root", "credit", None, {"player": "ana", "amount": 10})
    other = create_engine(engine.url)
    try:
        with SqlLedgerStore(engine).group():
            store.add_audit(at + timedelta(seconds=1), "system", "settled", "R1", {"round": "R1.1", "wagered": 30})
            assert [a.action for a in SqlCasinoStore(other).audit()] == ["credit"]  # not before the commit
    finally:
        other.dispose()
    lines = store.audit()
    assert [(a.actor, a.action, a.table_id, a.detail) for a in lines] == [
        ("root", "credit", None, {"amount": 10, "player": "ana"}),
        ("system", "settled", "R1", {"round": "R1.1", "wagered": 30}),
    ]
    assert lines[0].at == at and lines[0].at.utcoffset() == timedelta(0)
    assert [a.action for a in store.audit(since=at + timedelta(seconds=1))] == ["settled"]
    with pytest.raises(ValueError, match="no timezone"):
        store.add_audit(datetime(2026, 3, 4), "root", "credit", None, {})
    assert len(store.audit()) == 2
