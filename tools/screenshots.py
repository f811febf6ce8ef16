"""Screenshots of the browser table for the documentation (``make screenshots``).

Starts its own ``croupier serve --demo`` on a free loopback port and a throwaway SQLite database, gives the live
tables some history (the demo dealer reports a few results over REST), then signs in through the page with Debian's
Chromium (Playwright, headless) and writes PNGs into ``docs/screenshots/``: the lobby, roulette and sic bo with chips
on the layout, blackjack with the cards dealt and a decision waiting, and the dealer's console, each at desktop
(1366x900) and phone (390x844) size, and the roulette table once more in Traditional Chinese
(``roulette-desktop-zh.png``).
"""

from __future__ import annotations

import argparse
import random
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect, sync_playwright

from croupier.server import demo

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
TIMEOUT_MS = 20_000
PLAYER, PLAYER_PASSWORD = demo.PLAYERS[0]
OTHER, OTHER_PASSWORD = demo.PLAYERS[1]
DEALER, DEALER_PASSWORD = demo.DEALER
ROULETTE, SICBO, BLACKJACK = "roulette-live-1", "sicbo-live-1", "blackjack-live-1"


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def demo_server(folder: Path) -> Iterator[str]:
    """``croupier serve --demo`` on a fresh SQLite file in ``folder``; its base URL."""
    port = free_port()
    log = (folder / "server.log").open("wb")
    cmd = [sys.executable, "-c", "from croupier.cli import main; main()", "serve", "--demo"]
    url = f"sqlite:///{folder / 'croupier.sqlite3'}"
    process = subprocess.Popen(
        [*cmd, "--host", "127.0.0.1", "--port", str(port), "--database", url],
        cwd=folder,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise SystemExit(f"the server exited:\n{(folder / 'server.log').read_text()}")
            try:
                if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"the server did not answer:\n{(folder / 'server.log').read_text()}")
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)
        log.close()


class Rest:
    """The REST API as the demo's accounts."""

    def __init__(self, base: str) -> None:
        self.client = httpx.Client(base_url=base, timeout=30)
        self.tokens: dict[str, str] = {}

    def login(self, name: str, password: str) -> None:
        r = self.client.post("/api/login", json={"username": name, "password": password})
        r.raise_for_status()
        self.tokens[name] = r.json()["token"]

    def call(self, name: str, method: str, path: str, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {self.tokens[name]}", "Idempotency-Key": uuid.uuid4().hex}
        r = self.client.request(method, f"/api{path}", json=body, headers=headers)
        if r.status_code >= 400:
            raise SystemExit(f"{method} {path} as {name}: {r.status_code} {r.text}")
        return r.json() if r.content else None

    def status(self, table: str) -> str | None:
        status: str | None = self.call(DEALER, "GET", f"/tables/{table}")["status"]
        return status

    def wait(self, table: str, status: str) -> None:
        deadline = time.monotonic() + 30
        while self.status(table) != status:
            if time.monotonic() > deadline:
                raise SystemExit(f"{table} never reached {status!r}")
            time.sleep(0.1)


def history(rest: Rest, table: str, rounds: int, bet: dict[str, Any], result: Callable[[], Any]) -> None:
    """Play ``rounds`` quick live rounds (another player bets, the dealer rings the bell and reports)."""
    for _ in range(rounds):
        rest.call(OTHER, "POST", f"/tables/{table}/bets", bet)
        rest.call(DEALER, "POST", f"/tables/{table}/close-betting")
        rest.call(DEALER, "POST", f"/tables/{table}/results", {"result": result()})
        rest.wait(table, "betting")


def sign_in(page: Page, base: str, name: str, password: str) -> None:
    page.goto(base + "/")
    page.get_by_test_id("login-username").fill(name)
    page.get_by_test_id("login-password").fill(password)
    page.get_by_test_id("login-submit").click()
    expect(page.get_by_test_id("table-card").first).to_be_visible()


def join(page: Page, table: str) -> None:
    page.get_by_test_id(f"join-{table}").click()
    expect(page.get_by_test_id("conn-status")).to_have_attribute("data-state", "open")
    expect(page.get_by_test_id("phase")).to_be_visible()


def back_to_lobby(page: Page) -> None:
    page.get_by_test_id("leave").click()
    expect(page.get_by_test_id("table-card").first).to_be_visible()


def spot(page: Page, bet: str, **data: str) -> Any:
    selector = f'[data-testid="spot"][data-bet="{bet}"]'
    for name, value in data.items():
        selector += f'[data-{name}="{value}"]'
    return page.locator(selector).first


def pick_chip(page: Page, *preferred: int) -> None:
    """Select the first of ``preferred`` chips the rack has (the table's limits decide which it shows)."""
    for amount in preferred:
        chip = page.get_by_test_id(f"chip-{amount}")
        if chip.count():
            chip.click()
            return
    page.locator('[data-testid^="chip-"]').nth(1).click()


def shoot(pages: dict[str, Page], name: str, out: Path, focus: str | None = None, *, everywhere: bool = False) -> None:
    """Write ``<name>-<size>.png`` of each page, the phone's (or ``everywhere``) scrolled to ``focus`` when given."""
    for size, page in pages.items():
        if focus and (everywhere or size == "phone"):
            page.locator(focus).first.scroll_into_view_if_needed()
        else:
            page.evaluate("() => window.scrollTo(0, 0)")
        page.evaluate("() => document.querySelectorAll('[data-testid=\"toast\"]').forEach((t) => t.remove())")
        page.wait_for_timeout(300)  # let the last render and the chip animations settle
        path = out / f"{name}-{size}.png"
        page.screenshot(path=str(path))
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def run(browser: Browser, base: str, out: Path) -> None:
    rest = Rest(base)
    for name, password in ((PLAYER, PLAYER_PASSWORD), (OTHER, OTHER_PASSWORD), (DEALER, DEALER_PASSWORD)):
        rest.login(name, password)
    chance = random.Random(6)
    history(rest, ROULETTE, 12, {"type": "red", "amount": 10}, lambda: chance.randint(0, 36))
    history(rest, SICBO, 12, {"type": "big", "amount": 10}, lambda: [chance.randint(1, 6) for _ in range(3)])

    players: dict[str, Page] = {}
    for size, viewport in SIZES.items():
        phone = size == "phone"
        context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone, locale="en-GB")
        context.set_default_timeout(TIMEOUT_MS)
        players[size] = context.new_page()
        sign_in(players[size], base, PLAYER, PLAYER_PASSWORD)
    shoot(players, "lobby", out)

    # Roulette: chips placed from the desktop, one more pending on each page.
    for page in players.values():
        join(page, ROULETTE)
    desk = players["desktop"]
    pick_chip(desk, 25, 20, 50)
    for target in (
        spot(desk, "straight", numbers="17"),
        spot(desk, "split", numbers="17,20"),
        spot(desk, "corner", numbers="25,26,28,29"),
        spot(desk, "red"),
        spot(desk, "dozen", index="2"),
    ):
        target.click()
    desk.get_by_test_id("confirm-bets").click()
    for page in players.values():
        expect(spot(page, "dozen", index="2").locator(".chip-mark")).to_be_visible()
        pick_chip(page, 5, 10)
        spot(page, "straight", numbers="0").click()
    shoot(players, "roulette", out, focus='[data-testid="spot"][data-bet="straight"][data-numbers="0"]')
    # The same table in Traditional Chinese (the Noto CJK fonts draw it), then back to English.
    desk.get_by_test_id("lang-select").select_option("zh-Hant")
    expect(desk.locator("html")).to_have_attribute("lang", "zh-Hant")
    shoot({"desktop-zh": desk}, "roulette", out)
    desk.get_by_test_id("lang-select").select_option("en")
    expect(desk.locator("html")).to_have_attribute("lang", "en")

    # Sic bo.
    for page in players.values():
        back_to_lobby(page)
        join(page, SICBO)
    pick_chip(desk, 25, 20, 50)
    for target in (spot(desk, "big"), spot(desk, "total", values="10"), spot(desk, "single", values="3")):
        target.click()
    desk.get_by_test_id("confirm-bets").click()
    for page in players.values():
        expect(spot(page, "big").locator(".chip-mark")).to_be_visible()
        pick_chip(page, 5, 10)
        spot(page, "triple", values="6").click()
    shoot(players, "sicbo", out, focus='[data-testid="spot"][data-bet="big"]')

    # Blackjack: the player on box 3, another on box 5; the dealer deals until a decision waits.
    for page in players.values():
        back_to_lobby(page)
        join(page, BLACKJACK)
    pick_chip(desk, 25, 20, 50)
    desk.get_by_test_id("bet-box-3").click()
    desk.get_by_test_id("confirm-bets").click()
    expect(desk.get_by_test_id("box-3")).to_have_attribute("data-mine", "true")
    rest.call(OTHER, "POST", f"/tables/{BLACKJACK}/bets", {"box": 5, "main": 50})
    rest.call(DEALER, "POST", f"/tables/{BLACKJACK}/close-betting")
    for card in ("KD", "7C", "9D", "6H", "8S", "5H", "4C", "3D", "2S"):
        view = rest.call(PLAYER, "GET", f"/tables/{BLACKJACK}")["view"]
        if view and view.get("turn"):
            break
        rest.call(DEALER, "POST", f"/tables/{BLACKJACK}/results", {"result": card})
    for page in players.values():
        expect(page.locator('[data-testid^="action-"]').first).to_be_visible()
    shoot(players, "blackjack", out, focus='[data-testid="action-stand"]')

    # The dealer's console on the live roulette table.
    dealers: dict[str, Page] = {}
    for size, viewport in SIZES.items():
        phone = size == "phone"
        context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone, locale="en-GB")
        context.set_default_timeout(TIMEOUT_MS)
        dealers[size] = context.new_page()
        sign_in(dealers[size], base, DEALER, DEALER_PASSWORD)
        join(dealers[size], ROULETTE)
        expect(dealers[size].get_by_test_id("dealer-console")).to_be_visible()
        dealers[size].get_by_test_id("dealer-result-input").fill("17")
        dealers[size].get_by_test_id("dealer-void-reason").fill("the ball left the wheel")
    shoot(dealers, "dealer", out, focus='[data-testid="dealer-console"]', everywhere=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots", help="where the PNGs go")
    args = parser.parse_args()
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} is missing: `make install` installs Debian's chromium package")
    started = time.monotonic()
    with (
        tempfile.TemporaryDirectory(prefix="croupier-shots-") as tmp,
        demo_server(Path(tmp)) as base,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        try:
            run(browser, base, out)
        finally:
            browser.close()
    print(f"screenshots in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
