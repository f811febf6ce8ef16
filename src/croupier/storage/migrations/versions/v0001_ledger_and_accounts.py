"""The ledger (accounts, entries, postings, rounds, holds) and the accounts (users, sessions).

Revision ID: 0001
Revises:
Create Date: 2026-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from croupier.storage.models import Id, UTCDateTime

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the tables."""
    op.create_table(
        "ledger_accounts",
        sa.Column("account", sa.String(160), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("balance", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("kind IN ('wallet', 'held', 'table', 'house', 'external')", name="ck_ledger_accounts_kind"),
        sa.CheckConstraint(
            "balance >= 0 OR kind IN ('table', 'house', 'external')", name="ck_ledger_accounts_no_overdraft"
        ),
        sa.PrimaryKeyConstraint("account", name="pk_ledger_accounts"),
    )
    op.create_table(
        "ledger_entries",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("key", sa.String(160), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("round_id", sa.String(128), nullable=True),
        sa.Column("table_id", sa.String(128), nullable=True),
        sa.Column("actor", sa.String(128), nullable=True),
        sa.Column("memo", sa.Text(), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.CheckConstraint("kind IN ('credit', 'debit', 'hold', 'settle', 'void')", name="ck_ledger_entries_kind"),
        sa.PrimaryKeyConstraint("id", name="pk_ledger_entries"),
        sa.UniqueConstraint("key", name="uq_ledger_entries_key"),
    )
    op.create_index("ix_ledger_entries_round_id", "ledger_entries", ["round_id"])
    op.create_table(
        "ledger_postings",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("entry_id", Id, nullable=False),
        sa.Column("account", sa.String(160), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("bet_ref", sa.String(128), nullable=True),
        sa.CheckConstraint("amount <> 0", name="ck_ledger_postings_nonzero"),
        sa.ForeignKeyConstraint(
            ["account"], ["ledger_accounts.account"], name="fk_ledger_postings_account_ledger_accounts"
        ),
        sa.ForeignKeyConstraint(["entry_id"], ["ledger_entries.id"], name="fk_ledger_postings_entry_id_ledger_entries"),
        sa.PrimaryKeyConstraint("id", name="pk_ledger_postings"),
    )
    op.create_index("ix_ledger_postings_account", "ledger_postings", ["account"])
    op.create_index("ix_ledger_postings_entry_id", "ledger_postings", ["entry_id"])
    op.create_table(
        "ledger_rounds",
        sa.Column("round_id", sa.String(128), nullable=False),
        sa.Column("table_id", sa.String(128), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("closed_by", Id, nullable=True),
        sa.CheckConstraint("status IN ('open', 'settled', 'voided')", name="ck_ledger_rounds_status"),
        sa.ForeignKeyConstraint(["closed_by"], ["ledger_entries.id"], name="fk_ledger_rounds_closed_by_ledger_entries"),
        sa.PrimaryKeyConstraint("round_id", name="pk_ledger_rounds"),
        sa.UniqueConstraint("closed_by", name="uq_ledger_rounds_closed_by"),
    )
    op.create_table(
        "ledger_holds",
        sa.Column("round_id", sa.String(128), nullable=False),
        sa.Column("bet_ref", sa.String(128), nullable=False),
        sa.Column("player", sa.String(128), nullable=False),
        sa.Column("table_id", sa.String(128), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("entry_id", Id, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("closed_by", Id, nullable=True),
        sa.Column("net", sa.BigInteger(), nullable=True),
        sa.CheckConstraint("amount > 0", name="ck_ledger_holds_positive"),
        sa.CheckConstraint("status IN ('open', 'settled', 'voided')", name="ck_ledger_holds_status"),
        sa.ForeignKeyConstraint(["closed_by"], ["ledger_entries.id"], name="fk_ledger_holds_closed_by_ledger_entries"),
        sa.ForeignKeyConstraint(["entry_id"], ["ledger_entries.id"], name="fk_ledger_holds_entry_id_ledger_entries"),
        sa.ForeignKeyConstraint(
            ["round_id"], ["ledger_rounds.round_id"], name="fk_ledger_holds_round_id_ledger_rounds"
        ),
        sa.PrimaryKeyConstraint("round_id", "bet_ref", name="pk_ledger_holds"),
        sa.UniqueConstraint("entry_id", name="uq_ledger_holds_entry_id"),
    )
    op.create_index("ix_ledger_holds_closed_by", "ledger_holds", ["closed_by"])
    op.create_index("ix_ledger_holds_player_status", "ledger_holds", ["player", "status"])
    op.create_table(
        "users",
        sa.Column("username", sa.String(64), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("failed_logins", sa.Integer(), nullable=False),
        sa.Column("locked_until", UTCDateTime(), nullable=True),
        sa.CheckConstraint("role IN ('player', 'dealer', 'admin')", name="ck_users_role"),
        sa.PrimaryKeyConstraint("username", name="pk_users"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("username", sa.String(64), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("expires_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["username"], ["users.username"], name="fk_sessions_username_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("token_hash", name="pk_sessions"),
    )
    op.create_index("ix_sessions_username", "sessions", ["username"])
    op.create_index("ix_sessions_expires_at", "sessions", ["expires_at"])


def downgrade() -> None:
    """Drop the tables."""
    for table in ("sessions", "users", "ledger_holds", "ledger_rounds", "ledger_postings", "ledger_entries"):
        op.drop_table(table)
    op.drop_table("ledger_accounts")
