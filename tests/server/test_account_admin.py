"""The admins' acts on accounts (issue 13): unlock, disable, enable, a new password and a new role, over the API and
from the command line, each audited, never leaving no active admin; names in one canonical form at every route that
takes one; a query value the server cannot use is a 422 in the error shape, never a 500."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from croupier.cli import app as cli
from server.account_support import ADDRESS, GENEROUS, PASSWORD, AccountApp, account_app
from server.support import assert_error

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class Api:
    def __init__(self, a: AccountApp, client: TestClient) -> None:
        self.a, self.client = a, client
        self.tokens: dict[str, str] = {}

    def login(self, name: str, password: str = PASSWORD, address: str = "192.0.2.1") -> Any:
        body = {"username": name, "password": password}
        return self.client.post("/api/login", json=body, headers={ADDRESS: address})

    def as_(self, name: str) -> dict[str, str]:
        if name not in self.tokens:
            r = self.login(name)
            assert r.status_code == 200, r.text
            self.tokens[name] = r.json()["token"]
        return {"Authorization": f"Bearer {self.tokens[name]}"}

    def act(self, name: str, act: str, body: Any = None, *, by: str = "boss") -> Any:
        if act == "role":
            return self.client.put(f"/api/accounts/{name}/role", json=body, headers=self.as_(by))
        return self.client.post(f"/api/accounts/{name}/{act}", json=body, headers=self.as_(by))

    def audit(self, action: str) -> list[dict[str, Any]]:
        lines = self.client.get("/api/audit", headers=self.as_("boss")).json()
        return [line for line in lines if line["action"] == action]


@pytest.fixture
def api() -> Iterator[Api]:
    with account_app(GENEROUS) as a, TestClient(a.asgi) as client:
        yield Api(a, client)


def test_unlock_lifts_every_wait(api: Api) -> None:
    for _ in range(5):
        assert_error(api.login("ana", "guess-guess", address="203.0.113.5"), 401)
    assert_error(api.login("ana", address="203.0.113.5"), 429, "login_throttled")
    r = api.act("ANA", "unlock")
    assert r.status_code == 200, r.text
    assert r.json() == {
        "action": "unlock",
        "account": {"username": "ana", "role": "player", "active": True},
        "failures_forgotten": 1,
    }
    assert api.login("ana", address="203.0.113.5").status_code == 200
    [line] = api.audit("unlock")
    assert (line["actor"], line["detail"]) == ("boss", {"account": "ana", "failures_forgotten": 1})


def test_disable_ends_the_sessions_and_enable_lets_the_account_back(api: Api) -> None:
    ana = api.as_("ana")
    r = api.act("ana", "disable")
    assert r.status_code == 200, r.text
    assert r.json()["account"]["active"] is False and r.json()["sessions_ended"] == 1
    assert_error(api.client.get("/api/me", headers=ana), 401, "unauthenticated")
    assert_error(api.login("ana"), 423, "account_locked")
    assert_error(api.login("ana", "guess-guess"), 401, "login_failed")  # a wrong password says nothing more
    r = api.act("ana", "enable")
    assert r.status_code == 200 and r.json()["account"]["active"] is True, r.text
    assert api.login("ana").status_code == 200
    assert [(x["actor"], x["detail"]) for x in api.audit("disable")] == [
        ("boss", {"account": "ana", "sessions_ended": 1})
    ]
    assert [(x["actor"], x["detail"]) for x in api.audit("enable")] == [
        ("boss", {"account": "ana", "sessions_ended": 0})
    ]


def test_a_new_password(api: Api) -> None:
    ana = api.as_("ana")
    assert_error(api.act("ana", "password", {"password": "short"}), 422, "weak_password")
    r = api.act("ana", "password", {"password": "another-password-2"})
    assert r.status_code == 200, r.text
    assert r.json()["sessions_ended"] == 1 and r.json()["action"] == "reset_password"
    assert_error(api.client.get("/api/me", headers=ana), 401)
    assert_error(api.login("ana"), 401, "login_failed")
    assert api.login("ana", "another-password-2").status_code == 200
    [line] = api.audit("reset_password")
    assert line["detail"] == {"account": "ana", "sessions_ended": 1}
    assert "another-password-2" not in json.dumps(api.client.get("/api/audit", headers=api.as_("boss")).json())


def test_a_new_role_and_the_last_admin(api: Api) -> None:
    r = api.act("bo", "role", {"role": "dealer"})
    assert r.status_code == 200, r.text
    assert r.json() == {
        "action": "set_role",
        "account": {"username": "bo", "role": "dealer", "active": True},
        "role": "dealer",
        "was": "player",
    }
    assert_error(api.act("boss", "disable"), 409, "last_admin")
    assert_error(api.act("boss", "role", {"role": "player"}), 409, "last_admin")
    assert api.a.services.accounts.get("boss").active
    listed = api.client.get("/api/accounts", params={"role": "admin"}, headers=api.as_("boss"))
    assert listed.json() == [{"username": "boss", "role": "admin", "active": True}]
    assert [a["username"] for a in api.client.get("/api/accounts", headers=api.as_("boss")).json()] == [
        "ana",
        "bo",
        "boss",
        "dee",
    ]
    assert [x["detail"] for x in api.audit("set_role")] == [{"account": "bo", "role": "dealer", "was": "player"}]


@pytest.mark.parametrize("act", ["unlock", "disable", "enable", "password", "role"])
def test_only_admins_act_on_known_accounts(api: Api, act: str) -> None:
    body = {"password": "another-password-2"} if act == "password" else {"role": "player"} if act == "role" else None
    assert_error(api.act("bo", act, body, by="ana"), 403, "forbidden")
    assert_error(api.act("nobody", act, body), 404, "unknown_account")
    assert api.a.services.accounts.get("bo").active


def test_names_are_one_account_in_any_spelling(api: Api) -> None:
    boss = api.as_("boss")
    for name in ("Ana", "ANA"):
        body = {"username": name, "password": PASSWORD, "role": "player"}
        assert_error(api.client.post("/api/accounts", json=body, headers=boss), 409, "account_exists")
    r = api.client.post("/api/accounts", json={"username": "Zed", "password": PASSWORD}, headers=boss)
    assert r.status_code == 201 and r.json()["username"] == "zed", r.text
    again = {"username": "ZED", "password": PASSWORD}
    assert_error(api.client.post("/api/accounts", json=again, headers=boss), 409, "account_exists")
    # The wallet, a credit and a debit by any spelling of the name reach the one account.
    assert api.client.get("/api/accounts/ANA/wallet", headers=api.as_("ana")).json()["player"] == "ana"
    assert api.client.get("/api/accounts/Ana/wallet", headers=boss).json() == {
        "player": "ana",
        "balance": 1000,
        "held": 0,
    }
    assert_error(api.client.get("/api/accounts/ANA/wallet", headers=api.as_("bo")), 403, "forbidden")
    r = api.client.post("/api/accounts/ANA/credit", json={"amount": 5}, headers={**boss, "Idempotency-Key": "c1"})
    assert r.status_code == 200 and r.json()["player"] == "ana" and r.json()["wallet"] == 1005, r.text
    r = api.client.post("/api/accounts/Ana/debit", json={"amount": 5}, headers={**boss, "Idempotency-Key": "d1"})
    assert r.status_code == 200 and r.json()["wallet"] == 1000, r.text
    assert api.client.get("/api/wallet", headers=api.as_("ana")).json()["balance"] == 1000


@pytest.mark.parametrize(
    "since",
    ["2026-01-01T00:00:00", "2026-01-01", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00", "yesterday"],
)
def test_a_since_without_a_time_zone_or_out_of_range_is_a_422(api: Api, since: str) -> None:
    r = api.client.get("/api/audit", params={"since": since}, headers=api.as_("boss"))
    body = assert_error(r, 422, "invalid_request")
    assert "since" in body["detail"]


def test_a_since_with_a_time_zone(api: Api) -> None:
    boss = api.as_("boss")
    everything = api.client.get("/api/audit", params={"since": "2026-01-01T20:00:00+08:00"}, headers=boss)
    assert everything.status_code == 200 and any(x["action"] == "login" for x in everything.json())
    later = api.client.get("/api/audit", params={"since": "2026-01-01T12:00:01Z"}, headers=boss)  # the clock's noon
    assert later.status_code == 200 and later.json() == []


def test_bad_query_values_are_422s(api: Api) -> None:
    boss = api.as_("boss")
    assert_error(api.client.get("/api/accounts", params={"role": "king"}, headers=boss), 422, "invalid_request")
    assert_error(api.client.get("/api/me/rounds", params={"last": "10" * 40}, headers=boss), 422, "invalid_request")
    assert_error(api.client.get("/api/tables/x/rounds", params={"last": "-1"}, headers=boss), 422, "invalid_request")


# -- the command line ------------------------------------------------------------------------------------------------

STRONG = "violet harbor quilt lantern"


def croupier(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(cli, list(args), input=input)


def said(result: Any) -> str:
    """What a command printed (standard output and error), its lines joined."""
    return " ".join(result.output.split())


@pytest.fixture
def database(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'croupier.sqlite3'}"
    r = croupier("admin", "create-admin", "root", "--password", STRONG, "--database", url)
    assert r.exit_code == 0, r.output
    r = croupier("admin", "create-user", "Ana", "--password", STRONG, "--database", url)
    assert r.exit_code == 0, r.output
    return url


def on(url: str) -> Any:
    from croupier.server.compose import open_services

    return open_services(url)


def audit_lines(url: str, action: str) -> list[tuple[str, dict[str, Any]]]:
    services = on(url)
    try:
        return [(a.actor, a.detail) for a in services.casino.store.audit() if a.action == action]
    finally:
        services.close()


def test_the_command_line_unlocks_disables_enables_and_resets(database: str) -> None:
    from croupier.service.ledger import utc_now

    services = on(database)
    try:
        for _ in range(6):
            services.accounts.store.add_failure("ana", "203.0.113.5", utc_now(), since=utc_now().replace(year=2000))
        assert services.accounts.retry_after("ana", "203.0.113.5") > 0
    finally:
        services.close()

    r = croupier("admin", "unlock", "ANA", "--database", database)
    assert r.exit_code == 0 and "Unlocked ana" in said(r), r.output
    r = croupier("admin", "disable", "ana", "--database", database)
    assert r.exit_code == 0 and "Disabled ana" in said(r), r.output
    services = on(database)
    try:
        assert services.accounts.retry_after("ana", "203.0.113.5") == 0
        assert not services.accounts.get("ana").active
    finally:
        services.close()
    r = croupier("admin", "enable", "ana", "--database", database)
    assert r.exit_code == 0 and "Enabled ana" in said(r), r.output

    new = "copper meadow violin sunrise"
    r = croupier("admin", "reset-password", "ana", "--database", database, input=f"{new}\n")
    assert r.exit_code == 0 and "New password for ana" in said(r), r.output
    r = croupier("admin", "reset-password", "ana", "--database", database, input="password1\n")
    assert r.exit_code == 2 and "at least 12 characters" in said(r), r.output
    r = croupier("admin", "reset-password", "ana", "--password", new, "--database", database)
    assert r.exit_code == 2  # never from the command line's arguments

    services = on(database)
    try:
        assert services.accounts.login("ana", new).user.username == "ana"
    finally:
        services.close()
    for action, detail in [
        ("unlock", {"account": "ana", "failures_forgotten": 1}),
        ("disable", {"account": "ana", "sessions_ended": 0}),
        ("enable", {"account": "ana", "sessions_ended": 0}),
        ("reset_password", {"account": "ana", "sessions_ended": 0}),
    ]:
        [(actor, logged)] = audit_lines(database, action)
        assert actor.startswith("cli:") and logged == detail, (action, actor, logged)


def test_the_command_line_never_disables_or_demotes_the_last_admin(database: str) -> None:
    for args in (("disable", "root"), ("set-role", "ROOT", "player")):
        r = croupier("admin", *args, "--database", database)
        assert r.exit_code == 2, r.output
        assert "Refused" in said(r) and "last active admin" in said(r), r.output
    services = on(database)
    try:
        root = services.accounts.get("root")
        assert root.active and root.role.value == "admin"
    finally:
        services.close()
    assert audit_lines(database, "disable") == [] and audit_lines(database, "set_role") == []
    r = croupier("admin", "set-role", "ana", "admin", "--database", database)
    assert r.exit_code == 0, r.output
    r = croupier("admin", "disable", "root", "--database", database)  # another admin now: allowed
    assert r.exit_code == 0, r.output
