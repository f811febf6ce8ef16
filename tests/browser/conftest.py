"""Fixtures of the browser tests: one real ``croupier serve`` process on a free loopback port and a fresh SQLite
database, seeded over REST (a dealer and the tables of :data:`browser.support.TABLES`), and Debian's Chromium
driven by Playwright (``make install`` installs both; Playwright's own browser downloads are not used). The server's
casino runs on a manual clock (:mod:`browser.support`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from browser.support import CHROMIUM, DESKTOP, PHONE, SHOWN, clock_to_wall, seed, watch
from server.conftest import MANUAL_CLOCK, start_server
from server.support import Server


@pytest.fixture(scope="session")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real server with a manual clock on a fresh SQLite file for the whole session (each test has its own tables
    and players)."""
    tmp = tmp_path_factory.mktemp("browser-server")
    for server in start_server(f"sqlite:///{tmp / 'croupier.sqlite3'}", tmp, MANUAL_CLOCK):
        seed(server)
        yield server


@pytest.fixture(autouse=True)
def wall_time(live: Server) -> None:
    """Each test starts with the casino's clock up to the wall clock: the windows the page counts down are fresh."""
    clock_to_wall(live)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Headless Chromium (Debian's package) for the session."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make install` installs Debian's chromium package")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser profile (no stored session) at desktop size."""
    ctx = browser.new_context(viewport=DESKTOP, locale="en-GB")
    ctx.set_default_timeout(SHOWN)
    yield ctx
    ctx.close()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A page at a phone's size (390x844, touch)."""
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB")
    ctx.set_default_timeout(SHOWN)
    yield watch(ctx.new_page())
    ctx.close()


@pytest.fixture
def patient_expect() -> Iterator[None]:
    """Each expectation waits as long as the page may take on a busy machine (SHOWN), not Playwright's 5 s (a module
    asks for it with ``pytest.mark.usefixtures("patient_expect")``)."""
    expect.set_options(timeout=SHOWN)
    yield
    expect.set_options(timeout=5_000)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[pytest.TestReport]:
    """Remember the outcome of each phase on the item, so that a failed test's pages can be photographed."""
    report: pytest.TestReport = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def page(context: BrowserContext, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Page]:
    """A page of :func:`context`; when the test fails, a screenshot of each of the context's pages is saved. The page
    must break no rule of the server's Content-Security-Policy (``croupier.server.edge``)."""
    p = watch(context.new_page())
    violations: list[str] = []
    p.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    yield p
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        for i, shown in enumerate(context.pages):
            path = tmp_path / f"failure-{i}.png"
            shown.screenshot(path=str(path), full_page=True)
            print(f"screenshot of the failed page: {path}")
    assert not violations, violations
