"""Debian's ``dieharder`` run on the stream croupier's own batteries test (issue 18, bit level).

dieharder (Robert G. Brown's suite: Marsaglia's Diehard tests, NIST STS tests and its own) is a program, not a
library: croupier runs it as a subprocess on the same bytes and reads its result lines. Two ways in:

* a **generator** (the OS's generator, a seeded stream, a broken generator) is piped to ``dieharder -g 200``
  (raw binary on standard input) for as long as dieharder reads: each test gets fresh data, as it expects;
* a **file** of raw bytes is read with ``dieharder -g 201 -f FILE``; when a test needs more data than the file
  holds dieharder *rewinds* it and tests repeated data, which any test of independence then fails. Such a test is
  reported **skipped**, with the file's size and the number of rewinds, never with its meaningless p-value.

Each dieharder test prints one line per sub-test (``ntup``); its p-value is the Kolmogorov–Smirnov p-value of
``psamples`` first-level p-values, and dieharder calls a value within 1e-6 of 0 *or of 1* a failure (p-values
that fit too well are suspect too). croupier therefore turns each line's p into the two-sided ``2·min(p, 1 − p)``
and combines a test's lines as every multi-p-value test is combined (:mod:`croupier.rng.results`). When dieharder
is not installed, :func:`run` returns one skipped result that says so.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from croupier.rng.results import TestResult

FAMILY = "dieharder"
QUICK: tuple[int, ...] = (0, 1, 3, 4, 8, 9, 10, 11, 12, 13, 15, 16, 100, 101, 102, 202, 203, 204)
"""The tests run by default: every test dieharder rates *Good* that runs in seconds (not the 32×32 rank test,
the GCD test nor the DAB tests, which read gigabytes; ``all`` runs every test dieharder has)."""
SUSPECT: frozenset[int] = frozenset({5, 6, 7, 14})
"""Tests dieharder itself rates *Suspect* or *Do Not Use* (OPSO, OQSO, DNA, Sums): never run."""
TIMEOUT = 600.0
"""Seconds one dieharder test may run before it is stopped and reported skipped."""

_LINE = re.compile(
    r"^\s*(?P<name>[A-Za-z0-9_]+)\|\s*(?P<ntup>\d+)\|\s*(?P<tsamples>\d+)\|\s*(?P<psamples>\d+)\|"
    r"\s*(?P<p>[0-9.eE+-]+)\|\s*(?P<assessment>\w+)\s*$"
)
_REWOUND = re.compile(r"rewound (\d+) times")

Stream = Callable[[], bytes]
"""A generator's stream: each call gives the next chunk of raw bytes (never empty)."""


@dataclass(frozen=True)
class Line:
    """One dieharder result line."""

    name: str
    ntup: int
    tsamples: int
    psamples: int
    p: float
    assessment: str


def executable() -> str | None:
    """The ``dieharder`` program on the PATH, or ``None``."""
    return shutil.which("dieharder")


def parse(output: str) -> tuple[list[Line], int]:
    """dieharder's result lines in ``output``, and how many times it rewound its input file."""
    lines = []
    for raw in output.splitlines():
        m = _LINE.match(raw)
        if m:
            lines.append(
                Line(
                    m["name"],
                    int(m["ntup"]),
                    int(m["tsamples"]),
                    int(m["psamples"]),
                    float(m["p"]),
                    m["assessment"],
                )
            )
    rewinds = sum(int(n) for n in _REWOUND.findall(output))
    return lines, rewinds


def check_tests(tests: Iterable[int]) -> tuple[int, ...]:
    """``tests`` as dieharder test numbers it has and rates usable, else ``ValueError`` naming the bad one."""
    out = []
    for t in tests:
        if isinstance(t, bool) or not isinstance(t, int) or t < 0:
            raise ValueError(f"{t!r} is not a dieharder test number (see `dieharder -l`)")
        if t in SUSPECT:
            raise ValueError(f"dieharder test {t} is rated Suspect or Do Not Use by dieharder itself; it is not run")
        out.append(t)
    return tuple(out)


def all_tests() -> tuple[int, ...]:
    """Every test number the installed dieharder lists, less those it rates Suspect or Do Not Use."""
    exe = executable()
    if exe is None:
        return ()
    listing = subprocess.run([exe, "-l"], capture_output=True, text=True, check=False, timeout=60).stdout
    found = [int(n) for n in re.findall(r"^\s*-d\s+(\d+)\s", listing, flags=re.MULTILINE)]
    return tuple(n for n in found if n not in SUSPECT)


def _result(test: int, lines: Sequence[Line], n: int) -> TestResult:
    name = f"dieharder {lines[0].name}"
    ps = [2.0 * min(line.p, 1.0 - line.p) for line in lines]
    detail: dict[str, object] = {
        "test": test,
        "lines": [
            {"ntup": x.ntup, "tsamples": x.tsamples, "psamples": x.psamples, "p": x.p, "assessment": x.assessment}
            for x in lines
        ],
    }
    statistic = min(line.p for line in lines)
    return TestResult.of(name, FAMILY, statistic, ps, n, detail)


def _feed(proc: subprocess.Popen[bytes], stream: Stream, fed: list[int]) -> None:
    """Write ``stream``'s chunks to dieharder until it stops reading."""
    assert proc.stdin is not None
    try:
        while proc.poll() is None:
            chunk = stream()
            proc.stdin.write(chunk)
            fed[0] += len(chunk)
    except (BrokenPipeError, OSError, ValueError):
        pass  # dieharder has read what it needs and closed its input
    finally:
        with contextlib.suppress(OSError):
            proc.stdin.close()


def _read(proc: subprocess.Popen[bytes], got: list[bytes]) -> None:
    """Collect dieharder's output until it exits (standard input stays open for the feeder meanwhile)."""
    assert proc.stdout is not None
    got.append(proc.stdout.read())


def run_stream(
    stream: Stream,
    tests: Iterable[int] = QUICK,
    *,
    psamples: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    timeout: float = TIMEOUT,
) -> list[TestResult]:
    """dieharder's ``tests`` on a generator's endless ``stream`` (``-g 200``), one result per test."""
    todo = check_tests(tests)
    exe = executable()
    if exe is None:
        return [_absent()]
    out = []
    for i, test in enumerate(todo):
        args = [exe, "-g", "200", "-d", str(test)]
        if psamples is not None:
            args += ["-p", str(psamples)]
        proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        fed = [0]
        got: list[bytes] = []
        feeder = threading.Thread(target=_feed, args=(proc, stream, fed), daemon=True)
        reader = threading.Thread(target=_read, args=(proc, got), daemon=True)
        feeder.start()
        reader.start()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            out.append(TestResult.skip(f"dieharder -d {test}", FAMILY, fed[0] * 8, f"ran over {timeout:.0f} s"))
            continue
        finally:
            reader.join(timeout=5)
            feeder.join(timeout=5)
        text = b"".join(got)
        lines, _ = parse(text.decode("utf-8", "replace"))
        if not lines:
            out.append(TestResult.skip(f"dieharder -d {test}", FAMILY, fed[0] * 8, "dieharder printed no result"))
        else:
            out.append(_result(test, lines, fed[0] * 8))
        if progress is not None:
            progress(i + 1, len(todo))
    return out


def run_file(
    data: bytes | Path,
    tests: Iterable[int] = QUICK,
    *,
    psamples: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    timeout: float = TIMEOUT,
) -> list[TestResult]:
    """dieharder's ``tests`` on a fixed sequence of raw bytes (``-g 201 -f``): a test that needed more than the
    data holds (dieharder rewound the file) is skipped with the reason."""
    todo = check_tests(tests)
    exe = executable()
    if exe is None:
        return [_absent()]
    with tempfile.TemporaryDirectory(prefix="croupier-dieharder-") as tmp:
        if isinstance(data, Path):
            path, size = data, data.stat().st_size
        else:
            path, size = Path(tmp) / "stream.bin", len(data)
            path.write_bytes(data)
        out = []
        for i, test in enumerate(todo):
            args = [exe, "-g", "201", "-f", str(path), "-d", str(test)]
            if psamples is not None:
                args += ["-p", str(psamples)]
            name = f"dieharder -d {test}"
            try:
                done = subprocess.run(args, capture_output=True, check=False, timeout=timeout)
            except subprocess.TimeoutExpired:
                out.append(TestResult.skip(name, FAMILY, size * 8, f"ran over {timeout:.0f} s"))
                continue
            lines, rewinds = parse(done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace"))
            if rewinds:
                label = f"dieharder {lines[0].name}" if lines else name
                out.append(
                    TestResult.skip(
                        label,
                        FAMILY,
                        size * 8,
                        f"needs more than the {size:,} bytes given: dieharder rewound them {rewinds} times, so it "
                        "would test repeated data",
                    )
                )
            elif not lines:
                out.append(TestResult.skip(name, FAMILY, size * 8, "dieharder printed no result"))
            else:
                out.append(_result(test, lines, size * 8))
            if progress is not None:
                progress(i + 1, len(todo))
        return out


def _absent() -> TestResult:
    return TestResult.skip(
        "dieharder", FAMILY, 0, "dieharder is not installed (Debian's package dieharder; `make test` installs it)"
    )
