"""The game records' recall (admin): a table's last rounds with every step, card, bet, net and engine operation,
and a settled round exported as a SCENARIOS.md scenario (see :meth:`croupier.service.casino.Casino.recall` and
:meth:`~croupier.service.casino.Casino.export_scenario`)."""

from __future__ import annotations

from typing import cast

from croupier.errors import InvalidInput
from croupier.service.casino_meters import FINISHED
from croupier.service.casino_records import CasinoStore, RoundRecord, UnknownTable
from croupier.service.payloads import RecalledRound, RoundOutcome, Scenario
from croupier.service.table_games import TableGame


def recall(
    store: CasinoStore, table_id: str, last: int, *, game: TableGame | None, current: RoundRecord | None
) -> list[RecalledRound]:
    """The last ``last`` rounds of a table (``game``: the open table's adapter, which remembers the engine rounds;
    ``current``: its round in play)."""
    records = store.rounds(table_id, last=last)
    if not records and game is None:
        raise UnknownTable(f"There is no table {table_id!r}.")
    out: list[RecalledRound] = []
    for r in records:
        s = r.state
        entry: RecalledRound = {
            "round": r.round_id,
            "table": r.table_id,
            "seq": r.seq,
            "status": r.status,
            "opened_at": r.opened_at.isoformat(),
            "updated_at": r.updated_at.isoformat(),
            "bets": [h.to_json() for h in s.holds],
            "steps": [step.to_json() for step in s.steps],
            "cards": list(s.cards),
            "nets": dict(s.nets) if s.nets is not None else None,
            "outcome": cast("RoundOutcome | None", s.outcome),
            "entry": s.entry,
        }
        if game is not None:
            is_current = current is not None and current.round_id == r.round_id
            operations = game.operations(r.round_id, current=is_current)
            if operations is not None:
                entry["operations"] = cast("list[dict[str, object]]", operations)
            if is_current and r.status not in FINISHED:  # a round in play: no card the players cannot see
                entry["cards"] = game.public_cards(s.cards)
        out.append(entry)
    return out


def export(store: CasinoStore, game: TableGame, table_id: str, round_id: str) -> Scenario:
    """A settled round of an open table as a scenario that ``croupier replay`` reproduces."""
    record = store.get_round(round_id)
    if record is None or record.table_id != table_id or record.status != "settled":
        raise InvalidInput(f"{round_id!r} is not a settled round of table {table_id!r}.")
    return game.export(round_id, record.state)
