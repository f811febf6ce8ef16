"""Random sequences of money commands on the in-memory ledger conserve money to the unit and keep every
invariant (see ledger_machine.py)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

from croupier.service.memory import MemoryLedgerStore
from service.ledger_machine import machine_for

Machine = machine_for(MemoryLedgerStore)
Machine.TestCase.settings = settings(
    max_examples=150, stateful_step_count=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
TestLedgerMachine = Machine.TestCase
