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


def edge_rich_tables(report: dict[str, Any]) -> list[Table]:
    """``croupier edge blackjack``'s report as tables: the main bet, by up card, side bets, rule effects."""
    main = Table(title="Blackjack main bet (exact combinatorial analysis)", show_header=False)
    main.add_column("figure")
    main.add_column("value", justify="right")
    main.add_row("expected value per unit of the initial bet", f"{report['ev']:+.10f}")
    main.add_row("house edge", f"{report['house_edge_pct']:.6f}%")
    main.add_row("strategy", "composition-dependent" if report["strategy"] == "cd" else "basic strategy (chart)")
    main.add_row("decks", str(report["decks"]))
    if report.get("insurance_value") is not None:
        main.add_row("insurance, per unit insured (full shoe)", f"{report['insurance_value']:+.6f}")
    for up, figures in report.get("even_money", {}).items():
        main.add_row(
            f"blackjack against {up}: keep / even money",
            f"{figures['keep']:+.4f} / {figures['take']:+.4f} ({figures['decision']})",
        )
    main.add_row("computed in", f"{report['seconds']:.2f} s")
    tables = [main]
    ups = Table(title="By the dealer's up card")
    ups.add_column("up card")
    ups.add_column("expected net per unit", justify="right")
    for up, value in report["by_up_card"].items():
        ups.add_row(up, f"{value:+.6f}")
    tables.append(ups)
    if "side_bets" in report:
        side = Table(title="Side bets (exact unless marked)")
        side.add_column("bet")
        side.add_column("house edge", justify="right")
        side.add_column("exact", justify="right")
        side.add_column("rule")
        for bet, figures in report["side_bets"].items():
            if bet == "streak_results":
                continue
            exact = "/" in figures["house_edge"] or figures["house_edge"] == "0"
            side.add_row(
                bet, f"{figures['house_edge_pct']:.4f}%", figures["house_edge"] if exact else "—", figures["rule"]
            )
        tables.append(side)
    if "rule_effects" in report:
        effects = Table(title="Rule effects: the house edge after flipping one option")
        for column in ("option", "from", "to", "house edge", "change", "rule"):
            effects.add_column(column, justify="right" if column in ("house edge", "change") else "left")
        for e in report["rule_effects"]:
            effects.add_row(
                e["option"], e["from"], e["to"], f"{e['house_edge_pct']:.4f}%", f"{e['change_pct']:+.4f}%", e["rule"]
            )
        tables.append(effects)
    return tables
