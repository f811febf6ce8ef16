"""Issue 13 in the casino service: dealers belong to tables (an admin assigns them, audited), an RNG round is
voided only by an admin with a written reason, and the admin's recall of a round in play shows no card the players
cannot see."""

from __future__ import annotations

import pytest

from croupier.errors import InvalidInput
from croupier.service.accounts import Forbidden, Role
from croupier.service.casino_memory import MemoryCasinoStore
from croupier.service.memory import MemoryLedgerStore
from service.test_casino import refused
from service.test_casino_support import World, play_until_settled


@pytest.fixture
def world() -> World:
    w = World(MemoryLedgerStore(), MemoryCasinoStore())
    w.users["eve"] = w.accounts.create("eve", "password1", Role.DEALER)
    w.fund("ana")
    return w


def test_a_dealer_runs_only_the_tables_he_is_assigned_to(world: World) -> None:
    c, ana, dee, eve = world.casino, world.users["ana"], world.users["dee"], world.users["eve"]
    c.open_table(world.admin, table_id="L1", game="roulette", live=True, dealers=["dee"])
    c.place_bet(ana, "L1", {"type": "red", "amount": 100}, "k1")
    refused(world, lambda: c.close_betting(eve, "L1"), Forbidden)
    refused(world, lambda: c.void(eve, "L1", "not my table"), Forbidden)
    c.close_betting(dee, "L1")
    refused(world, lambda: c.report(eve, "L1", 7), Forbidden)
    assert c.assign_dealers(world.admin, "L1", ["EVE"]) == {"table": "L1", "dealers": ["eve"]}
    refused(world, lambda: c.report(dee, "L1", 7), Forbidden)
    c.report(eve, "L1", 7)
    line = [a for a in world.store.audit() if a.action == "dealers_assigned"][-1]
    assert (line.actor, line.detail) == ("root", {"before": ["dee"], "after": ["eve"]})
    with pytest.raises(InvalidInput):
        c.assign_dealers(world.admin, "L1", ["ana"])  # a player is not a dealer
    with pytest.raises(Forbidden):
        c.assign_dealers(dee, "L1", ["dee"])  # a dealer does not assign himself
    world.check()


def test_an_rng_round_is_voided_only_by_an_admin_with_a_reason(world: World) -> None:
    c, ana, dee = world.casino, world.users["ana"], world.users["dee"]
    c.open_table(world.admin, table_id="B1", game="blackjack", dealers=["dee"])
    c.place_bet(ana, "B1", {"box": 1, "main": 100}, "k1")
    world.wait(16)  # dealt: the cards are seen
    refused(world, lambda: c.void(dee, "B1", "misdeal"), Forbidden)
    refused(world, lambda: c.void(world.admin, "B1", "  "), InvalidInput)
    assert c.void(world.admin, "B1", "the shoe was found short a card")["status"] == "voided"
    line = [a for a in world.store.audit() if a.action == "void"][-1]
    assert line.actor == "root" and line.detail["reason"] == "the shoe was found short a card"
    assert world.ledger.wallet("ana") == 10_000
    world.check()


def test_recall_of_a_round_in_play_shows_no_card_the_players_cannot_see(world: World) -> None:
    c, ana = world.casino, world.users["ana"]
    c.open_table(world.admin, table_id="B1", game="blackjack", rules={"procedure": 3})  # a hole card (BJ 5.2)
    c.place_bet(ana, "B1", {"box": 1, "main": 100}, "k1")
    world.wait(16)
    view = c.table_view(ana, "B1")["view"]
    assert isinstance(view, dict) and view["turn"] is not None  # the round waits for ana
    (live,) = c.recall(world.admin, "B1", last=1)
    stored = world.store.rounds("B1")[-1].state.cards
    hole = [op for op in live["operations"] if op.get("op") == "Dealt" and op["box"] is None][1]  # type: ignore[union-attr]
    assert hole["card"] == "??" and not hole["face_up"]
    assert live["cards"].count("??") == len(stored) - len([c for c in live["cards"] if c != "??"]) >= 2
    assert live["cards"][0] == "??"  # the burn
    shown = [str(op["card"]) for op in live["operations"] if op.get("op") == "Dealt" and op["face_up"]]  # type: ignore[union-attr]
    assert [c for c in live["cards"] if c != "??"] == shown
    play_until_settled(world, "B1")
    (done,) = c.recall(world.admin, "B1", last=2)[:1]
    assert done["cards"] == list(stored) + done["cards"][len(stored) :] and "??" not in done["cards"]


def test_recall_hides_face_down_box_cards_until_the_round_ends(world: World) -> None:
    c, ana = world.casino, world.users["ana"]
    c.open_table(world.admin, table_id="B1", game="blackjack", rules={"procedure": 1})  # boxes face down
    c.place_bet(ana, "B1", {"box": 1, "main": 100}, "k1")
    world.wait(16)
    (live,) = c.recall(world.admin, "B1", last=1)
    boxed = [op for op in live["operations"] if op.get("op") == "Dealt" and op["box"] == 1]  # type: ignore[union-attr]
    assert boxed and all(op["card"] == "??" for op in boxed)
    assert c.table_view(ana, "B1")["view"] is not None
