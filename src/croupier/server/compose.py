"""Where the running server is built from its configuration: the one composition root of ``croupier serve``.

:func:`serve` opens the services on the database (:func:`open_for`), builds the app over them (:func:`build`), seeds
the demo when asked, and runs uvicorn. Every choice of how the server runs is made here and nowhere else:

- where the casino runs: in a process of its own (:func:`open_process_services`, the default: the server's process
  keeps the sockets, the sessions and the ledger's readings, and each process gets a core) or on a thread of the
  server's process (:func:`open_services`, ``--casino-thread``; also the casino's process's own services, and the
  ``croupier admin`` commands');
- who runs the clock: the casino's process, or the app's ticker beside the casino's thread; or, for tests only
  (``--manual-clock``), nobody: the casino's clock stands still until ``POST /api/testing/clock`` moves it
  (:mod:`croupier.server.testing`);
- whether the app recovers the unfinished rounds at start-up (the demo recovers before it seeds, so the app does
  not again);
- the per-account command rate limit;
- the garbage collector's tuning (:func:`tune_collector`), once start-up is done, in the server's process and in the
  casino's.
"""

from __future__ import annotations

import gc
import logging
import os
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import uvicorn
from fastapi import FastAPI
from sqlalchemy.engine import make_url

from croupier.errors import CroupierError
from croupier.money import DEFAULT_CURRENCY, check_currency
from croupier.server import testing
from croupier.server.app import command_limit_of, create_app
from croupier.server.demo import PASSWORDS as DEMO_PASSWORDS
from croupier.server.demo import DemoAccounts, banner, seed
from croupier.server.edge import MAX_BODY, redact_logs
from croupier.server.services import Services, crash_hook
from croupier.service.accounts import AccountService
from croupier.service.casino import Casino
from croupier.service.ledger import Ledger, utc_now
from croupier.storage.database import WalCheckpointer

DEFAULT_FOLDER = Path("data")
DEFAULT_FILE = "croupier.sqlite3"
DEMO_FILE = "croupier-demo.sqlite3"
GC_THRESHOLDS = (20_000, 20, 20)
TICK_SECONDS = 0.1
DEMO_SHUTDOWN_SECONDS = 1
"""At Ctrl+C the demo waits this long at most for open connections (browsers' sockets) to close."""
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """How ``croupier serve`` runs: where it listens, its database (None: the SQLite file
    ``./data/croupier.sqlite3``, or ``./data/croupier-demo.sqlite3`` for the demo), the demo, how long (None: until
    Ctrl+C), the access log, the command rate per account, where the casino runs and how often its clock ticks (or,
    for tests only, whether its clock is manual)."""

    host: str = "127.0.0.1"
    port: int = 8000
    database: str | None = None
    demo: bool = False
    seconds: float | None = None
    access_log: bool = False
    command_rate: float = 20.0
    casino_process: bool = True
    tick_seconds: float = TICK_SECONDS
    manual_clock: bool = False  # for tests only: :mod:`croupier.server.testing`
    allow_demo_passwords: bool = False
    """Start even on a database whose accounts still have the demo's published passwords (refused otherwise)."""
    currency: str = DEFAULT_CURRENCY
    """ISO 4217: the currency the page shows every amount in (a per-deployment setting)."""


class CannotStart(Exception):
    """The server could not start: its database would not open, or the demo could not be seeded."""


def database_url(url: str | None, *, demo: bool = False) -> str:
    """The SQLAlchemy URL of ``url``: ``postgresql://`` (or ``postgres://``) runs on psycopg 3; none gives the
    SQLite file ``./data/croupier.sqlite3``, or for the demo ``./data/croupier-demo.sqlite3`` (its accounts, with
    their published passwords, never in the production file), creating the folder."""
    if not url:
        DEFAULT_FOLDER.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{DEFAULT_FOLDER / (DEMO_FILE if demo else DEFAULT_FILE)}"
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


def open_services(url: str, *, migrate: bool = True, clock: Callable[[], datetime] = utc_now) -> Services:
    """Services on the database at ``url`` (an SQLAlchemy URL), migrated to the latest revision first, with the
    casino on a thread of this process (and the test-only crash hook of :mod:`croupier.server.services`), reading
    ``clock`` (tests only: a :class:`~croupier.server.testing.ManualClock`)."""
    from croupier.storage import SqlAccountStore, SqlLedgerStore, create_engine, upgrade
    from croupier.storage.casino_store import SqlCasinoStore

    engine = create_engine(url)
    if migrate:
        upgrade(engine)
    ledger = Ledger(SqlLedgerStore(engine))
    accounts = AccountService(SqlAccountStore(engine))
    casino = Casino(ledger, accounts, SqlCasinoStore(engine), clock=clock, on_commit=crash_hook(os.environ))
    checkpointer = WalCheckpointer(engine)
    checkpointer.start()
    return Services(accounts=accounts, ledger=ledger, casino=casino, engine=engine, checkpointer=checkpointer)


def open_process_services(
    url: str, *, tick_seconds: float | None = TICK_SECONDS, manual_clock: bool = False
) -> Services:
    """Services whose casino runs in a process of its own (:mod:`croupier.server.casino_process`: it opens and
    migrates the database at ``url`` with :func:`open_services` and runs the clock every ``tick_seconds``; with
    ``manual_clock``, for tests only, its clock is a :class:`~croupier.server.testing.ManualClock` and it runs no
    clock of its own); this process keeps the accounts and the ledger's readings on its own connections. Call it
    before this process starts any thread."""
    from croupier.server.casino_process import CasinoProcess
    from croupier.storage import SqlAccountStore, SqlLedgerStore, create_engine

    port = CasinoProcess(url, tick_seconds=tick_seconds, manual_clock=manual_clock).start()
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
        url = database_url(config.database, demo=config.demo)
        if config.casino_process:
            return open_process_services(url, tick_seconds=config.tick_seconds, manual_clock=config.manual_clock)
        if config.manual_clock:
            return open_services(url, clock=testing.ManualClock())
        return open_services(url)
    except Exception as error:
        raise CannotStart(f"cannot open the database: {error}") from error


def build(config: ServerConfig, services: Services) -> FastAPI:
    """The app of ``config`` over ``services`` (which it closes at shutdown); with ``config.manual_clock`` (tests
    only) no background clock, and the route that moves the manual one (:mod:`croupier.server.testing`)."""
    # The casino's process runs its own clock; a manual clock moves only through the testing route.
    no_ticker = config.casino_process or config.manual_clock
    app = create_app(
        services,
        tick_seconds=None if no_ticker else config.tick_seconds,
        close_services=True,
        recover=not config.demo,  # the demo recovers before it seeds
        command_limit=command_limit_of(config.command_rate),
        on_started=tune_collector,
        currency=config.currency,
    )
    if config.manual_clock:
        log.warning("the casino's clock is manual (--manual-clock, for tests only): POST /api/testing/clock moves it")
        testing.install(app)
    return app


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


def check(config: ServerConfig) -> None:
    """``CannotStart`` if ``config`` cannot run, whatever its database (before the port or the database is taken)."""
    if config.manual_clock and config.demo:
        raise CannotStart("--manual-clock is for tests only: it does not run with --demo")
    try:
        check_currency(config.currency)
    except ValueError as error:
        raise CannotStart(f"--{error}") from None


def start(config: ServerConfig) -> Built:
    """Open the services of ``config``, build the app and seed the demo when asked (``CannotStart`` if one fails)."""
    check(config)
    services = open_for(config)
    if not config.demo and not config.allow_demo_passwords:
        try:
            refuse_demo_passwords(services)
        except BaseException:
            services.close()
            raise
    app = build(config, services)
    demo = None
    if config.demo:
        try:
            demo = seed_demo(services)
        except CroupierError as error:
            services.close()
            raise CannotStart(str(error)) from error
    return Built(config, app, services, demo)


def refuse_demo_passwords(services: Services) -> None:
    """``CannotStart``, naming them, when accounts of the database still have the demo's published passwords."""
    names = services.accounts.accounts_with_passwords(DEMO_PASSWORDS)
    if names:
        raise CannotStart(
            f"refusing to start: the account(s) {', '.join(names)} on this database still have the demo's published "
            "passwords (croupier serve --demo). Give each a new password (croupier admin reset-password NAME), run "
            "the demo with croupier serve --demo (which keeps a database of its own), or, knowingly, start with "
            "--allow-demo-passwords."
        )


def serve(config: ServerConfig, *, say: Callable[[str], None] = print, sock: socket.socket | None = None) -> None:
    """Run the server of ``config`` until Ctrl+C (or ``config.seconds``); the demo's banner goes to ``say``.

    ``sock``: a socket already listening on the server's address (``croupier serve`` and ``croupier demo --serve``
    take it first, so that a port in use stops them before anything opens); without it uvicorn binds the configured
    address once the start-up is done. At Ctrl+C the demo waits at most :data:`DEMO_SHUTDOWN_SECONDS` for open
    connections to close."""
    port = config.port if sock is None else sock.getsockname()[1]
    built = start(config)
    if built.demo is not None:
        for line in banner(built.demo, config.host, port):
            say(line)
    server = uvicorn.Server(
        uvicorn.Config(
            built.app,
            host=config.host,
            port=port,
            log_level="warning" if config.demo else "info",
            access_log=config.access_log,
            ws_per_message_deflate=False,  # the events are small: compressing each costs more than it saves
            ws_max_size=MAX_BODY,  # a bigger message closes its socket (1009) before it is read whole
            timeout_graceful_shutdown=DEMO_SHUTDOWN_SECONDS if config.demo else None,
        )
    )
    redact_logs()  # after uvicorn configured its loggers: no token in a line that names a URL
    timer = None
    if config.seconds is not None:
        timer = threading.Timer(config.seconds, lambda: setattr(server, "should_exit", True))
        timer.daemon = True  # Ctrl+C before it fires does not wait for it
        timer.start()
    try:
        server.run(sockets=None if sock is None else [sock])
    finally:
        if timer is not None:
            timer.cancel()
