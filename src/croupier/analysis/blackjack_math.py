"""Blackjack's figures for analysts and filings (issue 4): the house edge under a rules object, the side bets'
exact odds for the way the main bet is played, and the effect on the edge of flipping each option (RULES.md
BJ 21: the options a house files with the regulator).

This module puts :mod:`croupier.analysis.ca` (the main bet), :mod:`croupier.analysis.first_two_cards` and
:mod:`croupier.analysis.side_bets` together in the shapes the CLI (``croupier edge``, ``croupier strategy``)
and the PAR sheet print.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from croupier.analysis.basic_strategy import ChartKind, basic_strategy
from croupier.analysis.ca import Analyser, Analysis, Strategy
from croupier.analysis.chart import Chart
from croupier.analysis.first_two_cards import first_two_card_side_bets
from croupier.analysis.odds import BetOdds
from croupier.analysis.side_bets import any_pair_odds, sevens_odds, streak_odds
from croupier.blackjack.rules import (
    BlackjackRules,
    BustedStakes,
    DealerSoft17,
    DoubleOn,
    SplitPairBy,
)
from croupier.errors import CroupierError, InvalidRules
from croupier.rulesdoc import option_specs


def analyse_main_bet(
    rules: BlackjackRules, strategy: Strategy = "cd", shoe: Sequence[int] | None = None, kind: ChartKind = "total"
) -> tuple[Analysis, Chart | None, Analyser]:
    """The main bet's exact analysis, composition-dependent or by the optimal chart of ``kind`` for the shoe."""
    if strategy not in ("cd", "td"):
        raise InvalidRules(
            [f"strategy must be 'cd' (composition-dependent) or 'td' (basic strategy), not {strategy!r}"]
        )
    analyser = Analyser(rules, shoe)
    if strategy == "cd":
        return analyser.analyse(), None, analyser
    started = time.perf_counter()
    chart = basic_strategy(rules, shoe, analyser=analyser, kind=kind)
    analysis = analyser.analyse(chart)
    analysis.seconds = time.perf_counter() - started
    return analysis, chart, analyser


def pair_play(analysis: Analysis) -> Callable[[int, int], str]:
    """How ``analysis`` plays a pair of value ``v`` against ``up`` on the box's first two cards."""
    by_up = {r.up: r.decisions for r in analysis.by_up}

    def play(value: int, up: int) -> str:
        choice = by_up.get(up, {}).get((value, value), "stand")
        return choice if choice in ("split", "double", "hit", "stand", "surrender") else "stand"

    return play


def _edge(odds: BetOdds | Fraction, exact: bool = True) -> dict[str, Any]:
    edge = odds.house_edge if isinstance(odds, BetOdds) else odds
    return {"house_edge": str(edge) if exact else repr(float(edge)), "house_edge_pct": float(edge) * 100}


def side_bet_figures(
    rules: BlackjackRules, analysis: Analysis, analyser: Analyser, results: dict[str, float] | None = None
) -> dict[str, dict[str, Any]]:
    """The house edge of every side bet for the rules' paytables, with the main bet played as ``analysis``
    plays it: exact fractions, except the streak bets, whose per-round result chances come from the analysis
    (exact for rounds without a split; see :meth:`Analyser.results`) and assume independent rounds."""
    play = pair_play(analysis)
    firsts = {odds.bet: odds for odds in first_two_card_side_bets(rules)}
    any_pair = any_pair_odds(rules, play)
    out: dict[str, dict[str, Any]] = {
        "any_pair": {
            **_edge(any_pair.house_edge),
            "original_stake": _edge(any_pair.original),
            "split_stakes_per_bet": str(any_pair.split_stakes),
            "split_stake_house_edge": None if any_pair.split_house_edge is None else str(any_pair.split_house_edge),
            "rule": any_pair.rule,
        },
        "perfect_pairs": {**_edge(firsts["perfect_pairs"]), "rule": firsts["perfect_pairs"].rule},
        "over_13": {**_edge(firsts["over_13"]), "rule": firsts["over_13"].rule},
        "under_13": {**_edge(firsts["under_13"]), "rule": firsts["under_13"].rule},
        "sevens": {**_edge(sevens_odds(rules, lambda up: play(7, up))), "rule": "BJ 13.2, BJ 14.2"},
    }
    results = analyser.results(analysis) if results is None else results
    for level, odds in zip(range(2, 6), streak_odds(rules, results["win"], results["push"]), strict=True):
        out[f"streak_{level}"] = {**_edge(odds.house_edge, exact=False), "rule": odds.rule}
    return out


def edge_report(
    rules: BlackjackRules,
    strategy: Strategy = "cd",
    *,
    side_bets: bool = False,
    effects: bool = False,
    shoe: Sequence[int] | None = None,
    kind: ChartKind = "total",
) -> dict[str, Any]:
    """What ``croupier edge blackjack --json`` prints (``shoe``: card counts instead of ``rules.decks`` decks;
    ``kind``: the chart's kind under ``td``). ``seconds`` is the time of all the work asked for."""
    started = time.perf_counter()
    if side_bets and shoe is not None:
        raise InvalidRules(["the side bets are computed for the rules' decks; leave out --shoe with --side-bets"])
    analysis, chart, analyser = analyse_main_bet(rules, strategy, shoe, kind)
    report: dict[str, Any] = {
        "game": "blackjack",
        "ev": analysis.ev,
        "house_edge_pct": analysis.house_edge * 100,
        "strategy": strategy,
        **({"chart": kind} if strategy == "td" else {}),
        "decks": rules.decks if shoe is None else sum(shoe) / 52,
        "shoe": list(analysis.composition),
        "seconds": round(analysis.seconds, 4),
        "by_up_card": {("A" if r.up == 1 else str(r.up)): r.ev for r in analysis.by_up},
        "insurance_value": next((r.insurance for r in analysis.by_up if r.up == 1), None),
        "even_money": {
            ("A" if r.up == 1 else "10"): {
                "keep": r.values[(1, 10)]["keep"],
                "take": r.values[(1, 10)]["even_money"],
                "decision": "take" if r.decisions[(1, 10)] == "even_money" else "keep",
            }
            for r in analysis.by_up
            if (1, 10) in r.values and "even_money" in r.values[(1, 10)]
        },
    }
    del chart
    if side_bets:
        report["streak_results"] = analyser.results(analysis)
        report["side_bets"] = side_bet_figures(rules, analysis, analyser, report["streak_results"])
    if effects:
        base = analysis if strategy == "cd" and shoe is None else None
        report["rule_effects"] = [
            {"option": e.option, "from": e.before, "to": e.after, "rule": e.rule,
             "house_edge_pct": e.house_edge * 100, "change_pct": e.change * 100}
            for e in rule_effects(rules, base)
        ]  # fmt: skip
    report["seconds"] = round(time.perf_counter() - started, 4)
    return report


# -- rule effects -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleEffect:
    """The house edge after flipping one option, and its change (positive: the house gains)."""

    option: str
    before: str
    after: str
    rule: str
    house_edge: float
    change: float


Flip = tuple[str, str, Callable[[BlackjackRules], list[Any]]]
"""An option, its rule id and the values it is flipped to from a rules object."""

RULE_OF: Mapping[str, str] = MappingProxyType({spec.name: spec.rule for spec in option_specs(BlackjackRules)})
"""Each option's rule id, as its own spec in :class:`BlackjackRules` cites it."""


def _flip(option: str, alternatives: Callable[[BlackjackRules], list[Any]]) -> Flip:
    """A flip of ``option``, citing the rule id of the option's spec (never typed again here)."""
    return option, RULE_OF[option], alternatives


FLIPS: tuple[Flip, ...] = (
    _flip("decks", lambda r: [n for n in (1, 2, 4, 6, 8) if n != r.decks]),
    _flip("procedure", lambda r: [p for p in (1, 3) if p != r.procedure]),
    _flip("dealer_soft_17", lambda r: [s for s in DealerSoft17 if s is not r.dealer_soft_17]),
    _flip("double_on", lambda r: [d for d in DoubleOn if d is not r.double_on]),
    _flip("double_after_split", lambda r: [not r.double_after_split]),
    _flip("max_split_hands", lambda r: [n for n in (2, 3, 4, 5) if n != r.split_hands_limit]),
    _flip("resplit_aces", lambda r: [not r.resplit_aces]),
    _flip("surrender", lambda r: [not r.surrender]),
    _flip("five_card_payment", lambda r: [not r.five_card_payment]),
    _flip("special_bonus", lambda r: [not r.special_bonus]),
    _flip("lose_original_only_on_double", lambda r: [not r.lose_original_only_on_double]),
    _flip(
        "busted_stakes_on_dealer_blackjack",
        lambda r: [b for b in BustedStakes if b is not r.busted_stakes_on_dealer_blackjack],
    ),
    _flip("split_pair_by", lambda r: [s for s in SplitPairBy if s is not r.split_pair_by]),
)
"""The options that move the main bet's edge, and the values each is flipped to."""


def _show(value: Any) -> str:
    return (
        str(getattr(value, "value", value)).lower() if isinstance(value, bool) else str(getattr(value, "value", value))
    )


def rule_effects(rules: BlackjackRules, base: Analysis | None = None) -> list[RuleEffect]:
    """For each option that moves the main bet, the house edge with the option flipped and its change against
    ``rules`` (composition-dependent play). Flips that would make the rules invalid are left out."""
    edge = (base if base is not None else Analyser(rules).analyse()).house_edge
    out = []
    for option, rule, alternatives in FLIPS:
        for value in alternatives(rules):
            try:
                flipped = dataclasses.replace(rules, **{option: value})
            except CroupierError:
                continue
            if option == "lose_original_only_on_double" and rules.double_on is DoubleOn.ANY_TWO:
                continue  # BJ 17.3 makes original-bet-only mandatory on any-two doubles: no effect
            before = rules.split_hands_limit if option == "max_split_hands" else getattr(rules, option)
            new_edge = Analyser(flipped).analyse().house_edge
            out.append(RuleEffect(option, _show(before), _show(value), rule, float(new_edge), float(new_edge - edge)))
    return out
