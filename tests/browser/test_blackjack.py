"""Blackjack through the page: an RNG round answered with whatever the server offers, and a live round whose cards
the dealer reports over REST (player 8-8 against an ace: the insurance offer, then a split into two hands). The RNG
window ends when the test moves the casino's manual clock to its end, the live one when the dealer rings the bell;
no decision's timer runs out meanwhile."""

from __future__ import annotations

import contextlib
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from browser.support import (
    DEALER,
    SHOWN,
    assert_accessible,
    check_ledger,
    expect_balance,
    join,
    rects,
    report,
    settled_round,
    sign_in,
)
from server.support import Server

pytestmark = pytest.mark.browser

# The answers the RNG round gives, in order of preference: stand as soon as the server allows it.
ANSWERS = ("stand", "decline", "claim_five_card", "hit")


def bet_box(page: Page, box: int) -> int:
    """Put one chip (10 units, or the rack's first) on ``box`` and confirm; the stake."""
    chip = page.get_by_test_id("chip-10")
    if not chip.count():
        chip = page.locator('[data-testid^="chip-"]').first
    chip.click()
    amount = int(chip.get_attribute("data-amount") or "0")
    page.get_by_test_id(f"bet-box-{box}").click()
    confirm = page.get_by_test_id("confirm-bets")
    expect(confirm).to_have_attribute("data-total", str(amount))
    confirm.click()
    expect(page.get_by_test_id(f"box-{box}")).to_have_attribute("data-mine", "true")
    return amount


def test_rng_round(live: Server, page: Page) -> None:
    live.add_account("bea", credit=1_000)
    sign_in(page, live, "bea")
    join(page, "bj-rng")
    assert_accessible(page, "blackjack (RNG): betting")
    stake = bet_box(page, 2)
    expect_balance(page, 1_000 - stake)
    live.run_out("bj-rng")  # the bell and the deal

    settled = page.locator('[data-testid="hand-2-0"][data-result]')
    offered = page.locator('[data-testid^="action-"]:not([disabled])')
    deadline = time.monotonic() + 60
    while not settled.count():
        assert time.monotonic() < deadline, "the round did not settle"
        actions = offered.evaluate_all("(bs) => bs.map((b) => b.dataset.testid.slice('action-'.length))")
        answer = next((a for a in ANSWERS if a in actions), None)
        if answer is not None:
            with contextlib.suppress(PlaywrightError):  # the page may have moved on meanwhile
                page.get_by_test_id(f"action-{answer}").click(timeout=2_000)
        time.sleep(0.1)  # polling for the next decision or the settlement, not an assertion
    expect(page.get_by_test_id("dealer-hand")).not_to_have_attribute("data-total", "")
    assert_accessible(page, "blackjack (RNG): the result")
    wallet = live.wallet("bea")
    assert wallet - 1_000 == sum(settled_round(live, "bj-rng", "bea")["nets"].values())
    expect_balance(page, wallet)
    check_ledger(live, "bea")


def test_live_round_with_insurance_and_a_split(live: Server, page: Page) -> None:
    live.add_account("lee", credit=1_000)
    sign_in(page, live, "lee")
    join(page, "bj-live")
    stake = bet_box(page, 1)
    assert stake % 2 == 0, stake  # insurance takes half the stake
    live.close_betting("bj-live", DEALER)
    for card in ("KD", "8H", "AS", "8D"):  # the burn card, lee, the dealer's up card, lee
        report(live, "bj-live", card)

    expect(page.get_by_test_id("dealer-hand")).to_have_attribute("data-total", "11")
    expect(page.get_by_test_id("hand-1-0")).to_have_attribute("data-total", "16")
    insurance = page.get_by_test_id("action-insurance")
    expect(insurance).to_be_visible(timeout=SHOWN)
    expect(page.get_by_test_id("action-decline")).to_be_visible()
    assert_accessible(page, "blackjack (live): the insurance offer")
    insurance.click()  # the amount offered: half the stake
    expect_balance(page, 1_000 - stake - stake // 2)

    split = page.get_by_test_id("action-split")
    expect(split).to_be_enabled(timeout=SHOWN)
    expect(page.get_by_test_id("action-insurance")).to_have_count(0)
    split.click()
    expect_balance(page, 1_000 - 2 * stake - stake // 2)
    report(live, "bj-live", "TC")  # the first hand's second card: 18
    first, second = page.get_by_test_id("hand-1-0"), page.get_by_test_id("hand-1-1")
    expect(first).to_have_attribute("data-total", "18")
    expect(second).to_have_attribute("data-total", "8")
    a, b = rects(page, '[data-testid="hand-1-0"][data-total="18"]', '[data-testid="hand-1-1"][data-total="8"]')
    assert abs(a["y"] - b["y"]) < a["height"] / 2, (a, b)  # side by side, not stacked
    assert a["x"] + a["width"] <= b["x"] + 1 or b["x"] + b["width"] <= a["x"] + 1, (a, b)

    assert_accessible(page, "blackjack (live): the split hands")
    page.get_by_test_id("action-stand").click()  # the first hand stands on 18
    report(live, "bj-live", "9C")  # the second hand's second card: 17
    expect(second).to_have_attribute("data-total", "17")
    expect(page.get_by_test_id("action-split")).to_have_count(0)
    page.get_by_test_id("action-stand").click()
    report(live, "bj-live", "7H")  # the dealer: soft 18, stands

    expect(page.locator('[data-testid="hand-1-0"][data-result]')).to_have_count(1, timeout=SHOWN)
    expect(page.get_by_test_id("dealer-hand")).to_have_attribute("data-total", "18")
    expect(page.get_by_test_id("hand-1-1")).to_have_attribute("data-total", "17")
    expect(page.get_by_test_id("round-net")).to_have_attribute("data-net", str(-stake - stake // 2), timeout=SHOWN)
    assert_accessible(page, "blackjack (live): the result moment")
    # 18 against 18 pushes, 17 loses its stake, the insurance loses (no dealer blackjack).
    wallet = live.wallet("lee")
    assert wallet == 1_000 - stake - stake // 2
    expect_balance(page, wallet)
    check_ledger(live, "lee")
