"""The dealer's console (issue 14, item 5): a view of the dealer's own beside the layout (never over it) at 1366x900
and first on a phone, no balance in the header; the next card named by the server ("burn", "box 3, hand 1", the
dealer, the hole card); cards by rank and suit buttons and by a card reader's keys (``QH⏎``, ``10H``, ``TH``); a card
not yet used taken back; pockets by a pad and typed, dice by three face pickers and typed (``146⏎``), staged with an
undo before they are sent; voiding a round and reporting a result; the three languages; axe on every screen."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from browser.support import (
    DEALER,
    DESKTOP,
    PHONE,
    SHOWN,
    assert_accessible,
    check_ledger,
    expect_balance,
    join,
    rect,
    sign_in,
    spot,
    watch,
)
from server.support import ADMIN, Server

pytestmark = pytest.mark.browser

# The console's tables: live, each test its own; long windows (the manual clock moves only to the wall clock).
CONSOLE_TABLES = (("dc-bj", "blackjack"), ("dc-ro", "roulette"), ("dc-sb", "sicbo"))


@pytest.fixture(scope="module")
def tables(live: Server) -> None:
    for table, game in CONSOLE_TABLES:
        body = {"table_id": table, "game": game, "live": True, "dealers": [DEALER]}
        body |= {"betting_seconds": 3600, "decision_seconds": 3600, "result_display_seconds": 5}
        r = live.client.post("/api/tables", json=body, headers=live.login(ADMIN))
        assert r.status_code == 201, r.text


@pytest.fixture
def dealer_context(browser: Browser) -> Iterator[BrowserContext]:
    """A second browser profile, for the dealer."""
    ctx = browser.new_context(viewport=DESKTOP, locale="en-GB")
    ctx.set_default_timeout(SHOWN)
    yield ctx
    ctx.close()


def dealer_page(ctx: BrowserContext, live: Server, table: str) -> Page:
    dealer = watch(ctx.new_page())
    sign_in(dealer, live, DEALER)
    join(dealer, table)
    expect(dealer.get_by_test_id("dealer-console")).to_be_visible()
    return dealer


def bet(live: Server, table: str, player: str, body: dict[str, Any]) -> None:
    r = live.client.post(f"/api/tables/{table}/bets", json=body, headers=live.as_(player))
    assert r.status_code == 201, r.text


def box(node: Locator) -> dict[str, float]:
    return rect(node)


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    """The two rectangles do not overlap."""
    return (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def expect_prompt(page: Page, expect_: str, **data: str) -> None:
    node = page.get_by_test_id("dealer-prompt")
    expect(node).to_have_attribute("data-expect", expect_, timeout=SHOWN)
    for name, value in data.items():
        expect(node).to_have_attribute(f"data-{name}", value, timeout=SHOWN)


def no_player_controls_and_no_balance(page: Page) -> None:
    expect(page.get_by_test_id("balance")).to_be_hidden()  # not "Balance 0": a dealer has no wallet
    for hook in ("chip-", "bet-box-", "confirm-bets", "undo", "rebet"):
        expect(page.locator(f'[data-testid^="{hook}"]:visible')).to_have_count(0)


def console_text_is_translated(page: Page) -> str:
    text = page.get_by_test_id("dealer-console").inner_text()
    assert not re.search(r"\bdealer\.[a-z_.]+|\{\w+\}", text), text
    return text


def test_blackjack_console_names_each_card_takes_cards_by_buttons_and_keys_and_takes_one_back(
    live: Server, tables: None, dealer_context: BrowserContext
) -> None:
    live.add_account("dcp", credit=1_000)
    dealer = dealer_page(dealer_context, live, "dc-bj")
    no_player_controls_and_no_balance(dealer)
    # Beside the layout, never over it: every box is left of the console, whose controls are all in view.
    console = box(dealer.get_by_test_id("dealer-console"))
    for n in range(1, 8):
        seat = box(dealer.get_by_test_id(f"box-{n}"))
        assert apart(seat, console) and seat["x"] + seat["width"] <= console["x"], (n, seat, console)
        expect(dealer.get_by_test_id(f"box-{n}")).to_be_in_viewport(ratio=1)
    for hook in ("dealer-close-betting", "dealer-result-input", "dealer-report", "dealer-rank-K", "dealer-suit-C"):
        expect(dealer.get_by_test_id(hook)).to_be_in_viewport(ratio=1)
    expect(dealer.get_by_test_id("dealer-void")).to_be_in_viewport(ratio=1)
    expect_prompt(dealer, "bell", to="")
    assert_accessible(dealer, "dealer console, blackjack: betting open, no bet")

    bet(live, "dc-bj", "dcp", {"box": 3, "main": 100})
    expect_prompt(dealer, "bell", to="burn")  # the bet's event: the first card of the deal is the burn (BJ 4.1)
    dealer.get_by_test_id("dealer-close-betting").click()
    expect_prompt(dealer, "card", to="burn")
    # The table's phase says the deal is on, though the engine's round stays "betting" until its cards are in.
    expect(dealer.get_by_test_id("phase")).to_have_text("No more bets — dealing")
    # A card reader types the code and Enter, wherever the focus is.
    dealer.keyboard.type("5S")
    dealer.keyboard.press("Enter")
    expect_prompt(dealer, "card", to="box", box="3", hand="0")
    expect(dealer.get_by_test_id("dealer-prompt")).to_have_text("Next card: box 3, hand 1 (face down)")
    expect(dealer.get_by_test_id("dealer-reported")).to_have_attribute("data-cards", "5S")
    # Rank, then suit: a queen of hearts, by mistake.
    expect(dealer.get_by_test_id("dealer-suit-H")).to_be_disabled()
    dealer.get_by_test_id("dealer-rank-Q").click()
    expect(dealer.get_by_test_id("dealer-rank-Q")).to_have_attribute("aria-pressed", "true")
    assert_accessible(dealer, "dealer console, blackjack: the deal, a rank picked")
    dealer.get_by_test_id("dealer-suit-H").click()
    expect_prompt(dealer, "card", to="dealer")
    expect(dealer.get_by_test_id("dealer-reported")).to_have_attribute("data-cards", "5S,QH")
    # The deal waits for every card: the queen is not used yet, and is taken back.
    dealer.get_by_test_id("dealer-undo").click()
    expect_prompt(dealer, "card", to="box", box="3", hand="0")
    expect(dealer.get_by_test_id("dealer-reported")).to_have_attribute("data-cards", "5S")
    audit = live.client.get("/api/audit", headers=live.login(ADMIN)).json()
    assert any(a["action"] == "card_taken_back" and a["detail"]["card"] == "QH" for a in audit), audit[-3:]
    # The right cards: 10H typed, 7c typed in lower case (the dealer's up card), then 9 and diamonds on the pad.
    dealer.get_by_test_id("dealer-result-input").fill("10H")
    dealer.get_by_test_id("dealer-result-input").press("Enter")
    expect_prompt(dealer, "card", to="dealer")
    dealer.get_by_test_id("dealer-result-input").fill("7c")
    dealer.get_by_test_id("dealer-result-input").press("Enter")
    expect_prompt(dealer, "card", to="box", box="3", hand="0")
    dealer.get_by_test_id("dealer-rank-9").click()
    dealer.get_by_test_id("dealer-suit-D").click()
    # Every card is in play: the player decides; nothing is left to take back.
    expect_prompt(dealer, "decision", to="")
    expect(dealer.get_by_test_id("dealer-prompt")).to_have_text("Waiting for dcp to decide at box 3, hand 1.")
    expect(dealer.get_by_test_id("dealer-undo")).to_be_disabled()
    expect(dealer.get_by_test_id("dealer-reported")).to_have_attribute("data-cards", "")
    expect(dealer.get_by_test_id("dealer-hand")).to_have_attribute("data-cards", "7C")
    expect(dealer.get_by_test_id("hand-3-0")).to_have_attribute("data-cards", "??,??")  # face down (procedure 1)
    assert_accessible(dealer, "dealer console, blackjack: a decision awaited")
    english = console_text_is_translated(dealer)
    for lang, words in (
        ("pt", "A aguardar a decisão de dcp na casa 3, mão 1."),
        ("zh-Hant", "等候 dcp 為第 3 門第 1 手牌作出決定。"),
    ):
        dealer.get_by_test_id("lang-select").select_option(lang)
        expect(dealer.get_by_test_id("dealer-prompt")).to_have_text(words)
        assert console_text_is_translated(dealer) != english
        assert_accessible(dealer, f"dealer console, blackjack, {lang}")
    dealer.get_by_test_id("lang-select").select_option("en")

    r = live.client.post("/api/tables/dc-bj/actions", json={"action": "stand", "box": 3}, headers=live.as_("dcp"))
    assert r.status_code == 200, r.text
    expect_prompt(dealer, "card", to="dealer")  # procedure 1: the dealer's second card after the players (BJ 5.2)
    dealer.keyboard.type("TH")
    dealer.keyboard.press("Enter")
    expect_prompt(dealer, "next_round")  # 19 against 17: the result moment
    expect(dealer.get_by_test_id("dealer-hand")).to_have_attribute("data-total", "17")
    assert_accessible(dealer, "dealer console, blackjack: the result moment")
    assert live.wallet("dcp") == 1_100
    check_ledger(live, "dcp")


def test_roulette_console_stages_the_pocket_with_an_undo_before_it_is_sent(
    live: Server, tables: None, dealer_context: BrowserContext
) -> None:
    live.add_account("dcr", credit=1_000)
    bet(live, "dc-ro", "dcr", {"type": "red", "amount": 10})
    dealer = dealer_page(dealer_context, live, "dc-ro")
    no_player_controls_and_no_balance(dealer)
    console = box(dealer.get_by_test_id("dealer-console"))
    assert apart(box(dealer.locator(".game-root")), console)
    expect_prompt(dealer, "bell")
    assert_accessible(dealer, "dealer console, roulette: betting open")
    dealer.get_by_test_id("dealer-close-betting").click()
    expect_prompt(dealer, "pocket")
    staged = dealer.get_by_test_id("dealer-staged")
    dealer.get_by_test_id("dealer-pocket-17").click()
    expect(staged).to_have_attribute("data-result", "17")
    expect(dealer.get_by_test_id("dealer-pocket-17")).to_have_attribute("aria-pressed", "true")
    assert_accessible(dealer, "dealer console, roulette: a pocket staged")
    dealer.get_by_test_id("dealer-undo").click()  # a slip: nothing was sent
    expect(staged).to_have_attribute("data-result", "")
    expect(dealer.get_by_test_id("dealer-undo")).to_be_disabled()
    dealer.keyboard.type("32")  # typed, wherever the focus is, and Enter: staged, not sent
    dealer.keyboard.press("Enter")
    expect(staged).to_have_attribute("data-result", "32")
    dealer.get_by_test_id("lang-select").select_option("zh-Hant")
    expect(staged).to_have_text("待提交：32")
    expect(dealer.get_by_test_id("dealer-prompt")).to_have_text("轉動輪盤後輸入開出號碼。")
    console_text_is_translated(dealer)
    assert_accessible(dealer, "dealer console, roulette, zh-Hant: a pocket staged")
    dealer.get_by_test_id("lang-select").select_option("en")
    expect(staged).to_have_text("To send: 32")
    assert live.client.get("/api/tables/dc-ro", headers=live.login(ADMIN)).json()["status"] == "playing"
    dealer.get_by_test_id("dealer-result-input").press("Enter")  # Enter on an empty field sends what is staged
    expect(dealer.get_by_test_id("winning-number")).to_have_attribute("data-number", "32")
    expect_prompt(dealer, "next_round")
    expect(staged).to_have_attribute("data-result", "")
    assert live.wallet("dcr") == 1_010
    check_ledger(live, "dcr")
    # A dealer who does not deal at this table watches it: no console.
    live.add_account("dcx", role="dealer")
    other = watch(dealer_context.new_page())
    sign_in(other, live, "dcx")
    join(other, "dc-ro")
    expect(other.get_by_test_id("dealer-console")).to_have_count(0)
    expect(other.get_by_test_id("balance")).to_be_hidden()


def test_sicbo_console_on_a_phone_picks_three_faces_or_takes_them_typed(
    live: Server, tables: None, browser: Browser
) -> None:
    live.add_account("dcs", credit=1_000)
    bet(live, "dc-sb", "dcs", {"type": "big", "amount": 10})
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB")
    ctx.set_default_timeout(SHOWN)
    try:
        dealer = dealer_page(ctx, live, "dc-sb")
        no_player_controls_and_no_balance(dealer)
        # On a phone the console comes first, under the table's bar, and the layout follows it.
        console, layout = box(dealer.get_by_test_id("dealer-console")), box(dealer.locator(".game-root"))
        assert apart(console, layout) and console["y"] + console["height"] <= layout["y"], (console, layout)
        assert console["x"] >= 0 and console["x"] + console["width"] <= PHONE["width"]
        dealer.get_by_test_id("dealer-close-betting").click()
        expect_prompt(dealer, "dice")
        staged = dealer.get_by_test_id("dealer-staged")
        for die, face in ((1, 1), (2, 4)):
            dealer.get_by_test_id(f"dealer-die-{die}-{face}").click()
        expect(staged).to_have_attribute("data-result", "")  # two dice are not a roll
        dealer.get_by_test_id("dealer-die-3-6").click()
        expect(staged).to_have_attribute("data-result", "1,4,6")
        key = box(dealer.get_by_test_id("dealer-die-3-6"))
        assert key["width"] >= 32 and key["height"] >= 32, key
        assert_accessible(dealer, "dealer console, sic bo, phone: three dice staged")
        dealer.get_by_test_id("dealer-undo").click()
        expect(staged).to_have_attribute("data-result", "")
        expect(dealer.get_by_test_id("dealer-die-1-1")).to_have_attribute("aria-pressed", "false")
        dealer.get_by_test_id("dealer-result-input").fill("146")
        dealer.get_by_test_id("dealer-result-input").press("Enter")
        expect(staged).to_have_attribute("data-result", "1,4,6")
        expect(dealer.get_by_test_id("dealer-die-2-4")).to_have_attribute("aria-pressed", "true")
        dealer.get_by_test_id("lang-select").select_option("pt")
        expect(staged).to_have_text("Por enviar: 1 4 6")
        expect(dealer.get_by_test_id("dealer-prompt")).to_have_text("Agite os dados e registe os três dados.")
        console_text_is_translated(dealer)
        assert_accessible(dealer, "dealer console, sic bo, phone, pt: three dice staged")
        dealer.get_by_test_id("dealer-report").click()
        expect(dealer.get_by_test_id("dice")).to_have_attribute("data-dice", "1,4,6")
        expect_prompt(dealer, "next_round")
        assert live.wallet("dcs") == 1_010  # 11: big
        check_ledger(live, "dcs")
    finally:
        ctx.close()


def test_dealer_console_voids_and_reports(live: Server, page: Page, dealer_context: BrowserContext) -> None:
    live.add_account("vic", credit=1_000)
    sign_in(page, live, "vic")
    join(page, "ro-live")
    page.get_by_test_id("chip-10").click()
    spot(page, "red").click()
    spot(page, "dozen", index="2").click()
    page.get_by_test_id("confirm-bets").click()
    expect_balance(page, 980)

    dealer = watch(dealer_context.new_page())
    sign_in(dealer, live, DEALER)
    join(dealer, "ro-live")
    console = dealer.get_by_test_id("dealer-console")
    expect(console).to_be_visible()
    # At 1366x900 the console is beside the layout, its controls in view without scrolling.
    for hook in ("dealer-close-betting", "dealer-result-input", "dealer-report", "dealer-void"):
        expect(dealer.get_by_test_id(hook)).to_be_in_viewport(ratio=1)
    expect(page.get_by_test_id("dealer-console")).to_have_count(0)  # a player has none
    reason = "the ball left the wheel"
    dealer.get_by_test_id("dealer-void-reason").fill(reason)
    dealer.get_by_test_id("dealer-void").click()
    expect(page.get_by_test_id("toast").filter(has_text=reason)).to_be_visible()
    expect(dealer.get_by_test_id("toast").filter(has_text=reason).first).to_be_visible()
    expect_balance(page, 1_000)
    assert live.wallet("vic") == 1_000
    audit = live.client.get("/api/audit", headers=live.login(ADMIN)).json()
    assert any(a["action"] == "void" and a["detail"].get("reason") == reason for a in audit), audit[-3:]
    check_ledger(live, "vic")

    expect_prompt(dealer, "next_round")  # the voided round's moment, until the next window opens
    live.run_out("ro-live")
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "betting", timeout=SHOWN)
    expect(spot(page, "red").locator(".chip-mark")).to_be_hidden()  # the returned bets left the layout
    expect_prompt(dealer, "bell")

    # The next round: the dealer rings the bell and reports 14 (red, second dozen).
    spot(page, "red").click()
    page.get_by_test_id("confirm-bets").click()
    expect_balance(page, 990)
    dealer.get_by_test_id("dealer-close-betting").click()
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "playing")
    dealer.get_by_test_id("dealer-result-input").fill("14")
    dealer.get_by_test_id("dealer-report").click()
    expect(page.get_by_test_id("winning-number")).to_have_attribute("data-number", "14")
    expect(page.locator('[data-testid="settlement"] [data-net]')).to_have_count(1)
    expect(page.locator('[data-testid="settlement"] [data-net="10"]')).to_have_count(1)
    expect_balance(page, 1_010)
    assert live.wallet("vic") == 1_010
    check_ledger(live, "vic")
