"""Account names in one canonical form, and the login backoff counted per name and client address.

Names are now compared and stored NFKC-normalised and case-folded (``Ana`` is ``ana``): each user whose stored name
is not in that form is renamed to it, and with it its sessions, its ledger accounts (``wallet:`` and ``held:``, with
their postings) and its holds; what history names it (journal entries' actors, the audit log, recorded rounds) is
left as it was written. The upgrade refuses, changing nothing, when two accounts would share a name, when the
ledger already has accounts under a renamed user's new name, or when a renamed user has open bets.

The failed-login count and lock on ``users`` give way to ``login_failures`` (name, address, count, last failure).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict

import sqlalchemy as sa
from alembic import op

from croupier.storage.models import UTCDateTime

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None

USERS = sa.table(
    "users",
    sa.column("username", sa.String),
    sa.column("role", sa.String),
    sa.column("password_hash", sa.String),
    sa.column("created_at", UTCDateTime),
    sa.column("active", sa.Boolean),
    sa.column("failed_logins", sa.Integer),
    sa.column("locked_until", UTCDateTime),
)
SESSIONS = sa.table("sessions", sa.column("username", sa.String))
ACCOUNTS = sa.table(
    "ledger_accounts",
    sa.column("account", sa.String),
    sa.column("kind", sa.String),
    sa.column("balance", sa.BigInteger),
)
POSTINGS = sa.table("ledger_postings", sa.column("account", sa.String))
HOLDS = sa.table("ledger_holds", sa.column("player", sa.String), sa.column("status", sa.String))
PREFIXES = ("wallet:", "held:")  # croupier.service.ledger's wallet() and held() as of this revision


class CannotUpgrade(RuntimeError):
    """The database holds what this revision cannot canonicalise by itself; nothing was changed."""


def canonical(name: str) -> str:
    """The canonical form of a name as of this revision: NFKC, case-folded, NFKC again."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def renames(connection: sa.Connection) -> dict[str, str]:
    """The users to rename, old name to new; ``CannotUpgrade`` naming every obstacle."""
    names = list(connection.scalars(sa.select(USERS.c.username)))
    groups: defaultdict[str, list[str]] = defaultdict(list)
    for name in names:
        groups[canonical(name)].append(name)
    problems = [
        f"{', '.join(repr(n) for n in sorted(same))} would all be {key!r}"
        for key, same in sorted(groups.items())
        if len(same) > 1
    ]
    moves = {name: canonical(name) for name in names if canonical(name) != name}
    for old, new in sorted(moves.items()):
        taken = connection.scalars(
            sa.select(ACCOUNTS.c.account).where(ACCOUNTS.c.account.in_([p + new for p in PREFIXES]))
        ).all()
        if taken:
            problems.append(f"the ledger already has {', '.join(sorted(taken))}, where {old!r}'s money would go")
        open_bets = connection.scalar(
            sa.select(sa.func.count()).select_from(HOLDS).where(HOLDS.c.player == old, HOLDS.c.status == "open")
        )
        if open_bets:
            problems.append(f"{old!r} has {open_bets} open bet(s): settle or void their rounds first")
    if problems:
        raise CannotUpgrade(
            "Cannot upgrade the accounts to canonical names (compared ignoring case and width): "
            + "; ".join(problems)
            + ". Nothing was changed: rename, merge or settle these with the previous version, then upgrade again."
        )
    return moves


def rename(connection: sa.Connection, old: str, new: str) -> None:
    """Move the user ``old`` to ``new``, with its sessions, ledger accounts and holds."""
    row = connection.execute(sa.select(USERS).where(USERS.c.username == old)).one()
    connection.execute(sa.insert(USERS).values({**row._asdict(), "username": new}))
    connection.execute(sa.update(SESSIONS).where(SESSIONS.c.username == old).values(username=new))
    connection.execute(sa.delete(USERS).where(USERS.c.username == old))
    for prefix in PREFIXES:
        account = connection.execute(sa.select(ACCOUNTS).where(ACCOUNTS.c.account == prefix + old)).one_or_none()
        if account is None:
            continue
        connection.execute(sa.insert(ACCOUNTS).values({**account._asdict(), "account": prefix + new}))
        connection.execute(sa.update(POSTINGS).where(POSTINGS.c.account == prefix + old).values(account=prefix + new))
        connection.execute(sa.delete(ACCOUNTS).where(ACCOUNTS.c.account == prefix + old))
    connection.execute(sa.update(HOLDS).where(HOLDS.c.player == old).values(player=new))


def upgrade() -> None:
    """Canonicalise the names (or refuse), then replace the users' lock with the table of login failures."""
    connection = op.get_bind()
    for old, new in sorted(renames(connection).items()):
        rename(connection, old, new)
    op.drop_column("users", "locked_until")
    op.drop_column("users", "failed_logins")
    op.create_table(
        "login_failures",
        sa.Column("username", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("username", "address", name="pk_login_failures"),
    )
    op.create_index("ix_login_failures_last_at", "login_failures", ["last_at"])


def downgrade() -> None:
    """Drop the login failures and give the users their count and lock again (the names stay canonical)."""
    op.drop_index("ix_login_failures_last_at", table_name="login_failures")
    op.drop_table("login_failures")
    op.add_column("users", sa.Column("failed_logins", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("users", sa.Column("locked_until", UTCDateTime(), nullable=True))
