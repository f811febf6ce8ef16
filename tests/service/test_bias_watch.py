"""Issue 18, the bias watch on a live table: a dealer's wheel that favours pocket 17 (1.5/37 instead of 1/37) reports
its spins through a live roulette table, a player betting every round, for as many spins as the watch says its test
needs; the watch then flags the table, pocket 17 furthest from expectation. A fair wheel over as many spins is not
flagged, only admins may ask, and the reader of a table's results (what ``croupier rng test --table`` uses) reads
the same results on SQLite and on PostgreSQL: settled rounds only, a void spin or roll never counted.

Every round runs through the casino's own commands (the player's bet, the dealer's bell and report), each round in a
group commit (``Casino.batch``, as the server's worker commits), on a stored SQLite file; the casino's clock is the
tests' manual one (no window runs out: the dealer rings every bell)."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from croupier.rng.watch import NotWatchable, alternative, detection, table_results
from croupier.service.accounts import Forbidden
from croupier.service.casino import UnknownTable
from croupier.service.casino_watch import bias_watch, watch_store
from croupier.storage import create_engine, upgrade
from croupier.storage.casino_store import SqlCasinoStore
from croupier.storage.ledger_store import SqlLedgerStore
from pgserver import fresh_database
from service.test_casino_support import World

BIAS = 1.5 / 37
ALPHA, POWER = 0.01, 0.9
HOT = 17
SEED = 2026


def biased_wheel(n: int, seed: int = SEED) -> list[int]:
    """``n`` spins of a wheel whose pocket 17 comes up with probability 1.5/37, the others sharing the rest."""
    law = np.roll(alternative("roulette", BIAS), HOT)  # the loaded cell is the first: rolled to pocket 17
    assert law[HOT] == BIAS
    return [int(x) for x in np.random.default_rng(seed).choice(37, size=n, p=law)]


def fair_wheel(n: int, seed: int = SEED) -> list[int]:
    return [int(x) for x in np.random.default_rng(seed).integers(0, 37, size=n)]


def sql_world(url: str) -> World:
    engine = create_engine(url)
    world = World(SqlLedgerStore(engine), SqlCasinoStore(engine))
    world.fund("ana", amount=10**9)
    return world


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'croupier.sqlite3'}"
    upgrade(url)
    return url


@pytest.fixture
def postgres_url() -> Iterator[str]:
    with fresh_database("croupier_watch") as url:
        upgrade(url)
        yield url


def live_table(world: World, table: str, game: str = "roulette") -> None:
    world.casino.open_table(
        world.admin, table_id=table, game=game, live=True, dealers=["dee"], result_display_seconds=0
    )


def play(world: World, table: str, results: Sequence[Any], *, voids: Sequence[int] = ()) -> None:
    """Each result through the live table: ana bets, the dealer rings the bell and reports it (a void spin or roll
    first in the rounds of ``voids``: RO 2.2 the bets stand; SB 3.3 betting opens again and the dealer rings again),
    each round one group commit."""
    c, ana, dee = world.casino, world.users["ana"], world.users["dee"]
    void_rounds = set(voids)
    bet = {"type": "red", "amount": 10} if isinstance(results[0], int) else {"type": "big", "amount": 10}
    for i, result in enumerate(results):
        with c.batch():
            c.place_bet(ana, table, bet, f"{table}-{i}")
            c.close_betting(dee, table)
            if i in void_rounds:
                c.report(dee, table, "void")
                if not isinstance(result, int):
                    c.close_betting(dee, table)  # SB 3.3: a new betting window, the bets standing
            c.report(dee, table, result)


def test_the_watch_flags_a_biased_wheel_within_the_spins_it_says_it_needs(sqlite_url: str) -> None:
    needed, _ = detection("roulette", alpha=ALPHA, power=POWER, bias=BIAS)
    n = needed.rounds  # 6,521 spins: the chi-square's power reaches 0.9 there (tests/rng/test_watch.py)
    world = sql_world(sqlite_url)
    live_table(world, "LW")
    spins = biased_wheel(n)
    started = time.perf_counter()
    play(world, "LW", spins, voids=range(0, n, 997))  # a few void spins: never results
    played = time.perf_counter() - started

    report = bias_watch(world.casino, world.admin, "LW", n, alpha=ALPHA, power=POWER, bias=BIAS)
    assert report["rounds"] == n and report["needed"]["rounds"] == n  # type: ignore[index]
    assert report["voids"] == len(range(0, n, 997))
    assert report["flagged"] is True and report["verdict"] == "fail", report["chi_square"]
    furthest = report["furthest"][0]  # type: ignore[index]
    assert furthest["cell"] == HOT and furthest["z"] > 4, report["furthest"]
    assert report["counts"][HOT] == spins.count(HOT)  # type: ignore[index]
    assert report["first_round"] == "LW.1" and report["last_round"] == f"LW.{n}"
    # the default window is the one the test needs: the same answer
    assert bias_watch(world.casino, world.admin, "LW", bias=BIAS) == report
    # the sequential view ends on the window's statistic
    sequence = report["sequence"]
    assert sequence[-1]["rounds"] == n  # type: ignore[index]
    assert sequence[-1]["statistic"] == pytest.approx(report["chi_square"]["statistic"])  # type: ignore[index]
    # the reader the CLI uses gives the same spins, in order, from the database's URL
    results = table_results(sqlite_url, "LW")
    assert results.outcomes.tolist() == spins and len(results) == n and results.voids == len(range(0, n, 997))
    world.check()
    assert played < 60, f"{n} live rounds took {played:.1f} s"


def test_a_fair_wheel_over_as_many_spins_is_not_flagged(sqlite_url: str) -> None:
    n = detection("roulette", alpha=ALPHA, power=POWER, bias=BIAS)[0].rounds
    world = sql_world(sqlite_url)
    live_table(world, "LF")
    play(world, "LF", fair_wheel(n))
    report = bias_watch(world.casino, world.admin, "LF", n, alpha=ALPHA, power=POWER, bias=BIAS)
    assert report["rounds"] == n
    assert report["flagged"] is False and report["verdict"] == "pass", report["chi_square"]
    assert report["pocket_test"]["verdict"] == "pass"  # type: ignore[index]


def test_only_an_admin_may_watch(sqlite_url: str) -> None:
    world = sql_world(sqlite_url)
    live_table(world, "LA")
    play(world, "LA", fair_wheel(10))
    for name in ("ana", "dee"):
        with pytest.raises(Forbidden):
            bias_watch(world.casino, world.users[name], "LA", 10)
        with pytest.raises(Forbidden):
            watch_store(world.store, world.users[name], "LA", 10)
    answer = bias_watch(world.casino, world.admin, "LA", 10)
    assert answer["verdict"] == "skipped" and "185 results" in str(answer["skipped"])  # 5 expected per pocket


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_the_results_reader_reads_settled_results_only(database: str, request: pytest.FixtureRequest) -> None:
    url: str = request.getfixturevalue(f"{database}_url")
    world = sql_world(url)
    live_table(world, "RW")
    live_table(world, "SB", "sicbo")
    world.casino.open_table(world.admin, table_id="BJ", game="blackjack", live=True, dealers=["dee"])
    spins = biased_wheel(120, seed=3)
    rolls = [[int(d) for d in roll] for roll in np.random.default_rng(4).integers(1, 7, size=(40, 3))]
    play(world, "RW", spins, voids=[5, 6, 50])
    play(world, "SB", rolls, voids=[0, 39])
    # a round still in play (its bell rung, no result yet) and a voided round are no results
    c = world.casino
    c.place_bet(world.users["ana"], "RW", {"type": "red", "amount": 10}, "RW-open")
    c.void(world.admin, "RW", "the ball left the wheel")
    c.place_bet(world.users["ana"], "RW", {"type": "red", "amount": 10}, "RW-open-2")
    c.close_betting(world.users["dee"], "RW")

    wheel = table_results(url, "RW")
    assert (wheel.table_id, wheel.game, wheel.voids) == ("RW", "roulette", 3)
    assert wheel.outcomes.shape == (120,) and wheel.outcomes.tolist() == spins
    assert wheel.rounds[0] == "RW.1" and wheel.rounds[-1] == "RW.120"
    assert list(wheel.times) == sorted(wheel.times)
    last = table_results(url, "RW", 50)
    assert last.outcomes.tolist() == spins[-50:] and last.rounds == wheel.rounds[-50:] and last.voids == 0
    dice = table_results(url, "SB")
    assert dice.outcomes.shape == (40, 3) and dice.outcomes.tolist() == rolls and dice.voids == 2
    # the same through the casino's store, whatever the store
    by_store = watch_store(world.store, world.admin, "RW", 120, points=0)
    assert by_store["counts"] == np.bincount(spins, minlength=37).tolist()
    assert by_store == bias_watch(world.casino, world.admin, "RW", 120, points=0)

    with pytest.raises(UnknownTable, match="'nowhere'"):
        table_results(url, "nowhere")
    with pytest.raises(NotWatchable, match="wheel"):
        table_results(url, "BJ")
    with pytest.raises(UnknownTable, match="'nowhere'"):
        bias_watch(world.casino, world.admin, "nowhere", 10)
    with pytest.raises(NotWatchable):
        bias_watch(world.casino, world.admin, "BJ", 10)
    world.check()


def test_a_missing_database_is_named() -> None:
    with pytest.raises(ValueError, match="no SQLite database"):
        table_results("sqlite:////nonexistent/croupier.sqlite3", "RW")
