"""Helpers of the server tests: sessions, idempotency keys, wallets, the error shape and WebSocket events."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from croupier.service.casino import Casino

ADMIN = "boss"
PASSWORD = "correct horse battery"
EVENT_TIMEOUT = 30.0


@dataclass
class Server:
    """A running server: its base URL, a client for it, and its log file. Started with ``--manual-clock`` (the
    fixtures of ``conftest.py`` are), its casino's clock moves only by :meth:`advance` and :meth:`run_out`."""

    base: str
    client: httpx.Client
    log: Path
    tokens: dict[str, str] = field(default_factory=dict)

    def login(self, name: str, password: str = PASSWORD) -> dict[str, str]:
        """Log ``name`` in (once) and return the headers of its session."""
        if name not in self.tokens:
            r = self.client.post("/api/login", json={"username": name, "password": password})
            assert r.status_code == 200, r.text
            self.tokens[name] = r.json()["token"]
        return {"Authorization": f"Bearer {self.tokens[name]}"}

    def as_(self, name: str, *, key: str | None = None) -> dict[str, str]:
        """``name``'s headers, with an ``Idempotency-Key`` (fresh unless given)."""
        return {**self.login(name), "Idempotency-Key": key or uuid.uuid4().hex}

    def add_account(self, name: str, role: str = "player", credit: int = 0) -> None:
        """Create an account as the admin, and credit a player's wallet."""
        r = self.client.post(
            "/api/accounts", json={"username": name, "password": PASSWORD, "role": role}, headers=self.login(ADMIN)
        )
        assert r.status_code == 201, r.text
        if credit:
            r = self.client.post(f"/api/accounts/{name}/credit", json={"amount": credit}, headers=self.as_(ADMIN))
            assert r.status_code == 200, r.text

    def wallet(self, name: str) -> int:
        """``name``'s wallet balance, asked as ``name``."""
        r = self.client.get("/api/wallet", headers=self.login(name))
        assert r.status_code == 200, r.text
        balance: int = r.json()["balance"]
        return balance

    def advance(self, seconds: float) -> datetime:
        """Move the casino's manual clock (``croupier serve --manual-clock``) on by ``seconds``, then every table
        whose timer ran out; the casino's time after."""
        r = self.client.post("/api/testing/clock", json={"advance": seconds}, headers=self.login(ADMIN))
        assert r.status_code == 200, r.text
        return datetime.fromisoformat(r.json()["now"])

    def run_out(self, table: str) -> None:
        """Move the casino's manual clock to ``table``'s deadline (the end of its betting window, or of the decision
        it waits for): the bell and, on an RNG table, the result, the settlement and the next window (or the
        decision's default answer). The other tables move on too where their timers run out by then."""
        r = self.client.get(f"/api/tables/{table}", headers=self.login(ADMIN))
        assert r.status_code == 200, r.text
        deadline = r.json()["deadline"]
        assert deadline is not None, f"{table} waits for no timer: {r.json()}"
        left = (datetime.fromisoformat(deadline) - self.advance(0)).total_seconds()
        self.advance(max(0.0, left))

    def betting(self, table: str) -> None:
        """Wait, on the casino's manual clock, for ``table``'s betting window: a table an earlier test left in its
        result moment (``result_display_seconds``) or in play is run out until its next window opens."""
        for _ in range(4):
            r = self.client.get(f"/api/tables/{table}", headers=self.login(ADMIN))
            assert r.status_code == 200, r.text
            if r.json()["status"] == "betting":
                return
            self.run_out(table)
        raise AssertionError(f"{table} opens no betting window: {r.json()}")

    def close_betting(self, table: str, dealer: str) -> None:
        """``dealer`` rings the bell on the live ``table``."""
        r = self.client.post(f"/api/tables/{table}/close-betting", headers=self.as_(dealer))
        assert r.status_code == 200, r.text

    def socket(self, table: str, name: str) -> Events:
        """``name``'s WebSocket on ``table``, its snapshot read."""
        token = self.login(name)["Authorization"].removeprefix("Bearer ")
        ws_base = self.base.replace("http://", "ws://")
        events = Events(connect(f"{ws_base}/ws/tables/{table}", open_timeout=EVENT_TIMEOUT, legacy=True))
        events.connection.send(json.dumps({"type": "auth", "token": token}))  # the token never goes in the URL
        snapshot = events.next()
        assert snapshot["type"] == "snapshot", snapshot
        events.snapshot = snapshot
        return events


class Events:
    """The events a WebSocket has received, read in order."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection
        self.seen: list[dict[str, Any]] = []
        self.snapshot: dict[str, Any] = {}

    def next(self, timeout: float = EVENT_TIMEOUT) -> dict[str, Any]:
        """The next message."""
        message: dict[str, Any] = json.loads(self.connection.recv(timeout=timeout))
        self.seen.append(message)
        return message

    def until(self, kind: str | Callable[[dict[str, Any]], bool], timeout: float = EVENT_TIMEOUT) -> dict[str, Any]:
        """Read until a message of type ``kind`` (or one ``kind`` accepts) and return it."""
        match = kind if callable(kind) else (lambda e: e.get("type") == kind)
        deadline = time.monotonic() + timeout
        while True:
            event = self.next(timeout=max(0.1, deadline - time.monotonic()))
            if match(event):
                return event

    def close(self) -> None:
        """Close the socket."""
        self.connection.close()


def assert_error(response: httpx.Response, status: int, kind: str | None = None) -> dict[str, Any]:
    """``response`` is a refusal with ``status`` in the error shape (of ``kind`` when given)."""
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert set(body) == {"error", "detail", "rule"}, body
    assert isinstance(body["detail"], str) and body["detail"], body
    if kind is not None:
        assert body["error"] == kind, body
    return body


class InProcessApi:
    """An in-process ``TestClient`` of the app, with the services behind it, a fake clock and a session per name
    (every account's password is ``password``): the shared part of the in-process API tests' clients."""

    def __init__(self, client: Any, services: Any, clock: Any, *, password: str) -> None:
        self.client, self.services, self.clock, self.password = client, services, clock, password
        self.tokens: dict[str, str] = {}

    def login(self, name: str) -> dict[str, str]:
        if name not in self.tokens:
            r = self.client.post("/api/login", json={"username": name, "password": self.password})
            assert r.status_code == 200, r.text
            self.tokens[name] = r.json()["token"]
        return {"Authorization": f"Bearer {self.tokens[name]}"}

    def as_(self, name: str, key: str | None = None) -> dict[str, str]:
        return {**self.login(name), "Idempotency-Key": key or uuid.uuid4().hex}

    def tick(self, seconds: float) -> None:
        self.clock.advance(seconds=seconds)
        self.services.at_casino(Casino.tick)

    def open(self, table: str, game: str, **options: Any) -> None:
        body = {"table_id": table, "game": game, "betting_seconds": 10, **options}
        if options.get("live"):
            body.setdefault("dealers", ["dee"])  # dealers belong to tables (issue 13)
        # The tests of other things play round after round: no result moment unless a test asks for one (issue 14).
        body.setdefault("result_display_seconds", 0)
        r = self.client.post("/api/tables", json=body, headers=self.login("boss"))
        assert r.status_code == 201, r.text


@contextmanager
def memory_app(
    api: Callable[..., InProcessApi], *, password: str, credit: int, source_factory: Callable[[str], Any] | None = None
) -> Iterator[Any]:
    """The app on memory services with a fake clock (ticked by hand), a generous command limit, the accounts
    ``boss`` (admin), ``dee`` (dealer), ``ana`` and ``bo`` (players, ``credit`` units each), all with ``password``;
    yields ``api(client, services, clock, password=password)``."""
    from fastapi.testclient import TestClient

    from croupier.server.app import create_app
    from croupier.server.ratelimit import Limit
    from croupier.server.services import Services
    from croupier.service.accounts import AccountService
    from croupier.service.casino import Casino
    from croupier.service.casino_memory import MemoryCasinoStore
    from croupier.service.ledger import Ledger
    from croupier.service.memory import MemoryAccountStore, MemoryLedgerStore
    from service.support import CHEAP_HASHER, TEST_POLICY, Clock

    clock = Clock()
    accounts = AccountService(MemoryAccountStore(), hasher=CHEAP_HASHER, clock=clock, policy=TEST_POLICY)
    ledger = Ledger(MemoryLedgerStore(), clock=clock)
    casino = Casino(ledger, accounts, MemoryCasinoStore(), clock=clock, source_factory=source_factory)
    services = Services(accounts=accounts, ledger=ledger, casino=casino)
    for name, role in (("boss", "admin"), ("dee", "dealer"), ("ana", "player"), ("bo", "player")):
        accounts.create(name, password, role)
    app = create_app(services, tick_seconds=None, command_limit=Limit(burst=1000, per_second=1000))
    with TestClient(app) as client:
        a = api(client, services, clock, password=password)
        for player in ("ana", "bo"):
            r = client.post(f"/api/accounts/{player}/credit", json={"amount": credit}, headers=a.as_("boss"))
            assert r.status_code == 200, r.text
        yield a
