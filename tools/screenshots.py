"""Screenshots of the browser table for the documentation (``make screenshots``).

Starts its own ``croupier serve --demo`` on a free loopback port and a throwaway SQLite database, gives the live
tables some history (the demo dealer reports a few results over REST), then signs in through the page with Debian's
Chromium (Playwright, headless) and writes PNGs into ``docs/screenshots/``, each at desktop (1366x900) and phone
(390x844) size: the lobby; roulette and sic bo with chips on the layout, their history boards (``-boards``) and their
result moment (``-result``); blackjack with the cards dealt and a decision waiting, its result (``-result``) and its
boards (``-boards``: the shoe, or the dealer's last hands under the demo's shuffler); the dealer's console of each
live table (``dealer`` for roulette, ``dealer-sicbo``, ``dealer-blackjack``, and ``dealer-blackjack-deal`` once the
bell has rung); each game's table at desktop size in Traditional Chinese and Portuguese
(``<game>-desktop-zh.png``, ``<game>-desktop-pt.png``); the demo's provably fair roulette table with the player's own
seed chosen and a settled round verified in "My recent rounds" (``roulette-fair-desktop.png``, the whole page); and
the admin's bias watch (``watch``) on a live sic bo table of its own whose dealer reported dice loaded on the six.

The demo runs on the wall clock: each round's result moment lasts the demo tables' ``result_display_seconds``. A group
of pictures that cannot be taken (a screen not drawn yet) is reported, the others are still written, and the script
exits non-zero.
"""

from __future__ import annotations

import argparse
import random
import re
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
from playwright.sync_api import Error as PlaywrightError

from croupier.server import demo

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
TIMEOUT_MS = 20_000
PLAYER, PLAYER_PASSWORD = demo.PLAYERS[0]
OTHER, OTHER_PASSWORD = demo.PLAYERS[1]
DEALER, DEALER_PASSWORD = demo.DEALER
ROULETTE, SICBO, BLACKJACK = "roulette-live-1", "sicbo-live-1", "blackjack-live-1"
FAIR_ROULETTE = "roulette-1"  # the demo's RNG roulette: provably fair, a 20 s window on the wall clock
ADMIN, ADMIN_PASSWORD = demo.ADMIN
WATCHED, WATCHED_ROLLS, HOT_FACE = "sicbo-watch", 30, 6  # a live sic bo table opened for the watch's picture
PLAYER_SEED = "ana's lucky seed"


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


def history(rest: Rest, plays: dict[str, tuple[dict[str, Any], Callable[[], Any]]], rounds: int) -> None:
    """Play ``rounds`` quick live rounds on each table of ``plays`` (another player bets, the dealer rings the bell
    and reports), the tables side by side so that their result moments pass together."""
    for _ in range(rounds):
        for table, (bet, result) in plays.items():
            rest.call(OTHER, "POST", f"/tables/{table}/bets", bet)
            rest.call(DEALER, "POST", f"/tables/{table}/close-betting")
            rest.call(DEALER, "POST", f"/tables/{table}/results", {"result": result()})
        for table in plays:
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
        if focus and (everywhere or size.startswith("phone")):
            page.locator(focus).first.scroll_into_view_if_needed()
        else:
            page.evaluate("() => window.scrollTo(0, 0)")
        page.evaluate("() => document.querySelectorAll('[data-testid=\"toast\"]').forEach((t) => t.remove())")
        page.wait_for_timeout(300)  # let the last render and the chip animations settle
        path = out / f"{name}-{size}.png"
        page.screenshot(path=str(path))
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


class Shots:
    """Runs each group of screenshots; a group that fails (a screen another part of the page does not draw yet) is
    reported and the others still run; :meth:`done` says whether every group was written."""

    def __init__(self) -> None:
        self.failed: list[str] = []

    def group(self, name: str, take: Callable[[], None]) -> None:
        try:
            take()
        except (PlaywrightError, AssertionError, SystemExit) as err:
            first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            print(f"could not take {name}: {first}", file=sys.stderr)
            self.failed.append(name)

    def done(self) -> None:
        if self.failed:
            raise SystemExit(f"screenshots missing: {', '.join(self.failed)}")


def contexts(browser: Browser, base: str, name: str, password: str) -> dict[str, Page]:
    """``name`` signed in at desktop and phone size, each in a browser profile of its own."""
    pages: dict[str, Page] = {}
    for size, viewport in SIZES.items():
        phone = size == "phone"
        context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone, locale="en-GB")
        context.set_default_timeout(TIMEOUT_MS)
        pages[size] = context.new_page()
        sign_in(pages[size], base, name, password)
    return pages


def in_languages(page: Page, name: str, out: Path, focus: str | None = None) -> None:
    """``<name>-desktop-zh.png`` and ``<name>-desktop-pt.png`` of ``page`` (Traditional Chinese in the Noto CJK fonts,
    then Portuguese), then back to English."""
    for lang, tag in (("zh-Hant", "zh"), ("pt", "pt")):
        page.get_by_test_id("lang-select").select_option(lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        shoot({f"desktop-{tag}": page}, name, out, focus, everywhere=True)
    page.get_by_test_id("lang-select").select_option("en")
    expect(page.locator("html")).to_have_attribute("lang", "en")


def result_moment(rest: Rest, players: dict[str, Page], table: str, result: Any, *, name: str, out: Path) -> None:
    """The dealer rings the bell and reports ``result``: the result moment (the number or the dice, the player's
    result) on each page while the table pauses on it, then the next window."""
    rest.call(DEALER, "POST", f"/tables/{table}/close-betting")
    rest.call(DEALER, "POST", f"/tables/{table}/results", {"result": result})
    # The phone first: the moment lasts the table's pause only.
    ordered = dict(sorted(players.items(), key=lambda item: item[0] != "phone"))
    for page in ordered.values():
        expect(page.get_by_test_id("result-moment")).to_be_visible()
    shoot(ordered, name, out, focus='[data-testid="result-moment"]')
    rest.wait(table, "betting")


def deal_until_decision(rest: Rest, cards: Iterator[str]) -> None:
    """The dealer reports cards on the live blackjack table until a player's decision waits."""
    for _ in range(20):
        desc = rest.call(DEALER, "GET", f"/tables/{BLACKJACK}")
        prompt = desc.get("dealer_prompt") or {}
        turn = (desc.get("view") or {}).get("turn")
        if prompt.get("expect") == "decision" or (not prompt and turn):
            return
        rest.call(DEALER, "POST", f"/tables/{BLACKJACK}/results", {"result": next(cards)})
    raise SystemExit("no decision came on the blackjack table")


def finish_blackjack(rest: Rest, cards: Iterator[str]) -> None:
    """Play the blackjack round out: each waiting player stands (or declines an offer), the dealer reports the cards
    the round asks for, until it settles."""
    for _ in range(60):
        desc = rest.call(DEALER, "GET", f"/tables/{BLACKJACK}")
        if desc["status"] != "playing":
            return
        turn = (desc.get("view") or {}).get("turn")
        prompt = desc.get("dealer_prompt") or {}
        if turn and turn.get("player") and prompt.get("expect", "decision") == "decision":
            player = turn["player"]
            mine = rest.call(player, "GET", f"/tables/{BLACKJACK}")["view"]["turn"]
            actions = mine.get("actions") or []
            action = next((a for a in ("stand", "decline") if a in actions), actions[0] if actions else "stand")
            body = {"action": action, "box": mine["box"], "hand": mine.get("hand")}
            rest.call(player, "POST", f"/tables/{BLACKJACK}/actions", body)
        else:
            rest.call(DEALER, "POST", f"/tables/{BLACKJACK}/results", {"result": next(cards)})
    raise SystemExit("the blackjack round did not settle")


def fair_roulette(rest: Rest, page: Page, out: Path) -> None:
    """At the demo's RNG roulette the player types a seed of her own, bets with it, waits for the round to settle and
    verifies it in "My recent rounds": the whole page, the seed control open (``roulette-fair-desktop.png``)."""
    join(page, FAIR_ROULETTE)
    control = page.get_by_test_id("fair-seed")
    expect(control).to_be_visible()
    control.locator("summary").click()
    page.get_by_test_id("fair-seed-input").fill(PLAYER_SEED)
    page.get_by_test_id("fair-seed-use").click()
    expect(page.get_by_test_id("fair-seed-value")).to_have_text(PLAYER_SEED)
    # A window with a few seconds left (the demo runs on the wall clock: 20 s windows, a 5 s result moment).
    page.wait_for_function(
        """() => {
            const phase = document.querySelector('[data-testid="phase"]');
            const seconds = Number(document.querySelector('[data-testid="countdown"]')?.dataset.seconds || 0);
            return phase && phase.dataset.phase === 'betting' && seconds >= 4;
        }""",
        timeout=60_000,
    )
    pick_chip(page, 25, 20, 50)
    spot(page, "red").click()
    spot(page, "straight", numbers="17").click()
    page.get_by_test_id("confirm-bets").click()
    expect(page.locator(".slip-list.placed li")).to_have_count(2)
    round_id = rest.call(PLAYER, "GET", f"/tables/{FAIR_ROULETTE}")["round"]
    item = page.get_by_test_id("recall-panel").locator(f'.recall-round[data-round="{round_id}"][data-status="settled"]')
    expect(item).to_be_visible(timeout=60_000)
    item.get_by_test_id("fair-verify").click()
    expect(item.get_by_test_id("fair-result")).to_have_attribute("data-state", "verified")
    expect(item.get_by_test_id("fair-result")).to_have_attribute("data-yours", "true")
    page.evaluate("() => document.querySelectorAll('[data-testid=\"toast\"]').forEach((t) => t.remove())")
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_timeout(300)
    path = out / "roulette-fair-desktop.png"
    page.screenshot(path=str(path), full_page=True)
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def loaded_rolls(rest: Rest) -> None:
    """A live sic bo table of the watch's own (no result moment), on which another player bets and the dealer reports
    :data:`WATCHED_ROLLS` rolls of dice that show the six half the time."""
    body = {
        "table_id": WATCHED,
        "game": "sicbo",
        "live": True,
        "dealers": [DEALER],
        "betting_seconds": 60,
        "result_display_seconds": 0,
    }
    rest.call(ADMIN, "POST", "/tables", body)
    loaded = random.Random(11)
    faces = [HOT_FACE] * 5 + [f for f in range(1, 7) if f != HOT_FACE]  # the six: 5 chances in 10
    for _ in range(WATCHED_ROLLS):
        rest.call(OTHER, "POST", f"/tables/{WATCHED}/bets", {"type": "big", "amount": 10})
        rest.call(DEALER, "POST", f"/tables/{WATCHED}/close-betting")
        rest.call(DEALER, "POST", f"/tables/{WATCHED}/results", {"result": [loaded.choice(faces) for _ in range(3)]})
        rest.wait(WATCHED, "betting")


def bias_watch(browser: Browser, base: str, rest: Rest, out: Path) -> None:
    """The admin's bias watch (``#/watch``) on the loaded table: the verdict, the sequential chi-square, the faces
    furthest from expectation (``watch-desktop.png``, ``watch-phone.png``)."""
    loaded_rolls(rest)
    admins = contexts(browser, base, ADMIN, ADMIN_PASSWORD)
    for page in admins.values():
        page.get_by_test_id("watch-link").click()
        page.get_by_test_id("watch-table").fill(WATCHED)
        page.get_by_test_id("watch-last").fill(str(WATCHED_ROLLS))
        page.get_by_test_id("watch-run").click()
        expect(page.get_by_test_id("watch-verdict")).to_have_attribute("data-verdict", re.compile(r"\S"))
        expect(page.get_by_test_id("watch-plot")).to_be_visible()
    shoot(admins, "watch", out, focus='[data-testid="watch-plot"]')


def run(browser: Browser, base: str, out: Path) -> None:
    rest = Rest(base)
    for name, password in (
        (PLAYER, PLAYER_PASSWORD),
        (OTHER, OTHER_PASSWORD),
        (DEALER, DEALER_PASSWORD),
        (ADMIN, ADMIN_PASSWORD),
    ):
        rest.login(name, password)
    chance = random.Random(6)
    history(
        rest,
        {
            ROULETTE: ({"type": "red", "amount": 10}, lambda: chance.randint(0, 36)),
            SICBO: ({"type": "big", "amount": 10}, lambda: [chance.randint(1, 6) for _ in range(3)]),
        },
        24,
    )
    shots = Shots()
    players = contexts(browser, base, PLAYER, PLAYER_PASSWORD)
    desk, phone = players["desktop"], players["phone"]
    shoot(players, "lobby", out)

    def provably_fair() -> None:
        try:
            fair_roulette(rest, desk, out)
        finally:
            if desk.get_by_test_id("leave").count():  # the pictures after it start from the lobby
                back_to_lobby(desk)

    shots.group("the provably fair roulette", provably_fair)

    # Roulette: chips placed from the desktop, one more on each page (the phone's confirmed too, for its result).
    for page in players.values():
        join(page, ROULETTE)
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
    shots.group("roulette in zh-Hant and pt", lambda: in_languages(desk, "roulette", out))
    shots.group(
        "the roulette boards",
        lambda: shoot(players, "roulette-boards", out, focus='[data-testid="hot-cold"]', everywhere=True),
    )
    phone.get_by_test_id("confirm-bets").click()
    shots.group(
        "the roulette result", lambda: result_moment(rest, players, ROULETTE, 17, name="roulette-result", out=out)
    )

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
    shots.group("sic bo in zh-Hant and pt", lambda: in_languages(desk, "sicbo", out))
    shots.group(
        "the sic bo boards",
        lambda: shoot(players, "sicbo-boards", out, focus='[data-testid="size-road"]', everywhere=True),
    )
    phone.get_by_test_id("confirm-bets").click()
    shots.group(
        "the sic bo result", lambda: result_moment(rest, players, SICBO, [3, 4, 3], name="sicbo-result", out=out)
    )

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
    cards = iter(("KD", "7C", "9D", "6H", "8S", "5H", "4C", "3D", "2S", "TH", "9C", "8D", "7H", "6S", "5C") * 4)
    deal_until_decision(rest, cards)
    for page in players.values():
        expect(page.locator('[data-testid^="action-"]').first).to_be_visible()
    shoot(players, "blackjack", out, focus='[data-testid="action-stand"]')
    shots.group("blackjack in zh-Hant and pt", lambda: in_languages(desk, "blackjack", out))

    def blackjack_result() -> None:
        finish_blackjack(rest, cards)
        ordered = dict(sorted(players.items(), key=lambda item: item[0] != "phone"))  # the phone first
        for page in ordered.values():
            expect(page.get_by_test_id("round-result")).to_be_visible()
        shoot(ordered, "blackjack-result", out, focus='[data-testid="round-result"]')

    shots.group("the blackjack result", blackjack_result)
    # Its boards once a round is over: the shoe where the table deals from one (not under the demo's shuffler), the
    # dealer's last hands.
    board = '[data-testid="shoe"]' if desk.get_by_test_id("shoe").count() else '[data-testid="dealer-board"]'
    shots.group("the blackjack boards", lambda: shoot(players, "blackjack-boards", out, focus=board, everywhere=True))

    # The dealer's console on each live table, a bet down and the bell still to ring (blackjack: the round dealt to
    # its first decision, the console naming the next card).
    dealers = contexts(browser, base, DEALER, DEALER_PASSWORD)

    def console(table: str, name: str, bet: dict[str, Any], entry: str | None) -> None:
        rest.wait(table, "betting")
        rest.call(OTHER, "POST", f"/tables/{table}/bets", bet)
        for page in dealers.values():
            if page.get_by_test_id("leave").count():
                back_to_lobby(page)
            join(page, table)
            expect(page.get_by_test_id("dealer-console")).to_be_visible()
            if entry is not None:
                page.get_by_test_id("dealer-result-input").fill(entry)
            page.get_by_test_id("dealer-void-reason").fill("the ball left the wheel" if table == ROULETTE else "")
        shoot(dealers, name, out, focus='[data-testid="dealer-console"]', everywhere=True)

    shots.group("the roulette dealer", lambda: console(ROULETTE, "dealer", {"type": "odd", "amount": 20}, "17"))
    shots.group("the sic bo dealer", lambda: console(SICBO, "dealer-sicbo", {"type": "small", "amount": 20}, "146"))

    def blackjack_dealer() -> None:
        console(BLACKJACK, "dealer-blackjack", {"box": 2, "main": 50}, None)
        rest.call(DEALER, "POST", f"/tables/{BLACKJACK}/close-betting")
        for page in dealers.values():
            expect(page.get_by_test_id("dealer-prompt")).to_have_attribute("data-expect", "card")
            page.get_by_test_id("dealer-result-input").fill("QH")
        shoot(dealers, "dealer-blackjack-deal", out, focus='[data-testid="dealer-console"]', everywhere=True)

    shots.group("the blackjack dealer", blackjack_dealer)
    shots.group("the bias watch", lambda: bias_watch(browser, base, rest, out))
    shots.done()


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
