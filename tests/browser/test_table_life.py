"""What a table page lives through: a language switch mid-round, a dropped WebSocket that comes back by itself, a
silent restart of an empty betting window, the rules in every language and the panels on a phone (the dealer's console
is tested in test_dealer_console.py)."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from browser.support import (
    DEALER,
    SHOWN,
    check_ledger,
    expect_balance,
    join,
    on_casino_time,
    sign_in,
    spot,
    watch,
)
from server.support import ADMIN, Server

pytestmark = pytest.mark.browser

RECORD_STATES = """() => {
  const node = document.querySelector('[data-testid="conn-status"]');
  window.__states = [node.dataset.state];
  new MutationObserver(() => window.__states.push(node.dataset.state)).observe(node, {attributes: true});
}"""


def texts(page: Page) -> tuple[str, str, str]:
    """The leave button's, the phase's and the confirm button's texts."""
    return (
        page.get_by_test_id("leave").inner_text(),
        page.get_by_test_id("phase").inner_text(),
        page.get_by_test_id("confirm-bets").inner_text(),
    )


def test_language_switch_keeps_the_table(live: Server, page: Page) -> None:
    live.add_account("lou", credit=1_000)
    sign_in(page, live, "lou")
    join(page, "ro-lang")
    page.get_by_test_id("chip-10").click()
    spot(page, "black").click()
    page.get_by_test_id("confirm-bets").click()
    expect_balance(page, 990)
    spot(page, "straight", numbers="5").click()  # a pending chip, not sent
    expect(page.get_by_test_id("confirm-bets")).to_have_attribute("data-total", "10")
    page.evaluate("() => { window.__same_page = true; }")
    url = page.url
    english = texts(page)

    seen = [english]
    for lang in ("zh-Hant", "pt"):
        page.get_by_test_id("lang-select").select_option(lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.get_by_test_id("leave")).not_to_have_text(seen[-1][0])
        now = texts(page)
        assert all(a != b for a, b in zip(now, seen[-1], strict=True)), (now, seen[-1])
        seen.append(now)
        # The table is as it was: same page, same round, the bet on the layout and the pending chip.
        assert page.evaluate("() => window.__same_page === true")
        assert page.url == url
        expect(spot(page, "black").locator(".chip-mark")).to_have_text("10")
        expect(spot(page, "straight", numbers="5").locator(".chip-mark")).to_have_text("10")
        expect(page.get_by_test_id("confirm-bets")).to_have_attribute("data-total", "10")
        expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "betting")
        expect_balance(page, 990)
        expect(page.get_by_test_id("conn-status")).to_have_attribute("data-state", "open")
    assert len({s[0] for s in seen}) == 3, seen


def test_reconnect_mid_round(live: Server, page: Page) -> None:
    """The table's WebSocket drops while a bet stands; the round is spun meanwhile; the page reconnects by itself
    and shows what happened."""
    sockets: list[tuple[WebSocketRoute, WebSocketRoute]] = []
    down = False

    def route(ws: WebSocketRoute) -> None:
        if down:  # the server is unreachable: every new connection is closed at once
            ws.close(code=1013, reason="try again later")
            return
        sockets.append((ws, ws.connect_to_server()))

    page.route_web_socket(re.compile(r"/ws/tables/"), route)
    live.add_account("rex", credit=1_000)
    sign_in(page, live, "rex")
    join(page, "ro-recon")
    page.get_by_test_id("chip-10").click()
    spot(page, "straight", numbers="17").click()
    spot(page, "odd").click()
    page.get_by_test_id("confirm-bets").click()
    expect_balance(page, 980)
    expect(spot(page, "odd").locator(".chip-mark")).to_have_text("10")
    page.evaluate(RECORD_STATES)

    down = True
    for client, server in sockets:  # the server goes away mid-round
        server.close(code=1001, reason="going away")
        client.close(code=1001, reason="going away")
    expect(page.get_by_test_id("conn-status")).not_to_have_attribute("data-state", "open", timeout=SHOWN)
    live.close_betting("ro-recon", DEALER)  # meanwhile the dealer rings the bell and spins 17
    r = live.client.post("/api/tables/ro-recon/results", json={"result": 17}, headers=live.login(DEALER))
    assert r.status_code == 200, r.text
    assert live.wallet("rex") == 1_000 + 350 + 10  # 17 straight up pays 35 to 1, odd 1 to 1

    down = False
    expect(page.get_by_test_id("conn-status")).to_have_attribute("data-state", "open", timeout=SHOWN)
    states: list[str] = page.evaluate("() => window.__states")
    assert "closed" in states and states[-1] == "open", states
    expect(page.get_by_test_id("winning-number")).to_have_attribute("data-number", "17", timeout=SHOWN)
    expect_balance(page, live.wallet("rex"))
    # The settlement missed while away comes from the player's own rounds: losers first, then the winners.
    settlement = page.get_by_test_id("settlement")
    expect(settlement.locator("[data-net]")).to_have_count(2, timeout=SHOWN)
    expect(settlement.locator('[data-net="10"][data-bet="odd"]')).to_have_count(1)
    expect(settlement.locator('[data-net="350"][data-bet="straight"]')).to_have_count(1)
    expect(settlement.locator("[data-total]")).to_have_attribute("data-total", "360")
    live.run_out("ro-recon")  # the result moment's pause ends: the next window opens, the strip shows 17
    expect(page.get_by_test_id("last-results").locator('[data-number="17"]').first).to_be_visible(timeout=SHOWN)
    check_ledger(live, "rex")


def test_countdown_follows_a_silent_restart(live: Server, page: Page) -> None:
    """A window with no bet starts again at its end without an event: at 0 the page re-reads the table and counts
    down the new window."""
    live.add_account("ida", credit=1_000)
    # The page's clock starts at the casino's time: earlier tests may have moved the casino's clock ahead of the wall
    # clock, and the page would otherwise count down that difference too, in real time.
    on_casino_time(page, live)
    sign_in(page, live, "ida")
    join(page, "ro-idle")
    countdown = page.get_by_test_id("countdown")
    # The page counts the 3 s window down on its own clock (the casino's stands still meanwhile).
    view = live.client.get("/api/tables/ro-idle", headers=live.login(ADMIN)).json()
    left = max(0.0, (datetime.fromisoformat(view["deadline"]) - live.advance(0)).total_seconds())
    expect(countdown).to_have_attribute("data-seconds", "0", timeout=SHOWN + 1_000 * left)
    # The casino's clock passes the window's end (by 30 s, so that the next window shows 30 s and more on the page's
    # clock): the window starts again, silently.
    live.advance(30)
    expect(countdown).to_have_attribute("data-seconds", re.compile(r"^[1-9]"), timeout=SHOWN)
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "betting")


CONTRAST = """(node) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const style = getComputedStyle(node);
  const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def test_rules_read_as_sentences_and_the_winning_number_stands_out(live: Server, page: Page) -> None:
    """Every rule of every game is a translated sentence (no raw option name, placeholder or object) in each
    language; a nested paytable is a small table; the winning number has AA contrast on the layout."""
    live.add_account("ren", credit=1_000)
    sign_in(page, live, "ren")
    raw = re.compile(r"\{\w+\}|\[object|\b[a-z]+_[a-z_]+\b|: —")
    for table in ("bj-rng", "sb-rng", "ro-idle"):
        join(page, table)
        panel = page.get_by_test_id("rules-panel")
        expect(panel).to_have_attribute("open", "")
        summary = panel.get_by_test_id("rules-summary").locator("li")
        expect(summary.first).to_be_visible(timeout=SHOWN)
        lines = panel.locator(".rules-text > li")
        expect(lines.first).to_be_hidden()  # the full listing is behind the "more"
        panel.get_by_test_id("rules-more").locator("summary").click()
        expect(lines.first).to_be_visible()
        for lang in ("en", "pt", "zh-Hant"):
            page.get_by_test_id("lang-select").select_option(lang)
            expect(page.locator("html")).to_have_attribute("lang", lang)
            expect(lines.first).to_be_visible()  # the "more" stays open across a language switch
            for text in lines.all_inner_texts() + summary.all_inner_texts():
                assert not raw.search(text), (table, lang, text)
        if table == "bj-rng":
            expect(panel.locator('[data-key="blackjack.rule.paytables"] .sub-paytable')).to_be_visible()
        if table == "sb-rng":
            expect(panel.locator('.paytable tr[data-bet="total"] .sub-paytable tr')).to_have_count(14)
        page.get_by_test_id("lang-select").select_option("en")
        page.get_by_test_id("leave").click()
        expect(page.get_by_test_id("table-card").first).to_be_visible()
    join(page, "ro-rng")
    page.get_by_test_id("chip-10").click()
    spot(page, "red").click()
    page.get_by_test_id("confirm-bets").click()
    expect_balance(page, 990)
    live.run_out("ro-rng")
    expect(page.locator('[data-testid="settlement"] [data-net]')).to_have_count(1, timeout=30_000)
    cell = page.locator(".ro-board .num.win")
    expect(cell).to_have_count(1)
    assert cell.evaluate(CONTRAST) >= 4.5


def test_the_panels_start_folded_on_a_phone(live: Server, browser: Browser) -> None:
    live.add_account("pia", credit=1_000)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="en-GB")
    ctx.set_default_timeout(SHOWN)
    try:
        phone = watch(ctx.new_page())
        sign_in(phone, live, "pia")
        join(phone, "ro-idle")
        for panel in ("rules-panel", "recall-panel"):
            expect(phone.get_by_test_id(panel)).to_be_attached()
            expect(phone.get_by_test_id(panel)).not_to_have_attribute("open", "")
        phone.get_by_test_id("rules-panel").locator("> summary").click()
        expect(phone.get_by_test_id("rules-summary").locator("li").first).to_be_visible()
        phone.get_by_test_id("rules-more").locator("summary").click()
        expect(phone.get_by_test_id("rules-panel").locator(".rules-text > li").first).to_be_visible()
    finally:
        ctx.close()
