"""Load benchmark of the table server (issue 5; not a test).

Starts its own ``croupier serve`` on a fresh SQLite database on loopback, bootstraps an admin, opens RNG roulette
tables with 2 s betting windows, one after another a share of a window apart (as a casino's tables open: their bells
do not all ring at once; ``--aligned`` opens them together, so that every table settles in the same instant each
round, the worst case), creates N players with money, logs every player in (a few at a time, as the server's login
door allows) and opens its WebSocket (its first message authenticates it), then runs the N players concurrently for
S seconds (the clock starts once all are connected): each keeps its WebSocket on its
table (the events are read and counted) and places bets one after another, each with its own idempotency key, over
that WebSocket (the socket's commands; ``--rest`` sends them as ``POST /api/tables/{id}/bets`` instead). Then
it waits for the open rounds to settle and checks the ledger: the money credited must equal the players'
wallets plus the house's result, to the unit.

The last line printed is ``bets_per_s=… p50_ms=… p99_ms=… units_lost=…`` (bets accepted per second, the
latency of a bet request at the 50th and 99th percentile, and the units the ledger cannot account for).

The WebSocket is opened with ``?batch=true`` (one message per poll with the events of that poll; ``--unbatched``
reads one message per event instead). A batch is counted (its events' ``"seq":`` marks), not decoded: the load
generator shares the machine with the server, and decoding some 25,000 events a second would slow the clock it
times the answers with. The server's CPU is its process's and the casino's process's together.
``--command-rate R`` starts the server with ``croupier serve --command-rate R``
(the per-account command limit; default 20/s, the production setting): a figure measured with it raised is not the
production figure, and the last line then says ``command_rate=R``.

Run: ``.venv/bin/python bench/server_load.py [--seconds S] [--players N] [--tables T] [--unbatched] [--rest]
[--command-rate R] [--rate B] [--aligned]``. The load generator runs on uvloop where it is installed (as the
server does).

Each player bets as fast as its answers come (a closed loop: the server is saturated, and the latency is then mostly
the queue of the other players' bets), or, with ``--rate B``, on a schedule of B bets a second (the n-th bet is sent
at n/B seconds, or as soon as the previous one is answered if that is later): the latency of a bet at a given
offered load, and the last line then says ``rate=B``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

ADMIN, PASSWORD = "boss", "load test password"
BATCH_PREFIX = '{"type":"events",'  # how the server's batched event messages begin (croupier.server.ws)
EVENT_MARK = '"seq":'  # once in each event (its number on the table)
CREDIT = 10_000_000
STAKE = 10
BETTING_SECONDS = 2.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cli(*args: str, database: str) -> list[str]:
    return [sys.executable, "-c", "from croupier.cli import main; main()", *args, "--database", database]


async def wait_ready(client: httpx.AsyncClient, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.TransportError):
            if (await client.get("/api/health")).status_code == 200:
                return
        await asyncio.sleep(0.2)
    raise SystemExit("the server did not start")


async def login(client: httpx.AsyncClient, name: str) -> dict[str, str]:
    # The server checks a few passwords at a time and answers the others 429 with Retry-After (issue 13): try again.
    while (r := await client.post("/api/login", json={"username": name, "password": PASSWORD})).status_code == 429:
        await asyncio.sleep(float(r.headers.get("Retry-After", "1")) * random.uniform(0.5, 1.0))
    r.raise_for_status()
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def login_all(client: httpx.AsyncClient, names: list[str], *, at_once: int = 3) -> dict[str, dict[str, str]]:
    """Every name's session headers, ``at_once`` logins at a time (the server checks a few passwords at once and
    answers the others 429 at once: croupier.server.logins)."""
    gate = asyncio.Semaphore(at_once)

    async def one(name: str) -> dict[str, str]:
        async with gate:
            return await login(client, name)

    return dict(zip(names, await asyncio.gather(*(one(n) for n in names)), strict=True))


async def open_socket(ws_base: str, table: str, headers: dict[str, str], *, batch: bool) -> Any:
    """The table's WebSocket, authenticated by its first message (the token never goes in the URL)."""
    token = headers["Authorization"].removeprefix("Bearer ")
    ws = await websockets.connect(f"{ws_base}/ws/tables/{table}" + ("?batch=true" if batch else ""), compression=None)
    await ws.send(orjson.dumps({"type": "auth", "token": token}).decode())
    return ws


async def player(
    client: httpx.AsyncClient,
    ws_base: str,
    name: str,
    headers: dict[str, str],
    table: str,
    *,
    ready: asyncio.Barrier,
    clock: dict[str, float],
    seconds: float,
    latencies: list[float],
    batch: bool,
    rest: bool,
    server_pid: int,
    pace: float,
) -> tuple[int, int, int]:
    """Open the table's WebSocket (the player logged in before: logins, a deliberately slow Argon2 verification
    each, are not part of the measured window), wait for every player to be ready, then bet for ``seconds``; (bets
    accepted, bets refused, events seen)."""
    accepted = refused = events = 0
    answers: dict[int, asyncio.Future[dict[str, Any]]] = {}
    async with await open_socket(ws_base, table, headers, batch=batch) as ws:

        async def read() -> None:
            nonlocal events
            with contextlib.suppress(websockets.ConnectionClosed):
                async for message in ws:
                    if isinstance(message, str) and message.startswith(BATCH_PREFIX):
                        # A batch of events is counted, not decoded: the load generator shares the machine with
                        # the server, and decoding 25,000 events a second would slow its own answers' clock.
                        events += message.count(EVENT_MARK)
                        continue
                    shown = orjson.loads(message)
                    if shown.get("type") == "answer":
                        answers.pop(shown["id"]).set_result(shown)
                    else:
                        events += 1

        async def bet_over_socket(n: int, body: dict[str, Any]) -> tuple[int, float]:
            answers[n] = asyncio.get_running_loop().create_future()
            await ws.send(orjson.dumps({"type": "bet", "id": n, "key": uuid.uuid4().hex, "bet": body}).decode())
            answer = await answers[n]
            return int(answer["status"]), float(answer.get("retry_after", 0.05))

        async def bet_over_rest(body: dict[str, Any]) -> tuple[int, float]:
            r = await client.post(
                f"/api/tables/{table}/bets", json=body, headers={**headers, "Idempotency-Key": uuid.uuid4().hex}
            )
            return r.status_code, float(r.headers.get("Retry-After", "0.05"))

        reader = asyncio.create_task(read())
        await ready.wait()
        if "start" not in clock:
            clock["cpu"] = cpu_seconds(server_pid)
            clock["own_cpu"] = time.process_time()
            print(f"measuring for {seconds:g} s (server pid {server_pid})", file=sys.stderr, flush=True)
        stop = clock.setdefault("start", time.monotonic()) + seconds
        n = 0
        begin = time.monotonic() + (random.random() / pace if pace else 0.0)  # players do not bet in step
        while time.monotonic() < stop:
            n += 1
            if pace:  # an open schedule: the n-th bet is due n / pace seconds in (never two at once to catch up)
                await asyncio.sleep(max(0.0, begin + (n - 1) / pace - time.monotonic()))
            body = {"type": "red" if accepted % 2 else "black", "amount": STAKE}
            t0 = time.perf_counter()
            status, retry_after = await (bet_over_rest(body) if rest else bet_over_socket(n, body))
            if status == 201:
                latencies.append(time.perf_counter() - t0)
                accepted += 1
            elif status == 429:
                await asyncio.sleep(retry_after)
                refused += 1
            else:
                refused += 1  # between rounds: betting is closed (RO 3)
                await asyncio.sleep(0.01)
        reader.cancel()
    return accepted, refused, events


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) the process ``pid`` and its children (the casino's process) have used (Linux
    ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(cpu_seconds(int(child)) for child in children)


async def run(
    seconds: float,
    players: int,
    tables: int,
    base: str,
    *,
    batch: bool,
    rest: bool,
    server_pid: int,
    pace: float,
    aligned: bool,
) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=players + 10, max_keepalive_connections=players + 10)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as client:
        admin, names = await prepare(client, players, tables, aligned=aligned)
        sessions = await login_all(client, names)  # before the clock starts
        latencies: list[float] = []
        ready, clock = asyncio.Barrier(len(names)), dict[str, float]()
        ws_base = base.replace("http://", "ws://")
        results = await asyncio.gather(
            *(
                player(
                    client,
                    ws_base,
                    n,
                    sessions[n],
                    f"load{i % tables}",
                    ready=ready,
                    clock=clock,
                    seconds=seconds,
                    latencies=latencies,
                    batch=batch,
                    rest=rest,
                    server_pid=server_pid,
                    pace=pace,
                )
                for i, n in enumerate(names)
            )
        )
        elapsed = time.monotonic() - clock["start"]
        server_cpu = cpu_seconds(server_pid) - clock["cpu"]
        client_cpu = time.process_time() - clock["own_cpu"]
        units_lost, reconciliation = await settle_and_count(client, admin, names)
        accepted = sum(r[0] for r in results)
        ordered = sorted(latencies) or [0.0]
        return {
            "accepted": accepted,
            "refused": sum(r[1] for r in results),
            "events": sum(r[2] for r in results),
            "elapsed": elapsed,
            "bets_per_s": accepted / elapsed,
            "p50_ms": statistics.median(ordered) * 1000,
            "p99_ms": ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000,
            "units_lost": units_lost,
            "server_cpu_ms_per_bet": round(server_cpu * 1000 / max(accepted, 1), 3),
            "server_cpu_share": round(server_cpu / elapsed, 3),
            "client_cpu_share": round(client_cpu / elapsed, 3),
            "reconciliation_ok": reconciliation.get("ok"),
        }


async def prepare(
    client: httpx.AsyncClient, players: int, tables: int, *, aligned: bool
) -> tuple[dict[str, str], list[str]]:
    """Wait for the server, open the RNG roulette tables ``load0``… (a share of a window apart unless ``aligned``)
    and create the players ``p0``… with money; (the admin's session headers, the players' names)."""
    await wait_ready(client)
    admin = await login(client, ADMIN)
    for t in range(tables):
        # No result moment (issue 14): the bench measures the bet path, and its windows follow one another at once
        # as in the figures the README quotes.
        body = {"table_id": f"load{t}", "game": "roulette", "betting_seconds": BETTING_SECONDS}
        body["result_display_seconds"] = 0
        (await client.post("/api/tables", json=body, headers=admin)).raise_for_status()
        if not aligned:  # the next table opens a share of a window later: the bells do not all ring at once
            await asyncio.sleep(BETTING_SECONDS / tables)
    names = [f"p{i}" for i in range(players)]
    for name in names:
        r = await admin_command(client, "/api/accounts", {"username": name, "password": PASSWORD}, admin)
        r.raise_for_status()
        credit = {**admin, "Idempotency-Key": f"credit-{name}"}
        r = await admin_command(client, f"/api/accounts/{name}/credit", {"amount": CREDIT}, credit)
        r.raise_for_status()
    return admin, names


async def admin_command(
    client: httpx.AsyncClient, path: str, body: dict[str, object], headers: dict[str, str]
) -> httpx.Response:
    """An admin's command, sent again after the wait a 429 names (the server's per-account command rate)."""
    while (r := await client.post(path, json=body, headers=headers)).status_code == 429:
        await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
    return r


async def settle_and_count(
    client: httpx.AsyncClient, admin: dict[str, str], names: list[str]
) -> tuple[int, dict[str, Any]]:
    """Let the last rounds settle, then the units the ledger cannot account for (the money credited against the
    players' wallets, the held stakes and the house's result) and the reconciliation."""
    await asyncio.sleep(6)  # the last windows close, spin and settle
    reconciliation: dict[str, Any] = (await client.get("/api/reconciliation", headers=admin)).json()
    wallets = 0
    for name in names:
        r = await client.get(f"/api/accounts/{name}/wallet", headers=admin)
        wallets += int(r.json()["balance"])
    house = int(reconciliation["all"]["house_result"])
    held = int(reconciliation["all"]["held"])
    return abs(len(names) * CREDIT - wallets - held - house), reconciliation


@contextlib.contextmanager
def serving(*options: str, database_file: str = "load.sqlite3") -> Iterator[tuple[str, int]]:
    """``croupier serve`` on a fresh SQLite file in a temporary folder, its admin bootstrapped, on a free loopback
    port, with ``options``; (its base URL, its pid). Terminated (then killed) on the way out."""
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        database = f"sqlite:///{tmp / database_file}"
        subprocess.run(
            cli("admin", "create-admin", ADMIN, "--password", PASSWORD, database=database),
            check=True,
            cwd=tmp,
            timeout=120,
        )
        port = free_port()
        log = (tmp / "server.log").open("w")
        server = subprocess.Popen(
            cli("serve", "--host", "127.0.0.1", "--port", str(port), *options, database=database),
            cwd=tmp,
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            yield f"http://127.0.0.1:{port}", server.pid
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
            log.close()


def run_loop(main: Coroutine[Any, Any, dict[str, Any]]) -> dict[str, Any]:
    """Run the load generator's coroutine on uvloop where it is installed (the server's own loop; the generator
    shares the machine with the server, and uvloop spends about half of asyncio's CPU on the same sockets), else on
    asyncio's."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--unbatched", action="store_true", help="one WebSocket message per event")
    parser.add_argument("--rest", action="store_true", help="bets over REST instead of the table's WebSocket")
    parser.add_argument("--command-rate", type=float, default=None, help="serve --command-rate (not production)")
    parser.add_argument(
        "--rate", type=float, default=0.0, help="each player's bets per second (default 0: as fast as answered)"
    )
    parser.add_argument("--aligned", action="store_true", help="open the tables at once: every bell rings together")
    args = parser.parse_args()
    rate = ["--command-rate", str(args.command_rate)] if args.command_rate is not None else []
    with serving(*rate) as (base, pid):
        out = run_loop(
            run(
                args.seconds,
                args.players,
                args.tables,
                base,
                batch=not args.unbatched,
                rest=args.rest,
                server_pid=pid,
                pace=args.rate,
                aligned=args.aligned,
            )
        )
    print(json.dumps({k: v for k, v in out.items() if k not in ("bets_per_s", "p50_ms", "p99_ms", "units_lost")}))
    print(
        f"bets_per_s={out['bets_per_s']:.0f} p50_ms={out['p50_ms']:.1f} p99_ms={out['p99_ms']:.1f} "
        f"units_lost={out['units_lost']}"
        + (f" command_rate={args.command_rate:g}" if rate else "")
        + (f" rate={args.rate:g}" if args.rate else "")
        + (" aligned" if args.aligned else "")
    )


if __name__ == "__main__":
    main()
