"""A casino round's state as stored, typed: its holds (:class:`BetHold`, :class:`ExtraHold`), its steps (one frozen
dataclass per kind, see :mod:`croupier.service.table_games`), the blackjack answers by idempotency key
(:class:`Act`), and the whole :class:`RoundState`; with the one codec between them and the stored JSON.

The codec writes **the same JSON** as the casino of earlier versions wrote from plain dicts (the stores sort the
keys), so no stored round needs a migration: every optional key is written only when it has a value, as before.
``tests/service/test_stored_rounds.py`` holds it to that, byte for byte, on rounds stored by the earlier casino.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeAlias, cast

from croupier.service import payloads
from croupier.service.payloads import ActAnswer, BetAnswer, BlackjackBet, StoredHold, WagerBet

HoldStatus = Literal["held", "pending"]
"""``held``: the ledger holds the stake; ``pending``: only in rounds stored by versions before the bet and its hold
were one transaction (recovery reconciles them with the ledger)."""

JsonObject: TypeAlias = dict[str, object]
"""A JSON object as the engine's outputs give it (the SCENARIOS.md round output, a rules document)."""


BetDocument: TypeAlias = BlackjackBet | WagerBet
"""A bet as placed (its shape: :mod:`croupier.service.payloads`)."""


# -- holds ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class _Stake:
    """What every hold has: its reference in the round, the player, the stake, the ledger key and entry, the
    request's fingerprint and the status."""

    ref: str
    player: str
    amount: int
    key: str
    digest: str
    status: HoldStatus
    entry: int | None = None

    def _json(self, kind: Literal["bet", "extra"]) -> StoredHold:
        out: StoredHold = {
            "ref": self.ref,
            "player": self.player,
            "amount": self.amount,
            "key": self.key,
            "kind": kind,
            "digest": self.digest,
            "status": self.status,
        }
        if self.entry is not None:
            out["entry"] = self.entry
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class BetHold(_Stake):
    """A bet's stake held by the ledger (LEDGER 2) under ``key``, in the ledger entry ``entry``; ``answer`` is what
    the bet was answered, given again for the same key and bet (LEDGER 3)."""

    bet: BetDocument
    answer: BetAnswer

    kind: Literal["bet"] = field(default="bet", init=False)

    def to_json(self) -> StoredHold:
        out = self._json("bet")
        out["bet"], out["answer"] = self.bet, self.answer
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class ExtraHold(_Stake):
    """An extra stake a blackjack answer added (double, split, follow, insurance, Any Pair), held like a bet."""

    action: str

    kind: Literal["extra"] = field(default="extra", init=False)

    def to_json(self) -> StoredHold:
        out = self._json("extra")
        out["action"] = self.action
        return out


Hold: TypeAlias = BetHold | ExtraHold


def hold_from_json(doc: Mapping[str, object]) -> Hold:
    """A stored hold."""
    common = {
        "ref": str(doc["ref"]),
        "player": str(doc["player"]),
        "amount": cast(int, doc["amount"]),
        "key": str(doc["key"]),
        "digest": str(doc["digest"]),
        "status": cast(HoldStatus, doc["status"]),
        "entry": cast("int | None", doc.get("entry")),
    }
    if doc.get("kind", "bet") == "bet":
        return BetHold(bet=cast(BetDocument, doc["bet"]), answer=cast(BetAnswer, doc["answer"]), **common)  # type: ignore[arg-type]
    return ExtraHold(action=str(doc["action"]), **common)  # type: ignore[arg-type]


# -- steps ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BetStep:
    """A held bet placed on the layout or a box (RO 3, SB 3.1, BJ 5.1)."""

    ref: str
    player: str
    bet: BetDocument

    def to_json(self) -> payloads.BetStep:
        return {"t": "bet", "ref": self.ref, "player": self.player, "bet": self.bet}


@dataclass(frozen=True, slots=True)
class CloseStep:
    """The bell: betting closes (RO 3, SB 3.1, BJ 5.1); blackjack deals."""

    def to_json(self) -> payloads.CloseStep:
        return {"t": "close"}


@dataclass(frozen=True, slots=True)
class ResultStep:
    """A pocket (RO 4) or three dice (SB 3.2)."""

    value: int | list[int]

    def to_json(self) -> payloads.ResultStep:
        return {"t": "result", "value": self.value}


@dataclass(frozen=True, slots=True)
class VoidResultStep:
    """A void spin or roll (RO 2.2, SB 3.3): the bets stand."""

    def to_json(self) -> payloads.VoidResultStep:
        return {"t": "void_result"}


@dataclass(frozen=True, slots=True)
class ForfeitStep:
    """A streak bettor who placed no main bet this round loses his open streak bets (BJ 13.5.4)."""

    player: str

    def to_json(self) -> payloads.ForfeitStep:
        return {"t": "forfeit", "player": self.player}


@dataclass(frozen=True, slots=True)
class ActStep:
    """A blackjack answer (BJ 6.3), by the player or by the published default when his time ran out (BJ 6.5)."""

    player: str
    action: str
    box: int
    hand: int | None
    amount: int | None

    def to_json(self) -> payloads.ActStep:
        return {
            "t": "act",
            "player": self.player,
            "action": self.action,
            "box": self.box,
            "hand": self.hand,
            "amount": self.amount,
        }


@dataclass(frozen=True, slots=True)
class VoidStep:
    """The round voided (RO 2.2, SB 3.3, BJ 5.1.2), or closed with its table."""

    reason: str

    def to_json(self) -> payloads.VoidStep:
        return {"t": "void", "reason": self.reason}


Step: TypeAlias = BetStep | CloseStep | ResultStep | VoidResultStep | ForfeitStep | ActStep | VoidStep


def step_from_json(doc: Mapping[str, object]) -> Step:
    """A stored step."""
    kind = doc["t"]
    if kind == "bet":
        return BetStep(str(doc["ref"]), str(doc["player"]), cast(BetDocument, doc["bet"]))
    if kind == "close":
        return CloseStep()
    if kind == "result":
        return ResultStep(cast("int | list[int]", doc["value"]))
    if kind == "void_result":
        return VoidResultStep()
    if kind == "forfeit":
        return ForfeitStep(str(doc["player"]))
    if kind == "act":
        return ActStep(
            str(doc["player"]),
            str(doc["action"]),
            cast(int, doc["box"]),
            cast("int | None", doc.get("hand")),
            cast("int | None", doc.get("amount")),
        )
    if kind == "void":
        return VoidStep(str(doc.get("reason") or "voided by the dealer"))
    raise ValueError(f"a stored step of unknown kind {kind!r}")


# -- the round --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Act:
    """A blackjack answer given under an idempotency key: its fingerprint and the answer given."""

    digest: str
    answer: ActAnswer

    def to_json(self) -> JsonObject:
        return {"digest": self.digest, "answer": self.answer}


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundState:
    """A round's state as stored: ``holds`` (every bet and extra stake with its ledger key, stored in the ledger's
    transaction that holds it), ``steps`` (replayed through the engine on recovery), ``cards`` (blackjack, in the
    order they left the shoe), ``reported`` (live cards not used yet), ``acts`` (answers by idempotency key),
    ``next`` (the last hold's number), ``stalled`` (a live step waiting for a card), and once settled ``nets`` (the
    net of each hold), ``outcome`` (the SCENARIOS.md result) and ``entry`` (the settling or voiding ledger entry).
    ``fair`` is a provably fair table's draw (:mod:`croupier.fair`): ``label``, the secret ``seed``, its
    ``commitment``, the public ``inputs`` once fixed and, for a blackjack shoe, ``shoe`` and ``decks``; stored with
    the round (it survives a crash) and shown only as :mod:`croupier.service.casino_fair` allows.
    """

    holds: tuple[Hold, ...] = ()
    steps: tuple[Step, ...] = ()
    cards: tuple[str, ...] = ()
    reported: tuple[str, ...] = ()
    acts: Mapping[str, Act] = field(default_factory=dict)
    next: int = 0
    stalled: Step | None = None
    nets: Mapping[str, int] | None = None
    outcome: JsonObject | None = None
    entry: int | None = None
    fair: JsonObject | None = None

    @property
    def held(self) -> list[Hold]:
        """The holds the ledger holds."""
        return [h for h in self.holds if h.status == "held"]

    def has_bets(self) -> bool:
        """Whether a bet (not only an extra stake) is held."""
        return any(h.status == "held" and isinstance(h, BetHold) for h in self.holds)

    def add(self, *, holds: tuple[Hold, ...] = (), steps: tuple[Step, ...] = (), next: int | None = None) -> RoundState:
        """This state with ``holds`` and ``steps`` appended (and ``next`` set)."""
        return RoundState(  # on a bet's hot path: built directly, not through dataclasses.replace
            holds=self.holds + holds,
            steps=self.steps + steps,
            cards=self.cards,
            reported=self.reported,
            acts=self.acts,
            next=self.next if next is None else next,
            stalled=self.stalled,
            nets=self.nets,
            outcome=self.outcome,
            entry=self.entry,
            fair=self.fair,
        )

    def to_json(self) -> JsonObject:
        """The stored document (the same keys and values the casino always wrote)."""
        out: JsonObject = {
            "holds": [h.to_json() for h in self.holds],
            "steps": [s.to_json() for s in self.steps],
            "cards": list(self.cards),
            "reported": list(self.reported),
            "acts": {k: a.to_json() for k, a in self.acts.items()},
            "next": self.next,
        }
        if self.stalled is not None:
            out["stalled"] = self.stalled.to_json()
        if self.nets is not None:
            out["nets"] = dict(self.nets)
        if self.outcome is not None:
            out["outcome"] = self.outcome
        if self.entry is not None:
            out["entry"] = self.entry
        if self.fair is not None:  # only a provably fair table's rounds have it: older rounds stay byte for byte
            out["fair"] = self.fair
        return out

    @classmethod
    def from_json(cls, doc: Mapping[str, object]) -> RoundState:
        """A stored document."""
        acts = cast("Mapping[str, Mapping[str, object]]", doc.get("acts", {}))
        stalled = doc.get("stalled")
        return cls(
            holds=tuple(hold_from_json(h) for h in cast("list[Mapping[str, object]]", doc.get("holds", []))),
            steps=tuple(step_from_json(s) for s in cast("list[Mapping[str, object]]", doc.get("steps", []))),
            cards=tuple(cast("list[str]", doc.get("cards", []))),
            reported=tuple(cast("list[str]", doc.get("reported", []))),
            acts={k: Act(str(a["digest"]), cast(ActAnswer, a["answer"])) for k, a in acts.items()},
            next=cast(int, doc.get("next", 0)),
            stalled=step_from_json(cast("Mapping[str, object]", stalled)) if stalled is not None else None,
            nets=cast("dict[str, int] | None", doc.get("nets")),
            outcome=cast("JsonObject | None", doc.get("outcome")),
            entry=cast("int | None", doc.get("entry")),
            fair=cast("JsonObject | None", doc.get("fair")),
        )
