"""Databases for the storage tests: a migrated SQLite file per test (copied from one migrated per session), and a
PostgreSQL database named uniquely for the session, migrated once, emptied before each test and dropped at the
end. PostgreSQL is found at ``$CROUPIER_TEST_POSTGRES_URL`` (default: the trust-auth server on 127.0.0.1:5432);
when none answers, its tests are skipped saying so."""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy
from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url

from croupier.storage import create_engine, upgrade
from croupier.storage.models import Base

POSTGRES = os.environ.get("CROUPIER_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "croupier.sqlite3"
    upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture
def sqlite_engine(sqlite_template: Path, tmp_path: Path) -> Iterator[Engine]:
    path = tmp_path / "croupier.sqlite3"
    shutil.copyfile(sqlite_template, path)
    engine = create_engine(f"sqlite:///{path}")
    yield engine
    engine.dispose()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    admin_url = make_url(POSTGRES)
    admin = sqlalchemy.create_engine(admin_url, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3})
    try:
        with admin.connect() as connection:
            connection.execute(text("SELECT 1"))
    except sqlalchemy.exc.OperationalError as error:
        admin.dispose()
        reason = str(error.orig).strip().splitlines()[0] if error.orig else str(error)
        pytest.skip(f"no PostgreSQL reachable at {admin_url.render_as_string()} ({reason}); CI has one")
    name = f"croupier_test_{uuid.uuid4().hex[:12]}"
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    url = admin_url.set(database=name).render_as_string(hide_password=False)
    try:
        upgrade(url)
        yield url
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def postgres_engine(postgres_url: str) -> Iterator[Engine]:
    engine = create_engine(postgres_url, pool_size=12)
    tables = ", ".join(f'"{t.name}"' for t in Base.metadata.sorted_tables)
    with engine.begin() as connection:
        connection.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    yield engine
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request: pytest.FixtureRequest) -> Engine:
    """Each test that takes ``engine`` runs on SQLite and on PostgreSQL."""
    value: Engine = request.getfixturevalue(f"{request.param}_engine")
    return value
