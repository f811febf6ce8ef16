"""``croupier simulate``: Monte Carlo at scale (issue 15). Blackjack's whole table with card counting lives in
:mod:`croupier.analysis.tablesim`; roulette and sic bo sessions in :mod:`croupier.analysis.wager_sim`."""

from __future__ import annotations

import typer

simulate_app = typer.Typer(
    help="Simulate a game at scale: blackjack with card counting, roulette and sic bo sessions.",
    no_args_is_help=True,
)


def register_all() -> typer.Typer:
    """The ``simulate`` sub-command with every game's command registered."""
    from croupier import cli_simulate_wager

    cli_simulate_wager.register(simulate_app)
    return simulate_app
