"""Bad input is refused with a clear error (the message names the value, ``.rule`` the rule id) and leaves the
round, the table and the money exactly as they were.

Each refusal is compared against a deep snapshot of the round taken before it: the operations, the pending
question, every box's seat, bettors and hands (cards, stakes, status), the dealer's cards, the shoe's counts
and the table's open streaks. The card-refusal tests reproduce defects once found, kept as regressions.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import is_dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import BlackjackRules, SideBet
from croupier.blackjack.table import BlackjackTable
from croupier.errors import BetRejected, CroupierError, IllegalAction, OutOfTurn
from croupier.money import Limit
from croupier.primitives.cards import Card
from croupier.primitives.chance import LiveSource, ScriptedSource, queue_reader
from croupier.primitives.pcg import SeededRandom
from croupier.primitives.shoe import CardNotInShoeError
from croupier.replay import ScenarioError, replay
from croupier.statute import LIMITS

from .strategies import (
    ALL_ACTIONS,
    DrawChooser,
    choose_answer,
    insurance_amounts,
    place_random_bets,
    rules_strategy,
)

# -- helpers ----------------------------------------------------------------------------------------------------


def freeze(x: Any) -> Any:
    """A deep, comparable copy of engine state: containers and mutable objects become dicts and lists; cards,
    enums and frozen records (questions, operations) compare by value as they are."""
    if isinstance(x, dict):
        return {k: freeze(v) for k, v in x.items()}
    if isinstance(x, list | tuple | deque | set | frozenset):
        return [freeze(v) for v in x]
    if x is None or isinstance(x, str | int | Fraction | Enum | Card):
        return x
    if is_dataclass(x) and type(x).__dataclass_params__.frozen:  # type: ignore[attr-defined]
        return x
    if hasattr(x, "__dict__"):
        return {k: freeze(v) for k, v in vars(x).items()}
    return {k: freeze(getattr(x, k)) for k in x.__slots__}


def snapshot(rnd: BlackjackRound) -> Any:
    """Everything a refusal must leave alone, as plain comparable data: the round's phase, operations, pending
    and queued questions, every box (seat, decider, bettors, hands with cards and stakes, flags), the dealer,
    the settlement and nets, the shoe's counts, and the table's open streaks."""
    table = rnd.table
    shoe = table.shoe
    return {
        "phase": rnd.phase,
        "operations": list(rnd.operations),
        "pending": rnd.pending,
        "questions": list(rnd._questions),
        "boxes": {n: freeze(b) for n, b in rnd.boxes.items()},
        "dealer": list(rnd.dealer),
        "settlement": rnd.settlement,
        "nets": rnd.settlement.players() if rnd.settlement else None,
        "shoe": (shoe.dealt, shoe.remaining, shoe.composition()) if shoe else None,
        "open_streaks": list(table.open_streaks),
        "rounds_played": table.rounds_played,
    }


def refused(
    rnd: BlackjackRound,
    attempt: Callable[[], object],
    error: type[Exception],
    rule: str,
    *names: str,
) -> CroupierError:
    """``attempt`` raises ``error`` with ``rule``, a message naming each of ``names``, and changes nothing."""
    before = snapshot(rnd)
    with pytest.raises(error) as info:
        attempt()
    exc = info.value
    assert isinstance(exc, CroupierError) and isinstance(exc, ValueError)
    assert exc.rule == rule, (exc.rule, str(exc))
    for name in names:
        assert name in str(exc), (name, str(exc))
    assert snapshot(rnd) == before
    return exc


def scripted(cards: list[str], rules: BlackjackRules | None = None) -> BlackjackRound:
    """A round on a fresh table whose shoe deals ``cards``."""
    return BlackjackTable(rules or BlackjackRules(), ScriptedSource(cards=cards)).open_round()


# Box 1 (ana) 8S 8H, box 2 (cy) 5C 6D, dealer up 9C; the first card is burned (BJ 4.1).
TWO_BOXES = ["2S", "8S", "5C", "9C", "8H", "6D"]


def two_box_round(extra: Sequence[str] = ()) -> BlackjackRound:
    rnd = scripted([*TWO_BOXES, *extra])
    rnd.place_bet(1, "ana", main=100)
    rnd.place_bet(1, "bo", main=20)
    rnd.place_bet(2, "cy", main=50)
    rnd.seat(1, "ana")
    rnd.seat(2, "cy")
    return rnd


# -- scripted cards ---------------------------------------------------------------------------------------------


def test_replay_refuses_an_unknown_card() -> None:
    scenario = {
        "game": "blackjack",
        "rounds": [{"boxes": [{"box": 1, "bets": [{"player": "ana", "main": 10}]}], "cards": ["2S", "ZZ"]}],
    }
    with pytest.raises(ScenarioError) as info:
        replay(scenario)
    exc = info.value
    assert exc.code == "invalid_scenario" and exc.round == 0
    assert "'ZZ'" in exc.message and "is not a card" in exc.message
    assert hasattr(exc, "rule")  # None: a malformed file cites no rule (errors.py, SCENARIOS.md)


def test_replay_refuses_a_card_scripted_more_often_than_the_shoe_holds_it() -> None:
    bets = [{"box": 1, "bets": [{"player": "ana", "main": 10}]}]
    scenario = {
        "game": "blackjack",
        "rules": {"decks": 1},
        "rounds": [
            {"boxes": bets, "cards": ["2S", "TH", "9C", "7D", "8C"], "actions": [{"box": 1, "action": "stand"}]},
            {"boxes": bets, "cards": ["TH", "9D", "7S", "8S"], "actions": [{"box": 1, "action": "stand"}]},
        ],
    }
    with pytest.raises(ScenarioError) as info:
        replay(scenario)
    exc = info.value
    assert exc.code == "invalid_scenario" and exc.round == 1
    assert "TH" in exc.message and "2 times" in exc.message and "1-deck shoe" in exc.message
    assert hasattr(exc, "rule")


def test_engine_refuses_a_card_the_shoe_no_longer_holds() -> None:
    # One deck: 5H is dealt to box 1, and the script deals it again on the hit.
    rnd = scripted(["2S", "5H", "9C", "6D", "5H"], BlackjackRules(decks=1))
    rnd.place_bet(1, "ana", main=10)
    rnd.close_betting()
    with pytest.raises(CardNotInShoeError) as info:
        rnd.hit()
    assert isinstance(info.value, ValueError)
    assert "5H" in str(info.value) and "1-deck shoe" in str(info.value)


def test_engine_card_refusal_cites_a_rule() -> None:
    rnd = scripted(["2S", "5H", "9C", "6D", "5H"], BlackjackRules(decks=1))
    rnd.place_bet(1, "ana", main=10)
    rnd.close_betting()
    with pytest.raises(CroupierError) as info:
        rnd.hit()
    assert info.value.rule is not None


def test_engine_card_refusal_on_a_hit_leaves_the_round_unchanged() -> None:
    rnd = scripted(["2S", "5H", "9C", "6D", "5H"], BlackjackRules(decks=1))
    rnd.place_bet(1, "ana", main=10)
    rnd.close_betting()
    before = snapshot(rnd)
    with pytest.raises(ValueError, match="5H"):
        rnd.hit()
    assert snapshot(rnd) == before


def test_engine_card_refusal_in_the_deal_leaves_the_round_unchanged() -> None:
    rnd = scripted(["2S", "5H", "9C", "5H"], BlackjackRules(decks=1))
    rnd.place_bet(1, "ana", main=10)
    before = snapshot(rnd)
    with pytest.raises(ValueError, match="5H"):
        rnd.close_betting()
    assert snapshot(rnd) == before


def test_engine_refuses_an_unknown_card() -> None:
    with pytest.raises(ValueError, match="'ZZ' is not a card"):
        ScriptedSource(cards=["2S", "ZZ"])
    source = LiveSource(queue_reader(["2S", "ZZ"]))
    assert source.card().code == "2S"
    with pytest.raises(ValueError, match="'ZZ' is not a card"):
        source.card()


def test_engine_unknown_card_is_a_croupier_error() -> None:
    with pytest.raises(ValueError) as info:
        ScriptedSource(cards=["ZZ"])
    assert isinstance(info.value, CroupierError)


def test_adding_an_unknown_card_to_a_script_adds_nothing() -> None:
    source = ScriptedSource(cards=["2S"])
    with pytest.raises(ValueError, match="ZZ"):
        source.add_cards(["5H", "ZZ"])
    assert source.cards_left == 1


def test_a_mistyped_live_card_on_a_hit_leaves_the_round_unchanged() -> None:
    table = BlackjackTable(BlackjackRules(), LiveSource(queue_reader(["2S", "5H", "9C", "6D", "ZZ", "3C"])))
    rnd = table.open_round()
    rnd.place_bet(1, "ana", main=10)
    rnd.close_betting()
    before = snapshot(rnd)
    with pytest.raises(ValueError, match="ZZ"):
        rnd.hit()
    assert snapshot(rnd) == before
    rnd.hit()  # the dealer reads the card again: 3C
    assert [c.code for c in rnd.boxes[1].hands[0].cards] == ["5H", "6D", "3C"]


# -- out of turn ---------------------------------------------------------------------------------------------------


def test_another_box_is_out_of_turn() -> None:
    rnd = two_box_round()
    rnd.close_betting()
    assert rnd.pending is not None and rnd.pending.box == 1
    refused(rnd, lambda: rnd.act("stand", box=2), OutOfTurn, "BJ 6.3", "box 2", "box 1")
    refused(rnd, lambda: rnd.act("stand", box=7), OutOfTurn, "BJ 6.3", "box 7")


def test_another_player_is_out_of_turn() -> None:
    rnd = two_box_round()
    rnd.close_betting()
    q = rnd.pending
    assert q is not None and q.player == "ana"
    refused(rnd, lambda: rnd.act("stand", player="bo"), OutOfTurn, "BJ 20.2", "bo", "ana")  # a back bettor
    refused(rnd, lambda: rnd.act("stand", player="cy"), OutOfTurn, "BJ 20.2", "cy")  # another box's player


def test_another_hand_is_out_of_turn() -> None:
    rnd = two_box_round(["3D"])
    rnd.close_betting()
    rnd.split()  # ana splits 8-8; bo is asked to follow
    q = rnd.pending
    assert q is not None and (q.kind, q.player) == ("follow", "bo")
    rnd.decline(player="bo")
    q = rnd.pending
    assert q is not None and (q.kind, q.hand) == ("play", 0)
    assert [h.cards[0].code for h in rnd.boxes[1].hands] == ["8S", "8H"]
    refused(rnd, lambda: rnd.act("stand", hand=1), OutOfTurn, "BJ 6.3", "hand 1", "hand 0")


def test_answering_for_nobody_after_the_round_ended() -> None:
    rnd = two_box_round(["TD"])
    rnd.close_betting()
    while not rnd.is_over:
        q = rnd.pending
        assert q is not None
        rnd.act("stand" if "stand" in q.actions else "decline", player=q.player)
    assert rnd.settlement is not None
    refused(rnd, lambda: rnd.act("stand"), OutOfTurn, "BJ 6.3", "'stand'", "over")
    refused(rnd, lambda: rnd.act("hit", box=1), OutOfTurn, "BJ 6.3", "'hit'")
    refused(rnd, lambda: rnd.place_bet(1, "ana", main=10), IllegalAction, "BJ 5.1", "closed")


def test_an_action_not_offered_is_illegal() -> None:
    rnd = two_box_round(["3D"])
    rnd.close_betting()
    rnd.hit()  # 8S 8H 3D: 19, three cards
    q = rnd.pending
    assert q is not None and "double" not in q.actions and "split" not in q.actions
    refused(rnd, rnd.double, IllegalAction, "BJ 17.1", "'double'")
    refused(rnd, rnd.split, IllegalAction, "BJ 16.1", "'split'")
    refused(rnd, rnd.surrender, IllegalAction, "BJ 18.1", "'surrender'")
    refused(rnd, lambda: rnd.act("insurance", amount=10), IllegalAction, "BJ 12.1", "'insurance'")


# -- bets ----------------------------------------------------------------------------------------------------------


def test_a_bet_under_the_limit() -> None:
    rnd = scripted([], BlackjackRules(min_bet=Limit(10)))
    rnd.place_bet(2, "bo", main=20)
    refused(rnd, lambda: rnd.place_bet(1, "ana", main=8), BetRejected, LIMITS, "8", "minimum 10")
    refused(rnd, lambda: rnd.place_bet(2, "bo", main=8), BetRejected, LIMITS, "8", "minimum 10")
    refused(rnd, lambda: rnd.place_bet(1, "ana", main=0, side={"any_pair": 1}), BetRejected, LIMITS, "1")


def test_a_bet_over_the_limit() -> None:
    rnd = scripted([], BlackjackRules(max_bet=Limit(100)))
    refused(rnd, lambda: rnd.place_bet(1, "ana", main=102), BetRejected, LIMITS, "102", "maximum 100")


def test_adding_to_a_bet_over_the_limit() -> None:
    rnd = scripted([], BlackjackRules(max_bet=Limit(100)))
    rnd.place_bet(1, "ana", main=100)
    refused(rnd, lambda: rnd.place_bet(1, "ana", main=100), BetRejected, LIMITS, "maximum 100")


def test_an_odd_main_bet() -> None:
    rnd = scripted([])
    refused(rnd, lambda: rnd.place_bet(1, "ana", main=15), BetRejected, LIMITS, "15", "2 chip units")
    rnd = scripted([], BlackjackRules(chip_unit=5, min_bet=Limit(10)))
    refused(rnd, lambda: rnd.place_bet(1, "ana", main=25), BetRejected, LIMITS, "25", "(10)")
    refused(rnd, lambda: rnd.place_bet(1, "ana", main=12), BetRejected, LIMITS, "12")


def test_a_side_bet_not_offered() -> None:
    rnd = scripted([])  # the statute offers any_pair only
    refused(rnd, lambda: rnd.place_bet(1, "ana", main=10, side={"sevens": 5}), BetRejected, "BJ 13", "sevens")
    refused(rnd, lambda: rnd.place_bet(1, "ana", main=10, streak={2: 5}), BetRejected, "BJ 13.5", "streak")
    refused(rnd, lambda: rnd.place_bet(1, "ana", main=10, side={"jackpot": 5}), BetRejected, "BJ 13", "jackpot")


def test_a_second_side_bet_kind() -> None:
    offered = frozenset({SideBet.ANY_PAIR, SideBet.PERFECT_PAIRS, SideBet.OVER_UNDER_13, SideBet.STREAK})
    rnd = scripted([], BlackjackRules(side_bets_offered=offered))
    both = {"any_pair": 5, "perfect_pairs": 5}
    refused(rnd, lambda: rnd.place_bet(1, "ana", main=10, side=both), BetRejected, "BJ 13", "any_pair", "perfect_pairs")
    rnd.place_bet(1, "ana", main=10, side={"over_13": 5, "under_13": 5})  # one kind, both sides
    refused(rnd, lambda: rnd.place_bet(1, "ana", side={"any_pair": 5}), BetRejected, "BJ 13", "any_pair", "box 1")
    refused(rnd, lambda: rnd.place_bet(1, "ana", streak={2: 5}), BetRejected, "BJ 13", "streak")


def test_a_streak_without_a_main_bet() -> None:
    rnd = scripted([], BlackjackRules(side_bets_offered=frozenset({SideBet.STREAK})))
    rnd.place_bet(1, "ana", main=10)
    refused(rnd, lambda: rnd.place_bet(1, "bo", streak={3: 5}), BetRejected, "BJ 13.5.4", "bo", "box 1")
    refused(rnd, lambda: rnd.place_bet(2, "ana", streak={2: 5}), BetRejected, "BJ 13.5.4", "box 2")
    refused(rnd, lambda: rnd.place_bet(1, "ana", streak={6: 5}), BetRejected, "BJ 13.5", "6")


def test_betting_after_close() -> None:
    rnd = two_box_round()
    rnd.close_betting()
    refused(rnd, lambda: rnd.place_bet(3, "di", main=10), IllegalAction, "BJ 5.1", "closed")
    refused(rnd, lambda: rnd.place_bet(1, "ana", side={"any_pair": 5}), IllegalAction, "BJ 5.1", "closed")
    refused(rnd, lambda: rnd.seat(2, "di"), IllegalAction, "BJ 20.1", "before the deal")
    refused(rnd, rnd.close_betting, IllegalAction, "BJ 5.1", "already closed")


def test_boxes_and_players_that_do_not_exist() -> None:
    rnd = scripted([])
    refused(rnd, lambda: rnd.place_bet(8, "ana", main=10), BetRejected, "BJ 1", "8", "1 to 7")
    refused(rnd, lambda: rnd.place_bet(0, "ana", main=10), BetRejected, "BJ 1", "0")
    refused(rnd, lambda: rnd.place_bet(1, "", main=10), BetRejected, "BJ 3", "''")


def test_insurance_over_the_cap() -> None:
    # Box 1 (ana, 100; bo, 30 behind) TS 7D against the dealer's ace: the cap is half of each bettor's own bet.
    rnd = scripted(["2S", "TS", "AC", "7D"])
    rnd.place_bet(1, "ana", main=100)
    rnd.place_bet(1, "bo", main=30)
    rnd.close_betting()
    q = rnd.pending
    assert q is not None and (q.kind, q.player, q.max_insurance) == ("offer", "ana", 50)
    refused(rnd, lambda: rnd.insure(51), BetRejected, "BJ 12.1", "51", "50")
    refused(rnd, lambda: rnd.insure(0), BetRejected, LIMITS, "0")
    refused(rnd, lambda: rnd.act("insurance"), BetRejected, "BJ 12.1", "None")
    rnd.insure(50)
    q = rnd.pending
    assert q is not None and (q.player, q.max_insurance) == ("bo", 15)
    refused(rnd, lambda: rnd.insure(16, player="bo"), BetRejected, "BJ 12.1", "16", "15")
    rnd = scripted(["2S", "TS", "AC", "7D"], BlackjackRules(insurance_limit=Fraction(1)))
    rnd.place_bet(1, "ana", main=100)
    rnd.close_betting()
    refused(rnd, lambda: rnd.insure(101), BetRejected, "BJ 12.1", "101", "100")


def test_insurance_when_its_minimum_is_above_the_cap() -> None:
    # A main bet of 10 caps insurance at 5 (BJ 12.1); an insurance minimum of 10 leaves only "decline".
    rules = BlackjackRules(min_bet=Limit(10, by_type={"insurance": 10}))
    rnd = scripted(["2S", "TS", "AC", "7D"], rules)
    rnd.place_bet(1, "ana", main=10)
    rnd.close_betting()
    q = rnd.pending
    assert q is not None and (q.kind, q.actions, q.max_insurance) == ("offer", ("decline",), 5)
    refused(rnd, lambda: rnd.act("insurance"), BetRejected, LIMITS, "minimum 10", "limit 5")
    refused(rnd, lambda: rnd.insure(5), BetRejected, LIMITS, "minimum 10")
    rnd.act("decline")


# -- random bad answers during random play --------------------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(rules=rules_strategy(), data=st.data(), seed=st.integers(0, 2**64 - 1))
def test_every_wrong_answer_is_refused_and_changes_nothing(
    rules: BlackjackRules, data: st.DataObject, seed: int
) -> None:
    """Before each answer of a random round: another box, another player, another hand, an action not listed
    and insurance over the cap are all refused, and leave the round as it was."""
    c = DrawChooser(data.draw)
    table = BlackjackTable(rules, SeededRandom(seed))
    rnd = table.open_round()
    place_random_bets(c, table, rnd)
    before = snapshot(rnd)
    with pytest.raises(IllegalAction):
        rnd.act("stand")
    assert snapshot(rnd) == before
    rnd.close_betting()
    while not rnd.is_over:
        q = rnd.pending
        assert q is not None
        before = snapshot(rnd)
        wrong: list[tuple[type[Exception], dict[str, Any]]] = [
            (OutOfTurn, {"action": q.actions[0], "box": q.box % rules.boxes + 1}),
            (OutOfTurn, {"action": q.actions[0], "player": q.player + "x"}),
        ]
        if q.hand is not None:
            wrong.append((OutOfTurn, {"action": q.actions[0], "hand": q.hand + 1}))
        # Insuring an offer whose cap is below the insurance minimum (it lists only "decline") is a refused bet.
        unlisted = BetRejected if q.kind == "offer" and q.hand is None else IllegalAction
        wrong += [
            (unlisted if a == "insurance" else IllegalAction, {"action": a}) for a in ALL_ACTIONS if a not in q.actions
        ]
        if "insurance" in q.actions:
            wrong.append((BetRejected, {"action": "insurance", "amount": q.max_insurance + rules.chip_unit}))
            if insurance_amounts(rules, q)[0] > rules.chip_unit:
                wrong.append((BetRejected, {"action": "insurance", "amount": rules.chip_unit}))
        for error, kwargs in wrong:
            action = kwargs.pop("action")
            with pytest.raises(error) as info:
                rnd.act(action, **kwargs)
            assert isinstance(info.value, CroupierError) and info.value.rule, info.value
            assert snapshot(rnd) == before, (action, kwargs)
        action, amount = choose_answer(c, rnd, q)
        rnd.act(action, amount=amount)
