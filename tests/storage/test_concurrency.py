"""Threads betting against one wallet at once never overspend it, and a command sent by several threads at once
under one key is posted once: on SQLite (one writer at a time), on PostgreSQL (row locks) and in memory."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import Engine

from croupier.service.ledger import InsufficientFunds, Ledger, LedgerStore
from croupier.service.memory import MemoryLedgerStore
from croupier.storage import SqlLedgerStore

THREADS = 8
BETS_EACH = 6


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store(request: pytest.FixtureRequest) -> LedgerStore:
    if request.param == "memory":
        return MemoryLedgerStore()
    engine: Engine = request.getfixturevalue(f"{request.param}_engine")
    return SqlLedgerStore(engine)


def run_together(work: Callable[[int], list[object]]) -> list[object]:
    start = threading.Barrier(THREADS)

    def one(n: int) -> list[object]:
        start.wait()
        return work(n)

    with ThreadPoolExecutor(THREADS) as pool:
        return [outcome for outcomes in pool.map(one, range(THREADS)) for outcome in outcomes]


def test_concurrent_bets_never_overspend_a_wallet(store: LedgerStore) -> None:
    ledger = Ledger(store)
    ledger.credit("ana", 100, by="root", key="fund")

    def bets(n: int) -> list[object]:
        outcomes: list[object] = []
        for i in range(BETS_EACH):
            try:
                # a round per thread: the holds meet only on the wallet
                ledger.hold("ana", 7, table="T1", round_id=f"r{n}", bet_ref=f"b{i}", key=f"h-{n}-{i}")
                outcomes.append("held")
            except InsufficientFunds:
                outcomes.append("refused")
        return outcomes

    outcomes = run_together(bets)
    assert outcomes.count("held") == 100 // 7 and outcomes.count("refused") == THREADS * BETS_EACH - 100 // 7
    assert ledger.wallet("ana") == 100 % 7 and ledger.held("ana") == 7 * (100 // 7)
    ledger.check()


def test_one_key_sent_by_many_threads_is_posted_once(store: LedgerStore) -> None:
    ledger = Ledger(store)
    ledger.credit("ana", 100, by="root", key="fund")

    def same(n: int) -> list[object]:
        return [ledger.hold("ana", 60, table="T1", round_id="r1", bet_ref="b1", key="the-bet").id]

    assert len(set(run_together(same))) == 1
    assert ledger.wallet("ana") == 40 and ledger.held("ana") == 60 and len(ledger.entries()) == 2
    ledger.check()


def test_settling_while_others_bet_keeps_the_books(store: LedgerStore) -> None:
    ledger = Ledger(store)
    for n in range(THREADS):
        ledger.credit(f"p{n}", 50, by="root", key=f"fund-{n}")

    def play(n: int) -> list[object]:
        for i in range(3):
            ledger.hold(f"p{n}", 10, table="T1", round_id=f"r{n}-{i}", bet_ref="b", key=f"h-{n}-{i}")
            ledger.hold("p0" if n else "p1", 1, table="T1", round_id=f"r{n}-{i}", bet_ref="x", key=f"x-{n}-{i}")
            ledger.settle(f"r{n}-{i}", {"b": 10 if i % 2 else -10, "x": -1})
        return []

    run_together(play)
    ledger.check()
    assert sum(ledger.balances().values()) == 0
