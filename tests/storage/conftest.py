"""Databases for the storage tests: a migrated SQLite file per test (copied from one migrated per session), and a
PostgreSQL database named uniquely for the session, migrated once, emptied before each test and dropped at the
end. PostgreSQL comes from :mod:`pgserver` (the running server, or a throwaway one from the Debian package's
binaries; skipped, saying why, only where neither can be had)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from croupier.storage import create_engine, upgrade
from croupier.storage.models import Base
from pgserver import fresh_database


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
    with fresh_database("croupier_test") as url:
        upgrade(url)
        yield url


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
