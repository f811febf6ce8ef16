"""The browser table's message catalogues (docs/browser-ui.md): every module's catalogue has the same keys in English,
Portuguese and Traditional Chinese, every ``t('…')`` key the page's scripts use exists, and so does every key the
server sends for the page to translate (bet kinds, rule texts, phases)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from croupier.roulette.rules import BET_IDS as ROULETTE_BETS
from croupier.roulette.rules import STATUTE as ROULETTE_STATUTE
from croupier.server.ui import WEB
from croupier.service.table_games import rules_info
from croupier.sicbo.rules import BET_IDS as SICBO_BETS
from croupier.sicbo.rules import STATUTE as SICBO_STATUTE

LANGS = ("en", "pt", "zh-Hant")
MODULES = ("core", "roulette", "sicbo", "dealer", "blackjack", "watch")
MINE = ("core", "roulette", "sicbo", "dealer", "watch")
SCRIPTS = ("app", "dom", "wager", "roulette", "sicbo", "dealer", "panels", "fair", "watch")
LITERAL = re.compile(r"""\bt\(\s*['"]([A-Za-z0-9_.-]+)['"]""")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
HAN = re.compile(r"[\u4e00-\u9fff]")
CORE_PREFIXES = {"app", "header", "role", "conn", "login", "lobby", "game", "phase", "table", "bet", "error", "toast"}
CORE_PREFIXES |= {"rules", "recall"}
CORE_PREFIXES |= {"fair"}  # provably fair rounds: the recall panel's verify (issue 18 §3)


PLURAL_FORMS = frozenset({"zero", "one", "two", "few", "many", "other"})


def is_message(value: object) -> bool:
    """A catalogue value: a non-empty text, or plural forms (Intl.PluralRules categories, "other" required)."""
    if isinstance(value, str):
        return bool(value)
    return (
        isinstance(value, dict)
        and "other" in value
        and set(value) <= PLURAL_FORMS
        and all(isinstance(v, str) and v for v in value.values())
    )


def text(value: str | dict[str, str]) -> str:
    """A message's text, its plural forms joined (to search them all)."""
    return value if isinstance(value, str) else " | ".join(value.values())


def placeholders(value: str | dict[str, str]) -> set[str]:
    """The ``{name}`` placeholders of a message (of all its plural forms: "one" may leave out the count)."""
    return set(PLACEHOLDER.findall(text(value)))


def catalogue(module: str, lang: str) -> dict[str, Any]:
    path = WEB / "i18n" / f"{module}.{lang}.json"
    if not path.exists():
        return {}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert all(isinstance(k, str) and is_message(v) for k, v in data.items()), path
    return data


def every_key(lang: str) -> set[str]:
    out: set[str] = set()
    for module in MODULES:
        out |= set(catalogue(module, lang))
    return out


@pytest.mark.parametrize("module", MINE)
def test_each_catalogue_has_the_same_keys_and_placeholders_in_every_language(module: str) -> None:
    for lang in LANGS:
        assert (WEB / "i18n" / f"{module}.{lang}.json").exists(), (module, lang)
    english = catalogue(module, "en")
    assert english
    prefixes = CORE_PREFIXES if module == "core" else {module}
    assert all(key.split(".")[0] in prefixes for key in english), module
    for lang in LANGS[1:]:
        other = catalogue(module, lang)
        assert set(other) == set(english), (module, lang, set(other) ^ set(english))
        for key, message in english.items():
            assert placeholders(other[key]) == placeholders(message), (module, lang, key)
    chinese = catalogue(module, "zh-Hant")
    assert sum(bool(HAN.search(text(v))) for v in chinese.values()) > len(chinese) // 2  # really translated


def test_the_catalogues_use_the_macau_terms() -> None:
    zh = {k: v for m in MINE for k, v in catalogue(m, "zh-Hant").items()}
    pt = {k: v for m in MINE for k, v in catalogue(m, "pt").items()}
    assert zh["game.roulette"] == "輪盤" and zh["game.sicbo"] == "骰寶"
    assert zh["sicbo.bet.big"] == "大" and zh["sicbo.bet.small"] == "小"
    assert zh["sicbo.parity.odd"] == "單" and zh["sicbo.parity.even"] == "雙"
    assert zh["role.dealer"] == "荷官"
    assert pt["game.roulette"] == "Roleta" and "aposta" in text(pt["bet.placed"])


def test_every_key_the_scripts_use_exists() -> None:
    used: dict[str, str] = {}
    for name in SCRIPTS:
        text = (WEB / "js" / f"{name}.js").read_text(encoding="utf-8")
        for key in LITERAL.findall(text):
            used[key] = name
        # a key chosen by a condition: t(cond ? 'a.b' : 'c.d')
        for a, b in re.findall(r"""\bt\([^)'"]*\?\s*'([\w.]+)'\s*:\s*'([\w.]+)'""", text):
            used[a] = used[b] = name
    assert len(used) > 50
    html = (WEB / "index.html").read_text(encoding="utf-8")
    for key in re.findall(r'data-i18n(?:-[a-z-]+)?="([\w.]+)"', html):
        used[key] = "index.html"
    for lang in LANGS:
        known = every_key(lang)
        missing = sorted(f"{k} ({where})" for k, where in used.items() if k not in known)
        assert not missing, (lang, missing)


def test_every_key_built_from_server_data_exists() -> None:
    wanted = {f"roulette.bet.{k}" for k in ROULETTE_BETS} | {f"sicbo.bet.{k}" for k in SICBO_BETS}
    wanted |= {f"phase.{p}" for p in ("waiting", "betting", "playing", "settling", "settled", "voiding", "voided")}
    wanted |= {f"recall.status.{p}" for p in ("betting", "playing", "settling", "settled", "voiding", "voided")}
    wanted |= {f"conn.{s}" for s in ("open", "closed", "connecting", "lobby")}
    wanted |= {f"role.{r}" for r in ("player", "dealer", "admin")}
    wanted |= {f"game.{g}" for g in ("roulette", "sicbo", "blackjack")}
    wanted |= {f"roulette.colour.{c}" for c in ("red", "black", "green")}
    wanted |= {f"sicbo.{k}.{s}" for k in ("size", "size_short") for s in ("big", "small", "triple")}
    wanted |= {f"sicbo.parity.{p}" for p in ("odd", "even")}
    wanted |= {f"dealer.{k}.{g}" for k in ("help", "input", "placeholder") for g in ("roulette", "sicbo", "blackjack")}
    wanted |= {f"dealer.void_result.{g}" for g in ("roulette", "sicbo")}
    for game, rules in (("roulette", ROULETTE_STATUTE), ("sicbo", SICBO_STATUTE)):
        info = rules_info(game, rules)
        for line in info["text"]:
            wanted.add(line["key"])
            en = catalogue(game, "en")[line["key"]]
            assert placeholders(en) <= set(line["params"]), line
    wanted.add("rules.option")
    for lang in LANGS:
        missing = sorted(wanted - every_key(lang))
        assert not missing, (lang, missing)


def test_the_web_folder_ships_with_the_package() -> None:
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    for pattern in ("server/web/*.html", "server/web/js/*.js", "server/web/css/*.css", "server/web/i18n/*.json"):
        assert pattern in pyproject
    for name in ("index.html", "css/croupier.css", *(f"js/{s}.js" for s in SCRIPTS)):
        assert (WEB / name).is_file(), name


def test_every_blackjack_rule_sentence_exists() -> None:
    """Each blackjack option reaches the rules panel as a sentence of the blackjack catalogue (``blackjack.rule.…``,
    one per choice, flag value or missing value), whatever the table's choices."""
    from dataclasses import replace

    from croupier.blackjack import rules as bj

    variants = [bj.STATUTE]
    variants.append(
        replace(
            bj.STATUTE,
            dealing_device=bj.DealingDevice.SHUFFLER,
            burn_after_shuffle=bj.BurnAfterShuffle.PER_DECK,
            dealer_soft_17=bj.DealerSoft17.STAND,
            any_pair_after_split=bj.AnyPairAfterSplit.NONE,
            sevens_third_card=bj.SevensThirdCard.ANY,
            sevens_mixed_triple=bj.SevensMixedTriple.PAYS_500,
            split_pair_by=bj.SplitPairBy.VALUE,
            double_on=bj.DoubleOn.ELEVEN,
            busted_stakes_on_dealer_blackjack=bj.BustedStakes.LOST,
            procedure=3,
            box_control=2,
            max_boxes_per_player=2,
            max_bettors_per_box=3,
            side_bets_offered=frozenset(bj.SideBet),
            surrender=False,
            special_bonus=False,
        )
    )
    variants.append(replace(bj.STATUTE, procedure=2, box_control=3, side_bets_offered=frozenset()))
    seen: set[str] = set()
    for rules in variants:
        for line in rules_info("blackjack", rules)["text"]:
            seen.add(line["key"])
            for lang in LANGS:
                message = catalogue("blackjack", lang).get(line["key"])
                assert message, (lang, line["key"])
                assert placeholders(message) <= set(line["params"]), (lang, line)
    assert "blackjack.rule.paytables" in seen
    choices = {
        "dealing_device": bj.DealingDevice,
        "burn_after_shuffle": bj.BurnAfterShuffle,
        "dealer_soft_17": bj.DealerSoft17,
        "any_pair_after_split": bj.AnyPairAfterSplit,
        "sevens_third_card": bj.SevensThirdCard,
        "sevens_mixed_triple": bj.SevensMixedTriple,
        "split_pair_by": bj.SplitPairBy,
        "double_on": bj.DoubleOn,
        "busted_stakes_on_dealer_blackjack": bj.BustedStakes,
    }
    for lang in LANGS:
        known = catalogue("blackjack", lang)
        missing = [
            f"{name}.{v.value}"
            for name, enum in choices.items()
            for v in enum
            if f"blackjack.rule.{name}.{v.value}" not in known
        ]
        assert not missing, (lang, missing)
