"""Bets and blackjack answers over the table's WebSocket (``croupier.server.ws``, "Commands"), in process (FastAPI's
TestClient) on the real services over SQLite, with a clock the test moves: a bet answers 201 with REST's result and
holds its stake once; malformed commands answer 422 and change nothing; the same key and bet answer the same, the
same key and another bet 409; no bet after the bell; the command rate limit answers 429 with ``retry_after``; an
answer to another player's decision is refused; the command's ``id`` is echoed."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import Connection, event  # noqa: E402
from sqlalchemy.exc import OperationalError  # noqa: E402
from starlette.testclient import WebSocketTestSession  # noqa: E402

from croupier.primitives.pcg import SeededRandom  # noqa: E402
from croupier.server.app import create_app  # noqa: E402
from croupier.server.ratelimit import Limit, RateLimiter  # noqa: E402
from croupier.server.services import Services  # noqa: E402
from croupier.service.accounts import AccountService  # noqa: E402
from croupier.service.casino import Casino  # noqa: E402
from croupier.service.ledger import Ledger  # noqa: E402
from croupier.storage import SqlAccountStore, SqlLedgerStore, create_engine, upgrade  # noqa: E402
from croupier.storage.casino_store import SqlCasinoStore  # noqa: E402
from croupier.storage.groups import commit_groups  # noqa: E402
from server.support import InProcessApi, assert_error  # noqa: E402
from server.test_worker import held, until_queued  # noqa: E402
from service.support import CHEAP_HASHER, TEST_POLICY, Clock  # noqa: E402

PASSWORD = "password-1"
FUNDS = 1000
ANSWER_KEYS = {"type", "id", "status", "result"}
REFUSAL_KEYS = {"type", "id", "status", "error", "detail", "rule"}


class Api(InProcessApi):
    """A TestClient on SQLite-backed services, with sessions, sockets and the state a refusal must not change."""

    def wallet(self, name: str) -> dict[str, int]:
        r = self.client.get("/api/wallet", headers=self.login(name))
        assert r.status_code == 200, r.text
        return {"balance": r.json()["balance"], "held": r.json()["held"]}

    def state(self) -> Any:
        """Balances, entries and every table's last rounds (with their bets and steps)."""
        with self.services.ledger.store.transaction(write=False) as tx:
            balances, entries = tx.balances(), len(tx.entries())
        tables = [t["table"] for t in self.client.get("/api/tables", headers=self.login("boss")).json()]
        rounds = {
            t: self.client.get(f"/api/tables/{t}/rounds", params={"last": 3}, headers=self.login("boss")).json()
            for t in tables
        }
        return balances, entries, rounds

    @contextmanager
    def socket(self, table: str, name: str) -> Iterator[Socket]:
        token = self.login(name)["Authorization"].removeprefix("Bearer ")
        with self.client.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.send_json({"type": "auth", "token": token})
            snapshot = ws.receive_json()
            assert snapshot["type"] == "snapshot", snapshot
            yield Socket(ws)


class Socket:
    """A table's socket: commands sent, answers read (the table's events that come between are kept aside)."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.events: list[dict[str, Any]] = []

    def send(self, command: dict[str, Any] | str) -> None:
        self.ws.send_text(command if isinstance(command, str) else json.dumps(command))

    def answer(self) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = self.ws.receive_json()
            if message.get("type") == "answer":
                return message
            self.events.append(message)

    def ask(self, command: dict[str, Any] | str) -> dict[str, Any]:
        self.send(command)
        return self.answer()


def bet(key: str, body: dict[str, Any], command_id: str | int = "c1") -> dict[str, Any]:
    return {"type": "bet", "id": command_id, "key": key, "bet": body}


def refusal(answer: dict[str, Any], status: int, kind: str | None = None) -> dict[str, Any]:
    assert set(answer) >= REFUSAL_KEYS and answer["status"] == status, answer
    assert isinstance(answer["detail"], str) and answer["detail"], answer
    if kind is not None:
        assert answer["error"] == kind, answer
    return answer


@pytest.fixture
def api(tmp_path: Path) -> Iterator[Api]:
    url = f"sqlite:///{tmp_path / 'croupier.sqlite3'}"
    upgrade(url)
    engine = create_engine(url)
    clock = Clock()
    accounts = AccountService(SqlAccountStore(engine), hasher=CHEAP_HASHER, clock=clock, policy=TEST_POLICY)
    ledger = Ledger(SqlLedgerStore(engine), clock=clock)
    casino = Casino(ledger, accounts, SqlCasinoStore(engine), clock=clock, source_factory=lambda table: SeededRandom(3))
    services = Services(accounts=accounts, ledger=ledger, casino=casino, engine=engine)
    for name, role in (("boss", "admin"), ("dee", "dealer"), ("ana", "player"), ("bo", "player")):
        accounts.create(name, PASSWORD, role)
    limit = Limit(burst=1000, per_second=1000)
    app = create_app(services, tick_seconds=None, command_limit=limit, close_services=True)
    with TestClient(app) as client:
        a = Api(client, services, clock, password=PASSWORD)
        for player in ("ana", "bo"):
            r = client.post(f"/api/accounts/{player}/credit", json={"amount": FUNDS}, headers=a.as_("boss"))
            assert r.status_code == 200, r.text
        yield a


def test_a_bet_answers_201_with_the_rest_result_and_holds_the_stake(api: Api) -> None:
    api.open("r1", "roulette")
    rest = api.client.post("/api/tables/r1/bets", json={"type": "black", "amount": 40}, headers=api.as_("bo"))
    assert rest.status_code == 201, rest.text
    with api.socket("r1", "ana") as ws:
        answer = ws.ask(bet("k1", {"type": "red", "amount": 100}, "bet-1"))
        assert set(answer) == ANSWER_KEYS and answer["type"] == "answer", answer
        assert answer["status"] == 201 and answer["id"] == "bet-1"
        result = answer["result"]
        assert set(result) == set(rest.json())
        assert result == {**rest.json(), "ref": "b2", "amount": 100, "bet": {"type": "red", "amount": 100}}
        assert api.wallet("ana") == {"balance": FUNDS - 100, "held": 100}
        other = ws.ask(bet("k2", {"type": "dozen", "index": 2, "amount": 5}, 7))
        assert other["status"] == 201 and other["id"] == 7 and other["result"]["ref"] == "b3"
        while not [e for e in ws.events if e.get("ref") == "b3"]:  # its event follows the answer
            ws.events.append(ws.ws.receive_json())
    assert [(e["player"], e["ref"]) for e in ws.events if e["type"] == "bet_placed"] == [("ana", "b2"), ("ana", "b3")]
    assert api.wallet("ana") == {"balance": FUNDS - 105, "held": 105}
    rounds = api.client.get("/api/tables/r1/rounds", headers=api.login("boss")).json()
    bo_key = "bet:bo:" + rest.request.headers["Idempotency-Key"]
    assert [b["key"] for b in rounds[-1]["bets"]] == [bo_key, "bet:ana:k1", "bet:ana:k2"]


MALFORMED: list[tuple[str, Any]] = [
    ("not json {", None),
    (json.dumps([1, 2]), None),
    (json.dumps({"type": "fold", "id": 1, "key": "k", "bet": {"type": "red", "amount": 10}}), 1),
    (json.dumps({"type": "bet", "id": "no-key", "bet": {"type": "red", "amount": 10}}), "no-key"),
    (json.dumps({"type": "bet", "id": 3, "key": "k", "bet": {"type": "red", "amount": "10"}}), 3),
    (json.dumps({"type": "bet", "id": 4, "key": "k", "bet": {"type": "red", "amount": 0}}), 4),
    (json.dumps({"type": "bet", "id": 5, "key": "k", "bet": {"type": "red", "amount": 10}, "x": 1}), 5),
    (json.dumps({"type": "bet", "id": True, "key": "k", "bet": {"type": "red", "amount": 10}}), True),
    (json.dumps({"type": "bet", "key": "k", "bet": {"type": "red", "amount": 10}}), None),
    (json.dumps({"type": "act", "id": 6, "key": "k", "action": "stand", "box": "1"}), 6),
]


@pytest.mark.parametrize(("text", "command_id"), MALFORMED)
def test_a_malformed_command_answers_422_and_changes_nothing(api: Api, text: str, command_id: Any) -> None:
    api.open("r1", "roulette")
    before = api.state()
    with api.socket("r1", "ana") as ws:
        answer = refusal(ws.ask(text), 422, "invalid_request")
        assert answer["id"] == command_id and answer["rule"] is None
        # The socket still works: a good command after the bad one is answered.
        assert ws.ask(bet("after", {"type": "red", "amount": 10}, "ok"))["status"] == 201
    after = api.state()
    assert after[1] == before[1] + 1 and api.wallet("ana") == {"balance": FUNDS - 10, "held": 10}


def test_the_same_key_and_bet_answer_the_same_result(api: Api) -> None:
    api.open("r1", "roulette")
    with api.socket("r1", "ana") as ws:
        first = ws.ask(bet("k1", {"type": "red", "amount": 100}, "a"))
        assert first["status"] == 201
        entries = api.state()[1]
        again = ws.ask(bet("k1", {"type": "red", "amount": 100}, "b"))
        assert again["status"] == 201 and again["id"] == "b" and again["result"] == first["result"]
        # Sent three times at once (likely one group): one new hold, three equal answers.
        for n in range(3):
            ws.send(bet("k2", {"type": "odd", "amount": 50}, f"p{n}"))
        answers = sorted((ws.answer() for _ in range(3)), key=lambda a: a["id"])
    assert [a["id"] for a in answers] == ["p0", "p1", "p2"]
    assert all(a["status"] == 201 and a["result"] == answers[0]["result"] for a in answers), answers
    assert answers[0]["result"]["ref"] == "b2"
    assert api.state()[1] == entries + 1
    assert api.wallet("ana") == {"balance": FUNDS - 150, "held": 150}


def test_the_same_key_with_another_bet_is_refused_and_changes_nothing(api: Api) -> None:
    api.open("r1", "roulette")
    with api.socket("r1", "ana") as ws:
        assert ws.ask(bet("k1", {"type": "red", "amount": 100}))["status"] == 201
        before = api.state()
        answer = refusal(ws.ask(bet("k1", {"type": "black", "amount": 100}, 9)), 409, "idempotency_conflict")
        assert answer["id"] == 9 and answer["rule"] == "LEDGER 3"
        refusal(ws.ask(bet("k1", {"type": "red", "amount": 101})), 409, "idempotency_conflict")
    assert api.state() == before
    assert api.wallet("ana") == {"balance": FUNDS - 100, "held": 100}


def test_a_bet_after_the_bell_is_refused_with_the_rule(api: Api) -> None:
    api.open("live1", "roulette", live=True)
    with api.socket("live1", "ana") as ws:
        assert ws.ask(bet("k1", {"type": "odd", "amount": 50}))["status"] == 201
        api.tick(11)  # the bell: the live wheel waits for the dealer
        before = api.state()
        answer = refusal(ws.ask(bet("k2", {"type": "even", "amount": 50}, "late")), 409, "illegal_action")
        assert answer["rule"] == "RO 3" and answer["id"] == "late"
        assert api.state() == before
    assert api.wallet("ana") == {"balance": FUNDS - 50, "held": 50}
    assert_error(api.client.post("/api/tables/live1/bets", json={"type": "even", "amount": 50}, headers=api.as_("ana")),
                 409, "illegal_action")  # fmt: skip  # REST says the same


def test_the_command_rate_limit_answers_429_with_retry_after(api: Api) -> None:
    api.open("r1", "roulette")
    api.client.app.state.command_limiter = RateLimiter(Limit(burst=2, per_second=0.01), what="commands")  # type: ignore[attr-defined]
    with api.socket("r1", "ana") as ws:
        assert ws.ask(bet("k1", {"type": "red", "amount": 10}))["status"] == 201
        assert ws.ask(bet("k2", {"type": "red", "amount": 10}))["status"] == 201
        before = api.state()
        answer = refusal(ws.ask(bet("k3", {"type": "red", "amount": 10}, "third")), 429, "rate_limited")
        assert answer["id"] == "third" and isinstance(answer["retry_after"], int | float)
        assert 0 < answer["retry_after"] <= 100
        assert api.state() == before
    assert api.wallet("ana") == {"balance": FUNDS - 20, "held": 20}


def test_an_answer_to_another_players_decision_is_refused(api: Api) -> None:
    api.open("b1", "blackjack", decision_seconds=30)
    with api.socket("b1", "ana") as ana, api.socket("b1", "bo") as bo:
        assert ana.ask(bet("k1", {"box": 1, "main": 100}))["status"] == 201
        assert bo.ask(bet("k1", {"box": 2, "main": 100}))["status"] == 201
        api.tick(11)  # the bell and the deal
        view = api.client.get("/api/tables/b1", headers=api.login("ana")).json()
        turn = view["view"]["turn"]
        assert turn is not None and turn["player"] in ("ana", "bo") and turn["actions"], view
        mine, theirs = (ana, bo) if turn["player"] == "ana" else (bo, ana)
        action = next((a for a in ("stand", "decline") if a in turn["actions"]), turn["actions"][0])
        command = {"type": "act", "id": "a1", "key": "x1", "action": action, "box": turn["box"], "hand": turn["hand"]}
        before = api.state()
        answer = theirs.ask(command)
        refusal(answer, 409, "unexpected_action")
        assert answer["id"] == "a1" and answer["rule"] in ("BJ 6.3", "BJ 20.2"), answer
        assert api.state() == before
        # The decision's own player answers it: 200 and REST's result.
        done = mine.ask(command)
        assert done["status"] == 200 and done["id"] == "a1", done
        assert set(done["result"]) == {"table", "round", "action", "box", "hand", "extra_stake"}
        assert done["result"]["action"] == action and done["result"]["box"] == turn["box"]
    # An answer at a roulette table: refused too.
    api.open("r1", "roulette")
    with api.socket("r1", "ana") as ws:
        refusal(ws.ask({"type": "act", "id": 2, "key": "x2", "action": "stand"}), 409, "illegal_action")


def test_a_failed_group_commit_answers_500_to_each_bet_and_keeps_nothing(api: Api) -> None:
    engine = api.services.engine
    assert engine is not None
    api.open("r1", "roulette")
    worker, groups = api.services.worker, commit_groups(engine)
    failed: list[int] = []

    def fail(connection: Connection) -> None:
        group = groups._group
        if not failed and group is not None and connection is group.connection:
            failed.append(1)
            raise OperationalError("COMMIT", {}, Exception("disk I/O error (injected)"))

    before = api.state()
    with api.socket("r1", "ana") as ws:
        event.listen(engine, "commit", fail)
        try:
            with held(worker) as gate:  # the three bets wait together: one group
                for n in range(3):
                    ws.send(bet(f"k{n}", {"type": "red", "amount": 10}, n))
                asyncio.run(until_queued(worker, 3))
                gate.set()
                answers = sorted((ws.answer() for _ in range(3)), key=lambda a: a["id"])
        finally:
            event.remove(engine, "commit", fail)
        assert failed, "the injected failure did not run"
        assert [a["id"] for a in answers] == [0, 1, 2]
        assert all(a["status"] == 500 and "result" not in a for a in answers), answers
        assert api.state() == before
        # The bets were never taken: the same keys bet now.
        assert ws.ask(bet("k0", {"type": "red", "amount": 10}, "again"))["status"] == 201
    assert api.wallet("ana") == {"balance": FUNDS - 10, "held": 10}


def test_a_fault_checking_a_command_answers_500_and_the_socket_serves_on(
    api: Api, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A fault of the server's own while it checks a command (not a refusal): logged with its traceback, answered
    500 ``internal_error`` naming nothing of it, and the socket takes the next command."""
    api.open("r1", "roulette")
    limiter: RateLimiter = api.client.app.state.command_limiter  # type: ignore[attr-defined]
    take = limiter.take
    faults = [ValueError("the limiter's secret state")]

    def failing(key: str) -> None:
        if faults:
            raise faults.pop()
        take(key)

    monkeypatch.setattr(limiter, "take", failing)
    before = api.state()
    with api.socket("r1", "ana") as ws, caplog.at_level("ERROR", logger="croupier.server.ws"):
        answer = refusal(ws.ask(bet("k1", {"type": "red", "amount": 10}, "c1")), 500, "internal_error")
        assert answer["id"] == "c1" and answer["rule"] is None and "secret" not in answer["detail"]
        assert api.state() == before
        assert ws.ask(bet("k2", {"type": "red", "amount": 10}, "c2"))["status"] == 201
    logged = [r for r in caplog.records if r.exc_info and isinstance(r.exc_info[1], ValueError)]
    assert logged and "secret" in str(logged[0].exc_info[1]), caplog.text  # type: ignore[index]


def test_a_fault_of_the_casino_answers_500_internal_error(
    api: Api, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A bare ``ValueError`` from the casino is a fault, not a refusal: 500 ``internal_error`` in the error shape."""
    api.open("r1", "roulette")

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("the casino's secret state")

    monkeypatch.setattr(Casino, "place_bet", broken)
    with api.socket("r1", "ana") as ws, caplog.at_level("ERROR", logger="croupier.server.ws"):
        answer = refusal(ws.ask(bet("k1", {"type": "red", "amount": 10}, "c1")), 500, "internal_error")
        assert answer["rule"] is None and "secret" not in answer["detail"]
    assert any(r.exc_info and isinstance(r.exc_info[1], ValueError) for r in caplog.records), caplog.text
