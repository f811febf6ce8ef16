"""The casino's meters and its reconciliation, read from the ledger and the stored rounds (admin reads; see
:meth:`croupier.service.casino.Casino.meters` and :meth:`~croupier.service.casino.Casino.reconciliation`)."""

from __future__ import annotations

from croupier.service.casino_records import CasinoStore
from croupier.service.ledger import Ledger
from croupier.service.payloads import Meters, MeterTotals, Reconciliation

FINISHED = ("settled", "voided")


def table_meters(ledger: Ledger, store: CasinoStore, table_id: str) -> Meters:
    """Rounds, wagered, paid, voided, held and the house result of a table, from the ledger."""
    with ledger.store.transaction(write=False) as tx:
        holds = [h for h in tx.holds() if h.table == table_id]
    statuses: dict[str, int] = {}
    for r in store.rounds(table_id):
        statuses[r.status] = statuses.get(r.status, 0) + 1
    settled = [h for h in holds if h.status == "settled"]
    return {
        "table": table_id,
        "rounds": statuses,
        "wagered": sum(h.amount for h in holds),
        "paid": sum(h.amount + (h.net or 0) for h in settled),
        "voided": sum(h.amount for h in holds if h.status == "voided"),
        "held": sum(h.amount for h in holds if h.status == "open"),
        "house_result": -sum(h.net or 0 for h in settled),
    }


def reconcile(ledger: Ledger, store: CasinoStore) -> Reconciliation:
    """Per table and in all: wagered − paid − voided − held = house result; the house account and the held
    accounts agree with the tables; every finished round is closed in the ledger; the ledger's own problems."""
    problems = list(ledger.problems())
    tables: dict[str, Meters] = {}
    for rec in store.tables():
        m = table_meters(ledger, store, rec.table_id)
        if m["wagered"] - m["paid"] - m["voided"] - m["held"] != m["house_result"]:
            problems.append(f"table {rec.table_id}: the meters do not add up")
        for r in store.rounds(rec.table_id):
            ledger_round = ledger.round(r.round_id)
            status = ledger_round.status if ledger_round is not None else "open"
            if r.status in FINISHED and r.state.holds and status != r.status:
                problems.append(f"round {r.round_id} is {r.status} but {status} in the ledger")
            settled = [h.net or 0 for h in ledger.holds(r.round_id) if h.status == "settled"]
            if r.status == "settled" and sum((r.state.nets or {}).values()) != sum(settled):
                problems.append(f"round {r.round_id}: its nets differ from the ledger's")
        tables[rec.table_id] = m
    balances = ledger.balances()
    total: MeterTotals = {
        "wagered": sum(m["wagered"] for m in tables.values()),
        "paid": sum(m["paid"] for m in tables.values()),
        "voided": sum(m["voided"] for m in tables.values()),
        "held": sum(m["held"] for m in tables.values()),
        "house_result": sum(m["house_result"] for m in tables.values()),
    }
    if balances.get("house", 0) != total["house_result"]:
        house = balances.get("house", 0)
        problems.append(f"the house account holds {house}, the tables won {total['house_result']}")
    on_layout = sum(v for a, v in balances.items() if a.startswith("held:"))
    if on_layout != total["held"]:
        problems.append(f"held accounts total {on_layout}, the tables' open bets {total['held']}")
    return {"tables": tables, "all": total, "problems": problems, "ok": not problems}
