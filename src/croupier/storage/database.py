"""Connecting to the database and migrating it.

SQLite (the default, a file) is opened in WAL journal mode with ``synchronous=FULL`` and foreign keys on; every
write transaction starts with ``BEGIN IMMEDIATE``, so writers take turns (a single writer) and wait up to
``busy_timeout`` seconds for each other. PostgreSQL (``postgresql+psycopg://…``) runs writers side by side under
row locks (``SELECT … FOR UPDATE``); its read transactions are ``REPEATABLE READ`` snapshots.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

import sqlalchemy
from sqlalchemy import Engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.pool import ConnectionPoolEntry

from croupier.storage.fastpath import driver_error

ENV_URL = "CROUPIER_DATABASE_URL"
DEFAULT_FILE = "croupier.sqlite3"
MIGRATIONS = Path(__file__).parent / "migrations"
READ_ONLY = "croupier_read_only"


def default_url() -> str:
    """``$CROUPIER_DATABASE_URL``, or the SQLite file ``croupier.sqlite3`` in the working directory."""
    return os.environ.get(ENV_URL) or f"sqlite:///{DEFAULT_FILE}"


def create_engine(url: str | URL | None = None, *, busy_timeout: float = 30.0, **options: Any) -> Engine:
    """An engine for ``url`` (default :func:`default_url`) set up as the module docstring says; ``options``
    go to ``sqlalchemy.create_engine``."""
    url = make_url(url or default_url())
    if url.get_backend_name() == "sqlite":
        options.setdefault("connect_args", {}).setdefault("timeout", busy_timeout)
        if url.database and url.database != ":memory:" and "poolclass" not in options:
            # A server's request threads each read (authentication) at once: keep their connections open rather
            # than opening, setting up and closing one per request beyond the default five.
            options.setdefault("pool_size", 20)
            options.setdefault("max_overflow", 40)
        engine = sqlalchemy.create_engine(url, **options)
        _set_up_sqlite(engine)
        return engine
    return sqlalchemy.create_engine(url, **options)


def _set_up_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: sqlite3.Connection, record: ConnectionPoolEntry) -> None:
        # Transactions are begun by hand below (the driver's own BEGIN would be DEFERRED).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        # A bet's savepoint keeps the pages it changes in a statement journal: in memory rather than a temporary
        # file (a settlement's would otherwise spill to disk, costing it a fifth of its time).
        cursor.execute("PRAGMA temp_store=MEMORY")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: sqlalchemy.Connection) -> None:
        read_only = connection.get_execution_options().get(READ_ONLY, False)
        sql = "BEGIN" if read_only else "BEGIN IMMEDIATE"
        # On the driver's connection: through ``exec_driver_sql`` a BEGIN costs as much Python as a bet's statement.
        driver = connection.connection.driver_connection
        try:
            driver.execute(sql)  # type: ignore[union-attr]
        except sqlite3.Error as error:
            raise driver_error(sql, (), error, connection) from error


class WalCheckpointer:
    """SQLite only: checkpoints the write-ahead log from a background thread every ``every`` seconds (``PASSIVE``:
    it never waits for, nor blocks, a writer), so that a commit seldom has to checkpoint (copy the log into the
    database file and ``fsync`` it) while a client waits for it. SQLite's own automatic checkpoint stays on as the
    backstop. A no-op on other databases."""

    def __init__(self, engine: Engine, *, every: float = 0.5) -> None:
        self.engine = engine
        self.every = every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the thread (once)."""
        if self.engine.dialect.name != "sqlite" or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="wal-checkpoint", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def _run(self) -> None:
        connection = self.engine.raw_connection()
        try:
            while not self._stop.wait(self.every):
                cursor = connection.cursor()
                try:
                    cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:  # busy or closing: the next round tries again
                    pass
                finally:
                    cursor.close()
        finally:
            connection.close()


def read_engine(engine: Engine) -> Engine:
    """The engine for read transactions: a deferred ``BEGIN`` on SQLite, ``REPEATABLE READ`` on PostgreSQL."""
    if engine.dialect.name == "postgresql":
        return engine.execution_options(isolation_level="REPEATABLE READ", **{READ_ONLY: True})
    return engine.execution_options(**{READ_ONLY: True})


def upgrade(url: str | URL | Engine | None = None, revision: str = "head") -> None:
    """Run croupier's migrations (shipped in ``croupier/storage/migrations``) on the database up to ``revision``."""
    from alembic import command
    from alembic.config import Config

    engine = url if isinstance(url, Engine) else create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
    finally:
        if engine is not url:
            engine.dispose()


def current_revision(engine: Engine) -> str | None:
    """The migration revision the database is at (``None`` before the first)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
