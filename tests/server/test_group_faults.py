"""Group commit under a crash: a real ``croupier serve`` takes bets from several WebSocket clients at once, so that
the casino's thread commits them in groups, and is killed with SIGKILL at the K-th ``bet_held`` boundary (the
test-only crash hook of :mod:`croupier.server.services`, run once a group is durable and before any of its bets is
answered). Restarted on the same database, every bet answered 201 before the kill is held exactly once, in the round
and under the reference it was answered with, and answers the same when sent again; a bet never answered is held
once or not at all (sent again, it answers as held or bets now); the reconciliation is ok and the money is
conserved to the unit once the rounds are settled — on SQLite and on PostgreSQL.

Since the kill comes after the K-th boundary's group commit, at least K bets are durable; more when the K-th bet's
group held bets after it (the test prints how many).

The server runs with a manual clock (``--manual-clock``): the betting window stays open while the bets arrive (none
is refused after a bell that a busy machine rang early), and the rounds settle when the test moves the clock."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from pgserver import fresh_database
from server.conftest import MANUAL_CLOCK
from server.support import ADMIN, PASSWORD
from server.test_faults import Proc, Zygote, serve_forked, wait_dead

TABLE = "G"
CLIENTS = 4
BETS = 30  # per client
BURST = 5  # sent at once
CRASH_AT = 45  # the K-th bet_held boundary
CREDIT = 10_000
STAKE = 10
BETTING_SECONDS = 3.0
START_TIMEOUT = 30.0
ANSWER_TIMEOUT = 20.0
MOVES = 10  # clock moves to settle the rounds with bets, at most


def players() -> list[str]:
    return [f"p{n}" for n in range(CLIENTS)]


class Life:
    """The server's lives on one database, forked from the zygote."""

    def __init__(self, zygote: Zygote, url: str, tmp: Path, client: httpx.Client) -> None:
        self.zygote, self.url, self.tmp, self.client = zygote, url, tmp, client
        self.lives = 0
        self.tokens: dict[str, str] = {}

    def croupier(self, argv: list[str]) -> None:
        pid = self.zygote.fork([*argv, "--database", self.url], cwd=self.tmp, log=self.tmp / "admin.log")
        assert wait_dead(pid, 60.0), "the croupier command hung"

    def start(self, env: dict[str, str] | None = None) -> Proc:
        self.lives += 1
        options = ("--command-rate", "1000", *MANUAL_CLOCK)
        proc = serve_forked(self.zygote, self.url, self.tmp, self.client, life=self.lives, env=env, options=options)
        assert proc is not None, (
            f"the server died while starting:\n{(self.tmp / f'server-{self.lives}.log').read_text()}"
        )
        return proc

    def auth(self, name: str, key: str | None = None) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {self.tokens[name]}"}
        return headers if key is None else {**headers, "Idempotency-Key": key}

    def set_up(self) -> None:
        self.croupier(["admin", "create-admin", ADMIN, "--password", PASSWORD])
        proc = self.start()
        try:
            r = proc.call("POST", "/api/login", json={"username": ADMIN, "password": PASSWORD})
            assert r.status_code == 200, r.text
            self.tokens[ADMIN] = r.json()["token"]
            for name in players():
                body = {"username": name, "password": PASSWORD, "role": "player"}
                r = proc.call("POST", "/api/accounts", json=body, headers=self.auth(ADMIN))
                assert r.status_code == 201, r.text
                r = proc.call(
                    "POST", f"/api/accounts/{name}/credit", json={"amount": CREDIT}, headers=self.auth(ADMIN, name)
                )
                assert r.status_code == 200, r.text
                r = proc.call("POST", "/api/login", json={"username": name, "password": PASSWORD})
                assert r.status_code == 200, r.text
                self.tokens[name] = r.json()["token"]  # stored: it outlives the restarts
            table = {
                "table_id": TABLE,
                "game": "roulette",
                "betting_seconds": BETTING_SECONDS,
                "result_display_seconds": 0,
            }
            r = proc.call("POST", "/api/tables", json=table, headers=self.auth(ADMIN))
            assert r.status_code == 201, r.text
        finally:
            proc.stop()


def bet_of(player: str, i: int) -> dict[str, Any]:
    kinds = ("red", "black", "odd", "even", "low", "high")
    return {"type": kinds[(i + int(player[1:])) % len(kinds)], "amount": STAKE + i % 3}


def key_of(player: str, i: int) -> str:
    return f"{player}-{i}"


def bettor(base: str, token: str, player: str, out: dict[str, dict[str, Any]], errors: list[str]) -> None:
    """Send this player's bets over the table's socket a burst at a time (each burst pipelined, the next sent once
    it is answered), until all are answered or the server dies."""
    try:
        with connect(f"{base.replace('http', 'ws')}/ws/tables/{TABLE}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "auth", "token": token}))
            assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
            deadline = time.monotonic() + ANSWER_TIMEOUT
            for start in range(0, BETS, BURST):
                burst = range(start, min(BETS, start + BURST))
                for i in burst:
                    ws.send(json.dumps({"type": "bet", "id": i, "key": key_of(player, i), "bet": bet_of(player, i)}))
                answered = 0
                while answered < len(burst):
                    message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
                    if message.get("type") == "answer":
                        answered += 1
                        out[key_of(player, message["id"])] = message
    except (ConnectionClosed, OSError, TimeoutError):
        pass  # the server was killed
    except Exception as error:
        errors.append(f"{player}: {error!r}")


def held_bets(life: Life, proc: Proc) -> tuple[list[dict[str, Any]], Counter[str]]:
    """Every round's stored bets, and how many times each bet key is held."""
    r = proc.call("GET", f"/api/tables/{TABLE}/rounds", params={"last": 500}, headers=life.auth(ADMIN))
    assert r.status_code == 200, r.text
    rounds: list[dict[str, Any]] = r.json()
    held = Counter(b["key"] for rec in rounds for b in rec["bets"] if b["status"] == "held")
    return rounds, held


def run(zygote: Zygote, url: str, tmp: Path, client: httpx.Client) -> None:
    life = Life(zygote, url, tmp, client)
    life.set_up()
    count_file = tmp / "boundaries.txt"
    proc = life.start({"CROUPIER_CRASH_AT": f"bet_held:{CRASH_AT}", "CROUPIER_CRASH_COUNT_FILE": str(count_file)})
    answers: dict[str, dict[str, Any]] = {}
    errors: list[str] = []
    threads = [threading.Thread(target=bettor, args=(proc.base, life.tokens[p], p, answers, errors)) for p in players()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(ANSWER_TIMEOUT + 15)
    assert not errors, errors
    assert wait_dead(proc.pid, 10.0), "the server was not killed at its crash point"
    labels = count_file.read_text().split()
    assert labels.count("bet_held") == CRASH_AT and labels[-1] == "bet_held", labels
    placed = {k: a["result"] for k, a in answers.items() if a["status"] == 201}
    refused = {k: a for k, a in answers.items() if a["status"] != 201}
    assert all(a["status"] == 409 and a["error"] == "illegal_action" for a in refused.values()), refused
    assert 0 < len(placed) < CRASH_AT, "answered before durable, or nothing answered at all"

    proc = life.start()  # clean, on the same database
    try:
        rounds, held = held_bets(life, proc)
        stored = {b["key"]: (rec["round"], b["ref"]) for rec in rounds for b in rec["bets"] if b["status"] == "held"}
        assert all(n == 1 for n in held.values()), held
        for key, result in placed.items():
            player = key.split("-")[0]
            assert held[f"bet:{player}:{key}"] == 1, (key, "answered 201 but not held")
            assert stored[f"bet:{player}:{key}"] == (result["round"], result["ref"]), key
        durable = sum(held.values())
        assert durable >= CRASH_AT, (durable, CRASH_AT)
        backend = url.split(":", maxsplit=1)[0]
        print(f"\n{backend}: {len(placed)} bets answered, {durable} durable, killed at bet_held:{CRASH_AT}")

        # The clients send every bet again under its key: an answered one answers the same; any other is held once.
        again: dict[str, dict[str, Any]] = {}
        for p in players():
            for i in range(BETS):
                key = key_of(p, i)
                r = proc.call("POST", f"/api/tables/{TABLE}/bets", json=bet_of(p, i), headers=life.auth(p, key))
                if key in placed or f"bet:{p}:{key}" in stored:
                    assert r.status_code == 201, (key, r.text)
                    assert (r.json()["round"], r.json()["ref"]) == stored[f"bet:{p}:{key}"], key
                    if key in placed:
                        assert r.json() == placed[key], key
                else:
                    assert r.status_code in (201, 409), (key, r.text)
                if r.status_code == 201:
                    again[key] = r.json()
        rounds, held = held_bets(life, proc)
        assert all(n == 1 for n in held.values()), held
        assert {k.split(":", 2)[2] for k in held} == set(again)

        # Money: once every round with bets is settled, nothing is held and every unit is accounted for.
        for _ in range(MOVES):
            rounds, _ = held_bets(life, proc)
            if all(rec["status"] in ("settled", "voided") for rec in rounds if rec["bets"]):
                break
            moved = proc.call("POST", "/api/testing/clock", json={"advance": BETTING_SECONDS}, headers=life.auth(ADMIN))
            assert moved.status_code == 200, moved.text
        else:
            pytest.fail(f"unsettled: {[(rec['round'], rec['status']) for rec in rounds]}")
        rec = proc.call("GET", "/api/reconciliation", headers=life.auth(ADMIN)).json()
        assert rec["ok"], rec
        assert rec["all"]["held"] == 0, rec
        wallets = [proc.call("GET", f"/api/accounts/{p}/wallet", headers=life.auth(ADMIN)).json() for p in players()]
        assert all(w["held"] == 0 for w in wallets), wallets
        total = sum(w["balance"] for w in wallets) + rec["all"]["house_result"]
        assert total == CLIENTS * CREDIT, (wallets, rec["all"])
        assert rec["all"]["wagered"] == sum(bet_of(k.split("-")[0], int(k.split("-")[1]))["amount"] for k in again)
    finally:
        proc.stop()


def test_sqlite_answered_bets_survive_a_kill_inside_group_commits(
    zygote: Zygote, client: httpx.Client, tmp_path: Path
) -> None:
    run(zygote, f"sqlite:///{tmp_path / 'croupier.sqlite3'}", tmp_path, client)


def test_postgres_answered_bets_survive_a_kill_inside_group_commits(
    zygote: Zygote, client: httpx.Client, tmp_path: Path
) -> None:
    with fresh_database("croupier_group_faults", drivername="postgresql") as url:
        run(zygote, url, tmp_path, client)
