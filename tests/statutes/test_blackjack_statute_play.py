"""Blackjack, Despacho 57/2009: BJ 16-21 (splitting, doubling, surrender, five cards, several players on one
box, approval), RULES.md "Original bet only" and the table limits. Helpers and conventions: see
``test_blackjack_statute.py``."""

from __future__ import annotations

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

from croupier import rulesdoc
from croupier.blackjack.operations import Decision, Paid
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import (
    STATUTE,
    BlackjackRules,
    BustedStakes,
    DoubleOn,
    SideBet,
    SplitPairBy,
    load,
)
from croupier.errors import BetRejected, IllegalAction, OutOfTurn
from croupier.money import Limit
from croupier.rulesdoc import OptionKind
from croupier.statute import LIMITS


def shared_box(
    cards: list[str], bets: list[tuple[str, int]], *, seated: str | None = "ana", **options: object
) -> BlackjackRound:
    """Box 1 with several bettors (player, main bet) in the order listed, dealt."""
    t = new_table(cards, **options)
    rnd = t.open_round()
    if seated is not None:
        rnd.seat(1, seated)
    for player, main in bets:
        rnd.place_bet(1, player, main=main)
    rnd.close_betting()
    return rnd


# -- BJ 16 ----------------------------------------------------------------------------------------------------


class TestBJ16Splitting:
    def test_bj_16_1_a_pair_splits_into_up_to_four_hands_by_default(self) -> None:
        # 8-8 split three times; the fourth pair (hand 0's 8-8) cannot be split: four hands is the most.
        rnd = one_box([BURN, "8S", "9H", "8D", "8C", "8H", "8S", "TC", "TD", "TH", "8C"])
        for _ in range(3):
            assert "split" in actions(rnd)
            rnd.split()
        assert len(rnd.boxes[1].hands) == 4
        assert hand_cards(rnd)[0] == ["8S", "8S"]
        assert actions(rnd) == ("hit", "stand", "double")
        assert_refused(rnd, rnd.split, IllegalAction, "BJ 16.1")
        for _ in range(4):
            rnd.stand()
        # Dealer 9+8 = 17: hand 0 (16) −100, three 18s +300.
        assert nets(rnd) == {"ana": 200}

    def test_bj_16_1_max_split_hands_option(self) -> None:
        rnd = one_box([BURN, "8S", "9H", "8D", "8C", "TC", "8C"], max_split_hands=2)
        rnd.split()
        assert hand_cards(rnd)[0] == ["8S", "8C"]
        assert "split" not in actions(rnd)
        rnd.stand()
        rnd.stand()
        assert nets(rnd) == {"ana": 0}  # 16 −100, 18 +100 against 17

    def test_bj_16_1_five_hands_in_procedure_3(self) -> None:
        assert BlackjackRules(procedure=3).split_hands_limit == 5
        # burn, ana 8, up 9, ana 8, hole 8; then hand 0 takes 8, 8, 8 (three resplits), then T.
        rnd = one_box([BURN, "8S", "9H", "8D", "8C", "8S", "8H", "8D", "8C", "TC", "TD", "TH", "TS"], procedure=3)
        for _ in range(4):
            rnd.split()
        assert len(rnd.boxes[1].hands) == 5
        assert actions(rnd) == ("hit", "stand", "double")
        for _ in range(5):
            rnd.stand()
        # Dealer 9+8 = 17: hand 0 (8-8) −100, four 18s +400.
        assert nets(rnd) == {"ana": 300}

    def test_bj_16_1_a_pair_is_two_cards_of_the_same_rank(self) -> None:
        rnd = one_box([BURN, "JS", "9H", "QS"])
        assert "split" not in actions(rnd)
        assert_refused(rnd, rnd.split, IllegalAction, "BJ 16.1")

    def test_bj_16_1_split_pair_by_value_lets_two_ten_value_cards_split(self) -> None:
        rnd = one_box([BURN, "JS", "9H", "QS", "KC", "9C", "8C"], split_pair_by=SplitPairBy.VALUE)
        assert "split" in actions(rnd)
        rnd.split()
        assert "split" in actions(rnd)  # J-K: still a pair by value
        rnd.stand()
        rnd.stand()
        assert hand_cards(rnd) == [["JS", "KC"], ["QS", "9C"]]
        assert nets(rnd) == {"ana": 200}  # 20 and 19 against 17

    def test_bj_16_2_each_split_hand_carries_the_original_stake(self) -> None:
        rnd = one_box([BURN, "9S", "7H", "9D", "TC", "TD", "TH"], main=60)
        rnd.split()
        assert [h.stakes for h in rnd.boxes[1].hands] == [{"ana": 60}, {"ana": 60}]
        rnd.stand()
        rnd.stand()
        # Dealer 7+T = 17: two 19s win 60 each.
        assert nets(rnd) == {"ana": 120}

    def test_bj_16_3_split_aces_receive_one_card_each(self) -> None:
        rnd = one_box([BURN, "AS", "9H", "AD", "5C", "9C", "8C"])
        rnd.split()
        assert rnd.is_over  # no decision on split aces
        assert hand_cards(rnd) == [["AS", "5C"], ["AD", "9C"]]
        # Soft 16 loses, soft 20 wins against 17.
        assert nets(rnd) == {"ana": 0}

    def test_bj_16_3_a_split_ace_that_receives_an_ace_may_be_resplit_by_default(self) -> None:
        rnd = one_box([BURN, "AS", "9H", "AD", "AC", "9C", "TC", "8S", "8C"])
        rnd.split()
        assert rnd.pending == Decision("play", 1, 0, "ana", ("split", "stand"), rule="BJ 6.5")
        assert_refused(rnd, rnd.hit, IllegalAction, "BJ 6.4")
        assert_refused(rnd, rnd.double, IllegalAction, "BJ 17.1")
        rnd.split()
        assert hand_cards(rnd) == [["AS", "9C"], ["AC", "TC"], ["AD", "8S"]]
        # 20, 21 (not a blackjack) and 19 against 17: +300.
        assert nets(rnd) == {"ana": 300}

    def test_bj_16_3_resplit_aces_false_gives_a_split_ace_its_one_card_only(self) -> None:
        rnd = one_box([BURN, "AS", "9H", "AD", "AC", "9C", "8C"], resplit_aces=False)
        rnd.split()
        assert rnd.is_over
        assert hand_cards(rnd) == [["AS", "AC"], ["AD", "9C"]]
        # Soft 12 loses, soft 20 wins against 17.
        assert nets(rnd) == {"ana": 0}

    def test_bj_16_4_other_split_hands_draw_freely_until_bust(self) -> None:
        rnd = one_box([BURN, "4S", "9H", "4D", "2C", "TD", "5C", "8C", "8D", "8H"])
        rnd.split()
        rnd.hit()  # 4+2 → 16
        rnd.hit()  # → 21: nothing more is asked
        assert rnd.pending is not None
        assert rnd.pending.hand == 1
        rnd.hit()  # 4+8 → 20
        rnd.stand()
        assert hand_cards(rnd) == [["4S", "2C", "TD", "5C"], ["4D", "8C", "8D"]]
        assert nets(rnd) == {"ana": 200}  # 21 and 20 against 9+8 = 17

    def test_bj_16_5_a_further_pair_may_be_split_again(self) -> None:
        rnd = one_box([BURN, "8S", "9H", "8D", "8C", "TC", "TD", "TH", "8H"])
        rnd.split()
        assert "split" in actions(rnd)
        rnd.split()
        for _ in range(3):
            rnd.stand()
        assert nets(rnd) == {"ana": 300}  # three 18s against 17

    def test_bj_16_5_a_declined_split_blocks_later_splits(self) -> None:
        # Hand 0 is 8-8 and stands (a declined split); hand 1 then gets an 8: no split.
        rnd = one_box([BURN, "8S", "9H", "8D", "8C", "8H", "TC"])
        rnd.split()
        rnd.stand()
        assert hand_cards(rnd)[1] == ["8D", "8H"]
        assert actions(rnd) == ("hit", "stand", "double")
        assert_refused(rnd, rnd.split, IllegalAction, "BJ 16.1")
        rnd.stand()
        assert nets(rnd) == {"ana": -200}  # two 16s against 9+T = 19

    def test_bj_16_5_a_hit_on_a_pair_counts_as_a_declined_split(self) -> None:
        rnd = one_box([BURN, "3S", "9H", "3D", "3C", "2C", "3H", "TH", "8C"])
        rnd.split()
        rnd.hit()  # 3-3 hit: the split offered is declined; 3+3+2 = 8
        rnd.stand()
        assert hand_cards(rnd)[1] == ["3D", "3H"]
        assert "split" not in actions(rnd)
        rnd.hit()  # 3+3+T = 16
        rnd.stand()
        assert nets(rnd) == {"ana": -200}  # 8 and 16 against 17

    def test_bj_16_5_split_after_declining_true_allows_the_later_split(self) -> None:
        rnd = one_box([BURN, "8S", "9H", "8D", "8C", "8H", "TC", "TD", "TH"], split_after_declining=True)
        rnd.split()
        rnd.stand()  # 8-8 declined
        assert "split" in actions(rnd)
        rnd.split()
        rnd.stand()
        rnd.stand()
        # Dealer 9+T = 19: 16, 18, 18 all lose.
        assert nets(rnd) == {"ana": -300}

    def test_bj_16_6_a_player_who_split_loses_only_the_original_bet_to_a_dealer_blackjack(self) -> None:
        # 8-8 split against a ten; hand 0 doubles 8+3; hand 1 stands; the dealer turns an ace.
        rnd = one_box([BURN, "8S", "TH", "8D", "3C", "9C", "TC", "AD"])
        rnd.split()
        rnd.double()  # 8+3+9 = 20 on 200
        rnd.stand()  # 18
        s = settled(rnd)
        assert s.dealer_blackjack
        assert nets(rnd) == {"ana": -100}  # not −300: the original 100 once
        assert outcomes(rnd, "main")[0].rule == "BJ 16.6"

    def test_bj_16_7_streak_bets_follow_the_split_hands(self) -> None:
        # BJ 13.5.5: two wins after a split are a win for the streak; the streak level 2 is reached.
        t = new_table(side_bets_offered=frozenset({SideBet.STREAK}))
        first = one_box([BURN, "TS", "9H", "9S", "8C"], table=t, streak={2: 10})
        first.stand()
        rnd = one_box(["8S", "9H", "8D", "TC", "TD", "8C"], table=t)
        rnd.split()
        rnd.stand()
        rnd.stand()
        assert net_of(rnd, "streak_2") == 30
        assert nets(rnd) == {"ana": 230}


# -- BJ 17 ----------------------------------------------------------------------------------------------------


class TestBJ17Doubling:
    def test_bj_17_1_double_on_any_two_cards_by_default(self) -> None:
        rnd = one_box([BURN, "9S", "7H", "3S", "8C", "TC"])
        assert "double" in actions(rnd)  # 12
        rnd.double()
        assert rnd.boxes[1].hands[0].stakes == {"ana": 200}
        assert nets(rnd) == {"ana": 200}  # 20 against 7+T = 17 on 200

    def test_bj_17_1_double_on_eleven_only(self) -> None:
        rnd = one_box([BURN, "9S", "7H", "3S"], double_on=DoubleOn.ELEVEN)
        assert "double" not in actions(rnd)
        assert not rnd.can_double()
        assert_refused(rnd, rnd.double, IllegalAction, "BJ 17.1")
        rnd = one_box([BURN, "5S", "7H", "6S", "9C", "TC"], double_on=DoubleOn.ELEVEN)
        assert rnd.can_double()
        rnd.double()
        assert nets(rnd) == {"ana": 200}  # 20 against 17 on 200

    def test_bj_17_1_only_on_the_first_two_cards(self) -> None:
        rnd = one_box([BURN, "2S", "7H", "3S", "4C"])
        rnd.hit()
        assert_refused(rnd, rnd.double, IllegalAction, "BJ 17.1")

    def test_bj_17_1_double_after_split_by_default(self) -> None:
        rnd = one_box([BURN, "8S", "9H", "8D", "3C", "TC", "TD", "8C"])
        rnd.split()
        assert "double" in actions(rnd)
        rnd.double()  # 8+3+T = 21 on 200
        rnd.stand()  # 18
        assert nets(rnd) == {"ana": 300}

    def test_bj_17_1_double_after_split_false(self) -> None:
        rnd = one_box([BURN, "8S", "9H", "8D", "3C"], double_after_split=False)
        rnd.split()
        assert actions(rnd) == ("hit", "stand")
        assert_refused(rnd, rnd.double, IllegalAction, "BJ 17.1")

    def test_bj_17_2_a_doubled_hand_receives_exactly_one_card(self) -> None:
        rnd = one_box([BURN, "2S", "9H", "3S", "4C", "8C"])
        rnd.double()  # 9 on 200, no further card
        assert hand_cards(rnd) == [["2S", "3S", "4C"]]
        s = settled(rnd)
        assert s.boxes[0].hands[0].status == "doubled"
        assert nets(rnd) == {"ana": -200}

    def test_bj_17_3_a_player_who_doubled_loses_only_the_original_bet(self) -> None:
        rnd = one_box([BURN, "5S", "AH", "6S", "TC", "KD"])
        rnd.decline()
        rnd.double()  # 21 on 200
        assert settled(rnd).dealer_blackjack
        assert nets(rnd) == {"ana": -100}
        assert outcomes(rnd, "main")[0].rule == "BJ 17.3"


# -- BJ 18 ----------------------------------------------------------------------------------------------------


class TestBJ18Surrender:
    def test_bj_18_1_surrender_loses_half_the_bet(self) -> None:
        rnd = one_box([BURN, "TS", "9H", "6S"])
        rnd.surrender()
        assert ops(rnd, Paid) == [Paid(1, 0, "ana", "surrender", -50, "BJ 18.1")]
        s = settled(rnd)
        assert s.boxes[0].hands[0].status == "surrendered"
        assert len(s.dealer_cards) == 1
        assert nets(rnd) == {"ana": -50}
        assert outcomes(rnd, "main")[0].rule == "BJ 18.1"

    def test_bj_18_1_no_surrender_against_an_ace(self) -> None:
        rnd = one_box([BURN, "TS", "AH", "6S"])
        rnd.decline()
        assert "surrender" not in actions(rnd)
        assert_refused(rnd, rnd.surrender, IllegalAction, "BJ 18.1")

    def test_bj_18_1_surrender_against_a_ten_is_before_the_blackjack_is_known(self) -> None:
        # No hole card: the surrender stands even though the dealer's hand would have been a blackjack.
        rnd = one_box([BURN, "TS", "TH", "6S"])
        rnd.surrender()
        assert nets(rnd) == {"ana": -50}

    def test_bj_18_1_surrender_false_is_not_offered(self) -> None:
        rnd = one_box([BURN, "TS", "9H", "6S"], surrender=False)
        assert actions(rnd) == ("hit", "stand", "double")
        assert_refused(rnd, rnd.surrender, IllegalAction, "BJ 18.1")

    def test_bj_18_2_surrender_is_the_first_decision_only(self) -> None:
        rnd = one_box([BURN, "2S", "9H", "3S", "4C"])
        rnd.hit()
        assert_refused(rnd, rnd.surrender, IllegalAction, "BJ 18.1")
        rnd = one_box([BURN, "8S", "9H", "8D", "3C"])
        rnd.split()
        assert "surrender" not in actions(rnd)
        assert_refused(rnd, rnd.surrender, IllegalAction, "BJ 18.1")

    def test_bj_18_2_surrender_is_final(self) -> None:
        rnd = one_box([BURN, "TS", "9H", "6S"])
        rnd.surrender()
        assert rnd.is_over
        assert_refused(rnd, rnd.hit, OutOfTurn, "BJ 6.3")

    def test_bj_18_3_surrender_loses_all_the_box_s_streak_bets(self) -> None:
        t = new_table(side_bets_offered=frozenset({SideBet.STREAK}))
        rnd = one_box([BURN, "TS", "9H", "6S"], table=t, streak={2: 10, 4: 20})
        rnd.surrender()
        assert [(o.kind, o.net, o.status) for o in settled(rnd).outcomes if o.kind.startswith("streak")] == [
            ("streak_2", -10, "lost"),
            ("streak_4", -20, "lost"),
        ]
        assert settled(rnd).boxes[0].result == "loss"
        assert nets(rnd) == {"ana": -80}
        assert t.open_streaks == []


# -- BJ 19 ----------------------------------------------------------------------------------------------------


class TestBJ19FiveCards:
    def test_bj_19_1_five_cards_of_21_or_less_may_be_paid_half_at_once(self) -> None:
        rnd = one_box([BURN, "2S", "9H", "3S", "2H", "3H", "4C"])
        for _ in range(3):
            rnd.hit()  # 2+3+2+3+4 = 14
        assert actions(rnd) == ("hit", "stand", "claim_five_card")
        rnd.claim_five_card()
        assert ops(rnd, Paid) == [Paid(1, 0, "ana", "five_card", 50, "BJ 19.1")]
        s = settled(rnd)
        assert s.boxes[0].hands[0].status == "five_card"
        assert len(s.dealer_cards) == 1
        assert nets(rnd) == {"ana": 50}

    def test_bj_19_1_five_cards_on_21_are_asked_claim_or_stand(self) -> None:
        rnd = one_box([BURN, "2S", "9H", "3S", "4H", "5H", "7C"])
        for _ in range(3):
            rnd.hit()  # 2+3+4+5+7 = 21
        assert actions(rnd) == ("claim_five_card", "stand")
        rnd.claim_five_card()
        assert nets(rnd) == {"ana": 50}

    def test_bj_19_1_a_split_hand_may_claim_five_cards(self) -> None:
        rnd = one_box([BURN, "2S", "9H", "2D", "2C", "3C", "2H", "3H", "TD", "8C"])
        rnd.split()
        rnd.stand()  # 2-2 declined: no resplit later
        assert hand_cards(rnd)[1] == ["2D", "3C"]
        for _ in range(3):
            rnd.hit()  # 2+3+2+3+T = 20
        rnd.claim_five_card()
        # Hand 0: 4 against 17 −100; hand 1: +50.
        assert nets(rnd) == {"ana": -50}

    def test_bj_19_2_without_the_claim_play_goes_on(self) -> None:
        rnd = one_box([BURN, "2S", "9H", "3S", "2H", "3H", "4C", "6D", "8C"])
        for _ in range(3):
            rnd.hit()
        rnd.hit()  # 14 + 6 = 20 in six cards: no more claim
        assert "claim_five_card" not in actions(rnd)
        rnd.stand()
        assert nets(rnd) == {"ana": 100}  # 20 against 17

    def test_bj_19_2_no_five_card_payment_against_an_ace(self) -> None:
        rnd = one_box([BURN, "2S", "AH", "3S", "2H", "3H", "4C", "7C"])
        rnd.decline()
        for _ in range(3):
            rnd.hit()
        assert actions(rnd) == ("hit", "stand")
        assert_refused(rnd, rnd.claim_five_card, IllegalAction, "BJ 19.1")
        rnd.stand()
        assert nets(rnd) == {"ana": -100}  # 14 against A+7 = 18

    def test_bj_19_1_five_card_payment_false_is_not_offered(self) -> None:
        rnd = one_box([BURN, "2S", "9H", "3S", "2H", "3H", "4C", "8C"], five_card_payment=False)
        for _ in range(3):
            rnd.hit()
        assert actions(rnd) == ("hit", "stand")
        assert_refused(rnd, rnd.claim_five_card, IllegalAction, "BJ 19.1")
        rnd.stand()
        assert nets(rnd) == {"ana": -100}  # 14 against 17


# -- BJ 20 ----------------------------------------------------------------------------------------------------


class TestBJ20SeveralPlayersOnOneBox:
    def test_bj_20_1_box_control_1_the_seated_player_decides(self) -> None:
        rnd = shared_box([BURN, "TS", "9H", "9S", "8C"], [("bo", 500), ("ana", 100)])
        assert rnd.pending is not None
        assert rnd.pending.player == "ana"
        rnd.stand()
        assert nets(rnd) == {"bo": 500, "ana": 100}

    def test_bj_20_1_box_control_1_without_a_seated_bettor_the_first_main_bettor_decides(self) -> None:
        rnd = shared_box([BURN, "TS", "9H", "9S", "8C"], [("bo", 100), ("ana", 500)], seated="cy")
        assert rnd.pending is not None
        assert rnd.pending.player == "bo"

    def test_bj_20_1_box_control_1_sets_no_limit_on_bettors(self) -> None:
        rnd = new_table().open_round()
        for player in ("a", "b", "c", "d", "e", "f"):
            rnd.place_bet(1, player, main=10)
        assert len(rnd.boxes[1].bettors) == 6

    def test_bj_20_1_box_control_2_at_most_three_bettors(self) -> None:
        rnd = new_table(box_control=2).open_round()
        for player in ("a", "b", "c"):
            rnd.place_bet(1, player, main=10)
        assert_refused(rnd, lambda: rnd.place_bet(1, "d", main=10), BetRejected, "BJ 20.1")
        rnd.place_bet(1, "a", main=10)  # a bettor already there may add to his bet

    def test_bj_20_1_max_bettors_per_box_option(self) -> None:
        rnd = new_table(box_control=2, max_bettors_per_box=2).open_round()
        rnd.place_bet(1, "a", main=10)
        rnd.place_bet(1, "b", main=10)
        assert_refused(rnd, lambda: rnd.place_bet(1, "c", main=10), BetRejected, "BJ 20.1")
        rnd = new_table(max_bettors_per_box=1).open_round()
        rnd.place_bet(1, "a", main=10)
        assert_refused(rnd, lambda: rnd.place_bet(1, "b", main=10), BetRejected, "BJ 20.1")

    def test_bj_20_1_box_control_2_the_seated_player_or_the_first_bettor_decides(self) -> None:
        rnd = shared_box([BURN, "TS", "9H", "9S"], [("bo", 500), ("ana", 100)], box_control=2)
        assert rnd.pending is not None
        assert rnd.pending.player == "ana"
        rnd = shared_box([BURN, "TS", "9H", "9S"], [("bo", 100), ("ana", 500)], seated=None, box_control=2)
        assert rnd.pending is not None
        assert rnd.pending.player == "bo"

    def test_bj_20_1_box_control_3_the_highest_main_bet_decides(self) -> None:
        rnd = shared_box([BURN, "TS", "9H", "9S", "8C"], [("ana", 100), ("bo", 200), ("cy", 150)], box_control=3)
        assert rnd.pending is not None
        assert rnd.pending.player == "bo"
        assert_refused(rnd, lambda: rnd.stand(player="ana"), OutOfTurn, "BJ 20.2")
        rnd.stand(player="bo")
        assert nets(rnd) == {"ana": 100, "bo": 200, "cy": 150}

    def test_bj_20_1_box_control_3_ties_go_to_the_seated_player(self) -> None:
        rnd = shared_box([BURN, "TS", "9H", "9S"], [("bo", 200), ("ana", 200)], box_control=3)
        assert rnd.pending is not None
        assert rnd.pending.player == "ana"
        rnd = shared_box([BURN, "TS", "9H", "9S"], [("bo", 200), ("cy", 200)], box_control=3)
        assert rnd.pending is not None
        assert rnd.pending.player == "bo"  # the seated ana has no main bet: the first tied bettor

    def test_bj_20_1_a_back_bettor_may_follow_a_double(self) -> None:
        rnd = shared_box([BURN, "5S", "9H", "6S", "TC", "8C"], [("ana", 100), ("bo", 50)])
        rnd.double()
        assert rnd.pending == Decision("follow", 1, 0, "bo", ("follow", "decline"), rule="BJ 20.1")
        assert_refused(rnd, lambda: rnd.follow(player="ana"), OutOfTurn, "BJ 20.2")
        rnd.follow(player="bo")
        # 21 against 17: ana 200, bo 100.
        assert nets(rnd) == {"ana": 200, "bo": 100}

    def test_bj_20_1_a_back_bettor_who_does_not_follow_a_double_keeps_his_stake(self) -> None:
        rnd = shared_box([BURN, "5S", "9H", "6S", "TC", "8C"], [("ana", 100), ("bo", 50)])
        rnd.double()
        rnd.decline(player="bo")
        assert rnd.boxes[1].hands[0].stakes == {"ana": 200, "bo": 50}
        assert nets(rnd) == {"ana": 200, "bo": 50}

    def test_bj_20_1_a_back_bettor_may_follow_a_split(self) -> None:
        # Hand 0: 8+T = 18 wins; hand 1: 8+7 = 15 loses (dealer 17).
        rnd = shared_box([BURN, "8S", "9H", "8D", "TC", "7C", "8C"], [("ana", 100), ("bo", 50)])
        rnd.split()
        rnd.follow(player="bo")
        assert [h.stakes for h in rnd.boxes[1].hands] == [{"ana": 100, "bo": 50}, {"ana": 100, "bo": 50}]
        rnd.stand()
        rnd.stand()
        assert nets(rnd) == {"ana": 0, "bo": 0}

    def test_bj_20_1_a_back_bettor_who_does_not_follow_a_split_stays_on_the_first_hand(self) -> None:
        rnd = shared_box([BURN, "8S", "9H", "8D", "TC", "7C", "8C"], [("ana", 100), ("bo", 50)])
        rnd.split()
        rnd.decline(player="bo")
        assert [h.stakes for h in rnd.boxes[1].hands] == [{"ana": 100, "bo": 50}, {"ana": 100}]
        rnd.stand()
        rnd.stand()
        assert nets(rnd) == {"ana": 0, "bo": 50}

    def test_bj_20_1_insurance_and_even_money_are_each_bettor_s_own_choice(self) -> None:
        # A blackjack box with two bettors against an ace: ana takes even money, bo declines and pushes the
        # dealer's blackjack.
        rnd = shared_box([BURN, "AS", "AH", "KS", "KC"], [("ana", 100), ("bo", 50)])
        rnd.take_even_money(player="ana")
        assert rnd.pending is not None
        assert (rnd.pending.player, rnd.pending.actions) == ("bo", ("even_money", "decline"))
        rnd.decline(player="bo")
        assert nets(rnd) == {"ana": 100, "bo": 0}
        # Insurance: ana insures, bo does not; the dealer has blackjack.
        rnd = shared_box([BURN, "TS", "AH", "9S", "KC"], [("ana", 100), ("bo", 50)])
        rnd.insure(50, player="ana")
        rnd.decline(player="bo")
        rnd.stand()
        assert nets(rnd) == {"ana": 0, "bo": -50}

    def test_bj_20_1_the_deciding_player_s_surrender_and_five_card_claim_apply_to_every_stake(self) -> None:
        rnd = shared_box([BURN, "TS", "9H", "6S"], [("ana", 100), ("bo", 50)])
        rnd.surrender()
        assert nets(rnd) == {"ana": -50, "bo": -25}
        rnd = shared_box([BURN, "2S", "9H", "3S", "2H", "3H", "4C"], [("ana", 100), ("bo", 50)])
        for _ in range(3):
            rnd.hit()
        rnd.claim_five_card()
        assert nets(rnd) == {"ana": 50, "bo": 25}

    def test_bj_20_1_a_special_bonus_pays_each_bettor_on_his_own_stake(self) -> None:
        rnd = shared_box([BURN, "6H", "9H", "7H", "8H"], [("ana", 100), ("bo", 50)])
        rnd.double()
        rnd.decline(player="bo")
        assert nets(rnd) == {"ana": 600, "bo": 150}  # 3 × 200 and 3 × 50

    def test_bj_20_1_streaks_are_judged_per_bettor(self) -> None:
        # ana splits, bo stays on hand 0 only: hand 0 wins, hand 1 loses.
        t = new_table([BURN, "8S", "9H", "8D", "TC", "7C", "8C"], side_bets_offered=frozenset({SideBet.STREAK}))
        rnd = t.open_round()
        rnd.seat(1, "ana")
        rnd.place_bet(1, "ana", main=100, streak={2: 10})
        rnd.place_bet(1, "bo", main=50, streak={2: 10})
        rnd.close_betting()
        rnd.split()
        rnd.decline(player="bo")
        rnd.stand()
        rnd.stand()
        assert settled(rnd).boxes[0].result == "push"  # the deciding player's result
        assert {s.player: s.wins for s in t.open_streaks} == {"ana": 0, "bo": 1}
        assert nets(rnd) == {"ana": 0, "bo": 50}

    def test_bj_20_2_players_of_other_boxes_may_not_interfere(self) -> None:
        t = new_table([BURN, "TS", "TC", "9H", "9S", "8S", "8C"])
        rnd = t.open_round()
        rnd.place_bet(1, "ana", main=100)
        rnd.place_bet(1, "cy", main=100)
        rnd.place_bet(2, "bo", main=100)
        rnd.close_betting()
        assert_refused(rnd, lambda: rnd.hit(player="bo"), OutOfTurn, "BJ 20.2")
        assert_refused(rnd, lambda: rnd.hit(player="cy"), OutOfTurn, "BJ 20.2")
        assert not rnd.can("stand", player="bo")
        rnd.stand(player="ana")
        rnd.stand(player="bo")
        assert nets(rnd) == {"ana": 100, "cy": 100, "bo": 100}


# -- BJ 21 ----------------------------------------------------------------------------------------------------


def kinds(rules: BlackjackRules) -> dict[str, tuple[OptionKind, str]]:
    return {d.option.split(".")[0]: (d.kind, d.rule) for d in rulesdoc.differences(rules, STATUTE)}


class TestBJ21Approval:
    def test_bj_21_1_options_under_the_articles_need_approval(self) -> None:
        rules = load(
            {
                "decks": 6,
                "boxes": 9,
                "cards_behind_cut": 60,
                "burn_each_round": True,
                "procedure": 3,
                "lose_original_only_on_double": False,
                "insurance_limit": 1,
                "side_bets_offered": ["any_pair", "sevens"],
                "max_split_hands": 3,
                "double_on": "eleven",
                "box_control": 3,
            }
        )
        approval = OptionKind.APPROVAL
        assert kinds(rules) == {
            "decks": (approval, "BJ 1"),
            "boxes": (approval, "BJ 1"),
            "cards_behind_cut": (approval, "BJ 2.1"),
            "burn_each_round": (approval, "BJ 4.2"),
            "procedure": (approval, "BJ 5.2"),
            "lose_original_only_on_double": (approval, "BJ 10.7"),
            "insurance_limit": (approval, "BJ 12.1"),
            "side_bets_offered": (approval, "BJ 13"),
            "max_split_hands": (approval, "BJ 16.1"),
            "double_on": (approval, "BJ 17.1"),
            "box_control": (approval, "BJ 20.1"),
        }

    def test_bj_21_1_the_statute_needs_no_approval(self) -> None:
        assert rulesdoc.differences(STATUTE, STATUTE) == []

    def test_bj_21_2_special_bonus_and_surrender_may_be_dropped_with_permission(self) -> None:
        rules = BlackjackRules(special_bonus=False, surrender=False)
        assert kinds(rules) == {
            "special_bonus": (OptionKind.WAIVABLE, "BJ 15"),
            "surrender": (OptionKind.WAIVABLE, "BJ 18"),
        }
        # Dropped, they change play: no surrender offered, and suited 6-7-8 is an ordinary 21.
        rnd = one_box([BURN, "6H", "9H", "7H", "8H", "8C"], rules=rules)
        assert "surrender" not in actions(rnd)
        rnd.hit()
        assert nets(rnd) == {"ana": 100}

    def test_bj_21_3_perfect_pairs_and_streak_need_permission(self) -> None:
        rnd = new_table().open_round()
        assert not rnd.can_place_bet(1, "ana", main=100, side={"perfect_pairs": 10})
        assert not rnd.can_place_bet(1, "ana", main=100, streak={2: 10})
        rules = BlackjackRules(side_bets_offered=frozenset({SideBet.PERFECT_PAIRS, SideBet.STREAK}))
        assert kinds(rules) == {"side_bets_offered": (OptionKind.APPROVAL, "BJ 13")}
        rnd = new_table(rules=rules).open_round()
        assert rnd.can_place_bet(1, "ana", main=100, side={"perfect_pairs": 10})
        assert rnd.can_place_bet(2, "ana", main=100, streak={2: 10})


# -- "Original bet only" ---------------------------------------------------------------------------------------


class TestOriginalBetOnly:
    def test_bj_16_6_busted_stakes_are_refunded_by_default(self) -> None:
        # 8-8 split against a ten: hand 0 doubles 8+4 and busts (200), hand 1 stands on 18. Dealer T+A.
        rnd = one_box([BURN, "8S", "TH", "8D", "4C", "TC", "TD", "AD"])
        rnd.split()
        rnd.double()
        rnd.stand()
        assert settled(rnd).dealer_blackjack
        assert nets(rnd) == {"ana": -100}  # the original bet once; the bust stake is returned

    def test_bj_16_6_busted_stakes_lost_loses_the_larger_of_busts_and_the_original(self) -> None:
        rnd = one_box(
            [BURN, "8S", "TH", "8D", "4C", "TC", "TD", "AD"], busted_stakes_on_dealer_blackjack=BustedStakes.LOST
        )
        rnd.split()
        rnd.double()
        rnd.stand()
        assert nets(rnd) == {"ana": -200}  # max(200 busted, 100 original)

    def test_bj_17_3_a_busted_double_against_a_ten_waits_for_the_dealer_s_second_card(self) -> None:
        # Refunded (default): the busted double is unsettled while a blackjack is possible; the dealer's ace
        # makes it "original bet only".
        rnd = one_box([BURN, "8S", "TH", "4D", "TC", "AD"])
        rnd.double()
        assert nets(rnd) == {"ana": -100}
        # Without a blackjack the bust loses its whole doubled stake.
        rnd = one_box([BURN, "8S", "TH", "4D", "TC", "7D"])
        rnd.double()
        assert nets(rnd) == {"ana": -200}

    def test_bj_17_3_with_busted_stakes_lost_a_busted_double_is_settled_at_once(self) -> None:
        rnd = one_box([BURN, "8S", "TH", "4D", "TC"], busted_stakes_on_dealer_blackjack=BustedStakes.LOST)
        rnd.double()
        assert len(settled(rnd).dealer_cards) == 1
        assert nets(rnd) == {"ana": -200}

    def test_bj_16_6_wins_paid_at_once_are_kept(self) -> None:
        # 7-7 split against a ten: hand 0 7-7-7 (special bonus +300), hand 1 7+T stands. Dealer T+A.
        rnd = one_box([BURN, "7S", "TH", "7D", "7C", "7H", "TC", "AD"], max_split_hands=2)
        rnd.split()
        rnd.hit()
        rnd.stand()
        assert settled(rnd).dealer_blackjack
        assert nets(rnd) == {"ana": 200}  # +300 kept, the original 100 lost once

    def test_bj_16_6_each_bettor_loses_his_original_bet_once(self) -> None:
        rnd = shared_box([BURN, "8S", "TH", "8D", "TC", "9C", "AD"], [("ana", 100), ("bo", 50)])
        rnd.split()
        rnd.follow(player="bo")
        rnd.stand()
        rnd.stand()
        assert nets(rnd) == {"ana": -100, "bo": -50}


# -- Money and table limits -------------------------------------------------------------------------------------


class TestMoneyAndTableLimits:
    def test_a_main_bet_is_a_multiple_of_two_chip_units(self) -> None:
        rnd = new_table().open_round()
        for amount in (101, 3):
            assert_refused(rnd, lambda a=amount: rnd.place_bet(1, "ana", main=a), BetRejected, LIMITS)
        rnd.place_bet(1, "ana", main=2)
        rnd = new_table(chip_unit=5, min_bet=Limit(10)).open_round()
        assert_refused(rnd, lambda: rnd.place_bet(1, "ana", main=15), BetRejected, LIMITS)
        rnd.place_bet(1, "ana", main=10)
        rnd.place_bet(1, "ana", side={"any_pair": 15})  # other bets: whole chip units
        assert_refused(rnd, lambda: rnd.place_bet(1, "ana", side={"any_pair": 12}), BetRejected, LIMITS)

    def test_amounts_are_whole_positive_numbers(self) -> None:
        rnd = new_table().open_round()
        for amount in (10.0, "10", True, -10):
            assert_refused(rnd, lambda a=amount: rnd.place_bet(1, "ana", main=a), BetRejected, LIMITS)  # type: ignore[arg-type]
        assert_refused(rnd, lambda: rnd.place_bet(1, "ana", main=10, side={"any_pair": 0}), BetRejected, LIMITS)

    def test_min_and_max_bet_defaults_and_options(self) -> None:
        rnd = new_table().open_round()
        assert_refused(rnd, lambda: rnd.place_bet(1, "ana", main=1_000_002), BetRejected, LIMITS)
        rnd.place_bet(1, "ana", main=1_000_000)
        rnd = new_table(min_bet=Limit(2, {"main": 10}), max_bet=Limit(1_000_000, {"any_pair": 20})).open_round()
        assert_refused(rnd, lambda: rnd.place_bet(1, "ana", main=8), BetRejected, LIMITS)
        assert_refused(rnd, lambda: rnd.place_bet(1, "ana", main=10, side={"any_pair": 22}), BetRejected, LIMITS)
        rnd.place_bet(1, "ana", main=10, side={"any_pair": 2})

    def test_insurance_limits_by_bet_type(self) -> None:
        rnd = one_box([BURN, "TS", "AH", "9S"], main=200, min_bet=Limit(2, {"insurance": 10}))
        assert_refused(rnd, lambda: rnd.insure(5), BetRejected, LIMITS)
        assert rnd.can("insurance", amount=10)
        rnd = one_box([BURN, "TS", "AH", "9S"], main=200, max_bet=Limit(1_000_000, {"insurance": 30}))
        assert rnd.pending is not None
        assert rnd.pending.max_insurance == 30
        assert_refused(rnd, lambda: rnd.insure(31), BetRejected, "BJ 12.1")

    def test_a_refused_bet_takes_nothing(self) -> None:
        t = new_table([BURN, "TS", "9H", "9S", "8C"])
        rnd = t.open_round()
        rnd.place_bet(1, "ana", main=100)
        assert_refused(rnd, lambda: rnd.place_bet(1, "ana", main=100, side={"any_pair": 3.5}), BetRejected, LIMITS)  # type: ignore[dict-item]
        rnd.close_betting()
        rnd.stand()
        assert nets(rnd) == {"ana": 100}
