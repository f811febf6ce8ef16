"""What differs by game at a casino table: one adapter per game between the casino
(:mod:`croupier.service.casino`) and the game's engine, and the registry of them.

A :class:`TableGame` is made for each open table. It owns the table's engine and the engine round in play, and it
knows, for its game: how a bet document is checked, how each stored **step** is applied to the engine (live and on
replay alike, so a replayed round is the same round), what a dealer reports, what happens at the bell and when a
decision's timer runs out, the ledger result of a settled round, what each viewer may see, the table's read models
(rules, public history, a player's own result) and the export of a round as a SCENARIOS.md scenario. The rule ids it
cites come from the engines. Roulette and sic bo share :class:`WagerGame`, as their engines share
:class:`~croupier.wagering.WagerRound`.

Steps (:mod:`croupier.service.round_state`): ``bet`` (a held bet), ``close`` (the bell, RO 3 / SB 3.1 / BJ 5.1),
``result`` (a pocket or dice, RO 4 / SB 3.2), ``void_result`` (a void spin or roll, RO 2.2 / SB 3.3), ``forfeit`` (a
streak bettor who did not bet again, BJ 13.5.4), ``act`` (a blackjack answer) and ``void`` (the round voided, BJ
5.1.2). A blackjack round's cards are stored beside its steps, in the order they left the shoe, and fed back to the
engine on replay: a card once stored is never drawn again.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import fields, is_dataclass, replace
from enum import Enum
from typing import ClassVar, Generic, Literal, TypeVar, cast

from croupier import fair as fairness
from croupier import games as games_registry
from croupier import rulesdoc
from croupier.blackjack import rules as bj_rules
from croupier.blackjack.operations import (
    Answered,
    Burned,
    CardVoided,
    Dealt,
    Decision,
    HoleCardTurned,
    Phase,
    Shuffled,
)
from croupier.blackjack.round import BlackjackRound, NextCard
from croupier.blackjack.sidebets import SIDE_KEYS, parse_streak_level
from croupier.blackjack.table import BlackjackTable
from croupier.blackjack.views import player_view
from croupier.errors import BetRejected, CroupierError, IllegalAction, InvalidInput
from croupier.primitives.cards import Card, parse_card
from croupier.primitives.chance import ChanceExhausted, ChanceSource, RandomSource
from croupier.primitives.dice import check_dice
from croupier.primitives.shoe import DECK_SIZE
from croupier.primitives.wheel import check_pocket
from croupier.replay.blackjack import export_scenario as bj_export
from croupier.replay.blackjack import round_output
from croupier.replay.core import ScenarioError, replay
from croupier.roulette import rules as ro_rules
from croupier.roulette.round import RouletteRound, RouletteTable
from croupier.service import casino_info as info
from croupier.service.payloads import BlackjackBet, CardTarget, DealerPrompt, DecisionKind, Scenario, WagerBet
from croupier.service.round_state import (
    ActStep,
    BetDocument,
    BetStep,
    CloseStep,
    ForfeitStep,
    JsonObject,
    ResultStep,
    RoundState,
    Step,
    VoidResultStep,
    VoidStep,
)
from croupier.sicbo import rules as sb_rules
from croupier.sicbo.round import SicBoRound, SicBoTable

MAX_BETS_PER_ROUND = 500
BUST_OVER = 21
"""A blackjack hand over this total is bust (BJ 6.2); the dealer's too (BJ 9)."""
HISTORY = 1000
"""How many finished engine rounds a table keeps in memory (recall's operations, the public history, exports)."""

Event = dict[str, object]
"""An event as the casino publishes it (``type`` and its body; ``_private`` for what only some may see)."""


def need_int(value: object, what: str) -> int:
    """``value`` as a whole number, else ``InvalidInput`` naming it."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{what} must be a whole number, not {value!r}.")
    return value


def jsonable(value: object) -> object:
    """An engine value as JSON: operations and settlements as objects, cards as codes."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if is_dataclass(value) and not isinstance(value, type):
        out: JsonObject = {"op": type(value).__name__}
        out.update({f.name: jsonable(getattr(value, f.name)) for f in fields(value)})
        return out
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return sorted(jsonable(v) for v in value)  # type: ignore[type-var]
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def bet_inputs(steps: Sequence[Step]) -> list[list[str]]:
    """A round's public inputs (:func:`croupier.fair.encode_inputs`): ``[ref, player seed]`` of each bet that carries
    a ``client_seed``, in bet order."""
    out: list[list[str]] = []
    for step in steps:
        if isinstance(step, BetStep):
            seed = step.bet.get("client_seed")
            if isinstance(seed, str):
                out.append([step.ref, seed])
    return out


def _pairs(raw: object) -> list[list[str]]:
    """Stored inputs as ``[ref, seed]`` pairs."""
    return [[str(p[0]), str(p[1])] for p in raw] if isinstance(raw, list) else []


def view_event(event: Mapping[str, object], viewer: str | None) -> Event:
    """``event`` as ``viewer`` may see it: a face-down box card only for that box's bettors (BJ 5.2)."""
    out = {k: v for k, v in event.items() if k != "_private"}
    private = event.get("_private")
    if isinstance(private, Mapping) and viewer is not None and viewer in private["viewers"]:
        out["card"] = private["card"]
    return out


class TableGame(ABC):
    """One open table's game: its rules, its engine and the engine round in play, and every step of a casino
    round that differs by game (see the module docstring). Made by :func:`new_table_game` from the registry
    :data:`croupier.games.GAMES`."""

    spec: ClassVar[games_registry.Game]
    """The game in :data:`croupier.games.GAMES`: its name, bet kinds and rule ids."""
    decides: ClassVar[bool] = False
    """Whether players answer decisions during the round (blackjack)."""

    def __init__(self, live: bool, rng: ChanceSource | None) -> None:
        self.live = live
        self.rng = rng
        self.history: OrderedDict[str, object] = OrderedDict()
        rules = self.spec.rules
        self.name = self.spec.name
        self.betting_rule = rules.betting
        """The rule of the betting window and its bell (RO 3, SB 3.1, BJ 5.1)."""
        self.void_rule = rules.void
        """The rule of a void result or round (RO 2.2, SB 3.3, BJ 5.1.2)."""
        self.close_rule = rules.close
        """Why a table with a round in play may not close (RO 3, SB 4, BJ 7.1)."""
        self.bet_kinds = self.spec.bet_kinds
        self.provably_fair = False
        """Whether the table's results are derived from committed seeds (:mod:`croupier.fair`); set by the casino
        for an RNG table whose chance source it was not given."""
        self.fair: JsonObject | None = None
        """The fair draw in use (a round's, or a blackjack shoe's): as stored in :attr:`RoundState.fair`."""

    @classmethod
    @abstractmethod
    def create(cls, rules: object, live: bool, rng: ChanceSource | None) -> TableGame:
        """The adapter of a table with ``rules`` (of the game's rules class), live or drawing from ``rng``."""

    # -- rules and bets ---------------------------------------------------------------------------------------

    @abstractmethod
    def normalise_bet(self, bet: object) -> tuple[BetDocument, int]:
        """A bet document checked for shape (the engine checks it against the rules) and its total stake."""

    @abstractmethod
    def verify_bet(self, player: str, bet: BetDocument) -> None:
        """Raise unless the engine would take the bet now (nothing changes)."""

    # -- the round --------------------------------------------------------------------------------------------

    @abstractmethod
    def open_round(self) -> None:
        """A fresh engine round for the next betting window."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """Whether the engine round is settled or void."""

    @abstractmethod
    def apply(self, step: Step) -> list[Event]:
        """Apply one step to the engine round (live and on replay alike); the card and decision events it made."""

    def record(self, state: RoundState) -> RoundState:
        """``state`` with what the engine drew since (a shoe game's cards)."""
        return state

    def replay(self, state: RoundState) -> None:
        """A fresh engine round with every stored step applied (a stored card or result is never drawn again)."""
        self.open_round()
        self.use_fair(state.fair)
        for step in state.steps:
            self.apply(step)

    # -- provably fair draws (croupier.fair) ---------------------------------------------------------------------

    def open_fair(self, round_id: str, new_seed: Callable[[], str]) -> JsonObject | None:
        """The fair draw of a round opening now (its ``label`` is the round's id): a fresh seed and its commitment."""
        seed = new_seed()
        return {"label": round_id, "seed": seed, "commitment": fairness.commitment(seed)}

    def fix_inputs(self, fair: JsonObject, steps: Sequence[Step]) -> JsonObject:
        """At the bell: the draw with its public inputs fixed (each bet's player seed, in bet order)."""
        if "inputs" in fair:
            return fair
        return {**fair, "inputs": bet_inputs(steps)}

    def use_fair(self, fair: JsonObject | None) -> None:
        """Draw from ``fair`` from now on (``None``: a round without a committed seed)."""
        self.fair = fair

    def fair_revealed(self, fair: Mapping[str, object], finished: bool) -> bool:
        """Whether a round's seed may be shown: once the round is settled or voided (it can no longer be played)."""
        return finished

    def fair_ended(self) -> bool:
        """Whether the draw in use has ended with the round just finished (its seed is revealed in the events)."""
        return True

    def pending(self) -> Decision | None:
        """The decision the round waits on, if any."""
        return None

    def void(self, reason: str) -> bool:
        """Whether voiding the round is a step the engine takes (else the void step is only recorded)."""
        return False

    def forfeits(self) -> list[str]:
        """The players whose open bets from earlier rounds are forfeited at the bell."""
        return []

    def drawn_result(self) -> Step | None:
        """At the bell, an RNG table's drawn result (a wheel's pocket, the shaker's dice)."""
        return None

    def needs_result(self) -> bool:
        """Whether a resumed round of an RNG table still needs its result drawn."""
        return False

    def feed_card(self, result: object) -> str | None:
        """A card a live shoe game's dealer reported, queued for the engine (its code); ``None`` for a game that
        deals no cards (its dealer reports results, :meth:`reported`)."""
        return None

    def reported(self, result: object) -> Step:
        """The step of a result a live table's dealer reported (a pocket, dice, or ``"void"``)."""
        raise IllegalAction(f"A {self.name} table's dealer reports cards, not results.", rule=self.betting_rule)

    def dealer_prompt(self, state: RoundState, status: str) -> DealerPrompt:
        """What the dealer of a live table is to do next, the round's stored ``state`` and ``status`` given
        (:class:`croupier.service.payloads.DealerPrompt`)."""
        if status in ("settling", "settled", "voiding", "voided"):
            return {"expect": "next_round", "card": None, "reported": []}
        return {"expect": "bell" if status == "betting" else self.result_kind, "card": None, "reported": []}

    result_kind: ClassVar[Literal["pocket", "dice", "card"]] = "card"
    """What a live table's dealer reports once betting is closed."""

    def take_back_card(self, card: object = None) -> str:
        """Take back the last card a live shoe game's dealer reported while the round has not used it (``card``,
        when given, must be that card); the card's code."""
        raise IllegalAction(
            f"A {self.name} result is not taken back once reported: the console holds it until it is sent, and a "
            "disturbed spin or roll is declared void.",
            rule=self.void_rule,
        )

    def restore_after_failed_replay(self) -> None:  # noqa: B027 - most games keep the round as replayed
        """After a replay that failed: the engine round to void."""

    def verify_answer(
        self, player: str, action: str, box: int | None, hand: int | None, amount: int | None
    ) -> Decision:
        """The decision ``player`` answers with ``action`` (raises unless he may, BJ 6.3, BJ 20.2)."""
        raise IllegalAction(f"A {self.name} table has no decision to answer.")

    def answer_stake(self, action: str, amount: int | None) -> int:
        """What answering with ``action`` adds to the answering bettor's stakes (held by the ledger first)."""
        return 0

    reopens_after_void_result: ClassVar[bool] = False
    """Whether a void result opens a new betting window (SB 3.3)."""

    def default_step(self) -> ActStep | None:
        """The published default answer when a decision's timer runs out (BJ 6.5)."""
        return None

    def has_open_bets(self) -> bool:
        """Whether bets from earlier rounds stay open at the table (BJ 13.5 streaks)."""
        return False

    def remembers_voided(self) -> bool:
        """Whether a voided round's engine round is kept for recall."""
        return False

    def replays_voided(self) -> bool:
        """Whether a voided round is replayed through the engine when the table is rebuilt."""
        return False

    # -- settlement and results ------------------------------------------------------------------------------

    @abstractmethod
    def ledger_results(self, state: RoundState) -> dict[str, int]:
        """The net of every held bet of the settled round, for ``Ledger.settle``."""

    @abstractmethod
    def outcome(self) -> JsonObject | None:
        """The finished round's result in the SCENARIOS.md output shape."""

    def remember(self, round_id: str) -> None:
        """Keep the finished engine round (recall, the public history, exports)."""
        self.history[round_id] = self.current
        while len(self.history) > HISTORY:
            self.history.popitem(last=False)

    @property
    @abstractmethod
    def current(self) -> object:
        """The engine round in play."""

    def operations(self, round_id: str, *, current: bool) -> list[object] | None:
        """The engine's operations of a remembered round (``current``: the round in play) as JSON; of a round still
        in play, only what every player may see (no face-down card)."""
        rnd = self.history.get(round_id)
        if rnd is None and current:
            if not self.is_over:
                return self.public_operations()
            rnd = self.current
        if rnd is None:
            return None
        ops = jsonable(getattr(rnd, "operations", []))
        assert isinstance(ops, list)
        return ops

    def public_operations(self) -> list[object]:
        """The operations of the round in play as every player may see them."""
        ops = jsonable(getattr(self.current, "operations", []))
        assert isinstance(ops, list)
        return ops

    def public_cards(self, cards: Sequence[str]) -> list[str]:
        """The cards of the round in play (``cards``, as stored) as every player may see them."""
        return list(cards)

    # -- read models ------------------------------------------------------------------------------------------

    @abstractmethod
    def rules_info(self) -> JsonObject:
        """The table's rules for the page (:func:`croupier.service.casino_info.rules_info`)."""

    @abstractmethod
    def seating(self) -> JsonObject:
        """The limits of a table's description and, for blackjack, its boxes and the boxes taken."""

    @abstractmethod
    def view(self, viewer: str | None) -> JsonObject | None:
        """What ``viewer`` (``None``: not a player) may see of the round in play."""

    def results(self, last: int) -> list[JsonObject]:
        """The public results of the last settled rounds, newest first (none by default)."""
        return []

    def stats(self, results: Sequence[JsonObject]) -> JsonObject:
        """Statistics over ``results``."""
        return {"count": len(results)}

    def my_result(self, outcome: Mapping[str, object]) -> object:
        """A player's recall of a round's public result (a pocket, the dice; none for blackjack)."""
        return None

    @abstractmethod
    def export(self, round_id: str, state: RoundState) -> Scenario:
        """A settled round as a scenario that ``croupier replay`` reproduces."""


# == roulette and sic bo =============================================================================================

W = TypeVar("W", RouletteRound, SicBoRound)


class WagerGame(TableGame, Generic[W]):
    """Roulette and sic bo: bets on a layout, one result, every bet settled against it (RO 5, SB 4)."""

    placement: ClassVar[frozenset[str]]
    outcome_keys: ClassVar[tuple[str, str]]
    rnd: W | None

    def __init__(self, live: bool, rng: ChanceSource | None) -> None:
        super().__init__(live, rng)
        self.rnd = None

    @property
    def current(self) -> W | None:
        return self.rnd

    @property
    def round(self) -> W:
        assert self.rnd is not None
        return self.rnd

    def normalise_bet(self, bet: object) -> tuple[BetDocument, int]:
        if not isinstance(bet, Mapping):
            raise InvalidInput(f"A bet is an object, not {bet!r}.")
        unknown = set(bet) - {"type", "amount", "client_seed"} - self.placement
        if unknown:
            raise InvalidInput(f"A {self.name} bet has no {', '.join(sorted(unknown))}.")
        kind = bet.get("type")
        if not isinstance(kind, str):
            raise InvalidInput(f"A bet names its type, not {kind!r}.")
        out: WagerBet = {"type": kind, "amount": need_int(bet.get("amount"), "amount")}
        for key in sorted(self.placement & set(bet)):
            value = bet[key]
            if key == "numbers":
                if not isinstance(value, list):
                    raise InvalidInput(f"numbers is a list of numbers, not {value!r}.")
                out["numbers"] = [need_int(n, "a number") for n in value]
            elif key == "index":
                out["index"] = need_int(value, key)
            elif key == "face":
                out["face"] = need_int(value, key)
            else:
                out["total"] = need_int(value, key)
        if out["amount"] <= 0:
            raise BetRejected(f"A bet of {out['amount']} stakes nothing.", rule=self.spec.rules.bets)
        if "client_seed" in bet:
            out["client_seed"] = fairness.check_client_seed(bet["client_seed"])
        return out, out["amount"]

    @staticmethod
    def _placement(bet: WagerBet) -> dict[str, object]:
        return {k: v for k, v in bet.items() if k not in ("type", "amount", "client_seed")}

    def verify_bet(self, player: str, bet: BetDocument) -> None:
        wager: WagerBet = bet  # type: ignore[assignment]
        self.round.verify_place_bet(player, wager["type"], wager["amount"], **self._placement(wager))

    def open_round(self) -> None:
        if self.rnd is not None and not self.rnd.is_over:
            self.engine.round = None  # a voided round: the wheel or shaker starts again
        self.rnd = self._next_round()

    @abstractmethod
    def _next_round(self) -> W:
        """The engine table's next round."""

    @property
    def is_over(self) -> bool:
        return self.round.is_over

    def apply(self, step: Step) -> list[Event]:
        rnd = self.round
        if isinstance(step, BetStep):
            bet: WagerBet = step.bet  # type: ignore[assignment]
            rnd.place_bet(step.player, bet["type"], bet["amount"], **self._placement(bet))
        elif isinstance(step, CloseStep):
            rnd.close_betting()
        elif isinstance(step, ResultStep):
            self.declare(step.value)
        elif isinstance(step, VoidResultStep):
            rnd.declare_void()
        elif isinstance(step, VoidStep):
            pass  # recorded only: a voided roulette or sic bo round is not replayed
        else:  # pragma: no cover - steps are written by the casino
            raise ValueError(f"a {self.name} round has no step {step!r}")
        return []

    def replay(self, state: RoundState) -> None:
        self.open_round()
        self.use_fair(state.fair)
        for step in state.steps:
            if not isinstance(step, VoidStep):
                self.apply(step)

    @property
    @abstractmethod
    def engine(self) -> RouletteTable | SicBoTable: ...

    @abstractmethod
    def declare(self, value: int | list[int]) -> None:
        """The round's result."""

    @abstractmethod
    def draw(self) -> int | list[int]:
        """A result drawn from the table's RNG."""

    @abstractmethod
    def parse_result(self, value: object) -> int | list[int]:
        """A reported result, checked."""

    def drawn_result(self) -> Step | None:
        return None if self.live else ResultStep(self.draw())

    def needs_result(self) -> bool:
        return not self.live and self.round.outcome is None

    def reported(self, result: object) -> Step:
        return VoidResultStep() if result == "void" else ResultStep(self.parse_result(result))

    def ledger_results(self, state: RoundState) -> dict[str, int]:
        settlement = self.round.settlement
        assert settlement is not None
        placed = [step.ref for step in state.steps if isinstance(step, BetStep)]
        by_ref = {ref: r.net for ref, r in zip(placed, settlement.results, strict=True)}
        return {h.ref: by_ref.get(h.ref, 0) for h in state.held}

    def outcome(self) -> JsonObject | None:
        rnd = self.rnd
        if rnd is None or rnd.settlement is None:
            return None
        s = rnd.settlement
        key, voids = self.outcome_keys
        value = s.outcome
        return {
            key: list(value) if isinstance(value, tuple) else value,
            voids: s.voids,
            "bets": [{"index": r.index, "player": r.bet.player, "net": r.net} for r in s.results],
            "payment_order": list(s.payment_order),
            "players": s.players(),
        }

    def seating(self) -> JsonObject:
        return {"limits": info.limits(self.engine.rules, self.bet_kinds)}

    def rules_info(self) -> JsonObject:
        rules = self.engine.rules
        return info.compose_rules_info(self.layout(rules), rules, self.bet_kinds, self.spec.rules)

    @abstractmethod
    def layout(self, rules: ro_rules.RouletteRules | sb_rules.SicBoRules) -> JsonObject:
        """The game's bets, layout and rule sentences (:mod:`croupier.service.casino_info`)."""

    def view(self, viewer: str | None) -> JsonObject:
        """The round as anyone may see it: the chips on the layout are public."""
        rnd = self.rnd
        if rnd is None:
            return {"phase": None, "bets": []}
        return {
            "phase": rnd.phase.value,
            "bets": [
                {"index": i, "player": b.player, "type": b.type.value, "amount": b.amount} for i, b in rnd.bets.items()
            ],
            "voids": rnd.voids,
            "outcome": self.outcome(),
        }

    def results(self, last: int) -> list[JsonObject]:
        out: list[JsonObject] = []
        for round_id in reversed(self.history):
            rnd = self.history[round_id]
            settlement = getattr(rnd, "settlement", None)
            if settlement is not None:
                out.append(self.public_result(round_id, settlement.outcome))
                if len(out) >= last:
                    break
        return out

    @abstractmethod
    def public_result(self, round_id: str, outcome: object) -> JsonObject:
        """A settled round's public result, classified."""

    def export(self, round_id: str, state: RoundState) -> Scenario:
        """A settled round as a scenario (bets after a first void result are its ``late_bets``)."""
        bets: list[object] = []
        late: list[object] = []
        results: list[object] = []
        for step in state.steps:
            if isinstance(step, BetStep):
                target = late if results else bets
                if len(results) > 1:
                    raise InvalidInput("Bets placed after a second void roll cannot be written as a scenario.")
                placed = {k: v for k, v in step.bet.items() if k != "client_seed"}  # the fairness record carries it
                target.append({"player": step.player, **placed})
            elif isinstance(step, VoidResultStep):
                results.append("void")
            elif isinstance(step, ResultStep):
                results.append(step.value)
        out_round: JsonObject = {"bets": bets, "results": results}
        if late:
            out_round["late_bets"] = late
        return cast(Scenario, {"game": self.name, "rules": rulesdoc.document(self.engine.rules), "rounds": [out_round]})


class RouletteGame(WagerGame[RouletteRound]):
    """A roulette table (Despacho 30/2003)."""

    spec = games_registry.GAMES["roulette"]
    placement = frozenset({"numbers", "index"})
    result_kind = "pocket"
    outcome_keys = ("pocket", "void_spins")

    def __init__(self, rules: ro_rules.RouletteRules, live: bool, rng: ChanceSource | None) -> None:
        super().__init__(live, rng)
        self._engine = RouletteTable(rules)

    @classmethod
    def create(cls, rules: object, live: bool, rng: ChanceSource | None) -> RouletteGame:
        assert isinstance(rules, ro_rules.RouletteRules)
        return cls(rules, live, rng)

    @property
    def engine(self) -> RouletteTable:
        return self._engine

    def _next_round(self) -> RouletteRound:
        return self._engine.open_round()

    def declare(self, value: int | list[int]) -> None:
        assert isinstance(value, int)
        self.round.spin(value)

    def draw(self) -> int:
        if self.fair is not None:
            f = self.fair
            return fairness.derive_pocket(str(f["seed"]), str(f["label"]), _pairs(f.get("inputs")))
        assert self.rng is not None
        return self.rng.pocket()

    def parse_result(self, value: object) -> int:
        return check_pocket(value)

    def public_result(self, round_id: str, outcome: object) -> JsonObject:
        return info.roulette_result(round_id, int(outcome))  # type: ignore[call-overload]

    def stats(self, results: Sequence[JsonObject]) -> JsonObject:
        return info.roulette_stats(results)

    def my_result(self, outcome: Mapping[str, object]) -> object:
        return outcome.get("pocket")

    def layout(self, rules: ro_rules.RouletteRules | sb_rules.SicBoRules) -> JsonObject:
        assert isinstance(rules, ro_rules.RouletteRules)
        return info.roulette_rules(rules)


class SicBoGame(WagerGame[SicBoRound]):
    """A sic bo table (Despacho 31/2003)."""

    spec = games_registry.GAMES["sicbo"]
    placement = frozenset({"face", "total"})
    result_kind = "dice"
    outcome_keys = ("dice", "void_rolls")
    reopens_after_void_result = True

    def __init__(self, rules: sb_rules.SicBoRules, live: bool, rng: ChanceSource | None) -> None:
        super().__init__(live, rng)
        self._engine = SicBoTable(rules)

    @classmethod
    def create(cls, rules: object, live: bool, rng: ChanceSource | None) -> SicBoGame:
        assert isinstance(rules, sb_rules.SicBoRules)
        return cls(rules, live, rng)

    @property
    def engine(self) -> SicBoTable:
        return self._engine

    def _next_round(self) -> SicBoRound:
        return self._engine.open_round()

    def declare(self, value: int | list[int]) -> None:
        assert isinstance(value, list)
        d1, d2, d3 = value
        self.round.roll((d1, d2, d3))

    def draw(self) -> list[int]:
        if self.fair is not None:
            f = self.fair
            return fairness.derive_dice(str(f["seed"]), str(f["label"]), _pairs(f.get("inputs")))
        assert self.rng is not None
        return list(self.rng.dice())

    def parse_result(self, value: object) -> list[int]:
        return list(check_dice(value))

    def public_result(self, round_id: str, outcome: object) -> JsonObject:
        d1, d2, d3 = cast("tuple[int, int, int]", outcome)
        return info.sicbo_result(round_id, (int(d1), int(d2), int(d3)))

    def stats(self, results: Sequence[JsonObject]) -> JsonObject:
        return info.sicbo_stats(results)

    def my_result(self, outcome: Mapping[str, object]) -> object:
        return outcome.get("dice")

    def layout(self, rules: ro_rules.RouletteRules | sb_rules.SicBoRules) -> JsonObject:
        assert isinstance(rules, sb_rules.SicBoRules)
        return info.sicbo_rules(rules)


# == blackjack =======================================================================================================


class ShoeCards(ChanceSource):
    """The card source of a casino blackjack table. Stored cards (a replay) and cards a dealer reported come
    first, from :attr:`queue`; a provably fair table then deals its committed shoe's :attr:`order` (the card at the
    position of the engine's shoe: burns included, since its shuffle); another RNG table draws each card uniformly
    from what the engine's shoe still holds (the same law as a shuffled shoe, and no shoe order exists to be stored
    or leaked); a live table with no reported card raises ``ChanceExhausted`` and the engine undoes the step until
    the card is reported."""

    is_random = False

    def __init__(self, rng: ChanceSource | None) -> None:
        self.rng = rng
        self.queue: deque[Card] = deque()
        self.table: BlackjackTable | None = None
        self.order: list[Card] | None = None
        """The fair shoe's order, top first (:func:`croupier.fair.derive_shoe_order`), once its inputs are fixed."""

    def pocket(self) -> int:  # pragma: no cover - a shoe has no wheel
        raise ChanceExhausted("a shoe has no wheel")

    def dice(self) -> tuple[int, int, int]:  # pragma: no cover - a shoe has no dice
        raise ChanceExhausted("a shoe has no dice")

    def card(self) -> Card:
        if self.queue:
            return self.queue.popleft()
        if self.order is not None and self.table is not None and self.table.shoe is not None:
            position = self.table.shoe.dealt
            if position >= len(self.order):
                raise ChanceExhausted("the shoe is empty")
            return self.order[position]
        if self.rng is None:
            raise ChanceExhausted("no card has been reported yet")
        if isinstance(self.rng, RandomSource) and self.rng.is_random and self.table is not None:
            shoe = self.table.shoe
            assert shoe is not None
            left = sorted(((str(c), c, n) for c, n in shoe.counts().items() if n > 0), key=lambda t: t[0])
            k = self.rng.randbelow(sum(n for _, _, n in left))
            for _, card, n in left:
                if k < n:
                    return card
                k -= n
            raise ChanceExhausted("the shoe is empty")  # pragma: no cover - randbelow is below the total
        return self.rng.card()

    def unread(self, cards: Iterable[Card]) -> None:
        self.queue.extendleft(reversed(list(cards)))


class BlackjackGame(TableGame):
    """A blackjack table (Despacho 57/2009): boxes, decisions, a shoe; cards stored as they leave it."""

    spec = games_registry.GAMES["blackjack"]
    decides = True

    def __init__(self, rules: bj_rules.BlackjackRules, live: bool, rng: ChanceSource | None) -> None:
        super().__init__(live, rng)
        self.rules = rules
        self.cards = ShoeCards(rng)
        self.engine = BlackjackTable(rules, self.cards)
        self.cards.table = self.engine
        self.rnd: BlackjackRound | None = None
        self._orders: dict[str, list[Card]] = {}  # the fair shoes' orders by label (a replay derives each once)

    @classmethod
    def create(cls, rules: object, live: bool, rng: ChanceSource | None) -> BlackjackGame:
        assert isinstance(rules, bj_rules.BlackjackRules)
        return cls(rules, live, rng)

    @property
    def current(self) -> BlackjackRound | None:
        return self.rnd

    @property
    def round(self) -> BlackjackRound:
        assert self.rnd is not None
        return self.rnd

    def normalise_bet(self, bet: object) -> tuple[BetDocument, int]:
        if not isinstance(bet, Mapping):
            raise InvalidInput(f"A bet is an object, not {bet!r}.")
        unknown = set(bet) - {"box", "main", "side", "streak", "client_seed"}
        if unknown:
            names = ", ".join(sorted(unknown))
            raise InvalidInput(f"A blackjack bet has no {names}: it names box, main, side, streak, client_seed.")
        if "main" in bet and isinstance(bet["main"], int) and not isinstance(bet["main"], bool) and bet["main"] <= 0:
            raise BetRejected(
                f"A main bet of {bet['main']} stakes nothing; leave it out for side bets only.", rule="BJ 3"
            )
        side_raw = bet.get("side") or {}
        streak_raw = bet.get("streak") or {}
        if not isinstance(side_raw, Mapping) or not isinstance(streak_raw, Mapping):
            raise InvalidInput("side and streak are objects of stakes.")
        side: dict[str, int] = {}
        for key, stake in side_raw.items():
            if key not in SIDE_KEYS:
                raise BetRejected(f"{key!r} is not a side bet ({', '.join(SIDE_KEYS)}).", rule="BJ 13")
            side[str(key)] = need_int(stake, f"side {key}")
        out: BlackjackBet = {
            "box": need_int(bet.get("box"), "box"),
            "main": need_int(bet.get("main", 0), "main"),
            "side": side,
            "streak": {str(parse_streak_level(k)): need_int(v, f"streak {k}") for k, v in streak_raw.items()},
        }
        amounts = [out["main"], *side.values(), *out["streak"].values()]
        if any(a < 0 for a in amounts) or sum(amounts) <= 0:
            raise BetRejected("A bet stakes a positive amount.", rule="BJ 3")
        if "client_seed" in bet:
            out["client_seed"] = fairness.check_client_seed(bet["client_seed"])
        return out, sum(amounts)

    def verify_bet(self, player: str, bet: BetDocument) -> None:
        doc: BlackjackBet = bet  # type: ignore[assignment]
        rnd = self.round
        streak = {int(k): v for k, v in doc["streak"].items()}
        rnd.verify_place_bet(doc["box"], player, main=doc["main"], side=doc["side"], streak=streak)
        box = rnd.boxes.get(doc["box"])
        if doc["main"] <= 0 and (box is None or not box.has_main):
            raise BetRejected(f"Box {doc['box']} has no main bet: a side bet needs one on its box.", rule="BJ 13")

    def open_round(self) -> None:
        self.rnd = self.engine.open_round()

    @property
    def is_over(self) -> bool:
        return self.round.is_over

    def apply(self, step: Step) -> list[Event]:
        rnd = self.round
        start = len(rnd.operations)
        if isinstance(step, BetStep):
            bet: BlackjackBet = step.bet  # type: ignore[assignment]
            streak = {int(k): v for k, v in bet["streak"].items()}
            rnd.place_bet(bet["box"], step.player, main=bet["main"], side=bet["side"], streak=streak)
        elif isinstance(step, CloseStep):
            for number, box in sorted(rnd.boxes.items()):
                if box.bettors and box.seated is None:
                    rnd.seat(number, next(iter(box.bettors)))
            rnd.close_betting()
        elif isinstance(step, ForfeitStep):
            rnd.forfeit_streaks(step.player)
        elif isinstance(step, ActStep):
            rnd.act(step.action, box=step.box, player=step.player, hand=step.hand, amount=step.amount)
        elif isinstance(step, VoidStep):
            rnd.void_round(step.reason)
        else:  # pragma: no cover - steps are written by the casino
            raise ValueError(f"a blackjack round has no step {step!r}")
        return self._card_events(start)

    def record(self, state: RoundState) -> RoundState:
        cards = tuple(str(op.card) for op in self.round.operations if isinstance(op, Burned | Dealt | CardVoided))
        return replace(state, cards=cards, reported=tuple(str(c) for c in self.cards.queue))

    def replay(self, state: RoundState) -> None:
        self.open_round()
        self.use_fair(state.fair)
        self.cards.queue.clear()
        self.cards.queue.extend(parse_card(c) for c in (*state.cards, *state.reported))
        for step in state.steps:
            self.apply(step)

    # -- the provably fair shoe: one committed seed orders the whole shoe ------------------------------------

    def shuffle_due(self) -> bool:
        """Whether the next deal starts a fresh shoe: the first, after the cut card came out (BJ 2.2), or every
        round under a continuous shuffler or from a dealing box."""
        return (
            self.engine.shoe is None
            or self.engine.shuffle_due
            or self.rules.dealing_device is not bj_rules.DealingDevice.SHOE
        )

    def open_fair(self, round_id: str, new_seed: Callable[[], str]) -> JsonObject | None:
        """A round whose deal shuffles commits a new shoe (``label`` ``<table>.shoe<seq>``); any other round deals
        on from the shoe in use (its draw, without ``shuffle``); ``None`` while no committed shoe is in use (a table
        made fair in the middle of a shoe, until its next shuffle)."""
        if self.shuffle_due():
            table, _, seq = round_id.rpartition(".")
            label = f"{table}.shoe{seq}"
            seed = new_seed()
            return {
                "label": label,
                "shoe": label,
                "seed": seed,
                "commitment": fairness.commitment(seed),
                "decks": self.rules.decks,
                "shuffle": True,
            }
        current = self.fair
        if current is None or "inputs" not in current:
            return None
        return {k: v for k, v in current.items() if k != "shuffle"}

    def fix_inputs(self, fair: JsonObject, steps: Sequence[Step]) -> JsonObject:
        """The shoe's inputs are the player seeds of the round whose deal shuffles it."""
        if "inputs" in fair or not fair.get("shuffle"):
            return fair
        return {**fair, "inputs": bet_inputs(steps)}

    def use_fair(self, fair: JsonObject | None) -> None:
        self.fair = fair
        if fair is None or "inputs" not in fair:  # no committed shoe, or its inputs are fixed at its bell
            self.cards.order = None
            return
        label = str(fair["label"])
        order = self._orders.get(label)
        if order is None:
            codes = fairness.derive_shoe_order(
                str(fair["seed"]), label, _pairs(fair["inputs"]), int(cast(int, fair["decks"]))
            )
            order = [parse_card(c) for c in codes]
            self._orders = {label: order}  # only the shoe in use is kept
        self.cards.order = order

    def fair_revealed(self, fair: Mapping[str, object], finished: bool) -> bool:
        """A shoe's seed is shown once the shoe has ended: a later shoe is in use, or the round is over and the
        next deal shuffles (the cut card came out; every round under a shuffler)."""
        current = self.fair
        if current is None or fair.get("label") != current.get("label"):
            return True
        return finished and self.shuffle_due()

    def fair_ended(self) -> bool:
        return self.shuffle_due()

    def restore_after_failed_replay(self) -> None:
        self.rnd = self.engine.round

    def pending(self) -> Decision | None:
        return self.round.pending

    def void(self, reason: str) -> bool:
        return not self.round.is_over

    def forfeits(self) -> list[str]:
        out = []
        for s in list(self.engine.open_streaks):
            box = self.round.boxes.get(s.box)
            bettor = box.bettors.get(s.player) if box else None
            if bettor is None or bettor.main <= 0:
                out.append(s.player)  # BJ 13.5.4: no main bet, no streak
        return out

    def feed_card(self, result: object) -> str:
        if not isinstance(result, str):
            raise InvalidInput(f"{result!r} is not a card code such as 'KD' (BJ 5.2).")
        card = parse_card(result.strip().upper())
        self.cards.queue.append(card)
        return str(card)

    def take_back_card(self, card: object = None) -> str:
        queue = self.cards.queue
        if not queue:
            raise IllegalAction(
                "Every card reported is in play: a dealing error is corrected by giving each box the card it should "
                "have had, or by voiding the round.",
                rule="BJ 5.1.2",
            )
        last = str(queue[-1])
        if card is not None and (not isinstance(card, str) or str(parse_card(card.strip().upper())) != last):
            raise IllegalAction(f"The last card reported and not yet used is {last}, not {card!r}.", rule="BJ 5.2")
        queue.pop()
        return last

    def dealer_prompt(self, state: RoundState, status: str) -> DealerPrompt:
        """The next card and where it goes (:meth:`BlackjackRound.next_card`): the deal's after the bell (and,
        with bets down, before it), the answer's a stalled step waits for, or the decision the round waits on."""
        rnd = self.rnd
        reported = [str(c) for c in self.cards.queue]
        if rnd is None or rnd.is_over or status not in ("betting", "playing"):
            return {"expect": "next_round", "card": None, "reported": reported}
        stalled = state.stalled
        out: DealerPrompt = {"expect": "bell" if status == "betting" else "card", "card": None, "reported": reported}
        if self.rng is not None:  # an RNG table deals by itself: no card is waited for
            return out
        try:
            if status == "betting" or isinstance(stalled, CloseStep):
                out["card"] = _target(rnd.next_card())
            elif isinstance(stalled, ActStep):
                out["card"] = _target(rnd.next_card(stalled.action, amount=stalled.amount))
            elif (q := rnd.pending) is not None:
                out["expect"] = "decision"
                kind = cast("DecisionKind", q.kind)
                out["turn"] = {"kind": kind, "box": q.box, "hand": q.hand, "player": q.player}
        except CroupierError:
            pass  # no bet yet, or a reported card the shoe no longer holds: the report says why
        return out

    def default_step(self) -> ActStep | None:
        q = self.round.pending
        if q is None:
            return None
        action = "stand" if "stand" in q.actions else "decline"
        return ActStep(q.player, action, q.box, q.hand, None)

    def has_open_bets(self) -> bool:
        return bool(self.engine.open_streaks)

    def remembers_voided(self) -> bool:
        return True

    def replays_voided(self) -> bool:
        return True

    def verify_answer(
        self, player: str, action: str, box: int | None, hand: int | None, amount: int | None
    ) -> Decision:
        return self.round.verify(action, box=box, player=player, hand=hand, amount=amount)

    def answer_stake(self, action: str, amount: int | None) -> int:
        return self.round.answer_stake(action, amount)

    def ledger_results(self, state: RoundState) -> dict[str, int]:
        """Each player's round netted and spread over his holds (a loss up to each stake, a win on the first): a
        streak bet's stake is taken in the round it is placed and, when the streak is decided in a later round,
        stake and winnings come back then (BJ 13.5)."""
        settlement = self.round.settlement
        assert settlement is not None
        held = state.held
        totals: dict[str, int] = {}
        for o in settlement.outcomes:
            n = o.net
            if o.kind.startswith("streak_"):  # its stake was taken when placed: a decided streak returns stake + net
                n = 0 if o.status == "open" else o.stake + o.net
            totals[o.player] = totals.get(o.player, 0) + n
        for step in state.steps:
            if isinstance(step, BetStep):
                streak: dict[str, int] = step.bet.get("streak", {})
                totals[step.player] = totals.get(step.player, 0) - sum(streak.values())
        out: dict[str, int] = {}
        for player in {h.player for h in held}:
            mine = [h for h in held if h.player == player]
            total = totals.get(player, 0)
            if total >= 0:
                out.update({h.ref: (total if i == 0 else 0) for i, h in enumerate(mine)})
                continue
            loss = -total
            for h in mine:
                take = min(loss, h.amount)
                out[h.ref] = -take
                loss -= take
            if loss:
                raise ValueError(f"{player} would lose {loss} more than was held")  # pragma: no cover - invariant
        return out

    def outcome(self) -> JsonObject | None:
        rnd = self.rnd
        if rnd is None or rnd.settlement is None:
            return None
        return round_output(rnd.settlement) if not rnd.settlement.void else {"void": True}

    def _card_events(self, start: int) -> list[Event]:
        """The card and decision events of the operations from ``start``: the hole card is shown only when turned,
        a face-down box card only to that box's bettors (the events carry it privately, :func:`view_event`)."""
        rnd = self.round
        events: list[Event] = []
        for op in rnd.operations[start:]:
            if isinstance(op, Dealt):
                if op.face_up:
                    events.append({"type": "card", "card": str(op.card), "box": op.box, "hand": op.hand})
                elif op.box is None:
                    events.append({"type": "card", "card": "??", "box": None, "hand": None})
                else:
                    box = rnd.boxes.get(op.box)
                    viewers = sorted(box.bettors) if box is not None else []
                    events.append(
                        {
                            "type": "card",
                            "card": "??",
                            "box": op.box,
                            "hand": op.hand,
                            "_private": {"card": str(op.card), "viewers": viewers},
                        }
                    )
            elif isinstance(op, HoleCardTurned):
                events.append({"type": "card", "card": str(op.card), "box": None, "hand": None, "hole": True})
            elif isinstance(op, Answered):
                body = jsonable(op)
                assert isinstance(body, dict)
                events.append({"type": "decision", **body})
        return events

    def _shown(self) -> list[tuple[object, bool]]:
        """Each operation of the round in play, and whether its card (if any) is seen by every player: a burned
        card and a face-down card are not, the dealer's hole card once turned is (BJ 5.2)."""
        ops = self.round.operations
        turned = any(isinstance(op, HoleCardTurned) for op in ops)
        out: list[tuple[object, bool]] = []
        for op in ops:
            hidden = isinstance(op, Burned) or (
                isinstance(op, Dealt) and not op.face_up and not (op.box is None and turned)
            )
            out.append((op, not hidden))
        return out

    def public_operations(self) -> list[object]:
        out: list[object] = []
        for op, seen in self._shown():
            body = jsonable(op)
            if not seen and isinstance(body, dict):
                body["card"] = "??"
            out.append(body)
        return out

    def public_cards(self, cards: Sequence[str]) -> list[str]:
        shown = [seen for op, seen in self._shown() if isinstance(op, Burned | Dealt | CardVoided)]
        return [c if i < len(shown) and shown[i] else "??" for i, c in enumerate(cards)]

    def seating(self) -> JsonObject:
        boxes = self.rnd.boxes if self.rnd is not None else {}
        return {
            "limits": info.limits(self.rules, self.bet_kinds),
            "boxes": self.rules.boxes,
            "seats": sorted(n for n, b in boxes.items() if b.bettors),
        }

    def view(self, viewer: str | None) -> JsonObject | None:
        """``player_view`` of the round in play (or just finished), with the shoe's public state (:meth:`shoe`) and,
        once the round is settled, its outcome (the ``result`` event's, public): what the result moment shows."""
        rnd = self.rnd
        if rnd is None:
            return None
        out: JsonObject = player_view(rnd, viewer)
        out["shoe"] = self.shoe()
        if rnd.settlement is not None and not rnd.settlement.void:
            out["outcome"] = round_output(rnd.settlement)
        return out

    def shoe(self) -> JsonObject | None:
        """Where the table deals from a shoe (not a dealing box or a continuous shuffler, BJ 2): its size, the cards
        out of it since the last shuffle (burns included), where the cut card sits (the number of the first card
        behind it), whether the round shown began with a shuffle, and whether the cut card is out so that the shoe
        is shuffled before the next deal. Never the order or the composition of the cards left (BJ 5.2)."""
        if self.rules.dealing_device is not bj_rules.DealingDevice.SHOE:
            return None
        rnd = self.rnd
        shoe = self.engine.shoe
        if shoe is None:  # nothing dealt yet: a full shoe, shuffled before the first deal
            size = DECK_SIZE * self.rules.decks
            cut_at = size - self.rules.behind_cut + 1
            return {"cards": size, "dealt": 0, "cut_at": cut_at, "shuffled": False, "shuffle_due": True}
        dealt = rnd is not None and rnd.phase is not Phase.BETTING
        shuffled = dealt and rnd is not None and any(isinstance(op, Shuffled) for op in rnd.operations)
        return {
            "cards": shoe.size,
            "dealt": shoe.dealt,
            "cut_at": shoe.cut_card_position,
            "shuffled": shuffled,
            "shuffle_due": shoe.cut_card_out and (not dealt or (rnd is not None and rnd.is_over)),
        }

    def results(self, last: int) -> list[JsonObject]:
        """The dealer's hand of the last settled rounds, newest first (a void round has none): its total, whether it
        was a blackjack or bust. A box's cards and the players' stakes are not part of a table's public history."""
        out: list[JsonObject] = []
        for round_id in reversed(self.history):
            rnd = self.history[round_id]
            s = rnd.settlement if isinstance(rnd, BlackjackRound) else None
            if s is None or s.void:
                continue
            out.append(
                {
                    "round": round_id,
                    "dealer_total": s.dealer_total,
                    "dealer_cards": len(s.dealer_cards),
                    "dealer_blackjack": s.dealer_blackjack,
                    "dealer_bust": s.dealer_total > BUST_OVER,
                }
            )
            if len(out) >= last:
                break
        return out

    def stats(self, results: Sequence[JsonObject]) -> JsonObject:
        """How often the dealer busted and had a blackjack over ``results``."""
        return {
            "count": len(results),
            "dealer_busts": sum(1 for r in results if r["dealer_bust"]),
            "dealer_blackjacks": sum(1 for r in results if r["dealer_blackjack"]),
        }

    def rules_info(self) -> JsonObject:
        return info.compose_rules_info(info.blackjack_rules(self.rules), self.rules, self.bet_kinds, self.spec.rules)

    def export(self, round_id: str, state: RoundState) -> Scenario:
        """The shortest run of rounds ending with this one that ``croupier replay`` reproduces exactly: a scenario
        starts on a fresh shoe, so the run goes back to the round that shuffled (BJ 2, BJ 4)."""
        ids = list(self.history)
        if round_id not in ids:
            raise InvalidInput(f"Round {round_id!r} is no longer in the table's memory.")
        rounds = [r for r in self.history.values() if isinstance(r, BlackjackRound)]
        target = ids.index(round_id)
        want = [
            round_output(r.settlement) if r.settlement is not None and not r.settlement.void else None for r in rounds
        ]
        for start in range(target, -1, -1):
            segment = rounds[start : target + 1]
            if any(r.settlement is None or r.settlement.void for r in segment):
                break
            try:
                doc = bj_export(self.rules, segment)
                got = replay(doc)
            except (ValueError, ScenarioError):
                continue
            if got["rounds"] == want[start : target + 1]:
                return cast(Scenario, doc)
        raise InvalidInput(
            "This round cannot be written as a scenario (a void round or a voided card since the shuffle)."
        )


def _target(card: NextCard | None) -> CardTarget | None:
    """A :class:`NextCard` as the dealer's prompt gives it."""
    if card is None:
        return None
    return {"to": card.to, "box": card.box, "hand": card.hand, "face_up": card.face_up}


def rules_info(game: str, rules: object) -> JsonObject:
    """The rules of a table of ``game`` with ``rules`` for the page (:meth:`TableGame.rules_info`)."""
    return new_table_game(game, rules, live=False, rng=None).rules_info()


def load_rules(game: str, document: Mapping[str, object] | None) -> object:
    """The rules of ``game`` from a rules document (``None``: the statute); ``InvalidRules`` lists every problem."""
    return games_registry.game(game).load(dict(document) if document is not None else {})


def new_table_game(game: str, rules: object, *, live: bool, rng: ChanceSource | None) -> TableGame:
    """The adapter of a table of ``game`` with ``rules`` (loaded by :func:`load_rules`): the game's ``table``
    part in :data:`croupier.games.GAMES`."""
    adapter: type[TableGame] = games_registry.game(game).part("table")
    return adapter.create(rules, live, rng)
