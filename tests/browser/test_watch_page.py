"""Issue 18, the bias watch's page (js/watch.js): an admin reaches it from the header, chooses a live sic bo table
whose dealer reported the rolls of a shaker loaded on the six, and reads the verdict (flagged), the sequential
chi-square drawn with its critical line, the six furthest from expectation and the rounds needed, in every language;
a deep link runs it at once; axe-core finds no blocking violation; a player has no link, and the page shows the
server's refusal. (Sic bo: 10 rolls are enough to test, where a wheel needs 185 spins, and the dealer's two commands
a round stay within the per-account command rate; tests/service/test_bias_watch.py plays the wheel.)"""

from __future__ import annotations

import re

import numpy as np
import pytest
from playwright.sync_api import Page, expect

from browser.support import DEALER, SHOWN, assert_accessible, report, sign_in
from croupier.rng.watch import alternative
from server.support import ADMIN, Server

pytestmark = pytest.mark.browser

TABLE = "sb-watch"
ROLLS = 24  # the chi-square needs 10 (5 expected per face)
HOT = 6


def roll_loaded_shaker(server: Server) -> list[list[int]]:
    """A live table of the test's own; a player bets and the dealer reports each roll of dice loaded on the six."""
    body = {"table_id": TABLE, "game": "sicbo", "live": True, "dealers": [DEALER], "result_display_seconds": 0}
    r = server.client.post("/api/tables", json=body, headers=server.login(ADMIN))
    assert r.status_code == 201, r.text
    server.add_account("wanda", credit=100_000)
    law = np.roll(alternative("sicbo", 0.5), HOT - 1)  # each die shows the six half the time
    rolls = [[int(d) + 1 for d in roll] for roll in np.random.default_rng(11).choice(6, size=(ROLLS, 3), p=law)]
    for dice in rolls:
        stake = {"type": "big", "amount": 10}
        bet = server.client.post(f"/api/tables/{TABLE}/bets", json=stake, headers=server.as_("wanda"))
        assert bet.status_code == 201, bet.text
        server.close_betting(TABLE, DEALER)
        report(server, TABLE, dice)
    return rolls


def test_an_admin_reads_the_watch_of_a_loaded_wheel(live: Server, page: Page) -> None:
    rolls = roll_loaded_shaker(live)
    sign_in(page, live, ADMIN)
    link = page.get_by_test_id("watch-link")
    expect(link).to_be_visible()
    expect(link).to_have_text("Bias watch")
    link.click()
    expect(page).to_have_url(re.compile(r"#/watch$"))
    assert_accessible(page, "bias watch: the form")
    page.get_by_test_id("watch-table").fill(TABLE)
    page.get_by_test_id("watch-last").fill(str(ROLLS))
    page.get_by_test_id("watch-run").click()

    verdict = page.get_by_test_id("watch-verdict")
    expect(verdict).to_have_attribute("data-verdict", "fail", timeout=SHOWN)
    expect(verdict).to_contain_text("Flagged")
    expect(page).to_have_url(re.compile(rf"#/watch/{TABLE}$"))
    summary = page.get_by_test_id("watch-summary")
    expect(summary).to_contain_text(f"{ROLLS} rolls of 3 dice")
    expect(summary).to_contain_text("5 degrees of freedom")
    plot = page.get_by_test_id("watch-plot")
    expect(plot).to_be_visible()
    assert int(plot.get_attribute("data-points") or 0) >= 2
    points = page.get_by_test_id("watch-series").get_attribute("points") or ""
    assert len(points.split()) == int(plot.get_attribute("data-points") or 0)
    expect(page.get_by_test_id("watch-critical")).to_be_attached()
    first = page.get_by_test_id("watch-cell").first
    expect(first).to_have_attribute("data-cell", str(HOT))
    expect(first.locator("td").first).to_have_text(str(sum(roll.count(HOT) for roll in rolls)))
    needed = page.get_by_test_id("watch-needed")
    expect(needed).to_have_attribute("data-rounds", "163")  # a face at 1.5/6, power 0.9, alpha 0.01
    expect(needed).to_contain_text("163 rolls")
    assert_accessible(page, "bias watch: a flagged table")

    for lang, word in (("pt", "Alerta"), ("zh-Hant", "警示")):
        page.get_by_test_id("lang-select").select_option(lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(verdict).to_contain_text(word)
        expect(link).to_have_text("Vigilância de enviesamento" if lang == "pt" else "偏差監察")
        assert_accessible(page, f"bias watch, {lang}")
    page.get_by_test_id("lang-select").select_option("en")
    expect(verdict).to_contain_text("Flagged")

    # a deep link runs the watch at once, with the window the test needs (here: all the table has)
    page.goto(f"{live.base}/#/watch/{TABLE}")
    page.reload()
    expect(page.get_by_test_id("watch-verdict")).to_have_attribute("data-verdict", "fail", timeout=SHOWN)
    expect(page.get_by_test_id("watch-table")).to_have_value(TABLE)


def test_a_player_has_no_link_and_is_refused(live: Server, page: Page) -> None:
    live.add_account("wim", credit=1_000)
    sign_in(page, live, "wim")
    expect(page.get_by_test_id("watch-link")).to_be_hidden()
    page.goto(f"{live.base}/#/watch/sb-rng")
    page.reload()
    expect(page.get_by_test_id("watch-error")).to_contain_text("admin", timeout=SHOWN)
