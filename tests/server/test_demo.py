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
    assert "dealer / croupier-dealer" in first
    assert "live tables: roulette-live-1, sicbo-live-1, blackjack-live-1" in first
    assert (tmp_path / "data" / "croupier.sqlite3").exists()
    second = serve_demo(tmp_path)  # the same database: accounts, credits and tables are kept, not doubled
    assert "croupier is serving on" in second

    from croupier.server.compose import open_services

    services = open_services(f"sqlite:///{tmp_path / 'data' / 'croupier.sqlite3'}")
    try:
        assert services.ledger.wallet("ana") == 100_000
        assert services.accounts.get("dealer").role.value == "dealer"
        tables = {t.table_id: t for t in services.casino.store.tables()}
        assert len(tables) == 6  # three RNG and three live tables, not doubled
        assert all(tables[f"{game}-live-1"].live for game in ("roulette", "sicbo", "blackjack"))
        assert not tables["roulette-1"].live
        services.ledger.check()
    finally:
        services.close()
