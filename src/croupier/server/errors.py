"""Errors mapped to HTTP in one place: every refusal answers ``{"error": kind, "detail": message, "rule": rule}``.

Validation and rule errors are 4xx (never a 5xx for bad input): a malformed request or value 422, a bet or action
the table refuses 409, an unknown account, table or round 404, ``Forbidden`` 403, a missing or bad session or a
failed login 401 (with ``WWW-Authenticate: Bearer``), a locked account 423, too many requests 429.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from croupier.errors import BetRejected, CroupierError, IllegalAction, InvalidInput, InvalidRules
from croupier.service.accounts import AccountExists, AccountLocked, Forbidden, InvalidSession, LoginFailed
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
    (InvalidSession, 401),
    (LoginFailed, 401),
    (Forbidden, 403),
    (AccountLocked, 423),
    (AccountExists, 409),
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


def error_body(kind: str, detail: str, rule: str | None = None) -> dict[str, Any]:
    """The one error shape of the API."""
    return {"error": kind, "detail": detail, "rule": rule}


def croupier_response(error: CroupierError) -> JSONResponse:
    """The response to a refusal raised by the service (or the edge)."""
    status = status_of(error)
    headers: dict[str, str] = {}
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    if isinstance(error, RateLimited):
        headers["Retry-After"] = str(max(1, round(error.retry_after)))
    return JSONResponse(jsonable_encoder(error.as_dict()), status_code=status, headers=headers)


def _describe(errors: list[Any]) -> str:
    parts = []
    for e in errors[:5]:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "request"
        parts.append(f"{where}: {e.get('msg', 'invalid')}")
    more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
    return "The request is malformed: " + "; ".join(parts) + more + "."


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
        return JSONResponse(error_body(kind, detail), status_code=exc.status_code, headers=exc.headers)

    async def on_value(request: Request, exc: Exception) -> JSONResponse:
        # A ValueError outside the hierarchy is still bad input, not a server fault.
        log.warning("unclassified ValueError on %s: %s", request.url.path, exc)
        return JSONResponse(error_body("invalid_input", str(exc)), status_code=400)

    app.add_exception_handler(CroupierError, on_croupier)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(ValueError, on_value)
