"""A real ``croupier serve`` process on loopback: rounds over REST with their events over the WebSocket, on SQLite
and (when one answers) PostgreSQL; refusals answer 4xx in the error shape and change no wallet. The casino's clock
is manual: an RNG window ends when the test moves the clock (``Server.run_out``), a live one when its dealer rings the
bell, never while a bet is on its way."""

from __future__ import annotations

from typing import Any

from server.support import ADMIN, Server, assert_error


def _open(server: Server, table: str, game: str, **options: Any) -> None:
    body = {
        "table_id": table,
        "game": game,
        "betting_seconds": 10,
        "decision_seconds": 20,
        "result_display_seconds": 0,
        **options,
    }
    r = server.client.post("/api/tables", json=body, headers=server.login(ADMIN))
    assert r.status_code == 201, r.text


def _roulette_round(server: Server, table: str, player: str) -> None:
    server.add_account(player, credit=1000)
    _open(server, table, "roulette")
    events = server.socket(table, player)
    try:
        r = server.client.post(
            f"/api/tables/{table}/bets", json={"type": "red", "amount": 100}, headers=server.as_(player)
        )
        assert r.status_code == 201, r.text
        assert server.wallet(player) == 900
        placed = events.until("bet_placed")
        assert placed["player"] == player and placed["round"] == r.json()["round"]
        server.run_out(table)
        events.until("betting_closed")
        result = events.until("result")
        assert 0 <= result["outcome"]["pocket"] <= 36
        settled = events.until("settled")
        net = settled["players"][player]
        assert net in (-100, 100)
        assert server.wallet(player) == 1000 + net
    finally:
        events.close()
    rec = server.client.get("/api/reconciliation", headers=server.login(ADMIN)).json()
    assert rec["ok"], rec


def test_rng_roulette_round(server: Server) -> None:
    _roulette_round(server, "roul", "ana")


def test_blackjack_round_with_decisions(server: Server) -> None:
    server.add_account("cy", credit=1000)
    server.add_account("di", credit=1000)
    _open(server, "bj", "blackjack")
    events = server.socket("bj", "cy")
    try:
        r = server.client.post("/api/tables/bj/bets", json={"box": 1, "main": 100}, headers=server.as_("cy"))
        assert r.status_code == 201, r.text
        server.run_out("bj")  # the bell and the deal; no decision's timer runs out meanwhile
        answered = 0
        while True:
            event = events.until(lambda e: e["type"] == "settled" or (e["type"] == "decision" and "actions" in e))
            if event["type"] == "settled":
                break
            assert event["player"] == "cy", event
            if answered == 0:  # another player may not answer cy's decision
                before = (server.wallet("cy"), server.wallet("di"))
                body = {"action": event["actions"][0], "box": event["box"]}
                refused = server.client.post("/api/tables/bj/actions", json=body, headers=server.as_("di"))
                assert 400 <= refused.status_code < 500
                assert_error(refused, refused.status_code)
                assert (server.wallet("cy"), server.wallet("di")) == before
            actions = event["actions"]
            choice = next(
                a for a in ("hit" if answered == 0 else "stand", "stand", "decline", *actions) if a in actions
            )
            body = {"action": choice, "box": event["box"], "hand": event["hand"]}
            done = server.client.post("/api/tables/bj/actions", json=body, headers=server.as_("cy"))
            assert done.status_code == 200, done.text
            answered += 1
        net = event["players"]["cy"]
        assert server.wallet("cy") == 1000 + net
        assert server.wallet("di") == 1000
        cards = [e for e in events.seen if e["type"] == "card"]
        assert cards, events.seen
    finally:
        events.close()


def test_live_round_refusals_and_void(server: Server) -> None:
    server.add_account("dealer1", role="dealer")
    server.add_account("ed", credit=300)
    server.add_account("fay", credit=300)
    _open(server, "live", "roulette", live=True, dealers=["dealer1"])
    events = server.socket("live", "ed")
    try:
        r = server.client.post("/api/tables/live/bets", json={"type": "odd", "amount": 200}, headers=server.as_("ed"))
        assert r.status_code == 201, r.text
        before = (server.wallet("ed"), server.wallet("fay"))
        assert before == (100, 300)
        over = server.client.post(
            "/api/tables/live/bets", json={"type": "odd", "amount": 101}, headers=server.as_("ed")
        )
        assert_error(over, 409, "insufficient_funds")
        wrong_role = server.client.post(
            "/api/tables/live/bets", json={"type": "odd", "amount": 1}, headers=server.as_("dealer1")
        )
        assert_error(wrong_role, 403, "forbidden")
        key = "same-key-1"
        first = server.client.post(
            "/api/tables/live/bets", json={"type": "red", "amount": 10}, headers=server.as_("fay", key=key)
        )
        assert first.status_code == 201, first.text
        other = server.client.post(
            "/api/tables/live/bets", json={"type": "black", "amount": 10}, headers=server.as_("fay", key=key)
        )
        assert_error(other, 409, "idempotency_conflict")
        assert (server.wallet("ed"), server.wallet("fay")) == (100, 290)
        server.close_betting("live", "dealer1")
        events.until("betting_closed")
        late = server.client.post(
            "/api/tables/live/bets", json={"type": "even", "amount": 10}, headers=server.as_("fay")
        )
        assert assert_error(late, 409, "illegal_action")["rule"] == "RO 3"
        not_dealer = server.client.post("/api/tables/live/void", json={"reason": "x"}, headers=server.as_("ed"))
        assert_error(not_dealer, 403, "forbidden")
        assert (server.wallet("ed"), server.wallet("fay")) == (100, 290)
        voided = server.client.post(
            "/api/tables/live/void", json={"reason": "the ball left the wheel"}, headers=server.as_("dealer1")
        )
        assert voided.status_code == 200, voided.text
        assert events.until("void")["rule"] == "RO 2.2"
        assert (server.wallet("ed"), server.wallet("fay")) == (300, 300)
    finally:
        events.close()
    audit = server.client.get("/api/audit", headers=server.login(ADMIN)).json()
    assert any(a["action"] == "void" for a in audit)


def test_postgres_smoke(postgres_server: Server) -> None:
    _roulette_round(postgres_server, "pg", "gus")
