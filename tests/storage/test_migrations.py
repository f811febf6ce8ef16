"""The migrations shipped in the package build the models' schema from an empty database, and the engine is set
up as documented (SQLite: WAL, synchronous=FULL, foreign keys)."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import OperationalError

from croupier.service.ledger import RetryableConflict
from croupier.storage import SqlLedgerStore, create_engine, current_revision, default_url, upgrade
from croupier.storage.database import ENV_URL, MIGRATIONS
from croupier.storage.models import Base


def head() -> str | None:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config).get_current_head()


# alembic's comparison trips over SQLAlchemy 2.1's PostgreSQL reflection with a harmless warning
@pytest.mark.filterwarnings("ignore:Can't validate argument 'dialect_options'")
def test_upgrade_from_empty_gives_the_models_schema(engine: Engine) -> None:
    assert current_revision(engine) == head() == "0006"
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True, "compare_server_default": True})
        assert compare_metadata(context, Base.metadata) == []
    tables = set(inspect(engine).get_table_names())
    assert {t.name for t in Base.metadata.sorted_tables} | {"alembic_version"} == tables


def test_upgrade_of_a_new_file_and_again_is_a_no_op(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    upgrade(url)
    upgrade(url)
    engine = create_engine(url)
    assert current_revision(engine) == head()
    engine.dispose()


def test_the_migrations_ship_inside_the_package() -> None:
    assert MIGRATIONS.parent.name == "storage" and (MIGRATIONS / "env.py").is_file()
    assert list((MIGRATIONS / "versions").glob("*.py"))


def test_sqlite_runs_in_wal_mode_with_full_sync(sqlite_engine: Engine) -> None:
    with sqlite_engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert connection.execute(text("PRAGMA temp_store")).scalar() == 2  # MEMORY: savepoints' journals


def test_a_write_transaction_that_cannot_begin_raises_sqlalchemys_error(sqlite_engine: Engine) -> None:
    """BEGIN IMMEDIATE runs on the driver's connection; a busy database still raises SQLAlchemy's
    ``OperationalError`` (a lost race the ledger retries), and nothing is left begun."""
    other = create_engine(sqlite_engine.url, busy_timeout=0.05)
    try:
        with sqlite_engine.begin() as holder:
            holder.execute(text("UPDATE alembic_version SET version_num = version_num"))
            with pytest.raises(OperationalError, match="database is locked"), other.begin():
                pass
            with pytest.raises(RetryableConflict), SqlLedgerStore(other).transaction():
                pass
        with other.begin() as connection:  # once the holder is done, the same engine begins at once
            assert connection.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
    finally:
        other.dispose()


def test_the_default_database_is_a_sqlite_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_URL, raising=False)
    assert default_url() == "sqlite:///croupier.sqlite3"
    monkeypatch.setenv(ENV_URL, "postgresql+psycopg://croupier@db/croupier")
    assert default_url() == "postgresql+psycopg://croupier@db/croupier"
