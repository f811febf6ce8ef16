"""A committed seed stays secret until its reveal and survives a crash, on the memory stores, SQLite and PostgreSQL:
nothing a client can get (events, views, recall even as admin, history, my rounds, the fairness record, the audit
log, log records) shows a seed early; after a restart the committed seed is the same and the outcome is derived
from it, never re-rolled."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from sqlalchemy import Engine, text

from croupier import fair
from croupier.service.casino_memory import MemoryCasinoStore
from croupier.service.memory import MemoryLedgerStore
from croupier.storage import SqlLedgerStore
from croupier.storage.casino_store import SqlCasinoStore
from croupier.storage.models import Base
from fair.support import ONE_DECK, FairWorld, blob
from service.test_casino_support import Crash, play_until_settled

Factory = Callable[[], FairWorld]


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def factory(request: pytest.FixtureRequest) -> Factory:
    if request.param == "memory":
        return lambda: FairWorld(MemoryLedgerStore(), MemoryCasinoStore())
    engine: Engine = request.getfixturevalue(f"{request.param}_engine")

    def make() -> FairWorld:
        with engine.begin() as connection:
            for table in reversed(Base.metadata.sorted_tables):
                connection.execute(text(f'DELETE FROM "{table.name}"'))
        return FairWorld(SqlLedgerStore(engine), SqlCasinoStore(engine))

    return make


def everything(world: FairWorld, table: str, events: list[dict[str, object]]) -> str:
    """All a client can get: the events, each role's table view and description, recall (admin), the history, the
    player's rounds, every round's fairness record, the audit log."""
    c, users = world.casino, world.users
    parts: list[object] = [events]
    for name in ("ana", "bo", "dee", "root"):
        parts += [c.table_view(users[name], table), c.tables(users[name]), c.table_history(users[name], table)]
    parts += [c.recall(world.admin, table, last=50), c.audit(world.admin), c.player_rounds(users["ana"])]
    parts += [c.fair_record(users["bo"], table, r.round_id) for r in world.store.rounds(table) if r.state.fair]
    return blob(*parts)


@pytest.mark.parametrize("game", ["roulette", "sicbo"])
def test_no_seed_before_its_reveal(factory: Factory, game: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    world = factory()
    world.fund("ana", "bo")
    c = world.casino
    c.open_table(world.admin, table_id="T", game=game)
    sub = c.subscribe("T")
    bet = {"type": "red", "amount": 10} if game == "roulette" else {"type": "small", "amount": 10}
    c.place_bet(world.users["ana"], "T", {**bet, "client_seed": "s1"}, "k1")
    first = world.issued[0]
    assert first not in everything(world, "T", list(sub.events))
    world.wait(16)
    seen = everything(world, "T", list(sub.events))
    assert first in seen  # revealed once settled
    assert world.issued[1] not in seen  # the next round's, committed, stays secret
    assert all(s not in caplog.text for s in world.issued)


def test_no_shoe_seed_before_the_shoe_ends(factory: Factory, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    world = factory()
    world.fund("ana", "bo")
    c = world.casino
    c.open_table(world.admin, table_id="B", game="blackjack", rules=ONE_DECK)
    sub = c.subscribe("B")
    seed = world.issued[0]
    for i in range(12):
        c.place_bet(world.users["ana"], "B", {"box": 1, "main": 10}, f"k{i}")
        world.wait(16)
        play_until_settled(world, "B")
        seen = everything(world, "B", list(sub.events))
        if c.table_view(world.admin, "B")["fair"]["label"] != "B.shoe1":
            assert seed in seen  # the shoe ended: its seed is out, in the settled event and every record
            ended = next(e for e in sub.events if e["type"] == "settled" and "fair" in e)
            assert ended["fair"]["seed"] == seed
            break
        assert seed not in seen, i
    else:
        raise AssertionError("the one-deck shoe did not end")
    assert world.issued[-1] not in everything(world, "B", list(sub.events))
    assert all(s not in caplog.text for s in world.issued)


@pytest.mark.parametrize("label", ["round_opened", "bet_held", "bell", "result"])
def test_a_crash_keeps_the_committed_seed_and_derives_from_it(factory: Factory, label: str) -> None:
    world = factory()
    world.fund("ana")
    world.casino.open_table(world.admin, table_id="R", game="roulette")
    world.casino.void(world.admin, "R", "start over")  # R.1 voided; R.2 opens and commits
    committed = world.casino.table_view(world.admin, "R")["fair"]
    assert committed["label"] == "R.2"
    world.labels.clear()
    stop = {"round_opened": None, "bet_held": 1, "bell": None, "result": None}[label]

    def play() -> None:
        world.casino.place_bet(world.users["ana"], "R", {"type": "red", "amount": 10, "client_seed": "x"}, "k")
        world.wait(16)

    if stop is None and label != "round_opened":
        world.crash_at = None
        labels: list[str] = []
        probe = FairWorld(MemoryLedgerStore(), MemoryCasinoStore())  # where the boundary falls in a clean round
        probe.fund("ana")
        probe.casino.open_table(probe.admin, table_id="R", game="roulette")
        probe.labels.clear()
        probe.casino.place_bet(probe.users["ana"], "R", {"type": "red", "amount": 10}, "k")
        probe.wait(16)
        labels = probe.labels
        stop = labels.index(label) + 1
    if stop is not None:
        world.crash_at = stop
        with pytest.raises(Crash):
            play()
    world.restart()
    stored = world.store.get_round("R.2")
    assert stored is not None and stored.state.fair is not None
    assert stored.state.fair["seed"] == world.issued[1]  # the committed seed, not a new draw
    c = world.casino
    record = c.fair_record(world.users["ana"], "R", "R.2")
    assert record["commitment"] == committed["commitment"]
    if world.store.get_round("R.2").status == "betting":  # type: ignore[union-attr]
        assert record["seed"] is None
        assert c.table_view(world.admin, "R")["fair"] == committed
        if not record["inputs"]:
            c.place_bet(world.users["ana"], "R", {"type": "red", "amount": 10, "client_seed": "x"}, "k")
        world.wait(16)
    record = c.fair_record(world.users["ana"], "R", "R.2")
    assert record["seed"] == world.issued[1] and fair.commitment(record["seed"]) == committed["commitment"]
    assert record["result"] == fair.derive_pocket(record["seed"], "R.2", [["b1", "x"]])
    assert fair.verify(record).ok
    world.check()


def test_a_crash_mid_shoe_deals_on_in_the_committed_order(factory: Factory) -> None:
    def run(crash: bool) -> list[str]:
        world = factory()
        world.fund("ana")
        c = world.casino
        c.open_table(world.admin, table_id="B", game="blackjack", rules=ONE_DECK)
        for i in range(3):
            world.casino.place_bet(world.users["ana"], "B", {"box": 1, "main": 10, "client_seed": "z"}, f"k{i}")
            if crash and i == 1:
                world.clock.advance(seconds=16)
                world.crash_at = len(world.labels) + 1  # the bell's save: the deal is stored, the crash follows
                with pytest.raises(Crash):
                    world.casino.tick()
                world.restart()
            else:
                world.wait(16)
            play_until_settled(world, "B")
        shoe = [r for r in world.store.rounds("B") if r.state.fair and r.state.fair["label"] == "B.shoe1"]
        assert shoe and world.issued[0] == f"{world.seed_base:064x}"
        cards = [card for r in shoe for card in r.state.cards]
        order = fair.derive_shoe_order(world.issued[0], "B.shoe1", [["b1", "z"]], 1)
        assert cards == order[: len(cards)]
        return cards

    assert run(crash=True) == run(crash=False)
