"""The vocabulary of a blackjack round: phases, questions, operations (the history) and settlement records."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from croupier.primitives.cards import Card


class Phase(Enum):
    """Where a round stands."""

    BETTING = "betting"
    OFFERS = "offers"
    PLAY = "play"
    SETTLED = "settled"
    VOID = "void"


PLAY_ACTIONS = ("hit", "stand", "double", "split", "surrender", "claim_five_card")
OFFER_ACTIONS = ("insurance", "even_money", "decline")


@dataclass(frozen=True, slots=True)
class Decision:
    """A question the round waits on: ``player`` answers one of ``actions`` for ``box`` (and ``hand``)."""

    kind: str  # "offer", "play", "follow", "any_pair"
    box: int
    hand: int | None
    player: str
    actions: tuple[str, ...]
    max_insurance: int = 0
    rule: str = ""


@dataclass(frozen=True, slots=True)
class StreakBet:
    """An open streak bet (BJ 13.5): ``wins`` counted so far since the round it was placed in."""

    box: int
    player: str
    level: int
    stake: int
    wins: int = 0


# -- operations -------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class Shuffled:
    """A fresh shoe (BJ 2); ``discards`` when a shoe that ran out mid-round has its discards shuffled back in."""

    discards: bool = False


@dataclass(frozen=True, slots=True)
class Burned:
    """A card burned (BJ 4, BJ 5.1.1)."""

    card: Card
    rule: str


@dataclass(frozen=True, slots=True)
class Dealt:
    """A card dealt: to a box's hand, or to the dealer (``box`` None)."""

    card: Card
    box: int | None
    hand: int | None
    face_up: bool


@dataclass(frozen=True, slots=True)
class Answered:
    """A bettor's answer: an offer, a play decision, a follow or an Any Pair stake."""

    box: int
    hand: int | None
    player: str
    action: str
    amount: int = 0


@dataclass(frozen=True, slots=True)
class Paid:
    """A payment the statute makes at once (BJ 10.3, 15, 18, 19): ``net`` to ``player`` on a hand."""

    box: int
    hand: int
    player: str
    kind: str
    net: int
    rule: str


@dataclass(frozen=True, slots=True)
class Peeked:
    """Procedure 3: the dealer looks at the hole card (BJ 5.2)."""

    blackjack: bool


@dataclass(frozen=True, slots=True)
class HoleCardTurned:
    """The dealer's face-down card is shown."""

    card: Card


@dataclass(frozen=True, slots=True)
class CardVoided:
    """A card removed from play (BJ 5.1.1 exposed card, BJ 6.1 dealer card drawn wrongly)."""

    card: Card
    rule: str


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class BetOutcome:
    """One bet's result: ``net`` to ``player`` (0 for a push or an open streak bet)."""

    box: int
    player: str
    kind: str
    stake: int
    net: int
    rule: str
    status: str | None = None


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """A hand as it ended."""

    cards: tuple[Card, ...]
    total: int
    status: str


@dataclass(frozen=True, slots=True)
class BoxOutcome:
    """A box's hands and result (the deciding player's result, as the streak counts it)."""

    box: int
    result: str
    hands: tuple[HandOutcome, ...]


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
