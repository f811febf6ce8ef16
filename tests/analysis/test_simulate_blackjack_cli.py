"""``croupier simulate blackjack`` (issue 15): the JSON's fields, the same figures as the library, ``--hours``, the
penetration sweep, the table output and the HTML report, the partial result after Ctrl+C, and one line with exit
status 2 naming the value for every bad input."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier import cli
from croupier.analysis import _sim_kernels as sk
from croupier.analysis import counting, tablesim
from croupier.analysis.simulate import BLOCK, BlockTotals, TableJob, basic_chart
from croupier.blackjack.rules import STATUTE
from croupier.cli_simulate import expand_bare_ray
from report.conftest import check_html

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "counting"
SMALL = ["--rounds", "20000", "--seed", "11", "--chart", "textbook"]
"""A short run by the fixed textbook chart (the default, td, is an exact analysis of a few seconds)."""
COUNTED = ["--count", "hi-lo", "--ramp", str(EXAMPLES / "ramp.toml"), "--indices", str(EXAMPLES / "indices.toml")]
TIMING = ("cpu_seconds", "wall_seconds", "rounds_per_cpu_s", "rounds_per_s")


def run(*args: str) -> Any:
    """``croupier simulate blackjack ARGS`` in-process, with standard output and standard error apart."""
    return CliRunner().invoke(cli.app, ["simulate", "blackjack", *args])


def data_of(result: Any) -> dict[str, Any]:
    """The JSON a successful ``--json`` run printed."""
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def test_the_json_holds_the_setup_the_run_and_the_figures() -> None:
    """The default chart (td) with a count, the example ramp and index file, side bets, box 2 of 3."""
    data = data_of(
        run(*COUNTED, "--side-bets", "--boxes", "3", "--seat", "2", "--rounds", "20000", "--seed", "11", "--json")
    )
    assert set(data) == {"game", "setup", "run", "counter", "house", "by_count", "cards", "fan", "rules_source"}
    assert (data["game"], data["rules_source"]) == ("blackjack", "preset statute")
    setup = data["setup"]
    assert (setup["decks"], setup["boxes"], setup["seat"], setup["shuffle"]) == (8, 3, 2, "shoe")
    assert setup["chart"] == "td"
    assert (setup["penetration"], setup["cards_behind_cut"]) == (0.75, 104)  # the statute's default (BJ 2.1)
    assert setup["count"]["name"] == "Hi-Lo" and setup["count"]["true_count"] == "exact"
    assert setup["ramp"]["name"] == "1-12 spread, wonging out" and setup["ramp"]["side_bets"] == {"over_13": 3}
    assert [p["hand"] for p in setup["indices"]] == [p.hand for p in counting.load_indices(EXAMPLES / "indices.toml")]
    assert setup["side_bets"] is True and setup["bankroll_units"] == 1000
    run_ = data["run"]
    assert (run_["rounds_asked"], run_["rounds"], run_["seed"], run_["interrupted"]) == (20_000, 20_000, 11, False)
    assert (run_["workers"], run_["ray"], run_["block_rounds"]) == (1, None, BLOCK)
    assert run_["cpu_seconds"] >= 0 and run_["rounds_per_s"] > 0
    counter = data["counter"]
    for key in ("ev_per_round", "ev_per_100", "sd_per_round", "sd_per_100", "rounds_played", "share_played",
                "average_bet", "edge_per_initial_bet", "edge_per_amount_wagered", "insured", "win_per_hour",
                "sd_per_hour", "hours", "score", "n0", "desirability_index", "risk_of_ruin"):  # fmt: skip
        assert key in counter, key
    assert set(counter["ev_per_round"]) == {"mean", "se", "ci95"}
    assert set(counter["risk_of_ruin"]) == {
        "bankroll_units", "formula", "formula_within_path", "simulated_within_path", "paths", "path_rounds"
    }  # fmt: skip
    assert set(data["house"]) == {"main_bet", "side_bets"}
    assert set(data["house"]["side_bets"]) == set(sk.SIDE_KEYS)
    assert data["house"]["side_bets"]["over_13"]["counter_bet_at"] == 3
    assert sum(row["rounds"] for row in data["by_count"]) == 20_000
    assert set(data["by_count"][0]) >= {"count", "rounds", "frequency", "player_ev", "se", "ci95", "rounds_played"}
    assert data["cards"]["per_round"] > 10  # three boxes and the dealer
    assert len(data["fan"]["paths"]) == 2  # 20,000 rounds: two whole paths of 10,000


def test_the_command_runs_what_the_library_runs() -> None:
    args = [*COUNTED, "--true-count", "half_deck", "--boxes", "2", "--bankroll", "300", "--path-rounds", "5000"]
    data = data_of(run(*args, "--shuffle", "shoe", "--penetration", "0.8", "--rounds-per-hour", "60", *SMALL, "--json"))
    setup = tablesim.TableSetup(
        rules=STATUTE,
        chart=basic_chart(),
        chart_name="textbook",
        boxes=2,
        penetration=0.8,
        continuous=False,
        count=counting.count_system("hi-lo"),
        true_count="half_deck",
        ramp=counting.ramp(EXAMPLES / "ramp.toml"),
        indices=counting.load_indices(EXAMPLES / "indices.toml"),
        bankroll=300,
        path_rounds=5000,
        rounds_per_hour=60,
    )
    library = copy.deepcopy(tablesim.simulate_table(setup, 20_000, 11).to_json())
    assert data.pop("rules_source") == "preset statute"
    for out in (data, library):
        for key in TIMING:
            del out["run"][key]
    assert data == library


def test_hours_are_rounds_at_the_rounds_per_hour() -> None:
    data = data_of(run("--hours", "300", "--rounds-per-hour", "70", "--seed", "2", "--chart", "textbook", "--json"))
    assert data["run"]["rounds"] == data["run"]["rounds_asked"] == 300 * 70
    assert data["setup"]["rounds_per_hour"] == 70 and data["counter"]["hours"] == 300
    half = data_of(run("--hours", "0.5", "--seed", "2", "--chart", "textbook", "--json"))
    assert half["run"]["rounds"] == 50 and half["setup"]["rounds_per_hour"] == 100


def test_several_penetrations_are_compared() -> None:
    data = data_of(run("--count", "hi-lo", "--penetration", "0.6,0.85", *SMALL, "--json"))
    assert data["setup"]["cards_behind_cut"] == 166  # 40% of 416 cards, to the card: a penetration of 0.601
    assert data["setup"]["penetration"] == 0.601
    rows = data["penetrations"]
    assert [row["penetration"] for row in rows] == [0.6, 0.85]
    assert rows[0]["ev_per_round"] == data["counter"]["ev_per_round"]  # the same seed and setup as the main run
    assert rows[1]["ev_per_round"] != rows[0]["ev_per_round"]


@pytest.mark.usefixtures("wide")
def test_the_table_output_names_the_figures() -> None:
    result = run("--count", "ko", "--boxes", "2", *SMALL)
    assert result.exit_code == 0, result.output
    for text in ("Blackjack", "2 box(es)", "KO", "seed 11", "EV per round", "SCORE / N0 / DI", "Risk of ruin",
                 "House edge, main bet (flat)", "By count", "rounds per CPU second"):  # fmt: skip
        assert text in result.stdout, text


@pytest.mark.usefixtures("wide")
def test_the_report_is_a_self_contained_page(tmp_path: Path) -> None:
    out = tmp_path / "counting.html"
    result = run(*COUNTED, "--side-bets", *SMALL, "--report", str(out))
    assert result.exit_code == 0, result.output
    assert f"Wrote {out}" in result.stdout
    page = out.read_text(encoding="utf-8")
    parsed = check_html(page)
    assert parsed.srcs  # the figures are embedded
    for text in ("SCORE", "Hi-Lo", "over_13", "seed"):
        assert text in page, text


@pytest.fixture
def interrupt_after_one_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl+C arrives while the simulation runs, once its first chunk is dealt."""
    real = tablesim.run_blocks

    def interrupted(
        job: TableJob,
        seed: int,
        first: int,
        rounds: int,
        *,
        chunk: int,
        progress: Callable[[int, int], None] | None = None,
        keep: list[BlockTotals] | None = None,
    ) -> BlockTotals:
        def tell(done: int, total: int) -> None:
            if progress is not None:
                progress(done, total)
            raise KeyboardInterrupt

        return real(job, seed, first, rounds, chunk=chunk, progress=tell, keep=keep)

    monkeypatch.setattr(tablesim, "run_blocks", interrupted)


@pytest.mark.usefixtures("interrupt_after_one_chunk", "wide")
def test_ctrl_c_prints_the_partial_result() -> None:
    result = run("--rounds", "300000", "--seed", "5", "--chart", "textbook", "--json")
    assert result.exit_code == 130, result.output
    data = json.loads(result.stdout)
    assert data["run"]["interrupted"] is True
    assert (data["run"]["rounds"], data["run"]["rounds_asked"]) == (100_000, 300_000)  # one chunk of the default
    assert sum(row["rounds"] for row in data["by_count"]) == 100_000
    assert "Interrupted: the partial result of 100,000 of 300,000 rounds." in result.stderr


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    """Bad input files: a tags file of nine tags, a ramp whose units fall, an index file with an unknown hand."""
    nine = tmp_path / "nine.toml"
    nine.write_text('name = "Nine"\ntags = [-1, 1, 1, 1, 1, 1, 0, 0, -1]\n', encoding="utf-8")
    falling = tmp_path / "falling.toml"
    falling.write_text("steps = [[-30, 1], [2, 4], [3, 2]]\n", encoding="utf-8")
    firm = tmp_path / "firm.toml"
    firm.write_text('[[play]]\nhand = "firm 16"\nup = 10\nat = 0\nabove = "stand"\n', encoding="utf-8")
    return {"nine": str(nine), "falling": str(falling), "firm": str(firm)}


@pytest.mark.usefixtures("wide")
@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--count", "{nine}"], "counting system 'Nine' has 9 tags; it needs 10"),
        (["--count", "hi-lo", "--ramp", "{falling}"], "ramp units fall from 4 at count 2 to 2 at count 3"),
        (["--count", "hi-lo", "--indices", "{firm}"], "unknown decision in hand 'firm 16'"),
        (["--penetration", "0"], "penetration 0.0 must lie strictly between 0 and 1 (BJ 2.1)"),
        (["--penetration", "1"], "penetration 1.0 must lie strictly between 0 and 1 (BJ 2.1)"),
        (["--penetration", "-0.2"], "penetration -0.2 must lie strictly between 0 and 1 (BJ 2.1)"),
        (["--penetration", "abc"], "penetration 'abc' must be a number strictly between 0 and 1 (BJ 2.1)"),
        (["--penetration", "0.7,1.5"], "penetration 1.5 must lie strictly between 0 and 1 (BJ 2.1)"),
        (["--boxes", "8"], "boxes 8 must be from 1 to the table's 7 boxes (BJ 1)"),
        (["--boxes", "3", "--seat", "4"], "seat 4 must be one of the 3 boxes dealt, 1 to 3 (BJ 5.2)"),
        (["--seat", "0"], "seat 0 must be one of the 1 boxes dealt"),
        (["--rounds", "0"], "--rounds 0 must be at least 1"),
        (["--workers", "0"], "workers 0 must be a whole number from 1 to 1024"),
        (["--workers", "2", "--ray", "local"], "give --workers or --ray, not both"),
        (["--seed", "-1"], "seed -1 must be a whole number"),
        (["--hours", "0"], "--hours 0.0 must be more than 0"),
        (["--hours", "2", "--rounds", "10"], "give --rounds or --hours, not both"),
        (["--bankroll", "0"], "bankroll 0 must be a whole number of units"),
        (["--count", "hi-low-high"], "unknown counting system 'hi-low-high'"),
        (["--true-count", "thirds"], "true-count method 'thirds'"),
        (["--shuffle", "often"], "--shuffle 'often' must be shoe or continuous"),
        (["--chart", "fancy"], "--chart 'fancy' must be td or textbook"),
        (["--ramp", str(EXAMPLES / "ramp.toml")], "a ramp or index plays need a count"),
    ],
)
def test_bad_input_is_one_line_naming_the_value(files: dict[str, str], args: list[str], named: str) -> None:
    argv = [a.format(**files) for a in args]
    if "--chart" not in argv:
        argv += ["--chart", "textbook"]  # so that the checks after the chart's analysis take no time either
    result = run(*argv, "--json")
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), lines
    assert named in lines[0]
    assert result.stdout == ""


@pytest.mark.parametrize("argv", [["--workers", "2", "--ray"], ["--ray", "--workers", "2"]])
def test_a_bare_ray_flag_means_a_local_ray(argv: list[str]) -> None:
    # Through the console script, which gives a bare --ray the address "local" before Typer parses the line.
    script = Path(sys.executable).with_name("croupier")
    result = subprocess.run(
        [str(script), "simulate", "blackjack", "--chart", "textbook", "--json", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert "give --workers or --ray, not both" in result.stderr


def test_expand_bare_ray() -> None:
    assert expand_bare_ray(["simulate", "blackjack", "--ray"]) == ["simulate", "blackjack", "--ray", "local"]
    assert expand_bare_ray(["simulate", "blackjack", "--ray", "--json"])[3] == "local"
    assert expand_bare_ray(["simulate", "blackjack", "--ray", "auto"]) == ["simulate", "blackjack", "--ray", "auto"]
    assert expand_bare_ray(["serve", "--ray"]) == ["serve", "--ray"]
