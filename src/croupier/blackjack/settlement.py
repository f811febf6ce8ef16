"""Settlement of a blackjack box: the summary table and "Original bet only" of RULES.md, the side bets
(BJ 13-14) and the streak bets (BJ 13.5). Pure functions over a box's hands and the dealer's result."""

from __future__ import annotations

from fractions import Fraction

from croupier.blackjack import sidebets
from croupier.blackjack.box import Box
from croupier.blackjack.hand import HandStatus
from croupier.blackjack.operations import BetOutcome, StreakBet
from croupier.blackjack.rules import BlackjackRules, BustedStakes, DoubleOn, SevensThirdCard

# The statute's fixed payouts, as odds to 1 (what the page's paytable shows; the settlement below pays them).
MAIN_PAYS = Fraction(1)  # BJ 9
BLACKJACK_PAYS = Fraction(3, 2)  # BJ 10.2
INSURANCE_PAYS = Fraction(2)  # BJ 12
SPECIAL_BONUS_PAYS = Fraction(3)  # BJ 15
FIVE_CARD_PAYS = Fraction(1, 2)  # BJ 19.1


def paid(stake: int, odds: Fraction) -> int:
    """A winning ``stake``'s payment at ``odds`` to 1, rounded down to a whole unit."""
    return stake * odds.numerator // odds.denominator


def pay(stake: int, odds: Fraction | None) -> int:
    """The net of a stake at ``odds`` (to 1), or −stake for a loss; fractions of a unit are not paid."""
    if odds is None:
        return -stake
    won = stake * odds
    return won.numerator // won.denominator


def original_bet_only(rules: BlackjackRules, b: Box) -> bool:
    """BJ 10.7, 16.6, 17.3: a box that split, or doubled under 17.1 (1)/(2) or with the BJ 10.7 option."""
    return b.did_split or (b.did_double and (rules.double_on is DoubleOn.ANY_TWO or rules.lose_original_only_on_double))


_BJ = 2
"""A hand's verdict in :func:`main_results`: a blackjack (its payment depends on the dealer's)."""


def main_results(
    rules: BlackjackRules, b: Box, dealer_total: int, dealer_bj: bool, dealer_bust: bool
) -> dict[str, tuple[int, str, str]]:
    """Every main bettor's result on the box, by bettor: (net, result for the streak, rule id).

    The summary table of RULES.md per hand, then "Original bet only" per bettor; the result is win, loss or
    push as BJ 13.5.5 and 16.7 count it (a surrender loses, BJ 18.3).
    """
    hands = b.hands
    verdicts: list[int] = []  # per hand, a plain stake's fate: 1 win, 0 push, -1 loss, or _BJ
    bonus = False
    for h in hands:
        hard = h.hard
        if hard > 21:
            verdicts.append(-1)  # BJ 7.2: a bust loses even if the dealer busts
        elif hard == 11 and h.aces == 1 and len(h.cards) == 2 and not h.from_split:
            verdicts.append(_BJ)  # BJ 10.1, 10.6: never on a split hand
        elif dealer_bj:
            verdicts.append(-1)  # BJ 10.6
        else:
            total = hard + 10 if h.aces and hard <= 11 else hard
            verdicts.append(1 if dealer_bust or total > dealer_total else (-1 if total < dealer_total else 0))
        bonus = bonus or h.status is HandStatus.SPECIAL_BONUS
    obo = dealer_bj and original_bet_only(rules, b)
    # The rule behind the box's settlement (main_rule, with what is known here).
    if b.surrendered:
        rule = "BJ 18.1"
    elif dealer_bj and (b.did_split or b.did_double):
        rule = main_rule(rules, b, dealer_bj)
    elif len(hands) == 1 and verdicts[0] == _BJ:
        rule = "BJ 10.2"
    else:
        rule = "BJ 15" if bonus else "BJ 9"
    out: dict[str, tuple[int, str, str]] = {}
    for bettor in b.bettors.values():
        if bettor.main <= 0:
            continue
        p = bettor.player
        won = lost = net = 0
        for h, verdict in zip(hands, verdicts):  # noqa: B905 - one verdict per hand, made above
            stake = h.stakes.get(p)
            if stake is None:
                continue
            early = h.early_net
            if early and p in early:
                n = early[p]  # surrender, special bonus, five cards, even money: paid at once
            elif verdict == _BJ:
                n = 0 if dealer_bj else paid(stake, BLACKJACK_PAYS)  # BJ 10.2, 10.5, 11
            else:
                n = verdict * stake  # BJ 7.2, 9, 10.6, 11
            net += n
            if n > 0:
                won += 1
            elif n < 0:
                lost += 1
        if obo:
            net = _original_bet_only(rules, b, p)
        # BJ 18.3: a surrender loses the streak; otherwise BJ 13.5.5 counts the hands won and lost.
        result = "loss" if b.surrendered else ("win" if won > lost else ("loss" if lost > won else "push"))
        out[p] = (net, result, "BJ 10.3" if bettor.even_money else rule)
    return out


def _original_bet_only(rules: BlackjackRules, b: Box, p: str) -> int:
    """ "Original bet only" against a dealer blackjack: wins already paid stand; otherwise the original bet is
    lost once (with ``busted_stakes_on_dealer_blackjack = lost``: the larger of it and the busted stakes)."""
    mine = [h for h in b.hands if p in h.stakes]
    kept = sum(h.early_net[p] for h in mine if h.early_net.get(p, 0) > 0)
    rest = [h for h in mine if h.early_net.get(p, 0) <= 0]
    if not rest:
        return kept
    original = b.bettors[p].main
    if rules.busted_stakes_on_dealer_blackjack is BustedStakes.LOST:
        busted = sum(h.stakes[p] for h in rest if h.is_bust)
        return kept - max(busted, original)
    return kept - original


def main_rule(rules: BlackjackRules, b: Box, dealer_bj: bool) -> str:
    """The rule id behind a box's main-bet settlement (a bettor's even money is BJ 10.3, see
    :func:`main_results`)."""
    if b.surrendered:
        return "BJ 18.1"
    if dealer_bj and (b.did_split or b.did_double):
        if b.did_split:
            return "BJ 16.6"
        return "BJ 17.3" if rules.double_on is DoubleOn.ANY_TWO else "BJ 10.7"
    if b.is_blackjack:
        return "BJ 10.2"
    for h in b.hands:
        if h.status is HandStatus.SPECIAL_BONUS:
            return "BJ 15"
    return "BJ 9"


def side_outcome(rules: BlackjackRules, b: Box, p: str, key: str, stake: int) -> BetOutcome:
    """A side bet on the box's first two cards (and, for Sevens, its third card as the table reads it)."""
    two = b.first_two
    odds: Fraction | None
    if key == "any_pair":
        odds, rule = sidebets.any_pair(rules, two), "BJ 13.1"
    elif key == "perfect_pairs":
        odds, rule = sidebets.perfect_pairs(rules, two), "BJ 13.4"
    elif key in ("over_13", "under_13"):
        odds, rule = sidebets.over_under(rules, two, key), "BJ 13.3"
    else:
        third = b.third_card
        if rules.sevens_third_card is SevensThirdCard.AFTER_SPLIT and not b.third_after_split:
            third = None
        odds, rule = sidebets.sevens(rules, two, third), "BJ 13.2"
    return BetOutcome(b.number, p, key, stake, pay(stake, odds), rule)


def streak_step(rules: BlackjackRules, s: StreakBet, result: str) -> tuple[BetOutcome, StreakBet | None]:
    """BJ 13.5: a win moves the bet on (and wins it at its level), a push keeps it, a loss loses it."""
    kind = f"streak_{s.level}"
    if result == "loss":
        return BetOutcome(s.box, s.player, kind, s.stake, -s.stake, "BJ 13.5.1", "lost"), None
    if result == "push":
        return BetOutcome(s.box, s.player, kind, s.stake, 0, "BJ 13.5.2", "open"), s
    wins = s.wins + 1
    if wins >= s.level:
        net = pay(s.stake, rules.paytables.streak_odds(s.level))
        return BetOutcome(s.box, s.player, kind, s.stake, net, "BJ 14.5", "won"), None
    return (
        BetOutcome(s.box, s.player, kind, s.stake, 0, "BJ 13.5.3", "open"),
        StreakBet(s.box, s.player, s.level, s.stake, wins),
    )
