"""Issue 14, the dealer's console over HTTP: ``dealer_prompt`` in a live table's view (its dealers only, described by
the OpenAPI document) and ``POST /api/tables/{id}/results/undo``, which takes back the last card reported while the
round has not used it: dealers of the table only, 409 with the rule once the card is in play."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


from server.support import InProcessApi, assert_error, memory_app  # noqa: E402

PASSWORD = "password-1"


@pytest.fixture
def api() -> Iterator[InProcessApi]:
    with memory_app(InProcessApi, password=PASSWORD, credit=10_000) as a:
        yield a


def view(api: InProcessApi, table: str, name: str) -> Any:
    r = api.client.get(f"/api/tables/{table}", headers=api.login(name))
    assert r.status_code == 200, r.text
    return r.json()


def post(api: InProcessApi, path: str, name: str, body: Any = None) -> Any:
    return api.client.post(path, json=body, headers=api.as_(name))


def test_the_dealer_reads_the_prompt_and_takes_back_an_unused_card(api: InProcessApi) -> None:
    api.open("lb", "blackjack", live=True)
    assert post(api, "/api/tables/lb/bets", "ana", {"box": 4, "main": 100}).status_code == 201
    assert post(api, "/api/tables/lb/close-betting", "dee").status_code == 200
    prompt = view(api, "lb", "dee")["dealer_prompt"]
    assert prompt == {
        "expect": "card",
        "card": {"to": "burn", "box": None, "hand": None, "face_up": False},
        "reported": [],
    }
    for code in ("KD", "QH"):
        assert post(api, "/api/tables/lb/results", "dee", {"result": code}).status_code == 200
    assert view(api, "lb", "dee")["dealer_prompt"]["card"]["to"] == "dealer"
    assert "dealer_prompt" not in view(api, "lb", "ana") and "dealer_prompt" not in view(api, "lb", "boss")

    assert_error(post(api, "/api/tables/lb/results/undo", "ana"), 403)  # a player
    assert_error(post(api, "/api/tables/lb/results/undo", "dee", {"card": "ZZ"}), 422, "invalid_input")  # not a card
    assert_error(post(api, "/api/tables/lb/results/undo", "dee", {"card": "AS", "x": 1}), 422)
    assert_error(post(api, "/api/tables/lb/results/undo", "dee", {"card": "AS"}), 409)  # not the last card
    r = post(api, "/api/tables/lb/results/undo", "dee", {"card": "QH"})
    assert r.status_code == 200, r.text
    assert r.json() == {"table": "lb", "round": "lb.1", "card": "QH", "reported": ["KD"]}
    r = post(api, "/api/tables/lb/results/undo", "dee")  # no body: the last card
    assert r.status_code == 200 and r.json()["card"] == "KD" and r.json()["reported"] == []
    body = assert_error(post(api, "/api/tables/lb/results/undo", "dee"), 409)
    assert body["rule"] == "BJ 5.1.2"
    audit = api.client.get("/api/audit", headers=api.login("boss")).json()
    assert [a["detail"]["card"] for a in audit if a["action"] == "card_taken_back"] == ["QH", "KD"]

    api.open("lr", "roulette", live=True)
    body = assert_error(post(api, "/api/tables/lr/results/undo", "dee"), 409)
    assert body["rule"] == "RO 2.2"
    assert view(api, "lr", "dee")["dealer_prompt"] == {"expect": "bell", "card": None, "reported": []}


def test_the_openapi_document_describes_the_prompt_and_the_undo(api: InProcessApi) -> None:
    doc = api.client.get("/openapi.json").json()
    assert "post" in doc["paths"]["/api/tables/{table_id}/results/undo"]
    schemas = doc["components"]["schemas"]
    assert "dealer_prompt" in schemas["TableView"]["properties"]
    assert set(schemas["DealerPrompt"]["properties"]) == {"expect", "card", "turn", "reported"}
