"""The roulette and sic bo PAR sheets (croupier.report.par) and the ``croupier par`` command.

Exact figures checked against hand derivations (tests/analysis/test_odds.py): every statutory roulette bet has
house edge 1/37 = 2.7027%; sic bo small 1/36 = 2.7778%, single 17/216 = 7.8704%, triple 65/216 = 30.0926%,
total 4 with 3 of 216 rolls at 50 to 1: 1 − 3·51/216 = 7/24 = 29.1667%.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import binom, chi2

from croupier.analysis.odds import roulette_odds
from croupier.games import load_rules
from croupier.report.par import Simulation, session_distribution, simulate, simulate_bets, wager_bets, wager_par
from croupier.report.sections import McRow
from croupier.roulette import rules as roulette_rules
from croupier.roulette.rules import RouletteRules
from croupier.sicbo import rules as sicbo_rules
from support import invoke, write

from .conftest import check_html

SEED = "3"
"""A seed at which every bet's 95% interval (200,000 rounds each) holds its exact edge: each interval misses with
probability 5%, so some seeds show a miss among the 15 or 19 bets; the test pins the seed, not luck (the
honesty of the intervals over many seeds is TestHonestIntervals's)."""
ROUNDS = "200000"


def mc_rows(text: str) -> dict[str, str]:
    """The Monte Carlo table's rows by bet name."""
    part = text.split('<section id="monte-carlo-confirmation">', 1)[1]
    return {m.group(1): m.group(0) for m in re.finditer(r"<tr><td>house edge: ([a-z_0-9]+)</td>.*?</tr>", part)}


def bet_rows(text: str) -> dict[str, str]:
    """The Bets table's rows by bet name."""
    part = text.split('<section id="bets">', 1)[1].split("</table>", 1)[0]
    return {m.group(1): m.group(0) for m in re.finditer(r"<tr><td>([a-z_0-9]+)</td>.*?</tr>", part)}


class TestBetsAndSimulation:
    @pytest.mark.parametrize("game", ["roulette", "sicbo"])
    def test_per_result_nets_reproduce_the_exact_odds(self, game: str) -> None:
        for bet in wager_bets(game, load_rules(game)):
            n = len(bet.nets)
            assert n == (37 if game == "roulette" else 216)
            assert sum(bet.nets, Fraction(0)) / n == bet.odds.ev, bet.name
            assert sum((v * v for v in bet.nets), Fraction(0)) / n - bet.odds.ev**2 == bet.odds.variance

    def test_a_changed_paytable_changes_the_nets(self) -> None:
        rules = sicbo_rules.load({"paytables": {"small": "19/20", "total": {"4": 60}}})
        by_name = {b.name: b for b in wager_bets("sicbo", rules)}
        assert by_name["small"].odds.house_edge == 1 - Fraction(35, 72) * Fraction(39, 20)
        assert by_name["total_4"].odds.house_edge == 1 - Fraction(3 * 61, 216)
        assert max(by_name["small"].nets) == Fraction(19, 20)

    def test_simulation_is_reproducible_and_complete(self) -> None:
        a, b = simulate("sicbo", 50_000, 42), simulate("sicbo", 50_000, 42)
        assert np.array_equal(a.counts, b.counts) and a.seed == b.seed == 42
        assert a.counts.sum() == 50_000 and len(a.counts) == 216 and (a.counts > 0).all()
        c = simulate("roulette", 3_000_000, 5)  # several chunks
        assert c.counts.sum() == 3_000_000 and len(c.counts) == 37 and len(c.first) == 1_000_000
        assert np.array_equal(np.bincount(c.first, minlength=37), simulate("roulette", 1_000_000, 5).counts)
        assert simulate("roulette", 10).seed > 0  # fresh entropy, recorded

    @pytest.mark.parametrize("rounds", [0, -1, 10**10, True])
    def test_simulation_refuses_a_bad_number_of_rounds(self, rounds: int) -> None:
        with pytest.raises(ValueError, match="rounds"):
            simulate("roulette", rounds, 1)

    def test_mean_and_se(self) -> None:
        sim = Simulation(np.array([3, 1], np.int64), np.array([0, 0, 0, 1], np.int64), 4, 0)
        mean, se = sim.mean_and_se([Fraction(-1), Fraction(3)])  # nets -1, -1, -1, 3: sample variance 12/3 = 4
        assert mean == 0.0 and math.isclose(se, math.sqrt(4 / 4))

    def test_session_distribution_of_a_straight_bet_is_binomial(self) -> None:
        straight = roulette_odds(RouletteRules())[0]
        dist = session_distribution(straight, 100)
        assert dist is not None
        support, probs = dist
        assert math.isclose(probs.sum(), 1.0) and math.isclose(float(probs @ support), -100 / 37, abs_tol=1e-9)
        ahead = sum(math.comb(100, w) * (1 / 37) ** w * (36 / 37) ** (100 - w) for w in range(3, 101))
        assert math.isclose(float(probs[support > 0].sum()), ahead, rel_tol=1e-9)

    def test_report_without_simulation(self) -> None:
        report = wager_par("roulette", RouletteRules(), rounds=0)
        assert [s.title for s in report.sections] == [
            "Summary", "Rules", "Bets", "Result per round", "Hold ranges", "A session's result",
            "Fingerprint and sign-off",
        ]  # fmt: skip
        with pytest.raises(ValueError, match="blackjack"):
            wager_par("blackjack", None)


class TestParCommand:
    def test_roulette(self, tmp_path: Path) -> None:
        out, pdf = tmp_path / "roulette.html", tmp_path / "roulette.pdf"
        result = invoke("par", "roulette", "--out", str(out), "--pdf", str(pdf), "--rounds", ROUNDS, "--seed", SEED)
        assert result.exit_code == 0, result.output
        assert "Wrote" in result.output and " s." in result.output
        text = out.read_text(encoding="utf-8")
        check_html(text)
        assert pdf.read_bytes().startswith(b"%PDF")
        bets = bet_rows(text)
        assert list(bets) == [b.bet for b in roulette_odds(RouletteRules())]
        for name, row in bets.items():
            assert '<td class="r">1/37</td><td class="r">2.7027%</td>' in row, name
        assert '<td>straight</td><td class="r">35</td>' in bets["straight"]
        rows = mc_rows(text)
        assert list(rows) == list(bets)
        assert all('<td class="c good">yes</td>' in r for r in rows.values())
        assert "15 of 15 exact figures lie inside" in text
        assert "200,000 spins for each bet, seed 3" in text
        assert "Every option is the statute&#x27;s." in text and "every one with the same house edge" in text

    def test_sicbo_with_a_house_paytable(self, tmp_path: Path) -> None:
        rules = write(tmp_path, "house.toml", 'game = "sicbo"\n[paytables]\ntriple = 180\n')
        out = tmp_path / "sicbo.html"
        result = invoke("par", "sicbo", "--rules", str(rules), "--out", str(out), "--rounds", ROUNDS, "--seed", SEED)
        assert result.exit_code == 0, result.output
        text = out.read_text(encoding="utf-8")
        check_html(text)
        bets = bet_rows(text)
        assert len(bets) == 5 + 14
        assert '1/36</td><td class="r">2.7778%' in bets["small"]
        assert '17/216</td><td class="r">7.8704%' in bets["single"]
        assert '7/24</td><td class="r">29.1667%' in bets["total_4"]
        assert '35/216</td><td class="r">16.2037%' in bets["triple"]  # 1 − 181/216 at 180 to 1
        assert '<tr class="flag"><td>paytables</td>' in text
        assert "<td>paytables.triple</td><td>180</td><td>150</td><td>outside the statute</td><td>SB 6</td>" in text
        assert all('<td class="c good">yes</td>' in r for r in mc_rows(text).values())
        assert f"file {rules}" in text

    def test_default_rounds_and_a_preset(self, tmp_path: Path) -> None:
        out = tmp_path / "r.html"
        result = invoke("par", "roulette", "--preset", "default", "--out", str(out), "--seed", "3")
        assert result.exit_code == 0, result.output
        assert "1,000,000 spins for each bet, seed 3" in out.read_text(encoding="utf-8")


class TestParCommandRefuses:
    def refused(self, *args: str) -> str:
        result = invoke("par", *args)
        assert result.exit_code == 2, result.output
        assert isinstance(result.exception, SystemExit)
        assert "Traceback" not in result.output
        return " ".join(result.output.split())

    def test_an_unknown_game(self, tmp_path: Path, wide: None) -> None:
        assert "'baccarat' is not a game croupier knows" in self.refused("baccarat", "--out", str(tmp_path / "x"))

    def test_an_unwritable_out(self, tmp_path: Path, wide: None) -> None:
        missing = tmp_path / "no" / "such" / "r.html"
        assert "the folder" in self.refused("roulette", "--out", str(missing), "--rounds", "10")
        assert "is a folder, not a file" in self.refused("sicbo", "--out", str(tmp_path), "--rounds", "10")
        out = str(tmp_path / "ok.html")
        assert "cannot write the PDF" in self.refused("sicbo", "--out", out, "--pdf", str(missing), "--rounds", "10")
        assert not (tmp_path / "ok.html").exists()  # refused before any work

    def test_a_bad_rules_file(self, tmp_path: Path, wide: None) -> None:
        out = str(tmp_path / "r.html")
        bad = write(tmp_path, "bad.toml", "chip_unit = 0\nwheel = 'double zero'\n")
        message = self.refused("roulette", "--rules", str(bad), "--out", out)
        assert "Invalid rules" in message and "'wheel' is not a roulette option" in message
        broken = write(tmp_path, "broken.toml", "paytables = {straight = \n")
        assert "is not valid TOML" in self.refused("roulette", "--rules", str(broken), "--out", out)
        assert "cannot read the rules file" in self.refused(
            "sicbo", "--rules", str(tmp_path / "none.toml"), "--out", out
        )
        other = write(tmp_path, "bj.toml", 'game = "blackjack"\n')
        assert "not roulette rules" in self.refused("roulette", "--rules", str(other), "--out", out)
        assert "not both" in self.refused("roulette", "--rules", str(bad), "--preset", "statute", "--out", out)
        assert not (tmp_path / "r.html").exists()

    def test_bad_rounds_or_seed(self, tmp_path: Path, wide: None) -> None:
        out = str(tmp_path / "r.html")
        assert "--rounds -5" in self.refused("roulette", "--out", out, "--rounds", "-5")
        assert "--seed -1" in self.refused("roulette", "--out", out, "--seed", "-1")
        assert "--rounds -1" in self.refused("blackjack", "--out", out, "--rounds", "-1")
        assert "rounds 10000000000 must be" in self.refused("roulette", "--out", out, "--rounds", str(10**10))


class TestHonestIntervals:
    """Issue 16: every bet is simulated on its own stream, so the exact values outside their 95% intervals number
    Binomial(bets, 5%) per seed. On one shared stream the roulette bets (every representative placement covers
    17) move together: seed 16 of the old sheet showed 6 of 15 outside at 1,000,000 spins."""

    SEEDS = range(1, 41)
    ROUNDS = 20_000

    def misses(self, game: str, *, shared: bool) -> list[int]:
        bets = wager_bets(game, load_rules(game))
        out = []
        for seed in self.SEEDS:
            if shared:
                sims = [simulate(game, self.ROUNDS, seed)] * len(bets)
            else:
                sims = simulate_bets(game, len(bets), self.ROUNDS, seed)
            rows = [McRow(b.name, b.odds.house_edge, -s.mean_and_se(b.nets)[0], s.mean_and_se(b.nets)[1])
                    for b, s in zip(bets, sims, strict=True)]  # fmt: skip
            out.append(sum(not r.inside for r in rows))
        return out

    @staticmethod
    def dispersion(misses: list[int], n: int) -> float:
        """Σ (x − np)² / (np(1 − p)): about χ²(seeds) when each seed's misses are Binomial(n, 5%)."""
        return sum((x - n * 0.05) ** 2 / (n * 0.05 * 0.95) for x in misses)

    @pytest.mark.parametrize("game", ["roulette", "sicbo"])
    def test_misses_are_binomial(self, game: str) -> None:
        n = len(wager_bets(game, load_rules(game)))
        misses = self.misses(game, shared=False)
        seeds = len(self.SEEDS)
        low, high = binom.ppf(0.0005, n * seeds, 0.05), binom.ppf(0.9995, n * seeds, 0.05)
        assert low <= sum(misses) <= high, (sum(misses), low, high)
        assert self.dispersion(misses, n) <= chi2.ppf(0.999, seeds), misses
        assert max(misses) < 6  # P(≥ 6 of 15 or 19) is below 0.2% a seed

    def test_a_shared_stream_fails_the_same_test(self) -> None:
        # the control: the test above has the power to catch the old sheet's correlated intervals
        misses = self.misses("roulette", shared=True)
        assert self.dispersion(misses, 15) > chi2.ppf(0.999, len(self.SEEDS)), misses

    def test_streams_are_reproducible_and_distinct(self) -> None:
        a = simulate_bets("roulette", 3, 5_000, 7, keep=[1])
        b = simulate_bets("roulette", 3, 5_000, 7)
        assert all(np.array_equal(x.counts, y.counts) for x, y in zip(a, b, strict=True))
        assert not np.array_equal(a[0].counts, a[1].counts)
        assert len(a[1].first) == 5_000 and len(a[0].first) == 0
        assert {s.seed for s in a} == {7}


class TestNewSections:
    def test_roulette_sheet_sections(self) -> None:
        report = wager_par("roulette", RouletteRules(), rounds=20_000, seed=2, source="preset statute")
        text = report.html()
        check_html(text)
        assert not report.warnings and "none favours the player" in text
        per_round = text.split('<section id="result-per-round">', 1)[1].split("</section>", 1)[0]
        # the straight bet: +35 with 1/37, −1 with 36/37, contributions −35/37 and +36/37, total 1/37
        assert '<td class="r">+35</td><td class="r">1/37 = 0.02702703</td><td class="r">-94.5946%</td>' in per_round
        assert '<td class="r">+2.7027% = 1/37</td>' in per_round
        holds = text.split('<section id="hold-ranges">', 1)[1].split("</section>", 1)[0]
        assert holds.count("<td>exact</td>") == 15 * 4  # every bet, every number of rounds
        assert "1,000,000" in holds and "99% range" in holds
        assert "Rules fingerprint (SHA-256" in text and "Sign-off" in text
        assert "croupier rules show roulette --preset statute --json | sha256sum" in text
        assert "independent runs, so the number outside is Binomial(15, 5%)" in text

    def test_a_paytable_that_favours_the_player_is_named(self) -> None:
        rules = roulette_rules.load({"paytables": {"straight": 37, "split": "35/2"}})
        report = wager_par("roulette", rules, rounds=0)
        (straight, split) = report.warnings
        assert straight.startswith("The straight bet favours the player: house edge -1/37 = -2.7027%")
        assert "paytables.straight = 37 (RO 7; the statute's 35 gives the house +2.7027%)" in straight
        assert split.startswith("The split bet gives the house no edge: house edge 0")
        assert "paytables.split = 35/2" in split and "straight" not in split
        text = report.html()
        check_html(text)
        assert text.count('<div class="warning" role="alert">') == 3  # the two and the summary's
