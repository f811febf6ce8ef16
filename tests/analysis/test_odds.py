"""Exact odds tables (croupier.analysis.odds) against fractions derived by hand.

Derivations (cited in the tests below):

Roulette (RO 1, RO 7, RO 8). 37 equally likely pockets; a bet covering n numbers wins with probability n/37.
Its statutory odds are 36/n − 1 to 1 (straight 35 = 36/1 − 1, split 17, street 11, corner 8, six-line 5,
nine 3, twelve 2, eighteen 1), so the expected net per unit is n/37 · 36/n − 1 = −1/37 for every bet:
house edge 1/37. The variance of a bet paying A with probability p is p(1 − p)(A + 1)², here
n/37 · (37 − n)/37 · (36/n)² = 1296(37 − n) / (1369 n); for a straight 46656/1369 = (216/37)², SD 216/37.

Sic bo (SB 1, SB 5-7). 216 equally likely ordered rolls. The number of ordered rolls with sum s (3-18) is
1 3 6 10 15 21 25 27 27 25 21 15 10 6 3 1 (the coefficients of (x + … + x⁶)³).
* small: sums 4-10 cover 3+6+10+15+21+25+27 = 107 rolls, less the triples 2-2-2 and 3-3-3 (SB 7): 105.
  P(win) = 105/216 = 35/72; edge = 1 − 2 · 35/72 = 1/36. big is the mirror image.
* single f: one die shows f in 3·5·5 = 75 rolls, two in 3·5 = 15, three in 1; none in 125.
  EV = (75·1 + 15·2 + 1·3 − 125)/216 = −17/216. P(win) = 91/216.
* specific triple: 1/216 at 150: EV = 151/216 − 1 = −65/216.
* any triple: 6/216 = 1/36 at 24: EV = 25/36 − 1 = −11/36.
* total t with c ordered rolls at A to 1: edge = 1 − c(A + 1)/216.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.analysis.odds import (
    BetOdds,
    odds_table,
    roulette_bet_odds,
    roulette_odds,
    sicbo_odds,
)
from croupier.cli import app
from croupier.errors import InvalidRules
from croupier.roulette.bets import BetType
from croupier.roulette.rules import RouletteRules
from croupier.roulette.rules import load as load_roulette
from croupier.sicbo.rules import SicBoRules
from croupier.sicbo.rules import load as load_sicbo

F = Fraction

# -- hand-derived figures -----------------------------------------------------------------------------------

ROULETTE_COVERS = {
    "straight": 1, "split": 2, "street": 3, "corner": 4, "six_line": 6, "nine": 9, "twelve_special": 12,
    "column": 12, "dozen": 12, "low": 18, "high": 18, "odd": 18, "even": 18, "red": 18, "black": 18,
}  # fmt: skip
ROULETTE_PAYS = {bet: 36 // n - 1 for bet, n in ROULETTE_COVERS.items()}  # RO 7: 35 17 11 8 5 3 2 1

# Ordered rolls of three dice per sum, 4-17 (see the module docstring).
ROLLS_WITH_SUM = {4: 3, 5: 6, 6: 10, 7: 15, 8: 21, 9: 25, 10: 27, 11: 27, 12: 25, 13: 21, 14: 15, 15: 10, 16: 6, 17: 3}
TOTAL_PAYS = {4: 50, 5: 18, 6: 14, 7: 12, 8: 8, 9: 6, 10: 6, 11: 6, 12: 6, 13: 8, 14: 12, 15: 14, 16: 18, 17: 50}
# 1 − c(A + 1)/216, worked out by hand:
#  4: 1 − 3·51/216 = 63/216 = 7/24     5: 1 − 6·19/216 = 102/216 = 17/36   6: 1 − 10·15/216 = 66/216 = 11/36
#  7: 1 − 15·13/216 = 21/216 = 7/72    8: 1 − 21·9/216 = 27/216 = 1/8      9: 1 − 25·7/216 = 41/216
# 10: 1 − 27·7/216 = 27/216 = 1/8; 11-17 mirror 10-4.
TOTAL_EDGES = {
    4: F(7, 24), 5: F(17, 36), 6: F(11, 36), 7: F(7, 72), 8: F(1, 8), 9: F(41, 216), 10: F(1, 8),
    11: F(1, 8), 12: F(41, 216), 13: F(1, 8), 14: F(7, 72), 15: F(11, 36), 16: F(17, 36), 17: F(7, 24),
}  # fmt: skip


def by_bet(rows: list[BetOdds]) -> dict[str, BetOdds]:
    return {row.bet: row for row in rows}


# -- roulette -------------------------------------------------------------------------------------------------


class TestRouletteOdds:
    def test_every_ro_6_bet_is_listed_once(self) -> None:
        assert [row.bet for row in roulette_odds()] == list(ROULETTE_COVERS)

    @pytest.mark.parametrize("bet", list(ROULETTE_COVERS))
    def test_win_probability_is_n_over_37(self, bet: str) -> None:
        row = by_bet(roulette_odds())[bet]
        assert row.win_probability == F(ROULETTE_COVERS[bet], 37)
        assert row.pays == ROULETTE_PAYS[bet]
        assert row.rule == "RO 7"

    @pytest.mark.parametrize("bet", list(ROULETTE_COVERS))
    def test_every_bet_has_house_edge_1_over_37(self, bet: str) -> None:
        # n/37 · 36/n − 1 = −1/37 (module docstring).
        row = by_bet(roulette_odds())[bet]
        assert row.house_edge == F(1, 37)
        assert row.ev == F(-1, 37)

    @pytest.mark.parametrize("bet", list(ROULETTE_COVERS))
    def test_variance_is_1296_37_minus_n_over_1369_n(self, bet: str) -> None:
        n = ROULETTE_COVERS[bet]
        row = by_bet(roulette_odds())[bet]
        assert row.variance == F(1296 * (37 - n), 1369 * n)

    def test_straight_sd_is_216_over_37(self) -> None:
        row = by_bet(roulette_odds())["straight"]
        assert row.variance == F(46656, 1369) == F(216, 37) ** 2
        assert row.sd == pytest.approx(216 / 37)
        assert row.as_json()["sd"] == 5.8378
        assert row.as_json()["hit_frequency"] == round(1 / 37, 6) == 0.027027

    def test_red_sd_and_hit_frequency(self) -> None:
        # Var = 1 − (1/37)² = 1368/1369.
        row = by_bet(roulette_odds())["red"]
        assert row.variance == F(1368, 1369)
        assert row.sd == pytest.approx(math.sqrt(1368) / 37)
        assert row.as_json()["hit_frequency"] == 0.486486  # 18/37
        assert row.as_json()["house_edge_pct"] == 2.7027  # 100/37

    def test_outcomes_of_a_bet_add_up_to_one(self) -> None:
        for row in roulette_odds():
            assert sum(o.probability for o in row.outcomes) == 1
            assert {o.name for o in row.outcomes} == {"win", "loss"}

    def test_a_changed_paytable_changes_the_figures(self) -> None:
        rules = load_roulette({"paytables": {"straight": 36}})
        rows = by_bet(roulette_odds(rules))
        # 1/37 · 37 − 1 = 0: a fair bet.
        assert rows["straight"].pays == 36
        assert rows["straight"].house_edge == 0
        assert rows["straight"].win_probability == F(1, 37)
        # p(1 − p)(A + 1)² = 1/37 · 36/37 · 37² = 36: the variance moves too.
        assert rows["straight"].variance == 36
        assert rows["split"].house_edge == F(1, 37)  # the rest keep the statute's

    def test_a_fractional_paytable_is_exact(self) -> None:
        # even money at 11/10: 18/37 · 21/10 − 1 = 378/370 − 1 = 4/185 player advantage.
        rows = by_bet(roulette_odds(load_roulette({"paytables": {"red": "11/10"}})))
        assert rows["red"].house_edge == F(-4, 185)

    def test_custom_nine_number_blocks(self) -> None:
        block = [0, 1, 2, 3, 5, 8, 13, 21, 34]
        rules = load_roulette({"nine_number_blocks": [block]})
        row = by_bet(roulette_odds(rules))["nine"]
        assert row.win_probability == F(9, 37)
        assert row.house_edge == F(1, 37)
        # With the nine-number bet at 4 to 1: 9/37 · 5 − 1 = 8/37 in the player's favour.
        rules = load_roulette({"nine_number_blocks": [block], "paytables": {"nine": 4}})
        assert by_bet(roulette_odds(rules))["nine"].house_edge == F(-8, 37)

    def test_any_placement_of_a_type_has_the_same_figures(self) -> None:
        rules = RouletteRules()
        zero_trio = roulette_bet_odds(rules, BetType.STREET, {"numbers": [0, 2, 3]})
        row = roulette_bet_odds(rules, BetType.STREET, {"numbers": [34, 35, 36]})
        assert zero_trio.win_probability == row.win_probability == F(3, 37)
        assert zero_trio.house_edge == row.house_edge == F(1, 37)

    def test_odds_of_a_table_whose_only_stake_is_its_minimum(self) -> None:
        rules = load_roulette({"chip_unit": 5, "min_bet": 10, "max_bet": 10})
        assert [r.house_edge for r in roulette_odds(rules)] == [F(1, 37)] * 15

    def test_odds_do_not_depend_on_table_limits(self) -> None:
        rules = load_roulette({"chip_unit": 5, "min_bet": {"straight": 25}})
        assert [r.house_edge for r in roulette_odds(rules)] == [F(1, 37)] * 15


# -- sic bo -----------------------------------------------------------------------------------------------------


class TestSicBoOdds:
    def test_bets_are_listed_with_every_total(self) -> None:
        names = [row.bet for row in sicbo_odds()]
        assert names == ["small", "big", "single", "triple", "any_triple", *(f"total_{t}" for t in range(4, 18))]

    @pytest.mark.parametrize("bet", ["small", "big"])
    def test_small_and_big_win_35_over_72_with_edge_1_over_36(self, bet: str) -> None:
        row = by_bet(sicbo_odds())[bet]
        assert row.win_probability == F(35, 72)
        assert row.house_edge == F(1, 36)
        assert row.pays == 1
        # (1 − 35/72 − 35/72) = 1/36 of the rolls are the triples that kill the bet (SB 7).
        assert {o.name: o.probability for o in row.outcomes} == {
            "win": F(35, 72),
            "loss": F(35, 72),
            "loss: triple (SB 7)": F(1, 36),
        }
        # The net is ±1, so E[X²] = 1 and Var = 1 − (1/36)² = 1295/1296.
        assert row.variance == F(1295, 1296)
        assert row.sd == pytest.approx(math.sqrt(1295) / 36)

    def test_single_edge_17_over_216(self) -> None:
        row = by_bet(sicbo_odds())["single"]
        assert row.house_edge == F(17, 216)
        assert row.win_probability == F(91, 216)
        assert row.pays == (1, 2, 3)
        assert [(o.name, o.probability, o.net) for o in row.outcomes] == [
            ("three dice", F(1, 216), 3),
            ("two dice", F(15, 216), 2),
            ("one die", F(75, 216), 1),
            ("loss", F(125, 216), -1),
        ]
        # E[X²] = (75 + 15·4 + 9 + 125)/216 = 269/216.
        assert row.variance == F(269, 216) - F(17, 216) ** 2

    def test_specific_triple_edge_65_over_216(self) -> None:
        row = by_bet(sicbo_odds())["triple"]
        assert row.win_probability == F(1, 216)
        assert row.house_edge == F(65, 216)
        assert row.pays == 150

    def test_any_triple_edge_11_over_36(self) -> None:
        row = by_bet(sicbo_odds())["any_triple"]
        assert row.win_probability == F(1, 36)
        assert row.house_edge == F(11, 36)
        assert row.pays == 24
        # Var = 1/36 · 35/36 · 25² = 21875/1296.
        assert row.variance == F(21875, 1296)
        assert row.as_json()["sd"] == round(math.sqrt(21875) / 36, 4)

    @pytest.mark.parametrize("total", range(4, 18))
    def test_each_total_win_probability_and_edge(self, total: int) -> None:
        row = by_bet(sicbo_odds())[f"total_{total}"]
        assert row.win_probability == F(ROLLS_WITH_SUM[total], 216)
        assert row.pays == TOTAL_PAYS[total]
        assert row.house_edge == TOTAL_EDGES[total]
        assert row.house_edge == 1 - F(ROLLS_WITH_SUM[total] * (TOTAL_PAYS[total] + 1), 216)

    def test_rolls_with_each_sum_add_up_to_216(self) -> None:
        assert sum(ROLLS_WITH_SUM.values()) + 2 == 216  # plus the sums 3 and 18, one roll each

    def test_a_changed_paytable_changes_the_figures(self) -> None:
        rules = load_sicbo({"paytables": {"small": 2, "total": {"4": 60}, "single": [1, 2, 12]}})
        rows = by_bet(sicbo_odds(rules))
        # small at 2 to 1: 35/72 · 3 − 1 = 33/72 = 11/24 in the player's favour.
        assert rows["small"].house_edge == F(-11, 24)
        assert rows["big"].house_edge == F(1, 36)
        # total 4 at 60: 1 − 3 · 61/216 = 33/216 = 11/72.
        assert rows["total_4"].house_edge == F(11, 72)
        # single with 12 for three dice: EV = (75 + 30 + 12 − 125)/216 = −8/216 = −1/27.
        assert rows["single"].house_edge == F(1, 27)

    def test_odds_of_a_table_whose_minimum_is_not_whole_chips(self) -> None:
        try:
            rules = load_sicbo({"chip_unit": 2, "min_bet": 3})
        except InvalidRules:
            return  # refusing a minimum that is not a whole number of chips would fix it too
        rows = by_bet(sicbo_odds(rules))
        assert rows["small"].house_edge == F(1, 36)
        assert rows["total_4"].house_edge == F(7, 24)

    def test_odds_with_chip_unit_and_minimum(self) -> None:
        rows = by_bet(sicbo_odds(load_sicbo({"chip_unit": 5, "min_bet": {"triple": 25}})))
        assert rows["triple"].house_edge == F(65, 216)
        assert rows["single"].house_edge == F(17, 216)

    def test_odds_table_dispatches_by_game(self) -> None:
        assert [r.bet for r in odds_table("sicbo")] == [r.bet for r in sicbo_odds(SicBoRules())]
        assert [r.bet for r in odds_table("roulette")] == list(ROULETTE_COVERS)
        with pytest.raises(ValueError, match="blackjack"):
            odds_table("blackjack")


# -- croupier odds --json ---------------------------------------------------------------------------------------


def run_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


class TestOddsJson:
    def test_sicbo_json_shape(self) -> None:
        data = run_json("odds", "sicbo", "--json")
        assert set(data) == {"game", "bets"}
        assert data["game"] == "sicbo"
        keys = {"bet", "pays", "win_probability", "house_edge", "house_edge_pct", "hit_frequency", "sd", "rule"}
        for bet in data["bets"]:
            assert set(bet) == keys | {"outcomes"}
            assert bet["rule"] == "SB 6"
            for outcome in bet["outcomes"]:
                assert set(outcome) == {"outcome", "probability", "net"}
            assert sum(F(o["probability"]) for o in bet["outcomes"]) == 1

    def test_sicbo_json_total_4_exactly(self) -> None:
        bets = {b["bet"]: b for b in run_json("odds", "sicbo", "--json")["bets"]}
        total_4 = bets["total_4"]
        # total 4: 3 rolls of 216 = 1/72 at 50 to 1; edge 1 − 51/72 = 7/24 (29.1667 %);
        # SD = sqrt(1/72 · 71/72 · 51²) = 5.9685.
        expected = {
            "bet": "total_4",
            "pays": 50,
            "win_probability": "1/72",
            "house_edge": "7/24",
            "house_edge_pct": 29.1667,
            "hit_frequency": 0.013889,
            "sd": 5.9685,
        }
        assert {k: total_4[k] for k in expected} == expected
        assert total_4["outcomes"] == [
            {"outcome": "win", "probability": "1/72", "net": 50},
            {"outcome": "loss", "probability": "71/72", "net": -1},
        ]

    def test_sicbo_json_single_lists_three_winning_outcomes(self) -> None:
        bets = {b["bet"]: b for b in run_json("odds", "sicbo", "--json")["bets"]}
        single = bets["single"]
        assert single["pays"] == [1, 2, 3]
        winning = [o for o in single["outcomes"] if o["net"] > 0]
        assert [(o["outcome"], o["probability"], o["net"]) for o in winning] == [
            ("three dice", "1/216", 3),
            ("two dice", "5/72", 2),
            ("one die", "25/72", 1),
        ]
        assert single["win_probability"] == "91/216"
        assert single["house_edge"] == "17/216"

    def test_sicbo_json_small(self) -> None:
        small = run_json("odds", "sicbo", "--json")["bets"][0]
        assert small["bet"] == "small"
        assert (small["win_probability"], small["house_edge"], small["house_edge_pct"]) == ("35/72", "1/36", 2.7778)

    def test_roulette_json_every_edge_is_1_over_37(self) -> None:
        data = run_json("odds", "roulette", "--json")
        assert data["game"] == "roulette"
        assert [b["bet"] for b in data["bets"]] == list(ROULETTE_COVERS)
        assert {b["house_edge"] for b in data["bets"]} == {"1/37"}
        assert {b["bet"]: b["pays"] for b in data["bets"]} == ROULETTE_PAYS

    def test_json_follows_a_rules_file(self, tmp_path: Any) -> None:
        path = tmp_path / "house.toml"
        path.write_text("[paytables]\nstraight = 36\n", encoding="utf-8")
        data = run_json("odds", "roulette", "--rules", str(path), "--json")
        straight = next(b for b in data["bets"] if b["bet"] == "straight")
        assert (straight["pays"], straight["house_edge"], straight["house_edge_pct"]) == (36, "0", 0.0)

    def test_unknown_game_exits_2(self) -> None:
        result = CliRunner().invoke(app, ["odds", "baccarat", "--json"])
        assert result.exit_code == 2
        assert "baccarat" in result.output
