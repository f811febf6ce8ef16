"""The OpenAPI document against a real ``croupier serve`` process, and every route's response model.

schemathesis runs every operation in its coverage, fuzzing and stateful phases with all its checks: no input may make
the server answer 5xx, every status and header must be documented, and **every response body must conform to its
documented schema** (each payload is a closed document of :mod:`croupier.service.payloads`: a key it does not name
fails). So that the game payloads are really exercised, the server first plays: RNG roulette, sic bo and blackjack
tables (side and streak bets, the player's own answers) settle rounds, and live tables are bet on, belled, reported
and voided by their dealer. The path parameters are then drawn mostly from the real tables, rounds and players, and
each operation is called as the role it is for: the player's tables, views, bets and answers, the dealer's commands,
the admin's everything else.

It runs the ``schemathesis`` CLI in a subprocess (one worker: the generator is not thread-safe on every Python),
with a fixed seed and a bounded number of examples per operation so that it stays within a minute or so. ``POST
/api/logout`` is left out (it would end the session the run uses); ``POST /api/tables/{id}/close`` only closes
tables of its own.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute

from server.conftest import MANUAL_CLOCK, start_server
from server.support import ADMIN, Server

MAX_EXAMPLES = 25
SEED = 20_240_531
DEALER, PLAYER, OTHER = "schema-dee", "schema-pia", "schema-bo"
BLACKJACK_RULES = {"side_bets_offered": ["any_pair", "perfect_pairs", "streak"]}
RNG_TABLES = {"sch-ro": "roulette", "sch-sb": "sicbo", "sch-bj": "blackjack"}
LIVE_TABLES = {"sch-ro-live": "roulette", "sch-sb-live": "sicbo", "sch-bj-live": "blackjack"}
CLOSABLE = ("sch-close-1", "sch-close-2", "sch-close-3")
ROUNDS = 2  # settled rounds per RNG table before the run
MOVES = 40  # clock moves and answers to settle a round of every RNG table, at most


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real server with a command rate that lets schemathesis's requests through (not production's limit), and a
    manual clock (the rounds move on when the set-up says, not while its bets are on their way)."""
    tmp_path = tmp_path_factory.mktemp("schema")
    options = ("--command-rate", "1000", *MANUAL_CLOCK)
    yield from start_server(f"sqlite:///{tmp_path / 'croupier.sqlite3'}", tmp_path, options)


def ok(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json() if status != 204 else None


def open_table(server: Server, table: str, game: str, **options: Any) -> None:
    rules = BLACKJACK_RULES if game == "blackjack" else None
    body = {"table_id": table, "game": game, "rules": rules, "betting_seconds": 1, "decision_seconds": 0.5, **options}
    body.setdefault("result_display_seconds", 0)  # rounds follow one another at once (no result moment)
    ok(server.client.post("/api/tables", json=body, headers=server.login(ADMIN)), 201)


def bets_of(game: str, n: int) -> list[tuple[str, dict[str, Any]]]:
    """Round ``n``'s bets at a table of ``game``: who bets what."""
    if game == "roulette":
        return [(PLAYER, {"type": "red", "amount": 10}), (PLAYER, {"type": "straight", "numbers": [n], "amount": 5})]
    if game == "sicbo":
        return [(PLAYER, {"type": "big", "amount": 10}), (OTHER, {"type": "total", "total": 9 + n, "amount": 5})]
    if n == 0:  # a side bet, and a streak bet on another box
        return [
            (PLAYER, {"box": 1, "main": 20, "side": {"any_pair": 5}}),
            (OTHER, {"box": 2, "main": 10, "streak": {"2": 5}}),
        ]
    return [(PLAYER, {"box": 1, "main": 20}), (OTHER, {"box": 1, "main": 10})]  # a back bet on the player's box


def bet(server: Server, table: str, body: dict[str, Any], who: str = PLAYER) -> dict[str, Any]:
    """Place a bet (the window is open: the clock stands still)."""
    r = server.client.post(f"/api/tables/{table}/bets", json=body, headers=server.as_(who))
    answer: dict[str, Any] = ok(r, 201)
    return answer


def view(server: Server, table: str, who: str = PLAYER) -> dict[str, Any]:
    answer: dict[str, Any] = ok(server.client.get(f"/api/tables/{table}", headers=server.login(who)))
    return answer


def settled_rounds(server: Server, table: str) -> list[str]:
    recalled = ok(server.client.get(f"/api/tables/{table}/rounds", params={"last": 50}, headers=server.login(ADMIN)))
    return [r["round"] for r in recalled if r["status"] == "settled"]


def answer_own_decision(server: Server, table: str) -> bool:
    """The player's answer when the blackjack table waits on the player's decision; False when it does not."""
    turn = (view(server, table).get("view") or {}).get("turn")
    if turn is None or turn["player"] != PLAYER or not turn.get("actions"):
        return False
    action = next((a for a in ("hit", "stand", "decline") if a in turn["actions"]), turn["actions"][0])
    body = {"action": action, "box": turn["box"], "hand": turn["hand"]}
    ok(server.client.post(f"/api/tables/{table}/actions", json=body, headers=server.as_(PLAYER)))
    return True


def play_rng(server: Server) -> dict[str, list[str]]:
    """Settle :data:`ROUNDS` rounds with the player's bets at each RNG table; then bet on the next (chips on the
    layouts). The settled rounds, by table."""
    for table, game in RNG_TABLES.items():
        open_table(server, table, game)
    settled: dict[str, list[str]] = {t: [] for t in RNG_TABLES}
    for n in range(ROUNDS + 1):
        placed = {}
        for table, game in RNG_TABLES.items():
            for who, body in bets_of(game, n):
                placed[table] = bet(server, table, body, who)["round"]
        if n == ROUNDS:
            return settled
        for _ in range(MOVES):
            if not answer_own_decision(server, "sch-bj"):
                server.advance(1)  # the windows' end, or the other player's decision's default answer
            for table in RNG_TABLES:
                settled[table] = settled_rounds(server, table)
            if all(placed[t] in settled[t] for t in RNG_TABLES):
                break
        else:
            pytest.fail(f"the rounds {placed} did not settle")
    return settled


def play_live(server: Server) -> None:
    """The dealer's commands: a bell, a result and a void on live roulette; a bell, a void roll and a result on live
    sic bo; a bell and a card (the deal then waits for the next) on live blackjack."""
    dealer = server.as_(DEALER)
    for table, game in LIVE_TABLES.items():
        open_table(server, table, game, live=True, betting_seconds=600, dealers=[DEALER])
        bet(server, table, bets_of(game, 0)[0][1])
        ok(server.client.post(f"/api/tables/{table}/close-betting", headers=dealer))
    ok(server.client.post("/api/tables/sch-ro-live/results", json={"result": 17}, headers=dealer))
    bet(server, "sch-ro-live", {"type": "odd", "amount": 10})
    ok(server.client.post("/api/tables/sch-ro-live/void", json={"reason": "the ball left the wheel"}, headers=dealer))
    ok(server.client.post("/api/tables/sch-sb-live/results", json={"result": "void"}, headers=dealer))
    ok(server.client.post("/api/tables/sch-sb-live/close-betting", headers=dealer))
    ok(server.client.post("/api/tables/sch-sb-live/results", json={"result": [1, 4, 6]}, headers=dealer))
    ok(server.client.post("/api/tables/sch-bj-live/results", json={"result": "5S"}, headers=dealer))
    bet(server, "sch-ro-live", {"type": "dozen", "index": 2, "amount": 10})


def set_up(server: Server) -> dict[str, list[str]]:
    server.add_account(DEALER, "dealer")
    server.add_account(PLAYER, credit=1_000_000)
    server.add_account(OTHER, credit=1_000_000)
    settled = play_rng(server)
    play_live(server)
    for table in CLOSABLE:
        open_table(server, table, "roulette")
    return settled


PLAYER_OPERATIONS = [
    "GET /api/wallet",
    "GET /api/me/rounds",
    "GET /api/tables",
    "GET /api/tables/{table_id}",
    "GET /api/tables/{table_id}/rules",
    "GET /api/tables/{table_id}/history",
    "POST /api/tables/{table_id}/bets",
    "POST /api/tables/{table_id}/actions",
]
"""The operations called as the player (the dealer's are tagged ``dealer``; every other is called as the admin)."""


def config(server: Server, settled: dict[str, list[str]]) -> str:
    """schemathesis's configuration: the real ids to draw path parameters from, and each operation's role."""
    tables = [*RNG_TABLES, *LIVE_TABLES]
    rounds = [r for ids in settled.values() for r in ids]
    player, dealer, admin = (json.dumps(server.login(name)["Authorization"]) for name in (PLAYER, DEALER, ADMIN))
    return f"""
headers = {{ Authorization = {admin} }}

[checks]
enabled = true  # every check of schemathesis, response_schema_conformance among them

[dictionaries.tables]
values = {json.dumps(tables)}

[dictionaries.rounds]
values = {json.dumps(rounds)}

[dictionaries.players]
values = {json.dumps([PLAYER, OTHER])}

[dictionaries.closable]
values = {json.dumps(list(CLOSABLE))}

[parameters]
"path.table_id" = {{ dictionary = "tables", probability = 0.9 }}
"path.round_id" = {{ dictionary = "rounds", probability = 0.9 }}
"path.player" = {{ dictionary = "players", probability = 0.9 }}
"query.table" = {{ dictionary = "tables", probability = 0.5 }}

[[operations]]
include-name = {json.dumps(PLAYER_OPERATIONS)}
headers = {{ Authorization = {player} }}

[[operations]]
include-tag = "dealer"
headers = {{ Authorization = {dealer} }}

[[operations]]
include-path = "/api/tables/{{table_id}}/close"
parameters = {{ "path.table_id" = {{ dictionary = "closable", probability = 1.0 }} }}

# `since` also takes a Unix time (pydantic's reading of a date-time); the schema says ISO 8601 only.
[[operations]]
include-name = "GET /api/audit"
checks = {{ negative_data_rejection = {{ enabled = false }} }}

# A request the schema admits may still be refused: the service checks what a schema cannot say (a bet's placement
# by its type, a card code, a rules document, a password's length: 400 or 422 in the error shape) and the rules of
# the moment (409).
[checks.positive_data_acceptance]
expected-statuses = ["2xx", "400", "401", "403", "404", "409", "422", "423", "429"]
"""


def test_every_response_conforms_to_its_schema(server: Server, tmp_path: Path) -> None:
    settled = set_up(server)
    assert all(settled.values()), settled
    for table in ("sch-ro", "sch-sb"):
        path = f"/api/tables/{table}/rounds/{settled[table][-1]}/scenario"
        assert ok(server.client.get(path, headers=server.login(ADMIN)))["game"] == RNG_TABLES[table]
    (tmp_path / "schemathesis.toml").write_text(config(server, settled))
    cmd = [
        *(sys.executable, "-c", "import sys; from schemathesis.cli import schemathesis; sys.exit(schemathesis())"),
        *("--config-file", str(tmp_path / "schemathesis.toml"), "--no-color"),
        *("run", f"{server.base}/openapi.json", "--exclude-path", "/api/logout"),
        *("--max-examples", str(MAX_EXAMPLES), "--seed", str(SEED), "--workers", "1"),
        *("--phases", "coverage,fuzzing,stateful", "--generation-database", "none"),
        *("--request-timeout", "30", "--output-truncate", "true"),
    ]
    run = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-20_000:]
    assert "Tested:" in output, output[-5_000:]  # it did reach the operations
    log = server.log.read_text()
    assert "Exception in ASGI application" not in log, log[-10_000:]
    assert "internal error" not in log, log[-10_000:]


def test_every_api_route_has_a_response_model_for_its_success() -> None:
    """Every REST operation documents its success: a response model (a payload type) for 200 and 201, no body for
    204; none answers ``Any``. The operations are the OpenAPI document's (every route the app includes)."""
    from croupier.server import routes, ui, watch
    from croupier.server.app import create_app
    from croupier.server.services import Services
    from croupier.service.accounts import AccountService
    from croupier.service.casino import Casino
    from croupier.service.casino_memory import MemoryCasinoStore
    from croupier.service.ledger import Ledger
    from croupier.service.memory import MemoryAccountStore, MemoryLedgerStore

    accounts, ledger = AccountService(MemoryAccountStore()), Ledger(MemoryLedgerStore())
    services = Services(accounts=accounts, ledger=ledger, casino=Casino(ledger, accounts, MemoryCasinoStore()))
    try:
        spec = create_app(services, tick_seconds=None, recover=False).openapi()
    finally:
        services.close()
    api_routes = {
        (method, route.path): route
        for router in (routes.router, ui.router, watch.router)
        for route in router.routes
        if isinstance(route, APIRoute)
        for method in route.methods
    }
    documented = {(m.upper(), path) for path, ops in spec["paths"].items() if path.startswith("/api") for m in ops}
    assert documented == set(api_routes) and len(documented) >= 26
    for (method, path), route in sorted(api_routes.items()):
        status = route.status_code or 200
        success = spec["paths"][path][method.lower()]["responses"][str(status)]
        if status == 204:
            assert route.response_model is None and "content" not in success, path
            continue
        assert route.response_model not in (None, Any), f"{method} {path} has no response model"
        schema = success["content"]["application/json"]["schema"]
        assert {"$ref", "items", "anyOf"} & set(schema), f"{method} {path} documents no payload: {schema}"
