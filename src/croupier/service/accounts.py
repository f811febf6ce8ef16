"""Accounts of the people at a table: players, dealers and admins, their passwords and their sessions.

**Names** have one canonical form, the account's id everywhere (sessions, the ledger's player, the audit log): the
name as typed, NFKC-normalised and case-folded (:func:`canonical_name`), which must then be 1 to 64 of
``a-z 0-9 _ . -`` starting with a letter or digit. ``Ana``, ``ANA`` and ``ａｎａ`` are one account, ``ana``.

**Passwords** are hashed with Argon2id (argon2-cffi). A new one must pass the service's :class:`PasswordPolicy`:
by default at least 12 characters and zxcvbn's top strength score, with the account's name and role and the
site's words as what an attacker would try first.

**Logins** that fail are counted per name and client address (:class:`LoginFailures`): after ``throttle_after``
failures from one address for one name, that address may try that name again only after a delay that doubles with
each further failure, up to ``max_backoff`` (:class:`LoginThrottled`). Unknown names are counted and throttled the
same way, and checked against a dummy hash of the same cost, so no answer or timing tells a taken name from a free
one; the owner, from another address, is not affected. A success from the address forgets its failures there; an
admin's :meth:`AccountService.unlock` forgets them everywhere.

**Sessions**: a token is 32 random bytes that is shown once and stored only as its SHA-256 digest, valid until it
expires or its owner logs out. Written against the :class:`AccountStore` port.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import re
import secrets
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, Protocol

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from croupier.errors import CroupierError
from croupier.service.ledger import utc_now

USERNAME = re.compile(r"[a-z0-9][a-z0-9_.-]{0,63}")
MAX_NAME_INPUT = 256
MAX_PASSWORD = 1024
MAX_ADDRESS = 64
NO_ADDRESS = "-"


class Role(StrEnum):
    """What an account may do: play, run a table, or administer accounts and money."""

    PLAYER = "player"
    DEALER = "dealer"
    ADMIN = "admin"


class AccountError(CroupierError):
    """A refused account operation; nothing was changed."""

    kind = "account_error"


class AccountExists(AccountError):
    """A new account under a name already taken (in its canonical form)."""

    kind = "account_exists"


class UnknownAccount(AccountError):
    """An operation on an account that does not exist."""

    kind = "unknown_account"


class WeakPassword(AccountError):
    """A new password that the :class:`PasswordPolicy` refuses; the message names the rule it breaks."""

    kind = "weak_password"


class LastAdmin(AccountError):
    """An act that would leave no active admin (disabling or demoting the last one)."""

    kind = "last_admin"


class LoginFailed(AccountError):
    """A wrong name or password (the message does not say which)."""

    kind = "login_failed"


class LoginThrottled(LoginFailed):
    """A login refused unheard: too many failures for this name from this address. Raised alike for taken and free
    names; ``retry_after`` is how many seconds until this address may try this name again."""

    kind = "login_throttled"

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class AccountLocked(AccountError):
    """A login with the right password to a disabled account."""

    kind = "account_locked"


class InvalidSession(AccountError):
    """A session token that is unknown, expired or revoked."""

    kind = "unauthenticated"


class Forbidden(AccountError):
    """A valid session whose role may not do what it asked."""

    kind = "forbidden"


@dataclass(frozen=True, slots=True)
class User:
    """A stored account; ``username`` is the canonical name (:func:`canonical_name`)."""

    username: str
    role: Role
    password_hash: str = field(repr=False)
    created_at: datetime
    active: bool = True


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """A stored session: the SHA-256 digest of its token, never the token."""

    token_hash: str
    username: str
    created_at: datetime
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class LoginFailures:
    """The failed logins to a (canonical) name from an address (:func:`address_key`) since the last success from
    there, and when the last one was; kept for free names too."""

    username: str
    address: str
    count: int
    last_at: datetime


@dataclass(frozen=True, slots=True)
class Login:
    """A successful login: the token to send with each request, whose account, until when."""

    token: str = field(repr=False)
    user: User
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class AccountChange:
    """What an admin's act on an account did, for the caller's audit log: ``action`` (``unlock``, ``disable``,
    ``enable``, ``reset_password``, ``set_role``), the account as it now is, and ``detail`` (what the act ended or
    changed: ``sessions_ended``, ``failures_forgotten``, ``role`` and ``was``)."""

    action: str
    user: User
    detail: Mapping[str, object] = field(default_factory=dict)

    def audit(self) -> dict[str, object]:
        """The audit line's detail: the account and what was done to it."""
        return {"account": self.user.username, **self.detail}


class AccountStore(Protocol):
    """The repository port of the accounts. Names reach it in their canonical form."""

    def add_user(self, user: User) -> None:
        """Add ``user``; ``AccountExists`` when the name is taken."""
        ...

    def get_user(self, username: str) -> User | None:
        """The user named ``username``."""
        ...

    def save_user(self, user: User, *, keep_an_admin: bool = False) -> None:
        """Replace the stored user of the same name; ``UnknownAccount`` when there is none. With ``keep_an_admin``,
        atomically: ``LastAdmin`` (and nothing saved) when no active admin would be left."""
        ...

    def list_users(self, role: Role | None = None) -> list[User]:
        """Every user (of ``role``), by name."""
        ...

    def get_failures(self, username: str, address: str) -> LoginFailures | None:
        """The failed logins to ``username`` from ``address``."""
        ...

    def add_failure(self, username: str, address: str, at: datetime, *, since: datetime) -> LoginFailures:
        """Count one more failed login to ``username`` from ``address`` at ``at``, atomically, and return the new
        count; a count whose last failure was before ``since`` starts again at one."""
        ...

    def clear_failures(self, username: str, address: str | None = None) -> int:
        """Forget the failed logins to ``username`` from ``address`` (from every address when it is ``None``);
        return how many records."""
        ...

    def purge_failures(self, before: datetime) -> int:
        """Forget every count whose last failure was before ``before``; return how many."""
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


def fold(name: str) -> str:
    """``name`` NFKC-normalised and case-folded (Unicode's NFKC_Casefold, by the standard library's pieces)."""
    nfkc = unicodedata.normalize
    return nfkc("NFKC", nfkc("NFKC", name).casefold())


def canonical_name(name: object) -> str:
    """The canonical form of an account name: :func:`fold` of it, which must be 1 to 64 of ``a-z``, ``0-9``,
    ``_``, ``.`` and ``-`` starting with a letter or digit; ``AccountError`` otherwise."""
    canonical = fold(name) if isinstance(name, str) and len(name) <= MAX_NAME_INPUT else None
    if canonical is None or not USERNAME.fullmatch(canonical):
        raise AccountError(
            f"{name!r} is not a valid account name: 1 to 64 letters, digits, '_', '.' or '-', starting with a letter "
            "or digit (names are compared ignoring case)."
        )
    return canonical


def address_key(address: object) -> str:
    """What login failures are counted by: an IPv4 address as it is, an IPv6 address as its /64 network (what one
    client usually holds), anything else as given (up to 64 characters), no address as ``-``."""
    if not isinstance(address, str) or not address:
        return NO_ADDRESS
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address[:MAX_ADDRESS]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def token_digest(token: str) -> str:
    """What is stored of a session token: its SHA-256 digest (a 256-bit random token needs no slow hash)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True, kw_only=True)
class PasswordPolicy:
    """What a new password must be: at least ``min_length`` characters (and at most 1,024), and, unless
    ``min_score`` is ``None``, at least that strong by zxcvbn's estimate (0 to 4: 3 is under 10^10 guesses, 4 at
    least that), with the account's name, its role and ``context`` (the site's own words) counted as guessable.
    zxcvbn reads the first 72 characters."""

    min_length: int = 12
    min_score: int | None = 4
    context: tuple[str, ...] = ("croupier", "casino", "macau", "blackjack", "roulette", "sicbo", "sic bo")

    def problem(self, password: object, *, username: str = "", role: str = "") -> str | None:
        """Why ``password`` is refused for the account ``username`` of ``role``, or ``None``."""
        if not isinstance(password, str):
            return "A password must be text."
        if len(password) > MAX_PASSWORD:
            return f"A password may have at most {MAX_PASSWORD} characters; this one has {len(password)}."
        if len(password) < self.min_length:
            return f"A password must have at least {self.min_length} characters; this one has {len(password)}."
        if self.min_score is None:
            return None
        from zxcvbn import zxcvbn  # type: ignore[import-untyped]  # loads its word lists: only when needed

        inputs = [w for w in (username, role, *self.context) if w]
        result: dict[str, Any] = zxcvbn(password[:72], user_inputs=inputs)
        score = int(result["score"])
        if score >= self.min_score:
            return None
        feedback = result.get("feedback") or {}
        hints = " ".join(h for h in [feedback.get("warning") or "", *(feedback.get("suggestions") or [])] if h)
        return (
            f"The password is too easy to guess: its strength is {score} of 4 by zxcvbn's estimate and at least "
            f"{self.min_score} is needed (names, roles, the site's words, common words and patterns are guessed "
            f"first; a few unrelated words make a strong password).{' ' + hints if hints else ''}"
        )

    def check(self, password: object, *, username: str = "", role: str = "") -> str:
        """``password`` when the policy takes it; ``WeakPassword`` naming the rule otherwise."""
        problem = self.problem(password, username=username, role=role)
        if problem is not None:
            raise WeakPassword(problem)
        assert isinstance(password, str)
        return password


STRICT = PasswordPolicy()


def default_hasher() -> PasswordHasher:
    """Argon2id at OWASP's recommended minimum (19 MiB, 2 passes, 1 lane: about 20 ms a check here) rather than
    argon2-cffi's default (64 MiB, 3 passes, 4 lanes: about 110 ms and four threads a check): a login flood costs the
    machine a fifth as much, and a wrong password is answered within the abuse bench's 100 ms (issue 13). Hashes made
    with other parameters still verify (each hash carries its own)."""
    return PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)


class AccountService:
    """Creating accounts, logging in and out, checking session tokens and roles, and the admins' acts on accounts.

    ``hasher`` is argon2's ``PasswordHasher`` (:func:`default_hasher` unless given: tests pass a cheap one);
    ``clock`` gives the current UTC time; ``policy`` is what a new password must pass (:data:`STRICT` unless
    given). A name may fail ``throttle_after`` times from an address before that address waits ``backoff`` to try
    it again, then twice as long after each further failure, up to ``max_backoff``; failures are forgotten after
    ``forget_after``.
    """

    def __init__(
        self,
        store: AccountStore,
        *,
        hasher: PasswordHasher | None = None,
        clock: Callable[[], datetime] = utc_now,
        session_ttl: timedelta = timedelta(hours=8),
        policy: PasswordPolicy = STRICT,
        throttle_after: int = 5,
        backoff: timedelta = timedelta(seconds=30),
        max_backoff: timedelta = timedelta(hours=1),
        forget_after: timedelta = timedelta(days=1),
    ) -> None:
        self.store = store
        self.hasher = hasher or default_hasher()
        self._clock = clock
        self.session_ttl = session_ttl
        self.policy = policy
        self.throttle_after = throttle_after
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.forget_after = forget_after
        self._dummy_hash = self.hasher.hash(secrets.token_hex(16))

    # -- accounts ----------------------------------------------------------------------------------------------------

    def create(
        self, username: str, password: str, role: Role | str = Role.PLAYER, *, policy: PasswordPolicy | None = None
    ) -> User:
        """A new active account under the canonical form of ``username``; ``AccountExists`` when it is taken,
        ``WeakPassword`` when ``password`` fails the policy (the service's, or ``policy`` for this one account)."""
        name = canonical_name(username)
        role = self._check_role(role)
        password = (policy or self.policy).check(password, username=name, role=role.value)
        user = User(name, role, self.hasher.hash(password), self._clock())
        self.store.add_user(user)
        return user

    def get(self, username: str) -> User:
        """The account named ``username`` (in any spelling of its canonical form); ``UnknownAccount`` when there is
        none."""
        user = self._find(username)
        if user is None:
            raise UnknownAccount(f"There is no account named {username!r}.")
        return user

    def users(self, role: Role | str | None = None) -> list[User]:
        """Every account (of ``role``), by name."""
        return self.store.list_users(None if role is None else self._check_role(role))

    # -- sessions ----------------------------------------------------------------------------------------------------

    def login(self, username: str, password: str, *, address: str | None = None) -> Login:
        """Check the password and open a session; ``address`` is the client's (an IP address), by which failures
        are counted. ``LoginThrottled`` while this address must wait to try this name again, ``LoginFailed`` for a
        wrong name or password (one answer and the same work for both: a free name is checked against a dummy
        hash), ``AccountLocked`` for the right password to a disabled account."""
        now = self._clock()
        try:
            name: str | None = canonical_name(username)
        except AccountError:
            name = None
        where = address_key(address)
        failures = self.store.get_failures(name, where) if name is not None else None
        if failures is not None:
            wait = self._wait(failures, now)
            if wait > 0:
                raise LoginThrottled(
                    f"Too many failed logins to {username!r} from this address: try again in {wait} seconds.",
                    retry_after=wait,
                )
        user = self.store.get_user(name) if name is not None else None
        if not self._verify(user.password_hash if user else self._dummy_hash, password) or user is None:
            if name is not None:
                self.store.add_failure(name, where, now, since=now - self.forget_after)
            raise LoginFailed(f"Wrong name or password for {username!r}.")
        if failures is not None:
            self.store.clear_failures(user.username, where)
        if not user.active:
            raise AccountLocked(f"Account {user.username!r} is disabled; an admin may enable it.")
        if self.hasher.check_needs_rehash(user.password_hash):
            user = replace(user, password_hash=self.hasher.hash(password))
            self.store.save_user(user)
        token = secrets.token_urlsafe(32)
        expires = now + self.session_ttl
        self.store.add_session(SessionRecord(token_digest(token), user.username, now, expires))
        return Login(token, user, expires)

    def retry_after(self, username: str, address: str | None = None) -> int:
        """How many seconds ``address`` must wait before it may try ``username`` again (0: it may now)."""
        try:
            name = canonical_name(username)
        except AccountError:
            return 0
        failures = self.store.get_failures(name, address_key(address))
        return 0 if failures is None else self._wait(failures, self._clock())

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

    def purge_sessions(self) -> int:
        """Forget every expired session; return how many."""
        return self.store.purge_sessions(self._clock())

    def purge_failures(self) -> int:
        """Forget the failed logins older than ``forget_after`` (they no longer count); return how many records."""
        return self.store.purge_failures(self._clock() - self.forget_after)

    # -- admins' acts (the caller checks the role and writes the audit log from the returned change) -----------------

    def unlock(self, username: str) -> AccountChange:
        """Forget the account's failed logins from every address, lifting every wait."""
        user = self.get(username)
        return AccountChange("unlock", user, {"failures_forgotten": self.store.clear_failures(user.username)})

    def set_active(self, username: str, active: bool) -> AccountChange:
        """Enable or disable the account; disabling ends its sessions. ``LastAdmin`` for the last active admin."""
        before = self.get(username)
        user = replace(before, active=bool(active))
        if user != before:
            self.store.save_user(user, keep_an_admin=before.role is Role.ADMIN and not active)
        ended = 0 if active else self.store.delete_sessions(user.username)
        return AccountChange("enable" if active else "disable", user, {"sessions_ended": ended})

    def reset_password(self, username: str, password: str) -> AccountChange:
        """Replace the password (policy-checked) and end every session of the account."""
        user = self.get(username)
        password = self.policy.check(password, username=user.username, role=user.role.value)
        user = replace(user, password_hash=self.hasher.hash(password))
        self.store.save_user(user)
        return AccountChange("reset_password", user, {"sessions_ended": self.store.delete_sessions(user.username)})

    def set_role(self, username: str, role: Role | str) -> AccountChange:
        """Give the account another role. ``LastAdmin`` for the last active admin."""
        before = self.get(username)
        user = replace(before, role=self._check_role(role))
        if user != before:
            self.store.save_user(user, keep_an_admin=before.role is Role.ADMIN and before.active)
        return AccountChange("set_role", user, {"role": user.role.value, "was": before.role.value})

    def accounts_with_passwords(self, candidates: Mapping[str, str]) -> list[str]:
        """The accounts, of the names in ``candidates``, whose password is still the one given there (the demo's
        known passwords, say), enabled or not; by name. One hash check per existing name."""
        found = set()
        for name, password in candidates.items():
            user = self._find(name)
            if user is not None and self._verify(user.password_hash, password):
                found.add(user.username)
        return sorted(found)

    # -- internals ---------------------------------------------------------------------------------------------------

    def _find(self, username: object) -> User | None:
        try:
            return self.store.get_user(canonical_name(username))
        except AccountError:
            return None

    def _wait(self, failures: LoginFailures, now: datetime) -> int:
        """Whole seconds (rounded up) until the address may try the name again."""
        over = failures.count - self.throttle_after
        if over < 0 or now - failures.last_at > self.forget_after:
            return 0
        delay = min(self.max_backoff.total_seconds(), math.ldexp(self.backoff.total_seconds(), min(over, 62)))
        left = (failures.last_at - now).total_seconds() + delay
        return max(0, math.ceil(left))

    def _verify(self, password_hash: str, password: object) -> bool:
        if not isinstance(password, str) or len(password) > MAX_PASSWORD:
            return False
        try:
            return self.hasher.verify(password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    @staticmethod
    def _check_role(role: object) -> Role:
        try:
            return Role(role if isinstance(role, str) else "")
        except ValueError:
            names = ", ".join(r.value for r in Role)
            raise AccountError(f"{role!r} is not a role: the roles are {names}.") from None
