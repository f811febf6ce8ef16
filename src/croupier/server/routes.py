"""The REST routes: each validates its input, names the caller, calls one service method and returns its answer.

Every refusal is raised by the service and mapped by :mod:`croupier.server.errors`; no game rule lives here.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request

from croupier.server import schemas
from croupier.server.deps import Caller, Commander, Key, Services_, Token, login_limit
from croupier.server.schemas import RoundId, TableId
from croupier.service.accounts import AccountLocked, Forbidden, LoginFailed, Role
from croupier.service.casino import Casino
from croupier.service.ledger import held

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": schemas.Error, "description": text}
    for status, text in (
        (400, "Bad input"),
        (401, "No valid session"),
        (403, "The caller's role may not do this"),
        (404, "Unknown table, round or account"),
        (409, "Refused by the rules or the ledger; nothing changed"),
        (422, "Malformed request"),
        (423, "Account locked"),
        (429, "Too many requests"),
    )
}

router = APIRouter(prefix="/api", responses=ERRORS)

TablePath = Annotated[TableId, Path(description="The table's id.")]
RoundPath = Annotated[RoundId, Path(description="The round's id.")]


def plain(value: Any) -> Any:
    """A service answer as JSON-able data: dataclasses with ``as_json()`` are converted, lists element-wise."""
    if hasattr(value, "as_json"):
        return value.as_json()
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


# -- sessions and accounts -------------------------------------------------------------------------------------


@router.post("/login", response_model=schemas.LoginResponse, tags=["sessions"])
def login(body: schemas.LoginRequest, request: Request, svc: Services_) -> schemas.LoginResponse:
    """Log in: a bearer session token for the other requests."""
    login_limit(request, body.username)
    address = request.client.host if request.client is not None else None
    try:
        session = svc.accounts.login(body.username, body.password)
    except (LoginFailed, AccountLocked) as error:
        reason = error.kind
        svc.at_casino(Casino.log, body.username, "login_failed", reason=reason, address=address)
        raise
    user = session.user
    svc.at_casino(Casino.log, user.username, "login", role=user.role.value, address=address)
    return schemas.LoginResponse(
        token=session.token, username=user.username, role=user.role.value, expires_at=session.expires_at
    )


@router.post("/logout", status_code=204, tags=["sessions"])
def logout(user: Caller, token: Token, svc: Services_) -> None:
    """End the caller's session."""
    svc.accounts.logout(token)
    svc.at_casino(Casino.log, user.username, "logout")


@router.get("/me", response_model=schemas.Me, tags=["sessions"])
def me(user: Caller) -> schemas.Me:
    """The caller's account."""
    return schemas.Me(username=user.username, role=user.role.value)


@router.get("/wallet", response_model=schemas.Wallet, tags=["wallet"])
def my_wallet(user: Caller, svc: Services_) -> schemas.Wallet:
    """The caller's wallet and the stakes they have on the layout."""
    return schemas.Wallet(
        player=user.username, balance=svc.ledger.wallet(user.username), held=svc.ledger.balance(held(user.username))
    )


@router.post("/accounts", response_model=schemas.Me, status_code=201, tags=["admin"])
def create_account(body: schemas.NewAccount, token: Token, svc: Services_, request: Request) -> schemas.Me:
    """Create a player, dealer or admin account (admins only)."""
    admin = svc.accounts.authenticate(token, roles=[Role.ADMIN])
    request.app.state.command_limiter.take(admin.username)
    user = svc.accounts.create(body.username, body.password, body.role)
    return schemas.Me(username=user.username, role=user.role.value)


@router.get("/accounts/{player}/wallet", response_model=schemas.Wallet, tags=["admin"])
def player_wallet(player: schemas.Name, user: Caller, svc: Services_) -> schemas.Wallet:
    """A player's wallet (admins, or the player)."""
    if user.role is not Role.ADMIN and user.username != player:
        raise Forbidden(f"Account {user.username!r} may see only its own wallet.")
    svc.accounts.get(player)
    return schemas.Wallet(player=player, balance=svc.ledger.wallet(player), held=svc.ledger.balance(held(player)))


@router.post("/accounts/{player}/credit", tags=["admin"])
async def credit(player: schemas.Name, body: schemas.Adjustment, user: Commander, key: Key, svc: Services_) -> Any:
    """Add money to a player's wallet from the cashier (admins only; audited)."""
    return plain(await svc.casino_call(Casino.credit, user, player, body.amount, key))


@router.post("/accounts/{player}/debit", tags=["admin"])
async def debit(player: schemas.Name, body: schemas.Adjustment, user: Commander, key: Key, svc: Services_) -> Any:
    """Take money from a player's wallet back to the cashier, never beyond its balance (admins only; audited)."""
    return plain(await svc.casino_call(Casino.debit, user, player, body.amount, key))


# -- tables ------------------------------------------------------------------------------------------------------


@router.get("/tables", tags=["tables"])
async def tables(user: Caller, svc: Services_) -> Any:
    """The open tables."""
    return plain(await svc.casino_call(Casino.tables, user))


@router.get("/tables/{table_id}", tags=["tables"])
async def table_view(table_id: TablePath, user: Caller, svc: Services_) -> Any:
    """What the caller may see of a table (never a hole card or the shoe's order)."""
    return plain(await svc.casino_call(Casino.table_view, user, table_id))


@router.post("/tables", status_code=201, tags=["admin"])
async def open_table(body: schemas.OpenTable, user: Commander, svc: Services_) -> Any:
    """Open a table with a rules document (null: the statute), RNG or live (admins only)."""
    return plain(
        await svc.casino_call(
            Casino.open_table,
            user,
            table_id=body.table_id,
            game=body.game,
            rules=body.rules,
            live=body.live,
            betting_seconds=body.betting_seconds,
            decision_seconds=body.decision_seconds,
        )
    )


@router.post("/tables/{table_id}/close", tags=["admin"])
async def close_table(table_id: TablePath, user: Commander, svc: Services_) -> Any:
    """Close a table between rounds (admins only)."""
    return plain(await svc.casino_call(Casino.close_table, user, table_id))


@router.post("/tables/{table_id}/bets", status_code=201, tags=["play"])
async def place_bet(table_id: TablePath, bet: schemas.Bet, user: Commander, key: Key, svc: Services_) -> Any:
    """Place a bet in the betting window; the stake is held from the caller's wallet."""
    return plain(await svc.casino_bet(Casino.place_bet, user, table_id, bet.document(), key))


@router.post("/tables/{table_id}/actions", tags=["play"])
async def act(table_id: TablePath, body: schemas.Action, user: Commander, key: Key, svc: Services_) -> Any:
    """Answer the pending blackjack decision, when it is the caller's."""
    return plain(
        await svc.casino_call(
            Casino.act, user, table_id, body.action, key, box=body.box, hand=body.hand, amount=body.amount
        )
    )


@router.post("/tables/{table_id}/results", tags=["dealer"])
async def report(table_id: TablePath, body: schemas.Report, user: Commander, svc: Services_) -> Any:
    """A live table's dealer reports a pocket, three dice or a card (dealers only)."""
    return plain(await svc.casino_call(Casino.report, user, table_id, body.result))


@router.post("/tables/{table_id}/void", tags=["dealer"])
async def void(table_id: TablePath, body: schemas.Void, user: Commander, svc: Services_) -> Any:
    """Void the round and return every held bet (dealers only; RO 2.2, SB 3.3, BJ 5.1)."""
    return plain(await svc.casino_call(Casino.void, user, table_id, body.reason))


# -- records -----------------------------------------------------------------------------------------------------


@router.get("/tables/{table_id}/rounds", tags=["admin"])
async def recall(
    table_id: TablePath, user: Caller, svc: Services_, last: Annotated[int, Query(ge=1, le=500)] = 10
) -> Any:
    """The last rounds of a table with every step, outcome, bets and nets (admins only)."""
    return plain(await svc.casino_call(Casino.recall, user, table_id, last=last))


@router.get("/tables/{table_id}/rounds/{round_id}/scenario", tags=["admin"])
async def export_scenario(table_id: TablePath, round_id: RoundPath, user: Caller, svc: Services_) -> Any:
    """A round as a scenario file that ``croupier replay`` reproduces exactly (admins only)."""
    return plain(await svc.casino_call(Casino.export_scenario, user, table_id, round_id))


@router.get("/tables/{table_id}/meters", tags=["admin"])
async def meters(table_id: TablePath, user: Caller, svc: Services_) -> Any:
    """A table's meters: rounds, wagered, paid, voided, held (admins only)."""
    return plain(await svc.casino_call(Casino.meters, user, table_id))


@router.get("/audit", tags=["admin"])
async def audit(user: Caller, svc: Services_, since: datetime | None = None) -> Any:
    """The audit trail (admins only)."""
    return plain(await svc.casino_call(Casino.audit, user, since=since))


@router.get("/reconciliation", tags=["admin"])
async def reconciliation(user: Caller, svc: Services_) -> Any:
    """Wagered − paid − voided = house result, per table and in all; the ledger's check (admins only)."""
    return plain(await svc.casino_call(Casino.reconciliation, user))


@router.get("/health", tags=["sessions"])
def health() -> dict[str, str]:
    """The server answers."""
    return {"status": "ok"}
