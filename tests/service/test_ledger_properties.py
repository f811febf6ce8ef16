"""Random sequences of money commands on the in-memory ledger conserve money to the unit and keep every
invariant (see ledger_machine.py)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from croupier.service.ledger import fingerprint
from croupier.service.memory import MemoryLedgerStore
from service.ledger_machine import machine_for

Machine = machine_for(MemoryLedgerStore)
Machine.TestCase.settings = settings(
    max_examples=150, stateful_step_count=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
TestLedgerMachine = Machine.TestCase


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@given(command=st.text(max_size=10), payload=st.dictionaries(st.text(max_size=8), JSON, max_size=5))
@example(command="bet", payload={"bet": {"type": "red", "amount": 10}, "table": "t1"})
@example(command="\x7f", payload={"k\x7f": "DEL"})  # json escapes DEL, orjson writes it as it is
@example(command="x", payload={"f": 1e16, "big": 10**30, "t": (1, "é"), "nested": {"b": [True, None]}})
def test_fingerprint_is_the_digest_of_the_sorted_compact_json(command: str, payload: dict[str, Any]) -> None:
    """The fast path (orjson) gives the very digest ``json`` gives, so keys stored before it still match."""
    text = json.dumps({"command": command, **payload}, sort_keys=True, separators=(",", ":"))
    assert fingerprint(command, payload) == hashlib.sha256(text.encode()).hexdigest()
