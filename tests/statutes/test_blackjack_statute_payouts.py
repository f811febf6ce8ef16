"""Blackjack, Despacho 57/2009: BJ 10-15 (blackjack, push, insurance, side bets and their odds, the special
bonus). Helpers and conventions: see ``test_blackjack_statute.py``."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import pytest
from test_blackjack_statute import (
    BURN,
    actions,
    assert_refused,
    hand_cards,
    net_of,
    nets,
    new_table,
    one_box,
    ops,
    outcomes,
    settled,
)

from croupier.blackjack.operations import Decision, Paid
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import (
    AnyPairAfterSplit,
    BlackjackPaytable,
    BlackjackRules,
    DoubleOn,
    SevensMixedTriple,
    SevensThirdCard,
    SideBet,
    load,
)
from croupier.blackjack.table import BlackjackTable
from croupier.errors import BetRejected, IllegalAction
from croupier.statute import LIMITS

ALL_SIDE_BETS = frozenset(SideBet)


def side_round(first_two: tuple[str, str], key: str, stake: int = 10, **options: object) -> BlackjackRound:
    """ana on box 1 with a 100 main bet and one side bet; her first two cards are ``first_two``; she stands on
    whatever she has against a dealer 9+8 = 17 (unless she holds a blackjack)."""
    options.setdefault("side_bets_offered", ALL_SIDE_BETS)
    a, b = first_two
    rnd = one_box([BURN, a, "9H", b, "8C"], side={key: stake}, **options)
    if rnd.pending is not None:
        rnd.stand()
    return rnd


# -- BJ 10 ----------------------------------------------------------------------------------------------------


class TestBJ10Blackjack:
    @pytest.mark.parametrize(("first", "second"), [("AS", "TS"), ("JD", "AH"), ("AC", "QC"), ("KH", "AD")])
    def test_bj_10_1_an_ace_and_a_ten_value_card_as_the_first_two_cards(self, first: str, second: str) -> None:
        # burn, ana, dealer 9, ana, dealer second card T: 19. Blackjack is asked nothing.
        rnd = one_box([BURN, first, "9H", second, "TC"])
        assert rnd.is_over
        assert settled(rnd).boxes[0].hands[0].status == "blackjack"
        assert nets(rnd) == {"ana": 150}

    def test_bj_10_1_ace_and_ten_value_card_after_a_hit_is_not_a_blackjack(self) -> None:
        rnd = one_box([BURN, "AS", "9H", "5S", "5C", "TC"])
        rnd.hit()  # A+5+5 = 21 in three cards
        s = settled(rnd)
        assert s.boxes[0].hands[0].status == "stood"
        assert nets(rnd) == {"ana": 100}  # 1 to 1 against 19

    def test_bj_10_2_blackjack_pays_three_to_two(self) -> None:
        # Dealer 5 takes a second card (the blackjack is still unsettled) but draws no more: nothing stands.
        rnd = one_box([BURN, "AS", "5H", "KS", "TC"], main=200)
        s = settled(rnd)
        assert [str(c) for c in s.dealer_cards] == ["5H", "TC"]
        assert nets(rnd) == {"ana": 300}  # 200 × 3/2
        assert outcomes(rnd, "main")[0].rule == "BJ 10.2"

    def test_bj_10_2_the_smallest_main_bet_pays_a_whole_amount(self) -> None:
        rnd = one_box([BURN, "AS", "5H", "KS", "TC"], main=2)
        assert nets(rnd) == {"ana": 3}  # 2 × 3/2

    def test_bj_10_3_even_money_against_an_ace_is_paid_at_once(self) -> None:
        rnd = one_box([BURN, "AS", "AH", "KS"])
        q = rnd.pending
        assert q == Decision("offer", 1, 0, "ana", ("even_money", "decline"), rule="BJ 10.3")
        rnd.take_even_money()
        assert ops(rnd, Paid) == [Paid(1, 0, "ana", "even_money", 100, "BJ 10.3")]
        # The hand is settled: the dealer takes no second card.
        s = settled(rnd)
        assert len(s.dealer_cards) == 1
        assert s.boxes[0].hands[0].status == "even_money"
        assert nets(rnd) == {"ana": 100}

    def test_bj_10_3_declined_even_money_against_an_ace(self) -> None:
        # Dealer A+K: both blackjack, a push.
        rnd = one_box([BURN, "AS", "AH", "KS", "KC"])
        rnd.decline()
        assert settled(rnd).dealer_blackjack
        assert nets(rnd) == {"ana": 0}
        # Dealer A+9: blackjack wins 3 to 2.
        rnd = one_box([BURN, "AS", "AH", "KS", "9C"])
        rnd.decline()
        assert nets(rnd) == {"ana": 150}

    def test_bj_10_3_even_money_against_a_ten_value_card_by_default(self) -> None:
        rnd = one_box([BURN, "AS", "KH", "QS"])
        assert actions(rnd) == ("even_money", "decline")
        rnd.take_even_money()
        assert nets(rnd) == {"ana": 100}

    def test_bj_10_3_even_money_on_ten_false_offers_nothing_against_a_ten(self) -> None:
        # No question: the blackjack waits for the dealer's second card, an ace: a push.
        rnd = one_box([BURN, "AS", "KH", "QS", "AD"], even_money_on_ten=False)
        assert rnd.is_over
        assert nets(rnd) == {"ana": 0}
        # Against an ace even money is still offered.
        rnd = one_box([BURN, "AS", "AH", "QS"], even_money_on_ten=False)
        assert actions(rnd) == ("even_money", "decline")

    def test_bj_10_3_even_money_is_only_for_a_blackjack(self) -> None:
        rnd = one_box([BURN, "TS", "AH", "9S"])
        assert actions(rnd) == ("insurance", "decline")
        assert not rnd.can("even_money")
        assert_refused(rnd, rnd.take_even_money, IllegalAction, "BJ 10.3")
        rnd = one_box([BURN, "AS", "AH", "QS"])
        assert_refused(rnd, lambda: rnd.insure(50), IllegalAction, "BJ 12.1")

    def test_bj_10_4_a_21_of_three_cards_wins_one_to_one(self) -> None:
        rnd = one_box([BURN, "5S", "9H", "6S", "KD", "TC"])
        rnd.hit()  # 5+6+K = 21
        assert nets(rnd) == {"ana": 100}  # against 19, not 3 to 2

    def test_bj_10_4_a_21_of_three_cards_pushes_a_dealer_21_of_three_cards(self) -> None:
        rnd = one_box([BURN, "5S", "6H", "6S", "KD", "5C", "TC"])
        rnd.hit()  # 21
        # Dealer 6+5 = 11 draws T = 21.
        assert settled(rnd).dealer_total == 21
        assert nets(rnd) == {"ana": 0}

    def test_bj_10_5_player_blackjack_beats_a_dealer_21_of_more_cards(self) -> None:
        # Box 1 blackjack; box 2 stands on 17 so the dealer plays: 6+5+T = 21.
        t = new_table([BURN, "AS", "TS", "6H", "KS", "7S", "5C", "TC"])
        rnd = t.open_round()
        rnd.place_bet(1, "ana", main=100)
        rnd.place_bet(2, "bo", main=100)
        rnd.close_betting()
        rnd.stand(box=2)
        s = settled(rnd)
        assert (s.dealer_total, s.dealer_blackjack) == (21, False)
        assert s.players() == {"ana": 150, "bo": -100}

    def test_bj_10_6_dealer_blackjack_beats_a_21_of_more_cards(self) -> None:
        rnd = one_box([BURN, "5S", "TH", "6S", "KD", "AC"])
        rnd.hit()  # 21 in three cards
        assert settled(rnd).dealer_blackjack
        assert nets(rnd) == {"ana": -100}
        assert outcomes(rnd, "main")[0].rule == "BJ 9"

    def test_bj_10_6_a_two_card_21_on_a_split_hand_is_not_a_blackjack(self) -> None:
        # Split aces: A+K and A+5. Dealer 9+T = 19. The A+K hand wins 1 to 1, not 3 to 2.
        rnd = one_box([BURN, "AS", "9H", "AD", "KC", "5D", "TC"])
        rnd.split()
        s = settled(rnd)
        assert [h.status for h in s.boxes[0].hands] == ["stood", "stood"]
        assert [h.total for h in s.boxes[0].hands] == [21, 16]
        assert nets(rnd) == {"ana": 0}  # +100 − 100

    def test_bj_10_6_a_split_21_loses_to_a_dealer_blackjack(self) -> None:
        # Split aces A+K and A+5 against a dealer T+A: "original bet only" (BJ 16.6): −100 once.
        rnd = one_box([BURN, "AS", "TH", "AD", "KC", "5D", "AC"])
        rnd.split()
        assert settled(rnd).dealer_blackjack
        assert nets(rnd) == {"ana": -100}

    def test_bj_10_7_lose_original_only_on_double_default_with_double_on_eleven(self) -> None:
        # Double on 11 only; ana doubles 5+6 to 200; the dealer's T+A blackjack takes only the original 100.
        rnd = one_box([BURN, "5S", "TH", "6S", "2C", "AC"], double_on=DoubleOn.ELEVEN)
        rnd.double()
        assert settled(rnd).dealer_blackjack
        assert nets(rnd) == {"ana": -100}

    def test_bj_10_7_a_double_on_eleven_settled_original_only_cites_bj_10_7(self) -> None:
        rnd = one_box([BURN, "5S", "TH", "6S", "2C", "AC"], double_on=DoubleOn.ELEVEN)
        rnd.double()
        assert outcomes(rnd, "main")[0].rule == "BJ 10.7"

    def test_bj_10_7_without_the_option_a_double_on_eleven_loses_both_stakes(self) -> None:
        rnd = one_box(
            [BURN, "5S", "TH", "6S", "2C", "AC"], double_on=DoubleOn.ELEVEN, lose_original_only_on_double=False
        )
        rnd.double()
        assert nets(rnd) == {"ana": -200}

    def test_bj_10_7_the_option_does_not_matter_with_double_on_any_two(self) -> None:
        # BJ 17.3 makes "original bet only" mandatory for doubles on any two cards.
        for option in (True, False):
            rnd = one_box([BURN, "5S", "TH", "6S", "2C", "AC"], lose_original_only_on_double=option)
            rnd.double()
            assert nets(rnd) == {"ana": -100}


# -- BJ 11 ----------------------------------------------------------------------------------------------------


class TestBJ11Push:
    def test_bj_11_equal_totals_push(self) -> None:
        rnd = one_box([BURN, "TS", "9H", "8S", "9C"], main=300)
        rnd.stand()
        assert nets(rnd) == {"ana": 0}  # 18 against 18

    def test_bj_11_both_blackjack_push(self) -> None:
        rnd = one_box([BURN, "AS", "TH", "KS", "AC"], even_money_on_ten=False)
        assert settled(rnd).dealer_blackjack
        assert nets(rnd) == {"ana": 0}

    def test_bj_11_a_push_does_not_move_the_streak_marker(self) -> None:
        t = new_table(side_bets_offered=frozenset({SideBet.STREAK}))
        rnd = one_box([BURN, "TS", "9H", "8S", "9C"], table=t, streak={2: 10})
        rnd.stand()
        assert [(o.net, o.status, o.rule) for o in outcomes(rnd, "streak_2")] == [(0, "open", "BJ 13.5.2")]
        assert [(s.level, s.wins) for s in t.open_streaks] == [(2, 0)]


# -- BJ 12 ----------------------------------------------------------------------------------------------------


class TestBJ12Insurance:
    def test_bj_12_1_insurance_is_offered_against_an_ace_up_to_half_the_bet(self) -> None:
        rnd = one_box([BURN, "TS", "AH", "9S", "8C"])
        assert rnd.pending == Decision("offer", 1, None, "ana", ("insurance", "decline"), 50, "BJ 12.1")
        assert rnd.can("insurance", amount=50)
        assert not rnd.can("insurance", amount=51)
        assert_refused(rnd, lambda: rnd.insure(51), BetRejected, "BJ 12.1")
        assert_refused(rnd, lambda: rnd.insure(0), BetRejected, LIMITS)
        assert_refused(rnd, lambda: rnd.insure(-5), BetRejected, LIMITS)
        assert_refused(rnd, lambda: rnd.act("insurance"), BetRejected, "BJ 12.1")
        rnd.insure(1)  # one chip unit is the least insurance
        rnd.stand()
        # No dealer blackjack (A+8 = 19): insurance −1; 19 against 19 pushes.
        assert net_of(rnd, "insurance") == -1
        assert nets(rnd) == {"ana": -1}

    def test_bj_12_1_insurance_limit_one_accepts_the_whole_bet(self) -> None:
        rnd = one_box([BURN, "TS", "AH", "9S", "KC"], insurance_limit=Fraction(1))
        assert rnd.pending is not None
        assert rnd.pending.max_insurance == 100
        rnd.insure(100)
        rnd.stand()
        # Dealer A+K: insurance 100 at 2 to 1 = +200, main −100.
        assert nets(rnd) == {"ana": 100}

    def test_bj_12_1_insurance_limit_between_half_and_all_rounds_down_to_chip_units(self) -> None:
        rnd = one_box([BURN, "TS", "AH", "9S"], main=36, insurance_limit=Fraction(3, 4), chip_unit=2)
        assert rnd.pending is not None
        assert rnd.pending.max_insurance == 26  # 3/4 × 36 = 27 → 26, whole chip units of 2
        assert_refused(rnd, lambda: rnd.insure(27), BetRejected, LIMITS)  # not whole chip units
        assert_refused(rnd, lambda: rnd.insure(28), BetRejected, "BJ 12.1")
        assert rnd.can("insurance", amount=26)

    def test_bj_12_1_no_insurance_against_a_ten_or_lower_card(self) -> None:
        for up in ("TH", "9H"):
            rnd = one_box([BURN, "TS", up, "9S"])
            assert rnd.pending is not None
            assert rnd.pending.kind == "play"
            assert_refused(rnd, lambda r=rnd: r.insure(50), IllegalAction, "BJ 12.1")

    def test_bj_12_1_insurance_is_offered_to_each_bettor_before_any_box_acts(self) -> None:
        t = new_table([BURN, "TS", "7S", "AH", "9S", "9D", "KC"])
        rnd = t.open_round()
        rnd.place_bet(1, "ana", main=100)
        rnd.place_bet(1, "bo", main=40)
        rnd.place_bet(2, "cy", main=200)
        rnd.close_betting()
        asked = []
        while rnd.pending is not None and rnd.pending.kind == "offer":
            asked.append((rnd.pending.box, rnd.pending.player, rnd.pending.max_insurance))
            rnd.insure(rnd.pending.max_insurance)
        assert asked == [(1, "ana", 50), (1, "bo", 20), (2, "cy", 100)]
        rnd.stand()
        rnd.stand()
        # Dealer A+K blackjack: each insurance wins 2 to 1, each main bet loses.
        assert nets(rnd) == {"ana": 0, "bo": 0, "cy": 0}

    def test_bj_12_2_insurance_pays_two_to_one_on_a_dealer_blackjack(self) -> None:
        rnd = one_box([BURN, "TS", "AH", "9S", "KC"])
        rnd.insure(50)
        rnd.stand()
        s = settled(rnd)
        assert s.dealer_blackjack
        assert net_of(rnd, "insurance") == 100
        assert net_of(rnd, "main") == -100
        assert [o.rule for o in outcomes(rnd, "insurance")] == ["BJ 12.2"]

    def test_bj_12_2_a_bust_player_s_insurance_is_still_settled_against_the_dealer(self) -> None:
        # ana busts; her insurance keeps the dealer's second card coming: K, a blackjack.
        rnd = one_box([BURN, "TS", "AH", "6S", "QD", "KC"])
        rnd.insure(50)
        rnd.hit()
        assert nets(rnd) == {"ana": 0}  # −100 + 100

    def test_bj_12_3_without_a_dealer_blackjack_insurance_loses(self) -> None:
        rnd = one_box([BURN, "TS", "AH", "9S", "7C"])
        rnd.insure(50)
        rnd.stand()
        # Dealer A+7 = soft 18: insurance −50, 19 beats 18 +100.
        assert net_of(rnd, "insurance") == -50
        assert nets(rnd) == {"ana": 50}


# -- BJ 13 ----------------------------------------------------------------------------------------------------


def streak_table(**options: object) -> BlackjackTable:
    return new_table(side_bets_offered=frozenset({SideBet.STREAK}), **options)


WIN = ["TS", "9H", "9S", "8C"]
"""ana 19 against a dealer 9+8 = 17 (a win)."""
LOSS = ["TS", "9H", "7S", "TC"]
"""ana 17 against a dealer 9+T = 19 (a loss)."""
PUSH = ["TS", "9H", "8S", "9C"]
"""ana 18 against a dealer 9+9 = 18 (a push)."""


def streak_round(t: BlackjackTable, cards: list[str], streak: Mapping[int, int] | None = None) -> BlackjackRound:
    """One round at ``t``: ana on box 1 (main 100) stands on her two cards."""
    first = t.shoe is None
    rnd = one_box(([BURN] if first else []) + cards, table=t, streak=streak)
    rnd.stand()
    return rnd


class TestBJ13SideBets:
    def test_bj_13_one_kind_of_side_bet_per_box(self) -> None:
        rnd = new_table(side_bets_offered=ALL_SIDE_BETS).open_round()
        both = {"any_pair": 10, "perfect_pairs": 10}
        assert_refused(rnd, lambda: rnd.place_bet(1, "ana", main=100, side=both), BetRejected, "BJ 13")
        rnd.place_bet(1, "ana", main=100, side={"any_pair": 10})
        assert_refused(rnd, lambda: rnd.place_bet(1, "ana", side={"sevens": 10}), BetRejected, "BJ 13")
        assert_refused(rnd, lambda: rnd.place_bet(1, "ana", streak={2: 10}), BetRejected, "BJ 13")
        rnd.place_bet(1, "ana", side={"any_pair": 10})  # more of the same kind
        assert rnd.boxes[1].bettors["ana"].side == {"any_pair": 20}
        # Over 13 and under 13 are one kind; several streak levels are one kind.
        rnd.place_bet(2, "ana", main=100, side={"over_13": 10, "under_13": 10})
        rnd.place_bet(3, "ana", main=100, streak={2: 10, 5: 10})
        # Another bettor of the same box chooses his own kind.
        rnd.place_bet(1, "bo", main=100, side={"perfect_pairs": 10})

    def test_bj_13_one_side_bet_per_box_false_lets_a_player_combine_kinds(self) -> None:
        # J♥ J♦: Any Pair 11 to 1 (+110) and a coloured Perfect Pair 12 to 1 (+120); main 20 beats 17 (+100).
        rnd = one_box(
            [BURN, "JH", "9H", "JD", "8C"],
            side={"any_pair": 10, "perfect_pairs": 10},
            side_bets_offered=ALL_SIDE_BETS,
            one_side_bet_per_box=False,
        )
        rnd.stand()
        assert net_of(rnd, "any_pair") == 110
        assert net_of(rnd, "perfect_pairs") == 120
        assert nets(rnd) == {"ana": 330}

    def test_bj_13_open_streak_bets_of_earlier_rounds_are_not_a_second_kind(self) -> None:
        t = new_table(side_bets_offered=frozenset({SideBet.STREAK, SideBet.ANY_PAIR}))
        streak_round(t, WIN, streak={2: 10})
        rnd = one_box(["TS", "9H", "TD", "8C"], table=t, side={"any_pair": 10})  # T-T: a pair
        rnd.stand()
        # Main +100 (20 against 17); Any Pair +110; the streak reaches 2 wins: 10 at 3 to 1.
        assert nets(rnd) == {"ana": 240}
        assert net_of(rnd, "streak_2") == 30

    def test_bj_13_side_bets_only_as_the_table_offers_them(self) -> None:
        assert BlackjackRules().side_bets_offered == frozenset({SideBet.ANY_PAIR})
        rnd = new_table().open_round()
        for key in ("sevens", "over_13", "under_13", "perfect_pairs"):
            assert_refused(rnd, lambda k=key: rnd.place_bet(1, "ana", main=100, side={k: 10}), BetRejected, "BJ 13")
        assert_refused(rnd, lambda: rnd.place_bet(1, "ana", main=100, streak={2: 10}), BetRejected, "BJ 13.5")
        assert_refused(rnd, lambda: rnd.place_bet(1, "ana", main=100, side={"dragon": 10}), BetRejected, "BJ 13")
        rnd = new_table(side_bets_offered=frozenset({SideBet.SEVENS})).open_round()
        rnd.place_bet(1, "ana", main=100, side={"sevens": 10})
        assert_refused(rnd, lambda: rnd.place_bet(2, "ana", main=100, side={"any_pair": 10}), BetRejected, "BJ 13")

    def test_bj_13_a_side_bet_may_stand_on_another_player_s_box(self) -> None:
        # bo bets only Any Pair on ana's box: he is asked nothing and wins with her pair.
        t = new_table([BURN, "8S", "AH", "8D", "9C"])
        rnd = t.open_round()
        rnd.seat(1, "ana")
        rnd.place_bet(1, "ana", main=100)
        rnd.place_bet(1, "bo", side={"any_pair": 10})
        rnd.close_betting()
        assert rnd.pending is not None
        assert rnd.pending.player == "ana"  # insurance: only ana, who has a main bet
        rnd.decline()
        rnd.stand()
        # 8-8 is a pair: bo +110. ana 16 against A+9 = 20: −100.
        assert nets(rnd) == {"ana": -100, "bo": 110}

    def test_bj_13_a_box_with_only_side_bets_is_not_dealt(self) -> None:
        t = new_table([BURN, "TS", "9H", "9S", "8C"])
        rnd = t.open_round()
        rnd.place_bet(1, "ana", main=100)
        rnd.place_bet(2, "bo", side={"any_pair": 10})
        assert_refused(rnd, rnd.close_betting, BetRejected, "BJ 13")
        assert rnd.phase.value == "betting"

    def test_bj_13_1_any_pair_is_two_cards_of_the_same_rank(self) -> None:
        rnd = side_round(("JS", "JD"), "any_pair")
        assert net_of(rnd, "any_pair") == 110  # 10 at 11 to 1
        assert outcomes(rnd, "any_pair")[0].rule == "BJ 13.1"
        assert net_of(rnd, "any_pair") + net_of(rnd, "main") == nets(rnd)["ana"]
        rnd = side_round(("JS", "QS"), "any_pair")
        assert net_of(rnd, "any_pair") == -10  # two ten-value cards of different ranks are not a pair

    def test_bj_13_1_new_any_pair_stakes_on_the_hands_a_split_produces(self) -> None:
        # 8-8 split: hand 0 gets 8 (a pair again), hand 1 gets 3.
        rnd = one_box([BURN, "8S", "9H", "8D", "8C", "3H", "TC", "8H"], side={"any_pair": 10})
        rnd.split()
        assert rnd.pending == Decision("any_pair", 1, 0, "ana", ("any_pair", "decline"), rule="BJ 13.1")
        rnd.place_any_pair()
        # Hand 0 already has its first two cards (8-8): its stake is decided; hand 1's waits for its card.
        assert rnd.boxes[1].split_any_pair == [("ana", 10, 0, True)]
        assert [h.any_pair_stakes for h in rnd.boxes[1].hands] == [{}, {"ana": 10}]
        assert actions(rnd) == ("hit", "stand", "double", "split")
        rnd.stand()  # 8-8: declines the resplit
        rnd.hit()  # 8-3 + T = 21
        # Any Pair: original 8-8 +110; hand 0 (8-8) +110; hand 1 (8-3) −10.
        assert [o.net for o in outcomes(rnd, "any_pair")] == [110, 110, -10]
        # Main: dealer 9+8 = 17: 16 loses, 21 wins.
        assert net_of(rnd, "main") == 0
        assert nets(rnd) == {"ana": 210}

    def test_bj_13_1_a_split_hand_pair_stake_is_won_even_when_the_pair_is_resplit(self) -> None:
        # 8♠ 8♦ split, stakes placed; hand 0 gets 8♣ (a pair: its stake wins) and is split again, the new
        # stakes declined. Hands: 8♠ T♣, 8♣ T♦, 8♦ T♥; dealer 9+8 = 17.
        rnd = one_box([BURN, "8S", "9H", "8D", "8C", "TC", "TD", "TH", "8H"], side={"any_pair": 10})
        rnd.split()
        rnd.place_any_pair()
        rnd.split()
        rnd.decline()
        for _ in range(3):
            rnd.stand()
        # Any Pair: original 8♠ 8♦ +110; split hand 8♠ 8♣ +110; split hand 8♦ T♥ −10.
        assert sorted(o.net for o in outcomes(rnd, "any_pair")) == [-10, 110, 110]
        assert nets(rnd) == {"ana": 510}  # + main: three 18s against 17, +300

    def test_bj_13_1_any_pair_stakes_at_every_split_are_each_settled(self) -> None:
        rnd = one_box([BURN, "8S", "9H", "8D", "8C", "TC", "TD", "TH", "8H"], side={"any_pair": 10})
        rnd.split()
        rnd.place_any_pair()
        rnd.split()
        rnd.place_any_pair()
        for _ in range(3):
            rnd.stand()
        # Original +110; first split: 8♠ 8♣ +110, 8♦ T♥ −10; resplit: 8♠ T♣ −10, 8♣ T♦ −10.
        assert sorted(o.net for o in outcomes(rnd, "any_pair")) == [-10, -10, -10, 110, 110]
        assert nets(rnd) == {"ana": 490}

    def test_bj_13_1_any_pair_after_split_none_counts_only_the_first_two_cards(self) -> None:
        rnd = one_box(
            [BURN, "8S", "9H", "8D", "8C", "3H", "8H"],
            side={"any_pair": 10},
            any_pair_after_split=AnyPairAfterSplit.NONE,
        )
        rnd.split()
        assert rnd.pending is not None
        assert rnd.pending.kind == "play"  # no Any Pair question
        rnd.stand()
        rnd.stand()
        assert [o.net for o in outcomes(rnd, "any_pair")] == [110]
        # Dealer 9+8 = 17: 16 and 11 both lose.
        assert nets(rnd) == {"ana": -90}

    def test_bj_13_1_a_declined_any_pair_question_places_nothing(self) -> None:
        rnd = one_box([BURN, "8S", "9H", "8D", "8C", "3H", "8H"], side={"any_pair": 10}, max_split_hands=2)
        rnd.split()
        rnd.decline()
        rnd.stand()
        rnd.stand()
        assert [o.net for o in outcomes(rnd, "any_pair")] == [110]

    def test_bj_13_2_sevens_two_sevens_as_the_first_two_cards(self) -> None:
        rnd = side_round(("7S", "7H"), "sevens")
        assert net_of(rnd, "sevens") == 500  # two suits: 50 to 1
        rnd = side_round(("7S", "7S"), "sevens")
        assert net_of(rnd, "sevens") == 1500  # one suit: 150 to 1
        rnd = side_round(("7S", "8S"), "sevens")
        assert net_of(rnd, "sevens") == -10

    def test_bj_13_2_a_third_seven_after_splitting_the_sevens(self) -> None:
        # 7♠ 7♥ split; the first card after the split (hand 0's second card) is 7♦: three suits, 500 to 1.
        rnd = one_box([BURN, "7S", "9H", "7H", "7D", "TC", "8C"], side={"sevens": 10}, side_bets_offered=ALL_SIDE_BETS)
        rnd.split()
        assert hand_cards(rnd) == [["7S", "7D"], ["7H"]]
        rnd.stand()  # declines a resplit of 7-7
        rnd.stand()  # 7+T
        assert net_of(rnd, "sevens") == 5000
        assert outcomes(rnd, "sevens")[0].rule == "BJ 13.2"
        # Main: 14 and 17 against 17: −100, 0.
        assert net_of(rnd, "main") == -100

    def test_bj_13_2_sevens_third_card_after_split_ignores_a_hit_seven(self) -> None:
        # 7♠ 7♥ hit 7♦: three 7s (the special bonus pays the main 3 × 100), but the Sevens bet counts only the
        # first two: 50 to 1.
        rnd = one_box([BURN, "7S", "9H", "7H", "7D"], side={"sevens": 10}, side_bets_offered=ALL_SIDE_BETS)
        rnd.hit()
        assert net_of(rnd, "sevens") == 500
        assert net_of(rnd, "main") == 300

    def test_bj_13_2_sevens_third_card_any_counts_a_hit_seven(self) -> None:
        rnd = one_box(
            [BURN, "7S", "9H", "7H", "7D"],
            side={"sevens": 10},
            side_bets_offered=ALL_SIDE_BETS,
            sevens_third_card=SevensThirdCard.ANY,
        )
        rnd.hit()
        assert net_of(rnd, "sevens") == 5000  # 7♠ 7♥ 7♦: three suits, 500 to 1
        assert net_of(rnd, "main") == 300

    def test_bj_13_2_sevens_third_card_any_counts_a_doubled_card(self) -> None:
        rnd = one_box(
            [BURN, "7S", "9H", "7C", "7H"],
            side={"sevens": 10},
            side_bets_offered=ALL_SIDE_BETS,
            sevens_third_card=SevensThirdCard.ANY,
        )
        rnd.double()  # 7-7 doubled, 7♥: three 7s, the special bonus on 200: +600
        assert net_of(rnd, "sevens") == 5000
        assert net_of(rnd, "main") == 600

    def test_bj_13_3_over_under_13_with_the_ace_as_one(self) -> None:
        assert net_of(side_round(("TS", "5S"), "over_13"), "over_13") == 10  # 15
        assert net_of(side_round(("KS", "4S"), "over_13"), "over_13") == 10  # picture 10 + 4 = 14
        assert net_of(side_round(("TS", "2S"), "under_13"), "under_13") == 10  # 12
        # A+K = 11 with the ace as 1: under wins, over loses (and the blackjack is paid 3 to 2).
        rnd = side_round(("AS", "KS"), "under_13")
        assert net_of(rnd, "under_13") == 10
        assert net_of(rnd, "main") == 150
        assert net_of(side_round(("AS", "KS"), "over_13"), "over_13") == -10
        assert outcomes(side_round(("TS", "5S"), "over_13"), "over_13")[0].rule == "BJ 13.3"

    def test_bj_13_3_a_sum_of_13_loses_both_sides(self) -> None:
        rnd = one_box(
            [BURN, "TS", "9H", "3S", "8C"], side={"over_13": 10, "under_13": 20}, side_bets_offered=ALL_SIDE_BETS
        )
        rnd.stand()
        assert net_of(rnd, "over_13") == -10
        assert net_of(rnd, "under_13") == -20
        assert nets(rnd) == {"ana": -130}  # 13 against 17: −100

    def test_bj_13_4_perfect_pairs_only_the_highest_definition_is_paid(self) -> None:
        rules = {"key": "perfect_pairs"}
        assert net_of(side_round(("JH", "JS"), **rules), "perfect_pairs") == 50  # mixed: 5 to 1
        assert net_of(side_round(("JH", "JD"), **rules), "perfect_pairs") == 120  # coloured: 12 to 1
        assert net_of(side_round(("JH", "JH"), **rules), "perfect_pairs") == 250  # perfect: 25 to 1
        assert net_of(side_round(("JH", "QH"), **rules), "perfect_pairs") == -10
        assert outcomes(side_round(("JH", "JH"), **rules), "perfect_pairs")[0].rule == "BJ 13.4"

    def test_bj_13_5_streak_wins_when_the_box_wins_the_rounds_bet(self) -> None:
        t = streak_table()
        first = streak_round(t, WIN, streak={2: 10})
        assert [(o.net, o.status) for o in outcomes(first, "streak_2")] == [(0, "open")]
        assert nets(first) == {"ana": 100}
        second = streak_round(t, WIN)  # the open streak bet is not placed again
        assert [(o.net, o.status, o.rule) for o in outcomes(second, "streak_2")] == [(30, "won", "BJ 14.5")]
        assert nets(second) == {"ana": 130}  # main +100, streak 10 at 3 to 1
        assert t.open_streaks == []

    def test_bj_13_5_1_a_streak_bet_loses_as_soon_as_the_box_loses(self) -> None:
        t = streak_table()
        streak_round(t, WIN, streak={3: 10})
        rnd = streak_round(t, LOSS)
        assert [(o.net, o.status, o.rule) for o in outcomes(rnd, "streak_3")] == [(-10, "lost", "BJ 13.5.1")]
        assert nets(rnd) == {"ana": -110}
        assert t.open_streaks == []

    def test_bj_13_5_2_a_push_keeps_the_marker(self) -> None:
        t = streak_table()
        streak_round(t, WIN, streak={2: 10})
        pushed = streak_round(t, PUSH)
        assert [(o.net, o.status) for o in outcomes(pushed, "streak_2")] == [(0, "open")]
        assert [s.wins for s in t.open_streaks] == [1]
        rnd = streak_round(t, WIN)
        assert net_of(rnd, "streak_2") == 30

    def test_bj_13_5_3_several_levels_at_once_and_the_marker_moves_on(self) -> None:
        t = streak_table()
        streak_round(t, WIN, streak={2: 10, 3: 20})
        markers = t.streak_markers()
        assert list(markers) == [1]
        assert [(s.level, s.wins) for s in markers[1]] == [(2, 1), (3, 1)]
        second = streak_round(t, WIN)
        assert net_of(second, "streak_2") == 30  # 10 at 3 to 1
        assert [(o.net, o.status) for o in outcomes(second, "streak_3")] == [(0, "open")]
        assert [(s.level, s.wins) for s in t.streak_markers()[1]] == [(3, 2)]
        third = streak_round(t, WIN)
        assert net_of(third, "streak_3") == 160  # 20 at 8 to 1
        assert t.streak_markers() == {}

    def test_bj_13_5_3_a_level_already_open_cannot_be_bet_again(self) -> None:
        t = streak_table()
        streak_round(t, WIN, streak={2: 10})
        rnd = t.open_round()
        assert_refused(rnd, lambda: rnd.place_bet(1, "ana", main=100, streak={2: 10}), BetRejected, "BJ 13.5.3")
        rnd.place_bet(1, "ana", main=100, streak={4: 10})  # another level is a new bet
        assert_refused(rnd, lambda: rnd.place_bet(1, "ana", streak={4: 10}), BetRejected, "BJ 13.5.3")
        assert_refused(rnd, lambda: rnd.place_bet(1, "ana", streak={6: 10}), BetRejected, "BJ 13.5")

    def test_bj_13_5_4_a_streak_bet_needs_the_bettor_s_own_main_bet(self) -> None:
        rnd = streak_table().open_round()
        rnd.place_bet(1, "ana", main=100)
        assert_refused(rnd, lambda: rnd.place_bet(1, "bo", streak={2: 10}), BetRejected, "BJ 13.5.4")

    def test_bj_13_5_4_the_main_bet_must_be_kept_up_until_the_streak_is_decided(self) -> None:
        t = streak_table()
        streak_round(t, WIN, streak={2: 10})
        rnd = t.open_round()
        rnd.place_bet(1, "bo", main=100)  # someone else's main bet does not do
        rnd.place_bet(2, "ana", main=100)
        assert_refused(rnd, rnd.close_betting, BetRejected, "BJ 13.5.4")
        rnd.place_bet(1, "ana", main=100)
        rnd.verify_close_betting()  # now the deal may start

    def test_bj_13_5_4_a_player_who_leaves_forfeits_his_streak_bets(self) -> None:
        t = streak_table()
        streak_round(t, WIN, streak={2: 10, 5: 10})
        gone = t.forfeit_streaks("ana")
        assert [(s.level, s.stake) for s in gone] == [(2, 10), (5, 10)]
        assert t.open_streaks == []
        rnd = one_box(WIN, table=t, player="bo")  # the box is free again
        rnd.stand()
        assert nets(rnd) == {"bo": 100}

    def test_bj_13_5_5_after_a_split_more_hands_won_than_lost_is_a_win(self) -> None:
        # 8-8 split: 8+T = 18 and 8+9 = 17 ... against 17: one win, one push: a win for the streak.
        t = streak_table()
        rnd = one_box([BURN, "8S", "9H", "8D", "TD", "9D", "8C"], table=t, streak={2: 10})
        rnd.split()
        rnd.stand()
        rnd.stand()
        assert settled(rnd).boxes[0].result == "win"
        assert [s.wins for s in t.open_streaks] == [1]
        assert nets(rnd) == {"ana": 100}

    def test_bj_13_5_5_after_a_split_as_many_won_as_lost_keeps_the_marker(self) -> None:
        # 18 wins, 16 loses against 17.
        t = streak_table()
        rnd = one_box([BURN, "8S", "9H", "8D", "TD", "8H", "8C"], table=t, streak={2: 10})
        rnd.split()
        rnd.stand()
        rnd.stand()
        assert settled(rnd).boxes[0].result == "push"
        assert [(o.net, o.status) for o in outcomes(rnd, "streak_2")] == [(0, "open")]
        assert [s.wins for s in t.open_streaks] == [0]
        assert nets(rnd) == {"ana": 0}

    def test_bj_13_5_5_after_a_split_fewer_won_than_lost_loses(self) -> None:
        # 16 loses, 17 pushes against 17.
        t = streak_table()
        rnd = one_box([BURN, "8S", "9H", "8D", "8H", "9D", "8C"], table=t, streak={2: 10}, max_split_hands=2)
        rnd.split()
        rnd.stand()
        rnd.stand()
        assert settled(rnd).boxes[0].result == "loss"
        assert net_of(rnd, "streak_2") == -10
        assert nets(rnd) == {"ana": -110}

    def test_bj_13_5_6_surrender_loses_the_box_s_streak_bets(self) -> None:
        t = streak_table()
        streak_round(t, WIN, streak={2: 10, 3: 10})
        rnd = one_box(["TS", "9H", "6S"], table=t)
        rnd.surrender()
        assert [o.net for o in outcomes(rnd, "streak_2") + outcomes(rnd, "streak_3")] == [-10, -10]
        assert nets(rnd) == {"ana": -70}  # −50 −10 −10
        assert t.open_streaks == []

    @pytest.mark.parametrize(
        ("cards", "answer", "result"),
        [
            (["AS", "AH", "KS"], "even_money", 100),  # even money
            (["AS", "9H", "KS", "8C"], None, 150),  # blackjack
            (["6H", "9H", "7H", "8H"], "hit", 300),  # special bonus
        ],
    )
    def test_bj_13_5_a_win_by_blackjack_even_money_or_bonus_counts_for_the_streak(
        self, cards: list[str], answer: str | None, result: int
    ) -> None:
        t = streak_table()
        rnd = one_box([BURN, *cards], table=t, streak={2: 10})
        if answer is not None:
            rnd.act(answer)
        assert net_of(rnd, "main") == result
        assert settled(rnd).boxes[0].result == "win"
        assert [s.wins for s in t.open_streaks] == [1]


# -- BJ 14 ----------------------------------------------------------------------------------------------------


class TestBJ14SideBetOdds:
    def test_bj_14_1_any_pair_pays_eleven_to_one(self) -> None:
        assert net_of(side_round(("5S", "5H"), "any_pair", stake=7), "any_pair") == 77

    def test_bj_14_2_sevens_pays_only_the_highest_combination(self) -> None:
        # Three 7s of one suit after the split: 5000 to 1 only (not also 150 for the first two).
        rnd = one_box([BURN, "7S", "9H", "7S", "7S", "TC", "8C"], side={"sevens": 2}, side_bets_offered=ALL_SIDE_BETS)
        rnd.split()
        rnd.stand()
        rnd.stand()
        assert [o.net for o in outcomes(rnd, "sevens")] == [10000]

    def test_bj_14_2_three_sevens_of_two_suits_pay_as_the_first_two_by_default(self) -> None:
        for first_two, expected in ((("7S", "7S"), 1500), (("7S", "7H"), 500)):
            rnd = one_box(
                [BURN, first_two[0], "9H", first_two[1], "7H", "TC", "8C"],
                side={"sevens": 10},
                side_bets_offered=ALL_SIDE_BETS,
            )
            rnd.split()
            rnd.stand()
            rnd.stand()
            assert net_of(rnd, "sevens") == expected  # 150 or 50 to 1

    def test_bj_14_2_sevens_mixed_triple_pays_500(self) -> None:
        for first_two in (("7S", "7S"), ("7S", "7H")):
            rnd = one_box(
                [BURN, first_two[0], "9H", first_two[1], "7H", "TC", "8C"],
                side={"sevens": 10},
                side_bets_offered=ALL_SIDE_BETS,
                sevens_mixed_triple=SevensMixedTriple.PAYS_500,
            )
            rnd.split()
            rnd.stand()
            rnd.stand()
            assert net_of(rnd, "sevens") == 5000

    def test_bj_14_3_over_under_13_pays_one_to_one(self) -> None:
        assert net_of(side_round(("9S", "9D"), "over_13", stake=40), "over_13") == 40

    def test_bj_14_4_perfect_pairs_pays_5_12_25(self) -> None:
        paid = [
            net_of(side_round(pair, "perfect_pairs", stake=2), "perfect_pairs")
            for pair in (("4C", "4H"), ("4C", "4S"), ("4C", "4C"))
        ]
        assert paid == [10, 24, 50]

    @pytest.mark.parametrize(("level", "odds"), [(2, 3), (3, 8), (4, 18), (5, 38)])
    def test_bj_14_5_streak_pays_3_8_18_38(self, level: int, odds: int) -> None:
        t = streak_table()
        paid = [
            net_of(streak_round(t, WIN, streak={level: 10} if i == 0 else None), f"streak_{level}")
            for i in range(level)
        ]
        assert paid == [0] * (level - 1) + [10 * odds]

    def test_bj_14_paytables_option_changes_the_odds(self) -> None:
        rules = load(
            {
                "side_bets_offered": ["any_pair", "perfect_pairs", "over_under_13", "streak"],
                "paytables": {
                    "any_pair": 12,
                    "perfect_pairs": {"mixed": 6},
                    "over_under_13": "3/2",
                    "streak": {"2": 4},
                },
            }
        )
        assert rules.paytables.perfect_pairs_coloured == 12  # the rest keeps the statute's odds
        assert net_of(side_round(("5S", "5H"), "any_pair", rules=rules), "any_pair") == 120
        assert net_of(side_round(("5S", "5D"), "perfect_pairs", rules=rules), "perfect_pairs") == 60
        assert net_of(side_round(("5H", "5D"), "perfect_pairs", rules=rules), "perfect_pairs") == 120
        assert net_of(side_round(("TS", "5S"), "over_13", rules=rules), "over_13") == 15  # 10 at 3/2
        t = new_table(rules=rules)
        streak_round(t, WIN, streak={2: 10})
        assert net_of(streak_round(t, WIN), "streak_2") == 40
        assert BlackjackRules().paytables == BlackjackPaytable()


# -- BJ 15 ----------------------------------------------------------------------------------------------------


class TestBJ15SpecialBonus:
    def test_bj_15_suited_six_seven_eight_pays_three_times_at_once(self) -> None:
        rnd = one_box([BURN, "6H", "9H", "8H", "7H"])
        rnd.hit()
        assert ops(rnd, Paid) == [Paid(1, 0, "ana", "special_bonus", 300, "BJ 15")]
        s = settled(rnd)
        assert s.boxes[0].hands[0].status == "special_bonus"
        assert len(s.dealer_cards) == 1  # settled at once: the dealer plays for nothing
        assert nets(rnd) == {"ana": 300}
        assert outcomes(rnd, "main")[0].rule == "BJ 15"

    def test_bj_15_three_sevens_of_any_suits(self) -> None:
        rnd = one_box([BURN, "7S", "9H", "7D", "7C"])
        rnd.hit()
        assert nets(rnd) == {"ana": 300}

    def test_bj_15_six_seven_eight_of_mixed_suits_is_an_ordinary_21(self) -> None:
        rnd = one_box([BURN, "6H", "9H", "7H", "8S", "8C"])
        rnd.hit()
        assert nets(rnd) == {"ana": 100}  # 21 against 17

    def test_bj_15_paid_even_when_the_dealer_shows_an_ace(self) -> None:
        # ana insures, so the dealer turns a second card: A+K. The blackjack does not take the bonus back.
        rnd = one_box([BURN, "7H", "AH", "8H", "6H", "KC"])
        rnd.insure(50)
        rnd.hit()
        assert ops(rnd, Paid) == [Paid(1, 0, "ana", "special_bonus", 300, "BJ 15")]
        assert settled(rnd).dealer_blackjack
        assert nets(rnd) == {"ana": 400}  # bonus 3 × 100, insurance 50 at 2 to 1

    def test_bj_15_a_doubled_hand_is_paid_three_times_its_doubled_stake(self) -> None:
        rnd = one_box([BURN, "6D", "9H", "8D", "7D"])
        rnd.double()
        assert nets(rnd) == {"ana": 600}  # 3 × 200

    def test_bj_15_a_split_hand_s_first_three_cards_count(self) -> None:
        # 7-7 split: hand 0 gets 7 (7-7, the resplit declined by hitting) then 7: three 7s; hand 1 7+T = 17.
        rnd = one_box([BURN, "7S", "9H", "7H", "7D", "7C", "TC", "8C"], max_split_hands=2)
        rnd.split()
        rnd.hit()
        assert ops(rnd, Paid) == [Paid(1, 0, "ana", "special_bonus", 300, "BJ 15")]
        rnd.stand()
        assert nets(rnd) == {"ana": 300}  # +300, 17 against 17 pushes

    def test_bj_15_special_bonus_false_plays_the_hand_on(self) -> None:
        rnd = one_box([BURN, "6H", "9H", "8H", "7H", "8C"], special_bonus=False)
        rnd.hit()
        assert ops(rnd, Paid) == []
        assert nets(rnd) == {"ana": 100}  # an ordinary 21 against 17
