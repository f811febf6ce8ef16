"""Errors mapped to HTTP in one place: every refusal answers ``{"error": kind, "detail": message, "rule": rule}``.

Validation and rule errors are 4xx (never a 5xx for bad input): a malformed request or value 422, a bet or action
the table refuses 409, an unknown account, table or round 404, ``Forbidden`` 403, a missing or bad session or a
failed login 401 (with ``WWW-Authenticate: Bearer``), a disabled account 423, too many requests 429 (with
``Retry-After``: the rate limits and the login backoff), a weak new password 422, the last admin's removal 409.

Only a :class:`~croupier.errors.CroupierError` is a refusal. Any other exception (a ``ValueError`` included) is an
internal fault: it is logged with its traceback and answered 500 in the same shape, ``{"error": "internal_error",
"detail": ..., "rule": null}``, with a detail that names nothing of the server's internals.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from croupier.errors import BetRejected, CroupierError, IllegalAction, InvalidInput, InvalidRules
from croupier.service.accounts import (
    AccountExists,
    AccountLocked,
    Forbidden,
    InvalidSession,
    LastAdmin,
    LoginFailed,
    LoginThrottled,
    WeakPassword,
)
from croupier.service.casino import TableExists
from croupier.service.ledger import IdempotencyConflict, LedgerError

log = logging.getLogger(__name__)


class RateLimited(CroupierError):
    """Too many logins or commands in a short time; the request was not run."""

    kind = "rate_limited"

    def __init__(self, message: str, *, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


# Most specific first: the first class an error is an instance of gives its status.
STATUS: tuple[tuple[type[CroupierError], int], ...] = (
    (RateLimited, 429),
    (LoginThrottled, 429),
    (InvalidSession, 401),
    (LoginFailed, 401),
    (Forbidden, 403),
    (AccountLocked, 423),
    (AccountExists, 409),
    (LastAdmin, 409),
    (WeakPassword, 422),
    (TableExists, 409),
    (IdempotencyConflict, 409),
    (BetRejected, 409),
    (IllegalAction, 409),
    (InvalidRules, 422),
    (InvalidInput, 422),
    (LedgerError, 409),
)


def status_of(error: CroupierError) -> int:
    """The HTTP status of a refusal: from :data:`STATUS`, 404 for any ``unknown_*`` kind, else 400."""
    for cls, status in STATUS:
        if isinstance(error, cls):
            return status
    if error.kind.startswith("unknown"):
        return 404
    return 400


INTERNAL_ERROR = "internal_error"
INTERNAL_DETAIL = "The server failed while answering this request; the fault is logged."


def error_body(kind: str, detail: str, rule: str | None = None) -> dict[str, Any]:
    """The one error shape of the API."""
    return {"error": kind, "detail": detail, "rule": rule}


def internal_body() -> dict[str, Any]:
    """The answer to an internal fault: the error shape, naming nothing of the fault."""
    return error_body(INTERNAL_ERROR, INTERNAL_DETAIL)


def croupier_response(error: CroupierError) -> JSONResponse:
    """The response to a refusal raised by the service (or the edge)."""
    status = status_of(error)
    headers: dict[str, str] = {}
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    if isinstance(error, (RateLimited, LoginThrottled)):
        headers["Retry-After"] = str(max(1, math.ceil(error.retry_after)))
    return JSONResponse(jsonable_encoder(error.as_dict()), status_code=status, headers=headers)


def _describe(errors: list[Any]) -> str:
    parts = []
    for e in errors[:5]:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "request"
        parts.append(f"{where}: {e.get('msg', 'invalid')}")
    more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
    return "The request is malformed: " + "; ".join(parts) + more + "."


def _allowed(request: Request, headers: Mapping[str, str] | None) -> dict[str, str]:
    """A 405's headers, with every method the request's path takes in ``Allow`` (a route's 405 names only its own,
    and a path may have a route for each method): the methods the OpenAPI document gives the path."""
    path = getattr(request.scope.get("route"), "path", None)
    operations = request.app.openapi()["paths"].get(path) if isinstance(path, str) else None
    if not operations:
        return dict(headers or {})
    return {**(headers or {}), "Allow": ", ".join(sorted(m.upper() for m in operations))}


def install(app: FastAPI) -> None:
    """Register the handlers that turn every refusal into the error shape."""

    async def on_croupier(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, CroupierError)
        return croupier_response(exc)

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        body = error_body("invalid_request", _describe(list(exc.errors())))
        return JSONResponse(body, status_code=422)

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        kind = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        headers = _allowed(request, exc.headers) if exc.status_code == 405 else exc.headers
        return JSONResponse(error_body(kind, detail), status_code=exc.status_code, headers=headers)

    app.add_exception_handler(CroupierError, on_croupier)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_middleware(InternalFaults)


class InternalFaults:
    """Any exception of an HTTP request that no handler above mapped: logged here once, with its traceback, and
    answered 500 ``internal_error`` (unless the response had already begun: then the connection is dropped). A
    middleware rather than a handler of ``Exception``, which Starlette re-raises to the server after answering."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception:
            log.exception("internal error answering %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise
            await JSONResponse(internal_body(), status_code=500)(scope, receive, send)
