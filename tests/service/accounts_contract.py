"""The accounts' rules, as a suite run on every store (in memory here, SQLite and PostgreSQL in tests/storage).
A subclass provides the ``store`` fixture."""

from __future__ import annotations

from typing import Any

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
    LastAdmin,
    LoginFailed,
    LoginThrottled,
    PasswordPolicy,
    Role,
    UnknownAccount,
    WeakPassword,
    address_key,
    token_digest,
)
from service.support import CHEAP_HASHER, TEST_POLICY, Clock

PASSWORD = "violet harbor quilt"
NEW_PASSWORD = "a new quilted harbor"
HOME, AWAY = "203.0.113.7", "198.51.100.9"
# The demo's accounts (croupier.server.demo), whose passwords everyone knows.
DEMO = {"admin": "croupier-admin", "dealer": "croupier-dealer", "ana": "croupier-ana", "bo": "croupier-bo"}


class CountingHasher(PasswordHasher):
    """The cheap hasher, counting the hashes it checks."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.verified = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        self.verified += 1
        return super().verify(hash, password)


def failing(service: AccountService, name: str, address: str | None = HOME, *, times: int = 1) -> None:
    """``times`` logins to ``name`` with a wrong password, each answered ``LoginFailed`` (not throttled)."""
    for _ in range(times):
        with pytest.raises(LoginFailed) as info:
            service.login(name, "a wrong password", address=address)
        assert type(info.value) is LoginFailed


def throttled(service: AccountService, name: str, password: str = PASSWORD, address: str | None = HOME) -> int:
    """The wait a login to ``name`` from ``address`` is refused with."""
    with pytest.raises(LoginThrottled) as info:
        service.login(name, password, address=address)
    assert info.value.kind == "login_throttled" and isinstance(info.value, LoginFailed)
    assert f"try again in {info.value.retry_after} seconds" in info.value.message
    return info.value.retry_after


class AccountsContract:
    """Every rule of :mod:`croupier.service.accounts`."""

    @pytest.fixture
    def clock(self) -> Clock:
        return Clock()

    @pytest.fixture
    def service(self, store: AccountStore, clock: Clock) -> AccountService:
        return AccountService(store, hasher=CHEAP_HASHER, clock=clock, throttle_after=3)

    def test_create_stores_an_argon2_hash_never_the_password(self, service: AccountService, clock: Clock) -> None:
        user = service.create("ana", PASSWORD, Role.ADMIN)
        stored = service.get("ana")
        assert stored == user and stored.role is Role.ADMIN and stored.active and stored.created_at == clock.now
        assert stored.password_hash.startswith("$argon2id$") and PASSWORD not in stored.password_hash
        assert PASSWORD not in repr(stored)
        assert service.create("bo", PASSWORD, "dealer").role is Role.DEALER
        assert service.create("cy", PASSWORD).role is Role.PLAYER
        assert [u.username for u in service.users()] == ["ana", "bo", "cy"]
        assert [u.username for u in service.users("dealer")] == ["bo"]

    def test_a_name_is_taken_once(self, service: AccountService) -> None:
        service.create("ana", PASSWORD)
        with pytest.raises(AccountExists, match="'ana'"):
            service.create("ana", "another violet harbor", Role.ADMIN)
        assert service.get("ana").role is Role.PLAYER

    @pytest.mark.parametrize("spelling", ["Ana", "ANA", "aNa", "ＡＮＡ", "ａｎａ"])
    def test_a_name_has_one_canonical_form_whatever_its_case_or_width(
        self, service: AccountService, store: AccountStore, spelling: str
    ) -> None:
        assert service.create(spelling, PASSWORD).username == "ana"
        assert store.get_user("ana") is not None and store.get_user(spelling) is None
        for other in ("ana", "Ana", "ANA", "ａｎａ"):
            with pytest.raises(AccountExists, match="'ana'"):
                service.create(other, PASSWORD)
        assert service.get("aNA").username == "ana"
        login = service.login("ANA", PASSWORD)
        assert login.user.username == "ana" and service.authenticate(login.token).username == "ana"
        record = store.get_session(token_digest(login.token))
        assert record is not None and record.username == "ana"
        assert [u.username for u in service.users()] == ["ana"]

    def test_names_folding_to_the_same_letters_are_one_account(self, service: AccountService) -> None:
        service.create("ﬁona", PASSWORD)  # the "fi" ligature is two letters in NFKC
        assert service.get("FIONA").username == "fiona"
        service.create("\u212aelvin", PASSWORD)  # the Kelvin sign, a K in NFKC
        assert service.get("kelvin").username == "kelvin"
        with pytest.raises(AccountExists):
            service.create("KELVIN", PASSWORD)

    @pytest.mark.parametrize(
        ("name", "password", "role"),
        [
            ("", PASSWORD, "player"),
            ("-ana", PASSWORD, "player"),
            ("a" * 65, PASSWORD, "player"),
            ("ana bo", PASSWORD, "player"),
            ("аna", PASSWORD, "player"),  # a Cyrillic а: a look-alike of "ana", not a letter of the name's alphabet
            ("ana\u0301", PASSWORD, "player"),
            (None, PASSWORD, "player"),
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
        assert service.users() == []

    @pytest.mark.parametrize(
        ("password", "rule"),
        [
            ("violet-9", "at least 12 characters; this one has 8"),
            ("ana-password-1", "too easy to guess"),  # the name, a common word, a digit
            ("ANA-PASSWORD-1", "too easy to guess"),
            ("password1234", "too easy to guess: its strength is 1 of 4"),
            ("croupier-admin", "too easy to guess"),  # the site's words
            ("aaaaaaaaaaaaaaaaaaaa", "too easy to guess"),
            ("ana" * 30, "too easy to guess"),  # zxcvbn reads the first 72 characters
            ("x" * 1025, "at most 1024 characters"),
        ],
    )
    def test_a_password_must_be_long_and_hard_to_guess(self, service: AccountService, password: str, rule: str) -> None:
        with pytest.raises(WeakPassword, match=rule) as info:
            service.create("ana", password, Role.ADMIN)
        assert info.value.kind == "weak_password" and isinstance(info.value, AccountError)
        with pytest.raises(UnknownAccount):
            service.get("ana")

    def test_the_policy_is_the_services_and_may_be_eased_for_one_account(
        self, store: AccountStore, clock: Clock
    ) -> None:
        strict = AccountService(store, hasher=CHEAP_HASHER, clock=clock)
        with pytest.raises(WeakPassword):
            strict.create("ana", "password1")
        strict.create("ana", "password1", policy=TEST_POLICY)
        strict.login("ana", "password1")
        with pytest.raises(WeakPassword):
            strict.reset_password("ana", "password2")
        eased = AccountService(store, hasher=CHEAP_HASHER, clock=clock, policy=PasswordPolicy(min_score=3))
        eased.create("bo", "bo-password-1")
        with pytest.raises(WeakPassword, match="at least 12 characters"):
            eased.create("cy", "cy-pass-1")

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

    def test_a_wrong_password_and_a_free_name_fail_alike_and_are_counted(
        self, service: AccountService, store: AccountStore
    ) -> None:
        service.create("ana", PASSWORD)
        answers = []
        for name in ("ana", "nobody"):
            with pytest.raises(LoginFailed) as info:
                service.login(name, "a wrong password", address=HOME)
            answers.append((type(info.value), info.value.kind, info.value.message.replace(name, "?")))
        assert answers[0] == answers[1] == (LoginFailed, "login_failed", "Wrong name or password for '?'.")
        with pytest.raises(LoginFailed):
            service.login("ana", None, address=AWAY)  # type: ignore[arg-type]
        with pytest.raises(LoginFailed):
            service.login("ana", "x" * 2000, address=AWAY)
        with pytest.raises(LoginFailed):
            service.login("not a name!", PASSWORD, address=AWAY)  # no account can have it: nothing to count
        for name, address, count in (("ana", HOME, 1), ("nobody", HOME, 1), ("ana", AWAY, 2)):
            failures = store.get_failures(name, address)
            assert failures is not None and failures.count == count
        service.login("ANA", PASSWORD, address=HOME)  # forgets the failures from there only
        assert store.get_failures("ana", HOME) is None and store.get_failures("ana", AWAY) is not None

    def test_a_free_name_costs_one_hash_check_as_a_taken_one_does(self, store: AccountStore, clock: Clock) -> None:
        hasher = CountingHasher()
        service = AccountService(store, hasher=hasher, clock=clock)
        service.create("ana", PASSWORD)
        for name in ("ana", "nobody", "Not A Name!"):
            before = hasher.verified
            with pytest.raises(LoginFailed):
                service.login(name, "a wrong password")
            assert hasher.verified == before + 1, name

    def test_failures_from_one_address_back_off_that_address_only(self, service: AccountService, clock: Clock) -> None:
        service.create("ana", PASSWORD)
        failing(service, "ana", times=3)
        assert throttled(service, "ana") == 30  # the right password waits too: it is not even checked
        assert service.retry_after("ANA", HOME) == 30 and service.retry_after("ana", AWAY) == 0
        away = service.login("ana", PASSWORD, address=AWAY)  # the owner, elsewhere, is not affected
        assert service.authenticate(away.token).username == "ana"
        clock.advance(seconds=10)
        assert throttled(service, "Ana") == 20
        clock.advance(seconds=20)
        failing(service, "ana")
        assert throttled(service, "ana") == 60  # each failure after the wait doubles it
        clock.advance(seconds=60)
        failing(service, "ana")
        assert throttled(service, "ana") == 120
        clock.advance(seconds=120)
        service.login("ana", PASSWORD, address=HOME)  # a success forgets the address's failures
        failing(service, "ana", times=3)
        assert throttled(service, "ana") == 30

    def test_the_backoff_is_capped_and_forgotten_after_a_day(self, store: AccountStore, clock: Clock) -> None:
        service = AccountService(store, hasher=CHEAP_HASHER, clock=clock, throttle_after=1)
        service.create("ana", PASSWORD)
        waits = []
        for _ in range(10):
            failing(service, "ana")
            waits.append(throttled(service, "ana"))
            clock.advance(seconds=waits[-1])
        assert waits == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]
        failing(service, "ana")
        clock.advance(days=1)
        failing(service, "ana")
        assert throttled(service, "ana") == 3600
        clock.advance(days=1, seconds=1)
        failing(service, "ana")  # more than a day after the last failure, the count starts again
        assert throttled(service, "ana") == 30
        failing(service, "ana", address=AWAY)
        assert service.purge_failures() == 0
        clock.advance(days=1, seconds=1)
        assert service.purge_failures() == 2 and store.get_failures("ana", HOME) is None

    def test_a_free_name_backs_off_exactly_like_a_taken_one(self, service: AccountService, clock: Clock) -> None:
        service.create("ana", PASSWORD)
        seen: dict[str, list[Any]] = {}
        for name in ("ana", "nobody"):
            waits: list[Any] = []
            for _ in range(3):
                failing(service, name)
                waits.append(service.retry_after(name, HOME))
            waits.append(throttled(service, name, "a wrong password"))
            clock.advance(seconds=30)
            failing(service, name)
            waits.append(throttled(service, name, "a wrong password"))
            seen[name] = waits
            clock.advance(days=2)
        assert seen["ana"] == seen["nobody"] == [0, 0, 30, 30, 60]

    def test_addresses_are_counted_by_client(self, service: AccountService) -> None:
        assert address_key("203.0.113.7") == "203.0.113.7"
        assert address_key("2001:db8:1:2:aaaa::1") == address_key("[2001:db8:1:2:ffff::9]") == "2001:db8:1:2::/64"
        assert address_key("::ffff:203.0.113.7") == "203.0.113.7"
        assert address_key(None) == address_key("") == "-"
        assert address_key("testclient") == "testclient" and len(address_key("h" * 500)) == 64
        service.create("ana", PASSWORD)
        failing(service, "ana", "2001:db8:1:2::1", times=3)
        throttled(service, "ana", address="2001:db8:1:2::ab:cd")  # another address of the same /64
        service.login("ana", PASSWORD, address="2001:db8:1:3::1")
        failing(service, "ana", None, times=3)
        throttled(service, "ana", address=None)

    def test_unlock_lifts_every_wait(self, service: AccountService, store: AccountStore) -> None:
        service.create("ana", PASSWORD)
        for address in (HOME, AWAY):
            failing(service, "ana", address, times=3)
            throttled(service, "ana", address=address)
        failing(service, "bo", times=3)
        change = service.unlock("ANA")
        assert change.action == "unlock" and change.user.username == "ana"
        assert change.audit() == {"account": "ana", "failures_forgotten": 2}
        service.login("ana", PASSWORD, address=HOME)
        service.login("ana", PASSWORD, address=AWAY)
        throttled(service, "bo")
        with pytest.raises(UnknownAccount):
            service.unlock("bo")

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
        change = service.set_role("Ana", Role.ADMIN)
        assert change.action == "set_role" and change.audit() == {"account": "ana", "role": "admin", "was": "player"}
        assert service.authenticate(player, roles=[Role.ADMIN]).username == "ana"

    def test_a_reset_password_ends_every_session(self, service: AccountService) -> None:
        service.create("ana", PASSWORD)
        login = service.login("ana", PASSWORD)
        service.login("ana", PASSWORD)
        with pytest.raises(WeakPassword):
            service.reset_password("ana", "ana-password-2")
        service.authenticate(login.token)
        change = service.reset_password("ANA", NEW_PASSWORD)
        assert change.action == "reset_password" and change.audit() == {"account": "ana", "sessions_ended": 2}
        with pytest.raises(InvalidSession):
            service.authenticate(login.token)
        with pytest.raises(LoginFailed):
            service.login("ana", PASSWORD)
        service.login("ana", NEW_PASSWORD)
        with pytest.raises(UnknownAccount):
            service.reset_password("nobody", NEW_PASSWORD)

    def test_a_disabled_account_cannot_log_in(self, service: AccountService) -> None:
        service.create("ana", PASSWORD)
        login = service.login("ana", PASSWORD)
        change = service.set_active("Ana", False)
        assert change.action == "disable" and not change.user.active
        assert change.audit() == {"account": "ana", "sessions_ended": 1}
        with pytest.raises(InvalidSession):
            service.authenticate(login.token)
        failing(service, "ana")  # a wrong password answers as for any account
        with pytest.raises(AccountLocked, match="disabled"):
            service.login("ana", PASSWORD)
        change = service.set_active("ana", True)
        assert change.action == "enable" and change.user.active and change.audit()["sessions_ended"] == 0
        service.login("ana", PASSWORD)

    def test_the_last_active_admin_is_never_disabled_or_demoted(self, service: AccountService) -> None:
        service.create("root", PASSWORD, Role.ADMIN)
        service.create("ana", PASSWORD)
        session = service.login("root", PASSWORD)
        for act in (lambda: service.set_active("root", False), lambda: service.set_role("root", Role.DEALER)):
            with pytest.raises(LastAdmin, match="'root' is the last active admin"):
                act()
            assert service.get("root").active and service.get("root").role is Role.ADMIN
        assert service.authenticate(session.token, roles=[Role.ADMIN]).username == "root"
        service.set_active("ana", False)  # not an admin: no matter
        service.create("boss", PASSWORD, Role.ADMIN)
        service.set_active("boss", False)  # a disabled admin does not count
        with pytest.raises(LastAdmin):
            service.set_role("root", Role.PLAYER)
        service.set_active("boss", True)
        service.set_role("root", Role.PLAYER)
        with pytest.raises(LastAdmin):
            service.set_active("boss", False)
        service.set_active("boss", True)  # enabling is always allowed

    def test_known_passwords_are_found(self, service: AccountService) -> None:
        service.create("admin", DEMO["admin"], Role.ADMIN, policy=TEST_POLICY)
        service.create("ana", DEMO["ana"], policy=TEST_POLICY)
        service.create("bo", PASSWORD)
        assert service.accounts_with_passwords(DEMO) == ["admin", "ana"]
        assert service.accounts_with_passwords({"ADMIN": DEMO["admin"], "ghost": "x", "no name!": "y"}) == ["admin"]
        service.set_active("ana", False)  # disabled, but one act away from a known password
        assert service.accounts_with_passwords(DEMO) == ["admin", "ana"]
        service.reset_password("admin", NEW_PASSWORD)
        service.reset_password("ana", NEW_PASSWORD)
        assert service.accounts_with_passwords(DEMO) == []

    def test_an_old_hash_is_upgraded_at_login(self, service: AccountService, store: AccountStore, clock: Clock) -> None:
        service.create("ana", PASSWORD)
        stronger = AccountService(store, hasher=PasswordHasher(time_cost=2, memory_cost=16, parallelism=1), clock=clock)
        old = service.get("ana").password_hash
        stronger.login("ana", PASSWORD)
        new = stronger.get("ana").password_hash
        assert new != old and "t=2" in new
        stronger.login("ana", PASSWORD)
        assert stronger.get("ana").password_hash == new
