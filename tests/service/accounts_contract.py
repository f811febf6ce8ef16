"""The accounts' rules, as a suite run on every store (in memory here, SQLite and PostgreSQL in tests/storage).
A subclass provides the ``store`` fixture."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher

from croupier.service.accounts import (
    AccountError,
    AccountExists,
    AccountLocked,
    AccountService,
    AccountStore,
    Forbidden,
    InvalidSession,
    LoginFailed,
    Role,
    UnknownAccount,
    token_digest,
)
from service.support import CHEAP_HASHER, Clock

PASSWORD = "correct horse"


class AccountsContract:
    """Every rule of :mod:`croupier.service.accounts`."""

    @pytest.fixture
    def clock(self) -> Clock:
        return Clock()

    @pytest.fixture
    def service(self, store: AccountStore, clock: Clock) -> AccountService:
        return AccountService(store, hasher=CHEAP_HASHER, clock=clock, max_failures=3)

    def test_create_stores_an_argon2_hash_never_the_password(self, service: AccountService, clock: Clock) -> None:
        user = service.create("ana", PASSWORD, Role.ADMIN)
        stored = service.get("ana")
        assert stored == user and stored.role is Role.ADMIN and stored.active and stored.created_at == clock.now
        assert stored.password_hash.startswith("$argon2id$") and PASSWORD not in stored.password_hash
        assert PASSWORD not in repr(stored)
        assert service.create("bo", PASSWORD, "dealer").role is Role.DEALER
        assert service.create("cy", PASSWORD).role is Role.PLAYER

    def test_a_name_is_taken_once(self, service: AccountService) -> None:
        service.create("ana", PASSWORD)
        with pytest.raises(AccountExists, match="'ana'"):
            service.create("ana", "another password", Role.ADMIN)
        assert service.get("ana").role is Role.PLAYER

    @pytest.mark.parametrize(
        ("name", "password", "role"),
        [
            ("", PASSWORD, "player"),
            ("-ana", PASSWORD, "player"),
            ("a" * 65, PASSWORD, "player"),
            ("ana bo", PASSWORD, "player"),
            ("ana", "short", "player"),
            ("ana", 12345678, "player"),
            ("ana", PASSWORD, "croupier"),
        ],
    )
    def test_bad_names_passwords_and_roles_are_refused(
        self, service: AccountService, name: str, password: str, role: str
    ) -> None:
        with pytest.raises(AccountError):
            service.create(name, password, role)
        with pytest.raises(UnknownAccount):
            service.get("ana")

    def test_login_opens_a_session_stored_only_as_a_digest(
        self, service: AccountService, store: AccountStore, clock: Clock
    ) -> None:
        service.create("ana", PASSWORD)
        login = service.login("ana", PASSWORD)
        assert len(login.token) >= 40 and login.expires_at == clock.now + service.session_ttl
        assert login.token not in repr(login)
        assert service.authenticate(login.token).username == "ana"
        record = store.get_session(token_digest(login.token))
        assert record is not None and record.username == "ana" and record.token_hash != login.token
        assert store.get_session(login.token) is None
        assert service.login("ana", PASSWORD).token != login.token

    def test_a_wrong_password_or_name_fails_the_same_way_and_is_counted(self, service: AccountService) -> None:
        service.create("ana", PASSWORD)
        with pytest.raises(LoginFailed, match="Wrong name or password"):
            service.login("ana", "wrong password")
        with pytest.raises(LoginFailed, match="Wrong name or password"):
            service.login("nobody", PASSWORD)
        with pytest.raises(LoginFailed):
            service.login("ana", None)  # type: ignore[arg-type]
        assert service.get("ana").failed_logins == 2
        service.login("ana", PASSWORD)
        assert service.get("ana").failed_logins == 0

    def test_too_many_failures_lock_the_account_for_a_while(self, service: AccountService, clock: Clock) -> None:
        service.create("ana", PASSWORD)
        for _ in range(3):
            with pytest.raises(LoginFailed):
                service.login("ana", "wrong password")
        user = service.get("ana")
        assert user.failed_logins == 3 and user.locked_until == clock.now + service.lockout
        with pytest.raises(AccountLocked, match="locked until"):
            service.login("ana", PASSWORD)
        assert service.get("ana").failed_logins == 3
        clock.advance(minutes=16)
        with pytest.raises(LoginFailed):  # one more failure after the lockout locks it again
            service.login("ana", "wrong password")
        with pytest.raises(AccountLocked):
            service.login("ana", PASSWORD)
        service.unlock("ana")
        service.login("ana", PASSWORD)
        assert service.get("ana").failed_logins == 0 and service.get("ana").locked_until is None

    def test_a_session_expires(self, service: AccountService, store: AccountStore, clock: Clock) -> None:
        service.create("ana", PASSWORD)
        early = service.login("ana", PASSWORD)
        clock.advance(hours=4)
        late = service.login("ana", PASSWORD)
        clock.advance(hours=4)
        with pytest.raises(InvalidSession, match="expired"):
            service.authenticate(early.token)
        assert store.get_session(token_digest(early.token)) is None
        assert service.authenticate(late.token).username == "ana"
        clock.advance(hours=4)
        assert service.purge_sessions() == 1
        with pytest.raises(InvalidSession, match="unknown"):
            service.authenticate(late.token)

    def test_logout_ends_the_session(self, service: AccountService) -> None:
        service.create("ana", PASSWORD)
        login = service.login("ana", PASSWORD)
        service.logout(login.token)
        service.logout(login.token)
        for token in (login.token, "made-up", ""):
            with pytest.raises(InvalidSession):
                service.authenticate(token)

    def test_roles_guard_what_a_session_may_do(self, service: AccountService) -> None:
        service.create("ana", PASSWORD, Role.PLAYER)
        service.create("root", PASSWORD, Role.ADMIN)
        player, admin = service.login("ana", PASSWORD).token, service.login("root", PASSWORD).token
        assert service.authenticate(admin, roles=[Role.ADMIN]).role is Role.ADMIN
        assert service.authenticate(player, roles=["player", "dealer"]).role is Role.PLAYER
        with pytest.raises(Forbidden, match="'ana' is a player; this needs the role admin"):
            service.authenticate(player, roles=[Role.ADMIN])
        service.set_role("ana", Role.ADMIN)
        assert service.authenticate(player, roles=[Role.ADMIN]).username == "ana"

    def test_a_new_password_ends_every_session(self, service: AccountService) -> None:
        service.create("ana", PASSWORD)
        login = service.login("ana", PASSWORD)
        service.set_password("ana", "a new password")
        with pytest.raises(InvalidSession):
            service.authenticate(login.token)
        with pytest.raises(LoginFailed):
            service.login("ana", PASSWORD)
        service.login("ana", "a new password")
        with pytest.raises(UnknownAccount):
            service.set_password("nobody", "a new password")

    def test_a_disabled_account_cannot_log_in(self, service: AccountService) -> None:
        service.create("ana", PASSWORD)
        login = service.login("ana", PASSWORD)
        service.set_active("ana", False)
        with pytest.raises(InvalidSession):
            service.authenticate(login.token)
        with pytest.raises(AccountLocked, match="disabled"):
            service.login("ana", PASSWORD)
        service.set_active("ana", True)
        service.login("ana", PASSWORD)

    def test_an_old_hash_is_upgraded_at_login(self, service: AccountService, store: AccountStore, clock: Clock) -> None:
        service.create("ana", PASSWORD)
        stronger = AccountService(store, hasher=PasswordHasher(time_cost=2, memory_cost=16, parallelism=1), clock=clock)
        old = service.get("ana").password_hash
        stronger.login("ana", PASSWORD)
        new = stronger.get("ana").password_hash
        assert new != old and "t=2" in new
        stronger.login("ana", PASSWORD)
        assert stronger.get("ana").password_hash == new
