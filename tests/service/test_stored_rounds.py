"""Rounds stored by the casino before its round records were typed (issue 17) load, write back byte for byte, and
recover and settle: ``fixtures/stored_rounds.sqlite3`` was written by the casino of commit 09c7db0
(``fixtures/make_stored_rounds.py``): settled, voided, open, mid-decision and stalled rounds of every game."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from croupier.service.casino import RoundChange
from croupier.service.round_state import BetHold, ExtraHold, RoundState
from croupier.storage import create_engine, upgrade
from croupier.storage.casino_store import SqlCasinoStore, _dumps
from croupier.storage.ledger_store import SqlLedgerStore
from service.test_casino_support import World

FIXTURE = Path(__file__).with_name("fixtures") / "stored_rounds.sqlite3"
UNFINISHED = {"R1.3": "betting", "S1.2": "playing", "B1.7": "playing", "B2.2": "playing", "V1.2": "betting"}


def _rows(query: str) -> list[tuple[str, ...]]:
    with sqlite3.connect(f"file:{FIXTURE}?immutable=1", uri=True) as db:
        return db.execute(query).fetchall()


def test_the_fixture_holds_every_kind_of_round() -> None:
    rows = {r: (s, json.loads(d)) for r, s, d in _rows("select round_id, status, data from casino_rounds")}
    assert {r: s for r, (s, _) in rows.items() if s not in ("settled",)} == {
        **UNFINISHED,
        "V1.1": "voided",
        "C1.1": "voided",
    }
    states = [RoundState.from_json(d) for _, d in rows.values()]
    assert any(isinstance(h, ExtraHold) and h.action == "insurance" for s in states for h in s.holds)
    assert any(isinstance(h, ExtraHold) and h.action == "double" for s in states for h in s.holds)
    assert any(s.stalled is not None for s in states) and any(s.acts for s in states)
    assert _rows("select count(*) from casino_round_changes") == [(3,)]


@pytest.mark.parametrize("round_id", [r for (r,) in _rows("select round_id from casino_rounds order by round_id")])
def test_a_stored_round_is_written_back_byte_for_byte(round_id: str) -> None:
    ((stored,),) = _rows(f"select data from casino_rounds where round_id = '{round_id}'")
    state = RoundState.from_json(json.loads(stored))
    assert _dumps(state.to_json()) == stored
    assert RoundState.from_json(state.to_json()) == state


def test_a_stored_change_is_written_back_byte_for_byte() -> None:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    for round_id, stored in _rows("select round_id, change from casino_round_changes order by id"):
        change = RoundChange.from_json(round_id, at, json.loads(stored))
        assert _dumps(change.as_json()) == stored
        assert len(change.holds) == 1 and isinstance(change.holds[0], BetHold)


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    path = tmp_path / "croupier.sqlite3"
    shutil.copyfile(FIXTURE, path)
    upgrade(f"sqlite:///{path}")  # as `croupier serve` does: the later revisions leave the rounds as they are
    engine = create_engine(f"sqlite:///{path}")
    yield World(SqlLedgerStore(engine), SqlCasinoStore(engine))
    engine.dispose()


def test_stored_rounds_recover_and_settle(world: World) -> None:
    c, dee = world.casino, world.users["dee"]
    before = {
        r.round_id: _dumps(r.state.to_json()) for t in ["R1", "S1", "B1", "B2", "V1"] for r in world.store.rounds(t)
    }
    for round_id, status in UNFINISHED.items():  # recovered where they stood
        record = world.store.get_round(round_id)
        assert record is not None and record.status == status, round_id
    assert c.table_view(world.users["ana"], "B1")["view"]["turn"] is not None  # type: ignore[index]
    for table in ("S1", "B2"):  # tables opened before dealers belonged to tables: an admin assigns them
        c.assign_dealers(world.admin, table, ["dee"])
    c.report(dee, "S1", [2, 2, 5])
    cards = iter(["9H", "7D", "6C", "TS", "8S", "2D", "KH", "QC", "5D", "4H", "3S", "JD", "9C", "8H"])
    for _ in range(40):
        world.wait(25)  # bells, and the published default (stand, decline) for every decision
        stalled = world.store.get_round("B2.2")
        assert stalled is not None
        if stalled.status == "settled":
            break
        c.report(dee, "B2", next(cards))
    for round_id in UNFINISHED:
        record = world.store.get_round(round_id)
        assert record is not None and record.status in ("settled", "betting"), (round_id, record.status)
        if round_id in ("S1.2", "B1.7", "B2.2", "R1.3"):
            assert record.status == "settled", round_id
            assert record.state.nets is not None and set(record.state.nets) == {h.ref for h in record.state.held}
    for round_id, stored in before.items():  # the finished rounds are not rewritten
        record = world.store.get_round(round_id)
        assert record is not None
        if round_id not in UNFINISHED:
            assert _dumps(record.state.to_json()) == stored, round_id
    world.check()
