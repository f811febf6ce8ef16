"""The panels under every table (issue 14 items 3, 8, 9 and 11): the rules panel from the table's effective rules (the
few lines a player needs, the full listing behind a "more", the main game's payments from the server), the player's
own rounds (amounts in the page's language and currency, translated bet kinds, round ids as data, no list marker
running into an amount), and axe-core on the panels and on every game's table screen."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.support import SHOWN, assert_accessible, check_ledger, join, settled_round, sign_in
from server.support import ADMIN, Server

pytestmark = pytest.mark.browser

LANGS = ("en", "pt", "zh-Hant")


def mop(amount: int, lang: str, *, signed: bool = False) -> str:
    """``amount`` as Intl.NumberFormat writes it in patacas for the page's language (spaces made plain)."""
    digits = f"{abs(amount):,}".replace(",", "." if lang == "pt" else ",")
    sign = "-" if amount < 0 else ("+" if signed and amount > 0 else "")
    return f"{sign}MOP {digits}"


def spaced(text: str) -> str:
    return re.sub(r"[\u00a0\u202f]", " ", text)


def switch(page: Page, lang: str) -> None:
    page.get_by_test_id("lang-select").select_option(lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)


def open_table(server: Server, table: str, rules: dict[str, Any]) -> None:
    """A blackjack table of the test's own, with ``rules``."""
    body = {"table_id": table, "game": "blackjack", "rules": rules, "betting_seconds": 30, "decision_seconds": 30}
    r = server.client.post("/api/tables", json=body, headers=server.login(ADMIN))
    assert r.status_code == 201, r.text


def catalogue(server: Server, module: str, lang: str) -> dict[str, Any]:
    data: dict[str, Any] = server.client.get(f"/i18n/{module}.{lang}.json").json()
    return data


def test_the_rules_panel_says_what_applies_with_the_main_payments_first(live: Server, page: Page) -> None:
    """Issue 14 item 8 at a statute table (shoe, procedure 1, Any Pair only) and at a shuffler table with Sevens and
    procedure 3: about eight lines first (limits of the main bet, a blackjack 3:2, insurance, five cards 1:2, the
    special bonus), the full listing behind the "more", and no sentence of an option that does not apply."""
    open_table(live, "bj-rules-csm", {"preset": "macau-typical", "procedure": 3, "side_bets_offered": ["sevens"]})
    open_table(live, "bj-rules-plain", {"five_card_payment": False, "special_bonus": False})
    live.add_account("rosa", credit=1_000)
    sign_in(page, live, "rosa")

    join(page, "bj-rng")
    panel = page.get_by_test_id("rules-panel")
    summary = page.get_by_test_id("rules-summary")
    lines = summary.locator(":scope > li")
    expect(lines.first).to_be_visible(timeout=SHOWN)
    assert 5 <= lines.count() <= 9
    # The main bet's minimum, not insurance's.
    expect(summary.locator('[data-line="limits"]')).to_have_attribute("data-min", "2")
    expect(summary.locator('[data-line="pays-blackjack"]')).to_have_text(re.compile(r"3:2"))
    expect(summary.locator('[data-line="pays-insurance"]')).to_have_text(re.compile(r"2:1"))
    expect(summary.locator('[data-line="pays-five_card"]')).to_have_text(re.compile(r"1:2"))
    expect(summary.locator('[data-line="pays-special_bonus"]')).to_have_text(re.compile(r"3:1"))
    expect(summary.locator('[data-key="blackjack.rule.procedure.1"]')).to_be_visible()
    more = page.get_by_test_id("rules-more")
    expect(more).not_to_have_attribute("open", "")
    expect(more.locator(".paytable")).to_be_hidden()
    more.locator("summary").click()
    expect(more.locator('.paytable tr[data-bet="blackjack"] td').first).to_have_text("3:2")
    expect(more.locator('.paytable tr[data-bet="five_card"] td').first).to_have_text("1:2")
    expect(more.locator('.paytable tr[data-bet="main"] td').first).to_have_text("1:1")
    keys = panel.locator(".rules-text > li").evaluate_all("(ls) => ls.map((l) => l.dataset.key)")
    assert "blackjack.rule.cards_behind_cut" in keys
    assert not [k for k in keys if k.startswith(("blackjack.rule.peek", "blackjack.rule.sevens_"))], keys
    expect(panel).not_to_contain_text("checks the hole card")
    expect(panel).not_to_contain_text("Sevens")
    assert_accessible(page, "blackjack rules, the more open")
    for lang in LANGS[1:]:
        switch(page, lang)
        assert spaced(summary.locator('[data-line="limits"]').inner_text()).endswith(mop(1_000_000, lang))
        expect(summary.locator('[data-line="pays-blackjack"]')).to_have_text(re.compile(r"3:2"))
    switch(page, "en")

    page.get_by_test_id("leave").click()
    join(page, "bj-rules-csm")
    expect(summary.locator('[data-line="pays-blackjack"]')).to_be_visible(timeout=SHOWN)
    page.get_by_test_id("rules-more").locator("summary").click()
    keys = panel.locator(".rules-text > li").evaluate_all("(ls) => ls.map((l) => l.dataset.key)")
    assert "blackjack.rule.dealing_device.shuffler" in keys
    assert not [k for k in keys if k.startswith("blackjack.rule.cards_behind_cut")], keys  # no cut card
    assert "blackjack.rule.peek.yes" in keys and "blackjack.rule.sevens_third_card.after_split" in keys
    assert "blackjack.rule.procedure.3" in summary.locator(":scope > li").evaluate_all(
        "(ls) => ls.map((l) => l.dataset.key)"
    )

    page.get_by_test_id("leave").click()
    join(page, "bj-rules-plain")
    expect(summary.locator('[data-line="pays-blackjack"]')).to_be_visible(timeout=SHOWN)
    expect(summary.locator('[data-line="pays-five_card"]')).to_have_count(0)
    expect(summary.locator('[data-line="pays-special_bonus"]')).to_have_count(0)
    expect(page.locator('.paytable tr[data-bet="special_bonus"]')).to_have_count(0)


def test_roulette_and_sicbo_rules_lead_with_their_payouts(live: Server, page: Page) -> None:
    live.add_account("rui2", credit=1_000)
    sign_in(page, live, "rui2")
    for table, pays in (("ro-idle", r"Straight 35:1 · Split 17:1"), ("sb-rng", r"Total 6:1 – 50:1")):
        join(page, table)
        summary = page.get_by_test_id("rules-summary")
        expect(summary.locator('[data-line="pays"]')).to_contain_text(re.compile(pays), timeout=SHOWN)
        assert summary.locator(":scope > li").count() <= 9
        page.get_by_test_id("rules-more").locator("summary").click()
        assert_accessible(page, f"{table} rules, the more open")
        page.get_by_test_id("leave").click()
        expect(page.get_by_test_id("table-card").first).to_be_visible()


def test_my_rounds_read_in_every_language(live: Server, page: Page) -> None:
    """Issue 14 items 3 and 11: the recall's stakes and nets in the page's currency with thousands separators, bet
    kinds translated, the round id shown as data (never wrapped in a sentence), and no list marker glued to an
    amount."""
    live.add_account("nina", credit=100_000)
    for bet in ({"type": "straight", "numbers": [17], "amount": 2_000}, {"type": "red", "amount": 1_500}):
        r = live.client.post("/api/tables/ro-rng/bets", json=bet, headers=live.as_("nina"))
        assert r.status_code == 201, r.text
    live.run_out("ro-rng")
    round_id = settled_round(live, "ro-rng", "nina")["round"]
    mine = live.client.get("/api/me/rounds", params={"table": "ro-rng"}, headers=live.login("nina")).json()[0]
    assert mine["round"] == round_id
    open_table(live, "bj-recall", {})
    r = live.client.post("/api/tables/bj-recall/bets", json={"box": 2, "main": 1_200}, headers=live.as_("nina"))
    assert r.status_code == 201, r.text

    sign_in(page, live, "nina")
    join(page, "ro-rng")
    recall = page.get_by_test_id("recall-panel")
    expect(recall).to_have_attribute("open", "")
    item = recall.locator(f'.recall-round[data-round="{round_id}"]')
    expect(item).to_be_visible(timeout=SHOWN)
    # Rounds are blocks, not a numbered list: nothing can read "-400" then "2." as "-4002".
    assert recall.locator(".recall-list").evaluate("(l) => l.tagName") == "UL"
    styles = recall.locator(".recall-round").evaluate_all("(ls) => ls.map((l) => getComputedStyle(l).listStyleType)")
    assert styles and set(styles) == {"none"}, styles
    assert_accessible(page, "roulette, the rules and recall panels open")
    for lang in LANGS:
        switch(page, lang)
        roulette = catalogue(live, "roulette", lang)
        expect(item.locator(".round-id")).to_have_text(round_id)
        head = item.locator(".recall-head").inner_text()
        assert "第" not in head and "局" not in head.replace(item.locator(".recall-label").inner_text(), "")
        for bet in mine["bets"]:
            row = item.locator(f'tr[data-ref="{bet["ref"]}"]')
            kind = roulette[f"roulette.bet.{bet['bet']['type']}"]
            expect(row.locator(".recall-kind")).to_have_text(re.compile(rf"^{re.escape(kind)}(\s|$)"))
            cells = [spaced(c) for c in row.locator("td.amount").all_inner_texts()]
            assert cells == [mop(bet["amount"], lang), mop(bet["net"], lang, signed=True)], (lang, cells)
        net = spaced(item.locator(".recall-net").inner_text())
        assert mop(mine["net"], lang, signed=True) in net, (lang, net)

    switch(page, "zh-Hant")
    page.get_by_test_id("leave").click()
    join(page, "bj-recall")
    box = catalogue(live, "core", "zh-Hant")["recall.box"].replace("{box}", "2")
    main = catalogue(live, "blackjack", "zh-Hant")["bj.kind.main"]
    expect(page.get_by_test_id("recall-panel").locator(".recall-kind").first).to_have_text(f"{box} · {main}")
    expect(page.get_by_test_id("recall-panel").locator("td.amount").first).to_have_text(re.compile(r"MOP.1,200$"))
    switch(page, "en")
    check_ledger(live)


@pytest.mark.parametrize("table", ["ro-rng", "sb-rng", "bj-rng"])
def test_every_game_screen_is_accessible(live: Server, page: Page, table: str) -> None:
    """Issue 14 item 9: axe-core finds no critical or serious violation on each game's table screen, with the header,
    the rules (and its "more") and the recall panels open, in each language."""
    live.add_account(f"axe-{table}", credit=1_000)
    sign_in(page, live, f"axe-{table}")
    join(page, table)
    expect(page.get_by_test_id("rules-summary").locator("li").first).to_be_visible(timeout=SHOWN)
    page.get_by_test_id("rules-more").locator("summary").click()
    for lang in LANGS:
        switch(page, lang)
        assert_accessible(page, f"{table} in {lang}")
