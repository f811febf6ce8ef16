"""Accounts of the people at a table: players, dealers and admins, their passwords and their sessions.

Passwords are hashed with Argon2id (argon2-cffi); a session token is 32 random bytes that is shown once and stored
only as its SHA-256 digest, valid until it expires or its owner logs out. Consecutive failed logins are counted:
the ``max_failures``-th locks the account for ``lockout``, and each failure after it locks it again, until a
successful login or an admin's :meth:`AccountService.unlock` resets the count. Written against the
:class:`AccountStore` port.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Protocol

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from croupier.errors import CroupierError
from croupier.service.ledger import utc_now

USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
MIN_PASSWORD = 8
MAX_PASSWORD = 1024


class Role(StrEnum):
    """What an account may do: play, run a table, or administer accounts and money."""

    PLAYER = "player"
    DEALER = "dealer"
    ADMIN = "admin"


class AccountError(CroupierError):
    """A refused account operation; nothing was changed."""

    kind = "account_error"


class AccountExists(AccountError):
    """A new account under a name already taken."""

    kind = "account_exists"


class UnknownAccount(AccountError):
    """An operation on an account that does not exist."""

    kind = "unknown_account"


class LoginFailed(AccountError):
    """A wrong name or password (the message does not say which)."""

    kind = "login_failed"


class AccountLocked(AccountError):
    """A login to an account locked after too many failures, or disabled."""

    kind = "account_locked"


class InvalidSession(AccountError):
    """A session token that is unknown, expired or revoked."""

    kind = "unauthenticated"


class Forbidden(AccountError):
    """A valid session whose role may not do what it asked."""

    kind = "forbidden"


@dataclass(frozen=True, slots=True)
class User:
    """A stored account. ``failed_logins`` counts failures since the last success."""

    username: str
    role: Role
    password_hash: str = field(repr=False)
    created_at: datetime
    active: bool = True
    failed_logins: int = 0
    locked_until: datetime | None = None


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """A stored session: the SHA-256 digest of its token, never the token."""

    token_hash: str
    username: str
    created_at: datetime
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class Login:
    """A successful login: the token to send with each request, whose account, until when."""

    token: str = field(repr=False)
    user: User
    expires_at: datetime


class AccountStore(Protocol):
    """The repository port of the accounts."""

    def add_user(self, user: User) -> None:
        """Add ``user``; ``AccountExists`` when the name is taken."""
        ...

    def get_user(self, username: str) -> User | None:
        """The user named ``username``."""
        ...

    def save_user(self, user: User) -> None:
        """Replace the stored user of the same name; ``UnknownAccount`` when there is none."""
        ...

    def add_failure(self, username: str) -> int:
        """Count one more failed login for ``username``, atomically, and return the new count."""
        ...

    def add_session(self, session: SessionRecord) -> None:
        """Store a session."""
        ...

    def get_session(self, token_hash: str) -> SessionRecord | None:
        """The session whose token hashes to ``token_hash``."""
        ...

    def delete_session(self, token_hash: str) -> None:
        """Forget a session (nothing when it is unknown)."""
        ...

    def delete_sessions(self, username: str) -> int:
        """Forget every session of ``username``; return how many."""
        ...

    def purge_sessions(self, now: datetime) -> int:
        """Forget every session expired at ``now``; return how many."""
        ...


def token_digest(token: str) -> str:
    """What is stored of a session token: its SHA-256 digest (a 256-bit random token needs no slow hash)."""
    return hashlib.sha256(token.encode()).hexdigest()


class AccountService:
    """Creating accounts, logging in and out, and checking session tokens and roles.

    ``hasher`` is argon2's ``PasswordHasher`` (its defaults unless given: tests pass a cheap one); ``clock``
    gives the current UTC time.
    """

    def __init__(
        self,
        store: AccountStore,
        *,
        hasher: PasswordHasher | None = None,
        clock: Callable[[], datetime] = utc_now,
        session_ttl: timedelta = timedelta(hours=8),
        max_failures: int = 5,
        lockout: timedelta = timedelta(minutes=15),
    ) -> None:
        self.store = store
        self.hasher = hasher or PasswordHasher()
        self._clock = clock
        self.session_ttl = session_ttl
        self.max_failures = max_failures
        self.lockout = lockout
        self._dummy_hash = self.hasher.hash(secrets.token_hex(16))

    def create(self, username: str, password: str, role: Role | str = Role.PLAYER) -> User:
        """A new active account; ``AccountExists`` when the name is taken."""
        name = self._check_username(username)
        role = self._check_role(role)
        user = User(name, role, self.hasher.hash(self._check_password(password)), self._clock())
        self.store.add_user(user)
        return user

    def get(self, username: str) -> User:
        """The account named ``username``; ``UnknownAccount`` when there is none."""
        user = self.store.get_user(username) if isinstance(username, str) else None
        if user is None:
            raise UnknownAccount(f"There is no account named {username!r}.")
        return user

    def login(self, username: str, password: str) -> Login:
        """Check the password and open a session. ``LoginFailed`` for a wrong name or password (one message for
        both, and the same work: an unknown name is checked against a dummy hash), ``AccountLocked`` while the
        account is locked or disabled."""
        now = self._clock()
        user = self.store.get_user(username) if isinstance(username, str) else None
        if user is not None and user.locked_until is not None and user.locked_until > now:
            raise AccountLocked(
                f"Account {username!r} is locked until {user.locked_until.isoformat()} after "
                f"{user.failed_logins} failed logins."
            )
        if not self._verify(user.password_hash if user else self._dummy_hash, password) or user is None:
            if user is not None:
                count = self.store.add_failure(user.username)
                if count >= self.max_failures:
                    self.store.save_user(replace(user, failed_logins=count, locked_until=now + self.lockout))
            raise LoginFailed(f"Wrong name or password for {username!r}.")
        if not user.active:
            raise AccountLocked(f"Account {username!r} is disabled.")
        updated = replace(user, failed_logins=0, locked_until=None)
        if self.hasher.check_needs_rehash(user.password_hash):
            updated = replace(updated, password_hash=self.hasher.hash(password))
        if updated != user:
            self.store.save_user(updated)
        token = secrets.token_urlsafe(32)
        expires = now + self.session_ttl
        self.store.add_session(SessionRecord(token_digest(token), user.username, now, expires))
        return Login(token, updated, expires)

    def authenticate(self, token: str, *, roles: Iterable[Role | str] | None = None) -> User:
        """The account behind a session token; ``InvalidSession`` for an unknown, expired or revoked token or a
        disabled account, ``Forbidden`` when ``roles`` is given and the account has none of them."""
        if not isinstance(token, str) or not token:
            raise InvalidSession("No session token was given.")
        digest = token_digest(token)
        session = self.store.get_session(digest)
        now = self._clock()
        if session is None:
            raise InvalidSession("The session token is unknown or was revoked; log in again.")
        if session.expires_at <= now:
            self.store.delete_session(digest)
            raise InvalidSession(f"The session expired at {session.expires_at.isoformat()}; log in again.")
        user = self.store.get_user(session.username)
        if user is None or not user.active:
            raise InvalidSession(f"Account {session.username!r} is disabled or gone; the session is not valid.")
        if roles is not None:
            allowed = {self._check_role(r) for r in roles}
            if user.role not in allowed:
                names = ", ".join(sorted(r.value for r in allowed))
                raise Forbidden(f"Account {user.username!r} is a {user.role.value}; this needs the role {names}.")
        return user

    def logout(self, token: str) -> None:
        """End the session of ``token`` (nothing when it is unknown)."""
        if isinstance(token, str) and token:
            self.store.delete_session(token_digest(token))

    def set_password(self, username: str, password: str) -> None:
        """Replace the password and end every session of the account."""
        user = self.get(username)
        self.store.save_user(replace(user, password_hash=self.hasher.hash(self._check_password(password))))
        self.store.delete_sessions(user.username)

    def set_role(self, username: str, role: Role | str) -> User:
        """Give the account another role."""
        user = replace(self.get(username), role=self._check_role(role))
        self.store.save_user(user)
        return user

    def set_active(self, username: str, active: bool) -> User:
        """Enable or disable the account; disabling ends its sessions."""
        user = replace(self.get(username), active=bool(active))
        self.store.save_user(user)
        if not active:
            self.store.delete_sessions(user.username)
        return user

    def unlock(self, username: str) -> User:
        """Lift a lockout and reset the failure count."""
        user = replace(self.get(username), failed_logins=0, locked_until=None)
        self.store.save_user(user)
        return user

    def purge_sessions(self) -> int:
        """Forget every expired session; return how many."""
        return self.store.purge_sessions(self._clock())

    def _verify(self, password_hash: str, password: object) -> bool:
        if not isinstance(password, str):
            return False
        try:
            return self.hasher.verify(password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    @staticmethod
    def _check_username(username: object) -> str:
        if not isinstance(username, str) or not USERNAME.fullmatch(username):
            raise AccountError(
                f"{username!r} is not a valid account name: 1 to 64 letters, digits, '_', '.' or '-', "
                "starting with a letter or digit."
            )
        return username

    @staticmethod
    def _check_password(password: object) -> str:
        if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            raise AccountError(f"A password must be text of {MIN_PASSWORD} to {MAX_PASSWORD} characters.")
        return password

    @staticmethod
    def _check_role(role: object) -> Role:
        try:
            return Role(role if isinstance(role, str) else "")
        except ValueError:
            names = ", ".join(r.value for r in Role)
            raise AccountError(f"{role!r} is not a role: the roles are {names}.") from None
