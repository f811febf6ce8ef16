"""Helpers for the ledger and accounts tests, shared by the in-memory and the SQL runs."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from argon2 import PasswordHasher

from croupier.service.accounts import PasswordPolicy
from croupier.service.ledger import Ledger

# argon2's cheapest parameters: the tests check the flow, not the cost.
CHEAP_HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
# The password rule of the tests that are not about passwords: 8 characters, no strength estimate.
TEST_POLICY = PasswordPolicy(min_length=8, min_score=None)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def snapshot(ledger: Ledger) -> tuple[Any, ...]:
    """Everything a refused command must leave as it was."""
    with ledger.store.transaction(write=False) as tx:
        balances = tx.balances()
        holds = sorted(tx.holds(), key=lambda h: (h.round_id, h.bet_ref))
        rounds = sorted(tx.rounds(), key=lambda r: r.round_id)
        return balances, tx.entries(), holds, rounds


def assert_refused(ledger: Ledger, action: Callable[[], object], error: type[Exception], rule: str | None) -> Exception:
    """``action`` raises ``error`` citing ``rule`` and changes nothing in the ledger."""
    before = snapshot(ledger)
    with pytest.raises(error) as info:
        action()
    if rule is not None:
        assert getattr(info.value, "rule", None) == rule, info.value
    assert snapshot(ledger) == before
    assert ledger.problems() == []
    return info.value
