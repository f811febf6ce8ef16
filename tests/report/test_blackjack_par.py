"""The blackjack PAR sheet (issues 4 and 16): one self-contained HTML report with the rules and the options needing
approval, every bet's exact edge, the player-favoured warning with its causes, the per-round distribution, the
amount wagered, the side bets' outcome tables, the hold ranges, the cut card's effect, the strategy chart, the
rule effects, a Monte Carlo confirmation, the rules' fingerprint and a sign-off block."""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from croupier.analysis.blackjack_math import RuleEffect
from croupier.analysis.ca import analyse
from croupier.analysis.simulate import basic_chart
from croupier.blackjack.rules import STATUTE, DealingDevice
from croupier.report.blackjack_bets import main_bet_warning
from croupier.report.blackjack_sim import cut_card_section, sample_rounds, table_run
from croupier.report.html import Report
from support import invoke, write

from .conftest import check_html


def section(html: str, anchor: str) -> str:
    return html.split(f'<section id="{anchor}"', 1)[1].split("</section>", 1)[0]


def test_the_statute_sheet_is_complete_and_warns(tmp_path: Path) -> None:
    out, pdf = tmp_path / "bj.html", tmp_path / "bj.pdf"
    result = invoke(
        "par", "blackjack", "--out", str(out), "--pdf", str(pdf), "--rounds", "300000", "--seed", "3",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    check_html(html)
    edge = f"{analyse(STATUTE).house_edge * 100:.4f}%"
    assert edge == "-0.5057%" and edge in html  # the exact composition-dependent edge: the player's
    warning = html.split('<div class="warning" role="alert">', 1)[1].split("</div>", 1)[0]
    assert warning.startswith("The main bet favours the player: house edge -0.5057% (composition-dependent)")
    assert "five_card_payment = true (BJ 19; false gives +0.19" in warning
    assert "double_on = any_two (BJ 17.1; eleven gives +0.16" in warning
    assert "surrender" not in warning  # its flip alone leaves the player the edge
    for part in (
        "Rules", "Basic strategy", "Rule effects", "Monte Carlo confirmation", "any pair", "perfect pairs",
        "over 13", "under 13", "sevens", "streak 5", "insurance", "Hard totals", "data:image/png;base64,",
        "Distribution of the net (simulated)", "95% interval (Wilson)", "Cut-card effect", "shoe to the cut card",
        "Side bets: paytables and outcomes", "Hold ranges", "Sign-off", "The canonical rules document",
    ):  # fmt: skip
        assert part in html, part
    per_round = section(html, "main-bet-result-per-round")
    shares = [float(x) for x in re.findall(r'<td class="r">[-+]?[\d.]+</td><td class="r">[\d,]+</td>'
                                           r'<td class="r">([\d.]+)</td>', per_round)]  # fmt: skip
    assert len(shares) >= 12 and math.isclose(sum(shares), 1.0, abs_tol=1e-5)
    assert re.search(r"<td>main bet, basic strategy</td><td class=\"r\">1\.1[0-9]{3} ± 0\.00[0-9]{2}</td>", per_round)
    holds = section(html, "hold-ranges")
    assert '<td>main bet, basic strategy</td><td class="r">1,000</td><td>normal approx.</td>' in holds
    assert '<td>sevens</td><td class="r">1,000</td><td>exact</td>' in holds
    sides = section(html, "side-bets-paytables-and-outcomes")
    assert '<td>any pair (offered)</td><td>pair</td><td class="r">+11</td>' in sides
    assert "+10.3614% = 43/415" in sides  # Any Pair at 11 to 1 from 8 decks: 1 − 12·(31/415)
    assert "perfect pairs (not offered)" in sides
    digest = hashlib.sha256(invoke("rules", "show", "blackjack", "--preset", "statute", "--json").output.encode())
    assert digest.hexdigest() in html
    assert "2 of 2 exact figures lie inside" in html
    assert pdf.read_bytes()[:5] == b"%PDF-"


def test_a_house_friendly_table_has_no_warning(tmp_path: Path) -> None:
    out = tmp_path / "bj.html"
    path = write(tmp_path, "house.toml", 'game = "blackjack"\nfive_card_payment = false\n')
    result = invoke("par", "blackjack", "--rules", str(path), "--out", str(out), "--rounds", "0")
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    check_html(html)
    edge = analyse(replace(STATUTE, five_card_payment=False)).house_edge
    assert edge > 0 and f"{edge * 100:.4f}%" in html
    assert 'role="alert"' not in html
    assert f"croupier rules show blackjack --rules {path} --json | sha256sum" in html
    assert "No simulation (--rounds 0)" in html and 'id="monte-carlo-confirmation"' not in html


def test_no_single_option_then_the_fewest_together() -> None:
    one_deck = replace(STATUTE, decks=1)  # about −0.86%: neither flip alone gives the house the edge
    effects = [
        RuleEffect("surrender", "true", "false", "BJ 18", -0.0062, 0.0024),
        RuleEffect("five_card_payment", "true", "false", "BJ 19", -0.0016, 0.0070),
        RuleEffect("double_on", "any_two", "eleven", "BJ 17.1", -0.0019, 0.0067),
    ]
    text = main_bet_warning(one_deck, -0.0086, -0.0080, effects)
    assert text is not None and "No option alone turns it; together five_card_payment = true → false (BJ 19)" in text
    assert "double_on = any_two → eleven (BJ 17.1)" in text and "surrender" not in text and "(exact)" in text
    assert main_bet_warning(one_deck, 0.001, 0.002, effects) is None


def test_simulated_parts_and_a_shuffler() -> None:
    chart = basic_chart()
    run = table_run(STATUTE, chart, 50_000, 5, continuous=True)
    again = table_run(STATUTE, chart, 50_000, 5, continuous=True)
    assert run == replace(again, seconds=run.seconds)
    assert 1.05 < run.amount < 1.2 and run.amount_max == 8 and run.rounds_per_shoe is None
    assert run.wins + run.pushes + run.losses == 50_000 and 1.0 < run.sd < 1.3
    shoe = table_run(STATUTE, chart, 50_000, 5, continuous=False)
    assert shoe.rounds_per_shoe is not None and 50 < shoe.rounds_per_shoe < 70
    sample = sample_rounds(STATUTE, chart, 60_000, 5)  # more than one chunk of shuffles
    assert sample.rounds == sum(sample.counts) == 60_000
    assert (
        sample.nets == tuple(sorted(sample.nets)) and Fraction(3, 2) in sample.nets and Fraction(-1, 2) in sample.nets
    )
    assert sample == sample_rounds(STATUTE, chart, 60_000, 5)
    values, weights = sample.shares()
    assert abs(float(values @ weights) - run.mean) < 0.03  # two simulations of one chart agree
    shuffler = replace(STATUTE, dealing_device=DealingDevice.SHUFFLER)
    text = Report("R").add(cut_card_section(shuffler, run, None, 0.004, "")).html()
    assert "deal from a shuffler" in text and "no cut card" in text
