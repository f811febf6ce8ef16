"""The bias watch's endpoint (issue 18, ``docs/bias-watch.md``): ``GET /api/tables/{table_id}/watch`` runs the
game-level tests on a roulette or sic bo table's recorded results over a window (admins only).

Where the server has a database engine (``croupier serve``, whichever port its casino has) the window is read and
tested in this process, on a worker thread (:func:`croupier.service.casino_watch.watch_engine`): a window of
thousands of rounds never holds up the casino's thread or process, and the casino's process, which runs only
``Casino`` methods, is not asked. Services without an engine (the in-memory ones of tests and demos) run
:func:`croupier.service.casino_watch.bias_watch` on the casino's thread.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Literal, cast

from fastapi import APIRouter, HTTPException, Query
from starlette.concurrency import run_in_threadpool
from typing_extensions import TypedDict

from croupier.server.deps import Caller, Services_
from croupier.server.routes import ERRORS, TablePath
from croupier.service import casino_watch

router = APIRouter(prefix="/api", responses=ERRORS)

Verdict = Literal["pass", "fail", "skipped"]


class WatchChiSquare(TypedDict, closed=True):
    """The chi-square over the window: the statistic, its degrees of freedom, p-value and critical value at alpha
    (``None`` when the window was too small to test)."""

    statistic: float | None
    df: int
    p_value: float | None
    critical: float


class WatchCell(TypedDict, closed=True):
    """A pocket (or a face) far from expectation: its count, the expected count, the standardised deviation, its
    exact two-sided binomial p-value and that p-value adjusted for the number of pockets (faces) looked at."""

    cell: int
    count: int
    expected: float
    z: float
    p_value: float
    p_adjusted: float


class WatchPocketTest(TypedDict, closed=True):
    """The pocket test: the smallest adjusted p-value's verdict (a reading beside the flag, not the flag)."""

    verdict: Verdict
    p_value: float | None


class WatchPoint(TypedDict, closed=True):
    """The chi-square over the window's first ``rounds`` rounds (the sequential view), with that round's id and
    settlement time."""

    rounds: int
    statistic: float
    p_value: float
    round: str | None
    at: str | None


class WatchDetection(TypedDict, closed=True):
    """The rounds a test needs to detect one pocket (face) at ``bias`` with probability ``power``, and its power at
    the window read."""

    test: Literal["chi-square", "pocket"]
    bias: float
    power: float
    rounds: int
    power_at_window: float | None
    noncentrality: float | None
    textbook_rounds: int | None


class WatchAnswer(TypedDict, closed=True):
    """The bias watch over a table's last results (``croupier.rng.watch.WatchReport.to_json``): ``flagged`` is the
    chi-square's verdict at ``alpha`` over the whole window, tested once; ``cells`` are the pockets 0-36 or the faces
    1-6 with their ``counts``; ``needed`` is the window the flag's test needs for the chosen bias and power."""

    table: str | None
    game: Literal["roulette", "sicbo"]
    rounds: int
    observations: int
    first_round: str | None
    last_round: str | None
    voids: int
    alpha: float
    power: float
    bias: float
    verdict: Verdict
    flagged: bool
    skipped: str | None
    min_rounds: int
    chi_square: WatchChiSquare
    cells: list[int]
    counts: list[int]
    expected: float
    furthest: list[WatchCell]
    pocket_test: WatchPocketTest
    sequence: list[WatchPoint]
    needed: WatchDetection
    needed_pocket: WatchDetection
    notes: list[str]


@router.get("/tables/{table_id}/watch", tags=["admin"])
async def bias_watch(
    table_id: TablePath,
    user: Caller,
    svc: Services_,
    *,
    last: Annotated[
        int | None,
        Query(
            ge=1,
            le=casino_watch.MAX_WINDOW,
            description="The window: the table's last N settled results. Without it, the window the flag's test "
            "needs to detect the bias at the power asked.",
        ),
    ] = None,
    alpha: Annotated[float, Query(gt=0, lt=0.5, description="The significance level of the flag.")] = 0.01,
    power: Annotated[float, Query(gt=0, lt=1, description="The power the rounds needed are computed for.")] = 0.9,
    bias: Annotated[
        float | None,
        Query(
            gt=0,
            lt=1,
            description="The loaded pocket's (face's) probability the rounds needed are computed for; 1.5 times the "
            "fair chance without it.",
        ),
    ] = None,
    points: Annotated[
        int, Query(ge=0, le=casino_watch.MAX_POINTS, description="Checkpoints of the sequential view.")
    ] = casino_watch.POINTS,
) -> WatchAnswer:
    """The bias watch on a roulette or sic bo table's recorded results (admins only): the chi-square of the pockets
    or faces over the window and its verdict at alpha (the flag), its sequential view, the pockets or faces furthest
    from expectation, and the rounds needed to detect the bias at the power asked. 404 for an unknown table, 400 for
    a blackjack table, 422 naming a bad setting."""
    try:
        if svc.engine is not None:
            read = partial(casino_watch.watch_engine, svc.engine, user, table_id, last)
            answer = await run_in_threadpool(read, alpha=alpha, power=power, bias=bias, points=points)
        else:
            answer = await svc.casino_call(
                casino_watch.bias_watch, user, table_id, last, alpha=alpha, power=power, bias=bias, points=points
            )
    except ImportError as error:  # pragma: no cover - the server installed without croupier[math]
        raise HTTPException(503, f"the bias watch needs numpy and scipy (croupier[math]): {error}") from error
    return cast(WatchAnswer, answer)
