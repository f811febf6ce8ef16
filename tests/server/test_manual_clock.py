"""The test-only manual clock of ``croupier serve --manual-clock`` (:mod:`croupier.server.testing`): a server started
normally has no testing route (404) and documents none; under the option the casino's clock stands still until an
admin moves it, and moving it moves the tables whose timer ran out (here with the casino on a thread of the server's
process; the other server tests run it in the casino's own process); the option is hidden and refused with
``--demo``."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from server.conftest import MANUAL_CLOCK, start_server
from server.support import ADMIN, Server, assert_error
from support import invoke


@pytest.fixture
def plain_server(tmp_path: Path) -> Iterator[Server]:
    """``croupier serve`` as production starts it: no testing option."""
    yield from start_server(f"sqlite:///{tmp_path / 'croupier.sqlite3'}", tmp_path)


@pytest.fixture
def thread_server(tmp_path: Path) -> Iterator[Server]:
    """A manual clock beside the casino's thread (``--casino-thread``)."""
    yield from start_server(f"sqlite:///{tmp_path / 'croupier.sqlite3'}", tmp_path, (*MANUAL_CLOCK, "--casino-thread"))


def test_a_server_started_normally_has_no_testing_route(plain_server: Server) -> None:
    moved = plain_server.client.post("/api/testing/clock", json={"advance": 60}, headers=plain_server.login(ADMIN))
    assert_error(moved, 404)
    assert plain_server.client.get("/api/testing/clock", headers=plain_server.login(ADMIN)).status_code == 404
    paths = plain_server.client.get("/openapi.json").json()["paths"]
    assert not [p for p in paths if "testing" in p], paths


def test_the_manual_clock_moves_only_when_told(thread_server: Server) -> None:
    server = thread_server
    server.add_account("tia", credit=1000)
    body = {"table_id": "mc", "game": "roulette", "betting_seconds": 5, "result_display_seconds": 0}
    r = server.client.post("/api/tables", json=body, headers=server.login(ADMIN))
    assert r.status_code == 201, r.text
    r = server.client.post("/api/tables/mc/bets", json={"type": "red", "amount": 10}, headers=server.as_("tia"))
    assert r.status_code == 201, r.text
    round_id = r.json()["round"]

    start = server.advance(0)
    assert server.advance(0) == start  # it stands still between two requests
    forbidden = server.client.post("/api/testing/clock", json={"advance": 5}, headers=server.login("tia"))
    assert_error(forbidden, 403, "forbidden")
    backwards = server.client.post("/api/testing/clock", json={"advance": -1}, headers=server.login(ADMIN))
    assert_error(backwards, 422)
    assert server.advance(0) == start

    r = server.client.post("/api/testing/clock", json={"advance": 4.5}, headers=server.login(ADMIN))
    assert r.status_code == 200, r.text
    assert r.json()["moved"] == []  # half a second of the window is left: nothing moves
    view = server.client.get("/api/tables/mc", headers=server.login(ADMIN)).json()
    assert (view["round"], view["status"]) == (round_id, "betting")

    r = server.client.post("/api/testing/clock", json={"advance": 0.5}, headers=server.login(ADMIN))
    assert r.status_code == 200, r.text
    assert r.json()["moved"] == ["mc"]  # the bell, the spin, the settlement and the next window
    view = server.client.get("/api/tables/mc", headers=server.login(ADMIN)).json()
    assert view["round"] != round_id and view["status"] == "betting"
    assert view["deadline"] is not None
    assert server.advance(0) == start + timedelta(seconds=5)
    rounds = server.client.get("/api/tables/mc/rounds", headers=server.login(ADMIN)).json()
    assert next(x for x in rounds if x["round"] == round_id)["status"] == "settled"
    assert server.wallet("tia") in (990, 1010)


def test_the_option_is_hidden_and_refused_with_the_demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert "--manual-clock" not in invoke("serve", "--help").output
    refused = invoke("serve", "--demo", "--manual-clock")
    assert refused.exit_code == 2
    assert "--manual-clock is for tests only" in refused.output
    assert not (tmp_path / "data").exists()  # refused before any database was opened
