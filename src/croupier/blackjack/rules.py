"""Blackjack rules as a document: every option RULES.md names for Despacho 57/2009 (BJ 1-21).

Field names are the option names of RULES.md. Each field cites its rule id and its kind: *approval* (BJ 21.1,
21.3), *waivable* (BJ 21.2) or *outside the statute*; some options are statutory for one value and outside
the statute for the others (``dealer_soft_17``, ``even_money_on_ten``, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from functools import cached_property
from types import MappingProxyType
from typing import Any, ClassVar

from croupier import rulesdoc
from croupier.money import Limit
from croupier.rulesdoc import OptionKind, dump_odds, option, parse_bool, parse_int, parse_odds

A, W, OUT = OptionKind.APPROVAL, OptionKind.WAIVABLE, OptionKind.OUTSIDE


class DealingDevice(StrEnum):
    """BJ 1: what the cards are dealt from."""

    SHOE = "shoe"
    DEALING_BOX = "dealing_box"
    SHUFFLER = "shuffler"


class BurnAfterShuffle(StrEnum):
    """BJ 4.1: cards burned before the first round after a shuffle."""

    PER_DECK = "per_deck"
    ONE = "one"


class DealerSoft17(StrEnum):
    """BJ 6.1/6.6 readings: when the dealer draws on a soft 17."""

    HIT_ACE_SIX = "hit_ace_six"
    HIT_ALL = "hit_all"
    STAND = "stand"


class SideBet(StrEnum):
    """BJ 13: the side bets a table may offer."""

    ANY_PAIR = "any_pair"
    SEVENS = "sevens"
    OVER_UNDER_13 = "over_under_13"
    PERFECT_PAIRS = "perfect_pairs"
    STREAK = "streak"


class AnyPairAfterSplit(StrEnum):
    """BJ 13.1 reading: Any Pair stakes on split hands."""

    NEW_STAKE = "new_stake"
    NONE = "none"


class SevensThirdCard(StrEnum):
    """BJ 13.2(b) reading: which card is the box's third card."""

    AFTER_SPLIT = "after_split"
    ANY = "any"


class SevensMixedTriple(StrEnum):
    """BJ 14.2 reading: three 7s of two suits."""

    TWO_CARD_PAY = "two_card_pay"
    PAYS_500 = "pays_500"


class SplitPairBy(StrEnum):
    """BJ 16 reading: what makes a pair for splitting."""

    RANK = "rank"
    VALUE = "value"


class DoubleOn(StrEnum):
    """BJ 17.1: which first two cards may be doubled."""

    ANY_TWO = "any_two"
    ELEVEN = "eleven"


class BustedStakes(StrEnum):
    """ "Original bet only" reading: busted stakes when the dealer has blackjack."""

    REFUNDED = "refunded"
    LOST = "lost"


# -- paytables (BJ 14) ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BlackjackPaytable:
    """BJ 14: side-bet odds (to 1)."""

    any_pair: Fraction = Fraction(11)
    over_under_13: Fraction = Fraction(1)
    perfect_pairs_mixed: Fraction = Fraction(5)
    perfect_pairs_coloured: Fraction = Fraction(12)
    perfect_pairs_perfect: Fraction = Fraction(25)
    sevens_two_mixed: Fraction = Fraction(50)
    sevens_two_suited: Fraction = Fraction(150)
    sevens_three_mixed: Fraction = Fraction(500)
    sevens_three_suited: Fraction = Fraction(5000)
    streak: tuple[Fraction, Fraction, Fraction, Fraction] = (Fraction(3), Fraction(8), Fraction(18), Fraction(38))

    def streak_odds(self, level: int) -> Fraction:
        """Odds of a streak bet on ``level`` (2-5) wins in a row."""
        return self.streak[level - 2]

    def as_document(self) -> dict[str, object]:
        """The paytable as written in a rules file (SCENARIOS.md "paytables")."""
        return {
            "any_pair": dump_odds(self.any_pair),
            "over_under_13": dump_odds(self.over_under_13),
            "perfect_pairs": {
                "mixed": dump_odds(self.perfect_pairs_mixed),
                "coloured": dump_odds(self.perfect_pairs_coloured),
                "perfect": dump_odds(self.perfect_pairs_perfect),
            },
            "sevens": {
                "two_mixed": dump_odds(self.sevens_two_mixed),
                "two_suited": dump_odds(self.sevens_two_suited),
                "three_mixed": dump_odds(self.sevens_three_mixed),
                "three_suited": dump_odds(self.sevens_three_suited),
            },
            "streak": {str(level): dump_odds(self.streak_odds(level)) for level in (2, 3, 4, 5)},
        }

    def odds_list(self) -> list[tuple[str, Fraction]]:
        """Every odds value with its name, for validation."""
        out = [(name, getattr(self, name)) for name in self.__slots__ if name != "streak"]
        return out + [(f"streak {level}", self.streak_odds(level)) for level in (2, 3, 4, 5)]


_NESTED = {
    "perfect_pairs": ("mixed", "coloured", "perfect"),
    "sevens": ("two_mixed", "two_suited", "three_mixed", "three_suited"),
}


def _parse_paytable(value: object) -> BlackjackPaytable:
    if not isinstance(value, Mapping):
        raise ValueError(f"{value!r} is not an object of odds by side bet")
    parts: dict[str, Any] = {}
    base = BlackjackPaytable()
    for key, odds in value.items():
        if key in ("any_pair", "over_under_13"):
            parts[key] = parse_odds(odds)
        elif key in _NESTED:
            if not isinstance(odds, Mapping):
                raise ValueError(f"{key} odds {odds!r} must be an object ({', '.join(_NESTED[key])})")
            for sub, o in odds.items():
                if sub not in _NESTED[key]:
                    raise ValueError(f"{sub!r} is not a {key} line (one of {', '.join(_NESTED[key])})")
                parts[f"{key}_{sub}"] = parse_odds(o)
        elif key == "streak":
            if not isinstance(odds, Mapping):
                raise ValueError(f'streak odds {odds!r} must be an object by level ("2" … "5")')
            levels = list(base.streak)
            for level, o in odds.items():
                if str(level) not in ("2", "3", "4", "5"):
                    raise ValueError(f"{level!r} is not a streak level (2-5)")
                levels[int(level) - 2] = parse_odds(o)
            parts["streak"] = tuple(levels)
        else:
            raise ValueError(
                f"{key!r} is not a blackjack side bet (any_pair, over_under_13, perfect_pairs, sevens, streak)"
            )
    return replace(base, **parts)


# -- option parsers ------------------------------------------------------------------------------------------


def _enum(cls: type[StrEnum]) -> rulesdoc.Parser:
    choices = {m.value: m for m in cls}

    def parse(value: object) -> StrEnum:
        if isinstance(value, str) and value in choices:
            return choices[value]
        raise ValueError(f"{value!r} is not one of {', '.join(choices)}")

    return parse


def _one_of(*values: int) -> rulesdoc.Parser:
    def parse(value: object) -> int:
        n = parse_int(value)
        if n not in values:
            raise ValueError(f"{value!r} is not one of {', '.join(map(str, values))}")
        return n

    return parse


def _optional_int(value: object) -> int | None:
    return None if value is None else parse_int(value)


def _fraction(value: object) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(f"{value!r} is not a number")
    try:
        return Fraction(str(value)) if not isinstance(value, int) else Fraction(value)
    except ValueError:
        raise ValueError(f"{value!r} is not a number") from None


def _side_bets(value: object) -> frozenset[SideBet]:
    if not isinstance(value, list | tuple | set | frozenset):
        raise ValueError(f"{value!r} is not a list of side bets")
    out = set()
    for item in value:
        try:
            out.add(SideBet(item))
        except ValueError:
            raise ValueError(f"{item!r} is not a side bet (one of {', '.join(s.value for s in SideBet)})") from None
    return frozenset(out)


def _dump_side_bets(value: frozenset[SideBet]) -> list[str]:
    return [s.value for s in SideBet if s in value]


def _dump_fraction(value: Fraction) -> int | float | str:
    if value.denominator == 1:
        return int(value)
    as_float = float(value)
    return as_float if Fraction(str(as_float)) == value else str(value)


def _outside_unless(default: object) -> Any:
    return lambda v: A if v == default else OUT


MAX_DECKS = 100
MAX_BOXES = 100
"""Practical ceilings: the statute sets no upper limit on decks or boxes (BJ 1)."""

BET_KINDS: tuple[str, ...] = (
    "main",
    "insurance",
    "any_pair",
    "sevens",
    "over_13",
    "under_13",
    "perfect_pairs",
    "streak",
)
"""The bet types that ``min_bet`` / ``max_bet`` objects may name."""

_CHIP, _MIN, _MAX = rulesdoc.limit_fields(BET_KINDS)


@dataclass(frozen=True, kw_only=True)
class BlackjackRules:
    """The rules of one blackjack table. Defaults are the statute as RULES.md reads it (preset ``statute``)."""

    GAME: ClassVar[str] = "blackjack"

    decks: int = option(rule="BJ 1", kind=A, doc="Decks of 52 cards (≥ 1).", parse=parse_int, default=8)
    boxes: int = option(rule="BJ 1", kind=A, doc="Boxes on the layout (≥ 6).", parse=parse_int, default=7)
    dealing_device: DealingDevice = option(
        rule="BJ 1",
        kind=A,
        doc="shoe, dealing_box (one deck, one round per shuffle) or shuffler (continuous shuffling machine).",
        parse=_enum(DealingDevice),
        default=DealingDevice.SHOE,
    )
    cards_behind_cut: int | None = option(
        rule="BJ 2.1",
        kind=A,
        doc="Cards behind the cut card (≥ 30 for a multi-deck shoe); default 52·decks/4.",
        parse=_optional_int,
        effective=lambda r: r.behind_cut,
        default=None,
    )
    max_boxes_per_player: int | None = option(
        rule="BJ 3",
        kind=A,
        doc="Most boxes one player may bet on (default: no limit).",
        parse=_optional_int,
        default=None,
    )
    burn_after_shuffle: BurnAfterShuffle = option(
        rule="BJ 4.1",
        kind=A,
        doc="Burn per_deck (as many cards as decks) or one card before the first round after a shuffle.",
        parse=_enum(BurnAfterShuffle),
        default=BurnAfterShuffle.ONE,
    )
    burn_each_round: bool = option(
        rule="BJ 4.2",
        kind=A,
        doc="Burn one card before every later round (shoe, shuffler).",
        parse=parse_bool,
        default=False,
    )
    burn_before_dealer_second_card: bool = option(
        rule="BJ 4.2",
        kind=A,
        doc="Burn one card before the dealer's face-up second card (procedures 1 and 2, shoe or shuffler).",
        parse=parse_bool,
        default=False,
    )
    procedure: int = option(
        rule="BJ 5.2",
        kind=A,
        doc="Dealing procedure 1 (boxes face down, no hole card), 2 (face up, no hole card) or 3 (hole card).",
        parse=_one_of(1, 2, 3),
        default=1,
    )
    peek: bool = option(
        rule="BJ 5.2",
        kind=A,
        doc="Procedure 3: the dealer peeks under an ace or ten-value up card.",
        parse=parse_bool,
        default=True,
    )
    dealer_soft_17: DealerSoft17 = option(
        rule="BJ 6.1",
        kind=A,
        kind_of=_outside_unless("hit_ace_six"),
        doc="hit_ace_six (the text: draw on the two-card ace-six only), hit_all or stand.",
        parse=_enum(DealerSoft17),
        default=DealerSoft17.HIT_ACE_SIX,
    )
    lose_original_only_on_double: bool = option(
        rule="BJ 10.7",
        kind=A,
        doc="Against a dealer blackjack a player who doubled loses only the original bet.",
        parse=parse_bool,
        default=True,
    )
    even_money_on_ten: bool = option(
        rule="BJ 10.3",
        kind=A,
        kind_of=_outside_unless(True),
        doc="Even money is also offered when the dealer shows a ten-value card.",
        parse=parse_bool,
        default=True,
    )
    insurance_limit: Fraction = option(
        rule="BJ 12.1",
        kind=A,
        doc="Most insurance accepted, as a fraction of the bettor's main bet (0.5 to 1).",
        parse=_fraction,
        dump=_dump_fraction,
        default=Fraction(1, 2),
    )
    side_bets_offered: frozenset[SideBet] = option(
        rule="BJ 13",
        kind=A,
        doc="Side bets offered: any_pair, sevens, over_under_13, perfect_pairs, streak.",
        parse=_side_bets,
        dump=_dump_side_bets,
        default=frozenset({SideBet.ANY_PAIR}),
    )
    one_side_bet_per_box: bool = option(
        rule="BJ 13",
        kind=A,
        doc="A player places one kind of side bet per box.",
        parse=parse_bool,
        default=True,
    )
    any_pair_after_split: AnyPairAfterSplit = option(
        rule="BJ 13.1",
        kind=A,
        doc="new_stake: Any Pair bettors may stake again on each hand a split produces; none: first two cards only.",
        parse=_enum(AnyPairAfterSplit),
        default=AnyPairAfterSplit.NEW_STAKE,
    )
    sevens_third_card: SevensThirdCard = option(
        rule="BJ 13.2",
        kind=A,
        doc="after_split: the third 7 counts only as the card dealt after splitting the 7s; any: the box's third card.",
        parse=_enum(SevensThirdCard),
        default=SevensThirdCard.AFTER_SPLIT,
    )
    sevens_mixed_triple: SevensMixedTriple = option(
        rule="BJ 14.2",
        kind=A,
        kind_of=_outside_unless("two_card_pay"),
        doc="Three 7s of two suits: two_card_pay (the literal reading) or pays_500.",
        parse=_enum(SevensMixedTriple),
        default=SevensMixedTriple.TWO_CARD_PAY,
    )
    paytables: BlackjackPaytable = option(
        rule="BJ 14",
        kind=OUT,
        doc="Side-bet odds (to 1); any part may be given.",
        parse=_parse_paytable,
        dump=BlackjackPaytable.as_document,
        default_factory=BlackjackPaytable,
    )
    special_bonus: bool = option(
        rule="BJ 15",
        kind=W,
        doc="Suited 6-7-8 or three 7s as a hand's first three cards pay 3 times the bet at once.",
        parse=parse_bool,
        default=True,
    )
    max_split_hands: int | None = option(
        rule="BJ 16.1",
        kind=A,
        doc="Most hands a box may split into (≥ 2); default 4, and 5 in procedure 3.",
        parse=_optional_int,
        effective=lambda r: r.split_hands_limit,
        default=None,
    )
    resplit_aces: bool = option(
        rule="BJ 16.3",
        kind=A,
        doc="A split ace that receives an ace may be split again.",
        parse=parse_bool,
        default=True,
    )
    split_pair_by: SplitPairBy = option(
        rule="BJ 16.1",
        kind=A,
        kind_of=_outside_unless("rank"),
        doc="rank (the text: J-J is a pair, J-Q is not) or value (any two ten-value cards).",
        parse=_enum(SplitPairBy),
        default=SplitPairBy.RANK,
    )
    split_after_declining: bool = option(
        rule="BJ 16.5",
        kind=A,
        kind_of=_outside_unless(False),
        doc="A box that declined a split may split later in the round.",
        parse=parse_bool,
        default=False,
    )
    double_on: DoubleOn = option(
        rule="BJ 17.1",
        kind=A,
        doc="any_two (any first two cards) or eleven (a first-two-card total of 11 only).",
        parse=_enum(DoubleOn),
        default=DoubleOn.ANY_TWO,
    )
    double_after_split: bool = option(
        rule="BJ 17.1",
        kind=A,
        doc="Double on a split hand's first two cards (not split aces).",
        parse=parse_bool,
        default=True,
    )
    surrender: bool = option(
        rule="BJ 18", kind=W, doc="Surrender for half the bet (not against an ace).", parse=parse_bool, default=True
    )
    five_card_payment: bool = option(
        rule="BJ 19",
        kind=A,
        kind_of=_outside_unless(True),
        doc="Five cards totalling 21 or less may be paid half the bet at once (dealer not showing an ace).",
        parse=parse_bool,
        default=True,
    )
    box_control: int = option(
        rule="BJ 20.1",
        kind=A,
        doc="Who decides for a box: 1 the seated player; 2 likewise, at most 3 bettors; 3 the highest main bet.",
        parse=_one_of(1, 2, 3),
        default=1,
    )
    max_bettors_per_box: int | None = option(
        rule="BJ 20.1",
        kind=A,
        doc="Most bettors on one box (box_control 2: at most 3, default 3; otherwise default no limit).",
        parse=_optional_int,
        effective=lambda r: r.bettors_per_box_limit,
        default=None,
    )
    busted_stakes_on_dealer_blackjack: BustedStakes = option(
        rule="BJ 16.6",
        kind=A,
        doc="Original bet only: refunded (bust stakes returned, the original bet lost once) or lost.",
        parse=_enum(BustedStakes),
        default=BustedStakes.REFUNDED,
    )
    chip_unit: int = _CHIP
    min_bet: Limit = _MIN
    max_bet: Limit = _MAX

    def __post_init__(self) -> None:
        rulesdoc.raise_problems(self)

    # -- derived settings (cached: the rules are immutable) ---------------------------------------------------

    @cached_property
    def split_hands_limit(self) -> int:
        """The most hands a box may split into (BJ 16.1; BJ 5.2 procedure 3: five)."""
        if self.max_split_hands is not None:
            return self.max_split_hands
        return 5 if self.procedure == 3 else 4

    @cached_property
    def bettors_per_box_limit(self) -> int | None:
        """The most bettors on one box (BJ 20.1.2)."""
        if self.max_bettors_per_box is not None:
            return self.max_bettors_per_box
        return 3 if self.box_control == 2 else None

    @property
    def behind_cut(self) -> int:
        """Cards behind the cut card (SCENARIOS.md: 52·decks/4, raised to 30 for a multi-deck shoe; 13 for one)."""
        if self.cards_behind_cut is not None:
            return self.cards_behind_cut
        return max(52 * self.decks // 4, 30) if self.decks > 1 else 13

    @cached_property
    def has_hole_card(self) -> bool:
        """Whether the dealer's second card is dealt before the players act (procedure 3, or a dealing box)."""
        return self.procedure == 3 or self.dealing_device is DealingDevice.DEALING_BOX

    @cached_property
    def dealer_peeks(self) -> bool:
        """Procedure 3 with the peek: a dealer blackjack is known before the players act."""
        return self.procedure == 3 and self.peek

    @cached_property
    def main_bet_range(self) -> tuple[int, int]:
        """The smallest and largest main bet the table takes (``min_bet`` and ``max_bet`` for ``main``)."""
        return self.min_bet.for_type("main"), self.max_bet.for_type("main")

    def min_stake(self, kind: str) -> int:
        """The minimum stake of a bet kind; insurance defaults to one chip unit (SCENARIOS.md)."""
        if kind == "insurance" and "insurance" not in self.min_bet.by_type:
            return self.chip_unit
        return self.min_bet.for_type(kind)

    def problems(self) -> list[str]:
        """Every violated constraint, as full sentences naming the value and the rule."""
        out: list[str] = []
        if self.decks < 1:
            out.append(f"decks {self.decks} must be at least 1 (BJ 1; croupier takes up to {MAX_DECKS}).")
        elif self.decks > MAX_DECKS:
            out.append(f"decks {self.decks} is more than croupier takes ({MAX_DECKS}; BJ 1 sets no upper limit).")
        if self.boxes < 6:
            out.append(f"boxes {self.boxes} must be at least 6 (BJ 1; croupier takes up to {MAX_BOXES}).")
        elif self.boxes > MAX_BOXES:
            out.append(f"boxes {self.boxes} is more than croupier takes ({MAX_BOXES}; BJ 1 sets no upper limit).")
        if self.dealing_device is DealingDevice.DEALING_BOX and self.decks != 1:
            out.append(f"a dealing_box holds a single deck, not {self.decks} (BJ 1).")
        if self.cards_behind_cut is not None:
            if self.decks > 1 and self.cards_behind_cut < 30:
                out.append(
                    f"cards_behind_cut {self.cards_behind_cut} must be at least 30 for a multi-deck shoe (BJ 2.1)."
                )
            if not 0 < self.cards_behind_cut < 52 * self.decks:
                out.append(
                    f"cards_behind_cut {self.cards_behind_cut} must leave cards on both sides of the cut (BJ 2.1)."
                )
        if self.max_boxes_per_player is not None and self.max_boxes_per_player < 1:
            out.append(f"max_boxes_per_player {self.max_boxes_per_player} must be at least 1 (BJ 3).")
        if not Fraction(1, 2) <= self.insurance_limit <= 1:
            out.append(
                f"insurance_limit {self.insurance_limit} must be between 0.5 and 1 of the original bet (BJ 12.1)."
            )
        if self.max_split_hands is not None and self.max_split_hands < 2:
            out.append(f"max_split_hands {self.max_split_hands} must be at least 2 (BJ 16.1).")
        if self.max_bettors_per_box is not None:
            if self.max_bettors_per_box < 1:
                out.append(f"max_bettors_per_box {self.max_bettors_per_box} must be at least 1 (BJ 20.1).")
            if self.box_control == 2 and self.max_bettors_per_box > 3:
                out.append(f"max_bettors_per_box {self.max_bettors_per_box} exceeds 3 under box_control 2 (BJ 20.1.2).")
        for name, odds in self.paytables.odds_list():
            if odds <= 0:
                out.append(f"paytables gives {name} odds {odds}; odds must be positive (BJ 14).")
        out += rulesdoc.limit_problems(self.chip_unit, self.min_bet, self.max_bet, BET_KINDS)
        return out


STATUTE = BlackjackRules()

MACAU_TYPICAL = BlackjackRules(
    decks=6,
    dealing_device=DealingDevice.SHUFFLER,
    dealer_soft_17=DealerSoft17.STAND,
    surrender=True,
    double_on=DoubleOn.ANY_TWO,
    double_after_split=True,
    max_split_hands=4,
    resplit_aces=False,
)
"""Published surveys' usual Macau house game: 6 decks, continuous shuffler, dealer stands on soft 17,
surrender, double on any two and after split, split to 4 hands, aces split once."""

PRESETS: Mapping[str, BlackjackRules] = MappingProxyType(
    {"statute": STATUTE, "default": STATUTE, "macau-typical": MACAU_TYPICAL, "macau": MACAU_TYPICAL}
)
"""Named rule sets, with aliases."""


def load(document: Mapping[str, Any]) -> BlackjackRules:
    """Blackjack rules from a document (a TOML/JSON object or a scenario's ``rules``)."""
    return rulesdoc.load(BlackjackRules, document, PRESETS, game="blackjack")


__all__ = [
    "MACAU_TYPICAL",
    "PRESETS",
    "STATUTE",
    "AnyPairAfterSplit",
    "BlackjackPaytable",
    "BlackjackRules",
    "BurnAfterShuffle",
    "BustedStakes",
    "DealerSoft17",
    "DealingDevice",
    "DoubleOn",
    "SevensMixedTriple",
    "SevensThirdCard",
    "SideBet",
    "SplitPairBy",
    "load",
]
