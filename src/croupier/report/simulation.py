"""The report of ``croupier simulate blackjack --report FILE.html`` (issue 15): one self-contained HTML page (the
project's :class:`~croupier.report.html.Report`) built from the JSON of
:meth:`~croupier.analysis.tablesim.TableResult.to_json`.

It shows the setup (shoe, boxes, shuffle, count, ramp, wonging, index plays, side bets, bankroll), the run and
the command that repeats it; the counter's figures (EV with 95% intervals, SD, average bet, edges, win per hour,
SCORE, N0, DI, risk of ruin); the main bet's player EV by count with 95% error bars and the side bets' EV by
count (the house's question: can a side bet be counted?); the distribution of the count; a fan of bankroll
paths; the house's edges; and the comparison of penetrations when several were simulated.

A result without a count has no plot by count, and says why; a result without a finished round (interrupted
at once) still renders its setup and run.
"""

from __future__ import annotations

import json
import math
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from croupier import __version__
from croupier.analysis.counting import FLAT, INDEX_SETS, SYSTEMS, Ramp
from croupier.games import game
from croupier.report.html import Cell, FigureBlock, Report, Section, TableBlock
from croupier.report.sections import Z95, pct

MIN_FREQUENCY = 0.0005
"""Counts seen in fewer than this share of rounds (0.05%) are left out of the plots and the table by count: their
intervals are too wide to read."""

BANDS: tuple[int, ...] = (5, 25, 50, 75, 95)
"""The percentiles of the fan of bankroll paths."""

SIDE_BETS: dict[str, tuple[str, str]] = {
    "any_pair": ("Any Pair", "BJ 13.1"),
    "sevens": ("Sevens", "BJ 13.2"),
    "over_13": ("Over 13", "BJ 13.3"),
    "under_13": ("Under 13", "BJ 13.3"),
    "perfect_pairs": ("Perfect Pairs", "BJ 13.4"),
}
"""Each side-bet key of the simulation: its name and its rule."""

CARD_LABELS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
"""The card values in the order of a count's tags and a shoe's composition."""

_BLUE_LIGHT, _BLUE, _BLUE_DARK, _RED, _GREY = "#9ecae1", "#3182bd", "#08306b", "#c0392b", "#888888"


def write_simulation_report(out: dict[str, Any], path: Path) -> None:
    """Write the report of a blackjack table simulation (``out``: :meth:`TableResult.to_json` with
    ``rules_source`` and optionally ``penetrations``) to ``path`` as one self-contained HTML file. ``OSError`` if
    it cannot be written; ``ValueError`` naming the part when ``out`` is not such a result."""
    report = simulation_report(out, report_name=Path(path).name)
    try:
        report.write_html(path)
    finally:
        report.close()


def simulation_report(out: Mapping[str, Any], *, report_name: str = "report.html") -> Report:
    """The report of a blackjack table simulation (see the module's docstring); ``report_name`` is the file
    named in the command that repeats it."""
    _check(out)
    setup, run = out["setup"], out["run"]
    g = game("blackjack")
    counted = setup["count"]
    rounds = int(run["rounds"])
    report = Report(
        "Blackjack simulation: the counter's and the house's figures",
        f"{g.statute}: {rounds:,} rounds at a table of {_plural(setup['boxes'], 'box', 'boxes')}, "
        f"{counted['name'] + ' count' if counted else 'no count'}, {_shoe_text(setup)}"
        + (" (interrupted: partial result)" if run["interrupted"] else ""),
    )
    report.meta += [
        ("game", f"{g.title} ({g.statute})"),
        ("rules", str(out.get("rules_source") or "given in Python")),
        ("rounds", _rounds_text(run)),
        ("seed", str(run["seed"])),
        ("count", counted["name"] if counted else "none"),
        ("speed", _speed(run)),
        ("software", _software(run)),
        ("repeat with", _command(out, report_name)),
    ]
    report.add(_summary(out))
    report.add(_setup_section(out))
    report.add(_run_section(out, report_name))
    if "counter" in out:
        report.add(_counter_section(out))
        report.add(_by_count_section(out))
        report.add(_paths_section(out))
        report.add(_house_section(out))
    if out.get("penetrations"):
        report.add(_penetration_section(out))
    return report


def _check(out: Mapping[str, Any]) -> None:
    if not isinstance(out, Mapping):
        raise ValueError(f"the simulation result {out!r} is not a JSON object")
    if out.get("game") != "blackjack":
        raise ValueError(f"the simulation result is for game {out.get('game')!r}, not blackjack")
    for key in ("setup", "run"):
        if not isinstance(out.get(key), Mapping):
            raise ValueError(f"the simulation result has no {key!r} object")


# -- small formatting helpers ----------------------------------------------------------------------------------


def _plural(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def _units(n: int) -> str:
    return _plural(n, "unit", "units")


def _signed(count: int) -> str:
    return f"{count:+d}" if count else "0"


def _r(text: str) -> Cell:
    return Cell(text, "r")


def _opt(value: float | None, spec: str, suffix: str = "") -> str:
    return "—" if value is None else format(value, spec) + suffix


def _share(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else pct(value, digits)


def _probability(value: float | None) -> str:
    """A probability as a percentage, in scientific notation below 0.001% (the formula's tails are tiny)."""
    if value is None:
        return "—"
    if 0 < value < 1e-5:
        return f"{value * 100:.2e}%"
    return pct(value, 4)


def _simulated_ruin(ror: Mapping[str, Any]) -> str:
    paths = int(ror["paths"])
    if not paths or ror["simulated_within_path"] is None:
        return "—"
    ruined = round(float(ror["simulated_within_path"]) * paths)
    return f"{pct(ror['simulated_within_path'], 2)} ({ruined:,} of {paths:,})"


def _interval(ci: Sequence[float], spec: str, scale: float = 1.0) -> str:
    return f"{format(ci[0] * scale, spec)} … {format(ci[1] * scale, spec)}"


def _up(up: int) -> str:
    return "A" if up == 1 else str(up)


def _shoe_text(setup: Mapping[str, Any]) -> str:
    if setup.get("composition") is not None:
        comp = setup["composition"]
        return f"a shoe of {sum(comp):,} cards of a given composition"
    shoe = _plural(int(setup["decks"]), "deck", "decks")
    if setup["shuffle"] == "continuous":
        return f"{shoe}, shuffled before every round"
    return f"{shoe} dealt to {pct(setup['penetration'], 1)}"


def _rounds_text(run: Mapping[str, Any]) -> str:
    done, asked = int(run["rounds"]), int(run["rounds_asked"])
    if run["interrupted"]:
        return f"{done:,} of {asked:,} (interrupted)"
    return f"{done:,}"


def _speed(run: Mapping[str, Any]) -> str:
    rate = run.get("rounds_per_cpu_s")
    text = f"{int(run['rounds']):,} rounds in {float(run['cpu_seconds']):,.2f} s of CPU time"
    text += f" ({float(run['wall_seconds']):,.2f} s wall)"
    return text + (f": {int(rate):,} rounds per CPU second" if rate else "")


def _where(run: Mapping[str, Any]) -> str:
    if run.get("ray"):
        return f"on Ray ({run['ray']})"
    return f"on {_plural(int(run['workers']), 'process', 'processes')}"


def _software(run: Mapping[str, Any]) -> str:
    ran = str(run.get("version", __version__))
    return f"croupier {ran}" + ("" if ran == __version__ else f" (report by croupier {__version__})")


def _count_axis(setup: Mapping[str, Any]) -> str:
    """What the count of a round is, as an axis label."""
    method = setup["count"]["true_count"]
    if method == "running count":
        return "running count"
    if method == "half_deck":
        return "true count (by half decks, floored)"
    return "true count (by the cards left, floored)"


# -- reading the setup back ------------------------------------------------------------------------------------


def _ramp(setup: Mapping[str, Any]) -> Ramp:
    """The bet ramp the setup describes (checked again by :class:`Ramp`)."""
    r = setup["ramp"]
    return Ramp(
        steps=tuple((int(c), int(u)) for c, u in r["steps"]),
        wong_in=r["wong_in"],
        wong_out=r["wong_out"],
        side_bets=tuple(r["side_bets"].items()),
        side_units=int(r["side_units"]),
        name=str(r["name"]),
    )


def _ramp_text(ramp: Ramp) -> str:
    """The ramp's steps as a sentence: ``1 unit below +2; 2 units at +2; … 12 units at +5 or more``."""
    parts = []
    steps = ramp.steps
    for i, (at, units) in enumerate(steps):
        following = steps[i + 1][0] if i + 1 < len(steps) else None
        if i == 0:
            parts.append(
                _units(units) + (f" below {_signed(following)}" if following is not None else " at every count")
            )
        elif following is None:
            parts.append(f"{_units(units)} at {_signed(at)} or more")
        elif following == at + 1:
            parts.append(f"{_units(units)} at {_signed(at)}")
        else:
            parts.append(f"{_units(units)} at {_signed(at)} to {_signed(following - 1)}")
    return "; ".join(parts)


def _wonging_text(ramp: Ramp) -> str:
    if ramp.wong_in is None and ramp.wong_out is None:
        return "none: the counter plays every round"
    parts = []
    if ramp.wong_out is not None:
        parts.append(f"leaves when the count falls below {_signed(ramp.wong_out)}")
    else:
        parts.append("never leaves before the shuffle")
    parts.append(f"comes (back) in when the count is {_signed(ramp.enter_at)} or more")
    parts.append(
        "is in at a fresh shoe" if ramp.starts_in else "back-counts a fresh shoe from its first round (sits it out)"
    )
    return "the counter " + ", ".join(parts)


def _tags_text(tags: Sequence[str]) -> str:
    return ", ".join(
        f"{v} {t if t.startswith('-') or t == '0' else '+' + t}" for v, t in zip(CARD_LABELS, tags, strict=True)
    )


def _builtin_count(setup: Mapping[str, Any]) -> str | None:
    """The built-in counting system the setup's count is (its ``--count`` name), or None (a tags file)."""
    c = setup["count"]
    decks = int(setup["decks"] or 1)
    for key, system in SYSTEMS.items():
        if (
            system.name == c["name"]
            and [str(t) for t in system.tags] == list(c["tags"])
            and system.initial_running_count(decks) / system.scale == c["initial_running_count"]
        ):
            return key
    return None


def _index_dicts(plays: Sequence[Any]) -> list[dict[str, Any]]:
    return [{"hand": p.hand, "up": p.up, "at": p.at, "above": p.above, "below": p.below} for p in plays]


def _builtin_indices(indices: Sequence[Mapping[str, Any]]) -> str | None:
    """The built-in index set the setup's plays are (its ``--indices`` name), or None (an index file)."""
    for key, plays in INDEX_SETS.items():
        if plays and _index_dicts(plays) == [dict(p) for p in indices]:
            return key
    return None


# -- repeating the run -------------------------------------------------------------------------------------------


def _command(out: Mapping[str, Any], report_name: str) -> str:
    """The ``croupier simulate blackjack`` command that deals the same rounds again (files it needs are given in
    the run section: ``count.json``, ``ramp.json``, ``indices.json``)."""
    setup, run = out["setup"], out["run"]
    q = shlex.quote
    words = ["croupier", "simulate", "blackjack"]
    source = str(out.get("rules_source") or "")
    if source.startswith("preset "):
        words += ["--preset", q(source.removeprefix("preset "))]
    elif source.startswith("file "):
        words += ["--rules", q(source.removeprefix("file "))]
    words += ["--boxes", str(setup["boxes"]), "--seat", str(setup["seat"]), "--shuffle", str(setup["shuffle"])]
    if setup.get("chart", "td") != "td":
        words += ["--chart", str(setup["chart"])]
    pens = out.get("penetrations")
    if pens:
        words += ["--penetration", ",".join(f"{float(row['penetration']):g}" for row in pens)]
    elif setup["penetration"] is not None:
        words += ["--penetration", f"{float(setup['penetration']):g}"]
    if setup["count"] is not None:
        words += ["--count", _builtin_count(setup) or "count.json"]
        if setup["count"]["balanced"]:
            words += ["--true-count", str(setup["count"]["true_count"])]
        if _ramp(setup) != FLAT:
            words += ["--ramp", "ramp.json"]
        if setup["indices"]:
            words += ["--indices", _builtin_indices(setup["indices"]) or "indices.json"]
    if setup["side_bets"]:
        words.append("--side-bets")
    words += ["--rounds", str(run["rounds_asked"]), "--seed", str(run["seed"])]
    words += ["--bankroll", str(setup["bankroll_units"]), "--path-rounds", str(setup["path_rounds"])]
    words += ["--rounds-per-hour", str(setup["rounds_per_hour"])]
    if run.get("ray"):
        words += ["--ray", q(str(run["ray"]))]
    elif int(run["workers"]) > 1:
        words += ["--workers", str(run["workers"])]
    words += ["--report", q(report_name)]
    return " ".join(words)


def _files(setup: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The files the repeating command reads, as (name, JSON text), for what is not built in."""
    files: list[tuple[str, str]] = []
    c = setup["count"]
    if c is None:
        return files
    if _builtin_count(setup) is None:
        doc: dict[str, Any] = {"name": c["name"], "tags": list(c["tags"])}
        if not c["balanced"] or c["initial_running_count"]:
            doc["initial_running_count"] = c["initial_running_count"]
        files.append(("count.json", json.dumps(doc)))
    ramp = setup["ramp"]
    if _ramp(setup) != FLAT:
        files.append(("ramp.json", json.dumps({k: v for k, v in ramp.items() if v is not None})))
    if setup["indices"] and _builtin_indices(setup["indices"]) is None:
        plays = []
        for p in setup["indices"]:
            entry = {"hand": p["hand"], "at": p["at"], "above": p["above"]}
            if p["hand"] != "insurance":
                entry["up"] = "A" if p["up"] == 1 else p["up"]
            if p["below"] is not None:
                entry["below"] = p["below"]
            plays.append(entry)
        files.append(("indices.json", json.dumps({"play": plays})))
    return files


# -- sections ------------------------------------------------------------------------------------------------------


def _summary(out: Mapping[str, Any]) -> Section:
    s = Section("Summary")
    run = out["run"]
    c = out.get("counter")
    if c is None:
        s.paragraph(
            f"No round finished: the run was {'interrupted' if run['interrupted'] else 'stopped'} after "
            f"{int(run['rounds']):,} of {int(run['rounds_asked']):,} rounds, so there are no figures. The setup and "
            "the command that repeats the run follow."
        )
        return s
    e = c["ev_per_round"]
    h = out["house"]["main_bet"]
    s.paragraph(
        f"The counter's EV is {e['mean']:+.5f} units a round (95% CI {_interval(e['ci95'], '+.5f')}), "
        f"{c['ev_per_100']['mean']:+.3f} units per 100 rounds with an SD of {c['sd_per_100']:.3f}: "
        f"{_opt(c['edge_per_initial_bet'], '+.4%')} of the initial bets, at an average bet of "
        f"{c['average_bet']:.3f} units. SCORE {c['score']:.2f}; risk of ruin {pct(c['risk_of_ruin']['formula'], 2)} "
        f"with a bankroll of {_units(int(c['risk_of_ruin']['bankroll_units']))} (formula, unlimited play)."
    )
    s.paragraph(
        f"The house's edge on the main bet, one unit every round on the counted box played by its strategy, is "
        f"{pct(h['house_edge'], 4, sign=True)} ± {pct(Z95 * h['se'], 4)} (95%). One unit is the counter's minimum "
        "bet; a positive edge favours the house."
    )
    if run["interrupted"]:
        s.paragraph(
            f"The run was interrupted (Ctrl+C) after {int(run['rounds']):,} of {int(run['rounds_asked']):,} rounds: "
            "the figures are those of the rounds dealt.",
            dim=True,
        )
    return s


def _setup_section(out: Mapping[str, Any]) -> Section:
    setup = out["setup"]
    s = Section("Setup")
    rows: list[list[Cell | str]] = [["rules", str(out.get("rules_source") or "given in Python"), ""]]
    if setup.get("composition") is not None:
        comp = setup["composition"]
        rows.append(
            [
                "shoe",
                f"{sum(comp):,} cards: " + ", ".join(f"{v} ×{n}" for v, n in zip(CARD_LABELS, comp, strict=True)),
                "BJ 1",
            ]
        )
    else:
        rows.append(["shoe", _plural(int(setup["decks"]), "deck", "decks") + " of 52 cards", "BJ 1"])
    rows.append(["boxes dealt", f"{setup['boxes']}; the counted box is box {setup['seat']} (1: dealt first)", "BJ 5.2"])
    if setup["shuffle"] == "continuous":
        rows.append(["shuffle", "before every round (a continuous shuffler)", "BJ 2.2"])
    else:
        rows.append(
            [
                "shuffle",
                f"a shoe dealt to the cut card: penetration {pct(setup['penetration'], 2)}, "
                f"{setup['cards_behind_cut']:,} cards behind the cut card",
                "BJ 2.1",
            ]
        )
    c = setup["count"]
    if c is None:
        rows.append(["count", "none: the box plays its chart and bets one unit every round", ""])
    else:
        how = "running count (unbalanced)" if c["true_count"] == "running count" else f"true count: {c['true_count']}"
        rows.append(["count", f"{c['name']} ({'balanced' if c['balanced'] else 'unbalanced'}); {how}", ""])
        rows.append(["tags", _tags_text(c["tags"]), ""])
        if not c["balanced"] or c["initial_running_count"]:
            rows.append(["initial running count", f"{c['initial_running_count']:+g}", ""])
        ramp = _ramp(setup)
        rows.append(["bet ramp", f"{ramp.name}: {_ramp_text(ramp)}", ""])
        rows.append(["wonging", _wonging_text(ramp), ""])
        if ramp.side_bets:
            bets = ", ".join(f"{_side_name(k)} at {_signed(at)} or more" for k, at in ramp.side_bets)
            rows.append(["the counter's side bets", f"{bets}; {_units(ramp.side_units)} each", "BJ 13"])
        rows.append(["index plays", f"{len(setup['indices'])} (listed below)" if setup["indices"] else "none", ""])
    rows.append(
        [
            "side bets settled",
            "every side bet, one unit on the counted box every round (the house's view)"
            if setup["side_bets"]
            else "none",
            "BJ 13",
        ]
    )
    rows.append(["bankroll", f"{_units(int(setup['bankroll_units']))} (for the risk of ruin)", ""])
    rows.append(["bankroll paths", f"{int(setup['path_rounds']):,} rounds each", ""])
    rows.append(["rounds per hour", f"{int(setup['rounds_per_hour']):,}", ""])
    s.add(TableBlock(("setting", "value", "rule"), rows))
    if c is not None and setup["indices"]:
        s.add(
            TableBlock(
                ("hand", "dealer's up card", "index", "at or above the index", "below the index"),
                [
                    [
                        p["hand"],
                        Cell(_up(int(p["up"])), "c"),
                        _r(_signed(int(p["at"]))),
                        p["above"],
                        p["below"] or "the chart's play",
                    ]
                    for p in setup["indices"]
                ],
                heading="Index plays of the counted box",
                caption=f"The count is the {_count_axis(setup)}; every other box plays the chart.",
            )
        )
    return s


def _side_name(key: str) -> str:
    name, rule = SIDE_BETS.get(key, (key, "BJ 13"))
    return f"{name} ({rule})"


def _run_section(out: Mapping[str, Any], report_name: str) -> Section:
    run = out["run"]
    s = Section("Run")
    rows: list[list[Cell | str]] = [
        ["rounds", _rounds_text(run)],
        ["seed", str(run["seed"])],
        ["CPU time", f"{float(run['cpu_seconds']):,.2f} s"],
        ["wall time", f"{float(run['wall_seconds']):,.2f} s"],
        ["rounds per CPU second", _opt(run.get("rounds_per_cpu_s"), ",")],
        ["where", _where(run)],
        ["blocks", f"{int(run['block_rounds']):,} rounds, each from its own stream of the seed"],
        ["interrupted", "yes (Ctrl+C): a partial result" if run["interrupted"] else "no"],
        ["software", _software(run)],
    ]
    cards = out.get("cards")
    if cards:
        rows.append(["cards dealt", f"{int(cards['dealt']):,} ({cards['per_round']:.3f} a round)"])
        rows.append(["shoes", f"{int(cards['shoes']):,} ({_opt(cards['rounds_per_shoe'], '.2f')} rounds a shoe)"])
        if cards["restocks"]:
            rows.append(["restocks", f"{int(cards['restocks']):,} (the shoe ran out within a round)"])
    s.add(TableBlock(("", ""), rows))
    s.paragraph("To repeat the run:")
    s.paragraph(_command(out, report_name))
    for name, text in _files(out["setup"]):
        s.paragraph(f"with {name} holding: {text}")
    s.paragraph(
        "Each block of rounds draws from its own xoshiro256++ stream spawned from the seed and starts a fresh "
        "shoe, so the same seed gives the same figures on one process, on several or on Ray."
        + (
            " A shoe of a given composition cannot be set on the command line: it needs the Python interface."
            if out["setup"].get("composition") is not None
            else ""
        ),
        dim=True,
    )
    return s


def _counter_section(out: Mapping[str, Any]) -> Section:
    c, setup = out["counter"], out["setup"]
    s = Section("The counter's figures")
    s.paragraph(
        "Per round dealt, in units of the counter's minimum bet; a round the counter sits out (wonging) counts as "
        "a round with nothing bet. Intervals are 95% (the mean ± 1.96 standard errors)."
    )
    e, e100 = c["ev_per_round"], c["ev_per_100"]
    ror = c["risk_of_ruin"]
    rph = int(setup["rounds_per_hour"])
    rows: list[list[Cell | str]] = [
        ["EV per round", _r(f"{e['mean']:+.5f}"), _r(_interval(e["ci95"], "+.5f")), "units"],
        ["EV per 100 rounds", _r(f"{e100['mean']:+.3f}"), _r(_interval(e100["ci95"], "+.3f")), "units"],
        ["SD per round", _r(f"{c['sd_per_round']:.4f}"), _r(""), "units"],
        ["SD per 100 rounds", _r(f"{c['sd_per_100']:.3f}"), _r(""), "units"],
        ["average bet", _r(f"{c['average_bet']:.3f}"), _r(""), "units per round dealt"],
        ["average bet when playing", _r(_opt(c["average_bet_played"], ".3f")), _r(""), "units per round played"],
        ["rounds played", _r(f"{int(c['rounds_played']):,}"), _r(""), f"{pct(c['share_played'], 2)} of the rounds"],
        ["edge per unit bet", _r(_opt(c["edge_per_initial_bet"], "+.4%")), _r(""), "net ÷ initial bets"],
        [
            "edge per unit wagered",
            _r(_opt(c["edge_per_amount_wagered"], "+.4%")),
            _r(""),
            "net ÷ everything staked (doubles, splits, insurance, side bets)",
        ],
        ["win per hour", _r(f"{c['win_per_hour']:+.3f}"), _r(""), f"units at {rph:,} rounds an hour"],
        ["SD per hour", _r(f"{c['sd_per_hour']:.3f}"), _r(""), "units"],
        ["hours simulated", _r(f"{c['hours']:,.1f}"), _r(""), ""],
        ["rounds insured", _r(f"{int(c['insured']):,}"), _r(""), "BJ 12"],
        [
            "SCORE",
            _r(f"{c['score']:.2f}"),
            _r(""),
            "10⁶ × (EV ÷ SD)²: the win per 100 rounds of a bankroll of 10,000 bet optimally (Kelly)",
        ],
        [
            "N0",
            _r(_opt(c["n0"], ",.0f")),
            _r(""),
            "(SD ÷ EV)²: rounds until the expected win equals one SD of the result",
        ],
        ["desirability index", _r(_opt(c["desirability_index"], ".3f")), _r(""), "1000 × EV ÷ SD"],
    ]
    s.add(TableBlock(("figure", "value", "95% interval", "unit"), rows))
    bankroll, paths, path_rounds = int(ror["bankroll_units"]), int(ror["paths"]), int(ror["path_rounds"])
    ruin_rows: list[list[Cell | str]] = [
        ["formula, unlimited play", _r(_probability(ror["formula"])), "exp(−2·EV·B ÷ SD²); 1 when EV ≤ 0"],
        [
            f"formula, within {path_rounds:,} rounds",
            _r(_probability(ror["formula_within_path"])),
            "Φ((−B − EV·T) ÷ (SD·√T)) + exp(−2·EV·B ÷ SD²)·Φ((−B + EV·T) ÷ (SD·√T))",
        ],
        [
            f"simulated, within {path_rounds:,} rounds",
            _r(_simulated_ruin(ror)),
            f"share of {paths:,} paths of {path_rounds:,} rounds whose net fell to −{bankroll:,} units",
        ],
    ]
    s.add(
        TableBlock(
            ("risk of ruin", "value", "how"),
            ruin_rows,
            heading=f"Risk of ruin with a bankroll of {_units(bankroll)}",
            caption="B: the bankroll, T: the rounds of a path, Φ: the normal distribution function (the diffusion "
            "approximation with the simulated EV and SD per round).",
        )
    )
    return s


def _shown_counts(by_count: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [row for row in by_count if float(row["frequency"]) >= MIN_FREQUENCY]


def _by_count_section(out: Mapping[str, Any]) -> Section:
    setup = out["setup"]
    s = Section("By count")
    if setup["count"] is None:
        s.paragraph(
            "No count was kept (the run had no --count): every round is at count 0, so there is no EV by count "
            "and no distribution of the count to plot."
        )
        return s
    by_count = out.get("by_count") or []
    shown = _shown_counts(by_count)
    hidden = sum(float(row["frequency"]) for row in by_count if float(row["frequency"]) < MIN_FREQUENCY)
    axis = _count_axis(setup)
    s.paragraph(
        f"The count of a round is the {axis} of {setup['count']['name']} before its first card. The main bet's "
        "EV at each count is that of one unit on the counted box played by its strategy (the chart with the index "
        f"plays, insurance aside). Counts seen in fewer than {pct(MIN_FREQUENCY, 2)} of the rounds are left out of "
        f"the plot and the table ({pct(hidden, 3)} of the rounds in all)."
    )
    if shown:
        flat = float(out["house"]["main_bet"]["player_ev"])
        s.add(
            FigureBlock(
                main_by_count_figure(shown, flat, axis),
                "The player's EV on the main bet at each count, with its 95% interval; the dashed line is the "
                "EV over every round.",
                alt="main bet EV by count",
            )
        )
    ramp = _ramp(setup)
    rows: list[list[Cell | str]] = [
        [
            _r(_signed(int(row["count"]))),
            _r(f"{int(row['rounds']):,}"),
            _r(pct(row["frequency"], 3)),
            _r(pct(row["player_ev"], 3, sign=True)),
            _r(_interval(row["ci95"], "+.3f", 100)),
            _r(str(ramp.units_at(int(row["count"])))),
            _r(_share(int(row["rounds_played"]) / int(row["rounds"]), 1)),
            _r(f"{float(row['counter_net_units']):+,.1f}"),
        ]
        for row in shown
    ]
    s.add(
        TableBlock(
            (
                "count",
                "rounds",
                "frequency",
                "main bet EV",
                "95% interval (%)",
                "units bet",
                "played",
                "counter's net (units)",
            ),
            rows,
            heading="The main bet and the counter by count",
            caption="Units bet: the ramp's bet at that count when the counter plays.",
        )
    )
    sides = out["house"].get("side_bets")
    if sides and shown and all("side_bets_player_ev" in row for row in shown):
        rounds = int(out["run"]["rounds"])
        s.paragraph(
            "The house's question: can a side bet be counted? Each side bet's player EV at each count of the main "
            f"count ({setup['count']['name']}), one unit on the counted box every round. Where the EV rises above 0 "
            "a counter who bets it only there has the edge. The intervals are 95% intervals from each count's own "
            "rounds."
        )
        s.add(
            FigureBlock(
                side_by_count_figure(shown, sides, rounds, axis),
                "Each side bet's player EV by count, with its 95% interval; the dashed line is its EV "
                "over every round.",
                alt="side bets EV by count",
            )
        )
        keys = list(sides)
        s.add(
            TableBlock(
                ("count", *(SIDE_BETS.get(k, (k, ""))[0] for k in keys)),
                [
                    [
                        _r(_signed(int(row["count"]))),
                        *(_r(pct(row["side_bets_player_ev"][k], 2, sign=True)) for k in keys),
                    ]
                    for row in shown
                ],
                heading="The side bets' player EV by count",
            )
        )
    if by_count:
        s.add(
            FigureBlock(
                distribution_figure(by_count, axis),
                "How often each count occurs (every count seen); lighter bars: the counter sat out some or all "
                "of those rounds.",
                alt="distribution of the count",
            )
        )
    return s


def _paths_section(out: Mapping[str, Any]) -> Section:
    setup, c = out["setup"], out["counter"]
    s = Section("Bankroll paths")
    bankroll = int(setup["bankroll_units"])
    path_rounds = int(setup["path_rounds"])
    fan = out.get("fan")
    if not path_rounds:
        s.paragraph("No bankroll paths were dealt (the path length was 0 rounds).")
        return s
    if not fan or not fan.get("paths"):
        s.paragraph(
            f"No bankroll path of {path_rounds:,} rounds finished in the first block of the run, so there is no fan "
            "to draw."
        )
        return s
    paths = fan["paths"]
    s.paragraph(
        f"{len(paths)} paths of {path_rounds:,} rounds each (the first of the run), the counter's net from 0, "
        f"recorded every {int(fan['step_rounds']):,} rounds. Ruin is the net falling to −{bankroll:,} units, the "
        "bankroll: a path that touches it counts as ruined in the simulated risk of ruin, and is drawn on."
    )
    s.add(
        FigureBlock(
            fan_figure(paths, int(fan["step_rounds"]), bankroll, float(c["ev_per_round"]["mean"])),
            "The counter's net over a path: the 5%-95% and 25%-75% bands and the median of the paths at each point, "
            "the example paths, the expected net (EV × rounds) and the ruin line.",
            alt="fan of bankroll paths",
        )
    )
    return s


def _house_section(out: Mapping[str, Any]) -> Section:
    house = out["house"]
    s = Section("The house's figures")
    h = house["main_bet"]
    s.paragraph(
        "The house's edge on each bet per unit staked, from one unit on the counted box every round whatever the "
        "count (a flat bettor playing the counted box's strategy); positive favours the house. The main bet is "
        "settled by BJ 9-19; side bets by BJ 13-14."
    )

    def house_ci(ci: Sequence[float]) -> str:
        return f"{pct(-ci[1], 3, sign=True)} … {pct(-ci[0], 3, sign=True)}"

    rows: list[list[Cell | str]] = [
        [
            "main bet (flat)",
            _r(pct(h["house_edge"], 4, sign=True)),
            _r(house_ci(h["ci95"])),
            _r(f"{h['sd']:.4f}"),
            "BJ 9-19",
        ]
    ]
    sides = house.get("side_bets") or {}
    rounds = int(out["run"]["rounds"])
    for key, side in sides.items():
        name, rule = SIDE_BETS.get(key, (key, "BJ 13"))
        sd = float(side["se"]) * math.sqrt(rounds)
        rows.append(
            [name, _r(pct(side["house_edge"], 3, sign=True)), _r(house_ci(side["ci95"])), _r(f"{sd:.4f}"), rule]
        )
    s.add(TableBlock(("bet", "house edge", "95% interval", "SD per unit", "rule"), rows, heading="Edges"))
    res = h["results"]
    total = sum(int(v) for v in res.values())
    if total:
        s.paragraph(
            "The counted box's main bet: "
            + ", ".join(
                f"{int(res[k]):,} {word} ({pct(int(res[k]) / total, 2)})"
                for k, word in (("win", "wins"), ("push", "pushes"), ("loss", "losses"))
            )
            + f" of {total:,} rounds."
        )
    if not sides:
        s.paragraph("No side bet was settled in this run (no --side-bets and none in the ramp).")
        return s
    counter_rows: list[list[Cell | str]] = [
        [
            _side_name(key),
            _r(_opt(side["counter_bet_at"], "+d", " or more")),
            _r(f"{int(side['counter_bets']):,}"),
            _r(_opt(side["counter_ev_per_bet"], "+.3%")),
            _r(pct(-side["house_edge"], 3, sign=True)),
        ]
        for key, side in sides.items()
        if side["counter_bet_at"] is not None or side["counter_bets"]
    ]
    if counter_rows:
        s.add(
            TableBlock(
                ("side bet", "bet at count", "bets placed", "counter's EV per unit bet", "flat EV per unit"),
                counter_rows,
                heading="The counter's side bets",
                caption="The counter bets a side bet only at its count or above (the ramp); the flat EV is a bet "
                "on every round.",
            )
        )
    else:
        s.paragraph("The counter placed no side bet (the ramp names none).")
    return s


def _penetration_section(out: Mapping[str, Any]) -> Section:
    rows_in: list[Mapping[str, Any]] = list(out["penetrations"])
    s = Section("Penetration")
    s.paragraph(
        f"The same setup and seed ({int(out['run']['rounds_asked']):,} rounds each) dealt to each penetration, the "
        "share of the shoe dealt before the cut card (BJ 2.1)."
    )
    keys = [k for k in SIDE_BETS if any((row.get("side_bets") or {}).get(k) is not None for row in rows_in)]
    rows: list[list[Cell | str]] = []
    for row in rows_in:
        e = row["ev_per_round"]
        rows.append(
            [
                _r(pct(row["penetration"], 1)),
                _r(f"{e['mean']:+.5f}"),
                _r(_interval(e["ci95"], "+.5f")),
                _r(_opt(row["edge_per_initial_bet"], "+.4%")),
                _r(f"{row['score']:.2f}"),
                *(_r(_opt((row.get("side_bets") or {}).get(k), "+.3%")) for k in keys),
            ]
        )
    headers = ["penetration", "EV per round", "95% interval", "edge per unit bet", "SCORE"]
    headers += [f"{SIDE_BETS[k][0]}: counter's EV per bet" for k in keys]
    s.add(TableBlock(headers, rows))
    s.add(
        FigureBlock(
            penetration_figure(rows_in),
            "The counter's EV per 100 rounds with its 95% interval, and SCORE, against the penetration.",
            alt="EV and SCORE by penetration",
        )
    )
    return s


# -- figures --------------------------------------------------------------------------------------------------------


def main_by_count_figure(rows: Sequence[Mapping[str, Any]], overall: float, axis: str) -> Figure:
    """The main bet's player EV (%) at each count with its 95% interval as an error bar, a line at 0 and a dashed
    line at the EV over every round."""
    fig = Figure(figsize=(7.5, 3.4))
    ax = fig.add_subplot()
    x = np.asarray([int(r["count"]) for r in rows])
    y = np.asarray([float(r["player_ev"]) * 100 for r in rows])
    lo = np.asarray([float(r["ci95"][0]) * 100 for r in rows])
    hi = np.asarray([float(r["ci95"][1]) * 100 for r in rows])
    ax.errorbar(x, y, yerr=[y - lo, hi - y], fmt="o", color=_BLUE, ms=3.5, capsize=3, lw=1, label="EV, 95% interval")
    ax.axhline(0.0, color="black", lw=0.8)
    ax.axhline(overall * 100, color=_RED, lw=0.8, ls="--", label=f"every round: {overall * 100:+.3f}%")
    ax.set_xlabel(axis)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("player's EV, % of the bet")
    ax.set_title("The main bet by count", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def side_by_count_figure(
    rows: Sequence[Mapping[str, Any]], sides: Mapping[str, Mapping[str, Any]], rounds: int, axis: str
) -> Figure:
    """One small plot per side bet: its player EV (%) at each count with a 95% interval, a line at 0 and a dashed
    line at its EV over every round."""
    keys = list(sides)
    cols = min(3, len(keys))
    lines = math.ceil(len(keys) / cols)
    fig = Figure(figsize=(7.5, 2.4 * lines + 0.4))
    x = np.asarray([int(r["count"]) for r in rows])
    m = np.asarray([int(r["rounds"]) for r in rows], np.float64)
    for i, key in enumerate(keys):
        ax = fig.add_subplot(lines, cols, i + 1)
        y = np.asarray([float(r["side_bets_player_ev"][key]) * 100 for r in rows])
        if all("side_bets_se" in r for r in rows):  # each count's own standard error
            err = np.asarray([float(r["side_bets_se"][key]) for r in rows]) * Z95 * 100
        else:  # an older result: the bet's overall SD over the count's rounds
            err = Z95 * float(sides[key]["se"]) * math.sqrt(rounds) / np.sqrt(m) * 100
        ax.errorbar(x, y, yerr=err, fmt="o", color=_BLUE, ms=2.5, capsize=2, lw=0.8)
        ax.axhline(0.0, color="black", lw=0.8)
        ax.axhline(float(sides[key]["player_ev"]) * 100, color=_RED, lw=0.8, ls="--")
        ax.set_title(SIDE_BETS.get(key, (key, ""))[0], fontsize=9)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
        if i % cols == 0:
            ax.set_ylabel("player's EV, %", fontsize=7)
        if i >= len(keys) - cols:
            ax.set_xlabel(axis, fontsize=7)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    fig.tight_layout()
    return fig


def distribution_figure(rows: Sequence[Mapping[str, Any]], axis: str) -> Figure:
    """The share of rounds at each count, as bars; a bar is lighter where the counter sat out some of them."""
    fig = Figure(figsize=(7.5, 3.0))
    ax = fig.add_subplot()
    x = [int(r["count"]) for r in rows]
    y = [float(r["frequency"]) * 100 for r in rows]
    played = [int(r["rounds_played"]) == int(r["rounds"]) for r in rows]
    colours = [_BLUE if p else _BLUE_LIGHT for p in played]
    ax.bar(x, y, width=0.8, color=colours)
    if not all(played):
        handles = [
            Patch(color=_BLUE, label="the counter plays"),
            Patch(color=_BLUE_LIGHT, label="the counter sits out (some of) them"),
        ]
        ax.legend(handles=handles, fontsize=7)
    ax.set_xlabel(axis)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("% of the rounds")
    ax.set_title("How often each count occurs", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def fan_figure(paths: Sequence[Sequence[float]], step: int, bankroll: int, ev: float) -> Figure:
    """The counter's net along each path (thin), the 5/25/50/75/95 percentiles of the paths at each point (bands
    and median), the expected net and the ruin line at −``bankroll``."""
    fig = Figure(figsize=(7.5, 3.8))
    ax = fig.add_subplot()
    data = np.asarray(paths, np.float64)
    x = np.arange(data.shape[1]) * step
    for path in data:
        ax.plot(x, path, color=_GREY, lw=0.4, alpha=0.6)
    q = dict(zip(BANDS, np.percentile(data, BANDS, axis=0), strict=True))
    ax.fill_between(x, q[5], q[95], color=_BLUE_LIGHT, alpha=0.5, label="5%-95%")
    ax.fill_between(x, q[25], q[75], color=_BLUE, alpha=0.45, label="25%-75%")
    ax.plot(x, q[50], color=_BLUE_DARK, lw=1.4, label="median")
    ax.plot(x, ev * x, color="black", lw=0.8, ls="--", label="expected (EV × rounds)")
    ax.axhline(-bankroll, color=_RED, lw=1.0, ls=":", label=f"ruin: −{bankroll:,} units")
    ax.set_xlabel("rounds dealt")
    ax.set_ylabel("counter's net (units)")
    ax.set_title("Bankroll paths", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def penetration_figure(rows: Sequence[Mapping[str, Any]]) -> Figure:
    """The counter's EV per 100 rounds (with its 95% interval) and SCORE against the penetration (%)."""
    fig = Figure(figsize=(7.5, 3.0))
    ax, ax2 = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    x = np.asarray([float(r["penetration"]) * 100 for r in rows])
    y = np.asarray([float(r["ev_per_round"]["mean"]) * 100 for r in rows])
    err = np.asarray([Z95 * float(r["ev_per_round"]["se"]) * 100 for r in rows])
    ax.errorbar(x, y, yerr=err, fmt="o-", color=_BLUE, ms=3.5, capsize=3, lw=1)
    ax.axhline(0.0, color="black", lw=0.8)
    ax.set_xlabel("penetration, %")
    ax.set_ylabel("EV per 100 rounds (units)")
    ax.set_title("EV", fontsize=10)
    ax.grid(alpha=0.3)
    ax2.plot(x, [float(r["score"]) for r in rows], "o-", color=_BLUE_DARK, ms=3.5, lw=1)
    ax2.set_xlabel("penetration, %")
    ax2.set_ylabel("SCORE")
    ax2.set_title("SCORE", fontsize=10)
    ax2.grid(alpha=0.3)
    fig.tight_layout()
    return fig


__all__ = [
    "distribution_figure",
    "fan_figure",
    "main_by_count_figure",
    "penetration_figure",
    "side_by_count_figure",
    "simulation_report",
    "write_simulation_report",
]
