"""``croupier rng test``: the certification run, its second level, dieharder, the report and the command's input."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.rng import certify, dieharder, second_level, sources
from croupier.rng.results import TestResult, overall, sidak

runner = CliRunner()
needs_dieharder = pytest.mark.skipif(dieharder.executable() is None, reason="dieharder is not installed")


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["rng", "test", *args])
    return result.exit_code, result.stdout, result.stderr


# -- the verdict ---------------------------------------------------------------------------------------------------


def test_sidak_and_the_overall_verdict() -> None:
    assert sidak([0.01]) == pytest.approx(0.01)
    assert sidak([0.01, 0.5, 0.9]) == pytest.approx(1 - 0.99**3)
    ok = TestResult.of("a", "x", 1.0, [0.02], 10)
    low = TestResult.of("b", "x", 1.0, [0.004], 10)
    skipped = TestResult.skip("c", "x", 3, "too short")
    # one p-value of 0.004 among two tests: 1 - 0.996^2 = 0.008 < 0.01 fails, among five it does not
    assert overall([ok, low, skipped], 0.01) == "fail"
    assert overall([ok, low, ok, ok, ok], 0.01) == "pass"
    assert overall([skipped], 0.01) == "skipped"
    assert skipped.verdict(0.01) == "skipped" and skipped.p_value is None


# -- the second level ------------------------------------------------------------------------------------------------


def _runs_of(ps: list[float]) -> list[list[TestResult]]:
    return [[TestResult.of("t", "x", 0.0, [p], 100)] for p in ps]


def test_second_level_accepts_uniform_p_values_and_rejects_crowded_ones() -> None:
    rng = np.random.default_rng(5)
    fine = second_level.second_level(_runs_of(list(rng.random(50))))
    assert fine[0].verdict(0.01) == "pass"
    # every run passes at 0.01, yet the p-values crowd between 0.4 and 0.6: the second level fails them
    crowded = second_level.second_level(_runs_of(list(0.4 + 0.2 * rng.random(50))))
    assert all(p > 0.01 for p in crowded[0].detail["p_values"])  # type: ignore[attr-defined]
    assert crowded[0].verdict(0.01) == "fail"


def test_second_level_needs_ten_runs() -> None:
    out = second_level.second_level(_runs_of([0.3, 0.5, 0.7]))
    assert out[0].skipped is not None and "at least 10 runs" in out[0].skipped


def test_repeated_runs_on_a_seeded_source_give_the_second_level() -> None:
    cert = certify.certify("seeded:11", games=("roulette",), samples=20_000, repeat=10, dieharder=None)
    game = cert.games[0]
    assert len(game.runs) == 10 and game.size == 20_000
    assert game.second[0].name == "roulette: pockets (KS over runs)"
    assert game.second[0].n == 10 and game.second[0].p_value is not None
    assert cert.verdict == "pass"


# -- sources through the command -------------------------------------------------------------------------------------


def test_a_seeded_source_passes_and_its_fingerprint_names_the_data() -> None:
    code, out, _ = _run("seeded:1", "--game", "roulette", "--samples", "100000", "--dieharder", "none", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["verdict"] == "pass" and doc["games"][0]["game"] == "roulette"
    data = sources.draw("seeded:1", "roulette", 100_000)
    assert doc["games"][0]["fingerprint"] == data.fingerprint
    same = ("--game", "roulette", "--samples", "100000", "--dieharder", "none", "--json")
    again = json.loads(_run("seeded:1", *same)[1])
    assert again["fingerprint"] == doc["fingerprint"]
    other = json.loads(_run("seeded:2", *same)[1])
    assert other["fingerprint"] != doc["fingerprint"]


@pytest.mark.parametrize(
    ("source", "game", "samples"),
    [("broken:modulo-bias", "roulette", "200000"), ("broken:off-by-one-fisher-yates", "blackjack", "300")],
)
def test_a_broken_generator_fails_with_exit_1(source: str, game: str, samples: str) -> None:
    code, out, _ = _run(source, "--game", game, "--samples", samples, "--dieharder", "none", "--json")
    assert code == 1
    doc = json.loads(out)
    assert doc["verdict"] == "fail" and doc["counts"]["fail"] >= 1


def test_too_small_a_sample_is_skipped_with_its_reason_not_scored() -> None:
    code, out, _ = _run("seeded:1", "--game", "roulette", "--samples", "100", "--dieharder", "none", "--json")
    doc = json.loads(out)
    results = doc["games"][0]["results"][0]
    skipped = [r for r in results if r["verdict"] == "skipped"]
    assert skipped and all(r["p_value"] is None and "needs" in r["skipped"] for r in skipped)
    assert code == 0


def test_a_file_of_outcomes_and_of_bits(tmp_path: Path) -> None:
    pockets = sources.draw("seeded:4", "roulette", 50_000).data
    f = tmp_path / "spins.txt"
    f.write_text("\n".join(str(int(p)) for p in pockets) + "\n")
    code, out, _ = _run(str(f), "--game", "roulette", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["games"][0]["samples_per_run"] == 50_000
    assert doc["games"][0]["fingerprint"] == sources.fingerprint("roulette", pockets)
    raw = tmp_path / "bits.bin"
    raw.write_bytes(os.urandom(20_000))
    code, out, _ = _run(str(raw), "--game", "bits", "--dieharder", "0", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["games"][0]["samples_per_run"] == 160_000
    if dieharder.executable() is not None:  # 20 kB is far too little for dieharder: skipped, and why
        (d,) = doc["dieharder"]
        assert d["verdict"] == "skipped" and "rewound" in d["skipped"]


# -- bad input: one line, exit 2, nothing run ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["seeded:1", "--alpha", "0.5"], "alpha must be a number in (0, 0.5), not 0.5"),
        (["seeded:1", "--alpha", "0"], "alpha must be a number in (0, 0.5), not 0.0"),
        (["seeded:1", "--alpha", "-0.1"], "not -0.1"),
        (["/no/such/file.bin", "--game", "bits"], "no such file"),
        (["seeded:x"], "the seed 'x'"),
        (["broken:nope"], "unknown broken generator 'nope'"),
        (["seeded:1", "--game", "poker"], "--game must be one of"),
        (["seeded:1", "--samples", "0"], "--samples must be a positive number"),
        (["seeded:1", "--repeat", "0"], "--repeat must be 1 to"),
        (["seeded:1", "--samples", "10000000"], "asks for 10,000,000 shoes of blackjack; a run draws at most 250,000"),
        (["seeded:1", "--game", "sicbo", "--samples", "100000000", "--repeat", "3"], "300,000,000 rolls"),
        (["seeded:1", "--dieharder", "5"], "dieharder test 5 is rated Suspect"),
        (["seeded:1", "--dieharder", "fast"], "--dieharder takes quick, all, none"),
        (["seeded:1", "--report", "out.pdf"], "--report writes an HTML file"),
        ([], "name a SOURCE"),
        (["--table", "r1"], "--table needs --database"),
        (["seeded:1", "--database", "sqlite:///x.db"], "--database and --last go with --table"),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_2(args: list[str], says: str) -> None:
    code, out, err = _run(*args)
    assert code == 2
    assert says in " ".join(err.split())
    assert out == ""


def test_a_bad_value_in_a_file_names_the_file_and_line(tmp_path: Path) -> None:
    f = tmp_path / "spins.txt"
    f.write_text("1\n2\n37\n")
    code, _, err = _run(str(f), "--game", "roulette")
    assert code == 2
    flat = " ".join(err.split())
    assert "spins.txt" in flat and "37" in flat and "line 3" in flat


def test_an_unreadable_file_is_exit_2(tmp_path: Path) -> None:
    f = tmp_path / "locked.bin"
    f.write_bytes(b"\x00" * 64)
    f.chmod(0)
    if os.access(f, os.R_OK):  # root reads anything: a directory in its place cannot be read as a file
        f.chmod(0o600)
        f.unlink()
        f.mkdir()
    code, _, err = _run(str(f), "--game", "bits")
    assert code == 2 and "Error" in err


def test_a_file_needs_its_game() -> None:
    code, _, err = _run(__file__)
    assert code == 2 and "--game" in err


# -- dieharder ------------------------------------------------------------------------------------------------------


@needs_dieharder
def test_dieharder_passes_a_seeded_stream_and_fails_a_stuck_bit() -> None:
    good = certify.byte_stream(sources.parse_source("seeded:9"), b"")
    (res,) = dieharder.run_stream(good, (100,), psamples=20)
    assert res.name == "dieharder sts_monobit" and res.verdict(0.01) == "pass" and res.n > 0
    bad = certify.byte_stream(sources.parse_source("broken:stuck-bit:1"), b"")
    (res,) = dieharder.run_stream(bad, (100,), psamples=20)  # every 64th bit is 0: too few ones
    assert res.verdict(0.01) == "fail"


@needs_dieharder
def test_the_seeded_stream_for_dieharder_goes_on_from_the_bit_sample() -> None:
    sample = sources.draw("seeded:7", "bits", 64 * 100)
    first = np.packbits(sample.data.astype(np.uint8)).tobytes()
    stream = certify.byte_stream(sources.parse_source("seeded:7"), first)
    a, b = stream(), stream()
    words = np.random.PCG64(7).random_raw(100 + 8).astype(">u8").tobytes()
    assert a == words[:800] and b[:64] == words[800:864]


def test_dieharder_absent_is_skipped_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dieharder, "executable", lambda: None)
    (res,) = dieharder.run_stream(lambda: b"\x00" * 8, (0,))
    assert res.p_value is None and res.skipped is not None and "not installed" in res.skipped


def test_dieharder_output_is_read_line_by_line() -> None:
    text = """
   rng_name    |rands/second|   Seed   |
stdin_input_raw|  3.27e+07  | 152020296|
        test_name   |ntup| tsamples |psamples|  p-value |Assessment
          sts_serial|   1|    100000|      20|0.99125216|  PASSED
          sts_serial|   2|    100000|      20|0.00000012|  FAILED
# The file file_input_raw was rewound 3 times
"""
    lines, rewinds = dieharder.parse(text)
    assert [(x.name, x.ntup, x.p) for x in lines] == [("sts_serial", 1, 0.99125216), ("sts_serial", 2, 1.2e-07)]
    assert rewinds == 3


# -- the report -----------------------------------------------------------------------------------------------------


def test_the_html_report_names_every_test_its_verdict_and_the_data(tmp_path: Path) -> None:
    out = tmp_path / "cert.html"
    code, stdout, _ = _run(
        "broken:modulo-bias", "--game", "roulette", "--samples", "200000", "--dieharder", "none", "--report", str(out)
    )
    assert code == 1
    page = out.read_text()
    cert = certify.certify("broken:modulo-bias", games=("roulette",), samples=200_000, dieharder=None)
    for r in cert.games[0].runs[0]:
        assert r.name in page
    assert cert.fingerprint in page and cert.games[0].fingerprint in page
    assert "FAIL" in page and "verdict at 0.01" in page
    assert page.count("data:image/png;base64,") == 2  # the p-value histogram and the per-pocket deviations
    assert "report written to" in stdout


# -- a table's recorded results: --table ID --database URL -----------------------------------------------------------


@pytest.fixture(scope="module")
def casino_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A casino database with a live roulette table R1 whose wheel favours pocket 17 (4/37) for 800 spins, a fair
    live sic bo table S1 (300 rolls) and an RNG blackjack table B1."""
    from croupier.storage import upgrade
    from service.test_bias_watch import live_table, play, sql_world

    url = f"sqlite:///{tmp_path_factory.mktemp('casino') / 'casino.sqlite3'}"
    upgrade(url)
    world = sql_world(url)
    law = np.full(37, (1 - 4 / 37) / 36)
    law[17] = 4 / 37
    live_table(world, "R1")
    play(world, "R1", [int(x) for x in np.random.default_rng(3).choice(37, size=800, p=law)])
    live_table(world, "S1", "sicbo")
    rolls = np.random.default_rng(4).integers(1, 7, size=(300, 3))
    play(world, "S1", [[int(d) for d in roll] for roll in rolls])
    world.casino.open_table(world.admin, table_id="B1", game="blackjack")
    return url


def test_a_tables_results_are_tested_with_the_bias_watch(casino_db: str, tmp_path: Path) -> None:
    out = tmp_path / "watch.html"
    code, stdout, _ = _run("--table", "R1", "--database", casino_db, "--json", "--report", str(out))
    assert code == 1
    doc = json.loads(stdout)
    game = doc["games"][0]
    assert game["game"] == "roulette" and game["samples_per_run"] == 800
    assert "800 settled spins of table R1 (rounds R1.1 to R1.800)" in game["description"]
    pockets = next(r for r in game["results"][0] if r["name"] == "roulette: pockets")
    assert pockets["verdict"] == "fail"
    watch = doc["watch"]
    assert watch["flagged"] is True and watch["furthest"][0]["cell"] == 17
    page = out.read_text()
    assert "Bias watch" in page and "FLAGGED" in page
    assert "The sequential view" in page and "Per-pocket deviation" in page  # the watch's plot and the pockets'
    assert "p-values: a sound generator" not in page  # 7 p-values make no histogram
    code, stdout, _ = _run("--table", "R1", "--database", casino_db, "--last", "100", "--json")
    assert json.loads(stdout)["games"][0]["samples_per_run"] == 100  # the last 100 spins only


def test_a_fair_dice_table_passes(casino_db: str) -> None:
    code, stdout, _ = _run("--table", "S1", "--database", casino_db, "--json")
    doc = json.loads(stdout)
    assert code == 0 and doc["verdict"] == "pass" and doc["watch"]["flagged"] is False
    assert doc["games"][0]["samples_per_run"] == 300


@pytest.mark.parametrize(
    ("table", "says"),
    [("NOPE", "There is no table 'NOPE'"), ("B1", "not a shoe's cards")],
)
def test_a_table_the_watch_cannot_test_is_exit_2(casino_db: str, table: str, says: str) -> None:
    code, out, err = _run("--table", table, "--database", casino_db)
    assert code == 2 and says in " ".join(err.split()) and out == ""


def test_a_database_that_is_not_there_is_exit_2(tmp_path: Path) -> None:
    code, _, err = _run("--table", "R1", "--database", f"sqlite:///{tmp_path / 'none.sqlite3'}")
    assert code == 2 and "no SQLite database" in err
