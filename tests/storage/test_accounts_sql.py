"""The accounts' shared suite on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine

from croupier.storage import SqlAccountStore
from service.accounts_contract import AccountsContract


class TestAccountsOnSql(AccountsContract):
    """The shared suite on :class:`SqlAccountStore` (each test on SQLite and on PostgreSQL)."""

    @pytest.fixture
    def store(self, engine: Engine) -> SqlAccountStore:
        return SqlAccountStore(engine)
