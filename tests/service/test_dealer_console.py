"""Issue 14, the dealer's console in the casino: the prompt a live table's dealers see in the table's view (the next
card and where it goes, a decision awaited, the bell, the pocket or the dice) and the undo of a card reported but
not yet used by the round (audited, refused once the card is in play, BJ 5.1.2)."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.errors import IllegalAction
from croupier.service.accounts import Forbidden, Role
from croupier.service.casino_memory import MemoryCasinoStore
from croupier.service.memory import MemoryLedgerStore
from service.test_casino_support import World


@pytest.fixture
def world() -> World:
    w = World(MemoryLedgerStore(), MemoryCasinoStore())
    w.fund("ana", "bo")
    return w


def prompt(world: World, table: str, who: str = "dee") -> Any:
    return world.casino.table_view(world.users[who], table)["dealer_prompt"]


def card(to: str, box: int | None = None, hand: int | None = None, *, up: bool = True) -> dict[str, Any]:
    return {"to": to, "box": box, "hand": hand, "face_up": up}


def live_blackjack(world: World, table: str = "LB", **options: Any) -> None:
    world.casino.open_table(world.admin, table_id=table, game="blackjack", live=True, dealers=["dee"], **options)


def test_the_blackjack_prompt_follows_the_deal_the_decisions_and_the_dealer(world: World) -> None:
    c, ana, bo, dee = world.casino, world.users["ana"], world.users["bo"], world.users["dee"]
    live_blackjack(world, result_display_seconds=5)
    assert prompt(world, "LB") == {"expect": "bell", "card": None, "reported": []}  # no bet: nothing to deal
    c.place_bet(bo, "LB", {"box": 3, "main": 100}, "b1")
    c.place_bet(ana, "LB", {"box": 1, "main": 100}, "a1")
    assert prompt(world, "LB") == {"expect": "bell", "card": card("burn", up=False), "reported": []}
    c.close_betting(dee, "LB")
    # The statute's deal, procedure 1 (BJ 4.1, BJ 5.2): burn, box 1, box 3 face down, the dealer up, box 1, box 3.
    expected = [
        card("burn", up=False),
        card("box", 1, 0, up=False),
        card("box", 3, 0, up=False),
        card("dealer"),
        card("box", 1, 0, up=False),
        card("box", 3, 0, up=False),
    ]
    for code, target in zip(("KD", "TS", "9C", "7C", "8H", "8D"), expected, strict=True):
        seen = prompt(world, "LB")
        assert seen["expect"] == "card" and seen["card"] == target, (code, seen)
        c.report(dee, "LB", code)
    seen = prompt(world, "LB")
    assert seen["expect"] == "decision" and seen["card"] is None
    assert seen["turn"] == {"kind": "play", "box": 1, "hand": 0, "player": "ana"}
    c.act(ana, "LB", "hit", "a2")  # the hit waits for its card: box 1's hand
    assert prompt(world, "LB")["card"] == card("box", 1, 0)
    c.report(dee, "LB", "2S")
    c.act(ana, "LB", "stand", "a3")
    assert prompt(world, "LB")["turn"]["box"] == 3
    c.act(bo, "LB", "stand", "b2")  # the last stand: the dealer's second card (BJ 5.2, procedure 1)
    assert prompt(world, "LB") == {"expect": "card", "card": card("dealer"), "reported": []}
    c.report(dee, "LB", "9H")  # the dealer: 16, draws (BJ 6.1)
    assert prompt(world, "LB")["card"] == card("dealer")
    c.report(dee, "LB", "TH")  # bust
    assert prompt(world, "LB") == {"expect": "next_round", "card": None, "reported": []}  # the result moment
    world.wait(6)
    assert prompt(world, "LB") == {"expect": "bell", "card": None, "reported": []}
    world.check()


def test_a_card_not_yet_used_is_taken_back_and_audited(world: World) -> None:
    c, ana, dee = world.casino, world.users["ana"], world.users["dee"]
    live_blackjack(world)
    c.place_bet(ana, "LB", {"box": 2, "main": 100}, "a1")
    c.close_betting(dee, "LB")
    c.report(dee, "LB", "KD")  # the burn
    c.report(dee, "LB", "QH")  # box 2: a slip, the reader read the wrong card
    assert prompt(world, "LB") == {"expect": "card", "card": card("dealer"), "reported": ["KD", "QH"]}
    answer = c.take_back(dee, "LB", "QH")
    assert answer == {"table": "LB", "round": "LB.1", "card": "QH", "reported": ["KD"]}
    assert prompt(world, "LB") == {"expect": "card", "card": card("box", 2, 0, up=False), "reported": ["KD"]}
    audit = [a for a in world.store.audit() if a.action == "card_taken_back"]
    assert [(a.actor, a.table_id, a.detail) for a in audit] == [("dee", "LB", {"round": "LB.1", "card": "QH"})]
    # Another card than the last one is refused, and nothing changes.
    with pytest.raises(IllegalAction) as info:
        c.take_back(dee, "LB", "AS")
    assert "KD" in info.value.message
    # A restart keeps what the dealer took back: the stored round no longer holds the card.
    world.restart()
    c = world.casino
    assert prompt(world, "LB")["reported"] == ["KD"]
    for code in ("10H", "7C", "9H"):  # box 2, the dealer's up card, box 2: 19 against a 7
        c.report(dee, "LB", code)
    assert prompt(world, "LB")["expect"] == "decision"
    # Every card is in play: nothing to take back (a dealing error is corrected on the layout, BJ 5.1.2).
    with pytest.raises(IllegalAction) as info:
        c.take_back(dee, "LB")
    assert info.value.rule == "BJ 5.1.2"
    c.act(ana, "LB", "stand", "a2")
    c.report(dee, "LB", "TC")
    record = world.store.get_round("LB.1")
    assert record is not None and record.status == "settled"
    assert record.data["cards"] == ["KD", "TH", "7C", "9H", "TC"]
    assert world.ledger.wallet("ana") == 10_000 + 100  # 19 against 17
    world.check()


def test_only_the_dealers_of_a_live_table_see_the_prompt_and_take_back(world: World) -> None:
    c, ana = world.casino, world.users["ana"]
    dan = world.users["dan"] = world.accounts.create("dan", "password1", Role.DEALER)
    live_blackjack(world)
    c.place_bet(ana, "LB", {"box": 1, "main": 100}, "a1")
    c.close_betting(world.users["dee"], "LB")
    c.report(world.users["dee"], "LB", "KD")
    for who in ("ana", "root", "dan"):
        assert "dealer_prompt" not in c.table_view(world.users[who], "LB"), who
    for user in (ana, world.admin, dan):
        with pytest.raises(Forbidden):
            c.take_back(user, "LB")
    assert prompt(world, "LB")["reported"] == ["KD"]
    c.open_table(world.admin, table_id="RB", game="blackjack", dealers=["dee"])  # an RNG table
    assert "dealer_prompt" not in c.table_view(world.users["dee"], "RB")
    with pytest.raises(IllegalAction):
        c.take_back(world.users["dee"], "RB")


@pytest.mark.parametrize(
    ("game", "result", "expect", "rule"), [("roulette", 17, "pocket", "RO 2.2"), ("sicbo", [1, 4, 6], "dice", "SB 3.3")]
)
def test_roulette_and_sic_bo_prompt_the_result_and_take_nothing_back(
    world: World, game: str, result: Any, expect: str, rule: str
) -> None:
    c, ana, dee = world.casino, world.users["ana"], world.users["dee"]
    c.open_table(world.admin, table_id="LW", game=game, live=True, dealers=["dee"], result_display_seconds=5)
    assert prompt(world, "LW") == {"expect": "bell", "card": None, "reported": []}
    c.place_bet(ana, "LW", {"type": "big" if game == "sicbo" else "red", "amount": 100}, "a1")
    c.close_betting(dee, "LW")
    assert prompt(world, "LW") == {"expect": expect, "card": None, "reported": []}
    with pytest.raises(IllegalAction) as info:
        c.take_back(dee, "LW")
    assert info.value.rule == rule
    c.report(dee, "LW", result)
    assert prompt(world, "LW")["expect"] == "next_round"  # the result moment
    world.wait(6)
    assert prompt(world, "LW")["expect"] == "bell"
    world.check()


def test_the_round_says_when_it_starts_to_wait_for_a_card(world: World) -> None:
    """``waiting_for_card`` once per wait (the deal after the bell, a hit, the dealer's draw), not once per card: the
    console re-reads its prompt on it instead of polling."""
    c, ana, dee = world.casino, world.users["ana"], world.users["dee"]
    live_blackjack(world)
    sub = c.subscribe("LB")
    c.place_bet(ana, "LB", {"box": 1, "main": 100}, "a1")
    c.close_betting(dee, "LB")

    def waits() -> int:
        return [e["type"] for e in sub.drain()].count("waiting_for_card")

    assert waits() == 1  # the deal waits for its first card
    for code in ("KD", "TS", "7C", "8H"):  # burn, box 1, the dealer up, box 1: 18 against a 7
        c.report(dee, "LB", code)
    assert waits() == 0  # the same wait, card after card; then a decision, no wait
    c.act(ana, "LB", "hit", "a2")
    assert waits() == 1  # the hit waits for its card
    c.report(dee, "LB", "2S")  # 20
    assert waits() == 0
    c.act(ana, "LB", "stand", "a3")
    assert waits() == 1  # the dealer's second card
    c.report(dee, "LB", "TH")  # 17: the dealer stands, the round settles
    assert waits() == 0
    world.check()
