"""Logins cannot starve play (issue 13): the password checks run on a small pool of their own behind a cap, the
door throttles per address, per name (a name no account has included) and in all, an unknown name and a wrong
password get one answer, and the account layer's backoff is per address: the owner logs in from another.

In process, through the real app. A flood is made deterministic by holding the password checks (the hasher waits
until the test releases it): what is answered while they are held is counted, never timed."""

from __future__ import annotations

import asyncio
import secrets
import uuid
from collections import Counter
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from croupier.server.logins import LOGINS, LoginLimits, housekeeping
from croupier.server.ratelimit import Limit
from server.account_support import ADDRESS, GENEROUS, PASSWORD, AccountApp, account_app
from server.support import assert_error

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

FLOOD = 200
SAFETY = 60.0
"""Only how long a test waits before it fails: nothing is timed."""


def login(client: Any, name: str, password: str = PASSWORD, *, address: str = "192.0.2.1") -> Any:
    return client.post("/api/login", json={"username": name, "password": password}, headers={ADDRESS: address})


async def until(condition: Any, what: str) -> None:
    """Wait (on the event loop) until ``condition()``; fail after :data:`SAFETY` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SAFETY
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"still waiting for {what}")
        await asyncio.sleep(0.01)


def test_a_login_flood_is_refused_at_once_while_play_goes_on() -> None:
    """200 concurrent logins with made-up names from 200 addresses: while the password checks are held, exactly
    the cap's 2 are admitted and checked at once, the other 198 are answered 429 with Retry-After, and a bet, the
    health check and a wallet are answered; released, the 2 answer 401, and the owner logs in."""

    async def scenario(a: AccountApp) -> None:
        async with a.app.router.lifespan_context(a.app):
            transport = httpx.ASGITransport(app=a.asgi)
            async with httpx.AsyncClient(transport=transport, base_url="http://croupier") as client:
                token = (await login(client, "ana")).json()["token"]
                ana = {"Authorization": f"Bearer {token}"}
                boss = {"Authorization": f"Bearer {(await login(client, 'boss')).json()['token']}"}
                table = {"table_id": "r1", "game": "roulette", "betting_seconds": 10}
                assert (await client.post("/api/tables", json=table, headers=boss)).status_code == 201

                a.hasher.hold()
                flood = [
                    asyncio.create_task(
                        login(
                            client,
                            f"nobody-{secrets.token_hex(6)}",
                            "guess-guess",
                            address=f"10.0.{i // 250}.{i % 250}",
                        )
                    )
                    for i in range(FLOOD)
                ]
                answered = lambda: sum(t.done() for t in flood)  # noqa: E731
                await until(
                    lambda: answered() == FLOOD - LOGINS.cap and a.hasher.running == LOGINS.workers, "the flood"
                )
                # The checks are still held: whatever is answered now did not wait for them.
                health = await client.get("/api/health")
                bet = await client.post(
                    "/api/tables/r1/bets",
                    json={"type": "red", "amount": 10},
                    headers={**ana, "Idempotency-Key": uuid.uuid4().hex},
                )
                wallet = await client.get("/api/wallet", headers=ana)
                assert answered() == FLOOD - LOGINS.cap and a.gate.checking == LOGINS.cap
                assert health.status_code == 200 and bet.status_code == 201, bet.text
                assert wallet.json() == {"player": "ana", "balance": 990, "held": 10}
                refused = [t.result() for t in flood if t.done()]
                for r in refused:
                    assert_error(r, 429, "rate_limited")
                    assert r.headers["Retry-After"] == "1"

                a.hasher.release()
                answers = await asyncio.gather(*flood)
                assert Counter(r.status_code for r in answers) == {429: FLOOD - LOGINS.cap, 401: LOGINS.cap}
                assert a.hasher.calls == LOGINS.cap + 2 and a.hasher.most == LOGINS.workers
                assert (await login(client, "ana", address="192.0.2.7")).status_code == 200
                audit = (await client.get("/api/audit", headers=boss)).json()
                assert sum(line["action"] == "login_failed" for line in audit) == LOGINS.cap  # refused unheard: none

    with account_app() as a:
        asyncio.run(scenario(a))


def test_one_address_is_throttled_whatever_names_it_tries() -> None:
    limits = LoginLimits(per_address=Limit(burst=5, per_second=0.5), per_name=GENEROUS.per_name)
    with account_app(limits) as a, TestClient(a.asgi) as client:
        for i in range(5):
            assert_error(login(client, f"made-up-{i}", "guess-guess", address="203.0.113.9"), 401, "login_failed")
        r = login(client, "made-up-5", "guess-guess", address="203.0.113.9")
        assert_error(r, 429, "rate_limited")
        assert r.headers["Retry-After"] == "2"  # one token at 0.5/s
        assert a.hasher.calls == 5  # refused unheard
        assert login(client, "ana", address="203.0.113.10").status_code == 200  # another address
        a.buckets.now += 2.0
        assert login(client, "ana", address="203.0.113.9").status_code == 200


def test_the_name_throttle_counts_names_no_account_has() -> None:
    limits = LoginLimits(per_address=GENEROUS.per_address, per_name=Limit(burst=3, per_second=0.1))
    with account_app(limits) as a, TestClient(a.asgi) as client:
        for name in ("ghost", "ana"):
            for i in range(3):
                assert_error(login(client, name, "guess-guess", address=f"198.51.100.{i}"), 401, "login_failed")
            r = login(client, name.upper(), "guess-guess", address="198.51.100.99")  # any spelling of the name
            assert_error(r, 429, "rate_limited")
            assert r.headers["Retry-After"] == "10"
        assert login(client, "bo", address="198.51.100.99").status_code == 200


def test_the_server_throttles_failed_logins_in_all_and_a_success_costs_nothing() -> None:
    limits = LoginLimits(per_address=GENEROUS.per_address, per_name=GENEROUS.per_name, overall=Limit(4, 2))
    with account_app(limits) as a, TestClient(a.asgi) as client:
        for _ in range(10):  # successes give their tokens back
            assert login(client, "ana", address="192.0.2.50").status_code == 200
        for i in range(4):
            assert_error(login(client, f"x{i}", "guess-guess", address=f"192.0.2.{i}"), 401)
        assert_error(login(client, "ana", address="192.0.2.60"), 429, "rate_limited")
        a.buckets.now += 0.5
        assert login(client, "ana", address="192.0.2.60").status_code == 200


def test_an_unknown_name_and_a_wrong_password_answer_alike() -> None:
    """Same status, body (but for the name typed), headers and audit line, and the same backoff: 401 five times,
    then 429 ``login_throttled`` with Retry-After (the account layer's, per name and address)."""
    with account_app(GENEROUS) as a, TestClient(a.asgi) as client:

        def attempt(name: str) -> tuple[int, dict[str, Any], dict[str, str]]:
            r = login(client, name, "not-the-password", address="192.0.2.77")
            body = {k: (v.replace(name, "NAME") if isinstance(v, str) else v) for k, v in r.json().items()}
            headers = {k: v for k, v in r.headers.items() if k not in ("date",)}
            return r.status_code, body, headers

        for _ in range(5):
            taken, free = attempt("ana"), attempt("zoe")
            assert taken == free and taken[0] == 401 and taken[1]["error"] == "login_failed"
            assert taken[2]["www-authenticate"] == "Bearer"
        taken, free = attempt("ana"), attempt("zoe")
        assert taken == free and taken[0] == 429 and taken[1]["error"] == "login_throttled", taken
        assert int(taken[2]["retry-after"]) == 30
        boss = {"Authorization": f"Bearer {login(client, 'boss').json()['token']}"}
        lines = [line for line in client.get("/api/audit", headers=boss).json() if line["action"] == "login_failed"]
        by_name = {
            n: [(x["detail"]["reason"], x["detail"]["address"]) for x in lines if x["actor"] == n]
            for n in ("ana", "zoe")
        }
        assert (
            by_name["ana"]
            == by_name["zoe"]
            == [("login_failed", "192.0.2.77")] * 5 + [("login_throttled", "192.0.2.77")]
        )


def test_the_backoff_is_per_address_and_never_locks_the_owner_out() -> None:
    with account_app(GENEROUS) as a, TestClient(a.asgi) as client:
        for _ in range(5):
            assert_error(login(client, "ana", "guess-guess", address="203.0.113.66"), 401, "login_failed")
        r = login(client, "ana", address="203.0.113.66")  # even the right password: not heard from there
        assert_error(r, 429, "login_throttled")
        assert r.headers["Retry-After"] == "30"
        owner = login(client, "Ana", address="192.0.2.10")  # the owner, from elsewhere, in any spelling
        assert owner.status_code == 200 and owner.json()["username"] == "ana"
        a.clock.advance(seconds=30)
        assert login(client, "ana", address="203.0.113.66").status_code == 200


def test_housekeeping_forgets_expired_sessions_and_old_failures() -> None:
    with account_app(GENEROUS) as a:
        accounts = a.services.accounts
        accounts.login("ana", PASSWORD)
        with pytest.raises(Exception, match="Wrong name or password"):
            accounts.login("ana", "guess-guess", address="192.0.2.1")
        a.clock.advance(days=2)
        store: Any = accounts.store

        async def run() -> None:
            task = asyncio.create_task(housekeeping(accounts, every=0.01))
            try:
                await until(lambda: not store.sessions and not store.failures, "the housekeeping")
            finally:
                task.cancel()

        assert store.sessions and store.failures
        asyncio.run(run())
