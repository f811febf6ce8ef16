"""Alembic's environment for croupier's migrations: run by :func:`croupier.storage.database.upgrade` on the
connection it passes in ``config.attributes["connection"]``, or on ``sqlalchemy.url``."""

from __future__ import annotations

from alembic import context

from croupier.storage.database import create_engine
from croupier.storage.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations() -> None:
    """Run the migrations on the given connection, or on a new engine for ``sqlalchemy.url``."""
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url"))
    with engine.begin() as connection:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


run_migrations()
