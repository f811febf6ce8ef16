"""How the casino drives each game's engine: bets as JSON documents, each round as a list of **steps** that are
stored before they are shown and replayed through the engine on recovery, the ledger results of a settled round,
what each viewer may see, and the export of a round as a SCENARIOS.md scenario.

A step is a JSON object applied by :func:`apply_step` both live and on replay, so a replayed round is the same
round: ``bet`` (a held bet), ``close`` (the bell, RO 3 / SB 3.1 / BJ 5.1), ``result`` (a pocket or dice, RO 4 /
SB 3.2), ``void_result`` (a void spin or roll, RO 2.2 / SB 3.3), ``forfeit`` (a streak bettor who did not bet
again, BJ 13.5.4), ``act`` (a blackjack answer) and ``void`` (the round voided, BJ 5.1.2). A blackjack round's
cards are stored beside its steps, in the order they left the shoe, and fed back to the engine on replay: a card
once stored is never drawn again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

from croupier import rulesdoc
from croupier.blackjack import rules as bj_rules
from croupier.blackjack.operations import Burned, CardVoided, Dealt, HoleCardTurned
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.sidebets import SIDE_KEYS
from croupier.blackjack.table import BlackjackTable
from croupier.errors import BetRejected, InvalidInput
from croupier.primitives.cards import Card
from croupier.primitives.chance import ChanceExhausted, ChanceSource, RandomSource
from croupier.replay.blackjack import export_scenario as bj_export
from croupier.replay.blackjack import round_output
from croupier.roulette import rules as ro_rules
from croupier.roulette.round import RouletteTable
from croupier.sicbo import rules as sb_rules
from croupier.sicbo.round import SicBoTable
from croupier.wagering import WagerRound

GAMES = ("roulette", "sicbo", "blackjack")
BETTING_RULE = {"roulette": "RO 3", "sicbo": "SB 3.1", "blackjack": "BJ 5.1"}
VOID_RULE = {"roulette": "RO 2.2", "sicbo": "SB 3.3", "blackjack": "BJ 5.1.2"}
PLACEMENT = {"roulette": {"numbers", "index"}, "sicbo": {"face", "total"}}
MAX_BETS_PER_ROUND = 500

Engine = RouletteTable | SicBoTable | BlackjackTable


class ShoeCards(ChanceSource):
    """The card source of a casino blackjack table. Stored cards (a replay) and cards a dealer reported come
    first, from :attr:`queue`; an RNG table then draws each card uniformly from what the engine's shoe still
    holds (the same law as a shuffled shoe, and no shoe order exists to be stored or leaked); a live table with
    no reported card raises ``ChanceExhausted`` and the engine undoes the step until the card is reported."""

    is_random = False

    def __init__(self, rng: ChanceSource | None) -> None:
        self.rng = rng
        self.queue: deque[Card] = deque()
        self.table: BlackjackTable | None = None

    def pocket(self) -> int:  # pragma: no cover - a shoe has no wheel
        raise ChanceExhausted("a shoe has no wheel")

    def dice(self) -> tuple[int, int, int]:  # pragma: no cover - a shoe has no dice
        raise ChanceExhausted("a shoe has no dice")

    def card(self) -> Card:
        if self.queue:
            return self.queue.popleft()
        if self.rng is None:
            raise ChanceExhausted("no card has been reported yet")
        if isinstance(self.rng, RandomSource) and self.rng.is_random and self.table is not None:
            shoe = self.table.shoe
            assert shoe is not None
            left = sorted(((str(c), c, n) for c, n in shoe._left.items() if n > 0), key=lambda t: t[0])
            k = self.rng.randbelow(sum(n for _, _, n in left))
            for _, card, n in left:
                if k < n:
                    return card
                k -= n
            raise ChanceExhausted("the shoe is empty")  # pragma: no cover - randbelow is below the total
        return self.rng.card()

    def unread(self, cards: Iterable[Card]) -> None:
        self.queue.extendleft(reversed(list(cards)))


def load_rules(game: str, document: Mapping[str, Any] | None) -> Any:
    """The rules of ``game`` from a rules document (``None``: the statute); ``InvalidRules`` lists every problem."""
    loader = {"roulette": ro_rules.load, "sicbo": sb_rules.load, "blackjack": bj_rules.load}[game]
    return loader(dict(document) if document is not None else {})


def new_engine(game: str, rules: Any, rng: ChanceSource | None) -> tuple[Engine, ShoeCards | None]:
    """A fresh engine table; blackjack's draws its cards from a :class:`ShoeCards`."""
    if game == "roulette":
        return RouletteTable(rules), None
    if game == "sicbo":
        return SicBoTable(rules), None
    cards = ShoeCards(rng)
    table = BlackjackTable(rules, cards)
    cards.table = table
    return table, cards


def _need_int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{what} must be a whole number, not {value!r}.")
    return value


def normalise_bet(game: str, bet: object) -> tuple[dict[str, Any], int]:
    """A bet document checked for shape (the engine checks it against the rules) and its total stake."""
    if not isinstance(bet, Mapping):
        raise InvalidInput(f"A bet is an object, not {bet!r}.")
    if game == "blackjack":
        unknown = set(bet) - {"box", "main", "side", "streak"}
        if unknown:
            names = ", ".join(sorted(unknown))
            raise InvalidInput(f"A blackjack bet has no {names}: it names box, main, side, streak.")
        out: dict[str, Any] = {"box": _need_int(bet.get("box"), "box"), "main": _need_int(bet.get("main", 0), "main")}
        side_raw = bet.get("side") or {}
        streak_raw = bet.get("streak") or {}
        if not isinstance(side_raw, Mapping) or not isinstance(streak_raw, Mapping):
            raise InvalidInput("side and streak are objects of stakes.")
        side = {}
        for key, stake in side_raw.items():
            if key not in SIDE_KEYS:
                raise BetRejected(f"{key!r} is not a side bet ({', '.join(SIDE_KEYS)}).", rule="BJ 13")
            side[str(key)] = _need_int(stake, f"side {key}")
        streak = {}
        for level, stake in streak_raw.items():
            if not str(level).isdigit():
                raise BetRejected(f"{level!r} is not a streak level: 2, 3, 4 or 5 wins.", rule="BJ 13.5")
            streak[str(int(level))] = _need_int(stake, f"streak {level}")
        out["side"], out["streak"] = side, streak
        amounts = [out["main"], *side.values(), *streak.values()]
        if any(a < 0 for a in amounts) or sum(amounts) <= 0:
            raise BetRejected("A bet stakes a positive amount.", rule="BJ 3")
        return out, sum(amounts)
    unknown = set(bet) - {"type", "amount"} - PLACEMENT[game]
    if unknown:
        raise InvalidInput(f"A {game} bet has no {', '.join(sorted(unknown))}.")
    if not isinstance(bet.get("type"), str):
        raise InvalidInput(f"A bet names its type, not {bet.get('type')!r}.")
    out = {"type": bet["type"], "amount": _need_int(bet.get("amount"), "amount")}
    for key in PLACEMENT[game] & set(bet):
        value = bet[key]
        if key == "numbers":
            if not isinstance(value, list):
                raise InvalidInput(f"numbers is a list of numbers, not {value!r}.")
            out[key] = [_need_int(n, "a number") for n in value]
        else:
            out[key] = _need_int(value, key)
    if out["amount"] <= 0:
        raise BetRejected(f"A bet of {out['amount']} stakes nothing.", rule="RO 6" if game == "roulette" else "SB 5")
    return out, out["amount"]


def verify_bet(rnd: Any, game: str, player: str, bet: Mapping[str, Any]) -> None:
    """Raise unless the engine would take the bet now (nothing changes)."""
    if game == "blackjack":
        streak = {int(k): v for k, v in bet["streak"].items()}
        rnd.verify_place_bet(bet["box"], player, main=bet["main"], side=bet["side"], streak=streak)
        box = rnd.boxes.get(bet["box"])
        if bet["main"] <= 0 and (box is None or not box.has_main):
            raise BetRejected(f"Box {bet['box']} has no main bet: a side bet needs one on its box.", rule="BJ 13")
        return
    placement = {k: v for k, v in bet.items() if k not in ("type", "amount")}
    rnd.verify_place_bet(player, bet["type"], bet["amount"], **placement)


def apply_step(engine: Engine, rnd: Any, game: str, step: Mapping[str, Any]) -> None:
    """Apply one stored step to the engine round ``rnd`` (live and on replay alike)."""
    t = step["t"]
    if t == "bet":
        bet = step["bet"]
        if game == "blackjack":
            streak = {int(k): v for k, v in bet["streak"].items()}
            rnd.place_bet(bet["box"], step["player"], main=bet["main"], side=bet["side"], streak=streak)
        else:
            placement = {k: v for k, v in bet.items() if k not in ("type", "amount")}
            rnd.place_bet(step["player"], bet["type"], bet["amount"], **placement)
    elif t == "close":
        if game == "blackjack":
            for number, box in sorted(rnd.boxes.items()):
                if box.bettors and box.seated is None:
                    rnd.seat(number, next(iter(box.bettors)))
        rnd.close_betting()
    elif t == "result":
        value = step["value"]
        if game == "roulette":
            rnd.spin(value)
        else:
            rnd.roll(tuple(value))
    elif t == "void_result":
        if game == "roulette":
            rnd.void_spin()
        else:
            rnd.void_roll()
    elif t == "forfeit":
        assert isinstance(engine, BlackjackTable)
        engine.forfeit_streaks(step["player"])
        rnd._open_streaks[:] = [s for s in rnd._open_streaks if s.player != step["player"]]
    elif t == "act":
        rnd.act(
            step["action"], box=step["box"], player=step["player"], hand=step.get("hand"), amount=step.get("amount")
        )
    elif t == "void":
        if game == "blackjack":
            rnd.void_round(step.get("reason") or "voided by the dealer")
    else:  # pragma: no cover - steps are written by the casino
        raise ValueError(f"unknown step {t!r}")


def round_cards(rnd: BlackjackRound) -> list[str]:
    """Every card that left the shoe in the round, in order (burns and voided cards included)."""
    return [str(op.card) for op in rnd.operations if isinstance(op, Burned | Dealt | CardVoided)]


def extra_stake(rnd: BlackjackRound, action: str, amount: int | None) -> int:
    """What a blackjack answer adds to the answering bettor's stakes (held through the ledger first)."""
    q = rnd.pending
    assert q is not None
    b = rnd.boxes[q.box]
    if action == "double":
        return b.hands[q.hand or 0].stakes[q.player]
    if action == "split":
        return b.bettors[q.player].main
    if action == "follow":
        after = rnd._after_questions
        if after is not None and after[0] == "double":
            return b.hands[q.hand or 0].stakes.get(q.player, 0)
        return b.bettors[q.player].main
    if action == "insurance":
        return amount or 0
    if action == "any_pair":
        return 2 * b.bettors[q.player].side.get("any_pair", 0)
    return 0


def default_action(rnd: BlackjackRound) -> str:
    """The published default when a decision's timer runs out: ``stand`` on a hand, ``decline`` an offer."""
    q = rnd.pending
    assert q is not None
    return "stand" if "stand" in q.actions else "decline"


def ledger_results(
    game: str, rnd: Any, holds: list[dict[str, Any]], placed_streaks: dict[str, int], steps: list[dict[str, Any]]
) -> dict[str, int]:
    """The net of every held bet of a settled round, for ``Ledger.settle``.

    Roulette and sic bo map each engine bet to its hold. Blackjack nets each player's round and spreads it over
    the player's holds (a loss up to each stake, a win on the first): a streak bet's stake is taken in the round
    it is placed and, when the streak is decided in a later round, stake and winnings come back then (BJ 13.5).
    """
    held = [h for h in holds if h["status"] == "held"]
    if game != "blackjack":
        placed = [step["ref"] for step in steps if step["t"] == "bet"]
        by_ref = {ref: r.net for ref, r in zip(placed, rnd.settlement.results, strict=True)}
        return {h["ref"]: by_ref.get(h["ref"], 0) for h in held}
    totals: dict[str, int] = {}
    for o in rnd.settlement.outcomes:
        n = o.net
        if o.kind.startswith("streak_"):  # its stake was taken when placed: a decided streak returns stake + net
            n = 0 if o.status == "open" else o.stake + o.net
        totals[o.player] = totals.get(o.player, 0) + n
    for player, stake in placed_streaks.items():
        totals[player] = totals.get(player, 0) - stake
    out: dict[str, int] = {}
    for player in {h["player"] for h in held}:
        mine = [h for h in held if h["player"] == player]
        total = totals.get(player, 0)
        if total >= 0:
            out.update({h["ref"]: (total if i == 0 else 0) for i, h in enumerate(mine)})
            continue
        loss = -total
        for h in mine:
            take = min(loss, h["amount"])
            out[h["ref"]] = -take
            loss -= take
        if loss:
            raise ValueError(f"{player} would lose {loss} more than was held")  # pragma: no cover - invariant
    return out


def placed_streaks(steps: list[dict[str, Any]]) -> dict[str, int]:
    """The streak stakes each player placed in the round."""
    out: dict[str, int] = {}
    for step in steps:
        if step["t"] == "bet" and "streak" in step["bet"]:
            out[step["player"]] = out.get(step["player"], 0) + sum(step["bet"]["streak"].values())
    return out


def jsonable(value: Any) -> Any:
    """An engine value as JSON: operations and settlements as objects, cards as codes."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if is_dataclass(value) and not isinstance(value, type):
        out = {"op": type(value).__name__}
        out.update({f.name: jsonable(getattr(value, f.name)) for f in fields(value)})
        return out
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return sorted(jsonable(v) for v in value)
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def outcome(game: str, rnd: Any) -> dict[str, Any] | None:
    """A finished round's result in the SCENARIOS.md output shape."""
    if rnd is None or rnd.settlement is None:
        return None
    if game == "blackjack":
        return round_output(rnd.settlement) if not rnd.settlement.void else {"void": True}
    s = rnd.settlement
    key, voids = ("pocket", "void_spins") if game == "roulette" else ("dice", "void_rolls")
    return {
        key: list(s.outcome) if isinstance(s.outcome, tuple) else s.outcome,
        voids: s.voids,
        "bets": [{"index": r.index, "player": r.bet.player, "net": r.net} for r in s.results],
        "payment_order": list(s.payment_order),
        "players": s.players(),
    }


def private_card(rnd: BlackjackRound, op: Dealt) -> list[str]:
    """Who may see a face-down box card (its bettors, BJ 5.2 procedure 1)."""
    box = rnd.boxes.get(op.box) if op.box is not None else None
    return sorted(box.bettors) if box is not None else []


def card_events(rnd: BlackjackRound, start: int) -> list[dict[str, Any]]:
    """The card and decision events of the operations from ``start``: the hole card is shown only when turned,
    a face-down box card only to that box's bettors (the events carry it privately, :func:`view_event`)."""
    events: list[dict[str, Any]] = []
    for op in rnd.operations[start:]:
        if isinstance(op, Dealt):
            if op.face_up:
                events.append({"type": "card", "card": str(op.card), "box": op.box, "hand": op.hand})
            elif op.box is None:
                events.append({"type": "card", "card": "??", "box": None, "hand": None})
            else:
                events.append(
                    {
                        "type": "card",
                        "card": "??",
                        "box": op.box,
                        "hand": op.hand,
                        "_private": {"card": str(op.card), "viewers": private_card(rnd, op)},
                    }
                )
        elif isinstance(op, HoleCardTurned):
            events.append({"type": "card", "card": str(op.card), "box": None, "hand": None, "hole": True})
        elif type(op).__name__ == "Answered":
            events.append({"type": "decision", **jsonable(op)})
    return events


def view_event(event: Mapping[str, Any], viewer: str | None) -> dict[str, Any]:
    """``event`` as ``viewer`` may see it."""
    out = {k: v for k, v in event.items() if k != "_private"}
    private = event.get("_private")
    if private is not None and viewer is not None and viewer in private["viewers"]:
        out["card"] = private["card"]
    return out


def wager_view(rnd: WagerRound[Any, Any] | None, game: str) -> dict[str, Any]:
    """A roulette or sic bo round as anyone may see it: the chips on the layout are public."""
    if rnd is None:
        return {"phase": None, "bets": []}
    return {
        "phase": rnd.phase.value,
        "bets": [
            {"index": i, "player": b.player, "type": b.type.value, "amount": b.amount} for i, b in rnd.bets.items()
        ],
        "voids": rnd.voids,
        "outcome": outcome(game, rnd),
    }


def export_wager(game: str, rules: Any, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """A settled roulette or sic bo round as a scenario (bets after a first void roll are its ``late_bets``)."""
    bets: list[dict[str, Any]] = []
    late: list[dict[str, Any]] = []
    results: list[Any] = []
    for step in steps:
        if step["t"] == "bet":
            target = late if results else bets
            if len(results) > 1:
                raise ValueError("bets placed after a second void roll cannot be written as a scenario")
            target.append({"player": step["player"], **step["bet"]})
        elif step["t"] == "void_result":
            results.append("void")
        elif step["t"] == "result":
            results.append(step["value"])
    out_round: dict[str, Any] = {"bets": bets, "results": results}
    if late:
        out_round["late_bets"] = late
    return {"game": game, "rules": rulesdoc.document(rules), "rounds": [out_round]}


def export_blackjack(rules: Any, rounds: list[BlackjackRound], target: int) -> dict[str, Any]:
    """The shortest run of rounds ending with ``rounds[target]`` that ``croupier replay`` reproduces exactly: a
    scenario starts on a fresh shoe, so the run goes back to the round that shuffled (BJ 2, BJ 4)."""
    from croupier.replay.core import ScenarioError, replay

    want = [round_output(r.settlement) if r.settlement is not None and not r.settlement.void else None for r in rounds]
    for start in range(target, -1, -1):
        segment = rounds[start : target + 1]
        if any(r.settlement is None or r.settlement.void for r in segment):
            break
        try:
            doc = bj_export(rules, segment)
            got = replay(doc)
        except (ValueError, ScenarioError):
            continue
        if got["rounds"] == want[start : target + 1]:
            return doc
    raise ValueError("this round cannot be written as a scenario (a void round or a voided card since the shuffle)")
