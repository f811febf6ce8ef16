"""Group commit on one database, shared by every store on the same engine.

Inside :meth:`CommitGroups.group`, the write transactions that the stores run **on the thread that opened it** are
savepoints of one database transaction on one connection, which commits once when the block ends: one durable
commit (one ``fsync`` on SQLite) for a whole group of bets, or for a whole tick of the clock (bells, results,
settlements and the next windows of every table). Nothing written in the group is durable before that commit, so
whoever opened it must show nothing of it before the block ends. A refused command rolls back to its own savepoint
and the others stand; a failed commit raises from the block and nothing of the group is kept.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import Connection, Engine, RootTransaction, event


@dataclass
class _Group:
    thread: int
    connection: Connection
    transaction: RootTransaction | None = None


class CommitGroups:
    """The open group commit of one engine (at most one at a time).

    The groups keep one connection from one to the next (a group every few milliseconds would otherwise check a
    connection out of the pool and reset it back in each time); a group that fails gives it up, and :meth:`close`
    returns it to the pool (as the engine's disposal does)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._group: _Group | None = None
        self._kept: Connection | None = None
        event.listen(engine, "engine_disposed", lambda _engine: self.close())

    @contextmanager
    def group(self) -> Iterator[None]:
        """Open a group commit (module docstring) on this thread."""
        if self._group is not None:
            raise RuntimeError("A group commit is already open on this database.")
        connection, self._kept = self._kept or self.engine.connect(), None
        group = self._group = _Group(threading.get_ident(), connection)
        clean = False
        try:
            yield
            if group.transaction is not None:
                try:
                    group.transaction.commit()
                except BaseException:
                    # A failed commit leaves SQLAlchemy's transaction inactive, so closing the connection would
                    # neither roll back nor reset the driver's: it would go back to the pool still inside the
                    # group's transaction. Discard it instead (closing it rolls back at the database).
                    connection.invalidate()
                    raise
            clean = True
        finally:
            self._group = None
            if clean and not connection.closed and not connection.invalidated:
                self._kept = connection  # committed (or never begun): the next group starts on it
            else:
                connection.close()  # rolls back whatever was not committed

    def close(self) -> None:
        """Return the connection kept between groups to the pool."""
        kept, self._kept = self._kept, None
        if kept is not None:
            kept.close()

    def joined(self) -> Connection | None:
        """The open group's connection, its transaction begun, when this thread opened a group; else None."""
        group = self._group
        if group is None or group.thread != threading.get_ident():
            return None
        if group.transaction is None:
            group.transaction = group.connection.begin()
        return group.connection


_BY_ENGINE: weakref.WeakKeyDictionary[Engine, CommitGroups] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def commit_groups(engine: Engine) -> CommitGroups:
    """The group commits of ``engine`` (one object per engine, shared by its stores)."""
    with _LOCK:
        groups = _BY_ENGINE.get(engine)
        if groups is None:
            groups = _BY_ENGINE[engine] = CommitGroups(engine)
        return groups
