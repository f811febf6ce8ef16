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

**Commands.** A player may also send the table's commands over the same socket instead of REST, as JSON text:
``{"type": "bet", "id": ID, "key": IDEMPOTENCY_KEY, "bet": {...}}`` (as ``POST /api/tables/{id}/bets``) or
``{"type": "act", "id": ID, "key": ..., "action": ..., "box"?, "hand"?, "amount"?}`` (as ``POST …/actions``).
Each is validated as its REST body, counted against the same per-account command rate limit, and answered with
``{"type": "answer", "id": ID, "status": 201|200, "result": {...}}`` or, refused and nothing changed,
``{"type": "answer", "id": ID, "status": 4xx, "error", "detail", "rule"}`` (``retry_after`` seconds with 429) —
the same status and body REST would give. ``ID`` (a string or an integer) is the client's, echoed so it can pipeline
commands. The session is checked again before a command when a second has passed since the last check. A bet is
answered only once it is durable (the casino's group commit): an answer is never taken back.
"""

from __future__ import annotations

import contextlib
import json
import time
from typing import Annotated, Any

import anyio
import anyio.abc
from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect
from fastapi.encoders import jsonable_encoder
from pydantic import TypeAdapter, ValidationError

from croupier.errors import CroupierError
from croupier.server.errors import RateLimited, status_of
from croupier.server.ratelimit import RateLimiter
from croupier.server.routes import plain
from croupier.server.schemas import ActCommand, BetCommand, Command, TableId
from croupier.server.services import Services
from croupier.service.accounts import User
from croupier.service.casino import Subscription

router = APIRouter()

POLL_SECONDS = 0.05
RECHECK_SECONDS = 30.0
COMMAND_RECHECK_SECONDS = 1.0
COMMANDS: TypeAdapter[BetCommand | ActCommand] = TypeAdapter(Command)


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
            client = _Client(websocket, svc, user=user, token=token, table_id=table_id, group=group)
            group.start_soon(client.serve)
            await _pump(websocket, svc, subscription, user, token, batch=batch)
            group.cancel_scope.cancel()
    except WebSocketDisconnect:
        pass
    finally:
        _close(svc, subscription)


def _open(svc: Services, user: User, table_id: str) -> tuple[Any, Subscription]:
    def both() -> tuple[Any, Subscription]:  # one call on the casino's thread: no event falls between the two
        return plain(svc.casino.table_view(user, table_id)), svc.casino.subscribe(table_id)

    return svc.at_casino(both)


def _close(svc: Services, subscription: Subscription) -> None:
    svc.at_casino(lambda: svc.casino.unsubscribe(subscription))


class _Client:
    """The client's side of the socket: its commands (module docstring), and the disconnect."""

    def __init__(
        self, websocket: WebSocket, svc: Services, *, user: User, token: str, table_id: str, group: anyio.abc.TaskGroup
    ) -> None:
        self.websocket, self.svc, self.user, self.token, self.table_id = websocket, svc, user, token, table_id
        self.group = group
        self.checked = time.monotonic()
        self.limiter: RateLimiter = websocket.app.state.command_limiter

    async def serve(self) -> None:
        while True:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                self.group.cancel_scope.cancel()
                return
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", "replace")
            self.group.start_soon(self.command, text)

    async def command(self, text: str) -> None:
        command_id: Any = None
        try:
            try:
                raw = json.loads(text)
                command_id = raw.get("id") if isinstance(raw, dict) else None
                command = COMMANDS.validate_python(raw)
            except (ValueError, ValidationError) as error:
                detail = _invalid(error)
                await self.send({"type": "answer", "id": command_id, "status": 422, **_body("invalid_request", detail)})
                return
            if time.monotonic() - self.checked > COMMAND_RECHECK_SECONDS:
                self.user = self.svc.accounts.authenticate(self.token)
                self.checked = time.monotonic()
            self.limiter.take(self.user.username)
            user, table_id, casino = self.user, self.table_id, self.svc.casino
            if isinstance(command, BetCommand):
                bet = command.bet.document()
                result = await self.svc.casino_call(
                    lambda: casino.place_bet(user, table_id, bet, command.key), bet=True
                )
                status = 201
            else:
                result = await self.svc.casino_call(
                    lambda: casino.act(
                        user,
                        table_id,
                        command.action,
                        command.key,
                        box=command.box,
                        hand=command.hand,
                        amount=command.amount,
                    )
                )
                status = 200
            await self.send({"type": "answer", "id": command.id, "status": status, "result": plain(result)})
        except CroupierError as error:
            answer = {"type": "answer", "id": command_id, "status": status_of(error), **error.as_dict()}
            if isinstance(error, RateLimited):
                answer["retry_after"] = round(error.retry_after, 3)
            await self.send(answer)

    async def send(self, value: dict[str, Any]) -> None:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):  # the client left meanwhile
            await self.websocket.send_text(_encode(value))


def _body(kind: str, detail: str) -> dict[str, Any]:
    return {"error": kind, "detail": detail, "rule": None}


def _invalid(error: ValueError | ValidationError) -> str:
    if isinstance(error, ValidationError):
        parts = [f"{'.'.join(str(p) for p in e['loc']) or 'command'}: {e['msg']}" for e in error.errors()[:5]]
        return "The command is malformed: " + "; ".join(parts) + "."
    return f"The command is not JSON: {error}."


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
