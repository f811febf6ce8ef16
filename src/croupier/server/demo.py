"""The demo a new user gets from ``make demo`` (``croupier serve --demo``): an admin, three players with money and
an RNG table of each game, created once on the database and reused when the demo starts again."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from functools import partial
from typing import Any

from croupier.server.services import Services
from croupier.service.accounts import AccountExists, Role
from croupier.service.casino_records import TableExists

ADMIN = ("admin", "croupier-admin")
PLAYERS = (("ana", "croupier-ana"), ("bo", "croupier-bo"), ("cy", "croupier-cy"))
CREDIT = 100_000
TABLES = (
    ("roulette-1", "roulette", None),
    ("sicbo-1", "sicbo", None),
    ("blackjack-1", "blackjack", {"preset": "macau-typical"}),
)


@dataclass(frozen=True)
class DemoAccounts:
    """Who can log in to the demo, with what."""

    admin: tuple[str, str]
    players: tuple[tuple[str, str], ...]
    tables: tuple[str, ...]


def seed(services: Services) -> DemoAccounts:
    """Create the demo's accounts, money and tables where they are missing (running it again changes nothing:
    the credits carry idempotency keys, existing accounts and tables are kept)."""
    accounts = services.accounts
    for name, password, role in [(*ADMIN, Role.ADMIN), *((n, p, Role.PLAYER) for n, p in PLAYERS)]:
        with contextlib.suppress(AccountExists):
            accounts.create(name, password, role)
    admin = accounts.get(ADMIN[0])
    casino = services.casino

    def credit(name: str) -> dict[str, Any]:
        return casino.credit(admin, name, CREDIT, f"demo-credit-{name}")

    def open_table(table_id: str, game: str, rules: dict[str, str] | None) -> dict[str, Any]:
        return casino.open_table(
            admin, table_id=table_id, game=game, rules=rules, betting_seconds=20, decision_seconds=30
        )

    for name, _ in PLAYERS:
        services.at_casino(partial(credit, name))
    for table_id, game, rules in TABLES:
        with contextlib.suppress(TableExists):
            services.at_casino(partial(open_table, table_id, game, rules))
    return DemoAccounts(ADMIN, PLAYERS, tuple(t for t, _, _ in TABLES))


def banner(demo: DemoAccounts, host: str, port: int) -> list[str]:
    """Where to connect and who to log in as."""
    base = f"http://{host}:{port}"
    return [
        f"croupier is serving on {base}",
        f"  API and its documentation (OpenAPI): {base}/docs   spec: {base}/openapi.json",
        f"  WebSocket per table: ws://{host}:{port}/ws/tables/<table>?token=<session token>",
        f"  tables: {', '.join(demo.tables)} (RNG, a betting window every 20 s)",
        f"  admin: {demo.admin[0]} / {demo.admin[1]}",
        "  players: " + ", ".join(f"{n} / {p}" for n, p in demo.players) + f" ({CREDIT:,} units each)",
        f"  log in: curl -s -X POST {base}/api/login -H 'content-type: application/json' "
        f"""-d '{{"username": "ana", "password": "croupier-ana"}}'""",
        "Press Ctrl+C to stop.",
    ]
