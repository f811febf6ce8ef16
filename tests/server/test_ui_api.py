"""The browser table's server side (issue 6, docs/browser-ui.md), in process: the page served at ``/`` without
hiding the API, the table description's limits and seats, and the read endpoints the page adds (rules and
paytable, public history, the player's own rounds) and the dealer's bell on a live table, with their refusals."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


from server.support import InProcessApi, assert_error, memory_app  # noqa: E402

PASSWORD = "password-1"


class Api(InProcessApi):
    """A TestClient with sessions, the services behind it and the clock."""

    def get(self, path: str, name: str = "ana", **params: Any) -> Any:
        r = self.client.get(path, headers=self.login(name), params=params)
        assert r.status_code == 200, r.text
        return r.json()

    def bet(self, table: str, bet: dict[str, Any], name: str = "ana") -> dict[str, Any]:
        r = self.client.post(f"/api/tables/{table}/bets", json=bet, headers=self.as_(name))
        assert r.status_code == 201, r.text
        answer: dict[str, Any] = r.json()
        return answer


class Pockets:
    """A scripted wheel and shaker: the next pocket or dice the test chose."""

    def __init__(self) -> None:
        self.pockets: list[int] = []
        self.rolls: list[tuple[int, int, int]] = []

    def pocket(self) -> int:
        return self.pockets.pop(0)

    def dice(self) -> tuple[int, int, int]:
        return self.rolls.pop(0)

    def card(self) -> Any:  # pragma: no cover - the tests' blackjack tables draw no card
        raise AssertionError("no card")


@pytest.fixture
def script() -> Pockets:
    return Pockets()


@pytest.fixture
def api(script: Pockets) -> Iterator[Api]:
    with memory_app(Api, password=PASSWORD, credit=10_000, source_factory=lambda t: script) as a:
        yield a


# -- the page ----------------------------------------------------------------------------------------------------


def test_the_page_is_served_at_the_root_and_the_api_still_wins(api: Api) -> None:
    page = api.client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert 'id="view"' in page.text and "js/app.js" in page.text
    script = api.client.get("/js/app.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    catalogue = api.client.get("/i18n/core.zh-Hant.json")
    assert catalogue.status_code == 200 and isinstance(catalogue.json(), dict)
    assert api.client.get("/api/health").json() == {"status": "ok"}
    assert_error(api.client.get("/api/nothing-here"), 404, "not_found")
    assert_error(api.client.get("/api/tables/nowhere", headers=api.login("ana")), 404, "unknown_table")
    assert api.client.get("/js/no-such-module.js").status_code == 404


# -- the table description -----------------------------------------------------------------------------------------


def test_descriptions_carry_limits_and_blackjack_seats(api: Api) -> None:
    api.open("r1", "roulette", rules={"min_bet": {"straight": 5}, "max_bet": 500})
    api.open("b1", "blackjack")
    tables = {t["table"]: t for t in api.get("/api/tables")}
    limits = tables["r1"]["limits"]
    assert limits["chip_unit"] == 1
    assert limits["bets"]["straight"] == {"min": 5, "max": 500}
    assert limits["bets"]["red"] == {"min": 2, "max": 500}
    assert set(limits["bets"]) == {
        "straight", "split", "street", "corner", "six_line", "nine", "twelve_special",
        "column", "dozen", "low", "high", "odd", "even", "red", "black",
    }  # fmt: skip
    assert "boxes" not in tables["r1"]
    assert tables["b1"]["boxes"] == 7 and tables["b1"]["seats"] == []
    api.bet("b1", {"box": 3, "main": 10})
    view = api.get("/api/tables/b1")
    assert view["seats"] == [3] and "main" in view["limits"]["bets"]
    assert view["table"] == "b1" and view["game"] == "blackjack" and "deadline" in view  # the old keys stay


# -- rules and paytable --------------------------------------------------------------------------------------------


def test_roulette_rules_give_the_paytable_layout_and_catalogue_keys(api: Api) -> None:
    api.open("r1", "roulette", rules={"paytables": {"straight": 30}})
    rules = api.get("/api/tables/r1/rules", "dee")
    assert rules["table"] == "r1" and rules["game"] == "roulette" and rules["live"] is False
    assert rules["paytable"]["straight"] == 30 and rules["paytable"]["split"] == 17
    assert [b["kind"] for b in rules["bets"]][:3] == ["straight", "split", "street"]
    assert rules["layout"]["twelve_special"][0] == [1, 3, 5, 13, 15, 17, 20, 22, 24, 32, 34, 36]
    assert rules["layout"]["nine_number_blocks"][0] == list(range(1, 10))
    assert 1 in rules["layout"]["red"] and 2 in rules["layout"]["black"]
    assert all(t["key"].startswith("roulette.rule.") and isinstance(t["params"], dict) for t in rules["text"])
    assert {t["rule"] for t in rules["text"]} >= {"RO 1", "RO 5", "RO 8"}
    assert rules["limits"]["bets"]["dozen"] == {"min": 2, "max": 1_000_000}
    assert rules["document"]["paytables"]["straight"] == 30


def test_sicbo_and_blackjack_rules(api: Api) -> None:
    api.open("s1", "sicbo")
    api.open("b1", "blackjack", rules={"preset": "macau-typical"})
    sb = api.get("/api/tables/s1/rules")
    assert {b["kind"] for b in sb["bets"]} == {"small", "big", "single", "triple", "any_triple", "total"}
    assert sb["paytable"]["total"]["4"] == 50 and sb["paytable"]["single"] == {"1": 1, "2": 2, "3": 3}
    assert sb["paytable"]["triple"] == 150 and sb["paytable"]["any_triple"] == 24
    assert sb["layout"]["totals"] == list(range(4, 18))
    assert any(t["key"] == "sicbo.rule.triples" and t["rule"] == "SB 7" for t in sb["text"])
    bj = api.get("/api/tables/b1/rules", "boss")
    assert bj["boxes"] >= 6 and {"main", "insurance"} <= set(bj["paytable"])
    # Each option is a sentence of its own (a catalogue key per option and value) citing its rule.
    assert all(t["key"].startswith("blackjack.rule.") and t["rule"].startswith("BJ") for t in bj["text"])
    assert len({t["key"] for t in bj["text"]}) == len(bj["text"])


def _bj_keys(api: Api, table: str, rules: dict[str, Any]) -> tuple[set[str], dict[str, Any]]:
    api.open(table, "blackjack", rules=rules)
    info = api.get(f"/api/tables/{table}/rules")
    return {t["key"] for t in info["text"]}, info


def test_blackjack_rules_say_only_what_applies_at_the_table(api: Api) -> None:
    """Issue 14 item 8: no cut card under a shuffler, no hole-card check in procedure 1, no Sevens text where Sevens
    is not offered; each of those sentences is there where it applies. ``options`` keeps every option."""
    statute, info = _bj_keys(api, "b1", {"preset": "statute"})
    assert "blackjack.rule.cards_behind_cut" in statute  # a shoe has a cut card
    assert not any(k.startswith("blackjack.rule.peek.") for k in statute)  # procedure 1: no hole card
    assert not any(k.startswith("blackjack.rule.sevens_") for k in statute)  # Any Pair only
    assert "blackjack.rule.any_pair_after_split.new_stake" in statute
    assert "blackjack.rule.burn_before_dealer_second_card.no" in statute
    assert {"peek", "sevens_third_card", "sevens_mixed_triple"} <= {o["name"] for o in info["options"]}

    shuffler, _ = _bj_keys(api, "b2", {"preset": "macau-typical"})
    assert "blackjack.rule.dealing_device.shuffler" in shuffler
    assert not any(k.startswith("blackjack.rule.cards_behind_cut") for k in shuffler)

    hole, _ = _bj_keys(api, "b3", {"procedure": 3, "side_bets_offered": ["sevens", "any_pair"]})
    assert "blackjack.rule.peek.yes" in hole
    assert {"blackjack.rule.sevens_third_card.after_split", "blackjack.rule.sevens_mixed_triple.two_card_pay"} <= hole
    assert "blackjack.rule.one_side_bet_per_box.yes" in hole
    assert not any(k.startswith("blackjack.rule.burn_before_dealer_second_card") for k in hole)  # a hole card
    # With the peek, a dealer blackjack is known before anyone doubles or splits.
    assert not any(k.startswith("blackjack.rule.lose_original_only_on_double") for k in hole)
    assert not any(k.startswith("blackjack.rule.busted_stakes_on_dealer_blackjack") for k in hole)

    none, _ = _bj_keys(api, "b4", {"side_bets_offered": []})
    assert "blackjack.rule.side_bets_offered.none" in none
    assert not any(k.startswith(("blackjack.rule.any_pair_", "blackjack.rule.one_side_bet")) for k in none)


def test_blackjack_paytable_names_the_main_games_payments(api: Api) -> None:
    """The paytable lists a blackjack 3 to 2 always, the five-card payment 1 to 2 (BJ 19) and the special bonus
    (BJ 15) only where the table pays them."""
    _, info = _bj_keys(api, "b1", {"preset": "statute"})
    pays = info["paytable"]
    assert pays["main"] == 1 and pays["insurance"] == 2 and pays["any_pair"] == 11
    assert pays["blackjack"] == "3/2" and pays["five_card"] == "1/2" and pays["special_bonus"] == 3
    _, info = _bj_keys(api, "b2", {"five_card_payment": False, "special_bonus": False})
    assert info["paytable"]["blackjack"] == "3/2"
    assert "five_card" not in info["paytable"] and "special_bonus" not in info["paytable"]
    assert {b["kind"] for b in info["bets"]} == {"main", "insurance", "any_pair"}  # bet kinds, not payments


def test_rules_refusals(api: Api) -> None:
    api.open("r1", "roulette")
    assert_error(api.client.get("/api/tables/r1/rules"), 401, "unauthenticated")
    assert_error(api.client.get("/api/tables/nowhere/rules", headers=api.login("ana")), 404, "unknown_table")
    assert_error(api.client.get("/api/tables/bad%20id/rules", headers=api.login("ana")), 422, "invalid_request")


# -- history -------------------------------------------------------------------------------------------------------


def test_roulette_history_newest_first_with_hot_and_cold(api: Api, script: Pockets) -> None:
    api.open("r1", "roulette", result_display_seconds=0)
    for pocket in (17, 0, 17, 32):
        script.pockets.append(pocket)
        api.bet("r1", {"type": "red", "amount": 10})
        api.tick(11)
    history = api.get("/api/tables/r1/history", "bo", last=10)
    assert [r["pocket"] for r in history["results"]] == [32, 17, 0, 17]
    assert [r["colour"] for r in history["results"]] == ["red", "black", "green", "black"]
    stats = history["stats"]
    assert stats["count"] == 4 and stats["hot"][0] == 17 and stats["numbers"]["17"] == 2
    assert stats["colour_pct"] == {"red": 25, "black": 50, "green": 25}
    assert 1 in stats["cold"]
    # 17, 0, 17, 32: zero is neither low nor high, in no dozen and no column (RO 8).
    assert stats["parity_pct"] == {"odd": 50, "even": 25}
    assert stats["half_pct"] == {"low": 50, "high": 25}
    assert stats["dozen_pct"] == {"1": 0, "2": 50, "3": 25}
    assert stats["column_pct"] == {"1": 0, "2": 75, "3": 0}
    assert [r["pocket"] for r in api.get("/api/tables/r1/history", "dee", last=2)["results"]] == [32, 17]


def test_sicbo_history_sizes_and_hot_totals(api: Api, script: Pockets) -> None:
    api.open("s1", "sicbo", result_display_seconds=0)
    for dice in ((1, 2, 3), (6, 6, 6), (4, 5, 6), (1, 2, 3)):
        script.rolls.append(dice)
        api.bet("s1", {"type": "big", "amount": 10})
        api.tick(11)
    history = api.get("/api/tables/s1/history")
    assert [r["total"] for r in history["results"]] == [6, 15, 18, 6]
    assert [r["size"] for r in history["results"]] == ["small", "big", "triple", "small"]
    assert history["results"][0]["dice"] == [1, 2, 3] and history["results"][0]["parity"] == "even"
    stats = history["stats"]
    assert stats["size_pct"] == {"big": 25, "small": 50, "triple": 25}
    assert stats["hot_totals"][0] == 6 and stats["totals"]["6"] == 2
    assert stats["triples"] == 1


def test_sicbo_bead_roads_fill_columns_oldest_first(api: Api, script: Pockets) -> None:
    """The big/small and odd/even roads of a Macau result display: six cells a column, top to bottom, the oldest
    roll first; a triple is marked on both roads (on the big/small road it is its own value, SB 7)."""
    api.open("s1", "sicbo", result_display_seconds=0)
    rolls = [(1, 1, 2), (6, 5, 4), (3, 3, 3), (1, 2, 4), (2, 2, 3), (6, 6, 5), (5, 5, 1), (2, 3, 4)]
    for dice in rolls:
        script.rolls.append(dice)
        api.bet("s1", {"type": "small", "amount": 10})
        api.tick(11)
    stats = api.get("/api/tables/s1/history", last=7)["stats"]
    assert stats["count"] == 7 and stats["road_rows"] == 6
    size = stats["size_road"]
    assert [len(column) for column in size] == [6, 1]  # the seven newest rolls: (6, 5, 4) … (2, 3, 4)
    assert [c["value"] for c in size[0]] == ["big", "triple", "small", "small", "big", "big"]
    assert [c["total"] for c in size[0]] == [15, 9, 7, 7, 17, 11]
    assert [c["triple"] for c in size[0]] == [False, True, False, False, False, False]
    assert size[1] == [{"round": size[1][0]["round"], "value": "small", "total": 9, "triple": False}]
    parity = stats["parity_road"]
    assert [c["value"] for column in parity for c in column] == ["odd", "odd", "odd", "odd", "odd", "odd", "odd"]
    assert [c["triple"] for column in parity for c in column] == [False, True, False, False, False, False, False]
    history = api.get("/api/tables/s1/history", last=7)
    assert [c["round"] for column in size for c in column] == [r["round"] for r in reversed(history["results"])]
    assert stats["triples"] == 1


def test_history_refusals(api: Api) -> None:
    api.open("r1", "roulette")
    assert api.get("/api/tables/r1/history")["results"] == []
    headers = api.login("ana")
    assert_error(api.client.get("/api/tables/nowhere/history", headers=headers), 404, "unknown_table")
    for bad in ("0", "501", "many"):
        assert_error(api.client.get(f"/api/tables/r1/history?last={bad}", headers=headers), 422, "invalid_request")
    assert_error(api.client.get("/api/tables/r1/history"), 401)


# -- the player's own rounds --------------------------------------------------------------------------------------


def test_my_rounds_show_only_my_stakes_and_nets(api: Api, script: Pockets) -> None:
    api.open("r1", "roulette")
    api.open("s1", "sicbo")
    script.pockets.append(17)
    api.bet("r1", {"type": "straight", "numbers": [17], "amount": 10})
    api.bet("r1", {"type": "red", "amount": 20})
    api.bet("r1", {"type": "black", "amount": 30}, name="bo")
    api.tick(11)
    api.clock.advance(seconds=1)
    api.bet("s1", {"type": "total", "total": 9, "amount": 5})  # still open
    mine = api.get("/api/me/rounds", table="r1")
    assert len(mine) == 1
    r = mine[0]
    assert r["table"] == "r1" and r["status"] == "settled" and r["result"] == 17
    assert [(b["bet"]["type"], b["amount"], b["net"]) for b in r["bets"]] == [("straight", 10, 350), ("red", 20, -20)]
    assert r["net"] == 330 and r["staked"] == 30
    assert "'bo'" not in str(r)
    everywhere = api.get("/api/me/rounds", last=5)
    assert [x["table"] for x in everywhere] == ["s1", "r1"]
    assert everywhere[0]["status"] == "betting" and everywhere[0]["net"] is None
    assert api.get("/api/me/rounds", "bo", table="r1")[0]["net"] == 30


def test_my_rounds_refusals(api: Api) -> None:
    api.open("r1", "roulette")
    assert_error(api.client.get("/api/me/rounds", headers=api.login("dee")), 403, "forbidden")
    assert_error(api.client.get("/api/me/rounds", headers=api.login("boss")), 403, "forbidden")
    headers = api.login("ana")
    assert_error(api.client.get("/api/me/rounds?table=nowhere", headers=headers), 404, "unknown_table")
    for bad in ("0", "101", "x"):
        assert_error(api.client.get(f"/api/me/rounds?last={bad}", headers=headers), 422, "invalid_request")


# -- the dealer's bell --------------------------------------------------------------------------------------------


def test_dealer_closes_betting_on_a_live_table(api: Api) -> None:
    api.open("live", "roulette", live=True)
    api.bet("live", {"type": "odd", "amount": 50})
    r = api.client.post("/api/tables/live/close-betting", headers=api.as_("dee"))
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "playing"
    assert api.get("/api/tables/live")["status"] == "playing"
    assert_error(
        api.client.post("/api/tables/live/bets", json={"type": "odd", "amount": 5}, headers=api.as_("ana")), 409
    )
    again = api.client.post("/api/tables/live/close-betting", headers=api.as_("dee"))
    assert_error(again, 409, "illegal_action")
    r = api.client.post("/api/tables/live/results", json={"result": 17}, headers=api.as_("dee"))
    assert r.status_code == 200, r.text
    assert api.services.ledger.wallet("ana") == 10_050
    assert api.get("/api/tables/live/history")["results"][0]["pocket"] == 17


def test_close_betting_refusals(api: Api) -> None:
    api.open("rng", "roulette")
    api.open("live", "sicbo", live=True)
    api.bet("rng", {"type": "odd", "amount": 50})
    refused = assert_error(api.client.post("/api/tables/rng/close-betting", headers=api.as_("dee")), 409)
    assert refused["error"] == "illegal_action" and refused["rule"] == "RO 3" and "RNG" in refused["detail"]
    nobody = assert_error(api.client.post("/api/tables/live/close-betting", headers=api.as_("dee")), 409)
    assert nobody["rule"] == "SB 3.1"
    api.bet("live", {"type": "big", "amount": 10})
    for who in ("ana", "boss"):
        assert_error(api.client.post("/api/tables/live/close-betting", headers=api.as_(who)), 403, "forbidden")
    assert_error(api.client.post("/api/tables/ghost/close-betting", headers=api.as_("dee")), 404, "unknown_table")
    assert api.get("/api/tables/live")["status"] == "betting"  # nothing changed
