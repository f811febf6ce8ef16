"""The bias watch as the casino's admins ask it (issue 18): :func:`bias_watch` reads a table's recorded results from
the casino's store and runs :func:`croupier.rng.watch.watch` on them (admins only).

Two ways in, one answer:

- :func:`bias_watch` ``(casino, who, table_id, …)``: a module function taking the casino first, as the casino's own
  methods do; through the casino's thread (``Services.casino_call(bias_watch, user, table_id, …)`` runs it there,
  :class:`croupier.server.services.ThreadPort`). The casino's *process* (:mod:`croupier.server.casino_process`)
  runs only :class:`~croupier.service.casino.Casino` methods by name, so this function cannot be sent there;
- :func:`watch_engine` ``(engine, who, table_id, …)``: the same reading on a database engine of the caller's own
  (read-only transactions), which the server's process has beside either port. The endpoint
  (:mod:`croupier.server.watch`) takes this way whenever it has an engine: a window of thousands of rounds is then
  read and tested off the casino's thread, and the bets never wait for it.

The window: the last ``last`` settled results (a void spin or roll is no result); without ``last``, the window the
watch's test needs to detect the chosen bias at the chosen power (:func:`croupier.rng.watch.rounds_needed`), so
that the answer is the designed test."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from croupier.errors import InvalidInput
from croupier.service.accounts import Role, User
from croupier.service.casino import Casino, CasinoStore, UnknownTable

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from croupier.rng.watch import TableResults

# croupier.rng.watch (numpy, scipy: the math extra) is imported when the watch runs, not with the casino.
POINTS = 200
"""The sequential view's checkpoints by default (``croupier.rng.watch.POINTS``)."""
MAX_POINTS = 1_000
MAX_WINDOW = 100_000
"""The largest window (rounds) the watch reads at once."""


def _settings(
    game: str, last: object, *, alpha: object, power: object, bias: object, points: object
) -> tuple[int, float, float, float | None, int]:
    """The watch's settings checked (``InvalidInput`` naming a bad one), ``last`` defaulting to the rounds needed."""
    from croupier.rng.watch import detection

    if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= MAX_POINTS:
        raise InvalidInput(f"points must be a whole number from 0 to {MAX_POINTS}, not {points!r}.")
    try:
        needed = detection(game, alpha=alpha, power=power, bias=bias)  # type: ignore[arg-type]
    except ValueError as error:
        raise InvalidInput(f"{error}.") from None
    if last is None:
        last = min(needed[0].rounds, MAX_WINDOW)
    if isinstance(last, bool) or not isinstance(last, int) or not 0 < last <= MAX_WINDOW:
        raise InvalidInput(f"last must be 1 to {MAX_WINDOW:,} rounds, not {last!r}.")
    chi_square = needed[0]  # checked there: alpha in (0, 0.5), power in (alpha, 1), bias a probability not fair
    return last, float(cast(float, alpha)), chi_square.power, chi_square.bias if bias is not None else None, points


def _report(results: TableResults, alpha: float, power: float, bias: float | None, points: int) -> dict[str, object]:
    from croupier.rng.watch import watch_table

    return watch_table(results, alpha=alpha, power=power, bias=bias, points=points).to_json()


def bias_watch(
    casino: Casino,
    who: User,
    table_id: str,
    last: int | None = None,
    *,
    alpha: float = 0.01,
    power: float = 0.9,
    bias: float | None = None,
    points: int = POINTS,
) -> dict[str, object]:
    """The bias watch over ``table_id``'s last ``last`` results in ``casino``'s store (admins only: ``Forbidden``
    for anyone else), as :meth:`croupier.rng.watch.WatchReport.to_json`. ``UnknownTable`` for a table the store has
    never had (an open and a closed table are watched alike), ``NotWatchable`` for blackjack, ``InvalidInput``
    naming a bad setting."""
    Casino._require(who, Role.ADMIN)
    engine = getattr(casino.store, "engine", None)
    if engine is not None and _is_engine(engine):  # a SQL store: its settled rounds read straight
        return watch_engine(engine, who, table_id, last, alpha=alpha, power=power, bias=bias, points=points)
    with casino._lock:  # another store (in memory): read under the casino's lock, as its own methods do
        return watch_store(casino.store, who, table_id, last, alpha=alpha, power=power, bias=bias, points=points)


def _is_engine(value: object) -> bool:
    from sqlalchemy import Engine

    return isinstance(value, Engine)


def watch_store(
    store: CasinoStore,
    who: User,
    table_id: str,
    last: int | None = None,
    *,
    alpha: float = 0.01,
    power: float = 0.9,
    bias: float | None = None,
    points: int = POINTS,
) -> dict[str, object]:
    """:func:`bias_watch` on any :class:`~croupier.service.casino.CasinoStore` (every round of the table read)."""
    from croupier.rng.watch import results_of

    Casino._require(who, Role.ADMIN)
    games = [t.game for t in store.tables() if t.table_id == table_id]
    if not games:
        raise UnknownTable(f"There is no table {table_id!r}.")
    results_of(table_id, games[0], [])  # NotWatchable (blackjack) before any setting is judged
    window, a, p, b, n = _settings(games[0], last, alpha=alpha, power=power, bias=bias, points=points)
    return _report(results_of(table_id, games[0], store.rounds(table_id), window), a, p, b, n)


def watch_engine(
    engine: Engine,
    who: User,
    table_id: str,
    last: int | None = None,
    *,
    alpha: float = 0.01,
    power: float = 0.9,
    bias: float | None = None,
    points: int = POINTS,
) -> dict[str, object]:
    """:func:`bias_watch` on the casino's tables in the database of ``engine`` (read-only transactions): what the
    endpoint runs in the server's process."""
    from croupier.rng.watch import read_results

    Casino._require(who, Role.ADMIN)
    game = read_results(engine, table_id, 1).game  # UnknownTable, NotWatchable
    window, a, p, b, n = _settings(game, last, alpha=alpha, power=power, bias=bias, points=points)
    return _report(read_results(engine, table_id, window), a, p, b, n)
