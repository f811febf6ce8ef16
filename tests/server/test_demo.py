"""``make demo``'s server: ``croupier serve --demo`` seeds an admin, players with money and an RNG table of each
game, prints where to connect, and starts again on the same database without changing anything."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pgserver import free_port


def serve_demo(folder: Path) -> str:
    cmd = [sys.executable, "-c", "from croupier.cli import main; main()", "serve", "--demo", "--seconds", "2"]
    out = subprocess.run(
        [*cmd, "--port", str(free_port())], cwd=folder, capture_output=True, text=True, timeout=120, check=True
    )
    return out.stdout


def test_serve_demo_seeds_once_and_says_where_to_connect(tmp_path: Path) -> None:
    first = serve_demo(tmp_path)
    assert "croupier is serving on http://127.0.0.1:" in first
    assert "roulette-1, sicbo-1, blackjack-1" in first
    assert "admin / croupier-admin" in first
    assert (tmp_path / "data" / "croupier.sqlite3").exists()
    second = serve_demo(tmp_path)  # the same database: accounts, credits and tables are kept, not doubled
    assert "croupier is serving on" in second

    from croupier.server.services import open_services

    services = open_services(f"sqlite:///{tmp_path / 'data' / 'croupier.sqlite3'}")
    try:
        assert services.ledger.wallet("ana") == 100_000
        services.ledger.check()
    finally:
        services.close()
