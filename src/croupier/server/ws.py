"""The WebSocket of a table: ``/ws/tables/{table_id}?token=…`` sends the caller's own view of each event.

On connection the server sends ``{"type": "snapshot", "table", "view"}`` (what ``table_view`` shows the caller),
then every event of the table as ``Subscription.view_for(user)`` filters it (a player never sees another's hole
card or the shoe's order). A refused connection gets one error object (``{"type": "error", "error", "detail",
"rule"}``) and is closed with code 4000 + the HTTP status (4401, 4403, 4404). The server re-checks the session
every :data:`RECHECK_SECONDS` and closes with 4401 once it has ended.

By default each event is one message. With ``?batch=true`` the server instead sends, every :data:`POLL_SECONDS` in
which something happened, one message ``{"type": "events", "table", "events": [...]}`` holding the caller's views
of those events in order (the snapshot and the error object are unchanged): far fewer frames on a busy table.
Messages are not compressed (no per-message deflate): the events are small and compressing each costs more time
than it saves.
"""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect
from fastapi.encoders import jsonable_encoder

from croupier.errors import CroupierError
from croupier.server.errors import status_of
from croupier.server.routes import plain
from croupier.server.schemas import TableId
from croupier.server.services import Services
from croupier.service.accounts import User
from croupier.service.casino import Subscription

router = APIRouter()

POLL_SECONDS = 0.05
RECHECK_SECONDS = 30.0


def _encode(value: Any) -> str:
    """``value`` as compact JSON text; what ``json`` cannot encode (datetimes, decimals…) as FastAPI encodes it."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=jsonable_encoder)


async def _refuse(websocket: WebSocket, error: CroupierError) -> None:
    await websocket.send_json({"type": "error", **error.as_dict()})
    await websocket.close(code=4000 + status_of(error), reason=error.kind)


@router.websocket("/ws/tables/{table_id}")
async def table_events(
    websocket: WebSocket,
    table_id: TableId,
    token: Annotated[str, Query(max_length=200)] = "",
    batch: Annotated[bool, Query(description="Send the events of each poll as one message (see above).")] = False,
) -> None:
    """Stream a table's events, each as the caller may see it."""
    svc: Services = websocket.app.state.services
    await websocket.accept()
    try:
        user = await anyio.to_thread.run_sync(lambda: svc.accounts.authenticate(token))
        view, subscription = await anyio.to_thread.run_sync(lambda: _open(svc, user, table_id))
    except CroupierError as error:
        await _refuse(websocket, error)
        return
    try:
        await websocket.send_text(_encode({"type": "snapshot", "table": table_id, "view": view}))
        async with anyio.create_task_group() as group:
            group.start_soon(_watch_client, websocket, group.cancel_scope)
            await _pump(websocket, svc, subscription, user, token, batch=batch)
            group.cancel_scope.cancel()
    except WebSocketDisconnect:
        pass
    finally:
        _close(svc, subscription)


def _open(svc: Services, user: User, table_id: str) -> tuple[Any, Subscription]:
    with svc.casino_lock:
        view = plain(svc.casino.table_view(user, table_id))
        return view, svc.casino.subscribe(table_id)


def _close(svc: Services, subscription: Subscription) -> None:
    svc.at_casino(lambda: svc.casino.unsubscribe(subscription))


async def _watch_client(websocket: WebSocket, scope: anyio.CancelScope) -> None:
    # Messages from the client are not commands (those go over REST); this only notices the disconnect.
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            scope.cancel()
            return


async def _pump(
    websocket: WebSocket, svc: Services, subscription: Subscription, user: User, token: str, *, batch: bool
) -> None:
    checked = time.monotonic()
    while True:
        shown = [v for v in (subscription.view_for(user, e) for e in _drain(subscription)) if v is not None]
        if batch:
            if shown:
                await websocket.send_text(_encode({"type": "events", "table": subscription.table_id, "events": shown}))
        else:
            for view in shown:
                await websocket.send_text(_encode(view))
        if time.monotonic() - checked > RECHECK_SECONDS:
            checked = time.monotonic()
            try:
                await anyio.to_thread.run_sync(lambda: svc.accounts.authenticate(token))
            except CroupierError as error:
                await _refuse(websocket, error)
                return
        await anyio.sleep(POLL_SECONDS)


def _drain(subscription: Subscription) -> list[dict[str, Any]]:
    # popleft is atomic: an event the casino appends meanwhile stays for the next pass.
    out = []
    while True:
        try:
            out.append(subscription.events.popleft())
        except IndexError:
            return out
