"""``croupier replay --explain``: a played round as a readable transcript, the rule id behind every step."""

from __future__ import annotations

from typing import Any

from croupier.blackjack import operations as bj
from croupier.blackjack.round import BlackjackRound
from croupier.primitives.dice import is_triple
from croupier.primitives.wheel import colour
from croupier.roulette.round import BallLanded, RouletteRound, SpinVoided
from croupier.sicbo.bets import BetType as SicBoBetType
from croupier.sicbo.round import DiceRolled, RollVoided, SicBoRound
from croupier.wagering import BetPlaced, BettingClosed, BetWithdrawn, LosingBetsCollected, WinningBetPaid


def transcript(rnd: Any) -> list[str]:
    """The steps of a finished round, one line each, ending with the money."""
    if isinstance(rnd, BlackjackRound):
        return _blackjack(rnd)
    if isinstance(rnd, RouletteRound | SicBoRound):
        return _wager(rnd)
    raise TypeError(f"no transcript for {type(rnd).__name__}")


def _wager(rnd: RouletteRound | SicBoRound) -> list[str]:
    roulette = isinstance(rnd, RouletteRound)
    bet_rule, bell_rule = ("RO 6", "RO 3") if roulette else ("SB 5", "SB 3.1")
    pay_rule, odds_rule = ("RO 5.1", "RO 7") if roulette else ("SB 4", "SB 6")
    placed: dict[int, Any] = {}
    lines: list[str] = []
    for op in rnd.operations:
        if isinstance(op, BetPlaced):
            placed[op.index] = op.bet
            late = " after a void roll (SB 3.3)" if op.late else ""
            lines.append(f"Bet #{op.index}: {op.bet.player} {op.bet.amount} on {op.bet.placement}{late} ({bet_rule})")
        elif isinstance(op, BetWithdrawn):
            lines.append(f"Bet #{op.index} withdrawn before the bell ({bell_rule})")
        elif isinstance(op, BettingClosed):
            lines.append(f"The bell: betting closes ({bell_rule})")
        elif isinstance(op, SpinVoided):
            start = "" if op.restart_pocket is None else f"; the ball restarts from pocket {op.restart_pocket}"
            lines.append(f"Spin declared void: every bet stands{start} (RO 2.2)")
        elif isinstance(op, BallLanded):
            lines.append(f"The ball rests in {op.pocket} {colour(op.pocket).value} (RO 4)")
        elif isinstance(op, RollVoided):
            lines.append("Roll declared void: placed bets stand and may not be withdrawn; new bets are taken (SB 3.3)")
        elif isinstance(op, DiceRolled):
            lines.append(f"Dice {' '.join(map(str, op.dice))}, total {sum(op.dice)} (SB 3.2)")
        elif isinstance(op, LosingBetsCollected):
            if op.indexes:
                lost = ", ".join(f"#{i}" for i in op.indexes)
                lines.append(f"Losing bets collected first: {lost}, {op.amount} in all ({pay_rule})")
                triple = (
                    isinstance(rnd, SicBoRound)
                    and rnd.dice is not None
                    and is_triple(rnd.dice)
                    and any(placed[i].type in (SicBoBetType.SMALL, SicBoBetType.BIG) for i in op.indexes)
                )
                if triple:
                    lines.append("  (a triple makes every small and big bet lose, SB 7)")
            else:
                lines.append(f"No losing bets to collect ({pay_rule})")
        elif isinstance(op, WinningBetPaid):
            bet = placed[op.index]
            lines.append(
                f"Paid #{op.index}: {bet.player} +{op.winnings} on {bet.placement} ({pay_rule} order, {odds_rule})"
            )
    if rnd.settlement is not None:
        nets = ", ".join(f"{p} {n:+d}" for p, n in rnd.settlement.players().items())
        lines.append(f"Result: {nets}; house {rnd.settlement.house_net:+d}")
    return lines


_ANSWER_RULES = {
    "hit": "BJ 6.4",
    "stand": "BJ 6.5",
    "double": "BJ 17.1",
    "split": "BJ 16.1",
    "surrender": "BJ 18.1",
    "claim_five_card": "BJ 19.1",
    "insurance": "BJ 12.1",
    "even_money": "BJ 10.3",
    "follow": "BJ 20.1",
    "any_pair": "BJ 13.1",
}


def _blackjack(rnd: BlackjackRound) -> list[str]:
    lines: list[str] = []
    dealer_cards = 0
    for op in rnd.operations:
        if isinstance(op, bj.BetPlaced):
            parts = [f"main {op.main}"] if op.main else []
            parts += [f"{k} {v}" for k, v in op.side]
            parts += [f"streak {level} wins {v}" for level, v in op.streak]
            lines.append(f"{op.player} bets {', '.join(parts)} on box {op.box} (BJ 3, BJ 13)")
        elif isinstance(op, bj.BettingClosed):
            lines.append("Betting closed; the deal begins from the dealer's left (BJ 5.1)")
        elif isinstance(op, bj.Shuffled):
            if op.discards:
                lines.append("The shoe ran out: the discards are shuffled and dealing goes on (BJ 2.2)")
            else:
                lines.append(f"A freshly shuffled shoe of {rnd.rules.decks} deck(s) (BJ 2.2)")
        elif isinstance(op, bj.Burned):
            lines.append(f"Burned {op.card} ({op.rule})")
        elif isinstance(op, bj.Dealt):
            face = "" if op.face_up else ", face down"
            if op.box is None:
                dealer_cards += 1
                what = {1: "Dealer's up card", 2: "Dealer's second card"}.get(dealer_cards, "Dealer draws")
                rule = "BJ 6.1" if dealer_cards > 2 else "BJ 5.2"
                shown = op.card if op.face_up else "(the hole card)"
                lines.append(f"{what} {shown}{face} ({rule})")
            else:
                rule = "BJ 5.1" if op.face_up else "BJ 5.1, BJ 5.2 procedure 1"
                lines.append(f"Box {op.box} hand {op.hand} gets {op.card}{face} ({rule})")
        elif isinstance(op, bj.Answered):
            amount = f" {op.amount}" if op.action == "insurance" else ""
            where = f"box {op.box}" + (f" hand {op.hand}" if op.hand is not None else "")
            rule = _ANSWER_RULES.get(op.action, "BJ 6.5")
            lines.append(f"{op.player} answers {op.action}{amount} for {where} ({rule})")
        elif isinstance(op, bj.Paid):
            lines.append(f"Paid at once: {op.player} {op.net:+d} on box {op.box} hand {op.hand}, {op.kind} ({op.rule})")
        elif isinstance(op, bj.Peeked):
            found = "a blackjack: the round ends" if op.blackjack else "no blackjack"
            lines.append(f"The dealer peeks at the hole card: {found} (BJ 5.2)")
        elif isinstance(op, bj.HoleCardTurned):
            lines.append(f"The hole card is turned: {op.card} (BJ 7.1)")
        elif isinstance(op, bj.CardVoided):
            lines.append(f"Card {op.card} void and removed ({op.rule})")
        elif isinstance(op, bj.RoundVoided):
            lines.append(f"Round void, every bet returned: {op.reason} (BJ 5.1.2)")
    s = rnd.settlement
    if s is None:
        return lines
    if not s.void:
        bj_note = ", blackjack" if s.dealer_blackjack else (", bust" if s.dealer_total > 21 else "")
        cards = " ".join(map(str, s.dealer_cards))
        lines.append(f"Dealer: {cards}, total {s.dealer_total}{bj_note} (BJ 7.1)")
        for b in s.boxes:
            for i, h in enumerate(b.hands):
                cards = " ".join(map(str, h.cards))
                lines.append(f"Box {b.box} hand {i}: {cards}, total {h.total}, {h.status}")
    for o in s.outcomes:
        status = f" [{o.status}]" if o.status else ""
        lines.append(f"Settled: box {o.box} {o.player} {o.kind} {o.stake} → {o.net:+d}{status} ({o.rule})")
    nets = ", ".join(f"{p} {n:+d}" for p, n in s.players().items())
    lines.append(f"Result: {nets}; house {s.house_net:+d}")
    return lines
