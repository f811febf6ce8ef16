"""The report of ``croupier simulate blackjack --report`` (croupier.report.simulation, issue 15).

The fixture is a real result (fixtures/blackjack_simulation.json: 3,000,000 rounds of an 8-deck statute shoe dealt
to 75%, Hi-Lo with a 1-12 ramp wonging out below -1, I18+Fab4, every side bet settled, seed 7). The figures the
report must show are read from that file: EV +0.020441 units a round, SCORE 68.713, N0 14,553, DI 8.289, risk of
ruin 0.1203% by the formula, house edge -0.3852% on the main bet and 6.537% on Over 13.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from croupier.analysis import counting
from croupier.report.html import FigureBlock, Paragraph
from croupier.report.simulation import MIN_FREQUENCY, simulation_report, write_simulation_report

from .conftest import check_html

SAMPLE = Path(__file__).parent / "fixtures" / "blackjack_simulation.json"

PENETRATIONS = [
    {
        "penetration": p,
        "ev_per_round": {"mean": ev, "se": 0.0014, "ci95": [ev - 0.0027, ev + 0.0027]},
        "edge_per_initial_bet": ev / 1.2,
        "score": score,
        "side_bets": {"any_pair": None, "over_13": over},
    }
    for p, ev, score, over in (
        (0.7, 0.0151, 37.46, -0.0112),
        (0.75, 0.020441, 68.71, -0.00088),
        (0.8, 0.0262, 112.9, 0.0046),
    )
]
"""A penetration sweep as ``croupier simulate`` adds it (figures made up for the report's layout)."""


def sample() -> dict[str, Any]:
    """A fresh copy of the sample result."""
    data: dict[str, Any] = json.loads(SAMPLE.read_text(encoding="utf-8"))
    return data


def section(text: str, anchor: str) -> str:
    """The HTML of one section of a report."""
    start = text.index(f'<section id="{anchor}">')
    return text[start : text.index("</section>", start)]


def images(text: str) -> int:
    """Plots in a piece of HTML: embedded images and inline SVG."""
    return text.count("<img ") + text.count("<svg")


def count_rows(text: str) -> list[int]:
    """The counts of the table by count, in order."""
    table = text.split("<h3>The main bet and the counter by count</h3>", 1)[1].split("</table>", 1)[0]
    return [int(m) for m in re.findall(r'<tr><td class="r">([+-]?\d+)</td>', table)]


def command_words(text: str) -> list[str]:
    """The words of the command that repeats the run, from a report's run section."""
    found = re.search(r"<p>(croupier simulate blackjack [^<]*)</p>", section(text, "run"))
    assert found is not None
    return found.group(1).split()


@pytest.fixture(scope="module")
def full(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The sample with a penetration sweep, written once by write_simulation_report; its HTML."""
    out = sample()
    out["penetrations"] = PENETRATIONS
    path = tmp_path_factory.mktemp("report") / "bj.html"
    write_simulation_report(out, path)
    return path.read_text(encoding="utf-8")


class TestFullReport:
    def test_the_file_is_self_contained(self, full: str) -> None:
        check_html(full)
        assert "<script" not in full and "http" not in full

    def test_one_image_per_plot(self, full: str) -> None:
        # main bet by count, side bets by count, distribution of the count, fan, penetration
        assert images(full) == 5
        assert images(section(full, "by-count")) == 3
        assert images(section(full, "bankroll-paths")) == 1
        assert images(section(full, "penetration")) == 1

    def test_the_counters_figures(self, full: str) -> None:
        part = section(full, "the-counter-s-figures")
        for text in (
            "+0.02044",  # EV per round
            "+0.01765 … +0.02323",  # its 95% interval
            "+2.044",  # EV per 100 rounds
            "2.4660",  # SD per round
            "24.660",  # SD per 100 rounds
            "1.201",  # average bet
            "+1.7025%",  # edge per unit bet
            "+1.4219%",  # edge per unit wagered
            "68.71",  # SCORE
            "14,553",  # N0
            "8.289",  # DI
            "0.1203%",  # risk of ruin, formula
            "1.27e-04%",  # within a path, formula
            "0.00% (0 of 300)",  # within a path, simulated
        ):
            assert text in part, text

    def test_the_houses_figures(self, full: str) -> None:
        part = section(full, "the-house-s-figures")
        assert "-0.3852%" in part  # the main bet, flat
        assert "+6.537%" in part  # Over 13
        assert "+51.235%" in part  # Sevens
        assert "193,837" in part and "-0.088%" in part  # the counter's Over 13 bets at +3 and above
        assert "1,455,521 losses" in part

    def test_setup_and_run(self, full: str) -> None:
        setup = section(full, "setup")
        assert "8 decks" in setup and "75.00%" in setup and "104 cards behind the cut card" in setup
        assert "A -1, 2 +1, 3 +1, 4 +1, 5 +1, 6 +1, 7 0, 8 0, 9 0, T -1" in setup
        assert "1 unit below +2; 2 units at +2; 4 units at +3; 8 units at +4; 12 units at +5 or more" in setup
        assert "falls below -1" in setup
        assert setup.count("<tr>") - 2 == 14 + 22  # the settings, the 22 index plays (two header rows)
        run = section(full, "run")
        assert "49,104" in run and "61.09 s" in run and "on 1 process" in run and "0.1.0" in run

    def test_the_command_repeats_the_run(self, full: str) -> None:
        words = command_words(full)
        for flag, value in (
            ("--preset", "statute"),
            ("--penetration", "0.7,0.75,0.8"),
            ("--count", "hi-lo"),
            ("--indices", "i18+fab4"),
            ("--ramp", "ramp.json"),
            ("--rounds", "3000000"),
            ("--seed", "7"),
            ("--report", "bj.html"),
        ):
            assert words[words.index(flag) + 1] == value, flag
        assert "--side-bets" in words

    def test_rare_counts_are_left_out_of_the_table(self, full: str) -> None:
        rows = count_rows(section(full, "by-count"))
        frequent = [r["count"] for r in sample()["by_count"] if r["frequency"] >= MIN_FREQUENCY]
        assert rows == frequent == list(range(-9, 9))

    def test_penetration_table(self, full: str) -> None:
        part = section(full, "penetration")
        for text in ("70.0%", "75.0%", "80.0%", "+0.01510", "112.90", "+0.460%", "Over 13: counter"):
            assert text in part, text
        assert "Any Pair: counter" not in part  # no counter's figure at any penetration


class TestWithoutACount:
    def test_the_count_plots_are_left_out_with_the_reason(self, tmp_path: Path) -> None:
        out = sample()
        out["setup"]["count"] = None
        out["setup"]["ramp"] = {
            "name": "flat",
            "steps": [[-30, 1]],
            "wong_in": None,
            "wong_out": None,
            "side_bets": {},
            "side_units": 1,
        }
        out["setup"]["indices"] = []
        out["by_count"] = [{**out["by_count"][0], "count": 0, "rounds": 3_000_000, "frequency": 1.0}]
        path = tmp_path / "flat.html"
        write_simulation_report(out, path)
        text = path.read_text(encoding="utf-8")
        check_html(text)
        part = section(text, "by-count")
        assert images(part) == 0
        assert "No count was kept" in part
        assert images(text) == 1  # the fan
        words = command_words(text)
        assert "--count" not in words and "--ramp" not in words and "--indices" not in words
        assert "--side-bets" in words


class TestNoRounds:
    def test_an_interrupted_run_with_no_round_renders(self, tmp_path: Path) -> None:
        full = sample()
        run = {**full["run"], "rounds": 0, "interrupted": True, "cpu_seconds": 0.0, "rounds_per_cpu_s": None}
        out = {"game": "blackjack", "setup": full["setup"], "run": run, "rules_source": "preset statute"}
        path = tmp_path / "none.html"
        write_simulation_report(out, path)
        text = path.read_text(encoding="utf-8")
        check_html(text)
        assert images(text) == 0
        assert "No round finished" in text
        assert "0 of 3,000,000 (interrupted)" in text
        assert "croupier simulate blackjack" in text

    def test_a_run_without_a_finished_path_says_so(self) -> None:
        out = sample()
        del out["fan"]
        report = simulation_report(out)
        try:
            paths = report.section("Bankroll paths")
            assert not any(isinstance(b, FigureBlock) for b in paths.blocks)
            first = paths.blocks[0]
            assert isinstance(first, Paragraph)
            assert "No bankroll path of 10,000 rounds finished" in first.text
        finally:
            report.close()


class TestRepeatFiles:
    """Setups that are not built in come with the files the repeating command reads, and those files load back to
    the same count, ramp and index plays."""

    def files(self, out: dict[str, Any]) -> dict[str, str]:
        report = simulation_report(out)
        try:
            texts = [b.text for b in report.section("Run").blocks if isinstance(b, Paragraph)]
        finally:
            report.close()
        found = {}
        for t in texts:
            m = re.fullmatch(r"with (\w+\.json) holding: (.*)", t)
            if m:
                found[m.group(1)] = m.group(2)
        return found

    def test_ramp_count_and_index_files_load_back(self, tmp_path: Path) -> None:
        out = sample()
        out["setup"]["count"]["name"] = "My Hi-Lo"
        out["setup"]["indices"] = [
            *out["setup"]["indices"][:3],
            {"hand": "hard 11", "up": 1, "at": 1, "above": "double", "below": None},
            {"hand": "hard 13", "up": 2, "at": -1, "above": "stand", "below": "hit"},
        ]
        files = self.files(out)
        assert set(files) == {"count.json", "ramp.json", "indices.json"}
        for name, text in files.items():
            (tmp_path / name).write_text(text, encoding="utf-8")
        system = counting.count_system(tmp_path / "count.json")
        assert system.name == "My Hi-Lo" and [str(t) for t in system.tags] == out["setup"]["count"]["tags"]
        ramp = counting.ramp(tmp_path / "ramp.json")
        described = out["setup"]["ramp"]
        assert [list(s) for s in ramp.steps] == described["steps"]
        assert (ramp.wong_in, ramp.wong_out, dict(ramp.side_bets)) == (None, -1, {"over_13": 3})
        plays = counting.load_indices(tmp_path / "indices.json")
        back = [{"hand": p.hand, "up": p.up, "at": p.at, "above": p.above, "below": p.below} for p in plays]
        assert back == out["setup"]["indices"]

    def test_built_in_sets_need_no_file(self) -> None:
        assert set(self.files(sample())) == {"ramp.json"}


def test_a_result_of_another_game_is_refused(tmp_path: Path) -> None:
    out = copy.deepcopy(sample())
    out["game"] = "roulette"
    with pytest.raises(ValueError, match="'roulette'"):
        write_simulation_report(out, tmp_path / "x.html")
    assert not (tmp_path / "x.html").exists()
