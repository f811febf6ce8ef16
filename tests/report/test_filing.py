"""The filing part of a PAR sheet (croupier.report.filing): the rules' fingerprint is literally the SHA-256 of
what ``croupier rules show GAME --json`` prints, the sheet says how to reproduce it, and the options behind a
bet at the player's advantage are found."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from croupier.blackjack.rules import STATUTE
from croupier.games import load_rules
from croupier.report import Report
from croupier.report.filing import (
    causes,
    filing_section,
    fingerprint,
    reproduce_command,
    restore,
    rules_document,
)
from croupier.roulette import rules as roulette_rules
from support import invoke, write

from .conftest import check_html


def shown(*args: str) -> bytes:
    result = invoke("rules", "show", *args, "--json")
    assert result.exit_code == 0, result.output
    return str(result.output).encode("utf-8")


class TestFingerprint:
    @pytest.mark.parametrize("game", ["blackjack", "roulette", "sicbo"])
    def test_it_is_the_sha256_of_rules_show_json(self, game: str) -> None:
        rules = load_rules(game)
        assert rules_document(game, rules) == shown(game, "--preset", "statute")
        assert fingerprint(game, rules) == hashlib.sha256(shown(game, "--preset", "statute")).hexdigest()

    def test_a_rules_file_and_a_change(self, tmp_path: Path) -> None:
        path = write(tmp_path, "house.toml", 'game = "roulette"\n[paytables]\nstraight = 34\n')
        rules = load_rules("roulette", path=str(path))
        assert fingerprint("roulette", rules) == hashlib.sha256(shown("roulette", "--rules", str(path))).hexdigest()
        assert fingerprint("roulette", rules) != fingerprint("roulette", load_rules("roulette"))
        same = write(tmp_path, "same.toml", "[paytables]\nstraight = 34\nsplit = 17\n")  # the statute's split
        assert fingerprint("roulette", load_rules("roulette", path=str(same))) == fingerprint("roulette", rules)

    def test_the_printed_command_reproduces_it_in_a_shell(self, tmp_path: Path) -> None:
        croupier = Path(sys.executable).parent / "croupier"
        if not croupier.exists() or shutil.which("sha256sum") is None:
            pytest.fail("the croupier script and sha256sum are part of the test environment")
        command = reproduce_command("blackjack", "preset statute")
        assert command == "croupier rules show blackjack --preset statute --json | sha256sum"
        out = subprocess.run(
            command, shell=True, check=True, capture_output=True, text=True,
            env={"PATH": f"{croupier.parent}:/usr/bin:/bin"},
        ).stdout  # fmt: skip
        assert out.split()[0] == fingerprint("blackjack", STATUTE)
        assert reproduce_command("sicbo", "file my rules.toml") == (
            "croupier rules show sicbo --rules 'my rules.toml' --json | sha256sum"
        )
        assert reproduce_command("sicbo", "") is None

    def test_section(self) -> None:
        when = datetime(2026, 1, 2, 3, 4, tzinfo=UTC)
        section = filing_section("blackjack", STATUTE, source="preset statute", generated=when)
        text = Report("R").add(section).html()
        check_html(text)
        assert fingerprint("blackjack", STATUTE) in text and "2026-01-02 03:04 UTC" in text
        assert "croupier rules show blackjack --preset statute --json | sha256sum" in text
        assert "Approved by (for the regulator, DICJ)" in text and "<h3>Sign-off</h3>" in text
        assert '<pre class="doc">{\n  &quot;game&quot;: &quot;blackjack&quot;,' in text
        assert "croupier 0.1.0, Python" in text and "numpy" in text
        python = Report("R").add(filing_section("sicbo", load_rules("sicbo"), source="", generated=when)).html()
        assert "save the document below byte for byte" in python


class TestCauses:
    def test_restore_one_entry_or_option(self) -> None:
        statute = load_rules("roulette")
        rules = roulette_rules.load({"paytables": {"straight": 36, "split": 18}, "min_bet": 10})
        back = restore("roulette", rules, statute, "paytables.straight")
        assert back.odds("straight") == 35 and back.odds("split") == 18 and back.min_bet == rules.min_bet
        assert restore("roulette", rules, statute, "min_bet").min_bet == statute.min_bet

    def test_alone_together_and_none(self) -> None:
        statute = load_rules("roulette")

        def edge(r: Any) -> Fraction:  # made up: each extra unit of straight or split odds costs the house 1
            return 1 - (r.odds("straight") - 35) - (r.odds("split") - 17)

        one = roulette_rules.load({"paytables": {"straight": 37}})
        found = causes("roulette", one, statute, edge)
        assert [d.option for d, _ in found.alone] == ["paytables.straight"] and not found.together
        both = roulette_rules.load({"paytables": {"straight": 36, "split": 18}})
        found = causes("roulette", both, statute, edge)
        assert not found.alone and [d.option for d in found.together] == ["paytables.straight", "paytables.split"]
        assert found.together_edge == 1 and "no option alone, but together" in found.text()
        found = causes("roulette", statute, statute, lambda r: Fraction(-1))
        assert found == causes("roulette", statute, statute, lambda r: Fraction(-1))
        assert "the statute's own paytable does it" in found.text()
