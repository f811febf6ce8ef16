"""The WebSocket of a table: ``/ws/tables/{table_id}`` sends the caller's own view of each event.

**Authentication.** The client's first message names its session: ``{"type": "auth", "token": SESSION_TOKEN}``,
within :data:`AUTH_SECONDS` of the connection. The token is never put in the URL, where the server's log would show
it: a URL with ``token=`` is refused (and the log line that names it shows ``token=[redacted]``,
:mod:`croupier.server.edge`).

Once authenticated the server sends ``{"type": "snapshot", "table", "view"}`` (what ``table_view`` shows the
caller), then every event of the table as ``Subscription.view_for(user)`` filters it (a player never sees another's
hole card or the shoe's order). A refused connection gets one error object (``{"type": "error", "error", "detail",
"rule"}``) and is closed with code 4000 + the HTTP status (4401, 4403, 4404). A session that ends in this server (a
logout, an account disabled or its password reset: :meth:`Services.end_sessions`) ends its sockets at once: each gets
``unauthenticated`` and 4401, and a command that reaches one meanwhile is refused 401. The server also re-checks the
session every :data:`RECHECK_SECONDS` (an expiry, or an act of another process) and closes with 4401 once it has
ended. A message over :data:`~croupier.server.edge.MAX_BODY` bytes (64 KiB) gets ``payload_too_large`` and the socket
is closed with 1009 (uvicorn closes one over its ``ws_max_size`` with 1009 before it is read whole).

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

import asyncio
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
from starlette.types import Message

from croupier.errors import CroupierError
from croupier.server.edge import MAX_BODY, PayloadTooLarge, too_large
from croupier.server.errors import RateLimited, internal_body, status_of
from croupier.server.ratelimit import RateLimiter
from croupier.server.schemas import ActCommand, BetCommand, Command, TableId
from croupier.server.services import Services
from croupier.service.accounts import InvalidSession, User
from croupier.service.casino import Casino, Subscription

router = APIRouter()
log = logging.getLogger(__name__)

POLL_SECONDS = 0.05
BATCH_SECONDS = 0.1
RECHECK_SECONDS = 30.0
COMMAND_RECHECK_SECONDS = 5.0
AUTH_SECONDS = 10.0
MAX_TOKEN = 200
SESSION_ENDED = "The session has ended (logged out, or the account disabled or its password reset); log in again."
TOKEN_IN_URL = (
    'A session token in the URL is refused (it would be logged): send {"type": "auth", "token": …} as the '
    "socket's first message."
)
NO_AUTH = 'The first message must be {"type": "auth", "token": SESSION_TOKEN}.'
COMMANDS: TypeAdapter[BetCommand | ActCommand] = TypeAdapter(Command)


def _encode(value: Any) -> str:
    """``value`` as compact JSON text (orjson: several times faster than ``json`` on the server's busiest path);
    what it cannot encode itself as FastAPI encodes it."""
    return orjson.dumps(value, default=jsonable_encoder, option=orjson.OPT_NON_STR_KEYS).decode()


async def _refuse(websocket: WebSocket, error: CroupierError) -> None:
    await websocket.send_json({"type": "error", **error.as_dict()})
    code = 1009 if isinstance(error, PayloadTooLarge) else 4000 + status_of(error)
    await websocket.close(code=code, reason=error.kind)


def _text(message: Message) -> str:
    """A received message's text (bytes decoded; ``PayloadTooLarge`` over :data:`MAX_BODY`)."""
    text = message.get("text")
    if text is None:
        data = message.get("bytes") or b""
        if len(data) > MAX_BODY:
            raise too_large()
        return str(data.decode("utf-8", "replace"))
    if len(text) > MAX_BODY // 4 and len(text.encode()) > MAX_BODY:
        raise too_large()
    return str(text)


async def _credentials(websocket: WebSocket) -> str | None:
    """The session token of the socket's first message (module docstring); None when the client left first."""
    if "token" in websocket.query_params:
        raise InvalidSession(TOKEN_IN_URL)
    message: Message | None = None
    with anyio.move_on_after(AUTH_SECONDS):
        message = await websocket.receive()
    if message is None:
        raise InvalidSession(f"No authentication came within {AUTH_SECONDS:g} s. {NO_AUTH}")
    if message["type"] == "websocket.disconnect":
        return None
    try:
        raw = orjson.loads(_text(message))
    except orjson.JSONDecodeError:
        raw = None
    token = raw.get("token") if isinstance(raw, dict) and raw.get("type") == "auth" else None
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN:
        raise InvalidSession(NO_AUTH)
    return token


@router.websocket("/ws/tables/{table_id}")
async def table_events(
    websocket: WebSocket,
    table_id: TableId,
    batch: Annotated[bool, Query(description="Send the events of each poll as one message (see above).")] = False,
) -> None:
    """Stream a table's events, each as the caller may see it (the first message authenticates: see above)."""
    svc: Services = websocket.app.state.services
    await websocket.accept()
    try:
        token = await _credentials(websocket)
        if token is None:
            return
        generation = svc.sockets.generation
        user = await anyio.to_thread.run_sync(lambda: svc.accounts.authenticate(token))
        view, subscription = await anyio.to_thread.run_sync(lambda: _open(svc, user, table_id))
    except CroupierError as error:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):  # the client may have left meanwhile
            await _refuse(websocket, error)
        return
    except WebSocketDisconnect:
        return
    client = _Client(websocket, svc, user=user, token=token, table_id=table_id)
    handle = svc.sockets.add(user.username, token, client.end)
    try:
        if svc.sockets.generation != generation:  # a session ended since the check: perhaps this one
            await anyio.to_thread.run_sync(lambda: svc.accounts.authenticate(token))
        await websocket.send_text(_encode({"type": "snapshot", "table": table_id, "view": view}))
        async with anyio.create_task_group() as group:
            client.group = group
            if client.closing is not None:  # ended before it had a group to cancel
                group.cancel_scope.cancel()
            group.start_soon(client.serve)
            await _pump(websocket, svc, subscription, user, token, batch=batch)
            group.cancel_scope.cancel()
        if client.closing is not None:
            with contextlib.suppress(RuntimeError):  # the client left meanwhile
                await _refuse(websocket, client.closing)
    except CroupierError as error:  # the session ended while the socket was being opened
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await _refuse(websocket, error)
    except WebSocketDisconnect:
        pass
    finally:
        svc.sockets.discard(handle)
        _close(svc, subscription)


def _open(svc: Services, user: User, table_id: str) -> tuple[Any, Subscription]:
    return svc.port.open_stream(user, table_id)  # one call: no event falls between the two


def _close(svc: Services, subscription: Subscription) -> None:
    svc.port.close_stream(subscription)


class _Client:
    """The client's side of the socket: its commands (module docstring), and the disconnect. A command costs no
    task of its own: it is checked here, handed to the casino's thread with a callback, and its answer queued for
    the one sender task of the socket."""

    def __init__(self, websocket: WebSocket, svc: Services, *, user: User, token: str, table_id: str) -> None:
        self.websocket, self.svc, self.user, self.token, self.table_id = websocket, svc, user, token, table_id
        self.group: anyio.abc.TaskGroup | None = None  # the socket's tasks, once they run
        self.loop = asyncio.get_running_loop()
        self.closing: CroupierError | None = None  # why the socket is being closed, when it is
        self.checked = time.monotonic()
        self.limiter: RateLimiter = websocket.app.state.command_limiter
        self.outbox: deque[str] = deque()
        self.wake = anyio.Event()

    async def serve(self) -> None:
        """Read the client's messages (run in the socket's task group)."""
        group = self.group
        assert group is not None
        group.start_soon(self.sender)
        while True:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                group.cancel_scope.cancel()
                return
            try:
                text = _text(message)
            except PayloadTooLarge as error:
                self.closing = error
                group.cancel_scope.cancel()
                return
            self.command(text)

    def end(self) -> None:
        """End the socket: its session ended (:meth:`Services.end_sessions`). From any thread: later commands are
        refused at once, and the socket is told and closed on its loop."""
        self.closing = InvalidSession(SESSION_ENDED)  # first: the socket checks it once it has a group
        group = self.group
        if group is not None:
            with contextlib.suppress(RuntimeError):  # the loop is gone: so is the socket
                self.loop.call_soon_threadsafe(group.cancel_scope.cancel)

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
            if self.closing is not None:
                raise self.closing
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
