"""Where the running server is built from its configuration: the one composition root of ``croupier serve``.

:func:`serve` opens the services on the database (:func:`open_for`), builds the app over them (:func:`build`), seeds
the demo when asked, and runs uvicorn. Every choice of how the server runs is made here and nowhere else:

- where the casino runs: in a process of its own (:func:`open_process_services`, the default: the server's process
  keeps the sockets, the sessions and the ledger's readings, and each process gets a core) or on a thread of the
  server's process (:func:`open_services`, ``--casino-thread``; also the casino's process's own services, and the
  ``croupier admin`` commands');
- who runs the clock: the casino's process, or the app's ticker beside the casino's thread;
- whether the app recovers the unfinished rounds at start-up (the demo recovers before it seeds, so the app does
  not again);
- the per-account command rate limit;
- the garbage collector's tuning (:func:`tune_collector`), once start-up is done, in the server's process and in the
  casino's.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import uvicorn
from fastapi import FastAPI
from sqlalchemy.engine import make_url

from croupier.errors import CroupierError
from croupier.server.app import command_limit_of, create_app
from croupier.server.demo import DemoAccounts, banner, seed
from croupier.server.services import Services, crash_hook
from croupier.service.accounts import AccountService
from croupier.service.casino import Casino
from croupier.service.ledger import Ledger
from croupier.storage.database import WalCheckpointer

DEFAULT_FOLDER = Path("data")
DEFAULT_FILE = "croupier.sqlite3"
GC_THRESHOLDS = (20_000, 20, 20)
TICK_SECONDS = 0.1


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """How ``croupier serve`` runs: where it listens, its database (None: the SQLite file
    ``./data/croupier.sqlite3``), the demo, how long (None: until Ctrl+C), the access log, the command rate per
    account, where the casino runs and how often its clock ticks."""

    host: str = "127.0.0.1"
    port: int = 8000
    database: str | None = None
    demo: bool = False
    seconds: float | None = None
    access_log: bool = False
    command_rate: float = 20.0
    casino_process: bool = True
    tick_seconds: float = TICK_SECONDS


class CannotStart(Exception):
    """The server could not start: its database would not open, or the demo could not be seeded."""


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


def tune_collector() -> None:
    """Keep the cyclic garbage collector's pauses out of the bets' latency: what start-up built (modules, the app,
    the recovered tables) is frozen out of its scans, and it runs less often (its full collection of a big heap
    otherwise stops the server for 100 ms or more now and then; the server's data are few cycles)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def open_services(url: str, *, migrate: bool = True) -> Services:
    """Services on the database at ``url`` (an SQLAlchemy URL), migrated to the latest revision first, with the
    casino on a thread of this process (and the test-only crash hook of :mod:`croupier.server.services`)."""
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


def open_process_services(url: str, *, tick_seconds: float | None = TICK_SECONDS) -> Services:
    """Services whose casino runs in a process of its own (:mod:`croupier.server.casino_process`: it opens and
    migrates the database at ``url`` with :func:`open_services` and runs the clock every ``tick_seconds``); this
    process keeps the accounts and the ledger's readings on its own connections. Call it before this process starts
    any thread."""
    from croupier.server.casino_process import CasinoProcess
    from croupier.storage import SqlAccountStore, SqlLedgerStore, create_engine

    port = CasinoProcess(url, tick_seconds=tick_seconds).start()
    try:
        engine = create_engine(url)
        ledger = Ledger(SqlLedgerStore(engine))
        accounts = AccountService(SqlAccountStore(engine))
    except BaseException:
        port.stop()
        raise
    return Services(accounts=accounts, ledger=ledger, engine=engine, port=port)


def open_for(config: ServerConfig) -> Services:
    """The services of ``config``: its database, the casino where it says. ``CannotStart`` if they do not open."""
    try:
        url = database_url(config.database)
        if config.casino_process:
            return open_process_services(url, tick_seconds=config.tick_seconds)
        return open_services(url)
    except Exception as error:
        raise CannotStart(f"cannot open the database: {error}") from error


def build(config: ServerConfig, services: Services) -> FastAPI:
    """The app of ``config`` over ``services`` (which it closes at shutdown)."""
    return create_app(
        services,
        tick_seconds=None if config.casino_process else config.tick_seconds,  # the casino's process runs its own
        close_services=True,
        recover=not config.demo,  # the demo recovers before it seeds
        command_limit=command_limit_of(config.command_rate),
        on_started=tune_collector,
    )


def seed_demo(services: Services) -> DemoAccounts:
    """Bring back the tables already open, then seed the demo's accounts, money and tables where they are missing."""
    services.at_casino(Casino.recover)
    return seed(services)


@dataclass
class Built:
    """A server ready to run: its app, its services and, with ``--demo``, who can log in."""

    config: ServerConfig
    app: FastAPI
    services: Services
    demo: DemoAccounts | None = None


def start(config: ServerConfig) -> Built:
    """Open the services of ``config``, build the app and seed the demo when asked (``CannotStart`` if one fails)."""
    services = open_for(config)
    app = build(config, services)
    demo = None
    if config.demo:
        try:
            demo = seed_demo(services)
        except CroupierError as error:
            services.close()
            raise CannotStart(str(error)) from error
    return Built(config, app, services, demo)


def serve(config: ServerConfig, *, say: Callable[[str], None] = print) -> None:
    """Run the server of ``config`` until Ctrl+C (or ``config.seconds``); the demo's banner goes to ``say``."""
    built = start(config)
    if built.demo is not None:
        for line in banner(built.demo, config.host, config.port):
            say(line)
    server = uvicorn.Server(
        uvicorn.Config(
            built.app,
            host=config.host,
            port=config.port,
            log_level="warning" if config.demo else "info",
            access_log=config.access_log,
            ws_per_message_deflate=False,  # the events are small: compressing each costs more than it saves
        )
    )
    if config.seconds is not None:
        threading.Timer(config.seconds, lambda: setattr(server, "should_exit", True)).start()
    server.run()
