"""The accounts' shared suite on SQLite and PostgreSQL, what only a database shows (atomic counts, races between
admins), and the migration to canonical names."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, insert, select, text

from croupier.service.accounts import AccountService, LastAdmin, Role
from croupier.storage import SqlAccountStore, create_engine, current_revision, upgrade
from croupier.storage.models import AccountRow, EntryRow, HoldRow, PostingRow, RoundRow, SessionRow, UserRow
from pgserver import fresh_database
from service.accounts_contract import PASSWORD, AccountsContract
from service.support import CHEAP_HASHER, Clock

T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)


class TestAccountsOnSql(AccountsContract):
    """The shared suite on :class:`SqlAccountStore` (each test on SQLite and on PostgreSQL)."""

    @pytest.fixture
    def store(self, engine: Engine) -> SqlAccountStore:
        return SqlAccountStore(engine)


def together(*actions: Callable[[], object]) -> list[object]:
    """Run ``actions`` on threads released at once; their results or the exceptions they raised."""
    start = threading.Barrier(len(actions))
    results: list[object] = [None] * len(actions)

    def run(i: int) -> None:
        start.wait()
        try:
            results[i] = actions[i]()
        except Exception as error:
            results[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(actions))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def test_failures_are_counted_atomically(engine: Engine) -> None:
    store = SqlAccountStore(engine)
    counts = together(*[lambda: store.add_failure("ana", "203.0.113.7", T0, since=T0 - timedelta(days=1))] * 8)
    assert sorted(c.count for c in counts) == list(range(1, 9))  # type: ignore[attr-defined]
    failures = store.get_failures("ana", "203.0.113.7")
    assert failures is not None and failures.count == 8 and failures.last_at == T0


@pytest.mark.parametrize("act", ["disable", "demote"])
def test_two_admins_removing_each_other_at_once_leave_one(engine: Engine, act: str) -> None:
    service = AccountService(SqlAccountStore(engine), hasher=CHEAP_HASHER, clock=Clock())
    for _ in range(3):
        for name in ("root", "boss"):
            service.create(name, PASSWORD, Role.ADMIN)

        def remove(name: str) -> Callable[[], object]:
            if act == "disable":
                return lambda: service.set_active(name, False)
            return lambda: service.set_role(name, Role.PLAYER)

        results = together(remove("root"), remove("boss"))
        assert sum(isinstance(r, LastAdmin) for r in results) == 1, results
        assert [u.username for u in service.users(Role.ADMIN) if u.active] != []
        with engine.begin() as connection:
            connection.execute(text("DELETE FROM users"))


# -- the migration to canonical names (0004) ------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def at_0003(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """A new database migrated to revision 0003, before canonical names."""
    if request.param == "sqlite":
        engine = create_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
        upgrade(engine, "0003")
        yield engine
        engine.dispose()
        return
    with fresh_database("croupier_v0004") as url:
        engine = create_engine(url)
        upgrade(engine, "0003")
        yield engine
        engine.dispose()


def old_user(connection: Any, name: str, role: str = "player") -> None:
    connection.execute(
        text(
            "INSERT INTO users (username, role, password_hash, created_at, active, failed_logins, locked_until) "
            "VALUES (:name, :role, :hash, :at, :active, 2, NULL)"
        ),
        {
            "name": name,
            "role": role,
            "hash": CHEAP_HASHER.hash(PASSWORD),
            "at": T0.replace(tzinfo=None),
            "active": True,
        },
    )


def money(connection: Any, player: str, amount: int, *, bet: int = 0, status: str = "settled") -> None:
    """``amount`` credited to ``player``'s wallet, and a ``bet`` of it held on a round (``status``)."""
    accounts = {a: k for a, k in connection.execute(select(AccountRow.account, AccountRow.kind))}
    for account, kind in (("external", "external"), (f"wallet:{player}", "wallet"), (f"held:{player}", "held")):
        if account not in accounts and (kind != "held" or bet):
            connection.execute(insert(AccountRow).values(account=account, kind=kind, balance=0))
    n = connection.execute(select(EntryRow.id)).all()
    entry = connection.execute(
        insert(EntryRow)
        .values(key=f"credit-{player}-{len(n)}", kind="credit", fingerprint="f", created_at=T0)
        .returning(EntryRow.id)
    ).scalar_one()
    for account, delta in (("external", -amount), (f"wallet:{player}", amount - bet), (f"held:{player}", bet)):
        if delta:
            connection.execute(insert(PostingRow).values(entry_id=entry, account=account, amount=delta))
            connection.execute(
                AccountRow.__table__.update()
                .where(AccountRow.account == account)
                .values(balance=AccountRow.balance + delta)
            )
    if bet:
        round_id = f"r-{player}"
        connection.execute(insert(RoundRow).values(round_id=round_id, table_id="t1", status="open"))
        connection.execute(
            insert(HoldRow).values(
                round_id=round_id, bet_ref="b1", player=player, table_id="t1", amount=bet, entry_id=entry, status=status
            )
        )


def test_the_upgrade_makes_every_name_canonical_with_its_money_and_sessions(at_0003: Engine) -> None:
    with at_0003.begin() as connection:
        old_user(connection, "Ana", "admin")
        old_user(connection, "bo")
        old_user(connection, "Cy.Lee")
        connection.execute(
            text("INSERT INTO sessions VALUES ('t-ana', 'Ana', :at, :at), ('t-bo', 'bo', :at, :at)"),
            {"at": T0.replace(tzinfo=None)},
        )
        money(connection, "Ana", 500, bet=100)
        money(connection, "bo", 300)
    upgrade(at_0003, "0004")
    assert current_revision(at_0003) == "0004"
    with at_0003.connect() as connection:
        assert sorted(connection.scalars(select(UserRow.username))) == ["ana", "bo", "cy.lee"]
        assert dict(connection.execute(select(SessionRow.token_hash, SessionRow.username)).all()) == {
            "t-ana": "ana",
            "t-bo": "bo",
        }
        balances = dict(connection.execute(select(AccountRow.account, AccountRow.balance)).all())
        assert balances == {"external": -800, "wallet:ana": 400, "held:ana": 100, "wallet:bo": 300}
        postings = dict(connection.execute(select(PostingRow.account, PostingRow.amount)).all())
        assert set(postings) == set(balances)
        assert connection.scalars(select(HoldRow.player)).all() == ["ana"]
    service = AccountService(SqlAccountStore(at_0003), hasher=CHEAP_HASHER)
    assert service.login("ANA", PASSWORD, address="203.0.113.7").user.role is Role.ADMIN
    assert service.login("Cy.Lee", PASSWORD).user.username == "cy.lee"


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Ana", "ana"], "'Ana', 'ana' would all be 'ana'"),
        (["BO", "Bo", "bo", "cy"], "'BO', 'Bo', 'bo' would all be 'bo'"),
    ],
)
def test_the_upgrade_refuses_names_that_collide(at_0003: Engine, names: list[str], message: str) -> None:
    with at_0003.begin() as connection:
        for name in names:
            old_user(connection, name)
    with pytest.raises(RuntimeError, match=message) as info:
        upgrade(at_0003, "0004")
    assert "Nothing was changed" in str(info.value)
    assert current_revision(at_0003) == "0003"
    with at_0003.connect() as connection:
        assert sorted(connection.scalars(text("SELECT username FROM users"))) == sorted(names)
        assert connection.scalar(text("SELECT count(*) FROM users WHERE failed_logins = 2")) == len(names)


def test_the_upgrade_refuses_to_move_open_bets_or_into_taken_ledger_accounts(at_0003: Engine) -> None:
    with at_0003.begin() as connection:
        old_user(connection, "Ana")
        money(connection, "Ana", 500, bet=100, status="open")
        old_user(connection, "Bo")
        money(connection, "bo", 300)  # money under the canonical name, with no account of that name
    with pytest.raises(RuntimeError) as info:
        upgrade(at_0003, "0004")
    assert "'Ana' has 1 open bet(s): settle or void their rounds first" in str(info.value)
    assert "the ledger already has wallet:bo, where 'Bo''s money would go" in str(info.value)
    assert current_revision(at_0003) == "0003"
    with at_0003.connect() as connection:
        assert sorted(connection.scalars(text("SELECT username FROM users"))) == ["Ana", "Bo"]
        assert "wallet:Ana" in set(connection.scalars(select(AccountRow.account)))


def test_the_downgrade_gives_the_users_their_lock_columns_again(at_0003: Engine) -> None:
    with at_0003.begin() as connection:
        old_user(connection, "Ana")
    upgrade(at_0003, "0004")
    from alembic import command
    from alembic.config import Config

    from croupier.storage.database import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with at_0003.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0003")
    assert current_revision(at_0003) == "0003"
    with at_0003.connect() as connection:
        assert connection.execute(text("SELECT username, failed_logins FROM users")).all() == [("ana", 0)]
