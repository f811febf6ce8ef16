"""The ``croupier`` command line (Typer + Rich)."""

from __future__ import annotations

import contextlib
import errno
import json
import re
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from croupier import __version__, rulesdoc
from croupier.errors import CroupierError, InvalidRules
from croupier.games import GAMES, game, infer_game, load_rules
from croupier.money import check_currency

app = typer.Typer(
    name="croupier",
    help="The Macau statutory table games (Roulette 30/2003, Sic Bo 31/2003, Blackjack 57/2009), rule for rule.",
    no_args_is_help=True,
    add_completion=False,
)
rules_app = typer.Typer(help="Show and check table rules (rules are documents, RULES.md BJ 21).", no_args_is_help=True)
app.add_typer(rules_app, name="rules")

console = Console()
err_console = Console(stderr=True)
DEMO_PROGRESS_SECONDS = 10.0
"""The demo's offline part says it is still working after this long without a line."""

GameArg = Annotated[str, typer.Argument(help=f"The game: {', '.join(GAMES)}.")]
RulesOpt = Annotated[Path | None, typer.Option("--rules", help="A rules file (TOML or JSON).")]
PresetOpt = Annotated[str | None, typer.Option("--preset", help="A named preset (default: statute).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def _fail(exc: Exception) -> typer.Exit:
    if isinstance(exc, InvalidRules):
        err_console.print(f"[red]Invalid rules[/red] ({len(exc.problems)} problem(s)):")
        for p in exc.problems:
            err_console.print(f"  - {escape(p)}")
    else:
        err_console.print(f"[red]Error:[/red] {escape(str(exc))}")
    return typer.Exit(2)


def _rules(name: str, preset: str | None, path: Path | None) -> Any:
    if preset is not None and path is not None:
        raise _fail(ValueError("give --preset or --rules, not both"))
    try:
        return load_rules(name, preset=preset, path=str(path) if path else None)
    except (CroupierError, ValueError) as exc:
        raise _fail(exc) from None


@app.command()
def version() -> None:
    """Print croupier's version."""
    console.print(f"croupier {__version__}")


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A scenario file (shared/spec/SCENARIOS.md).")],
    explain: Annotated[
        bool, typer.Option("--explain", help="Print each round as a readable transcript with its rule ids.")
    ] = False,
) -> None:
    """Replay a scripted round file and print the result as JSON (exit 2 with an error object if invalid)."""
    from croupier.replay import ScenarioError, replay_file

    try:
        result = replay_file(file, explain=explain)
    except ScenarioError as exc:
        if explain:
            err_console.print(f"[red]{exc.code}[/red] (round {exc.round}, action {exc.action}): {escape(exc.message)}")
        sys.stdout.write(json.dumps(exc.as_object()) + "\n")
        raise typer.Exit(2) from None
    if explain:
        for i, lines in enumerate(result["transcript"]):
            console.rule(f"Round {i}")
            for line in lines:
                console.print(escape(line), highlight=False)
        totals = ", ".join(f"{p} {n:+d}" for p, n in result["totals"].items())
        console.rule()
        console.print(f"Totals: {totals}", highlight=False)
        return
    sys.stdout.write(json.dumps(result) + "\n")


@rules_app.command("show")
def rules_show(name: GameArg, preset: PresetOpt = None, rules: RulesOpt = None, as_json: JsonOpt = False) -> None:
    """Print a table's full rules configuration, with the rule id behind each option."""
    try:
        g = game(name)
    except ValueError as exc:
        raise _fail(exc) from None
    r = _rules(name, preset, rules)
    if as_json:
        sys.stdout.write(rulesdoc.canonical_json(name, r))
        return
    doc = rulesdoc.document(r, effective=True)
    table = Table(title=f"{g.title} ({g.statute}) rules", show_lines=True)
    table.add_column("option", no_wrap=True)
    table.add_column("value and meaning", ratio=1)
    table.add_column("rule, kind", max_width=22)
    for spec in rulesdoc.option_specs(g.rules_class):
        value = escape(rulesdoc.format_value(doc[spec.name]))
        kind = spec.kind_for(doc[spec.name])
        table.add_row(spec.name, f"[bold]{value}[/bold]\n[dim]{escape(spec.doc)}[/dim]", f"{spec.rule}\n{kind}")
    console.print(table)


@rules_app.command("check")
def rules_check(
    file: Annotated[Path, typer.Argument(help="A rules file (TOML or JSON).")],
    game_name: Annotated[str | None, typer.Option("--game", help="The game, if the file does not say.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Validate a rules file (every problem at once) and list the options that differ from the statute."""
    try:
        document = rulesdoc.read_document(file)
        g = game(game_name) if game_name else infer_game(document)
        r = g.load(document)
    except (CroupierError, ValueError) as exc:
        raise _fail(exc) from None
    diffs = rulesdoc.differences(r, g.presets["statute"])
    if as_json:
        out = {
            "game": g.name,
            "valid": True,
            "differences": [
                {
                    "option": d.option,
                    "value": d.value,
                    "statute": d.statute,
                    "kind": str(d.kind),
                    "rule": d.rule,
                }
                for d in diffs
            ],
        }
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
        return
    console.print(f"[green]{file}: valid {g.title} rules.[/green]")
    if not diffs:
        console.print("Every option is the statute's.")
        return
    table = Table(title="Options that differ from the statute")
    for col in ("option", "value", "statute", "kind", "rule"):
        table.add_column(col, no_wrap=col == "option")
    for d in diffs:
        shown = (escape(rulesdoc.format_value(d.value)), escape(rulesdoc.format_value(d.statute)))
        table.add_row(d.option, *shown, str(d.kind), d.rule)
    console.print(table)


@app.command()
def odds(name: GameArg, rules: RulesOpt = None, preset: PresetOpt = None, as_json: JsonOpt = False) -> None:
    """Exact odds of every bet: outcomes, payout, house edge (fraction and %), hit frequency, SD per unit."""
    from croupier.analysis.odds import odds_table

    try:
        g = game(name)
        table_rows = odds_table(name, _rules(name, preset, rules))
    except ValueError as exc:
        raise _fail(exc) from None
    if as_json:
        sys.stdout.write(json.dumps({"game": name, "bets": [b.as_json() for b in table_rows]}) + "\n")
        return
    from croupier.display import odds_rich_table

    console.print(odds_rich_table(f"{g.title}: exact odds per unit staked", table_rows))


def _fail_line(message: str) -> typer.Exit:
    """Exit status 2 after ``message`` on standard error as one line (never wrapped at the terminal's width)."""
    err_console.print(f"[red]Error:[/red] {escape(message)}", soft_wrap=True, highlight=False)
    return typer.Exit(2)


def _listen(host: str, port: int, choose: str) -> socket.socket:
    """A socket listening on ``host``:``port`` (0: one the system picks) for the table server, taken before anything
    else (the server's imports, the database, the demo's offline part), so that a port in use is one line on standard
    error (exit status 2) saying how to ``choose`` another, and browsers that come early wait in its backlog until
    the server answers."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: a closed one's TIME_WAIT is fine
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise _fail_line(f"port {port} on {host} is already in use (another croupier?): {choose}.") from None
        raise _fail_line(f"cannot listen on {host}:{port}: {error.strerror or error}.") from None
    return sock


def _browser_address(host: str, port: int) -> str:
    """Where a browser on this machine finds a server listening on ``host``:``port`` (loopback for a wildcard)."""
    host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


@contextlib.contextmanager
def _interrupt_ends_process() -> Iterator[None]:
    """Inside, Ctrl+C ends the process at once (SIGINT's default action: no traceback, no waiting for a long call in
    C, such as numba's kernels, a compilation or a password hash, to return). For the demo's offline part and the
    server's start-up, where nothing is half-written that a crash would not leave (the casino's process dies with
    this one); while serving, uvicorn catches the signal, shuts down, then raises it again, which then ends the
    process without the interpreter's slower teardown."""
    if threading.current_thread() is not threading.main_thread():  # only the main thread may set a handler
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _numba_events() -> Any:
    """numba's event API (None without the math extra: no kernels to compile)."""
    try:
        from numba.core import event
    except ImportError:
        return None
    return event


@contextlib.contextmanager
def _demo_progress(out: Console, every: float = DEMO_PROGRESS_SECONDS) -> Iterator[None]:
    """While inside, ``out`` says what is going on when numba starts compiling the exact analysis' kernels (on the
    first run: about as long again as the analysis itself; they are cached for the next runs) and whenever it has
    printed nothing for ``every`` seconds, so that a newcomer does not think the demo hung."""
    from rich.console import RenderHook

    last = [time.monotonic()]
    started = last[0]
    compiling = [0, False]  # kernels compiling now (a kernel compiles those it calls), whether one has been said
    stop = threading.Event()

    class Stamp(RenderHook):
        def process_renderables(self, renderables: list[Any]) -> list[Any]:
            last[0] = time.monotonic()
            return renderables

    def say(line: str) -> None:
        out.print(line, highlight=False, soft_wrap=True, style="dim")

    def watch() -> None:
        while not stop.wait(0.5):
            if time.monotonic() - last[0] >= every:
                what = "numba is compiling the kernels (the first run only)" if compiling[0] else "computing"
                say(f"  … still working ({time.monotonic() - started:.0f} s): {what}")

    with contextlib.ExitStack() as stack:
        events = _numba_events()
        if events is not None:

            class Compiling(events.Listener):  # type: ignore[misc,name-defined]
                def on_start(self, _event: Any) -> None:
                    if not compiling[1]:
                        compiling[1] = True
                        say(
                            "  numba is compiling the exact analysis' kernels: the first run only (they are cached "
                            "for the next), about a minute…"
                        )
                    compiling[0] += 1

                def on_end(self, _event: Any) -> None:
                    compiling[0] -= 1

            stack.enter_context(events.install_listener("numba:compile", Compiling()))
        out.push_render_hook(Stamp())
        stack.callback(out.pop_render_hook)
        watcher = threading.Thread(target=watch, name="demo-progress", daemon=True)
        watcher.start()
        try:
            yield
        finally:
            stop.set()
            watcher.join()


@app.command()
def demo(
    rounds: Annotated[int, typer.Option(help="Rounds at each table.")] = 5,
    players: Annotated[int, typer.Option(help="Simulated players at each table.")] = 4,
    seed: Annotated[
        int | None, typer.Option(help="Seed the players' choices (outcomes always come from the strong RNG).")
    ] = None,
    *,
    serve_after: Annotated[
        bool,
        typer.Option(
            "--serve",
            help="Then run the table server with the demo's accounts and tables (croupier serve --demo): the port "
            "is checked and the browser's address printed first.",
        ),
    ] = False,
    offline: Annotated[
        bool,
        typer.Option(
            "--offline/--no-offline",
            help="Play the sessions and print the odds (the default); --no-offline --serve starts the server at once.",
        ),
    ] = True,
    host: Annotated[str, typer.Option(help="With --serve: the address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="With --serve: the port to listen on (make demo DEMO_PORT=…).")] = 8000,
    seconds: Annotated[
        float | None, typer.Option("--seconds", min=0.1, help="With --serve: stop after this many seconds.")
    ] = None,
    currency: Annotated[
        str, typer.Option(envvar="CROUPIER_CURRENCY", help="With --serve: the currency the page shows (ISO 4217).")
    ] = "MOP",
) -> None:
    """Short sessions at a roulette, a sic bo and a blackjack table driven by the strong RNG, then the odds; with
    --serve (what make demo runs), then the table server with the demo's accounts and tables: its port taken and its
    address printed first."""
    from croupier.demo import run_demo

    if not serve_after:
        if not offline:
            raise _fail(ValueError("--no-offline leaves nothing to do without --serve"))
        run_demo(console, rounds=rounds, players=players, seed=seed)
        return
    try:
        check_currency(currency)
    except ValueError as error:
        raise _fail_line(f"--{error}") from None
    other = 8080 if port != 8080 else 8081
    choose = f"choose another, e.g. make demo DEMO_PORT={other} (croupier demo --serve --port {other})"
    with _listen(host, port, choose) as sock, _interrupt_ends_process():
        browser = _browser_address(host, sock.getsockname()[1])
        if offline:
            console.print(
                f"The table server will open at [bold]{browser}[/bold] (open it in a browser) after short sessions "
                "at each table and the exact odds below: a minute or so the first time, less after. Ctrl+C stops "
                "everything.",
                highlight=False,
                soft_wrap=True,
            )
            with _demo_progress(console):
                run_demo(console, rounds=rounds, players=players, seed=seed)
        else:
            console.print(f"The table server is starting at [bold]{browser}[/bold]. Ctrl+C stops it.", highlight=False)
        try:
            from croupier.server.compose import CannotStart, ServerConfig
            from croupier.server.compose import serve as run_server
        except ModuleNotFoundError as exc:
            raise _fail(ValueError(f"croupier demo --serve needs the server extra ({exc.name} is missing)")) from None
        config = ServerConfig(host=host, port=port, demo=True, seconds=seconds, currency=currency)
        try:
            run_server(config, say=lambda line: console.print(escape(line), highlight=False, soft_wrap=True), sock=sock)
        except CannotStart as exc:
            raise _fail_line(str(exc)) from None


@app.command()
def play(
    name: Annotated[str, typer.Argument(help="The game to play: blackjack.")],
    rules: RulesOpt = None,
    preset: PresetOpt = None,
    bankroll: Annotated[int, typer.Option(help="Money you sit down with.")] = 1000,
    rounds: Annotated[int | None, typer.Option(help="Stop after this many rounds.")] = None,
) -> None:
    """Play blackjack rounds in the terminal against the strong-RNG shoe (side bets, offers, every legal action)."""
    if name != "blackjack":
        raise _fail(ValueError(f"{name!r}: croupier play knows blackjack"))
    from rich.prompt import Prompt

    from croupier.terminal import play_blackjack

    table_rules = _rules(name, preset, rules)
    play_blackjack(
        console, lambda prompt: Prompt.ask(prompt, console=console, default="", show_default=False),
        rules=table_rules, bankroll=bankroll, rounds=rounds,
    )  # fmt: skip


@app.command()
def par(
    name: Annotated[str, typer.Argument(help="The game: roulette, sicbo or blackjack.")],
    *,
    out: Annotated[Path, typer.Option("--out", help="The HTML report to write (self-contained).")],
    rules: RulesOpt = None,
    preset: PresetOpt = None,
    rounds: Annotated[
        int | None,
        typer.Option(
            help="Rounds to simulate (0: none; default 1,000,000 spins or rolls, 2,000,000 blackjack rounds)."
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the simulation (default: fresh, in the report).")] = None,
    pdf: Annotated[Path | None, typer.Option("--pdf", help="Also write the report as a PDF.")] = None,
) -> None:
    """A PAR sheet as one HTML report: the rules, every bet's exact edge, hit frequency and SD, plots, Monte Carlo."""
    try:
        game(name)
        from croupier.report.command import run_par
    except ModuleNotFoundError as exc:
        raise _fail(ValueError(f"croupier par needs the math extra ({exc.name} is missing)")) from None
    except ValueError as exc:
        raise _fail(exc) from None
    table_rules = _rules(name, preset, rules)
    source = f"file {rules}" if rules is not None else f"preset {preset or 'statute'}"
    try:
        line = run_par(name, table_rules, out=out, pdf=pdf, rounds=rounds, seed=seed, source=source)
    except ValueError as exc:
        raise _fail(exc) from None
    console.print(escape(line), highlight=False)


def _blackjack_rules(name: str, preset: str | None, path: Path | None, decks: int | None) -> Any:
    if name != "blackjack":
        raise _fail(
            ValueError(f"this command is for blackjack; for {name!r} every bet's edge is in `croupier odds {name}`")
        )
    import dataclasses

    from croupier.blackjack.rules import MAX_DECKS

    if decks is not None and not 1 <= decks <= MAX_DECKS:
        raise _fail(InvalidRules([f"--decks {decks} must be between 1 and {MAX_DECKS} (BJ 1)."]))
    table_rules = _rules(name, preset, path)
    if decks is None:
        return table_rules
    try:
        return dataclasses.replace(table_rules, decks=decks)
    except CroupierError as exc:
        raise _fail(exc) from None


_SHOE_VALUES = ("aces", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "ten-value cards")
"""What each of ``--shoe``'s ten counts counts."""


def _shoe_counts(text: str) -> list[int]:
    """The ten card counts of ``--shoe``, each a whole number from 0 to what :data:`MAX_DECKS` decks hold (BJ 1)."""
    from croupier.blackjack.rules import MAX_DECKS

    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 10:
        raise InvalidRules(
            [f"--shoe {text!r} must be 10 whole numbers: the counts of aces, 2-9 and ten-value cards, not {len(parts)}"]
        )
    problems = []
    counts = []
    for what, part in zip(_SHOE_VALUES, parts, strict=True):
        shown = part if len(part) <= 24 else part[:20] + "…"
        digits = part.removeprefix("-")
        most = (16 if what == "ten-value cards" else 4) * MAX_DECKS
        if not re.fullmatch(r"[0-9]+", digits):  # ASCII digits only: int() also reads "٣" and "1_000"
            problems.append(f"--shoe count of {what} {shown!r} is not a whole number.")
        elif part.startswith("-") and digits.strip("0"):
            problems.append(f"--shoe count of {what} must be a whole number ≥ 0, not {shown}.")
        elif len(digits) > 9 or int(digits) > most:
            problems.append(
                f"--shoe count of {what} {shown} is more than croupier takes ({most}: the {what} of {MAX_DECKS} "
                "decks; BJ 1)."
            )
        else:
            counts.append(int(digits))
    if problems:
        raise InvalidRules(problems)
    return counts


DecksOpt = Annotated[int | None, typer.Option("--decks", help="Override the rules' number of decks (BJ 1).")]
StrategyOpt = Annotated[
    str, typer.Option("--strategy", help="cd: composition-dependent; td: the basic-strategy chart for the shoe.")
]
ChartOpt = Annotated[
    str,
    typer.Option(
        "--chart",
        help="The chart's kind: total (one entry per total, the printable chart) or cards (hands of three or "
        "more cards have entries of their own).",
    ),
]


def _chart_kind(kind: str) -> Any:
    from croupier.analysis.basic_strategy import KINDS

    if kind not in KINDS:
        raise _fail(InvalidRules([f"--chart {kind!r} must be one of {', '.join(KINDS)}"]))
    return kind


@app.command()
def edge(
    name: GameArg,
    *,
    rules: RulesOpt = None,
    preset: PresetOpt = None,
    decks: DecksOpt = None,
    strategy: StrategyOpt = "cd",
    chart: ChartOpt = "total",
    side_bets: Annotated[bool, typer.Option("--side-bets", help="Add every side bet's exact edge.")] = False,
    effects: Annotated[
        bool, typer.Option("--effects", help="Add the change in edge from flipping each option.")
    ] = False,
    shoe: Annotated[
        str | None,
        typer.Option("--shoe", help="Card counts instead of decks: aces, 2-9, ten-values (e.g. 4,4,4,4,4,4,4,4,4,16)."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Blackjack's exact house edge (combinatorial analysis) for a rules file or preset, per unit of the initial bet."""
    if shoe is not None and decks is not None:
        raise _fail(InvalidRules(["--shoe and --decks conflict: --shoe gives the shoe's cards, so leave out --decks."]))
    table_rules = _blackjack_rules(name, preset, rules, decks)
    try:
        from croupier.analysis.blackjack_math import edge_report
    except ModuleNotFoundError as exc:
        raise _fail(ValueError(f"croupier edge needs the math extra ({exc.name} is missing)")) from None
    kind = _chart_kind(chart)
    try:
        counts = _shoe_counts(shoe) if shoe is not None else None
        report = edge_report(
            table_rules,
            strategy,  # type: ignore[arg-type]
            side_bets=side_bets,
            effects=effects,
            shoe=counts,
            kind=kind,
        )
    except CroupierError as exc:
        raise _fail(exc) from None
    if as_json:
        sys.stdout.write(json.dumps(report) + "\n")
        return
    from croupier.display import edge_rich_tables

    for renderable in edge_rich_tables(report):
        console.print(renderable)


@app.command()
def strategy(
    name: GameArg,
    *,
    rules: RulesOpt = None,
    preset: PresetOpt = None,
    decks: DecksOpt = None,
    chart: ChartOpt = "total",
    png: Annotated[Path | None, typer.Option("--png", help="Also draw the chart as a coloured PNG image.")] = None,
) -> None:
    """The blackjack basic-strategy chart optimised for the rules' shoe, with its exact expected value."""
    table_rules = _blackjack_rules(name, preset, rules, decks)
    try:
        from croupier.analysis.blackjack_math import analyse_main_bet
        from croupier.report.charts import chart_png, chart_text
    except ModuleNotFoundError as exc:
        raise _fail(ValueError(f"croupier strategy needs the math extra ({exc.name} is missing)")) from None
    if png is not None and not png.parent.is_dir():
        raise _fail(ValueError(f"cannot write {png}: the folder {png.parent} does not exist"))
    kind = _chart_kind(chart)
    try:
        analysis, found, _ = analyse_main_bet(table_rules, "td", kind=kind)
    except CroupierError as exc:
        raise _fail(exc) from None
    assert found is not None
    what = "Basic strategy" if kind == "total" else "Basic strategy by cards"
    title = f"{what}, {table_rules.decks} decks: house edge {analysis.house_edge * 100:.4f}%"
    console.print(chart_text(found, table_rules, title=title))
    if png is not None:
        try:
            chart_png(found, png, title, rules=table_rules)
        except OSError as exc:
            raise _fail(ValueError(f"cannot write {png}: {exc.strerror}")) from None
        console.print(f"Chart drawn to {escape(str(png))}", highlight=False)


DatabaseOpt = Annotated[
    str | None,
    typer.Option(
        "--database",
        envvar="CROUPIER_DATABASE_URL",
        help="Database URL (default: the SQLite file ./data/croupier.sqlite3; postgresql://… runs on psycopg).",
    ),
]


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database: DatabaseOpt = None,
    demo: Annotated[
        bool,
        typer.Option(
            "--demo",
            help="Seed an admin, three players with money and an RNG table of each game (without --database, on "
            "its own SQLite file ./data/croupier-demo.sqlite3).",
        ),
    ] = False,
    seconds: Annotated[
        float | None, typer.Option("--seconds", min=0.1, help="Stop after this many seconds (default: Ctrl+C).")
    ] = None,
    *,
    access_log: Annotated[
        bool, typer.Option("--access-log", help="Log every request at info level (off by default: it costs time).")
    ] = False,
    command_rate: Annotated[
        float,
        typer.Option(
            "--command-rate",
            min=0.1,
            help="Commands per second per account (the token bucket's refill; its burst is 3 s of it). "
            "Default 20/s, burst 60: a security limit, raise it only knowingly.",
        ),
    ] = 20.0,
    casino_process: Annotated[
        bool,
        typer.Option(
            "--casino-process/--casino-thread",
            help="Run the casino (tables, ledger writes, clock) in a process of its own, beside the server's "
            "(default: each gets a core), or on a thread of the server's process.",
        ),
    ] = True,
    manual_clock: Annotated[
        bool,
        typer.Option(
            "--manual-clock",
            hidden=True,
            help="For tests only (not with --demo): the casino's clock stands still and moves only through the "
            "admin's POST /api/testing/clock (see croupier.server.testing).",
        ),
    ] = False,
    allow_demo_passwords: Annotated[
        bool,
        typer.Option(
            "--allow-demo-passwords",
            help="Start even if accounts of the database still have the demo's published passwords (refused "
            "otherwise: reset them with croupier admin reset-password).",
        ),
    ] = False,
    currency: Annotated[
        str,
        typer.Option(
            envvar="CROUPIER_CURRENCY",
            help="The currency the page shows every amount in (ISO 4217, e.g. MOP, HKD; default MOP).",
        ),
    ] = "MOP",
) -> None:
    """Run the table service over HTTP and WebSocket (migrating the database first; OpenAPI at /openapi.json)."""
    try:
        from croupier.server.compose import CannotStart, ServerConfig, check
        from croupier.server.compose import serve as run_server
    except ModuleNotFoundError as exc:
        raise _fail(ValueError(f"croupier serve needs the server extra ({exc.name} is missing)")) from None
    config = ServerConfig(
        host=host,
        port=port,
        database=database,
        demo=demo,
        seconds=seconds,
        access_log=access_log,
        command_rate=command_rate,
        casino_process=casino_process,
        manual_clock=manual_clock,
        allow_demo_passwords=allow_demo_passwords,
        currency=currency,
    )
    try:
        check(config)
    except CannotStart as exc:
        raise _fail_line(str(exc)) from None
    with _listen(host, port, "choose another with --port") as sock:  # before the database opens
        try:
            with _interrupt_ends_process():
                run_server(
                    config, say=lambda line: console.print(escape(line), highlight=False, soft_wrap=True), sock=sock
                )
        except CannotStart as exc:
            raise _fail_line(str(exc)) from None


admin_app = typer.Typer(help="Bootstrap accounts and money on the server's database.", no_args_is_help=True)
app.add_typer(admin_app, name="admin")

from croupier.cli_rng import register as _rng_commands  # noqa: E402
from croupier.cli_simulate import register_all as _simulate_commands  # noqa: E402

app.add_typer(_rng_commands(), name="rng")

app.add_typer(_simulate_commands(), name="simulate")

from croupier.cli_verify import verify as _verify_command  # noqa: E402

app.command("verify")(_verify_command)


def _admin_services(database: str | None) -> Any:
    try:
        from croupier.server.compose import database_url, open_services
    except ModuleNotFoundError as exc:
        raise _fail(ValueError(f"croupier admin needs the server extra ({exc.name} is missing)")) from None
    try:
        return open_services(database_url(database))
    except Exception as exc:
        raise _fail(ValueError(f"cannot open the database: {exc}")) from None


PasswordOpt = Annotated[
    str, typer.Option("--password", prompt=True, hide_input=True, confirmation_prompt=True, help="The password.")
]


@admin_app.command("create-admin")
def admin_create_admin(
    name: Annotated[str, typer.Argument(help="The admin's account name.")],
    password: PasswordOpt,
    database: DatabaseOpt = None,
) -> None:
    """Create an admin account (the first one, from which the others are made over the API)."""
    admin_create_user(name, password, "admin", database)


@admin_app.command("create-user")
def admin_create_user(
    name: Annotated[str, typer.Argument(help="The account name.")],
    password: PasswordOpt,
    role: Annotated[str, typer.Option("--role", help="player, dealer or admin.")] = "player",
    database: DatabaseOpt = None,
) -> None:
    """Create an account with a role."""
    services = _admin_services(database)
    try:
        user = services.accounts.create(name, password, role)
    except CroupierError as exc:
        raise _fail(exc) from None
    finally:
        services.close()
    console.print(f"Created {user.role.value} {escape(user.username)}.", highlight=False)


@admin_app.command("credit")
def admin_credit(
    player: Annotated[str, typer.Argument(help="The player whose wallet is credited.")],
    amount: Annotated[int, typer.Argument(help="Whole units to add.")],
    by: Annotated[str, typer.Option("--as", help="The admin account doing it (audited).")],
    key: Annotated[
        str | None, typer.Option("--key", help="Idempotency key (default: a fresh one; reuse it to retry safely).")
    ] = None,
    database: DatabaseOpt = None,
) -> None:
    """Credit a player's wallet from the cashier, as an admin (audited)."""
    import uuid

    services = _admin_services(database)
    try:
        admin = services.accounts.get(by)
        if admin.role.value != "admin":
            raise CroupierError(f"Account {by!r} is a {admin.role.value}, not an admin.")
        services.casino.credit(admin, player, amount, key or f"cli/{uuid.uuid4().hex}")
        balance = services.ledger.wallet(player)
    except CroupierError as exc:
        raise _fail(exc) from None
    finally:
        services.close()
    console.print(f"Credited {amount} to {escape(player)}: wallet {balance}.", highlight=False)


def _account_act(name: str, database: str | None, act: Callable[[Any], Any]) -> Any:
    """Run an admin's act on the account ``name`` (``act(accounts)`` returns its ``AccountChange``) on the database,
    audit it as the command line's, and return the change; exit 2 with the reason when it is refused."""
    from croupier.service.accounts import LastAdmin

    services = _admin_services(database)
    try:
        change = act(services.accounts)
        services.casino.log(_cli_actor(), change.action, **change.audit())
    except LastAdmin as exc:
        err_console.print(
            f"[red]Refused:[/red] {escape(str(exc))} There must always be an active admin: create or enable another "
            "admin first (croupier admin create-admin NAME)."
        )
        raise typer.Exit(2) from None
    except CroupierError as exc:
        raise _fail(exc) from None
    finally:
        services.close()
    return change


def _cli_actor() -> str:
    """Who the audit log names for an act of the command line: ``cli:`` and the operating system's user (not an
    account name: those have no colon)."""
    import getpass

    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):
        return "cli:?"


NameArg = Annotated[str, typer.Argument(help="The account's name (compared ignoring case).")]


@admin_app.command("unlock")
def admin_unlock(name: NameArg, database: DatabaseOpt = None) -> None:
    """Forget the account's failed logins from every address, ending every wait to log in to it (audited)."""
    change = _account_act(name, database, lambda accounts: accounts.unlock(name))
    forgotten = change.detail.get("failures_forgotten", 0)
    console.print(f"Unlocked {escape(change.user.username)} ({forgotten} address(es) forgotten).", highlight=False)


@admin_app.command("disable")
def admin_disable(name: NameArg, database: DatabaseOpt = None) -> None:
    """Disable an account and end its sessions (audited; never the last active admin)."""
    change = _account_act(name, database, lambda accounts: accounts.set_active(name, False))
    ended = change.detail.get("sessions_ended", 0)
    console.print(f"Disabled {escape(change.user.username)} ({ended} session(s) ended).", highlight=False)


@admin_app.command("enable")
def admin_enable(name: NameArg, database: DatabaseOpt = None) -> None:
    """Enable a disabled account (audited)."""
    change = _account_act(name, database, lambda accounts: accounts.set_active(name, True))
    console.print(f"Enabled {escape(change.user.username)}.", highlight=False)


@admin_app.command("reset-password")
def admin_reset_password(name: NameArg, database: DatabaseOpt = None) -> None:
    """Give an account a new password, read from a prompt (or one line of standard input; never from the command
    line), and end its sessions (audited, without the password)."""
    if sys.stdin.isatty():
        password = typer.prompt("New password", hide_input=True, confirmation_prompt=True)
    else:
        password = sys.stdin.readline().rstrip("\r\n")
    change = _account_act(name, database, lambda accounts: accounts.reset_password(name, password))
    ended = change.detail.get("sessions_ended", 0)
    console.print(f"New password for {escape(change.user.username)} ({ended} session(s) ended).", highlight=False)


@admin_app.command("set-role")
def admin_set_role(
    name: NameArg,
    role: Annotated[str, typer.Argument(help="player, dealer or admin.")],
    database: DatabaseOpt = None,
) -> None:
    """Give an account another role (audited; never the last active admin's)."""
    change = _account_act(name, database, lambda accounts: accounts.set_role(name, role))
    was = change.detail.get("was", "?")
    console.print(f"{escape(change.user.username)} is now a {change.user.role.value} (was {was}).", highlight=False)


def main() -> None:
    """Console-script entry point."""
    from croupier.cli_simulate import expand_bare_ray

    sys.argv[1:] = expand_bare_ray(sys.argv[1:])
    app()
