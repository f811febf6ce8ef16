"""The WebSocket of a table: ``/ws/tables/{table_id}?token=…`` sends the caller's own view of each event.

On connection the server sends ``{"type": "snapshot", "table", "view"}`` (what ``table_view`` shows the caller),
then every event of the table as ``Subscription.view_for(user)`` filters it (a player never sees another's hole
card or the shoe's order). A refused connection gets one error object (``{"type": "error", "error", "detail",
"rule"}``) and is closed with code 4000 + the HTTP status (4401, 4403, 4404). The server re-checks the session
every :data:`RECHECK_SECONDS` and closes with 4401 once it has ended.

By default each event is one message, sent within :data:`POLL_SECONDS`. With ``?batch=true`` the server instead
sends, every :data:`BATCH_SECONDS` in which something happened, one message
``{"type": "events", "table", "events": [...]}`` holding the caller's views of those events in order (the snapshot
and the error object are unchanged): far fewer frames on a busy table.
Messages are not compressed (no per-message deflate): the events are small and compressing each costs more time
than it saves.

**Commands.** A player may also send the table's commands over the same socket instead of REST, as JSON text:
``{"type": "bet", "id": ID, "key": IDEMPOTENCY_KEY, "bet": {...}}`` (as ``POST /api/tables/{id}/bets``) or
``{"type": "act", "id": ID, "key": ..., "action": ..., "box"?, "hand"?, "amount"?}`` (as ``POST …/actions``).
Each is validated as its REST body, counted against the same per-account command rate limit, and answered with
``{"type": "answer", "id": ID, "status": 201|200, "result": {...}}`` or, refused and nothing changed,
``{"type": "answer", "id": ID, "status": 4xx, "error", "detail", "rule"}`` (``retry_after`` seconds with 429) —
the same status and body REST would give. ``ID`` (a string or an integer) is the client's, echoed so it can pipeline
commands. The session is checked again before a command when five seconds have passed since the last check. A bet is
answered only once it is durable (the casino's group commit): an answer is never taken back. A fault of the server's
own (anything but a refusal) is logged and answered ``{"type": "answer", "id": ID, "status": 500, "error":
"internal_error", "detail", "rule": null}``; the socket serves on.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Annotated, Any

import anyio
import anyio.abc
import orjson
from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect
from fastapi.encoders import jsonable_encoder
from pydantic import TypeAdapter, ValidationError

from croupier.errors import CroupierError
from croupier.server.errors import RateLimited, internal_body, status_of
from croupier.server.ratelimit import RateLimiter
from croupier.server.schemas import ActCommand, BetCommand, Command, TableId
from croupier.server.services import Services
from croupier.service.accounts import User
from croupier.service.casino import Casino, Subscription

router = APIRouter()
log = logging.getLogger(__name__)

POLL_SECONDS = 0.05
BATCH_SECONDS = 0.1
RECHECK_SECONDS = 30.0
COMMAND_RECHECK_SECONDS = 5.0
COMMANDS: TypeAdapter[BetCommand | ActCommand] = TypeAdapter(Command)


def _encode(value: Any) -> str:
    """``value`` as compact JSON text (orjson: several times faster than ``json`` on the server's busiest path);
    what it cannot encode itself as FastAPI encodes it."""
    return orjson.dumps(value, default=jsonable_encoder, option=orjson.OPT_NON_STR_KEYS).decode()


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
    return svc.port.open_stream(user, table_id)  # one call: no event falls between the two


def _close(svc: Services, subscription: Subscription) -> None:
    svc.port.close_stream(subscription)


class _Client:
    """The client's side of the socket: its commands (module docstring), and the disconnect. A command costs no
    task of its own: it is checked here, handed to the casino's thread with a callback, and its answer queued for
    the one sender task of the socket."""

    def __init__(
        self, websocket: WebSocket, svc: Services, *, user: User, token: str, table_id: str, group: anyio.abc.TaskGroup
    ) -> None:
        self.websocket, self.svc, self.user, self.token, self.table_id = websocket, svc, user, token, table_id
        self.group = group
        self.checked = time.monotonic()
        self.limiter: RateLimiter = websocket.app.state.command_limiter
        self.outbox: deque[str] = deque()
        self.wake = anyio.Event()

    async def serve(self) -> None:
        self.group.start_soon(self.sender)
        while True:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                self.group.cancel_scope.cancel()
                return
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", "replace")
            self.command(text)

    def command(self, text: str) -> None:
        """Check a command and hand it to the casino. A refusal is answered as REST answers it; any other fault
        (this server's) is logged and answered 500 ``internal_error``, and the socket serves on."""
        command_id: Any = None
        try:
            try:
                raw = orjson.loads(text)
                command_id = raw.get("id") if isinstance(raw, dict) else None
                command = COMMANDS.validate_python(raw)
            except (orjson.JSONDecodeError, ValidationError) as error:
                self.answer(
                    {"type": "answer", "id": command_id, "status": 422, **_body("invalid_request", _invalid(error))}
                )
                return
            if time.monotonic() - self.checked > COMMAND_RECHECK_SECONDS:
                self.user = self.svc.accounts.authenticate(self.token)
                self.checked = time.monotonic()
            self.limiter.take(self.user.username)
            self.submit(command)
        except CroupierError as error:
            self.refused(command_id, error)
        except Exception:
            log.exception("a WebSocket command failed")
            self.failed(command_id)

    def submit(self, command: BetCommand | ActCommand) -> None:
        user, table_id = self.user, self.table_id
        method: Callable[..., Any]
        args: tuple[Any, ...]
        kwargs: dict[str, Any] = {}
        if isinstance(command, BetCommand):
            method, args, status = Casino.place_bet, (user, table_id, command.bet.document(), command.key), 201
        else:
            method, status = Casino.act, 200
            args = (user, table_id, command.action, command.key)
            kwargs = {"box": command.box, "hand": command.hand, "amount": command.amount}

        def done(ok: bool, value: Any) -> None:
            if ok:
                self.answer({"type": "answer", "id": command.id, "status": status, "result": value})
            elif isinstance(value, CroupierError):
                self.refused(command.id, value)
            else:
                log.error("command %r failed", command.type, exc_info=value)
                self.failed(command.id)

        self.svc.port.submit(method, args, kwargs, done, bet=method is Casino.place_bet)

    def failed(self, command_id: Any) -> None:
        self.answer({"type": "answer", "id": command_id, "status": 500, **internal_body()})

    def refused(self, command_id: Any, error: CroupierError) -> None:
        answer = {"type": "answer", "id": command_id, "status": status_of(error), **error.as_dict()}
        if isinstance(error, RateLimited):
            answer["retry_after"] = round(error.retry_after, 3)
        self.answer(answer)

    def answer(self, value: dict[str, Any]) -> None:
        self.outbox.append(_encode(value))
        self.wake.set()

    async def sender(self) -> None:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):  # the client left meanwhile
            while True:
                await self.wake.wait()
                self.wake = anyio.Event()
                while self.outbox:
                    await self.websocket.send_text(self.outbox.popleft())


def _body(kind: str, detail: str) -> dict[str, Any]:
    return {"error": kind, "detail": detail, "rule": None}


def _invalid(error: orjson.JSONDecodeError | ValidationError) -> str:
    if isinstance(error, ValidationError):
        parts = [f"{'.'.join(str(p) for p in e['loc']) or 'command'}: {e['msg']}" for e in error.errors()[:5]]
        return "The command is malformed: " + "; ".join(parts) + "."
    return f"The command is not JSON: {error}."


class _SharedTexts:
    """The JSON text of each event that every viewer sees alike (one without private parts), encoded once for all
    the table's subscribers instead of once each. Bounded; it holds the event itself, so an entry can never be
    mistaken for another event's."""

    def __init__(self, size: int = 8192) -> None:
        self.size = size
        self._texts: OrderedDict[int, tuple[dict[str, Any], str]] = OrderedDict()

    def text(self, event: dict[str, Any], user: User) -> str:
        if "_private" in event:
            return _encode(Subscription.view_for(user, event))
        cached = self._texts.get(id(event))
        if cached is not None and cached[0] is event:
            return cached[1]
        text = _encode(Subscription.view_for(user, event))
        self._texts[id(event)] = (event, text)
        if len(self._texts) > self.size:
            self._texts.popitem(last=False)
        return text


SHARED = _SharedTexts()


async def _pump(
    websocket: WebSocket, svc: Services, subscription: Subscription, user: User, token: str, *, batch: bool
) -> None:
    checked = time.monotonic()
    while True:
        shown = [SHARED.text(e, user) for e in _drain(subscription)]
        if batch:
            if shown:
                table = _encode(subscription.table_id)
                await websocket.send_text(f'{{"type":"events","table":{table},"events":[{",".join(shown)}]}}')
        else:
            for text in shown:
                await websocket.send_text(text)
        if time.monotonic() - checked > RECHECK_SECONDS:
            checked = time.monotonic()
            try:
                await anyio.to_thread.run_sync(lambda: svc.accounts.authenticate(token))
            except CroupierError as error:
                await _refuse(websocket, error)
                return
        await anyio.sleep(BATCH_SECONDS if batch else POLL_SECONDS)


def _drain(subscription: Subscription) -> list[dict[str, Any]]:
    # popleft is atomic: an event the casino appends meanwhile stays for the next pass.
    out = []
    while True:
        try:
            out.append(subscription.events.popleft())
        except IndexError:
            return out
