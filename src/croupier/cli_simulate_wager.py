"""``croupier simulate roulette`` and ``croupier simulate sicbo`` (issue 15): sessions of bets staked on every spin
or roll, their bankroll paths and ruin, and the spread of the house's hold, by :mod:`croupier.analysis.wager_sim`.

Only Typer is imported here, so that the command line starts fast; numpy, Rich's progress display and the report
builder are imported when a command runs. Bad input is one line on standard error and exit status 2 (the CLI's
usual path, :func:`croupier.cli._fail_line`); Ctrl+C stops the run and prints the partial result (exit status 130).
"""

from __future__ import annotations

import dataclasses
import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from croupier.analysis.wager_sim import WagerSimReport

INTERRUPTED = 130
"""Exit status after Ctrl+C (128 + SIGINT), once the partial result is printed."""

RulesOpt = Annotated[Path | None, typer.Option("--rules", help="A rules file (TOML or JSON).")]
PresetOpt = Annotated[str | None, typer.Option("--preset", help="A named preset (default: statute).")]
SessionsOpt = Annotated[int, typer.Option("--sessions", help="Sessions to simulate.")]
BankrollOpt = Annotated[
    int | None,
    typer.Option("--bankroll", help="Chips each session starts with (default: 50 times one round's stakes)."),
]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Seed (default: fresh entropy, printed with the result).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
ReportOpt = Annotated[
    Path | None, typer.Option("--report", help="Also write a self-contained HTML report (fan chart, histogram…).")
]


def register(app: typer.Typer) -> None:
    """Add the roulette and sic bo commands to ``app``."""
    app.command("roulette")(roulette)
    app.command("sicbo")(sicbo)


def roulette(
    *,
    rules: RulesOpt = None,
    preset: PresetOpt = None,
    bet: Annotated[
        list[str] | None,
        typer.Option(
            "--bet",
            help="A bet staked on every spin, KIND[:SELECTION]=AMOUNT in chips: red=2, straight:17=2, split:0-3=2, "
            "street:1-2-3=2, dozen:2=2, twelve_special:A=2 … Repeatable (default: the table minimum on red).",
        ),
    ] = None,
    spins: Annotated[int, typer.Option("--spins", help="Spins in a session.")] = 100,
    sessions: SessionsOpt = 10_000,
    bankroll: BankrollOpt = None,
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
    report: ReportOpt = None,
) -> None:
    """Roulette sessions: bankroll paths, ruin, the bets' simulated edges and the spread of the house's hold."""
    _run(
        "roulette", rules_path=rules, preset=preset, bets=bet, spins=spins, sessions=sessions, bankroll=bankroll,
        seed=seed, as_json=as_json, report=report,
    )  # fmt: skip


def sicbo(
    *,
    rules: RulesOpt = None,
    preset: PresetOpt = None,
    bet: Annotated[
        list[str] | None,
        typer.Option(
            "--bet",
            help="A bet staked on every roll, KIND[:SELECTION]=AMOUNT in chips: big=2, small=2, single:3=2, "
            "triple:6=2, any_triple=2, total:10=2. Repeatable (default: the table minimum on big).",
        ),
    ] = None,
    spins: Annotated[int, typer.Option("--spins", "--rolls", help="Rolls in a session.")] = 100,
    sessions: SessionsOpt = 10_000,
    bankroll: BankrollOpt = None,
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
    report: ReportOpt = None,
) -> None:
    """Sic bo sessions: bankroll paths, ruin, the bets' simulated edges and the spread of the house's hold."""
    _run(
        "sicbo", rules_path=rules, preset=preset, bets=bet, spins=spins, sessions=sessions, bankroll=bankroll,
        seed=seed, as_json=as_json, report=report,
    )  # fmt: skip


def _run(
    game: str,
    *,
    rules_path: Path | None,
    preset: str | None,
    bets: list[str] | None,
    spins: int,
    sessions: int,
    bankroll: int | None,
    seed: int | None,
    as_json: bool,
    report: Path | None,
) -> None:
    from croupier import cli

    try:
        from croupier.analysis import wager_sim
    except ModuleNotFoundError as exc:
        raise cli._fail_line(f"croupier simulate needs the math extra ({exc.name} is missing).") from None
    table_rules = cli._rules(game, preset, rules_path)
    source = f"file {rules_path}" if rules_path is not None else f"preset {preset or 'statute'}"
    try:
        planned = wager_sim.plan(
            game, table_rules, bets, spins=spins, sessions=sessions, bankroll=bankroll, seed=seed, source=source
        )
        if report is not None:
            from croupier.report.command import check_writable

            check_writable(report, "the report")
    except ModuleNotFoundError as exc:
        raise cli._fail_line(f"croupier simulate --report needs the math extra ({exc.name} is missing).") from None
    except ValueError as exc:
        raise cli._fail_line(str(exc)) from None
    rules_args = ["--rules", str(rules_path)] if rules_path is not None else ["--preset", preset or "statute"]
    command = ["croupier", "simulate", game, *rules_args, *(f"--bet={b.spec}" for b in planned.bets)]
    command += ["--spins", str(planned.spins), "--sessions", str(planned.sessions)]
    command += ["--bankroll", str(planned.bankroll), "--seed", str(planned.seed)]
    planned = dataclasses.replace(planned, command=shlex.join(command))

    simulation = wager_sim.WagerSimulation(planned)
    interrupted = _drive(simulation, cli.err_console)
    result = simulation.report()
    if interrupted:
        cli.err_console.print(
            f"[yellow]Interrupted:[/yellow] the partial result of {_done(result)} of {planned.sessions:,} sessions "
            f"({result.spins_drawn:,} {planned.round_name}s drawn).",
            highlight=False,
            soft_wrap=True,
        )
    if as_json:
        sys.stdout.write(json.dumps(result.to_json()) + "\n")
    else:
        _print(result, cli.console)
    if report is not None:
        _write_report(result, report)
        if not as_json:
            cli.console.print(f"Wrote {report}.", highlight=False, soft_wrap=True)
    if interrupted:
        raise typer.Exit(INTERRUPTED)


def _done(result: WagerSimReport) -> str:
    return f"{result.sessions.sessions:,}" if result.sessions is not None else "0"


def _drive(simulation: Any, out: Console) -> bool:
    """Run ``simulation`` under a progress bar on ``out`` (when it is a terminal): spins per second, time left,
    the running EV per unit staked and its 95% interval. Return True if Ctrl+C stopped it."""
    from rich.progress import (
        BarColumn,
        Progress,
        ProgressColumn,
        Task,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    from croupier.analysis.wager_sim import Z95

    name = simulation.plan.round_name

    class Rate(ProgressColumn):
        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.0f} {name}s/s" if speed else f"— {name}s/s", style="progress.data.speed")

    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        Rate(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[ev]}"),
    )
    with Progress(*columns, console=out, transient=True, disable=not out.is_terminal) as progress:
        task = progress.add_task("simulating", total=simulation.spins_total, ev="")
        try:
            for step in simulation.steps():
                ev = f"EV {step.ev * 100:+.3f}% ± {Z95 * step.se * 100:.3f}% per unit"
                progress.update(task, completed=step.spins_drawn, ev=ev)
        except KeyboardInterrupt:
            return True
    return False


def _print(result: WagerSimReport, out: Console) -> None:
    """The result as Rich tables."""
    from rich.markup import escape
    from rich.table import Table

    from croupier.games import game

    p = result.plan
    what = f"{p.round_name}s"
    out.print(
        f"[bold]{escape(game(p.game).title)}[/bold]: {p.sessions:,} sessions of "
        f"{p.spins:,} {what}, staking {', '.join(b.spec for b in p.bets)} ({p.stakes} a {p.round_name}) from a "
        f"bankroll of {p.bankroll:,}; rules: {escape(p.source)}; seed {p.seed}"
        + (" [yellow](partial)[/yellow]" if result.partial else ""),
        highlight=False,
        soft_wrap=True,
    )
    bets = Table(title="Bets, per unit staked: exact edge and simulated mean net")
    for col in ("bet", "stake", "house edge", "edge %", "SD", "simulated net", "95% interval"):
        bets.add_column(col, justify="left" if col == "bet" else "right")
    rows = [(b.bet.spec, str(b.bet.amount), b.bet.house_edge, b.bet.sd, b.simulated) for b in result.bets]
    if len(result.bets) > 1:
        rows.append(("all bets", str(p.stakes), result.house_edge, result.sd, result.combined))
    for label, stake, edge, sd, sim in rows:
        low, high = sim.ci95
        interval = f"[{low * 100:+.3f}%, {high * 100:+.3f}%]" if sim.spins else "—"
        mean = f"{sim.mean * 100:+.3f}%" if sim.spins else "—"
        bets.add_row(escape(label), stake, str(edge), f"{float(edge) * 100:.4f}%", f"{sd:.4f}", mean, interval)
    out.print(bets)
    s = result.sessions
    if s is None:
        out.print("No session completed.")
    else:
        t = Table(title=f"{s.sessions:,} sessions: result in chips (final bankroll − {p.bankroll:,})")
        for col in ("figure", "simulated", "exact"):
            t.add_column(col, justify="left" if col == "figure" else "right")
        e = s.exact

        def share(x: float) -> str:
            return f"{x * 100:.3f}%"

        t.add_row("mean result", f"{s.mean:+,.3f}", f"{e.mean:+,.3f}" if e else "—")
        t.add_row("SD", f"{s.sd:,.3f}", f"{e.sd:,.3f}" if e else "—")
        t.add_row("ahead", share(s.ahead), share(e.ahead) if e else "—")
        t.add_row("even", share(s.even), share(e.even) if e else "—")
        t.add_row("behind", share(s.behind), share(e.behind) if e else "—")
        t.add_row(f"ruined (could not stake the next {p.round_name})", share(s.ruined), share(e.ruined) if e else "—")
        t.add_row(f"mean {what} played", f"{s.mean_spins_played:,.2f}", "")
        t.add_row("hold (house win ÷ wagered)", share(s.hold), share(float(result.house_edge)))
        for q, v in s.percentiles:
            t.add_row(f"percentile {q}", f"{v:+,}", "")
        out.print(t)
    h = Table(title=f"The house's hold over N {what}: exact mean, simulated and normal percentiles")
    for col in ("N", "mean", "SD", "5-95% simulated", "5-95% normal", "1-99% simulated", "1-99% normal"):
        h.add_column(col, justify="right")
    for row in result.hold:
        drawn, norm = row.simulated, row.normal
        h.add_row(
            f"{row.spins:,}",
            f"{float(row.mean) * 100:.3f}%",
            f"{row.sd * 100:.3f}%",
            f"{drawn[1] * 100:+.3f}% … {drawn[2] * 100:+.3f}%",
            f"{norm[1] * 100:+.3f}% … {norm[2] * 100:+.3f}%",
            f"{drawn[0] * 100:+.3f}% … {drawn[3] * 100:+.3f}%",
            f"{norm[0] * 100:+.3f}% … {norm[3] * 100:+.3f}%",
        )
    out.print(h)
    rate = f"{result.rounds_per_cpu_second:,.0f}" if result.cpu_seconds > 0 else "—"
    out.print(
        f"{result.spins_drawn:,} {what} drawn in {result.cpu_seconds:.2f} s of CPU time: {rate} {what} per CPU "
        f"second. Repeat with: {escape(p.command)}",
        highlight=False,
        soft_wrap=True,
    )


def _write_report(result: WagerSimReport, path: Path) -> None:
    from croupier import cli
    from croupier.report.wager_simulation import simulation_report

    built = simulation_report(result)
    try:
        built.write_html(path)
    except OSError as exc:
        raise cli._fail_line(f"cannot write the report {str(path)!r}: {exc.strerror or exc}.") from None
    finally:
        built.close()


__all__ = ["INTERRUPTED", "register", "roulette", "sicbo"]
