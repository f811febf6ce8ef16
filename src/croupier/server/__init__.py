"""The HTTP and WebSocket adapter over the casino service (``docs/casino-service.md``): FastAPI routes validating
input with pydantic, bearer sessions from :class:`~croupier.service.accounts.AccountService`, errors mapped in one
place (:mod:`.errors`), rate limits, and the background clock that calls ``casino.tick()``. Run it with
``croupier serve`` (:mod:`.compose` builds the running server)."""

from __future__ import annotations

from croupier.server.app import create_app
from croupier.server.compose import ServerConfig, database_url, open_services, serve
from croupier.server.services import Services

__all__ = ["ServerConfig", "Services", "create_app", "database_url", "open_services", "serve"]
