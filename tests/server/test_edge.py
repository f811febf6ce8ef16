"""The server's edge (issue 13; ``croupier.server.edge`` and the socket's authentication in ``croupier.server.ws``):
bodies over 64 KiB answered 413 unread, the security headers on every answer, no ``/docs`` loading a CDN, the
socket's token in its first message (never in the URL), and a session's sockets closed at once when it ends. In
process (FastAPI's TestClient), and over a real ``croupier serve`` whose log is scanned for every token and password
a run used and whose memory two 200 MB bodies must not grow."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

from starlette.websockets import WebSocketDisconnect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from croupier.server import ws as ws_module  # noqa: E402
from croupier.server.edge import MAX_BODY  # noqa: E402
from croupier.server.ui import WEB  # noqa: E402
from server.conftest import start_server  # noqa: E402
from server.support import ADMIN, PASSWORD, InProcessApi, Server, assert_error, memory_app  # noqa: E402

IN_PROCESS_PASSWORD = "password-1"
HEADERS = ("content-security-policy", "x-content-type-options", "referrer-policy", "x-frame-options")


@pytest.fixture
def api() -> Iterator[InProcessApi]:
    with memory_app(InProcessApi, password=IN_PROCESS_PASSWORD, credit=1000) as a:
        yield a


def _login_body(padding: int, password: str = IN_PROCESS_PASSWORD) -> bytes:
    body = json.dumps({"username": "ana", "password": password}).encode()
    return body[:-1] + b" " * padding + b"}"


# -- body limits --------------------------------------------------------------------------------------------------


def test_a_body_over_the_limit_is_refused_413_in_the_error_shape(api: InProcessApi) -> None:
    body = _login_body(MAX_BODY)  # a valid login, padded past the limit: refused before the route reads it
    r = api.client.post("/api/login", content=body, headers={"content-type": "application/json"})
    assert_error(r, 413, "payload_too_large")
    assert r.headers["connection"] == "close"
    within = _login_body(MAX_BODY - 100)  # within the limit, the same login is answered
    assert len(within) <= MAX_BODY
    r = api.client.post("/api/login", content=within, headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text


def test_a_chunked_body_is_counted_as_it_streams(api: InProcessApi) -> None:
    sent: list[int] = []

    def chunks(total: int) -> Iterator[bytes]:
        yield b'{"username": "ana", "password": "' + IN_PROCESS_PASSWORD.encode() + b'"'
        for _ in range(total // 1024):
            sent.append(1024)
            yield b" " * 1024
        yield b"}"

    headers = {"content-type": "application/json"}
    r = api.client.post("/api/login", content=chunks(2 * MAX_BODY), headers=headers)
    assert_error(r, 413, "payload_too_large")
    r = api.client.post("/api/login", content=chunks(MAX_BODY // 2), headers=headers)  # read, then answered
    assert r.status_code == 200, r.text


# -- headers ------------------------------------------------------------------------------------------------------


def test_every_answer_has_the_security_headers(api: InProcessApi) -> None:
    answers = [
        api.client.get("/"),
        api.client.get("/js/app.js"),
        api.client.get("/css/croupier.css"),
        api.client.get("/api/health"),
        api.client.get("/api/me"),  # 401
        api.client.get("/api/tables", headers=api.login("ana")),
        api.client.post("/api/login", json={"username": "ana"}),  # 422
        api.client.get("/api/nothing-here"),  # 404
        api.client.put("/api/health"),  # 405
        api.client.post("/api/login", content=b"x" * (MAX_BODY + 1)),  # 413
        api.client.get("/openapi.json"),
    ]
    for r in answers:
        for name in HEADERS:
            assert name in r.headers, (r.request.url, r.status_code, dict(r.headers))
        csp = r.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp and "*" not in csp
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
        assert r.headers["x-frame-options"] == "DENY"


def test_no_page_loads_a_third_party_url(api: InProcessApi) -> None:
    """FastAPI's /docs and /redoc load swagger-ui and redoc from a CDN: they are off. The page's own files name no
    other site, and index.html has no inline script."""
    assert_error(api.client.get("/docs"), 404, "not_found")
    assert_error(api.client.get("/redoc"), 404, "not_found")
    files = [p for p in WEB.rglob("*") if p.suffix in (".html", ".js", ".css", ".json")]
    assert len(files) > 10
    for path in files:
        # The SVG namespace (document.createElementNS) is a name, never fetched: the only URL-like text allowed.
        text = path.read_text(encoding="utf-8").replace("'http://www.w3.org/2000/svg'", "")
        assert not re.search(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text), path
    index = (WEB / "index.html").read_text()
    assert all("src=" in tag for tag in re.findall(r"<script[^>]*>", index)), "an inline script"
    assert "style=" not in index


# -- the socket: authentication, size, ended sessions -------------------------------------------------------------


def _closed(ws: Any) -> int:
    """Read until the server closes the (TestClient) socket; its close code."""
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            ws.receive_json()
    return int(closed.value.code)


def test_the_socket_takes_its_token_in_the_first_message_never_in_the_url(api: InProcessApi) -> None:
    api.open("r1", "roulette")
    token = api.login("ana")["Authorization"].removeprefix("Bearer ")
    with api.client.websocket_connect(f"/ws/tables/r1?token={token}") as ws:  # the old form: refused
        error = ws.receive_json()
        assert error["type"] == "error" and error["error"] == "unauthenticated" and "URL" in error["detail"], error
        assert _closed(ws) == 4401
    for first in ({"type": "bet", "id": 1, "key": "k", "bet": {}}, {"type": "auth"}, "not json", {"token": token}):
        with api.client.websocket_connect("/ws/tables/r1") as ws:
            ws.send_text(first if isinstance(first, str) else json.dumps(first))
            error = ws.receive_json()
            assert error["error"] == "unauthenticated" and '"auth"' in error["detail"], error
            assert _closed(ws) == 4401
    with api.client.websocket_connect("/ws/tables/r1") as ws:
        ws.send_json({"type": "auth", "token": token})
        assert ws.receive_json()["type"] == "snapshot"


def test_a_socket_that_does_not_authenticate_in_time_is_closed(
    api: InProcessApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ws_module, "AUTH_SECONDS", 0.2)
    api.open("r1", "roulette")
    with api.client.websocket_connect("/ws/tables/r1") as ws:
        error = ws.receive_json()
        assert error["error"] == "unauthenticated" and "within" in error["detail"], error
        assert _closed(ws) == 4401


def test_a_message_over_the_limit_closes_the_socket(api: InProcessApi) -> None:
    api.open("r1", "roulette")
    token = api.login("ana")["Authorization"].removeprefix("Bearer ")
    with api.client.websocket_connect("/ws/tables/r1") as ws:  # before authentication
        ws.send_text(json.dumps({"type": "auth", "token": token, "pad": "x" * MAX_BODY}))
        assert ws.receive_json()["error"] == "payload_too_large"
        assert _closed(ws) == 1009
    with api.client.websocket_connect("/ws/tables/r1") as ws:  # after
        ws.send_json({"type": "auth", "token": token})
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_bytes(b"{" + b" " * MAX_BODY + b"}")
        error = ws.receive_json()
        assert error["type"] == "error" and error["error"] == "payload_too_large", error
        assert _closed(ws) == 1009


def _bet(n: int) -> dict[str, Any]:
    return {"type": "bet", "id": n, "key": f"edge-{n}", "bet": {"type": "red", "amount": 10}}


def _answer(ws: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "answer":
            return message


def test_end_sessions_closes_every_socket_of_an_account_and_no_other(api: InProcessApi) -> None:
    """What the admin's disable and password reset call: ``Services.end_sessions(username=...)``, from any thread."""
    api.open("r1", "roulette")
    api.open("r2", "roulette")
    tokens = {n: api.login(n)["Authorization"].removeprefix("Bearer ") for n in ("ana", "bo")}
    with (
        api.client.websocket_connect("/ws/tables/r1") as ana1,
        api.client.websocket_connect("/ws/tables/r2") as ana2,
        api.client.websocket_connect("/ws/tables/r1") as bo,
    ):
        for ws, name in ((ana1, "ana"), (ana2, "ana"), (bo, "bo")):
            ws.send_json({"type": "auth", "token": tokens[name]})
            assert ws.receive_json()["type"] == "snapshot"
        ended: list[int] = []
        worker = threading.Thread(target=lambda: ended.append(api.services.end_sessions(username="ANA")))
        worker.start()
        worker.join(5)
        assert ended == [2]
        for ws in (ana1, ana2):
            messages = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    messages.append(ws.receive_json())
            assert closed.value.code == 4401
            assert messages[-1]["type"] == "error" and messages[-1]["error"] == "unauthenticated", messages
        bo.send_json(_bet(1))
        assert _answer(bo)["status"] == 201  # bo's socket serves on
    assert api.services.ledger.wallet("ana") == 1000


def test_a_session_that_ends_while_its_socket_opens_is_not_missed(
    api: InProcessApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The logout lands after the socket checked its token and before it registered to be told: it notices."""
    api.open("r1", "roulette")
    token = api.login("ana")["Authorization"].removeprefix("Bearer ")
    accounts, real = api.services.accounts, api.services.accounts.authenticate
    raced: list[int] = []

    def authenticate(given: str, **options: Any) -> Any:
        user = real(given, **options)
        if given == token and not raced:  # the socket's check passes; then the session ends
            accounts.logout(token)
            raced.append(api.services.end_sessions(token=token))
        return user

    monkeypatch.setattr(accounts, "authenticate", authenticate)
    with api.client.websocket_connect("/ws/tables/r1") as ws:
        ws.send_json({"type": "auth", "token": token})
        error = ws.receive_json()
        assert error["type"] == "error" and error["error"] == "unauthenticated", error
        assert _closed(ws) == 4401
    assert raced == [0]  # no socket was registered yet to be ended


# -- a real server: logout, the log, memory ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real server with its access log on (every request's line) and a manual clock (no window closes on its own)."""
    tmp = tmp_path_factory.mktemp("edge")
    yield from start_server(f"sqlite:///{tmp / 'croupier.sqlite3'}", tmp, ("--access-log", "--manual-clock"))


def test_logout_closes_the_sessions_sockets_within_a_second(logged: Server) -> None:
    logged.add_account("lou", credit=1000)
    logged.add_account("liv", credit=1000)
    r = logged.client.post(
        "/api/tables", json={"table_id": "out", "game": "roulette", "betting_seconds": 10}, headers=logged.login(ADMIN)
    )
    assert r.status_code == 201, r.text
    events = logged.socket("out", "lou")
    other = logged.socket("out", "liv")  # another session's socket
    try:
        assert logged.client.post("/api/logout", headers=logged.login("lou")).status_code == 204
        answered = time.monotonic()
        with contextlib.suppress(ConnectionClosed):  # (unless the socket is closed already)
            events.connection.send(json.dumps(_bet(1)))  # a command that reaches the socket after the logout
        seen: list[dict[str, Any]] = []
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                seen.append(events.next(timeout=5))
        assert time.monotonic() - answered < 1.0, seen
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        assert seen[-1]["type"] == "error" and seen[-1]["error"] == "unauthenticated", seen
        assert all(m.get("status") == 401 for m in seen if m["type"] == "answer"), seen
        wallet = logged.client.get("/api/accounts/lou/wallet", headers=logged.login(ADMIN)).json()
        assert wallet["balance"] == 1000 and wallet["held"] == 0, wallet
        other.connection.send(json.dumps(_bet(2)))
        assert other.until("answer")["status"] == 201  # another session's socket serves on
    finally:
        events.close()
        other.close()


def test_the_server_closes_a_socket_sent_a_message_over_the_limit(logged: Server) -> None:
    logged.add_account("max", credit=1000)
    r = logged.client.post(
        "/api/tables", json={"table_id": "big", "game": "roulette", "betting_seconds": 10}, headers=logged.login(ADMIN)
    )
    assert r.status_code == 201, r.text
    events = logged.socket("big", "max")
    try:
        with pytest.raises(ConnectionClosed) as closed:
            events.connection.send(json.dumps({**_bet(1), "pad": "x" * MAX_BODY}))
            while True:
                events.next(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big
    finally:
        events.close()
    assert logged.client.get("/api/health").status_code == 200


def test_no_log_line_carries_a_token_or_a_password(logged: Server) -> None:
    """Logins (good and bad), accounts, sockets (the old ``?token=`` form too), bets over the socket and over REST,
    a logout: the server's whole log (access log on) names none of the tokens or passwords used."""
    secrets = {PASSWORD, "wrong-password-7f3a9c"}
    logged.add_account("tia", credit=1000)
    logged.add_account("tom", credit=1000)
    r = logged.client.post(
        "/api/tables", json={"table_id": "logs", "game": "roulette", "betting_seconds": 10}, headers=logged.login(ADMIN)
    )
    assert r.status_code == 201, r.text
    r = logged.client.post("/api/login", json={"username": "tia", "password": "wrong-password-7f3a9c"})
    assert r.status_code in (401, 429), r.text
    events = logged.socket("logs", "tia")
    try:
        events.connection.send(json.dumps(_bet(1)))
        assert events.until("answer")["status"] == 201
    finally:
        events.close()
    r = logged.client.post("/api/tables/logs/bets", json={"type": "black", "amount": 10}, headers=logged.as_("tom"))
    assert r.status_code == 201, r.text
    token = logged.tokens["tom"]
    old = connect(f"{logged.base.replace('http://', 'ws://')}/ws/tables/logs?token={token}", open_timeout=10)
    with old:  # the old form is refused, and its log line shows no token
        assert json.loads(old.recv(timeout=10))["error"] == "unauthenticated"
    assert logged.client.get(f"/api/me?token={token}").status_code == 401  # nor in an HTTP request's line
    assert logged.client.post("/api/logout", headers=logged.login("tom")).status_code == 204
    secrets |= set(logged.tokens.values())
    assert len(secrets) >= 5
    deadline = time.monotonic() + 10
    while "/api/logout" not in logged.log.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)  # the access log's line of the last request
    text = logged.log.read_text()
    assert "/api/logout" in text and "WebSocket /ws/tables/logs" in text, text[-2000:]
    for secret in secrets:
        assert secret not in text, f"a secret in the log: {secret[:4]}…"
    assert "/ws/tables/logs?token=[redacted]" in text and "/api/me?token=[redacted]" in text, text[-2000:]
    assert "Logging error" not in text, text[-2000:]


def _server_pid(server: Server) -> int:
    """The pid of ``server``'s ``croupier serve`` process (this process's child listening on its port)."""
    port = server.base.rsplit(":", 1)[1]
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == os.getpid() and b"serve" in args and port.encode() in args:
            return int(entry.name)
    raise AssertionError(f"no server process on port {port}")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _flood(server: Server, *, chunked: bool, size: int = 200 * 2**20) -> tuple[int, int]:
    """Send an unauthenticated login of ``size`` bytes (declared, or chunked) as fast as the server takes it; (the
    answer's status, the bytes the server took before it stopped reading)."""
    host, port = server.base.removeprefix("http://").split(":")
    head = f"POST /api/login HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
    head += "Transfer-Encoding: chunked\r\n\r\n" if chunked else f"Content-Length: {size}\r\n\r\n"
    piece = b" " * 2**16
    if chunked:
        piece = b"%x\r\n" % len(piece) + piece + b"\r\n"
    sent = 0
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(head.encode())
        answer = b""

        def read() -> None:
            nonlocal answer
            try:
                while b"\r\n" not in answer:
                    got = s.recv(4096)
                    if not got:
                        return
                    answer += got
            except OSError:
                pass

        reader = threading.Thread(target=read)
        reader.start()
        try:
            while sent < size:
                s.sendall(piece)
                sent += len(piece)
        except OSError:
            pass  # the server closed the connection: it stopped reading
        reader.join(10)
    status = int(answer.split()[1]) if answer.startswith(b"HTTP/1.1 ") else 0
    return status, sent


def test_two_200_mb_bodies_do_not_grow_the_servers_memory(logged: Server) -> None:
    pid = _server_pid(logged)
    before = _rss_mb(pid)
    declared, streamed = _flood(logged, chunked=False), _flood(logged, chunked=True)
    assert logged.client.get("/api/health").status_code == 200
    grown = _rss_mb(pid) - before
    assert declared[0] == 413 and streamed[0] in (413, 0), (declared, streamed)  # a reset may beat the answer
    assert declared[1] < 200 * 2**20 and streamed[1] < 200 * 2**20, (declared, streamed)  # it stopped reading
    assert grown < 30, f"the server's memory grew by {grown:.0f} MB"


def test_an_admin_disabling_an_account_closes_its_sockets(api: InProcessApi, monkeypatch: pytest.MonkeyPatch) -> None:
    """The admin's disable (and password reset) route ends the account's sessions and closes their sockets at once
    (not at the socket's own next check of its session)."""
    calls: list[str | None] = []
    end_sessions = api.services.end_sessions

    def spy(*, username: str | None = None, token: str | None = None) -> int:
        calls.append(username)
        return end_sessions(username=username, token=token)

    monkeypatch.setattr(api.services, "end_sessions", spy)
    api.open("r1", "roulette")
    token = api.login("ana")["Authorization"].removeprefix("Bearer ")
    with api.client.websocket_connect("/ws/tables/r1") as ana:
        ana.send_json({"type": "auth", "token": token})
        assert ana.receive_json()["type"] == "snapshot"
        r = api.client.post("/api/accounts/ana/disable", headers=api.login("boss"))
        assert r.status_code == 200, r.text
        messages = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                messages.append(ana.receive_json())
        assert closed.value.code == 4401 and messages[-1]["error"] == "unauthenticated", messages
    assert calls == ["ana"]
