"""Helpers shared by the roulette and sic bo test modules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from croupier.wagering import WagerRound


def snapshot(rnd: WagerRound[Any, Any]) -> tuple[Any, ...]:
    """Everything a refused action must leave as it was."""
    return (list(rnd.operations), rnd.bets, rnd.phase, rnd.voids, rnd.outcome, rnd.settlement)


def assert_refused(
    rnd: WagerRound[Any, Any],
    action: Callable[[], object],
    error: type[Exception],
    rule: str | None,
) -> Exception:
    """``action`` raises ``error`` citing ``rule`` and changes nothing."""
    before = snapshot(rnd)
    with pytest.raises(error) as info:
        action()
    if rule is not None:
        assert getattr(info.value, "rule", None) == rule, info.value
    assert snapshot(rnd) == before
    return info.value
