"""The casino's contract on SQLite and PostgreSQL (:class:`SqlCasinoStore`, revision 0002): the same tests as on
the memory stores, each world on an emptied database; the crash test stops at every third boundary."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, text

from croupier.storage import SqlLedgerStore
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
