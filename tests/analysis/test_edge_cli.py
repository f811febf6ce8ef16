"""``croupier edge`` and ``croupier strategy`` (issue 4), the rule-effects table, the total-dependent chart and
the side-bet figures the main bet's play decides."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.analysis.basic_strategy import basic_strategy
from croupier.analysis.blackjack_math import edge_report, pair_play, side_bet_figures
from croupier.analysis.ca import Analyser, chart_value
from croupier.analysis.chart import DOUBLE_HIT, HIT, STAND
from croupier.blackjack.rules import MACAU_TYPICAL, BlackjackRules, DealerSoft17
from support import invoke, write

PLAIN = dataclasses.replace(MACAU_TYPICAL, five_card_payment=False, special_bonus=False)


def test_edge_json_has_the_figures_the_issue_names() -> None:
    result = invoke("edge", "blackjack", "--preset", "macau", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["strategy"] == "cd"
    assert report["decks"] == 6
    assert report["house_edge_pct"] == pytest.approx(-100 * report["ev"])
    assert len(repr(report["ev"]).lstrip("-0.").replace(".", "")) >= 9  # at least 9 significant digits
    assert 0 < report["seconds"] < 60
    assert set(report["by_up_card"]) == {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10"}


def test_edge_of_a_rules_file_with_decks_and_td_strategy(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "house.toml",
        'game = "blackjack"\ndecks = 6\ndealer_soft_17 = "stand"\nmax_split_hands = 4\nresplit_aces = false\n'
        "five_card_payment = false\nspecial_bonus = false\n",
    )
    cd = json.loads(invoke("edge", "blackjack", "--rules", str(path), "--json").output)
    assert f"{cd['house_edge_pct']:.2f}" == "0.16"
    td = json.loads(invoke("edge", "blackjack", "--rules", str(path), "--strategy", "td", "--json").output)
    assert td["strategy"] == "td"
    assert td["ev"] < cd["ev"]
    eight = json.loads(invoke("edge", "blackjack", "--rules", str(path), "--decks", "8", "--json").output)
    assert eight["decks"] == 8
    assert eight["ev"] < cd["ev"]  # more decks, worse for the player


def test_edge_side_bets_give_exact_fractions_where_exact() -> None:
    report = json.loads(invoke("edge", "blackjack", "--side-bets", "--json").output)
    side = report["side_bets"]
    for name in ("any_pair", "perfect_pairs", "over_13", "under_13", "sevens"):
        edge = Fraction(side[name]["house_edge"])  # an exact fraction string
        assert float(edge) * 100 == pytest.approx(side[name]["house_edge_pct"])
    assert side["perfect_pairs"]["house_edge"] == str(_pp_edge_8_decks())
    for level in range(2, 6):
        assert 0 < side[f"streak_{level}"]["house_edge_pct"] < 100
    assert "streak_results" not in side  # every key of side_bets is a bet
    assert sum(report["streak_results"].values()) == pytest.approx(1)


def _pp_edge_8_decks() -> Fraction:
    from croupier.analysis.first_two_cards import first_two_card_side_bets

    return {b.bet: b for b in first_two_card_side_bets(BlackjackRules())}["perfect_pairs"].house_edge


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["edge", "roulette"], "croupier odds roulette"),
        (["edge", "blackjack", "--decks", "0"], "decks 0"),
        (["edge", "blackjack", "--strategy", "xx"], "strategy must be"),
        (["edge", "blackjack", "--preset", "nope"], "nope"),
        (["strategy", "sicbo"], "croupier odds sicbo"),
        (["edge", "blackjack", "--shoe", "4,4,-1"], "must be 10 whole numbers"),
        (["edge", "blackjack", "--shoe", "4,4,4,4,4,4,4,4,4,-16"], "whole number ≥ 0, not -16"),
        (["edge", "blackjack", "--shoe", "0,0,0,0,0,0,0,0,0,0"], "the shoe is empty"),
        (["edge", "blackjack", "--shoe", "4,4,4,4,4,4,4,4,4,16", "--side-bets"], "leave out --shoe"),
        (["strategy", "blackjack", "--png", "/no/such/folder/chart.png"], "does not exist"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output


def test_an_impossible_option_mix_is_refused_with_every_problem(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.toml", 'game = "blackjack"\nbox_control = 2\nmax_bettors_per_box = 5\ndecks = -1\n')
    result = invoke("edge", "blackjack", "--rules", str(path))
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    assert "decks" in text and "max_bettors_per_box" in text
    assert "Traceback" not in result.output


def test_edge_of_explicit_card_counts() -> None:
    report = json.loads(invoke("edge", "blackjack", "--shoe", "4,4,4,4,4,4,4,4,4,16", "--json").output)
    assert report["shoe"] == [4, 4, 4, 4, 4, 4, 4, 4, 4, 16]
    one_deck = json.loads(invoke("edge", "blackjack", "--decks", "1", "--json").output)
    assert report["ev"] == pytest.approx(one_deck["ev"], abs=1e-15)


def test_strategy_prints_the_chart_and_draws_it(tmp_path: Path) -> None:
    png = tmp_path / "chart.png"
    result = invoke("strategy", "blackjack", "--preset", "macau", "--png", str(png))
    assert result.exit_code == 0, result.output
    for heading in ("Hard totals", "Soft totals", "Pairs", "Surrender"):
        assert heading in result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_basic_strategy_is_the_textbook_chart_for_six_decks_s17() -> None:
    chart = basic_strategy(PLAIN)
    assert chart.hard[16, 7] == HIT and chart.hard[16, 6] == STAND
    assert chart.surrender_hard[16, 10]  # two-card 16 surrenders; longer 16s stand, by a whisker
    assert chart.hard[12, 2] == HIT and chart.hard[12, 4] == STAND
    assert chart.hard[11, 10] == DOUBLE_HIT and chart.hard[11, 1] == HIT  # no hole card: not against an ace
    assert chart.split[8, 9] and chart.split[1, 10] and not chart.split[10, 6] and not chart.split[5, 5]
    assert chart.surrender_hard[16, 10] and not chart.surrender_hard[16, 1]
    assert chart.soft[18, 9] == HIT and chart.soft[18, 2] == STAND


def test_the_chart_s_exact_value_is_what_analyse_reports() -> None:
    analyser = Analyser(PLAIN)
    chart = basic_strategy(PLAIN, analyser=analyser)
    assert chart_value(PLAIN, chart) == pytest.approx(analyser.analyse(chart).ev, abs=1e-15)


def test_rule_effects_have_the_known_signs_and_print() -> None:
    from rich.console import Console

    from croupier.display import edge_rich_tables

    path_args = ["edge", "blackjack", "--preset", "macau", "--effects", "--json"]
    report = json.loads(invoke(*path_args).output)
    effects = {(e["option"], e["to"]): e for e in report["rule_effects"]}
    assert effects[("surrender", "false")]["change_pct"] > 0  # losing surrender costs the player
    assert effects[("resplit_aces", "true")]["change_pct"] < 0
    assert effects[("dealer_soft_17", "hit_all")]["change_pct"] > 0
    assert effects[("decks", "1")]["change_pct"] < 0 < effects[("decks", "8")]["change_pct"]
    assert effects[("double_after_split", "false")]["change_pct"] > 0
    assert effects[("five_card_payment", "false")]["change_pct"] > 0  # the statute's payment helps the player
    flipped = Analyser(dataclasses.replace(MACAU_TYPICAL, dealer_soft_17=DealerSoft17.HIT_ALL)).analyse()
    expected = flipped.house_edge * 100 - report["house_edge_pct"]
    assert effects[("dealer_soft_17", "hit_all")]["change_pct"] == pytest.approx(expected, abs=1e-12)
    console = Console(record=True, width=120)
    for table in edge_rich_tables(report):
        console.print(table)
    text = console.export_text()
    assert "Rule effects" in text and "five_card_payment" in text


def test_sevens_and_any_pair_follow_the_main_bet_s_splits() -> None:
    analyser = Analyser(PLAIN)
    analysis = analyser.analyse()
    play = pair_play(analysis)
    assert play(8, 10) in ("split", "surrender") and play(10, 6) == "stand"
    side = side_bet_figures(PLAIN, analysis, analyser)
    assert Fraction(side["any_pair"]["split_stakes_per_bet"]) > 0


def test_edge_report_is_what_the_cli_prints() -> None:
    report = edge_report(PLAIN)
    assert f"{report['house_edge_pct']:.2f}" == "0.16"
