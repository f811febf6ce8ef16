"""The REST routes: each validates its input, names the caller, calls one service method and returns its answer.

Every refusal is raised by the service and mapped by :mod:`croupier.server.errors`; no game rule lives here. Every
answer's type is one of :mod:`croupier.service.payloads`, which FastAPI takes as the route's response model: the
OpenAPI document describes each payload, and an answer is validated against it (a key it does not name is a fault).
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any, cast

from fastapi import APIRouter, Path, Query, Request

from croupier.server import schemas
from croupier.server.deps import Admin, Caller, Commander, Key, Services_, Token, login_gate
from croupier.server.schemas import RoundId, TableId
from croupier.server.services import Services
from croupier.service.accounts import AccountChange, AccountLocked, Forbidden, LoginFailed, Role, User, canonical_name
from croupier.service.casino import Casino
from croupier.service.ledger import held
from croupier.service.payloads import (
    Account,
    AccountAction,
    AccountChanged,
    AccountStatus,
    ActAnswer,
    AuditLine,
    BetAnswer,
    FairRecord,
    Health,
    Meters,
    RecalledRound,
    Reconciliation,
    ReportAnswer,
    RoundVoided,
    Scenario,
    Session,
    TableClosed,
    TableDealers,
    TableDescription,
    TableView,
    Wallet,
    WalletAdjustment,
)

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": schemas.Error, "description": text}
    for status, text in (
        (400, "Bad input"),
        (401, "No valid session"),
        (403, "The caller's role may not do this"),
        (404, "Unknown table, round or account"),
        (409, "Refused by the rules or the ledger; nothing changed"),
        (422, "Malformed request"),
        (423, "Account disabled"),
        (429, "Too many requests"),
        (500, "An internal fault (logged); the detail names nothing of it"),
    )
}

router = APIRouter(prefix="/api", responses=ERRORS)

TablePath = Annotated[TableId, Path(description="The table's id.")]
RoundPath = Annotated[RoundId, Path(description="The round's id.")]


def _account(user: User) -> Account:
    return {"username": user.username, "role": user.role.value}


def _wallet(svc: Services, player: str) -> Wallet:
    return {"player": player, "balance": svc.ledger.wallet(player), "held": svc.ledger.balance(held(player))}


# -- sessions and accounts -------------------------------------------------------------------------------------


@router.post("/login", tags=["sessions"])
async def login(body: schemas.LoginRequest, request: Request, svc: Services_) -> Session:
    """Log in: a bearer session token for the other requests. A wrong name or password is one answer (401); too
    many failed logins from the address, to the name or to the server, or too many logins being checked at once,
    answer 429 at once with ``Retry-After`` (``croupier.server.logins``)."""
    address = request.client.host if request.client is not None else None
    check = partial(svc.accounts.login, body.username, body.password, address=address)
    try:
        session = await login_gate(request).check(body.username, address, check)
    except (LoginFailed, AccountLocked) as error:
        await svc.casino_call(Casino.log, body.username, "login_failed", reason=error.kind, address=address)
        raise
    user = session.user
    await svc.casino_call(Casino.log, user.username, "login", role=user.role.value, address=address)
    return {"token": session.token, **_account(user), "expires_at": session.expires_at}


@router.post("/logout", status_code=204, tags=["sessions"])
def logout(user: Caller, token: Token, svc: Services_) -> None:
    """End the caller's session (its open table sockets are closed at once)."""
    svc.accounts.logout(token)
    svc.end_sessions(token=token)
    svc.at_casino(Casino.log, user.username, "logout")


@router.get("/me", tags=["sessions"])
async def me(user: Caller) -> Account:
    """The caller's account."""
    return _account(user)


@router.get("/wallet", tags=["wallet"])
def my_wallet(user: Caller, svc: Services_) -> Wallet:
    """The caller's wallet and the stakes they have on the layout."""
    return _wallet(svc, user.username)


@router.post("/accounts", status_code=201, tags=["admin"])
def create_account(body: schemas.NewAccount, token: Token, svc: Services_, request: Request) -> Account:
    """Create a player, dealer or admin account (admins only)."""
    admin = svc.accounts.authenticate(token, roles=[Role.ADMIN])
    request.app.state.command_limiter.take(admin.username)
    return _account(svc.accounts.create(body.username, body.password, body.role))


@router.get("/accounts", tags=["admin"])
def list_accounts(
    user: Admin,
    svc: Services_,
    role: Annotated[schemas.RoleName | None, Query(description="Only the accounts of this role.")] = None,
) -> list[AccountStatus]:
    """Every account (of a role), by name, with whether it may log in (admins only)."""
    return [_status(u) for u in svc.accounts.users(role)]


@router.get("/accounts/{player}/wallet", tags=["admin"])
def player_wallet(player: schemas.Name, user: Caller, svc: Services_) -> Wallet:
    """A player's wallet (admins, or the player)."""
    name = canonical_name(player)
    if user.role is not Role.ADMIN and user.username != name:
        raise Forbidden(f"Account {user.username!r} may see only its own wallet.")
    return _wallet(svc, svc.accounts.get(name).username)


AccountPath = Annotated[schemas.Name, Path(description="The account's name (compared ignoring case).")]


def _status(user: User) -> AccountStatus:
    return {"username": user.username, "role": user.role.value, "active": user.active}


def _changed(svc: Services, admin: User, change: AccountChange) -> AccountChanged:
    """Audit an admin's act on an account, close the sockets of the sessions it ended, and answer it."""
    if change.action in ("disable", "reset_password", "set_role"):
        svc.end_sessions(username=change.user.username)  # its open sockets close within the second (issue 13)
    svc.at_casino(Casino.log, admin.username, change.action, **change.audit())
    answer: AccountChanged = {"action": cast(AccountAction, change.action), "account": _status(change.user)}
    detail = change.detail
    if "sessions_ended" in detail:
        answer["sessions_ended"] = cast(int, detail["sessions_ended"])
    if "failures_forgotten" in detail:
        answer["failures_forgotten"] = cast(int, detail["failures_forgotten"])
    if "role" in detail and "was" in detail:
        answer["role"] = cast(schemas.RoleName, detail["role"])
        answer["was"] = cast(schemas.RoleName, detail["was"])
    return answer


@router.post("/accounts/{name}/unlock", tags=["admin"])
def unlock_account(name: AccountPath, user: Admin, svc: Services_) -> AccountChanged:
    """Forget the account's failed logins from every address: every wait to log in to it ends (admins only;
    audited)."""
    return _changed(svc, user, svc.accounts.unlock(name))


@router.post("/accounts/{name}/disable", tags=["admin"])
def disable_account(name: AccountPath, user: Admin, svc: Services_) -> AccountChanged:
    """Disable the account: its sessions end and it cannot log in (admins only; audited; never the last active
    admin: 409 ``last_admin``)."""
    return _changed(svc, user, svc.accounts.set_active(name, False))


@router.post("/accounts/{name}/enable", tags=["admin"])
def enable_account(name: AccountPath, user: Admin, svc: Services_) -> AccountChanged:
    """Enable a disabled account (admins only; audited)."""
    return _changed(svc, user, svc.accounts.set_active(name, True))


@router.post("/accounts/{name}/password", tags=["admin"])
def reset_password(name: AccountPath, body: schemas.NewPassword, user: Admin, svc: Services_) -> AccountChanged:
    """Give the account a new password (the password policy applies: 422 ``weak_password``); its sessions end
    (admins only; audited, without the password)."""
    return _changed(svc, user, svc.accounts.reset_password(name, body.password))


@router.put("/accounts/{name}/role", tags=["admin"])
def set_role(name: AccountPath, body: schemas.NewRole, user: Admin, svc: Services_) -> AccountChanged:
    """Give the account another role (admins only; audited; never the last active admin's: 409 ``last_admin``)."""
    return _changed(svc, user, svc.accounts.set_role(name, body.role))


# The casts: until Casino's methods are annotated with the payload types (then they are redundant and go).


@router.post("/accounts/{player}/credit", tags=["admin"])
async def credit(
    player: schemas.Name, body: schemas.Adjustment, user: Commander, key: Key, svc: Services_
) -> WalletAdjustment:
    """Add money to a player's wallet from the cashier (admins only; audited)."""
    return await svc.casino_call(Casino.credit, user, player, body.amount, key)


@router.post("/accounts/{player}/debit", tags=["admin"])
async def debit(
    player: schemas.Name, body: schemas.Adjustment, user: Commander, key: Key, svc: Services_
) -> WalletAdjustment:
    """Take money from a player's wallet back to the cashier, never beyond its balance (admins only; audited)."""
    return await svc.casino_call(Casino.debit, user, player, body.amount, key)


# -- tables ------------------------------------------------------------------------------------------------------


@router.get("/tables", tags=["tables"])
async def tables(user: Caller, svc: Services_) -> list[TableDescription]:
    """The open tables."""
    return cast(list[TableDescription], await svc.casino_call(Casino.tables, user))


@router.get("/tables/{table_id}", tags=["tables"])
async def table_view(table_id: TablePath, user: Caller, svc: Services_) -> TableView:
    """What the caller may see of a table (never a hole card or the shoe's order)."""
    return cast(TableView, await svc.casino_call(Casino.table_view, user, table_id))


@router.post("/tables", status_code=201, tags=["admin"])
async def open_table(body: schemas.OpenTable, user: Commander, svc: Services_) -> TableDescription:
    """Open a table with a rules document (null: the statute), RNG or live (admins only)."""
    answer = await svc.casino_call(
        Casino.open_table,
        user,
        table_id=body.table_id,
        game=body.game,
        rules=body.rules,
        live=body.live,
        betting_seconds=body.betting_seconds,
        decision_seconds=body.decision_seconds,
        result_display_seconds=body.result_display_seconds,
        dealers=body.dealers,
    )
    return cast(TableDescription, answer)


@router.put("/tables/{table_id}/dealers", tags=["admin"])
async def assign_dealers(table_id: TablePath, body: schemas.Dealers, user: Commander, svc: Services_) -> TableDealers:
    """Set the dealers of a table (admins only; audited): only they report its results, ring its bell and void its
    rounds."""
    return await svc.casino_call(Casino.assign_dealers, user, table_id, body.dealers)


@router.post("/tables/{table_id}/close", tags=["admin"])
async def close_table(table_id: TablePath, user: Commander, svc: Services_) -> TableClosed:
    """Close a table between rounds (admins only)."""
    return await svc.casino_call(Casino.close_table, user, table_id)


@router.post("/tables/{table_id}/bets", status_code=201, tags=["play"])
async def place_bet(table_id: TablePath, bet: schemas.Bet, user: Commander, key: Key, svc: Services_) -> BetAnswer:
    """Place a bet in the betting window; the stake is held from the caller's wallet."""
    return await svc.casino_bet(Casino.place_bet, user, table_id, bet.document(), key)


@router.post("/tables/{table_id}/actions", tags=["play"])
async def act(table_id: TablePath, body: schemas.Action, user: Commander, key: Key, svc: Services_) -> ActAnswer:
    """Answer the pending blackjack decision, when it is the caller's."""
    answer = await svc.casino_call(
        Casino.act, user, table_id, body.action, key, box=body.box, hand=body.hand, amount=body.amount
    )
    return answer


@router.post("/tables/{table_id}/results", tags=["dealer"])
async def report(table_id: TablePath, body: schemas.Report, user: Commander, svc: Services_) -> ReportAnswer:
    """A live table's dealer reports a pocket, three dice or a card (dealers only)."""
    return await svc.casino_call(Casino.report, user, table_id, body.result)


@router.post("/tables/{table_id}/void", tags=["dealer"])
async def void(table_id: TablePath, body: schemas.Void, user: Commander, svc: Services_) -> RoundVoided:
    """Void the round and return every held bet (dealers only; RO 2.2, SB 3.3, BJ 5.1)."""
    return await svc.casino_call(Casino.void, user, table_id, body.reason)


# -- records -----------------------------------------------------------------------------------------------------


@router.get("/tables/{table_id}/rounds", tags=["admin"])
async def recall(
    table_id: TablePath, user: Caller, svc: Services_, last: Annotated[int, Query(ge=1, le=500)] = 10
) -> list[RecalledRound]:
    """The last rounds of a table with every step, outcome, bets and nets (admins only)."""
    return await svc.casino_call(Casino.recall, user, table_id, last=last)


@router.get("/tables/{table_id}/rounds/{round_id}/scenario", tags=["admin"])
async def export_scenario(table_id: TablePath, round_id: RoundPath, user: Caller, svc: Services_) -> Scenario:
    """A round as a scenario file that ``croupier replay`` reproduces exactly (admins only)."""
    return await svc.casino_call(Casino.export_scenario, user, table_id, round_id)


@router.get("/tables/{table_id}/rounds/{round_id}/fair", tags=["tables"])
async def fair_record(table_id: TablePath, round_id: RoundPath, user: Caller, svc: Services_) -> FairRecord:
    """A provably fair round's fairness record (any signed-in user; docs/fairness.md): the commitment, the players'
    seeds and the outcome, and the server seed once revealed; what ``croupier verify`` and the page's check read."""
    return await svc.casino_call(Casino.fair_record, user, table_id, round_id)


@router.get("/tables/{table_id}/meters", tags=["admin"])
async def meters(table_id: TablePath, user: Caller, svc: Services_) -> Meters:
    """A table's meters: rounds, wagered, paid, voided, held (admins only)."""
    return await svc.casino_call(Casino.meters, user, table_id)


@router.get("/audit", tags=["admin"])
async def audit(
    user: Caller,
    svc: Services_,
    since: Annotated[
        schemas.Instant | None,
        Query(description="Only the lines from this instant on: a date-time with its time zone (…Z or …+08:00)."),
    ] = None,
) -> list[AuditLine]:
    """The audit trail (admins only)."""
    return await svc.casino_call(Casino.audit, user, since=since)


@router.get("/reconciliation", tags=["admin"])
async def reconciliation(user: Caller, svc: Services_) -> Reconciliation:
    """Wagered − paid − voided = house result, per table and in all; the ledger's check (admins only)."""
    return await svc.casino_call(Casino.reconciliation, user)


@router.get("/health", tags=["sessions"])
async def health() -> Health:
    """The server answers."""
    return {"status": "ok"}
