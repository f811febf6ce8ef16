"""Only a ``CroupierError`` is a refusal (``croupier.server.errors``): any other exception of a request, a bare
``ValueError`` included, is an internal fault, logged with its traceback and answered 500 in the one error shape,
``{"error": "internal_error", "detail", "rule": null}``, with a detail that names nothing of the fault."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

from croupier.errors import InvalidInput  # noqa: E402
from croupier.service.casino import Casino  # noqa: E402
from server.support import InProcessApi, assert_error, memory_app  # noqa: E402

PASSWORD = "password-1"
SECRET = "the disk at /var/lib/croupier is full"


@pytest.fixture
def api() -> Iterator[InProcessApi]:
    with memory_app(InProcessApi, password=PASSWORD, credit=1000) as a:
        yield a


def faults(caplog: pytest.LogCaptureFixture, kind: type[BaseException]) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.exc_info and isinstance(r.exc_info[1], kind)]


def test_a_bare_value_error_of_the_service_is_a_500(
    api: InProcessApi, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    api.open("r1", "roulette")

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ValueError(SECRET)

    monkeypatch.setattr(Casino, "meters", broken)
    with caplog.at_level(logging.ERROR, logger="croupier.server.errors"):
        r = api.client.get("/api/tables/r1/meters", headers=api.login("boss"))
    body = assert_error(r, 500, "internal_error")
    assert body["rule"] is None and SECRET not in r.text
    logged = faults(caplog, ValueError)
    assert len(logged) == 1 and str(logged[0].exc_info[1]) == SECRET  # type: ignore[index]
    assert "/api/tables/r1/meters" in logged[0].getMessage()


def test_a_fault_in_a_blocking_route_is_a_500(
    api: InProcessApi, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(player: str) -> int:
        raise RuntimeError(SECRET)

    monkeypatch.setattr(api.services.ledger, "wallet", broken)
    with caplog.at_level(logging.ERROR, logger="croupier.server.errors"):
        r = api.client.get("/api/wallet", headers=api.login("ana"))
    assert assert_error(r, 500, "internal_error")["rule"] is None and SECRET not in r.text
    assert len(faults(caplog, RuntimeError)) == 1


def test_a_croupier_error_is_still_a_refusal(api: InProcessApi, monkeypatch: pytest.MonkeyPatch) -> None:
    api.open("r1", "roulette")

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise InvalidInput("That is not a meter.", rule="RO 6")

    monkeypatch.setattr(Casino, "meters", refused)
    body = assert_error(api.client.get("/api/tables/r1/meters", headers=api.login("boss")), 422, "invalid_input")
    assert body == {"error": "invalid_input", "detail": "That is not a meter.", "rule": "RO 6"}


def test_a_payload_its_type_does_not_describe_is_a_fault_not_a_leak(
    api: InProcessApi, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An answer with a key its payload type does not name is never sent: the route answers 500 and logs it."""
    api.open("r1", "roulette")
    meters = Casino.meters

    def leaky(self: Casino, *args: Any, **kwargs: Any) -> Any:
        return {**meters(self, *args, **kwargs), "secret": SECRET}

    monkeypatch.setattr(Casino, "meters", leaky)
    with caplog.at_level(logging.ERROR, logger="croupier.server.errors"):
        r = api.client.get("/api/tables/r1/meters", headers=api.login("boss"))
    assert_error(r, 500, "internal_error")
    assert SECRET not in r.text and len(caplog.records) == 1
