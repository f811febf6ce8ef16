"""``croupier replay --explain``: a played round as a readable transcript, the rule id behind every step."""

from __future__ import annotations

from typing import Any

from croupier.blackjack import operations as bj
from croupier.blackjack.hand import best_total, is_ace_six
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import BustedStakes, DealerSoft17
from croupier.primitives.cards import Card
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
    odds_rule = "RO 7" if roulette else "SB 6"
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
                if roulette:
                    lines.append(f"Losing bets collected first: {lost}, {op.amount} in all (RO 5.1)")
                else:  # SB 5 says what wins; the statute sets no order of collection and payment
                    lines.append(f"Losing bets collected: {lost}, {op.amount} in all (SB 5)")
                triple = (
                    isinstance(rnd, SicBoRound)
                    and rnd.dice is not None
                    and is_triple(rnd.dice)
                    and any(placed[i].type in (SicBoBetType.SMALL, SicBoBetType.BIG) for i in op.indexes)
                )
                if triple:
                    lines.append("  (a triple makes every small and big bet lose, SB 7)")
            else:
                lines.append(f"No losing bets to collect ({'RO 5.1' if roulette else 'SB 5'})")
        elif isinstance(op, WinningBetPaid):
            bet = placed[op.index]
            order = "RO 5.1 order, " if roulette else ""
            lines.append(f"Paid #{op.index}: {bet.player} +{op.winnings} on {bet.placement} ({order}{odds_rule})")
    if rnd.settlement is not None:
        if not roulette and rnd.settlement.payment_order:
            lines.append("Every winning bet is paid before the dome is covered again (SB 4)")
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

_DECLINED = {
    "insurance": ("insurance", "BJ 12.1"),
    "even_money": ("even money", "BJ 10.3"),
    "follow": ("to follow the {move}", "BJ 20.1"),
    "any_pair": ("new Any Pair stakes on the split hands", "BJ 13.1"),
}
"""What a ``decline`` refuses, by the question asked (``Answered.question``), and the rule of that offer."""


def _blackjack(rnd: BlackjackRound) -> list[str]:
    lines: list[str] = []
    dealer: list[Card] = []
    moves: dict[int, str] = {}  # each box's last double or split: what a follower declines
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
                if len(dealer) >= 2:
                    lines.append(f"Dealer draws {op.card} {_why_draw(rnd, dealer)}")
                else:
                    what = "Dealer's up card" if not dealer else "Dealer's second card"
                    shown = op.card if op.face_up else "(the hole card)"
                    lines.append(f"{what} {shown}{face} (BJ 5.2)")
                dealer.append(op.card)
            else:
                rule = "BJ 5.1" if op.face_up else "BJ 5.1, BJ 5.2 procedure 1"
                lines.append(f"Box {op.box} hand {op.hand} gets {op.card}{face} ({rule})")
        elif isinstance(op, bj.Answered):
            amount = f" {op.amount}" if op.action == "insurance" else ""
            where = f"box {op.box}" + (f" hand {op.hand}" if op.hand is not None else "")
            if op.action in ("double", "split"):
                moves[op.box] = op.action
            if op.action == "decline" and op.question in _DECLINED:
                what, rule = _DECLINED[op.question]
                what = what.format(move=moves.get(op.box, "double or split"))
                lines.append(f"{op.player} answers decline, refusing {what}, for {where} ({rule})")
            else:
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
            if op.rule == "BJ 6.1" and op.card in dealer[1:]:
                dealer.remove(op.card)  # a card the dealer drew wrongly leaves the dealer's hand
            lines.append(f"Card {op.card} void and removed ({op.rule})")
        elif isinstance(op, bj.RoundVoided):
            lines.append(f"Round void, every bet returned: {op.reason} (BJ 5.1.2)")
    s = rnd.settlement
    if s is None:
        return lines
    if not s.void:
        lines.append(_why_dealer_stopped(rnd, s))
        bj_note = ", blackjack" if s.dealer_blackjack else (", bust" if s.dealer_total > 21 else "")
        cards = " ".join(map(str, s.dealer_cards))
        lines.append(f"Dealer: {cards}, total {s.dealer_total}{bj_note} (BJ 7.1)")
        for b in s.boxes:
            for i, h in enumerate(b.hands):
                cards = " ".join(map(str, h.cards))
                lines.append(f"Box {b.box} hand {i}: {cards}, total {h.total}, {h.status}")
    for o in s.outcomes:
        status = f" [{o.status}]" if o.status else ""
        line = f"Settled: box {o.box} {o.player} {o.kind} {o.stake} → {o.net:+d}{status} ({o.rule})"
        if o.kind == "main" and s.dealer_blackjack and o.rule in ("BJ 10.7", "BJ 16.6", "BJ 17.3"):
            line += _original_bet_only(rnd, o)
        lines.append(line)
    nets = ", ".join(f"{p} {n:+d}" for p, n in s.players().items())
    lines.append(f"Result: {nets}; house {s.house_net:+d}")
    return lines


def _why_draw(rnd: BlackjackRound, dealer: list[Card]) -> str:
    """Why the dealer draws on ``dealer`` (the cards before the draw): BJ 6.1 and the soft 17 option (BJ 6.6)."""
    total, soft = best_total(dealer)
    if total < 17:
        return f"on {'soft ' if soft else ''}{total}: the dealer draws on 16 or less (BJ 6.1)"
    rule = rnd.rules.dealer_soft_17
    if rule is DealerSoft17.HIT_ACE_SIX:
        return "on an ace and a six, the soft 17 the dealer draws on (dealer_soft_17 = hit_ace_six, BJ 6.1, BJ 6.6)"
    return f"on soft {total}: the dealer draws on every soft 17 (dealer_soft_17 = {rule.value}, BJ 6.1, BJ 6.6)"


def _why_dealer_stopped(rnd: BlackjackRound, s: bj.BlackjackSettlement) -> str:
    """Why the dealer's hand ends where it does (BJ 5.2, BJ 6.1, BJ 6.6; SCENARIOS.md "Dealer" step)."""
    cards = list(s.dealer_cards)
    if len(cards) < 2:
        return (
            "The dealer takes no second card: no main stake or insurance is left to settle against it (a bust "
            "loses at once, BJ 7.2; a surrender, even money, the five-card payment and the special bonus are paid "
            "at once) (BJ 5.2)"
        )
    if s.dealer_blackjack:
        return "The dealer has blackjack and takes no more cards (BJ 10.1)"
    standing = any(h.status in ("stood", "doubled") for b in s.boxes for h in b.hands)
    if not standing:
        return (
            f"The dealer does not draw on {s.dealer_total}: no hand is left standing to play against (a bust "
            "loses even if the dealer busts, BJ 7.2) (BJ 6.1)"
        )
    total, soft = best_total(cards)
    if total > 21:
        return f"The dealer busts with {total}: every hand still standing wins (BJ 6.1, BJ 9)"
    if total == 17 and soft:
        rule = rnd.rules.dealer_soft_17
        if rule is DealerSoft17.STAND:
            return "The dealer stands on soft 17 (dealer_soft_17 = stand, BJ 6.1)"
        if rule is DealerSoft17.HIT_ACE_SIX and not is_ace_six(cards):
            return (
                "The dealer stands on soft 17: it holds no two-card ace and six, the only soft 17 the dealer draws "
                "on (dealer_soft_17 = hit_ace_six, BJ 6.1, BJ 6.6)"
            )
    return f"The dealer stands on {'soft ' if soft else ''}{total}: 17 or more (BJ 6.1)"


def _original_bet_only(rnd: BlackjackRound, o: bj.BetOutcome) -> str:
    """ "Original bet only" spelled out: the bettor's stakes on the box, what is kept, lost and returned."""
    box = rnd.boxes[o.box]
    p = o.player
    mine = [(i, h) for i, h in enumerate(box.hands) if p in h.stakes]
    kept = [(i, h) for i, h in mine if h.early_net.get(p, 0) > 0]
    rest = [(i, h) for i, h in mine if h.early_net.get(p, 0) <= 0]
    kept_net = sum(h.early_net[p] for _, h in kept)
    parts = []
    if rest:
        stakes = ", ".join(
            f"{h.stakes[p]} on hand {i}" + (" (doubled)" if h.doubled else "") + (" (bust)" if h.is_bust else "")
            for i, h in rest
        )
        lost = kept_net - o.net
        returned = sum(h.stakes[p] for _, h in rest) - lost
        what = "the original bet"
        if rnd.rules.busted_stakes_on_dealer_blackjack is BustedStakes.LOST and lost != o.stake:
            what = "the busted stakes (more than the original bet)"
        parts.append(f"of {p}'s stakes {stakes}, {what} {lost} is lost once and {returned} is returned")
    if kept:
        wins = ", ".join(f"+{h.early_net[p]} on hand {i} ({h.status})" for i, h in kept)
        parts.append(f"the wins already paid stand: {wins}")
    return "; original bet only: " + "; ".join(parts)
