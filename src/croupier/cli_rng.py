"""``croupier rng``: certify the chance (issue 18).

* ``croupier rng test SOURCE`` — the NIST SP 800-22 battery, dieharder, the game-level tests and the second level
  on ``system``, ``seeded:SEED``, ``broken:NAME[:SEED]`` or a file; or, with ``--table ID --database URL``, on a
  table's recorded results, with the bias watch;
* ``croupier rng power`` — the suite against the broken generators it ships: the smallest sample that catches each.

Exit status: 0 the source passes, 1 it fails, 2 bad input (one line on standard error, nothing run). Only Typer is
imported here; numpy, scipy and the tests are imported when a command runs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from croupier.rng.certify import Certification

rng_app = typer.Typer(
    help="Certify the chance: statistical tests of croupier's generators and of a table's recorded results.",
    no_args_is_help=True,
)

GAME_CHOICES = ("all", "bits", "roulette", "sicbo", "blackjack")


def _bad(message: str) -> typer.Exit:
    from rich.console import Console
    from rich.markup import escape

    Console(stderr=True).print(f"[red]Error:[/red] {escape(message)}", soft_wrap=True, highlight=False)
    return typer.Exit(2)


def _dieharder_tests(spec: str) -> tuple[int, ...] | None:
    from croupier.rng import dieharder

    text = spec.strip().lower()
    if text == "none":
        return None
    if text == "quick":
        return dieharder.QUICK
    if text == "all":
        return dieharder.all_tests() or dieharder.QUICK
    try:
        numbers = [int(p) for p in text.split(",") if p.strip()]
    except ValueError:
        raise ValueError(f"--dieharder takes quick, all, none or test numbers such as 0,1,100, not {spec!r}") from None
    return dieharder.check_tests(numbers)


class _Bar:
    """A Rich progress bar on standard error, one task per stage."""

    def __init__(self, quiet: bool) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=True,
            disable=quiet,
        )
        self.tasks: dict[str, Any] = {}

    def __call__(self, stage: str, done: int, total: int) -> None:
        task = self.tasks.get(stage)
        if task is None:
            task = self.tasks[stage] = self.progress.add_task(stage, total=total)
        self.progress.update(task, completed=done, total=total)


def _print(cert: Certification) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    alpha = cert.alpha
    for g in cert.games:
        table = Table(title=f"{g.game}: {g.description}", title_justify="left")
        for col in ("test", "statistic", "p-value", "verdict", "note"):
            table.add_column(col, justify="right" if col in ("statistic", "p-value") else "left")
        shown = g.runs[0] if len(g.runs) == 1 else [*g.runs[0], *g.second]
        for r in shown:
            v = r.verdict(alpha)
            colour = {"pass": "green", "fail": "red"}.get(v, "yellow")
            table.add_row(
                r.name,
                "—" if r.statistic is None else f"{r.statistic:.6g}",
                "—" if r.p_value is None else f"{r.p_value:.6f}",
                f"[{colour}]{v}[/{colour}]",
                r.skipped or "",
            )
        console.print(table)
        console.print(f"  fingerprint {g.fingerprint}")
    if cert.dieharder:
        table = Table(title="dieharder", title_justify="left")
        for col in ("test", "p-value", "verdict", "note"):
            table.add_column(col)
        for r in cert.dieharder:
            table.add_row(r.name, "—" if r.p_value is None else f"{r.p_value:.6f}", r.verdict(alpha), r.skipped or "")
        console.print(table)
    watch = cert.extra.get("watch")
    if isinstance(watch, dict):
        needed = watch.get("needed")
        n = needed.get("rounds") if isinstance(needed, dict) else None
        console.print(
            f"bias watch over {watch.get('rounds')} rounds: {watch.get('verdict')}"
            f" (rounds needed to detect a bias of {watch.get('bias')}: {n})"
        )
    counts = cert.counts()
    colour = "green" if cert.verdict == "pass" else "red" if cert.verdict == "fail" else "yellow"
    console.print(
        f"[bold {colour}]{cert.verdict.upper()}[/bold {colour}] at alpha {alpha:g}: {counts['pass']} passed, "
        f"{counts['fail']} failed, {counts['skipped']} skipped; data fingerprint {cert.fingerprint}"
    )


def _table_certification(
    table: str, database: str | None, last: int | None, *, alpha: float, repeat: int, bar: _Bar
) -> Certification:
    from croupier.rng import sources, watch
    from croupier.rng.certify import Certification, test_sample

    if not database:
        raise ValueError("--table needs --database URL (the casino's database: sqlite:///… or postgresql://…)")
    found = watch.table_results(database, table, last)
    span = f" (rounds {found.rounds[0]} to {found.rounds[-1]})" if found.rounds else ""
    what = "spins" if found.game == "roulette" else "rolls"
    description = f"{len(found):,} settled {what} of table {table}{span}"
    data = found.outcomes.astype("int64")
    sample = sources.Sample(found.game, data, 0, description, sources.fingerprint(found.game, data))
    run = test_sample(sample, repeat, lambda d, t: bar("testing " + found.game, d, t))
    report = watch.watch_table(found, alpha=alpha)
    cert = Certification(f"table {table} at {_safe_url(database)}", alpha, repeat, [run], [])
    cert.extra["watch"] = report.to_json()
    return cert


def _safe_url(url: str) -> str:
    """The database URL without its password (a report or a screen never shows one)."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "the database given"


@rng_app.command("test")
def test(
    source: Annotated[
        str | None,
        typer.Argument(help="system, seeded:SEED, broken:NAME[:SEED] or a file of raw bytes or outcomes."),
    ] = None,
    *,
    game: Annotated[str, typer.Option("--game", help="all, bits, roulette, sicbo or blackjack.")] = "all",
    samples: Annotated[
        int | None,
        typer.Option("--samples", help="Outcomes per run: bits, spins, rolls or blackjack shoes (default per game)."),
    ] = None,
    alpha: Annotated[float, typer.Option("--alpha", help="The significance level, in (0, 0.5).")] = 0.01,
    repeat: Annotated[
        int, typer.Option("--repeat", help="Runs of the batteries; 10 or more adds the second level (KS).")
    ] = 1,
    decks: Annotated[int, typer.Option("--decks", help="Decks in a blackjack shoe, 1 to 8.")] = 8,
    dieharder: Annotated[
        str, typer.Option("--dieharder", help="quick, all, none or test numbers (0,1,100) for the bit stream.")
    ] = "quick",
    psamples: Annotated[
        int | None, typer.Option("--psamples", help="dieharder's psamples per test (default: dieharder's).")
    ] = None,
    table: Annotated[str | None, typer.Option("--table", help="Test a table's recorded results.")] = None,
    database: Annotated[
        str | None, typer.Option("--database", help="The casino's database URL (with --table).")
    ] = None,
    last: Annotated[int | None, typer.Option("--last", help="With --table: only the last N rounds.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the whole report as JSON.")] = False,
    report: Annotated[Path | None, typer.Option("--report", help="Write the report to this HTML file.")] = None,
) -> None:
    """Test a source of chance: the NIST SP 800-22 battery and dieharder on its bits, the game-level tests on its
    pockets, dice and shoes, and with --repeat 10 or more the second level. Exit 0 pass, 1 fail, 2 bad input."""
    from croupier.errors import CroupierError
    from croupier.rng.certify import GAME_ORDER, certify, check_repeat, check_samples
    from croupier.rng.results import check_alpha

    try:
        check_alpha(alpha)
        check_repeat(repeat)
        if samples is not None:
            check_samples(samples)
        if game not in GAME_CHOICES:
            raise ValueError(f"--game must be one of {', '.join(GAME_CHOICES)}, not {game!r}")
        if report is not None and report.suffix.lower() not in (".html", ".htm"):
            raise ValueError(f"--report writes an HTML file (FILE.html), not {str(report)!r}")
        tests = _dieharder_tests(dieharder)
        if table is None and source is None:
            raise ValueError("name a SOURCE (system, seeded:SEED, broken:NAME or a file) or --table ID --database URL")
        if table is not None and source is not None:
            raise ValueError("give a SOURCE or --table, not both")
        if table is None and (database is not None or last is not None):
            raise ValueError("--database and --last go with --table")
        games = GAME_ORDER if game == "all" else (game,)
        bar = _Bar(quiet=as_json)
        with bar.progress:
            if table is not None:
                cert = _table_certification(table, database, last, alpha=alpha, repeat=repeat, bar=bar)
            else:
                assert source is not None
                cert = certify(
                    source,
                    games=games,
                    samples=samples,
                    alpha=alpha,
                    repeat=repeat,
                    decks=decks,
                    dieharder=tests,
                    psamples=psamples,
                    progress=bar,
                )
    except (ValueError, OSError, CroupierError) as exc:
        raise _bad(str(exc)) from None
    if report is not None:
        from croupier.rng.report import build

        built = build(cert)
        try:
            built.write_html(report)
        except OSError as exc:
            raise _bad(f"cannot write the report {report}: {exc.strerror or exc}") from None
        finally:
            built.close()
    if as_json:
        json.dump(cert.to_json(), sys.stdout, indent=2, allow_nan=False, default=_jsonable)
        sys.stdout.write("\n")
    else:
        _print(cert)
        if report is not None:
            typer.echo(f"report written to {report}")
    raise typer.Exit(1 if cert.verdict == "fail" else 0)


def _jsonable(value: object) -> object:
    if hasattr(value, "item"):
        return value.item()  # a numpy scalar
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not JSON")


@rng_app.command("power")
def power(
    *,
    alpha: Annotated[float, typer.Option("--alpha", help="The significance level, in (0, 0.5).")] = 0.01,
    game: Annotated[str, typer.Option("--game", help="all, bits, roulette, sicbo or blackjack.")] = "all",
    as_json: Annotated[bool, typer.Option("--json", help="Print the table as JSON.")] = False,
) -> None:
    """The suite against the broken generators it ships: the smallest sample at which each fails it (and the
    sound generators, which must pass). Exit 1 if a broken generator is not caught or a sound one fails."""
    from croupier.rng import power as pw
    from croupier.rng.results import check_alpha

    try:
        level = check_alpha(alpha)
        if game not in GAME_CHOICES:
            raise ValueError(f"--game must be one of {', '.join(GAME_CHOICES)}, not {game!r}")
    except ValueError as exc:
        raise _bad(str(exc)) from None
    games = pw.GAMES if game == "all" else (game,)
    rows = pw.power_table(alpha=level, games=games)  # type: ignore[arg-type]
    good = pw.good_rows(games=games, alpha=level)  # type: ignore[arg-type]
    if as_json:
        json.dump(
            {"alpha": level, "broken": [r.to_json() for r in rows], "sound": [r.to_json() for r in good]},
            sys.stdout,
            indent=2,
            default=_jsonable,
        )
        sys.stdout.write("\n")
    else:
        from rich.console import Console
        from rich.table import Table

        t = Table(title=f"The power of the suite at alpha {level:g}", title_justify="left")
        for col in ("generator", "game", "caught at", "by", "p-value"):
            t.add_column(col)
        for r in [*rows, *good]:
            t.add_row(*r.cells())
        Console().print(t)
    missed = any(r.status != "caught" for r in rows) or any(r.status != "passed" for r in good)
    raise typer.Exit(1 if missed else 0)


def register() -> typer.Typer:
    """The ``rng`` command group, for :mod:`croupier.cli`."""
    return rng_app
