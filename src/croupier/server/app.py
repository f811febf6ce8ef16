"""The FastAPI application: routes, the WebSocket, error mapping, rate limits, and the casino's clock.

At start-up the casino recovers every unfinished round (``casino.recover()``); a background task then calls
``casino.tick()`` every ``tick_seconds`` (closing betting windows at the bell, dealing RNG rounds, timing out
decisions). Tests that drive the clock themselves pass ``tick_seconds=None``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI

from croupier import __version__
from croupier.money import DEFAULT_CURRENCY, check_currency
from croupier.server import errors, routes, ui, watch, ws
from croupier.server.edge import Edge
from croupier.server.logins import LOGINS, LoginGate, LoginLimits, housekeeping
from croupier.server.ratelimit import Limit, RateLimiter
from croupier.server.services import Services
from croupier.service.casino import Casino

log = logging.getLogger(__name__)

COMMAND_LIMIT = Limit(burst=60, per_second=20)


def command_limit_of(per_second: float) -> Limit:
    """The per-account command limit at ``per_second`` (``croupier serve --command-rate``), with a burst of 3 s of it
    (the default 20/s gives :data:`COMMAND_LIMIT`)."""
    if not per_second > 0:
        raise ValueError(f"the command rate must be positive, not {per_second!r}")
    return Limit(burst=max(1.0, 3 * per_second), per_second=per_second)


async def _ticker(services: Services, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        try:
            # Each table whose timer ran out moves on in a group commit of its own (its bell, result, settlement and
            # next window: one commit), and the bets queued meanwhile are placed between two tables' turns.
            for table_id in await services.casino_call(Casino.due):
                await services.casino_grouped(Casino.tick, tables=[table_id])
        except Exception:  # the clock must keep running; the failure is logged with its traceback
            log.exception("casino.tick() failed")


def create_app(
    services: Services,
    *,
    tick_seconds: float | None = 0.1,
    recover: bool = True,
    logins: LoginLimits = LOGINS,
    command_limit: Limit = COMMAND_LIMIT,
    close_services: bool = False,
    on_started: Callable[[], None] | None = None,
    currency: str = DEFAULT_CURRENCY,
) -> FastAPI:
    """The croupier API over ``services``. ``close_services`` disposes of the database connections at shutdown;
    ``on_started`` runs once at start-up, after the recovery (``croupier serve`` tunes the garbage collector there:
    :mod:`croupier.server.compose`, which builds the running server). ``logins`` caps and limits the password checks
    (:mod:`croupier.server.logins`); a background task forgets expired sessions and old failed logins. ``currency``
    (ISO 4217) is the deployment's, in which the page shows every amount (``GET /api/config``)."""
    check_currency(currency)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if recover:
            recovered = await services.casino_call(Casino.recover)
            if recovered:
                log.info("recovered %d unfinished round(s)", len(recovered))
        if on_started is not None:
            on_started()
        task = asyncio.create_task(_ticker(services, tick_seconds)) if tick_seconds else None
        chores = asyncio.create_task(housekeeping(services.accounts))
        try:
            yield
        finally:
            chores.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await chores
            app.state.logins.close()
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            if close_services:
                services.close()

    app = FastAPI(
        title="croupier",
        version=__version__,
        description="The Macau statutory table games (Roulette 30/2003, Sic Bo 31/2003, Blackjack 57/2009) as a "
        "table service. Authenticate with `POST /api/login` and send `Authorization: Bearer <token>`; money "
        'commands need an `Idempotency-Key` header. Every refusal is `{"error", "detail", "rule"}`.',
        lifespan=lifespan,
        docs_url=None,  # FastAPI's /docs and /redoc load their scripts from a CDN: off (the spec is /openapi.json)
        redoc_url=None,
    )
    app.state.services = services
    app.state.page_config = {"currency": currency}
    app.state.logins = LoginGate(logins)
    app.state.command_limiter = RateLimiter(command_limit, what="commands")
    errors.install(app)
    app.add_middleware(Edge)  # outermost: the body limit and the security headers (croupier.server.edge)
    app.include_router(routes.router)
    app.include_router(ws.router)
    app.include_router(watch.router)
    ui.install(app)  # last: the page's files answer only the paths no route claimed
    return app
