"""Issue 14, the dealer's console: ``BlackjackRound.next_card`` says where the next card out of a live shoe goes,
in the statute's order (BJ 4 burns, BJ 5.1-5.2 the deal in procedures 1 and 3, BJ 6 the players' and the dealer's
draws, BJ 16 splits, BJ 17 doubles), the cards already reported counted first; asking changes nothing.

Each test plays a round as a live table does: before each card the dealer asks where it goes, then reports it,
and the step waiting for cards (the deal, an answer) is tried again until it has every card it needs."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from croupier.blackjack.round import BlackjackRound, NextCard
from croupier.blackjack.rules import BlackjackRules, BurnAfterShuffle, DealingDevice
from croupier.blackjack.table import BlackjackTable
from croupier.errors import IllegalAction
from croupier.primitives.chance import ChanceExhausted, ScriptedSource
from croupier.primitives.pcg import SeededRandom


def where(card: NextCard | None) -> str | None:
    """A target in short: ``burn``, ``dealer``, ``hole``, ``box 3.0`` (box 3, hand 0), ``box 3.0 down``."""
    if card is None:
        return None
    if card.to != "box":
        return card.to
    return f"box {card.box}.{card.hand}" + ("" if card.face_up else " down")


class Live:
    """A table whose cards come from the dealer, one report at a time."""

    def __init__(self, rules: BlackjackRules | None = None) -> None:
        self.source = ScriptedSource()
        self.table = BlackjackTable(rules or BlackjackRules(), self.source)
        self.rnd = self.table.open_round()

    def new_round(self) -> BlackjackRound:
        self.rnd = self.table.open_round()
        return self.rnd

    def feed(self, cards: str, answer: str | None = None) -> list[str | None]:
        """Report ``cards`` one by one; before each, where :meth:`next_card` says it goes. The step (the deal in the
        betting phase, else ``answer``) is tried after each card and must take exactly these cards."""
        rnd = self.rnd
        step: Callable[[], object] = rnd.close_betting if answer is None else lambda: rnd.act(answer)
        seen: list[str | None] = []
        codes = cards.split()
        for i, code in enumerate(codes):
            seen.append(where(rnd.next_card(answer)))
            self.source.add_cards([code])
            try:
                step()
            except ChanceExhausted:
                continue
            assert i == len(codes) - 1, f"the step took only {codes[: i + 1]}"
            assert self.source.cards_left == 0
            return seen
        raise AssertionError(f"the step still waits after {codes}")


# -- the deal (BJ 4, BJ 5) ---------------------------------------------------------------------------------------


def test_bj_5_2_procedure_1_burn_then_each_box_face_down_then_the_dealer_up_then_the_second_cards() -> None:
    live = Live()
    for box in (5, 1, 3):
        live.rnd.place_bet(box, f"p{box}", main=100)
    assert live.feed("5S 8H 9D 4C 7S 2H 3D 6C") == [
        "burn",  # BJ 4.1: one card after the shuffle
        "box 1.0 down",  # BJ 5.1: from the dealer's left, each box with a bet (procedure 1: face down)
        "box 3.0 down",
        "box 5.0 down",
        "dealer",  # the dealer's up card
        "box 1.0 down",
        "box 3.0 down",
        "box 5.0 down",
    ]
    assert live.rnd.pending is not None and live.rnd.pending.box == 1


def test_bj_5_2_procedure_3_every_card_face_up_and_the_hole_card_last() -> None:
    live = Live(BlackjackRules(procedure=3))
    live.rnd.place_bet(2, "ana", main=100)
    live.rnd.place_bet(4, "bo", main=100)
    assert live.feed("5S 8H 9D 4C 7S 2H 6D") == [
        "burn",
        "box 2.0",
        "box 4.0",
        "dealer",
        "box 2.0",
        "box 4.0",
        "hole",  # BJ 5.2 procedure 3: the dealer's second card face down
    ]


def test_bj_4_1_one_burn_per_deck_after_the_shuffle() -> None:
    live = Live(BlackjackRules(decks=2, burn_after_shuffle=BurnAfterShuffle.PER_DECK))
    live.rnd.place_bet(1, "ana", main=100)
    assert live.feed("5S 5H 8H 4C 7S")[:3] == ["burn", "burn", "box 1.0 down"]


@pytest.mark.parametrize(("burn_each_round", "first"), [(False, "box 1.0 down"), (True, "burn")])
def test_bj_4_2_a_later_round_burns_only_with_burn_each_round(burn_each_round: bool, first: str) -> None:
    live = Live(BlackjackRules(burn_each_round=burn_each_round))
    live.rnd.place_bet(1, "ana", main=100)
    live.feed("5S 8H 9D 4C")  # 12 against a 9
    live.feed("TC", "stand")  # the dealer: 19
    assert live.rnd.is_over
    live.new_round().place_bet(1, "ana", main=100)
    assert where(live.rnd.next_card()) == first


# -- the players' cards (BJ 6, BJ 16, BJ 17) --------------------------------------------------------------------


def dealt(rules: BlackjackRules | None = None, cards: str = "5S 8H 6C 8D") -> Live:
    """Box 1 bets; the deal after the burn: box 1 gets the 2nd and 4th cards, the dealer the 3rd."""
    live = Live(rules)
    live.rnd.place_bet(1, "ana", main=100)
    live.feed(cards)
    return live


def test_bj_6_4_a_hit_goes_to_the_hand_face_up() -> None:
    live = dealt(cards="5S 8H 6C 4D")  # 12 against a 6
    assert where(live.rnd.next_card("hit")) == "box 1.0"  # a third card is always face up
    assert live.feed("2C", "hit") == ["box 1.0"]


def test_bj_17_2_a_double_takes_one_card_then_the_dealer_draws() -> None:
    live = dealt(cards="5S 6H 6C 5D")  # 11 against a 6
    # The dealer's second card (procedure 1: after every player has finished), 16, and a draw (BJ 6.1).
    assert live.feed("TC TS 5C", "double") == ["box 1.0", "dealer", "dealer"]
    assert live.rnd.is_over and live.rnd.dealer_total() == 21


def test_bj_16_a_split_deals_each_hand_its_second_card_when_its_turn_comes() -> None:
    live = dealt()  # 8-8 against a 6
    assert live.feed("3C", "split") == ["box 1.0"]  # hand 0's second card
    assert where(live.rnd.next_card("stand")) == "box 1.1"  # hand 1's second card, once hand 0 stands
    assert live.feed("2D", "stand") == ["box 1.1"]
    assert where(live.rnd.next_card("hit")) == "box 1.1"
    # The last stand: the dealer's second card (procedure 1: after every player has finished, BJ 5.2), 16: a draw.
    assert live.feed("TS 5C", "stand") == ["dealer", "dealer"]


def test_bj_6_1_the_dealer_draws_on_16_and_the_cards_reported_ahead_count_first() -> None:
    live = dealt(cards="5S TH 6C 8D")  # 18 against a 6
    assert where(live.rnd.next_card("stand")) == "dealer"
    live.source.add_cards(["TC"])  # reported ahead: the dealer's second card, 16
    assert where(live.rnd.next_card("stand")) == "dealer"  # so the dealer draws again (BJ 6.1)
    live.source.add_cards(["5C"])  # 21: the dealer stands
    assert live.rnd.next_card("stand") is None
    live.rnd.stand()
    assert live.rnd.is_over and live.rnd.dealer_total() == 21


def test_bj_4_2_the_burn_before_the_dealer_second_card() -> None:
    live = dealt(BlackjackRules(burn_before_dealer_second_card=True), cards="5S TH 6C 8D")
    assert live.feed("2C TC 5C", "stand") == ["burn", "dealer", "dealer"]


def test_the_next_box_decides_first_so_no_card_is_waited_for() -> None:
    live = Live()
    live.rnd.place_bet(1, "ana", main=100)
    live.rnd.place_bet(2, "bo", main=100)
    live.feed("5S TH 9C 6C 8D 9D")  # box 1: 18, box 2: 17, against a 6
    assert live.rnd.next_card("stand") is None  # box 2 decides next
    assert live.rnd.next_card() is None  # a question waits: the card depends on the answer
    assert where(live.rnd.next_card("hit")) == "box 1.0"


# -- asking changes nothing ---------------------------------------------------------------------------------------


def test_asking_leaves_the_round_the_table_and_the_reported_cards_as_they_were() -> None:
    live = Live()
    live.rnd.place_bet(1, "ana", main=100)
    live.source.add_cards(["5S", "8H"])  # the burn and box 1's first card, reported
    ops, cut, shoe = list(live.rnd.operations), live.table.rounds_played, live.table.shoe
    assert where(live.rnd.next_card()) == "dealer"
    assert live.rnd.operations == ops and live.table.rounds_played == cut and live.table.shoe is shoe
    assert live.source.cards_left == 2
    live.source.add_cards(["AS", "8D"])
    live.rnd.close_betting()  # the reported cards in their order: the burn, box 1, the dealer, box 1
    assert [str(c) for c in live.rnd.dealer] == ["AS"] and [str(c) for c in live.rnd.boxes[1].hands[0].cards] == [
        "8H",
        "8D",
    ]


def test_a_settled_round_waits_for_no_card_and_a_random_shoe_waits_for_none() -> None:
    live = dealt(cards="5S TH 6C 8D")
    live.feed("TC 5C", "stand")
    assert live.rnd.is_over and live.rnd.next_card() is None
    rng = BlackjackTable(BlackjackRules(), SeededRandom(1)).open_round()
    rng.place_bet(1, "ana", main=100)
    with pytest.raises(IllegalAction) as info:
        rng.next_card()
    assert info.value.rule == "BJ 5.2"


def test_before_any_bet_and_with_a_wrong_answer_it_refuses_as_the_step_would() -> None:
    live = Live()
    with pytest.raises(IllegalAction):
        live.rnd.next_card()  # no box has a bet: nothing to deal (BJ 5.1)
    live.rnd.place_bet(1, "ana", main=100)
    with pytest.raises(IllegalAction):
        live.rnd.next_card("hit")  # the cards are not dealt yet
    live.feed("5S TH 6C 8D")
    with pytest.raises(IllegalAction):
        live.rnd.next_card("insurance")  # no ace up: no insurance (BJ 12.1)


def test_bj_5_2_procedure_1_with_a_dealing_box_the_dealer_takes_a_face_down_second_card_before_the_players() -> None:
    live = Live(BlackjackRules(decks=1, dealing_device=DealingDevice.DEALING_BOX))
    live.rnd.place_bet(1, "ana", main=100)
    assert live.feed("5S 8H 9D 4C 7S") == ["burn", "box 1.0 down", "dealer", "box 1.0 down", "hole"]
