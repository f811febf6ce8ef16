"""The casino in a process of its own (``croupier serve``): the server's process keeps the sockets, the casino's
process keeps the tables, the ledger's writes and the clock.

Why: one Python process runs Python on one core at a time (the GIL). With the casino's thread and the event loop in
one process, each waited for the other: a bet's casino work took about 0.28 ms alone and 0.45 ms beside a busy event
loop, and a table's settlement 31 ms instead of 45 ms. In two processes each has a core.

**The casino's process** (:func:`_casino_main`) opens the services on the database itself
(:func:`croupier.server.compose.open_services`: migrating it, with the test-only crash hook of
:mod:`croupier.server.services`), runs the clock (every ``tick_seconds`` each table whose
timer ran out moves on in a group commit of its own) and the server's requests, in arrival order, exactly as the
casino's thread does (:class:`~croupier.server.worker.CasinoWorker`: the bets queued together are one group commit,
answered only once it is durable). It sends back, in one message per pass and in the order they happened, the
events the casino published (:meth:`Casino.tap <croupier.service.casino.Casino.tap>`) and the answers. It ignores
``SIGINT`` (the server's process stops it), and it ends when the server's process does: on the pipe's end, or, on
Linux, at once by ``PR_SET_PDEATHSIG`` if that process is killed.

**The server's process** (:class:`CasinoProcess`) sends each call as the name of a :class:`Casino` method with its
arguments (pickled); one reader thread delivers the answers (a blocking caller's future, or a coroutine's callback
on its event loop, one wake-up per message) and queues each event for the table's subscribers, in order. A table's
snapshot and its subscription are one request, so that no event falls between the two. If the casino's process
dies, the server's process dies with it (``SIGKILL``): a server that cannot reach its casino must not answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from croupier.server.worker import CasinoWorker, Done, _Job, hand_over
from croupier.service.accounts import User
from croupier.service.casino import Casino
from croupier.service.casino_records import Subscription

T = TypeVar("T")
log = logging.getLogger(__name__)

PLAIN, BET, GROUPED = 0, 1, 2  # how a request runs: alone, grouped with the bets beside it, in a group of its own
START_TIMEOUT = 120.0
CASINO_GROUP = 128  # bets in one group at most: the first in line are answered sooner
PRIORITY_PASSES = 8  # groups of waiting requests served before a table's tick (then the tick goes first)
PR_SET_PDEATHSIG = 1


def _portable(error: BaseException) -> BaseException:
    """``error`` if it survives pickling, else a ``RuntimeError`` naming it (the server's process must get an
    answer it can read)."""
    try:
        pickle.loads(pickle.dumps(error, protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


class _Runner(CasinoWorker):
    """The casino's process's worker: the thread worker's grouping, run on the process's main thread, its outcomes
    queued as answers in the outbox instead of handed to callers."""

    def __init__(self, casino: Casino, outbox: list[tuple[Any, ...]], max_group: int) -> None:
        super().__init__(casino, max_group=max_group)
        self.outbox = outbox

    def _finish(self, jobs: list[_Job], outcomes: list[tuple[bool, Any]]) -> None:
        for job, (ok, value) in zip(jobs, outcomes, strict=True):
            if job.tag is not None:
                self.outbox.append(("a", job.tag, ok, value if ok else _portable(value)))
            elif not ok:  # the clock's own call: nobody waits for it, so it is logged here
                log.error("casino.tick() failed", exc_info=value)


def _die_with_parent() -> None:
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _casino_main(
    conn: Connection, url: str, tick_seconds: float | None, parent: int, max_group: int, *, manual_clock: bool = False
) -> None:
    """The casino's process (module docstring); with ``manual_clock`` (tests only) the casino reads a
    :class:`~croupier.server.testing.ManualClock` instead of the wall clock."""
    _die_with_parent()
    if os.getppid() != parent:  # the server's process died before the signal was armed
        os._exit(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from croupier.server.compose import open_services, tune_collector
    from croupier.server.testing import ManualClock

    try:
        services = open_services(url, clock=ManualClock()) if manual_clock else open_services(url)
    except Exception as error:
        conn.send_bytes(pickle.dumps([("failed", f"{type(error).__name__}: {error}")]))
        return
    casino = services.casino
    assert casino is not None
    outbox: list[tuple[Any, ...]] = []
    casino.tap(lambda events: outbox.extend(("e", e) for e in events))
    runner = _Runner(casino, outbox, max_group)
    tune_collector()
    conn.send_bytes(pickle.dumps([("ready", os.getpid())]))
    next_tick = time.monotonic() + (tick_seconds or 0)
    try:
        while True:
            wait = max(0.0, next_tick - time.monotonic()) if tick_seconds else None
            if conn.poll(wait) and not _serve(conn, casino, runner):
                return
            if tick_seconds and time.monotonic() >= next_tick:
                next_tick = time.monotonic() + tick_seconds
                for table_id in casino.due():
                    # The waiting requests first (bets wait at most one table's settlement), then this table's turn.
                    for _ in range(PRIORITY_PASSES):
                        if not conn.poll(0):
                            break
                        if not _serve(conn, casino, runner):
                            return
                    runner.dispatch([_Job(partial(casino.tick, tables=[table_id]), False, True)])
                    _send(conn, outbox)
    except (EOFError, OSError):  # (BrokenPipeError is an OSError)
        return  # the server's process is gone
    finally:
        services.close()


def _serve(conn: Connection, casino: Casino, runner: _Runner) -> bool:
    """Run the requests waiting in the pipe (at most a group's worth); False once asked to stop."""
    jobs: list[_Job] = []
    stop = False
    while len(jobs) < runner.max_group and conn.poll(0):
        request = pickle.loads(conn.recv_bytes())
        if request[0] == "stop":
            stop = True
            break
        _, tag, name, args, kwargs, mode = request
        method = getattr(casino, name)
        jobs.append(_Job(partial(method, *args, **kwargs), mode == BET, mode == GROUPED, tag=tag))
    runner.dispatch(jobs)
    _send(conn, runner.outbox)  # the answers (and their events) leave at once
    return not stop


def _send(conn: Connection, outbox: list[tuple[Any, ...]]) -> None:
    if not outbox:
        return
    try:
        blob = pickle.dumps(outbox, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # one item cannot be pickled: it alone is replaced (an answer) or dropped (an event)
        items = []
        for item in outbox:
            try:
                pickle.dumps(item, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as error:
                log.error("cannot send %r to the server's process", item[0], exc_info=error)
                if item[0] == "a":
                    items.append(("a", item[1], False, RuntimeError(f"The answer cannot be sent: {error}")))
            else:
                items.append(item)
        blob = pickle.dumps(items, protocol=pickle.HIGHEST_PROTOCOL)
    outbox.clear()
    conn.send_bytes(blob)


@dataclass(slots=True)
class _Pending:
    future: Future[Any] | None = None
    loop: asyncio.AbstractEventLoop | None = None
    done: Done | None = None
    stream: str | None = None  # a table_view that opens a subscription to this table when answered


@dataclass
class _Hub:
    """The server's process's subscriptions, by table (touched by the reader thread and the event loop)."""

    by_table: dict[str, list[Subscription]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, table_id: str) -> Subscription:
        sub = Subscription(table_id)
        with self.lock:
            self.by_table.setdefault(table_id, []).append(sub)
        return sub

    def remove(self, sub: Subscription) -> None:
        with self.lock:
            subs = self.by_table.get(sub.table_id, [])
            if sub in subs:
                subs.remove(sub)

    def publish(self, event: dict[str, Any]) -> None:
        with self.lock:
            subs = list(self.by_table.get(event["table"], ()))
        for sub in subs:
            sub.events.append(event)


class CasinoProcess:
    """The server's side of the casino's process (module docstring): :meth:`start`, then :meth:`call`,
    :meth:`submit`, :meth:`open_stream` / :meth:`close_stream`, and :meth:`stop`."""

    def __init__(
        self, url: str, *, tick_seconds: float | None = 0.1, max_group: int = CASINO_GROUP, manual_clock: bool = False
    ) -> None:
        self.url = url
        self.manual_clock = manual_clock  # tests only: the casino's clock moves by Casino.advance_clock alone
        self.tick_seconds = None if manual_clock else tick_seconds  # a manual clock: no timer runs out on its own
        self.max_group = max_group
        self._conn: Connection | None = None
        self._process: multiprocessing.process.BaseProcess | None = None
        self._send_lock = threading.Lock()
        self._pending: dict[int, _Pending] = {}
        self._pending_lock = threading.Lock()
        self._next = 0
        self._hub = _Hub()
        self._reader: threading.Thread | None = None
        self._stopping = False
        self._dead = False
        self.pid: int | None = None

    # -- life ------------------------------------------------------------------------------------------------------

    def start(self) -> CasinoProcess:
        """Start the casino's process (forked from this one, so call it on the main thread before this process
        starts other threads: the casino's process dies with the thread that forked it) and wait until it has opened
        and migrated the database; ``RuntimeError`` if it could not."""
        if threading.current_thread() is not threading.main_thread():
            raise RuntimeError(
                "Start the casino's process from the main thread: it dies with the thread that forks it."
            )
        context = multiprocessing.get_context("fork")
        ours, theirs = context.Pipe(duplex=True)
        process = context.Process(
            target=_casino_main,
            args=(theirs, self.url, self.tick_seconds, os.getpid(), self.max_group),
            kwargs={"manual_clock": self.manual_clock},
            name="croupier-casino",
        )
        process.start()
        theirs.close()
        self._conn, self._process = ours, process
        if not ours.poll(START_TIMEOUT):
            process.kill()
            raise RuntimeError("The casino's process did not start.")
        try:
            first = pickle.loads(ours.recv_bytes())[0]
        except EOFError:
            raise RuntimeError(f"The casino's process exited with {process.exitcode} while starting.") from None
        if first[0] != "ready":
            process.join(10)
            raise RuntimeError(f"The casino's process could not open the database: {first[1]}")
        self.pid = first[1]
        self._reader = threading.Thread(target=self._read, name="casino-reader", daemon=True)
        self._reader.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Let the casino's process finish the requests already sent, then end it (killed after ``timeout``)."""
        if self._stopping or self._process is None:
            return
        with self._pending_lock:
            self._stopping = True
        with contextlib.suppress(OSError, BrokenPipeError), self._send_lock:
            assert self._conn is not None
            self._conn.send_bytes(pickle.dumps(("stop",)))
        self._process.join(timeout)
        if self._process.is_alive():
            self._process.kill()
            self._process.join(timeout)
        if self._reader is not None:
            self._reader.join(timeout)
        self._fail_pending()
        assert self._conn is not None
        self._conn.close()

    # -- requests --------------------------------------------------------------------------------------------------

    def _send(
        self, pending: _Pending, method: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], mode: int
    ) -> None:
        name = method.__name__
        if getattr(Casino, name, None) is not method:
            raise TypeError(f"{method!r} is not a method of Casino.")
        with self._pending_lock:
            if self._stopping or self._dead:
                raise RuntimeError("The casino's process has stopped: it takes no more calls.")
            self._next += 1
            tag = self._next
            self._pending[tag] = pending
        blob = pickle.dumps(("call", tag, name, args, kwargs, mode), protocol=pickle.HIGHEST_PROTOCOL)
        try:
            with self._send_lock:
                assert self._conn is not None
                self._conn.send_bytes(blob)
        except BaseException as error:
            with self._pending_lock:
                self._pending.pop(tag, None)
            if isinstance(error, OSError) and not self._stopping:
                self._casino_died()  # the pipe is broken: the casino's process is gone
            raise

    def call(self, method: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``Casino.<method>(*args, **kwargs)`` in the casino's process and return its answer (blocking)."""
        future: Future[T] = Future()
        self._send(_Pending(future=future), method, args, kwargs, PLAIN)
        return future.result()

    def submit(
        self,
        method: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        done: Done,
        *,
        bet: bool = False,
        grouped: bool = False,
    ) -> None:
        """Run it there, then ``done(ok, answer_or_exception)`` on the running event loop (call from that loop)."""
        pending = _Pending(loop=asyncio.get_running_loop(), done=done)
        self._send(pending, method, args, kwargs, BET if bet else GROUPED if grouped else PLAIN)

    def open_stream(self, user: User, table_id: str) -> tuple[Any, Subscription]:
        """The table as ``user`` sees it now and a subscription to its later events (blocking)."""
        future: Future[tuple[Any, Subscription]] = Future()
        self._send(_Pending(future=future, stream=table_id), Casino.table_view, (user, table_id), {}, PLAIN)
        return future.result()

    def close_stream(self, sub: Subscription) -> None:
        """Stop queueing events for ``sub``."""
        self._hub.remove(sub)

    # -- the reader thread -----------------------------------------------------------------------------------------

    def _read(self) -> None:
        assert self._conn is not None
        conn = self._conn
        while True:
            try:
                items = pickle.loads(conn.recv_bytes())
            except (EOFError, OSError):
                break
            outcomes = []
            for item in items:
                if item[0] == "e":
                    self._hub.publish(item[1])
                    continue
                _, tag, ok, value = item
                with self._pending_lock:
                    pending = self._pending.pop(tag, None)
                if pending is None:
                    continue
                if ok and pending.stream is not None:  # subscribed before the next event is read: none is lost
                    value = (value, self._hub.add(pending.stream))
                outcomes.append((pending.future, pending.loop, pending.done, ok, value))
            hand_over(outcomes)
        if not self._stopping:
            self._casino_died()
        self._fail_pending()

    @staticmethod
    def _casino_died() -> None:
        log.critical("the casino's process has died: the server stops with it")
        os.kill(os.getpid(), signal.SIGKILL)

    def _fail_pending(self) -> None:
        with self._pending_lock:
            self._dead = True  # no call registers after this
            pending, self._pending = self._pending, {}
        error = RuntimeError("The casino's process has stopped.")
        for p in pending.values():
            if p.future is not None:
                p.future.set_exception(error)
            elif p.loop is not None and p.done is not None:
                with contextlib.suppress(RuntimeError):
                    p.loop.call_soon_threadsafe(p.done, False, error)
