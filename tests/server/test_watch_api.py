"""Issue 18, the bias watch's endpoint ``GET /api/tables/{table_id}/watch`` in process: the admin's answer on a live
table's results (a closed document of ``croupier.server.watch.WatchAnswer``), the refusals (a player or a dealer 403,
an unknown table 404, a blackjack table 400, a bad setting 422 naming it), the same answer whether the server reads
the window itself (an engine: ``croupier serve``) or asks the casino's thread (in-memory services), and the watch
page's message catalogues (the same keys and placeholders in English, Portuguese and Traditional Chinese, every key
``watch.js`` uses)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_type_hints

import numpy as np
import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

from croupier.rng.watch import alternative  # noqa: E402
from croupier.server.ui import WEB  # noqa: E402
from croupier.server.watch import WatchAnswer  # noqa: E402
from server.support import InProcessApi, assert_error, memory_app  # noqa: E402

PASSWORD = "password-1"
HOT = 17


class Api(InProcessApi):
    def watch(self, table: str, name: str = "boss", **params: Any) -> Any:
        return self.client.get(f"/api/tables/{table}/watch", headers=self.login(name), params=params)

    def spin(self, table: str, results: list[Any]) -> None:
        """Each result through the live table over REST: ana bets, dee rings the bell and reports it."""
        bet = {"type": "red", "amount": 10} if isinstance(results[0], int) else {"type": "big", "amount": 10}
        for result in results:
            r = self.client.post(f"/api/tables/{table}/bets", json=bet, headers=self.as_("ana"))
            assert r.status_code == 201, r.text
            r = self.client.post(f"/api/tables/{table}/close-betting", headers=self.as_("dee"))
            assert r.status_code == 200, r.text
            r = self.client.post(f"/api/tables/{table}/results", json={"result": result}, headers=self.as_("dee"))
            assert r.status_code == 200, r.text


@pytest.fixture
def api() -> Iterator[Api]:
    with memory_app(Api, password=PASSWORD, credit=10_000_000) as a:
        yield a


def loaded_wheel(n: int, bias: float = 4 / 37, seed: int = 9) -> list[int]:
    law = np.roll(alternative("roulette", bias), HOT)
    return [int(x) for x in np.random.default_rng(seed).choice(37, size=n, p=law)]


def test_the_admin_reads_the_watch_of_a_live_wheel(api: Api) -> None:
    api.open("lw", "roulette", live=True)
    spins = loaded_wheel(300)
    api.spin("lw", spins)
    r = api.watch("lw", last=300, bias=4 / 37, points=40)
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == set(get_type_hints(WatchAnswer))
    assert (body["table"], body["game"], body["rounds"]) == ("lw", "roulette", 300)
    assert body["flagged"] is True and body["verdict"] == "fail"
    assert body["furthest"][0]["cell"] == HOT and body["counts"][HOT] == spins.count(HOT)
    assert body["cells"] == list(range(37)) and sum(body["counts"]) == 300
    assert 2 <= len(body["sequence"]) <= 40 and body["sequence"][-1]["round"] == "lw.300"
    assert body["needed"]["test"] == "chi-square" and body["needed"]["rounds"] < 300
    assert body["needed_pocket"]["test"] == "pocket"
    # without a window: the one the flag's test needs for the bias asked (here all 300 are more than enough)
    default = api.watch("lw", bias=4 / 37).json()
    assert default["rounds"] == default["needed"]["rounds"] and default["last_round"] == "lw.300"
    # the default bias is 1.5/37: its window (6,521 spins) is more than the table has, so all of them are read
    plain = api.watch("lw").json()
    assert plain["bias"] == pytest.approx(1.5 / 37) and plain["rounds"] == 300
    assert plain["needed"]["rounds"] == 6521 and plain["needed"]["power_at_window"] < 0.2


def test_a_shaker_and_a_small_window(api: Api) -> None:
    api.open("ls", "sicbo", live=True)
    rolls = [[int(d) for d in roll] for roll in np.random.default_rng(3).integers(1, 7, size=(12, 3))]
    api.spin("ls", rolls)
    body = api.watch("ls", last=12).json()
    assert body["game"] == "sicbo" and body["observations"] == 36 and body["cells"] == [1, 2, 3, 4, 5, 6]
    assert body["verdict"] == "pass" and body["min_rounds"] == 10
    small = api.watch("ls", last=9).json()
    assert small["verdict"] == "skipped" and small["flagged"] is False and small["chi_square"]["p_value"] is None
    assert "10 results" in small["skipped"] and small["sequence"] == [] and small["furthest"] == []


def test_the_watch_is_refused_to_others_and_for_what_it_does_not_watch(api: Api) -> None:
    api.open("lw", "roulette", live=True)
    api.open("bj", "blackjack")
    api.spin("lw", loaded_wheel(5))
    for name in ("ana", "dee"):
        assert_error(api.watch("lw", name), 403, "forbidden")
    assert_error(api.watch("nowhere"), 404, "unknown_table")
    body = assert_error(api.watch("bj"), 400, "not_watchable")
    assert "blackjack" in body["detail"]
    assert_error(api.client.get("/api/tables/lw/watch"), 401)


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"alpha": 0.5}, "alpha"),
        ({"alpha": 0}, "alpha"),
        ({"alpha": "often"}, "alpha"),
        ({"power": 1}, "power"),
        ({"power": 0.005}, "power"),  # not above alpha: refused by the watch itself
        ({"bias": 1 / 37}, "fair"),
        ({"bias": 1.2}, "bias"),
        ({"last": 0}, "last"),
        ({"last": 100_001}, "last"),
        ({"last": 2.5}, "last"),
        ({"points": -1}, "points"),
    ],
)
def test_a_bad_setting_is_refused_naming_it(api: Api, params: dict[str, Any], named: str) -> None:
    api.open("lw", "roulette", live=True)
    body = assert_error(api.watch("lw", **params), 422)
    assert named in body["detail"], body


def test_the_server_reads_the_window_itself_where_it_has_an_engine(tmp_path: Path) -> None:
    """With a database engine the endpoint reads and tests the window off the casino's thread: the same answer as
    the casino's own reading."""
    from fastapi.testclient import TestClient

    from croupier.server.app import create_app
    from croupier.server.ratelimit import Limit
    from croupier.server.services import Services
    from croupier.service.accounts import AccountService
    from croupier.service.casino import Casino
    from croupier.service.casino_watch import bias_watch
    from croupier.service.ledger import Ledger
    from croupier.service.memory import MemoryAccountStore
    from croupier.storage import SqlLedgerStore, create_engine, upgrade
    from croupier.storage.casino_store import SqlCasinoStore
    from service.support import CHEAP_HASHER, TEST_POLICY, Clock

    url = f"sqlite:///{tmp_path / 'croupier.sqlite3'}"
    upgrade(url)
    engine = create_engine(url)
    clock = Clock()
    accounts = AccountService(MemoryAccountStore(), hasher=CHEAP_HASHER, clock=clock, policy=TEST_POLICY)
    ledger = Ledger(SqlLedgerStore(engine), clock=clock)
    casino = Casino(ledger, accounts, SqlCasinoStore(engine), clock=clock)
    casino.recover()  # as at start-up
    services = Services(accounts=accounts, ledger=ledger, casino=casino, engine=engine)
    boss, dee, ana = (
        accounts.create(n, PASSWORD, r) for n, r in (("boss", "admin"), ("dee", "dealer"), ("ana", "player"))
    )
    casino.credit(boss, "ana", 10**6, key="fund")
    casino.open_table(boss, table_id="lw", game="roulette", live=True, dealers=["dee"], result_display_seconds=0)
    for i, pocket in enumerate(loaded_wheel(250)):
        casino.place_bet(ana, "lw", {"type": "red", "amount": 10}, f"b{i}")
        casino.close_betting(dee, "lw")
        casino.report(dee, "lw", pocket)
    app = create_app(services, tick_seconds=None, command_limit=Limit(burst=1000, per_second=1000))
    with TestClient(app) as client:
        a = Api(client, services, clock, password=PASSWORD)
        r = a.watch("lw", last=250, bias=4 / 37)
        assert r.status_code == 200, r.text
        assert r.json() == json.loads(json.dumps(bias_watch(casino, boss, "lw", 250, bias=4 / 37)))
        assert r.json()["flagged"] is True
        assert_error(a.watch("lw", "ana"), 403, "forbidden")
        assert_error(a.watch("nowhere"), 404, "unknown_table")


# -- the page's catalogues -----------------------------------------------------------------------------------------

LANGS = ("en", "pt", "zh-Hant")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
LITERAL = re.compile(r"""\bt\(\s*['"]([A-Za-z0-9_.-]+)['"]""")


def _text(value: str | dict[str, str]) -> str:
    return value if isinstance(value, str) else " | ".join(value.values())


def test_the_watch_catalogues_have_the_same_keys_in_every_language() -> None:
    catalogues = {lang: json.loads((WEB / "i18n" / f"watch.{lang}.json").read_text("utf-8")) for lang in LANGS}
    english = catalogues["en"]
    assert english and all(key.startswith("watch.") for key in english)
    for lang in LANGS[1:]:
        assert set(catalogues[lang]) == set(english), (lang, set(catalogues[lang]) ^ set(english))
        for key, message in english.items():
            assert set(PLACEHOLDER.findall(_text(catalogues[lang][key]))) == set(PLACEHOLDER.findall(_text(message)))
    pt = " ".join(_text(v) for v in catalogues["pt"].values())
    assert "você" not in pt.lower()
    zh = " ".join(_text(v) for v in catalogues["zh-Hant"].values())
    assert "你" not in zh
    script = (WEB / "js" / "watch.js").read_text("utf-8")
    used = set(LITERAL.findall(script)) | {"watch.nav"}  # the header's link: translate('watch.nav')
    assert len(used) > 10
    # the keys the page builds from the answer: the game, pocket or face, the verdicts, the table's columns
    used |= {f"watch.{k}.{g}" for k in ("window", "needed", "needed_pocket") for g in ("roulette", "sicbo")}
    used |= {f"watch.verdict.{v}" for v in ("pass", "fail", "skipped")}
    for unit in ("pocket", "face"):
        used |= {f"watch.furthest.{unit}", f"watch.furthest.title.{unit}"}
        used |= {f"watch.pocket_test.{unit}.{v}" for v in ("pass", "fail")}
    used |= {f"watch.furthest.{k}" for k in ("count", "expected", "z", "p", "adjusted")}
    assert not sorted(used - set(english)), sorted(used - set(english))
    assert not sorted(set(english) - used), sorted(set(english) - used)  # none unused
