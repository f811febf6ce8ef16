"""Sic Bo, Despacho 31/2003: one class per article of RULES.md (SB 1-7), plus the table limits.

Every test drives the engine (``SicBoTable`` / ``SicBoRound``) and checks what the statute says happens;
every refused action is checked to change nothing (operations log, bets, phase).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import product
from typing import Any

import pytest

from croupier.errors import BetRejected, IllegalAction
from croupier.primitives.chance import ChanceSource, LiveSource, ScriptedSource, queue_reader
from croupier.primitives.dice import ALL_ROLLS, FACES, Dice, check_dice, opposite
from croupier.sicbo import SicBoRound, SicBoRules, SicBoTable
from croupier.sicbo.round import DiceRolled, RollVoided
from croupier.sicbo.rules import load
from croupier.statute import LIMITS
from croupier.wagering import (
    BetPlaced,
    BettingClosed,
    LosingBetsCollected,
    Phase,
    WinningBetPaid,
)
from support import assert_refused, snapshot

# -- helpers ------------------------------------------------------------------------------------------------


def new_round(
    rules: SicBoRules | None = None,
    *,
    rolls: Iterable[Dice] = (),
    source: ChanceSource | None = None,
) -> SicBoRound:
    """A fresh round at a table whose shaker gives ``rolls`` in order (or reads ``source``)."""
    table = SicBoTable(rules, source if source is not None else ScriptedSource(dice=rolls))
    return table.open_round()


def reject(rnd: SicBoRound, bet_type: str, amount: object = 10, rule: str = "SB 5", **placement: Any) -> str:
    """Placing the bet is refused with ``BetRejected`` citing ``rule``; nothing changes. Returns the message."""
    assert not rnd.can_place_bet("p", bet_type, amount, **placement)
    exc = assert_refused(rnd, lambda: rnd.place_bet("p", bet_type, amount, **placement), BetRejected, rule)
    return str(exc)


def nets(rnd: SicBoRound) -> dict[int, int]:
    assert rnd.settlement is not None
    return {r.index: r.net for r in rnd.settlement.results}


# Every bet of the layout: (type, placement).
LAYOUT: list[tuple[str, dict[str, int]]] = [
    ("small", {}),
    ("big", {}),
    *(("single", {"face": f}) for f in FACES),
    *(("triple", {"face": f}) for f in FACES),
    ("any_triple", {}),
    *(("total", {"total": t}) for t in range(4, 18)),
]

# SB 6, typed from RULES.md.
TOTAL_ODDS = {4: 50, 17: 50, 5: 18, 16: 18, 6: 14, 15: 14, 7: 12, 14: 12, 8: 8, 13: 8, 9: 6, 10: 6, 11: 6, 12: 6}


def _wins(bet_type: str, placement: dict[str, int], dice: Dice) -> bool:
    """SB 5 and SB 7 restated independently of the engine."""
    total, triple = sum(dice), len(set(dice)) == 1
    match bet_type:
        case "small":
            return 4 <= total <= 10 and not triple
        case "big":
            return 11 <= total <= 17 and not triple
        case "single":
            return placement["face"] in dice
        case "triple":
            return triple and dice[0] == placement["face"]
        case "any_triple":
            return triple
        case _:
            return total == placement["total"]


# -- SB 1 -----------------------------------------------------------------------------------------------------


class TestSB1Equipment:
    def test_sb_1_three_dice_with_faces_1_to_6(self) -> None:
        assert FACES == (1, 2, 3, 4, 5, 6)
        rnd = new_round(rolls=[(6, 5, 4)])
        rnd.close_betting()
        assert rnd.roll() == DiceRolled((6, 5, 4))
        assert rnd.dice == (6, 5, 4)

    def test_sb_1_opposite_faces_sum_to_7(self) -> None:
        assert all(f + opposite(f) == 7 for f in FACES)
        assert {opposite(f) for f in FACES} == set(FACES)

    def test_sb_1_216_equally_likely_ordered_outcomes(self) -> None:
        assert len(ALL_ROLLS) == 216 == 6**3
        assert set(ALL_ROLLS) == set(product(FACES, repeat=3))
        # Equal weight: each face shows equally often on each die over the 216 outcomes.
        for die in range(3):
            assert Counter(r[die] for r in ALL_ROLLS) == dict.fromkeys(FACES, 36)

    @pytest.mark.parametrize("dice", [(0, 1, 2), (1, 2, 7), (1, 2), (1, 2, 3, 4), (True, 1, 1), (1.0, 2, 3), "123"])
    def test_sb_1_a_result_that_is_not_three_dice_is_refused(self, dice: object) -> None:
        with pytest.raises(ValueError, match="SB 1"):
            check_dice(dice)
        rnd = new_round()
        rnd.place_bet("p", "small", 10)
        rnd.close_betting()
        assert_refused(rnd, lambda: rnd.roll(dice), ValueError, None)  # type: ignore[arg-type]

    def test_sb_1_dice_read_by_a_sensor_are_used(self) -> None:
        asked: list[str] = []
        sensor = queue_reader(["7 1 1", "2, 2, 5"])

        def reader(what: str) -> object:
            asked.append(what)
            return sensor(what)

        rnd = new_round(source=LiveSource(reader))
        i = rnd.place_bet("p", "total", 10, total=9).index
        rnd.close_betting()
        assert_refused(rnd, rnd.roll, ValueError, None)  # a 7 is no face
        assert rnd.roll() == DiceRolled((2, 2, 5))
        assert asked == ["dice", "dice"]
        assert nets(rnd) == {i: 60}


# -- SB 2 -----------------------------------------------------------------------------------------------------


class TestSB2Opening:
    def test_sb_2_opening_a_round_opens_betting(self) -> None:
        table = SicBoTable(source=ScriptedSource())
        rnd = table.open_round()
        assert table.round is rnd
        assert rnd.phase is Phase.BETTING
        assert rnd.pending == ("place_bet", "withdraw_bet", "close_betting")
        assert rnd.operations == []
        op = rnd.place_bet("p", "big", 10)
        assert isinstance(op, BetPlaced)
        assert not op.late
        assert rnd.bets == {op.index: op.bet}

    def test_sb_2_bets_may_be_withdrawn_while_betting_is_open(self) -> None:
        rnd = new_round()
        i = rnd.place_bet("p", "big", 10).index
        assert rnd.can_withdraw_bet(i)
        rnd.withdraw_bet(i)
        assert rnd.bets == {}
        assert_refused(rnd, lambda: rnd.withdraw_bet(i), IllegalAction, "SB 3.1")


# -- SB 3 -----------------------------------------------------------------------------------------------------


class TestSB3Reveal:
    def test_sb_3_1_the_bell_closes_betting(self) -> None:
        rnd = new_round()
        i = rnd.place_bet("p", "small", 10).index
        assert rnd.close_betting() == BettingClosed()
        assert rnd.phase is Phase.CLOSED
        assert_refused(rnd, lambda: rnd.place_bet("p", "big", 10), IllegalAction, "SB 3.1")
        assert_refused(rnd, lambda: rnd.withdraw_bet(i), IllegalAction, "SB 3.1")
        assert_refused(rnd, rnd.close_betting, IllegalAction, "SB 3.1")
        assert not rnd.can_place_bet("p", "big", 10)

    def test_sb_3_1_no_roll_before_the_bell(self) -> None:
        rnd = new_round(rolls=[(1, 2, 3)])
        rnd.place_bet("p", "small", 10)
        assert_refused(rnd, rnd.roll, IllegalAction, "SB 3.1")
        assert_refused(rnd, rnd.void_roll, IllegalAction, "SB 3.1")

    def test_sb_3_2_the_result_is_announced_and_the_winning_bets_shown(self) -> None:
        rnd = new_round(rolls=[(3, 3, 5)])
        small = rnd.place_bet("p", "small", 10).index
        big = rnd.place_bet("p", "big", 10).index
        three = rnd.place_bet("p", "single", 10, face=3).index
        rnd.close_betting()
        assert rnd.pending == ("result", "void")
        op = rnd.roll()
        assert op == DiceRolled((3, 3, 5))
        assert rnd.operations[4] == op
        assert rnd.dice == (3, 3, 5)
        assert rnd.settlement is not None
        assert rnd.settlement.outcome == (3, 3, 5)
        # The winning areas: big (sum 11) and single 3 (two dice, 2 to 1); small loses.
        assert {r.index for r in rnd.settlement.results if r.won} == {big, three}
        assert nets(rnd) == {small: -10, big: 10, three: 20}

    def test_sb_3_2_one_result_per_round(self) -> None:
        rnd = new_round(rolls=[(1, 2, 3), (4, 5, 6)])
        rnd.place_bet("p", "small", 10)
        rnd.close_betting()
        rnd.roll()
        assert_refused(rnd, rnd.roll, IllegalAction, "SB 3.2")
        assert_refused(rnd, rnd.void_roll, IllegalAction, "SB 3.2")

    def test_sb_3_3_void_roll_new_bets_taken_placed_bets_may_not_be_withdrawn(self) -> None:
        rnd = new_round(rolls=[(6, 6, 5)])
        old = rnd.place_bet("p", "big", 10).index
        rnd.close_betting()
        op = rnd.void_roll()
        assert op == RollVoided(1)
        assert rnd.void_rolls == 1
        # A new round of betting: new bets are taken ...
        assert rnd.phase is Phase.BETTING
        new = rnd.place_bet("q", "total", 10, total=17)
        assert new.late
        # ... the bets already placed stand and may not be withdrawn; a new one may, before the bell.
        assert old in rnd.bets
        assert not rnd.can_withdraw_bet(old)
        assert_refused(rnd, lambda: rnd.withdraw_bet(old), IllegalAction, "SB 3.3")
        extra = rnd.place_bet("q", "small", 10).index
        rnd.withdraw_bet(extra)
        rnd.close_betting()
        rnd.roll()
        assert nets(rnd) == {old: 10, new.index: 500}
        assert rnd.settlement is not None
        assert rnd.settlement.voids == 1

    def test_sb_3_3_bets_stand_through_several_void_rolls(self) -> None:
        rnd = new_round(rolls=[(1, 1, 2)])
        a = rnd.place_bet("p", "total", 10, total=4).index
        rnd.close_betting()
        rnd.void_roll()
        b = rnd.place_bet("p", "small", 10).index
        rnd.close_betting()
        assert rnd.void_roll() == RollVoided(2)
        assert_refused(rnd, lambda: rnd.withdraw_bet(a), IllegalAction, "SB 3.3")
        assert_refused(rnd, lambda: rnd.withdraw_bet(b), IllegalAction, "SB 3.3")
        rnd.close_betting()
        rnd.roll()
        assert nets(rnd) == {a: 500, b: 10}
        kinds = [type(o).__name__ for o in rnd.operations]
        assert kinds[:7] == [
            "BetPlaced", "BettingClosed", "RollVoided", "BetPlaced", "BettingClosed", "RollVoided", "BettingClosed",
        ]  # fmt: skip

    def test_sb_3_3_an_rng_table_draws_no_void(self) -> None:
        table = SicBoTable()  # the strong RNG
        for _ in range(50):
            rnd = table.open_round()
            rnd.place_bet("p", "small", 10)
            rnd.close_betting()
            rnd.roll()
            assert rnd.void_rolls == 0
            assert not any(isinstance(o, RollVoided) for o in rnd.operations)


# -- SB 4 -----------------------------------------------------------------------------------------------------


class TestSB4Paying:
    def test_sb_4_losing_bets_collected_then_every_winning_bet_paid(self) -> None:
        dice = (2, 3, 5)
        rnd = new_round(rolls=[dice])
        placed = [(rnd.place_bet("p", t, 10, **pl).index, t, pl) for t, pl in LAYOUT]
        rnd.close_betting()
        rnd.roll()
        after = rnd.operations[[type(o) for o in rnd.operations].index(DiceRolled) + 1 :]
        winners = {i for i, t, pl in placed if _wins(t, pl, dice)}
        losers = tuple(i for i, t, pl in placed if not _wins(t, pl, dice))
        # small, single 2, 3, 5 and total 10 win.
        assert len(winners) == 5
        assert after[0] == LosingBetsCollected(losers, 10 * len(losers))
        assert all(isinstance(o, WinningBetPaid) for o in after[1:])
        assert {o.index for o in after[1:] if isinstance(o, WinningBetPaid)} == winners
        assert rnd.is_over

    def test_sb_4_winners_paid_in_layout_order(self) -> None:
        rnd = new_round(rolls=[(2, 2, 2)])
        t = rnd.place_bet("p", "triple", 10, face=2).index
        a = rnd.place_bet("p", "any_triple", 10).index
        s = rnd.place_bet("p", "single", 10, face=2).index
        n = rnd.place_bet("p", "total", 10, total=6).index
        rnd.close_betting()
        rnd.roll()
        assert rnd.settlement is not None
        assert rnd.settlement.payment_order == (n, s, a, t)

    def test_sb_4_the_next_round_waits_until_every_winning_bet_is_paid(self) -> None:
        table = SicBoTable(source=ScriptedSource(dice=[(1, 2, 3)]))
        rnd = table.open_round()
        rnd.auto_settle = False
        rnd.place_bet("p", "small", 10)

        def refused() -> None:
            with pytest.raises(IllegalAction) as info:
                table.open_round()
            assert info.value.rule == "SB 4"
            assert table.round is rnd
            assert list(table.history) == []

        refused()
        rnd.close_betting()
        refused()
        rnd.void_roll()
        refused()
        rnd.close_betting()
        rnd.roll()
        refused()
        assert_refused(rnd, rnd.close_betting, IllegalAction, "SB 3.1")
        rnd.settle()
        assert table.open_round() is not rnd
        assert list(table.history) == [rnd.settlement]

    def test_sb_4_settled_once_and_only_after_the_result(self) -> None:
        rnd = new_round(rolls=[(1, 2, 3)])
        rnd.auto_settle = False
        rnd.place_bet("p", "small", 10)
        assert_refused(rnd, rnd.settle, IllegalAction, "SB 4")
        rnd.close_betting()
        rnd.roll()
        rnd.settle()
        assert_refused(rnd, rnd.settle, IllegalAction, "SB 4")

    def test_sb_4_per_bet_results_sum_to_the_players_nets(self) -> None:
        rnd = new_round(rolls=[(4, 4, 1)])
        rnd.place_bet("ann", "single", 10, face=4)
        rnd.place_bet("ann", "small", 20)
        rnd.place_bet("bob", "total", 30, total=9)
        rnd.place_bet("bob", "big", 40)
        rnd.close_betting()
        rnd.roll()
        s = rnd.settlement
        assert s is not None
        assert [r.net for r in s.results] == [20, 20, 180, -40]
        assert s.players() == {"ann": 40, "bob": 140}
        assert s.house_net == -180


# -- SB 5 -----------------------------------------------------------------------------------------------------


class TestSB5Bets:
    def test_sb_5_every_bet_wins_exactly_when_the_statute_says_over_all_216_rolls(self) -> None:
        for dice in ALL_ROLLS:
            rnd = new_round(rolls=[dice])
            placed = [(rnd.place_bet("p", t, 10, **pl).index, t, pl) for t, pl in LAYOUT]
            rnd.close_betting()
            rnd.roll()
            won = {i for i, net in nets(rnd).items() if net > 0}
            assert won == {i for i, t, pl in placed if _wins(t, pl, dice)}, dice

    @pytest.mark.parametrize("dice", [(1, 1, 2), (2, 4, 4), (1, 3, 6), (4, 3, 3)])
    def test_sb_5_small_is_a_sum_of_4_to_10(self, dice: Dice) -> None:
        rnd = new_round(rolls=[dice])
        s, b = rnd.place_bet("p", "small", 10).index, rnd.place_bet("p", "big", 10).index
        rnd.close_betting()
        rnd.roll()
        assert nets(rnd) == {s: 10, b: -10}

    @pytest.mark.parametrize("dice", [(6, 6, 5), (5, 5, 1), (1, 4, 6), (6, 3, 2)])
    def test_sb_5_big_is_a_sum_of_11_to_17(self, dice: Dice) -> None:
        rnd = new_round(rolls=[dice])
        s, b = rnd.place_bet("p", "small", 10).index, rnd.place_bet("p", "big", 10).index
        rnd.close_betting()
        rnd.roll()
        assert nets(rnd) == {s: -10, b: 10}

    def test_sb_5_placements_of_single_triple_and_total(self) -> None:
        rnd = new_round()
        for f in FACES:
            assert rnd.place_bet("p", "single", 10, face=f).bet.target == f
            assert rnd.place_bet("p", "triple", 10, face=f).bet.target == f
        for t in range(4, 18):
            assert rnd.place_bet("p", "total", 10, total=t).bet.target == t
        for bad in (0, 7, -1, None, True, 2.0):
            reject(rnd, "single", face=bad)
            reject(rnd, "triple", face=bad)
        for bad_total in (3, 18, 0, None, True, 9.0):
            reject(rnd, "total", total=bad_total)
        reject(rnd, "single", total=5)
        reject(rnd, "total", face=5)

    @pytest.mark.parametrize("bet_type", ["small", "big", "any_triple"])
    def test_sb_5_bets_without_a_target_take_no_face_or_total(self, bet_type: str) -> None:
        rnd = new_round()
        assert rnd.place_bet("p", bet_type, 10).bet.target is None
        reject(rnd, bet_type, face=1)
        reject(rnd, bet_type, total=10)

    @pytest.mark.parametrize("bet_type", ["double", "odd", "", "SMALL", "combination"])
    def test_sb_5_unknown_bet_types_rejected(self, bet_type: str) -> None:
        assert "not a sic bo bet" in reject(new_round(), bet_type)

    def test_sb_5_a_bet_needs_a_player_and_known_placement_arguments(self) -> None:
        rnd = new_round()
        before = snapshot(rnd)
        with pytest.raises(BetRejected) as info:
            rnd.place_bet("", "small", 10)
        assert info.value.rule == "SB 5"
        assert snapshot(rnd) == before
        assert_refused(rnd, lambda: rnd.place_bet("p", "single", 10, faces=[1, 2]), TypeError, None)


# -- SB 6 -----------------------------------------------------------------------------------------------------


class TestSB6Odds:
    @pytest.mark.parametrize(
        ("bet_type", "placement", "dice", "odds"),
        [
            ("small", {}, (1, 2, 3), 1),
            ("big", {}, (4, 5, 6), 1),
            ("single", {"face": 5}, (5, 1, 2), 1),
            ("single", {"face": 5}, (5, 1, 5), 2),
            ("single", {"face": 5}, (5, 5, 5), 3),
            ("triple", {"face": 3}, (3, 3, 3), 150),
            ("any_triple", {}, (6, 6, 6), 24),
            ("any_triple", {}, (1, 1, 1), 24),
        ],
    )
    def test_sb_6_odds_of_each_bet(self, bet_type: str, placement: dict[str, int], dice: Dice, odds: int) -> None:
        rnd = new_round(rolls=[dice])
        i = rnd.place_bet("p", bet_type, 10, **placement).index
        rnd.close_betting()
        rnd.roll()
        assert nets(rnd) == {i: 10 * odds}

    @pytest.mark.parametrize("total", sorted(TOTAL_ODDS))
    def test_sb_6_odds_of_each_total(self, total: int) -> None:
        dice = next(d for d in ALL_ROLLS if sum(d) == total)
        rnd = new_round(rolls=[dice])
        i = rnd.place_bet("p", "total", 10, total=total).index
        other = rnd.place_bet("p", "total", 10, total=total + 1 if total < 17 else 4).index
        rnd.close_betting()
        rnd.roll()
        assert nets(rnd) == {i: 10 * TOTAL_ODDS[total], other: -10}

    @pytest.mark.parametrize(
        ("bet_type", "placement", "dice"),
        [("single", {"face": 4}, (1, 2, 3)), ("triple", {"face": 3}, (2, 2, 2)), ("any_triple", {}, (2, 2, 3))],
    )
    def test_sb_6_a_losing_bet_loses_its_stake(self, bet_type: str, placement: dict[str, int], dice: Dice) -> None:
        rnd = new_round(rolls=[dice])
        i = rnd.place_bet("p", bet_type, 10, **placement).index
        rnd.close_betting()
        rnd.roll()
        assert nets(rnd) == {i: -10}

    def test_sb_6_a_paytable_outside_the_statute_changes_the_payment(self) -> None:
        rules = load({"paytables": {"single": [1, 2, 12], "total": {"4": 60}}})
        rnd = new_round(rules, rolls=[(1, 1, 1)])
        s = rnd.place_bet("p", "single", 10, face=1).index
        rnd.close_betting()
        rnd.roll()
        assert nets(rnd) == {s: 120}
        rnd = new_round(rules, rolls=[(1, 1, 2)])
        t = rnd.place_bet("p", "total", 10, total=4).index
        rnd.close_betting()
        rnd.roll()
        assert nets(rnd) == {t: 600}


# -- SB 7 -----------------------------------------------------------------------------------------------------


class TestSB7Triples:
    @pytest.mark.parametrize("face", FACES)
    def test_sb_7_triple_kills_small_and_big(self, face: int) -> None:
        rnd = new_round(rolls=[(face, face, face)])
        small = rnd.place_bet("p", "small", 10).index
        big = rnd.place_bet("p", "big", 10).index
        any_triple = rnd.place_bet("p", "any_triple", 10).index
        rnd.close_betting()
        rnd.roll()
        assert nets(rnd) == {small: -10, big: -10, any_triple: 240}
        assert rnd.settlement is not None
        assert set(rnd.settlement.collected) == {small, big}

    def test_sb_7_triples_with_a_small_or_big_sum_still_lose(self) -> None:
        # (2,2,2) sums to 6 and (3,3,3) to 9, inside small's range; (4,4,4) to 12 and (5,5,5) to 15, inside
        # big's range: all four lose.
        for dice, bet_type in (((2, 2, 2), "small"), ((3, 3, 3), "small"), ((4, 4, 4), "big"), ((5, 5, 5), "big")):
            rnd = new_round(rolls=[dice])
            i = rnd.place_bet("p", bet_type, 10).index
            rnd.close_betting()
            rnd.roll()
            assert nets(rnd) == {i: -10}, dice

    def test_sb_7_only_triples_kill_small_and_big(self) -> None:
        killed = [d for d in ALL_ROLLS if not _wins("small", {}, d) and not _wins("big", {}, d)]
        assert sorted(killed) == [(f, f, f) for f in FACES]


# -- Money and table limits -----------------------------------------------------------------------------------


class TestMoneyAndTableLimits:
    @pytest.mark.parametrize("amount", [True, False, 10.0, 2.5, "10", None])
    def test_limits_amounts_are_integers(self, amount: object) -> None:
        assert "integer" in reject(new_round(), "small", amount, rule=LIMITS)

    @pytest.mark.parametrize("amount", [0, -2])
    def test_limits_amounts_are_positive(self, amount: int) -> None:
        reject(new_round(), "small", amount, rule=LIMITS)

    def test_limits_default_minimum_2_and_maximum_1_000_000(self) -> None:
        rnd = new_round()
        reject(rnd, "big", 1, rule=LIMITS)
        rnd.place_bet("p", "big", 2)
        rnd.place_bet("p", "big", 1_000_000)
        reject(rnd, "big", 1_000_001, rule=LIMITS)

    def test_limits_amounts_are_whole_chip_units(self) -> None:
        rnd = new_round(load({"chip_unit": 25}))
        assert "multiple" in reject(rnd, "small", 30, rule=LIMITS)
        assert "multiple" in reject(rnd, "single", 10, rule=LIMITS, face=2)
        rnd.place_bet("p", "small", 50)

    def test_limits_minimum_and_maximum_per_bet_type(self) -> None:
        rnd = new_round(load({"min_bet": {"triple": 10}, "max_bet": {"triple": 100, "small": 500}}))
        assert "below the table minimum 10" in reject(rnd, "triple", 5, rule=LIMITS, face=1)
        assert "above the table maximum 100" in reject(rnd, "triple", 110, rule=LIMITS, face=1)
        assert "above the table maximum 500" in reject(rnd, "small", 501, rule=LIMITS)
        rnd.place_bet("p", "triple", 10, face=1)
        rnd.place_bet("p", "small", 500)
        rnd.place_bet("p", "big", 5)  # big keeps the defaults
        rnd.place_bet("p", "big", 501)

    def test_limits_refused_bets_after_a_void_change_nothing(self) -> None:
        rnd = new_round(load({"max_bet": 100}))
        rnd.place_bet("p", "small", 100)
        rnd.close_betting()
        rnd.void_roll()
        reject(rnd, "small", 200, rule=LIMITS)
        reject(rnd, "small", 2.0, rule=LIMITS)
