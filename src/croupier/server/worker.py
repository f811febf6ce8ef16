"""The casino's thread: every call into the casino runs here, one after another, in the order it arrived.

One thread owns the casino, so its commands never wait on each other's locks, and the bets that arrive while it is
busy are placed together: consecutive bets in the queue run inside one :meth:`Casino.batch` (group commit), so a
hundred bets cost one durable commit instead of a hundred, and none of them is answered (nor its event published)
before that commit. The clock's tick runs in a group of its own (the bells, results, settlements and next windows
of every table: one commit). Any other command (a decision, a dealer's report, an admin's reading) runs alone,
committing as it goes, between groups.

Callers on worker threads use :meth:`CasinoWorker.call` (blocking); coroutines ``await`` :meth:`CasinoWorker.run`.
A call made from the casino's own thread runs at once (no queue, no deadlock).
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, TypeVar

from croupier.service.casino import Casino

T = TypeVar("T")
log = logging.getLogger(__name__)

MAX_GROUP = 512


@dataclass(slots=True)
class _Job:
    call: Callable[[], Any]
    bet: bool  # a place_bet: grouped with the bets beside it
    grouped: bool = False  # in a group of its own
    future: Future[Any] = field(default_factory=Future)


class CasinoWorker:
    """The thread that runs the casino's calls (module docstring); started on first use, stopped by :meth:`stop`."""

    def __init__(self, casino: Casino, *, max_group: int = MAX_GROUP) -> None:
        self.casino = casino
        self.max_group = max_group
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self.groups = 0  # how many groups of bets were committed (for tests and the benchmark)
        self.grouped = 0  # how many bets they held

    def _ensure_started(self) -> None:
        if self._thread is None:
            with self._start_lock:
                if self._thread is None:
                    thread = threading.Thread(target=self._loop, name="casino", daemon=True)
                    thread.start()
                    self._thread = thread

    def _submit(self, call: Callable[[], T], *, bet: bool, grouped: bool = False) -> Future[T]:
        job = _Job(call, bet, grouped)
        if threading.current_thread() is self._thread:
            self._run_one(job)
        else:
            self._ensure_started()
            self._queue.put(job)
        return job.future

    def call(self, call: Callable[[], T]) -> T:
        """Run ``call`` on the casino's thread and return what it returns (or raise what it raised)."""
        return self._submit(call, bet=False).result()

    async def run(self, call: Callable[[], T], *, bet: bool = False, grouped: bool = False) -> T:
        """Await ``call`` run on the casino's thread; ``bet=True`` for a ``place_bet`` call, which may then be
        placed in a group with the bets queued beside it; ``grouped=True`` runs it in a group commit of its own
        (the clock's tick)."""
        return await asyncio.wrap_future(self._submit(call, bet=bet, grouped=grouped))

    def stop(self, timeout: float = 10.0) -> None:
        """Finish the calls already queued, then end the thread."""
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
            start = 0
            while start < len(jobs):
                end = start
                while end < len(jobs) and jobs[end].bet:
                    end += 1
                if end > start:
                    self._run_group(jobs[start:end])
                    start = end
                elif jobs[start].grouped:
                    self._run_group(jobs[start : start + 1], alone=False)
                    start += 1
                else:
                    self._run_one(jobs[start])
                    start += 1

    @staticmethod
    def _run_one(job: _Job) -> None:
        try:
            job.future.set_result(job.call())
        except BaseException as error:  # the caller receives it; the thread carries on
            job.future.set_exception(error)

    def _run_group(self, jobs: list[_Job], *, alone: bool = True) -> None:
        if len(jobs) == 1 and alone:
            self._run_one(jobs[0])
            return
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
            for job in jobs:
                job.future.set_exception(error)
            return
        self.groups += 1
        self.grouped += len(jobs)
        for job, (ok, value) in zip(jobs, outcomes, strict=True):
            if ok:
                job.future.set_result(value)
            else:
                job.future.set_exception(value)
