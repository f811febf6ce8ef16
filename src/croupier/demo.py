"""``croupier demo``: short sessions at a roulette, a sic bo and a blackjack table, then the odds tables.

The results come from the strong RNG (:class:`~croupier.primitives.chance.SystemRandom`); a few simulated
players pick bets at random within the table limits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rich.console import Console
from rich.table import Table

from croupier.analysis.odds import roulette_odds, sicbo_odds
from croupier.blackjack.autoplay import answer
from croupier.blackjack.rules import PRESETS, SideBet
from croupier.blackjack.table import BlackjackTable
from croupier.display import odds_rich_table, settlement_table
from croupier.primitives import wheel
from croupier.primitives.chance import RandomSource, SystemRandom
from croupier.roulette import RouletteTable
from croupier.sicbo import SicBoTable
from croupier.sicbo.rules import TOTALS
from croupier.wagering import WagerRound

NAMES = ("ana", "bo", "cy", "dee", "eli", "fay", "gus")
CHIPS = (10, 20, 50, 100)


def _pick(rng: RandomSource, items: tuple[Any, ...] | list[Any]) -> Any:
    return items[rng.randbelow(len(items))]


def random_roulette_bet(rng: RandomSource, nine_blocks: tuple[frozenset[int], ...]) -> dict[str, Any]:
    """A random legal roulette bet: type and placement."""
    kind = _pick(rng, ("straight", "split", "street", "corner", "six_line", "nine", "twelve_special",
                       "column", "dozen", "low", "high", "odd", "even", "red", "black"))  # fmt: skip
    pools: dict[str, Any] = {
        "split": sorted(wheel.SPLITS, key=sorted),
        "street": sorted(wheel.STREETS, key=sorted),
        "corner": sorted(wheel.CORNERS, key=sorted),
        "six_line": sorted(wheel.SIX_LINES, key=sorted),
        "nine": list(nine_blocks),
    }
    if kind == "straight":
        return {"bet_type": kind, "numbers": [rng.randbelow(37)]}
    if kind in pools:
        return {"bet_type": kind, "numbers": sorted(_pick(rng, pools[kind]))}
    if kind == "twelve_special":
        return {"bet_type": kind, "index": 1 + rng.randbelow(2)}
    if kind in ("column", "dozen"):
        return {"bet_type": kind, "index": 1 + rng.randbelow(3)}
    return {"bet_type": kind}


def random_sicbo_bet(rng: RandomSource) -> dict[str, Any]:
    """A random legal sic bo bet: type and face/total."""
    kind = _pick(rng, ("small", "big", "single", "triple", "any_triple", "total"))
    if kind in ("single", "triple"):
        return {"bet_type": kind, "face": 1 + rng.randbelow(6)}
    if kind == "total":
        return {"bet_type": kind, "total": _pick(rng, TOTALS)}
    return {"bet_type": kind}


def _summary(title: str, totals: dict[str, int], wagered: int) -> Table:
    table = Table(title=title, min_width=len(title) + 12)
    table.add_column("player")
    table.add_column("net", justify="right")
    for player, amount in totals.items():
        table.add_row(player, f"{amount:+d}")
    house = -sum(totals.values())
    table.add_row("[bold]house[/bold]", f"[bold]{house:+d}[/bold]")
    table.caption = f"wagered {wagered}; nets sum to zero"
    return table


def _session(
    console: Console,
    title: str,
    seated: tuple[str, ...],
    rounds: int,
    *,
    play_round: Callable[[], WagerRound[Any, Any]],
    describe: Callable[[int, Any], str],
) -> None:
    """Play ``rounds`` rounds, printing each settlement, then the session's nets."""
    totals: dict[str, int] = dict.fromkeys(seated, 0)
    wagered = 0
    for n in range(1, rounds + 1):
        s = play_round().settlement
        assert s is not None
        console.print(settlement_table(describe(n, s.outcome), s))
        for player, amount in s.players().items():
            totals[player] += amount
        wagered += s.wagered
    console.print(_summary(title, totals, wagered))


def blackjack_session(
    console: Console, seated: tuple[str, ...], rounds: int, choices: RandomSource, outcomes: RandomSource
) -> None:
    """A few rounds of blackjack: one box per player, the first box with a back bettor, side bets now and
    then, simple basic-strategy-like play; each round's hands and every bet's net with its rule."""
    rules = replace(PRESETS["macau-typical"], side_bets_offered=frozenset({SideBet.ANY_PAIR, SideBet.PERFECT_PAIRS}))
    table = BlackjackTable(rules, outcomes)
    totals: dict[str, int] = {}
    for n in range(1, rounds + 1):
        rnd = table.open_round()
        for box, player in enumerate(seated, start=1):
            side = {_pick(choices, ("any_pair", "perfect_pairs")): 10} if choices.randbelow(3) == 0 else {}
            rnd.place_bet(box, player, main=_pick(choices, CHIPS), side=side)
            rnd.seat(box, player)
        if len(seated) > 1:
            rnd.place_bet(1, seated[-1], main=10)  # a back bettor on the first box (BJ 20)
        rnd.close_betting()
        while (q := rnd.pending) is not None:
            rnd.act(answer(rnd, q))
        s = rnd.settlement
        assert s is not None
        dealer = " ".join(c.pretty() for c in s.dealer_cards)
        title = f"Round {n}: dealer {dealer} = {s.dealer_total}{' blackjack' if s.dealer_blackjack else ''}"
        table_out = Table(title=title)
        for col in ("box", "hands", "player", "bet", "net", "rule"):
            table_out.add_column(col, justify="right" if col == "net" else "left")
        for box_out in s.boxes:
            hands = "; ".join(f"{' '.join(c.pretty() for c in h.cards)} {h.total} {h.status}" for h in box_out.hands)
            for o in (o for o in s.outcomes if o.box == box_out.box):
                colour = "green" if o.net > 0 else ("red" if o.net < 0 else "white")
                table_out.add_row(str(o.box), hands, o.player, o.kind, f"[{colour}]{o.net:+d}[/{colour}]", o.rule)
                hands = ""
        console.print(table_out)
        for player, amount in s.players().items():
            totals[player] = totals.get(player, 0) + amount
    console.print(_summary("Blackjack session", totals, sum(o.stake for h in table.history for o in h.outcomes)))


def run_demo(console: Console, *, rounds: int = 5, players: int = 4, seed: int | None = None) -> None:
    """Play ``rounds`` rounds at each table with ``players`` simulated players and print everything."""
    outcomes = SystemRandom()
    choices: RandomSource
    if seed is None:
        choices = SystemRandom()
    else:
        from croupier.primitives.pcg import SeededRandom

        choices = SeededRandom(seed)
    seated = NAMES[: max(1, min(players, len(NAMES)))]
    bets_each = 2

    console.rule("[bold]Roulette[/bold] — Despacho 30/2003, single-zero wheel, strong RNG")
    roulette = RouletteTable(source=outcomes)

    def roulette_round() -> WagerRound[Any, Any]:
        rnd = roulette.open_round()
        for player in seated:
            for _ in range(bets_each):
                bet = random_roulette_bet(choices, roulette.rules.nine_number_blocks)
                rnd.place_bet(player, amount=_pick(choices, CHIPS), **bet)
        rnd.close_betting()
        rnd.spin()
        return rnd

    def spin_title(n: int, pocket: int) -> str:
        return f"Spin {n}: [bold]{pocket}[/bold] {wheel.colour(pocket).value}"

    _session(console, "Roulette session", seated, rounds, play_round=roulette_round, describe=spin_title)

    console.rule("[bold]Sic Bo[/bold] — Despacho 31/2003, three dice, strong RNG")
    sicbo = SicBoTable(source=outcomes)

    def sicbo_round() -> WagerRound[Any, Any]:
        rnd = sicbo.open_round()
        for player in seated:
            for _ in range(bets_each):
                rnd.place_bet(player, amount=_pick(choices, CHIPS), **random_sicbo_bet(choices))
        rnd.close_betting()
        rnd.roll()
        return rnd

    def roll_title(n: int, dice: tuple[int, int, int]) -> str:
        return f"Roll {n}: [bold]{' '.join(map(str, dice))}[/bold] (total {sum(dice)})"

    _session(console, "Sic bo session", seated, rounds, play_round=sicbo_round, describe=roll_title)

    console.rule("[bold]Blackjack[/bold] — Despacho 57/2009, macau-typical rules, strong-RNG shoe")
    blackjack_session(console, seated, rounds, choices, outcomes)

    console.rule("[bold]Exact odds[/bold] (croupier odds roulette|sicbo)")
    console.print(odds_rich_table("Roulette: exact odds per unit staked", roulette_odds(roulette.rules)))
    console.print(odds_rich_table("Sic Bo: exact odds per unit staked", sicbo_odds(sicbo.rules)))
    try:
        from croupier.analysis.blackjack_math import edge_report
    except ModuleNotFoundError:  # the engine alone, without the math extra
        return
    from croupier.blackjack.rules import MACAU_TYPICAL
    from croupier.display import edge_rich_tables

    console.rule("[bold]Blackjack's exact house edge[/bold] (croupier edge blackjack --preset macau --side-bets)")
    for table in edge_rich_tables(edge_report(MACAU_TYPICAL, side_bets=True)):
        console.print(table)
