"""Sic bo rounds on a real ``croupier serve`` process: bets over REST, the round's events over the WebSocket, the
nets checked against the SB 6 paytable computed here from the dice, the wallets and the reconciliation after.

An RNG round (the dice drawn by the server) and a live round (the dealer reports a void roll — SB 3.3: the bets
stand, a new betting window opens — and then the dice), on SQLite and, when one answers, PostgreSQL. The casino's
clock is manual: the RNG window ends when the test moves the clock (``Server.run_out``), the live one when its dealer
rings the bell."""

from __future__ import annotations

from typing import Any

from server.support import ADMIN, Server

SINGLE = (1, 2, 3)  # SB 6: one, two or three dice showing the face
TOTALS = {4: 50, 17: 50, 5: 18, 16: 18, 6: 14, 15: 14, 7: 12, 14: 12, 8: 8, 13: 8, 9: 6, 10: 6, 11: 6, 12: 6}


def net(bet: dict[str, Any], dice: list[int]) -> int:
    """What ``bet`` wins (positive) or loses on ``dice`` under the statute's paytable (SB 5, SB 6)."""
    amount, kind, total = bet["amount"], bet["type"], sum(dice)
    triple = dice[0] == dice[1] == dice[2]
    if kind == "small":
        return amount if 4 <= total <= 10 and not triple else -amount
    if kind == "big":
        return amount if 11 <= total <= 17 and not triple else -amount
    if kind == "single":
        count = dice.count(bet["face"])
        return amount * SINGLE[count - 1] if count else -amount
    if kind == "total":
        return amount * TOTALS[bet["total"]] if total == bet["total"] else -amount
    if kind == "triple":
        return amount * 150 if triple and dice[0] == bet["face"] else -amount
    assert kind == "any_triple", kind
    return amount * 24 if triple else -amount


BETS = [
    {"type": "big", "amount": 100},
    {"type": "small", "amount": 50},
    {"type": "single", "face": 3, "amount": 20},
    {"type": "total", "total": 12, "amount": 10},
    {"type": "triple", "face": 4, "amount": 5},
    {"type": "any_triple", "amount": 5},
]


def _open(server: Server, table: str, **options: Any) -> None:
    body = {
        "table_id": table,
        "game": "sicbo",
        "betting_seconds": 10,
        "decision_seconds": 20,
        "result_display_seconds": 0,
        **options,
    }
    r = server.client.post("/api/tables", json=body, headers=server.login(ADMIN))
    assert r.status_code == 201, r.text


def _bet_all(server: Server, table: str, player: str, bets: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    placed = {}
    for bet in bets:
        r = server.client.post(f"/api/tables/{table}/bets", json=bet, headers=server.as_(player))
        assert r.status_code == 201, r.text
        answer = r.json()
        assert answer["amount"] == bet["amount"]
        placed[answer["ref"]] = bet
    return placed


def _check_settlement(
    server: Server, table: str, player: str, placed: dict[str, dict[str, Any]], settled: dict[str, Any]
) -> int:
    dice = settled["dice"]
    expected = {ref: net(bet, dice) for ref, bet in placed.items()}
    assert settled["nets"] == expected, (dice, settled["nets"], expected)
    total = sum(expected.values())
    assert settled["players"] == {player: total}
    rounds = server.client.get(f"/api/tables/{table}/rounds", headers=server.login(ADMIN)).json()
    record = next(r for r in rounds if r["round"] == settled["round"])
    assert record["status"] == "settled" and record["outcome"]["dice"] == dice, record
    meters = server.client.get(f"/api/tables/{table}/meters", headers=server.login(ADMIN)).json()
    assert meters["wagered"] == sum(b["amount"] for b in placed.values()) and meters["held"] == 0, meters
    assert meters["house_result"] == -total, meters
    rec = server.client.get("/api/reconciliation", headers=server.login(ADMIN)).json()
    assert rec["ok"], rec
    return total


def _rng_round(server: Server, table: str, player: str) -> None:
    server.add_account(player, credit=1000)
    _open(server, table)
    events = server.socket(table, player)
    try:
        placed = _bet_all(server, table, player, BETS)
        stake = sum(b["amount"] for b in BETS)
        assert server.wallet(player) == 1000 - stake
        wallet = server.client.get("/api/wallet", headers=server.login(player)).json()
        assert wallet["held"] == stake, wallet
        seen = [events.until("bet_placed")["ref"] for _ in BETS]
        assert seen == list(placed)
        server.run_out(table)
        events.until("betting_closed")
        result = events.until("result")
        dice = result["outcome"]["dice"]
        assert len(dice) == 3 and all(1 <= d <= 6 for d in dice), result
        settled = events.until("settled")
        assert settled["round"] == result["round"]
        total = _check_settlement(server, table, player, placed, {**settled, "dice": dice})
        assert server.wallet(player) == 1000 + total
        assert events.until("betting_open")["round"] != settled["round"]
    finally:
        events.close()


def _live_round(server: Server, table: str, player: str, dealer: str) -> None:
    server.add_account(dealer, role="dealer")
    server.add_account(player, credit=1000)
    _open(server, table, live=True, dealers=[dealer])
    events = server.socket(table, player)
    try:
        placed = _bet_all(server, table, player, BETS[:3])
        server.close_betting(table, dealer)
        events.until("betting_closed")
        two = server.client.post(f"/api/tables/{table}/results", json={"result": [1, 2]}, headers=server.as_(dealer))
        assert two.status_code == 422, two.text  # two dice are not a roll
        r = server.client.post(f"/api/tables/{table}/results", json={"result": "void"}, headers=server.as_(dealer))
        assert r.status_code == 200, r.text
        assert events.until("void_result")["rule"] == "SB 3.3"
        # SB 3.3: the bets stand and a new betting window opens, which takes more bets
        placed |= _bet_all(server, table, player, BETS[3:])
        assert server.wallet(player) == 1000 - sum(b["amount"] for b in BETS)
        server.close_betting(table, dealer)
        events.until("betting_closed")
        not_dealer = server.client.post(
            f"/api/tables/{table}/results", json={"result": [3, 4, 5]}, headers=server.as_(player)
        )
        assert not_dealer.status_code == 403, not_dealer.text
        dice = [3, 4, 5]
        r = server.client.post(f"/api/tables/{table}/results", json={"result": dice}, headers=server.as_(dealer))
        assert r.status_code == 200, r.text
        assert events.until("result")["outcome"]["dice"] == dice
        settled = events.until("settled")
        total = _check_settlement(server, table, player, placed, {**settled, "dice": dice})
        # big +100, small -50, single 3 (one die) +20, total 12 +60, triple 4 -5, any triple -5
        assert total == 120
        assert server.wallet(player) == 1000 + total
    finally:
        events.close()


def test_rng_sicbo_round(server: Server) -> None:
    _rng_round(server, "sb", "sam")


def test_live_sicbo_round_with_a_void_roll(server: Server) -> None:
    _live_round(server, "sblive", "sue", "dealer2")


def test_postgres_sicbo_rounds(postgres_server: Server) -> None:
    _rng_round(postgres_server, "sbpg", "sid")
    _live_round(postgres_server, "sbpglive", "sol", "dealer3")
