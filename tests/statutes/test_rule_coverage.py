"""Every rule id of ``croupier.statute`` has at least one test named for it.

A rule id ``RO 2.2`` is cited in a test name as ``ro_2_2`` (lower case, dots and spaces to underscores),
e.g. ``test_ro_2_2_void_spin_bets_stand_ball_restarts_from_previous_pocket``. Test names are read with
``ast`` from every ``tests/**/*.py`` file, so nothing has to be imported or run to count them. Any rule
table the statute module gains (``BLACKJACK`` …) is picked up here without a change.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from croupier import statute

TESTS = Path(__file__).resolve().parents[1]

RULE_TABLES = ("ROULETTE", "SICBO", "BLACKJACK")
"""Names of the rule-id dicts in ``croupier.statute``; those not (yet) defined are skipped."""


def rule_tables() -> dict[str, Mapping[str, str]]:
    """The rule tables ``croupier.statute`` defines, by name."""
    tables = {name: getattr(statute, name, None) for name in RULE_TABLES}
    return {name: table for name, table in tables.items() if table is not None}


def rule_ids() -> list[str]:
    """Every rule id, in statute order."""
    return [rule for table in rule_tables().values() for rule in table]


def slug(rule: str) -> str:
    """``"RO 2.2"`` → ``"ro_2_2"``."""
    return re.sub(r"[ .]+", "_", rule.strip()).lower()


def cites(name: str, rule: str) -> bool:
    """Whether the test name cites ``rule`` as a whole token: ``ro_5`` is not cited by ``..._ro_5_1_...``."""
    return re.search(rf"(?:^|_){re.escape(slug(rule))}(?:_(?!\d)|$)", name) is not None


def collect_test_names(paths: Iterable[Path]) -> set[str]:
    """The names of every test function and method defined in ``paths``."""
    names: set[str] = set()
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
                names.add(node.name)
    return names


def uncited(rules: Iterable[str], names: Iterable[str]) -> list[str]:
    """The rules no name cites."""
    names = list(names)
    return [r for r in rules if not any(cites(n, r) for n in names)]


def all_test_names() -> set[str]:
    return collect_test_names(sorted(TESTS.rglob("*.py")))


class TestRuleCoverage:
    def test_every_rule_id_has_a_test_named_for_it(self) -> None:
        missing = uncited(rule_ids(), all_test_names())
        assert missing == [], f"rules without a test named for them: {missing}"

    @pytest.mark.parametrize("table", ["ROULETTE", "SICBO"])
    def test_the_game_rule_tables_are_present(self, table: str) -> None:
        assert table in rule_tables()
        assert rule_tables()[table]

    def test_a_future_rule_table_is_picked_up(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(statute, "BLACKJACK", {"BJ 17.3": "Doubling"}, raising=False)
        assert "BJ 17.3" in rule_ids()
        assert uncited(["BJ 17.3"], ["test_bj_17_3_lose_original_only"]) == []
        assert uncited(["BJ 17.3"], ["test_something_else"]) == ["BJ 17.3"]


class TestCitationMatching:
    @pytest.mark.parametrize(
        ("rule", "name", "expected"),
        [
            ("RO 2.2", "test_ro_2_2_void_spin_bets_stand", True),
            ("RO 6", "test_ro_6", True),
            ("RO 6", "test_ro_6_split_adjacent", True),
            ("SB 3.3", "test_sb_3_3_void_roll", True),
            ("RO 5", "test_ro_5_1_collection_first", False),
            ("RO 1", "test_ro_10_something", False),
            ("SB 3", "test_sb_3_1_bell", False),
            ("RO 6", "test_pro_6_not_a_citation", False),
            ("BJ 10.3", "test_bj_10_3_even_money_on_ten", True),
        ],
    )
    def test_a_name_cites_a_rule_as_a_whole_token(self, rule: str, name: str, expected: bool) -> None:
        assert cites(name, rule) is expected

    def test_names_are_read_from_functions_and_methods(self, tmp_path: Path) -> None:
        source = tmp_path / "test_x.py"
        source.write_text(
            "def test_ro_8_zero():\n    pass\n\n"
            "class TestA:\n    def test_sb_7_triple(self):\n        pass\n\n"
            "    def helper_ro_1(self):\n        pass\n\n"
            "async def test_ro_3_async():\n    pass\n",
            encoding="utf-8",
        )
        assert collect_test_names([source]) == {"test_ro_8_zero", "test_sb_7_triple", "test_ro_3_async"}
