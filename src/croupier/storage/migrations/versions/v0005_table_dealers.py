"""The dealers of each table (issue 13): a dealer reports results, rings the bell and voids rounds only at the live
tables an admin assigned him to. A JSON list of usernames on the table's row; tables opened before have none (an
admin assigns them).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``casino_tables.dealers``."""
    with op.batch_alter_table("casino_tables") as batch:
        batch.add_column(sa.Column("dealers", sa.Text(), nullable=False, server_default="[]"))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("casino_tables") as batch:
        batch.drop_column("dealers")
