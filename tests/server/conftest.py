"""Fixtures of the server tests: a real ``croupier serve`` process on a free loopback port (SQLite in a temporary
folder, or a uniquely named PostgreSQL database), and an HTTP client for it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy
from sqlalchemy import text
from sqlalchemy.engine import make_url

from server.support import ADMIN, PASSWORD, Server

POSTGRES = os.environ.get("CROUPIER_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
START_TIMEOUT = 60.0


def free_port() -> int:
    """A port nobody listens on now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def bootstrap(url: str, tmp: Path) -> None:
    """Create the first admin with the ``croupier admin`` command, as an operator would."""
    cmd = [sys.executable, "-c", "from croupier.cli import main; main()", "admin", "create-admin", ADMIN]
    subprocess.run([*cmd, "--password", PASSWORD, "--database", url], check=True, cwd=tmp, timeout=120)


def start_server(url: str, tmp: Path) -> Iterator[Server]:
    """Run ``croupier serve`` on ``url`` until the test ends (terminated, then killed, in the finaliser)."""
    bootstrap(url, tmp)
    port = free_port()
    log = (tmp / "server.log").open("wb")
    cmd = [sys.executable, "-c", "from croupier.cli import main; main()", "serve"]
    process = subprocess.Popen(
        [*cmd, "--host", "127.0.0.1", "--port", str(port), "--database", url],
        cwd=tmp,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if process.poll() is not None:
                pytest.fail(f"the server exited with {process.returncode}:\n{(tmp / 'server.log').read_text()}")
            try:
                if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the server did not answer in {START_TIMEOUT} s:\n{(tmp / 'server.log').read_text()}")
            time.sleep(0.1)
        with httpx.Client(base_url=base, timeout=30) as client:
            yield Server(base=base, client=client, log=tmp / "server.log")
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)
        log.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real server on a fresh SQLite file, shared by a module's tests (each uses its own tables and players)."""
    tmp_path = tmp_path_factory.mktemp("server")
    yield from start_server(f"sqlite:///{tmp_path / 'croupier.sqlite3'}", tmp_path)


@pytest.fixture
def postgres_server(tmp_path: Path) -> Iterator[Server]:
    """A real server on a freshly created PostgreSQL database, dropped afterwards (skipped when none answers)."""
    admin_url = make_url(POSTGRES)
    admin = sqlalchemy.create_engine(admin_url, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3})
    try:
        with admin.connect() as connection:
            connection.execute(text("SELECT 1"))
    except sqlalchemy.exc.OperationalError as error:
        admin.dispose()
        reason = str(error.orig).strip().splitlines()[0] if error.orig else str(error)
        pytest.skip(f"no PostgreSQL reachable at {admin_url.render_as_string()} ({reason}); CI has one")
    name = f"croupier_server_{uuid.uuid4().hex[:12]}"
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    # The plain postgresql:// form, as an operator types it: the server maps it to psycopg.
    url = admin_url.set(drivername="postgresql", database=name).render_as_string(hide_password=False)
    try:
        yield from start_server(url, tmp_path)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
