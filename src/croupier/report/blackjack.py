"""The blackjack PAR sheet (issue 4): the rules and the options needing approval, the exact house edge of the
main bet (composition-dependent and by the basic-strategy chart), insurance and every side bet with hit
frequency and standard deviation, the strategy chart, the rule-effects table and a Monte Carlo confirmation
through the fast kernel (:mod:`croupier.analysis.simulate`)."""

from __future__ import annotations

import math
import secrets
import time
from fractions import Fraction

from matplotlib.figure import Figure

from croupier import __version__
from croupier.analysis.blackjack_math import analyse_main_bet, pair_play, rule_effects
from croupier.analysis.ca import Analyser
from croupier.analysis.first_two_cards import first_two_card_side_bets
from croupier.analysis.odds import BetOdds
from croupier.analysis.side_bets import any_pair_odds, sevens_odds, streak_odds
from croupier.analysis.simulate import simulate
from croupier.blackjack.rules import STATUTE, BlackjackRules
from croupier.report.html import FigureBlock, Report, Section, TableBlock
from croupier.report.sections import (
    BetRow,
    McRow,
    RuleEffect,
    bets_section,
    monte_carlo_section,
    pct,
    rule_effects_section,
    rules_section,
    strategy_chart_section,
)
from croupier.rulesdoc import differences

DEFAULT_ROUNDS = 2_000_000
"""Rounds simulated when the user does not say (the kernel plays several million a second)."""


def _two_outcome_sd(p_win: float, win: float, loss: float) -> float:
    mean = p_win * win + (1 - p_win) * loss
    return math.sqrt(p_win * win * win + (1 - p_win) * loss * loss - mean * mean)


def _by_up_figure(by_up: dict[int, float], title: str) -> Figure:
    fig = Figure(figsize=(7.5, 3.2))
    ax = fig.add_subplot()
    labels = ["A" if up == 1 else str(up) for up in by_up]
    values = [v * 100 for v in by_up.values()]
    ax.bar(labels, values, color=["#d9534f" if v < 0 else "#5cb85c" for v in values])
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("dealer's up card")
    ax.set_ylabel("player's expected net, % of the bet")
    ax.set_title(title)
    fig.tight_layout()
    return fig


def blackjack_par(rules: BlackjackRules, *, rounds: int | None, seed: int | None, source: str = "") -> Report:
    """The PAR sheet of a blackjack table as a :class:`~croupier.report.html.Report` (see the module)."""
    started = time.perf_counter()
    rounds = DEFAULT_ROUNDS if rounds is None else rounds
    seed = secrets.randbits(32) if seed is None else seed
    cd, _, analyser = analyse_main_bet(rules, "cd")
    td_analyser = Analyser(rules)
    td, chart, _ = analyse_main_bet(rules, "td")
    assert chart is not None
    cd_results = analyser.results(cd)
    td_results = td_analyser.results(td)
    diffs = differences(rules, STATUTE)

    report = Report(
        "Blackjack PAR sheet",
        "Despacho 57/2009: exact house edge of every bet (combinatorial analysis), strategy, rule effects and a "
        "Monte Carlo confirmation",
    )
    report.meta += [
        ("game", "Blackjack (Despacho 57/2009)"),
        ("rules", source or "given in Python"),
        ("differences from the statute", str(len(diffs)) if diffs else "none"),
        ("shoe", f"{rules.decks} decks, every round from a full shoe (continuous shuffle)"),
        ("simulation", f"{rounds:,} rounds, seed {seed}" if rounds else "none"),
        ("software", f"croupier {__version__}"),
    ]

    summary = Section("Summary")
    summary.paragraph(
        f"House edge of the main bet: {pct(cd.house_edge)} with composition-dependent play and "
        f"{pct(td.house_edge)} with the basic-strategy chart below (per unit of the initial bet; negative: "
        "the player has the edge). Every figure is exact unless it says it is simulated."
    )
    report.add(summary)
    report.add(rules_section(rules))

    # -- bets ----------------------------------------------------------------------------------------------------
    sim = simulate(rules, chart, rounds, seed) if rounds else None
    main_sd = math.nan
    if sim is not None and sim.rounds > 1:
        main_sd = math.sqrt(max(sim.net_sum_squares / sim.rounds - sim.mean**2, 0.0))
    rows = [
        BetRow("main bet, composition-dependent", cd.house_edge, cd_results["win"], main_sd, "BJ 9-19"),
        BetRow("main bet, basic strategy", td.house_edge, td_results["win"], main_sd, "BJ 9-19"),
    ]
    insurance = next((r.insurance for r in cd.by_up if r.up == 1), None)
    if insurance is not None:
        p_bj = (insurance + 1) / 3
        rows.append(BetRow("insurance (full shoe)", -insurance, p_bj, _two_outcome_sd(p_bj, 2, -1), "BJ 12", "2"))
    play = pair_play(cd)
    side: list[BetOdds] = [*first_two_card_side_bets(rules), sevens_odds(rules, lambda up: play(7, up))]
    for odds in side:
        rows.append(BetRow(odds.bet.replace("_", " "), odds.house_edge, odds.win_probability, odds.sd, odds.rule))
    any_pair = any_pair_odds(rules, play)
    if any_pair.split_house_edge is not None and any_pair.split_win_probability is not None:
        p = any_pair.split_win_probability
        rows.append(
            BetRow(
                "any pair, stakes on split hands",
                any_pair.split_house_edge,
                p,
                _two_outcome_sd(float(p), float(any_pair.pays), -1),
                any_pair.rule,
            )
        )
    for odds in streak_odds(rules, cd_results["win"], cd_results["push"]):
        rows.append(
            BetRow(odds.bet.replace("_", " "), float(odds.house_edge), float(odds.win_probability), odds.sd, odds.rule)
        )
    bets = bets_section(
        rows,
        note=(
            "The main bet's edge is exact (splits included); its hit frequency is the chance the box wins a round "
            "as the streak bet counts it, and its SD is simulated. Side bets are exact fractions for the rules' "
            "shoe, Sevens and the split-hand Any Pair stakes for the composition-dependent play; the streak bets "
            "use the exact chances of a round's result and assume independent rounds."
        ),
    )
    bets.add(
        FigureBlock(
            _by_up_figure({r.up: r.ev for r in cd.by_up}, "Main bet by up card (composition-dependent)"),
            "The player's expected net by the dealer's up card.",
        )
    )
    by_up = TableBlock(
        ["up card", "probability", "expected net", "insurance value"],
        [
            ["A" if r.up == 1 else str(r.up), f"{r.probability:.6f}", f"{r.ev:+.6f}",
             "" if r.insurance is None else f"{r.insurance:+.6f}"]
            for r in cd.by_up
        ],
        heading="By the dealer's up card",
    )  # fmt: skip
    bets.add(by_up)
    report.add(bets)

    report.add(
        strategy_chart_section(
            chart,
            rules,
            title="Basic strategy",
            note=f"The total-dependent chart optimised for this shoe; played exactly, its house edge is "
            f"{pct(td.house_edge)}.",
        )
    )
    effects = rule_effects(rules, cd)
    report.add(
        rule_effects_section(
            [RuleEffect(e.option, e.before, e.after, e.change, e.rule) for e in effects],
            note="The composition-dependent house edge after flipping one option at a time; positive: the house gains.",
        )
    )
    if sim is not None:
        total = sim.wins + sim.pushes + sim.losses
        se_win = math.sqrt(td_results["win"] * (1 - td_results["win"]) / max(total, 1))
        mc = [
            McRow("house edge, basic strategy", td.house_edge, -sim.mean, sim.std_error),
            McRow("box wins a round", Fraction(td_results["win"]).limit_denominator(10**12), sim.wins / total, se_win),
        ]
        report.add(
            monte_carlo_section(
                mc,
                rounds=sim.rounds,
                seed=seed,
                note="The kernel deals every round from a freshly shuffled full shoe and plays the chart card for "
                "card as the engine does; the exact figures are the combinatorial analysis of the same chart.",
            )
        )
    took = time.perf_counter() - started
    report.meta.append(("computed in", f"{took:.1f} s"))
    return report
