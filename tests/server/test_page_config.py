"""Issue 14's server side: the deployment's currency for the page (``GET /api/config``, ``croupier serve
--currency``), each table's result moment over the API (``result_display_seconds``: default 5 s, the same pause for
every client) and the lobby's ``recent`` results."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

from server.support import InProcessApi, memory_app  # noqa: E402

PASSWORD = "password-1"


class Api(InProcessApi):
    def get(self, path: str, name: str = "ana") -> Any:
        r = self.client.get(path, headers=self.login(name))
        assert r.status_code == 200, r.text
        return r.json()


@pytest.fixture
def api() -> Iterator[Api]:
    with memory_app(Api, password=PASSWORD, credit=10_000) as a:
        yield a


def test_the_currency_is_public_and_defaults_to_the_pataca(api: Api) -> None:
    r = api.client.get("/api/config")
    assert r.status_code == 200 and r.json() == {"currency": "MOP"}
    assert "/api/config" in api.client.get("/openapi.json").json()["paths"]


def test_a_deployment_names_its_currency_and_a_bad_one_does_not_start() -> None:
    from fastapi.testclient import TestClient

    from croupier.server.app import create_app
    from croupier.server.compose import CannotStart, ServerConfig, start

    with memory_app(Api, password=PASSWORD, credit=1) as a:
        app = create_app(a.services, tick_seconds=None, recover=False, currency="HKD")
        with TestClient(app) as client:
            assert client.get("/api/config").json() == {"currency": "HKD"}
        for bad in ("mop", "MO", "MOPS", "", "M0P"):
            with pytest.raises(ValueError, match="ISO 4217"):
                create_app(a.services, tick_seconds=None, currency=bad)
    with pytest.raises(CannotStart, match=r"--currency 'pataca' is not an ISO 4217 code"):
        start(ServerConfig(database="sqlite://", currency="pataca"))


def test_a_table_shows_its_result_for_five_seconds_by_default(api: Api) -> None:
    body = {"table_id": "r5", "game": "roulette", "betting_seconds": 10}
    r = api.client.post("/api/tables", json=body, headers=api.login("boss"))
    assert r.status_code == 201 and r.json()["result_display_seconds"] == 5, r.text
    bet = api.client.post("/api/tables/r5/bets", json={"type": "red", "amount": 10}, headers=api.as_("ana"))
    assert bet.status_code == 201, bet.text
    api.tick(10)
    view = api.get("/api/tables/r5")
    assert (view["round"], view["status"]) == ("r5.1", "settled")
    assert view["deadline"] == (api.clock.now + timedelta(seconds=5)).isoformat()
    refused = api.client.post("/api/tables/r5/bets", json={"type": "red", "amount": 10}, headers=api.as_("ana"))
    assert refused.status_code == 409 and refused.json()["rule"] == "RO 3", refused.text
    (lobby,) = [t for t in api.get("/api/tables") if t["table"] == "r5"]
    assert [x["round"] for x in lobby["recent"]] == ["r5.1"] and 0 <= lobby["recent"][0]["pocket"] <= 36
    api.tick(5)
    assert (api.get("/api/tables/r5")["round"], api.get("/api/tables/r5")["status"]) == ("r5.2", "betting")


@pytest.mark.parametrize("bad", [-1, 61, "soon", None, False, "5"])
def test_a_bad_pause_is_refused_by_name(api: Api, bad: object) -> None:
    body = {"table_id": "bad", "game": "sicbo", "result_display_seconds": bad}
    r = api.client.post("/api/tables", json=body, headers=api.login("boss"))
    assert r.status_code == 422 and "result_display_seconds" in r.text, r.text
    assert all(t["table"] != "bad" for t in api.get("/api/tables"))


def test_the_demo_refuses_a_bad_currency_before_it_does_anything() -> None:
    """``croupier demo --serve`` checks the currency first: no port taken, no offline sessions, one line."""
    from typer.testing import CliRunner

    from croupier.cli import app

    result = CliRunner().invoke(app, ["demo", "--serve", "--currency", "mop", "--port", "1"])
    assert result.exit_code == 2, result.output
    assert "--currency 'mop' is not an ISO 4217 code" in result.output
    assert "table server" not in result.output
