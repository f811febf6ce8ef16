"""One hand's exact decision values (issue 4's second building block), checked by brute force: every
ordering of a small shoe, the hole card first (exchangeability), with and without the dealer's peek."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest

from croupier.analysis.dealer import decks, remove
from croupier.analysis.hand_ev import (
    HandAnalyser,
    HandTerms,
    even_money_values,
    insurance_value,
    special_bonus_shares,
)
from croupier.blackjack.rules import DealerSoft17, load
from croupier.blackjack.sidebets import special_bonus
from croupier.errors import InvalidRules
from croupier.primitives.cards import Card, parse_card


def total_of(cards: list[int]) -> tuple[int, bool]:
    hard = sum(cards)
    soft = 1 in cards and hard <= 11
    return (hard + 10 if soft else hard), soft


def dealer_draw(up: int, hole: int, rest: list[int], rule: DealerSoft17) -> tuple[int, bool]:
    """(final total, blackjack) of the dealer drawing from ``rest`` in order."""
    hand = [up, hole]
    if sorted(hand) == [1, 10]:
        return 21, True
    for card in rest:
        total, soft = total_of(hand)
        ace_six = len(hand) == 2 and sorted(hand) == [1, 6]
        if not (
            total < 17
            or (
                total == 17
                and soft
                and (rule is DealerSoft17.HIT_ALL or (rule is DealerSoft17.HIT_ACE_SIX and ace_six))
            )
        ):
            break
        hand.append(card)
    return total_of(hand)[0], False


def hand_net(mine: int, dealer: int, dealer_blackjack: bool, stake: int) -> int:
    """A hand's net against the dealer's final hand: a dealer blackjack takes one unit (a stood hand's stake;
    only the original of a double, BJ 17.3), a bust loses the stake, then totals compare (BJ 9)."""
    if dealer_blackjack:
        return -1
    if mine > 21:
        return -stake
    if dealer > 21 or mine > dealer:
        return stake
    return -stake if mine < dealer else 0


def brute(  # noqa: PLR0917 - the brute force mirrors HandTerms
    shoe: list[int], up: int, player: list[int], peeked: bool, rule: DealerSoft17, policy, double: bool = False
) -> float:
    total_value = 0.0
    count = 0
    for order in permutations(shoe):
        hole, rest = order[0], list(order[1:])
        if peeked and sorted([up, hole]) == [1, 10]:
            continue
        hand = list(player)
        i = 0
        if double:
            hand.append(rest[0])
            i = 1
        else:
            while True:
                t, s = total_of(hand)
                if t >= 21 or i >= len(rest) or policy(t, s, len(hand)) != "hit":
                    break
                hand.append(rest[i])
                i += 1
        stake = 2 if double else 1
        mine, _ = total_of(hand)
        dealer, bj = dealer_draw(up, hole, rest[i:], rule)
        total_value += hand_net(mine, dealer, bj, stake)
        count += 1
    return total_value / count


def hit_below(n: int):
    return lambda total, soft, cards: "hit" if total < n else "stand"


SHOES = [[10, 10, 5, 2, 1, 9], [3, 10, 1, 7, 4, 8], [10, 1, 10, 6, 2, 5]]


@pytest.mark.parametrize("shoe", SHOES)
@pytest.mark.parametrize(("up", "peeked"), [(1, False), (1, True), (10, True), (10, False), (6, False)])
@pytest.mark.parametrize("player", [[10, 4], [1, 5], [9, 2]])
@pytest.mark.parametrize("rule", [DealerSoft17.HIT_ACE_SIX, DealerSoft17.HIT_ALL], ids=["hit_ace_six", "hit_all"])
def test_fixed_policies_and_doubles_equal_brute_force(
    shoe: list[int], up: int, peeked: bool, player: list[int], rule: DealerSoft17
) -> None:
    a = HandAnalyser(HandTerms(up=up, peeked=peeked, soft17=rule, five_card=False))
    comp = [shoe.count(v) for v in range(1, 11)]
    hard, soft = sum(player), 1 in player
    for n in (12, 15, 17):
        got = a.play(comp, hard, soft, 2, hit_below(n))
        assert got == pytest.approx(brute(shoe, up, player, peeked, rule, hit_below(n)), abs=1e-12)
    assert a.double(comp, hard, soft) == pytest.approx(
        brute(shoe, up, player, peeked, rule, None, double=True), abs=1e-12
    )
    best = a.best(comp, hard, soft, 2)
    assert all(best >= a.play(comp, hard, soft, 2, hit_below(n)) - 1e-12 for n in range(12, 22))


def test_decisions_on_a_six_deck_shoe() -> None:
    rules = load({"decks": 6, "procedure": 3})
    comp = remove(remove(remove(decks(6), 10), 10), 6)  # player T-6 against a ten
    values = HandAnalyser(HandTerms.of(rules, 10)).decisions(comp, [10, 6])
    assert set(values) == {"stand", "hit", "double", "surrender"}
    # 16 against a peeked ten: surrendering (−0.5) beats both standing and hitting.
    assert values["surrender"] > max(values["stand"], values["hit"])
    assert -0.6 < values["stand"] < -0.5 and -0.6 < values["hit"] < -0.5
    eleven = HandAnalyser(HandTerms.of(rules, 6)).decisions(remove(remove(remove(decks(6), 6), 6), 5), [6, 5])
    assert eleven["double"] == max(eleven.values()) and eleven["double"] > 0.6


def test_double_on_eleven_only_and_bad_input() -> None:
    rules = load({"double_on": "eleven", "surrender": False})
    a = HandAnalyser(HandTerms.of(rules, 9))
    comp = remove(remove(remove(decks(1), 9), 10), 6)
    assert set(a.decisions(comp, [10, 6])) == {"stand", "hit"}
    with pytest.raises(InvalidRules):
        a.decisions(comp, [10])
    with pytest.raises(InvalidRules):
        HandAnalyser(HandTerms(up=0, peeked=False))


def brute_bonus(shoe: list[Card], up: int, player: list[Card], hits: int, double: bool) -> float:
    """Every ordering of a small suited shoe, hole card first: hit ``hits`` times (or double); a third card
    completing the special bonus (BJ 15) pays 3 times the stake at once."""
    total_value = 0.0
    count = 0
    for order in permutations(shoe):
        hole, rest = order[0].value, list(order[1:])
        hand = list(player)
        i = 0
        for _ in range(1 if double else hits):
            if total_of([c.value for c in hand])[0] >= 21:
                break
            hand.append(rest[i])
            i += 1
        stake = 2 if double else 1
        count += 1
        if len(hand) >= 3 and special_bonus(hand[:3]):
            total_value += 3 * stake
            continue
        mine, _ = total_of([c.value for c in hand])
        dealer, bj = dealer_draw(up, hole, [c.value for c in rest[i:]], DealerSoft17.HIT_ACE_SIX)
        total_value += hand_net(mine, dealer, bj, stake)
    return total_value / count


@pytest.mark.parametrize(
    ("player", "shoe"),
    [
        (["6H", "7H"], ["8H", "8S", "TC", "2D", "5C", "9S"]),  # suited 6-7: only the 8 of hearts completes
        (["7S", "7D"], ["7C", "TC", "4D", "7H", "2S", "9C"]),  # two 7s: any 7 completes
        (["6H", "8C"], ["7C", "7H", "TD", "3S", "5C", "9H"]),  # mixed suits: no bonus
    ],
)
def test_bj_15_special_bonus_on_the_third_card_equals_brute_force(player: list[str], shoe: list[str]) -> None:
    cards = [parse_card(c) for c in shoe]
    mine = [parse_card(c) for c in player]
    up = 9
    comp = [sum(c.value == v for c in cards) for v in range(1, 11)]
    shares = special_bonus_shares(mine, Counter(cards))
    a = HandAnalyser(HandTerms(up=up, peeked=False, five_card=False))
    values = a.decisions(comp, [c.value for c in mine], shares)
    assert values["double"] == pytest.approx(brute_bonus(cards, up, mine, 1, double=True), abs=1e-12)
    # Hitting once and standing is one policy; the optimal hit is at least as good.
    once = brute_bonus(cards, up, mine, 1, double=False)
    assert values["hit"] >= once - 1e-12
    without = HandAnalyser(HandTerms(up=up, peeked=False, five_card=False, special_bonus=False))
    assert values["double"] >= without.decisions(comp, [c.value for c in mine], shares)["double"] - 1e-12


def test_bj_12_insurance_and_bj_10_3_even_money_values() -> None:
    one_deck = remove(remove(remove(remove(decks(1), 1), 1), 10), 8)  # player A-T, dealer ace, an 8 seen
    # 48 cards left, 15 of them tens: insurance = 2·15/48 − 33/48 = −3/48.
    assert insurance_value(one_deck) == pytest.approx(-3 / 48)
    rich = [0, 0, 0, 0, 0, 0, 0, 0, 1, 2]  # a shoe two-thirds tens: insurance pays
    assert insurance_value(rich) == pytest.approx(2 * 2 / 3 - 1 / 3)
    values = even_money_values(one_deck, 1)
    # Keeping the blackjack: 1.5 × (1 − 15/48) = 1.03125 > 1, so even money is the worse answer here.
    assert values == pytest.approx({"even_money": 1.0, "keep": 1.5 * 33 / 48})
    assert even_money_values(rich, 1)["keep"] < 1.0
    with pytest.raises(InvalidRules):
        even_money_values(one_deck, 6)
