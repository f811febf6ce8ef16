"""The accounts' repository on SQLAlchemy: :class:`SqlAccountStore` implements
:class:`croupier.service.accounts.AccountStore` on SQLite and PostgreSQL, one transaction per call."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Engine, Row, Table, bindparam, case, delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from croupier.service.accounts import (
    AccountExists,
    LastAdmin,
    LoginFailures,
    Role,
    SessionRecord,
    UnknownAccount,
    User,
)
from croupier.storage.database import read_engine
from croupier.storage.models import LoginFailureRow, SessionRow, UserRow

USERS, SESSIONS = cast(Table, UserRow.__table__), cast(Table, SessionRow.__table__)
FAILURES = cast(Table, LoginFailureRow.__table__)
GET_USER = select(USERS).where(USERS.c.username == bindparam("username"))
GET_SESSION = select(SESSIONS).where(SESSIONS.c.token_hash == bindparam("token_hash"))
GET_FAILURES = select(FAILURES).where(
    FAILURES.c.username == bindparam("username"), FAILURES.c.address == bindparam("address")
)
ACTIVE_ADMIN = (UserRow.role == Role.ADMIN.value) & UserRow.active.is_(True)


def _user(row: Row[Any]) -> User:
    return User(
        username=row.username,
        role=Role(row.role),
        password_hash=row.password_hash,
        created_at=row.created_at,
        active=row.active,
    )


class SqlAccountStore:
    """The ``users``, ``sessions`` and ``login_failures`` tables through an engine made by
    :func:`croupier.storage.database.create_engine`. The reads every request makes (its session, its user, a
    login's failures) run on a read connection (SQLite: a deferred ``BEGIN``), so they never wait for a writer."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._reader = read_engine(engine)
        self._insert = postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session

    def add_user(self, user: User) -> None:
        """Add ``user``; ``AccountExists`` when the name is taken."""
        try:
            with self._session() as session:
                session.add(
                    UserRow(
                        username=user.username,
                        role=user.role.value,
                        password_hash=user.password_hash,
                        created_at=user.created_at,
                        active=user.active,
                    )
                )
        except IntegrityError:
            raise AccountExists(f"An account named {user.username!r} already exists.") from None

    def get_user(self, username: str) -> User | None:
        """The user named ``username`` (one statement on a read connection: every request authenticates)."""
        with self._reader.begin() as connection:
            row = connection.execute(GET_USER, {"username": username}).one_or_none()
            return None if row is None else _user(row)

    def save_user(self, user: User, *, keep_an_admin: bool = False) -> None:
        """Replace the stored user of the same name; ``UnknownAccount`` when there is none. With ``keep_an_admin``
        the active admins are locked first (PostgreSQL: ``FOR UPDATE``; SQLite's writers take turns), and
        ``LastAdmin`` rolls the change back when none would be left."""
        with self._session() as session:
            if keep_an_admin:
                session.scalars(select(UserRow.username).where(ACTIVE_ADMIN).with_for_update()).all()
            row = session.get(UserRow, user.username)
            if row is None:
                raise UnknownAccount(f"There is no account named {user.username!r}.")
            row.role, row.password_hash, row.active = user.role.value, user.password_hash, user.active
            if keep_an_admin:
                session.flush()
                if not session.scalar(select(func.count()).select_from(UserRow).where(ACTIVE_ADMIN)):
                    raise LastAdmin(f"{user.username!r} is the last active admin: enable or appoint another first.")

    def list_users(self, role: Role | None = None) -> list[User]:
        """Every user (of ``role``), by name."""
        query = select(USERS).order_by(USERS.c.username)
        if role is not None:
            query = query.where(USERS.c.role == role.value)
        with self._reader.begin() as connection:
            return [_user(row) for row in connection.execute(query)]

    def get_failures(self, username: str, address: str) -> LoginFailures | None:
        """The failed logins to ``username`` from ``address`` (one statement on a read connection)."""
        with self._reader.begin() as connection:
            row = connection.execute(GET_FAILURES, {"username": username, "address": address}).one_or_none()
            return None if row is None else LoginFailures(row.username, row.address, row.failures, row.last_at)

    def add_failure(self, username: str, address: str, at: datetime, *, since: datetime) -> LoginFailures:
        """Count one more failed login in one statement (an upsert); a count last added to before ``since`` starts
        again at one."""
        insert = self._insert(FAILURES).values(username=username, address=address, failures=1, last_at=at)
        stale = FAILURES.c.last_at < bindparam("since", since, type_=FAILURES.c.last_at.type)
        upsert = insert.on_conflict_do_update(
            index_elements=[FAILURES.c.username, FAILURES.c.address],
            set_={"failures": case((stale, 1), else_=FAILURES.c.failures + 1), "last_at": insert.excluded.last_at},
        ).returning(FAILURES.c.failures, FAILURES.c.last_at)
        with self._session() as session:
            count, last_at = session.execute(upsert).one()
            return LoginFailures(username, address, count, last_at)

    def clear_failures(self, username: str, address: str | None = None) -> int:
        """Forget the failed logins to ``username`` from ``address`` (every address when ``None``)."""
        doomed = delete(LoginFailureRow).where(LoginFailureRow.username == username)
        if address is not None:
            doomed = doomed.where(LoginFailureRow.address == address)
        with self._session() as session:
            return len(session.scalars(doomed.returning(LoginFailureRow.address)).all())

    def purge_failures(self, before: datetime) -> int:
        """Forget every count last added to before ``before``."""
        doomed = delete(LoginFailureRow).where(LoginFailureRow.last_at < before).returning(LoginFailureRow.address)
        with self._session() as session:
            return len(session.scalars(doomed).all())

    def add_session(self, session: SessionRecord) -> None:
        """Store a session."""
        with self._session() as db:
            db.add(
                SessionRow(
                    token_hash=session.token_hash,
                    username=session.username,
                    created_at=session.created_at,
                    expires_at=session.expires_at,
                )
            )

    def get_session(self, token_hash: str) -> SessionRecord | None:
        """The session whose token hashes to ``token_hash`` (one statement on a read connection)."""
        with self._reader.begin() as connection:
            row = connection.execute(GET_SESSION, {"token_hash": token_hash}).one_or_none()
            return None if row is None else SessionRecord(row.token_hash, row.username, row.created_at, row.expires_at)

    def delete_session(self, token_hash: str) -> None:
        """Forget a session (nothing when it is unknown)."""
        with self._session() as db:
            db.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash))

    def delete_sessions(self, username: str) -> int:
        """Forget every session of ``username``; return how many."""
        with self._session() as db:
            gone = db.scalars(
                delete(SessionRow).where(SessionRow.username == username).returning(SessionRow.token_hash)
            )
            return len(gone.all())

    def purge_sessions(self, now: datetime) -> int:
        """Forget every session expired at ``now``; return how many."""
        with self._session() as db:
            gone = db.scalars(delete(SessionRow).where(SessionRow.expires_at <= now).returning(SessionRow.token_hash))
            return len(gone.all())
