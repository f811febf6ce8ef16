"""What each player may see (BJ 5.2 readings): face-down cards, the hole card, never the shoe."""

from __future__ import annotations

import json

from croupier.blackjack.rules import BlackjackRules
from croupier.blackjack.table import BlackjackTable
from croupier.blackjack.views import HIDDEN, player_view
from croupier.primitives.chance import ScriptedSource


def two_boxes(procedure: int, cards: list[str]) -> BlackjackTable:
    table = BlackjackTable(BlackjackRules(procedure=procedure), ScriptedSource(cards=cards))
    rnd = table.open_round()
    rnd.place_bet(1, "ana", main=10)
    rnd.place_bet(2, "bo", main=10)
    rnd.close_betting()
    return table


def test_procedure_1_face_down_cards_are_seen_only_by_the_box_s_bettors() -> None:
    # burn, box 1, box 2, dealer up, box 1, box 2
    table = two_boxes(1, ["2C", "5S", "9H", "7D", "6S", "TH", "8C", "9D"])
    rnd = table.round
    assert rnd is not None
    ana, bo, spectator = (player_view(rnd, who) for who in ("ana", "bo", None))
    assert ana["boxes"][0]["hands"][0]["cards"] == ["5S", "6S"]
    assert ana["boxes"][1]["hands"][0]["cards"] == [HIDDEN, HIDDEN]
    assert ana["boxes"][1]["hands"][0]["total"] is None
    assert bo["boxes"][0]["hands"][0]["cards"] == [HIDDEN, HIDDEN]
    assert bo["boxes"][1]["hands"][0]["cards"] == ["9H", "TH"]
    assert spectator["boxes"][0]["hands"][0]["cards"] == [HIDDEN, HIDDEN]
    assert ana["dealer"]["cards"] == ["7D"]
    # Only the player asked sees the legal answers.
    assert ana["turn"]["actions"] == ["hit", "stand", "double", "surrender"]
    assert "actions" not in bo["turn"] and bo["turn"]["player"] == "ana"
    rnd.hit()  # 5-6 + 8 = 19: a face-up third card
    rnd.stand(box=1) if rnd.pending and rnd.pending.box == 1 else None
    assert player_view(rnd, "bo")["boxes"][0]["hands"][0]["cards"] == [HIDDEN, HIDDEN, "8C"]


def test_procedure_2_cards_are_face_up_for_everyone() -> None:
    table = two_boxes(2, ["2C", "5S", "9H", "7D", "6S", "TH"])
    rnd = table.round
    assert rnd is not None
    assert player_view(rnd, "bo")["boxes"][0]["hands"][0]["cards"] == ["5S", "6S"]


def test_the_hole_card_is_hidden_until_turned_and_the_shoe_never_shown() -> None:
    # procedure 3: burn, box 1, box 2, dealer up 9, box 1, box 2, hole card K
    table = two_boxes(3, ["2C", "5S", "9H", "9D", "6S", "TH", "KC"])
    rnd = table.round
    assert rnd is not None
    view = player_view(rnd, "ana")
    assert view["dealer"]["cards"] == ["9D", HIDDEN]
    assert view["dealer"]["total"] == 9
    text = json.dumps(view)
    assert "KC" not in text  # the hole card
    assert "shoe" not in text and "order" not in text
    rnd.stand()
    rnd.stand()
    final = player_view(rnd, "ana")
    assert final["dealer"]["cards"][:2] == ["9D", "KC"]
    assert final["settlement"]["players"] == {"ana": -10}  # 11 against 19
    assert all(b["player"] == "ana" for b in final["settlement"]["bets"])
