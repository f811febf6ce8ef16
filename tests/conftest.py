"""Shared test configuration. Being here puts ``tests/`` on the import path, so modules can use
``tests/support.py``."""

from __future__ import annotations

import pytest
from rich.console import Console

from croupier import cli


@pytest.fixture
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """Print the CLI's Rich output without wrapping, so every message can be searched as one line."""
    monkeypatch.setattr(cli, "console", Console(width=400, no_color=True))
    monkeypatch.setattr(cli, "err_console", Console(width=400, no_color=True, stderr=True))
