"""``croupier play blackjack``: a person plays rounds in the terminal against the strong-RNG shoe.

The screen shows only the player's view of the round (croupier.blackjack.views) and offers exactly the legal
answers the engine lists; every refusal is the engine's own message with its rule id.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import BlackjackRules, SideBet
from croupier.blackjack.table import BlackjackTable
from croupier.blackjack.views import HIDDEN, player_view
from croupier.errors import CroupierError
from croupier.primitives.cards import parse_card
from croupier.primitives.chance import ChanceSource

Ask = Callable[[str], str]

LABELS = {
    "hit": "hit",
    "stand": "stand",
    "double": "double",
    "split": "split",
    "surrender": "surrender (lose half)",
    "claim_five_card": "claim the five-card payment",
    "insurance": "insure",
    "even_money": "take even money",
    "decline": "decline",
    "follow": "follow",
    "any_pair": "place Any Pair on the split hands",
}

SIDE_KEYS = {
    SideBet.ANY_PAIR: ("any_pair",),
    SideBet.SEVENS: ("sevens",),
    SideBet.OVER_UNDER_13: ("over_13", "under_13"),
    SideBet.PERFECT_PAIRS: ("perfect_pairs",),
}


def _card(code: str) -> str:
    if code == HIDDEN:
        return "[dim]🂠[/dim]"
    card = parse_card(code)
    colour = "red" if card.colour == "red" else "white"
    return f"[bold {colour}]{card.pretty()}[/bold {colour}]"


def render(console: Console, rnd: BlackjackRound, player: str) -> None:
    """Draw the table as ``player`` sees it."""
    view = player_view(rnd, player)
    dealer = " ".join(_card(c) for c in view["dealer"]["cards"])
    total = view["dealer"]["total"]
    console.print(f"Dealer: {dealer}  [dim](showing {total})[/dim]")
    for box in view["boxes"]:
        for hand in box["hands"]:
            cards = " ".join(_card(c) for c in hand["cards"])
            tot = "" if hand["total"] is None else f" = {hand['total']}"
            status = f" [italic]{hand['status']}[/italic]" if hand["status"] else ""
            stake = sum(hand["stakes"].values())
            console.print(f"Box {box['box']} hand {hand['index']}: {cards}{tot}  stake {stake}{status}")


def _ask_amount(ask: Ask, console: Console, prompt: str, default: int) -> int | None:
    while True:
        raw = ask(f"{prompt} [{default}]").strip().lower()
        if raw in ("q", "quit"):
            return None
        if raw == "":
            return default
        if raw.isdigit():
            return int(raw)
        console.print("[red]Please type a whole number, or q to quit.[/red]")


def play_blackjack(
    console: Console,
    ask: Ask,
    *,
    rules: BlackjackRules,
    source: ChanceSource | None = None,
    player: str = "you",
    bankroll: int = 1000,
    rounds: int | None = None,
) -> int:
    """Play until the player quits, runs out of money, or ``rounds`` are played; return the bankroll."""
    table = BlackjackTable(rules, source)
    last_bet = max(rules.min_stake("main"), 2 * rules.chip_unit)
    last_bet += last_bet % (2 * rules.chip_unit)
    played = 0
    offered = [s for s in SIDE_KEYS if s in rules.side_bets_offered]
    console.print(
        f"[bold]Blackjack[/bold] (Despacho 57/2009) — {rules.decks} deck(s), procedure {rules.procedure}, "
        f"dealer {rules.dealer_soft_17.value.replace('_', ' ')} on soft 17. Type q to leave."
    )
    while bankroll > 0 and (rounds is None or played < rounds):
        console.rule(f"Round {played + 1} — bankroll {bankroll}")
        rnd = table.round if table.round is not None and not table.round.is_over else table.open_round()
        main = _ask_amount(ask, console, "Main bet (a multiple of 2 chip units)", min(last_bet, bankroll))
        if main is None:
            break
        side: dict[str, int] = {}
        for kind in offered:
            for key in SIDE_KEYS[kind]:
                stake = _ask_amount(ask, console, f"Side bet {key} (0 for none)", 0)
                if stake is None:
                    return bankroll
                if stake:
                    side[key] = stake
        try:
            if main + sum(side.values()) > bankroll:
                console.print(f"[red]That is more than your bankroll of {bankroll}.[/red]")
                continue
            rnd.place_bet(1, player, main=main, side=side)
            rnd.seat(1, player)
            rnd.close_betting()
        except CroupierError as exc:
            console.print(f"[red]{escape(exc.message)}[/red] [dim]({exc.rule})[/dim]")
            continue
        last_bet = main
        while not rnd.is_over:
            q = rnd.pending
            assert q is not None
            render(console, rnd, player)
            choices = list(q.actions)
            menu = "  ".join(f"[bold]{i + 1}[/bold] {LABELS[a]}" for i, a in enumerate(choices))
            console.print(
                f"Your answer for box {q.box}" + (f" hand {q.hand}" if q.kind == "play" else "") + f": {menu}"
            )
            raw = ask("Choose").strip().lower()
            if raw in ("q", "quit"):
                return bankroll
            if not raw.isdigit() or not 1 <= int(raw) <= len(choices):
                console.print("[red]Type the number of one of the answers.[/red]")
                continue
            action = choices[int(raw) - 1]
            amount = None
            if action == "insurance":
                amount = _ask_amount(ask, console, f"Insurance (up to {q.max_insurance})", q.max_insurance)
                if amount is None:
                    return bankroll
            try:
                rnd.act(action, amount=amount)
            except CroupierError as exc:
                console.print(f"[red]{escape(exc.message)}[/red] [dim]({exc.rule})[/dim]")
        render(console, rnd, player)
        s = rnd.settlement
        assert s is not None
        result = Table(title=f"Dealer {s.dealer_total}{' blackjack' if s.dealer_blackjack else ''}")
        for col in ("bet", "stake", "net", "rule"):
            result.add_column(col)
        for o in s.outcomes:
            net = f"[green]{o.net:+d}[/green]" if o.net > 0 else (f"[red]{o.net:+d}[/red]" if o.net < 0 else "0")
            result.add_row(o.kind + (f" ({o.status})" if o.status else ""), str(o.stake), net, o.rule)
        console.print(result)
        bankroll += s.players().get(player, 0)
        played += 1
    console.print(f"You leave the table with {bankroll}.")
    return bankroll
