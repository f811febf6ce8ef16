"""The ledger on the in-memory store: the shared rules, the invariant audit and the retry of lost races."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest

from croupier.service.ledger import (
    HOUSE,
    Entry,
    Ledger,
    LedgerCorrupt,
    LedgerError,
    LedgerTransaction,
    RetryableConflict,
    account_kind,
    held,
    wallet,
)
from croupier.service.memory import MemoryLedgerStore
from service.ledger_contract import LedgerContract, bet, funded
from service.support import Clock


@pytest.fixture
def store() -> MemoryLedgerStore:
    return MemoryLedgerStore()


@pytest.fixture
def ledger(store: MemoryLedgerStore) -> Ledger:
    return Ledger(store, clock=Clock())


class TestLedgerInMemory(LedgerContract):
    """The shared suite on :class:`MemoryLedgerStore`."""


class TestAccounts:
    def test_account_names(self) -> None:
        assert [account_kind(a) for a in (wallet("ana"), held("ana"), "table:T1", HOUSE, "external")] == [
            "wallet",
            "held",
            "table",
            "house",
            "external",
        ]
        for bad in ("wallet:", "bank", "held"):
            with pytest.raises(LedgerError, match="not a ledger account"):
                account_kind(bad)

    def test_the_clock_stamps_entries(self, ledger: Ledger) -> None:
        entry = ledger.credit("ana", 5, by="root", key="c")
        assert entry.created_at == Clock().now


class TestAudit:
    """``problems`` finds each kind of corruption (made by hand: the commands never make one)."""

    def played(self, ledger: Ledger) -> None:
        funded(ledger, ana=1000)
        bet(ledger, "ana", 100, "b1")
        bet(ledger, "ana", 50, "b2", round_id="r2")
        ledger.settle("r1", {"b1": -100})
        assert ledger.problems() == []

    def test_a_cached_balance_that_differs_from_the_postings(self, ledger: Ledger, store: MemoryLedgerStore) -> None:
        self.played(ledger)
        store.cached[wallet("ana")] += 1
        assert any("wallet:ana is cached as 851 but its postings sum to 850" in p for p in ledger.problems())
        with pytest.raises(LedgerCorrupt) as info:
            ledger.check()
        assert info.value.problems == ledger.problems()

    def test_an_unbalanced_entry(self, ledger: Ledger, store: MemoryLedgerStore) -> None:
        self.played(ledger)
        first = store.entries[0]
        store.entries[0] = replace(first, postings=first.postings[1:])
        problems = ledger.problems()
        assert any(f"entry {first.id} (credit) sums to 1000" in p for p in problems)
        assert any("all postings sum to 1000" in p for p in problems)

    def test_a_negative_wallet_and_held_that_differs_from_open_bets(
        self, ledger: Ledger, store: MemoryLedgerStore
    ) -> None:
        self.played(ledger)
        store.hold_records["r2", "b2"] = replace(store.hold_records["r2", "b2"], amount=60)
        overdraft = replace(store.entries[0].postings[1], amount=-2000)
        store.entries.append(replace(store.entries[0], id=99, key="forged", postings=(overdraft,)))
        problems = ledger.problems()
        assert any("held:ana is 50 but its open bets total 60" in p for p in problems)
        assert any("wallet:ana is negative" in p for p in problems)

    def test_a_round_settled_twice(self, ledger: Ledger, store: MemoryLedgerStore) -> None:
        self.played(ledger)
        settle = next(e for e in store.entries if e.kind == "settle")
        store.entries.append(replace(settle, id=99, key="again", postings=()))
        assert any("settled round r1 was closed by entries" in p for p in ledger.problems())

    def test_a_table_account_left_off_zero(self, ledger: Ledger, store: MemoryLedgerStore) -> None:
        self.played(ledger)
        settle = next(e for e in store.entries if e.kind == "settle")
        i = store.entries.index(settle)
        store.entries[i] = replace(settle, postings=settle.postings[:2])
        assert any("table:T1 holds 100" in p for p in ledger.problems())


class FlakyStore(MemoryLedgerStore):
    """Loses the race ``losses`` times before letting a transaction through."""

    def __init__(self, losses: int) -> None:
        super().__init__()
        self.losses = losses

    @contextmanager
    def transaction(self, *, write: bool = True) -> Iterator[LedgerTransaction]:
        with super().transaction(write=write) as tx:
            yield tx
            if write and self.losses:
                self.losses -= 1
                raise RetryableConflict("a concurrent insert")


class TestRetries:
    def test_a_lost_race_is_run_again(self) -> None:
        ledger = Ledger(FlakyStore(losses=2))
        entry = ledger.credit("ana", 10, by="root", key="c")
        assert isinstance(entry, Entry) and ledger.wallet("ana") == 10 and len(ledger.entries()) == 1

    def test_too_many_lost_races_give_up_with_nothing_written(self) -> None:
        ledger = Ledger(FlakyStore(losses=10), retries=3)
        with pytest.raises(LedgerError, match="lost 3 races"):
            ledger.credit("ana", 10, by="root", key="c")
        assert ledger.entries() == [] and ledger.balances() == {}
