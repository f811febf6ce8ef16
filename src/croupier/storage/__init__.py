"""Persistence on SQLAlchemy 2: the tables (:mod:`.models`), migrations shipped in ``migrations/`` and run by
:func:`upgrade`, and the repositories implementing the service ports on SQLite (the default, a file) and
PostgreSQL (``postgresql+psycopg://…``).

    engine = create_engine("sqlite:///croupier.sqlite3")
    upgrade(engine)
    ledger = Ledger(SqlLedgerStore(engine))
    accounts = AccountService(SqlAccountStore(engine))
"""

from __future__ import annotations

from croupier.storage.account_store import SqlAccountStore
from croupier.storage.database import create_engine, current_revision, default_url, upgrade
from croupier.storage.ledger_store import SqlLedgerStore

__all__ = ["SqlAccountStore", "SqlLedgerStore", "create_engine", "current_revision", "default_url", "upgrade"]
