"""``croupier demo``: the main job on its embedded defaults runs and prints every table."""

from __future__ import annotations

from rich.console import Console

from croupier.demo import run_demo


def test_demo_plays_every_game_and_prints_the_odds() -> None:
    console = Console(record=True, width=160)
    run_demo(console, rounds=2, players=3, seed=7)
    text = console.export_text()
    for piece in ("Roulette session", "Sic bo session", "Blackjack session", "Spin 2:", "Roll 2:", "Round 2: dealer",
                  "Roulette: exact odds per unit staked", "Sic Bo: exact odds per unit staked", "nets"):  # fmt: skip
        assert piece in text, piece
