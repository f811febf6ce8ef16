"""Provably fair tables end to end through the casino service: the commitment published before bets, the outcome
derived from the committed seed, the seed revealed after settlement (a blackjack shoe's once it ends), recall and
export carrying commitment, seed and inputs, player seeds as inputs, and the tables that are not provably fair."""

from __future__ import annotations

from typing import Any

import pytest

from croupier import fair
from croupier.errors import InvalidInput
from croupier.replay.core import replay
from croupier.service.casino_memory import MemoryCasinoStore
from croupier.service.ledger import IdempotencyConflict
from croupier.service.memory import MemoryLedgerStore
from fair.support import ONE_DECK, FairWorld
from service.test_casino_support import World, play_until_settled


@pytest.fixture
def world() -> FairWorld:
    made = FairWorld(MemoryLedgerStore(), MemoryCasinoStore())
    made.fund("ana", "bo")
    return made


WAGERS = {"roulette": {"type": "red", "amount": 10}, "sicbo": {"type": "big", "amount": 10}}


@pytest.mark.parametrize("game", ["roulette", "sicbo"])
def test_a_wager_round_commits_derives_and_reveals(world: FairWorld, game: str) -> None:
    c, ana, bo = world.casino, world.users["ana"], world.users["bo"]
    c.open_table(world.admin, table_id="T", game=game)
    sub = c.subscribe("T")
    seed = world.issued[0]
    view = c.table_view(ana, "T")
    assert view["fair"] == {"label": "T.1", "commitment": fair.commitment(seed)}
    c.place_bet(ana, "T", {**WAGERS[game], "client_seed": "lucky"}, "k1")
    c.place_bet(bo, "T", WAGERS[game], "k1")
    before = c.fair_record(bo, "T", "T.1")
    assert before["seed"] is None and not before["revealed"]
    assert before["inputs"] == [["b1", "lucky"]] and before["result"] is None
    world.wait(16)
    record = c.fair_record(bo, "T", "T.1")
    derive = fair.derive_pocket if game == "roulette" else fair.derive_dice
    expected = derive(seed, "T.1", [["b1", "lucky"]])
    assert record["seed"] == seed and record["revealed"] and record["result"] == expected
    stored = world.store.get_round("T.1")
    assert stored is not None and stored.data["fair"]["inputs"] == [["b1", "lucky"]]
    assert stored.data["outcome"]["pocket" if game == "roulette" else "dice"] == expected
    assert fair.verify(record).ok
    events = list(sub.events)
    settled = next(e for e in events if e["type"] == "settled")
    assert settled["fair"] == record
    opened = next(e for e in events if e["type"] == "betting_open")
    assert opened["round"] == "T.2" and opened["fair"] == {
        "label": "T.2",
        "commitment": fair.commitment(world.issued[1]),
    }
    recalled = {r["round"]: r for r in c.recall(world.admin, "T")}
    assert recalled["T.1"]["fair"] == record
    assert recalled["T.2"]["fair"]["seed"] is None  # the round in betting: its seed stays secret
    scenario = c.export_scenario(world.admin, "T", "T.1")
    assert scenario["fair"] == record
    assert all("client_seed" not in bet for bet in scenario["rounds"][0]["bets"])
    replay(scenario)  # croupier replay takes the exported file as it is


def test_a_player_seed_changes_the_derivation() -> None:
    pockets = []
    for bet in ({"type": "red", "amount": 10}, {"type": "red", "amount": 10, "client_seed": "mine"}):
        w = FairWorld(MemoryLedgerStore(), MemoryCasinoStore())
        w.fund("ana")
        w.casino.open_table(w.admin, table_id="R", game="roulette")
        w.casino.place_bet(w.users["ana"], "R", bet, "k")
        w.wait(16)
        record = w.casino.fair_record(w.users["ana"], "R", "R.1")
        inputs = [["b1", "mine"]] if "client_seed" in bet else []
        assert record["result"] == fair.derive_pocket(w.issued[0], "R.1", inputs)
        pockets.append(record["result"])
    assert fair.derive_pocket(w.issued[0], "R.1", []) != fair.derive_pocket(w.issued[0], "R.1", [["b1", "mine"]])


@pytest.mark.parametrize("bad", ["", "x" * 65, "caf\u00e9", 12, ["a"]])
def test_a_bad_player_seed_is_refused_and_changes_nothing(world: FairWorld, bad: object) -> None:
    c, ana = world.casino, world.users["ana"]
    c.open_table(world.admin, table_id="R", game="roulette")
    before = world.store.get_round("R.1")
    with pytest.raises(InvalidInput, match="client_seed") as info:
        c.place_bet(ana, "R", {"type": "red", "amount": 10, "client_seed": bad}, "k")
    assert repr(bad)[:20] in str(info.value)
    assert world.store.get_round("R.1") == before and world.ledger.held("ana") == 0


def test_the_same_key_with_another_player_seed_is_another_request(world: FairWorld) -> None:
    c, ana = world.casino, world.users["ana"]
    c.open_table(world.admin, table_id="R", game="roulette")
    c.place_bet(ana, "R", {"type": "red", "amount": 10, "client_seed": "a"}, "k")
    assert c.place_bet(ana, "R", {"type": "red", "amount": 10, "client_seed": "a"}, "k")["ref"] == "b1"
    with pytest.raises(IdempotencyConflict):
        c.place_bet(ana, "R", {"type": "red", "amount": 10, "client_seed": "b"}, "k")


def test_an_admin_void_reveals_the_seed_of_a_round_that_can_no_longer_be_played(world: FairWorld) -> None:
    c = world.casino
    c.open_table(world.admin, table_id="R", game="roulette")
    c.place_bet(world.users["ana"], "R", {"type": "red", "amount": 10}, "k")
    sub = c.subscribe("R")
    c.void(world.admin, "R", "wheel fault")
    voided = next(e for e in sub.events if e["type"] == "void")
    assert voided["fair"]["seed"] == world.issued[0]
    record = c.fair_record(world.users["bo"], "R", "R.1")
    assert record["revealed"] and record["result"] is None
    with pytest.raises(fair.MissingField, match="no result"):
        fair.verify(record)


def blackjack_rounds(world: World, table: str, n: int, *, seed: str | None = None) -> None:
    """Play ``n`` rounds with one main bet each (the default answers), ``seed`` as ana's player seed."""
    c = world.casino
    for i in range(n):
        bet: dict[str, Any] = {"box": 1, "main": 10}
        if seed is not None:
            bet["client_seed"] = seed
        c.place_bet(world.users["ana"], table, bet, f"{table}-{i}-{len(world.labels)}")
        world.clock.advance(seconds=16)
        c.tick()
        play_until_settled(world, table)


def test_a_blackjack_shoe_is_committed_dealt_in_its_order_and_revealed_when_it_ends(world: FairWorld) -> None:
    c, bo = world.casino, world.users["bo"]
    c.open_table(world.admin, table_id="B", game="blackjack", rules=ONE_DECK)
    shoe_seed = world.issued[0]
    assert c.table_view(bo, "B")["fair"] == {
        "label": "B.shoe1",
        "shoe": "B.shoe1",
        "commitment": fair.commitment(shoe_seed),
    }
    blackjack_rounds(world, "B", 1, seed="ana's")
    order = fair.derive_shoe_order(shoe_seed, "B.shoe1", [["b1", "ana's"]], 1)
    rounds = world.store.rounds("B")
    assert list(rounds[0].state.cards) == order[: len(rounds[0].state.cards)]
    assert c.fair_record(bo, "B", "B.1")["seed"] is None  # the shoe deals on: its seed is secret
    assert [e["fair"]["seed"] for e in c.recall(world.admin, "B", last=5)] == [None, None]  # not even to an admin
    for _ in range(12):
        if c.table_view(bo, "B")["fair"]["label"] != "B.shoe1":
            break
        blackjack_rounds(world, "B", 1)
    shoe = [r for r in world.store.rounds("B") if r.state.fair and r.state.fair["label"] == "B.shoe1"]
    dealt = [card for r in shoe for card in r.state.cards]
    assert dealt == order[: len(dealt)] and len(dealt) >= 22  # every card, burns included, in the committed order
    last = shoe[-1]
    record = c.fair_record(bo, "B", last.round_id)
    assert record["seed"] == shoe_seed and record["cards"] == dealt and fair.verify(record).ok
    view = c.table_view(bo, "B")["fair"]
    assert view["label"] != "B.shoe1" and view["commitment"] == fair.commitment(world.issued[-1])
    scenario = c.export_scenario(world.admin, "B", last.round_id)
    assert scenario["fair"] == record
    cards = [card for r in scenario["rounds"] for card in r["cards"]]
    assert fair.verify(record, recorded=cards).ok
    replay(scenario)


def test_a_continuous_shuffler_commits_a_shoe_every_round(world: FairWorld) -> None:
    c = world.casino
    c.open_table(world.admin, table_id="B", game="blackjack", rules={"decks": 2, "dealing_device": "shuffler"})
    blackjack_rounds(world, "B", 2)
    labels = [r.state.fair["label"] for r in world.store.rounds("B") if r.state.fair]
    assert labels == ["B.shoe1", "B.shoe2", "B.shoe3"]
    for r in world.store.rounds("B")[:2]:
        record = c.fair_record(world.users["ana"], "B", r.round_id)
        assert record["revealed"] and fair.verify(record).ok and record["cards"] == list(r.state.cards)


def test_tables_with_a_given_source_or_a_dealer_are_not_provably_fair() -> None:
    w = World(MemoryLedgerStore(), MemoryCasinoStore())
    w.fund("ana")
    w.casino.open_table(w.admin, table_id="R", game="roulette")
    w.casino.open_table(w.admin, table_id="L", game="sicbo", live=True, dealers=["dee"])
    f = FairWorld(MemoryLedgerStore(), MemoryCasinoStore())
    f.casino.open_table(f.admin, table_id="L", game="roulette", live=True, dealers=["dee"])
    for casino, admin in ((w.casino, w.admin), (f.casino, f.admin)):
        for table in [t["table"] for t in casino.tables(admin)]:
            assert "fair" not in casino.table_view(admin, table)
            round_id = casino.table_view(admin, table)["round"]
            with pytest.raises(InvalidInput, match="not provably fair"):
                casino.fair_record(admin, table, round_id)
    assert f.issued == []
    w.casino.place_bet(w.users["ana"], "R", {"type": "red", "amount": 10}, "k")
    assert "fair" not in w.store.get_round("R.1").data  # type: ignore[union-attr]
