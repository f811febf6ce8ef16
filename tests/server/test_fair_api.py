"""Provably fair rounds over the real server (SQLite and PostgreSQL, manual clock): the commitment in the table view
and in ``betting_open``, a player seed sent with a bet, the fairness record endpoint for any signed-in user, and
secrecy: every WebSocket message, every endpoint's JSON (recall as admin, the table view as player, dealer and
admin, history, my rounds, audit) and the server's log hold no seed before its reveal."""

from __future__ import annotations

import json
from typing import Any

import pytest

from croupier import fair
from server.support import ADMIN, Server, assert_error


def collect(srv: Server, table: str, names: tuple[str, ...]) -> list[Any]:
    """Everything the API gives about ``table`` to each of ``names``."""
    out: list[Any] = []
    for name in names:
        h = srv.login(name)
        for path in (f"/api/tables/{table}", "/api/tables", f"/api/tables/{table}/history", "/api/me/rounds"):
            r = srv.client.get(path, headers=h)
            out.append(r.json())
        r = srv.client.get(f"/api/tables/{table}/rounds?last=20", headers=h)
        out.append(r.json())
    h = srv.login(ADMIN)
    out.append(srv.client.get("/api/audit", headers=h).json())
    return out


@pytest.mark.parametrize("where", ["server", "postgres_server"])
def test_commit_reveal_and_secrecy_over_the_api(request: pytest.FixtureRequest, where: str) -> None:
    srv: Server = request.getfixturevalue(where)
    table = f"F{where[:2]}"
    srv.add_account("fay", credit=1_000)
    srv.add_account("gus", credit=1_000)
    srv.add_account("dan", role="dealer")
    r = srv.client.post("/api/tables", json={"table_id": table, "game": "roulette"}, headers=srv.as_(ADMIN))
    assert r.status_code == 201, r.text
    names = ("fay", "gus", "dan", ADMIN)
    sockets = {name: srv.socket(table, name) for name in names}
    seen: list[Any] = [s.snapshot for s in sockets.values()]
    view = srv.client.get(f"/api/tables/{table}", headers=srv.login("gus")).json()
    round_id, commitment = view["round"], view["fair"]["commitment"]
    assert view["fair"]["label"] == round_id
    bad = srv.client.post(f"/api/tables/{table}/bets", json={"type": "red", "amount": 10, "client_seed": "é"},
                          headers=srv.as_("fay"))  # fmt: skip
    assert_error(bad, 422)
    bet = {"type": "red", "amount": 10, "client_seed": "fay's luck"}
    r = srv.client.post(f"/api/tables/{table}/bets", json=bet, headers=srv.as_("fay"))
    assert r.status_code == 201, r.text
    record = srv.client.get(f"/api/tables/{table}/rounds/{round_id}/fair", headers=srv.login("gus")).json()
    assert record["seed"] is None and record["commitment"] == commitment and record["inputs"] == [["b1", "fay's luck"]]
    seen += collect(srv, table, names)
    for s in sockets.values():
        seen.append(s.until("bet_placed"))
    srv.run_out(table)
    settled = {name: s.until("settled") for name, s in sockets.items()}
    record = srv.client.get(f"/api/tables/{table}/rounds/{round_id}/fair", headers=srv.login("dan")).json()
    seed = record["seed"]
    assert seed and fair.commitment(seed) == commitment and fair.verify(record).ok
    assert record["result"] == fair.derive_pocket(seed, round_id, [["b1", "fay's luck"]])
    before = json.dumps(seen) + "".join(json.dumps(m) for s in sockets.values() for m in s.seen[:-2])
    assert seed not in before  # no message, view, recall, history or audit line showed it early
    assert all(m["fair"]["seed"] == seed for m in settled.values())
    after = json.dumps(collect(srv, table, names))
    assert seed in after  # recall (admin) carries it now
    srv.run_out(table)  # the result moment's pause: the next window opens
    opened = {name: s.until("betting_open") for name, s in sockets.items()}
    following = opened["fay"]["fair"]
    assert following["label"] != round_id and set(following) == {"label", "commitment"}
    for s in sockets.values():
        s.close()
    assert seed not in srv.log.read_text(errors="replace")
    unknown = srv.client.get(f"/api/tables/{table}/rounds/{table}.999/fair", headers=srv.login("fay"))
    assert_error(unknown, 404, "unknown_round")
    anonymous = srv.client.get(f"/api/tables/{table}/rounds/{round_id}/fair")
    assert anonymous.status_code == 401
