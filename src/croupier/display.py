"""Rich renderings shared by the CLI commands: odds tables, round results."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.table import Table

from croupier.analysis.odds import BetOdds
from croupier.wagering import Settlement


def odds_rich_table(title: str, rows: Sequence[BetOdds]) -> Table:
    """The odds of a game's bets as a Rich table."""
    table = Table(title=title, caption="per unit staked; pays = odds to 1; hit = P(win); SD of the net")
    for col, justify in (
        ("bet", "left"),
        ("pays", "right"),
        ("P(win)", "right"),
        ("edge", "right"),
        ("edge %", "right"),
        ("hit", "right"),
        ("SD", "right"),
        ("rule", "left"),
    ):
        table.add_column(col, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for b in rows:
        j = b.as_json()
        pays = j["pays"] if not isinstance(j["pays"], list) else "/".join(str(p) for p in j["pays"])
        table.add_row(
            b.bet,
            str(pays),
            str(b.win_probability),
            str(b.house_edge),
            f"{j['house_edge_pct']:.4f}",
            f"{j['hit_frequency']:.6f}",
            f"{j['sd']:.4f}",
            b.rule,
        )
    return table


def settlement_table(title: str, settlement: Settlement[Any, Any]) -> Table:
    """One settled round: every bet, its net, and the order of collection and payment."""
    table = Table(title=title)
    for col in ("#", "player", "bet", "stake", "net", "step"):
        table.add_column(col, justify="right" if col in ("#", "stake", "net") else "left")
    paid_at = {index: n for n, index in enumerate(settlement.payment_order, start=1)}
    for r in settlement.results:
        step = "collected" if r.net < 0 else (f"paid {paid_at[r.index]}" if r.index in paid_at else "returned")
        colour = "green" if r.net > 0 else ("red" if r.net < 0 else "white")
        table.add_row(
            str(r.index),
            r.bet.player,
            r.bet.placement,
            str(r.bet.amount),
            f"[{colour}]{r.net:+d}[/{colour}]",
            step,
        )
    return table
