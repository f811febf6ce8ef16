"""``make demo`` for a newcomer (issue 14 item 12): it installs only croupier's runtime dependencies (no browser, no
apt, no dev extras; the two installs have stamps of their own), checks its port before anything else, prints the
browser's address first, says what numba is doing on the first run, keeps ``DEMO_SECONDS``, and Ctrl+C stops
everything within two seconds without a traceback, during the offline part and while serving.

The demos run the Makefile's own recipe (``make -f Makefile -o <runtime stamp> demo``: its install left out) with
this interpreter's ``croupier``, in a folder of the test's own (so ``./data/croupier-demo.sqlite3`` is the test's),
in a process group of their own, as a terminal runs them; Ctrl+C is ``SIGINT`` to that group. The install's stamps
are checked by running the Makefile for real with a stand-in ``python``, ``croupier``, ``apt-get`` and ``sudo``
that only write down how they were called."""

from __future__ import annotations

import contextlib
import io
import json
import os
import queue
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import numba
from rich.console import Console
from websockets.sync.client import connect

from croupier import cli
from croupier.server.demo import PASSWORDS
from pgserver import free_port

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
VENV = BIN.parent
SHUTDOWN_BOUND = 2.0
"""Seconds from Ctrl+C until every process of the demo is gone: the issue's bound on shutdown, not a benchmark (it
takes about 0.2 s while serving and 0.01 s in the offline part on a quiet machine, so the bound holds under load)."""
WAIT = 300.0  # the longest a step may take before the test gives up on it (a cold start on a busy machine)


class Demo:
    """``make demo`` running in ``folder``: its output read as it comes, line by line, on a thread of its own."""

    def __init__(self, folder: Path, *variables: str) -> None:
        cmd = ["make", "--no-print-directory", "-f", str(ROOT / "Makefile"), f"VENV={VENV}", f"BIN={BIN}"]
        cmd += ["-o", f"{VENV}/.installed-runtime", "demo", *variables]
        self.process = subprocess.Popen(
            cmd, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stdout: list[str] = []
        self.errors: list[str] = []
        self.reading = [
            threading.Thread(target=self._read, daemon=True),
            threading.Thread(target=self._err, daemon=True),
        ]
        for reader in self.reading:
            reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _err(self) -> None:
        assert self.process.stderr is not None
        self.errors.extend(self.process.stderr)

    def until(self, text: str) -> str:
        """Read the output up to the line holding ``text`` and return that line."""
        deadline = time.monotonic() + WAIT
        while True:
            line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None, f"the demo ended before {text!r}:\n{''.join(self.stdout)}{self.finish()}"
            self.stdout.append(line)
            if text in line:
                return line

    def finish(self) -> str:
        """Wait for the demo to end; its standard error."""
        self.process.wait(timeout=WAIT)
        while (line := self.lines.get(timeout=WAIT)) is not None:
            self.stdout.append(line)
        for reader in self.reading:
            reader.join(timeout=WAIT)
        return "".join(self.errors)

    def interrupt(self) -> float:
        """Ctrl+C: ``SIGINT`` to the demo's process group. Seconds until every process of the group is gone."""
        started = time.monotonic()
        os.killpg(self.process.pid, signal.SIGINT)
        self.process.wait(timeout=WAIT)
        while _alive_in_group(self.process.pid) and time.monotonic() - started < WAIT:
            time.sleep(0.01)
        return time.monotonic() - started

    def kill(self) -> None:
        """End whatever is left of the demo's process group (a failed test's clean-up)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=WAIT)


def _alive_in_group(group: int) -> list[int]:
    """The processes of the process group ``group`` that still run (zombies, which no longer do, left out)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # ended meanwhile
            state, pgrp = fields[0], int(fields[2])
            if pgrp == group and state not in ("Z", "X"):
                alive.append(int(entry.name))
    return alive


@contextlib.contextmanager
def running(folder: Path, *variables: str) -> Iterator[Demo]:
    demo = Demo(folder, *variables)
    try:
        yield demo
    finally:
        demo.kill()


def _wait_until_serving(port: int) -> None:
    deadline = time.monotonic() + WAIT
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, f"nothing answered on port {port}"
        time.sleep(0.1)


def _port_is_free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def test_ctrl_c_while_serving_stops_everything_within_two_seconds(tmp_path: Path) -> None:
    """The server up (its health answered) with a player's WebSocket open, Ctrl+C ends the server, its casino's
    process and make within :data:`SHUTDOWN_BOUND` seconds, with no traceback, and frees the port."""
    port = free_port()
    with running(tmp_path, f"DEMO_PORT={port}", "DEMO_OFFLINE=no") as demo:
        assert f"http://127.0.0.1:{port}/" in demo.until("The table server is starting at")
        demo.until("croupier is serving on")
        _wait_until_serving(port)
        assert len(_alive_in_group(demo.process.pid)) >= 3  # make, the server and the casino's process
        token = httpx.post(
            f"http://127.0.0.1:{port}/api/login", json={"username": "ana", "password": PASSWORDS["ana"]}
        ).json()["token"]
        with connect(f"ws://127.0.0.1:{port}/ws/tables/roulette-1", open_timeout=30) as ws:
            ws.send(json.dumps({"type": "auth", "token": token}))
            assert json.loads(ws.recv(timeout=30))["type"] == "snapshot"
            elapsed = demo.interrupt()
        stderr = demo.finish()
    assert elapsed < SHUTDOWN_BOUND, f"Ctrl+C took {elapsed:.2f} s"
    assert _alive_in_group(demo.process.pid) == []
    assert "Traceback" not in stderr, stderr
    assert _port_is_free(port)


def test_ctrl_c_during_the_offline_part_stops_at_once(tmp_path: Path) -> None:
    """The address comes first; Ctrl+C while blackjack's exact analysis runs (numba's kernels, which no Python
    handler interrupts) ends the demo within :data:`SHUTDOWN_BOUND` seconds, with no traceback and no server."""
    port = free_port()
    with running(tmp_path, f"DEMO_PORT={port}") as demo:
        first = demo.until("")
        assert first.startswith("The table server will open at") and f"http://127.0.0.1:{port}/" in first
        demo.until("Blackjack's exact house edge")  # the rule line printed before the analysis starts
        elapsed = demo.interrupt()
        stderr = demo.finish()
    assert elapsed < SHUTDOWN_BOUND, f"Ctrl+C took {elapsed:.2f} s"
    assert _alive_in_group(demo.process.pid) == []
    assert "Traceback" not in stderr, stderr
    assert not any("croupier is serving" in line for line in demo.stdout)
    assert not (tmp_path / "data").exists()  # the offline part opens no database
    assert _port_is_free(port)


def test_a_port_in_use_is_one_line_before_anything_else(tmp_path: Path) -> None:
    """``make demo`` (and ``croupier serve``) on a port another program listens on: exit status not 0, one line
    naming the port and how to choose another, nothing on standard output, no traceback, no database."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with running(tmp_path, f"DEMO_PORT={port}") as demo:
            stderr = demo.finish()
        serve = [sys.executable, "-c", "from croupier.cli import main; main()", "serve", "--port", str(port)]
        served = subprocess.run(serve, cwd=tmp_path, capture_output=True, text=True, timeout=WAIT, check=False)
    assert demo.process.returncode != 0
    assert demo.stdout == []  # no address printed for a server that cannot start
    said = [line for line in stderr.splitlines() if f"port {port}" in line]
    assert len(said) == 1, stderr
    assert f"port {port} on 127.0.0.1 is already in use" in said[0] and "make demo DEMO_PORT=" in said[0], stderr
    assert "Traceback" not in stderr, stderr
    assert served.returncode == 2 and served.stdout == ""
    assert served.stderr.count("\n") == 1 and f"port {port} on 127.0.0.1 is already in use" in served.stderr
    assert "--port" in served.stderr and "Traceback" not in served.stderr
    assert not (tmp_path / "data").exists()


def test_demo_seconds_stops_the_server_by_itself(tmp_path: Path) -> None:
    """``make demo DEMO_SECONDS=1`` (as CI runs it) serves, then ends by itself with exit status 0."""
    port = free_port()
    with running(tmp_path, f"DEMO_PORT={port}", "DEMO_SECONDS=1", "DEMO_OFFLINE=no") as demo:
        stderr = demo.finish()
    assert demo.process.returncode == 0, stderr
    out = "".join(demo.stdout)
    assert out.startswith(f"The table server is starting at http://127.0.0.1:{port}/")
    assert f"croupier is serving on http://127.0.0.1:{port}" in out and "admin / croupier-admin" in out
    assert "Traceback" not in stderr, stderr
    assert (tmp_path / "data" / "croupier-demo.sqlite3").exists()


def test_the_offline_part_says_what_numba_is_doing_and_that_it_still_works() -> None:
    """The first compilation is announced as it starts, and a silence gets a "still working" line."""
    out = io.StringIO()
    console = Console(file=out, width=200, no_color=True)
    with cli._demo_progress(console, every=0.3):
        numba.njit(lambda x: x + 1)(1)  # a kernel compiled now (no cache): as on the demo's first run
        compiled = out.getvalue()
        deadline = time.monotonic() + WAIT
        while "still working" not in out.getvalue():  # waits for the line, whatever the machine's speed
            assert time.monotonic() < deadline
            time.sleep(0.05)
    assert "numba is compiling the exact analysis' kernels: the first run only" in compiled
    assert "… still working (" in out.getvalue()
    assert console._render_hooks == []  # the console is left as it was


def _fake(folder: Path, name: str, log: Path) -> None:
    """A stand-in program ``name`` in ``folder`` that writes its name and arguments to ``log`` and succeeds."""
    path = folder / name
    path.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def test_demo_and_test_install_what_each_needs_with_stamps_of_their_own(tmp_path: Path) -> None:
    """``make demo`` on a machine without Chromium or its fonts installs croupier's runtime extras only (no apt, no
    dev extras); ``make test`` then upgrades the venv with the dev extras; ``make demo`` after ``make test``
    installs nothing; a changed pyproject.toml makes each install again."""
    for name in ("Makefile", "pyproject.toml", "constraints.txt"):
        (tmp_path / name).write_bytes((ROOT / name).read_bytes())
    log = tmp_path / "calls.log"
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    tools = tmp_path / "tools-on-path"
    tools.mkdir()
    for name in ("python", "croupier", "ruff", "mypy"):
        _fake(bin_dir, name, log)
    for name in ("apt-get", "sudo"):
        _fake(tools, name, log)
    env = {**os.environ, "PATH": f"{tools}:{os.environ['PATH']}"}
    missing = [f"CHROMIUM={tmp_path / 'no-chromium'}", f"CJK_FONT={tmp_path / 'no-font'}"]
    (tmp_path / "chromium").touch()
    (tmp_path / "font.ttc").touch()
    present = [f"CHROMIUM={tmp_path / 'chromium'}", f"CJK_FONT={tmp_path / 'font.ttc'}"]

    def make(target: str, *variables: str) -> list[str]:
        log.write_text("")
        done = subprocess.run(
            ["make", "--no-print-directory", target, *variables],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=WAIT,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return log.read_text().splitlines()

    runtime = "python -m pip install --quiet -c constraints.txt -e .[math,server]"
    dev = "python -m pip install --quiet -c constraints.txt -e .[dev]"
    calls = make("demo", *missing)
    assert runtime in calls and dev not in calls
    assert not any(c.startswith(("apt-get", "sudo")) for c in calls)  # no browser, no fonts, no root
    assert calls[-1] == "croupier demo --serve --port 8000"
    assert make("demo", *missing, "DEMO_PORT=8123", "DEMO_SECONDS=5") == [
        "croupier demo --serve --port 8123 --seconds 5"
    ]  # installed once
    calls = make("test", *present)
    assert dev in calls and runtime not in calls  # the dev extras added to the same venv
    assert make("demo", *missing) == ["croupier demo --serve --port 8000"]  # nothing reinstalled after make test

    past = time.time() - 1000
    for stamp in (".installed", ".installed-runtime"):
        os.utime(tmp_path / ".venv" / stamp, (past, past))  # pyproject.toml changed since
    assert runtime in make("demo", *missing)
    assert dev in make("test", *present)
    assert make("demo", *missing, "DEMO_OFFLINE=no") == ["croupier demo --serve --port 8000 --no-offline"]
