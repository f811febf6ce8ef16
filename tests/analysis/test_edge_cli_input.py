"""Bad input to ``croupier edge blackjack`` and ``croupier strategy`` (issue 16, "Bad input"): every refusal exits
with status 2, says on standard error what is wrong (naming the value and the rule), prints nothing on standard
output and computes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.blackjack.rules import MAX_DECKS
from support import invoke

TENS_MOST = 16 * MAX_DECKS
"""The most ten-value cards ``--shoe`` takes: those of the most decks croupier deals (BJ 1)."""


def refused(*args: str) -> str:
    """Run ``croupier ARGS``, check that it was refused (status 2, nothing on standard output, no traceback) and
    return what it said on standard error, on one line."""
    result: Any = invoke(*args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.stderr
    return " ".join(result.stderr.split())


def test_a_count_far_beyond_any_shoe_is_refused_not_overflowed() -> None:
    said = refused("edge", "blackjack", "--shoe", "99999999999,4,4,4,4,4,4,4,4,16", "--json")
    assert f"count of aces 99999999999 is more than croupier takes ({4 * MAX_DECKS}" in said
    assert "BJ 1" in said


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ("4,4,4,4,4,4,4,4,4,1601", f"count of ten-value cards 1601 is more than croupier takes ({TENS_MOST}"),
        ("4,4,4,4,4,4,4,4,401,16", f"count of 9s 401 is more than croupier takes ({4 * MAX_DECKS}"),
        ("4," * 9 + "9" * 5000, "count of ten-value cards 99999999999999999999… is more than croupier takes"),
    ],
)
def test_a_count_over_what_the_most_decks_hold_is_refused(counts: str, message: str) -> None:
    said = refused("edge", "blackjack", "--shoe", counts)
    assert message in said and "BJ 1" in said


def test_the_largest_counts_croupier_takes_are_accepted() -> None:
    from croupier.cli import _shoe_counts

    most = ",".join([str(4 * MAX_DECKS)] * 9 + [str(TENS_MOST)])
    assert _shoe_counts(most) == [4 * MAX_DECKS] * 9 + [TENS_MOST]
    assert _shoe_counts(" 0, 1,2,3 ,4,5,6,7,8,-0") == [0, 1, 2, 3, 4, 5, 6, 7, 8, 0]


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ("4,4,4,4,4,4,4,4,4,-16", "count of ten-value cards must be a whole number ≥ 0, not -16"),
        ("-1,4,4,4,4,4,4,4,4,16", "count of aces must be a whole number ≥ 0, not -1"),
        ("4,4,4,4,x,4,4,4,4,16", "count of 5s 'x' is not a whole number"),
        ("4,4,4,4,4,4.5,4,4,4,16", "count of 6s '4.5' is not a whole number"),
        ("4,4,4,4,4,4,4,4,4,1e3", "count of ten-value cards '1e3' is not a whole number"),
        ("4,4,4,4,4,4,4,4,4,١٦", "count of ten-value cards '١٦' is not a whole number"),  # Arabic-Indic digits
        ("4,4,4,4,4,4,4,4,4,", "count of ten-value cards '' is not a whole number"),
        ("4,4,4", "must be 10 whole numbers: the counts of aces, 2-9 and ten-value cards, not 3"),
        ("4,4,4,4,4,4,4,4,4,4,16", "must be 10 whole numbers: the counts of aces, 2-9 and ten-value cards, not 11"),
    ],
)
def test_a_malformed_shoe_is_refused_naming_the_count(counts: str, message: str) -> None:
    assert message in refused("edge", "blackjack", "--shoe", counts)


def test_every_bad_count_is_named_at_once() -> None:
    said = refused("edge", "blackjack", "--shoe", "x,4,4,4,4,4,4,4,-2,99999")
    assert "count of aces 'x'" in said and "count of 9s must be a whole number ≥ 0, not -2" in said
    assert "count of ten-value cards 99999 is more than croupier takes" in said


@pytest.mark.parametrize("decks", ["1", "8"])
def test_shoe_and_decks_together_conflict(decks: str) -> None:
    said = refused("edge", "blackjack", "--shoe", "4,4,4,4,4,4,4,4,4,16", "--decks", decks, "--json")
    assert "--shoe and --decks conflict" in said


@pytest.mark.parametrize("command", ["edge", "strategy"])
@pytest.mark.parametrize("decks", ["1000", str(MAX_DECKS + 1), "0", "-3"])
def test_decks_out_of_range_give_the_real_bounds(command: str, decks: str) -> None:
    said = refused(command, "blackjack", "--decks", decks)
    assert f"--decks {decks} must be between 1 and {MAX_DECKS} (BJ 1)" in said
    assert "at least 1" not in said.replace(f"between 1 and {MAX_DECKS}", "")


@pytest.mark.parametrize("command", ["edge", "strategy"])
def test_decks_that_are_not_a_number_are_refused(command: str) -> None:
    result: Any = invoke(command, "blackjack", "--decks", "six")
    assert result.exit_code == 2
    assert result.stdout == ""
    said = " ".join(result.stderr.split())
    assert "Invalid value for '--decks'" in said and "integer" in said


def test_the_shoe_is_checked_before_anything_is_computed(monkeypatch: pytest.MonkeyPatch) -> None:
    from croupier.analysis import blackjack_math

    def never(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the analysis ran on refused input")

    monkeypatch.setattr(blackjack_math, "edge_report", never)
    refused("edge", "blackjack", "--shoe", "99999999999,4,4,4,4,4,4,4,4,16")
    refused("edge", "blackjack", "--shoe", "4,4,4,4,4,4,4,4,4,16", "--decks", "1")
    refused("edge", "blackjack", "--decks", "1000")
