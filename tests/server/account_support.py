"""The in-process app of the login and account tests: memory services with a clock the test moves, each request
from the client address its ``X-Test-Address`` header names, a password hasher the test can hold, and the login
door's buckets on a clock that stands still (they refill only when the test says)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from argon2 import PasswordHasher

from croupier.server.logins import LOGINS, LoginGate, LoginLimits
from croupier.server.ratelimit import Limit
from croupier.server.services import Services
from croupier.service.accounts import AccountService
from croupier.service.casino import Casino
from croupier.service.casino_memory import MemoryCasinoStore
from croupier.service.ledger import Ledger
from croupier.service.memory import MemoryAccountStore, MemoryLedgerStore
from service.support import CHEAP_HASHER, TEST_POLICY, Clock

PASSWORD = "password-1"
ADDRESS = "X-Test-Address"


class HeldHasher:
    """argon2's hasher whose ``verify`` waits while the test holds it (``held``), counting the checks and the most
    that ran at once."""

    def __init__(self, inner: PasswordHasher) -> None:
        self.inner = inner
        self.released = threading.Event()
        self.released.set()
        self._lock = threading.Lock()
        self.calls = self.running = self.most = 0

    def hold(self) -> None:
        self.released.clear()

    def release(self) -> None:
        self.released.set()

    def verify(self, password_hash: str, password: str) -> bool:
        with self._lock:
            self.calls += 1
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            self.released.wait(timeout=120)
            return self.inner.verify(password_hash, password)
        finally:
            with self._lock:
                self.running -= 1

    def hash(self, password: str) -> str:
        return self.inner.hash(password)

    def check_needs_rehash(self, password_hash: str) -> bool:
        return self.inner.check_needs_rehash(password_hash)


@dataclass
class Buckets:
    """The monotonic clock of the login door's buckets: it stands still unless moved."""

    now: float = 0.0

    def __call__(self) -> float:
        return self.now


@dataclass
class AccountApp:
    """The app (``asgi``, which takes the client address from the ``X-Test-Address`` header), its services, the
    casino's clock, the hasher and the buckets' clock."""

    app: Any
    asgi: Any
    services: Services
    clock: Clock
    hasher: HeldHasher
    buckets: Buckets
    gate: LoginGate
    tokens: dict[str, str] = field(default_factory=dict)


def from_address(app: Any) -> Any:
    """``app``, with each request's client address taken from its ``X-Test-Address`` header (when it has one)."""

    async def asgi(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            for key, value in scope.get("headers", ()):
                if key == ADDRESS.lower().encode():
                    scope = {**scope, "client": (value.decode(), 50000)}
        await app(scope, receive, send)

    return asgi


GENEROUS = LoginLimits(
    per_address=Limit(burst=1000, per_second=1), per_name=Limit(burst=1000, per_second=1), overall=Limit(1000, 1)
)


@contextmanager
def account_app(limits: LoginLimits = LOGINS, *, credit: int = 1000) -> Iterator[AccountApp]:
    """The accounts ``boss`` (admin), ``dee`` (dealer), ``ana`` and ``bo`` (players with ``credit`` each), all with
    :data:`PASSWORD`, on memory services (the app is not started: use a client as a context manager)."""
    from croupier.server.app import create_app

    clock = Clock()
    accounts = AccountService(MemoryAccountStore(), hasher=CHEAP_HASHER, clock=clock, policy=TEST_POLICY)
    ledger = Ledger(MemoryLedgerStore(), clock=clock)
    casino = Casino(ledger, accounts, MemoryCasinoStore(), clock=clock)
    services = Services(accounts=accounts, ledger=ledger, casino=casino)
    for name, role in (("boss", "admin"), ("dee", "dealer"), ("ana", "player"), ("bo", "player")):
        accounts.create(name, PASSWORD, role)
    boss = accounts.get("boss")
    for player in ("ana", "bo"):
        casino.credit(boss, player, credit, f"seed-{player}")
    hasher = HeldHasher(CHEAP_HASHER)
    accounts.hasher = hasher  # type: ignore[assignment]
    app = create_app(services, tick_seconds=None, command_limit=Limit(burst=1000, per_second=1000))
    buckets = Buckets()
    gate = app.state.logins = LoginGate(limits, clock=buckets)
    try:
        yield AccountApp(app, from_address(app), services, clock, hasher, buckets, gate)
    finally:
        hasher.release()
        services.close()
