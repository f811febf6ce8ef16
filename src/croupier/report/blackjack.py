"""The blackjack PAR sheet (issue 4, issue 16): a warning when the configured game favours the player (with the
options that cause it), the rules and the options needing approval, the exact house edge of the main bet
(composition-dependent and by the basic-strategy chart), its per-round distribution and SD, the amount wagered
and the edge per unit of the initial bet and per unit wagered, insurance and every side bet with its paytable,
outcome table and contributions, the hold ranges, the cut card's effect, the strategy chart, the rule-effects
table, a Monte Carlo confirmation through the fast kernel, and the rules' fingerprint with a sign-off block.

Exact figures are the combinatorial analysis (:mod:`croupier.analysis.ca`); simulated ones say so and carry
95% intervals (:mod:`croupier.report.blackjack_sim`)."""

from __future__ import annotations

import math
import secrets
import time
from fractions import Fraction

from matplotlib.figure import Figure

from croupier import __version__
from croupier.analysis.blackjack_math import analyse_main_bet, pair_play, rule_effects
from croupier.analysis.ca import Analyser, Analysis
from croupier.analysis.odds import BetOdds
from croupier.blackjack.rules import STATUTE, BlackjackRules
from croupier.report.blackjack_bets import (
    SideBets,
    main_bet_warning,
    side_bet_warnings,
    side_bets,
    side_bets_section,
)
from croupier.report.blackjack_sim import (
    DIST_ROUNDS,
    SHOE_KEY,
    RoundSample,
    TableRun,
    amount_note,
    cut_card_section,
    deals_from_shoe,
    derived_seed,
    distribution_section,
    sample_rounds,
    table_run,
)
from croupier.report.filing import filing_section, fingerprint
from croupier.report.html import FigureBlock, Report, Section, TableBlock
from croupier.report.risk import PerRound, exact_hold_ranges, hold_section, normal_hold_ranges, per_round_table
from croupier.report.sections import (
    Z95,
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
"""Rounds simulated when the user does not say, for each of the continuous and the shoe runs (the kernel plays
more than ten million a second)."""


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
    effects = rule_effects(rules, cd)
    play = pair_play(cd)
    insurance_ev = next((r.insurance for r in cd.by_up if r.up == 1), None)
    sides = side_bets(rules, play, cd_results, insurance_ev)

    # -- the simulations: the continuous run confirms the exact edge; the shoe run measures the cut card --------
    sim_started = time.perf_counter()
    run = table_run(rules, chart, rounds, seed, continuous=True) if rounds else None
    shoe_seed = derived_seed(seed, SHOE_KEY)
    shoe = table_run(rules, chart, rounds, shoe_seed, continuous=False) if rounds and deals_from_shoe(rules) else None
    sample = sample_rounds(rules, chart, min(rounds, DIST_ROUNDS), seed) if rounds else None
    sim_seconds = time.perf_counter() - sim_started

    digest = fingerprint("blackjack", rules)
    report = Report(
        "Blackjack PAR sheet",
        "Despacho 57/2009: exact house edge of every bet (combinatorial analysis), result per round, hold ranges, "
        "side-bet paytables, cut-card effect, strategy, rule effects and a Monte Carlo confirmation",
        footer=f"Blackjack PAR sheet · rules SHA-256 {digest[:16]}… · croupier {__version__}",
    )
    report.meta += [
        ("game", "Blackjack (Despacho 57/2009)"),
        ("rules", source or "given in Python"),
        ("rules fingerprint (SHA-256)", digest),
        ("differences from the statute", str(len(diffs)) if diffs else "none"),
        ("shoe", f"{rules.decks} decks; exact figures for a full shoe (a continuous shuffle)"),
        (
            "simulation",
            f"{rounds:,} rounds continuous and {rounds:,} from the shoe, seed {seed}; {min(rounds, DIST_ROUNDS):,} "
            f"rounds for the distribution ({sim_seconds:.1f} s in all)"
            if rounds
            else "none (--rounds 0)",
        ),
        ("software", f"croupier {__version__}"),
    ]
    warning = main_bet_warning(rules, float(cd.house_edge), float(td.house_edge), effects)
    report.warnings += [warning] if warning else []
    report.warnings += side_bet_warnings(rules, sides, STATUTE, play)

    report.add(_summary(cd.house_edge, td.house_edge, run, warning is not None))
    report.add(rules_section(rules))
    report.add(_bets(cd, td, cd_results=cd_results, td_results=td_results, sides=sides, run=run))
    report.add(_per_round(td.house_edge, cd.house_edge, sides, run, sample))
    report.add(side_bets_section(rules, sides))
    report.add(_holds(td.house_edge, sides, run))
    if run is not None:
        report.add(cut_card_section(rules, run, shoe, float(td.house_edge), amount_note(run)))
    report.add(
        strategy_chart_section(
            chart,
            rules,
            title="Basic strategy",
            note=f"The total-dependent chart optimised for this shoe; played exactly, its house edge is "
            f"{pct(td.house_edge)}.",
        )
    )
    report.add(
        rule_effects_section(
            [RuleEffect(e.option, e.before, e.after, e.change, e.rule) for e in effects],
            note="The composition-dependent house edge after flipping one option at a time; positive: the house gains.",
        )
    )
    if run is not None:
        total = run.wins + run.pushes + run.losses
        se_win = math.sqrt(td_results["win"] * (1 - td_results["win"]) / max(total, 1))
        mc = [
            McRow("house edge, basic strategy", td.house_edge, run.edge, run.se),
            McRow("box wins a round", Fraction(td_results["win"]).limit_denominator(10**12), run.wins / total, se_win),
        ]
        report.add(
            monte_carlo_section(
                mc,
                rounds=run.rounds,
                seed=seed,
                note="The kernel deals every round from a freshly shuffled full shoe and plays the chart card for "
                "card as the engine does; the exact figures are the combinatorial analysis of the same chart.",
            )
        )
    report.add(
        filing_section(
            "blackjack", rules, source=source, generated=report.generated, packages=("numpy", "numba", "matplotlib")
        )
    )
    took = time.perf_counter() - started
    report.meta.append(("computed in", f"{took:.1f} s"))
    return report


def _summary(cd_edge: float, td_edge: float, run: TableRun | None, favoured: bool) -> Section:
    s = Section("Summary")
    s.paragraph(
        f"House edge of the main bet: {pct(cd_edge)} with composition-dependent play and {pct(td_edge)} with the "
        "basic-strategy chart below (per unit of the initial bet; negative: the player has the edge). Every "
        "figure is exact unless it says it is simulated."
    )
    if run is not None:
        s.paragraph(
            f"Per unit wagered (the initial bet with every double and split) the basic-strategy edge is "
            f"{pct(td_edge / run.amount, 4, sign=True)}: a round stakes on average {run.amount:.4f} units "
            f"(simulated). The net of a round has SD {run.sd:.4f} units (simulated)."
        )
    if favoured:
        s.paragraph("The main bet favours the player: see the warning above and Rule effects.", warning=True)
    return s


def _bets(
    cd: Analysis,
    td: Analysis,
    *,
    cd_results: dict[str, float],
    td_results: dict[str, float],
    sides: SideBets,
    run: TableRun | None,
) -> Section:
    main_sd = run.sd if run is not None else math.nan
    cd_edge, td_edge = float(cd.house_edge), float(td.house_edge)
    rows = [
        BetRow("main bet, composition-dependent", cd_edge, cd_results["win"], main_sd, "BJ 9-19"),
        BetRow("main bet, basic strategy", td_edge, td_results["win"], main_sd, "BJ 9-19"),
    ]
    if sides.insurance is not None:
        ins = sides.insurance
        rows.append(
            BetRow("insurance (full shoe)", float(ins.house_edge), float(ins.win_probability), ins.sd, "BJ 12", "2")
        )
    for odds in sides.bets:
        if odds.bet.startswith("streak_"):
            continue
        rows.append(BetRow(odds.bet.replace("_", " "), odds.house_edge, odds.win_probability, odds.sd, odds.rule))
    a = sides.any_pair
    if a.split_house_edge is not None and a.split_win_probability is not None:
        p = a.split_win_probability
        rows.append(
            BetRow(
                "any pair, stakes on split hands",
                a.split_house_edge,
                p,
                _two_outcome_sd(float(p), float(a.pays), -1),
                a.rule,
            )
        )
    for odds in sides.bets:
        if odds.bet.startswith("streak_"):
            rows.append(
                BetRow(
                    odds.bet.replace("_", " "), float(odds.house_edge), float(odds.win_probability), odds.sd, odds.rule
                )
            )
    section = bets_section(
        rows,
        note=(
            "The main bet's edge is exact (splits included); its hit frequency is the chance the box wins a round "
            "as the streak bet counts it, and its SD is simulated. Side bets are exact fractions for the rules' "
            "shoe, Sevens and the split-hand Any Pair stakes for the composition-dependent play; the streak bets "
            "use the exact chances of a round's result and assume independent rounds."
        ),
    )
    by_up_rows = cd.by_up
    section.add(
        FigureBlock(
            _by_up_figure({r.up: r.ev for r in by_up_rows}, "Main bet by up card (composition-dependent)"),
            "The player's expected net by the dealer's up card.",
        )
    )
    section.add(
        TableBlock(
            ["up card", "probability", "expected net", "insurance value"],
            [
                [
                    "A" if r.up == 1 else str(r.up),
                    f"{r.probability:.6f}",
                    f"{r.ev:+.6f}",
                    "" if r.insurance is None else f"{r.insurance:+.6f}",
                ]
                for r in by_up_rows
            ],
            heading="By the dealer's up card",
        )
    )
    return section


def _per_round(
    td_edge: float, cd_edge: float, sides: SideBets, run: TableRun | None, sample: RoundSample | None
) -> Section:
    if run is not None and sample is not None:
        s = distribution_section(sample, run, -td_edge)
    else:
        s = Section("Main bet: result per round")
        s.paragraph("No simulation (--rounds 0): the main bet's distribution, SD and amount wagered are simulated.")
    rows = []
    if run is not None:
        a, half = run.amount, Z95 * run.amount_se
        rows.append(
            PerRound(
                "main bet, basic strategy",
                f"{a:.4f} ± {half:.4f}",
                pct(td_edge, 4, sign=True),
                f"{pct(td_edge / a, 4, sign=True)} ({pct(td_edge / (a + half), 4, sign=True)} to "
                f"{pct(td_edge / (a - half), 4, sign=True)})",
                f"{run.sd:.4f}",
                "edge exact; amount wagered and SD simulated (95% intervals)",
            )
        )
    rows.append(
        PerRound(
            "main bet, composition-dependent",
            "—",
            pct(cd_edge, 4, sign=True),
            "—",
            "—",
            "exact edge (this play is not simulated)",
        )
    )
    if sides.insurance is not None:
        ins = sides.insurance
        rows.append(
            PerRound(
                "insurance",
                "1 unit insured",
                pct(ins.house_edge, 4, sign=True),
                pct(ins.house_edge, 4, sign=True),
                f"{ins.sd:.4f}",
                "exact (full shoe)",
            )
        )
    for odds in sides.bets:
        rows.append(_side_row(odds))
    ap = sides.any_pair
    rows.append(
        PerRound(
            "any pair with its split stakes",
            f"{float(ap.total_staked):.6f}",
            pct(-ap.ev, 4, sign=True),
            pct(ap.house_edge, 4, sign=True),
            "—",
            "exact (split stakes: the composition-dependent play)",
        )
    )
    s.add(
        per_round_table(
            rows,
            caption="Amounts in units of the initial bet. The edge per unit wagered divides the expected loss by "
            "everything staked: the initial bet with every double and split (insurance is a bet of its own).",
        )
    )
    return s


def _side_row(odds: BetOdds) -> PerRound:
    edge = pct(odds.house_edge, 4, sign=True)
    how = "exact, independent rounds" if odds.bet.startswith("streak_") else "exact"
    return PerRound(odds.bet.replace("_", " "), "1 unit", edge, edge, f"{odds.sd:.4f}", how)


def _holds(td_edge: float, sides: SideBets, run: TableRun | None) -> Section:
    rows = []
    if run is not None:
        rows.append(("main bet, basic strategy", normal_hold_ranges(td_edge / run.amount, run.sd / run.amount)))
    for odds in sides.bets:
        name = odds.bet.replace("_", " ") + (" (per bet)" if odds.bet.startswith("streak_") else "")
        rows.append((name, exact_hold_ranges(odds)))
    if sides.insurance is not None:
        rows.append(("insurance", exact_hold_ranges(sides.insurance)))
    bound = ""
    if run is not None:
        shift = abs(td_edge / run.amount) * math.sqrt(max((run.amount - 1) * (run.amount_max - run.amount), 0.0))
        bound = (
            " The main bet's ranges are the normal approximation: hold over n rounds ≈ normal with mean = the exact "
            "basic-strategy edge ÷ the simulated amount wagered per round and SD = the simulated SD of the net ÷ "
            "the amount wagered ÷ √n. Treating the amount wagered as fixed moves the SD by at most "
            f"{shift / run.sd:.2%} of itself (bounded from the amount's range); the simulated figures carry "
            "their own intervals (Result per round)."
        )
    return hold_section(
        rows,
        note=(
            "What a house compares with its actual hold: the central 90%, 95% and 99% ranges of its result over "
            "1,000 to 1,000,000 rounds (bets, for a streak) with one unit on the bet every time, as a share of the "
            "amount wagered. Side bets' and insurance's ranges are exact: the exact distribution of the sum, by FFT "
            "convolution (where its support is too wide, on a window around the mean outside which Bernstein's "
            "inequality leaves less than 10⁻⁶ of probability)." + bound
        ),
    )
