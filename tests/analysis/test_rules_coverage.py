"""One source for the rules in the mathematics (issue 16): every option of :class:`BlackjackRules` is either read by
each analyser — the exact combinatorial analysis (``ca.py``), the hand analyser (``hand_ev.py`` over
``dealer.py``), the simulation's setup (``simulate.py``, ``tablesim.py``) and the side bets (``side_bets.py``) —
or listed in that analyser's ``RULES_NOT_READ`` with why it does not change what it computes. A new option that
an analyser ignores, or a listed option it has started to read, fails here.

The reads are recorded on a :class:`BlackjackRules` whose attribute reads are noted while the analyser turns the
rules into what it computes, under several rule sets (``a or b`` reads ``b`` only for some ``a``). Then, for a
sample of the options read, flipping the option changes what the analyser computes: read means used.

The rule ids of ``blackjack_math.FLIPS`` (the rule-effects table) are those of the options' own specs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from croupier.analysis import ca, counting, hand_ev, side_bets, simulate
from croupier.analysis.blackjack_math import FLIPS
from croupier.analysis.dealer import decks
from croupier.analysis.hand_ev import HandAnalyser, HandTerms
from croupier.analysis.simulate import basic_chart, flat_job, run_blocks
from croupier.analysis.tablesim import TableSetup
from croupier.blackjack.rules import (
    MACAU_TYPICAL,
    STATUTE,
    AnyPairAfterSplit,
    BlackjackPaytable,
    BlackjackRules,
    DealerSoft17,
    DealingDevice,
    DoubleOn,
    SevensThirdCard,
    SplitPairBy,
)
from croupier.rulesdoc import option_specs

FIELDS: tuple[str, ...] = tuple(spec.name for spec in option_specs(BlackjackRules))

RULE_SETS: tuple[BlackjackRules, ...] = (
    STATUTE,
    MACAU_TYPICAL,
    dataclasses.replace(STATUTE, procedure=3, double_on=DoubleOn.ELEVEN, decks=6),
)
"""The rule sets each analyser runs under while its reads are recorded: between them every option a condition
reads only for some values of another (``peek`` under procedure 3, ``lose_original_only_on_double`` under
``double_on = eleven``, ``dealing_device`` outside procedure 3) is reached."""


def recorded_reads(run: Callable[[BlackjackRules], object], rules: BlackjackRules) -> set[str]:
    """The options of ``rules`` that ``run`` reads (directly, or through a derived setting such as
    ``split_hands_limit``). Comparing the rules is not reading an option."""
    read: set[str] = set()
    recording = [False]

    class Recording(BlackjackRules):
        __hash__ = BlackjackRules.__hash__

        def __getattribute__(self, name: str) -> Any:
            if recording[0] and name in FIELDS:
                read.add(name)
            return super().__getattribute__(name)

        def __eq__(self, other: object) -> bool:
            recording[0], was = False, recording[0]
            try:
                return super().__eq__(other)
            finally:
                recording[0] = was

    copy = Recording(**{name: getattr(rules, name) for name in FIELDS})
    for derived in [key for key in vars(copy) if key not in FIELDS]:
        del copy.__dict__[derived]  # a derived setting cached while the rules were checked: read it afresh
    recording[0] = True
    try:
        run(copy)
    finally:
        recording[0] = False
    return read


def _ca(rules: BlackjackRules) -> object:
    return ca.Analyser(rules).analyse()


def _hand(rules: BlackjackRules) -> object:
    shoe = decks(1)
    return [HandAnalyser(HandTerms.of(rules, up)).decisions(shoe, (10, 6)) for up in range(1, 11)]


def _simulation(rules: BlackjackRules) -> object:
    chart = basic_chart()
    counted = TableSetup(
        rules=rules,
        chart=chart,
        boxes=2,
        count=counting.count_system("hi-lo"),
        indices=counting.load_indices("i18+fab4"),
        side_bets=True,
    )
    return (
        counted.job(),
        counted.describe(),
        flat_job(rules, chart, continuous=False),
        flat_job(rules, chart, continuous=True),
        simulate.workspace(rules),
    )


def _side_bets(rules: BlackjackRules) -> object:
    chart = basic_chart()
    return (
        side_bets.any_pair_odds(rules, chart),
        side_bets.any_pair_odds(rules, lambda value, up: "split"),
        side_bets.sevens_odds(rules, chart),
        side_bets.sevens_odds(rules, lambda up: "hit"),
        side_bets.streak_odds(rules, 0.43, 0.085),
    )


ANALYSERS: dict[str, tuple[Callable[[BlackjackRules], object], Mapping[str, str]]] = {
    "ca": (_ca, ca.RULES_NOT_READ),
    "hand_ev": (_hand, hand_ev.RULES_NOT_READ),
    "simulation": (_simulation, simulate.RULES_NOT_READ),
    "side_bets": (_side_bets, side_bets.RULES_NOT_READ),
}
"""Each analyser: how it turns rules into what it computes, and the options it declares it does not read."""


def reads_of(name: str) -> tuple[str, set[str], Mapping[str, str]]:
    """An analyser's name, the options it reads under :data:`RULE_SETS`, and its ``RULES_NOT_READ``."""
    run, not_read = ANALYSERS[name]
    read: set[str] = set()
    for rules in RULE_SETS:
        read |= recorded_reads(run, rules)
    return name, read, not_read


@pytest.fixture(scope="module", params=sorted(ANALYSERS))
def analyser(request: pytest.FixtureRequest) -> tuple[str, set[str], Mapping[str, str]]:
    """:func:`reads_of` each analyser."""
    return reads_of(request.param)


def test_every_option_is_read_or_declared_not_to_matter(analyser: tuple[str, set[str], Mapping[str, str]]) -> None:
    name, read, not_read = analyser
    unknown = set(not_read) - set(FIELDS)
    assert not unknown, f"{name}.RULES_NOT_READ names options BlackjackRules does not have: {sorted(unknown)}"
    ignored = set(FIELDS) - read - set(not_read)
    assert not ignored, f"{name} neither reads nor lists in RULES_NOT_READ: {sorted(ignored)}"


def test_no_option_declared_not_to_matter_is_read(analyser: tuple[str, set[str], Mapping[str, str]]) -> None:
    name, read, not_read = analyser
    stale = read & set(not_read)
    assert not stale, f"{name} reads what its RULES_NOT_READ says it does not: {sorted(stale)}"


def test_every_declaration_gives_its_reason(analyser: tuple[str, set[str], Mapping[str, str]]) -> None:
    name, _, not_read = analyser
    for option, why in not_read.items():
        assert isinstance(why, str) and len(why.split()) >= 4, f"{name}: {option} needs a one-line reason"
        assert "\n" not in why


def test_the_recorder_sees_every_read() -> None:
    """The recorder itself: an option read through a derived setting counts, comparing the rules does not."""
    assert recorded_reads(lambda r: r.split_hands_limit, STATUTE) == {"max_split_hands", "procedure"}
    assert recorded_reads(lambda r: r.dealer_peeks, STATUTE) == {"procedure"}  # procedure 1: no peek to read
    assert recorded_reads(lambda r: r == STATUTE, STATUTE) == set()
    assert recorded_reads(lambda r: dataclasses.replace(r, decks=2), STATUTE) == set(FIELDS)


# == read means used: flipping an option changes the result ======================================================


def _flipped(rules: BlackjackRules, **changes: Any) -> BlackjackRules:
    return dataclasses.replace(rules, **changes)


BASE = dataclasses.replace(STATUTE, decks=2)


@pytest.mark.parametrize(
    "changes",
    [
        {"decks": 1},
        {"dealer_soft_17": DealerSoft17.STAND},
        {"surrender": False},
        {"five_card_payment": False},
        {"special_bonus": False},
        {"double_on": DoubleOn.ELEVEN},
        {"double_after_split": False},
        {"max_split_hands": 2},
        {"resplit_aces": False},
        {"split_pair_by": SplitPairBy.VALUE},
        {"procedure": 3},
    ],
    ids=lambda c: next(iter(c)),
)
def test_the_exact_analysis_moves_with_what_it_reads(changes: dict[str, Any]) -> None:
    assert ca.Analyser(_flipped(BASE, **changes)).analyse().ev != ca.Analyser(BASE).analyse().ev


def test_the_exact_analysis_reads_original_bet_only_on_elevens() -> None:
    elevens = _flipped(BASE, double_on=DoubleOn.ELEVEN)
    flipped = _flipped(elevens, lose_original_only_on_double=False)
    assert ca.Analyser(flipped).analyse().ev != ca.Analyser(elevens).analyse().ev


def _hand_values(
    rules: BlackjackRules, up: int, cards: tuple[int, int], bonus: dict[int, float] | None
) -> dict[str, float]:
    """The first decisions' values of a two-card hand against ``up``, one deck less those three cards."""
    shoe = list(decks(1))
    for value in (up, *cards):
        shoe[value - 1] -= 1
    return HandAnalyser(HandTerms.of(rules, up)).decisions(shoe, cards, bonus)


@pytest.mark.parametrize(
    ("changes", "up", "cards", "bonus"),
    [
        ({"surrender": False}, 10, (10, 6), None),
        ({"double_on": DoubleOn.ELEVEN}, 6, (5, 5), None),
        ({"dealer_soft_17": DealerSoft17.STAND}, 6, (10, 7), None),
        ({"procedure": 3}, 10, (10, 7), None),
        ({"special_bonus": False}, 6, (7, 7), {7: 1.0}),
        ({"five_card_payment": False}, 6, (2, 2), None),
    ],
    ids=lambda x: next(iter(x)) if isinstance(x, dict) and x and isinstance(next(iter(x)), str) else None,
)
def test_the_hand_analyser_moves_with_what_it_reads(
    changes: dict[str, Any], up: int, cards: tuple[int, int], bonus: dict[int, float] | None
) -> None:
    before = _hand_values(BASE, up, cards, bonus)
    assert _hand_values(_flipped(BASE, **changes), up, cards, bonus) != before


SIM_ROUNDS = 40_000


def _simulated(rules: BlackjackRules, *, continuous: bool = True, sides: bool = False) -> np.ndarray:
    """The raw totals of a short simulation, fixed seed (the main bet, or the side bets' nets by count)."""
    if sides:
        job = TableSetup(rules=rules, chart=basic_chart(), side_bets=True, continuous=True).job()
        return run_blocks(job, 11, 0, SIM_ROUNDS).bins
    return run_blocks(flat_job(rules, basic_chart(), continuous=continuous), 11, 0, SIM_ROUNDS).acc


@pytest.mark.parametrize(
    ("changes", "continuous", "sides"),
    [
        ({"surrender": False}, True, False),
        ({"dealer_soft_17": DealerSoft17.HIT_ALL}, True, False),
        ({"five_card_payment": False}, True, False),
        ({"procedure": 3}, True, False),
        ({"decks": 6}, True, False),
        ({"cards_behind_cut": 40}, False, False),
        ({"burn_each_round": True}, False, False),
        ({"dealing_device": DealingDevice.SHUFFLER}, False, False),
        ({"paytables": BlackjackPaytable(any_pair=Fraction(12))}, True, True),
        ({"sevens_third_card": SevensThirdCard.ANY}, True, True),
    ],
    ids=lambda x: next(iter(x)) if isinstance(x, dict) else str(x),
)
def test_the_simulation_moves_with_what_it_reads(changes: dict[str, Any], continuous: bool, sides: bool) -> None:
    before = _simulated(BASE, continuous=continuous, sides=sides)
    after = _simulated(_flipped(BASE, **changes), continuous=continuous, sides=sides)
    assert not np.array_equal(before, after)


@pytest.mark.parametrize(
    "changes",
    [
        {"any_pair_after_split": AnyPairAfterSplit.NONE},
        {"split_pair_by": SplitPairBy.VALUE},
        {"max_split_hands": 2},
        {"resplit_aces": False},
        {"procedure": 3},
        {"decks": 6},
    ],
    ids=lambda c: next(iter(c)),
)
def test_any_pair_moves_with_what_it_reads(changes: dict[str, Any]) -> None:
    def split(value: int, up: int) -> str:
        return "split"

    before = side_bets.any_pair_odds(BASE, split).house_edge
    assert side_bets.any_pair_odds(_flipped(BASE, **changes), split).house_edge != before


@pytest.mark.parametrize(
    ("changes", "play"),
    [
        ({"sevens_third_card": SevensThirdCard.ANY}, "hit"),
        ({"sevens_mixed_triple": "pays_500"}, "split"),
        ({"procedure": 3}, "split"),
    ],
    ids=lambda x: next(iter(x)) if isinstance(x, dict) else x,
)
def test_sevens_moves_with_what_it_reads(changes: dict[str, Any], play: str) -> None:
    before = side_bets.sevens_odds(BASE, lambda up: play).house_edge
    assert side_bets.sevens_odds(_flipped(BASE, **changes), lambda up: play).house_edge != before


def test_streak_moves_with_its_paytable() -> None:
    richer = _flipped(BASE, paytables=BlackjackPaytable(streak=(Fraction(4), Fraction(8), Fraction(18), Fraction(38))))
    before = side_bets.streak_odds(BASE, 0.43, 0.085)[0].house_edge
    assert side_bets.streak_odds(richer, 0.43, 0.085)[0].house_edge != before


# == the rule ids of the rule-effects table ==========================================================================


def test_the_flips_cite_the_options_own_rule_ids() -> None:
    rule_of = {spec.name: spec.rule for spec in option_specs(BlackjackRules)}
    assert FLIPS, "the rule-effects table is empty"
    for option, rule, _ in FLIPS:
        assert rule == rule_of[option], f"FLIPS cites {rule} for {option}, whose spec cites {rule_of[option]}"


def test_the_flips_flip_options_the_exact_analysis_reads() -> None:
    _, read, _ = reads_of("ca")
    assert {option for option, _, _ in FLIPS} <= read
