"""The bet's hot path: Core statements compiled once per dialect and run on the driver's cursor.

A bet runs about ten statements. Through ``Connection.execute`` each costs SQLAlchemy some 25–45 µs of Python
(the compiled-cache lookup, an execution context, a result object), several times what SQLite itself spends on
it; at thousands of bets a second that is most of the server's time. :class:`FastStatement` keeps what SQLAlchemy
compiled for the dialect (the SQL text, the order of its parameters, each parameter's bind processor, e.g. a
``UTCDateTime`` made text for SQLite) and runs it on the DBAPI cursor of the same connection, inside the same
transaction. A driver error is raised as SQLAlchemy's own (``IntegrityError``, ``OperationalError``…), so callers
handle it as before. Only plain statements belong here: no expanding ``IN``, no result types that need processing
(the hot path reads ids, names, amounts and statuses).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from sqlalchemy import Connection
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement


class FastStatement:
    """``statement`` compiled for ``dialect``, run by :meth:`run` / :meth:`run_many` on a connection's cursor."""

    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect))
        self.sql = compiled.string
        self.positional = bool(compiled.positional)
        names = list(compiled.positiontup or []) if self.positional else list(compiled.binds)
        self.names = names
        processors: dict[str, Callable[[Any], Any]] = {}
        for name in names:
            bind = compiled.binds[name]
            process = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                processors[name] = process
        self.processors = processors
        # Without bind processors a positional row is one C call: the values picked out in the statement's order.
        self._pick = operator.itemgetter(*names) if len(names) > 1 and not processors and self.positional else None

    def _parameters(self, values: Mapping[str, Any]) -> Sequence[Any] | dict[str, Any]:
        if self._pick is not None:
            picked: tuple[Any, ...] = self._pick(values)
            return picked
        process = self.processors
        if self.positional:
            return [process[n](values[n]) if n in process else values[n] for n in self.names]
        return {n: process[n](values[n]) if n in process else values[n] for n in self.names}

    def run(self, connection: Connection, values: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """Run once with ``values`` (every parameter by name); the rows it returns (``[]`` for none)."""
        parameters = self._parameters(values)
        cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.execute(self.sql, parameters)
            return list(cursor.fetchall()) if cursor.description is not None else []
        except connection.dialect.loaded_dbapi.Error as error:
            raise driver_error(self.sql, parameters, error, connection) from error
        finally:
            cursor.close()

    def run_many(self, connection: Connection, rows: Sequence[Mapping[str, Any]]) -> int:
        """Run once per row of ``rows`` (an ``executemany``); the number of rows it changed in all."""
        if not rows:
            return 0
        parameters: list[Any] = [self._parameters(r) for r in rows]
        cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.executemany(self.sql, parameters)
            changed: int = cursor.rowcount
            return changed
        except connection.dialect.loaded_dbapi.Error as error:
            raise driver_error(self.sql, parameters, error, connection) from error
        finally:
            cursor.close()


def driver_error(sql: str, parameters: Any, error: Exception, connection: Connection) -> Exception:
    """The driver's ``error`` for ``sql`` as SQLAlchemy's own exception (``OperationalError``, ``IntegrityError``…)."""
    dbapi_error = connection.dialect.loaded_dbapi.Error
    wrapped: Exception = DBAPIError.instance(sql, parameters, error, dbapi_error, dialect=connection.dialect)
    return wrapped


class FastStatements:
    """One :class:`FastStatement` per dialect name, compiled on first use."""

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        self._by_dialect: dict[str, FastStatement] = {}

    def on(self, connection: Connection) -> FastStatement:
        """The statement compiled for ``connection``'s dialect."""
        name = connection.dialect.name
        fast = self._by_dialect.get(name)
        if fast is None:
            fast = self._by_dialect[name] = FastStatement(self.statement, connection.dialect)
        return fast


class DialectStatements:
    """A statement written per dialect (an upsert: ``dialect.insert(...).on_conflict_do_update(...)``), built by
    ``make(module)`` from ``sqlalchemy.dialects.sqlite`` or ``…postgresql`` and compiled on first use."""

    def __init__(self, make: Callable[[Any], ClauseElement]) -> None:
        self.make = make
        self._by_dialect: dict[str, FastStatement] = {}

    def on(self, connection: Connection) -> FastStatement:
        """The statement built and compiled for ``connection``'s dialect."""
        name = connection.dialect.name
        fast = self._by_dialect.get(name)
        if fast is None:
            module = postgresql if name == "postgresql" else sqlite
            fast = self._by_dialect[name] = FastStatement(self.make(module), connection.dialect)
        return fast
