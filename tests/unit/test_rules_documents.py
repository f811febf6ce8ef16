"""Rules as documents (RULES.md "Rules files", STYLE.md "Rules are documents"): loading, presets, every
problem at once, unknown keys, free text, invalid values, and the ``croupier rules`` commands."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from croupier import rulesdoc
from croupier.errors import CroupierError, InvalidRules
from croupier.games import GAMES, infer_game, load_rules
from croupier.money import Limit
from croupier.roulette import rules as roulette_rules
from croupier.roulette.rules import RouletteRules
from croupier.sicbo import rules as sicbo_rules
from croupier.sicbo.rules import SicBoRules
from support import invoke, write


def problems_of(game: str, document: dict[str, Any]) -> list[str]:
    with pytest.raises(InvalidRules) as info:
        GAMES[game].load(document)
    assert isinstance(info.value, CroupierError)
    assert isinstance(info.value, ValueError)
    return info.value.problems


# -- presets ----------------------------------------------------------------------------------------------------


class TestPresets:
    @pytest.mark.parametrize("game", ["roulette", "sicbo"])
    def test_the_statute_preset_is_the_default(self, game: str) -> None:
        g = GAMES[game]
        assert g.load({}) == g.presets["statute"] == g.rules_class()
        assert g.load({"preset": "statute"}) == g.presets["statute"]

    @pytest.mark.parametrize("game", ["roulette", "sicbo"])
    def test_default_is_an_alias_of_statute(self, game: str) -> None:
        g = GAMES[game]
        assert g.load({"preset": "default"}) == g.presets["statute"]
        assert load_rules(game, preset="default") == load_rules(game)

    @pytest.mark.parametrize("game", ["roulette", "sicbo"])
    def test_an_unknown_preset_is_refused(self, game: str) -> None:
        problems = problems_of(game, {"preset": "macau_grand"})
        assert len(problems) == 1
        assert "'macau_grand'" in problems[0]
        assert "statute" in problems[0]

    def test_options_apply_on_top_of_the_preset(self) -> None:
        rules = roulette_rules.load({"preset": "default", "chip_unit": 5})
        assert rules.chip_unit == 5
        assert rules.paytables == roulette_rules.STATUTE.paytables


# -- loading documents ------------------------------------------------------------------------------------------


class TestLoadingFiles:
    def test_roulette_rules_from_toml(self, tmp_path: Path) -> None:
        path = write(
            tmp_path,
            "house.toml",
            'game = "roulette"\ntitle = "House A"\n_reviewed = "2024-05-01"\nchip_unit = 5\n'
            "nine_number_blocks = [[0, 1, 2, 3, 5, 8, 13, 21, 34]]\n"
            '[min_bet]\nstraight = 10\n[paytables]\nstraight = 36\nred = "11/10"\n',
        )
        document = rulesdoc.read_document(path)
        assert infer_game(document).name == "roulette"
        rules = load_rules("roulette", path=str(path))
        assert isinstance(rules, RouletteRules)
        assert rules.chip_unit == 5
        assert rules.min_bet == Limit(2, {"straight": 10})
        assert rules.min_bet.for_type("straight") == 10
        assert rules.min_bet.for_type("red") == 2
        assert rules.odds("straight") == 36
        assert rules.odds("red") == Fraction(11, 10)
        assert rules.odds("split") == 17
        assert rules.nine_number_blocks == (frozenset({0, 1, 2, 3, 5, 8, 13, 21, 34}),)

    def test_sicbo_rules_from_json(self, tmp_path: Path) -> None:
        path = write(
            tmp_path,
            "house.json",
            json.dumps(
                {
                    "game": "sicbo",
                    "description": "a what-if",
                    "max_bet": {"triple": 500},
                    "paytables": {"single": [1, 2, 12], "total": {"4": 60, "17": 60}, "any_triple": 30},
                }
            ),
        )
        rules = load_rules("sicbo", path=str(path))
        assert isinstance(rules, SicBoRules)
        assert rules.max_bet.for_type("triple") == 500
        assert rules.max_bet.for_type("small") == 1_000_000
        assert rules.paytables.single == (1, 2, 12)
        assert rules.paytables.total[4] == rules.paytables.total[17] == 60
        assert rules.paytables.total[5] == 18
        assert rules.paytables.any_triple == 30
        assert rules.paytables.triple == 150

    def test_a_document_round_trips(self) -> None:
        rules = roulette_rules.load({"chip_unit": 5, "max_bet": {"red": 100}, "paytables": {"straight": 36}})
        assert roulette_rules.load(rulesdoc.document(rules)) == rules
        sb = sicbo_rules.load({"paytables": {"single": [1, 2, "7/2"]}})
        assert sicbo_rules.load(rulesdoc.document(sb)) == sb

    @pytest.mark.parametrize(
        ("name", "text"),
        [("bad.toml", "chip_unit = = 5\n"), ("bad.json", "{chip_unit: 5"), ("list.json", "[1, 2]")],
    )
    def test_unreadable_files_are_invalid_rules(self, tmp_path: Path, name: str, text: str) -> None:
        with pytest.raises(InvalidRules) as info:
            rulesdoc.read_document(write(tmp_path, name, text))
        assert name in str(info.value)

    def test_a_missing_file_is_invalid_rules(self, tmp_path: Path) -> None:
        with pytest.raises(InvalidRules, match="cannot read"):
            rulesdoc.read_document(tmp_path / "nope.toml")

    def test_rules_of_another_game_are_refused(self) -> None:
        problems = problems_of("roulette", {"game": "sicbo"})
        assert problems == ["these are 'sicbo' rules, not roulette rules"]


# -- problems -----------------------------------------------------------------------------------------------------


class TestProblems:
    def test_every_problem_is_reported_at_once(self) -> None:
        problems = problems_of("roulette", {"chip_unit": -1, "bogus": 1, "paytables": {"straight": 0}})
        assert len(problems) == 3
        assert any("'bogus'" in p for p in problems)
        assert any("paytables" in p and "not positive" in p for p in problems)
        assert any("chip_unit -1" in p for p in problems)

    def test_the_error_message_lists_every_problem(self) -> None:
        with pytest.raises(InvalidRules) as info:
            sicbo_rules.load({"preset": "x", "colour": "red", "chip_unit": 0})
        assert len(info.value.problems) == 3
        assert str(info.value).startswith("3 problems in the rules: ")
        for problem in info.value.problems:
            assert problem in str(info.value)
        assert info.value.as_dict()["error"] == "invalid_rules"

    @pytest.mark.parametrize("game", ["roulette", "sicbo"])
    def test_unknown_keys_are_refused(self, game: str) -> None:
        problems = problems_of(game, {"decks": 6, "min_bets": 5})
        assert len(problems) == 2
        assert "'decks' is not a" in problems[0]
        assert "'min_bets' is not a" in problems[1]

    @pytest.mark.parametrize("game", ["roulette", "sicbo"])
    def test_free_text_keys_are_allowed(self, game: str) -> None:
        g = GAMES[game]
        document = {"title": "House A", "description": "d", "comment": "c", "notes": "n", "_x": 1, "_y": {"a": 1}}
        assert g.load(document) == g.presets["statute"]

    @pytest.mark.parametrize(
        ("document", "needle"),
        [
            ({"chip_unit": -5}, "chip_unit -5 must be at least 1"),
            ({"chip_unit": 0}, "chip_unit 0 must be at least 1"),
            ({"chip_unit": 2.5}, "option chip_unit"),
            ({"chip_unit": True}, "option chip_unit"),
            ({"min_bet": 0}, "min_bet 0"),
            ({"min_bet": 10, "max_bet": 5}, "max_bet 5 for straight is below min_bet 10"),
            ({"min_bet": {"straight": 50}, "max_bet": {"straight": 20}}, "max_bet 20 for straight is below min_bet 50"),
            ({"min_bet": {"basket": 5}}, "'basket' is not a bet type"),
            ({"max_bet": "lots"}, "option max_bet"),
            ({"paytables": {"straight": 0}}, "odds 0 are not positive"),
            ({"paytables": {"split": -17}}, "not positive"),
            ({"paytables": {"split": "seventeen"}}, "is not odds"),
            ({"paytables": {"basket": 6}}, "'basket' is not a roulette bet type"),
            ({"paytables": 35}, "option paytables"),
            ({"nine_number_blocks": []}, "nine_number_blocks"),
            ({"nine_number_blocks": [[1, 2, 3]]}, "not nine different numbers"),
            ({"nine_number_blocks": [[1, 1, 2, 3, 4, 5, 6, 7, 8]]}, "not nine different numbers"),
            ({"nine_number_blocks": [[30, 31, 32, 33, 34, 35, 36, 37, 38]]}, "outside 0-36"),
            ({"nine_number_blocks": [["a"] * 9]}, "not a list of numbers"),
            ({"nine_number_blocks": "1-9"}, "nine_number_blocks"),
        ],
    )
    def test_invalid_roulette_values(self, document: dict[str, Any], needle: str) -> None:
        problems = problems_of("roulette", document)
        assert any(needle in p for p in problems), problems

    def test_min_above_max_is_reported_for_every_bet_type(self) -> None:
        problems = problems_of("sicbo", {"min_bet": 10, "max_bet": 5})
        assert len(problems) == len(sicbo_rules.BET_IDS)

    @pytest.mark.parametrize(
        ("document", "needle"),
        [
            ({"paytables": {"small": 0}}, "odds 0 are not positive"),
            ({"paytables": {"single": [1, 2]}}, "must list three odds"),
            ({"paytables": {"single": [1, 0, 3]}}, "not positive"),
            ({"paytables": {"total": {"3": 100}}}, "is not a total bet"),
            ({"paytables": {"total": [50]}}, "must be an object by total"),
            ({"paytables": {"double": 10}}, "'double' is not a sic bo bet type"),
            ({"max_bet": {"double": 10}}, "'double' is not a bet type"),
        ],
    )
    def test_invalid_sicbo_values(self, document: dict[str, Any], needle: str) -> None:
        problems = problems_of("sicbo", document)
        assert any(needle in p for p in problems), problems

    def test_constructing_invalid_rules_raises_every_problem(self) -> None:
        with pytest.raises(InvalidRules) as info:
            RouletteRules(chip_unit=0, nine_number_blocks=())
        assert len(info.value.problems) == 2

    def test_rules_are_frozen(self) -> None:
        rules = RouletteRules()
        with pytest.raises(AttributeError):
            rules.chip_unit = 5  # type: ignore[misc]


# -- differences from the statute ----------------------------------------------------------------------------------


class TestDifferences:
    def test_statute_rules_have_no_differences(self) -> None:
        for g in GAMES.values():
            assert rulesdoc.differences(g.presets["statute"], g.presets["statute"]) == []

    def test_each_difference_names_its_kind_and_rule(self) -> None:
        rules = roulette_rules.load(
            {"chip_unit": 5, "paytables": {"straight": 36}, "nine_number_blocks": [list(range(1, 10))]}
        )
        diffs = rulesdoc.differences(rules, roulette_rules.STATUTE)
        by_option = {d.option.split(".")[0]: d for d in diffs}
        assert set(by_option) == {"chip_unit", "paytables", "nine_number_blocks"}
        assert by_option["chip_unit"].kind is rulesdoc.OptionKind.LIMIT
        assert by_option["chip_unit"].rule == "Money and table limits"
        assert (by_option["chip_unit"].value, by_option["chip_unit"].statute) == (5, 1)
        assert by_option["paytables"].kind is rulesdoc.OptionKind.OUTSIDE
        assert by_option["paytables"].rule == "RO 7"
        assert by_option["nine_number_blocks"].kind is rulesdoc.OptionKind.OUTSIDE
        assert by_option["nine_number_blocks"].rule == "RO 6"


# -- croupier rules show -----------------------------------------------------------------------------------------


class TestRulesShow:
    def test_rules_show_roulette(self, wide: None) -> None:
        result = invoke("rules", "show", "roulette")
        assert result.exit_code == 0, result.output
        for option in ("chip_unit", "min_bet", "max_bet", "paytables", "nine_number_blocks"):
            assert option in result.stdout
        for rule in ("Money and table limits", "RO 7", "RO 6"):
            assert rule in result.stdout
        assert "Roulette" in result.stdout

    def test_rules_show_sicbo_json(self) -> None:
        result = invoke("rules", "show", "sicbo", "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert data == {"game": "sicbo", **rulesdoc.document(sicbo_rules.STATUTE)}
        assert (data["chip_unit"], data["min_bet"], data["max_bet"]) == (1, 2, 1_000_000)
        assert data["paytables"]["single"] == [1, 2, 3]
        assert data["paytables"]["total"]["4"] == 50
        assert data["paytables"]["total"]["10"] == 6
        assert (data["paytables"]["triple"], data["paytables"]["any_triple"]) == (150, 24)

    def test_rules_show_with_a_rules_file(self, tmp_path: Path) -> None:
        path = write(tmp_path, "r.toml", "chip_unit = 5\n")
        result = invoke("rules", "show", "roulette", "--rules", str(path), "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["chip_unit"] == 5

    def test_rules_show_preset_alias(self) -> None:
        result = invoke("rules", "show", "roulette", "--preset", "default", "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout) == {"game": "roulette", **rulesdoc.document(roulette_rules.STATUTE)}

    def test_rules_show_unknown_preset_or_game_exits_2(self, wide: None) -> None:
        result = invoke("rules", "show", "roulette", "--preset", "nope")
        assert result.exit_code == 2
        assert "'nope'" in result.output
        result = invoke("rules", "show", "baccarat")
        assert result.exit_code == 2
        assert "baccarat" in result.output


# -- croupier rules check -----------------------------------------------------------------------------------------


class TestRulesCheck:
    def test_check_lists_differences_with_their_kind(self, tmp_path: Path, wide: None) -> None:
        path = write(tmp_path, "house.toml", 'game = "roulette"\nchip_unit = 5\n[paytables]\nstraight = 36\n')
        result = invoke("rules", "check", str(path))
        assert result.exit_code == 0, result.output
        lines = result.stdout.splitlines()
        chip = next(line for line in lines if "chip_unit" in line)
        assert "table limit" in chip
        pay = next(line for line in lines if "paytables" in line)
        assert "outside the statute" in pay
        assert "RO 7" in pay

    def test_check_json_lists_differences(self, tmp_path: Path) -> None:
        path = write(tmp_path, "house.toml", "chip_unit = 5\n[paytables]\nstraight = 36\n")
        result = invoke("rules", "check", str(path), "--game", "roulette", "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert (data["game"], data["valid"]) == ("roulette", True)
        kinds = {d["option"].split(".")[0]: (d["kind"], d["rule"]) for d in data["differences"]}
        assert kinds == {
            "chip_unit": ("table limit", "Money and table limits"),
            "paytables": ("outside the statute", "RO 7"),
        }
        straight = next(d for d in data["differences"] if d["option"].startswith("paytables"))
        assert "36" in json.dumps(straight["value"])

    def test_check_a_statute_file_lists_no_differences(self, tmp_path: Path) -> None:
        path = write(tmp_path, "s.toml", 'game = "sicbo"\npreset = "statute"\n')
        result = invoke("rules", "check", str(path), "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout) == {"game": "sicbo", "valid": True, "differences": []}

    def test_check_a_bad_file_exits_2_and_prints_every_problem(self, tmp_path: Path, wide: None) -> None:
        path = write(tmp_path, "bad.toml", 'game = "roulette"\nchip_unit = -1\nbogus = 1\n[paytables]\nstraight = 0\n')
        result = invoke("rules", "check", str(path))
        assert result.exit_code == 2
        assert "3 problem" in result.output
        assert "'bogus' is not a roulette option" in result.output
        assert "odds 0 are not positive" in result.output
        assert "chip_unit -1 must be at least 1" in result.output

    def test_check_an_unparsable_file_exits_2(self, tmp_path: Path, wide: None) -> None:
        path = write(tmp_path, "broken.toml", "chip_unit = \n")
        result = invoke("rules", "check", str(path), "--game", "roulette")
        assert result.exit_code == 2
        assert "broken.toml" in result.output

    def test_check_needs_game_when_the_file_does_not_say(self, tmp_path: Path, wide: None) -> None:
        # chip_unit is an option of both games, so the file alone does not tell.
        path = write(tmp_path, "limits.toml", "chip_unit = 5\n")
        result = invoke("rules", "check", str(path))
        assert result.exit_code == 2
        assert "--game" in result.output
        result = invoke("rules", "check", str(path), "--game", "sicbo", "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["game"] == "sicbo"

    def test_check_reads_the_game_from_the_file(self, tmp_path: Path) -> None:
        path = write(tmp_path, "sb.toml", 'game = "sicbo"\nchip_unit = 5\n[paytables]\nsmall = 2\n')
        result = invoke("rules", "check", str(path), "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert data["game"] == "sicbo"
        kinds = {d["option"].split(".")[0]: (d["kind"], d["rule"]) for d in data["differences"]}
        assert kinds == {
            "chip_unit": ("table limit", "Money and table limits"),
            "paytables": ("outside the statute", "SB 6"),
        }

    def test_check_infers_the_game_from_options_only_one_game_has(self, tmp_path: Path) -> None:
        path = write(tmp_path, "nine.json", json.dumps({"nine_number_blocks": [list(range(1, 10))]}))
        result = invoke("rules", "check", str(path), "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["game"] == "roulette"

    def test_check_a_file_for_another_game_than_given(self, tmp_path: Path, wide: None) -> None:
        path = write(tmp_path, "sb.toml", 'game = "sicbo"\n')
        result = invoke("rules", "check", str(path), "--game", "roulette")
        assert result.exit_code == 2
        assert "'sicbo'" in result.output

    def test_check_a_file_naming_an_unknown_game(self, tmp_path: Path, wide: None) -> None:
        path = write(tmp_path, "bj.toml", 'game = "baccarat"\n')
        result = invoke("rules", "check", str(path))
        assert result.exit_code == 2
        assert "baccarat" in result.output
