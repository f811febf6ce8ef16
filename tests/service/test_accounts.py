"""The accounts on the in-memory store."""

from __future__ import annotations

import pytest

from croupier.service.memory import MemoryAccountStore
from service.accounts_contract import AccountsContract


class TestAccountsInMemory(AccountsContract):
    """The shared suite on :class:`MemoryAccountStore`."""

    @pytest.fixture
    def store(self) -> MemoryAccountStore:
        return MemoryAccountStore()
