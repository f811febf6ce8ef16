"""The casino's thread (:class:`croupier.server.worker.CasinoWorker`): calls run one after another in arrival order on
the thread named "casino"; a call from that thread runs at once; bets queued together commit as one group (one
database commit), each refused one with its own error and the others placed; a failed group commit fails every
call of the group and keeps nothing; ``grouped=True`` runs in a group of its own; ``stop()`` finishes the queue.

To make groups form deterministically, a test first *holds* the thread with a call that waits on an event, queues
its calls, and lets it go."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, Engine, event
from sqlalchemy.exc import OperationalError

from croupier.errors import CroupierError
from croupier.server.worker import CasinoWorker
from croupier.service.casino_memory import MemoryCasinoStore
from croupier.service.ledger import IdempotencyConflict, InsufficientFunds
from croupier.service.memory import MemoryLedgerStore
from croupier.storage import SqlLedgerStore, create_engine, upgrade
from croupier.storage.casino_store import SqlCasinoStore
from croupier.storage.groups import commit_groups
from service.test_casino_support import World
from storage.test_group_commit import commits_counted

TIMEOUT = 20.0


@pytest.fixture
def memory_world() -> World:
    return World(MemoryLedgerStore(), MemoryCasinoStore())


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    url = f"sqlite:///{tmp_path / 'croupier.sqlite3'}"
    upgrade(url)
    engine = create_engine(url)
    yield engine
    engine.dispose()


@pytest.fixture
def sql_world(engine: Engine) -> World:
    return World(SqlLedgerStore(engine), SqlCasinoStore(engine))


@pytest.fixture
def worker_of() -> Iterator[Callable[[World], CasinoWorker]]:
    made: list[CasinoWorker] = []

    def make(world: World) -> CasinoWorker:
        worker = CasinoWorker(world.casino)
        made.append(worker)
        return worker

    yield make
    for worker in made:
        worker.stop(TIMEOUT)


@contextmanager
def held(worker: CasinoWorker) -> Iterator[threading.Event]:
    """The casino's thread busy with a call that waits until the event yielded is set (at the latest on exit)."""
    started, gate = threading.Event(), threading.Event()

    def block() -> None:
        started.set()
        assert gate.wait(TIMEOUT)

    thread = threading.Thread(target=worker.call, args=(block,))
    thread.start()
    assert started.wait(TIMEOUT)
    try:
        yield gate
    finally:
        gate.set()
        thread.join(TIMEOUT)


async def until_queued(worker: CasinoWorker, n: int) -> None:
    for _ in range(int(TIMEOUT / 0.002)):
        if worker._queue.qsize() >= n:
            return
        await asyncio.sleep(0.002)
    raise AssertionError(f"{n} calls were not queued")


async def settled(calls: list[Awaitable[Any]]) -> list[Any]:
    """What each call returned or raised."""
    return await asyncio.wait_for(asyncio.gather(*calls, return_exceptions=True), TIMEOUT)


def test_calls_run_in_arrival_order_on_the_casino_thread(
    memory_world: World, worker_of: Callable[[World], CasinoWorker]
) -> None:
    worker, casino = worker_of(memory_world), memory_world.casino
    runs: list[tuple[str, str, object]] = []

    def job(name: str) -> Callable[[], str]:
        def call() -> str:
            runs.append((name, threading.current_thread().name, casino._deferred))
            return name

        return call

    plan = [("a", True, False), ("b", True, False), ("c", False, False), ("d", True, False), ("e", False, True)]
    plan += [("f", False, False), ("g", True, False), ("h", True, False), ("i", True, False)]

    async def main() -> list[Any]:
        with held(worker) as gate:
            calls = [asyncio.ensure_future(worker.run(job(n), bet=b, grouped=g)) for n, b, g in plan]
            await until_queued(worker, len(plan))
            gate.set()
            return await settled(calls)

    assert asyncio.run(main()) == [n for n, _, _ in plan]
    assert [name for name, _, _ in runs] == [n for n, _, _ in plan]
    assert {thread for _, thread, _ in runs} == {"casino"}
    batch = {name: deferred for name, _, deferred in runs}
    # a and b: one batch; c: alone; d: a lone bet, in a batch of its own; e: a batch of its own; f: alone;
    # g, h and i: one batch.
    assert batch["a"] is not None and batch["a"] is batch["b"]
    assert batch["c"] is None and batch["f"] is None
    assert batch["d"] is not None and batch["d"] is not batch["a"] and batch["d"] is not batch["e"]
    assert batch["e"] is not None and batch["e"] is not batch["a"] and batch["e"] is not batch["g"]
    assert batch["g"] is not None and batch["g"] is batch["h"] is batch["i"] and batch["g"] is not batch["a"]
    assert (worker.groups, worker.grouped) == (4, 7)


def test_a_call_from_the_casino_thread_runs_at_once(
    memory_world: World, worker_of: Callable[[World], CasinoWorker]
) -> None:
    worker = worker_of(memory_world)

    def outer() -> tuple[str, str]:
        inner = worker.call(lambda: threading.current_thread().name)  # would wait for itself if it were queued
        return threading.current_thread().name, inner

    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(worker.call, outer).result(timeout=TIMEOUT) == ("casino", "casino")

    async def nested_bet() -> object:  # from inside a group too: at once, in the same batch
        def bet() -> object:
            deferred = memory_world.casino._deferred
            assert worker.call(lambda: memory_world.casino._deferred) is deferred
            return deferred

        with held(worker) as gate:
            calls = [worker.run(bet, bet=True), worker.run(bet, bet=True)]
            tasks = [asyncio.ensure_future(c) for c in calls]
            await until_queued(worker, 2)
            gate.set()
            first, second = await settled(tasks)
        assert first is not None and first is second
        return first

    asyncio.run(nested_bet())


def bet_call(world: World, player: str, table: str, bet: dict[str, Any], key: str) -> Callable[[], dict[str, Any]]:
    return lambda: world.casino.place_bet(world.users[player], table, bet, key)


def test_bets_queued_together_commit_as_one_group(
    sql_world: World, engine: Engine, worker_of: Callable[[World], CasinoWorker]
) -> None:
    world, worker = sql_world, worker_of(sql_world)
    world.fund("ana", "bo")
    world.casino.open_table(world.admin, table_id="R1", game="roulette")
    per_thread, threads = 6, 4

    def submitter(n: int, ready: threading.Barrier) -> list[Any]:
        async def main() -> list[Any]:
            player = "ana" if n % 2 else "bo"
            calls = [
                asyncio.ensure_future(
                    worker.run(bet_call(world, player, "R1", {"type": "red", "amount": 10 + i}, f"t{n}-{i}"), bet=True)
                )
                for i in range(per_thread)
            ]
            await asyncio.sleep(0)  # the calls are queued
            ready.wait(TIMEOUT)
            return await settled(calls)

        return asyncio.run(main())

    total = per_thread * threads
    with commits_counted(engine) as commits, held(worker) as gate, ThreadPoolExecutor(threads) as pool:
        ready = threading.Barrier(threads + 1)
        futures = [pool.submit(submitter, n, ready) for n in range(threads)]
        ready.wait(TIMEOUT)
        asyncio.run(until_queued(worker, total))
        gate.set()
        answers = [a for f in futures for a in f.result(timeout=TIMEOUT)]
    assert len(answers) == total and all(isinstance(a, dict) for a in answers), answers
    assert len({a["ref"] for a in answers}) == total
    assert worker.groups == 1 < total and worker.grouped == total
    assert len(commits) == 1  # one durable commit for every bet
    stake = sum(10 + i for i in range(per_thread)) * threads // 2
    assert world.ledger.held("ana") == stake and world.ledger.held("bo") == stake
    assert world.labels.count("bet_held") == total
    world.check()


def test_a_refused_bet_in_a_group_gets_its_own_error_and_the_others_stand(
    sql_world: World, worker_of: Callable[[World], CasinoWorker]
) -> None:
    world, worker = sql_world, worker_of(sql_world)
    world.casino.credit(world.admin, "ana", 1000, key="fund-ana")
    world.fund("bo")
    world.casino.open_table(world.admin, table_id="R1", game="roulette")
    plan = [
        ("ana", {"type": "red", "amount": 600}, "k1"),
        ("ana", {"type": "black", "amount": 600}, "k2"),  # 400 left in the group: refused
        ("bo", {"type": "odd", "amount": 10}, "k1"),
        ("bo", {"type": "even", "amount": 10}, "k1"),  # the same key, another bet
        ("bo", {"type": "nonsense", "amount": 10}, "k3"),
        ("bo", {"type": "odd", "amount": 10}, "k1"),  # the same key and bet: the same answer
        ("ana", {"type": "even", "amount": 400}, "k4"),
    ]

    async def main() -> list[Any]:
        with held(worker) as gate:
            calls = [
                asyncio.ensure_future(worker.run(bet_call(world, p, "R1", bet, key), bet=True)) for p, bet, key in plan
            ]
            await until_queued(worker, len(plan))
            gate.set()
            return await settled(calls)

    out = asyncio.run(main())
    assert isinstance(out[0], dict) and out[0]["ref"] == "b1"
    assert isinstance(out[1], InsufficientFunds)
    assert isinstance(out[2], dict) and out[2]["ref"] == "b2"
    assert isinstance(out[3], IdempotencyConflict)
    assert isinstance(out[4], CroupierError)
    assert out[5] == out[2]
    assert isinstance(out[6], dict) and out[6]["ref"] == "b3"
    assert (worker.groups, worker.grouped) == (1, len(plan))
    assert world.ledger.wallet("ana") == 0 and world.ledger.held("ana") == 1000
    assert world.ledger.held("bo") == 10
    (record,) = world.store.rounds("R1")
    assert [h["key"] for h in record.data["holds"]] == ["bet:ana:k1", "bet:bo:k1", "bet:ana:k4"]
    world.check()


def test_a_failed_group_commit_fails_every_call_and_keeps_nothing(
    sql_world: World, engine: Engine, worker_of: Callable[[World], CasinoWorker]
) -> None:
    world, worker = sql_world, worker_of(sql_world)
    world.fund("ana", "bo")
    world.casino.open_table(world.admin, table_id="R1", game="roulette")
    groups = commit_groups(engine)
    failed: list[int] = []

    def fail(connection: Connection) -> None:
        group = groups._group
        if not failed and group is not None and connection is group.connection:
            failed.append(1)
            raise OperationalError("COMMIT", {}, Exception("disk I/O error (injected)"))

    plan = [("ana", "k1"), ("bo", "k1"), ("ana", "k2")]

    async def main() -> list[Any]:
        with held(worker) as gate:
            calls = [
                asyncio.ensure_future(worker.run(bet_call(world, p, "R1", {"type": "red", "amount": 10}, k), bet=True))
                for p, k in plan
            ]
            await until_queued(worker, len(plan))
            gate.set()
            return await settled(calls)

    event.listen(engine, "commit", fail)
    try:
        out = asyncio.run(main())
    finally:
        event.remove(engine, "commit", fail)
    assert failed and all(isinstance(o, OperationalError) for o in out), out
    assert worker.groups == 0
    assert world.ledger.held("ana") == 0 and world.ledger.held("bo") == 0
    assert world.store.rounds("R1")[0].data["holds"] == []
    assert "bet_held" not in world.labels
    # The casino goes on, rebuilt from the store: the same keys now bet.
    again = asyncio.run(settled([worker.run(bet_call(world, "ana", "R1", {"type": "red", "amount": 10}, "k1"))]))
    assert isinstance(again[0], dict) and again[0]["ref"] == "b1"
    world.check()


def test_a_grouped_call_runs_in_a_group_of_its_own(
    sql_world: World, engine: Engine, worker_of: Callable[[World], CasinoWorker]
) -> None:
    world, worker = sql_world, worker_of(sql_world)
    world.fund("ana")
    world.casino.open_table(world.admin, table_id="R1", game="roulette", betting_seconds=10)
    world.casino.open_table(world.admin, table_id="S1", game="sicbo", betting_seconds=10)
    world.casino.place_bet(world.users["ana"], "R1", {"type": "red", "amount": 100}, "k1")
    world.casino.place_bet(world.users["ana"], "S1", {"type": "big", "amount": 50}, "k2")
    world.clock.advance(seconds=11)
    with commits_counted(engine) as commits:
        asyncio.run(settled([worker.run(world.casino.tick, grouped=True)]))
    assert len(commits) == 1 and (worker.groups, worker.grouped) == (1, 1)
    for table in ("R1", "S1"):
        record = world.store.get_round(f"{table}.1")
        assert record is not None and record.status == "settled"
    world.check()


def test_stop_finishes_the_queued_calls(memory_world: World, worker_of: Callable[[World], CasinoWorker]) -> None:
    worker = worker_of(memory_world)
    done: list[int] = []

    def job(n: int) -> Callable[[], int]:
        return lambda: done.append(n) or n

    async def main() -> list[Any]:
        with held(worker) as gate:
            calls = [asyncio.ensure_future(worker.run(job(n), bet=n % 2 == 0)) for n in range(6)]
            await until_queued(worker, 6)
            stopper = threading.Thread(target=worker.stop, args=(TIMEOUT,))
            stopper.start()
            await until_queued(worker, 7)  # the stop sign, after the calls
            gate.set()
            out = await settled(calls)
            stopper.join(TIMEOUT)
            assert not stopper.is_alive()
            return out

    assert asyncio.run(main()) == list(range(6))
    assert done == list(range(6))
    assert worker._thread is not None and not worker._thread.is_alive()
