"""Provably fair rounds (issue 18 §3): a committed server seed, a documented generator, and the check anyone can run.

Before betting opens an RNG table publishes the **commitment** ``SHA-256(seed)`` (of the seed's 32 bytes, as hex) of
a fresh server seed. At the bell the result is **derived**, never drawn: a :class:`FairSource` whose 64-bit words come
from HMAC-SHA-256 keyed by the seed in counter mode, over the message ::

    b"croupier-fair-v1|" + label + b"|" + inputs_digest + b"|" + counter (8 bytes, big-endian)

(``label``: the round's id, ``"R1.7"``, or a blackjack shoe's, ``"B1.shoe7"``; ``inputs_digest``: the SHA-256 hex of
the public inputs' canonical encoding, :func:`encode_inputs`; ``counter`` 0, 1, 2, ...). Each 32-byte block is four
big-endian 64-bit words, used in order. :class:`FairSource` is a :class:`~croupier.primitives.chance.RandomSource`,
so the mapping is the engine's own: a pocket is ``randbelow(37)``, each die ``1 + randbelow(6)`` (rejection on the
top bits, never a modulo), a shoe a Fisher–Yates shuffle of the canonical shoe (:func:`canonical_shoe`). After the
round is settled (a shoe: once it ends) the seed is revealed and :func:`verify` recomputes everything.

``docs/fairness.md`` explains it to a player and to an auditor; its worked example is checked by the tests. Standard
library only, like the engine.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from croupier.errors import InvalidInput
from croupier.primitives.cards import deck
from croupier.primitives.chance import RandomSource

__all__ = [
    "MAX_CLIENT_SEED",
    "VERSION",
    "FairSource",
    "MissingField",
    "VerifyResult",
    "canonical_shoe",
    "check_client_seed",
    "commitment",
    "derive_dice",
    "derive_pocket",
    "derive_shoe_order",
    "encode_inputs",
    "inputs_digest",
    "new_seed",
    "verify",
]

VERSION = "croupier-fair-v1"
"""The generator's name, the first part of every message; a changed generator gets a new name."""
SEED_BYTES = 32
MAX_CLIENT_SEED = 64
"""A player seed is 1 to 64 printable ASCII characters."""

Inputs = Sequence[Sequence[str]]
"""The public inputs: ``[bet ref, player seed]`` pairs in the order the bets were placed."""


# -- seeds and inputs -------------------------------------------------------------------------------------------------


def new_seed() -> str:
    """A fresh server seed: 32 bytes from the operating system (``secrets``), as 64 lower-case hex digits."""
    return secrets.token_hex(SEED_BYTES)


def _seed_bytes(seed: object) -> bytes:
    if not isinstance(seed, str) or len(seed) != 2 * SEED_BYTES:
        raise ValueError(f"a server seed is {2 * SEED_BYTES} hex digits, not {len(str(seed))} characters")
    try:
        return bytes.fromhex(seed)
    except ValueError:
        raise ValueError("a server seed is hex digits only") from None


def commitment(seed: str) -> str:
    """The commitment to ``seed``: SHA-256 of its 32 bytes, as hex."""
    return hashlib.sha256(_seed_bytes(seed)).hexdigest()


def check_client_seed(value: object) -> str:
    """A player's seed as sent with a bet: 1 to 64 printable ASCII characters (``InvalidInput`` naming it else)."""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_CLIENT_SEED or not all(" " <= ch <= "~" for ch in value):
        raise InvalidInput(
            f"client_seed {value!r} is not a player seed: 1 to {MAX_CLIENT_SEED} printable ASCII characters."
        )
    return value


def encode_inputs(inputs: Inputs) -> bytes:
    """The canonical encoding of the public inputs: the JSON array of ``[ref, seed]`` pairs in bet order, with no
    spaces (``[["b1","lucky"],["b3","x"]]``; ``[]`` for none). Seeds are printable ASCII, so every JSON encoder that
    escapes only what JSON requires (``"`` and ``\\``) writes the same bytes."""
    pairs = [[str(ref), str(seed)] for ref, seed in inputs]
    return json.dumps(pairs, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def inputs_digest(inputs: Inputs) -> str:
    """SHA-256 of :func:`encode_inputs`, as hex: what the generator's message names."""
    return hashlib.sha256(encode_inputs(inputs)).hexdigest()


# -- the generator ----------------------------------------------------------------------------------------------------


class FairSource(RandomSource):
    """The deterministic generator: 64-bit words from HMAC-SHA-256(seed, message) in counter mode (module docstring).
    The same ``seed``, ``label`` and ``inputs`` give the same words, everywhere."""

    def __init__(self, seed: str, label: str, inputs: Inputs = ()) -> None:
        self._key = _seed_bytes(seed)
        self._prefix = f"{VERSION}|{label}|{inputs_digest(inputs)}|".encode()
        self._counter = 0
        self._words: list[int] = []

    def block(self, counter: int) -> bytes:
        """The 32-byte block number ``counter``."""
        return hmac.new(self._key, self._prefix + counter.to_bytes(8, "big"), hashlib.sha256).digest()

    def next_u64(self) -> int:
        if not self._words:
            raw = self.block(self._counter)
            self._counter += 1
            self._words = [int.from_bytes(raw[i : i + 8], "big") for i in (24, 16, 8, 0)]  # popped from the end
        return self._words.pop()


def derive_pocket(seed: str, label: str, inputs: Inputs = ()) -> int:
    """The roulette pocket (0-36) of ``label``: ``randbelow(37)``."""
    return FairSource(seed, label, inputs).pocket()


def derive_dice(seed: str, label: str, inputs: Inputs = ()) -> list[int]:
    """The three sic bo dice of ``label``: ``1 + randbelow(6)``, three times."""
    return list(FairSource(seed, label, inputs).dice())


def canonical_shoe(decks: int) -> list[str]:
    """The shoe before it is shuffled: ``decks`` times the deck in the fixed order spades, hearts, diamonds, clubs,
    each A 2 3 4 5 6 7 8 9 T J Q K (``AS, 2S, ... KS, AH, ... KC``)."""
    return [str(c) for c in deck()] * decks


def derive_shoe_order(seed: str, label: str, inputs: Inputs, decks: int) -> list[str]:
    """The order of a whole shoe (card codes, top first): Fisher–Yates of :func:`canonical_shoe` by the generator."""
    cards = canonical_shoe(decks)
    FairSource(seed, label, inputs).shuffle(cards)
    return cards


# -- verification -----------------------------------------------------------------------------------------------------


class MissingField(ValueError):
    """A fairness record without what its check needs: ``fields`` names each missing or malformed field."""

    def __init__(self, fields: Sequence[str]) -> None:
        self.fields = list(fields)
        super().__init__(f"the fairness record lacks {', '.join(self.fields)}")


@dataclass
class VerifyResult:
    """What :func:`verify` found: ``commitment_ok`` (SHA-256 of the seed is the commitment), ``outcome_ok`` (the
    recorded outcome is the derived one), and both sides of each check in ``checks`` (``name``, ``ok``, ``derived``,
    ``recorded``)."""

    label: str
    commitment_ok: bool
    outcome_ok: bool
    checks: list[dict[str, object]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Both checks passed."""
        return self.commitment_ok and self.outcome_ok

    @property
    def failure(self) -> str | None:
        """``"commitment"`` (the seed or the commitment was changed), ``"outcome"``, or ``None``."""
        if not self.commitment_ok:
            return "commitment"
        if not self.outcome_ok:
            return "outcome"
        return None


def _need(record: Mapping[str, object], names: Sequence[str]) -> None:
    missing = [n for n in names if record.get(n) is None]
    if missing:
        raise MissingField(missing)


def _inputs_of(record: Mapping[str, object]) -> list[list[str]]:
    raw = record.get("inputs")
    if not isinstance(raw, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in raw
    ):
        raise MissingField(["inputs (a list of [ref, seed] pairs)"])
    return [[p[0], p[1]] for p in raw]


def verify(record: Mapping[str, object], *, recorded: object = None) -> VerifyResult:
    """Check a revealed fairness record (``Casino.fair_record``'s shape): the commitment, then the outcome derived
    from ``seed``, ``label`` and ``inputs`` against the record's ``result`` (roulette, sic bo) or ``cards`` (a
    blackjack shoe: every card out of it since its shuffle, in order) and, when given, ``recorded`` (the same outcome
    as another document states it: a scenario's result or cards, a recalled round's outcome). ``MissingField``
    names what is missing (a seed not yet revealed included)."""
    _need(record, ["game", "label", "commitment", "seed"])
    game, label = record["game"], record["label"]
    seed, committed = record["seed"], record["commitment"]
    if not isinstance(label, str) or game not in ("roulette", "sicbo", "blackjack"):
        raise MissingField(["game (roulette, sicbo or blackjack)" if isinstance(label, str) else "label"])
    if not isinstance(committed, str):
        raise MissingField(["commitment"])
    inputs = _inputs_of(record)
    try:
        derived_commitment = commitment(str(seed))
    except ValueError:
        derived_commitment = None
    out = VerifyResult(label, derived_commitment == committed.lower(), False)
    out.checks.append(
        {"name": "commitment", "ok": out.commitment_ok, "derived": derived_commitment, "recorded": committed}
    )
    if derived_commitment is None:
        return out
    derived: object
    if game == "blackjack":
        decks, cards = record.get("decks"), record.get("cards")
        if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= 16:
            raise MissingField(["decks"])
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise MissingField(["cards"])
        order = derive_shoe_order(str(seed), label, inputs, decks)
        derived = order[: len(cards)]
        ok = cards == derived and len(cards) <= len(order)
        out.checks.append({"name": "cards", "ok": ok, "derived": derived, "recorded": cards})
        if recorded is not None:  # the document's own cards: the last of the shoe's cards so far
            shown = recorded if isinstance(recorded, list) else [recorded]
            tail = derived[-len(shown) :] if shown else []
            tail_ok = 0 < len(shown) <= len(derived) and tail == shown
            out.checks.append({"name": "dealt", "ok": tail_ok, "derived": tail, "recorded": shown})
            ok = ok and tail_ok
    else:
        if record.get("result") is None:  # a voided round has none to check; a round in play none yet
            raise MissingField(["result (the round has no result: voided, or not yet drawn)"])
        derived = (
            derive_pocket(str(seed), label, inputs) if game == "roulette" else derive_dice(str(seed), label, inputs)
        )
        ok = record["result"] == derived
        out.checks.append({"name": "outcome", "ok": ok, "derived": derived, "recorded": record["result"]})
        if recorded is not None:
            same = recorded == derived
            out.checks.append({"name": "outcome (document)", "ok": same, "derived": derived, "recorded": recorded})
            ok = ok and same
    out.outcome_ok = ok
    return out
