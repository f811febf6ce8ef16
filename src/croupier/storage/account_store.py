"""The accounts' repository on SQLAlchemy: :class:`SqlAccountStore` implements
:class:`croupier.service.accounts.AccountStore` on SQLite and PostgreSQL, one transaction per call."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Engine, Row, Table, bindparam, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from croupier.service.accounts import AccountExists, Role, SessionRecord, UnknownAccount, User
from croupier.storage.database import read_engine
from croupier.storage.models import SessionRow, UserRow

USERS, SESSIONS = cast(Table, UserRow.__table__), cast(Table, SessionRow.__table__)
GET_USER = select(USERS).where(USERS.c.username == bindparam("username"))
GET_SESSION = select(SESSIONS).where(SESSIONS.c.token_hash == bindparam("token_hash"))


def _user(row: Row[Any]) -> User:
    return User(
        username=row.username,
        role=Role(row.role),
        password_hash=row.password_hash,
        created_at=row.created_at,
        active=row.active,
        failed_logins=row.failed_logins,
        locked_until=row.locked_until,
    )


class SqlAccountStore:
    """The ``users`` and ``sessions`` tables through an engine made by
    :func:`croupier.storage.database.create_engine`. The reads every request makes (its session, its user) run on
    a read connection (SQLite: a deferred ``BEGIN``), so authenticating never waits for a writer."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._reader = read_engine(engine)

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
                        failed_logins=user.failed_logins,
                        locked_until=user.locked_until,
                    )
                )
        except IntegrityError:
            raise AccountExists(f"An account named {user.username!r} already exists.") from None

    def get_user(self, username: str) -> User | None:
        """The user named ``username`` (one statement on a read connection: every request authenticates)."""
        with self._reader.begin() as connection:
            row = connection.execute(GET_USER, {"username": username}).one_or_none()
            return None if row is None else _user(row)

    def save_user(self, user: User) -> None:
        """Replace the stored user of the same name; ``UnknownAccount`` when there is none."""
        with self._session() as session:
            row = session.get(UserRow, user.username)
            if row is None:
                raise UnknownAccount(f"There is no account named {user.username!r}.")
            row.role, row.password_hash, row.active = user.role.value, user.password_hash, user.active
            row.failed_logins, row.locked_until = user.failed_logins, user.locked_until

    def add_failure(self, username: str) -> int:
        """Count one more failed login for ``username``, in one statement, and return the new count."""
        with self._session() as session:
            change = update(UserRow).where(UserRow.username == username)
            count: int | None = session.scalar(
                change.values(failed_logins=UserRow.failed_logins + 1).returning(UserRow.failed_logins)
            )
            if count is None:
                raise UnknownAccount(f"There is no account named {username!r}.")
            return count

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
