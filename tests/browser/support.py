"""Helpers of the browser tests: the tables they play on, signing in through the page, the casino's manual clock,
and the ledger checks each test ends with (asked over REST, never read off the page).

The server runs with a manual clock (``croupier serve --manual-clock``): no window closes while a test's bet is on
its way. An RNG round is spun when the test moves the clock to the window's end (``Server.run_out``), a live one
when its dealer rings the bell. Before each test the casino's clock is brought up to the wall clock
(:func:`clock_to_wall`), so that the page, which counts a window down against the browser's own clock, shows the
windows as a real server's."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page, expect

from server.support import ADMIN, PASSWORD, Server

CHROMIUM = "/usr/bin/chromium"
DEALER = "dealer"
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
# How long the page may take to show what the server did (with room to spare on a busy 2-core machine).
SHOWN = 20_000

# (table id, game, options): each test plays on its own tables, so the tests do not depend on each other's rounds.
TABLES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("ro-rng", "roulette", {"betting_seconds": 4}),
    ("ro-lang", "roulette", {"betting_seconds": 30}),
    ("sb-rng", "sicbo", {"betting_seconds": 4}),
    ("bj-rng", "blackjack", {"betting_seconds": 4, "decision_seconds": 30}),
    ("bj-live", "blackjack", {"live": True, "betting_seconds": 4, "decision_seconds": 60}),
    ("ro-live", "roulette", {"live": True, "betting_seconds": 60}),
    ("ro-recon", "roulette", {"live": True, "betting_seconds": 4}),
    ("ro-idle", "roulette", {"betting_seconds": 3}),  # nobody bets: the window starts again silently
)


def seed(server: Server) -> None:
    """The dealer and every table the tests use (the admin exists: ``croupier admin create-admin``)."""
    server.add_account(DEALER, role="dealer")
    for table, game, options in TABLES:
        body = {"table_id": table, "game": game, "decision_seconds": 30, **options}
        if options.get("live"):
            body["dealers"] = [DEALER]  # dealers belong to tables (issue 13)
        r = server.client.post("/api/tables", json=body, headers=server.login(ADMIN))
        assert r.status_code == 201, r.text


def watch(p: Page) -> Page:
    """Print the page's console errors, uncaught exceptions and refused requests (shown when the test fails)."""
    p.on("console", lambda m: print(f"[console.{m.type}] {m.text}") if m.type in ("error", "warning") else None)
    p.on("pageerror", lambda e: print(f"[pageerror] {e}"))
    p.on("response", lambda r: print(f"[{r.status}] {r.request.method} {r.url}") if r.status >= 400 else None)
    p.on("requestfailed", lambda r: print(f"[failed: {r.failure}] {r.method} {r.url}"))
    return p


def sign_in(page: Page, server: Server, name: str, password: str = PASSWORD) -> None:
    """Open the page and sign in as ``name``; the lobby (or the dealer's list of tables) shows."""
    page.goto(server.base + "/")
    page.get_by_test_id("login-username").fill(name)
    page.get_by_test_id("login-password").fill(password)
    page.get_by_test_id("login-submit").click()
    expect(page.get_by_test_id("table-card").first).to_be_visible(timeout=SHOWN)


def join(page: Page, table: str) -> None:
    """From the lobby, join ``table``: its phase shows and its WebSocket is open."""
    page.get_by_test_id(f"join-{table}").click()
    expect(page.get_by_test_id("phase")).to_be_visible(timeout=SHOWN)
    expect(page.get_by_test_id("conn-status")).to_have_attribute("data-state", "open", timeout=SHOWN)


def balance(page: Page) -> Locator:
    """The header's balance."""
    return page.get_by_test_id("balance")


def expect_balance(page: Page, amount: int) -> None:
    """The header shows ``amount`` (an integer, possibly with thousands separators)."""
    digits = r"\D*".join(str(amount))
    expect(balance(page)).to_have_text(re.compile(rf"^\D*{digits}\D*$"), timeout=SHOWN)


def spot(page: Page, bet: str, **data: str) -> Locator:
    """The layout's spot for ``bet`` (and its ``data-numbers`` / ``data-values`` when given)."""
    selector = f'[data-testid="spot"][data-bet="{bet}"]'
    for name, value in data.items():
        selector += f'[data-{name}="{value}"]'
    return page.locator(selector).first


def clock_to_wall(server: Server, *, ahead: float = 0.0) -> None:
    """Move the casino's manual clock up to the wall clock plus ``ahead`` seconds (where it is behind): the tables
    whose timers run out by then move on (a window with no bet starts again, silently)."""
    behind = (datetime.now(UTC) - server.advance(0)).total_seconds() + ahead
    if behind > 0:
        server.advance(behind)


def wall_seconds_left(server: Server, table: str) -> float:
    """How long ``table``'s deadline is from now on the wall clock (the page's countdown)."""
    body = server.client.get(f"/api/tables/{table}", headers=server.login(ADMIN)).json()
    assert body["deadline"] is not None, body
    return (datetime.fromisoformat(body["deadline"]) - datetime.now(UTC)).total_seconds()


def held(server: Server, name: str) -> int:
    """What ``name`` has on the layout, asked as ``name``."""
    r = server.client.get("/api/wallet", headers=server.login(name))
    assert r.status_code == 200, r.text
    amount: int = r.json()["held"]
    return amount


def report(server: Server, table: str, result: Any) -> dict[str, Any]:
    """The dealer reports a pocket, dice or a card."""
    r = server.client.post(f"/api/tables/{table}/results", json={"result": result}, headers=server.login(DEALER))
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def settled_round(server: Server, table: str, player: str) -> dict[str, Any]:
    """The last settled round of ``table`` in which ``player`` bet (the admin's recall)."""
    r = server.client.get(f"/api/tables/{table}/rounds", params={"last": 10}, headers=server.login(ADMIN))
    assert r.status_code == 200, r.text
    rounds = [x for x in r.json() if x["status"] == "settled" and any(h["player"] == player for h in x["bets"])]
    assert rounds, r.json()
    return rounds[-1]


def check_ledger(server: Server, *players: str) -> None:
    """Money is conserved: the reconciliation passes and none of ``players`` has money left on a layout."""
    rec = server.client.get("/api/reconciliation", headers=server.login(ADMIN))
    assert rec.status_code == 200, rec.text
    assert rec.json()["ok"], rec.json()
    for name in players:
        assert held(server, name) == 0, name


_AXE = Axe()
# axe-core's impact levels that fail a screen (issue 14, item 9); "moderate" and "minor" are reported, not failed.
BLOCKING_IMPACTS = frozenset({"critical", "serious"})


_SETTLED = """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())))
    .then(() => Promise.all(document.getAnimations()
        .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => null))))"""
"""A script that resolves, two frames on (what a pending render starts has started), once every finite CSS
animation and transition of the page has finished: no wait on the wall clock."""


def assert_accessible(page: Page, screen: str) -> None:
    """axe-core (``axe-playwright-python``, which bundles it) finds no critical or serious violation on the page as
    it is now, once its finite animations have ended (a card being dealt fades in: read half-way, on a busy machine,
    its colours are not the ones the player reads); ``screen`` names it in the failure. A violation is read again
    once the page settles again (an event that arrived meanwhile may have started a new deal animation): one that is
    really there is there every time."""
    blocking: list[dict[str, Any]] = []
    for _ in range(3):
        page.evaluate(_SETTLED)
        violations = _AXE.run(page).response["violations"]
        blocking = [v for v in violations if v.get("impact") in BLOCKING_IMPACTS]
        if not blocking:
            return
    lines = [f"{v['impact']}: {v['id']} ({v['help']}) at {[n['target'] for n in v['nodes']][:5]}" for v in blocking]
    raise AssertionError(f"{screen}: {len(blocking)} blocking accessibility violations:\n" + "\n".join(lines))


_RECTS = """(selectors) => {
  const rects = [];
  for (const selector of selectors) {
    const node = document.querySelector(selector);
    if (!node) return null;
    const r = node.getBoundingClientRect();
    if (!r.width || !r.height) return null;
    rects.push({ x: r.x, y: r.y, width: r.width, height: r.height });
  }
  return rects;
}"""


def rects(page: Page, *selectors: str) -> list[dict[str, float]]:
    """The laid-out rectangles of the first node each CSS selector matches, all read in one script (one frame), once
    every one of them is attached and has a size. A game page replaces its nodes on every render; measuring them one
    locator at a time can read a node the next render has just detached (Playwright's ``bounding_box`` is then
    None). Playwright re-runs the script on every animation frame until it answers: no wait on the wall clock."""
    handle = page.wait_for_function(_RECTS, arg=list(selectors), polling="raf")
    found: list[dict[str, float]] = handle.json_value()
    return found


def rect(node: Locator) -> dict[str, float]:
    """The laid-out rectangle of ``node``, found and measured in one script in the page (Playwright resolves the
    locator, waiting for it, and runs the script on the node it found), so a render that replaces the node between
    the two cannot leave it unmeasured."""
    found: dict[str, float] = node.evaluate(
        "(n) => { const r = n.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; }"
    )
    return found


def on_casino_time(page: Page, server: Server) -> None:
    """Run ``page``'s clock (Playwright's, installed before the page loads) from the casino's manual clock's time, so
    that the page counts windows down as the casino reads them even when earlier tests moved the casino's clock ahead
    of the wall clock (it never moves back). Time then flows at the wall clock's pace in the page."""
    page.clock.install(time=server.advance(0))
