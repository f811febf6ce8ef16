"""Blackjack rules as a document (RULES.md "Rules files", BJ 21): validation reporting every problem at once,
presets and aliases, the compliance view (``rulesdoc.differences``) with each option's kind, and
``croupier rules check`` / ``rules show`` on blackjack files."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from croupier import rulesdoc
from croupier.blackjack import rules as bj
from croupier.blackjack.rules import (
    MACAU_TYPICAL,
    PRESETS,
    STATUTE,
    BlackjackPaytable,
    BlackjackRules,
    DealerSoft17,
    DealingDevice,
    SevensMixedTriple,
    SideBet,
    SplitPairBy,
    load,
)
from croupier.errors import InvalidRules
from croupier.games import GAMES, infer_game, load_rules
from croupier.money import Limit
from croupier.rulesdoc import OptionKind
from support import invoke, write

APPROVAL, WAIVABLE, OUTSIDE, LIMIT = OptionKind.APPROVAL, OptionKind.WAIVABLE, OptionKind.OUTSIDE, OptionKind.LIMIT


def problems_of(document: dict[str, Any]) -> list[str]:
    with pytest.raises(InvalidRules) as info:
        load(document)
    return info.value.problems


def diffs(rules: BlackjackRules) -> dict[str, tuple[object, OptionKind, str]]:
    """Option → (value as written, kind, rule) for every difference from the statute."""
    return {d.option: (d.value, d.kind, d.rule) for d in rulesdoc.differences(rules, STATUTE)}


# -- validation -------------------------------------------------------------------------------------------------


class TestValidation:
    def test_every_problem_is_reported_at_once(self) -> None:
        problems = problems_of(
            {
                "decks": 6,
                "boxes": 5,
                "dealing_device": "dealing_box",
                "cards_behind_cut": 20,
                "insurance_limit": 0.4,
                "max_split_hands": 1,
                "box_control": 2,
                "max_bettors_per_box": 4,
                "bogus": 1,
                "dealer_soft_17": "sometimes",
            }
        )
        needles = [
            "'bogus' is not a blackjack option",
            "option dealer_soft_17 (BJ 6.1): 'sometimes' is not one of hit_ace_six, hit_all, stand",
            "boxes 5 must be at least 6 (BJ 1",
            "a dealing_box holds a single deck, not 6 (BJ 1)",
            "cards_behind_cut 20 must be at least 30 for a multi-deck shoe (BJ 2.1)",
            "insurance_limit 2/5 must be between 0.5 and 1 of the original bet (BJ 12.1)",
            "max_split_hands 1 must be at least 2 (BJ 16.1)",
            "max_bettors_per_box 4 exceeds 3 under box_control 2",
        ]
        assert len(problems) == len(needles), problems
        for needle, problem in zip(needles, problems, strict=True):
            assert needle in problem, (needle, problem)

    def test_the_error_message_lists_every_problem(self) -> None:
        with pytest.raises(InvalidRules) as info:
            BlackjackRules(decks=0, boxes=5, max_split_hands=1)
        assert len(info.value.problems) == 3
        assert str(info.value).startswith("3 problems in the rules: ")
        assert any("decks 0 must be at least 1 (BJ 1" in p for p in info.value.problems)
        assert info.value.as_dict()["error"] == "invalid_rules"

    @pytest.mark.parametrize("limit", [0.4, 1.5, "1/3", "2"])
    def test_insurance_limit_must_lie_between_half_and_all(self, limit: object) -> None:
        problems = problems_of({"insurance_limit": limit})
        assert len(problems) == 1
        assert "insurance_limit" in problems[0]
        assert "BJ 12.1" in problems[0]

    @pytest.mark.parametrize(("limit", "expected"), [(0.5, Fraction(1, 2)), ("3/4", Fraction(3, 4)), (1, Fraction(1))])
    def test_insurance_limit_in_range_is_accepted(self, limit: object, expected: Fraction) -> None:
        assert load({"insurance_limit": limit}).insurance_limit == expected

    def test_cards_behind_cut_floor_is_for_multi_deck_shoes_only(self) -> None:
        assert load({"decks": 1, "cards_behind_cut": 20}).behind_cut == 20
        assert load({"decks": 6, "cards_behind_cut": 30}).behind_cut == 30
        problems = problems_of({"decks": 1, "cards_behind_cut": 52})
        assert problems == ["cards_behind_cut 52 must leave cards on both sides of the cut (BJ 2.1)."]

    def test_dealing_box_needs_a_single_deck(self) -> None:
        assert load({"dealing_device": "dealing_box", "decks": 1}).dealing_device is DealingDevice.DEALING_BOX
        assert problems_of({"dealing_device": "dealing_box"}) == ["a dealing_box holds a single deck, not 8 (BJ 1)."]

    def test_box_control_2_allows_at_most_three_bettors(self) -> None:
        assert load({"box_control": 2, "max_bettors_per_box": 3}).bettors_per_box_limit == 3
        assert load({"box_control": 2}).bettors_per_box_limit == 3
        assert load({"box_control": 1, "max_bettors_per_box": 4}).bettors_per_box_limit == 4
        assert load({"box_control": 3}).bettors_per_box_limit is None
        assert len(problems_of({"box_control": 2, "max_bettors_per_box": 4})) == 1
        assert len(problems_of({"max_bettors_per_box": 0})) == 1

    @pytest.mark.parametrize(
        ("document", "needle"),
        [
            ({"decks": "six"}, "option decks (BJ 1): 'six' is not an integer"),
            ({"decks": 6.0}, "option decks (BJ 1)"),
            ({"procedure": 4}, "option procedure (BJ 5.2): 4 is not one of 1, 2, 3"),
            ({"box_control": 0}, "option box_control (BJ 20.1)"),
            ({"dealing_device": "hand"}, "'hand' is not one of shoe, dealing_box, shuffler"),
            ({"burn_after_shuffle": "two"}, "'two' is not one of per_deck, one"),
            ({"dealer_soft_17": "hit"}, "'hit' is not one of hit_ace_six, hit_all, stand"),
            ({"any_pair_after_split": "double"}, "'double' is not one of new_stake, none"),
            ({"sevens_third_card": "third"}, "'third' is not one of after_split, any"),
            ({"sevens_mixed_triple": "pays_5000"}, "'pays_5000' is not one of two_card_pay, pays_500"),
            ({"split_pair_by": "suit"}, "'suit' is not one of rank, value"),
            ({"double_on": "ten"}, "'ten' is not one of any_two, eleven"),
            ({"busted_stakes_on_dealer_blackjack": "kept"}, "'kept' is not one of refunded, lost"),
            ({"side_bets_offered": ["any_pair", "dragon"]}, "'dragon' is not a side bet"),
            ({"side_bets_offered": "any_pair"}, "is not a list of side bets"),
            ({"surrender": "yes"}, "option surrender (BJ 18): 'yes' is not true or false"),
            ({"insurance_limit": "half"}, "option insurance_limit (BJ 12.1): 'half' is not a number"),
            ({"min_bet": {"straight": 5}}, "'straight' is not a bet type"),
            ({"max_boxes_per_player": 0}, "max_boxes_per_player 0 must be at least 1 (BJ 3)"),
        ],
    )
    def test_bad_values_are_named(self, document: dict[str, Any], needle: str) -> None:
        problems = problems_of(document)
        assert any(needle in p for p in problems), problems

    @pytest.mark.parametrize(
        ("paytables", "needle"),
        [
            ({"dragon": 5}, "'dragon' is not a blackjack side bet"),
            ({"perfect_pairs": 5}, "perfect_pairs odds 5 must be an object"),
            ({"perfect_pairs": {"ultra": 30}}, "'ultra' is not a perfect_pairs line"),
            ({"sevens": {"four_mixed": 9}}, "'four_mixed' is not a sevens line"),
            ({"streak": {"6": 80}}, "'6' is not a streak level"),
            ({"streak": [3, 8]}, "streak odds"),
            ({"any_pair": 0}, "not positive"),
            ({"over_under_13": "one"}, "is not odds"),
            ([11], "is not an object of odds by side bet"),
        ],
    )
    def test_bad_paytables_are_named(self, paytables: object, needle: str) -> None:
        problems = problems_of({"paytables": paytables})
        assert len(problems) == 1
        assert problems[0].startswith("option paytables (BJ 14): ")
        assert needle in problems[0], problems

    def test_paytables_merge_partially_with_the_statute_odds(self) -> None:
        rules = load({"paytables": {"perfect_pairs": {"mixed": 6}, "streak": {"3": 9}, "over_under_13": "11/10"}})
        p = rules.paytables
        assert (p.perfect_pairs_mixed, p.perfect_pairs_coloured, p.perfect_pairs_perfect) == (6, 12, 25)
        assert p.streak == (3, 9, 18, 38)
        assert p.over_under_13 == Fraction(11, 10)
        assert p.any_pair == 11
        assert (p.sevens_two_mixed, p.sevens_two_suited, p.sevens_three_mixed, p.sevens_three_suited) == (
            50,
            150,
            500,
            5000,
        )
        assert p.as_document()["over_under_13"] == "11/10"
        assert p.as_document()["streak"] == {"2": 3, "3": 9, "4": 18, "5": 38}

    def test_statute_paytable_is_bj_14(self) -> None:
        assert BlackjackPaytable().as_document() == {
            "any_pair": 11,
            "over_under_13": 1,
            "perfect_pairs": {"mixed": 5, "coloured": 12, "perfect": 25},
            "sevens": {"two_mixed": 50, "two_suited": 150, "three_mixed": 500, "three_suited": 5000},
            "streak": {"2": 3, "3": 8, "4": 18, "5": 38},
        }

    def test_free_text_keys_are_allowed(self) -> None:
        document = {"title": "House A", "description": "d", "comment": "c", "notes": "n", "_reviewed": "2024-05-01"}
        assert load(document) == STATUTE

    def test_rules_of_another_game_are_refused(self) -> None:
        assert problems_of({"game": "roulette"}) == ["these are 'roulette' rules, not blackjack rules"]

    def test_a_document_round_trips(self) -> None:
        rules = load(
            {
                "decks": 2,
                "cards_behind_cut": 40,
                "insurance_limit": "3/4",
                "side_bets_offered": ["streak", "any_pair", "sevens"],
                "paytables": {"sevens": {"two_mixed": 60}},
                "min_bet": {"main": 10},
                "dealer_soft_17": "hit_all",
            }
        )
        document = rulesdoc.document(rules)
        assert document["side_bets_offered"] == ["any_pair", "sevens", "streak"]
        assert document["insurance_limit"] == 0.75
        assert load(document) == rules
        assert json.loads(json.dumps(document)) == document

    def test_rules_are_frozen(self) -> None:
        with pytest.raises(AttributeError):
            STATUTE.decks = 6  # type: ignore[misc]

    def test_derived_settings(self) -> None:
        assert STATUTE.split_hands_limit == 4
        assert BlackjackRules(procedure=3).split_hands_limit == 5
        assert BlackjackRules(procedure=3, max_split_hands=3).split_hands_limit == 3
        assert (STATUTE.behind_cut, BlackjackRules(decks=1).behind_cut, BlackjackRules(decks=2).behind_cut) == (
            104,
            13,
            30,
        )
        assert not STATUTE.has_hole_card
        assert BlackjackRules(procedure=3).has_hole_card
        assert BlackjackRules(dealing_device=DealingDevice.DEALING_BOX, decks=1).has_hole_card
        assert BlackjackRules(procedure=3).dealer_peeks
        assert not BlackjackRules(procedure=3, peek=False).dealer_peeks
        assert not BlackjackRules(dealing_device=DealingDevice.DEALING_BOX, decks=1).dealer_peeks
        assert STATUTE.min_stake("insurance") == 1
        assert BlackjackRules(chip_unit=5, min_bet=Limit(10)).min_stake("insurance") == 5
        assert BlackjackRules(min_bet=Limit(2, {"insurance": 20})).min_stake("insurance") == 20


# -- presets ----------------------------------------------------------------------------------------------------


class TestPresets:
    def test_the_statute_preset_is_the_default(self) -> None:
        assert load({}) == STATUTE == BlackjackRules() == PRESETS["statute"]
        assert load({"preset": "statute"}) == STATUTE
        assert GAMES["blackjack"].presets is PRESETS

    def test_statute_defaults_are_rules_md(self) -> None:
        r = STATUTE
        assert (r.decks, r.boxes, r.dealing_device, r.cards_behind_cut) == (8, 7, DealingDevice.SHOE, None)
        assert (r.procedure, r.peek, r.dealer_soft_17) == (1, True, DealerSoft17.HIT_ACE_SIX)
        assert (r.insurance_limit, r.side_bets_offered) == (Fraction(1, 2), frozenset({SideBet.ANY_PAIR}))
        assert (r.special_bonus, r.surrender, r.five_card_payment, r.even_money_on_ten) == (True, True, True, True)
        assert (r.resplit_aces, r.split_pair_by, r.split_after_declining) == (True, SplitPairBy.RANK, False)
        assert (r.box_control, r.max_bettors_per_box, r.chip_unit) == (1, None, 1)
        assert (r.min_bet, r.max_bet) == (Limit(2), Limit(1_000_000))

    @pytest.mark.parametrize(("alias", "name"), [("default", "statute"), ("macau", "macau-typical")])
    def test_aliases(self, alias: str, name: str) -> None:
        assert PRESETS[alias] is PRESETS[name]
        assert load({"preset": alias}) == PRESETS[name]
        assert load_rules("blackjack", preset=alias) == PRESETS[name]

    def test_macau_typical(self) -> None:
        m = load({"preset": "macau-typical"})
        assert m == MACAU_TYPICAL
        assert (m.decks, m.dealing_device, m.dealer_soft_17) == (6, DealingDevice.SHUFFLER, DealerSoft17.STAND)
        assert (m.max_split_hands, m.resplit_aces, m.surrender, m.double_after_split) == (4, False, True, True)

    def test_options_apply_on_top_of_the_preset(self) -> None:
        rules = load({"preset": "macau", "decks": 8, "surrender": False})
        assert (rules.decks, rules.surrender, rules.dealing_device) == (8, False, DealingDevice.SHUFFLER)

    def test_an_unknown_preset_is_refused(self) -> None:
        problems = problems_of({"preset": "wynn", "decks": 0})
        assert len(problems) == 2
        assert "'wynn' is not a blackjack preset" in problems[0]
        assert "macau-typical" in problems[0]
        assert "decks 0" in problems[1]

    def test_variations_by_replace_are_validated(self) -> None:
        from dataclasses import replace

        with pytest.raises(InvalidRules):
            replace(MACAU_TYPICAL, boxes=4)
        assert replace(MACAU_TYPICAL, decks=4).decks == 4


# -- the compliance view (BJ 21) -----------------------------------------------------------------------------------


class TestDifferences:
    def test_the_statute_has_no_differences(self) -> None:
        assert rulesdoc.differences(STATUTE, STATUTE) == []
        assert rulesdoc.differences(load({"preset": "default"}), STATUTE) == []

    def test_approval_options(self) -> None:
        rules = load({"decks": 6, "procedure": 3, "peek": False, "double_on": "eleven", "box_control": 2})
        assert diffs(rules) == {
            "decks": (6, APPROVAL, "BJ 1"),
            "procedure": (3, APPROVAL, "BJ 5.2"),
            "peek": (False, APPROVAL, "BJ 5.2"),
            "double_on": ("eleven", APPROVAL, "BJ 17.1"),
            "box_control": (2, APPROVAL, "BJ 20.1"),
        }

    def test_waivable_options(self) -> None:
        assert diffs(load({"special_bonus": False, "surrender": False})) == {
            "special_bonus": (False, WAIVABLE, "BJ 15"),
            "surrender": (False, WAIVABLE, "BJ 18"),
        }

    @pytest.mark.parametrize(
        ("option", "value", "rule"),
        [
            ("dealer_soft_17", "stand", "BJ 6.1"),
            ("dealer_soft_17", "hit_all", "BJ 6.1"),
            ("even_money_on_ten", False, "BJ 10.3"),
            ("five_card_payment", False, "BJ 19"),
            ("split_pair_by", "value", "BJ 16.1"),
            ("split_after_declining", True, "BJ 16.5"),
            ("sevens_mixed_triple", "pays_500", "BJ 14.2"),
        ],
    )
    def test_outside_the_statute(self, option: str, value: object, rule: str) -> None:
        assert diffs(load({option: value})) == {option: (value, OUTSIDE, rule)}

    def test_an_option_s_statutory_value_is_approval_and_another_value_outside(self) -> None:
        spec = {s.name: s for s in rulesdoc.option_specs(BlackjackRules)}
        assert spec["dealer_soft_17"].kind_for("hit_ace_six") is APPROVAL
        assert spec["dealer_soft_17"].kind_for("stand") is OUTSIDE
        assert spec["even_money_on_ten"].kind_for(True) is APPROVAL
        assert spec["sevens_mixed_triple"].kind_for(SevensMixedTriple.TWO_CARD_PAY) is APPROVAL
        assert spec["sevens_mixed_triple"].kind_for(SevensMixedTriple.PAYS_500) is OUTSIDE

    def test_paytables_are_listed_entry_by_entry_outside_the_statute(self) -> None:
        rules = load({"paytables": {"any_pair": 12, "perfect_pairs": {"mixed": 6}, "streak": {"5": 40}}})
        assert diffs(rules) == {
            "paytables.any_pair": (12, OUTSIDE, "BJ 14"),
            "paytables.perfect_pairs.mixed": (6, OUTSIDE, "BJ 14"),
            "paytables.streak.5": (40, OUTSIDE, "BJ 14"),
        }
        d = next(d for d in rulesdoc.differences(rules, STATUTE) if d.option == "paytables.any_pair")
        assert d.statute == 11

    def test_table_limits_are_their_own_kind(self) -> None:
        assert diffs(load({"chip_unit": 5, "min_bet": {"main": 10}})) == {
            "chip_unit": (5, LIMIT, "Money and table limits"),
            "min_bet": ({"main": 10}, LIMIT, "Money and table limits"),
        }

    def test_side_bets_offered_need_approval(self) -> None:
        rules = load({"side_bets_offered": ["any_pair", "perfect_pairs", "streak"]})
        assert diffs(rules) == {"side_bets_offered": (["any_pair", "perfect_pairs", "streak"], APPROVAL, "BJ 13")}

    def test_macau_typical_differences(self) -> None:
        got = diffs(MACAU_TYPICAL)
        assert got["decks"] == (6, APPROVAL, "BJ 1")
        assert got["dealing_device"][1:] == (APPROVAL, "BJ 1")
        assert got["dealer_soft_17"][1:] == (OUTSIDE, "BJ 6.1")
        assert got["resplit_aces"] == (False, APPROVAL, "BJ 16.3")

    def test_writing_the_statute_s_own_split_limit_is_no_difference(self) -> None:
        assert diffs(load({"max_split_hands": 4})) == {}
        assert diffs(load({"procedure": 3, "max_split_hands": 5})) == {"procedure": (3, APPROVAL, "BJ 5.2")}


# -- croupier rules check / show --------------------------------------------------------------------------------


HOUSE_TOML = """\
game = "blackjack"
title = "House B"
decks = 6
dealer_soft_17 = "stand"
surrender = false
even_money_on_ten = false
side_bets_offered = ["any_pair", "perfect_pairs"]

[paytables.perfect_pairs]
mixed = 6
"""


class TestRulesCheckCommand:
    def test_check_lists_each_difference_with_its_kind_and_rule(self, tmp_path: Path, wide: None) -> None:
        result = invoke("rules", "check", str(write(tmp_path, "house.toml", HOUSE_TOML)))
        assert result.exit_code == 0, result.output
        assert "valid Blackjack rules" in result.stdout
        lines = result.stdout.splitlines()

        def row(option: str) -> str:
            # A table row reads "│ option │ value │ statute │ kind │ rule │".
            return next(line for line in lines if line.strip("│ ").split(" ")[0] == option)

        assert "approval" in row("decks")
        assert "BJ 1 " in row("decks")
        assert "outside the statute" in row("dealer_soft_17")
        assert "BJ 6.1" in row("dealer_soft_17")
        assert "waivable" in row("surrender")
        assert "BJ 18" in row("surrender")
        assert "outside the statute" in row("even_money_on_ten")
        assert "approval" in row("side_bets_offered")
        assert "BJ 13" in row("side_bets_offered")
        assert "outside the statute" in row("paytables.perfect_pairs.mixed")
        assert "BJ 14" in row("paytables.perfect_pairs.mixed")

    def test_check_json(self, tmp_path: Path) -> None:
        result = invoke("rules", "check", str(write(tmp_path, "house.toml", HOUSE_TOML)), "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert (data["game"], data["valid"]) == ("blackjack", True)
        assert {d["option"]: (d["value"], d["statute"], d["kind"], d["rule"]) for d in data["differences"]} == {
            "decks": (6, 8, "approval", "BJ 1"),
            "dealer_soft_17": ("stand", "hit_ace_six", "outside the statute", "BJ 6.1"),
            "even_money_on_ten": (False, True, "outside the statute", "BJ 10.3"),
            "side_bets_offered": (["any_pair", "perfect_pairs"], ["any_pair"], "approval", "BJ 13"),
            "paytables.perfect_pairs.mixed": (6, 5, "outside the statute", "BJ 14"),
            "surrender": (False, True, "waivable", "BJ 18"),
        }

    def test_check_infers_blackjack_from_its_options(self, tmp_path: Path) -> None:
        path = write(tmp_path, "bj.toml", 'decks = 2\nburn_after_shuffle = "per_deck"\n')
        assert infer_game(rulesdoc.read_document(path)).name == "blackjack"
        result = invoke("rules", "check", str(path), "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert data["game"] == "blackjack"
        assert [d["option"] for d in data["differences"]] == ["decks", "burn_after_shuffle"]

    def test_check_a_statute_file(self, tmp_path: Path, wide: None) -> None:
        path = write(tmp_path, "s.toml", 'game = "blackjack"\npreset = "statute"\n')
        result = invoke("rules", "check", str(path))
        assert result.exit_code == 0, result.output
        assert "Every option is the statute's." in result.stdout
        result = invoke("rules", "check", str(path), "--json")
        assert json.loads(result.stdout) == {"game": "blackjack", "valid": True, "differences": []}

    def test_check_a_bad_file_exits_2_and_prints_every_problem(self, tmp_path: Path, wide: None) -> None:
        path = write(
            tmp_path,
            "bad.toml",
            'game = "blackjack"\ndecks = 6\ndealing_device = "dealing_box"\ninsurance_limit = 1.5\n'
            'double_on = "nine"\nhole_card = true\n',
        )
        result = invoke("rules", "check", str(path))
        assert result.exit_code == 2
        assert "4 problem" in result.output
        assert "'hole_card' is not a blackjack option" in result.output
        assert "'nine' is not one of any_two, eleven" in result.output
        assert "a dealing_box holds a single deck, not 6 (BJ 1)" in result.output
        assert "insurance_limit 3/2 must be between 0.5 and 1" in result.output

    def test_check_a_blackjack_file_read_as_another_game(self, tmp_path: Path, wide: None) -> None:
        path = write(tmp_path, "bj.toml", "decks = 6\n")
        result = invoke("rules", "check", str(path), "--game", "roulette")
        assert result.exit_code == 2
        assert "'decks' is not a roulette option" in result.output

    def test_show_blackjack_json_is_the_statute_document(self) -> None:
        result = invoke("rules", "show", "blackjack", "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert data == {"game": "blackjack", **rulesdoc.document(STATUTE, effective=True)}
        assert (data["max_split_hands"], data["cards_behind_cut"]) == (4, 104)  # the defaults as they apply
        assert (data["decks"], data["procedure"], data["insurance_limit"]) == (8, 1, 0.5)
        assert data["paytables"]["sevens"]["three_suited"] == 5000

    def test_show_blackjack_table_names_every_option_and_rule(self, wide: None) -> None:
        result = invoke("rules", "show", "blackjack", "--preset", "macau")
        assert result.exit_code == 0, result.output
        for spec in rulesdoc.option_specs(BlackjackRules):
            assert spec.name in result.stdout
        for rule in ("BJ 6.1", "BJ 16.3", "BJ 20.1"):
            assert rule in result.stdout

    def test_module_exports(self) -> None:
        assert set(bj.__all__) >= {"BlackjackRules", "PRESETS", "STATUTE", "MACAU_TYPICAL", "load"}
