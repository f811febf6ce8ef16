"""The page is served and signs people in: the shell, a wrong password, the lobby's tables (their limits, last results
and countdowns), the header (balance, role, language, sound), amounts in every language, and the catalogues' plurals
and Portuguese form of address."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.support import (
    DEALER,
    SHOWN,
    TABLES,
    assert_accessible,
    expect_balance,
    join,
    on_casino_time,
    settled_round,
    sign_in,
    wall_seconds_left,
)
from server.support import ADMIN, Server

pytestmark = pytest.mark.browser

LANGS = ("en", "pt", "zh-Hant")
# How Intl.NumberFormat writes 1,234,567 patacas in each page language (Chromium's ICU; the space may be a no-break
# space, which the tests read as a space).
BIG = {"en": "MOP 1,234,567", "pt": "MOP 1.234.567", "zh-Hant": "MOP 1,234,567"}
MILLION = {"en": "MOP 1,000,000", "pt": "MOP 1.000.000", "zh-Hant": "MOP 1,000,000"}


def spaced(text: str) -> str:
    """``text`` with its no-break and narrow spaces read as plain spaces."""
    return re.sub(r"[\u00a0\u202f]", " ", text)


def switch(page: Page, lang: str) -> None:
    page.get_by_test_id("lang-select").select_option(lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)


def test_the_shell_is_served(live: Server) -> None:
    r = live.client.get("/")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/html")
    assert 'id="view"' in r.text
    assert live.client.get("/api/config").json()["currency"] == "MOP"  # the tests' server names none


def test_sign_in_and_the_lobby(live: Server, page: Page) -> None:
    live.add_account("lia", credit=5_000)
    page.goto(live.base + "/")
    expect(page.get_by_test_id("login-submit")).to_be_visible()
    assert_accessible(page, "sign-in")
    page.get_by_test_id("login-username").fill("lia")
    page.get_by_test_id("login-password").fill("not the password")
    page.get_by_test_id("login-submit").click()
    expect(page.get_by_test_id("login-error")).to_be_visible(timeout=SHOWN)
    expect(page.get_by_test_id("table-card")).to_have_count(0)
    assert_accessible(page, "sign-in with an error")

    sign_in(page, live, "lia")
    expect(page.get_by_test_id("table-card").nth(len(TABLES) - 1)).to_be_visible()  # other tests add tables
    for table, game, _ in TABLES:
        card = page.locator(f'[data-testid="table-card"][data-table="{table}"]')
        expect(card).to_have_attribute("data-game", game)
        expect(page.get_by_test_id(f"join-{table}")).to_be_visible()
    expect_balance(page, 5_000)
    # No WebSocket outside a table: the header says "signed in", not "offline".
    expect(page.get_by_test_id("conn-status")).to_have_attribute("data-state", "lobby")
    expect(page.get_by_test_id("conn-status")).to_have_text("Signed in")
    assert_accessible(page, "lobby")


def test_amounts_read_in_every_language(live: Server, page: Page) -> None:
    """Issue 14 item 3: the header's balance and the lobby's limits carry thousands separators and the deployment's
    currency in each language; the blackjack card shows the main bet's range, not insurance's."""
    live.add_account("mei", credit=1_234_567)
    sign_in(page, live, "mei")
    tables = {t["table"]: t for t in live.client.get("/api/tables", headers=live.login("mei")).json()}
    bj = tables["bj-rng"]["limits"]["bets"]
    assert bj["insurance"]["min"] < bj["main"]["min"]  # the card must not show insurance's minimum
    assert bj["main"]["max"] == 1_000_000
    card = page.locator('[data-testid="table-card"][data-table="bj-rng"] .limits')
    expect(card).to_have_attribute("data-min", str(bj["main"]["min"]))
    balance = page.get_by_test_id("balance")
    expect(balance).to_have_attribute("data-amount", "1234567")
    for lang in LANGS:
        switch(page, lang)
        expect(balance).to_have_text(re.compile(re.escape(BIG[lang]).replace(r"\ ", r"[\s\u00a0\u202f]")))
        text = spaced(card.inner_text())
        assert f"MOP {bj['main']['min']} – {MILLION[lang]}" in text, (lang, text)
    expect_balance(page, 1_234_567)


def test_a_dealer_has_no_balance_and_the_role_follows_the_language(live: Server, page: Page) -> None:
    """Issue 14 items 5 and 11: a dealer's header shows no balance (not "Balance 0"), on the lobby and on a live
    table; the role in the header is re-rendered on a language switch."""
    sign_in(page, live, DEALER)
    role = page.locator("#who .who-role")
    expect(role).to_have_text("dealer")
    expect(page.get_by_test_id("balance")).to_be_hidden()
    for table in ("ro-live", "bj-live"):
        join(page, table)
        expect(page.get_by_test_id("dealer-console")).to_be_visible()
        expect(page.get_by_test_id("balance")).to_be_hidden()
        assert_accessible(page, f"{table}, a dealer's header")
        page.get_by_test_id("leave").click()
        expect(page.get_by_test_id("table-card").first).to_be_visible()
    expected = {"zh-Hant": "荷官", "pt": "croupier", "en": "dealer"}
    for lang, word in expected.items():
        switch(page, lang)
        expect(role).to_have_text(word)
        expect(page.get_by_test_id("balance")).to_be_hidden()


RECORD_SOUND = """() => {
  window.__tones = 0;
  const Ctor = window.AudioContext;
  if (!Ctor) return;
  const make = Ctor.prototype.createOscillator;
  Ctor.prototype.createOscillator = function (...args) { window.__tones += 1; return make.apply(this, args); };
}"""
PLAY = "(kind) => import('/js/sound.js').then((m) => m.play(kind))"


def test_sound_waits_for_a_gesture_and_the_mute_is_remembered(live: Server, page: Page) -> None:
    """Issue 14 item 7: the sounds are synthesised (oscillators, no audio file), nothing plays before the first
    gesture, the header's mute toggle silences them and is remembered in this browser."""
    page.add_init_script(script=f"({RECORD_SOUND})()")
    audio_files: list[str] = []
    page.on("request", lambda r: audio_files.append(r.url) if r.resource_type == "media" else None)
    live.add_account("sol", credit=100)
    page.goto(live.base + "/")
    mute = page.get_by_test_id("mute")
    expect(mute).to_have_attribute("aria-pressed", "false")
    assert page.evaluate(PLAY, "bell") is False  # no gesture yet
    assert page.evaluate("() => window.__tones") == 0
    assert page.evaluate("() => typeof window.AudioContext") == "function"

    page.get_by_test_id("login-username").click()  # a first gesture
    assert page.evaluate(PLAY, "bell") is True
    assert page.evaluate("() => window.__tones") > 0
    assert page.evaluate(PLAY, "no-such-sound") is False

    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "true")
    before = page.evaluate("() => window.__tones")
    for kind in ("chip", "bell", "spin", "dice", "card", "win", "lose"):
        assert page.evaluate(PLAY, kind) is False, kind
    assert page.evaluate("() => window.__tones") == before
    assert_accessible(page, "sign-in, muted")

    page.reload()
    expect(page.get_by_test_id("mute")).to_have_attribute("aria-pressed", "true")  # remembered
    sign_in(page, live, "sol")
    expect(page.get_by_test_id("mute")).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("mute").click()
    expect(page.get_by_test_id("mute")).to_have_attribute("aria-pressed", "false")
    for kind in ("chip", "bell", "spin", "dice", "card", "win", "lose"):
        assert page.evaluate(PLAY, kind) is True, kind
    assert not audio_files


PLURAL = "([key, params]) => import('/js/app.js').then((m) => m.t(key, params))"


def test_plurals_follow_the_language(live: Server, page: Page) -> None:
    """Issue 14 item 11: a catalogue value may be plural forms, chosen by Intl.PluralRules for the page's language."""
    live.add_account("plu", credit=100)
    sign_in(page, live, "plu")
    expect(page.get_by_test_id("table-card").first).to_be_visible()

    def say(key: str, **params: int) -> str:
        text: str = page.evaluate(PLURAL, [key, params])
        return text

    assert say("lobby.closes_in", count=1) == "Bets close in 1 second"
    assert say("lobby.closes_in", count=5) == "Bets close in 5 seconds"
    assert say("bet.placed", count=1) == "1 bet accepted."
    assert say("bet.placed", count=3) == "3 bets accepted."
    assert say("table.seconds_left", seconds=1) == "1 second left to bet"  # the only number chooses the form
    switch(page, "pt")
    assert say("bet.placed", count=1) == "1 aposta aceite."
    assert say("bet.placed", count=2) == "2 apostas aceites."
    switch(page, "zh-Hant")
    assert say("lobby.closes_in", count=1) == say("lobby.closes_in", count=2).replace("2", "1")


def test_portuguese_addresses_the_player_formally(live: Server, page: Page) -> None:
    """Issue 14 item 11: one Portuguese form of address, the formal third person ("o seu saldo", "faça"); the call to
    the table is "Façam as suas apostas"."""
    catalogue: dict[str, Any] = live.client.get("/i18n/core.pt.json").json()
    texts = [v for value in catalogue.values() for v in (value.values() if isinstance(value, dict) else [value])]
    informal = re.compile(r"\b(você|vocês|tu|teu|tua|teus|tuas|vosso|vossa|vossos|vossas|te|contigo)\b", re.I)
    assert not [t for t in texts if informal.search(t)]
    assert catalogue["phase.betting"] == "Façam as suas apostas"
    live.add_account("rui", credit=100)
    sign_in(page, live, "rui")
    switch(page, "pt")
    join(page, "ro-lang")
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "betting")
    expect(page.get_by_test_id("phase")).to_have_text("Façam as suas apostas")


def test_the_lobby_shows_last_results_and_countdowns(live: Server, page: Page) -> None:
    """Issue 14 item 6: each card shows its table's last results (pockets with their colour, dice) and a countdown to
    the bell from the table's deadline."""
    live.add_account("lob", credit=1_000)
    for table, bet in (("ro-rng", {"type": "red", "amount": 10}), ("sb-rng", {"type": "big", "amount": 10})):
        live.betting(table)  # an earlier test may have left it in its result moment
        r = live.client.post(f"/api/tables/{table}/bets", json=bet, headers=live.as_("lob"))
        assert r.status_code == 201, r.text
        live.run_out(table)
        settled_round(live, table, "lob")
    on_casino_time(page, live)  # earlier tests may have moved the casino's clock ahead of the wall clock
    sign_in(page, live, "lob")
    for table in ("ro-rng", "sb-rng"):
        recent = live.client.get(f"/api/tables/{table}/history", params={"last": 8}, headers=live.login("lob"))
        results = recent.json()["results"]
        assert results
        items = page.locator(f'[data-testid="table-card"][data-table="{table}"] [data-testid="table-recent"] li')
        if table == "ro-rng":
            expected = [str(r["pocket"]) for r in results]
            expect(items.first).to_have_attribute("data-colour", results[0]["colour"], timeout=SHOWN)
        else:
            expected = [",".join(map(str, r["dice"])) for r in results]
        expect(items).to_have_count(len(expected), timeout=SHOWN)
        assert items.evaluate_all("(ls) => ls.map((l) => l.dataset.result)") == expected

    # ro-lang's window is 30 s long: its card counts it down on the page's clock, which runs on the casino's time.
    countdown = page.locator('[data-testid="table-card"][data-table="ro-lang"] [data-testid="table-countdown"]')
    left = wall_seconds_left(live, "ro-lang")
    assert left > 3
    expect(countdown).to_have_attribute("data-seconds", re.compile(r"^[1-9]\d*$"))
    seconds = int(countdown.get_attribute("data-seconds") or "0")
    # the page recomputes on its own timer, which a busy machine delays: bound it by the window, not the wall clock,
    # and see it count down
    assert 0 < seconds <= 30
    expect(countdown).not_to_have_attribute("data-seconds", str(seconds), timeout=SHOWN)
    assert int(countdown.get_attribute("data-seconds") or "0") < seconds
    assert re.search(r"Bets close in \d+ seconds?", countdown.inner_text())
    assert_accessible(page, "lobby with results")
    assert live.client.get("/api/reconciliation", headers=live.login(ADMIN)).json()["ok"]
