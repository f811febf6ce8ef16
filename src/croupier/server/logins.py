"""The door of ``POST /api/login``: a flood of logins cannot starve play.

Checking a password is slow on purpose (Argon2id: a fifth of a second of CPU and 64 MiB of memory each), so a flood
of logins, with made-up names, could otherwise take every core and gigabytes of memory from the tables. Every login
passes :class:`LoginGate` before its password is looked at:

1. **The cap**: at most ``cap`` logins are being checked at once (queued or running; 2 by default: as many as the
   pool has workers, so none waits). Beyond it a login is answered ``429 rate_limited`` at once, with
   ``Retry-After: 1``, and costs nothing.
2. **Three token buckets**, in this order: per client address (an IPv4 address, an IPv6 address by its /64), per
   account name (its canonical form: a name no account has is counted like a taken one) and for the server as a
   whole. An empty bucket answers ``429 rate_limited`` with the seconds until its next token in ``Retry-After``;
   a request refused by one bucket gives back what it took from those before. A login that succeeds gives its
   tokens back: the buckets count failed (and unfinished) logins, so a venue whose players share an address is
   held back only by its wrong passwords.
3. **The pool**: the login itself (the account layer's backoff, the password check against the account's hash or,
   for a name no account has, a dummy hash of the same cost, and the session) runs on a pool of ``workers``
   threads (2 by default) used for nothing else, never on the event loop and never on the threads of the other
   routes. On Linux its threads (and the threads Argon2 starts from them for its lanes) run at a lower priority
   (``nice`` +10): on a busy machine the event loop and the casino get the CPU first.

Unknown names and wrong passwords take this one path and get one answer (``401 login_failed``; ``429
login_throttled`` once the account layer's backoff for that name from that address starts, see
:mod:`croupier.service.accounts`).

:func:`housekeeping` is the server's background chore of the accounts: it forgets expired sessions and old failed
logins every few minutes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from croupier.server.errors import RateLimited
from croupier.server.ratelimit import Limit, RateLimiter
from croupier.service.accounts import AccountService, address_key, fold

T = TypeVar("T")
log = logging.getLogger(__name__)

NICE = 10
"""How much lower the password checks' threads run (Linux)."""
HOUSEKEEPING_SECONDS = 300.0
"""How often :func:`housekeeping` forgets expired sessions and old failed logins."""


@dataclass(frozen=True, slots=True)
class LoginLimits:
    """How many logins the server checks: ``workers`` threads check passwords, at most ``cap`` logins are checked at
    once (queued and running), and failed logins are limited per client address, per name and in all."""

    per_address: Limit = Limit(burst=20, per_second=1.0)
    per_name: Limit = Limit(burst=10, per_second=0.2)
    overall: Limit = Limit(burst=30, per_second=10.0)
    workers: int = 2
    cap: int = 2


LOGINS = LoginLimits()


class LoginGate:
    """The cap, the buckets and the pool of the module docstring. ``clock`` is the buckets' (monotonic seconds)."""

    def __init__(self, limits: LoginLimits = LOGINS, *, clock: Callable[[], float] = time.monotonic) -> None:
        if limits.workers < 1 or limits.cap < limits.workers:
            raise ValueError(f"a login gate needs a worker and a cap of at least its workers, not {limits!r}")
        self.limits = limits
        self.by_address = RateLimiter(limits.per_address, what="failed logins from this address", clock=clock)
        self.by_name = RateLimiter(limits.per_name, what="failed logins to this name", clock=clock)
        self.overall = RateLimiter(limits.overall, what="failed logins to this server", clock=clock)
        self._pool = ThreadPoolExecutor(limits.workers, thread_name_prefix="croupier-login", initializer=_yield_cpu)
        self._lock = threading.Lock()
        self._checking = 0

    @property
    def checking(self) -> int:
        """How many logins are being checked now (queued or running)."""
        return self._checking

    async def check(self, username: str, address: str | None, login: Callable[[], T]) -> T:
        """Run ``login`` (the account layer's login of ``username`` from ``address``) on the pool, if the cap and the
        buckets let it; ``RateLimited`` (429) at once if not. Its answer, or its exception."""
        keys = ((self.by_address, address_key(address)), (self.by_name, fold(username)), (self.overall, "*"))
        with self._lock:
            if self._checking >= self.limits.cap:
                busy = "The server is checking as many logins as it may; try again in a second."
                raise RateLimited(busy, retry_after=1.0)
            taken: list[tuple[RateLimiter, str]] = []
            try:
                for bucket, key in keys:
                    bucket.take(key)
                    taken.append((bucket, key))
            except RateLimited:
                for bucket, key in taken:
                    bucket.give(key)
                raise
            self._checking += 1
        try:
            future = self._pool.submit(login)
        except BaseException:
            self._done(None)
            raise
        future.add_done_callback(self._done)  # when the check ends, even if this request was given up
        answer = await asyncio.wrap_future(future)
        for bucket, key in keys:  # a success costs nothing: the buckets count failures
            bucket.give(key)
        return answer

    def _done(self, _: Future[Any] | None) -> None:
        with self._lock:
            self._checking -= 1

    def close(self) -> None:
        """Stop the pool (the checks still queued are dropped)."""
        self._pool.shutdown(wait=False, cancel_futures=True)


def _yield_cpu() -> None:
    """Lower the calling thread's priority (Linux: a thread's nice value is its own, and the threads it starts inherit
    it); nothing elsewhere, or where it is not allowed."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)


async def housekeeping(accounts: AccountService, every: float = HOUSEKEEPING_SECONDS) -> None:
    """Every ``every`` seconds, forget the expired sessions and the failed logins that no longer count (on a worker
    thread: they are database writes). Runs until cancelled; a failure is logged and tried again next time."""
    while True:
        await asyncio.sleep(every)
        try:
            sessions = await asyncio.to_thread(accounts.purge_sessions)
            failures = await asyncio.to_thread(accounts.purge_failures)
            if sessions or failures:
                log.info("forgot %d expired session(s) and %d old failed-login count(s)", sessions, failures)
        except Exception:
            log.exception("the accounts' housekeeping failed")
