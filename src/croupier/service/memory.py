"""In-memory implementations of the service ports, for unit tests and demos: one lock makes every transaction
exclusive, and a transaction works on copies that replace the state only when it commits."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime

from croupier.service.accounts import AccountExists, SessionRecord, UnknownAccount, User
from croupier.service.ledger import Entry, EntryDraft, Hold, LedgerTransaction, Round, prepare_hold


class MemoryLedgerStore:
    """A :class:`~croupier.service.ledger.LedgerStore` in dictionaries."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self.entries: list[Entry] = []
        self.by_key: dict[str, Entry] = {}
        self.cached: dict[str, int] = {}
        self.round_records: dict[str, Round] = {}
        self.hold_records: dict[tuple[str, str], Hold] = {}

    @contextmanager
    def group(self) -> Iterator[None]:
        """Group commit: nothing to group in memory, where every transaction is kept as it ends."""
        yield

    @contextmanager
    def transaction(self, *, write: bool = True) -> Iterator[LedgerTransaction]:
        """An exclusive transaction; its changes replace the store's state only when the block ends normally."""
        with self._lock:
            tx = _MemoryLedgerTransaction(self)
            yield tx
            if write:
                self.entries.extend(tx.new_entries)
                self.by_key.update({e.key: e for e in tx.new_entries})
                self.cached, self.round_records, self.hold_records = tx.cached, tx.round_records, tx.hold_records


class _MemoryLedgerTransaction:
    def __init__(self, store: MemoryLedgerStore) -> None:
        self.store = store
        self.new_entries: list[Entry] = []
        self.cached = dict(store.cached)
        self.round_records = dict(store.round_records)
        self.hold_records = dict(store.hold_records)

    def get_round(self, round_id: str, *, lock: bool = False) -> Round | None:
        return self.round_records.get(round_id)

    def put_round(self, record: Round) -> None:
        self.round_records[record.round_id] = record

    def lock_accounts(self, accounts: Sequence[str]) -> dict[str, int]:
        for account in accounts:
            self.cached.setdefault(account, 0)
        return {account: self.cached[account] for account in accounts}

    def find_entry(self, key: str) -> Entry | None:
        return self.store.by_key.get(key) or next((e for e in self.new_entries if e.key == key), None)

    def prepare_hold(
        self, round_id: str, accounts: Sequence[str], key: str, bet_ref: str
    ) -> tuple[Round | None, dict[str, int], bool, Hold | None]:
        return prepare_hold(self, round_id, accounts, key, bet_ref)

    def append_entry(self, draft: EntryDraft) -> Entry:
        entry = Entry.from_draft(len(self.store.entries) + len(self.new_entries) + 1, draft)
        self.new_entries.append(entry)
        for p in entry.postings:
            self.cached[p.account] = self.cached.get(p.account, 0) + p.amount
        return entry

    def get_hold(self, round_id: str, bet_ref: str) -> Hold | None:
        return self.hold_records.get((round_id, bet_ref))

    def put_hold(self, record: Hold) -> None:
        self.hold_records[record.round_id, record.bet_ref] = record

    def put_holds(self, records: Sequence[Hold]) -> None:
        for record in records:
            self.put_hold(record)

    def round_holds(self, round_id: str) -> list[Hold]:
        return sorted((h for h in self.hold_records.values() if h.round_id == round_id), key=lambda h: h.entry_id)

    def balance(self, account: str) -> int:
        return self.cached.get(account, 0)

    def balances(self) -> dict[str, int]:
        return dict(self.cached)

    def entries(self, round_id: str | None = None) -> list[Entry]:
        every = self.store.entries + self.new_entries
        return every if round_id is None else [e for e in every if e.round_id == round_id]

    def holds(self) -> list[Hold]:
        return list(self.hold_records.values())

    def rounds(self) -> list[Round]:
        return list(self.round_records.values())


class MemoryAccountStore:
    """A :class:`~croupier.service.accounts.AccountStore` in dictionaries."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self.users: dict[str, User] = {}
        self.sessions: dict[str, SessionRecord] = {}

    def add_user(self, user: User) -> None:
        """Add ``user``; ``AccountExists`` when the name is taken."""
        with self._lock:
            if user.username in self.users:
                raise AccountExists(f"An account named {user.username!r} already exists.")
            self.users[user.username] = user

    def get_user(self, username: str) -> User | None:
        """The user named ``username``."""
        return self.users.get(username)

    def save_user(self, user: User) -> None:
        """Replace the stored user of the same name."""
        with self._lock:
            if user.username not in self.users:
                raise UnknownAccount(f"There is no account named {user.username!r}.")
            self.users[user.username] = user

    def add_failure(self, username: str) -> int:
        """Count one more failed login for ``username`` and return the count."""
        with self._lock:
            user = self.users[username]
            self.users[username] = replace(user, failed_logins=user.failed_logins + 1)
            return user.failed_logins + 1

    def add_session(self, session: SessionRecord) -> None:
        """Store a session."""
        with self._lock:
            self.sessions[session.token_hash] = session

    def get_session(self, token_hash: str) -> SessionRecord | None:
        """The session whose token hashes to ``token_hash``."""
        return self.sessions.get(token_hash)

    def delete_session(self, token_hash: str) -> None:
        """Forget a session."""
        with self._lock:
            self.sessions.pop(token_hash, None)

    def delete_sessions(self, username: str) -> int:
        """Forget every session of ``username``; return how many."""
        with self._lock:
            doomed = [k for k, s in self.sessions.items() if s.username == username]
            for k in doomed:
                del self.sessions[k]
            return len(doomed)

    def purge_sessions(self, now: datetime) -> int:
        """Forget every session expired at ``now``; return how many."""
        with self._lock:
            doomed = [k for k, s in self.sessions.items() if s.expires_at <= now]
            for k in doomed:
                del self.sessions[k]
            return len(doomed)
