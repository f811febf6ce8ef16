"""The browser table (issue 6, ``docs/browser-ui.md``): the single-page client served at ``/`` from the package
folder ``web/``, and the few read endpoints it needs beyond the API (a table's rules and history, the caller's own
rounds) plus the dealer's bell on a live table.

:func:`install` is called last in ``create_app`` so that ``/api`` and ``/ws`` keep their routes: the static files
only answer the paths nothing else claimed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query
from fastapi.staticfiles import StaticFiles

from croupier.server.deps import Caller, Commander, Services_
from croupier.server.routes import ERRORS, TablePath, plain
from croupier.server.schemas import TableId
from croupier.service.casino import Casino

WEB = Path(__file__).with_name("web")
"""The page's files: index.html, css/, js/, i18n/."""

router = APIRouter(prefix="/api", responses=ERRORS)


@router.get("/tables/{table_id}/rules", tags=["tables"])
def table_rules(table_id: TablePath, user: Caller, svc: Services_) -> Any:
    """A table's rules for the page: each bet kind with its payout (odds to 1) and limits, the layout, and each
    rule as a catalogue key with parameters (any role)."""
    return plain(svc.at_casino(Casino.table_rules, user, table_id))


@router.get("/tables/{table_id}/history", tags=["tables"])
def table_history(
    table_id: TablePath, user: Caller, svc: Services_, last: Annotated[int, Query(ge=1, le=500)] = 50
) -> Any:
    """The public results of a roulette or sic bo table's last settled rounds, newest first, with statistics."""
    return plain(svc.at_casino(Casino.table_history, user, table_id, last=last))


@router.get("/me/rounds", tags=["play"])
def my_rounds(
    user: Caller,
    svc: Services_,
    table: Annotated[TableId | None, Query(description="One table's rounds; all open tables without.")] = None,
    last: Annotated[int, Query(ge=1, le=100)] = 10,
) -> Any:
    """The caller's own recent rounds: their stakes, the result and their nets (players only)."""
    return plain(svc.at_casino(Casino.player_rounds, user, table, last=last))


@router.post("/tables/{table_id}/close-betting", tags=["dealer"])
def close_betting(table_id: TablePath, user: Commander, svc: Services_) -> Any:
    """The dealer's bell on a live table: betting closes now (dealers only; refused on RNG tables)."""
    return plain(svc.at_casino(Casino.close_betting, user, table_id))


def install(app: FastAPI) -> None:
    """Add the page's endpoints and serve ``web/`` at ``/`` (after every other route)."""
    app.include_router(router)
    app.mount("/", StaticFiles(directory=WEB, html=True, check_dir=False), name="web")
