"""The PostgreSQL the tests use: ``$CROUPIER_TEST_POSTGRES_URL`` or the trust-auth server on 127.0.0.1:5432 (CI
and the development machine run one); where none answers, a throwaway cluster started from the PostgreSQL
binaries of the Debian package (``initdb``/``pg_ctl`` on the PATH or under ``/usr/lib/postgresql/*/bin``), on a
free port, stopped when the test session ends. Only if neither works are the PostgreSQL tests skipped."""

from __future__ import annotations

import atexit
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import pytest
import sqlalchemy
from sqlalchemy import text
from sqlalchemy.engine import make_url

DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def _answers(url: str) -> str | None:
    """None when a server answers at ``url``, else why not."""
    engine = sqlalchemy.create_engine(url, connect_args={"connect_timeout": 3})
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        return None
    except sqlalchemy.exc.OperationalError as error:
        return str(error.orig).strip().splitlines()[0] if error.orig else str(error)
    finally:
        engine.dispose()


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def free_port() -> int:
    """A loopback port nobody listens on now (the OS picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _start_cluster() -> tuple[str | None, str]:
    """Start a throwaway cluster; (its URL, or None and why not)."""
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if not initdb or not pg_ctl:
        return None, "the PostgreSQL binaries (initdb, pg_ctl) are not installed"
    folder = Path(tempfile.mkdtemp(prefix="croupier-pg-"))
    run_as: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root: run it as the package's postgres user
        runuser = shutil.which("runuser")
        if not runuser:
            return None, "running as root without runuser to start PostgreSQL as postgres"
        shutil.chown(folder, "postgres", "postgres")
        run_as = [runuser, "-u", "postgres", "--"]
    data, port = folder / "data", free_port()
    try:
        subprocess.run(
            [*run_as, initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8"],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(
            [*run_as, pg_ctl, "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w", "start"],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
    except (subprocess.SubprocessError, OSError) as error:
        return None, f"could not start a throwaway PostgreSQL ({error})"

    def stop() -> None:
        subprocess.run([*run_as, pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True, check=False)
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(stop)
    return f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres", ""


@cache
def postgres_admin_url() -> tuple[str | None, str]:
    """The URL of a PostgreSQL server to create test databases on, or None and the reason there is none."""
    url = os.environ.get("CROUPIER_TEST_POSTGRES_URL", DEFAULT)
    why = _answers(url)
    if why is None:
        return url, ""
    started, failure = _start_cluster()
    if started is not None and _answers(started) is None:
        return started, ""
    return None, f"no PostgreSQL at {url} ({why}) and {failure or 'the throwaway one did not answer'}"


@contextmanager
def fresh_database(prefix: str, *, drivername: str = "postgresql+psycopg") -> Iterator[str]:
    """A uniquely named, empty PostgreSQL database for a test or a session, dropped afterwards; the test is
    skipped, saying why, where no PostgreSQL can be had."""
    admin_url_text, why = postgres_admin_url()
    if admin_url_text is None:
        pytest.skip(why)
    admin_url = make_url(admin_url_text)
    admin = sqlalchemy.create_engine(admin_url, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3})
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield admin_url.set(drivername=drivername, database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
