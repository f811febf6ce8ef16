"""Abuse benchmark of the table server (issue 13; not a test): play goes on while strangers flood the door.

Starts its own ``croupier serve`` on a fresh SQLite database on loopback (as ``bench/server_load.py`` does, whose
helpers it uses), opens 12 RNG roulette tables and logs 150 players in (before the clock starts), then for S seconds:

- the **bettors**: each player bets over its table's WebSocket on a schedule, ``--bets-per-s`` in all (1,000 by
  default, spread evenly over the players); the latency of each accepted bet is timed;
- the **flood**: unauthenticated ``POST /api/login`` requests with made-up names and passwords, ``--logins-per-s``
  (200 by default) on an open schedule (the n-th at n/R seconds, each on a fresh connection, whether or not the
  earlier ones were answered), plus ``--big-bodies`` (4) logins of 20 MB each, half declaring their length, half
  chunked; each is timed from its request to the status line of its answer (429, 413 or 401 expected);
- a **health probe**: ``GET /api/health`` every 50 ms, timed;
- the server's **memory**: the resident size of its process and the casino's, sampled every 100 ms.

Then it waits for the rounds to settle and checks the ledger to the unit. It prints a JSON line of details (the flood's
answers by status, the unanswered, the CPU shares of the server — both processes — and of this generator, as the
load bench does) and, last, ``bets_per_s=… bet_p99_ms=… health_p99_ms=… rss_mb=… flood_answered_p99_ms=…
units_lost=…`` (``rss_mb``: the peak of the two processes' resident sizes together; a flood request never answered
counts in the p99 with the time it waited, up to its timeout).

The aims (issue 13): bet p99 under 100 ms, health p99 under 50 ms, server memory under 400 MB, every flood request
answered in under 100 ms, units_lost=0. All traffic goes to 127.0.0.1, bounded in count and time; the run stops by
itself (``--seconds`` of load, then at most a few minutes of set-up and checks).

Run: ``.venv/bin/python bench/server_abuse.py [--seconds S] [--players N] [--tables T] [--bets-per-s B]
[--logins-per-s R] [--big-bodies K]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import sys
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_load import (  # the load bench's helpers (bench/ is no package)
    cpu_seconds,
    login_all,
    player,
    prepare,
    run_loop,
    serving,
    settle_and_count,
)

BIG_BODY = 20 * 2**20
FLOOD_TIMEOUT = 10.0
HEALTH_EVERY = 0.05
MEMORY_EVERY = 0.1
MAX_IN_FLIGHT = 2000  # the flood's open requests at most (a bound on this generator's sockets)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rss_mb(pid: int) -> float:
    """The resident size of ``pid`` and its children (the casino's process), in MB (Linux ``/proc``; 0 elsewhere)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    own = next((int(line.split()[1]) / 1024 for line in status.splitlines() if line.startswith("VmRSS:")), 0.0)
    return own + sum(rss_mb(int(child)) for child in children)


async def _status_line(reader: asyncio.StreamReader) -> int:
    line = await reader.readline()
    parts = line.split()
    return int(parts[1]) if len(parts) >= 2 and parts[0].startswith(b"HTTP/") else 0


async def flood_login(host: str, port: int, answers: Counter[int | str], times: list[float]) -> None:
    """One unauthenticated login with a made-up name, on a fresh connection: its answer's status and time."""
    body = json.dumps({"username": f"x{uuid.uuid4().hex[:12]}", "password": uuid.uuid4().hex}).encode()
    request = (
        f"POST /api/login HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body
    t0 = time.perf_counter()
    writer: asyncio.StreamWriter | None = None
    try:
        async with asyncio.timeout(FLOOD_TIMEOUT):
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(request)
            status = await _status_line(reader)
        answers[status or "no answer"] += 1
    except (TimeoutError, OSError) as error:
        answers[type(error).__name__] += 1
    finally:
        times.append(time.perf_counter() - t0)
        if writer is not None:
            writer.close()


async def big_body(host: str, port: int, *, chunked: bool, answers: Counter[int | str], times: list[float]) -> None:
    """A 20 MB login body (its length declared, or chunked), sent as fast as the server takes it while its answer is
    awaited; timed from the request's head to the answer's status line."""
    head = f"POST /api/login HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
    head += "Transfer-Encoding: chunked\r\n\r\n" if chunked else f"Content-Length: {BIG_BODY}\r\n\r\n"
    piece = b" " * 2**16
    if chunked:
        piece = b"%x\r\n" % len(piece) + piece + b"\r\n"
    t0 = time.perf_counter()
    writer: asyncio.StreamWriter | None = None
    sender: asyncio.Task[None] | None = None
    try:
        async with asyncio.timeout(FLOOD_TIMEOUT):
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(head.encode())

            async def send(w: asyncio.StreamWriter) -> None:
                with contextlib.suppress(OSError):
                    for _ in range(BIG_BODY // 2**16):
                        w.write(piece)
                        await w.drain()

            sender = asyncio.create_task(send(writer))
            status = await _status_line(reader)
        answers[f"big {status}" if status else "big no answer"] += 1
    except (TimeoutError, OSError) as error:
        answers[f"big {type(error).__name__}"] += 1
    finally:
        times.append(time.perf_counter() - t0)
        if sender is not None:
            sender.cancel()
        if writer is not None:
            writer.close()


async def flood(
    base: str, seconds: float, *, per_s: float, big: int, answers: Counter[int | str], times: list[float]
) -> None:
    """The flood of the module docstring, for ``seconds``: ``per_s`` logins a second and ``big`` 20 MB bodies."""
    host, port = base.removeprefix("http://").split(":")
    tasks: set[asyncio.Task[None]] = set()
    start = time.monotonic()
    bigs = {int((k + 0.5) * per_s * seconds / max(big, 1)): k % 2 == 1 for k in range(big)}
    n = 0
    while (due := start + n / per_s) < start + seconds:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        if len(tasks) >= MAX_IN_FLIGHT:
            answers["not sent (too many open)"] += 1
        elif n in bigs:
            tasks.add(asyncio.create_task(big_body(host, int(port), chunked=bigs[n], answers=answers, times=times)))
        else:
            tasks.add(asyncio.create_task(flood_login(host, int(port), answers, times)))
        tasks = {t for t in tasks if not t.done()}
        n += 1
    if tasks:
        await asyncio.wait(tasks, timeout=FLOOD_TIMEOUT + 5)


async def probe_health(client: httpx.AsyncClient, seconds: float, times: list[float], failures: Counter[str]) -> None:
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        t0 = time.perf_counter()
        try:
            r = await client.get("/api/health", timeout=FLOOD_TIMEOUT)
            if r.status_code != 200:
                failures[str(r.status_code)] += 1
        except httpx.HTTPError as error:
            failures[type(error).__name__] += 1
        times.append(time.perf_counter() - t0)
        await asyncio.sleep(max(0.0, HEALTH_EVERY - (time.perf_counter() - t0)))


async def sample_memory(pid: int, seconds: float, samples: list[float]) -> None:
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        samples.append(rss_mb(pid))
        await asyncio.sleep(MEMORY_EVERY)


async def started(clock: dict[str, float]) -> None:
    while "start" not in clock:
        await asyncio.sleep(0.005)


async def run(args: argparse.Namespace, base: str, server_pid: int) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=args.players + 10, max_keepalive_connections=args.players + 10)
    async with (
        httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as client,
        httpx.AsyncClient(base_url=base) as prober,
    ):
        admin, names = await prepare(client, args.players, args.tables, aligned=False)
        sessions = await login_all(client, names)  # before the clock starts (and before the flood)
        idle_rss = rss_mb(server_pid)
        latencies: list[float] = []
        ready, clock = asyncio.Barrier(len(names)), dict[str, float]()
        ws_base = base.replace("http://", "ws://")
        pace = args.bets_per_s / args.players
        bettors = asyncio.gather(
            *(
                player(
                    client,
                    ws_base,
                    n,
                    sessions[n],
                    f"load{i % args.tables}",
                    ready=ready,
                    clock=clock,
                    seconds=args.seconds,
                    latencies=latencies,
                    batch=True,
                    rest=False,
                    server_pid=server_pid,
                    pace=pace,
                )
                for i, n in enumerate(names)
            )
        )
        await asyncio.wait_for(started(clock), timeout=120)
        answers: Counter[int | str] = Counter()
        flood_times: list[float] = []
        health_times: list[float] = []
        health_failures: Counter[str] = Counter()
        memory: list[float] = []
        await asyncio.gather(
            flood(base, args.seconds, per_s=args.logins_per_s, big=args.big_bodies, answers=answers, times=flood_times),
            probe_health(prober, args.seconds, health_times, health_failures),
            sample_memory(server_pid, args.seconds, memory),
        )
        results = await asyncio.wait_for(bettors, timeout=60)
        elapsed = time.monotonic() - clock["start"]
        server_cpu = cpu_seconds(server_pid) - clock["cpu"]
        client_cpu = time.process_time() - clock["own_cpu"]
        units_lost, reconciliation = await settle_and_count(client, admin, names)
        accepted = sum(r[0] for r in results)
        answered = {401, 413, 429, "big 401", "big 413", "big 429"}
        return {
            "accepted": accepted,
            "refused": sum(r[1] for r in results),
            "elapsed": round(elapsed, 2),
            "bets_per_s": accepted / elapsed,
            "bet_p50_ms": round(statistics.median(latencies or [0.0]) * 1000, 1),
            "bet_p99_ms": percentile(latencies, 0.99) * 1000,
            "health_p99_ms": percentile(health_times, 0.99) * 1000,
            "health_max_ms": round(max(health_times or [0.0]) * 1000, 1),
            "health_failures": dict(health_failures),
            "rss_mb": max(memory or [0.0]),
            "idle_rss_mb": round(idle_rss, 1),
            "flood_sent": sum(answers.values()),
            "flood_answers": {str(k): v for k, v in sorted(answers.items(), key=str)},
            "flood_unanswered": sum(v for k, v in answers.items() if k not in answered),
            "flood_answered_p99_ms": percentile(flood_times, 0.99) * 1000,
            "flood_max_ms": round(max(flood_times or [0.0]) * 1000, 1),
            "units_lost": units_lost,
            "server_cpu_share": round(server_cpu / elapsed, 3),
            "client_cpu_share": round(client_cpu / elapsed, 3),
            "reconciliation_ok": reconciliation.get("ok"),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--bets-per-s", type=float, default=1000.0, help="the bettors' bets a second, in all")
    parser.add_argument("--logins-per-s", type=float, default=200.0, help="the flood's logins a second")
    parser.add_argument("--big-bodies", type=int, default=4, help="20 MB login bodies during the flood")
    args = parser.parse_args()
    random.seed()
    with serving(database_file="abuse.sqlite3") as (base, pid):
        out = run_loop(run(args, base, pid))
    last = ("bets_per_s", "bet_p99_ms", "health_p99_ms", "rss_mb", "flood_answered_p99_ms", "units_lost")
    print(json.dumps({k: v for k, v in out.items() if k not in last}))
    print(
        f"bets_per_s={out['bets_per_s']:.0f} bet_p99_ms={out['bet_p99_ms']:.1f} "
        f"health_p99_ms={out['health_p99_ms']:.1f} rss_mb={out['rss_mb']:.0f} "
        f"flood_answered_p99_ms={out['flood_answered_p99_ms']:.1f} units_lost={out['units_lost']}"
    )


if __name__ == "__main__":
    main()
