"""A real ``croupier serve`` process killed with SIGKILL at every persistence boundary of a round, then restarted on
the same database: every round ends settled or voided (or resumed, then finished), the money is conserved to the
unit, and no bet is posted twice — on SQLite and on PostgreSQL.

The kill is the server's test-only crash hook (``CROUPIER_CRASH_AT`` / ``CROUPIER_CRASH_COUNT_FILE``, see
:mod:`croupier.server.services`). A *count run* first plays one round with only the count file set, which lists the
round's boundaries (the start-up recovery's two, the bet's three, the bell, the result or the answers, the
settlement's three, the next window's); then, for each boundary in turn, a server is started with the crash point
set, a round is driven over REST until the process dies, and a clean server (no variable) is started on the same
database. The client then does what a real client does after a lost connection: it sends the bet (and an answer in
flight) again with the same ``Idempotency-Key``, and plays on until its round is over. Then the ledger is checked.

Every server runs with a manual clock (``--manual-clock``): a window ends, and a timer runs out, only when the test
moves the clock (when it waits for the round, never while a bet or an answer is on its way), so the boundaries come
in the same order on a busy machine as on an idle one, and the player answers every decision of its own.

Roulette's boundaries come in a fixed order, so its crash points are indices (``"7"``) and the label each run died
at must be the count run's. Blackjack's depend on the cards (an insurance offer adds an answer; a natural has none),
so its crash points are ``"LABEL:N"`` of a typical round (one answer; the count run is repeated until it has one),
and a run that never reaches its point (the round finished and the server lived) is played again, up to
:data:`TRIES` times.

Every server of a sequence is a ``croupier serve`` (the CLI's own entry point) forked from a *zygote*, a process that
imported croupier, SQLAlchemy, FastAPI and uvicorn once: a server answers in a few tenths of a second instead of
more than one, which keeps the four sequences (2 games x 2 databases, ~50 server lives each) within a minute or so.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.engine import make_url

from pgserver import fresh_database
from server.conftest import MANUAL_CLOCK, free_port
from server.support import ADMIN, PASSWORD

TABLE = "T"
PLAYER = "pat"
CREDIT = 100_000
STAKE = 100
BETTING_SECONDS = 0.3
DECISION_SECONDS = 5.0
START_TIMEOUT = 30.0
MOVES = 50  # requests (bets, answers, clock moves) to finish a round, at most
TRIES = 4
FINISHED = ("settled", "voided")

ZYGOTE = r"""
import json, os, signal, sys, traceback
import croupier.cli, croupier.server.app, croupier.server.compose, croupier.server.services
import croupier.storage, croupier.storage.casino_store
import uvicorn, uvicorn.config, uvicorn.server, uvicorn.lifespan.on
for name in ("uvicorn.loops.asyncio", "uvicorn.protocols.http.h11_impl", "uvicorn.protocols.http.httptools_impl",
             "uvicorn.protocols.websockets.websockets_sansio_impl", "psycopg"):
    try:
        __import__(name)
    except ImportError:
        pass
signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # a child that dies is reaped at once
print("ready", flush=True)
for line in sys.stdin:
    req = json.loads(line)
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            fd = os.open(req["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
            os.chdir(req["cwd"])
            os.environ.clear()
            os.environ.update(req["env"])
            sys.argv = ["croupier", *req["argv"]]
            croupier.cli.main()
            code = 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    print(pid, flush=True)
"""


class Zygote:
    """A process with croupier's server imported that forks a ``croupier`` command on request."""

    def __init__(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CROUPIER_CRASH")}
        self.process = subprocess.Popen(
            [sys.executable, "-c", ZYGOTE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True
        )
        assert self.process.stdout is not None and self.process.stdin is not None
        assert self.process.stdout.readline().strip() == "ready"
        self.base_env = env

    def fork(self, argv: list[str], *, cwd: Path, log: Path, env: dict[str, str] | None = None) -> int:
        """Run ``croupier ARGV`` in a forked child; its pid."""
        assert self.process.stdin is not None and self.process.stdout is not None
        request = {"argv": argv, "cwd": str(cwd), "log": str(log), "env": {**self.base_env, **(env or {})}}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return int(self.process.stdout.readline())

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_dead(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def serve_forked(
    zygote: Zygote,
    url: str,
    tmp: Path,
    client: httpx.Client,
    *,
    life: int,
    env: dict[str, str] | None = None,
    options: tuple[str, ...] = (),
) -> Proc | None:
    """``croupier serve`` on ``url`` forked from ``zygote`` (its log ``tmp/server-<life>.log``), once it answers;
    None when it died while starting (a crash point in recovery)."""
    port = free_port()
    log = tmp / f"server-{life}.log"
    argv = ["serve", "--host", "127.0.0.1", "--port", str(port), "--database", url, *options]
    pid = zygote.fork(argv, cwd=tmp, log=log, env=env)
    proc = Proc(pid=pid, base=f"http://127.0.0.1:{port}", log=log, client=client)
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if not alive(pid):
            return None
        try:
            if client.get(f"{proc.base}/api/health", timeout=2).status_code == 200:
                return proc
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            proc.stop()
            pytest.fail(f"the server did not answer in {START_TIMEOUT} s:\n{log.read_text()}")
        time.sleep(0.02)


class Died(Exception):
    """The server process is gone (killed at its crash point)."""


@dataclass
class Proc:
    """One server life: its pid, URL and log."""

    pid: int
    base: str
    log: Path
    client: httpx.Client

    def call(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """A request; ``Died`` when the connection fails (the process is killed or gone)."""
        try:
            return self.client.request(method, self.base + path, **kwargs)
        except httpx.TransportError as error:
            if wait_dead(self.pid, 5.0):
                raise Died from error
            raise

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it lingers."""
        if alive(self.pid):
            os.kill(self.pid, signal.SIGTERM)
            if not wait_dead(self.pid, 10.0):
                os.kill(self.pid, signal.SIGKILL)
                wait_dead(self.pid, 10.0)


@dataclass
class Sequence:
    """One game's crash sequence on one database."""

    zygote: Zygote
    url: str
    tmp: Path
    game: str
    client: httpx.Client
    tokens: dict[str, str] = field(default_factory=dict)
    lives: int = 0
    recoveries: Counter[str] = field(default_factory=Counter)
    died_at: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)

    # -- processes -----------------------------------------------------------------------------------------------

    def croupier(self, argv: list[str]) -> None:
        """A ``croupier`` command to its end (exit 0)."""
        log = self.tmp / "admin.log"
        pid = self.zygote.fork([*argv, "--database", self.url], cwd=self.tmp, log=log)
        assert wait_dead(pid, 60.0), "the croupier command hung"

    def start(self, env: dict[str, str] | None = None) -> Proc | None:
        """A server on the database, answering; None when it died while starting (a crash point in recovery)."""
        self.lives += 1
        return serve_forked(
            self.zygote, self.url, self.tmp, self.client, life=self.lives, env=env, options=MANUAL_CLOCK
        )

    def auth(self, name: str, key: str | None = None) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {self.tokens[name]}"}
        if key is not None:
            headers["Idempotency-Key"] = key
        return headers

    # -- set-up --------------------------------------------------------------------------------------------------

    def set_up(self) -> None:
        """The admin (by the CLI), the player with his money, the table; sessions are stored, so they outlive
        every restart and the crash runs log nobody in."""
        self.croupier(["admin", "create-admin", ADMIN, "--password", PASSWORD])
        proc = self.start()
        assert proc is not None
        try:
            for name in (ADMIN, PLAYER):
                if name == PLAYER:
                    body = {"username": PLAYER, "password": PASSWORD, "role": "player"}
                    r = proc.call("POST", "/api/accounts", json=body, headers=self.auth(ADMIN))
                    assert r.status_code == 201, r.text
                    r = proc.call(
                        "POST",
                        f"/api/accounts/{PLAYER}/credit",
                        json={"amount": CREDIT},
                        headers=self.auth(ADMIN, "credit-1"),
                    )
                    assert r.status_code == 200, r.text
                r = proc.call("POST", "/api/login", json={"username": name, "password": PASSWORD})
                assert r.status_code == 200, r.text
                self.tokens[name] = r.json()["token"]
            table = {
                "table_id": TABLE,
                "game": self.game,
                "betting_seconds": BETTING_SECONDS,
                "decision_seconds": DECISION_SECONDS,
                "result_display_seconds": 0,  # rounds follow one another at once (no result moment)
            }
            r = proc.call("POST", "/api/tables", json=table, headers=self.auth(ADMIN))
            assert r.status_code == 201, r.text
        finally:
            proc.stop()

    # -- a round -------------------------------------------------------------------------------------------------

    def advance(self, proc: Proc) -> None:
        """Move the clock on by the longest timer: the window's end, the result and the settlement, or a decision's
        default (a decision it opens waits for its own full timer). ``Died`` when the server dies."""
        r = proc.call("POST", "/api/testing/clock", json={"advance": DECISION_SECONDS}, headers=self.auth(ADMIN))
        assert r.status_code == 200, r.text

    def bet(self) -> dict[str, Any]:
        return {"type": "red", "amount": STAKE} if self.game == "roulette" else {"box": 1, "main": STAKE}

    def play(self, proc: Proc, key: str, state: dict[str, Any]) -> None:
        """Bet under ``key`` (again, after a crash: same key, same bet), answer every decision (``stand`` or
        ``decline``; an answer in flight is sent again with its key), until the bet's round is over. ``state``
        keeps what the client knows across server lives. ``Died`` when the server dies."""
        if (pending := state.pop("act", None)) is not None:
            r = proc.call(
                "POST", f"/api/tables/{TABLE}/actions", json=pending[1], headers=self.auth(PLAYER, pending[0])
            )
            assert r.status_code in (200, 409), r.text  # 409: the decision was answered or voided meanwhile
        for _ in range(MOVES):
            r = proc.call("POST", f"/api/tables/{TABLE}/bets", json=self.bet(), headers=self.auth(PLAYER, key))
            if r.status_code == 201:
                if "answer" in state:
                    assert r.json() == state["answer"], "the same key answered differently"
                state["answer"] = r.json()
                break
            # A round of before the crash is still in play (resumed by the restart): its timer runs out.
            assert r.status_code == 409 and r.json()["error"] == "illegal_action", r.text
            self.advance(proc)
        else:
            pytest.fail("no betting window opened")
        round_id = state["answer"]["round"]
        acts = 0
        for _ in range(MOVES):
            r = proc.call("GET", f"/api/tables/{TABLE}", headers=self.auth(PLAYER))
            assert r.status_code == 200, r.text
            view = r.json()
            if view["round"] != round_id:
                return  # the next window is open: the round is over (checked in ``check``)
            turn = (view.get("view") or {}).get("turn") if self.game == "blackjack" else None
            if turn and turn.get("player") == PLAYER and turn.get("actions"):
                actions = turn["actions"]
                choice = next((a for a in ("stand", "decline") if a in actions), actions[0])
                body = {"action": choice, "box": turn["box"], "hand": turn["hand"]}
                acts += 1
                act_key = f"{key}-{uuid.uuid4().hex[:8]}"
                state["act"] = (act_key, body)
                r = proc.call("POST", f"/api/tables/{TABLE}/actions", json=body, headers=self.auth(PLAYER, act_key))
                state.pop("act")
                assert r.status_code == 200, r.text  # no timer answers first: the clock stands still
                continue
            self.advance(proc)  # the bell, the result and the settlement, or another timer's default
        pytest.fail(f"round {round_id} did not finish:\n{proc.log.read_text()}")

    def check(self, proc: Proc, keys: list[str]) -> None:
        """Every round but the open window is settled or voided; money conserved; each key held once."""
        r = proc.call("GET", f"/api/tables/{TABLE}/rounds", params={"last": 500}, headers=self.auth(ADMIN))
        assert r.status_code == 200, r.text
        rounds = r.json()
        *done, current = rounds
        for rec in done:
            assert rec["status"] in FINISHED, (rec["round"], rec["status"])
        assert current["status"] == "betting" and not current["bets"], current
        held = Counter(b["key"] for rec in rounds for b in rec["bets"] if b["status"] == "held")
        for key in keys:
            assert held[f"bet:{PLAYER}:{key}"] == 1, (key, held)  # posted once, and not lost
        assert all(n == 1 for n in held.values()), held
        rec = proc.call("GET", "/api/reconciliation", headers=self.auth(ADMIN)).json()
        assert rec["ok"], rec
        wallet = proc.call("GET", f"/api/accounts/{PLAYER}/wallet", headers=self.auth(ADMIN)).json()
        assert wallet["held"] == 0, wallet
        assert wallet["balance"] + wallet["held"] + rec["all"]["house_result"] == CREDIT, (wallet, rec["all"])
        assert rec["all"]["held"] == 0, rec

    def recovered(self, proc: Proc, since: str, round_id: str) -> None:
        """Tally how the restart recovered the bet's round (its last ``recovery`` audit since ``since``)."""
        r = proc.call("GET", "/api/audit", params={"since": since}, headers=self.auth(ADMIN))
        assert r.status_code == 200, r.text
        found = [
            a["detail"]["status"] for a in r.json() if a["action"] == "recovery" and a["detail"]["round"] == round_id
        ]
        self.recoveries[found[-1] if found else "not recovered (no bet stored yet)"] += 1

    # -- the runs ------------------------------------------------------------------------------------------------

    def count_run(self) -> list[str]:
        """One round with the count file set: the labels of its boundaries, start-up recovery included."""
        key = f"count{len(self.keys)}"
        count = self.tmp / f"{key}.txt"
        proc = self.start({"CROUPIER_CRASH_COUNT_FILE": str(count)})
        assert proc is not None
        try:
            self.play(proc, key, {})
        finally:
            proc.stop()
        labels = count.read_text().split()
        self.keys.append(key)
        proc = self.start()
        assert proc is not None
        try:
            self.check(proc, self.keys)
        finally:
            proc.stop()
        return labels

    def crash_run(self, point: str, key: str, expected: str | None) -> bool:
        """Start with the crash point set, play until the process dies, restart clean, play on, check. False when
        the point was not reached (the server lived through the round)."""
        count = self.tmp / f"count-{key}.txt"
        state: dict[str, Any] = {}
        env = {"CROUPIER_CRASH_AT": point, "CROUPIER_CRASH_COUNT_FILE": str(count)}
        since = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(time.time() - 1))
        proc = self.start(env)
        if proc is not None:
            with contextlib.suppress(Died):
                self.play(proc, key, state)
            if alive(proc.pid):  # the round finished first
                proc.stop()
                return False
        died = count.read_text().split()[-1]
        if expected is not None:
            assert died == expected, (point, died, expected)
        self.died_at.append(died)
        proc = self.start()
        assert proc is not None, "the clean restart died"
        try:
            self.play(proc, key, state)  # the client's retry: the same key answers the same, or bets now
            self.recovered(proc, since, state["answer"]["round"])
            self.check(proc, [*self.keys, key])
        finally:
            proc.stop()
        self.keys.append(key)
        return True


def occurrences(labels: list[str]) -> list[str]:
    """``["a", "b", "a"]`` → ``["a:1", "b:1", "a:2"]``."""
    seen: Counter[str] = Counter()
    out = []
    for label in labels:
        seen[label] += 1
        out.append(f"{label}:{seen[label]}")
    return out


def run_sequence(seq: Sequence) -> None:
    seq.set_up()
    labels = seq.count_run()
    for _ in range(TRIES):  # blackjack: count a typical round, one answer (no natural, no insurance offer)
        if seq.game != "blackjack" or labels.count("act") == 1:
            break
        labels = seq.count_run()
    else:
        pytest.fail(f"no typical blackjack round in {TRIES + 1} count runs: {labels}")
    assert len(labels) >= 10, labels
    missed = []
    if seq.game == "roulette":
        for k, label in enumerate(labels, start=1):
            assert seq.crash_run(str(k), f"k{k}", label), f"boundary {k} ({label}) was not reached"
    else:
        for point in occurrences(labels):
            if not any(seq.crash_run(point, f"{point.replace(':', '-')}-{t}", None) for t in range(TRIES)):
                missed.append(point)
    assert not missed, f"never reached in {TRIES} rounds: {missed}"
    assert sorted(seq.died_at) == sorted(labels), (seq.died_at, labels)
    print(
        f"\n{seq.game} on {make_url(seq.url).get_backend_name()}: {len(labels)} boundaries {labels}; "
        f"{seq.lives} server lives; recovery statuses {dict(seq.recoveries)}"
    )


@pytest.mark.parametrize("game", ["roulette", "blackjack"])
def test_sqlite_crash_at_every_boundary(zygote: Zygote, client: httpx.Client, tmp_path: Path, game: str) -> None:
    url = f"sqlite:///{tmp_path / 'croupier.sqlite3'}"
    run_sequence(Sequence(zygote=zygote, url=url, tmp=tmp_path, game=game, client=client))


@pytest.mark.parametrize("game", ["roulette", "blackjack"])
def test_postgres_crash_at_every_boundary(zygote: Zygote, client: httpx.Client, tmp_path: Path, game: str) -> None:
    """The same loop, every boundary, on a fresh PostgreSQL database (dropped afterwards)."""
    with fresh_database("croupier_faults", drivername="postgresql") as url:
        run_sequence(Sequence(zygote=zygote, url=url, tmp=tmp_path, game=game, client=client))
