"""The casino table service on the memory stores: full rounds of each game, live rounds, refusals that change
nothing, recall and export, streaks, and recovery after a crash at every persistence boundary of a round.
:class:`CasinoContract` runs again on SQLite and PostgreSQL in ``tests/storage/test_casino_sql.py``."""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from croupier.errors import BetRejected, IllegalAction, InvalidInput, InvalidRules, OutOfTurn
from croupier.replay.blackjack import round_output
from croupier.replay.core import replay
from croupier.service.accounts import Forbidden
from croupier.service.casino import UnknownTable
from croupier.service.casino_memory import MemoryCasinoStore
from croupier.service.ledger import IdempotencyConflict, InsufficientFunds
from croupier.service.memory import MemoryLedgerStore
from service.support import snapshot
from service.test_casino_support import Crash, World, play_until_settled

FACTORY = Callable[[], World]


def state(world: World) -> Any:
    """Everything a refused call must leave as it was: the ledger and every stored round."""
    rounds = {t.table_id: world.store.rounds(t.table_id) for t in world.store.tables()}
    return snapshot(world.ledger), copy.deepcopy(rounds)


def refused(world: World, call: Callable[[], object], error: type[Exception]) -> None:
    before = state(world)
    with pytest.raises(error):
        call()
    assert state(world) == before
    world.check()


class CasinoContract:
    """The casino's contract on one kind of store (``world`` is a fixture of the subclass's module)."""

    # -- full rounds ---------------------------------------------------------------------------------------------

    def test_roulette_round_settles_in_one_entry(self, world: World) -> None:
        c, ana, bo = world.casino, world.users["ana"], world.users["bo"]
        world.fund("ana", "bo")
        c.open_table(world.admin, table_id="R1", game="roulette")
        c.place_bet(ana, "R1", {"type": "red", "amount": 100}, "k1")
        c.place_bet(ana, "R1", {"type": "straight", "numbers": [17], "amount": 10}, "k2")
        c.place_bet(bo, "R1", {"type": "dozen", "index": 2, "amount": 50}, "k1")
        assert world.ledger.held("ana") == 110
        events = world.wait(16)
        assert [e["type"] for e in events] == ["betting_closed", "result", "settled", "betting_open"]
        record = world.store.get_round("R1.1")
        assert record is not None and record.status == "settled"
        entries = world.ledger.entries("R1.1")
        assert [e.kind for e in entries].count("settle") == 1
        nets = record.data["nets"]
        assert world.ledger.wallet("ana") == 10_000 + nets["b1"] + nets["b2"]
        world.check()

    def test_due_lists_the_tables_whose_timer_ran_out_and_tick_moves_only_those_named(self, world: World) -> None:
        c, ana = world.casino, world.users["ana"]
        world.fund("ana")
        c.open_table(world.admin, table_id="Q1", game="roulette", betting_seconds=5)
        c.open_table(world.admin, table_id="Q2", game="roulette", betting_seconds=30)
        c.place_bet(ana, "Q1", {"type": "red", "amount": 100}, "q1")
        c.place_bet(ana, "Q2", {"type": "black", "amount": 100}, "q2")
        assert c.due() == []
        world.clock.advance(seconds=6)
        assert c.due() == ["Q1"]  # Q2's window is still open
        events = c.tick(tables=["Q2", "nowhere"])  # a table not due, and one not open: nothing moves
        assert events == [] and world.ledger.held("ana") == 200
        events = c.tick(tables=["Q1"])
        assert [e["type"] for e in events] == ["betting_closed", "result", "settled", "betting_open"]
        assert {e["table"] for e in events} == {"Q1"} and world.ledger.held("ana") == 100
        assert c.due() == []
        world.clock.advance(seconds=25)
        assert c.due() == ["Q1", "Q2"]  # Q1's next window (no bet: it would start again) and Q2's bell
        world.check()

    def test_sicbo_round(self, world: World) -> None:
        c, ana = world.casino, world.users["ana"]
        world.fund("ana")
        c.open_table(world.admin, table_id="S1", game="sicbo", betting_seconds=5)
        c.place_bet(ana, "S1", {"type": "big", "amount": 100}, "k1")
        c.place_bet(ana, "S1", {"type": "total", "total": 11, "amount": 20}, "k2")
        world.wait(6)
        record = world.store.get_round("S1.1")
        assert record is not None and record.status == "settled" and len(record.data["outcome"]["dice"]) == 3
        assert world.ledger.wallet("ana") == 10_000 + sum(record.data["nets"].values())
        world.check()

    def test_blackjack_round_with_a_back_bettor_and_timers(self, world: World) -> None:
        c, ana, bo = world.casino, world.users["ana"], world.users["bo"]
        world.fund("ana", "bo")
        c.open_table(
            world.admin,
            table_id="B1",
            game="blackjack",
            rules={"preset": "macau", "side_bets_offered": ["perfect_pairs"]},
        )
        c.place_bet(ana, "B1", {"box": 1, "main": 100}, "k1")
        c.place_bet(bo, "B1", {"box": 1, "main": 50}, "k1")  # BJ 20: behind ana
        c.place_bet(bo, "B1", {"box": 3, "main": 20, "side": {"perfect_pairs": 10}}, "k2")
        world.wait(16)
        view = c.table_view(ana, "B1")["view"]
        turn = view["turn"]
        if turn is not None and turn["player"] == "bo":
            refused(world, lambda: c.act(ana, "B1", "stand", "a1"), OutOfTurn)
        elif turn is not None:
            refused(world, lambda: c.act(bo, "B1", "stand", "a1", box=turn["box"]), OutOfTurn)
            actions = turn["actions"]
            answer = "double" if "double" in actions else ("stand" if "stand" in actions else "decline")
            reply = c.act(ana, "B1", answer, "a1")
            assert c.act(ana, "B1", answer, "a1") == reply  # the same key answers the same
            if answer == "double":
                assert reply["extra_stake"] == 100
        play_until_settled(world, "B1")
        record = world.store.get_round("B1.1")
        assert record is not None and record.status == "settled"
        assert world.ledger.wallet("ana") + world.ledger.wallet("bo") == 20_000 + sum(record.data["nets"].values())
        assert record.data["outcome"]["players"] == {p: world.ledger.wallet(p) - 10_000 for p in ("ana", "bo")}
        world.check()

    # -- live tables ------------------------------------------------------------------------------------------

    def test_live_roulette_void_spin_then_a_result(self, world: World) -> None:
        c, ana, dee = world.casino, world.users["ana"], world.users["dee"]
        world.fund("ana")
        c.open_table(world.admin, table_id="L1", game="roulette", live=True, dealers=["dee"])
        c.place_bet(ana, "L1", {"type": "straight", "numbers": [17], "amount": 10}, "k1")
        refused(world, lambda: c.report(dee, "L1", 17), IllegalAction)  # RO 3: no result before the bell
        world.wait(16)
        refused(world, lambda: c.place_bet(ana, "L1", {"type": "red", "amount": 10}, "k2"), IllegalAction)
        refused(world, lambda: c.report(dee, "L1", 37), ValueError)
        refused(world, lambda: c.report(ana, "L1", 17), Forbidden)
        c.report(dee, "L1", "void")  # RO 2.2: the bets stand, the ball is spun again
        c.report(dee, "L1", 17)
        assert world.ledger.wallet("ana") == 10_000 + 350
        record = world.store.get_round("L1.1")
        assert record is not None and record.data["outcome"]["void_spins"] == 1
        world.check()

    def test_live_round_voided_returns_every_bet(self, world: World) -> None:
        c, ana, bo, dee = world.casino, world.users["ana"], world.users["bo"], world.users["dee"]
        world.fund("ana", "bo")
        c.open_table(world.admin, table_id="L2", game="sicbo", live=True, dealers=["dee"])
        c.place_bet(ana, "L2", {"type": "small", "amount": 100}, "k1")
        c.place_bet(bo, "L2", {"type": "triple", "face": 6, "amount": 10}, "k1")
        world.wait(16)
        c.report(dee, "L2", "void")  # SB 3.3: a new betting window, the bets stand
        c.place_bet(bo, "L2", {"type": "big", "amount": 30}, "k2")
        world.wait(16)
        refused(world, lambda: c.void(ana, "L2", "shaker jammed"), Forbidden)
        c.void(dee, "L2", "shaker jammed")
        assert world.ledger.wallet("ana") == world.ledger.wallet("bo") == 10_000
        record = world.store.get_round("L2.1")
        assert record is not None and record.status == "voided"
        assert any(a.action == "void" for a in world.store.audit())
        world.check()

    def test_live_blackjack_cards_from_the_reader(self, world: World) -> None:
        c, ana, dee = world.casino, world.users["ana"], world.users["dee"]
        world.fund("ana")
        c.open_table(world.admin, table_id="LB", game="blackjack", live=True, dealers=["dee"])
        c.place_bet(ana, "LB", {"box": 2, "main": 100}, "k1")
        world.wait(16)
        for card in ("KD", "TS", "7C", "9H"):  # burn, ana, dealer up, ana
            c.report(dee, "LB", card)
        assert c.table_view(ana, "LB")["view"]["turn"]["player"] == "ana"
        c.act(ana, "LB", "stand", "a1")
        for card in ("8D",):  # the dealer's second card: 15, then draws
            c.report(dee, "LB", card)
        c.report(dee, "LB", "5S")
        record = world.store.get_round("LB.1")
        assert record is not None and record.status == "settled", record.data
        assert world.ledger.wallet("ana") == 10_000 + sum(record.data["nets"].values())
        assert record.data["cards"] == ["KD", "TS", "7C", "9H", "8D", "5S"]
        world.check()

    # -- refusals -----------------------------------------------------------------------------------------------

    def test_refusals_change_nothing(self, world: World) -> None:
        c, ana, bo = world.casino, world.users["ana"], world.users["bo"]
        world.fund("ana")
        refused(world, lambda: c.open_table(ana, table_id="X", game="roulette"), Forbidden)
        refused(
            world, lambda: c.open_table(world.admin, table_id="X", game="roulette", rules={"bogus": 1}), InvalidRules
        )
        c.open_table(world.admin, table_id="R1", game="roulette")
        refused(world, lambda: c.place_bet(ana, "nope", {"type": "red", "amount": 1}, "k"), UnknownTable)
        refused(world, lambda: c.place_bet(bo, "R1", {"type": "red", "amount": 100}, "k1"), InsufficientFunds)
        refused(world, lambda: c.place_bet(ana, "R1", {"type": "red", "amount": 20_000}, "k1"), BetRejected)
        refused(world, lambda: c.place_bet(ana, "R1", {"type": "split", "numbers": [1, 9], "amount": 10}, "k1"),
                BetRejected)  # fmt: skip
        first = c.place_bet(ana, "R1", {"type": "red", "amount": 100}, "k1")
        assert c.place_bet(ana, "R1", {"type": "red", "amount": 100}, "k1") == first
        refused(world, lambda: c.place_bet(ana, "R1", {"type": "black", "amount": 100}, "k1"), IdempotencyConflict)
        refused(world, lambda: c.credit(ana, "ana", 5, "c"), Forbidden)
        refused(world, lambda: c.close_table(world.admin, "R1"), IllegalAction)
        world.wait(16)
        assert c.place_bet(ana, "R1", {"type": "red", "amount": 100}, "k1") == first  # still the same answer

    # -- recall, export, meters ---------------------------------------------------------------------------------

    def test_recall_and_export_replay_exactly(self, world: World) -> None:
        c, ana = world.casino, world.users["ana"]
        world.fund("ana")
        c.open_table(world.admin, table_id="R1", game="roulette", betting_seconds=1)
        for i in range(11):
            c.place_bet(ana, "R1", {"type": "corner", "numbers": [1, 2, 4, 5], "amount": 10}, f"r{i}")
            world.wait(2)
        rounds = [r for r in c.recall(world.admin, "R1", last=11) if r["status"] == "settled"]
        assert [r["seq"] for r in rounds] == list(range(2, 12))
        assert all(r["steps"] and r["operations"] for r in rounds)
        for r in rounds:
            scenario = c.export_scenario(world.admin, "R1", r["round"])
            out = replay(scenario)
            assert out["rounds"][0]["pocket"] == r["outcome"]["pocket"]
            assert out["totals"] == r["outcome"]["players"]
        meters = c.meters(world.admin, "R1")
        assert meters["wagered"] == 110 and meters["rounds"]["settled"] == 11
        world.check()

    def test_blackjack_export_replays_exactly(self, world: World) -> None:
        c, ana = world.casino, world.users["ana"]
        world.fund("ana")
        c.open_table(world.admin, table_id="B1", game="blackjack")
        for i in range(3):
            c.place_bet(ana, "B1", {"box": 1 + i, "main": 10}, f"b{i}")
            world.wait(16)
            play_until_settled(world, "B1")
        last = c.recall(world.admin, "B1", last=2)[0]
        scenario = c.export_scenario(world.admin, "B1", last["round"])
        out = replay(scenario)
        engine_round = world.casino._tables["B1"].history[last["round"]]
        assert out["rounds"][-1] == round_output(engine_round.settlement)
        world.check()

    def test_streak_bets_carry_across_rounds(self, world: World) -> None:
        c, ana, bo = world.casino, world.users["ana"], world.users["bo"]
        world.fund("ana", "bo")
        rules = {"side_bets_offered": ["streak"]}
        c.open_table(world.admin, table_id="B1", game="blackjack", rules=rules)
        c.place_bet(ana, "B1", {"box": 1, "main": 10, "streak": {"3": 10}, "side": {}}, "s0")
        for i in range(3):
            world.wait(16)
            play_until_settled(world, "B1")
            world.check()
            c.place_bet(bo, "B1", {"box": 2, "main": 10}, f"m{i}")
            if i < 1:
                c.place_bet(ana, "B1", {"box": 1, "main": 10}, f"m{i}")  # BJ 13.5.4: a main bet every round
        # ana did not bet in the last round: a streak still open was forfeited (BJ 13.5.4)
        steps = [s for r in world.store.rounds("B1") for s in r.data["steps"]]
        streak_open = world.casino._tables["B1"].game.engine.open_streaks  # type: ignore[attr-defined]
        assert not streak_open
        assert {"t": "bet", "ref": "b1", "player": "ana"}.items() <= steps[0].items()
        world.check()

    # -- recovery -----------------------------------------------------------------------------------------------

    @pytest.mark.parametrize("game", ["roulette", "blackjack"])
    def test_a_crash_at_every_boundary_loses_no_money(self, factory: FACTORY, game: str) -> None:
        def script(world: World) -> None:
            c = world.casino
            c.place_bet(world.users["ana"], "T", bet(game, 100), "k1")
            c.place_bet(world.users["bo"], "T", bet(game, 40), "k1")
            world.wait(16)
            if game == "blackjack":
                play_until_settled(world, "T")

        def fresh() -> World:
            world = factory()
            world.fund("ana", "bo")
            world.casino.open_table(world.admin, table_id="T", game=game)
            world.labels.clear()
            return world

        clean = fresh()
        script(clean)
        boundaries = len(clean.labels)
        assert boundaries > 8
        for n in range(1, boundaries + 1, self.crash_stride):
            world = fresh()
            world.crash_at = n
            with pytest.raises(Crash):
                script(world)
            stored = {r.round_id: r.data["steps"] for r in world.store.rounds("T")}
            world.restart()
            for r in world.store.rounds("T"):  # a stored step (a bet, a result, an answer) is never redrawn
                assert r.data["steps"][: len(stored.get(r.round_id, []))] == stored.get(r.round_id, [])
            for i in range(2):
                with contextlib.suppress(IllegalAction, BetRejected):  # the recovered round may be in play
                    world.casino.place_bet(world.users["ana"], "T", bet(game, 10), f"again{i}")
                play_until_settled(world, "T")
            for record in world.store.rounds("T")[:-1]:
                assert record.status in ("settled", "voided"), (n, record.status)
                holds = world.ledger.holds(record.round_id)
                assert len(holds) == len([h for h in record.data["holds"] if h["status"] == "held"])
            world.check()

    crash_stride = 1

    def test_recovery_can_void_every_unfinished_round(self, world: World) -> None:
        c, ana = world.casino, world.users["ana"]
        world.fund("ana")
        c.open_table(world.admin, table_id="B1", game="blackjack")
        c.place_bet(ana, "B1", {"box": 1, "main": 100}, "k1")
        world.clock.advance(seconds=16)
        world.crash_at = len(world.labels) + 1  # the bell's save
        with pytest.raises(Crash):
            world.casino.tick()
        world.crash_at = None
        world.casino = world.new_casino()
        report = world.casino.recover(void_unfinished=True)
        assert report == [{"table": "B1", "round": "B1.1", "status": "voided"}]
        assert world.ledger.wallet("ana") == 10_000
        assert [a.detail["status"] for a in world.store.audit() if a.action == "recovery"] == ["voided"]
        world.check()

    # -- the result moment (issue 14) ------------------------------------------------------------------------------

    def test_a_settled_result_stays_on_the_table_for_its_pause_then_the_next_window_opens(self, world: World) -> None:
        c, ana = world.casino, world.users["ana"]
        world.fund("ana")
        c.open_table(world.admin, table_id="P1", game="roulette", betting_seconds=10, result_display_seconds=6)
        c.place_bet(ana, "P1", {"type": "red", "amount": 100}, "p1")
        world.clock.advance(seconds=10)
        events = world.casino.tick()
        assert [e["type"] for e in events] == ["betting_closed", "result", "settled"]
        view = c.table_view(ana, "P1")
        assert (view["round"], view["status"], view["result_display_seconds"]) == ("P1.1", "settled", 6.0)
        assert view["deadline"] == (world.clock.now + timedelta(seconds=6)).isoformat()
        assert [r["round"] for r in view["recent"]] == ["P1.1"]
        # No bet in the pause (RO 3): refused, nothing held.
        refused(world, lambda: c.place_bet(ana, "P1", {"type": "red", "amount": 10}, "p2"), IllegalAction)
        refused(world, lambda: c.void(world.admin, "P1", "too late"), IllegalAction)
        assert c.due(world.clock.now + timedelta(seconds=5.9)) == []
        world.clock.advance(seconds=6)
        assert c.due() == ["P1"]
        events = world.casino.tick()
        assert [e["type"] for e in events] == ["betting_open"]
        view = c.table_view(ana, "P1")
        assert (view["round"], view["status"]) == ("P1.2", "betting")
        assert view["deadline"] == (world.clock.now + timedelta(seconds=10)).isoformat()
        c.place_bet(ana, "P1", {"type": "red", "amount": 10}, "p3")
        world.check()

    def test_a_void_pauses_too_and_a_table_without_a_pause_opens_at_once(self, world: World) -> None:
        c, ana = world.casino, world.users["ana"]
        world.fund("ana")
        c.open_table(world.admin, table_id="P2", game="sicbo", result_display_seconds=3)
        c.place_bet(ana, "P2", {"type": "big", "amount": 100}, "v1")
        c.void(world.admin, "P2", "a test")
        view = c.table_view(ana, "P2")
        assert (view["round"], view["status"]) == ("P2.1", "voided")
        assert world.ledger.wallet("ana") == 10_000
        assert [e["type"] for e in world.wait(3)] == ["betting_open"]
        c.open_table(world.admin, table_id="P3", game="sicbo")  # the service's default: no pause
        c.place_bet(ana, "P3", {"type": "big", "amount": 100}, "v2")
        assert [e["type"] for e in world.wait(16)] == ["betting_closed", "result", "settled", "betting_open"]
        world.check()

    def test_the_pause_survives_a_restart_and_bad_pauses_are_refused(self, world: World) -> None:
        c = world.casino
        for bad in (-1, 61, True, "5", float("nan")):
            refused(
                world,
                lambda bad=bad: c.open_table(world.admin, table_id="P4", game="roulette", result_display_seconds=bad),
                InvalidInput,
            )
        c.open_table(world.admin, table_id="P4", game="blackjack", result_display_seconds=4.5)
        world.restart()
        assert world.casino.table_view(world.admin, "P4")["result_display_seconds"] == 4.5


def bet(game: str, amount: int) -> dict[str, Any]:
    return {"box": 1, "main": amount} if game == "blackjack" else {"type": "red", "amount": amount}


class TestCasinoInMemory(CasinoContract):
    """The contract on the memory stores."""


@pytest.fixture
def factory() -> FACTORY:
    return lambda: World(MemoryLedgerStore(), MemoryCasinoStore())


@pytest.fixture
def world(factory: FACTORY) -> World:
    return factory()
