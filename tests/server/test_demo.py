"""``make demo``'s server: ``croupier serve --demo`` seeds an admin, players with money and an RNG table of each
game on a database of its own, prints where to connect, and starts again on the same database without changing
anything; ``croupier serve`` never opens the demo's database, and refuses to start on a database whose accounts
still have the demo's published passwords unless told otherwise."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pgserver import free_port

SERVE = [sys.executable, "-c", "from croupier.cli import main; main()", "serve"]


def serve_demo(folder: Path) -> str:
    cmd = [*SERVE, "--demo", "--seconds", "2"]
    out = subprocess.run(
        [*cmd, "--port", str(free_port())], cwd=folder, capture_output=True, text=True, timeout=120, check=True
    )
    return out.stdout


def serve(folder: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``croupier serve`` (its casino on a thread: quicker to start) for a second, in ``folder``."""
    cmd = [*SERVE, "--casino-thread", "--seconds", "1", "--port", str(free_port()), *options]
    return subprocess.run(cmd, cwd=folder, capture_output=True, text=True, timeout=120, check=False)


def test_serve_demo_seeds_once_and_says_where_to_connect(tmp_path: Path) -> None:
    first = serve_demo(tmp_path)
    assert "croupier is serving on http://127.0.0.1:" in first
    assert "roulette-1, sicbo-1, blackjack-1" in first
    assert "admin / croupier-admin" in first
    assert "dealer / croupier-dealer" in first
    assert "live tables: roulette-live-1, sicbo-live-1, blackjack-live-1" in first
    assert (tmp_path / "data" / "croupier-demo.sqlite3").exists()
    assert not (tmp_path / "data" / "croupier.sqlite3").exists()  # the demo's accounts never in the default file
    second = serve_demo(tmp_path)  # the same database: accounts, credits and tables are kept, not doubled
    assert "croupier is serving on" in second

    from croupier.server.compose import open_services

    services = open_services(f"sqlite:///{tmp_path / 'data' / 'croupier-demo.sqlite3'}")
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


def test_serve_never_opens_the_demos_database(tmp_path: Path) -> None:
    serve_demo(tmp_path)
    started = serve(tmp_path)
    assert started.returncode == 0, started.stdout + started.stderr

    from croupier.server.compose import open_services

    services = open_services(f"sqlite:///{tmp_path / 'data' / 'croupier.sqlite3'}")
    try:
        assert services.accounts.users() == []  # a database of its own, without the demo's accounts
    finally:
        services.close()


def test_serve_refuses_a_database_whose_accounts_have_the_demos_passwords(tmp_path: Path) -> None:
    from croupier.server import demo
    from croupier.server.compose import open_services

    url = f"sqlite:///{tmp_path / 'production.sqlite3'}"
    services = open_services(url)
    try:
        services.accounts.create("admin", demo.ADMIN[1], "admin", policy=demo.DEMO_POLICY)
        services.accounts.create("Bo", demo.PASSWORDS["bo"], policy=demo.DEMO_POLICY)
        services.accounts.create("cy", "violet harbor quilt lantern")  # not the demo's password: not named
    finally:
        services.close()

    refused = serve(tmp_path, "--database", url)
    said = " ".join((refused.stdout + refused.stderr).split())
    assert refused.returncode == 2, said
    assert "the account(s) admin, bo on this database still have the demo's published passwords" in said
    assert "--allow-demo-passwords" in said and "croupier is serving" not in said

    allowed = serve(tmp_path, "--database", url, "--allow-demo-passwords")
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr

    services = open_services(url)
    try:
        services.accounts.reset_password("admin", "copper meadow violin sunrise")
        services.accounts.reset_password("bo", "amber tundra piano orchard")
    finally:
        services.close()
    started = serve(tmp_path, "--database", url)
    assert started.returncode == 0, started.stdout + started.stderr
