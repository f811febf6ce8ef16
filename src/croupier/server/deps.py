"""Request dependencies: the services, the caller (from the bearer session token) and the rate limits.

They are ``async`` so that FastAPI runs them on the event loop instead of sending each to a worker thread: all
of them are short (the session check is an indexed read of the session and the account). The endpoints that
call the casino await its answer (from its own thread or process), so the casino's work, its lock and its durable
commit never block the loop."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from croupier.server.logins import LoginGate
from croupier.server.ratelimit import RateLimiter
from croupier.server.schemas import IdempotencyKey
from croupier.server.services import Services
from croupier.service.accounts import Forbidden, Role, User

bearer = HTTPBearer(auto_error=False, description="The token from POST /api/login.")


def _services(request: Request) -> Services:
    value: Services = request.app.state.services
    return value


async def services(request: Request) -> Services:
    """The app's services."""
    return _services(request)


def _limiter(request: Request, name: str) -> RateLimiter:
    limiter: RateLimiter = getattr(request.app.state, name)
    return limiter


async def caller(
    request: Request, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
) -> User:
    """The account behind the request's bearer token (401 ``unauthenticated`` without a valid one)."""
    token = credentials.credentials if credentials is not None else ""
    return _services(request).accounts.authenticate(token)


async def token(credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> str:
    """The request's bearer token (empty when there is none)."""
    return credentials.credentials if credentials is not None else ""


async def commander(request: Request, user: Annotated[User, Depends(caller)]) -> User:
    """The caller of a command, within the per-account command rate limit (429 ``rate_limited``)."""
    _limiter(request, "command_limiter").take(user.username)
    return user


async def admin(request: Request, user: Annotated[User, Depends(caller)]) -> User:
    """The caller, an admin (403 ``forbidden`` otherwise), within the per-account command rate limit."""
    if user.role is not Role.ADMIN:
        raise Forbidden(f"Account {user.username!r} is a {user.role.value}; this needs the role admin.")
    _limiter(request, "command_limiter").take(user.username)
    return user


def login_gate(request: Request) -> LoginGate:
    """The app's :class:`~croupier.server.logins.LoginGate`."""
    gate: LoginGate = request.app.state.logins
    return gate


async def idempotency_key(
    key: Annotated[
        IdempotencyKey,
        Header(
            alias="Idempotency-Key",
            description="Names this money command: sent again with the same payload it answers the same; "
            "with another payload it is refused (409 idempotency_conflict).",
        ),
    ],
) -> str:
    """The ``Idempotency-Key`` header a money command requires (422 without it)."""
    return key


Services_ = Annotated[Services, Depends(services)]
Caller = Annotated[User, Depends(caller)]
Commander = Annotated[User, Depends(commander)]
Admin = Annotated[User, Depends(admin)]
Key = Annotated[str, Depends(idempotency_key)]
Token = Annotated[str, Depends(token)]
