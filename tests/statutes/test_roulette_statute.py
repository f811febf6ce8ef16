"""Roulette, Despacho 30/2003: one class per article of RULES.md (RO 1-8), plus the table limits.

Every test drives the engine (``RouletteTable`` / ``RouletteRound``) and checks what the statute says
happens; every refused action is checked to change nothing (operations log, bets, phase).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations, pairwise
from typing import Any

import pytest

from croupier.errors import BetRejected, IllegalAction
from croupier.primitives.chance import ChanceSource, LiveSource, ScriptedSource, queue_reader
from croupier.primitives.wheel import BLACK, POCKETS, RED, WHEEL_ORDER, Colour, colour
from croupier.roulette import RouletteRound, RouletteRules, RouletteTable
from croupier.roulette.round import BallLanded, SpinVoided
from croupier.roulette.rules import load
from croupier.statute import LIMITS
from croupier.wagering import (
    BetPlaced,
    BettingClosed,
    BetWithdrawn,
    LosingBetsCollected,
    Phase,
    WinningBetPaid,
)
from support import assert_refused, snapshot

# -- helpers ------------------------------------------------------------------------------------------------


def new_round(
    rules: RouletteRules | None = None,
    *,
    pockets: Iterable[int] = (),
    source: ChanceSource | None = None,
) -> RouletteRound:
    """A fresh round at a table whose wheel gives ``pockets`` in order (or reads ``source``)."""
    table = RouletteTable(rules, source if source is not None else ScriptedSource(pockets=pockets))
    return table.open_round()


def reject(rnd: RouletteRound, bet_type: str, amount: object = 10, rule: str = "RO 6", **placement: Any) -> str:
    """Placing the bet is refused with ``BetRejected`` citing ``rule``; nothing changes. Returns the message."""
    assert not rnd.can_place_bet("p", bet_type, amount, **placement)
    exc = assert_refused(rnd, lambda: rnd.place_bet("p", bet_type, amount, **placement), BetRejected, rule)
    return str(exc)


# A placement of every bet type that covers pocket 17 (row 16-18, column 2, dozen 2, set A, odd, black).
COVERING_17: dict[str, dict[str, Any]] = {
    "straight": {"numbers": [17]},
    "split": {"numbers": [17, 20]},
    "street": {"numbers": [16, 17, 18]},
    "corner": {"numbers": [16, 17, 19, 20]},
    "six_line": {"numbers": [13, 14, 15, 16, 17, 18]},
    "nine": {"numbers": list(range(10, 19))},
    "twelve_special": {"index": 1},
    "column": {"index": 2},
    "dozen": {"index": 2},
    "low": {},
    "odd": {},
    "black": {},
}

# RO 7, typed from RULES.md: straight 35, split 17, street 11, corner 8, six-line 5, nine 3, twelve 2, even 1.
RO_7_ODDS: dict[str, int] = {
    "straight": 35,
    "split": 17,
    "street": 11,
    "corner": 8,
    "six_line": 5,
    "nine": 3,
    "twelve_special": 2,
    "column": 2,
    "dozen": 2,
    "low": 1,
    "high": 1,
    "odd": 1,
    "even": 1,
    "red": 1,
    "black": 1,
}

# Independent layout model: number n (1-36) sits in row (n-1)//3 and column (n-1)%3.


def _cell(n: int) -> tuple[int, int]:
    return (n - 1) // 3, (n - 1) % 3


def _adjacent(a: int, b: int) -> bool:
    if 0 in (a, b):
        return max(a, b) in (1, 2, 3)
    (ra, ca), (rb, cb) = _cell(a), _cell(b)
    return abs(ra - rb) + abs(ca - cb) == 1


# -- RO 1 -----------------------------------------------------------------------------------------------------


class TestRO1Wheel:
    def test_ro_1_wheel_has_37_pockets_0_to_36(self) -> None:
        assert tuple(range(37)) == POCKETS
        assert len(WHEEL_ORDER) == 37

    def test_ro_1_wheel_order_is_a_permutation_of_the_pockets_starting_at_zero(self) -> None:
        assert sorted(WHEEL_ORDER) == list(range(37))
        assert WHEEL_ORDER[0] == 0
        # RULES.md RO 1 reading, clockwise from 0.
        assert WHEEL_ORDER == (
            0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10,
            5, 24, 16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26,
        )  # fmt: skip

    def test_ro_1_red_and_black_numbers(self) -> None:
        assert {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36} == RED
        assert set(range(1, 37)) - RED == BLACK
        assert len(RED) == len(BLACK) == 18
        assert all(colour(n) is Colour.RED for n in RED)
        assert all(colour(n) is Colour.BLACK for n in BLACK)

    def test_ro_1_zero_is_in_another_colour(self) -> None:
        assert colour(0) is Colour.GREEN
        assert 0 not in RED | BLACK

    def test_ro_1_colours_alternate_around_the_wheel(self) -> None:
        ring = [*WHEEL_ORDER, WHEEL_ORDER[0]]
        for a, b in pairwise(ring):
            if 0 in (a, b):
                continue
            assert colour(a) is not colour(b), (a, b)
        # Across the zero the alternation carries on: 26 (black), 0, 32 (red).
        assert colour(WHEEL_ORDER[-1]) is Colour.BLACK
        assert colour(WHEEL_ORDER[1]) is Colour.RED

    def test_ro_1_colour_bets_follow_the_wheel_colours(self) -> None:
        for pocket in POCKETS:
            rnd = new_round(pockets=[pocket])
            red = rnd.place_bet("p", "red", 10).index
            black = rnd.place_bet("p", "black", 10).index
            rnd.close_betting()
            rnd.spin()
            assert rnd.settlement is not None
            nets = {r.index: r.net for r in rnd.settlement.results}
            assert nets[red] == (10 if pocket in RED else -10)
            assert nets[black] == (10 if pocket in BLACK else -10)

    @pytest.mark.parametrize("pocket", [37, -1, 100, True, "5", 5.0])
    def test_ro_1_a_result_that_is_not_a_pocket_is_refused(self, pocket: object) -> None:
        rnd = new_round()
        rnd.place_bet("p", "red", 10)
        rnd.close_betting()
        assert_refused(rnd, lambda: rnd.spin(pocket), ValueError, None)  # type: ignore[arg-type]


# -- RO 2 -----------------------------------------------------------------------------------------------------


class TestRO2Spinning:
    def test_ro_2_1_the_physical_spin_is_read_from_the_chance_source(self) -> None:
        asked: list[str] = []
        sensor = queue_reader(["17"])

        def reader(what: str) -> object:
            asked.append(what)
            return sensor(what)

        rnd = new_round(source=LiveSource(reader))
        bet = rnd.place_bet("p", "straight", 10, numbers=[17]).index
        rnd.close_betting()
        op = rnd.spin()
        assert asked == ["pocket"]
        assert op.pocket == 17
        assert rnd.pocket == 17
        assert rnd.settlement is not None
        assert rnd.settlement.outcome == 17
        assert {r.index: r.net for r in rnd.settlement.results} == {bet: 350}

    def test_ro_2_1_a_pocket_reported_by_the_wheel_sensor_is_used_as_is(self) -> None:
        source = ScriptedSource(pockets=[20])
        table = RouletteTable(source=source)
        rnd = table.open_round()
        rnd.place_bet("p", "straight", 10, numbers=[5])
        rnd.close_betting()
        assert rnd.spin(5).pocket == 5
        # The reported pocket was used; the source was not consulted.
        assert source.pocket() == 20

    def test_ro_2_1_a_bad_sensor_reading_is_refused_and_changes_nothing(self) -> None:
        rnd = new_round(source=LiveSource(queue_reader([37, "x", 12])))
        rnd.place_bet("p", "red", 10)
        rnd.close_betting()
        assert_refused(rnd, rnd.spin, ValueError, None)
        assert_refused(rnd, rnd.spin, ValueError, None)
        assert rnd.spin().pocket == 12
        assert rnd.is_over

    def test_ro_2_2_void_spin_bets_stand_ball_restarts_from_previous_pocket(self) -> None:
        table = RouletteTable(source=ScriptedSource(pockets=[8, 31]))
        first = table.open_round()
        first.close_betting()
        first.spin()
        rnd = table.open_round()
        a = rnd.place_bet("p", "straight", 10, numbers=[31]).index
        b = rnd.place_bet("q", "red", 20).index
        rnd.close_betting()
        bets = rnd.bets
        op = rnd.void_spin()
        assert op == SpinVoided(restart_pocket=8)
        assert rnd.bets == bets
        assert rnd.void_spins == 1
        assert rnd.phase is Phase.CLOSED
        landed = rnd.spin()
        assert landed == BallLanded(31, launched_from=8)
        assert rnd.settlement is not None
        assert {r.index: r.net for r in rnd.settlement.results} == {a: 350, b: -20}
        assert rnd.settlement.voids == 1

    def test_ro_2_2_void_spin_leaves_betting_closed(self) -> None:
        rnd = new_round(pockets=[3])
        i = rnd.place_bet("p", "red", 10).index
        rnd.close_betting()
        rnd.void_spin()
        assert_refused(rnd, lambda: rnd.place_bet("p", "black", 10), IllegalAction, "RO 3")
        assert_refused(rnd, lambda: rnd.withdraw_bet(i), IllegalAction, "RO 3")

    def test_ro_2_2_several_void_spins_each_restart_from_the_previous_winning_pocket(self) -> None:
        table = RouletteTable(source=ScriptedSource(pockets=[0, 14]))
        table.open_round().close_betting()
        assert table.round is not None
        table.round.spin()
        rnd = table.open_round()
        rnd.place_bet("p", "even", 10)
        rnd.close_betting()
        assert rnd.void_spin() == SpinVoided(0)
        assert rnd.void_spin() == SpinVoided(0)
        assert rnd.spin() == BallLanded(14, 0)
        assert rnd.void_spins == 2
        kinds = [type(o) for o in rnd.operations]
        assert kinds[:4] == [BetPlaced, BettingClosed, SpinVoided, SpinVoided]
        assert kinds[4] is BallLanded

    def test_ro_2_2_first_spin_of_a_table_has_no_previous_pocket(self) -> None:
        rnd = new_round(pockets=[9])
        rnd.close_betting()
        assert rnd.void_spin() == SpinVoided(None)
        assert rnd.spin() == BallLanded(9, None)

    def test_ro_2_2_void_only_while_the_ball_runs(self) -> None:
        rnd = new_round(pockets=[9])
        rnd.place_bet("p", "red", 10)
        assert_refused(rnd, rnd.void_spin, IllegalAction, "RO 3")
        rnd.close_betting()
        rnd.spin()
        assert_refused(rnd, rnd.void_spin, IllegalAction, "RO 4")


# -- RO 3 -----------------------------------------------------------------------------------------------------


class TestRO3Betting:
    def test_ro_3_betting_is_open_on_a_new_round(self) -> None:
        rnd = new_round()
        assert rnd.phase is Phase.BETTING
        assert "place_bet" in rnd.pending
        assert rnd.operations == []
        op = rnd.place_bet("p", "red", 10)
        assert rnd.operations == [op]
        assert rnd.bets == {op.index: op.bet}

    def test_ro_3_bell_closes_betting(self) -> None:
        rnd = new_round()
        op = rnd.close_betting()
        assert op == BettingClosed()
        assert rnd.phase is Phase.CLOSED
        assert "place_bet" not in rnd.pending
        assert not rnd.can_close_betting()
        assert_refused(rnd, rnd.close_betting, IllegalAction, "RO 3")

    def test_ro_3_no_bet_placed_after_the_bell(self) -> None:
        rnd = new_round()
        rnd.place_bet("p", "red", 10)
        rnd.close_betting()
        assert not rnd.can_place_bet("p", "black", 10)
        assert_refused(rnd, lambda: rnd.place_bet("p", "black", 10), IllegalAction, "RO 3")

    def test_ro_3_no_bet_withdrawn_after_the_bell(self) -> None:
        rnd = new_round()
        i = rnd.place_bet("p", "red", 10).index
        rnd.close_betting()
        assert not rnd.can_withdraw_bet(i)
        assert_refused(rnd, lambda: rnd.withdraw_bet(i), IllegalAction, "RO 3")

    def test_ro_3_no_bet_changed_after_the_bell(self) -> None:
        # A change is a withdrawal and a new placement: neither is possible once the bell has rung.
        rnd = new_round()
        i = rnd.place_bet("p", "straight", 10, numbers=[7]).index
        rnd.close_betting()
        assert_refused(rnd, lambda: rnd.withdraw_bet(i), IllegalAction, "RO 3")
        assert_refused(rnd, lambda: rnd.place_bet("p", "straight", 20, numbers=[7]), IllegalAction, "RO 3")
        assert rnd.bets[i].amount == 10

    def test_ro_3_bets_may_be_changed_and_withdrawn_before_the_bell(self) -> None:
        rnd = new_round(pockets=[7])
        i = rnd.place_bet("p", "straight", 10, numbers=[7]).index
        assert rnd.can_withdraw_bet(i)
        assert rnd.withdraw_bet(i) == BetWithdrawn(i)
        j = rnd.place_bet("p", "straight", 20, numbers=[7]).index
        assert j != i  # indexes are never reused within a round
        assert list(rnd.bets) == [j]
        rnd.close_betting()
        rnd.spin()
        assert rnd.settlement is not None
        assert [(r.index, r.net) for r in rnd.settlement.results] == [(j, 700)]

    def test_ro_3_withdrawing_a_bet_that_is_not_there_is_refused(self) -> None:
        rnd = new_round()
        i = rnd.place_bet("p", "red", 10).index
        rnd.withdraw_bet(i)
        assert_refused(rnd, lambda: rnd.withdraw_bet(i), IllegalAction, "RO 3")
        assert_refused(rnd, lambda: rnd.withdraw_bet(99), IllegalAction, "RO 3")

    def test_ro_3_no_spin_before_the_bell(self) -> None:
        rnd = new_round(pockets=[1])
        rnd.place_bet("p", "red", 10)
        assert not rnd.can_result()
        assert_refused(rnd, rnd.spin, IllegalAction, "RO 3")

    def test_ro_3_table_refuses_a_new_round_before_settlement(self) -> None:
        table = RouletteTable(source=ScriptedSource(pockets=[4]))
        rnd = table.open_round()
        rnd.auto_settle = False
        rnd.place_bet("p", "red", 10)

        def refused() -> None:
            with pytest.raises(IllegalAction) as info:
                table.open_round()
            assert info.value.rule == "RO 3"
            assert table.round is rnd
            assert list(table.history) == []

        refused()  # betting open
        rnd.close_betting()
        refused()  # after the bell
        rnd.void_spin()
        refused()  # after a void spin
        rnd.spin()
        refused()  # the ball has landed but the round is not settled
        rnd.settle()
        nxt = table.open_round()
        assert nxt is not rnd
        assert nxt.phase is Phase.BETTING
        assert list(table.history) == [rnd.settlement]
        assert nxt.launch_pocket == 4


# -- RO 4 -----------------------------------------------------------------------------------------------------


class TestRO4WinningNumber:
    @pytest.mark.parametrize("pocket", POCKETS)
    def test_ro_4_the_pocket_where_the_ball_rests_wins(self, pocket: int) -> None:
        rnd = new_round(pockets=[pocket])
        index = {n: rnd.place_bet("p", "straight", 2, numbers=[n]).index for n in POCKETS}
        rnd.close_betting()
        op = rnd.spin()
        assert op.pocket == pocket
        assert rnd.pocket == pocket
        assert rnd.settlement is not None
        assert rnd.settlement.outcome == pocket
        winners = [r.index for r in rnd.settlement.results if r.won]
        assert winners == [index[pocket]]

    def test_ro_4_the_winning_number_is_recorded_in_the_operations_log(self) -> None:
        rnd = new_round(pockets=[23])
        rnd.close_betting()
        rnd.spin()
        landed = [o for o in rnd.operations if isinstance(o, BallLanded)]
        assert [o.pocket for o in landed] == [23]

    def test_ro_4_a_round_has_one_winning_number(self) -> None:
        rnd = new_round(pockets=[23, 24])
        rnd.place_bet("p", "red", 10)
        rnd.close_betting()
        rnd.spin()
        assert_refused(rnd, rnd.spin, IllegalAction, "RO 4")
        assert_refused(rnd, lambda: rnd.spin(5), IllegalAction, "RO 4")

    def test_ro_4_spin_without_settling_waits_for_settlement(self) -> None:
        rnd = new_round(pockets=[23])
        rnd.auto_settle = False
        rnd.place_bet("p", "red", 10)
        rnd.close_betting()
        rnd.spin()
        assert rnd.pocket == 23
        assert not rnd.is_over
        assert rnd.pending == ("settle",)
        assert rnd.settle().outcome == 23
        assert rnd.is_over


# -- RO 5 -----------------------------------------------------------------------------------------------------


def _bets_all_winning_on_1(rnd: RouletteRound) -> dict[str, int]:
    """One bet of each type covering pocket 1, placed in the reverse of the payment order."""
    placements: list[tuple[str, dict[str, Any]]] = [
        ("straight", {"numbers": [1]}),
        ("split", {"numbers": [1, 2]}),
        ("street", {"numbers": [1, 2, 3]}),
        ("corner", {"numbers": [1, 2, 4, 5]}),
        ("six_line", {"numbers": [1, 2, 3, 4, 5, 6]}),
        ("red", {}),
        ("odd", {}),
        ("low", {}),
        ("nine", {"numbers": list(range(1, 10))}),
        ("twelve_special", {"index": 1}),
        ("dozen", {"index": 1}),
        ("column", {"index": 1}),
    ]
    return {t: rnd.place_bet("p", t, 10, **pl).index for t, pl in placements}


class TestRO5Paying:
    def test_ro_5_1_losing_bets_are_collected_before_any_winning_bet_is_paid(self) -> None:
        rnd = new_round(pockets=[1])
        win1 = rnd.place_bet("p", "straight", 10, numbers=[1]).index
        lose1 = rnd.place_bet("p", "black", 20).index
        win2 = rnd.place_bet("q", "red", 30).index
        lose2 = rnd.place_bet("q", "straight", 40, numbers=[36]).index
        rnd.close_betting()
        rnd.spin()
        settle_ops = rnd.operations[rnd.operations.index(BallLanded(1, None)) + 1 :]
        assert settle_ops[0] == LosingBetsCollected((lose1, lose2), 60)
        assert all(isinstance(o, WinningBetPaid) for o in settle_ops[1:])
        assert {o.index for o in settle_ops[1:] if isinstance(o, WinningBetPaid)} == {win1, win2}
        assert rnd.settlement is not None
        assert rnd.settlement.collected == (lose1, lose2)

    def test_ro_5_1_losing_bets_are_collected_even_when_nothing_wins(self) -> None:
        rnd = new_round(pockets=[0])
        i = rnd.place_bet("p", "red", 10).index
        rnd.close_betting()
        rnd.spin()
        assert rnd.operations[-1] == LosingBetsCollected((i,), 10)

    def test_ro_5_1_winning_bets_are_paid_in_the_statutory_order(self) -> None:
        rnd = new_round(pockets=[1])
        idx = _bets_all_winning_on_1(rnd)
        rnd.close_betting()
        rnd.spin()
        paid = [o.index for o in rnd.operations if isinstance(o, WinningBetPaid)]
        by_index = {i: t for t, i in idx.items()}
        order = [by_index[i] for i in paid]
        # RO 5.1: columns and dozens (with the twelve-number sets) first, then nine-number bets, the
        # even-money bets, six-number lines, corners, streets, splits and single numbers last; bets of
        # one rank in the order they were placed.
        rank = {
            "column": 0, "dozen": 0, "twelve_special": 0, "nine": 1, "red": 2, "odd": 2, "low": 2,
            "six_line": 3, "corner": 4, "street": 5, "split": 6, "straight": 7,
        }  # fmt: skip
        assert [rank[t] for t in order] == sorted(rank[t] for t in order)
        assert order[-4:] == ["corner", "street", "split", "straight"]
        assert set(order[:3]) == {"column", "dozen", "twelve_special"}
        assert order[3] == "nine"
        assert set(order[4:7]) == {"red", "odd", "low"}
        assert order[7] == "six_line"
        # Within a rank, placement order.
        assert order[:3] == ["twelve_special", "dozen", "column"]
        assert rnd.settlement is not None
        assert list(rnd.settlement.payment_order) == paid

    def test_ro_5_1_each_payment_is_the_bets_winnings(self) -> None:
        rnd = new_round(pockets=[1])
        idx = _bets_all_winning_on_1(rnd)
        rnd.close_betting()
        rnd.spin()
        paid = {o.index: o.winnings for o in rnd.operations if isinstance(o, WinningBetPaid)}
        assert paid == {i: 10 * RO_7_ODDS[t] for t, i in idx.items()}

    def test_ro_5_1_a_round_is_settled_once(self) -> None:
        rnd = new_round(pockets=[1])
        rnd.auto_settle = False
        rnd.place_bet("p", "red", 10)
        assert_refused(rnd, rnd.settle, IllegalAction, "RO 5.1")  # no result yet
        rnd.close_betting()
        assert_refused(rnd, rnd.settle, IllegalAction, "RO 5.1")
        rnd.spin()
        rnd.settle()
        assert_refused(rnd, rnd.settle, IllegalAction, "RO 5.1")

    def test_ro_5_2_settlement_reports_every_bets_result_individually(self) -> None:
        rnd = new_round(pockets=[17])
        placed = [
            rnd.place_bet("ann", "straight", 10, numbers=[17]),
            rnd.place_bet("ann", "black", 20),
            rnd.place_bet("ann", "red", 30),
            rnd.place_bet("bob", "dozen", 40, index=2),
            rnd.place_bet("bob", "split", 50, numbers=[17, 20]),
            rnd.place_bet("cat", "even", 60),
        ]
        rnd.close_betting()
        rnd.spin()
        s = rnd.settlement
        assert s is not None
        assert [r.index for r in s.results] == [op.index for op in placed]
        assert [r.bet for r in s.results] == [op.bet for op in placed]
        assert [r.net for r in s.results] == [350, 20, -30, 80, 850, -60]
        # One payment per winning bet (paid bet by bet, each visible on its own).
        paid = [o for o in rnd.operations if isinstance(o, WinningBetPaid)]
        assert len(paid) == 4
        assert s.players() == {"ann": 340, "bob": 930, "cat": -60}

    def test_ro_5_2_per_bet_results_sum_to_the_players_nets(self) -> None:
        rnd = new_round(pockets=[0])
        rnd.place_bet("ann", "straight", 10, numbers=[0])
        rnd.place_bet("ann", "corner", 20, numbers=[0, 1, 2, 3])
        rnd.place_bet("bob", "red", 30)
        rnd.place_bet("bob", "street", 40, numbers=[0, 2, 3])
        rnd.close_betting()
        rnd.spin()
        s = rnd.settlement
        assert s is not None
        totals: dict[str, int] = {}
        for r in s.results:
            totals[r.bet.player] = totals.get(r.bet.player, 0) + r.net
        assert totals == s.players() == {"ann": 350 + 160, "bob": -30 + 440}
        assert s.house_net == -sum(totals.values())
        assert s.wagered == 100

    def test_ro_5_3_the_record_of_each_bet_settles_a_disputed_account(self) -> None:
        # RO 5.3 (disturbed chips: the player's account is accepted) is a dealer-floor rule; what the
        # engine gives is an exact per-bet record (who, where, how much, what it netted), operation by
        # operation, against which a player's account is checked.
        rnd = new_round(pockets=[5])
        i = rnd.place_bet("ann", "straight", 10, numbers=[5]).index
        j = rnd.place_bet("ann", "split", 10, numbers=[5, 8]).index
        rnd.close_betting()
        rnd.spin()
        s = rnd.settlement
        assert s is not None
        by_index = {r.index: r for r in s.results}
        assert by_index[i].bet.placement == "straight 5"
        assert by_index[j].bet.placement == "split 5-8"
        assert (by_index[i].net, by_index[j].net) == (350, 170)
        paid = {o.index: o.winnings for o in rnd.operations if isinstance(o, WinningBetPaid)}
        assert paid == {i: 350, j: 170}
        assert sum(r.net for r in s.results) == s.players()["ann"] == 520


# -- RO 6 -----------------------------------------------------------------------------------------------------


class TestRO6Bets:
    def test_ro_6_straight_on_any_number_0_to_36(self) -> None:
        rnd = new_round()
        for n in POCKETS:
            assert rnd.place_bet("p", "straight", 10, numbers=[n]).bet.covers == {n}
        for bad in ([37], [-1], [1, 2], [], [100]):
            reject(rnd, "straight", numbers=bad)

    def test_ro_6_split_two_numbers_adjacent_on_the_layout_incl_zero_splits(self) -> None:
        rnd = new_round()
        accepted = {frozenset(p) for p in combinations(POCKETS, 2) if rnd.can_place_bet("p", "split", 10, numbers=p)}
        expected = {frozenset(p) for p in combinations(POCKETS, 2) if _adjacent(*p)}
        assert accepted == expected
        assert {frozenset({0, 1}), frozenset({0, 2}), frozenset({0, 3})} <= accepted
        assert len(accepted) == 60
        op = rnd.place_bet("p", "split", 10, numbers=[0, 3])
        assert op.bet.covers == {0, 3}

    @pytest.mark.parametrize("numbers", [[1, 5], [3, 4], [0, 4], [1, 1], [1], [1, 2, 3], [36, 37]])
    def test_ro_6_split_not_adjacent_is_rejected(self, numbers: list[int]) -> None:
        reject(new_round(), "split", numbers=numbers)

    def test_ro_6_street_rows_and_zero_trios(self) -> None:
        rnd = new_round()
        accepted = {frozenset(t) for t in combinations(POCKETS, 3) if rnd.can_place_bet("p", "street", 10, numbers=t)}
        expected = {frozenset({n, n + 1, n + 2}) for n in range(1, 35, 3)} | {
            frozenset({0, 1, 2}),
            frozenset({0, 2, 3}),
        }
        assert accepted == expected
        assert len(accepted) == 14

    @pytest.mark.parametrize("numbers", [[2, 3, 4], [0, 1, 3], [1, 4, 7], [34, 35, 36, 33], [0, 1]])
    def test_ro_6_street_other_trios_rejected(self, numbers: list[int]) -> None:
        reject(new_round(), "street", numbers=numbers)

    def test_ro_6_corner_four_numbers_meeting_at_a_corner_or_0_1_2_3(self) -> None:
        rnd = new_round()
        expected = {frozenset({n, n + 1, n + 3, n + 4}) for n in range(1, 33) if (n - 1) % 3 < 2}
        expected.add(frozenset({0, 1, 2, 3}))
        assert len(expected) == 23
        for corner in expected:
            assert rnd.can_place_bet("p", "corner", 10, numbers=sorted(corner))
        # Every other four numbers out of 0-12 is refused (the first four rows and zero).
        for quad in combinations(range(13), 4):
            if frozenset(quad) not in expected:
                assert not rnd.can_place_bet("p", "corner", 10, numbers=quad), quad

    @pytest.mark.parametrize("numbers", [[2, 3, 4, 5], [3, 4, 6, 7], [0, 1, 2, 4], [1, 2, 4], [34, 35, 37, 38]])
    def test_ro_6_corner_not_meeting_at_a_corner_rejected(self, numbers: list[int]) -> None:
        reject(new_round(), "corner", numbers=numbers)

    def test_ro_6_six_line_two_adjacent_rows(self) -> None:
        rnd = new_round()
        for n in range(1, 32, 3):
            assert rnd.place_bet("p", "six_line", 10, numbers=list(range(n, n + 6))).bet.covers == set(range(n, n + 6))
        for bad in ([2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 4, 5], [34, 35, 36, 1, 2, 3], [1, 2, 3, 4, 5]):
            reject(rnd, "six_line", numbers=bad)

    def test_ro_6_nine_three_adjacent_rows(self) -> None:
        rnd = new_round()
        for n in range(1, 29, 3):
            assert rnd.place_bet("p", "nine", 10, numbers=list(range(n, n + 9))).bet.covers == set(range(n, n + 9))
        for bad in (list(range(2, 11)), list(range(0, 9)), [1, 2, 3, 4, 5, 6, 7, 8], list(range(31, 40))):
            reject(rnd, "nine", numbers=bad)

    def test_ro_6_nine_number_blocks_option_replaces_the_blocks(self) -> None:
        block = [0, 1, 2, 3, 5, 8, 13, 21, 34]
        rules = load({"nine_number_blocks": [block]})
        rnd = new_round(rules, pockets=[21])
        i = rnd.place_bet("p", "nine", 10, numbers=block).index
        reject(rnd, "nine", numbers=list(range(1, 10)))  # the statute's block is not offered here
        rnd.close_betting()
        rnd.spin()
        assert rnd.settlement is not None
        assert {r.index: r.net for r in rnd.settlement.results} == {i: 30}

    def test_ro_6_twelve_special_sets_a_and_b(self) -> None:
        rnd = new_round()
        a = rnd.place_bet("p", "twelve_special", 10, index=1).bet
        b = rnd.place_bet("p", "twelve_special", 10, index=2).bet
        assert a.covers == {1, 3, 5, 13, 15, 17, 20, 22, 24, 32, 34, 36}
        assert b.covers == {2, 4, 6, 14, 16, 18, 19, 21, 23, 31, 33, 35}
        for bad in (0, 3, None):
            reject(rnd, "twelve_special", index=bad)
        reject(rnd, "twelve_special", numbers=[1, 3, 5])

    def test_ro_6_column_and_dozen(self) -> None:
        rnd = new_round()
        for c in (1, 2, 3):
            covers = rnd.place_bet("p", "column", 10, index=c).bet.covers
            assert covers == {n for n in range(1, 37) if (n - c) % 3 == 0}
        for d in (1, 2, 3):
            assert rnd.place_bet("p", "dozen", 10, index=d).bet.covers == set(range(12 * d - 11, 12 * d + 1))
        for bad in (0, 4, -1, None):
            reject(rnd, "column", index=bad)
            reject(rnd, "dozen", index=bad)
        reject(rnd, "dozen", numbers=[1, 2, 3])

    @pytest.mark.parametrize(
        ("bet_type", "covers"),
        [
            ("low", set(range(1, 19))),
            ("high", set(range(19, 37))),
            ("odd", set(range(1, 37, 2))),
            ("even", set(range(2, 37, 2))),
            ("red", RED),
            ("black", BLACK),
        ],
    )
    def test_ro_6_even_money_bets_cover_18_numbers_and_take_no_placement(self, bet_type: str, covers: set[int]) -> None:
        rnd = new_round()
        assert rnd.place_bet("p", bet_type, 10).bet.covers == covers
        reject(rnd, bet_type, numbers=[1])
        reject(rnd, bet_type, index=1)

    @pytest.mark.parametrize("bet_type", ["basket", "five_number", "", "STRAIGHT", "trio"])
    def test_ro_6_unknown_bet_types_rejected(self, bet_type: str) -> None:
        message = reject(new_round(), bet_type, numbers=[0, 1, 2])
        assert "not a roulette bet" in message

    @pytest.mark.parametrize(
        ("bet_type", "placement"),
        [
            ("straight", {"numbers": [1.5]}),
            ("straight", {"numbers": [True]}),
            ("straight", {"numbers": ["5"]}),
            ("straight", {"numbers": "5"}),
            ("split", {"numbers": [None, 1]}),
            ("dozen", {"index": "1"}),
            ("dozen", {"index": 1.0}),
            ("column", {"index": True}),
        ],
    )
    def test_ro_6_placements_are_whole_numbers(self, bet_type: str, placement: dict[str, Any]) -> None:
        # RO 6 places chips on the numbers 0-36 (and the indexes of columns, dozens, twelve sets): a float, a
        # string, None or a boolean names no place on the layout and is refused like any other bad placement
        # (sic bo refuses such faces and totals; check_pocket refuses them as a result).
        reject(new_round(), bet_type, **placement)

    def test_ro_6_a_numbers_bet_takes_no_index(self) -> None:
        rnd = new_round()
        reject(rnd, "straight", index=1)
        reject(rnd, "straight")
        reject(rnd, "split", numbers=[1, 2], index=1)

    def test_ro_6_a_bet_needs_a_player(self) -> None:
        rnd = new_round()
        before = snapshot(rnd)
        with pytest.raises(BetRejected) as info:
            rnd.place_bet("", "red", 10)
        assert info.value.rule == "RO 6"
        assert snapshot(rnd) == before

    def test_ro_6_an_unknown_placement_argument_is_refused(self) -> None:
        rnd = new_round()
        assert_refused(rnd, lambda: rnd.place_bet("p", "red", 10, colour="red"), TypeError, None)


# -- RO 7 -----------------------------------------------------------------------------------------------------


class TestRO7Odds:
    @pytest.mark.parametrize("bet_type", list(RO_7_ODDS))
    def test_ro_7_each_bet_type_wins_at_its_odds(self, bet_type: str) -> None:
        placement = COVERING_17.get(bet_type)
        pocket = 17
        if placement is None:  # high, even and red do not cover 17
            placement, pocket = {}, {"high": 19, "even": 20, "red": 19}[bet_type]
        rnd = new_round(pockets=[pocket])
        i = rnd.place_bet("p", bet_type, 10, **placement).index
        rnd.close_betting()
        rnd.spin()
        assert rnd.settlement is not None
        assert {r.index: r.net for r in rnd.settlement.results} == {i: 10 * RO_7_ODDS[bet_type]}

    @pytest.mark.parametrize("bet_type", list(COVERING_17))
    def test_ro_7_a_losing_bet_loses_its_stake(self, bet_type: str) -> None:
        rnd = new_round(pockets=[30])  # 30: red, even, high, column 3, dozen 3, not in set A
        i = rnd.place_bet("p", bet_type, 10, **COVERING_17[bet_type]).index
        rnd.close_betting()
        rnd.spin()
        assert rnd.settlement is not None
        assert {r.index: r.net for r in rnd.settlement.results} == {i: -10}

    def test_ro_7_the_statute_paytable_is_the_default(self) -> None:
        rules = RouletteRules()
        assert {t: rules.odds(t) for t in RO_7_ODDS} == RO_7_ODDS

    def test_ro_7_a_paytable_outside_the_statute_changes_the_payment(self) -> None:
        rnd = new_round(load({"paytables": {"straight": 36}}), pockets=[17])
        i = rnd.place_bet("p", "straight", 10, numbers=[17]).index
        rnd.close_betting()
        rnd.spin()
        assert rnd.settlement is not None
        assert rnd.settlement.results[0].index == i
        assert rnd.settlement.results[0].net == 360


# -- RO 8 -----------------------------------------------------------------------------------------------------


class TestRO8Zero:
    def test_ro_8_bets_covering_zero_win_at_their_odds(self) -> None:
        rnd = new_round(pockets=[0])
        placed = {
            "straight 0": (rnd.place_bet("p", "straight", 10, numbers=[0]).index, 350),
            "split 0-1": (rnd.place_bet("p", "split", 10, numbers=[0, 1]).index, 170),
            "split 0-2": (rnd.place_bet("p", "split", 10, numbers=[0, 2]).index, 170),
            "split 0-3": (rnd.place_bet("p", "split", 10, numbers=[0, 3]).index, 170),
            "street 0-1-2": (rnd.place_bet("p", "street", 10, numbers=[0, 1, 2]).index, 110),
            "street 0-2-3": (rnd.place_bet("p", "street", 10, numbers=[0, 2, 3]).index, 110),
            "corner 0-1-2-3": (rnd.place_bet("p", "corner", 10, numbers=[0, 1, 2, 3]).index, 80),
        }
        rnd.close_betting()
        rnd.spin()
        assert rnd.settlement is not None
        nets = {r.index: r.net for r in rnd.settlement.results}
        assert nets == dict(placed.values())

    def test_ro_8_every_other_bet_loses_its_whole_stake(self) -> None:
        rnd = new_round(pockets=[0])
        stakes = [rnd.place_bet("p", t, 10).index for t in ("low", "high", "odd", "even", "red", "black")]
        stakes += [rnd.place_bet("p", "column", 10, index=c).index for c in (1, 2, 3)]
        stakes += [rnd.place_bet("p", "dozen", 10, index=d).index for d in (1, 2, 3)]
        stakes += [rnd.place_bet("p", "twelve_special", 10, index=s).index for s in (1, 2)]
        stakes.append(rnd.place_bet("p", "six_line", 10, numbers=[1, 2, 3, 4, 5, 6]).index)
        stakes.append(rnd.place_bet("p", "nine", 10, numbers=list(range(1, 10))).index)
        stakes.append(rnd.place_bet("p", "straight", 10, numbers=[1]).index)
        stakes.append(rnd.place_bet("p", "split", 10, numbers=[1, 2]).index)
        rnd.close_betting()
        rnd.spin()
        s = rnd.settlement
        assert s is not None
        # No half-back, no imprisonment: every one of them loses the whole stake at once.
        assert [(r.index, r.net) for r in s.results] == [(i, -10) for i in stakes]
        assert s.collected == tuple(stakes)
        assert s.payment_order == ()
        assert rnd.is_over

    def test_ro_8_no_bet_is_carried_into_the_next_round(self) -> None:
        table = RouletteTable(source=ScriptedSource(pockets=[0]))
        rnd = table.open_round()
        rnd.place_bet("p", "even", 10)
        rnd.close_betting()
        rnd.spin()
        assert table.open_round().bets == {}


# -- Money and table limits -----------------------------------------------------------------------------------


class TestMoneyAndTableLimits:
    @pytest.mark.parametrize("amount", [True, False, 10.0, 2.5, "10", None, [10]])
    def test_limits_amounts_are_integers(self, amount: object) -> None:
        message = reject(new_round(), "red", amount, rule=LIMITS)
        assert "integer" in message

    @pytest.mark.parametrize("amount", [0, -10])
    def test_limits_amounts_are_positive(self, amount: int) -> None:
        reject(new_round(), "red", amount, rule=LIMITS)

    def test_limits_default_minimum_2_and_maximum_1_000_000(self) -> None:
        rnd = new_round()
        reject(rnd, "red", 1, rule=LIMITS)
        rnd.place_bet("p", "red", 2)
        rnd.place_bet("p", "red", 1_000_000)
        reject(rnd, "red", 1_000_001, rule=LIMITS)

    def test_limits_amounts_are_whole_chip_units(self) -> None:
        rnd = new_round(load({"chip_unit": 5}))
        for amount in (7, 12, 3):
            assert "multiple" in reject(rnd, "red", amount, rule=LIMITS)
        assert rnd.place_bet("p", "red", 10).bet.amount == 10
        assert rnd.place_bet("p", "red", 5).bet.amount == 5

    def test_limits_minimum_and_maximum_per_bet_type(self) -> None:
        rules = load({"min_bet": {"straight": 10}, "max_bet": {"red": 100, "straight": 50}})
        rnd = new_round(rules)
        assert "below the table minimum 10" in reject(rnd, "straight", 5, rule=LIMITS, numbers=[5])
        assert "above the table maximum 50" in reject(rnd, "straight", 60, rule=LIMITS, numbers=[5])
        rnd.place_bet("p", "straight", 10, numbers=[5])
        rnd.place_bet("p", "straight", 50, numbers=[5])
        assert "above the table maximum 100" in reject(rnd, "red", 101, rule=LIMITS)
        rnd.place_bet("p", "red", 100)
        rnd.place_bet("p", "black", 101)  # black keeps the default limits
        rnd.place_bet("p", "black", 2)
        reject(rnd, "black", 1, rule=LIMITS)

    def test_limits_a_refused_bet_takes_nothing(self) -> None:
        rnd = new_round(load({"max_bet": 100}), pockets=[1])
        rnd.place_bet("p", "red", 100)
        reject(rnd, "red", 200, rule=LIMITS)
        rnd.close_betting()
        rnd.spin()
        assert rnd.settlement is not None
        assert rnd.settlement.wagered == 100
        assert rnd.settlement.players() == {"p": 100}
