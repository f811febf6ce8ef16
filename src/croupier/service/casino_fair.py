"""Provably fair rounds at the casino (``docs/fairness.md``): what a table publishes of a round's fair draw — its
commitment before bets, its fairness record (the seed only once revealed) — built from the stored round.

The secret seed lives only in the stored round's state (:attr:`~croupier.service.round_state.RoundState.fair`);
everything a client can get goes through :func:`commitment_of` and :func:`record_of`, which leave the seed out
until the table's game says it may be shown (:meth:`~croupier.service.table_games.TableGame.fair_revealed`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from croupier import fair as fairness
from croupier.service.casino_meters import FINISHED
from croupier.service.casino_records import RoundRecord
from croupier.service.payloads import FairCommitment, FairRecord, Game
from croupier.service.table_games import TableGame, bet_inputs


def commitment_of(fair: Mapping[str, object] | None) -> FairCommitment | None:
    """What is published before bets: the label (and shoe) and the commitment, never the seed."""
    if fair is None:
        return None
    out: FairCommitment = {"label": str(fair["label"]), "commitment": str(fair["commitment"])}
    if "shoe" in fair:
        out["shoe"] = str(fair["shoe"])
    return out


def revealed(game: TableGame | None, record: RoundRecord) -> bool:
    """Whether the round's seed may be shown: the game decides (``None``: a closed table, every draw has ended)."""
    fair = record.state.fair
    if fair is None:
        return False
    if game is None:
        return True
    return game.fair_revealed(fair, record.status in FINISHED)


def _inputs(fair: Mapping[str, object], record: RoundRecord) -> list[list[str]]:
    raw = fair.get("inputs")
    if isinstance(raw, list):
        return [[str(p[0]), str(p[1])] for p in raw]
    return bet_inputs(record.state.steps)  # before the bell: the players' seeds so far (public with each bet)


def record_of(
    game_name: str, game: TableGame | None, record: RoundRecord, shoe_rounds: Sequence[RoundRecord] = ()
) -> FairRecord | None:
    """The round's fairness record as anyone may see it (``None`` for a round without a committed seed). A blackjack
    record's ``cards`` come from ``shoe_rounds`` (the table's stored rounds; those of the same shoe up to this one)."""
    fair = record.state.fair
    if fair is None:
        return None
    shown = revealed(game, record)
    out: FairRecord = {
        "version": fairness.VERSION,
        "game": cast(Game, game_name),
        "table": record.table_id,
        "round": record.round_id,
        "label": str(fair["label"]),
        "commitment": str(fair["commitment"]),
        "seed": str(fair["seed"]) if shown else None,
        "revealed": shown,
        "inputs": _inputs(fair, record),
    }
    if "shoe" in fair:
        out["shoe"] = str(fair["shoe"])
        out["decks"] = cast(int, fair["decks"])
        cards: list[str] | None = None
        if shown:
            cards = []
            for r in shoe_rounds:
                if r.seq <= record.seq and r.state.fair is not None and r.state.fair.get("label") == fair["label"]:
                    cards.extend(r.state.cards)
        out["cards"] = cards
    else:
        outcome = record.state.outcome or {}
        value = outcome.get("pocket", outcome.get("dice"))
        out["result"] = cast("int | list[int] | None", value)
    return out
