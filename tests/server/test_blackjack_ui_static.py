"""Static checks of the browser's blackjack module (docs/browser-ui.md): the page holds no blackjack rule of its own
and every text it shows comes from the three catalogues.

- ``js/blackjack.js`` may name numbers only inside its ``render-constants`` block (chip faces, timings, how cards are
  drawn); outside it, only 0 and 1 and the millisecond factor. Inside it, no number the rules use (21, 17, 16, 11,
  1.5 …). Nowhere a payout written as a ratio ("3:2", "3 to 2"), nor the name of a side bet: the side bets a table
  offers come from the server.
- Every ``'bj.…'`` key the module uses exists in ``blackjack.en.json``, ``blackjack.pt.json`` and
  ``blackjack.zh-Hant.json``; the families of keys it builds from the server's names (actions, hand statuses,
  phases, bet kinds, questions, card ranks and suits) cover every name the engine can send; the catalogues have the
  same keys, and the Portuguese and Chinese ones are translations, not copies of the English.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from croupier.blackjack.hand import HandStatus
from croupier.blackjack.operations import OFFER_ACTIONS, PLAY_ACTIONS, Phase
from croupier.blackjack.rules import BET_KINDS
from croupier.blackjack.sidebets import SIDE_KEYS
from croupier.primitives.cards import Rank, Suit

WEB = Path(__file__).resolve().parents[2] / "src" / "croupier" / "server" / "web"
JS = WEB / "js" / "blackjack.js"
LANGS = ("en", "pt", "zh-Hant")
BEGIN, END = "// render-constants:begin", "// render-constants:end"

# Numbers that are no rule: nothing, one, and a second in milliseconds.
PLAIN_NUMBERS = {0.0, 1.0, 1000.0}
# Numbers the blackjack rules use: totals (21, the dealer's 17 and 16, 11 and 13 of the doubling and side-bet rules)
# and the payouts written as factors (3:2 is 1.5, half a stake, three times the bet).
RULE_NUMBERS = {21.0, 17.0, 16.0, 11.0, 13.0, 1.5, 0.5, 2.5, 3.0}
# Engine names the page must never decide on: the decision's names come from the server's ``actions``; the page may
# only recognise insurance (its stake field) and read the table's bet list.
DECISION_QUESTIONS = ("offer", "play", "follow", "any_pair")


def _strip(source: str) -> tuple[str, list[str]]:
    """The code with comments removed and every string literal replaced by ``""`` (the code inside a template
    literal's ``${…}`` is kept), and the string literals themselves (a template's ``${…}`` written ``${}``)."""
    out: list[str] = []
    strings: list[str] = []
    stack: list[int] = []  # for each open ``${``: the brace depth of the code inside it
    i, n = 0, len(source)

    def template(i: int) -> int:
        """Read a template literal's text from ``i`` (after the backtick) up to its end or a ``${``."""
        buf: list[str] = []
        while i < n and source[i] != "`" and not source.startswith("${", i):
            buf.append(source[i : i + 2] if source[i] == "\\" else source[i])
            i += 2 if source[i] == "\\" else 1
        if i < n and source[i] != "`":
            buf.append("${}")
            stack.append(0)
            i += 2
        else:
            i += 1
            out.append('""')
        strings.append("".join(buf))
        return i

    while i < n:
        c = source[i]
        if source.startswith("//", i):
            j = source.find("\n", i)
            i = n if j < 0 else j
        elif source.startswith("/*", i):
            j = source.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c in "'\"":
            j = i + 1
            while j < n and source[j] != c:
                j += 2 if source[j] == "\\" else 1
            strings.append(source[i + 1 : j])
            out.append('""')
            i = j + 1
        elif c == "`":
            i = template(i + 1)
        elif c == "{" and stack:
            stack[-1] += 1
            out.append(c)
            i += 1
        elif c == "}" and stack:
            if stack[-1] == 0:
                stack.pop()
                out.append(" ")
                i = template(i + 1)
            else:
                stack[-1] -= 1
                out.append(c)
                i += 1
        elif c == "/" and re.search(r"(^|[=(,:!&|?\[{;])\s*$", "".join(out[-40:])):  # a regular expression literal
            j = i + 1
            while j < n and source[j] != "/":
                j += 2 if source[j] == "\\" else 1
            out.append('""')
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out), strings


def _numbers(code: str) -> list[float]:
    return [float(m) for m in re.findall(r"(?<![\w.$])(\d+(?:\.\d+)?)(?![\w.])", code)]


@pytest.fixture(scope="module")
def source() -> str:
    return JS.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def parts(source: str) -> dict[str, str]:
    assert source.count(BEGIN) == 1 and source.count(END) == 1, "one render-constants block"
    head, rest = source.split(BEGIN)
    block, tail = rest.split(END)
    return {"block": block, "outside": head + tail}


def _text(value: object) -> str:
    """A message as text: a plural message (``{"one": …, "other": …}``, issue 14) is its forms joined."""
    return " | ".join(map(str, value.values())) if isinstance(value, dict) else str(value)


@pytest.fixture(scope="module")
def catalogues() -> dict[str, dict[str, str]]:
    """Each language's blackjack catalogue, every message as text (:func:`_text`)."""
    out: dict[str, dict[str, str]] = {}
    for lang in LANGS:
        raw = json.loads((WEB / "i18n" / f"blackjack.{lang}.json").read_text(encoding="utf-8"))
        out[lang] = {key: _text(value) for key, value in raw.items()}
    return out


def test_no_numbers_outside_the_render_constants(parts: dict[str, str]) -> None:
    code, _ = _strip(parts["outside"])
    stray = sorted({x for x in _numbers(code) if x not in PLAIN_NUMBERS})
    assert not stray, f"numbers outside the render-constants block: {stray}"


def test_no_rule_numbers_in_the_render_constants(parts: dict[str, str]) -> None:
    code, _ = _strip(parts["block"])
    found = sorted(set(_numbers(code)) & RULE_NUMBERS)
    assert not found, f"rule numbers in the render-constants block: {found}"


def test_no_payout_ratio_or_side_bet_name(source: str) -> None:
    _, strings = _strip(source)
    code, _ = _strip(source)
    for s in strings:
        assert not re.search(r"\b\d+\s*(?::|to|/)\s*\d+\b", s), f"a ratio in a string: {s!r}"
        assert s not in SIDE_KEYS and s not in ("over_under_13", "perfect_pairs", "sevens"), f"side bet named: {s!r}"
        assert s not in DECISION_QUESTIONS[1:], f"a decision's kind decided by the page: {s!r}"
    assert not re.search(r"\d+\s*/\s*\d+", code), "a division of two numbers (a payout?)"


def test_the_page_reads_decisions_from_the_server(source: str) -> None:
    code, strings = _strip(source)
    play = set(PLAY_ACTIONS) - {"double"}  # "double" is also the table's double-bets control
    assert not play & set(strings), f"play actions written in the page: {sorted(play & set(strings))}"
    assert "turn.actions.map" in code, "the action buttons are the decision's own actions"


def _keys(strings: list[str]) -> tuple[set[str], set[str]]:
    """The full keys and the key families (``bj.x`` used as tk's first argument, or ``bj.x.${…}``)."""
    keys, families = set(), set()
    for s in strings:
        if not s.startswith("bj."):
            continue
        if s.endswith(".${}"):
            families.add(s[: -len(".${}")])
        elif re.fullmatch(r"bj(\.[a-z0-9_]+)+", s, flags=re.IGNORECASE):
            keys.add(s)
    return keys, families


def test_every_key_is_in_every_catalogue(source: str, catalogues: dict[str, dict[str, str]]) -> None:
    _, strings = _strip(source)
    keys, _ = _keys(strings)
    tk = set(re.findall(r"\btk\(\s*'(bj\.[a-z_.]+)'", source))
    keys -= tk
    assert len(keys) > 40, "the module shows its texts through the catalogues"
    for lang, cat in catalogues.items():
        missing = sorted(keys - set(cat))
        assert not missing, f"blackjack.{lang}.json lacks {missing}"


def test_every_family_covers_the_engines_names(source: str, catalogues: dict[str, dict[str, str]]) -> None:
    _, strings = _strip(source)
    _, families = _keys(strings)
    families |= set(re.findall(r"\btk\(\s*'(bj\.[a-z_.]+)'", source))
    members = {
        "bj.action": [*PLAY_ACTIONS, *OFFER_ACTIONS, "follow", "any_pair"],
        "bj.status": [s.value for s in HandStatus],
        "bj.phase": [p.value for p in Phase] + ["waiting"],
        "bj.question": list(DECISION_QUESTIONS),
        "bj.result": ["win", "loss", "push"],
        "bj.kind": [k for k in BET_KINDS if k != "streak"] + list(SIDE_KEYS),
        "bj.rank": [r.value for r in Rank if not r.value.isdigit()],
        "bj.suit": [s.value for s in Suit],
    }
    assert families == set(members), f"families used: {sorted(families)}"
    for lang, cat in catalogues.items():
        for family, names in members.items():
            missing = [n for n in names if f"{family}.{n}" not in cat]
            assert not missing, f"blackjack.{lang}.json lacks {family}.{missing}"


def test_catalogues_agree_and_are_translated(catalogues: dict[str, dict[str, str]]) -> None:
    en = catalogues["en"]
    for lang in ("pt", "zh-Hant"):
        cat = catalogues[lang]
        assert set(cat) == set(en), f"{lang}: {sorted(set(cat) ^ set(en))}"
        for key, text in cat.items():
            assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", en[key])), (lang, key)
        same = [k for k in en if cat[k] == en[k] and re.search(r"[A-Za-z]{3}", en[k])]
        assert len(same) <= len(en) // 10, f"{lang} copies English: {same}"
    zh = catalogues["zh-Hant"]
    for key, word in {
        "bj.action.hit": "要牌",
        "bj.action.stand": "停牌",
        "bj.action.double": "加倍",
        "bj.action.split": "分牌",
        "bj.action.surrender": "投降",
        "bj.action.insurance": "保險",
        "bj.action.even_money": "等額賠付",
    }.items():
        assert word in zh[key], key
    assert all(not all(ord(ch) < 128 for ch in zh[k]) for k in ("bj.dealer", "bj.status.blackjack"))
