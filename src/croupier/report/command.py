"""The work of ``croupier par``: build a game's PAR sheet and write it as HTML (and PDF), with every problem a
``ValueError`` whose message the CLI prints (exit 2)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from croupier.games import game
from croupier.report.html import Report
from croupier.report.pdf import check_engine


def check_writable(path: Path, what: str) -> None:
    """Raise ``ValueError`` unless ``path`` can be written (its folder exists and is writable, and it is not a
    folder itself), so that a long computation does not end in an unwritable file."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise ValueError(f"{what} {str(path)!r} is a folder, not a file")
    if not folder.is_dir():
        raise ValueError(f"cannot write {what} {str(path)!r}: the folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ValueError(f"cannot write {what} {str(path)!r}: permission denied")


def build_par(name: str, rules: Any, *, rounds: int | None, seed: int | None, source: str) -> Report:
    """The PAR sheet of game ``name``: the game's ``par`` part in :data:`croupier.games.GAMES`, imported when
    needed (blackjack's brings the combinatorial analysis), called as ``par(rules, rounds=…, seed=…, source=…)``."""
    if rounds is not None and rounds < 0:
        raise ValueError(f"--rounds {rounds} must be 0 (no simulation) or more")
    if seed is not None and seed < 0:
        raise ValueError(f"--seed {seed} must be 0 or more")
    build = game(name).part("par")
    report: Report = build(rules, rounds=rounds, seed=seed, source=source)
    return report


def run_par(
    name: str,
    rules: Any,
    *,
    out: Path,
    pdf: Path | None = None,
    rounds: int | None = None,
    seed: int | None = None,
    source: str = "",
) -> str:
    """Build the PAR sheet and write it; return a line saying what was written and how long it took. Every
    problem that can be seen before the work (an unwritable path, no PDF engine) is raised before it; the PDF
    is typeset before anything is written, so a failure leaves no file behind."""
    start = time.perf_counter()
    check_writable(out, "the report")
    if pdf is not None:
        check_writable(pdf, "the PDF")
        if Path(pdf).resolve() == Path(out).resolve():
            raise ValueError(f"--pdf {str(pdf)!r} is the HTML report's own path: give another file")
        check_engine()
    report = build_par(name, rules, rounds=rounds, seed=seed, source=source)
    built = time.perf_counter()
    try:
        text = report.html()
        data = report.pdf() if pdf is not None else None
        Path(out).write_text(text, encoding="utf-8")
        if pdf is not None and data is not None:
            Path(pdf).write_bytes(data)
    except OSError as exc:
        raise ValueError(f"cannot write the report: {exc.strerror or exc} ({exc.filename})") from None
    finally:
        report.close()
    done = time.perf_counter()
    written = str(out) + (f" and {pdf}" if pdf is not None else "")
    return f"Wrote {written}: built in {built - start:.1f} s, written in {done - built:.1f} s."
