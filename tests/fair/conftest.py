"""The provably fair tests' databases: the storage tests' SQLite file and PostgreSQL database (``engine`` runs a test
on each)."""

from __future__ import annotations

from storage.conftest import engine, postgres_engine, postgres_url, sqlite_engine, sqlite_template

__all__ = ["engine", "postgres_engine", "postgres_url", "sqlite_engine", "sqlite_template"]
