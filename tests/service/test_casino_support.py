"""A casino on any store for the casino tests: users, a fake clock, seeded sources, and the checks every test
ends with (the ledger's invariants and the reconciliation)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from croupier.primitives.chance import ChanceSource
from croupier.primitives.pcg import SeededRandom
from croupier.service.accounts import AccountService, Role, User
from croupier.service.casino import Casino, CasinoStore
from croupier.service.ledger import Ledger, LedgerStore
from croupier.service.memory import MemoryAccountStore
from service.support import CHEAP_HASHER, TEST_POLICY, Clock


class Crash(Exception):
    """Raised at a persistence boundary to stop the casino as a crash would."""


@dataclass
class World:
    """Everything a casino test needs; :meth:`restart` builds a new casino on the same stores."""

    ledger_store: LedgerStore
    store: CasinoStore
    clock: Clock = field(default_factory=Clock)
    seed: int = 7
    users: dict[str, User] = field(default_factory=dict)
    labels: list[str] = field(default_factory=list)
    crash_at: int | None = None

    def __post_init__(self) -> None:
        self.ledger = Ledger(self.ledger_store, clock=self.clock)
        self.accounts = AccountService(MemoryAccountStore(), hasher=CHEAP_HASHER, clock=self.clock, policy=TEST_POLICY)
        for name, role in (("root", Role.ADMIN), ("dee", Role.DEALER), ("ana", Role.PLAYER), ("bo", Role.PLAYER)):
            self.users[name] = self.accounts.create(name, "password1", role)
        self.casino = self.new_casino()
        self.casino.recover()

    def source(self, table_id: str) -> ChanceSource:
        return SeededRandom(self.seed + sum(map(ord, table_id)))

    def hook(self, label: str) -> None:
        self.labels.append(label)
        if self.crash_at is not None and len(self.labels) == self.crash_at:
            raise Crash(label)

    def new_casino(self, factory: Callable[[str], ChanceSource] | None = None) -> Casino:
        return Casino(
            self.ledger, self.accounts, self.store, clock=self.clock, source_factory=factory or self.source,
            on_commit=self.hook,
        )  # fmt: skip

    def restart(self) -> list[dict[str, Any]]:
        self.crash_at = None
        self.casino = self.new_casino()
        return self.casino.recover()

    @property
    def admin(self) -> User:
        return self.users["root"]

    def fund(self, *players: str, amount: int = 10_000) -> None:
        for p in players:
            self.casino.credit(self.admin, p, amount, key=f"fund-{p}")

    def wait(self, seconds: float) -> list[dict[str, Any]]:
        self.clock.advance(seconds=seconds)
        return self.casino.tick()

    def check(self) -> dict[str, Any]:
        """Money conserved: the ledger's invariants and the casino's reconciliation."""
        self.ledger.check()
        report = self.casino.reconciliation(self.admin)
        assert report["ok"], report["problems"]
        total = sum(v for k, v in self.ledger.balances().items() if k != "external")
        assert total == -self.ledger.balance("external")
        return report


def play_until_settled(world: World, table_id: str, *, limit: int = 40) -> None:
    """Let the timers run (defaults for every decision) until the table's current round is settled."""
    start = world.casino._tables[table_id].round
    assert start is not None
    for _ in range(limit):
        world.wait(30)
        record = world.store.get_round(start.round_id)
        assert record is not None
        if record.status in ("settled", "voided"):
            return
    raise AssertionError("the round did not finish")


def later(world: World, seconds: float = 16) -> None:
    world.clock.advance(**{"seconds": seconds})
    _ = timedelta
