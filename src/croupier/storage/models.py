"""The tables: the ledger (accounts with cached balances, entries, postings, rounds, holds), the accounts (users,
sessions, login failures) and the casino (tables, rounds with their steps as JSON text, the audit log). Money is
``BigInteger``; times are stored as naive UTC and read back timezone-aware."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# SQLite makes only an INTEGER PRIMARY KEY an alias of its rowid (autoincrementing).
Id = BigInteger().with_variant(Integer(), "sqlite")


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC ``datetime`` stored as a naive UTC timestamp on every database."""

    impl = DateTime(timezone=False)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Store ``value`` as naive UTC; a naive value is refused."""
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"{value!r} has no timezone: croupier stores UTC times.")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Read a stored naive UTC time back as timezone-aware."""
        return None if value is None else value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    """The declarative base of croupier's tables."""

    metadata = MetaData(naming_convention=NAMING)


class AccountRow(Base):
    """A ledger account and its cached balance (checked against the postings by ``Ledger.check``)."""

    __tablename__ = "ledger_accounts"
    __table_args__ = (
        CheckConstraint("kind IN ('wallet', 'held', 'table', 'house', 'external')", name="kind"),
        CheckConstraint("balance >= 0 OR kind IN ('table', 'house', 'external')", name="no_overdraft"),
    )

    account: Mapped[str] = mapped_column(String(160), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    balance: Mapped[int] = mapped_column(BigInteger, default=0)


class EntryRow(Base):
    """A journal entry: one money command, keyed for idempotency."""

    __tablename__ = "ledger_entries"
    __table_args__ = (CheckConstraint("kind IN ('credit', 'debit', 'hold', 'settle', 'void')", name="kind"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(160), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    fingerprint: Mapped[str] = mapped_column(String(64))
    round_id: Mapped[str | None] = mapped_column(String(128), index=True)
    table_id: Mapped[str | None] = mapped_column(String(128))
    actor: Mapped[str | None] = mapped_column(String(128))
    memo: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PostingRow(Base):
    """One posting of an entry."""

    __tablename__ = "ledger_postings"
    __table_args__ = (CheckConstraint("amount <> 0", name="nonzero"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("ledger_entries.id"), index=True)
    account: Mapped[str] = mapped_column(ForeignKey("ledger_accounts.account"))
    amount: Mapped[int] = mapped_column(BigInteger)
    bet_ref: Mapped[str | None] = mapped_column(String(128))


class RoundRow(Base):
    """A round the ledger has seen, and the entry that settled or voided it."""

    __tablename__ = "ledger_rounds"
    __table_args__ = (CheckConstraint("status IN ('open', 'settled', 'voided')", name="status"),)

    round_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    table_id: Mapped[str | None] = mapped_column(String(128))
    status: Mapped[str] = mapped_column(String(16))
    closed_by: Mapped[int | None] = mapped_column(ForeignKey("ledger_entries.id"), unique=True)


class HoldRow(Base):
    """A stake held for one bet of a round."""

    __tablename__ = "ledger_holds"
    __table_args__ = (
        CheckConstraint("amount > 0", name="positive"),
        CheckConstraint("status IN ('open', 'settled', 'voided')", name="status"),
    )

    round_id: Mapped[str] = mapped_column(ForeignKey("ledger_rounds.round_id"), primary_key=True)
    bet_ref: Mapped[str] = mapped_column(String(128), primary_key=True)
    player: Mapped[str] = mapped_column(String(128))
    table_id: Mapped[str] = mapped_column(String(128))
    amount: Mapped[int] = mapped_column(BigInteger)
    entry_id: Mapped[int] = mapped_column(ForeignKey("ledger_entries.id"), unique=True)
    status: Mapped[str] = mapped_column(String(16))
    closed_by: Mapped[int | None] = mapped_column(ForeignKey("ledger_entries.id"))
    net: Mapped[int | None] = mapped_column(BigInteger)


class UserRow(Base):
    """A player, dealer or admin account, under its canonical name (NFKC, case-folded)."""

    __tablename__ = "users"
    __table_args__ = (CheckConstraint("role IN ('player', 'dealer', 'admin')", name="role"),)

    username: Mapped[str] = mapped_column(String(64), primary_key=True)
    role: Mapped[str] = mapped_column(String(16))
    password_hash: Mapped[str] = mapped_column(String(256))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    active: Mapped[bool] = mapped_column(Boolean)


class LoginFailureRow(Base):
    """The failed logins to a canonical name (taken or free: no foreign key) from a client address since the last
    success from there: what the login backoff reads."""

    __tablename__ = "login_failures"

    username: Mapped[str] = mapped_column(String(64), primary_key=True)
    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer)
    last_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


class SessionRow(Base):
    """A login session, stored by the SHA-256 digest of its token."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    username: Mapped[str] = mapped_column(ForeignKey("users.username", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


class CasinoTableRow(Base):
    """A casino table: its game, rules document (JSON text), live or RNG, timers, its dealers (a JSON list)."""

    __tablename__ = "casino_tables"
    __table_args__ = (CheckConstraint("status IN ('open', 'closed')", name="status"),)

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    rules: Mapped[str] = mapped_column(Text)
    live: Mapped[bool] = mapped_column(Boolean)
    betting_seconds: Mapped[float] = mapped_column(Float)
    decision_seconds: Mapped[float] = mapped_column(Float)
    result_display_seconds: Mapped[float] = mapped_column(Float, server_default="0")
    dealers: Mapped[str] = mapped_column(Text, server_default="[]")
    status: Mapped[str] = mapped_column(String(16))
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime)


class CasinoRoundRow(Base):
    """A round of a casino table: its status and its holds, steps and cards (JSON text)."""

    __tablename__ = "casino_rounds"

    round_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    data: Mapped[str] = mapped_column(Text)
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class CasinoRoundChangeRow(Base):
    """A change appended to a round since it was last written whole (a bet: its hold and its step, as JSON text),
    so that a bet does not rewrite its round; the round's next whole write deletes its changes."""

    __tablename__ = "casino_round_changes"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    round_id: Mapped[str] = mapped_column(ForeignKey("casino_rounds.round_id"), index=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    change: Mapped[str] = mapped_column(Text)


class CasinoAuditRow(Base):
    """A line of the casino's audit log."""

    __tablename__ = "casino_audit"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    actor: Mapped[str] = mapped_column(String(128))
    action: Mapped[str] = mapped_column(String(64))
    table_id: Mapped[str | None] = mapped_column(String(32))
    detail: Mapped[str] = mapped_column(Text)
