"""Roulette and sic bo pages at casino-floor grade (issue 14): undo never stages a confirmed bet again, chips still
unconfirmed at the bell are named and taken off, the result moment stays on screen (on a phone too) until the next
window opens, the history boards show the server's statistics, the wheel and the dice move unless the person asked
for reduced motion, sounds play unless muted, the layout is one tab stop with arrow keys and shortcuts, every target
on a phone is at least 32 px, and a dealer or an admin watching gets no player controls.

Each test opens its own live tables, so that the dealer rings the bell and reports the result (chosen by the test):
the casino's manual clock moves only past the result moment's pause (``result_display_seconds``)."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from browser.support import (
    DEALER,
    DESKTOP,
    SHOWN,
    assert_accessible,
    check_ledger,
    expect_balance,
    join,
    on_casino_time,
    report,
    settled_round,
    sign_in,
    spot,
    watch,
)
from croupier.server.ui import WEB
from server.support import ADMIN, Server

pytestmark = pytest.mark.browser


def new_table(live: Server, game: str, *, betting: float = 60, **options: Any) -> str:
    """A fresh live table of ``game`` (its dealer :data:`DEALER`), its window ``betting`` seconds long."""
    table = f"{game[:2]}-{uuid.uuid4().hex[:8]}"
    body = {"table_id": table, "game": game, "live": True, "dealers": [DEALER], "betting_seconds": betting, **options}
    r = live.client.post("/api/tables", json=body, headers=live.login(ADMIN))
    assert r.status_code == 201, r.text
    return table


def bet(live: Server, table: str, player: str, body: dict[str, Any]) -> None:
    """``player`` bets over REST (another device)."""
    r = live.client.post(f"/api/tables/{table}/bets", json=body, headers=live.as_(player))
    assert r.status_code == 201, r.text


def spin(live: Server, table: str, result: Any) -> dict[str, Any]:
    """The dealer rings the bell and reports ``result`` (a pocket or dice): the round settles and the table shows
    its result until the next window; the table's view after."""
    live.close_betting(table, DEALER)
    report(live, table, result)
    view: dict[str, Any] = live.client.get(f"/api/tables/{table}", headers=live.login(ADMIN)).json()
    assert view["status"] == "settled", view
    return view


def next_window(live: Server, table: str) -> None:
    """The result moment's pause runs out: the next betting window opens."""
    live.run_out(table)
    view = live.client.get(f"/api/tables/{table}", headers=live.login(ADMIN)).json()
    assert view["status"] == "betting", view


def pay(live: Server, table: str, kind: str) -> str:
    """A bet kind's payout as the page writes it (the table's own rules, GET /rules): "35:1"."""
    rules = live.client.get(f"/api/tables/{table}/rules", headers=live.login(ADMIN)).json()
    payout = next(b["payout"] for b in rules["bets"] if b["kind"] == kind)
    return str(payout).replace("/", ":") if "/" in str(payout) else f"{payout}:1"


def mark(page: Page, bet: str, **data: str) -> Any:
    """The chip mark on a spot."""
    return spot(page, bet, **data).locator(".chip-mark")


@pytest.fixture
def calm(browser: Browser) -> Iterator[Page]:
    """A desktop page whose person asked for reduced motion."""
    ctx = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
    ctx.set_default_timeout(SHOWN)
    yield watch(ctx.new_page())
    ctx.close()


# -- item 1: undo after confirm -------------------------------------------------------------------------------------


def test_undo_after_confirm_stages_nothing_again(live: Server, page: Page) -> None:
    table = new_table(live, "roulette")
    live.add_account("uma", credit=1_000)
    sign_in(page, live, "uma")
    join(page, table)
    assert_accessible(page, "roulette: betting")
    page.get_by_test_id("chip-10").click()
    spot(page, "straight", numbers="5").click()
    spot(page, "straight", numbers="6").click()
    undo = page.get_by_test_id("undo")
    expect(undo).to_be_enabled()
    page.get_by_test_id("confirm-bets").click()
    expect_balance(page, 980)
    # Confirmed: nothing to undo, and pressing it (or its shortcut) stages nothing.
    expect(undo).to_be_disabled()
    page.keyboard.press("u")
    page.keyboard.press("Control+z")
    expect(page.get_by_test_id("confirm-bets")).to_have_attribute("data-total", "0")
    expect(page.locator(".slip-list.pending")).to_have_count(0)
    expect(page.locator(".slip-list.placed li")).to_have_count(2)
    # A chip laid after the confirmation is the only one undo takes back.
    spot(page, "straight", numbers="7").click()
    expect(page.get_by_test_id("confirm-bets")).to_have_attribute("data-total", "10")
    # More than five seconds left: no warning yet (the window is a minute long).
    expect(page.get_by_test_id("unconfirmed-warning")).to_be_hidden()
    assert_accessible(page, "roulette: chips laid")
    undo.click()
    expect(page.get_by_test_id("confirm-bets")).to_have_attribute("data-total", "0")
    expect(mark(page, "straight", numbers="7")).to_be_hidden()
    expect(mark(page, "straight", numbers="5")).to_have_attribute("data-amount", "10")
    expect(undo).to_be_disabled()
    page.get_by_test_id("confirm-bets").click(force=True)  # disabled: nothing is sent
    expect_balance(page, 980)

    spin(live, table, 5)
    expect(page.locator('[data-testid="settlement"] [data-net]')).to_have_count(2)
    record = settled_round(live, table, "uma")
    assert len(record["nets"]) == 2 and sum(record["nets"].values()) == 350 - 10
    expect_balance(page, 1_000 + 340)
    check_ledger(live, "uma")

    # The next window: R repeats the last round's bets, C confirms them.
    next_window(live, table)
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "betting")
    page.keyboard.press("r")
    expect(page.get_by_test_id("confirm-bets")).to_have_attribute("data-total", "20")
    page.keyboard.press("c")
    expect_balance(page, 1_340 - 20)
    expect(undo).to_be_disabled()
    assert live.wallet("uma") == 1_320


# -- item 2: chips not confirmed at the bell -----------------------------------------------------------------------


def test_unconfirmed_chips_are_named_and_taken_off_at_the_bell(live: Server, page: Page) -> None:
    on_casino_time(page, live)  # the window's last seconds are the casino's, whatever earlier tests did to its clock
    table = new_table(live, "sicbo", betting=4)
    live.add_account("ugo", credit=1_000)
    sign_in(page, live, "ugo")
    join(page, table)
    page.get_by_test_id("chip-10").click()
    spot(page, "big").click()
    page.get_by_test_id("confirm-bets").click()
    expect_balance(page, 990)
    spot(page, "total", values="10").click()
    spot(page, "single", values="3").click()
    spot(page, "single", values="3").click()
    # The window's last seconds: the chips still waiting for Confirm are pointed out.
    warning = page.get_by_test_id("unconfirmed-warning")
    expect(warning).to_be_visible()
    expect(warning).to_have_attribute("data-count", "2")
    expect(warning).to_contain_text("Confirm")
    assert_accessible(page, "sic bo: the last seconds")

    spin(live, table, [4, 5, 6])  # big wins
    notice = page.get_by_test_id("unplaced-notice")
    expect(notice).to_be_visible()
    expect(notice.locator('li[data-key="total:10"][data-amount="10"]')).to_contain_text("Total 10")
    expect(notice.locator('li[data-key="single:3"][data-amount="20"]')).to_contain_text("Single number 3")
    expect(notice.locator("li")).to_have_count(2)
    expect(warning).to_be_hidden()
    # Off the layout: nothing pending, no mark, nothing to confirm; only the big bet was played.
    expect(mark(page, "total", values="10")).to_be_hidden()
    expect(mark(page, "single", values="3")).to_be_hidden()
    expect(mark(page, "big")).to_have_attribute("data-amount", "10")
    expect(page.get_by_test_id("confirm-bets")).to_have_attribute("data-total", "0")
    record = settled_round(live, table, "ugo")
    assert list(record["nets"].values()) == [10]
    expect_balance(page, 1_010)
    check_ledger(live, "ugo")
    expect(page.get_by_test_id("result-moment")).to_be_visible()
    assert_accessible(page, "sic bo: the bell's notice and the result moment")

    # The notice stays through the result moment and goes when the next window opens; no chip came along.
    next_window(live, table)
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "betting")
    expect(notice).to_be_hidden()
    expect(page.locator('[data-testid="spot"] .chip-mark:not([hidden])')).to_have_count(0)
    expect(page.get_by_test_id("confirm-bets")).to_have_attribute("data-total", "0")

    # Again, and dismissed by the player this time.
    spot(page, "big").click()
    page.get_by_test_id("confirm-bets").click()
    expect_balance(page, 1_000)
    spot(page, "small").click()
    spin(live, table, [1, 2, 3])
    expect(notice.locator('li[data-key="small:"]')).to_have_count(1)
    page.get_by_test_id("unplaced-dismiss").click()
    expect(notice).to_be_hidden()
    expect_balance(page, 1_000)
    assert live.wallet("ugo") == 1_000
    check_ledger(live, "ugo")


# -- items 4 and 10: the result moment on a phone, targets of 32 px -----------------------------------------------

TOO_SMALL = """(root) => [...root.querySelectorAll('button, [data-testid="spot"], summary')]
  .filter((b) => b.getClientRects().length)
  .map((b) => {
    const r = b.getBoundingClientRect();
    return [b.dataset.testid || b.className, b.dataset.key || '', r.width, r.height];
  })
  .filter(([, , w, h]) => w < 32 || h < 32)"""


def test_result_moment_on_a_phone(live: Server, phone: Page) -> None:
    table = new_table(live, "roulette")
    live.add_account("pam", credit=1_000)
    sign_in(phone, live, "pam")
    join(phone, table)
    assert phone.locator(".game-root").evaluate(TOO_SMALL) == []
    assert_accessible(phone, "roulette on a phone: betting")
    phone.get_by_test_id("chip-10").click()
    # A long press shows a spot's payout and what it covers, and lays no chip.
    six = spot(phone, "six_line", numbers="4,5,6,7,8,9")
    six.scroll_into_view_if_needed()
    six.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True})
    expect(phone.get_by_test_id("spot-tip")).to_contain_text(f"pays {pay(live, table, 'six_line')}")
    expect(phone.locator(".ro-board .num.covered")).to_have_count(6)
    six.dispatch_event("pointerup", {"pointerType": "touch", "isPrimary": True})
    six.dispatch_event("click")
    expect(phone.get_by_test_id("confirm-bets")).to_have_attribute("data-total", "0")
    six.dispatch_event("pointerleave", {"pointerType": "touch"})
    # The chips stay at hand beside the layout while it scrolls.
    spot(phone, "split", numbers="20,23").click()
    expect(phone.get_by_test_id("chip-10")).to_be_in_viewport()
    spot(phone, "straight", numbers="17").click()
    spot(phone, "red").click()
    expect(phone.get_by_test_id("chip-10")).to_be_in_viewport()
    phone.get_by_test_id("confirm-bets").click()
    expect_balance(phone, 970)

    spin(live, table, 17)  # black: the straight pays 35 to 1, the split and red lose
    moment = phone.get_by_test_id("result-moment")
    expect(moment).to_be_in_viewport(ratio=1)
    expect(moment.get_by_test_id("moment-number")).to_have_attribute("data-number", "17")
    banner = phone.get_by_test_id("win-banner")
    expect(banner).to_have_attribute("data-amount", str(350 - 20))
    expect(banner).to_be_in_viewport(ratio=1)
    expect(banner).to_contain_text("You won")
    expect(moment.locator(".moment-lines [data-net]")).to_have_count(3)
    assert_accessible(phone, "roulette on a phone: the result moment")
    expect_balance(phone, 1_000 + 330)
    assert live.wallet("pam") == 1_330
    check_ledger(live, "pam")

    # It stays through the pause (the next window's seconds counted down), whatever the player scrolls to ...
    expect(moment.get_by_test_id("moment-next")).to_have_attribute("data-seconds", re.compile(r"^[0-9]+$"))
    live.advance(1)
    phone.get_by_test_id("last-results").scroll_into_view_if_needed()
    expect(moment).to_be_in_viewport(ratio=1)
    expect(phone.get_by_test_id("phase")).to_have_attribute("data-phase", "settled")
    # ... and goes when the next window opens.
    next_window(live, table)
    expect(phone.get_by_test_id("phase")).to_have_attribute("data-phase", "betting")
    expect(moment).to_be_hidden()
    assert phone.locator(".game-root").evaluate(TOO_SMALL) == []


def test_sicbo_targets_on_a_phone(live: Server, phone: Page) -> None:
    table = new_table(live, "sicbo")
    live.add_account("phi", credit=1_000)
    sign_in(phone, live, "phi")
    join(phone, table)
    expect(spot(phone, "total", values="17")).to_be_attached()
    assert phone.locator(".game-root").evaluate(TOO_SMALL) == []
    phone.get_by_test_id("chip-10").click()
    spot(phone, "single", values="6").click()
    expect(phone.get_by_test_id("chip-10")).to_be_in_viewport()
    expect(phone.get_by_test_id("confirm-bets")).to_be_in_viewport()
    assert_accessible(phone, "sic bo on a phone: a chip laid")


def test_losing_round_moment_and_closing_it(live: Server, page: Page) -> None:
    table = new_table(live, "sicbo")
    live.add_account("lev", credit=1_000)
    sign_in(page, live, "lev")
    join(page, table)
    page.get_by_test_id("chip-10").click()
    spot(page, "small").click()
    page.get_by_test_id("confirm-bets").click()
    expect_balance(page, 990)
    spin(live, table, [2, 2, 2])  # a triple: small loses (SB 7)
    moment = page.get_by_test_id("result-moment")
    expect(moment.get_by_test_id("moment-dice")).to_have_attribute("data-dice", "2,2,2")
    expect(moment.get_by_test_id("moment-net")).to_have_attribute("data-amount", "-10")
    expect(moment.get_by_test_id("moment-net")).to_contain_text("You lost")
    expect(page.get_by_test_id("win-banner")).to_have_count(0)
    expect(moment).to_be_in_viewport(ratio=1)
    page.keyboard.press("Escape")
    expect(moment).to_be_hidden()
    expect(page.get_by_test_id("dice")).to_have_attribute("data-dice", "2,2,2")  # the side panel keeps the roll
    check_ledger(live, "lev")


# -- item 6: the history boards ---------------------------------------------------------------------------------------


def play_rounds(live: Server, table: str, player: str, body: dict[str, Any], results: list[Any]) -> None:
    """``player`` bets ``body`` in each round over REST; the dealer reports each of ``results``."""
    for result in results:
        bet(live, table, player, body)
        spin(live, table, result)
        next_window(live, table)


def test_sicbo_boards_show_the_servers_roads(live: Server, page: Page) -> None:
    table = new_table(live, "sicbo")
    live.add_account("bob", credit=1_000)
    rolls = [[1, 1, 2], [6, 5, 4], [3, 3, 3], [1, 2, 4], [2, 2, 3], [6, 6, 5], [5, 5, 1]]
    play_rounds(live, table, "bob", {"type": "big", "amount": 10}, rolls)
    history = live.client.get(f"/api/tables/{table}/history?last=100", headers=live.login(ADMIN)).json()
    stats = history["stats"]

    sign_in(page, live, "bob")
    join(page, table)
    road = page.get_by_test_id("size-road")
    cells = road.locator(".road-cell")
    expect(cells).to_have_count(7)
    values = cells.evaluate_all("(cs) => cs.map((c) => c.dataset.value)")
    assert values == [c["value"] for column in stats["size_road"] for c in column]
    assert values == ["small", "big", "triple", "small", "small", "big", "big"]
    expect(road.locator('.road-cell[data-triple="true"]')).to_have_count(1)
    expect(page.get_by_test_id("parity-road").locator(".road-cell")).to_have_count(7)
    expect(page.get_by_test_id("parity-road").locator('.road-cell[data-triple="true"]')).to_have_attribute(
        "data-value", "odd"
    )
    expect(page.get_by_test_id("triple-count")).to_have_attribute("data-count", "1")
    expect(page.get_by_test_id("triple-count")).to_have_text("1 triple")
    # The dice of each roll, newest first.
    newest = page.get_by_test_id("last-results").locator("li").first
    expect(newest).to_have_attribute("data-dice", "5,5,1")
    expect(newest.locator(".die")).to_have_count(3)
    for name, pct in (*stats["size_pct"].items(), *stats["parity_pct"].items()):
        expect(page.get_by_test_id("big-small-stats").locator(f'[data-name="{name}"]')).to_have_attribute(
            "data-pct", str(pct)
        )
    expect(page.get_by_test_id("big-small-stats")).to_contain_text("Over the last 7 rolls")
    assert_accessible(page, "sic bo: the boards")
    # Counts read in the plural they need: "1 die", never "1 dice" (the layout and the rules panel).
    expect(page.locator(".sb-row-title").filter(has_text="1:1")).to_contain_text("1 die 1:1")
    expect(page.locator(".table-page")).not_to_contain_text(re.compile(r"\b1 (dice|rolls|triples|times|spins)\b"))
    # Round ids are data, never part of a sentence of the game's page.
    assert history["results"][0]["round"] not in page.locator(".game-root").inner_text()
    page.get_by_test_id("lang-select").select_option("pt")
    expect(page.get_by_test_id("triple-count")).to_have_text("1 triplo")
    expect(page.get_by_test_id("big-small-stats")).to_contain_text("Nos últimos 7 lançamentos")
    expect(page.locator(".sb-row-title").filter(has_text="1:1")).to_contain_text("1 dado 1:1")
    assert_accessible(page, "sic bo: the boards in Portuguese")
    page.get_by_test_id("lang-select").select_option("zh-Hant")
    expect(page.get_by_test_id("size-road")).to_have_attribute("aria-label", "大小路")
    expect(road.locator('.road-cell[data-value="triple"]')).to_have_text("圍")
    check_ledger(live, "bob")


def test_roulette_boards_show_the_servers_statistics(live: Server, page: Page) -> None:
    table = new_table(live, "roulette")
    live.add_account("wrui", credit=1_000)
    play_rounds(live, table, "wrui", {"type": "red", "amount": 10}, [17, 0, 17, 32, 5, 36])
    stats = live.client.get(f"/api/tables/{table}/history?last=100", headers=live.login(ADMIN)).json()["stats"]

    sign_in(page, live, "wrui")
    join(page, table)
    board = page.get_by_test_id("roulette-stats")
    expect(board.locator("[data-pct]")).to_have_count(3 + 2 + 2 + 3 + 3)
    expected = {
        "red": stats["colour_pct"]["red"],
        "black": stats["colour_pct"]["black"],
        "zero": stats["colour_pct"]["green"],
        **{k: v for k, v in stats["parity_pct"].items()},
        **{k: v for k, v in stats["half_pct"].items()},
        **{f"dozen-{k}": v for k, v in stats["dozen_pct"].items()},
        **{f"column-{k}": v for k, v in stats["column_pct"].items()},
    }
    for name, pct in expected.items():
        expect(board.locator(f'[data-name="{name}"]')).to_have_attribute("data-pct", str(pct))
    hot = page.get_by_test_id("hot-cold").locator(".hot .hc-item").first
    expect(hot).to_have_attribute("data-number", "17")
    expect(hot).to_have_attribute("data-count", "2")
    expect(hot).to_have_attribute("aria-label", "17: 2 times")
    expect(page.get_by_test_id("hot-cold").locator('.cold .hc-item[data-number="1"]')).to_have_attribute(
        "aria-label", "1: 0 times"
    )
    expect(page.locator(".history")).to_contain_text("The last 6 spins")
    assert_accessible(page, "roulette: the boards")
    check_ledger(live, "wrui")


# -- item 7: the wheel, the dice, reduced motion, sound, tips ---------------------------------------------------

COUNT_AUDIO = """() => {
  window.__audio = 0;
  const C = window.AudioContext || window.webkitAudioContext;
  if (!C) return;
  for (const m of ['createOscillator', 'createBufferSource']) {
    const f = C.prototype[m];
    C.prototype[m] = function (...a) { window.__audio += 1; return f.apply(this, a); };
  }
}"""


def test_wheel_spins_sounds_play_and_tips_show(live: Server, page: Page) -> None:
    table = new_table(live, "roulette")
    live.add_account("wes", credit=1_000)
    page.add_init_script(f"({COUNT_AUDIO})()")
    sign_in(page, live, "wes")
    join(page, table)
    # Hovering a spot names it with its payout and lights the numbers it covers.
    spot(page, "straight", numbers="17").hover()
    tip = page.get_by_test_id("spot-tip")
    expect(tip).to_be_visible()
    expect(tip).to_contain_text(f"Straight 17 · pays {pay(live, table, 'straight')}")
    spot(page, "corner", numbers="17,18,20,21").hover()
    expect(tip).to_contain_text(pay(live, table, "corner"))
    covered = page.locator(".ro-board .num.covered")
    expect(covered).to_have_count(4)
    assert sorted(int(n) for n in covered.evaluate_all("(ns) => ns.map((n) => n.dataset.numbers)")) == [17, 18, 20, 21]
    spot(page, "dozen", index="2").hover()
    expect(covered).to_have_count(12)
    page.get_by_test_id("chip-10").click()
    before = page.evaluate("() => window.__audio")
    spot(page, "red").click()
    expect(mark(page, "red")).to_have_attribute("data-amount", "10")
    assert page.evaluate("() => window.__audio") > before  # the chip's click
    page.get_by_test_id("mute").click()
    muted = page.evaluate("() => window.__audio")
    spot(page, "red").click()
    expect(mark(page, "red")).to_have_attribute("data-amount", "20")
    assert page.evaluate("() => window.__audio") == muted
    page.get_by_test_id("mute").click()
    page.get_by_test_id("confirm-bets").click()
    expect_balance(page, 980)
    before = page.evaluate("() => window.__audio")
    spin(live, table, 3)
    moment = page.get_by_test_id("result-moment")
    expect(moment).to_have_attribute("data-motion", "full")
    assert moment.locator(".ro-wheel").evaluate("(n) => n.getAnimations().length") >= 1
    expect(page.get_by_test_id("win-banner")).to_have_attribute("data-amount", "20")
    assert page.evaluate("() => window.__audio") > before  # the bell, the ball and the win
    check_ledger(live, "wes")


def test_reduced_motion_shows_the_result_without_moving(live: Server, calm: Page) -> None:
    table = new_table(live, "sicbo")
    live.add_account("rem", credit=1_000)
    sign_in(calm, live, "rem")
    join(calm, table)
    calm.get_by_test_id("chip-10").click()
    spot(calm, "total", values="9").click()
    calm.get_by_test_id("confirm-bets").click()
    expect_balance(calm, 990)
    spin(live, table, [2, 3, 4])
    moment = calm.get_by_test_id("result-moment")
    expect(moment.get_by_test_id("moment-dice")).to_have_attribute("data-dice", "2,3,4")
    expect(moment).to_have_attribute("data-motion", "reduced")
    assert calm.locator(".game-root").evaluate("(n) => n.getAnimations({subtree: true}).length") == 0
    expect(calm.get_by_test_id("win-banner")).to_be_visible()
    check_ledger(live, "rem")


def test_dice_tumble_without_reduced_motion(live: Server, page: Page) -> None:
    table = new_table(live, "sicbo")
    live.add_account("tum", credit=1_000)
    bet(live, table, "tum", {"type": "small", "amount": 10})
    sign_in(page, live, "tum")
    join(page, table)
    expect(page.locator(".slip-list.placed li")).to_have_count(1)
    spin(live, table, [1, 2, 3])
    moment = page.get_by_test_id("result-moment")
    expect(moment).to_have_attribute("data-motion", "full")
    assert moment.locator(".moment-die").evaluate_all("(ds) => ds.map((d) => d.getAnimations().length)") == [1, 1, 1]
    check_ledger(live, "tum")


# -- item 9: one tab stop, arrow keys, names with the stake -----------------------------------------------------


def test_layout_is_one_tab_stop_with_arrow_keys(live: Server, page: Page) -> None:
    table = new_table(live, "roulette")
    live.add_account("kay", credit=1_000)
    sign_in(page, live, "kay")
    join(page, table)
    layout = page.locator(".ro-layout")
    expect(layout.locator('[data-testid="spot"]').first).to_be_attached()
    assert layout.locator('[data-testid="spot"]').count() > 150
    assert layout.locator('[data-testid="spot"]').evaluate_all("(s) => s.filter((x) => x.tabIndex >= 0).length") == 1
    assert page.locator(".chips button").evaluate_all("(s) => s.filter((x) => x.tabIndex >= 0).length") == 1
    page.keyboard.press("1")  # the first chip
    first = page.locator(".chips button").first
    expect(first).to_have_attribute("aria-checked", "true")
    page.keyboard.press("3")
    chip = page.locator(".chips button").nth(2)
    expect(chip).to_have_attribute("aria-checked", "true")
    amount = int(chip.get_attribute("data-amount") or "0")

    spot(page, "straight", numbers="5").focus()
    active = "() => document.activeElement.dataset.key"
    for key, where in (
        ("ArrowRight", "split:5,6"),
        ("ArrowRight", "straight:6"),
        ("ArrowDown", "split:6,9"),
        ("ArrowDown", "straight:9"),
        ("ArrowLeft", "split:8,9"),
        ("ArrowUp", "corner:5,6,8,9"),
        ("Home", "six_line:4,5,6,7,8,9"),
    ):
        page.keyboard.press(key)
        assert page.evaluate(active) == where, key
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(active) == "corner:4,5,7,8"
    page.keyboard.press("ArrowRight")
    assert page.evaluate(active) == "split:5,8"
    page.keyboard.press("Enter")  # a chip on the split 5-8
    split = spot(page, "split", numbers="5,8")
    expect(split.locator(".chip-mark")).to_have_attribute("data-amount", str(amount))
    stake = rf"\D*{amount}\D*"
    name = rf"^Split 5-8 · pays {pay(live, table, 'split')} · your stake {stake} · {stake} not yet confirmed$"
    expect(split).to_have_attribute("aria-label", re.compile(name))
    # One Tab leaves the layout.
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.testid") != "spot"
    # The help lists the shortcuts; C confirms.
    help_ = page.get_by_test_id("wager-help")
    help_.locator("summary").click()
    expect(help_.locator("li")).to_have_count(8)
    assert_accessible(page, "roulette: keyboard help open, a chip laid")
    page.keyboard.press("c")
    expect_balance(page, 1_000 - amount)
    expect(split).to_have_attribute("aria-label", re.compile(r"your stake"))
    expect(split).not_to_have_attribute("aria-label", re.compile(r"not yet confirmed"))
    live.close_betting(table, DEALER)
    r = live.client.post(f"/api/tables/{table}/results", json={"result": "void"}, headers=live.login(DEALER))
    assert r.status_code == 200, r.text  # a void spin: the bets stand (RO 2.2)
    report(live, table, 8)
    expect_balance(page, 1_000 + 17 * amount)
    check_ledger(live, "kay")


# -- watching: a dealer or an admin has no player controls ------------------------------------------------------


@pytest.mark.parametrize(("game", "who"), [("roulette", DEALER), ("sicbo", ADMIN)])
def test_watching_without_player_controls(live: Server, page: Page, game: str, who: str) -> None:
    table = new_table(live, game)
    sign_in(page, live, who)
    join(page, table)
    spots = page.locator('[data-testid="spot"]')
    expect(spots.first).to_be_attached()
    assert spots.evaluate_all("(s) => s.filter((x) => x.tagName === 'BUTTON' || x.tabIndex >= 0).length") == 0
    for hook in ("confirm-bets", "undo", "clear", "rebet", "double", "wager-help", "spot-tip", "unplaced-notice"):
        expect(page.get_by_test_id(hook)).to_have_count(0)
    expect(page.locator('[data-testid^="chip-"]')).to_have_count(0)
    spots.first.click()
    expect(page.locator('[data-testid="spot"] .chip-mark:not([hidden])')).to_have_count(0)
    assert_accessible(page, f"{game}: {who} watching")


# -- item 11: the catalogues ----------------------------------------------------------------------------------------

LANGS = ("en", "pt", "zh-Hant")
PLACEHOLDER = re.compile(r"\{\w+\}")


def catalogue(module: str, lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEB / "i18n" / f"{module}.{lang}.json").read_text(encoding="utf-8"))
    return data


def test_catalogues_hold_the_shared_texts_with_plurals_and_the_formal_address() -> None:
    """The texts wager.js shares (``mt('…')``: the game's catalogue under its own prefix) are in both games'
    catalogues in every language; a count in a sentence goes through plural forms (``{"one", "other"}``) in English
    and Portuguese; the Portuguese addresses the player in the formal third person, never "você" or "tu"."""
    source = (WEB / "js" / "wager.js").read_text(encoding="utf-8")
    shared = set(re.findall(r"\bmt\(\s*'([\w.]+)'", source)) | set(re.findall(r"\['(help\.[\w.]+)'", source))
    assert {"unconfirmed", "unplaced.title", "moment.won", "help.chips", "next_in"} <= shared
    for module in ("roulette", "sicbo"):
        for lang in LANGS:
            texts = catalogue(module, lang)
            assert not [k for k in shared if f"{module}.{k}" not in texts], (module, lang)
            for key, value in texts.items():
                forms = value.values() if isinstance(value, dict) else [value]
                assert all(isinstance(v, str) and v for v in forms), (module, lang, key)
                worded = any(re.search(r"[^\W\d_]", PLACEHOLDER.sub("", v)) for v in forms)
                if lang != "zh-Hant" and "{count}" in str(value) and worded:
                    assert isinstance(value, dict) and {"one", "other"} <= set(value), (module, lang, key)
                if lang == "pt":
                    for v in forms:
                        assert not re.search(r"\b(você|vocês|tu|teu|tua|te)\b", v, re.IGNORECASE), (key, v)
