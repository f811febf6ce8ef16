"""The casino's thread: every call into the casino runs here, one after another, in the order it arrived.

One thread owns the casino, so its commands never wait on each other's locks, and the bets that arrive while it is
busy are placed together: consecutive bets in the queue run inside one :meth:`Casino.batch` (group commit), so a
hundred bets cost one durable commit instead of a hundred, and none of them is answered (nor its event published)
before that commit. The clock's tick runs in a group of its own (the bells, results, settlements and next windows
of every table: one commit). Any other command (a decision, a dealer's report, an admin's reading) runs alone,
committing as it goes, between groups.

Callers on worker threads use :meth:`CasinoWorker.call` (blocking); coroutines ``await`` :meth:`CasinoWorker.run`,
or hand a callback to :meth:`CasinoWorker.submit` (the WebSocket's commands: no task and no future per command).
The answers of a group reach each event loop in one wake-up (one ``call_soon_threadsafe`` per group, not per call).
A call made from the casino's own thread runs at once (no queue, no deadlock).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, TypeVar

from croupier.service.casino import Casino

T = TypeVar("T")
log = logging.getLogger(__name__)

MAX_GROUP = 512


Done = Callable[[bool, Any], None]  # (ok, the answer or the exception), called on the submitter's event loop


@dataclass(slots=True)
class _Job:
    call: Callable[[], Any]
    bet: bool  # a place_bet: grouped with the bets beside it
    grouped: bool = False  # in a group of its own
    future: Future[Any] | None = None  # a blocking caller's
    loop: asyncio.AbstractEventLoop | None = None  # or a callback on this loop
    done: Done | None = None
    tag: Any = None  # the casino's process: the request's number


def deliver(items: list[tuple[Done, bool, Any]]) -> None:
    """Call each ``done(ok, value)`` (on the event loop the answers were handed to)."""
    for done, ok, value in items:
        try:
            done(ok, value)
        except Exception:  # one answer's failure must not lose the others
            log.exception("delivering a casino answer failed")


def hand_over(
    outcomes: Iterable[tuple[Future[Any] | None, asyncio.AbstractEventLoop | None, Done | None, bool, Any]],
) -> None:
    """Hand each outcome ``(future, loop, done, ok, value)`` to its caller: a blocking caller's future at once,
    the callbacks of each event loop in one wake-up of that loop."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[Done, bool, Any]]] = {}
    for future, loop, done, ok, value in outcomes:
        if future is not None:
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        elif loop is not None and done is not None:
            by_loop.setdefault(loop, []).append((done, ok, value))
    for loop, items in by_loop.items():
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is waiting any more
            loop.call_soon_threadsafe(deliver, items)


def resolving(future: asyncio.Future[T]) -> Done:
    """The ``done`` callback that settles ``future`` (unless its awaiting task was cancelled meanwhile)."""

    def done(ok: bool, value: Any) -> None:
        if not future.done():
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    return done


class CasinoWorker:
    """The thread that runs the casino's calls (module docstring); started on first use, stopped by :meth:`stop`."""

    def __init__(self, casino: Casino, *, max_group: int = MAX_GROUP) -> None:
        self.casino = casino
        self.max_group = max_group
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._stopped = False
        self.groups = 0  # how many groups of bets were committed (for tests and the benchmark)
        self.grouped = 0  # how many bets they held

    def _ensure_started(self) -> None:
        if self._thread is None:
            with self._start_lock:
                if self._thread is None:
                    thread = threading.Thread(target=self._loop, name="casino", daemon=True)
                    thread.start()
                    self._thread = thread

    def _enqueue(self, job: _Job) -> None:
        if threading.current_thread() is self._thread:
            self._run_one(job)
        elif self._stopped:
            raise RuntimeError("The casino's thread has stopped: it takes no more calls.")
        else:
            self._ensure_started()
            self._queue.put(job)

    def call(self, call: Callable[[], T]) -> T:
        """Run ``call`` on the casino's thread and return what it returns (or raise what it raised)."""
        future: Future[T] = Future()
        self._enqueue(_Job(call, False, future=future))
        return future.result()

    def submit(self, call: Callable[[], Any], done: Done, *, bet: bool = False, grouped: bool = False) -> None:
        """Run ``call`` on the casino's thread, then ``done(ok, answer_or_exception)`` on the running event loop
        (call this from that loop). ``bet=True`` for a ``place_bet`` call, which may then be placed in a group with
        the bets queued beside it; ``grouped=True`` runs it in a group commit of its own (the clock's tick)."""
        self._enqueue(_Job(call, bet, grouped, loop=asyncio.get_running_loop(), done=done))

    async def run(self, call: Callable[[], T], *, bet: bool = False, grouped: bool = False) -> T:
        """Await ``call`` run on the casino's thread (``bet`` and ``grouped`` as for :meth:`submit`)."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.submit(call, resolving(future), bet=bet, grouped=grouped)
        return await future

    def stop(self, timeout: float = 10.0) -> None:
        """Finish the calls already queued, then end the thread; later calls raise ``RuntimeError``."""
        self._stopped = True
        thread = self._thread
        if thread is not None:
            self._queue.put(None)
            thread.join(timeout)

    # -- the thread ------------------------------------------------------------------------------------------------

    def _loop(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            jobs = [job]
            while len(jobs) < self.max_group:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)  # stop after these
                    break
                jobs.append(more)
            self.dispatch(jobs)

    def dispatch(self, jobs: list[_Job]) -> None:
        """Run ``jobs`` in order: consecutive bets in one group, a ``grouped`` job in a group of its own, any other
        alone; each job's outcome goes to :meth:`_finish`."""
        start = 0
        while start < len(jobs):
            end = start
            while end < len(jobs) and jobs[end].bet:
                end += 1
            if end > start:
                self._run_group(jobs[start:end])
                start = end
            elif jobs[start].grouped:
                self._run_group(jobs[start : start + 1])
                start += 1
            else:
                self._run_one(jobs[start])
                start += 1

    def _run_one(self, job: _Job) -> None:
        try:
            outcome: tuple[bool, Any] = (True, job.call())
        except BaseException as error:  # the caller receives it; the thread carries on
            outcome = (False, error)
        self._finish([job], [outcome])

    def _finish(self, jobs: list[_Job], outcomes: list[tuple[bool, Any]]) -> None:
        """Hand each job its outcome: blocking callers at once, each event loop's callbacks in one wake-up."""
        hand_over((j.future, j.loop, j.done, ok, value) for j, (ok, value) in zip(jobs, outcomes, strict=True))

    def _run_group(self, jobs: list[_Job]) -> None:
        # A lone bet too: the group's path (a savepoint on the open connection, the driver's commit) costs less than
        # a transaction of its own.
        outcomes: list[tuple[bool, Any]] = []
        try:
            with self.casino.batch():
                for job in jobs:
                    try:
                        outcomes.append((True, job.call()))
                    except Exception as error:  # refused: rolled back to its savepoint, the others stand
                        outcomes.append((False, error))
        except BaseException as error:
            log.exception("a group of %d call(s) could not be committed; none of them took effect", len(jobs))
            self._finish(jobs, [(False, error)] * len(jobs))
            return
        self.groups += 1
        self.grouped += len(jobs)
        self._finish(jobs, outcomes)
