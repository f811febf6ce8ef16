"""The page is served and signs people in: the shell, a wrong password, the lobby's tables, the language switch."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from browser.support import SHOWN, TABLES, expect_balance, sign_in
from server.support import Server

pytestmark = pytest.mark.browser


def test_the_shell_is_served(live: Server) -> None:
    r = live.client.get("/")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/html")
    assert 'id="view"' in r.text


def test_sign_in_and_the_lobby(live: Server, page: Page) -> None:
    live.add_account("lia", credit=5_000)
    page.goto(live.base + "/")
    page.get_by_test_id("login-username").fill("lia")
    page.get_by_test_id("login-password").fill("not the password")
    page.get_by_test_id("login-submit").click()
    expect(page.get_by_test_id("login-error")).to_be_visible(timeout=SHOWN)
    expect(page.get_by_test_id("table-card")).to_have_count(0)

    sign_in(page, live, "lia")
    expect(page.get_by_test_id("table-card")).to_have_count(len(TABLES))
    for table, game, _ in TABLES:
        card = page.locator(f'[data-testid="table-card"][data-table="{table}"]')
        expect(card).to_have_attribute("data-game", game)
        expect(page.get_by_test_id(f"join-{table}")).to_be_visible()
    expect_balance(page, 5_000)
    # No WebSocket outside a table: the header says "signed in", not "offline".
    expect(page.get_by_test_id("conn-status")).to_have_attribute("data-state", "lobby")
    expect(page.get_by_test_id("conn-status")).to_have_text("Signed in")
