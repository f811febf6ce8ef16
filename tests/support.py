"""Helpers shared by the roulette and sic bo test modules."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
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


def invoke(*args: str) -> Any:
    """Run ``croupier ARGS`` in-process."""
    from typer.testing import CliRunner

    from croupier import cli

    return CliRunner().invoke(cli.app, list(args))


def write(tmp_path: Path, name: str, text: str) -> Path:
    """A file ``name`` holding ``text`` under ``tmp_path``."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path
