"""The casino: tables, rounds (steps, holds and cards as JSON text), the changes appended to a round since it was
last written whole (its bets), and the audit log.

Revision ID: 0002
Revises: 0001
Create Date: 2026-01-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from croupier.storage.models import Id, UTCDateTime

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the casino's tables."""
    op.create_table(
        "casino_tables",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("live", sa.Boolean(), nullable=False),
        sa.Column("betting_seconds", sa.Float(), nullable=False),
        sa.Column("decision_seconds", sa.Float(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("opened_at", UTCDateTime(), nullable=False),
        sa.CheckConstraint("status IN ('open', 'closed')", name="ck_casino_tables_status"),
        sa.PrimaryKeyConstraint("table_id", name="pk_casino_tables"),
    )
    op.create_table(
        "casino_rounds",
        sa.Column("round_id", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("opened_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("round_id", name="pk_casino_rounds"),
    )
    op.create_index("ix_casino_rounds_table_id", "casino_rounds", ["table_id"])
    op.create_table(
        "casino_round_changes",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("round_id", sa.String(64), nullable=False),
        sa.Column("at", UTCDateTime(), nullable=False),
        sa.Column("change", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["round_id"], ["casino_rounds.round_id"], name="fk_casino_round_changes_round_id_casino_rounds"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_casino_round_changes"),
    )
    op.create_index("ix_casino_round_changes_round_id", "casino_round_changes", ["round_id"])
    op.create_table(
        "casino_audit",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("at", UTCDateTime(), nullable=False),
        sa.Column("actor", sa.String(128), nullable=False),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_casino_audit"),
    )
    op.create_index("ix_casino_audit_at", "casino_audit", ["at"])


def downgrade() -> None:
    """Drop the casino's tables."""
    for table in ("casino_audit", "casino_round_changes", "casino_rounds", "casino_tables"):
        op.drop_table(table)
