"""How long each table shows a round's result before the next betting window opens (issue 14, the result moment).
Tables opened before show none: 0 seconds, the next window opens at once, as they did.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``casino_tables.result_display_seconds``."""
    with op.batch_alter_table("casino_tables") as batch:
        batch.add_column(sa.Column("result_display_seconds", sa.Float(), nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("casino_tables") as batch:
        batch.drop_column("result_display_seconds")
