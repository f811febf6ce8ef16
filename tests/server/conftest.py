"""Fixtures of the server tests: a real ``croupier serve`` process on a free loopback port (SQLite in a temporary
folder, or a uniquely named PostgreSQL database), and an HTTP client for it."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pgserver import free_port, fresh_database
from server.support import ADMIN, PASSWORD, Server

START_TIMEOUT = 60.0


def bootstrap(url: str, tmp: Path) -> None:
    """Create the first admin with the ``croupier admin`` command, as an operator would."""
    cmd = [sys.executable, "-c", "from croupier.cli import main; main()", "admin", "create-admin", ADMIN]
    subprocess.run([*cmd, "--password", PASSWORD, "--database", url], check=True, cwd=tmp, timeout=120)


def start_server(url: str, tmp: Path, options: tuple[str, ...] = ()) -> Iterator[Server]:
    """Run ``croupier serve`` on ``url`` (with ``options``) until the test ends (terminated, then killed, in the
    finaliser)."""
    bootstrap(url, tmp)
    port = free_port()
    log = (tmp / "server.log").open("wb")
    cmd = [sys.executable, "-c", "from croupier.cli import main; main()", "serve"]
    process = subprocess.Popen(
        [*cmd, "--host", "127.0.0.1", "--port", str(port), "--database", url, *options],
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


MANUAL_CLOCK = ("--manual-clock",)
"""The casino's clock moves only when a test says (``Server.advance``, ``Server.run_out``): no window closes and no
timer runs out while a test's request is on its way, however busy the machine."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real server on a fresh SQLite file with a manual clock, shared by a module's tests (each uses its own tables
    and players)."""
    tmp_path = tmp_path_factory.mktemp("server")
    yield from start_server(f"sqlite:///{tmp_path / 'croupier.sqlite3'}", tmp_path, MANUAL_CLOCK)


@pytest.fixture
def postgres_server(tmp_path: Path) -> Iterator[Server]:
    """A real server with a manual clock on a freshly created PostgreSQL database, dropped afterwards (skipped when
    none answers)."""
    # The plain postgresql:// form, as an operator types it: the server maps it to psycopg.
    with fresh_database("croupier_server", drivername="postgresql") as url:
        yield from start_server(url, tmp_path, MANUAL_CLOCK)


@pytest.fixture(scope="module")
def zygote() -> Iterator[Any]:
    """The fault tests' process factory (``server.test_faults.Zygote``): servers forked from one warm interpreter."""
    from server.test_faults import Zygote

    z = Zygote()
    try:
        yield z
    finally:
        z.close()


@pytest.fixture
def client() -> Iterator[httpx.Client]:
    """A plain HTTP client for the fault tests."""
    with httpx.Client(timeout=30) as c:
        yield c
