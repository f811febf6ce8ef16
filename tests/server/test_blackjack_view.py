"""What the blackjack page reads beyond the round itself (issue 14, items 4 and 6), in process: the shoe's public state
in the table view (cards dealt, the cut card, a shuffle), the settled round's outcome kept in the view through the
result moment, and the dealer's hands as the table's public history. A live table, so every card is the test's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


from server.support import InProcessApi, memory_app  # noqa: E402

PASSWORD = "password-1"
# One deck, the cut card 47 cards from the back: the sixth card out of the shoe is the first behind it.
ONE_DECK = {"decks": 1, "cards_behind_cut": 47}
PAUSE = 5.0  # result_display_seconds


class Api(InProcessApi):
    def get(self, path: str, name: str = "ana", **params: Any) -> Any:
        r = self.client.get(path, headers=self.login(name), params=params)
        assert r.status_code == 200, r.text
        return r.json()

    def post(self, path: str, body: dict[str, Any] | None, name: str, status: int = 200) -> Any:
        r = self.client.post(path, json=body, headers=self.as_(name))
        assert r.status_code == status, r.text
        return r.json()

    def view(self, table: str, name: str = "ana") -> dict[str, Any]:
        body: dict[str, Any] = self.get(f"/api/tables/{table}", name)
        return body

    def report(self, table: str, *cards: str) -> None:
        for card in cards:
            self.post(f"/api/tables/{table}/results", {"result": card}, "dee")

    def act(self, table: str, action: str, box: int = 1, hand: int | None = None) -> None:
        self.post(f"/api/tables/{table}/actions", {"action": action, "box": box, "hand": hand}, "ana")


@pytest.fixture
def api() -> Iterator[Api]:
    with memory_app(Api, password=PASSWORD, credit=10_000) as a:
        yield a


def play_round(api: Api, table: str, *, burn: bool) -> None:
    """Ana bets 10 on box 1 (procedure 1): TH and 8C against the dealer's 9D, she stands, the dealer draws 7C and
    TD and busts (26)."""
    api.post(f"/api/tables/{table}/bets", {"box": 1, "main": 10}, "ana", status=201)
    api.post(f"/api/tables/{table}/close-betting", None, "dee")
    api.report(table, *(["5S"] if burn else []), "TH", "9D", "8C")
    api.act(table, "stand")
    api.report(table, "7C", "TD")


def test_the_shoe_before_during_and_after_a_round(api: Api) -> None:
    api.open("bj", "blackjack", live=True, rules=ONE_DECK, result_display_seconds=PAUSE)
    before = api.view("bj")
    assert before["view"]["shoe"] == {"cards": 52, "dealt": 0, "cut_at": 6, "shuffled": False, "shuffle_due": True}

    api.post("/api/tables/bj/bets", {"box": 1, "main": 10}, "ana", status=201)
    api.post("/api/tables/bj/close-betting", None, "dee")
    api.report("bj", "5S", "TH", "9D", "8C")  # the burn after the shuffle (BJ 4.1), then the deal
    shoe = api.view("bj")["view"]["shoe"]
    assert shoe == {"cards": 52, "dealt": 4, "cut_at": 6, "shuffled": True, "shuffle_due": False}
    api.act("bj", "stand")
    api.report("bj", "7C")  # the fifth card: the cut card is not out yet
    assert api.view("bj")["view"]["shoe"]["shuffle_due"] is False
    api.report("bj", "TD")  # the sixth: the dealer busts and the cut card is out

    settled = api.view("bj")
    assert settled["status"] == "settled"  # the result moment
    assert settled["view"]["shoe"] == {"cards": 52, "dealt": 6, "cut_at": 6, "shuffled": True, "shuffle_due": True}
    assert settled["view"]["cut_card_out"] is True

    api.tick(PAUSE)  # the next window: the shoe is shuffled before its deal
    nxt = api.view("bj")
    assert nxt["status"] == "betting" and nxt["round"] != settled["round"]
    assert nxt["view"]["shoe"] == {"cards": 52, "dealt": 6, "cut_at": 6, "shuffled": False, "shuffle_due": True}
    play_round(api, "bj", burn=True)
    again = api.view("bj")["view"]["shoe"]
    assert again["shuffled"] is True and again["dealt"] == 6  # a fresh shoe: the burn and five cards


def test_a_shuffler_or_a_dealing_box_has_no_shoe_indicator(api: Api) -> None:
    api.open("cs", "blackjack", rules={"decks": 6, "dealing_device": "shuffler"})
    api.open("db", "blackjack", rules={"decks": 1, "dealing_device": "dealing_box"})
    assert api.view("cs")["view"]["shoe"] is None
    assert api.view("db")["view"]["shoe"] is None


def test_the_outcome_stays_in_the_view_through_the_result_moment(api: Api) -> None:
    api.open("bj", "blackjack", live=True, rules=ONE_DECK, result_display_seconds=PAUSE)
    play_round(api, "bj", burn=True)
    body = api.view("bj")
    assert body["status"] == "settled"
    outcome = body["view"]["outcome"]
    assert outcome["dealer"] == {"cards": ["9D", "7C", "TD"], "total": 26, "blackjack": False}
    assert [(b["box"], b["result"]) for b in outcome["boxes"]] == [(1, "win")]
    assert outcome["boxes"][0]["bets"] == [{"player": "ana", "kind": "main", "net": 10}]
    assert body["view"]["settlement"]["players"] == {"ana": 10}
    assert api.view("bj", "bo")["view"]["outcome"] == outcome  # public: the `result` event's
    api.tick(PAUSE)
    assert "outcome" not in api.view("bj")["view"]


def test_the_public_history_is_the_dealers_hands(api: Api) -> None:
    api.open("bj", "blackjack", live=True, rules={"decks": 2}, result_display_seconds=PAUSE)
    play_round(api, "bj", burn=True)
    api.tick(PAUSE)
    api.post("/api/tables/bj/bets", {"box": 1, "main": 10}, "ana", status=201)
    api.post("/api/tables/bj/close-betting", None, "dee")
    api.report("bj", "TS", "AH", "9S")  # ana 19, the dealer shows an ace: the offers
    api.act("bj", "decline")
    api.act("bj", "stand")
    api.report("bj", "KS")  # the dealer's blackjack (procedure 1: the second card comes after the boxes)
    api.tick(PAUSE)
    history = api.get("/api/tables/bj/history", "bo")
    first, second = history["results"]  # newest first
    assert first["dealer_blackjack"] is True and first["dealer_total"] == 21 and first["dealer_cards"] == 2
    assert second == {
        "round": second["round"],
        "dealer_total": 26,
        "dealer_cards": 3,
        "dealer_blackjack": False,
        "dealer_bust": True,
    }
    assert first["dealer_bust"] is False
    assert history["stats"] == {"count": 2, "dealer_busts": 1, "dealer_blackjacks": 1}
    assert api.get("/api/tables/bj/history", "bo", last=1)["results"] == [first]
