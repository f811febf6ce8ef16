"""The PDF of a report: Chromium's print to PDF of the report's own HTML, driven through Playwright.

Why Chromium (and not WeasyPrint): the PDF is then the very HTML the sheet is written as, typeset by the layout
engine a reader's browser uses, so the tables, their colours and the figures are what the HTML shows; CSS paged
media covers what a filed document needs (A4 pages, headings kept with what follows, tables and figures kept
whole where they fit, table headers repeated on the next page, a footer with the page number). Playwright and
Debian's Chromium are already the project's browser-test tools (``make test`` installs both), whereas WeasyPrint
would bring a second layout engine with its own CSS subset and a dozen more packages. Neither is a runtime
dependency: ``make demo`` installs no browser. ``pip install 'croupier[pdf]'`` installs Playwright; the browser
is the first of ``$CROUPIER_CHROMIUM``, Debian's ``/usr/bin/chromium`` (``apt-get install chromium``) and
Playwright's own (``python -m playwright install chromium``).

:func:`check_engine` says, before any work, whether a PDF can be made; :func:`render_pdf` makes it.
"""

from __future__ import annotations

import html
import os
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ENV = "CROUPIER_CHROMIUM"
"""An environment variable naming the Chromium (or Chrome) executable to print with."""

SYSTEM_BROWSERS: tuple[str, ...] = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
"""Where a system Chromium is looked for (Debian's package first), after :data:`ENV`."""

INSTALL = (
    "install Playwright with `pip install 'croupier[pdf]'` and a Chromium: Debian's (`apt-get install chromium`), "
    "Playwright's (`python -m playwright install chromium`), or any Chromium or Chrome named by $" + ENV
)
"""How to get a PDF engine, as the error messages say it."""


def _browser_path() -> str | None:
    """The Chromium executable to launch: :data:`ENV`'s, else a system one, else None (Playwright's own).
    ``ValueError`` when :data:`ENV` names something that is not an executable file."""
    named = os.environ.get(ENV)
    if named:
        found = shutil.which(named)
        if found is None or not Path(found).is_file():
            raise ValueError(f"${ENV} is {named!r}, which is not an executable file: {INSTALL}")
        return found
    for path in SYSTEM_BROWSERS:
        if Path(path).is_file() and os.access(path, os.X_OK):
            return path
    return None


def check_engine() -> str:
    """Check that a PDF can be made, and return the browser that will print it (its path, or ``playwright's
    chromium``). ``ValueError`` naming what is missing and how to install it."""
    try:
        from playwright.sync_api import sync_playwright
    except ModuleNotFoundError:
        raise ValueError(f"--pdf needs Playwright, which is not installed: {INSTALL}") from None
    path = _browser_path()
    if path is not None:
        return path
    try:
        with ThreadPoolExecutor(max_workers=1) as pool:  # away from any running asyncio loop (render_pdf)
            bundled = pool.submit(lambda: _bundled(sync_playwright)).result()
    except Exception as exc:  # Playwright's driver failing to start: report it, never a traceback
        raise ValueError(f"--pdf cannot start Playwright ({exc}): {INSTALL}") from None
    if not bundled or not Path(bundled).is_file():
        raise ValueError(f"--pdf needs a Chromium, and none was found: {INSTALL}")
    return "playwright's chromium"


def _bundled(sync_playwright: Any) -> str:
    with sync_playwright() as p:
        return str(p.chromium.executable_path)


def _footer(text: str) -> str:
    """Chromium's footer template: the text on the left, "page N of M" on the right (Chromium fills the
    ``pageNumber`` and ``totalPages`` spans)."""
    style = "font-size:7.5px;font-family:Helvetica,Arial,sans-serif;color:#555;width:100%;margin:0 11mm;"
    return (
        f'<div style="{style}display:flex;justify-content:space-between;">'
        f"<span>{html.escape(text)}</span>"
        '<span>page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div>'
    )


def render_pdf(document: str, *, footer: str = "") -> bytes:
    """Typeset an HTML ``document`` as an A4 PDF with Chromium (backgrounds printed, ``footer`` and the page
    number at the foot of every page). ``ValueError`` when no engine is installed or Chromium fails.

    Playwright's sync API refuses to run in a thread with a running asyncio loop (a server's, a notebook's), so
    the printing runs in a thread of its own."""
    check_engine()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="croupier-pdf") as pool:
        return pool.submit(_print, document, footer).result()


def _print(document: str, footer: str) -> bytes:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    path = _browser_path()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=path, headless=True, args=["--no-sandbox"])
            try:
                page = browser.new_page()
                page.set_content(document, wait_until="load")
                data: bytes = page.pdf(
                    format="A4",
                    print_background=True,
                    prefer_css_page_size=True,
                    display_header_footer=True,
                    header_template="<span></span>",
                    footer_template=_footer(footer),
                    # the CSS's @page says the same; Chromium draws the footer in the bottom margin
                    margin={"top": "14mm", "bottom": "16mm", "left": "11mm", "right": "11mm"},
                )
            finally:
                browser.close()
    except PlaywrightError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"Chromium could not print the PDF ({first}); {INSTALL}") from None
    return data


__all__ = ["ENV", "INSTALL", "check_engine", "render_pdf"]
