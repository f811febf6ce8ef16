"""The server's edge, before any route runs: the request body limit, the security headers, and the log's redaction.

- **Body limit** (:class:`Edge`): no request body may exceed :data:`MAX_BODY` bytes (64 KiB; the largest the API
  takes, a rules document, is a few KiB). A request whose ``Content-Length`` is larger is answered 413 at once, its
  body never read; a chunked body is read (at most the limit) before the route runs and answered 413 as soon as it
  passes the limit. The answer is the API's error shape, ``{"error": "payload_too_large", "detail", "rule": null}``,
  with ``Connection: close``. A body within ``Content-Length`` is passed on untouched (the server itself never
  delivers more than the length announced): a bet's request costs a look at its headers. The table sockets' messages
  have the same limit (uvicorn's ``ws_max_size`` in ``croupier serve``, and :mod:`croupier.server.ws` itself).
- **Security headers** on every HTTP answer (:data:`SECURITY_HEADERS`): a Content-Security-Policy that lets the page
  load only its own files (scripts, styles, the catalogues, its socket; no inline script, no frame around it), and
  ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer``, ``X-Frame-Options: DENY``.
- **Redaction** (:func:`redact_logs`): no session token reaches the log. The socket takes its token in its first
  message, never in the URL (:mod:`croupier.server.ws`), and no route reads one from a URL; a socket whose URL still
  has ``token=`` is refused, and uvicorn's lines that name a URL (the socket's "accepted" line, the access log) show
  any ``token=`` or ``password=`` value as ``[redacted]``.

A pure ASGI middleware (not Starlette's ``BaseHTTPMiddleware``, which would run each request in a task of its own).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from croupier.errors import CroupierError

MAX_BODY = 64 * 1024
"""The most bytes a request body or a socket's message may have."""

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""What the page may load: its own files only (``data:`` images for its empty favicon), and no frame around it."""

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)


class PayloadTooLarge(CroupierError):
    """A request body or socket message over :data:`MAX_BODY` bytes; it was not read (413)."""

    kind = "payload_too_large"


def too_large(limit: int = MAX_BODY) -> PayloadTooLarge:
    """The refusal of a body or message over ``limit`` bytes."""
    return PayloadTooLarge(f"The request is larger than {limit} bytes, the most this server reads; it was not read.")


class Edge:
    """The ASGI middleware of the module docstring: the body limit and the security headers."""

    def __init__(
        self, app: ASGIApp, *, max_body: int = MAX_BODY, headers: Iterable[tuple[bytes, bytes]] = SECURITY_HEADERS
    ) -> None:
        self.app, self.max_body, self.headers = app, max_body, tuple(headers)
        self.names = frozenset(name for name, _ in self.headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length: int | None = None
        chunked = False
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    length = self.max_body + 1  # the server refuses such a request before it gets here
            elif name == b"transfer-encoding":
                chunked = True
        if length is not None and length > self.max_body:
            await self._refuse(send)
            return
        if chunked:
            body = await self._read(receive)
            if body is None:
                await self._refuse(send)
                return
            receive = _Replay(body, receive)
        await self.app(scope, receive, self._sender(send))

    def _sender(self, send: Send) -> Send:
        headers, names = self.headers, self.names

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                mine = [(n, v) for n, v in message.get("headers", ()) if n.lower() not in names]
                message = {**message, "headers": [*mine, *headers]}
            await send(message)

        return sending

    async def _read(self, receive: Receive) -> bytes | None:
        """The whole chunked body, or None once it passes the limit (or the client leaves)."""
        parts: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            parts.append(chunk)
            if not message.get("more_body", False):
                return b"".join(parts)

    async def _refuse(self, send: Send) -> None:
        body = orjson.dumps(too_large(self.max_body).as_dict())
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
            *self.headers,
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


class _Replay:
    """The ``receive`` of a request whose body was read already: the body once, then the client's own messages
    (its disconnect)."""

    def __init__(self, body: bytes, receive: Receive) -> None:
        self.body: bytes | None = body
        self.receive = receive

    async def __call__(self) -> Message:
        if self.body is not None:
            body, self.body = self.body, None
            return {"type": "http.request", "body": body, "more_body": False}
        return await self.receive()


SECRET_IN_URL = re.compile(r"((?:token|password)=)[^&\s\"']*", re.IGNORECASE)


def _redacted(text: str) -> str:
    lowered = text.lower()
    if "token=" in lowered or "password=" in lowered:
        return SECRET_IN_URL.sub(r"\1[redacted]", text)
    return text


class Redact(logging.Filter):
    """Replaces the value of any ``token=`` or ``password=`` in a log record (its message and its arguments, which
    uvicorn's access formatter reads one by one) by ``[redacted]``."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = _redacted(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(a) if isinstance(a, str) else a for a in record.args)
        return True


REDACTED_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access")


def redact_logs() -> None:
    """Put :class:`Redact` on uvicorn's loggers (once; after uvicorn configured its logging)."""
    for name in REDACTED_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, Redact) for f in logger.filters):
            logger.addFilter(Redact())
