"""Fixtures of the report tests: a hand-built basic-strategy chart and an HTML well-formedness check."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from croupier.analysis.chart import DOUBLE_HIT, DOUBLE_STAND, HIT, STAND, Chart

TWO_TO_SIX = [2, 3, 4, 5, 6]


def basic_chart() -> Chart:
    """A textbook multi-deck basic strategy (dealer stands on soft 17), typed in by hand, with surrender of hard
    15 against a ten and hard 16 against 9 and 10, five-card claims at most 17 against 2-6 and always against 7-10,
    and even money declined against an ace, taken against a ten."""
    c = Chart()
    up = slice(1, 11)
    c.hard[4:9, up] = HIT
    c.hard[9, up] = HIT
    c.hard[9, [3, 4, 5, 6]] = DOUBLE_HIT
    c.hard[10, up] = DOUBLE_HIT
    c.hard[10, [1, 10]] = HIT
    c.hard[11, up] = DOUBLE_HIT
    c.hard[12, up] = HIT
    c.hard[12, [4, 5, 6]] = STAND
    c.hard[13:17, up] = HIT
    c.hard[13:17, 2:7] = STAND
    c.hard[17:22, up] = STAND
    c.soft[12, up] = HIT
    c.soft[13:15, up] = HIT
    c.soft[13:15, [5, 6]] = DOUBLE_HIT
    c.soft[15:17, up] = HIT
    c.soft[15:17, [4, 5, 6]] = DOUBLE_HIT
    c.soft[17, up] = HIT
    c.soft[17, [3, 4, 5, 6]] = DOUBLE_HIT
    c.soft[18, up] = STAND
    c.soft[18, [3, 4, 5, 6]] = DOUBLE_STAND
    c.soft[18, [9, 10, 1]] = HIT
    c.soft[19:22, up] = STAND
    for v in (1, 8):
        c.split[v, up] = True
    for v in (2, 3, 7):
        c.split[v, 2:8] = True
    c.split[4, [5, 6]] = True
    c.split[6, TWO_TO_SIX] = True
    c.split[9, [2, 3, 4, 5, 6, 8, 9]] = True
    c.surrender_hard[15, 10] = True
    c.surrender_hard[16, [9, 10]] = True
    c.five_card[TWO_TO_SIX] = 17
    c.five_card[7:11] = 21
    c.even_money[10] = True
    return c


@pytest.fixture
def chart() -> Chart:
    """:func:`basic_chart`."""
    return basic_chart()


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Checker(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.problems: list[str] = []
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.srcs: list[str] = []
        self.doctype = False

    def handle_decl(self, decl: str) -> None:
        self.doctype = self.doctype or decl.lower() == "doctype html"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(str(a["id"]))
        if a.get("href"):
            self.hrefs.append(str(a["href"]))
        if a.get("src"):
            self.srcs.append(str(a["src"]))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
            return
        self.stack.pop()


def check_html(text: str) -> _Checker:
    """Parse ``text``; assert a doctype, balanced tags, unique ids, local links only, embedded images only and
    no reference to the network; return the parser (ids, hrefs, srcs)."""
    p = _Checker()
    p.feed(text)
    p.close()
    assert p.doctype, "no <!DOCTYPE html>"
    assert not p.problems, p.problems[:5]
    assert not p.stack, f"unclosed tags: {p.stack}"
    assert len(p.ids) == len(set(p.ids)), "duplicate ids"
    assert all(h.startswith("#") and h[1:] in p.ids for h in p.hrefs), p.hrefs
    assert all(s.startswith("data:image/png;base64,") for s in p.srcs), [s[:40] for s in p.srcs]
    lowered = text.lower()
    for ref in ("http:", "https:", "url(", "@import", "<script", "<link", "<iframe"):
        assert ref not in lowered, ref
    return p
