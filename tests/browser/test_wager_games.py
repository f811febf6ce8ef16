"""Roulette and sic bo through the page: chips on the layout, the server's result and settlement shown, the header's
balance equal to the wallet, and the ledger reconciled afterwards. The window ends when the test moves the casino's
manual clock to its end, once the bets are placed."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from browser.support import SHOWN, check_ledger, expect_balance, join, settled_round, sign_in, spot
from server.support import ADMIN, Server

pytestmark = pytest.mark.browser

ROUND = 30_000  # the bell, the draw and the settlement shown, with room to spare


def window_open(live: Server, page: Page, table: str) -> None:
    """The table takes bets: a finished round's result moment (``result_display_seconds``) left by an earlier test
    on the same table is run out, and the page shows the betting window."""
    view = live.client.get(f"/api/tables/{table}", headers=live.login(ADMIN)).json()
    if view["status"] in ("settled", "voided"):
        live.run_out(table)
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "betting")


def pick_chip(page: Page, preferred: int = 10) -> int:
    """Select the chip of ``preferred`` units (or the rack's first); its amount."""
    chip = page.get_by_test_id(f"chip-{preferred}")
    if not chip.count():
        chip = page.locator('[data-testid^="chip-"]').first
    chip.click()
    expect(chip).to_have_attribute("aria-checked", "true")
    return int(chip.get_attribute("data-amount") or "0")


def nets_shown(page: Page) -> list[int]:
    """The settlement lines' nets, in the order the page lists them."""
    lines = page.locator('[data-testid="settlement"] [data-net]')
    return [int(v or "0") for v in lines.evaluate_all("(ls) => ls.map((l) => l.dataset.net)")]


def test_roulette_round(live: Server, page: Page) -> None:
    live.add_account("rita", credit=1_000)
    sign_in(page, live, "rita")
    join(page, "ro-rng")
    window_open(live, page, "ro-rng")
    chip = pick_chip(page)
    spot(page, "straight", numbers="17").click()
    spot(page, "red").click()
    spot(page, "red").click()
    confirm = page.get_by_test_id("confirm-bets")
    expect(confirm).to_have_attribute("data-total", str(3 * chip))
    confirm.click()
    expect_balance(page, 1_000 - 3 * chip)
    expect(spot(page, "red").locator(".chip-mark")).to_have_text(str(2 * chip))
    live.run_out("ro-rng")

    expect(page.locator('[data-testid="settlement"] [data-net]')).to_have_count(2, timeout=ROUND)
    record = settled_round(live, "ro-rng", "rita")
    pocket = record["outcome"]["pocket"]
    expect(page.get_by_test_id("winning-number")).to_have_attribute("data-number", str(pocket))
    wallet = live.wallet("rita")
    assert sum(nets_shown(page)) == wallet - 1_000 == sum(record["nets"].values())
    expect_balance(page, wallet)
    expect(page.get_by_test_id("last-results").locator(f'[data-number="{pocket}"]').first).to_be_visible()
    moment = page.get_by_test_id("result-moment")  # the result stays until the next window opens
    expect(moment.get_by_test_id("moment-number")).to_have_attribute("data-number", str(pocket))
    expect(moment).to_have_attribute("data-net", str(wallet - 1_000))
    check_ledger(live, "rita")
    live.run_out("ro-rng")
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "betting")
    expect(moment).to_be_hidden()


def test_sicbo_round(live: Server, page: Page) -> None:
    live.add_account("sam", credit=1_000)
    sign_in(page, live, "sam")
    join(page, "sb-rng")
    window_open(live, page, "sb-rng")
    chip = pick_chip(page)
    spot(page, "big").click()
    spot(page, "total", values="10").click()
    page.get_by_test_id("confirm-bets").click()
    expect_balance(page, 1_000 - 2 * chip)
    live.run_out("sb-rng")

    expect(page.locator('[data-testid="settlement"] [data-net]')).to_have_count(2, timeout=ROUND)
    record = settled_round(live, "sb-rng", "sam")
    dice = record["outcome"]["dice"]
    expect(page.get_by_test_id("dice")).to_have_attribute("data-dice", ",".join(map(str, dice)), timeout=SHOWN)
    expect(page.get_by_test_id("dice-total")).to_have_attribute("data-total", str(sum(dice)))
    wallet = live.wallet("sam")
    assert sum(nets_shown(page)) == wallet - 1_000 == sum(record["nets"].values())
    expect_balance(page, wallet)
    moment = page.get_by_test_id("result-moment")
    expect(moment.get_by_test_id("moment-dice")).to_have_attribute("data-dice", ",".join(map(str, dice)))
    expect(moment).to_have_attribute("data-net", str(wallet - 1_000))
    check_ledger(live, "sam")
    live.run_out("sb-rng")
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "betting")
    expect(moment).to_be_hidden()
