"""The blackjack PAR sheet's bets other than the main bet, and its warnings.

* :func:`side_bets` — insurance and every side bet (BJ 12-14) as exact :class:`~croupier.analysis.odds.BetOdds`
  for the rules' shoe, with the main bet played as the composition-dependent analysis plays it;
* :func:`side_bets_section` — each side bet's paytable and outcome table: every outcome with its net (the
  paytable's odds), exact probability and contribution to the house edge; Any Pair's stakes on split hands;
* :func:`main_bet_warning` — when the main bet favours the player, the options that cause it: those whose
  house-friendly value alone gives the house the edge (from :func:`croupier.analysis.blackjack_math.
  rule_effects`), or failing that the fewest together, checked by one more exact analysis;
* :func:`side_bet_warnings` — a side bet at the player's advantage and the paytable entries behind it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from croupier.analysis.blackjack_math import FLIPS, RuleEffect
from croupier.analysis.ca import Analyser
from croupier.analysis.first_two_cards import first_two_card_side_bets
from croupier.analysis.odds import BetOdds, Outcome
from croupier.analysis.side_bets import AnyPairOdds, any_pair_odds, sevens_odds, streak_odds
from croupier.blackjack.rules import BlackjackRules
from croupier.errors import CroupierError
from croupier.report.filing import causes
from croupier.report.html import Cell, Section, TableBlock
from croupier.report.risk import OUTCOME_HEADERS, outcome_rows
from croupier.report.sections import exact, pct
from croupier.rulesdoc import format_value

OFFERED_AS: dict[str, str] = {
    "any_pair": "any_pair",
    "perfect_pairs": "perfect_pairs",
    "over_13": "over_under_13",
    "under_13": "over_under_13",
    "sevens": "sevens",
    "streak_2": "streak",
    "streak_3": "streak",
    "streak_4": "streak",
    "streak_5": "streak",
}
"""Each side bet's name in the rules' ``side_bets_offered`` (BJ 13)."""


@dataclass(frozen=True)
class SideBets:
    """Insurance and the side bets of a table, exact for its shoe and the main bet's play."""

    insurance: BetOdds | None
    bets: tuple[BetOdds, ...]
    any_pair: AnyPairOdds


def side_bets(
    rules: BlackjackRules, play: Callable[[int, int], str], results: dict[str, float], insurance_ev: float | None
) -> SideBets:
    """Insurance (from its value against an ace, averaged over the player's cards), Any Pair, Perfect Pairs,
    Over 13, Under 13, Sevens and the four Streak bets."""
    insurance = None
    if insurance_ev is not None:
        p_bj = Fraction(insurance_ev + 1) / 3  # insurance pays 2 to 1: EV = 3·P(dealer blackjack) − 1
        insurance = BetOdds(
            "insurance",
            Fraction(2),
            (Outcome("dealer blackjack", p_bj, Fraction(2)), Outcome("no dealer blackjack", 1 - p_bj, Fraction(-1))),
            "BJ 12",
        )
    bets = [*first_two_card_side_bets(rules), sevens_odds(rules, lambda up: play(7, up))]
    bets += streak_odds(rules, results["win"], results["push"])
    return SideBets(insurance, tuple(bets), any_pair_odds(rules, play))


def _offered(rules: BlackjackRules, bet: str) -> str:
    key = OFFERED_AS.get(bet)
    if key is None:
        return ""
    return "offered" if key in {str(getattr(o, "value", o)) for o in rules.side_bets_offered} else "not offered"


def side_bets_section(rules: BlackjackRules, sides: SideBets) -> Section:
    """Every side bet's paytable and outcome table (see the module)."""
    s = Section("Side bets: paytables and outcomes")
    s.paragraph(
        "Each side bet's outcomes for this table's paytable (BJ 14) and shoe: the net per unit staked (the "
        "paytable's odds, A to 1), the exact probability and the outcome's contribution to the house edge "
        "(−probability × net); the contributions add up to the edge. Insurance is averaged over the player's "
        "cards; Sevens follows the composition-dependent play of 7-7; the Streak bets use the exact chances of "
        "a round's result and assume independent rounds (a continuous shuffle)."
    )
    rows: list[list[Cell | str]] = []
    every = ([sides.insurance] if sides.insurance is not None else []) + list(sides.bets)
    for odds in every:
        offered = _offered(rules, odds.bet)
        rows += outcome_rows(odds, odds.bet.replace("_", " ") + (f" ({offered})" if offered else ""))
    s.add(TableBlock(OUTCOME_HEADERS, rows, heading="Outcomes and contributions"))
    a = sides.any_pair
    if a.split_stakes:
        p = a.split_win_probability
        s.paragraph(
            f"Any Pair's stakes on split hands (BJ 13.1 Reading): a bet brings on average {float(a.split_stakes):.6f} "
            f"more stakes (= {exact(a.split_stakes)}), each winning with probability "
            f"{'—' if p is None else f'{float(p):.6f}'} at {exact(a.pays)} to 1. Per unit wagered in all (original "
            f"and split stakes) the house edge is {pct(a.house_edge, 4, sign=True)} = {exact(a.house_edge)}; per "
            f"original stake {pct(-a.ev, 4, sign=True)}."
        )
    s.add(
        TableBlock(
            ("side bet", "odds (A to 1)", "offered"),
            [
                [key, format_value(value), _offered_key(rules, key)]
                for key, value in rules.paytables.as_document().items()
            ],
            heading="The paytable (BJ 14), as the rules file writes it",
        )
    )
    return s


def _offered_key(rules: BlackjackRules, key: str) -> str:
    return "yes" if key in {str(getattr(o, "value", o)) for o in rules.side_bets_offered} else "no"


# -- warnings -----------------------------------------------------------------------------------------------------


def _value_of(rules: BlackjackRules, option: str, shown: str) -> Any:
    """The value of ``option`` that :func:`rule_effects` shows as ``shown``."""
    for name, _, alternatives in FLIPS:
        if name != option:
            continue
        for value in alternatives(rules):
            text = str(getattr(value, "value", value))
            if (text.lower() if isinstance(value, bool) else text) == shown:
                return value
    raise LookupError(option)


def main_bet_warning(
    rules: BlackjackRules, cd_edge: float, td_edge: float, effects: Sequence[RuleEffect]
) -> str | None:
    """The warning when the main bet favours the player (``None`` when the house has the edge), naming the
    options whose house-friendly value gives the house the edge (see the module)."""
    if cd_edge > 0 and td_edge > 0:
        return None
    who = (
        "a player using the composition-dependent strategy and one using the basic-strategy chart both have the edge"
        if td_edge <= 0
        else "a player using the composition-dependent strategy has the edge (the basic-strategy chart does not)"
    )
    head = (
        f"The main bet favours the player: house edge {pct(cd_edge, 4, sign=True)} (composition-dependent), "
        f"{pct(td_edge, 4, sign=True)} (basic strategy); {who}."
    )
    best: dict[str, RuleEffect] = {}
    for e in effects:
        if e.change > 0 and (e.option not in best or e.change > best[e.option].change):
            best[e.option] = e
    ranked = sorted(best.values(), key=lambda e: -e.change)
    alone = [e for e in ranked if e.house_edge > 0]
    if alone:
        return (
            head
            + " Options that cause it, each of which alone set to its alternative gives the house the edge: "
            + "; ".join(
                f"{e.option} = {e.before} ({e.rule}; {e.after} gives {pct(e.house_edge, 4, sign=True)})" for e in alone
            )
            + "."
        )
    together, edge = _together(rules, ranked, cd_edge)
    if together:
        return (
            head
            + " No option alone turns it; together "
            + ", ".join(f"{e.option} = {e.before} → {e.after} ({e.rule})" for e in together)
            + f" give the house {pct(edge, 4, sign=True)} (exact)."
        )
    return head + " No combination of the options in the rule-effects table gives the house the edge."


def _together(rules: BlackjackRules, ranked: Sequence[RuleEffect], edge: float) -> tuple[list[RuleEffect], float]:
    """The fewest of the best flips (largest first) whose changes add past the player's edge, checked exactly
    and extended one by one until the exact edge is the house's."""
    chosen: list[RuleEffect] = []
    flipped = rules
    for e in ranked:
        try:
            flipped = dataclasses.replace(flipped, **{e.option: _value_of(rules, e.option, e.after)})
        except (CroupierError, LookupError):
            continue
        chosen.append(e)
        if edge + sum(c.change for c in chosen) <= 0:
            continue
        exact_edge = float(Analyser(flipped).analyse().house_edge)
        if exact_edge > 0:
            return chosen, exact_edge
    return [], 0.0


def _edge_function(odds: BetOdds, play: Callable[[int, int], str]) -> Callable[[Any], Fraction]:
    """The house edge of side bet ``odds.bet`` under other rules (the main bet's play kept: only a paytable
    or a side-bet option is restored)."""
    if odds.bet.startswith("streak_"):
        level = int(odds.bet.removeprefix("streak_"))
        p = odds.win_probability
        return lambda r: 1 - p * (1 + r.paytables.streak_odds(level))
    if odds.bet == "sevens":
        return lambda r: sevens_odds(r, lambda up: play(7, up)).house_edge
    return lambda r: next(o for o in first_two_card_side_bets(r) if o.bet == odds.bet).house_edge


def side_bet_warnings(
    rules: BlackjackRules, sides: SideBets, statute: BlackjackRules, play: Callable[[int, int], str]
) -> list[str]:
    """A warning for every offered side bet whose house edge is zero or negative, with its causes (paytable
    entries that differ from the statute)."""
    out = []
    for odds in sides.bets:
        if odds.house_edge > 0 or _offered(rules, odds.bet) == "not offered":
            continue
        why = causes("blackjack", rules, statute, _edge_function(odds, play))
        side = "favours the player" if odds.house_edge < 0 else "gives the house no edge"
        out.append(
            f"The {odds.bet.replace('_', ' ')} side bet {side}: house edge {pct(odds.house_edge, 4, sign=True)}, "
            f"{why.text()}."
        )
    return out


__all__ = ["SideBets", "main_bet_warning", "side_bet_warnings", "side_bets", "side_bets_section"]
