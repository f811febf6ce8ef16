"""The services the server adapts, built on one database: accounts, the ledger and the casino.

**Test-only crash hook.** Fault tests kill a real server at a chosen persistence boundary (the casino's
``on_commit(label)``, called after every store or ledger write) and restart it on the same database. Two
environment variables, read once by :func:`open_services`, drive it; with neither set the casino gets no hook at
all and nothing here runs:

- ``CROUPIER_CRASH_AT``: ``"N"`` kills the process with ``SIGKILL`` right after its N-th boundary (counted from
  the process's start, 1-based); ``"LABEL"`` or ``"LABEL:N"`` after the N-th boundary with that label (for
  example ``"bet_held:1"`` or ``"audit:recovery:1"``; the label may itself contain colons).
- ``CROUPIER_CRASH_COUNT_FILE``: a file to which each boundary's label is appended, one a line, before any kill
  (how a test learns the boundaries of a round).

Never set them in production: a server with ``CROUPIER_CRASH_AT`` dies on purpose.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from sqlalchemy import Engine
from sqlalchemy.engine import make_url

from croupier.server.worker import CasinoWorker
from croupier.service.accounts import AccountService
from croupier.service.casino import Casino
from croupier.service.ledger import Ledger
from croupier.storage.database import WalCheckpointer

T = TypeVar("T")

CRASH_AT = "CROUPIER_CRASH_AT"
CRASH_COUNT_FILE = "CROUPIER_CRASH_COUNT_FILE"

DEFAULT_FOLDER = Path("data")
DEFAULT_FILE = "croupier.sqlite3"


def database_url(url: str | None) -> str:
    """The SQLAlchemy URL of ``url``: ``postgresql://`` (or ``postgres://``) runs on psycopg 3; none gives the
    SQLite file ``./data/croupier.sqlite3``, creating the folder."""
    if not url:
        DEFAULT_FOLDER.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{DEFAULT_FOLDER / DEFAULT_FILE}"
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    make_url(url)  # raises on a malformed URL
    return url


@dataclass
class Services:
    """What the routes call. Every call into the casino (commands, the clock, subscriptions) runs on its one
    thread, in arrival order (:class:`~croupier.server.worker.CasinoWorker`; bets queued together are committed
    together). The accounts and the ledger's readings are safe to call side by side."""

    accounts: AccountService
    ledger: Ledger
    casino: Casino
    engine: Engine | None = None
    worker: CasinoWorker = field(init=False)
    checkpointer: WalCheckpointer | None = None

    def __post_init__(self) -> None:
        self.worker = CasinoWorker(self.casino)

    def at_casino(self, call: Callable[[], T]) -> T:
        """Run ``call`` (a casino method) on the casino's thread and return its answer."""
        return self.worker.call(call)

    async def casino_call(self, call: Callable[[], T], *, bet: bool = False, grouped: bool = False) -> T:
        """Await ``call`` on the casino's thread (``bet=True``: a ``place_bet``, which may be grouped with others;
        ``grouped=True``: in a group commit of its own)."""
        return await self.worker.run(call, bet=bet, grouped=grouped)

    def close(self) -> None:
        """Finish the casino's queued calls and release the database connections."""
        self.worker.stop()
        if self.checkpointer is not None:
            self.checkpointer.stop()
        if self.engine is not None:
            self.engine.dispose()


def open_services(url: str, *, migrate: bool = True) -> Services:
    """Services on the database at ``url`` (an SQLAlchemy URL), migrated to the latest revision first."""
    from croupier.storage import SqlAccountStore, SqlLedgerStore, create_engine, upgrade
    from croupier.storage.casino_store import SqlCasinoStore

    engine = create_engine(url)
    if migrate:
        upgrade(engine)
    ledger = Ledger(SqlLedgerStore(engine))
    accounts = AccountService(SqlAccountStore(engine))
    casino = Casino(ledger, accounts, SqlCasinoStore(engine), on_commit=crash_hook(os.environ))
    checkpointer = WalCheckpointer(engine)
    checkpointer.start()
    return Services(accounts=accounts, ledger=ledger, casino=casino, engine=engine, checkpointer=checkpointer)


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
