"""The vocabulary of a blackjack round: phases, questions, operations (the history) and settlement records."""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from enum import Enum
from typing import Any, TypeVar

from croupier.primitives.cards import Card

_C = TypeVar("_C", bound=type)


def _quick_init(cls: _C) -> _C:
    """Give a frozen dataclass an ``__init__`` with the same signature that writes the fields straight into the
    instance's ``__dict__`` instead of calling ``object.__setattr__`` once per field (a generic attribute store
    that looks the name up on the type every time): a round makes a dozen of these records, and this builds each
    about twice as fast. Instances stay frozen: assigning a field still raises ``FrozenInstanceError``; only
    ``__init__`` changes."""
    namespace: dict[str, Any] = {}
    params, body = [], ["    d = self.__dict__"]
    for f in fields(cls):
        assert f.init and f.default_factory is MISSING, f"{cls.__name__}.{f.name}"
        if f.default is MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        body.append(f"    d[{f.name!r}] = {f.name}")
    exec(f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body), namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)  # noqa: B010 - mypy refuses a direct assignment to a method
    return cls


class Phase(Enum):
    """Where a round stands."""

    BETTING = "betting"
    OFFERS = "offers"
    PLAY = "play"
    SETTLED = "settled"
    VOID = "void"


PLAY_ACTIONS = ("hit", "stand", "double", "split", "surrender", "claim_five_card")
OFFER_ACTIONS = ("insurance", "even_money", "decline")
QUESTIONS = ("play", "insurance", "even_money", "follow", "any_pair")
"""What a question asks: a play decision (BJ 6.5), insurance (BJ 12.1), even money (BJ 10.3), whether to follow a
double or split (BJ 20.1), or new Any Pair stakes after a split (BJ 13.1)."""


@_quick_init
@dataclass(frozen=True)
class Decision:
    """A question the round waits on: ``player`` answers one of ``actions`` for ``box`` (and ``hand``)."""

    kind: str  # "offer", "play", "follow", "any_pair"
    box: int
    hand: int | None
    player: str
    actions: tuple[str, ...]
    max_insurance: int = 0
    rule: str = ""

    @property
    def question(self) -> str:
        """What is asked (one of :data:`QUESTIONS`): an offer is of even money or of insurance."""
        if self.kind == "offer":
            return "even_money" if "even_money" in self.actions else "insurance"
        return self.kind


@_quick_init
@dataclass(frozen=True)
class StreakBet:
    """An open streak bet (BJ 13.5): ``wins`` counted so far since the round it was placed in."""

    box: int
    player: str
    level: int
    stake: int
    wins: int = 0


# -- operations -------------------------------------------------------------------------------------------------


@_quick_init
@dataclass(frozen=True)
class BetPlaced:
    """A bettor's stakes on a box (BJ 3, BJ 13, BJ 20)."""

    box: int
    player: str
    main: int
    side: tuple[tuple[str, int], ...]
    streak: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class BettingClosed:
    """No more bets; the deal starts."""


@_quick_init
@dataclass(frozen=True)
class Shuffled:
    """A fresh shoe (BJ 2); ``discards`` when a shoe that ran out mid-round has its discards shuffled back in."""

    discards: bool = False


@_quick_init
@dataclass(frozen=True)
class Burned:
    """A card burned (BJ 4, BJ 5.1.1)."""

    card: Card
    rule: str


@_quick_init
@dataclass(frozen=True)
class Dealt:
    """A card dealt: to a box's hand, or to the dealer (``box`` None)."""

    card: Card
    box: int | None
    hand: int | None
    face_up: bool


@_quick_init
@dataclass(frozen=True)
class Answered:
    """A bettor's answer: an offer, a play decision, a follow or an Any Pair stake. ``question`` is what was
    asked (:data:`QUESTIONS`), so that a ``decline`` says what it refused."""

    box: int
    hand: int | None
    player: str
    action: str
    amount: int = 0
    question: str = ""


# -- shared records ------------------------------------------------------------------------------------------------
#
# A record is an immutable value that compares by value, and a table makes the same ones over and over (the same
# card to the same box, the same answer from the same player), so, like the cards themselves, one of each serves
# every round: these helpers return the record, made once. Each cache keeps at most SHARED_MAX records.

SHARED_MAX = 20_000
"""The most records each cache keeps (past it, records are made afresh)."""

_DEALT: dict[tuple[Card, int | None, int | None, bool], Dealt] = {}
_ANSWERED: dict[tuple[int, int | None, str, str, int, str], Answered] = {}
_PLAY: dict[tuple[int, int, str, tuple[str, ...]], Decision] = {}


def dealt(card: Card, box: int | None, hand: int | None, face_up: bool) -> Dealt:
    """``Dealt(card, box, hand, face_up)``, shared (the deal is the engine's most frequent operation)."""
    key = (card, box, hand, face_up)
    op = _DEALT.get(key)
    if op is None:
        op = Dealt(card, box, hand, face_up)
        if len(_DEALT) < SHARED_MAX:
            _DEALT[key] = op
    return op


def answered(q: Decision, action: str, amount: int) -> Answered:
    """The answer ``action`` (with ``amount``) to the question ``q``, shared."""
    kind = q.kind
    # Decision.question, written out: an offer is of even money or of insurance.
    question = kind if kind != "offer" else ("even_money" if "even_money" in q.actions else "insurance")
    key = (q.box, q.hand, q.player, action, amount, question)
    op = _ANSWERED.get(key)
    if op is None:
        op = Answered(q.box, q.hand, q.player, action, amount, question)
        if len(_ANSWERED) < SHARED_MAX:
            _ANSWERED[key] = op
    return op


def play_question(box: int, hand: int, player: str, actions: tuple[str, ...]) -> Decision:
    """The play decision (BJ 6.5) ``player`` answers for ``box``'s ``hand`` with one of ``actions``, shared."""
    key = (box, hand, player, actions)
    q = _PLAY.get(key)
    if q is None:
        q = Decision("play", box, hand, player, actions, 0, "BJ 6.5")
        if len(_PLAY) < SHARED_MAX:
            _PLAY[key] = q
    return q


@_quick_init
@dataclass(frozen=True)
class Paid:
    """A payment the statute makes at once (BJ 10.3, 15, 18, 19): ``net`` to ``player`` on a hand."""

    box: int
    hand: int
    player: str
    kind: str
    net: int
    rule: str


@_quick_init
@dataclass(frozen=True)
class Peeked:
    """Procedure 3: the dealer looks at the hole card (BJ 5.2)."""

    blackjack: bool


@_quick_init
@dataclass(frozen=True)
class HoleCardTurned:
    """The dealer's face-down card is shown."""

    card: Card


@_quick_init
@dataclass(frozen=True)
class CardVoided:
    """A card removed from play (BJ 5.1.1 exposed card, BJ 6.1 dealer card drawn wrongly)."""

    card: Card
    rule: str


@_quick_init
@dataclass(frozen=True)
class RoundVoided:
    """Every card of the round is void and every bet returned (BJ 5.1.2)."""

    reason: str


@dataclass(frozen=True, slots=True)
class Settled:
    """The round's settlement is final."""


Operation = (
    BetPlaced
    | BettingClosed
    | Shuffled
    | Burned
    | Dealt
    | Answered
    | Paid
    | Peeked
    | HoleCardTurned
    | CardVoided
    | RoundVoided
    | Settled
)


# -- settlement records -------------------------------------------------------------------------------------------


@_quick_init
@dataclass(frozen=True)
class BetOutcome:
    """One bet's result: ``net`` to ``player`` (0 for a push or an open streak bet)."""

    box: int
    player: str
    kind: str
    stake: int
    net: int
    rule: str
    status: str | None = None


@_quick_init
@dataclass(frozen=True)
class HandOutcome:
    """A hand as it ended."""

    cards: tuple[Card, ...]
    total: int
    status: str


@_quick_init
@dataclass(frozen=True)
class BoxOutcome:
    """A box's hands and result (the deciding player's result, as the streak counts it)."""

    box: int
    result: str
    hands: tuple[HandOutcome, ...]


@_quick_init
@dataclass(frozen=True)
class BlackjackSettlement:
    """A settled (or voided) round."""

    dealer_cards: tuple[Card, ...]
    dealer_total: int
    dealer_blackjack: bool
    boxes: tuple[BoxOutcome, ...]
    outcomes: tuple[BetOutcome, ...]
    void: bool = False
    player_order: tuple[str, ...] = ()

    def players(self) -> dict[str, int]:
        """Each bettor's net for the round (0 included)."""
        out: dict[str, int] = dict.fromkeys(self.player_order, 0)
        for o in self.outcomes:
            out[o.player] = out.get(o.player, 0) + o.net
        return out

    @property
    def house_net(self) -> int:
        """The house's result: minus the players' nets."""
        return -sum(o.net for o in self.outcomes)
