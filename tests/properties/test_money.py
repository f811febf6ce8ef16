"""Money properties of roulette and sic bo rounds (RULES.md RO 5-8, SB 3.3, SB 5-7, "Money and table limits").

Every expectation here is computed independently of the engine: the numbers a bet covers, the odds, the
sic bo outcomes and the RO 5.1 payment order are written out again from RULES.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from croupier.errors import BetRejected, IllegalAction
from croupier.primitives import wheel
from croupier.replay import replay
from croupier.roulette import rules as roulette_rules
from croupier.roulette.round import BallLanded, RouletteRound, SpinVoided
from croupier.sicbo import rules as sicbo_rules
from croupier.sicbo.round import DiceRolled, RollVoided, SicBoRound
from croupier.wagering import BetPlaced, BettingClosed, LosingBetsCollected, WinningBetPaid

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- RULES.md, written out again ------------------------------------------------------------------------

RED = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
TWELVE_A = frozenset({1, 3, 5, 13, 15, 17, 20, 22, 24, 32, 34, 36})
TWELVE_B = frozenset({2, 4, 6, 14, 16, 18, 19, 21, 23, 31, 33, 35})

# RO 7: odds (to 1).
RO_ODDS = {
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

# RO 5.1 (with its Reading): the twelve-number bets first, then nine, the even-money bets, six-number lines,
# corners, streets, splits and single numbers last.
RO_PAYMENT_GROUPS: tuple[frozenset[str], ...] = (
    frozenset({"column", "dozen", "twelve_special"}),
    frozenset({"nine"}),
    frozenset({"red", "black", "odd", "even", "low", "high"}),
    frozenset({"six_line"}),
    frozenset({"corner"}),
    frozenset({"street"}),
    frozenset({"split"}),
    frozenset({"straight"}),
)


def ro_payment_group(bet_type: str) -> int:
    return next(i for i, group in enumerate(RO_PAYMENT_GROUPS) if bet_type in group)


def ro_covers(bet_type: str, numbers: Sequence[int] | None, index: int | None) -> frozenset[int]:
    """The numbers a (valid) roulette placement covers, from RO 6 alone."""
    if numbers is not None:
        return frozenset(numbers)
    if bet_type == "column":
        assert index is not None
        return frozenset(n for n in range(1, 37) if n % 3 == index % 3)
    if bet_type == "dozen":
        assert index is not None
        return frozenset(range(12 * (index - 1) + 1, 12 * index + 1))
    if bet_type == "twelve_special":
        return TWELVE_A if index == 1 else TWELVE_B
    fixed = {
        "low": frozenset(range(1, 19)),
        "high": frozenset(range(19, 37)),
        "odd": frozenset(n for n in range(1, 37) if n % 2),
        "even": frozenset(n for n in range(1, 37) if not n % 2),
        "red": RED,
        "black": frozenset(range(1, 37)) - RED,
    }
    return fixed[bet_type]


def ro_expected_net(bet_type: str, covers: frozenset[int], amount: int, pocket: int) -> int:
    """RO 7 / RO 8: +amount × odds when the pocket is covered (0 included), else −amount."""
    return amount * RO_ODDS[bet_type] if pocket in covers else -amount


def _adjacent_split(pair: frozenset[int]) -> bool:
    a, b = sorted(pair)
    if a == 0:
        return b in (1, 2, 3)
    same_row = (a - 1) // 3 == (b - 1) // 3
    return b - a == 3 or (b - a == 1 and same_row)


def ro_placement_ok(bet_type: str, chosen: frozenset[int], nine_blocks: Sequence[frozenset[int]]) -> bool:
    """Whether a set of numbers is a valid placement for a numbers bet (RO 6), from the layout geometry."""
    if any(not 0 <= n <= 36 for n in chosen):
        return False
    size = {"straight": 1, "split": 2, "street": 3, "corner": 4, "six_line": 6, "nine": 9}[bet_type]
    if len(chosen) != size:
        return False
    low = min(chosen)
    match bet_type:
        case "straight":
            return True
        case "split":
            return _adjacent_split(chosen)
        case "street":
            return chosen in ({0, 1, 2}, {0, 2, 3}) or (low % 3 == 1 and chosen == set(range(low, low + 3)))
        case "corner":
            return chosen == {0, 1, 2, 3} or (low >= 1 and low % 3 != 0 and chosen == {low, low + 1, low + 3, low + 4})
        case "six_line":
            return low % 3 == 1 and chosen == set(range(low, low + 6))
        case _:
            return chosen in set(nine_blocks)


# SB 6: odds (to 1).
SB_TOTAL_ODDS = {4: 50, 17: 50, 5: 18, 16: 18, 6: 14, 15: 14, 7: 12, 14: 12, 8: 8, 13: 8, 9: 6, 10: 6, 11: 6, 12: 6}


def sb_expected_net(bet_type: str, target: int | None, amount: int, dice: tuple[int, int, int]) -> int:
    """SB 5-7, from RULES.md alone."""
    total = sum(dice)
    triple = len(set(dice)) == 1
    odds: int | None = None
    if bet_type == "small":
        odds = 1 if 4 <= total <= 10 and not triple else None
    elif bet_type == "big":
        odds = 1 if 11 <= total <= 17 and not triple else None
    elif bet_type == "single":
        hits = sum(1 for d in dice if d == target)
        odds = hits if hits else None  # 1, 2, 3 to 1 for one, two, three dice
    elif bet_type == "triple":
        odds = 150 if triple and dice[0] == target else None
    elif bet_type == "any_triple":
        odds = 24 if triple else None
    elif bet_type == "total":
        odds = SB_TOTAL_ODDS[total] if total == target else None
    return -amount if odds is None else amount * odds


# -- strategies -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Limits:
    chip_unit: int
    min_bet: int
    max_bet: int

    def document(self) -> dict[str, Any]:
        return {"chip_unit": self.chip_unit, "min_bet": self.min_bet, "max_bet": self.max_bet}


@st.composite
def limits(draw: st.DrawFn) -> Limits:
    if draw(st.booleans()):
        return Limits(1, 2, 1_000_000)  # the statute's defaults
    chip = draw(st.sampled_from([1, 2, 5, 25]))
    low_units = draw(st.integers(1, 20))
    high_units = draw(st.integers(low_units, 40_000))
    return Limits(chip, chip * low_units, chip * high_units)


def amounts(lim: Limits) -> st.SearchStrategy[int]:
    """Valid stakes: whole chip units within [min_bet, max_bet]."""
    first = -(-lim.min_bet // lim.chip_unit)
    return st.integers(first, lim.max_bet // lim.chip_unit).map(lambda k: k * lim.chip_unit)


def _sorted_sets(sets: Any) -> list[list[int]]:
    return sorted(sorted(s) for s in sets)


NUMBER_PLACEMENTS: dict[str, list[list[int]]] = {
    "split": _sorted_sets(wheel.SPLITS),
    "street": _sorted_sets(wheel.STREETS),
    "corner": _sorted_sets(wheel.CORNERS),
    "six_line": _sorted_sets(wheel.SIX_LINES),
}
INDEX_COUNT = {"column": 3, "dozen": 3, "twelve_special": 2}
EVEN_MONEY = ("low", "high", "odd", "even", "red", "black")


@dataclass(frozen=True)
class RoBet:
    player: str
    type: str
    amount: int
    numbers: tuple[int, ...] | None = None
    index: int | None = None

    def placement(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.numbers is not None:
            out["numbers"] = list(self.numbers)
        if self.index is not None:
            out["index"] = self.index
        return out

    def scenario(self) -> dict[str, Any]:
        return {"player": self.player, "type": self.type, "amount": self.amount, **self.placement()}

    def covers(self) -> frozenset[int]:
        return ro_covers(self.type, self.numbers, self.index)


PLAYERS = st.sampled_from(["ana", "bo", "cy", "dee"])


@st.composite
def ro_bets(draw: st.DrawFn, lim: Limits, nine_blocks: Sequence[Sequence[int]]) -> RoBet:
    bet_type = draw(st.sampled_from(list(RO_ODDS)))
    player = draw(PLAYERS)
    amount = draw(amounts(lim))
    if bet_type == "straight":
        return RoBet(player, bet_type, amount, numbers=(draw(st.integers(0, 36)),))
    if bet_type in NUMBER_PLACEMENTS or bet_type == "nine":
        choices = NUMBER_PLACEMENTS[bet_type] if bet_type != "nine" else [sorted(b) for b in nine_blocks]
        numbers = draw(st.sampled_from(choices).flatmap(st.permutations))  # any order (SCENARIOS.md)
        return RoBet(player, bet_type, amount, numbers=tuple(numbers))
    if bet_type in INDEX_COUNT:
        return RoBet(player, bet_type, amount, index=draw(st.integers(1, INDEX_COUNT[bet_type])))
    return RoBet(player, bet_type, amount)


NINE_BLOCK = st.lists(st.integers(0, 36), min_size=9, max_size=9, unique=True)


@st.composite
def roulette_tables(draw: st.DrawFn) -> tuple[dict[str, Any], list[RoBet]]:
    lim = draw(limits())
    doc = lim.document()
    blocks: list[list[int]] = [sorted(b) for b in wheel.NINE_BLOCKS]
    if draw(st.booleans()):
        blocks = draw(st.lists(NINE_BLOCK, min_size=1, max_size=3))
        doc["nine_number_blocks"] = blocks
    bets = draw(st.lists(ro_bets(lim, blocks), min_size=1, max_size=14))
    return doc, bets


# -- roulette -------------------------------------------------------------------------------------------


def test_layout_sets_match_the_geometry() -> None:
    """The wheel module's placement sets are exactly RO 6's, re-derived from the layout geometry."""
    pockets = range(37)
    derived = {
        "split": {frozenset(c) for c in combinations(pockets, 2) if ro_placement_ok("split", frozenset(c), ())},
        "street": {frozenset(c) for c in combinations(pockets, 3) if ro_placement_ok("street", frozenset(c), ())},
        "corner": {frozenset(c) for c in combinations(pockets, 4) if ro_placement_ok("corner", frozenset(c), ())},
        "six_line": {
            frozenset(range(n, n + 6)) for n in pockets if ro_placement_ok("six_line", frozenset(range(n, n + 6)), ())
        },
    }
    assert derived["split"] == wheel.SPLITS
    assert derived["street"] == wheel.STREETS
    assert derived["corner"] == wheel.CORNERS
    assert derived["six_line"] == wheel.SIX_LINES
    assert (len(wheel.SPLITS), len(wheel.STREETS), len(wheel.CORNERS), len(wheel.SIX_LINES)) == (60, 14, 23, 11)
    assert [sorted(b) for b in wheel.NINE_BLOCKS] == [list(range(n, n + 9)) for n in range(1, 29, 3)]
    assert wheel.RED == RED
    assert wheel.TWELVE_SPECIAL == (TWELVE_A, TWELVE_B)
    assert list(roulette_rules.STATUTE.nine_number_blocks) == list(wheel.NINE_BLOCKS)


def _check_settlement_log(
    ops: list[object], nets: dict[int, int], pay_key: Callable[[int], tuple[int, int]] | None
) -> None:
    """RO 5.1 / SB 4: losing bets are collected first (all of them, once), then every winner is paid once."""
    collected = [i for i, op in enumerate(ops) if isinstance(op, LosingBetsCollected)]
    paid = [i for i, op in enumerate(ops) if isinstance(op, WinningBetPaid)]
    assert len(collected) == 1
    assert all(collected[0] < i for i in paid)
    collect = ops[collected[0]]
    assert isinstance(collect, LosingBetsCollected)
    losers = sorted(i for i, n in nets.items() if n < 0)
    assert sorted(collect.indexes) == losers
    assert collect.amount == sum(-nets[i] for i in losers)
    payments = [op for op in ops if isinstance(op, WinningBetPaid)]
    assert sorted(p.index for p in payments) == sorted(i for i, n in nets.items() if n > 0)
    assert all(p.winnings == nets[p.index] for p in payments)
    if pay_key is not None:
        keys = [pay_key(p.index) for p in payments]
        assert keys == sorted(keys)
    assert ops[-1] is payments[-1] if payments else ops[-1] is collect


@SETTINGS
@given(table=roulette_tables(), pocket=st.integers(0, 36), voids=st.integers(0, 3))
def test_roulette_money_is_conserved_and_paid_in_order(
    table: tuple[dict[str, Any], list[RoBet]], pocket: int, voids: int
) -> None:
    doc, bets = table
    rules = roulette_rules.load(doc)
    rnd = RouletteRound(rules, launch_pocket=17)
    for b in bets:
        rnd.place_bet(b.player, b.type, b.amount, **b.placement())
    rnd.close_betting()
    for _ in range(voids):
        assert rnd.void_spin() == SpinVoided(17)  # RO 2.2: the ball restarts from the previous pocket
    rnd.spin(pocket)
    s = rnd.settlement
    assert s is not None
    assert (s.outcome, s.voids) == (pocket, voids)

    expected = {i: ro_expected_net(b.type, b.covers(), b.amount, pocket) for i, b in enumerate(bets)}
    assert {r.index: r.net for r in s.results} == expected
    # Conservation: what the players win the house loses, and the log moves exactly that money.
    players = s.players()
    assert sum(players.values()) + s.house_net == 0
    assert sum(expected.values()) == sum(players.values())
    for name in players:
        assert players[name] == sum(n for i, n in expected.items() if bets[i].player == name)
    ops = rnd.operations
    paid = sum(op.winnings for op in ops if isinstance(op, WinningBetPaid))
    taken = sum(op.amount for op in ops if isinstance(op, LosingBetsCollected))
    assert taken - paid == s.house_net

    # The shape of the log: bets, the bell, the void spins, the ball, then settlement.
    n = len(bets)
    assert [type(op) for op in ops[: n + 2 + voids]] == [BetPlaced] * n + [BettingClosed] + [SpinVoided] * voids + [
        BallLanded
    ]
    _check_settlement_log(ops, expected, lambda i: (ro_payment_group(bets[i].type), i))
    assert list(s.payment_order) == [op.index for op in ops if isinstance(op, WinningBetPaid)]

    # The same round through the scenario format gives the same money and the same order.
    scenario = {
        "game": "roulette",
        "rules": doc,
        "rounds": [{"bets": [b.scenario() for b in bets], "results": ["void"] * voids + [pocket]}],
    }
    out = replay(scenario)["rounds"][0]
    assert [b["net"] for b in out["bets"]] == [expected[i] for i in range(n)]
    assert out["payment_order"] == list(s.payment_order)
    assert (out["pocket"], out["void_spins"]) == (pocket, voids)


@SETTINGS
@given(bets=st.lists(ro_bets(Limits(1, 2, 1_000_000), [sorted(b) for b in wheel.NINE_BLOCKS]), min_size=1, max_size=8))
def test_roulette_zero(bets: list[RoBet]) -> None:
    """RO 8: on 0 only bets covering 0 win; every other bet loses (no half-back, no imprisonment)."""
    rnd = RouletteRound(roulette_rules.STATUTE)
    for b in bets:
        rnd.place_bet(b.player, b.type, b.amount, **b.placement())
    rnd.close_betting()
    rnd.spin(0)
    assert rnd.settlement is not None
    want = [b.amount * RO_ODDS[b.type] if b.numbers is not None and 0 in b.numbers else -b.amount for b in bets]
    assert [r.net for r in rnd.settlement.results] == want


# -- refused roulette bets ------------------------------------------------------------------------------

JUNK_PLAYERS = st.one_of(PLAYERS, st.sampled_from(["", None, 0, 7]))
JUNK_AMOUNTS = st.one_of(
    st.integers(-10, 3_000_000),
    st.sampled_from([0, 1, -2, 1_000_001, 10**30]),
    st.booleans(),
    st.floats(allow_nan=True),
    st.none(),
    st.text(max_size=3),
    st.just("10"),
)


@st.composite
def ro_maybe_invalid_bets(draw: st.DrawFn) -> tuple[str, Any, Any, dict[str, Any]]:
    bet_type = draw(st.sampled_from([*RO_ODDS, "basket", "", "Straight", "zero"]))
    player = draw(JUNK_PLAYERS)
    amount = draw(JUNK_AMOUNTS)
    placement: dict[str, Any] = {}
    if draw(st.booleans()):
        placement["numbers"] = draw(
            st.one_of(
                st.lists(st.integers(-2, 38), min_size=1, max_size=10),
                st.sampled_from(sorted(wheel.SPLITS | wheel.STREETS | wheel.CORNERS | wheel.SIX_LINES, key=sorted))
                .map(sorted)
                .flatmap(st.permutations),
            )
        )
    if draw(st.booleans()):
        placement["index"] = draw(st.integers(-1, 4))
    return bet_type, player, amount, placement


def ro_bet_is_valid(
    rules: roulette_rules.RouletteRules, bet_type: str, player: Any, amount: Any, placement: dict[str, Any]
) -> bool:
    """RO 6 and "Money and table limits", independently of the engine."""
    if bet_type not in RO_ODDS or not isinstance(player, str) or not player:
        return False
    if isinstance(amount, bool) or not isinstance(amount, int) or not 2 <= amount <= 1_000_000:
        return False
    numbers, index = placement.get("numbers"), placement.get("index")
    if bet_type in ("straight", "split", "street", "corner", "six_line", "nine"):
        if index is not None or numbers is None:
            return False
        chosen = frozenset(numbers)
        return len(chosen) == len(numbers) and ro_placement_ok(bet_type, chosen, rules.nine_number_blocks)
    if numbers is not None:
        return False
    if bet_type in INDEX_COUNT:
        return index is not None and 1 <= index <= INDEX_COUNT[bet_type]
    return index is None


@SETTINGS
@given(valid=st.lists(ro_bets(Limits(1, 2, 1_000_000), [sorted(b) for b in wheel.NINE_BLOCKS]), max_size=4),
       candidate=ro_maybe_invalid_bets())  # fmt: skip
def test_roulette_refused_bet_changes_nothing(
    valid: list[RoBet], candidate: tuple[str, Any, Any, dict[str, Any]]
) -> None:
    rules = roulette_rules.STATUTE
    rnd = RouletteRound(rules)
    for b in valid:
        rnd.place_bet(b.player, b.type, b.amount, **b.placement())
    ops_before, bets_before = list(rnd.operations), rnd.bets
    bet_type, player, amount, placement = candidate
    ok = ro_bet_is_valid(rules, bet_type, player, amount, placement)
    if ok:
        op = rnd.place_bet(player, bet_type, amount, **placement)
        assert rnd.operations == [*ops_before, op]
        assert rnd.bets == {**bets_before, op.index: op.bet}
        return
    with pytest.raises(BetRejected):
        rnd.place_bet(player, bet_type, amount, **placement)
    assert not rnd.can_place_bet(player, bet_type, amount, **placement)
    assert rnd.operations == ops_before
    assert rnd.bets == bets_before


NOT_WHOLE_NUMBERS = st.one_of(
    st.floats(allow_nan=True), st.booleans(), st.none(), st.text(max_size=2), st.sampled_from([1.0, 17.5, True, "3"])
)


@settings(max_examples=60, deadline=None)
@given(
    bet_type=st.sampled_from(list(RO_ODDS)),
    junk=NOT_WHOLE_NUMBERS,
    where=st.sampled_from(["numbers", "index"]),
    extra=st.lists(st.integers(0, 36), max_size=8),
)
def test_roulette_refuses_placements_that_are_not_whole_numbers(
    bet_type: str, junk: Any, where: str, extra: list[int]
) -> None:
    """RO 6: a placement is whole numbers; anything else is refused (this was a bare TypeError or an accepted
    bet on 1.5 before ceb931a) and changes nothing."""
    rnd = RouletteRound(roulette_rules.STATUTE)
    rnd.place_bet("ana", "red", 10)
    ops_before, bets_before = list(rnd.operations), rnd.bets
    assume(junk is not None or where == "numbers")  # index=None means "no index"
    placement: dict[str, Any] = {"numbers": [junk, *extra]} if where == "numbers" else {"index": junk}
    with pytest.raises(BetRejected):
        rnd.place_bet("bo", bet_type, 10, **placement)
    assert rnd.operations == ops_before
    assert rnd.bets == bets_before


@SETTINGS
@given(table=roulette_tables(), voids=st.integers(0, 2))
def test_roulette_no_bet_after_the_bell(table: tuple[dict[str, Any], list[RoBet]], voids: int) -> None:
    """RO 3 / RO 2.2: after the bell (void spins included) a bet is refused and nothing changes."""
    doc, bets = table
    rnd = RouletteRound(roulette_rules.load(doc))
    for b in bets[1:]:
        rnd.place_bet(b.player, b.type, b.amount, **b.placement())
    rnd.close_betting()
    for _ in range(voids):
        rnd.void_spin()
    ops_before, bets_before = list(rnd.operations), rnd.bets
    late = bets[0]
    with pytest.raises(IllegalAction):
        rnd.place_bet(late.player, late.type, late.amount, **late.placement())
    assert rnd.operations == ops_before
    assert rnd.bets == bets_before


# -- sic bo ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SbBet:
    player: str
    type: str
    amount: int
    target: int | None = None

    def placement(self) -> dict[str, Any]:
        if self.type in ("single", "triple"):
            return {"face": self.target}
        if self.type == "total":
            return {"total": self.target}
        return {}

    def scenario(self) -> dict[str, Any]:
        return {"player": self.player, "type": self.type, "amount": self.amount, **self.placement()}


@st.composite
def sb_bets(draw: st.DrawFn, lim: Limits) -> SbBet:
    bet_type = draw(st.sampled_from(["small", "big", "single", "triple", "any_triple", "total"]))
    target: int | None = None
    if bet_type in ("single", "triple"):
        target = draw(st.integers(1, 6))
    elif bet_type == "total":
        target = draw(st.integers(4, 17))
    return SbBet(draw(PLAYERS), bet_type, draw(amounts(lim)), target)


DICE = st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6))
TRIPLES = st.integers(1, 6).map(lambda f: (f, f, f))


@st.composite
def sicbo_rounds(draw: st.DrawFn) -> tuple[dict[str, Any], list[SbBet], list[list[SbBet]]]:
    """Rules, the bets before the first roll, and the late bets placed after each void roll."""
    lim = draw(limits())
    bets = draw(st.lists(sb_bets(lim), min_size=1, max_size=12))
    late = draw(st.lists(st.lists(sb_bets(lim), max_size=4), max_size=3))
    return lim.document(), bets, late


@SETTINGS
@given(table=sicbo_rounds(), dice=st.one_of(DICE, TRIPLES))
def test_sicbo_money_is_conserved(table: tuple[dict[str, Any], list[SbBet], list[list[SbBet]]], dice: Any) -> None:
    doc, bets, late = table
    rnd = SicBoRound(sicbo_rules.load(doc))
    everything = list(bets)
    for b in bets:
        rnd.place_bet(b.player, b.type, b.amount, **b.placement())
    rnd.close_betting()
    for k, window in enumerate(late):
        standing = rnd.bets
        assert rnd.void_roll() == RollVoided(k + 1)
        assert rnd.bets == standing  # SB 3.3: the bets stand ...
        for i in standing:
            assert not rnd.can_withdraw_bet(i)  # ... and may not be withdrawn
            with pytest.raises(IllegalAction):
                rnd.withdraw_bet(i)
        for b in window:
            op = rnd.place_bet(b.player, b.type, b.amount, **b.placement())
            assert op.late
        everything.extend(window)
        rnd.close_betting()
    rnd.roll(dice)
    s = rnd.settlement
    assert s is not None
    assert (s.outcome, s.voids) == (tuple(dice), len(late))

    expected = {i: sb_expected_net(b.type, b.target, b.amount, dice) for i, b in enumerate(everything)}
    assert {r.index: r.net for r in s.results} == expected
    players = s.players()
    assert sum(players.values()) + s.house_net == 0
    assert sum(expected.values()) == sum(players.values())
    ops = rnd.operations
    paid = sum(op.winnings for op in ops if isinstance(op, WinningBetPaid))
    taken = sum(op.amount for op in ops if isinstance(op, LosingBetsCollected))
    assert taken - paid == s.house_net
    assert sum(1 for op in ops if isinstance(op, DiceRolled)) == 1
    # SB 4 fixes no order among the winners, only that every one is paid.
    _check_settlement_log(ops, expected, None)
    if len(set(dice)) == 1:  # SB 7: a triple makes every small and big bet lose
        for i, b in enumerate(everything):
            if b.type in ("small", "big"):
                assert expected[i] == -b.amount
                assert next(r.net for r in s.results if r.index == i) == -b.amount

    # The scenario format: late bets after the first void roll (only one window there).
    if len(late) <= 1:
        rounds: dict[str, Any] = {"bets": [b.scenario() for b in bets], "results": ["void"] * len(late) + [list(dice)]}
        if late and late[0]:
            rounds["late_bets"] = [b.scenario() for b in late[0]]
        out = replay({"game": "sicbo", "rules": doc, "rounds": [rounds]})["rounds"][0]
        assert [b["net"] for b in out["bets"]] == [expected[i] for i in range(len(everything))]
        assert out["dice"] == list(dice)
        assert out["void_rolls"] == len(late)


@SETTINGS
@given(
    bet_type=st.sampled_from(["small", "big", "single", "triple", "any_triple", "total", "odd", "Big", ""]),
    player=JUNK_PLAYERS,
    amount=JUNK_AMOUNTS,
    placement=st.dictionaries(
        st.sampled_from(["face", "total"]), st.one_of(st.integers(-1, 19), st.booleans(), st.none(), st.just("3"))
    ),
    void_first=st.booleans(),
)
def test_sicbo_refused_bet_changes_nothing(
    bet_type: str, player: Any, amount: Any, placement: dict[str, Any], void_first: bool
) -> None:
    rnd = SicBoRound(sicbo_rules.STATUTE)
    rnd.place_bet("ana", "big", 10)
    if void_first:
        rnd.close_betting()
        rnd.void_roll()
    ops_before, bets_before = list(rnd.operations), rnd.bets
    face, total = placement.get("face"), placement.get("total")

    def _is_int(v: object, lo: int, hi: int) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi

    valid = (
        isinstance(player, str)
        and bool(player)
        and isinstance(amount, int)
        and not isinstance(amount, bool)
        and 2 <= amount <= 1_000_000
        and (
            (bet_type in ("single", "triple") and total is None and _is_int(face, 1, 6))
            or (bet_type == "total" and face is None and _is_int(total, 4, 17))
            or (bet_type in ("small", "big", "any_triple") and face is None and total is None)
        )
    )
    if valid:
        op = rnd.place_bet(player, bet_type, amount, **placement)
        assert op.late is void_first
        assert rnd.operations == [*ops_before, op]
        return
    with pytest.raises(BetRejected):
        rnd.place_bet(player, bet_type, amount, **placement)
    assert rnd.operations == ops_before
    assert rnd.bets == bets_before
