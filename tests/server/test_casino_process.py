"""The casino in a process of its own (:mod:`croupier.server.casino_process`): calls and their answers cross the pipe,
refusals arrive as the same errors (``_portable`` turns an unpicklable one into a ``RuntimeError``), bets submitted
from an event loop are answered on it (idempotently), a table's events reach its subscriptions in order, the
child's clock moves the tables on by itself, and each process dies with the other.

The users are created on the SQLite file before the casino's process opens it (with a cheap Argon2 hasher: the
casino only needs the ``User`` objects, nobody logs in). Every wait has a deadline, so a hang fails."""

from __future__ import annotations

import asyncio
import os
import pickle
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from croupier.errors import CroupierError
from croupier.server.casino_process import CasinoProcess, _portable
from croupier.service.accounts import AccountService, Forbidden, Role, User
from croupier.service.casino import Casino, UnknownTable
from croupier.service.casino_memory import MemoryCasinoStore
from croupier.service.casino_records import Subscription
from croupier.service.ledger import IdempotencyConflict, InsufficientFunds, Ledger
from croupier.service.memory import MemoryLedgerStore
from croupier.storage import SqlAccountStore, SqlLedgerStore, create_engine, upgrade
from service.support import CHEAP_HASHER, TEST_POLICY
from service.test_casino_support import World

TIMEOUT = 10.0
LINUX = sys.platform.startswith("linux")
PLAYERS = ("ana", "bo", "cy", "poor", "dan", "eve")
FUNDS = {"ana": 1000, "bo": 1000, "cy": 1000, "poor": 50, "dan": 1000, "eve": 1000}


# -- helpers -------------------------------------------------------------------------------------------------------


def make_database(folder: Path, players: tuple[str, ...] = PLAYERS) -> tuple[str, dict[str, User]]:
    """A migrated SQLite file with the admin ``root``, the dealer ``dee`` and ``players`` (no money yet)."""
    url = f"sqlite:///{folder / 'croupier.sqlite3'}"
    upgrade(url)
    engine = create_engine(url)
    try:
        accounts = AccountService(SqlAccountStore(engine), hasher=CHEAP_HASHER, policy=TEST_POLICY)
        users = {"root": accounts.create("root", "password1", Role.ADMIN)}
        users["dee"] = accounts.create("dee", "password1", Role.DEALER)
        for name in players:
            users[name] = accounts.create(name, "password1", Role.PLAYER)
    finally:
        engine.dispose()
    return url, users


def stored_wallet(url: str, player: str) -> int:
    """``player``'s wallet as the database holds it, read on a connection of this process."""
    engine = create_engine(url)
    try:
        return Ledger(SqlLedgerStore(engine)).wallet(player)
    finally:
        engine.dispose()


def process_state(pid: int) -> str | None:
    """The state letter of ``pid`` (``R``, ``S``, ``Z``...), None when there is no such process."""
    if not LINUX:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        return "?"
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return stat.rpartition(")")[2].split()[0]


def alive(pid: int) -> bool:
    """``pid`` runs (a zombie, dead but not yet reaped, does not count)."""
    return process_state(pid) not in (None, "Z", "X")


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])


def wait_until(check: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.005)


def events_of(sub: Subscription, kind: str | None = None) -> list[dict[str, Any]]:
    events = list(sub.events)
    return events if kind is None else [e for e in events if e["type"] == kind]


def wait_events(sub: Subscription, kind: str, n: int = 1, timeout: float = TIMEOUT) -> list[dict[str, Any]]:
    """The subscription's events once it holds ``n`` of type ``kind``."""
    wait_until(lambda: len(events_of(sub, kind)) >= n, f"{n} {kind!r} event(s) on {sub.table_id}", timeout)
    return events_of(sub)


def red(amount: int) -> dict[str, Any]:
    return {"type": "red", "amount": amount}


@dataclass
class Casinoland:
    """A started casino process on its own database, with its users funded (``FUNDS``)."""

    process: CasinoProcess
    url: str
    users: dict[str, User]

    @property
    def admin(self) -> User:
        return self.users["root"]

    def call(self, method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return self.process.call(method, *args, **kwargs)

    def open_table(self, table_id: str, betting_seconds: float = 3600) -> dict[str, Any]:
        answer: dict[str, Any] = self.call(
            Casino.open_table, self.admin, table_id=table_id, game="roulette", betting_seconds=betting_seconds
        )
        return answer


def funded(process: CasinoProcess, admin: User, players: dict[str, int]) -> None:
    for name, amount in players.items():
        answer = process.call(Casino.credit, admin, name, amount, f"fund-{name}")
        assert answer["wallet"] == amount


@pytest.fixture(scope="module")
def land(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Casinoland]:
    """One casino process (no clock: the tables wait for calls) shared by the module's tests, each on its own
    tables."""
    url, users = make_database(tmp_path_factory.mktemp("casino-process"))
    process = CasinoProcess(url, tick_seconds=None).start()
    try:
        funded(process, users["root"], FUNDS)
        yield Casinoland(process, url, users)
    finally:
        process.stop(TIMEOUT)


# -- calls, life and death of the process ----------------------------------------------------------------------------


def test_calls_run_in_a_child_process_that_stop_ends(tmp_path: Path) -> None:
    url, users = make_database(tmp_path, ("ana",))
    admin, ana = users["root"], users["ana"]
    cp = CasinoProcess(url, tick_seconds=None)
    assert cp.pid is None
    assert cp.start() is cp
    try:
        assert cp.pid is not None and cp.pid != os.getpid()
        assert alive(cp.pid)
        if LINUX:
            assert parent_of(cp.pid) == os.getpid()

        described = cp.call(Casino.open_table, admin, table_id="L1", game="roulette", betting_seconds=600)
        assert described["table"] == "L1" and described["game"] == "roulette"
        assert (described["round"], described["status"], described["betting_seconds"]) == ("L1.1", "betting", 600.0)
        assert cp.call(Casino.tables, admin) == [described]
        funded(cp, admin, {"ana": 100})

        # A callable that is not a Casino method is refused here, before anything is sent.
        with pytest.raises(TypeError, match="not a method of Casino"):
            cp.call(len, "abc")
        assert cp._pending == {}

        # Bets sent just before stop() are still run, answered and committed.
        async def bets_then_stop() -> list[tuple[bool, Any]]:
            loop = asyncio.get_running_loop()
            futures = [loop.create_future() for _ in range(5)]
            for i, future in enumerate(futures):

                def done(ok: bool, value: Any, future: asyncio.Future[Any] = future) -> None:
                    future.set_result((ok, value))

                cp.submit(Casino.place_bet, (ana, "L1", red(10), f"late-{i}"), {}, done, bet=True)
            cp.stop(TIMEOUT)  # blocks the loop: the answers are delivered once it runs again
            return await asyncio.wait_for(asyncio.gather(*futures), TIMEOUT)

        answers = asyncio.run(bets_then_stop())
    finally:
        cp.stop(TIMEOUT)
    assert [ok for ok, _ in answers] == [True] * 5, answers
    assert sorted(value["ref"] for _, value in answers) == [f"b{i}" for i in range(1, 6)]
    assert stored_wallet(url, "ana") == 50

    pid = cp.pid
    assert not alive(pid)
    assert cp._process is not None and cp._process.exitcode == 0  # it returned, not killed
    assert cp._reader is not None and not cp._reader.is_alive()

    with pytest.raises(RuntimeError, match="stopped"):
        cp.call(Casino.tables, admin)
    with pytest.raises(RuntimeError, match="stopped"):
        cp.open_stream(admin, "L1")

    async def submit_after_stop() -> None:
        cp.submit(Casino.tables, (admin,), {}, lambda ok, value: None)

    with pytest.raises(RuntimeError, match="stopped"):
        asyncio.run(submit_after_stop())
    started = time.monotonic()
    cp.stop(TIMEOUT)  # a second stop does nothing
    assert time.monotonic() - started < 1.0


def test_a_database_the_child_cannot_open_fails_the_start(tmp_path: Path) -> None:
    cp = CasinoProcess(f"sqlite:///{tmp_path / 'missing' / 'folder' / 'croupier.sqlite3'}", tick_seconds=None)
    with pytest.raises(RuntimeError, match="could not open the database"):
        cp.start()
    assert cp._process is not None
    cp._process.join(TIMEOUT)
    assert not cp._process.is_alive()


def test_open_table_and_tables_through_the_shared_process(land: Casinoland) -> None:
    described = land.open_table("T1", betting_seconds=5)
    assert (described["table"], described["round"], described["betting_seconds"]) == ("T1", "T1.1", 5.0)
    listed = {t["table"]: t for t in land.call(Casino.tables, land.admin)}
    assert listed["T1"] == described
    assert land.process.pid != os.getpid() and land.process.pid is not None and alive(land.process.pid)


def test_an_answer_that_cannot_be_pickled_fails_alone(land: Casinoland) -> None:
    """The child replaces an answer it cannot send with a RuntimeError; the processes carry on."""
    with pytest.raises(RuntimeError, match="cannot be sent"):
        land.call(Casino.batch)  # a context manager (a generator): not picklable
    assert land.process.pid is not None and alive(land.process.pid)
    assert isinstance(land.call(Casino.tables, land.admin), list)


def test_start_is_refused_off_the_main_thread(tmp_path: Path) -> None:
    """The child dies with the thread that forked it (PR_SET_PDEATHSIG), so only the main thread may start it."""
    url, _ = make_database(tmp_path)
    errors: list[BaseException] = []

    def start() -> None:
        try:
            CasinoProcess(url, tick_seconds=None).start()
        except RuntimeError as error:
            errors.append(error)

    thread = threading.Thread(target=start)
    thread.start()
    thread.join(TIMEOUT)
    assert len(errors) == 1 and "main thread" in str(errors[0])


# -- refusals --------------------------------------------------------------------------------------------------------


def direct_refusal(call: Callable[[World], Any]) -> CroupierError:
    """What the same refusal raises when the casino is called directly (in this process, on memory stores)."""
    world = World(MemoryLedgerStore(), MemoryCasinoStore())
    world.casino.open_table(world.admin, table_id="R1", game="roulette", betting_seconds=3600)
    world.casino.credit(world.admin, "ana", 50, key="fund-ana")
    with pytest.raises(CroupierError) as raised:
        call(world)
    return raised.value


def assert_same_refusal(got: BaseException, expected: CroupierError, message: str | None = None) -> None:
    assert type(got) is type(expected)
    assert isinstance(got, CroupierError)
    assert (got.kind, got.rule) == (expected.kind, expected.rule)
    assert got.message == (message if message is not None else expected.message)
    assert str(got) == got.message
    assert got.as_dict() == {"error": expected.kind, "detail": got.message, "rule": expected.rule}


def test_refusals_cross_the_process_intact_and_change_nothing(land: Casinoland) -> None:
    land.open_table("R1")
    poor, ana = land.users["poor"], land.users["ana"]

    # Over the wallet: InsufficientFunds (LEDGER 2), as a direct call raises it.
    with pytest.raises(InsufficientFunds) as raised:
        land.call(Casino.place_bet, poor, "R1", red(100), "too-much")
    expected = direct_refusal(lambda w: w.casino.place_bet(w.users["ana"], "R1", red(100), "too-much"))
    assert (expected.kind, expected.rule) == ("insufficient_funds", "LEDGER 2")
    assert_same_refusal(raised.value, expected, expected.message.replace("ana", "poor"))

    # An unknown table.
    with pytest.raises(UnknownTable) as unknown:
        land.call(Casino.place_bet, ana, "nowhere", red(10), "k-unknown")
    expected = direct_refusal(lambda w: w.casino.place_bet(w.users["ana"], "nowhere", red(10), "k-unknown"))
    assert_same_refusal(unknown.value, expected)
    assert unknown.value.message == "There is no open table 'nowhere'."

    # The wrong role: a player opening a table, a dealer placing a bet.
    with pytest.raises(Forbidden) as forbidden:
        land.call(Casino.open_table, ana, table_id="R2", game="roulette")
    expected = direct_refusal(lambda w: w.casino.open_table(w.users["ana"], table_id="R2", game="roulette"))
    assert_same_refusal(forbidden.value, expected)
    with pytest.raises(Forbidden, match="needs the role player; the caller is a dealer"):
        land.call(Casino.place_bet, land.users["dee"], "R1", red(10), "k-dealer")

    # Nothing changed: no bet on the table, no table R2, the wallet untouched (here and in the database).
    view = land.call(Casino.table_view, poor, "R1")
    assert view["view"]["bets"] == []
    assert view["wallet"] == 50
    assert stored_wallet(land.url, "poor") == 50
    assert "R2" not in {t["table"] for t in land.call(Casino.tables, land.admin)}

    # The process carries on: a bet the wallet covers is placed.
    placed = land.call(Casino.place_bet, poor, "R1", red(50), "all-in")
    assert (placed["round"], placed["ref"], placed["amount"]) == ("R1.1", "b1", 50)
    assert stored_wallet(land.url, "poor") == 0


# -- _portable --------------------------------------------------------------------------------------------------------


class HoldsALock(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.lock = threading.Lock()


class NeedsAKeyword(Exception):
    """Pickles, but cannot be unpickled (its ``__init__`` needs an argument the pickle does not give)."""

    def __init__(self, message: str, *, code: int) -> None:
        super().__init__(message)
        self.code = code


class TableOnFire(CroupierError):
    kind = "table_on_fire"


def test_portable_turns_an_unpicklable_error_into_a_runtime_error_naming_it() -> None:
    for error, name, text in (
        (HoldsALock("locked in"), "HoldsALock", "locked in"),
        (ValueError("with a lambda", lambda: 1), "ValueError", "with a lambda"),
        (NeedsAKeyword("no code", code=3), "NeedsAKeyword", "no code"),
    ):
        portable = _portable(error)
        assert type(portable) is RuntimeError
        assert str(portable).startswith(f"{name}: ") and text in str(portable)
        restored = pickle.loads(pickle.dumps(portable))
        assert type(restored) is RuntimeError and str(restored) == str(portable)


def test_portable_keeps_a_croupier_error_with_its_rule() -> None:
    error = TableOnFire("The wheel is on fire.", rule="RO 99")
    assert _portable(error) is error
    plain = ValueError("plain")
    assert _portable(plain) is plain
    restored = pickle.loads(pickle.dumps(_portable(error), protocol=pickle.HIGHEST_PROTOCOL))
    assert type(restored) is TableOnFire
    assert (restored.message, restored.rule, restored.kind, str(restored)) == (
        "The wheel is on fire.",
        "RO 99",
        "table_on_fire",
        "The wheel is on fire.",
    )
    assert restored.as_dict() == error.as_dict()


# -- bets from an event loop --------------------------------------------------------------------------------------


def test_bets_submitted_from_an_event_loop_are_answered_on_it_and_idempotent(land: Casinoland) -> None:
    land.open_table("B1")
    users = land.users
    bets = [(users[p], "B1", red(amount), f"{p}-{i}") for i, (p, amount) in enumerate(
        [("ana", 10), ("bo", 20), ("cy", 30), ("ana", 40), ("bo", 50), ("cy", 60), ("poor", 100), ("ana", 70)]
    )]  # fmt: skip

    async def submit_all(calls: list[tuple[Any, ...]]) -> tuple[list[tuple[bool, Any]], set[int]]:
        loop = asyncio.get_running_loop()
        threads: set[int] = set()
        futures = []
        for args in calls:
            future = loop.create_future()

            def done(ok: bool, value: Any, future: asyncio.Future[Any] = future) -> None:
                threads.add(threading.get_ident())
                future.set_result((ok, value))

            land.process.submit(Casino.place_bet, args, {}, done, bet=True)
            futures.append(future)
        return await asyncio.wait_for(asyncio.gather(*futures), TIMEOUT), threads

    first, threads = asyncio.run(submit_all(bets))
    assert threads == {threading.get_ident()}  # delivered on the loop's thread, not the reader's
    oks = [ok for ok, _ in first]
    assert oks == [True] * 6 + [False, True], first
    refused = first[6][1]
    assert isinstance(refused, InsufficientFunds) and refused.rule == "LEDGER 2"
    answers = [value for ok, value in first if ok]
    assert len({a["ref"] for a in answers}) == 7
    assert {a["round"] for a in answers} == {"B1.1"}
    assert [a["amount"] for a in answers] == [10, 20, 30, 40, 50, 60, 70]
    assert [a["bet"] for a in answers] == [red(a["amount"]) for a in answers]

    # The same keys and payloads again: the same answers, nothing placed twice.
    again, _ = asyncio.run(submit_all([bets[0], bets[4], bets[7]]))
    assert again == [(True, answers[0]), (True, answers[4]), (True, answers[6])]
    # The same key with another payload: refused (LEDGER 3).
    conflict, _ = asyncio.run(submit_all([(users["ana"], "B1", red(11), "ana-0")]))
    assert conflict[0][0] is False
    assert isinstance(conflict[0][1], IdempotencyConflict) and conflict[0][1].rule == "LEDGER 3"

    view = land.call(Casino.table_view, land.admin, "B1")
    assert sorted(b["amount"] for b in view["view"]["bets"]) == [10, 20, 30, 40, 50, 60, 70]
    for player, stakes in (("ana", 10 + 40 + 70), ("bo", 20 + 50), ("cy", 30 + 60)):  # each stake held once
        assert stored_wallet(land.url, player) == FUNDS[player] - stakes, player


# -- events ---------------------------------------------------------------------------------------------------------


def test_a_stream_gets_the_tables_events_in_order_until_closed(land: Casinoland) -> None:
    land.open_table("E1")
    dan = land.users["dan"]
    view, sub = land.process.open_stream(dan, "E1")
    assert (view["table"], view["round"], view["status"]) == ("E1", "E1.1", "betting")
    assert view["view"]["bets"] == [] and view["wallet"] == FUNDS["dan"]
    assert isinstance(sub, Subscription) and sub.table_id == "E1"
    assert events_of(sub) == []  # betting_open (seq 1) came before the stream

    refs = [land.call(Casino.place_bet, dan, "E1", red(5 + i), f"e-{i}")["ref"] for i in range(3)]
    events = wait_events(sub, "bet_placed", 3)
    assert [e["seq"] for e in events] == [2, 3, 4]  # none lost, none twice, in order
    assert [(e["type"], e["table"], e["round"], e["player"], e["ref"]) for e in events] == [
        ("bet_placed", "E1", "E1.1", "dan", ref) for ref in refs
    ]
    assert [e["bet"] for e in events] == [red(5), red(6), red(7)]

    # Another table's events do not reach it.
    land.open_table("E2")
    land.call(Casino.place_bet, dan, "E2", red(5), "e2-0")

    land.process.close_stream(sub)
    _, control = land.process.open_stream(land.admin, "E1")
    land.call(Casino.place_bet, dan, "E1", red(9), "e-after")
    after = wait_events(control, "bet_placed")
    assert [(e["seq"], e["ref"]) for e in after] == [(5, "b4")]
    assert events_of(sub) == events  # published to the control, not to the closed stream
    land.process.close_stream(control)

    # A stream on an unknown table is refused and subscribes nothing.
    with pytest.raises(UnknownTable):
        land.process.open_stream(dan, "E9")
    assert land.process._hub.by_table.get("E9", []) == []


# -- the clock --------------------------------------------------------------------------------------------------------


def test_the_childs_clock_settles_a_round_without_any_call(tmp_path: Path) -> None:
    url, users = make_database(tmp_path, ("eve",))
    cp = CasinoProcess(url, tick_seconds=0.05).start()
    try:
        funded(cp, users["root"], {"eve": 1000})
        cp.call(Casino.open_table, users["root"], table_id="C1", game="roulette", betting_seconds=0.5)
        _, sub = cp.open_stream(users["eve"], "C1")
        placed = None
        for attempt in range(5):  # the bet may land in the instant between a window's end and the next tick
            try:
                placed = cp.call(Casino.place_bet, users["eve"], "C1", red(10), f"clock-{attempt}")
                break
            except CroupierError as refused:
                assert refused.kind == "illegal_action", refused
        assert placed is not None
        events = wait_events(sub, "settled", timeout=TIMEOUT)
        settled = next(e for e in events if e["type"] == "settled")
        assert settled["round"] == placed["round"]
        kinds = [e["type"] for e in events if e["round"] == placed["round"]]
        assert kinds[-4:] == ["bet_placed", "betting_closed", "result", "settled"], kinds
        seqs = [e["seq"] for e in events]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
        net = settled["players"]["eve"]
        assert net in (-10, 10)
        assert settled["nets"] == {placed["ref"]: net}
        assert stored_wallet(url, "eve") == 1000 + net
        # The next round opens by itself too.
        wait_until(lambda: events_of(sub)[-1]["type"] == "betting_open", "the next betting window")
        assert cp.call(Casino.table_view, users["eve"], "C1")["wallet"] == 1000 + net
    finally:
        cp.stop(TIMEOUT)


def test_the_wall_clock_cannot_be_moved(land: Casinoland) -> None:
    with pytest.raises(TypeError, match="wall clock"):
        land.call(Casino.advance_clock, 1)


def test_a_manual_clock_moves_only_when_told(tmp_path: Path) -> None:
    """``croupier serve --manual-clock`` (tests only): the child's clock stands still and runs no timer of its own;
    ``Casino.advance_clock`` moves it, and the next tick moves the tables on."""
    url, users = make_database(tmp_path, ("fin",))
    cp = CasinoProcess(url, tick_seconds=0.05, manual_clock=True).start()
    try:
        assert cp.tick_seconds is None  # no clock of its own
        funded(cp, users["root"], {"fin": 1000})
        cp.call(Casino.open_table, users["root"], table_id="M1", game="roulette", betting_seconds=5)
        placed = cp.call(Casino.place_bet, users["fin"], "M1", red(10), "manual-1")
        start = cp.call(Casino.advance_clock, 0)
        assert cp.call(Casino.advance_clock, 0) == start  # it stands still between two calls
        assert cp.call(Casino.advance_clock, 4.5) == start + timedelta(seconds=4.5)
        assert cp.call(Casino.due) == []
        assert cp.call(Casino.advance_clock, 0.5) == start + timedelta(seconds=5)
        assert cp.call(Casino.due) == ["M1"]
        events = cp.call(Casino.tick)
        settled = next(e for e in events if e["type"] == "settled")
        assert settled["round"] == placed["round"]
        assert stored_wallet(url, "fin") == 1000 + settled["players"]["fin"]
    finally:
        cp.stop(TIMEOUT)


# -- each process dies with the other ------------------------------------------------------------------------------

OWNER = """
import sys, time
from croupier.server.casino_process import CasinoProcess
casino = CasinoProcess(sys.argv[1], tick_seconds=None).start()
print(casino.pid, flush=True)
time.sleep(120)
"""


@pytest.fixture
def owner(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """A Python process that started a casino process (on an empty database), and that process's pid."""
    url = f"sqlite:///{tmp_path / 'croupier.sqlite3'}"
    process = subprocess.Popen(
        [sys.executable, "-c", OWNER, url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None and process.stderr is not None
    try:
        ready, _, _ = select.select([process.stdout], [], [], 60)
        assert ready, "the owner did not print its casino's pid"
        line = process.stdout.readline()
        assert line.strip().isdigit(), (line, process.stderr.read() if process.poll() is not None else "")
        child = int(line)
        assert child != process.pid and alive(child)
        if LINUX:
            assert parent_of(child) == process.pid
        yield process, child
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(TIMEOUT)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def test_the_owner_dies_when_its_casino_process_is_killed(owner: tuple[subprocess.Popen[str], int]) -> None:
    process, child = owner
    os.kill(child, signal.SIGKILL)
    assert process.wait(TIMEOUT) == -signal.SIGKILL
    wait_until(lambda: not alive(child), "the killed casino process to go")


@pytest.mark.skipif(not LINUX, reason="PR_SET_PDEATHSIG is Linux's")
def test_the_casino_process_dies_when_its_owner_is_killed(owner: tuple[subprocess.Popen[str], int]) -> None:
    process, child = owner
    process.kill()
    assert process.wait(TIMEOUT) == -signal.SIGKILL
    wait_until(lambda: not alive(child), "the orphaned casino process to die")
