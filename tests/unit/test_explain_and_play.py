"""``croupier replay --explain`` transcripts and the ``croupier play blackjack`` terminal table."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from croupier.blackjack.rules import BlackjackRules
from croupier.cli import app
from croupier.primitives.chance import ScriptedSource
from croupier.replay import replay_file
from croupier.terminal import play_blackjack

SHARED = Path(__file__).resolve().parents[3] / "shared" / "scenarios"


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared scenarios not present")
def test_blackjack_transcript_names_the_rule_behind_every_step() -> None:
    out = replay_file(SHARED / "blackjack-split-with-back-bettor.json", explain=True)
    lines = out["transcript"][0]
    text = "\n".join(lines)
    expected = (
        "Burned KD (BJ 4.1)",
        "answers split",
        "(BJ 16.1)",
        "bo answers follow",
        "(BJ 20.1)",
        "any_pair 10 → +110 (BJ 13.1)",
        "perfect_pairs 10 → +250 (BJ 13.4)",
        "Result: ana +210, bo +250",
    )
    for piece in expected:
        assert piece in text, piece
    steps = [line for line in lines if not line.startswith(("Box 1 hand", "Dealer:"))]
    assert all("(BJ " in line or line.startswith("Result") for line in steps)


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared scenarios not present")
def test_roulette_transcript_shows_collection_before_payment_in_ro_5_1_order() -> None:
    lines = replay_file(SHARED / "roulette-zero.json", explain=True)["transcript"][0]
    collected = next(i for i, line in enumerate(lines) if line.startswith("Losing bets collected"))
    paid = [i for i, line in enumerate(lines) if line.startswith("Paid #")]
    assert paid and collected < min(paid)
    assert [lines[i].split(":")[0] for i in paid] == ["Paid #3", "Paid #2", "Paid #0"]


def test_replay_explain_command_prints_a_transcript() -> None:
    if not SHARED.is_dir():
        pytest.skip("shared scenarios not present")
    result = CliRunner().invoke(app, ["replay", "--explain", str(SHARED / "sicbo-triple.json")])
    assert result.exit_code == 0, result.output
    assert "SB 7" in result.stdout and "Totals:" in result.stdout


def test_play_blackjack_offers_only_legal_answers_and_keeps_the_bankroll() -> None:
    # burn, box 1 gets 9S, dealer 6H, box 1 gets 2D (11: double is legal), the double card TC, dealer 9C TD
    cards = ["4C", "9S", "6H", "2D", "TC", "9C", "TD"]
    answers = iter(["10", "0", "3"])  # main 10, no Any Pair, answer 3 = double
    console = Console(record=True, width=120)
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return next(answers)

    bankroll = play_blackjack(
        console, ask, rules=BlackjackRules(), source=ScriptedSource(cards=cards), bankroll=100, rounds=1
    )
    text = console.export_text()
    assert "1 hit  2 stand  3 double  4 surrender" in text
    assert bankroll == 120  # 21 against the dealer's 6-9-T bust: the doubled 20 wins 20
    assert "leave the table with 120" in text


def test_play_blackjack_shows_the_engine_s_refusal() -> None:
    answers = iter(["3", "q"])  # an odd main bet is refused (multiple of 2 chip units), then quit
    console = Console(record=True, width=120)
    bankroll = play_blackjack(
        console, lambda _p: next(answers), rules=BlackjackRules(side_bets_offered=[]), bankroll=50
    )
    assert bankroll == 50
    assert "not a multiple of 2 chip units" in console.export_text()
