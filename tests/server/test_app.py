"""The API in process (FastAPI's TestClient) on the real services over memory stores, with a clock the test moves:
sessions, the error shape, refusals that change nothing, idempotency, roles, rate limits and the WebSocket."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


from croupier.server.compose import database_url  # noqa: E402
from server.support import InProcessApi, assert_error, memory_app  # noqa: E402

PASSWORD = "password-1"


class Api(InProcessApi):
    """A TestClient with sessions and the services behind it."""

    def wallet(self, name: str) -> int:
        return self.services.ledger.wallet(name)

    def state(self) -> Any:
        """Everything a refused request must leave as it was: balances, entries, and the tables' rounds."""
        with self.services.ledger.store.transaction(write=False) as tx:
            balances, entries = tx.balances(), len(tx.entries())
        admin = self.services.accounts.get("boss")
        tables = {t["table"]: self.services.casino.recall(admin, t["table"], last=1) for t in self.tables()}
        return balances, entries, tables

    def tables(self) -> list[dict[str, Any]]:
        r = self.client.get("/api/tables", headers=self.login("boss"))
        assert r.status_code == 200, r.text
        tables: list[dict[str, Any]] = r.json()
        return tables


@pytest.fixture
def api() -> Iterator[Api]:
    with memory_app(Api, password=PASSWORD, credit=1000) as a:
        yield a


def test_login_me_logout(api: Api) -> None:
    assert_error(api.client.post("/api/login", json={"username": "ana", "password": "wrong-one"}), 401, "login_failed")
    headers = api.login("ana")
    assert api.client.get("/api/me", headers=headers).json() == {"username": "ana", "role": "player"}
    assert api.client.get("/api/wallet", headers=headers).json() == {"player": "ana", "balance": 1000, "held": 0}
    assert api.client.post("/api/logout", headers=headers).status_code == 204
    r = api.client.get("/api/me", headers=headers)
    assert_error(r, 401, "unauthenticated")
    assert r.headers["WWW-Authenticate"] == "Bearer"
    actions = [a["action"] for a in api.client.get("/api/audit", headers=api.login("boss")).json()]
    assert {"login", "login_failed", "logout", "credit"} <= set(actions)


def test_error_shape_for_malformed_and_unknown(api: Api) -> None:
    assert_error(api.client.get("/api/me"), 401, "unauthenticated")
    assert_error(api.client.post("/api/login", json={"username": "ana"}), 422, "invalid_request")
    assert_error(api.client.post("/api/login", json={"username": "x" * 65, "password": "p"}), 422)
    assert_error(api.client.get("/api/tables/nowhere", headers=api.login("ana")), 404, "unknown_table")
    assert_error(api.client.get("/api/nothing-here"), 404, "not_found")


def test_openapi_published(api: Api) -> None:
    paths = api.client.get("/openapi.json").json()["paths"]
    for path in ("/api/login", "/api/tables/{table_id}/bets", "/api/tables/{table_id}/actions", "/api/reconciliation"):
        assert path in paths
    # FastAPI's /docs and /redoc would load their scripts from a CDN: there are none (issue 13).
    assert_error(api.client.get("/docs"), 404, "not_found")
    assert_error(api.client.get("/redoc"), 404, "not_found")


def test_roulette_round_and_idempotency(api: Api) -> None:
    api.open("r1", "roulette")
    bet = {"type": "red", "amount": 100}
    headers = api.as_("ana", key="bet-1")
    first = api.client.post("/api/tables/r1/bets", json=bet, headers=headers)
    assert first.status_code == 201, first.text
    again = api.client.post("/api/tables/r1/bets", json=bet, headers=headers)
    assert again.status_code == 201 and again.json() == first.json()
    assert api.wallet("ana") == 900
    before = api.state()
    assert_error(
        api.client.post("/api/tables/r1/bets", json={"type": "black", "amount": 100}, headers=headers),
        409,
        "idempotency_conflict",
    )
    assert api.state() == before
    api.tick(11)
    rounds = api.client.get("/api/tables/r1/rounds", headers=api.login("boss")).json()
    round_ = next(r for r in rounds if r["round"] == first.json()["round"])
    assert round_["status"] == "settled"
    net = round_["nets"][first.json()["ref"]]
    assert api.wallet("ana") == 900 + 100 + net
    rec = api.client.get("/api/reconciliation", headers=api.login("boss")).json()
    assert rec["ok"], rec


@pytest.mark.parametrize(
    "case",
    [
        ("dee", "/api/tables/r1/bets", {"type": "red", "amount": 10}, 403, "forbidden"),
        ("ana", "/api/tables", {"table_id": "x1", "game": "roulette"}, 403, "forbidden"),
        ("ana", "/api/accounts/bo/credit", {"amount": 10}, 403, "forbidden"),
        ("ana", "/api/tables/r1/bets", {"type": "red", "amount": 5000}, 409, "insufficient_funds"),
        ("ana", "/api/tables/r1/bets", {"type": "red", "amount": 0}, 422, "invalid_request"),
        ("ana", "/api/tables/r1/bets", {"type": "straight_up", "numbers": [37], "amount": 10}, 422, None),
        ("ana", "/api/tables/r1/bets", {"type": "nonsense", "amount": 10}, 409, None),
        ("ana", "/api/tables/r1/void", {"reason": "why not"}, 403, "forbidden"),
        ("boss", "/api/accounts/ana/debit", {"amount": 5000}, 409, "insufficient_funds"),
    ],
)
def test_refusals_change_nothing(api: Api, case: tuple[str, str, dict[str, Any], int, str | None]) -> None:
    who, path, body, status, kind = case
    api.open("r1", "roulette")
    before = api.state()
    assert_error(api.client.post(path, json=body, headers=api.as_(who)), status, kind)
    assert api.state() == before


def test_money_commands_need_an_idempotency_key(api: Api) -> None:
    api.open("r1", "roulette")
    r = api.client.post("/api/tables/r1/bets", json={"type": "red", "amount": 10}, headers=api.login("ana"))
    body = assert_error(r, 422, "invalid_request")
    assert "Idempotency-Key" in body["detail"]
    assert api.wallet("ana") == 1000


def test_live_table_bell_report_and_void(api: Api) -> None:
    api.open("live1", "roulette", live=True)
    placed = api.client.post("/api/tables/live1/bets", json={"type": "odd", "amount": 50}, headers=api.as_("ana"))
    assert placed.status_code == 201, placed.text
    api.tick(11)  # the bell
    before = api.state()
    late = api.client.post("/api/tables/live1/bets", json={"type": "odd", "amount": 50}, headers=api.as_("bo"))
    assert assert_error(late, 409, "illegal_action")["rule"] == "RO 3"
    assert api.state() == before
    assert_error(api.client.post("/api/tables/live1/results", json={"result": 37}, headers=api.as_("dee")), 422)
    assert api.state() == before
    r = api.client.post("/api/tables/live1/results", json={"result": 17}, headers=api.as_("dee"))
    assert r.status_code == 200, r.text
    assert api.wallet("ana") == 1050  # 17 is odd: even money
    api.client.post("/api/tables/live1/bets", json={"type": "even", "amount": 70}, headers=api.as_("ana"))
    assert api.wallet("ana") == 980
    r = api.client.post("/api/tables/live1/void", json={"reason": "ball left the wheel"}, headers=api.as_("dee"))
    assert r.status_code == 200, r.text
    assert api.wallet("ana") == 1050


def test_websocket_sends_the_callers_events(api: Api) -> None:
    api.open("r2", "roulette")
    token = api.login("ana")["Authorization"].removeprefix("Bearer ")
    with api.client.websocket_connect("/ws/tables/r2") as ws:
        ws.send_json({"type": "auth", "token": token})
        snapshot = ws.receive_json()
        assert snapshot["type"] == "snapshot" and snapshot["view"]["table"] == "r2"
        api.client.post("/api/tables/r2/bets", json={"type": "red", "amount": 10}, headers=api.as_("ana"))
        assert ws.receive_json()["type"] == "bet_placed"
        api.tick(11)
        kinds = [ws.receive_json()["type"] for _ in range(4)]
        assert kinds == ["betting_closed", "result", "settled", "betting_open"]


def test_websocket_batches_the_events_of_a_poll_on_request(api: Api) -> None:
    api.open("r3", "roulette")
    token = api.login("ana")["Authorization"].removeprefix("Bearer ")
    with api.client.websocket_connect("/ws/tables/r3?batch=true") as ws:
        ws.send_json({"type": "auth", "token": token})
        assert ws.receive_json()["type"] == "snapshot"
        api.client.post("/api/tables/r3/bets", json={"type": "red", "amount": 10}, headers=api.as_("ana"))
        api.tick(11)
        kinds: list[str] = []
        while len(kinds) < 5:
            message = ws.receive_json()
            assert message["type"] == "events" and message["table"] == "r3"
            kinds += [event["type"] for event in message["events"]]
        assert kinds == ["bet_placed", "betting_closed", "result", "settled", "betting_open"]


def test_websocket_refuses_a_bad_token_or_table(api: Api) -> None:
    with api.client.websocket_connect("/ws/tables/r2") as ws:
        ws.send_json({"type": "auth", "token": "nope"})
        assert ws.receive_json()["error"] == "unauthenticated"
    token = api.login("ana")["Authorization"].removeprefix("Bearer ")
    with api.client.websocket_connect("/ws/tables/ghost") as ws:
        ws.send_json({"type": "auth", "token": token})
        assert ws.receive_json()["error"] == "unknown_table"


def test_login_rate_limit(api: Api) -> None:
    for _ in range(10):
        api.client.post("/api/login", json={"username": "bo", "password": "wrong-one"})
    r = api.client.post("/api/login", json={"username": "bo", "password": PASSWORD})
    assert_error(r, 429, "rate_limited")
    assert int(r.headers["Retry-After"]) >= 1


def test_database_url() -> None:
    assert database_url("postgresql://u@h:5432/d") == "postgresql+psycopg://u@h:5432/d"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"
