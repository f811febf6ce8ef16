"""``croupier simulate``: Monte Carlo at scale (issue 15). Blackjack's whole table with card counting lives in
:mod:`croupier.analysis.tablesim`; roulette and sic bo sessions in :mod:`croupier.analysis.wager_sim`
(:mod:`croupier.cli_simulate_wager`).

Only Typer is imported here: numpy, numba, Rich's progress display and the report are imported when a command
runs. Bad input is one line on standard error and exit status 2; Ctrl+C stops the run and prints the partial
result (exit status 130).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from croupier.analysis.simulate import BlockTotals
    from croupier.analysis.tablesim import Run, TableSetup

simulate_app = typer.Typer(
    help="Simulate a game at scale: blackjack with card counting, roulette and sic bo sessions.",
    no_args_is_help=True,
)

INTERRUPTED = 130
"""Exit status after Ctrl+C (128 + SIGINT), once the partial result is printed."""
DEFAULT_ROUNDS = 2_000_000


@simulate_app.command("blackjack")
def blackjack(
    *,
    rules: Annotated[Path | None, typer.Option("--rules", help="A rules file (TOML or JSON).")] = None,
    preset: Annotated[str | None, typer.Option("--preset", help="A named preset (default: statute).")] = None,
    boxes: Annotated[int, typer.Option("--boxes", help="Boxes dealt each round, 1 to the table's boxes.")] = 1,
    seat: Annotated[int, typer.Option("--seat", help="The counted box (1: dealt first).")] = 1,
    penetration: Annotated[
        str | None,
        typer.Option(
            "--penetration",
            help="Share of the shoe dealt before the cut card, in (0, 1); several, comma-separated, compare them.",
        ),
    ] = None,
    shuffle: Annotated[
        str | None, typer.Option("--shuffle", help="shoe or continuous (default: as the rules' dealing device).")
    ] = None,
    count: Annotated[
        str | None,
        typer.Option(
            "--count", help="A counting system (hi-lo, ko, hi-opt-i, hi-opt-ii, omega-ii, zen, halves) or a tags file."
        ),
    ] = None,
    true_count: Annotated[
        str, typer.Option("--true-count", help="exact (by the cards left) or half_deck (rounded).")
    ] = "exact",
    ramp: Annotated[Path | None, typer.Option("--ramp", help="A bet ramp file (units by count, wonging).")] = None,
    indices: Annotated[
        str | None,
        typer.Option("--indices", help="Index plays: illustrious18, fab4, i18+fab4, or a file."),
    ] = None,
    side_bets: Annotated[
        bool, typer.Option("--side-bets", help="Settle every side bet on the counted box (the house's exposure).")
    ] = False,
    chart: Annotated[
        str, typer.Option("--chart", help="td: the basic strategy optimised for the rules; textbook: a fixed one.")
    ] = "td",
    rounds: Annotated[int | None, typer.Option("--rounds", help="Rounds to deal (default 2,000,000).")] = None,
    hours: Annotated[float | None, typer.Option("--hours", help="Hours of play instead of --rounds.")] = None,
    rounds_per_hour: Annotated[int, typer.Option("--rounds-per-hour", help="Rounds a box plays an hour.")] = 100,
    bankroll: Annotated[int, typer.Option("--bankroll", help="The counter's bankroll in units (risk of ruin).")] = 1000,
    path_rounds: Annotated[
        int, typer.Option("--path-rounds", help="Rounds of one bankroll path (simulated ruin, fan chart).")
    ] = 10_000,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed (default: fresh entropy, printed).")] = None,
    workers: Annotated[int, typer.Option("--workers", help="Local processes.")] = 1,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="Run on Ray: a cluster ADDRESS (auto, HOST:PORT, ray://HOST:PORT); a local Ray when none is given.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    report: Annotated[Path | None, typer.Option("--report", help="Also write a self-contained HTML report.")] = None,
) -> None:
    """Blackjack at a whole table: card counting, bet ramps, index plays, side bets; EV, SD, SCORE, risk of ruin."""
    from croupier import cli

    try:
        from croupier.analysis import tablesim
    except ModuleNotFoundError as exc:
        raise cli._fail_line(f"croupier simulate needs the math extra ({exc.name} is missing).") from None
    table_rules = cli._rules("blackjack", preset, rules)
    try:
        setup, penetrations = _setup(
            table_rules, boxes=boxes, seat=seat, penetration=penetration, shuffle=shuffle, count=count,
            true_count=true_count, ramp=ramp, indices=indices, side_bets=side_bets, chart=chart,
            rounds_per_hour=rounds_per_hour, bankroll=bankroll, path_rounds=path_rounds,
        )  # fmt: skip
        n = _rounds(rounds, hours, rounds_per_hour)
        run = tablesim.Run(workers=workers, ray=ray)
        if report is not None:
            from croupier.report.command import check_writable

            check_writable(report, "the report")
    except (ValueError, OSError) as exc:
        raise cli._fail_line(str(exc)) from None
    if seed is None:
        import secrets

        seed = secrets.randbits(63)
    source = f"file {rules}" if rules is not None else f"preset {preset or 'statute'}"
    try:
        result, interrupted = _drive(setup, n, seed, run, cli.err_console)
        out = result.to_json()
        out["rules_source"] = source
        if len(penetrations) > 1 and not interrupted:
            out["penetrations"] = tablesim.penetration_sweep(setup, penetrations, n, seed, run)
    except ValueError as exc:
        raise cli._fail_line(str(exc)) from None
    if interrupted:
        cli.err_console.print(
            f"[yellow]Interrupted:[/yellow] the partial result of {result.rounds:,} of {n:,} rounds.",
            highlight=False,
            soft_wrap=True,
        )
    if as_json:
        sys.stdout.write(json.dumps(out) + "\n")
    else:
        _print(out, cli.console)
    if report is not None:
        from croupier.report.simulation import write_simulation_report

        try:
            write_simulation_report(out, report)
        except OSError as exc:
            raise cli._fail_line(f"cannot write the report {str(report)!r}: {exc.strerror or exc}.") from None
        if not as_json:
            cli.console.print(f"Wrote {report}.", highlight=False, soft_wrap=True)
    if interrupted:
        raise typer.Exit(INTERRUPTED)


def _setup(rules: Any, **o: Any) -> tuple[TableSetup, list[float]]:
    """The table setup from the command's options (errors name the value)."""
    from croupier.analysis import counting
    from croupier.analysis.basic_strategy import basic_strategy
    from croupier.analysis.simulate import basic_chart
    from croupier.analysis.tablesim import TableSetup, true_count_setting

    penetrations: list[float] = []
    if o["penetration"] is not None:
        for part in str(o["penetration"]).split(","):
            try:
                penetrations.append(float(part))
            except ValueError:
                raise ValueError(
                    f"penetration {part.strip()!r} must be a number strictly between 0 and 1 (BJ 2.1)"
                ) from None
    if o["shuffle"] not in (None, "shoe", "continuous"):
        raise ValueError(f"--shuffle {o['shuffle']!r} must be shoe or continuous")
    if o["chart"] not in ("td", "textbook"):
        raise ValueError(f"--chart {o['chart']!r} must be td or textbook")
    system = counting.count_system(o["count"]) if o["count"] is not None else None
    true_count_setting(o["true_count"])
    bet_ramp = counting.ramp(o["ramp"]) if o["ramp"] is not None else counting.FLAT
    plays = counting.load_indices(o["indices"]) if o["indices"] is not None else ()
    if (bet_ramp is not counting.FLAT or plays) and system is None:
        raise ValueError("a ramp or index plays need a count: give --count (hi-lo, ko, … or a tags file)")
    setup = TableSetup(
        rules=rules,
        chart=basic_chart(),  # replaced below once the setup is known to be valid
        boxes=o["boxes"],
        seat=o["seat"],
        penetration=penetrations[0] if penetrations else None,
        continuous=None if o["shuffle"] is None else o["shuffle"] == "continuous",
        count=system,
        true_count=o["true_count"],
        ramp=bet_ramp,
        indices=tuple(plays),
        side_bets=o["side_bets"],
        bankroll=o["bankroll"],
        path_rounds=o["path_rounds"],
        rounds_per_hour=o["rounds_per_hour"],
    )
    for p in penetrations[1:]:
        TableSetup(rules=rules, chart=setup.chart, penetration=p).check()
    setup.check()
    from dataclasses import replace

    setup = replace(setup, chart_name=o["chart"])
    if o["chart"] == "td":
        setup = replace(setup, chart=basic_strategy(rules))
    return setup, penetrations


def _rounds(rounds: int | None, hours: float | None, per_hour: int) -> int:
    if rounds is not None and hours is not None:
        raise ValueError("give --rounds or --hours, not both")
    if hours is not None:
        if not hours > 0:
            raise ValueError(f"--hours {hours!r} must be more than 0")
        return max(1, round(hours * per_hour))
    n = DEFAULT_ROUNDS if rounds is None else rounds
    if n < 1:
        raise ValueError(f"--rounds {n!r} must be at least 1")
    return n


def _drive(setup: TableSetup, rounds: int, seed: int, run: Run, out: Console) -> tuple[Any, bool]:
    """Run the simulation under a progress bar on ``out`` (when it is a terminal): rounds per second, time left,
    the running EV per round and its 95% interval. Returns the result and whether Ctrl+C stopped it."""
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn

    from croupier.analysis import tablesim

    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
        TextColumn("{task.fields[ev]}"),
    )
    with Progress(*columns, console=out, transient=True, disable=not out.is_terminal) as progress:
        task = progress.add_task("dealing", total=rounds, ev="", rate="")

        def tell(done: int, _total: int, totals: BlockTotals | None) -> None:
            speed = progress.tasks[0].speed
            progress.update(
                task, completed=done, ev=_running_ev(totals, setup), rate=f"{speed:,.0f} rounds/s" if speed else ""
            )

        result = tablesim.simulate_table(setup, rounds, seed, run, progress=tell)
    return result, result.interrupted


def _running_ev(totals: BlockTotals | None, setup: TableSetup) -> str:
    import math

    from croupier.analysis import _sim_kernels as sk
    from croupier.analysis.simulate import encode_sides

    if totals is None or totals.rounds < 2:
        return ""
    u = int(encode_sides(setup.rules)[sk.SP_STAKE])
    n = totals.rounds
    ev = int(totals.acc[sk.C_NET]) / u / n
    sd = math.sqrt(max(int(totals.acc[sk.C_SQUARES]) / u / u / n - ev * ev, 0.0))
    return f"EV {100 * ev:+.3f} ± {196 * sd / math.sqrt(n):.3f} units/100"


def _print(out: dict[str, Any], console: Console) -> None:
    from rich.markup import escape
    from rich.table import Table

    from croupier.analysis.tablesim import figures_table

    s, run = out["setup"], out["run"]
    where = f"on Ray ({run['ray']})" if run["ray"] else f"on {run['workers']} process(es)"
    count = s["count"]["name"] if s["count"] else "no count"
    console.print(
        f"[bold]Blackjack[/bold]: {run['rounds']:,} rounds, {s['boxes']} box(es), counted box {s['seat']}, "
        f"{s['shuffle']}"
        + (f" dealt to {100 * s['penetration']:.1f}%" if s["penetration"] else "")
        + f", {escape(count)}; rules: {escape(out.get('rules_source', ''))}; seed {run['seed']}; {escape(where)}",
        highlight=False,
        soft_wrap=True,
    )
    t = Table(title="The counter's figures (units of the minimum bet)")
    t.add_column("figure")
    t.add_column("value", justify="right")
    for label, text in figures_table(out):
        t.add_row(escape(label), escape(text))
    console.print(t)
    if out.get("by_count") and s["count"]:
        c = Table(title="By count: frequency, the main bet's EV (flat) and the counter's rounds")
        for col in ("count", "frequency", "player EV", "95% CI", "rounds played"):
            c.add_column(col, justify="right")
        for row in out["by_count"]:
            if row["frequency"] < 0.0005:
                continue
            lo, hi = row["ci95"]
            c.add_row(
                f"{row['count']:+d}",
                f"{100 * row['frequency']:.2f}%",
                f"{100 * row['player_ev']:+.3f}%",
                f"{100 * lo:+.2f}% … {100 * hi:+.2f}%",
                f"{row['rounds_played']:,}",
            )
        console.print(c)
    if out.get("penetrations"):
        p = Table(title="By penetration")
        for col in ("penetration", "EV per round", "edge per unit bet", "SCORE"):
            p.add_column(col, justify="right")
        for row in out["penetrations"]:
            edge = row["edge_per_initial_bet"]
            p.add_row(
                f"{100 * row['penetration']:.1f}%",
                f"{row['ev_per_round']['mean']:+.5f}",
                "—" if edge is None else f"{100 * edge:+.4f}%",
                f"{row['score']:.2f}",
            )
        console.print(p)
    rate = run["rounds_per_cpu_s"]
    console.print(
        f"{run['rounds']:,} rounds in {run['cpu_seconds']:.2f} s of CPU time ({run['wall_seconds']:.2f} s wall): "
        f"{rate:,} rounds per CPU second."
        if rate
        else "",
        highlight=False,
        soft_wrap=True,
    )


def expand_bare_ray(args: list[str]) -> list[str]:
    """The command line with a bare ``--ray`` (last, or followed by another option) given the address ``local``:
    Typer has no option whose value may be left out, so the console script fills it in before parsing."""
    if "simulate" not in args:
        return list(args)
    out: list[str] = []
    for i, arg in enumerate(args):
        out.append(arg)
        if arg == "--ray" and (i + 1 == len(args) or args[i + 1].startswith("-")):
            out.append("local")
    return out


def register_all() -> typer.Typer:
    """The ``simulate`` sub-command with every game's command registered."""
    from croupier import cli_simulate_wager

    cli_simulate_wager.register(simulate_app)
    return simulate_app
