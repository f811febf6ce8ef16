"""The demo a new user gets from ``make demo`` (``croupier serve --demo``): an admin, a dealer, three players with
money, an RNG and a live table of each game, created once on the database and reused when the demo starts again."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from croupier.server.services import Services
from croupier.service.accounts import AccountExists, PasswordPolicy, Role
from croupier.service.casino import RESULT_DISPLAY_SECONDS, Casino
from croupier.service.casino_records import TableExists

ADMIN = ("admin", "croupier-admin")
DEALER = ("dealer", "croupier-dealer")
DEMO_POLICY = PasswordPolicy(min_length=8, min_score=None)
"""The demo's accounts have the short passwords the banner prints; ``croupier serve`` refuses a database whose
accounts still have them (issue 13), and ``--demo`` keeps its own database file."""
PLAYERS = (("ana", "croupier-ana"), ("bo", "croupier-bo"), ("cy", "croupier-cy"))
PASSWORDS = dict((ADMIN, DEALER, *PLAYERS))
"""Every demo account's published password, by name (what ``croupier serve`` refuses to start with)."""
CREDIT = 100_000
TABLES = (
    ("roulette-1", "roulette", None),
    ("sicbo-1", "sicbo", None),
    ("blackjack-1", "blackjack", {"preset": "macau-typical"}),
)
LIVE_TABLES = (
    ("roulette-live-1", "roulette", None),
    ("sicbo-live-1", "sicbo", None),
    ("blackjack-live-1", "blackjack", {"preset": "macau-typical"}),
)


@dataclass(frozen=True)
class DemoAccounts:
    """Who can log in to the demo, with what."""

    admin: tuple[str, str]
    players: tuple[tuple[str, str], ...]
    tables: tuple[str, ...]
    dealer: tuple[str, str] = DEALER
    live_tables: tuple[str, ...] = ()


def seed(services: Services) -> DemoAccounts:
    """Create the demo's accounts, money and tables where they are missing (running it again changes nothing:
    the credits carry idempotency keys, existing accounts and tables are kept)."""
    accounts = services.accounts
    people = [(*ADMIN, Role.ADMIN), (*DEALER, Role.DEALER), *((n, p, Role.PLAYER) for n, p in PLAYERS)]
    for name, password, role in people:
        with contextlib.suppress(AccountExists):
            accounts.create(name, password, role, policy=DEMO_POLICY)
    admin = accounts.get(ADMIN[0])
    for name, _ in PLAYERS:
        services.at_casino(Casino.credit, admin, name, CREDIT, f"demo-credit-{name}")
    for table_id, game, rules, live in [*((*t, False) for t in TABLES), *((*t, True) for t in LIVE_TABLES)]:
        seconds = 60 if live else 20  # a live table's dealer usually rings the bell before its timer does
        with contextlib.suppress(TableExists):
            services.at_casino(
                Casino.open_table,
                admin,
                table_id=table_id,
                game=game,
                rules=rules,
                live=live,
                betting_seconds=seconds,
                decision_seconds=30,
                result_display_seconds=RESULT_DISPLAY_SECONDS,
                dealers=[DEALER[0]] if live else [],
            )
    return DemoAccounts(ADMIN, PLAYERS, tuple(t for t, _, _ in TABLES), DEALER, tuple(t for t, _, _ in LIVE_TABLES))


def address(host: str, port: int) -> str:
    """The address a browser on this machine reaches a server listening on ``host``:``port`` at (loopback for the
    wildcard addresses)."""
    host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def banner(demo: DemoAccounts, host: str, port: int) -> list[str]:
    """Where to connect and who to log in as."""
    base = address(host, port)
    return [
        f"croupier is serving on {base}",
        f"  the browser table: {base}/",
        f"  API (OpenAPI spec): {base}/openapi.json",
        f'  WebSocket per table: {base.replace("http", "ws", 1)}/ws/tables/<table>, first message {{"type": "auth", '
        '"token": …}',
        f"  tables: {', '.join(demo.tables)} (RNG, provably fair: croupier verify, docs/fairness.md; a 20 s betting "
        "window each round)",
        f"  live tables: {', '.join(demo.live_tables)} (the dealer reports each result)",
        f"  admin: {demo.admin[0]} / {demo.admin[1]}",
        f"  dealer: {demo.dealer[0]} / {demo.dealer[1]}",
        "  players: " + ", ".join(f"{n} / {p}" for n, p in demo.players) + f" ({CREDIT:,} units each)",
        f"  log in: curl -s -X POST {base}/api/login -H 'content-type: application/json' "
        f"""-d '{{"username": "ana", "password": "croupier-ana"}}'""",
        "Press Ctrl+C to stop.",
    ]
