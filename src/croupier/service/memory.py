"""In-memory implementations of the service ports, for unit tests and demos: one lock makes every transaction
exclusive, and a transaction works on copies that replace the state only when it commits."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime

from croupier.service.accounts import (
    AccountExists,
    LastAdmin,
    LoginFailures,
    Role,
    SessionRecord,
    UnknownAccount,
    User,
)
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
        self.failures: dict[tuple[str, str], LoginFailures] = {}

    def add_user(self, user: User) -> None:
        """Add ``user``; ``AccountExists`` when the name is taken."""
        with self._lock:
            if user.username in self.users:
                raise AccountExists(f"An account named {user.username!r} already exists.")
            self.users[user.username] = user

    def get_user(self, username: str) -> User | None:
        """The user named ``username``."""
        return self.users.get(username)

    def save_user(self, user: User, *, keep_an_admin: bool = False) -> None:
        """Replace the stored user of the same name; with ``keep_an_admin``, ``LastAdmin`` when no active admin
        would be left."""
        with self._lock:
            if user.username not in self.users:
                raise UnknownAccount(f"There is no account named {user.username!r}.")
            after = {**self.users, user.username: user}
            if keep_an_admin and not any(u.active and u.role is Role.ADMIN for u in after.values()):
                raise LastAdmin(f"{user.username!r} is the last active admin: enable or appoint another first.")
            self.users = after

    def list_users(self, role: Role | None = None) -> list[User]:
        """Every user (of ``role``), by name."""
        return sorted((u for u in self.users.values() if role is None or u.role is role), key=lambda u: u.username)

    def get_failures(self, username: str, address: str) -> LoginFailures | None:
        """The failed logins to ``username`` from ``address``."""
        return self.failures.get((username, address))

    def add_failure(self, username: str, address: str, at: datetime, *, since: datetime) -> LoginFailures:
        """Count one more failed login; a count last added to before ``since`` starts again."""
        with self._lock:
            old = self.failures.get((username, address))
            count = 1 if old is None or old.last_at < since else old.count + 1
            self.failures[username, address] = new = LoginFailures(username, address, count, at)
            return new

    def clear_failures(self, username: str, address: str | None = None) -> int:
        """Forget the failed logins to ``username`` from ``address`` (every address when ``None``)."""
        with self._lock:
            doomed = [k for k in self.failures if k[0] == username and address in (None, k[1])]
            for k in doomed:
                del self.failures[k]
            return len(doomed)

    def purge_failures(self, before: datetime) -> int:
        """Forget every count last added to before ``before``."""
        with self._lock:
            doomed = [k for k, f in self.failures.items() if f.last_at < before]
            for k in doomed:
                del self.failures[k]
            return len(doomed)

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
