"""Drop the three ledger indexes that no query reads: postings by account, holds by player and status, holds by
the entry that closed them.

Every bet wrote into all three, each at a random page of its own (a player's region of the index), and every
settlement moved each of its holds in two of them: on SQLite some three of the seven pages a bet dirties, each
written to the log at its group's commit. The ledger reads postings by entry, holds by round and bet, and checks
balances by scanning; an index for another reading belongs with the query that needs it.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None

DROPPED = (
    ("ix_ledger_postings_account", "ledger_postings", ["account"]),
    ("ix_ledger_holds_player_status", "ledger_holds", ["player", "status"]),
    ("ix_ledger_holds_closed_by", "ledger_holds", ["closed_by"]),
)


def upgrade() -> None:
    """Drop the indexes."""
    for name, table, _ in DROPPED:
        op.drop_index(name, table_name=table)


def downgrade() -> None:
    """Create them again."""
    for name, table, columns in DROPPED:
        op.create_index(name, table, columns)
