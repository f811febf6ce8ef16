"""A casino whose RNG tables are provably fair, with seeds the test fixes (``seed_factory``), on any store."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from croupier.primitives.chance import ChanceSource
from croupier.service.casino import Casino
from service.test_casino_support import World

ONE_DECK = {"decks": 1, "cards_behind_cut": 30}
"""A one-deck shoe whose cut card comes out after 22 cards: a shoe ends every few rounds."""


@dataclass
class FairWorld(World):
    """:class:`World` without an injected chance source: every RNG table is provably fair. Seeds are numbered
    ``seed_base + n`` (as 64 hex digits); the counter survives a restart, as the database's stored seeds do."""

    seed_base: int = 0xF00D
    issued: list[str] = field(default_factory=list)

    def next_seed(self) -> str:
        seed = f"{self.seed_base + len(self.issued):064x}"
        self.issued.append(seed)
        return seed

    def new_casino(self, factory: Callable[[str], ChanceSource] | None = None) -> Casino:
        return Casino(
            self.ledger, self.accounts, self.store, clock=self.clock, on_commit=self.hook, seed_factory=self.next_seed
        )


def blob(*things: Any) -> str:
    """Everything given, as one JSON text to search."""
    return json.dumps(things, default=str)
