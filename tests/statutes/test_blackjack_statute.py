"""Blackjack, Despacho 57/2009: one class per article of RULES.md, BJ 1-9 here (BJ 10-15 in
``test_blackjack_statute_payouts.py``, BJ 16-21 and "Original bet only" in ``test_blackjack_statute_play.py``).

Every test drives the engine (``BlackjackTable`` / ``BlackjackRound``) on a scripted shoe: ``cards`` lists
every card that leaves the shoe, burns included, and each test checks that the script is used up exactly,
so the card order written in the test is the order the engine dealt. Money is asserted exactly, with the
derivation in a comment; every refusal is checked to change nothing (operations, pending question, stakes,
cards drawn, settlement). This module also holds the helpers the two other blackjack statute modules import.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from croupier.blackjack.operations import (
    Answered,
    BetOutcome,
    BlackjackSettlement,
    Burned,
    CardVoided,
    Dealt,
    HoleCardTurned,
    Peeked,
    Phase,
    RoundVoided,
    Settled,
    Shuffled,
)
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import (
    BlackjackRules,
    BurnAfterShuffle,
    DealerSoft17,
    DealingDevice,
)
from croupier.blackjack.table import BlackjackTable
from croupier.errors import BetRejected, IllegalAction, InvalidRules, OutOfTurn
from croupier.primitives.cards import parse_card
from croupier.primitives.chance import ScriptedSource
from croupier.primitives.pcg import SeededRandom
from croupier.primitives.shoe import CardNotInShoeError

# -- helpers (imported by the other blackjack statute modules) -----------------------------------------------

BURN = "2D"
"""The card burned before the first round after a shuffle (``burn_after_shuffle = one``)."""


def new_table(cards: Iterable[str] = (), rules: BlackjackRules | None = None, **options: Any) -> BlackjackTable:
    """A table whose shoe gives ``cards`` in order; rules are ``rules`` (default: the statute) with ``options``."""
    base = rules if rules is not None else BlackjackRules()
    return BlackjackTable(replace(base, **options) if options else base, ScriptedSource(cards=list(cards)))


def one_box(
    cards: Iterable[str],
    *,
    main: int = 100,
    side: Mapping[str, int] | None = None,
    streak: Mapping[int, int] | None = None,
    player: str = "ana",
    box: int = 1,
    table: BlackjackTable | None = None,
    **options: Any,
) -> BlackjackRound:
    """A round with one bettor seated on one box, dealt: it waits on its first question (or is over)."""
    t = table if table is not None else new_table(cards, **options)
    if table is not None:
        source(t).add_cards(cards)
    rnd = t.open_round()
    rnd.seat(box, player)
    rnd.place_bet(box, player, main=main, side=side, streak=streak)
    rnd.close_betting()
    return rnd


def source(t: BlackjackTable) -> ScriptedSource:
    """The table's scripted shoe."""
    assert isinstance(t.source, ScriptedSource)
    return t.source


def settled(rnd: BlackjackRound) -> BlackjackSettlement:
    """The round's settlement, after checking it is over and used every scripted card."""
    assert rnd.is_over, rnd.pending
    assert source(rnd.table).cards_left == 0, "the script has cards the round did not use"
    assert rnd.settlement is not None
    s = rnd.settlement
    assert s.house_net == -sum(s.players().values())
    return s


def nets(rnd: BlackjackRound) -> dict[str, int]:
    """Each player's net for the settled round."""
    return settled(rnd).players()


def outcomes(rnd: BlackjackRound, kind: str, player: str = "ana") -> list[BetOutcome]:
    """The player's settled bets of one kind."""
    return [o for o in settled(rnd).outcomes if o.kind == kind and o.player == player]


def net_of(rnd: BlackjackRound, kind: str, player: str = "ana") -> int:
    """The player's net on bets of one kind."""
    found = outcomes(rnd, kind, player)
    assert found, f"{player} has no {kind} bet"
    return sum(o.net for o in found)


def snapshot(rnd: BlackjackRound) -> tuple[Any, ...]:
    """Everything a refused bet or action must leave as it was."""
    boxes = [
        (
            n,
            b.decider,
            [(tuple(h.cards), dict(h.stakes), dict(h.any_pair_stakes), h.status, h.done) for h in b.hands],
            {p: (bt.main, dict(bt.side), dict(bt.streak), bt.insurance, bt.even_money) for p, bt in b.bettors.items()},
        )
        for n, b in sorted(rnd.boxes.items())
    ]
    return (
        len(rnd.operations),
        list(rnd.operations),
        rnd.pending,
        rnd.phase,
        tuple(rnd.dealer),
        boxes,
        rnd.settlement,
        source(rnd.table).cards_left,
        list(rnd.table.open_streaks),
    )


def assert_refused(
    rnd: BlackjackRound, action: Callable[[], object], error: type[Exception], rule: str | None
) -> Exception:
    """``action`` raises ``error`` citing ``rule`` and changes nothing."""
    before = snapshot(rnd)
    with pytest.raises(error) as info:
        action()
    if rule is not None:
        assert getattr(info.value, "rule", None) == rule, info.value
    assert snapshot(rnd) == before
    if before[6] is None:
        assert rnd.settlement is None
    return info.value


def actions(rnd: BlackjackRound) -> tuple[str, ...]:
    """The legal answers to the pending question."""
    assert rnd.pending is not None, "the round waits on nothing"
    return rnd.pending.actions


def dealt(rnd: BlackjackRound, box: int | None = None) -> list[tuple[str, int | None, bool]]:
    """(card, box, face up) of every card dealt in the round, or only those of one box / the dealer."""
    out = [(str(o.card), o.box, o.face_up) for o in rnd.operations if isinstance(o, Dealt)]
    return out if box is None else [d for d in out if d[1] == box]


def ops(rnd: BlackjackRound, kind: type) -> list[Any]:
    """The operations of one type, in order."""
    return [o for o in rnd.operations if isinstance(o, kind)]


def hand_cards(rnd: BlackjackRound, box: int = 1) -> list[list[str]]:
    """The cards of each hand of a box, as codes."""
    return [[str(c) for c in h.cards] for h in rnd.boxes[box].hands]


# -- BJ 1 -----------------------------------------------------------------------------------------------------


class TestBJ1Equipment:
    def test_bj_1_statute_table_has_seven_boxes_eight_decks_and_a_shoe(self) -> None:
        rules = BlackjackRules()
        assert (rules.boxes, rules.decks, rules.dealing_device) == (7, 8, DealingDevice.SHOE)
        rnd = one_box([BURN, "TS", "9H", "9S", "8C"])  # ana 19 stands; dealer 9+8 = 17
        assert rnd.table.shoe is not None
        assert rnd.table.shoe.size == 8 * 52
        rnd.stand()
        assert nets(rnd) == {"ana": 100}

    def test_bj_1_a_bet_on_a_box_the_layout_lacks_is_refused(self) -> None:
        rnd = new_table().open_round()
        assert rnd.can_place_bet(7, "ana", main=100)
        assert not rnd.can_place_bet(8, "ana", main=100)
        assert_refused(rnd, lambda: rnd.place_bet(8, "ana", main=100), BetRejected, "BJ 1")
        assert_refused(rnd, lambda: rnd.place_bet(0, "ana", main=100), BetRejected, "BJ 1")

    def test_bj_1_boxes_option_widens_the_layout(self) -> None:
        rnd = new_table(boxes=9).open_round()
        rnd.place_bet(9, "ana", main=100)
        assert 9 in rnd.boxes
        assert not rnd.can_place_bet(10, "ana", main=100)

    def test_bj_1_fewer_than_six_boxes_or_no_deck_is_refused(self) -> None:
        with pytest.raises(InvalidRules) as info:
            BlackjackRules(boxes=5, decks=0)
        assert len(info.value.problems) == 2
        assert any("boxes 5" in p and "BJ 1" in p for p in info.value.problems)
        assert any("decks 0" in p and "BJ 1" in p for p in info.value.problems)
        assert BlackjackRules(boxes=6, decks=1).boxes == 6

    def test_bj_1_decks_option_sets_how_often_a_card_is_in_the_shoe(self) -> None:
        # Eight decks (default): a card may come out twice in one round.
        rnd = one_box([BURN, "TS", "9H", "TS", "8C"])
        rnd.stand()
        assert nets(rnd) == {"ana": 100}  # 20 against 17
        # One deck: the second ten of spades cannot come out of the shoe.
        t = new_table([BURN, "TS", "9H", "TS"], decks=1)
        rnd = t.open_round()
        rnd.place_bet(1, "ana", main=100)
        with pytest.raises(CardNotInShoeError) as info:
            rnd.close_betting()
        assert info.value.rule == "BJ 1"
        # All or nothing: the refused deal left no trace (no shoe opened, the round still taking bets).
        assert t.shoe is None and rnd.phase.value == "betting" and rnd.operations[-1].__class__.__name__ == "BetPlaced"

    def test_bj_1_shoe_continues_from_round_to_round(self) -> None:
        t = new_table([BURN, "TS", "9H", "9S", "8C"])
        first = one_box([], table=t)
        first.stand()
        assert len(ops(first, Shuffled)) == len(ops(first, Burned)) == 1
        second = one_box(["TC", "7H", "QH", "JD"], table=t)  # ana 20; dealer 7+J = 17
        second.stand()
        assert ops(second, Shuffled) == ops(second, Burned) == []
        assert nets(second) == {"ana": 100}
        assert t.shoe is not None
        assert t.shoe.dealt == 9

    def test_bj_1_dealing_box_holds_one_deck_and_the_dealer_takes_a_hole_card(self) -> None:
        with pytest.raises(InvalidRules, match="dealing_box"):
            BlackjackRules(dealing_device=DealingDevice.DEALING_BOX)
        rules = BlackjackRules(dealing_device=DealingDevice.DEALING_BOX, decks=1)
        # burn, ana, dealer up, ana, dealer hole (dealt before the players act)
        rnd = one_box([BURN, "TS", "9H", "9S", "8C"], rules=rules)
        assert dealt(rnd, None)[-1] == ("8C", None, False)
        assert rnd.hole_hidden
        rnd.stand()
        assert ops(rnd, HoleCardTurned) == [HoleCardTurned(parse_card("8C"))]
        assert nets(rnd) == {"ana": 100}

    def test_bj_1_dealing_box_shuffles_and_burns_before_every_round(self) -> None:
        rules = BlackjackRules(dealing_device=DealingDevice.DEALING_BOX, decks=1)
        t = new_table([BURN, "TS", "9H", "9S", "8C"], rules=rules)
        one_box([], table=t).stand()
        # The same cards come out again: the deck was shuffled (BJ 2.2, one round per shuffle).
        second = one_box([BURN, "TS", "9H", "9S", "8C"], table=t)
        second.stand()
        assert len(ops(second, Shuffled)) == 1
        assert ops(second, Burned) == [Burned(parse_card(BURN), "BJ 4.1")]
        assert nets(second) == {"ana": 100}

    def test_bj_1_shuffler_returns_the_cards_after_every_round_and_burns_once(self) -> None:
        t = new_table([BURN, "TS", "9H", "9S", "8C"], decks=1, dealing_device=DealingDevice.SHUFFLER)
        one_box([], table=t).stand()
        # One deck, yet the same cards come out again: they went back into the shuffler.
        second = one_box(["TS", "9H", "9S", "8C"], table=t)
        second.stand()
        assert len(ops(second, Shuffled)) == 1
        assert ops(second, Burned) == []
        assert nets(second) == {"ana": 100}
        # A one-deck shoe keeps them out: the ten of spades cannot come again before a shuffle.
        shoe = new_table([BURN, "TS", "9H", "9S", "8C"], decks=1)
        one_box([], table=shoe).stand()
        rnd = shoe.open_round()
        source(shoe).add_cards(["TS"])
        rnd.place_bet(1, "ana", main=100)
        with pytest.raises(CardNotInShoeError):
            rnd.close_betting()

    def test_bj_1_a_random_shoe_deals_a_whole_round(self) -> None:
        t = BlackjackTable(BlackjackRules(), SeededRandom(57))
        rnd = t.open_round()
        rnd.place_bet(1, "ana", main=100)
        rnd.close_betting()
        while not rnd.is_over:
            q = rnd.pending
            assert q is not None
            rnd.act("stand" if "stand" in q.actions else "decline")
        assert rnd.settlement is not None
        assert t.shoe is not None
        assert t.shoe.dealt == 1 + sum(1 for o in rnd.operations if isinstance(o, Dealt))


# -- BJ 2 -----------------------------------------------------------------------------------------------------


class TestBJ2ShuffleAndEndOfShoe:
    def test_bj_2_1_default_cut_card_leaves_a_quarter_of_the_shoe_behind_it(self) -> None:
        assert BlackjackRules().behind_cut == 104  # 52·8/4
        assert BlackjackRules(decks=1).behind_cut == 13
        assert BlackjackRules(decks=2).behind_cut == 30  # 26, raised to 30
        t = new_table([BURN, "TS", "9H", "9S", "8C"])
        one_box([], table=t).stand()
        assert t.shoe is not None
        assert t.shoe.cut_card_position == 8 * 52 - 104 + 1

    def test_bj_2_1_multi_deck_shoe_needs_thirty_cards_behind_the_cut(self) -> None:
        with pytest.raises(InvalidRules, match=r"cards_behind_cut 29 .*BJ 2\.1"):
            BlackjackRules(decks=2, cards_behind_cut=29)
        assert BlackjackRules(decks=2, cards_behind_cut=30).behind_cut == 30
        # One deck: the 30-card floor does not apply.
        assert BlackjackRules(decks=1, cards_behind_cut=10).behind_cut == 10

    def test_bj_2_1_cards_behind_cut_option_moves_the_end_of_the_shoe(self) -> None:
        # One deck; 48 cards behind the cut card: the 5th card out is the cut card's.
        t = new_table([BURN, "TS", "9H", "9S", "8C"], decks=1, cards_behind_cut=48)
        one_box([], table=t).stand()
        second = one_box([BURN, "TS", "9H", "9S", "8C"], table=t)
        second.stand()
        assert len(ops(second, Shuffled)) == 1  # a fresh shoe, burned again
        assert ops(second, Burned) == [Burned(parse_card(BURN), "BJ 4.1")]
        # The default one-deck cut card (13 behind, 40th card) is far away: the shoe goes on.
        t = new_table([BURN, "TS", "9H", "9S", "8C"], decks=1)
        one_box([], table=t).stand()
        second = one_box(["TC", "9D", "9C", "8D"], table=t)
        second.stand()
        assert ops(second, Shuffled) == []
        assert nets(second) == {"ana": 100}

    def test_bj_2_2_the_round_in_which_the_cut_card_appears_is_finished(self) -> None:
        # 50 behind the cut: the 3rd card out (the dealer's up card) brings out the cut card.
        t = new_table([BURN, "TS", "6H", "9S", "TH", "5C"], decks=1, cards_behind_cut=50)
        rnd = one_box([], table=t)
        assert t.shoe is not None
        assert t.shoe.cut_card_out
        rnd.stand()
        # The round went on to the end: dealer 6+T = 16 draws 5 = 21; ana 19 loses.
        assert nets(rnd) == {"ana": -100}
        assert settled(rnd).dealer_total == 21
        nxt = one_box([BURN, "TS", "9H", "9S", "8C"], table=t)
        assert len(ops(nxt, Shuffled)) == 1

    def test_bj_2_2_with_a_dealing_box_every_round_follows_a_shuffle(self) -> None:
        rules = BlackjackRules(dealing_device=DealingDevice.DEALING_BOX, decks=1)
        t = new_table(rules=rules)
        for _ in range(3):
            rnd = one_box([BURN, "TS", "9H", "9S", "8C"], table=t)
            rnd.stand()
            assert len(ops(rnd, Shuffled)) == 1
            assert len(ops(rnd, Burned)) == 1
            assert nets(rnd) == {"ana": 100}

    def test_bj_2_2_with_a_shuffler_each_round_is_dealt_from_a_full_machine(self) -> None:
        t = new_table(decks=1, dealing_device=DealingDevice.SHUFFLER)
        one_box([BURN, "TS", "9H", "9S", "8C"], table=t).stand()
        for _ in range(2):
            rnd = one_box(["TS", "9H", "9S", "8C"], table=t)
            rnd.stand()
            assert len(ops(rnd, Shuffled)) == 1
            assert t.shoe is not None
            assert t.shoe.dealt == 4


# -- BJ 3 -----------------------------------------------------------------------------------------------------


class TestBJ3Boxes:
    def test_bj_3_a_player_may_bet_on_several_boxes(self) -> None:
        # burn, box 1, box 2, up, box 1, box 2, dealer second
        t = new_table([BURN, "TS", "5S", "9H", "9S", "5C", "KH", "8C"])
        rnd = t.open_round()
        for box in (1, 2):
            rnd.place_bet(box, "ana", main=100)
        rnd.close_betting()
        assert rnd.pending is not None
        assert (rnd.pending.box, rnd.pending.player) == (1, "ana")
        rnd.stand()
        assert rnd.pending.box == 2
        rnd.hit()  # 5+5+K = 20
        rnd.stand()
        # Dealer 9+8 = 17: box 1 (19) +100, box 2 (20) +100.
        assert nets(rnd) == {"ana": 200}
        assert [o.net for o in outcomes(rnd, "main")] == [100, 100]

    def test_bj_3_no_limit_on_boxes_per_player_by_default(self) -> None:
        rnd = new_table().open_round()
        for box in range(1, 8):
            rnd.place_bet(box, "ana", main=10)
        assert len(rnd.boxes) == 7

    def test_bj_3_max_boxes_per_player_option_limits_a_player(self) -> None:
        rnd = new_table(max_boxes_per_player=2).open_round()
        rnd.place_bet(1, "ana", main=10)
        rnd.place_bet(2, "ana", main=10)
        rnd.place_bet(1, "ana", main=10)  # more on a box he already bets on
        assert not rnd.can_place_bet(3, "ana", main=10)
        assert_refused(rnd, lambda: rnd.place_bet(3, "ana", main=10), BetRejected, "BJ 3")
        rnd.place_bet(3, "bo", main=10)  # another player is not limited by ana's boxes
        assert rnd.boxes[1].bettors["ana"].main == 20

    def test_bj_3_a_box_with_no_seated_player_is_played_for_its_bettor(self) -> None:
        t = new_table([BURN, "TS", "9H", "9S", "8C"])
        rnd = t.open_round()
        rnd.place_bet(4, "cy", main=200)  # standing player only
        rnd.close_betting()
        assert rnd.pending is not None
        assert (rnd.pending.box, rnd.pending.player) == (4, "cy")
        rnd.stand()
        assert nets(rnd) == {"cy": 200}

    def test_bj_3_a_bet_needs_a_player_name(self) -> None:
        rnd = new_table().open_round()
        assert_refused(rnd, lambda: rnd.place_bet(1, "", main=10), BetRejected, "BJ 3")


# -- BJ 4 -----------------------------------------------------------------------------------------------------


class TestBJ4BurningCards:
    def test_bj_4_1_one_card_is_burned_after_a_shuffle_by_default(self) -> None:
        rnd = one_box([BURN, "TS", "9H", "9S", "8C"], decks=2)
        assert ops(rnd, Burned) == [Burned(parse_card(BURN), "BJ 4.1")]
        assert rnd.operations.index(ops(rnd, Burned)[0]) < rnd.operations.index(ops(rnd, Dealt)[0])
        rnd.stand()
        assert nets(rnd) == {"ana": 100}

    def test_bj_4_1_per_deck_burns_as_many_cards_as_decks(self) -> None:
        rnd = one_box(["3C", "4C", "TS", "9H", "9S", "8C"], decks=2, burn_after_shuffle=BurnAfterShuffle.PER_DECK)
        assert [str(b.card) for b in ops(rnd, Burned)] == ["3C", "4C"]
        rnd.stand()
        assert nets(rnd) == {"ana": 100}
        rnd = one_box(
            ["3C", "4C", "5C", "6C", "7C", "8D", "TS", "9H", "9S", "8C"],
            decks=6,
            burn_after_shuffle=BurnAfterShuffle.PER_DECK,
        )
        assert len(ops(rnd, Burned)) == 6

    def test_bj_4_2_no_burn_before_later_rounds_by_default(self) -> None:
        t = new_table([BURN, "TS", "9H", "9S", "8C"])
        one_box([], table=t).stand()
        rnd = one_box(["TS", "9H", "9S", "8C"], table=t)
        assert ops(rnd, Burned) == []

    def test_bj_4_2_burn_each_round_burns_one_card_before_every_later_round(self) -> None:
        t = new_table([BURN, "TS", "9H", "9S", "8C"], burn_each_round=True)
        one_box([], table=t).stand()
        rnd = one_box(["3H", "TS", "9H", "9S", "8C"], table=t)
        assert ops(rnd, Burned) == [Burned(parse_card("3H"), "BJ 4.2")]
        rnd.stand()
        assert nets(rnd) == {"ana": 100}
        # A shuffler burns likewise before every round after the first.
        t = new_table([BURN, "TS", "9H", "9S", "8C"], burn_each_round=True, dealing_device=DealingDevice.SHUFFLER)
        one_box([], table=t).stand()
        rnd = one_box(["3H", "TS", "9H", "9S", "8C"], table=t)
        assert [str(b.card) for b in ops(rnd, Burned)] == ["3H"]
        rnd.stand()
        assert nets(rnd) == {"ana": 100}

    def test_bj_4_2_a_shuffler_burn_before_a_later_round_cites_bj_4_2(self) -> None:
        t = new_table([BURN, "TS", "9H", "9S", "8C"], burn_each_round=True, dealing_device=DealingDevice.SHUFFLER)
        one_box([], table=t).stand()
        rnd = one_box(["3H", "TS", "9H", "9S", "8C"], table=t)
        assert ops(rnd, Burned) == [Burned(parse_card("3H"), "BJ 4.2")]

    def test_bj_4_2_no_burn_before_the_dealer_second_card_by_default(self) -> None:
        rnd = one_box([BURN, "TS", "9H", "9S", "8C"])
        rnd.stand()
        assert len(ops(rnd, Burned)) == 1
        assert settled(rnd).dealer_cards == (parse_card("9H"), parse_card("8C"))

    def test_bj_4_2_burn_before_dealer_second_card_option(self) -> None:
        for procedure in (1, 2):
            rnd = one_box(
                [BURN, "TS", "9H", "9S", "3C", "8C"], burn_before_dealer_second_card=True, procedure=procedure
            )
            rnd.stand()
            assert ops(rnd, Burned)[1] == Burned(parse_card("3C"), "BJ 4.2")
            assert settled(rnd).dealer_cards == (parse_card("9H"), parse_card("8C"))
            assert nets(rnd) == {"ana": 100}  # 19 against 17
        # Procedure 3: the dealer's second card is the hole card, dealt before the players; no burn.
        rnd = one_box([BURN, "TS", "9H", "9S", "8C"], burn_before_dealer_second_card=True, procedure=3)
        rnd.stand()
        assert len(ops(rnd, Burned)) == 1
        assert nets(rnd) == {"ana": 100}


# -- BJ 5 -----------------------------------------------------------------------------------------------------


class TestBJ5Dealing:
    def test_bj_5_1_one_card_at_a_time_from_the_dealer_left_then_the_dealer(self) -> None:
        # Bets listed box 5 first, then box 2: dealing still goes box 2, box 5, dealer, box 2, box 5.
        t = new_table([BURN, "2S", "5S", "9H", "3S", "6S", "TD", "TC", "8C"])
        rnd = t.open_round()
        rnd.place_bet(5, "bo", main=100)
        rnd.place_bet(2, "ana", main=100)
        rnd.close_betting()
        assert [(c, b) for c, b, _ in dealt(rnd)] == [("2S", 2), ("5S", 5), ("9H", None), ("3S", 2), ("6S", 5)]
        assert rnd.pending is not None
        assert rnd.pending.box == 2
        rnd.hit()  # 2+3+T = 15
        rnd.stand()
        rnd.hit()  # 5+6+T = 21 asks nothing more
        # Dealer 9+8 = 17: ana 15 loses, bo 21 wins.
        assert nets(rnd) == {"bo": 100, "ana": -100}

    def test_bj_5_1_a_box_without_a_bet_is_not_dealt(self) -> None:
        t = new_table([BURN, "TS", "9H", "9S", "8C"])
        rnd = t.open_round()
        rnd.seat(1, "ana")  # seated, no bet
        rnd.place_bet(3, "bo", main=100)
        rnd.close_betting()
        assert {b for _, b, _ in dealt(rnd)} == {3, None}
        rnd.stand()
        assert nets(rnd) == {"bo": 100}

    def test_bj_5_1_betting_closes_at_the_deal(self) -> None:
        rnd = one_box([BURN, "TS", "9H", "9S"])
        assert_refused(rnd, lambda: rnd.place_bet(2, "bo", main=100), IllegalAction, "BJ 5.1")
        assert_refused(rnd, rnd.close_betting, IllegalAction, "BJ 5.1")
        assert_refused(rnd, lambda: rnd.seat(2, "bo"), IllegalAction, "BJ 20.1")

    def test_bj_5_1_no_deal_without_a_bet_and_no_action_before_the_deal(self) -> None:
        t = new_table()
        rnd = t.open_round()
        assert_refused(rnd, rnd.close_betting, IllegalAction, "BJ 5.1")
        assert_refused(rnd, rnd.hit, IllegalAction, "BJ 5.1")
        assert rnd.pending is None

    def test_bj_5_1_1_an_exposed_card_is_void_and_burned(self) -> None:
        # burn, ana, up, ana, exposed card (void), ana's hit, dealer second
        rnd = one_box([BURN, "TS", "9H", "4S", "KD", "5C", "8C"])
        op = rnd.void_exposed_card()
        assert op == CardVoided(parse_card("KD"), "BJ 5.1.1")
        assert rnd.pending is not None
        assert rnd.pending.actions[:2] == ("hit", "stand")
        rnd.hit()
        assert hand_cards(rnd) == [["TS", "4S", "5C"]]
        rnd.stand()
        # ana 19, dealer 9+8 = 17: +100; the exposed king went to nobody.
        assert nets(rnd) == {"ana": 100}
        assert parse_card("KD") not in settled(rnd).dealer_cards

    def test_bj_5_1_1_no_card_can_be_exposed_outside_the_deal(self) -> None:
        t = new_table([BURN, "TS", "9H", "9S", "8C"])
        rnd = t.open_round()
        rnd.place_bet(1, "ana", main=100)
        assert_refused(rnd, rnd.void_exposed_card, IllegalAction, "BJ 5.1.1")
        rnd.close_betting()
        rnd.stand()
        assert_refused(rnd, rnd.void_exposed_card, IllegalAction, "BJ 5.1.1")

    def test_bj_5_1_2_a_void_round_returns_every_bet(self) -> None:
        # Box 1 ana blackjack takes even money (+100 at once); box 2 bo is voided mid-play.
        t = new_table([BURN, "AS", "TS", "AH", "KD", "6C"], side_bets_offered=frozenset())
        rnd = t.open_round()
        rnd.place_bet(1, "ana", main=100)
        rnd.place_bet(2, "bo", main=200)
        rnd.close_betting()
        rnd.take_even_money(player="ana")
        rnd.decline(player="bo")
        assert rnd.pending is not None
        assert rnd.pending.kind == "play"
        op = rnd.void_round()
        assert op == RoundVoided("a dealing error that cannot be corrected")
        s = settled(rnd)
        assert s.void
        assert rnd.phase is Phase.VOID
        assert rnd.pending is None
        # Every bet returned, the even-money payment included.
        assert s.players() == {"ana": 0, "bo": 0}
        assert {(o.player, o.stake, o.net, o.status, o.rule) for o in s.outcomes} == {
            ("ana", 100, 0, "void", "BJ 5.1.2"),
            ("bo", 200, 0, "void", "BJ 5.1.2"),
        }
        assert t.open_round() is t.round

    def test_bj_5_1_2_a_void_round_keeps_open_streak_bets_where_they_were(self) -> None:
        t = new_table([BURN, "TS", "9H", "9S", "8C"], side_bets_offered=frozenset({"streak"}))
        first = one_box([], table=t, streak={2: 10})
        first.stand()  # 19 beats 17: one win of two
        assert [s.wins for s in t.open_streaks] == [1]
        rnd = one_box(["TC", "9D", "9C"], table=t)
        rnd.void_round()
        assert settled(rnd).players() == {"ana": 0}
        assert [(s.level, s.wins) for s in t.open_streaks] == [(2, 1)]

    def test_bj_5_1_2_a_settled_round_cannot_be_voided(self) -> None:
        rnd = one_box([BURN, "TS", "9H", "9S", "8C"])
        rnd.stand()
        assert_refused(rnd, rnd.void_round, IllegalAction, "BJ 5.1.2")

    def test_bj_5_2_procedure_1_box_cards_face_down_dealer_second_card_after_the_players(self) -> None:
        rnd = one_box([BURN, "TS", "9H", "5S", "4C", "8C"])
        assert rnd.rules.procedure == 1
        assert dealt(rnd) == [("TS", 1, False), ("9H", None, True), ("5S", 1, False)]
        assert len(rnd.dealer) == 1
        rnd.hit()  # a drawn card is dealt face up
        rnd.stand()
        assert dealt(rnd)[3:] == [("4C", 1, True), ("8C", None, True)]
        assert nets(rnd) == {"ana": 100}  # 19 against 9+8 = 17

    def test_bj_5_2_procedure_2_box_cards_face_up(self) -> None:
        rnd = one_box([BURN, "TS", "9H", "5S", "4C", "8C"], procedure=2)
        assert dealt(rnd) == [("TS", 1, True), ("9H", None, True), ("5S", 1, True)]
        assert len(rnd.dealer) == 1
        rnd.hit()
        rnd.stand()
        assert nets(rnd) == {"ana": 100}

    def test_bj_5_2_procedure_3_hole_card_dealt_face_down_before_the_players(self) -> None:
        rnd = one_box([BURN, "TS", "9H", "9S", "8C"], procedure=3)
        assert dealt(rnd) == [("TS", 1, True), ("9H", None, True), ("9S", 1, True), ("8C", None, False)]
        assert rnd.hole_hidden
        rnd.stand()
        assert ops(rnd, HoleCardTurned) == [HoleCardTurned(parse_card("8C"))]
        assert nets(rnd) == {"ana": 100}

    def test_bj_5_2_procedure_3_peek_dealer_blackjack_collects_at_once(self) -> None:
        # Up ace, hole king. Insurance is offered first; then the peek ends the round.
        rnd = one_box([BURN, "TS", "AH", "9S", "KC"], procedure=3)
        assert rnd.pending is not None
        assert rnd.pending.kind == "offer"
        rnd.insure(50)
        assert ops(rnd, Peeked) == [Peeked(True)]
        assert not any(isinstance(o, Answered) and o.action in ("hit", "stand") for o in rnd.operations)
        # Main −100, insurance 50 at 2 to 1 = +100.
        assert net_of(rnd, "main") == -100
        assert net_of(rnd, "insurance") == 100
        assert nets(rnd) == {"ana": 0}

    def test_bj_5_2_procedure_3_peek_under_a_ten_without_blackjack_play_goes_on(self) -> None:
        rnd = one_box([BURN, "TS", "KH", "6S", "7C"], procedure=3)
        assert ops(rnd, Peeked) == [Peeked(False)]
        assert "surrender" in actions(rnd)  # allowed after a peek that found no blackjack
        rnd.surrender()
        assert nets(rnd) == {"ana": -50}

    def test_bj_5_2_procedure_3_no_peek_under_other_up_cards(self) -> None:
        rnd = one_box([BURN, "TS", "9H", "9S", "8C"], procedure=3)
        assert ops(rnd, Peeked) == []

    def test_bj_5_2_procedure_3_without_peek_the_blackjack_is_known_at_the_end(self) -> None:
        # peek = false: ana plays on; she doubles 9+2 and the dealer's blackjack shows at the end.
        rnd = one_box([BURN, "9S", "TH", "2S", "AC", "KD"], procedure=3, peek=False)
        assert ops(rnd, Peeked) == []
        rnd.double()
        assert settled(rnd).dealer_blackjack
        assert nets(rnd) == {"ana": -100}  # doubled to 200, loses only the original 100 (BJ 17.3)
        # With the peek (default) the round ends before ana can act.
        rnd = one_box([BURN, "9S", "TH", "2S", "AC"], procedure=3)
        assert rnd.is_over
        assert nets(rnd) == {"ana": -100}

    def test_bj_5_2_dealing_box_procedure_1_dealer_hole_card_but_no_peek(self) -> None:
        rules = BlackjackRules(dealing_device=DealingDevice.DEALING_BOX, decks=1)
        rnd = one_box([BURN, "9S", "AH", "2S", "KD", "TC"], rules=rules)
        assert dealt(rnd) == [("9S", 1, False), ("AH", None, True), ("2S", 1, False), ("KD", None, False)]
        rnd.decline()  # insurance
        assert ops(rnd, Peeked) == []
        rnd.double()  # 11 + T = 21, doubled to 200
        # Dealer A-K blackjack at the end: the double loses only the original bet.
        assert settled(rnd).dealer_blackjack
        assert nets(rnd) == {"ana": -100}

    def test_bj_5_2_procedure_option_refuses_other_values(self) -> None:
        from croupier.blackjack.rules import load

        with pytest.raises(InvalidRules, match="procedure"):
            load({"procedure": 4})


# -- BJ 6 -----------------------------------------------------------------------------------------------------


class TestBJ6Drawing:
    def test_bj_6_1_dealer_draws_on_16_or_less_and_stands_on_hard_17(self) -> None:
        # Dealer 6+T = 16 draws 2 = 18, stands; ana 19 wins.
        rnd = one_box([BURN, "TS", "6H", "9S", "TC", "2D"])
        rnd.stand()
        assert [str(c) for c in settled(rnd).dealer_cards] == ["6H", "TC", "2D"]
        assert nets(rnd) == {"ana": 100}
        # Dealer 7+T = 17 stands at once.
        rnd = one_box([BURN, "TS", "7H", "9S", "TC"])
        rnd.stand()
        assert settled(rnd).dealer_total == 17
        assert nets(rnd) == {"ana": 100}

    def test_bj_6_1_dealer_draws_on_ace_six_by_default(self) -> None:
        # Dealer A+6 (soft 17) draws 3 = 20, beating ana's 19.
        rnd = one_box([BURN, "TS", "AH", "9S", "6C", "3D"])
        rnd.decline()  # insurance against the ace
        rnd.stand()
        assert settled(rnd).dealer_total == 20
        assert nets(rnd) == {"ana": -100}

    def test_bj_6_1_dealer_stands_on_a_soft_17_without_a_six_by_default(self) -> None:
        # Dealer A+2 = soft 13 draws 4 = soft 17 (A-2-4), which holds no 6: stands. ana 18 wins.
        rnd = one_box([BURN, "TS", "AH", "8S", "2C", "4D"])
        rnd.decline()
        rnd.stand()
        assert settled(rnd).dealer_total == 17
        assert nets(rnd) == {"ana": 100}

    def test_bj_6_1_hit_all_draws_on_every_soft_17(self) -> None:
        rnd = one_box([BURN, "TS", "AH", "8S", "2C", "4D", "2H"], dealer_soft_17=DealerSoft17.HIT_ALL)
        rnd.decline()
        rnd.stand()
        # A-2-4 = soft 17 draws 2 = 19: ana 18 loses.
        assert settled(rnd).dealer_total == 19
        assert nets(rnd) == {"ana": -100}

    def test_bj_6_1_stand_option_stands_on_ace_six(self) -> None:
        rnd = one_box([BURN, "TS", "AH", "8S", "6C"], dealer_soft_17=DealerSoft17.STAND)
        rnd.decline()
        rnd.stand()
        # A+6 = 17 stands: ana 18 wins.
        assert settled(rnd).dealer_total == 17
        assert nets(rnd) == {"ana": 100}

    def test_bj_6_1_a_card_drawn_wrongly_by_the_dealer_is_void(self) -> None:
        # Procedure 3: the hole card is on the table while the players act. It is removed as drawn wrongly;
        # the dealer then completes the hand from the shoe: 9 + 8 = 17.
        rnd = one_box([BURN, "TS", "9H", "9S", "5C", "8C"], procedure=3)
        op = rnd.void_dealer_card(parse_card("5C"))
        assert op == CardVoided(parse_card("5C"), "BJ 6.1")
        assert [str(c) for c in rnd.dealer] == ["9H"]
        rnd.stand()
        assert [str(c) for c in settled(rnd).dealer_cards] == ["9H", "8C"]
        assert nets(rnd) == {"ana": 100}

    def test_bj_6_1_only_a_card_the_dealer_drew_can_be_voided(self) -> None:
        rnd = one_box([BURN, "TS", "9H", "9S", "5C"], procedure=3)
        assert_refused(rnd, lambda: rnd.void_dealer_card(parse_card("9H")), IllegalAction, "BJ 6.1")  # the up card
        assert_refused(rnd, lambda: rnd.void_dealer_card(parse_card("TS")), IllegalAction, "BJ 6.1")
        rnd = one_box([BURN, "TS", "9H", "9S", "8C"])
        rnd.stand()
        assert_refused(rnd, lambda: rnd.void_dealer_card(parse_card("8C")), IllegalAction, "BJ 6.1")  # settled

    def test_bj_6_2_a_player_draws_at_will_and_a_bust_is_shown_at_once(self) -> None:
        rnd = one_box([BURN, "2S", "9H", "3S", "4C", "5D", "3H", "TC"])
        for _ in range(3):
            assert rnd.can_hit()
            rnd.hit()  # 2+3 → 9 → 14 → 17
        assert hand_cards(rnd) == [["2S", "3S", "4C", "5D", "3H"]]
        assert rnd.pending is not None
        assert "claim_five_card" in rnd.pending.actions
        rnd.hit()  # 27: bust
        assert rnd.is_over
        assert rnd.boxes[1].hands[0].status.value == "bust"
        # The bust is settled at once: the dealer takes no second card.
        assert len(settled(rnd).dealer_cards) == 1
        assert nets(rnd) == {"ana": -100}

    def test_bj_6_3_players_act_in_turn_from_the_dealer_left(self) -> None:
        t = new_table([BURN, "TS", "TC", "9H", "9S", "8S", "8C"])
        rnd = t.open_round()
        rnd.place_bet(3, "bo", main=100)
        rnd.place_bet(1, "ana", main=100)
        rnd.close_betting()
        assert rnd.pending is not None
        assert (rnd.pending.box, rnd.pending.player) == (1, "ana")
        assert not rnd.can("stand", box=3)
        assert_refused(rnd, lambda: rnd.stand(box=3), OutOfTurn, "BJ 6.3")
        assert_refused(rnd, lambda: rnd.stand(hand=1), OutOfTurn, "BJ 6.3")
        rnd.stand(box=1, hand=0)
        assert rnd.pending.box == 3
        rnd.stand(box=3)
        # ana 19, bo 18, dealer 9+8 = 17.
        assert nets(rnd) == {"bo": 100, "ana": 100}

    def test_bj_6_3_nothing_is_asked_once_the_round_is_over(self) -> None:
        rnd = one_box([BURN, "TS", "9H", "9S", "8C"])
        rnd.stand()
        assert rnd.pending is None
        assert_refused(rnd, rnd.hit, OutOfTurn, "BJ 6.3")

    def test_bj_6_4_no_card_on_a_blackjack_or_on_21(self) -> None:
        # Box 1 blackjack is not asked; box 2 reaches 21 by a hit and is asked nothing more.
        t = new_table([BURN, "AS", "5S", "9H", "KS", "6S", "KH", "8C"])
        rnd = t.open_round()
        rnd.place_bet(1, "ana", main=100)
        rnd.place_bet(2, "bo", main=100)
        rnd.close_betting()
        assert rnd.pending is not None
        assert rnd.pending.box == 2
        rnd.hit()  # 5+6+K = 21
        assert rnd.is_over
        # Dealer 9+8 = 17: ana 3 to 2 = +150, bo +100.
        assert nets(rnd) == {"ana": 150, "bo": 100}

    def test_bj_6_4_a_doubled_hand_gets_one_card_and_split_aces_one_card_each(self) -> None:
        rnd = one_box([BURN, "5S", "9H", "4S", "2C", "8C"])
        rnd.double()  # 9 + 2 = 11, doubled to 200; no more decisions
        assert hand_cards(rnd) == [["5S", "4S", "2C"]]
        # ana 11 against 17: −200.
        assert nets(rnd) == {"ana": -200}
        rnd = one_box([BURN, "AS", "9H", "AC", "5D", "6D", "8C"], resplit_aces=False)
        rnd.split()
        assert hand_cards(rnd) == [["AS", "5D"], ["AC", "6D"]]
        # Soft 16 and soft 17 against 17: −100 + 0.
        assert nets(rnd) == {"ana": -100}

    def test_bj_6_5_the_dealer_waits_for_each_decision(self) -> None:
        rnd = one_box([BURN, "8S", "9H", "8C", "TD", "TC", "8D"])
        q = rnd.pending
        assert q is not None
        assert (q.kind, q.box, q.hand, q.player, q.rule) == ("play", 1, 0, "ana", "BJ 6.5")
        assert q.actions == ("hit", "stand", "double", "split", "surrender")
        rnd.split()
        assert rnd.pending is not None
        assert rnd.pending.hand == 0
        assert len(rnd.dealer) == 1
        rnd.stand()  # 8+T
        assert rnd.pending.hand == 1
        rnd.stand()  # 8+T
        # Dealer 9+8 = 17: two 18s win 100 each.
        assert nets(rnd) == {"ana": 200}

    def test_bj_6_6_soft_17_is_an_ace_and_a_six(self) -> None:
        # Dealer 6 then ace: A-6 drawn in either order is the ace-six: draws 2 = 19.
        rnd = one_box([BURN, "TS", "6H", "8S", "AC", "2D"])
        rnd.stand()
        assert settled(rnd).dealer_total == 19
        assert nets(rnd) == {"ana": -100}
        # A-A-5 is a soft 17 without a six: the dealer stands (18 wins).
        rnd = one_box([BURN, "TS", "AH", "8S", "AC", "5D"])
        rnd.decline()
        rnd.stand()
        assert settled(rnd).dealer_total == 17
        assert nets(rnd) == {"ana": 100}


# -- BJ 7 -----------------------------------------------------------------------------------------------------


class TestBJ7Scoring:
    def test_bj_7_1_the_dealer_completes_the_hand_after_all_decisions(self) -> None:
        t = new_table([BURN, "TS", "TC", "5H", "7S", "8S", "TD", "3C"])
        rnd = t.open_round()
        rnd.place_bet(1, "ana", main=100)
        rnd.place_bet(2, "bo", main=100)
        rnd.close_betting()
        rnd.stand()  # 17
        rnd.stand()  # 18
        answers = [i for i, o in enumerate(rnd.operations) if isinstance(o, Answered)]
        dealer = [i for i, o in enumerate(rnd.operations) if isinstance(o, Dealt) and o.box is None]
        assert len(dealer) == 3  # 5, then T and 3 (18) after both boxes stood
        assert all(d > answers[-1] for d in dealer[1:])
        assert isinstance(rnd.operations[-1], Settled)
        # Dealer 5+T+3 = 18: ana 17 loses, bo 18 pushes.
        assert nets(rnd) == {"ana": -100, "bo": 0}
        assert settled(rnd).dealer_total == 18

    def test_bj_7_1_a_new_round_waits_for_the_current_one_to_finish(self) -> None:
        t = new_table([BURN, "TS", "9H", "9S", "8C"])
        rnd = one_box([], table=t)
        with pytest.raises(IllegalAction) as info:
            t.open_round()
        assert info.value.rule == "BJ 7.1"
        assert t.round is rnd
        rnd.stand()
        assert t.open_round() is not rnd

    def test_bj_7_1_the_dealer_does_not_draw_when_nothing_is_standing(self) -> None:
        # ana busts: nothing is left to play for; the dealer takes no further card.
        rnd = one_box([BURN, "TS", "6H", "6S", "KC"])
        rnd.hit()
        assert [str(c) for c in settled(rnd).dealer_cards] == ["6H"]
        assert nets(rnd) == {"ana": -100}

    def test_bj_7_2_a_player_who_busts_loses_even_if_the_dealer_busts(self) -> None:
        # Box 1 busts; box 2 stands on 12, so the dealer plays: 6+T = 16, draws T = 26, bust.
        t = new_table([BURN, "TS", "TC", "6H", "6S", "2S", "KC", "TD", "TH"])
        rnd = t.open_round()
        rnd.place_bet(1, "ana", main=100)
        rnd.place_bet(2, "bo", main=100)
        rnd.close_betting()
        rnd.hit()  # 16 + K = 26
        rnd.stand()  # bo 12
        s = settled(rnd)
        assert s.dealer_total == 26
        assert s.players() == {"ana": -100, "bo": 100}


# -- BJ 8 -----------------------------------------------------------------------------------------------------


class TestBJ8CardValues:
    def test_bj_8_ace_counts_eleven_when_that_does_not_bust(self) -> None:
        rnd = one_box([BURN, "AS", "9H", "7S", "8C"])  # soft 18
        assert rnd.boxes[1].hands[0].total == 18
        rnd.stand()
        assert nets(rnd) == {"ana": 100}  # 18 against 17

    def test_bj_8_ace_counts_one_when_eleven_would_bust(self) -> None:
        rnd = one_box([BURN, "AS", "9H", "7S", "9D", "8C"])
        rnd.hit()  # A+7+9 = 17 (ace 1)
        assert rnd.boxes[1].hands[0].total == 17
        rnd.stand()
        assert nets(rnd) == {"ana": 0}  # 17 against 17

    @pytest.mark.parametrize("picture", ["JS", "QS", "KS", "TS"])
    def test_bj_8_pictures_count_ten(self, picture: str) -> None:
        rnd = one_box([BURN, picture, "9H", "9S", "8C"])
        assert rnd.boxes[1].hands[0].total == 19
        rnd.stand()
        assert nets(rnd) == {"ana": 100}


# -- BJ 9 -----------------------------------------------------------------------------------------------------


class TestBJ9Winning:
    def test_bj_9_higher_total_wins_one_to_one(self) -> None:
        rnd = one_box([BURN, "TS", "9H", "9S", "8C"], main=250)
        rnd.stand()
        assert nets(rnd) == {"ana": 250}  # 19 against 17
        assert outcomes(rnd, "main")[0].rule == "BJ 9"

    def test_bj_9_lower_total_loses(self) -> None:
        rnd = one_box([BURN, "TS", "9H", "7S", "TC"], main=250)
        rnd.stand()
        assert nets(rnd) == {"ana": -250}  # 17 against 9+T = 19

    def test_bj_9_every_standing_hand_wins_when_the_dealer_busts(self) -> None:
        rnd = one_box([BURN, "TS", "6H", "2S", "TC", "9D"])
        rnd.stand()  # 12
        # Dealer 6+T = 16 draws 9 = 25: ana's 12 wins.
        assert nets(rnd) == {"ana": 100}
