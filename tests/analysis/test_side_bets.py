"""Exact odds of the side bets that depend on play (BJ 13.1 Reading, 13.2, 13.5; BJ 14.1, 14.2, 14.5), checked
against brute force over physical cards (one and two decks, every Sevens option), against a literal walk of
the split process with hits in between over small shoes, against an absorbing Markov chain for Streak, and
against the engine itself on small stacked shoes."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import replace
from fractions import Fraction as F  # noqa: N817

import numpy as np
import pytest

from croupier.analysis import side_bets
from croupier.analysis.chart import DOUBLE_HIT, DOUBLE_STAND, HIT, STAND, Chart
from croupier.analysis.first_two_cards import first_two_card_side_bets
from croupier.analysis.side_bets import any_pair_odds, sevens_odds, streak_odds
from croupier.blackjack.operations import Decision
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import BlackjackRules
from croupier.blackjack.table import BlackjackTable
from croupier.errors import InvalidRules
from croupier.primitives.cards import Card, Rank, deck, parse_card
from croupier.primitives.chance import ScriptedSource

SEVENS_OPTIONS = [
    (third, mixed) for third in ("after_split", "any") for mixed in ("two_card_pay", "pays_500")
]  # fmt: skip


def basic_chart() -> Chart:
    """A basic-strategy-like chart for a multi-deck shoe with no hole card (splits A, 2, 3, 6, 7, 8, 9 as usual;
    early surrender of hard 14-16 and of 7-7 and 8-8 against a ten)."""
    hard = np.full((22, 11), HIT, np.int8)
    soft = np.full((22, 11), HIT, np.int8)
    split = np.zeros((11, 11), np.bool_)
    surrender_hard = np.zeros((22, 11), np.bool_)
    surrender_pair = np.zeros((11, 11), np.bool_)
    for up in range(1, 11):
        hard[17:, up] = STAND
        if 2 <= up <= 6:
            hard[13:17, up] = STAND
        if 4 <= up <= 6:
            hard[12, up] = STAND
        if 3 <= up <= 6:
            hard[9, up] = DOUBLE_HIT
        if 2 <= up <= 9:
            hard[10, up] = DOUBLE_HIT
        if 2 <= up <= 10:
            hard[11, up] = DOUBLE_HIT
        soft[19:, up] = STAND
        soft[18, up] = DOUBLE_STAND if 3 <= up <= 6 else (STAND if up in (2, 7, 8) else HIT)
        if 3 <= up <= 6:
            soft[17, up] = DOUBLE_HIT
        if 4 <= up <= 6:
            soft[15:17, up] = DOUBLE_HIT
        if 5 <= up <= 6:
            soft[13:15, up] = DOUBLE_HIT
        split[1, up] = up != 1
        split[2, up] = split[3, up] = split[7, up] = 2 <= up <= 7
        split[4, up] = up in (5, 6)
        split[6, up] = 2 <= up <= 6
        split[8, up] = 2 <= up <= 9
        split[9, up] = up in (2, 3, 4, 5, 6, 8, 9)
    surrender_hard[14:17, 10] = True
    surrender_pair[7, 10] = surrender_pair[8, 10] = True
    return Chart(hard=hard, soft=soft, split=split, surrender_hard=surrender_hard, surrender_pair=surrender_pair)


# Every answer on 7-7 appears against some up card (surrender only where the rules allow it).
SEVENS_PLAY = {1: "hit", 2: "split", 3: "split", 4: "double", 5: "split", 6: "stand", 7: "split", 8: "hit",
               9: "double", 10: "surrender"}  # fmt: skip


def sevens_play(up: int) -> str:
    return SEVENS_PLAY[up]


# -- Sevens: brute force over physical cards -------------------------------------------------------------------


def sevens_pay(a: Card, b: Card, third: Card | None, pays_500: bool) -> int:
    """BJ 14.2 written out again: the highest line only; three 7s of two suits per the option."""
    two = 150 if a.suit == b.suit else 50
    if third is None or third.rank != Rank.SEVEN:
        return two
    suits = {a.suit, b.suit, third.suit}
    if len(suits) == 1:
        return 5000
    if len(suits) == 3 or pays_500:
        return 500
    return two


def sevens_brute_force(decks: int, procedure: int, play: Callable[[int], str]) -> dict[tuple[str, str], F]:
    """The Sevens EV under each option pair, over every ordered tuple of distinct physical cards dealt as BJ 5.2
    deals them: box, up card, box, (hole card in procedure 3), the box's third card. The first cards are
    enumerated card by card; the third card is counted directly over the physical cards left. Tuples not
    starting with two 7s lose."""
    shoe = deck() * decks
    m = len(shoe)
    depth = 5 if procedure == 3 else 4
    sevens = [i for i, c in enumerate(shoe) if c.rank == Rank.SEVEN]
    totals = dict.fromkeys(SEVENS_OPTIONS, 0)
    won = 0  # tuples starting with two 7s
    for i1 in sevens:
        for iu in range(m):
            if iu == i1:
                continue
            up = shoe[iu].rank.value_bj
            for i2 in sevens:
                if i2 in (i1, iu):
                    continue
                a, b = shoe[i1], shoe[i2]
                holes = [h for h in range(m) if h not in (i1, iu, i2)] if procedure == 3 else [None]
                for ih in holes:
                    used = {i1, iu, i2} | ({ih} if ih is not None else set())
                    left = [shoe[j] for j in range(m) if j not in used]
                    won += len(left)
                    bj = ih is not None and up in (1, 10) and up + shoe[ih].rank.value_bj == 11
                    action = None if bj else play(up)  # the peek ends the round before any decision
                    thirds: dict[Card | None, int] = {}
                    for c in left:
                        key = c if c.rank == Rank.SEVEN else None
                        thirds[key] = thirds.get(key, 0) + 1
                    for third_rule, mixed in SEVENS_OPTIONS:
                        counted = (
                            action == "split" if third_rule == "after_split" else action in ("split", "hit", "double")
                        )
                        for third, ways in thirds.items():
                            pay = sevens_pay(a, b, third if counted else None, mixed == "pays_500")
                            totals[(third_rule, mixed)] += ways * pay
    n = math.perm(m, depth)
    return {k: F(v - (n - won), n) for k, v in totals.items()}


@pytest.mark.parametrize("decks", [1, 2])
def test_bj_14_2_sevens_equals_brute_force_over_physical_cards(decks: int) -> None:
    brute = sevens_brute_force(decks, 1, sevens_play)
    for third, mixed in SEVENS_OPTIONS:
        rules = BlackjackRules(decks=decks, sevens_third_card=third, sevens_mixed_triple=mixed)
        odds = sevens_odds(rules, sevens_play)
        assert odds.ev == brute[(third, mixed)], (third, mixed)
        assert sum(o.probability for o in odds.outcomes) == 1


def test_bj_5_2_sevens_with_the_peek_equals_brute_force_one_deck() -> None:
    # Procedure 3: the hole card comes before the third card, and a dealer blackjack ends the round.
    brute = sevens_brute_force(1, 3, sevens_play)
    for third, mixed in SEVENS_OPTIONS:
        rules = BlackjackRules(decks=1, procedure=3, sevens_third_card=third, sevens_mixed_triple=mixed)
        assert sevens_odds(rules, sevens_play).ev == brute[(third, mixed)], (third, mixed)


def test_bj_14_2_sevens_from_a_chart_equals_brute_force_two_decks() -> None:
    chart = basic_chart()
    rules = BlackjackRules(decks=2)

    def by_chart(up: int) -> str:
        return chart.decide([7, 7], up, can_double=True, can_split=True, can_surrender=up != 1, can_claim=False)

    brute = sevens_brute_force(2, 1, by_chart)
    for third, mixed in SEVENS_OPTIONS:
        r = replace(rules, sevens_third_card=third, sevens_mixed_triple=mixed)
        assert sevens_odds(r, chart).ev == brute[(third, mixed)]


def test_bj_14_2_sevens_outcomes_eight_decks() -> None:
    # Two 7s: (32/416)(31/415); of those, one suit with probability 7/31. A stand never gives a third 7.
    rules = BlackjackRules(decks=8)
    odds = {o.name: o for o in sevens_odds(rules, lambda up: "stand").outcomes}
    assert odds["two 7s, one suit"].probability == F(32 * 7, 416 * 415)
    assert odds["two 7s, mixed suits"].probability == F(32 * 24, 416 * 415)
    assert odds["two 7s, one suit"].net == 150 and odds["two 7s, mixed suits"].net == 50
    assert set(odds) == {"two 7s, one suit", "two 7s, mixed suits", "loss"}
    # Always split: the third card is any card but the first two (the up card is not seen by the bet): 6 of
    # the 8 7s of the first two's suit are left among 414 cards.
    split = {o.name: o for o in sevens_odds(rules, lambda up: "split").outcomes}
    p_suited = F(32 * 7, 416 * 415)
    assert split["three 7s, one suit"].probability == p_suited * F(6, 414)
    assert split["three 7s, one suit"].net == 5000
    pays = replace(rules, sevens_mixed_triple="pays_500")
    hits = {o.name: o for o in sevens_odds(pays, lambda up: "split").outcomes}
    assert hits["three 7s, two suits"].net == 500
    assert "three 7s, two suits (paid as two 7s, one suit)" in split


def test_bj_14_2_sevens_paytable_and_surrender_rules() -> None:
    rules = BlackjackRules(decks=2, paytables={"sevens": {"two_mixed": 40}})
    base = BlackjackRules(decks=2)
    stand = sevens_odds(rules, lambda up: "stand")
    assert {o.net for o in stand.outcomes} == {F(40), F(150), F(-1)}
    assert stand.pays == (F(40), F(150), F(500), F(5000))
    # Surrender (BJ 18) and a stand both leave two 7s.
    assert (
        sevens_odds(base, lambda up: "stand").ev == sevens_odds(base, lambda up: "stand" if up == 1 else "surrender").ev
    )


# -- Sevens: the engine --------------------------------------------------------------------------------------


BURN = parse_card("2H")
TAIL = [parse_card(c) for c in ("TH", "9S", "TS", "9H", "TD", "8S", "8H", "TC", "9D", "9C", "KH", "KS")]
"""Cards after the permuted block, enough for the dealer (and stray hits) to finish every round."""


def orders(cards: list[Card]) -> Iterator[list[Card]]:
    """Every distinct order of a multiset of cards, each once (all equally likely in a shuffled shoe)."""
    counts: dict[Card, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    seq: list[Card] = []

    def go() -> Iterator[list[Card]]:
        if len(seq) == len(cards):
            yield list(seq)
            return
        for c in list(counts):
            if counts[c]:
                counts[c] -= 1
                seq.append(c)
                yield from go()
                seq.pop()
                counts[c] += 1

    yield from go()


def play_round(
    rules: BlackjackRules,
    cards: list[Card],
    boxes: dict[int, dict[str, int]],
    decide: Callable[[BlackjackRound, Decision], str],
) -> BlackjackRound:
    table = BlackjackTable(rules, ScriptedSource(cards=[BURN, *cards, *TAIL]))
    rnd = table.open_round()
    for box, side in boxes.items():
        rnd.place_bet(box, f"p{box}", main=2, side=side)
    rnd.close_betting()
    while (q := rnd.pending) is not None:
        rnd.act(decide(rnd, q))
    return rnd


def sevens_net(rnd: BlackjackRound, box: int) -> int:
    assert rnd.settlement is not None
    return sum(o.net for o in rnd.settlement.outcomes if o.kind == "sevens" and o.box == box)


def sevens_decider(play: Callable[[int], str], our_box: int) -> Callable[[BlackjackRound, Decision], str]:
    """Our box plays 7-7 by ``play`` and then stands; any other box hits once below 12, else stands."""

    def decide(rnd: BlackjackRound, q: Decision) -> str:
        if q.kind != "play":
            return "decline"
        box = q.box
        b = rnd.boxes[box]
        h = b.hands[q.hand or 0]
        if (
            box == our_box
            and not b.did_split
            and len(h.cards) == 2
            and h.cards[0].rank == h.cards[1].rank == Rank.SEVEN
        ):
            return play(rnd.dealer[0].value)
        if box != our_box and len(h.cards) == 2 and h.total < 12 and "hit" in q.actions:
            return "hit"
        return "stand"

    return decide


@pytest.mark.parametrize(
    ("procedure", "third", "mixed"),
    [
        (1, "after_split", "two_card_pay"),
        (1, "any", "pays_500"),
        (3, "any", "two_card_pay"),
        (3, "after_split", "pays_500"),
    ],
)
def test_bj_13_2_engine_settles_sevens_as_analysed(procedure: int, third: str, mixed: str) -> None:
    # Every order of a small block (burn first, the tail after): the engine's mean Sevens net per unit equals
    # the exact figure for a shoe holding just the block (the deciding cards all come from it).
    rules = BlackjackRules(
        decks=8, procedure=procedure, side_bets_offered=["sevens"], sevens_third_card=third, sevens_mixed_triple=mixed
    )
    kinds = ("7S", "7S", "7H", "7D", "TC", "5C") if procedure == 1 else ("7S", "7S", "7H", "AC", "TC", "5C")
    block = [parse_card(c) for c in kinds]
    play = {1: "hit", 5: "split", 7: "double", 10: "surrender"}.get
    total, n = 0, 0
    for order in orders(block):
        rnd = play_round(rules, order, {1: {"sevens": 2}}, sevens_decider(lambda up: play(up) or "stand", 1))
        total += sevens_net(rnd, 1)
        n += 1
    exact = side_bets._sevens_from_shoe(rules, {c: block.count(c) for c in block}, lambda up: play(up) or "stand")
    assert F(total, 2 * n) == exact.ev


def test_bj_13_2_other_boxes_play_changes_nothing_engine() -> None:
    # Box 1 plays first (one hit below 12), so box 2's third card comes one card later in some orders: by
    # exchangeability the figure for box 2 is still the block's exact figure.
    rules = BlackjackRules(decks=8, side_bets_offered=["sevens"], sevens_third_card="any")
    block = [parse_card(c) for c in ("7S", "7S", "7H", "7H", "5C", "5C", "TC")]
    play = {5: "hit", 7: "split", 10: "stand"}.get
    total, n = 0, 0
    for order in orders(block):
        rnd = play_round(rules, order, {1: {}, 2: {"sevens": 2}}, sevens_decider(lambda up: play(up) or "stand", 2))
        total += sevens_net(rnd, 2)
        n += 1
    exact = side_bets._sevens_from_shoe(rules, {c: block.count(c) for c in block}, lambda up: play(up) or "stand")
    assert F(total, 2 * n) == exact.ev


@pytest.mark.parametrize(
    ("third", "action", "cards", "net"),
    [
        ("after_split", "split", "7S 9C 7S 7S", 10000),  # three 7s of one suit: 5000 to 1
        ("after_split", "hit", "7S 9C 7S 7S", 300),  # a hit's card does not count: two suited 7s
        ("any", "hit", "7S 9C 7S 7S", 10000),
        ("any", "double", "7S 9C 7H 7D", 1000),  # three suits: 500 to 1
        ("any", "split", "7S 9C 7S 7H", 300),  # two suits, literal reading: paid as the first two
        ("any", "stand", "7S 9C 7H 7D", 100),
    ],
)
def test_bj_14_2_stacked_sevens_hands(third: str, action: str, cards: str, net: int) -> None:
    rules = BlackjackRules(decks=8, side_bets_offered=["sevens"], sevens_third_card=third)
    rnd = play_round(
        rules, [parse_card(c) for c in cards.split()], {1: {"sevens": 2}}, sevens_decider(lambda up: action, 1)
    )
    assert sevens_net(rnd, 1) == net


# -- Any Pair: the split process, literally, over every card sequence of small shoes ----------------------------


class NeedMore(Exception):
    """The walk needs a card beyond the sequence it was given."""


def split_walk(
    rules: BlackjackRules, seq: list[Rank], size: int, play: Callable[[int, int], str], hit_below: int
) -> tuple[int, int]:
    """(new Any Pair stakes, winning ones) of one deal read from ``seq``, played literally: box, up card, box,
    hole card (procedure 3, with the peek), then each split hand in the engine's order gets its second card,
    is split again or played: it hits while its hard total is below ``hit_below`` and the shoe keeps a card
    for every hand that may still need one (each split still allowed needs two more: a rule that looks only at
    cards already dealt)."""
    pos = 0

    def draw() -> Rank:
        nonlocal pos
        if pos == len(seq):
            raise NeedMore
        pos += 1
        return seq[pos - 1]

    by_value = rules.split_pair_by.value == "value"
    limit = rules.split_hands_limit

    def pair(a: Rank, b: Rank) -> bool:
        return a == b or (by_value and a.value_bj == b.value_bj)

    c1, u, c2 = draw(), draw(), draw()
    up = u.value_bj
    if rules.procedure == 3:
        hole = draw()
        if rules.peek and up + hole.value_bj == 11 and up in (1, 10):
            return 0, 0
    if not pair(c1, c2) or play(c1.value_bj, up) != "split":
        return 0, 0
    hands = [[c1], [c2]]
    stakes, wins = 2, 0
    i = 0
    while i < len(hands):
        h = hands[i]
        if len(h) == 1:
            x = draw()
            h.append(x)
            wins += x == h[0]
            if (
                pair(h[0], x)
                and len(hands) < limit
                and (h[0] != Rank.ACE or rules.resplit_aces)
                and play(x.value_bj, up) == "split"
            ):
                hands.insert(i + 1, [h.pop()])
                stakes += 2
                continue
        waiting = sum(len(g) == 1 for g in hands[i + 1 :])
        while (
            h[0] != Rank.ACE
            and sum(c.value_bj for c in h) < hit_below
            and size - pos > waiting + 2 * (limit - len(hands))
        ):
            h.append(draw())
        i += 1
    return stakes, wins


def split_brute_force(
    rules: BlackjackRules, counts: dict[Rank, int], play: Callable[[int, int], str], hit_below: int
) -> tuple[F, F]:
    """Expected (new stakes, winning new stakes) over every sequence of the shoe's cards, as far as the walk
    reads them (each prefix weighted by its number of physical orders)."""
    size = sum(counts.values())
    stakes: dict[int, int] = {}
    wins: dict[int, int] = {}
    seq: list[Rank] = []

    def go(ways: int) -> None:
        try:
            s, w = split_walk(rules, seq, size, play, hit_below)
        except NeedMore:
            assert any(counts.values()), "the walk ran out of cards"
            for r, c in counts.items():
                if c:
                    counts[r] -= 1
                    seq.append(r)
                    go(ways * c)
                    seq.pop()
                    counts[r] += 1
            return
        stakes[len(seq)] = stakes.get(len(seq), 0) + ways * s
        wins[len(seq)] = wins.get(len(seq), 0) + ways * w

    go(1)
    e = lambda acc: sum((F(v, math.perm(size, d)) for d, v in acc.items()), F(0))  # noqa: E731
    return e(stakes), e(wins)


def splits(values: set[int]) -> Callable[[int, int], str]:
    return lambda v, up: "split" if v in values else "stand"


R = Rank


SMALL_SHOES = [
    ("1 deck of A 8 5 T, four hands", BlackjackRules(decks=1), {R.ACE: 4, R.EIGHT: 4, R.FIVE: 4, R.TEN: 4}, {1, 8}, 12),
    (
        "1 deck, peek, no resplit of aces",
        BlackjackRules(decks=1, procedure=3, resplit_aces=False, max_split_hands=3),
        {R.ACE: 4, R.EIGHT: 4, R.FIVE: 2, R.TEN: 4},
        {1, 8},
        12,
    ),
    ("2 decks of 8 5 T", BlackjackRules(decks=2), {R.EIGHT: 8, R.FIVE: 8, R.TEN: 8}, {8}, 14),
    (
        "1 deck, tens split by value",
        BlackjackRules(decks=1, split_pair_by="value"),
        {R.TEN: 3, R.JACK: 3, R.QUEEN: 2, R.FIVE: 3},
        {10},
        16,
    ),
]
"""(name, rules, shoe by rank, pair values split, hit below) for the brute force of the split process."""


@pytest.mark.parametrize(("name", "rules", "counts", "values", "hit_below"), SMALL_SHOES)
def test_bj_13_1_split_stakes_equal_brute_force(
    name: str, rules: BlackjackRules, counts: dict[Rank, int], values: set[int], hit_below: int
) -> None:
    play = splits(values)
    exact = side_bets._any_pair_from_shoe(rules, counts, play)
    assert (exact.split_stakes, exact.split_wins) == split_brute_force(rules, dict(counts), play, hit_below), name
    assert exact.split_stakes > 0


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_bj_13_1_split_stakes_closed_form_without_resplits(decks: int) -> None:
    # Split only 8s, two hands at most: a split happens with probability 4N(4N − 1)/(M(M − 1)); each of the two
    # hands' second cards is an 8 with probability (4N − 2)/(M − 2) (the up card unseen, BJ 5.2).
    m = 52 * decks
    rules = BlackjackRules(decks=decks, max_split_hands=2)
    odds = any_pair_odds(rules, splits({8}))
    p_split = F(4 * decks * (4 * decks - 1), m * (m - 1))
    assert odds.split_stakes == 2 * p_split
    assert odds.split_wins == 2 * p_split * F(4 * decks - 2, m - 2)
    assert odds.split_win_probability == F(4 * decks - 2, m - 2)
    assert odds.split_house_edge == 1 - 12 * F(4 * decks - 2, m - 2)


def test_bj_13_1_original_stake_and_combined_edge() -> None:
    rules = BlackjackRules(decks=6)
    odds = any_pair_odds(rules, basic_chart())
    assert odds.original == first_two_card_side_bets(rules)[0]
    assert odds.original.ev == side_bets._any_pair_from_shoe(rules, {r: 24 for r in Rank}, basic_chart()).original.ev
    assert odds.house_edge == -(odds.original.ev + odds.split_ev) / (1 + odds.split_stakes)
    assert odds.as_json()["house_edge"] == str(odds.house_edge)
    off = any_pair_odds(replace(rules, any_pair_after_split="none"), basic_chart())
    assert off.split_stakes == 0 and off.split_house_edge is None and off.house_edge == off.original.house_edge


def test_bj_13_1_chart_is_asked_with_the_rules_permissions() -> None:
    # A chart that splits 8-8 everywhere but surrenders it against a ten: the surrender comes first on the
    # box's first two cards (BJ 18), so 8-8 is split against a ten only where surrender is not offered.
    base = basic_chart()
    split = base.split.copy()
    split[8, :] = True
    chart = replace(base, split=split)
    rules = BlackjackRules(decks=2)

    def by_chart(v: int, up: int) -> str:
        return chart.decide([v, v], up, can_double=True, can_split=True, can_surrender=up != 1, can_claim=False)

    assert by_chart(8, 10) == "surrender"
    odds = any_pair_odds(rules, chart)
    same = any_pair_odds(rules, by_chart)
    assert (odds.split_stakes, odds.split_wins) == (same.split_stakes, same.split_wins)
    no_surrender = any_pair_odds(replace(rules, surrender=False), chart)
    assert no_surrender.split_stakes > odds.split_stakes


def test_bj_16_limits_and_aces() -> None:
    # More hands allowed means more stakes; resplitting aces adds stakes; a chart that never splits adds none.
    chart = basic_chart()
    four = any_pair_odds(BlackjackRules(decks=6), chart)
    two = any_pair_odds(BlackjackRules(decks=6, max_split_hands=2), chart)
    five = any_pair_odds(BlackjackRules(decks=6, procedure=3, peek=False), chart)
    assert two.split_stakes < four.split_stakes < five.split_stakes
    no_aces = any_pair_odds(BlackjackRules(decks=6, resplit_aces=False), chart)
    assert no_aces.split_stakes < four.split_stakes
    assert any_pair_odds(BlackjackRules(decks=6), lambda v, up: "stand").split_stakes == 0


# -- Any Pair: the engine --------------------------------------------------------------------------------------


def any_pair_decider(
    play: Callable[[int, int], str], block_size: int, limit: int
) -> Callable[[BlackjackRound, Decision], str]:
    """Take every Any Pair stake; split per ``play``; hit a hand below 12 while the block keeps a card for every
    hand that may still need one; otherwise stand."""

    def decide(rnd: BlackjackRound, q: Decision) -> str:
        actions = q.actions
        if q.kind == "any_pair":
            return "any_pair"
        if q.kind != "play":
            return "decline"
        b = rnd.boxes[q.box]
        h = b.hands[q.hand or 0]
        up = rnd.dealer[0].value
        if "split" in actions and play(h.cards[0].value, up) == "split":
            return "split"
        dealt = sum(len(g.cards) for g in b.hands) + 1
        waiting = sum(len(g.cards) == 1 for g in b.hands)
        if "hit" in actions and h.total < 12 and block_size - dealt > waiting + 2 * (limit - len(b.hands)):
            return "hit"
        return "stand"

    return decide


ENGINE_BLOCKS = [
    (BlackjackRules(decks=8, max_split_hands=3), ("8C", "8C", "8C", "8D", "TC", "3C", "3C"), {8}),
    (
        BlackjackRules(decks=8, max_split_hands=3, split_pair_by="value"),
        ("TC", "JC", "JC", "QC", "5C", "2C", "2C"),
        {10},
    ),
]
"""(rules, block of cards, pair values split): every order of the block is played by the engine."""


@pytest.mark.parametrize(("rules", "block", "values"), ENGINE_BLOCKS)
def test_bj_13_1_engine_settles_split_stakes_as_analysed(
    rules: BlackjackRules, block: tuple[str, ...], values: set[int]
) -> None:
    rules = replace(rules, side_bets_offered=["any_pair"])
    cards = [parse_card(c) for c in block]
    play = splits(values)
    stakes = wins = n = 0
    for order in orders(cards):
        rnd = play_round(
            rules, order, {1: {"any_pair": 2}}, any_pair_decider(play, len(cards), rules.split_hands_limit)
        )
        assert rnd.settlement is not None
        split = [o for o in rnd.settlement.outcomes if o.kind == "any_pair" and "split hand" in o.rule]
        stakes += len(split)
        wins += sum(o.net > 0 for o in split)
        assert all(o.net in (22, -2) for o in split)
        n += 1
    counts = {c.rank: 0 for c in cards}
    for c in cards:
        counts[c.rank] += 1
    exact = side_bets._any_pair_from_shoe(rules, counts, play)
    assert (F(stakes, n), F(wins, n)) == (exact.split_stakes, exact.split_wins)


def test_bj_13_1_stacked_split_hands() -> None:
    # 8-8 split; hand 1 gets an 8 (a pair: wins 11 to 1) and is split again; then 3, 3, 9: three hands, four new
    # stakes, one winning: 22 − 3·2.
    rules = BlackjackRules(decks=8)
    cards = [parse_card(c) for c in ["8C", "6D", "8H", "8S", "3C", "3D", "9C"]]
    rnd = play_round(rules, cards, {1: {"any_pair": 2}}, any_pair_decider(splits({8}), 0, 4))
    assert rnd.settlement is not None
    split = [o.net for o in rnd.settlement.outcomes if o.kind == "any_pair" and "split hand" in o.rule]
    assert sorted(split) == [-2, -2, -2, 22]


# -- Streak --------------------------------------------------------------------------------------------------


def markov_win(level: int, w: F, p: F, lo: F) -> F:
    """Absorbing chain: states 0 … level − 1 wins so far, absorbing win and loss; solved by Gaussian
    elimination over fractions."""
    n = level
    a = [[F(0)] * (n + 1) for _ in range(n)]  # (I − Q) x = r, augmented
    for i in range(n):
        a[i][i] += 1 - p
        if i + 1 < n:
            a[i][i + 1] -= w
        else:
            a[i][n] = w
    for i in range(n - 1, -1, -1):  # upper triangular already: back-substitute
        for j in range(i + 1, n):
            a[i][n] -= a[i][j] * a[j][n]
            a[i][j] = F(0)
        a[i][n] /= a[i][i]
        a[i][i] = F(1)
    return a[0][n]


def sequences_bracket(level: int, w: F, p: F, lo: F, rounds: int) -> tuple[F, F]:
    """Over every sequence of ``rounds`` results: (won by then, won or still open by then)."""
    won = open_ = F(0)

    def go(k: int, wins: int, prob: F) -> None:
        nonlocal won, open_
        if wins == level:
            won += prob
            return
        if k == rounds:
            open_ += prob
            return
        go(k + 1, wins + 1, prob * w)
        go(k + 1, wins, prob * p)

    go(0, 0, F(1))
    return won, won + open_


@pytest.mark.parametrize(("w", "p"), [(F(43, 100), F(9, 100)), (F(1, 2), F(0)), (F(1, 3), F(1, 3))])
def test_bj_14_5_streak_equals_markov_chain_and_sequences(w: F, p: F) -> None:
    lo = 1 - w - p
    for odds in streak_odds(BlackjackRules(), w, p):
        level = int(odds.bet[-1])
        win = markov_win(level, w, p, lo)
        assert odds.win_probability == win
        assert odds.house_edge == 1 - (1 + BlackjackRules().paytables.streak_odds(level)) * win
        low, high = sequences_bracket(level, w, p, lo, 12)
        assert low <= win <= high
        if p == 0:
            assert low == win == sequences_bracket(level, w, p, lo, level)[0]


def test_bj_14_5_streak_floats_and_paytable() -> None:
    rules = BlackjackRules(paytables={"streak": {"2": 4}})
    exact = streak_odds(rules, F(43, 100), F(9, 100), F(48, 100))
    assert streak_odds(rules, 0.43, 0.09) == exact
    assert streak_odds(rules, 0.43, 0.09, 0.48) == exact
    assert exact[0].win_probability == F(43, 91) ** 2 and exact[0].pays == 4


def test_bj_13_5_engine_streak_push_keeps_the_marker() -> None:
    # Win (10-9 against 9-8 … ), push, win: the 2-level streak is won at 3 to 1.
    rules = BlackjackRules(decks=8, side_bets_offered=["streak"])
    script = ["2H", "TC", "9C", "9D", "8C",  # box 19 against 9-8: win
              "TD", "9H", "9S", "TH",  # box 19 against 9-T: push
              "TS", "9D", "9C", "8D"]  # win  # fmt: skip
    table = BlackjackTable(rules, ScriptedSource(cards=script))
    nets = []
    for k in range(3):
        rnd = table.open_round()
        rnd.place_bet(1, "p", main=2, streak={2: 2} if k == 0 else None)
        rnd.close_betting()
        while (q := rnd.pending) is not None:
            rnd.act("stand" if q.kind == "play" else "decline")
        assert rnd.settlement is not None
        nets += [o.net for o in rnd.settlement.outcomes if o.kind == "streak_2"]
    assert nets == [0, 0, 6]
    assert streak_odds(rules, F(1), F(0))[0].ev == 3


# -- bad input -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: sevens_odds("rules", sevens_play), "'rules'"),  # type: ignore[arg-type]
        (lambda: sevens_odds(BlackjackRules(), 7), "play 7"),  # type: ignore[arg-type]
        (lambda: sevens_odds(BlackjackRules(), lambda up: "fold"), "'fold'"),
        (lambda: sevens_odds(BlackjackRules(), lambda up: "surrender"), "ace"),
        (
            lambda: sevens_odds(BlackjackRules(surrender=False), lambda up: "surrender" if up == 9 else "hit"),
            "not offered",
        ),
        (lambda: sevens_odds(BlackjackRules(double_on="eleven"), lambda up: "double"), "eleven"),
        (lambda: any_pair_odds(BlackjackRules(), None), "play None"),  # type: ignore[arg-type]
        (lambda: any_pair_odds(BlackjackRules(), lambda v, up: 3), "3"),
        (lambda: streak_odds(BlackjackRules(), -0.1, 0.1), "-0.1"),
        (lambda: streak_odds(BlackjackRules(), 0.5, 0.6), "sum above 1"),
        (lambda: streak_odds(BlackjackRules(), True, 0), "True"),
        (lambda: streak_odds(BlackjackRules(), "0.4", 0), "'0.4'"),  # type: ignore[arg-type]
        (lambda: streak_odds(BlackjackRules(), 0.4, 0.1, 0.4), "not 1"),
        (lambda: streak_odds(BlackjackRules(), F(2, 5), F(1, 10), F(2, 5)), "not 1"),
        (lambda: streak_odds(BlackjackRules(), 0, 1), "only pushes"),
        (lambda: streak_odds(BlackjackRules(), float("nan"), 0), "nan"),
        (lambda: side_bets._sevens_from_shoe(BlackjackRules(), {parse_card("7S"): 3}, sevens_play), "3 cards"),
        (lambda: side_bets._any_pair_from_shoe(BlackjackRules(), {Rank.ACE: -1}, splits({1})), "-1"),
    ],
)
def test_bad_input_is_refused_naming_the_value(call: Callable[[], object], words: str) -> None:
    with pytest.raises(InvalidRules) as info:
        call()
    assert words in str(info.value)
