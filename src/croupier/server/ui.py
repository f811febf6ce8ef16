"""The browser table (issue 6, ``docs/browser-ui.md``): the single-page client served at ``/`` from the package
folder ``web/``, and the few read endpoints it needs beyond the API (a table's rules and history, the caller's own
rounds) plus the dealer's bell on a live table and the undo of a card reported but not yet used.

:func:`install` is called last in ``create_app`` so that ``/api`` and ``/ws`` keep their routes: the static files
only answer the paths nothing else claimed, and never a path under ``/api/`` or ``/ws/`` (a request there with a
method its route does not take is the route's 405, not the page's).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, cast

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.staticfiles import StaticFiles
from pydantic import StringConstraints
from starlette.routing import Match, Mount
from starlette.types import Scope

from croupier.server.deps import Caller, Commander, Services_
from croupier.server.routes import ERRORS, TablePath
from croupier.server.schemas import Body, TableId
from croupier.service.casino import Casino
from croupier.service.payloads import (
    BettingClosed,
    CardTakenBack,
    PageConfig,
    PlayerRound,
    TableHistory,
    TableRules,
)

WEB = Path(__file__).with_name("web")
"""The page's files: index.html, css/, js/, i18n/."""

router = APIRouter(prefix="/api", responses=ERRORS)


@router.get("/config", tags=["sessions"])
async def page_config(request: Request) -> PageConfig:
    """The deployment's settings the page needs before anyone signs in: the currency of every amount (ISO 4217)."""
    return cast(PageConfig, request.app.state.page_config)


@router.get("/tables/{table_id}/rules", tags=["tables"])
async def table_rules(table_id: TablePath, user: Caller, svc: Services_) -> TableRules:
    """A table's rules for the page: each bet kind with its payout (odds to 1) and limits, the layout, and each
    rule as a catalogue key with parameters (any role)."""
    return cast(TableRules, await svc.casino_call(Casino.table_rules, user, table_id))


@router.get("/tables/{table_id}/history", tags=["tables"])
async def table_history(
    table_id: TablePath, user: Caller, svc: Services_, last: Annotated[int, Query(ge=1, le=500)] = 50
) -> TableHistory:
    """The public results of a roulette or sic bo table's last settled rounds, newest first, with statistics."""
    return cast(TableHistory, await svc.casino_call(Casino.table_history, user, table_id, last=last))


@router.get("/me/rounds", tags=["play"])
async def my_rounds(
    user: Caller,
    svc: Services_,
    table: Annotated[TableId | None, Query(description="One table's rounds; all open tables without.")] = None,
    last: Annotated[int, Query(ge=1, le=100)] = 10,
) -> list[PlayerRound]:
    """The caller's own recent rounds: their stakes, the result and their nets (players only)."""
    return cast(list[PlayerRound], await svc.casino_call(Casino.player_rounds, user, table, last=last))


@router.post("/tables/{table_id}/close-betting", tags=["dealer"])
async def close_betting(table_id: TablePath, user: Commander, svc: Services_) -> BettingClosed:
    """The dealer's bell on a live table: betting closes now (dealers only; refused on RNG tables)."""
    return cast(BettingClosed, await svc.casino_call(Casino.close_betting, user, table_id))


class TakeBack(Body):
    """The card the dealer takes back: the last one reported (checked when given)."""

    card: Annotated[str, StringConstraints(min_length=2, max_length=3)] | None = None


@router.post("/tables/{table_id}/results/undo", tags=["dealer"])
async def take_back(
    table_id: TablePath, user: Commander, svc: Services_, body: TakeBack | None = None
) -> CardTakenBack:
    """A live blackjack table's dealer takes back the last card reported while the round has not used it (dealers of
    the table only; audited). 409 with the rule once the card is in play (BJ 5.1.2), and on roulette and sic bo,
    whose console holds a result until it is sent."""
    card = body.card if body is not None else None
    return cast(CardTakenBack, await svc.casino_call(Casino.take_back, user, table_id, card))


class _Page(Mount):
    """The page's files at ``/``: every path but the API's and the sockets'."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if str(scope.get("path", "")).startswith(("/api/", "/ws/")):
            return Match.NONE, {}
        return super().matches(scope)


def install(app: FastAPI) -> None:
    """Add the page's endpoints and serve ``web/`` at ``/`` (after every other route)."""
    app.include_router(router)
    app.router.routes.append(_Page("/", StaticFiles(directory=WEB, html=True, check_dir=False), name="web"))
