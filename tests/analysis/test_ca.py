"""The combinatorial analysis (issue 4) checked three ways: one hand's first-decision values equal the
independent :mod:`croupier.analysis.hand_ev` analyser; the exact value of a split equals the engine's own
walk over every order of a small shoe, played by the same plan (the engine is the oracle of the rules); and
the published house edges of three standard games come out to their printed precision."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from croupier.analysis import _ca_kernels as k
from croupier.analysis.basic_strategy import basic_strategy
from croupier.analysis.ca import Analyser, _Plan, _variants, analyse, chart_value
from croupier.analysis.dealer import decks, remove
from croupier.analysis.hand_ev import HandAnalyser, HandTerms
from croupier.analysis.oracle import engine_expectation
from croupier.blackjack.operations import Decision
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import MACAU_TYPICAL, STATUTE, BlackjackRules, DealerSoft17, DoubleOn
from croupier.errors import InvalidRules
from croupier.primitives.cards import parse_card

PLAIN = dataclasses.replace(MACAU_TYPICAL, five_card_payment=False, special_bonus=False)
"""The usual Macau house game of the published figures: 6 decks, dealer stands on soft 17, double any two and
after split, split to 4, aces once, surrender (not against an ace) before the blackjack is known, original bet
only — without the five-card payment and the special bonus."""


@pytest.mark.parametrize(
    "rules",
    [
        dataclasses.replace(STATUTE, decks=1),
        dataclasses.replace(STATUTE, decks=1, procedure=3),
        dataclasses.replace(
            STATUTE,
            decks=1,
            dealer_soft_17=DealerSoft17.STAND,
            double_on=DoubleOn.ELEVEN,
            lose_original_only_on_double=False,
        ),
        dataclasses.replace(STATUTE, decks=2, dealer_soft_17=DealerSoft17.HIT_ALL),
    ],
    ids=["enhc-1deck", "peek-1deck", "s17-eleven-full-loss", "h17-2decks"],
)
def test_first_decision_values_equal_the_hand_analyser(rules: BlackjackRules) -> None:
    an = Analyser(rules)
    worst = 0.0
    for up in (1, 2, 6, 9, 10):
        uc = an.up(up)
        _, values = an.cd_plan(uc)
        reference = HandAnalyser(HandTerms.of(rules, up))
        for (a, b, i), (stand, hit, double) in values.items():
            if (a, b) == (1, 10):
                continue
            comp = remove(remove(remove(decks(rules.decks), up), a), b)
            variant = _variants((a, b), an.terms)[i]
            bonus = {variant[1] + 1: variant[2]} if variant[1] >= 0 else None
            expected = reference.decisions(comp, [a, b], bonus)
            q = uc.q(uc.base - uc.table.hc[uc.table.of((a, b))])
            joint = (1 - q) if uc.peek else 1.0  # the peeked values are joint with "no dealer blackjack"
            for name, value in (("stand", stand), ("hit", hit), ("double", double)):
                if name in expected:
                    worst = max(worst, abs(expected[name] * joint - value))
    assert worst < 1e-12


def plan_player(plan: _Plan, an: Analyser):
    """Answer the engine's questions by the analyser's plan: split whenever offered, a split hand's first
    two cards by the plan's root decisions, longer hands by the plan's decisions."""
    table = an.up(1).table if an.shoe[0] else None

    def decide(rnd: BlackjackRound, q: Decision) -> str:
        if q.kind != "play":
            return "decline"
        hand = rnd.boxes[q.box].hands[q.hand or 0]
        values = [c.value for c in hand.cards]
        if "split" in q.actions:
            return "split"
        if len(values) == 2:
            code = plan.roots[(values[0], values[1], 0)]
        else:
            from croupier.analysis.ca import _hand_table

            code = int(plan.dec[_hand_table().of(values)])
        name = {k.D_STAND: "stand", k.D_HIT: "hit", k.D_DOUBLE: "double", k.D_CLAIM: "claim_five_card"}[code]
        return name if name in q.actions else "stand"

    del table
    return decide


SPLITS = [
    # (pair, up, rest, max hands, procedure)
    ("9", "7", ["9", "9", "T", "T", "T", "T", "2", "T", "T"], 4, 1),
    ("9", "7", ["9", "9", "T", "T", "T", "T", "2", "T", "T"], 3, 1),
    ("9", "7", ["9", "T", "T", "T", "T", "2", "T", "T", "T"], 2, 1),
    ("8", "T", ["8", "A", "T", "T", "T", "9", "T", "T", "T"], 4, 1),
    ("8", "T", ["8", "A", "T", "T", "T", "9", "T", "T", "T"], 4, 3),
    ("A", "6", ["A", "T", "T", "9", "T", "T", "T", "T", "A"], 4, 1),
    ("3", "5", ["3", "T", "T", "8", "T", "T", "T", "T", "9"], 4, 1),
]


@pytest.mark.parametrize(("pair", "up", "rest", "hands", "procedure"), SPLITS)
@pytest.mark.parametrize("resplit_aces", [True, False])
def test_split_value_equals_the_engine_walk(  # noqa: PLR0917
    pair: str, up: str, rest: list[str], hands: int, procedure: int, resplit_aces: bool
) -> None:
    rules = BlackjackRules(
        decks=8,
        procedure=procedure,
        surrender=False,
        five_card_payment=False,
        special_bonus=False,
        max_split_hands=hands,
        resplit_aces=resplit_aces,
    )

    # One physical card per value (an 8-deck shoe holds eight of each), so orders of equal cards coincide.
    def card(name: str):
        return parse_card(name + "S")

    prefix = [card("2"), card(pair), card(up), card(pair)]  # the burn, box, dealer's up card, box
    shoe_rest = [card(name) for name in rest]
    comp = [0] * 10
    for c in [*prefix[1:], *shoe_rest]:
        comp[c.value - 1] += 1
    an = Analyser(rules, comp)
    uc = an.up(parse_card(up + "S").value)
    plan, _ = an.cd_plan(uc)
    value = an.split_value(uc, parse_card(pair + "S").value, plan)
    if uc.peek:
        value -= uc.q(uc.base - uc.table.hc[uc.table.of([prefix[1].value] * 2)])  # the peeked blackjack
    oracle = engine_expectation(rules, prefix, shoe_rest, plan_player(plan, an))
    assert value == pytest.approx(float(oracle), abs=1e-12)
    assert isinstance(oracle, Fraction)


@pytest.mark.parametrize(
    ("rules", "published"),
    [
        (PLAIN, "0.16"),
        (dataclasses.replace(PLAIN, resplit_aces=True), "0.09"),
        (dataclasses.replace(PLAIN, procedure=3, surrender=False), "0.40"),
    ],
    ids=["macau-usual-0.16", "resplit-aces-0.09", "peek-no-surrender-0.40"],
)
def test_published_house_edges_to_their_printed_precision(rules: BlackjackRules, published: str) -> None:
    assert f"{-analyse(rules).ev * 100:.2f}" == published


def test_composition_dependent_play_beats_the_chart_it_is_compared_with() -> None:
    rules = dataclasses.replace(PLAIN, decks=2)
    cd = analyse(rules).ev
    chart = basic_strategy(rules)
    td = chart_value(rules, chart)
    assert td < cd
    assert cd - td < 0.002


@pytest.mark.parametrize(
    ("shoe", "message"),
    [
        ([4, 4, 4, 4, -1, 4, 4, 4, 4, 16], "must be a whole number ≥ 0"),
        ([0] * 10, "empty"),
        ([1, 1, 1, 0, 0, 0, 0, 0, 0, 1], "too small"),
        ([4] * 9, "10 counts"),
    ],
)
def test_bad_shoes_are_refused_clearly(shoe: list[int], message: str) -> None:
    with pytest.raises(InvalidRules, match=message):
        analyse(STATUTE, shoe)


def test_an_unknown_strategy_is_refused() -> None:
    with pytest.raises(InvalidRules, match="strategy"):
        analyse(STATUTE, strategy="xx")  # type: ignore[arg-type]
