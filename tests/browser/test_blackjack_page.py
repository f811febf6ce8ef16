"""The blackjack page at casino-floor grade (issue 14, items 4 to 11 for blackjack): the result moment, on a phone too;
the shoe indicator; the deal and win animations and their absence under reduced motion; the sounds; the keyboard
and the screen reader's names; the phone's targets and chip rack; the catalogues; and a dealer watching the table
without a player's controls.

Every table here is live (the test reports each card as the dealer would, procedure 1: the burn after a shuffle,
one card to each box with a bet, the dealer's up card, each box's second card, the dealer's second card after the
boxes) and pauses 5 s on each result (``result_display_seconds``) on the casino's manual clock, which only the test
moves. Animations are held still where a test looks at them (CDP's animation playback rate 0), so nothing here
races the wall clock."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from browser.support import (
    DEALER,
    DESKTOP,
    PHONE,
    SHOWN,
    assert_accessible,
    check_ledger,
    expect_balance,
    join,
    report,
    sign_in,
    watch,
)
from server.support import ADMIN, Server

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("patient_expect")]

PAUSE = 5.0  # the tables' result_display_seconds
MIN_TARGET = 32  # px: the smallest button a finger may be asked to hit (issue 14, item 10)
ONE_DECK = {"decks": 1, "cards_behind_cut": 47}  # the sixth card out of the shoe is the first behind the cut card
PLAYER_CONTROLS = (
    '[data-testid^="chip-"], [data-testid^="bet-box-"], [data-testid^="side-"], [data-testid^="streak-bet-"], '
    '[data-testid^="action-"], [data-testid="insurance-amount"], [data-testid="confirm-bets"], '
    '[data-testid="undo"], [data-testid="clear"], [data-testid="rebet"], [data-testid="double"]'
)
SOUND_MARK = "export function play(kind) {"
RECORD_SOUND = SOUND_MARK + "\n  (window.__played ||= []).push(kind);"


def open_table(live: Server, table: str, rules: dict[str, Any] | None = None, *, live_table: bool = True) -> None:
    """A blackjack table of its own for a test: live (the test's dealer reports the cards) with long windows."""
    body: dict[str, Any] = {
        "table_id": table,
        "game": "blackjack",
        "live": live_table,
        "betting_seconds": 60,
        "decision_seconds": 60,
        "result_display_seconds": PAUSE,
        "rules": rules,
    }
    if live_table:
        body["dealers"] = [DEALER]
    r = live.client.post("/api/tables", json=body, headers=live.login(ADMIN))
    assert r.status_code == 201, r.text


def no_csp_violations(p: Page) -> list[str]:
    """Collect the page's Content-Security-Policy violations (the ``page`` fixture's check, for other contexts)."""
    violations: list[str] = []
    p.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    return violations


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Browser profiles a test makes (a phone, reduced motion, a dealer), closed after it."""
    made: list[BrowserContext] = []
    yield made
    for ctx in made:
        ctx.close()


def new_page(browser: Browser, contexts: list[BrowserContext], **options: Any) -> Page:
    options.setdefault("viewport", DESKTOP)
    if options["viewport"] == PHONE:
        options.update(is_mobile=True, has_touch=True)
    ctx = browser.new_context(locale="en-GB", **options)
    ctx.set_default_timeout(SHOWN)
    contexts.append(ctx)
    return watch(ctx.new_page())


def record_sounds(p: Page) -> None:
    """Serve js/sound.js with ``play(kind)`` also noting each kind in ``window.__played``."""

    def patch(route: Route) -> None:
        response = route.fetch()
        body = response.text()
        assert SOUND_MARK in body, "js/sound.js exports play(kind)"
        route.fulfill(response=response, body=body.replace(SOUND_MARK, RECORD_SOUND))

    p.route(re.compile(r"/js/sound\.js$"), patch)


def played(p: Page) -> list[str]:
    kinds: list[str] = p.evaluate("() => window.__played || []")
    return kinds


def hold_animations(p: Page) -> None:
    """Stop the page's animation clock (CDP): an animation that starts stays at its first frame."""
    cdp = p.context.new_cdp_session(p)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0})


def chip(p: Page, preferred: int = 10) -> int:
    """Select the chip of ``preferred`` units (or the rack's first); its amount."""
    c = p.get_by_test_id(f"chip-{preferred}")
    if not c.count():
        c = p.locator('[data-testid^="chip-"]').first
    c.click()
    return int(c.get_attribute("data-amount") or "0")


def bet(p: Page, box: int, preferred: int = 10) -> int:
    """One chip on ``box``, confirmed; the stake."""
    amount = chip(p, preferred)
    p.get_by_test_id(f"bet-box-{box}").click()
    p.get_by_test_id("confirm-bets").click()
    expect(p.get_by_test_id(f"box-{box}")).to_have_attribute("data-mine", "true")
    return amount


def small_targets(p: Page) -> list[str]:
    """The visible buttons and fields of the table smaller than MIN_TARGET px either way."""
    found: list[str] = p.locator(".bj button:visible, .bj input:visible").evaluate_all(
        f"""(nodes) => nodes.map((n) => [n, n.getBoundingClientRect()])
            .filter(([n, r]) => r.width < {MIN_TARGET} || r.height < {MIN_TARGET})
            .map(([n, r]) => `${{n.dataset.testid || n.className}} ${{r.width}}x${{r.height}}`)"""
    )
    return found


def expect_animation(p: Page, selector: str, name: str) -> None:
    """Every element ``selector`` finds (one at least) runs the CSS animation ``name`` (``none``: none), as the page is
    drawn now (the page draws a table again after each event: each check reads the elements of one drawing)."""
    p.wait_for_function(
        """([selector, name]) => {
            const nodes = [...document.querySelectorAll(selector)];
            return nodes.length > 0 && nodes.every((n) => getComputedStyle(n).animationName === name);
        }""",
        arg=[selector, name],
        timeout=SHOWN,
    )


def in_view(p: Page, *testids: str) -> None:
    for testid in testids:
        expect(p.get_by_test_id(testid)).to_be_in_viewport(ratio=1)


# -- item 4 (and 10): the result moment ------------------------------------------------------------------------------


def test_the_result_moment_on_a_phone_stays_until_the_next_window(
    live: Server, browser: Browser, contexts: Any
) -> None:
    open_table(live, "bjp-moment")
    live.add_account("bjpam", credit=1_000)
    phone = new_page(browser, contexts, viewport=PHONE)
    csp = no_csp_violations(phone)
    sign_in(phone, live, "bjpam")
    join(phone, "bjp-moment")
    stake = bet(phone, 1)
    expect_balance(phone, 1_000 - stake)
    live.close_betting("bjp-moment", DEALER)
    for card in ("5S", "TH", "9D", "8C"):  # the burn, pam's ten, the dealer's nine, pam's eight
        report(live, "bjp-moment", card)
    phone.get_by_test_id("action-stand").click()
    report(live, "bjp-moment", "7C")
    report(live, "bjp-moment", "TD")  # the dealer: 26

    # The moment shows where the player is (the page brings it into view) ...
    moment = phone.get_by_test_id("round-result")
    expect(moment).to_be_visible()
    expect(phone.get_by_test_id("round-net")).to_have_attribute("data-net", str(stake))
    expect(phone.get_by_test_id("round-net")).to_contain_text(re.compile(rf"\D{stake}\b"))
    in_view(phone, "dealer-hand", "round-result", "round-net")
    # ... and above the fold: the dealer's hand, every box's result, the player's nets and the win.
    phone.evaluate("() => window.scrollTo(0, 0)")
    in_view(phone, "dealer-hand", "box-result-1", "round-net", "my-nets")
    expect(phone.get_by_test_id("dealer-hand")).to_have_attribute("data-total", "26")
    expect(phone.get_by_test_id("box-result-1")).to_have_attribute("data-result", "win")
    expect(phone.get_by_test_id("my-nets").locator('[data-kind="main"]')).to_have_attribute("data-net", str(stake))
    expect(phone.get_by_test_id("my-nets").locator("[data-total]")).to_have_attribute("data-total", str(stake))
    expect(phone.get_by_test_id("hand-1-0")).to_have_attribute("data-result", "win")
    expect(phone.get_by_test_id("phase")).to_have_attribute("data-phase", "settled")
    assert_accessible(phone, "blackjack: the result moment on a phone")

    # It stays through the pause, the same round on the table, and clears when the next window opens.
    settled_round = phone.get_by_test_id("phase").get_attribute("data-round")
    live.advance(PAUSE - 1)
    expect(phone.get_by_test_id("phase")).to_have_attribute("data-phase", "settled")
    phone.get_by_test_id("leave").click()  # a page opened during the pause shows the moment too (the table's view)
    join(phone, "bjp-moment")
    expect(phone.get_by_test_id("round-net")).to_have_attribute("data-net", str(stake))
    expect(phone.get_by_test_id("box-result-1")).to_have_attribute("data-result", "win")
    live.advance(1)
    expect(phone.get_by_test_id("phase")).to_have_attribute("data-phase", "betting")
    expect(phone.get_by_test_id("phase")).not_to_have_attribute("data-round", settled_round or "")
    expect(moment).to_have_count(0)
    expect(phone.get_by_test_id("round-net")).to_have_count(0)
    expect(phone.locator("[data-result]")).to_have_count(0)
    expect(phone.get_by_test_id("dealer-hand")).to_have_attribute("data-cards", "")
    assert live.wallet("bjpam") == 1_000 + stake
    expect_balance(phone, 1_000 + stake)
    check_ledger(live, "bjpam")
    assert not csp, csp


# -- item 6: the shoe indicator, and a plural -----------------------------------------------------------------------


def test_the_shoe_indicator_shows_the_cut_card_and_the_shuffle(live: Server, page: Page) -> None:
    open_table(live, "bjp-shoe", {**ONE_DECK, "side_bets_offered": ["streak"]})
    live.add_account("sho", credit=1_000)
    sign_in(page, live, "sho")
    join(page, "bjp-shoe")
    shoe = page.get_by_test_id("shoe")
    expect(shoe).to_have_attribute("data-cards", "52")
    expect(shoe).to_have_attribute("data-dealt", "0")
    expect(shoe).to_have_attribute("data-cut-at", "6")
    expect(shoe).to_have_attribute("data-shuffle-due", "true")  # a fresh shoe is shuffled before its first deal

    stake = chip(page)
    page.get_by_test_id("bet-box-1").click()
    page.get_by_test_id("streak-bet-2").click()  # a streak of two wins on box 1
    page.get_by_test_id("confirm-bets").click()
    expect_balance(page, 1_000 - 2 * stake)
    live.close_betting("bjp-shoe", DEALER)
    for card in ("5S", "TH", "9D", "8C"):
        report(live, "bjp-shoe", card)
    expect(shoe).to_have_attribute("data-dealt", "4")
    expect(shoe).to_have_attribute("data-shuffled", "true")
    expect(page.get_by_test_id("shoe-shuffled")).to_be_visible()  # this round's deal began with the shuffle
    expect(page.get_by_test_id("shoe-shuffle-due")).to_have_count(0)
    page.get_by_test_id("action-stand").click()
    report(live, "bjp-shoe", "7C")
    report(live, "bjp-shoe", "TD")  # the sixth card: the cut card is out
    expect(shoe).to_have_attribute("data-dealt", "6")
    expect(page.get_by_test_id("shoe-shuffle-due")).to_be_visible()
    # The streak marker counts one win, in the singular (Intl.PluralRules through the catalogue).
    marker = page.get_by_test_id("streak-1")
    expect(marker).to_have_attribute("data-wins", "1")
    expect(marker).to_contain_text("1 win in a row")
    page.get_by_test_id("lang-select").select_option("pt")
    expect(marker).to_contain_text("1 vitória seguida")
    page.get_by_test_id("lang-select").select_option("en")
    # The table's board: the dealer's last hands.
    expect(page.get_by_test_id("dealer-board").locator('[data-total="26"]')).to_have_count(1)
    assert_accessible(page, "blackjack: the shoe indicator at the result moment")
    first = int(page.get_by_test_id("round-net").get_attribute("data-net") or "x")

    live.advance(PAUSE)
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "betting")
    expect(page.get_by_test_id("shoe-shuffled")).to_have_count(0)
    expect(page.get_by_test_id("shoe-shuffle-due")).to_be_visible()  # the next deal starts a fresh shoe
    bet(page, 1)
    live.close_betting("bjp-shoe", DEALER)
    for card in ("2C", "9H", "5D", "9S"):  # a fresh shoe: the burn again, then the deal
        report(live, "bjp-shoe", card)
    expect(shoe).to_have_attribute("data-dealt", "4")
    expect(page.get_by_test_id("shoe-shuffled")).to_be_visible()
    page.get_by_test_id("action-stand").click()
    report(live, "bjp-shoe", "TC")
    report(live, "bjp-shoe", "2H")  # the dealer stands on 17; 18 wins the round and the streak of two
    expect(page.get_by_test_id("round-net")).to_be_visible()
    second = int(page.get_by_test_id("round-net").get_attribute("data-net") or "x")
    assert live.wallet("sho") - 1_000 == first + second
    expect_balance(page, live.wallet("sho"))
    check_ledger(live, "sho")


def test_no_shoe_indicator_under_a_continuous_shuffler(live: Server, page: Page) -> None:
    open_table(live, "bjp-csm", {"decks": 6, "dealing_device": "shuffler"}, live_table=False)
    live.add_account("csm", credit=1_000)
    sign_in(page, live, "csm")
    join(page, "bjp-csm")
    expect(page.get_by_test_id("dealer-hand")).to_be_visible()
    expect(page.get_by_test_id("shoe")).to_have_count(0)


# -- item 7: the feel -----------------------------------------------------------------------------------------------


def test_deal_and_win_animations_respect_reduced_motion_and_the_table_sounds(
    live: Server, browser: Browser, contexts: Any
) -> None:
    open_table(live, "bjp-feel")
    live.add_account("ann", credit=1_000)  # box 1, animations as usual
    live.add_account("rue", credit=1_000)  # box 2, prefers reduced motion
    moving = new_page(browser, contexts)
    still = new_page(browser, contexts, reduced_motion="reduce")
    for p, name, box in ((moving, "ann", 1), (still, "rue", 2)):
        record_sounds(p)
        sign_in(p, live, name)
        join(p, "bjp-feel")
        hold_animations(p)
        bet(p, box)
    live.close_betting("bjp-feel", DEALER)
    for card in ("5S", "TH", "6C", "9D", "8C", "TC"):  # the burn; ann 18, rue 16; the dealer's nine
        report(live, "bjp-feel", card)

    for p, hand, cards in ((moving, "hand-1-0", "TH,8C"), (still, "hand-2-0", "6C,TC")):
        expect(p.get_by_test_id(hand)).to_have_attribute("data-cards", cards)  # face down: its bettor sees it
        expect(p.get_by_test_id("dealer-hand")).to_have_attribute("data-cards", "9D")
    expect(moving.locator('[data-testid="hand-1-0"] .bj-card.bj-card--deal')).to_have_count(2)
    expect_animation(moving, '[data-testid="hand-1-0"] .bj-card, [data-testid="dealer-hand"] .bj-card', "bj-deal")
    assert moving.evaluate("() => document.getAnimations().length") > 0
    expect(still.locator('[data-testid="hand-2-0"] .bj-card')).to_have_count(2)
    expect_animation(still, ".bj-card", "none")
    assert still.evaluate("() => document.getAnimations().length") == 0

    moving.get_by_test_id("action-stand").click()
    still.get_by_test_id("action-stand").click()
    report(live, "bjp-feel", "8H")  # the dealer's 17: ann's 18 wins, rue's 16 loses
    win = moving.get_by_test_id("round-net")
    expect(win).to_have_attribute("data-net", "10")
    expect(win).to_have_class(re.compile(r"\bbj-banner--win\b"))
    expect(win).to_contain_text(re.compile(r"\D10\b"))  # the total won
    expect_animation(moving, '[data-testid="round-net"]', "bj-win")
    loss = still.get_by_test_id("round-net")
    expect(loss).to_have_attribute("data-net", "-10")
    expect_animation(still, '[data-testid="round-net"]', "none")
    assert still.evaluate("() => document.getAnimations().length") == 0

    # The sounds: a chip laid, the bell, the cards, and the result (a win for ann, a loss for rue).
    for p, result in ((moving, "win"), (still, "lose")):
        kinds = played(p)
        assert {"chip", "bell", "card", result} <= set(kinds), kinds
        assert ({"win", "lose"} - {result}).isdisjoint(kinds), kinds
    expect_balance(moving, 1_010)
    expect_balance(still, 990)
    check_ledger(live, "ann", "rue")


# -- item 9: the keyboard and the screen reader ---------------------------------------------------------------------


def test_keyboard_shortcuts_and_accessible_names(live: Server, page: Page) -> None:
    open_table(live, "bjp-keys")
    live.add_account("kai", credit=1_000)
    sign_in(page, live, "kai")
    join(page, "bjp-keys")
    assert_accessible(page, "blackjack: betting")

    ten = page.get_by_test_id("chip-10")
    key = ten.get_attribute("aria-keyshortcuts") or ""
    assert re.fullmatch(r"[1-9]", key), key
    expect(ten.locator("kbd")).to_have_text(key)
    page.keyboard.press(key)
    expect(ten).to_have_attribute("aria-checked", "true")
    box = page.get_by_test_id("bet-box-1")
    box.focus()
    page.keyboard.press("Enter")  # the focused box takes the chip
    expect(box).to_have_accessible_name(re.compile(r"Box 1: no bets; not yet placed: \D*10\b"))
    confirm = page.get_by_test_id("confirm-bets")
    expect(confirm).to_have_attribute("aria-keyshortcuts", "C")
    page.keyboard.press("c")
    expect_balance(page, 990)
    expect(page.get_by_test_id("box-1")).to_have_accessible_name(re.compile(r"Box 1: \D*10 staked, \D*10 of it yours"))
    expect(box).to_have_accessible_name(re.compile(r"Box 1: \D*10 staked"))
    expect(page.get_by_test_id("box-2")).to_have_accessible_name("Box 2: no bets")

    live.close_betting("bjp-keys", DEALER)
    for card in ("KD", "8H", "AS", "8D"):  # kai's pair of eights against the dealer's ace
        report(live, "bjp-keys", card)
    insurance = page.get_by_test_id("action-insurance")
    expect(insurance).to_have_attribute("aria-keyshortcuts", "I")
    expect(insurance.locator("kbd")).to_have_text("I")
    expect(page.get_by_test_id("action-decline").locator("kbd")).to_have_text("N")
    assert_accessible(page, "blackjack: the insurance offer")
    page.keyboard.press("i")  # the insurance offered: half the stake
    expect_balance(page, 985)
    split = page.get_by_test_id("action-split")
    expect(split).to_be_visible()
    for action, shortcut in (("hit", "H"), ("stand", "S"), ("double", "D"), ("split", "P")):
        expect(page.get_by_test_id(f"action-{action}")).to_have_attribute("aria-keyshortcuts", shortcut)
        expect(page.get_by_test_id(f"action-{action}").locator("kbd")).to_have_text(shortcut)
    assert_accessible(page, "blackjack: a decision")
    page.keyboard.press("p")
    expect_balance(page, 975)
    report(live, "bjp-keys", "TC")  # the first hand: 18
    expect(page.get_by_test_id("hand-1-0")).to_have_attribute("data-total", "18")
    page.keyboard.press("s")
    report(live, "bjp-keys", "9C")  # the second hand: 17
    expect(page.get_by_test_id("hand-1-1")).to_have_attribute("data-total", "17")
    page.keyboard.press("s")
    report(live, "bjp-keys", "7H")  # the dealer's 18: a push, a loss, the insurance lost
    expect(page.get_by_test_id("round-net")).to_have_attribute("data-net", "-15")
    assert_accessible(page, "blackjack: the result moment")
    assert live.wallet("kai") == 985
    check_ledger(live, "kai")

    live.advance(PAUSE)
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "betting")
    page.keyboard.press("b")  # rebet: the last round's main bet
    expect(confirm).to_have_attribute("data-total", "10")
    page.keyboard.press("u")
    expect(confirm).to_have_attribute("data-total", "0")
    expect_balance(page, 985)


# -- item 5, the player's side: a dealer watching ----------------------------------------------------------------------


def test_a_dealer_watching_sees_the_table_without_player_controls(
    live: Server, browser: Browser, contexts: Any
) -> None:
    open_table(live, "bjp-watch")
    live.add_account("bjwes", credit=1_000)
    r = live.client.post("/api/tables/bjp-watch/bets", json={"box": 3, "main": 20}, headers=live.as_("bjwes"))
    assert r.status_code == 201, r.text
    dealer = new_page(browser, contexts)
    sign_in(dealer, live, DEALER)
    join(dealer, "bjp-watch")
    expect(dealer.get_by_test_id("box-3")).to_have_attribute("data-bettors", "1")
    expect(dealer.get_by_test_id("countdown")).to_be_visible()
    expect(dealer.locator(PLAYER_CONTROLS)).to_have_count(0)

    live.close_betting("bjp-watch", DEALER)
    for card in ("KD", "9H", "AS", "7D"):  # wes 16 against the dealer's ace: his insurance offer
        report(live, "bjp-watch", card)
    expect(dealer.get_by_test_id("turn")).to_have_attribute("data-kind", "offer")
    expect(dealer.get_by_test_id("hand-3-0")).to_have_attribute("data-cards", re.compile(r"^(\?\?|9H),(\?\?|7D)$"))
    expect(dealer.locator(PLAYER_CONTROLS)).to_have_count(0)
    for action in ("decline", "stand"):
        r = live.client.post(
            "/api/tables/bjp-watch/actions", json={"action": action, "box": 3, "hand": 0}, headers=live.as_("bjwes")
        )
        assert r.status_code == 200, r.text
    report(live, "bjp-watch", "9C")  # the dealer's 20
    expect(dealer.get_by_test_id("box-result-3")).to_have_attribute("data-result", "loss")
    expect(dealer.get_by_test_id("round-net")).to_have_count(0)  # no result of his own
    expect(dealer.locator(PLAYER_CONTROLS)).to_have_count(0)
    assert live.wallet("bjwes") == 980
    check_ledger(live, "bjwes")


# -- item 10: the phone ------------------------------------------------------------------------------------------------


def test_phone_targets_and_the_chip_rack_beside_the_boxes(live: Server, browser: Browser, contexts: Any) -> None:
    open_table(live, "bjp-phone", {"side_bets_offered": ["any_pair", "streak"]})
    live.add_account("bjpia", credit=1_000)
    phone = new_page(browser, contexts, viewport=PHONE)
    csp = no_csp_violations(phone)
    sign_in(phone, live, "bjpia")
    join(phone, "bjp-phone")
    expect(phone.get_by_test_id("bet-box-7")).to_be_visible()
    assert_accessible(phone, "blackjack: betting on a phone")
    # Whichever box the player looks at, the chip rack and the bet slip are beside it.
    chip(phone)
    for n in range(7, 0, -1):
        target = phone.get_by_test_id(f"bet-box-{n}")
        target.scroll_into_view_if_needed()
        expect(target).to_be_in_viewport(ratio=1)
        in_view(phone, "chip-10", "confirm-bets")
    phone.get_by_test_id("bet-box-1").click()
    side = phone.get_by_test_id("side-any_pair")
    expect(side).to_have_accessible_name(re.compile(r"^Any Pair .* box 1: \D*0 on it$"))
    side.click()
    expect(side).to_have_accessible_name(re.compile(r"^Any Pair .* box 1: \D*10 on it$"))
    assert not small_targets(phone), small_targets(phone)
    phone.get_by_test_id("confirm-bets").click()
    expect_balance(phone, 980)

    live.close_betting("bjp-phone", DEALER)
    for card in ("KD", "8H", "AS", "8D"):
        report(live, "bjp-phone", card)
    expect(phone.get_by_test_id("action-insurance")).to_be_visible()
    in_view(phone, "action-insurance", "action-decline", "insurance-amount")
    assert not small_targets(phone), small_targets(phone)
    assert_accessible(phone, "blackjack: the insurance offer on a phone")
    phone.get_by_test_id("action-decline").click()
    expect(phone.get_by_test_id("action-stand")).to_be_visible()
    in_view(phone, "action-hit", "action-stand", "action-split")
    assert not small_targets(phone), small_targets(phone)
    r = live.client.post("/api/tables/bjp-phone/void", json={"reason": "a card fell"}, headers=live.as_(DEALER))
    assert r.status_code == 200, r.text
    expect_balance(phone, 1_000)
    check_ledger(live, "bjpia")
    assert not csp, csp


# -- item 11: the catalogues ------------------------------------------------------------------------------------------


def test_the_table_speaks_formally_in_portuguese_and_chinese(live: Server, page: Page) -> None:
    open_table(live, "bjp-lang")
    live.add_account("bjlia", credit=1_000)
    sign_in(page, live, "bjlia")
    join(page, "bjp-lang")
    stake = bet(page, 1)
    live.close_betting("bjp-lang", DEALER)
    for card in ("5S", "TH", "9D", "8C"):
        report(live, "bjp-lang", card)
    expect(page.get_by_test_id("action-stand")).to_be_visible()
    table = page.locator(".bj")
    page.get_by_test_id("lang-select").select_option("pt")
    expect(page.get_by_test_id("turn")).to_contain_text("A sua decisão")
    text = table.inner_text()
    assert not re.search(r"\b(você|vocês|tu|teu|tua)\b", text, re.IGNORECASE), text
    page.get_by_test_id("action-stand").click()
    report(live, "bjp-lang", "7C")
    report(live, "bjp-lang", "TD")
    expect(page.get_by_test_id("round-net")).to_contain_text("Ganhou")
    rid = page.get_by_test_id("phase").get_attribute("data-round") or ""
    for lang, informal in (("pt", r"\b(você|vocês|tu|teu|tua)\b"), ("zh-Hant", r"你")):
        page.get_by_test_id("lang-select").select_option(lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        text = table.inner_text()
        assert not re.search(informal, text, re.IGNORECASE), (lang, text)
        assert "{" not in text and rid not in text, (lang, text)  # no placeholder left, no round id in a sentence
    expect(page.get_by_test_id("box-1")).to_contain_text("您的座位")
    live.advance(PAUSE)
    page.get_by_test_id("lang-select").select_option("pt")
    expect(page.get_by_test_id("phase")).to_have_text("Façam as suas apostas")
    assert live.wallet("bjlia") == 1_000 + stake
    check_ledger(live, "bjlia")
