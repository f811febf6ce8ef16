"""For tests only: the casino's manual clock (``croupier serve --manual-clock``) and the route that moves it.

A test of a running server that waits for a betting window or a decision's timer against the wall clock fails on a
busy machine (the bell rings before the test's bet arrives). Under ``--manual-clock`` the casino's clock
(:class:`ManualClock`, in the casino's process or beside the casino's thread) stands still at the instant the casino
opened and moves only when an admin calls ``POST /api/testing/clock`` with ``{"advance": seconds}``: the clock moves
on, then each table whose timer ran out moves on as the background clock moves it (its bell, RNG result,
settlement and next window, or a decision's default answer), each in a group commit of its own. The background clock
does not run: with the casino's time standing still, no timer runs out on its own.

Production never exposes it: without the option the casino reads the wall clock and the route does not exist (a
request to it answers 404); it is left out of the OpenAPI document in any case, and ``--manual-clock`` is refused
together with ``--demo``. The accounts and the ledger keep the wall clock (sessions expire, entries are stamped as
ever); only the casino's timers and timestamps follow the manual clock.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from typing import Annotated

from fastapi import APIRouter, FastAPI
from pydantic import Field
from typing_extensions import TypedDict

from croupier.server.deps import Services_, Token
from croupier.server.schemas import Body
from croupier.service.accounts import Role
from croupier.service.casino import Casino
from croupier.service.ledger import utc_now

MAX_ADVANCE = 7 * 24 * 3600.0
"""The most one call may move the clock (a week)."""


class ManualClock:
    """A clock that stands still at ``start`` (default: the instant it is made) and moves only by :meth:`advance`
    (the casino's clock under ``--manual-clock``)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start if start is not None else utc_now()
        self._lock = threading.Lock()

    def __call__(self) -> datetime:
        return self._now

    def advance(self, *, seconds: float) -> datetime:
        """Move on by ``seconds`` (not backwards); the time after."""
        if not seconds >= 0:
            raise ValueError(f"the clock moves forward only, not by {seconds!r} s")
        with self._lock:
            self._now += timedelta(seconds=seconds)
            return self._now


class Advance(Body):
    """How far to move the casino's clock."""

    advance: Annotated[float, Field(ge=0, le=MAX_ADVANCE, strict=False)]


class ClockMoved(TypedDict, closed=True):
    """The casino's time after the move, and the tables whose timer ran out (moved on, in table order)."""

    now: datetime
    moved: list[str]


router = APIRouter(prefix="/api/testing", tags=["testing"], include_in_schema=False)


@router.post("/clock")
async def move_clock(body: Advance, token: Token, svc: Services_) -> ClockMoved:
    """Move the casino's manual clock on by ``advance`` seconds, then every table whose timer ran out (admins only;
    registered only under ``croupier serve --manual-clock``)."""
    svc.accounts.authenticate(token, roles=[Role.ADMIN])
    now = await svc.casino_call(Casino.advance_clock, body.advance)
    moved = await svc.casino_call(Casino.due)
    for table_id in moved:  # as the background clock does: each table in a group commit of its own
        await svc.casino_grouped(Casino.tick, tables=[table_id])
    return {"now": now, "moved": moved}


def install(app: FastAPI) -> None:
    """Add the testing route to ``app`` (only for a server whose casino runs on a :class:`ManualClock`)."""
    app.include_router(router)
