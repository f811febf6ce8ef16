"""The services the server adapts, built on one database: accounts, the ledger and the casino, reached through a
:class:`CasinoPort`. :mod:`croupier.server.compose` opens them (it is where the server is built).

**Test-only crash hook.** Fault tests kill a real server at a chosen persistence boundary (the casino's
``on_commit(label)``, called after every store or ledger write) and restart it on the same database. Two
environment variables, read once by :func:`croupier.server.compose.open_services`, drive it; with neither set the
casino gets no hook at all and nothing here runs:

- ``CROUPIER_CRASH_AT``: ``"N"`` kills the process with ``SIGKILL`` right after its N-th boundary (counted from
  the process's start, 1-based); ``"LABEL"`` or ``"LABEL:N"`` after the N-th boundary with that label (for
  example ``"bet_held:1"`` or ``"audit:recovery:1"``; the label may itself contain colons).
- ``CROUPIER_CRASH_COUNT_FILE``: a file to which each boundary's label is appended, one a line, before any kill
  (how a test learns the boundaries of a round).

Never set them in production: a server with ``CROUPIER_CRASH_AT`` dies on purpose.
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol, TypeVar

from sqlalchemy import Engine

from croupier.server.worker import CasinoWorker, Done, resolving
from croupier.service.accounts import AccountService, User, fold
from croupier.service.casino import Casino
from croupier.service.casino_records import Subscription
from croupier.service.ledger import Ledger
from croupier.storage.database import WalCheckpointer

T = TypeVar("T")

CRASH_AT = "CROUPIER_CRASH_AT"
CRASH_COUNT_FILE = "CROUPIER_CRASH_COUNT_FILE"


class CasinoPort(Protocol):
    """How the server reaches its casino: a thread of this process (:class:`ThreadPort`) or a process of its own
    (:class:`croupier.server.casino_process.CasinoProcess`). A call names a :class:`Casino` method (``Casino.tables``)
    and its arguments."""

    def call(self, method: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``method`` on the casino and return its answer (blocking; not from the event loop)."""
        ...

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
        """Run it, then ``done(ok, answer_or_exception)`` on the running event loop (``bet``: a ``place_bet``, grouped
        with the bets beside it; ``grouped``: in a group commit of its own)."""
        ...

    def open_stream(self, user: User, table_id: str) -> tuple[Any, Subscription]:
        """The table as ``user`` sees it now and a subscription to its later events, with no event between."""
        ...

    def close_stream(self, sub: Subscription) -> None:
        """Stop queueing events for ``sub``."""
        ...

    def stop(self, timeout: float = 10.0) -> None:
        """Finish the calls already made; later calls raise ``RuntimeError``."""
        ...


class ThreadPort:
    """The casino on a thread of this process (:class:`CasinoWorker`)."""

    def __init__(self, casino: Casino, worker: CasinoWorker) -> None:
        self.casino, self.worker = casino, worker

    def call(self, method: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """:meth:`CasinoPort.call`."""
        return self.worker.call(partial(method, self.casino, *args, **kwargs))

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
        """:meth:`CasinoPort.submit`."""
        self.worker.submit(partial(method, self.casino, *args, **kwargs), done, bet=bet, grouped=grouped)

    def open_stream(self, user: User, table_id: str) -> tuple[Any, Subscription]:
        """:meth:`CasinoPort.open_stream`: one call on the casino's thread."""
        casino = self.casino

        def both() -> tuple[Any, Subscription]:
            return casino.table_view(user, table_id), casino.subscribe(table_id)

        return self.worker.call(both)

    def close_stream(self, sub: Subscription) -> None:
        """:meth:`CasinoPort.close_stream`."""
        self.worker.call(partial(self.casino.unsubscribe, sub))

    def stop(self, timeout: float = 10.0) -> None:
        """:meth:`CasinoPort.stop`."""
        self.worker.stop(timeout)


class OpenSockets:
    """The open table sockets of this process by session, so that ending a session (a logout) or every session of an
    account (disabled, its password reset) closes its sockets at once (:meth:`Services.end_sessions`). Safe to use
    from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[int, tuple[str, str, Callable[[], None]]] = {}
        self._next = 0
        self.generation = 0
        """How many times sessions were ended: a socket that authenticated before a change of it and registered after
        must check its session again (it may have missed its end)."""

    def add(self, username: str, token: str, end: Callable[[], None]) -> int:
        """Register a socket of ``username``'s session ``token``; ``end()`` (thread-safe, called at most once) ends
        it. Returns the handle :meth:`discard` takes."""
        with self._lock:
            self._next += 1
            self._open[self._next] = (username, token, end)
            return self._next

    def discard(self, handle: int) -> None:
        """Forget a socket (it closed)."""
        with self._lock:
            self._open.pop(handle, None)

    def end(self, *, username: str | None = None, token: str | None = None) -> int:
        """End every socket of the session ``token`` and/or of the account ``username`` (any spelling of its
        canonical name); how many."""
        if username is None and token is None:
            raise ValueError("name a session token or an account")
        name = fold(username) if username is not None else None
        with self._lock:
            self.generation += 1
            matched = [
                handle
                for handle, (user, session, _) in self._open.items()
                if (name is not None and user == name) or (token is not None and session == token)
            ]
            ends = [self._open.pop(handle)[2] for handle in matched]
        for end in ends:
            end()
        return len(ends)

    def __len__(self) -> int:
        with self._lock:
            return len(self._open)


@dataclass
class Services:
    """What the routes call. Every call into the casino (commands, the clock, subscriptions) goes through ``port``,
    in arrival order: by default a thread of this process (:class:`ThreadPort`; bets queued together are committed
    together); ``croupier serve`` gives the casino a process of its own instead (``casino`` is then None here).
    The accounts and the ledger's readings are safe to call side by side."""

    accounts: AccountService
    ledger: Ledger
    casino: Casino | None = None
    engine: Engine | None = None
    checkpointer: WalCheckpointer | None = None
    port: CasinoPort = field(default=None)  # type: ignore[assignment]
    worker: CasinoWorker | None = field(init=False, default=None)
    sockets: OpenSockets = field(init=False, default_factory=OpenSockets)

    def __post_init__(self) -> None:
        if self.port is None:
            if self.casino is None:
                raise ValueError("Services need a casino or a port to one.")
            self.worker = CasinoWorker(self.casino)
            self.port = ThreadPort(self.casino, self.worker)

    def at_casino(self, method: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``Casino.<method>(*args, **kwargs)`` and return its answer (blocking; from a worker thread)."""
        return self.port.call(method, *args, **kwargs)

    async def casino_call(self, method: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Await ``Casino.<method>(*args, **kwargs)``."""
        return await self._run(method, args, kwargs, bet=False, grouped=False)

    async def casino_bet(self, method: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Await a ``place_bet``, which may be committed in a group with the bets queued beside it."""
        return await self._run(method, args, kwargs, bet=True, grouped=False)

    async def casino_grouped(self, method: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Await a call run in a group commit of its own (the clock's tick of a table)."""
        return await self._run(method, args, kwargs, bet=False, grouped=True)

    async def _run(
        self, method: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any], *, bet: bool, grouped: bool
    ) -> T:
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.port.submit(method, args, kwargs, resolving(future), bet=bet, grouped=grouped)
        return await future

    def end_sessions(self, *, username: str | None = None, token: str | None = None) -> int:
        """Close at once every open table socket of the session ``token`` and/or of every session of the account
        ``username`` (call it after a logout, or after an account is disabled, its password reset or its role
        changed): each is sent ``unauthenticated`` and closed with 4401, and a command that reaches it meanwhile is
        refused. Returns how many sockets were ended. Safe from any thread; ends nothing in another process."""
        return self.sockets.end(username=username, token=token)

    def close(self) -> None:
        """Finish the casino's queued calls and release the database connections."""
        self.port.stop()
        if self.checkpointer is not None:
            self.checkpointer.stop()
        if self.engine is not None:
            self.engine.dispose()


def _crash_point(spec: str) -> tuple[str | None, int]:
    """``"7"`` → (None, 7); ``"bet_held:2"`` → ("bet_held", 2); ``"bell"`` → ("bell", 1)."""
    spec = spec.strip()
    if spec.isdigit():
        label, n = None, int(spec)
    else:
        head, _, tail = spec.rpartition(":")
        label, n = (head, int(tail)) if head and tail.isdigit() else (spec, 1)
    if n < 1 or label == "":
        raise ValueError(f"{CRASH_AT}={spec!r}: expected N, LABEL or LABEL:N with N >= 1")
    return label, n


def crash_hook(environ: Mapping[str, str]) -> Callable[[str], None] | None:
    """The test-only ``on_commit`` hook of the module docstring, or None when neither variable is set."""
    spec = environ.get(CRASH_AT, "")
    count_file = environ.get(CRASH_COUNT_FILE, "")
    if not spec and not count_file:
        return None
    label_at, n_at = _crash_point(spec) if spec else (None, 0)
    seen: dict[str | None, int] = {}
    lock = threading.Lock()

    def on_commit(label: str) -> None:
        with lock:
            if count_file:
                fd = os.open(count_file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
                try:
                    os.write(fd, f"{label}\n".encode())
                finally:
                    os.close(fd)
            key = label if label_at is not None else None
            if label_at is not None and label != label_at:
                return
            seen[key] = seen.get(key, 0) + 1
            if n_at and seen[key] == n_at:
                os.kill(os.getpid(), signal.SIGKILL)

    return on_commit
