"""``croupier simulate roulette`` and ``croupier simulate sicbo`` (issue 15): the JSON's fields, the HTML report,
the partial result after Ctrl+C, and one clear line with exit status 2 naming the value for each bad input."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier import cli
from croupier.analysis import wager_sim
from report.conftest import check_html
from support import write

SMALL = ["--spins", "30", "--sessions", "300", "--seed", "42"]


def run(*args: str) -> Any:
    """``croupier simulate ARGS`` in-process, with standard output and standard error apart."""
    return CliRunner().invoke(cli.app, ["simulate", *args])


def test_roulette_json_has_the_issues_figures() -> None:
    result = run("roulette", "--bet", "red=2", "--bet", "straight:17=2", "--bankroll", "40", "--json", *SMALL)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["game"], data["rules"], data["seed"], data["partial"]) == ("roulette", "preset statute", 42, False)
    assert (data["spins"], data["sessions_requested"], data["bankroll"], data["stakes_per_spin"]) == (30, 300, 40, 4)
    assert [b["bet"] for b in data["bets"]] == ["red=2", "straight:17=2"]
    for bet in data["bets"]:
        assert bet["house_edge"] == "1/37" and bet["rule"] == "RO 7"
        low, high = bet["simulated"]["ci95"]
        assert low < bet["simulated"]["mean"] < high and bet["simulated"]["spins"] == 9000
    sessions = data["sessions"]
    assert sessions["sessions"] == 300
    for key in ("mean", "sd", "ahead", "even", "behind", "ruined", "mean_spins_played", "hold", "exact"):
        assert key in sessions
    assert sessions["ahead"] + sessions["even"] + sessions["behind"] == pytest.approx(1)
    assert sessions["exact"]["ruined"] > 0  # 40 chips at 4 a spin: ruin is possible within 30 spins
    assert list(data["paths"]["bands"]) == ["5", "25", "50", "75", "95"]
    assert len(data["paths"]["examples"]) == 20 and data["paths"]["spins"][-1] == 30
    assert [h["spins"] for h in data["hold"]] == [1000, 10_000, 100_000, 1_000_000]
    for h in data["hold"]:
        assert set(h["simulated"]) == set(h["normal"]) == {"p1", "p5", "p95", "p99"}
    assert data["speed"]["spins_drawn"] == 9000 and data["speed"]["rounds_per_cpu_second"] > 0


def test_the_printed_command_repeats_the_result() -> None:
    first = json.loads(run("sicbo", "--bet", "total:10=2", "--rolls", "20", "--sessions", "200", "--json").stdout)
    again = run(*shlex.split(first["command"])[2:], "--json")
    assert again.exit_code == 0, again.output
    second = json.loads(again.stdout)
    first.pop("speed")
    second.pop("speed")
    assert first == second
    assert first["bets"][0]["house_edge"] == "1/8"  # 27 of 216 rolls make 10, paying 6 to 1: 1 − 27 · 7/216


def test_defaults_stake_the_table_minimum_on_big() -> None:
    data = json.loads(run("sicbo", "--json", "--rolls", "10", "--sessions", "50", "--seed", "1").stdout)
    assert [b["bet"] for b in data["bets"]] == ["big=2"]
    assert data["bankroll"] == 100 and data["bets"][0]["house_edge"] == "1/36"


def test_a_rules_file_changes_the_figures(tmp_path: Path) -> None:
    path = write(tmp_path, "house.toml", 'game = "roulette"\nmin_bet = 1\n[paytables]\nstraight = 34\n')
    result = run("roulette", "--rules", str(path), "--bet", "straight:5=1", "--json", *SMALL)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["bets"][0]["house_edge"] == "2/37"  # (36 − 35)/37 + 1/37
    assert data["rules"] == f"file {path}"


def test_the_table_output_names_the_figures() -> None:
    result = run("roulette", *SMALL)
    assert result.exit_code == 0, result.output
    for text in ("house edge", "1/37", "ruined", "percentile 99", "1,000,000", "Repeat with: croupier simulate"):
        assert text in result.stdout, text


def test_report_writes_a_self_contained_html_page(tmp_path: Path) -> None:
    out = tmp_path / "sessions.html"
    result = run("sicbo", "--bet", "big=2", "--bet", "single:3=2", "--bankroll", "20", "--report", str(out), *SMALL)
    assert result.exit_code == 0, result.output
    assert f"Wrote {out}" in result.stdout
    page = out.read_text(encoding="utf-8")
    parsed = check_html(page)
    assert len(parsed.srcs) >= 4  # the edges' intervals, the fan, the histogram, the hold
    for text in (
        "The bankroll through a session",
        "Session figures",
        "The house&#x27;s hold",
        "1%-99% normal",
        "big=2",
        "seed</td>",
    ):
        assert text in page, text


@pytest.fixture
def interrupt_after_one_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl+C arrives while the simulation runs, after its first step."""
    steps = wager_sim.WagerSimulation.steps

    def interrupted(self: wager_sim.WagerSimulation) -> Iterator[wager_sim.Step]:
        for step in steps(self):
            yield step
            raise KeyboardInterrupt

    monkeypatch.setattr(wager_sim.WagerSimulation, "steps", interrupted)


@pytest.mark.usefixtures("interrupt_after_one_step", "wide")
def test_ctrl_c_prints_the_partial_result() -> None:
    result = run("roulette", "--spins", "10", "--sessions", "100000", "--seed", "3", "--json")
    assert result.exit_code == 130, result.output
    data = json.loads(result.stdout)
    assert data["partial"] is True
    done = data["sessions"]["sessions"]
    assert 0 < done < 100_000 and done % wager_sim.SESSION_BLOCK == 0
    assert data["bets"][0]["simulated"]["spins"] == done * 10
    assert "Interrupted: the partial result of" in result.stderr


@pytest.mark.usefixtures("wide")
@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["roulette", "--bet", "whirl=2"], "'whirl' is not a roulette bet"),
        (["roulette", "--bet", "split:1-5=2"], "[1, 5] is not a split placement"),
        (["roulette", "--bet", "dozen:0=2"], "0 is not a dozen index"),
        (["roulette", "--bet", "red=0"], "bet 'red=0': 0 is not a positive amount"),
        (["roulette", "--bet", "red=-4"], "-4 is not a positive amount"),
        (["roulette", "--bet", "red=two"], "'two' is not a whole number of chips"),
        (["sicbo", "--bet", "single:9=2"], "9 is not a die face"),
        (["sicbo", "--bet", "total=2"], "bet 'total=2' names no total"),
        (["roulette", "--spins", "0"], "spins 0"),
        (["sicbo", "--rolls", "-1"], "spins -1"),
        (["roulette", "--sessions", "0"], "sessions 0"),
        (
            ["roulette", "--bet", "red=2", "--bet", "black=2", "--bankroll", "3"],
            "bankroll 3 is below one spin's stakes",
        ),
        (["roulette", "--seed", "-1"], "seed -1"),
        (["roulette", "--report", "no/such/folder/r.html"], "'no/such/folder/r.html'"),
    ],
)
def test_bad_input_is_one_line_naming_the_value(args: list[str], named: str) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), lines
    assert named in lines[0]
    assert result.stdout == ""


@pytest.mark.usefixtures("wide")
def test_a_folder_is_not_a_report_path(tmp_path: Path) -> None:
    result = run("roulette", "--report", str(tmp_path))
    assert result.exit_code == 2
    assert f"{str(tmp_path)!r} is a folder" in result.stderr
