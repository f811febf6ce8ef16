"""The services the server adapts, built on one database: accounts, the ledger and the casino."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from sqlalchemy import Engine
from sqlalchemy.engine import make_url

from croupier.service.accounts import AccountService
from croupier.service.casino import Casino
from croupier.service.ledger import Ledger

T = TypeVar("T")

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
    """What the routes call. The casino locks itself; ``casino_lock`` also keeps the server's calls into it
    (commands, the clock, subscriptions) in one order. The accounts and the ledger are safe to call side by side."""

    accounts: AccountService
    ledger: Ledger
    casino: Casino
    engine: Engine | None = None
    casino_lock: threading.RLock = field(default_factory=threading.RLock)

    def at_casino(self, call: Callable[[], T]) -> T:
        """Run ``call`` (a casino method) holding the casino lock."""
        with self.casino_lock:
            return call()

    def close(self) -> None:
        """Release the database connections."""
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
    casino = Casino(ledger, accounts, SqlCasinoStore(engine))
    return Services(accounts=accounts, ledger=ledger, casino=casino, engine=engine)
