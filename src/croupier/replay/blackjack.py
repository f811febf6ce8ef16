"""Blackjack scenarios (SCENARIOS.md "Blackjack"): boxes and bets, every card out of the shoe, every answer."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from croupier import rulesdoc
from croupier.blackjack import rules as bj_rules
from croupier.blackjack.operations import (
    Answered,
    BetPlaced,
    BlackjackSettlement,
    Burned,
    CardVoided,
    Dealt,
    Shuffled,
)
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import BlackjackRules, DealingDevice
from croupier.blackjack.sidebets import SIDE_KEYS
from croupier.blackjack.table import BlackjackTable
from croupier.errors import BetRejected, IllegalAction, OutOfTurn
from croupier.primitives.cards import Card, parse_card
from croupier.primitives.chance import ChanceExhausted, ScriptedSource
from croupier.replay.common import (
    GameRunner,
    ScenarioError,
    check_keys,
    from_refusal,
    invalid,
    need_int,
    need_object,
    need_str,
)
from croupier.statute import LIMITS

ACTIONS = frozenset(
    {"hit", "stand", "double", "split", "surrender", "claim_five_card", "insurance", "even_money", "follow",
     "any_pair", "decline"}
)  # fmt: skip


@dataclass(frozen=True)
class ScriptedBettor:
    """One bettor's stakes on a box as the file gives them (``main`` None when the entry has none; streak levels
    as written, checked by the table when the bet is placed)."""

    player: str
    main: int | None
    side: dict[str, int]
    streak: dict[str, int]


@dataclass(frozen=True)
class ScriptedBox:
    """A box: its number, seated player and bettors."""

    box: int
    seated: str | None
    bettors: tuple[ScriptedBettor, ...]


@dataclass(frozen=True)
class ScriptedAction:
    """One answer."""

    box: int
    action: str
    player: str | None
    hand: int | None
    amount: int | None


@dataclass(frozen=True)
class ScriptedRound:
    """A parsed blackjack round."""

    boxes: tuple[ScriptedBox, ...]
    cards: tuple[Card, ...]
    actions: tuple[ScriptedAction, ...]


def _parse_bettor(raw: object, where: str, i: int) -> ScriptedBettor:
    bet = need_object(raw, where, round=i)
    check_keys(bet, {"player", "main", "side", "streak"}, where, round=i)
    player = need_str(bet.get("player"), f"{where}: player", round=i)
    main = need_int(bet["main"], f"{where}: main", round=i) if "main" in bet else None
    side_raw = bet.get("side", {})
    side_obj = need_object(side_raw, f"{where}: side", round=i)
    side: dict[str, int] = {}
    for key, stake in side_obj.items():
        if key not in SIDE_KEYS:
            raise invalid(f"{where}: {key!r} is not a side-bet key ({', '.join(SIDE_KEYS)}).", round=i)
        side[key] = need_int(stake, f"{where}: side {key}", round=i)
    streak_obj = need_object(bet.get("streak", {}), f"{where}: streak", round=i)
    streak: dict[str, int] = {}
    for level, stake in streak_obj.items():
        # A level other than "2" … "5" is a bet the table refuses (bet_rejected, when the bet is placed).
        streak[level] = need_int(stake, f"{where}: streak {level}", round=i)
    return ScriptedBettor(player, main, side, streak)


def _parse_round(rules: BlackjackRules, raw: dict[str, Any], i: int) -> ScriptedRound:
    check_keys(raw, {"boxes", "cards", "actions"}, f"Round {i}", round=i)
    boxes_raw = raw.get("boxes")
    if not isinstance(boxes_raw, list):
        raise invalid(f"Round {i}: boxes must be a list of boxes.", round=i)
    boxes: list[ScriptedBox] = []
    seen: set[int] = set()
    for k, braw in enumerate(boxes_raw):
        where = f"Round {i} box entry {k}"
        b = need_object(braw, where, round=i)
        check_keys(b, {"box", "seated", "bets"}, where, round=i)
        number = need_int(b.get("box"), f"{where}: box", round=i)
        if number in seen:
            raise invalid(f"Round {i} lists box {number} twice.", round=i)
        seen.add(number)
        seated = b.get("seated")
        if seated is not None:
            seated = need_str(seated, f"{where}: seated", round=i)
        bets_raw = b.get("bets", [])
        if not isinstance(bets_raw, list):
            raise invalid(f"{where}: bets must be a list.", round=i)
        bettors = tuple(_parse_bettor(x, f"{where} bet {j}", i) for j, x in enumerate(bets_raw))
        names = [x.player for x in bettors]
        if len(set(names)) != len(names):
            raise invalid(f"{where} lists the same bettor twice.", round=i)
        boxes.append(ScriptedBox(number, seated, bettors))
    if not any(b.bettors for b in boxes):
        raise invalid(f"Round {i} has no bets at all.", round=i)
    cards_raw = raw.get("cards")
    if not isinstance(cards_raw, list):
        raise invalid(f"Round {i}: cards must be a list of cards.", round=i)
    cards: list[Card] = []
    for c in cards_raw:
        try:
            cards.append(parse_card(c))
        except ValueError as exc:
            raise invalid(f"Round {i}: {exc}", round=i) from None
    actions_raw = raw.get("actions", [])
    if not isinstance(actions_raw, list):
        raise invalid(f"Round {i}: actions must be a list.", round=i)
    actions: list[ScriptedAction] = []
    for j, araw in enumerate(actions_raw):
        where = f"Round {i} action {j}"
        a = need_object(araw, where, round=i)
        check_keys(a, {"box", "action", "player", "hand", "amount"}, where, round=i)
        name = a.get("action")
        if not isinstance(name, str) or name not in ACTIONS:
            raise ScenarioError("invalid_scenario", f"{where}: {name!r} is not an action.", round=i, action=j)
        if name == "insurance" and "amount" not in a:
            raise ScenarioError(
                "invalid_scenario", f"{where}: an insurance answer gives its amount.", round=i, action=j
            )
        actions.append(
            ScriptedAction(
                need_int(a.get("box"), f"{where}: box", round=i),
                str(name),
                need_str(a["player"], f"{where}: player", round=i) if "player" in a else None,
                need_int(a["hand"], f"{where}: hand", round=i) if "hand" in a else None,
                need_int(a["amount"], f"{where}: amount", round=i) if "amount" in a else None,
            )
        )
    return ScriptedRound(tuple(boxes), tuple(cards), tuple(actions))


def _check_card_supply(rules: BlackjackRules, rounds: list[ScriptedRound]) -> None:
    """No card may be scripted more often than the shoe holds it since its last shuffle."""
    counts: Counter[Card] = Counter()
    dealt = 0
    cut = 52 * rules.decks - rules.behind_cut + 1
    fresh = True
    for i, sr in enumerate(rounds):
        if fresh or rules.dealing_device is not DealingDevice.SHOE:
            counts.clear()
            dealt = 0
        for card in sr.cards:
            counts[card] += 1
            dealt += 1
            if counts[card] > rules.decks:
                raise invalid(
                    f"Round {i}: {card} is scripted {counts[card]} times since the last shuffle, but a "
                    f"{rules.decks}-deck shoe holds it {rules.decks} time(s).",
                    round=i,
                )
        fresh = dealt >= cut


def _place(rnd: BlackjackRound, box: ScriptedBox, i: int) -> None:
    for bettor in box.bettors:
        if bettor.main == 0:  # the engine reads main=0 as "no main bet"; a file that writes it bets nothing
            raise ScenarioError(
                "bet_rejected",
                f"{bettor.player}'s main bet of 0 on box {box.box} is not a positive amount.",
                round=i,
                rule=LIMITS,
            )
        try:
            rnd.place_bet(box.box, bettor.player, main=bettor.main or 0, side=bettor.side, streak=bettor.streak)
        except (BetRejected, IllegalAction) as exc:
            raise from_refusal(exc, "bet_rejected", round=i) from None
    if box.bettors:
        rnd.seat(box.box, box.seated)


def _run(rules: BlackjackRules, rounds: list[ScriptedRound], played: list[Any]) -> list[dict[str, Any]]:
    _check_card_supply(rules, rounds)
    source = ScriptedSource()
    table = BlackjackTable(rules, source)
    outputs: list[dict[str, Any]] = []
    for i, sr in enumerate(rounds):
        source.add_cards(sr.cards)
        rnd = table.open_round()
        for box in sr.boxes:
            _place(rnd, box, i)
        try:
            rnd.close_betting()
        except BetRejected as exc:
            raise from_refusal(exc, "bet_rejected", round=i) from None
        except ChanceExhausted:
            raise ScenarioError("cards_exhausted", f"Round {i} needs more cards than scripted.", round=i) from None
        for j, a in enumerate(sr.actions):
            if rnd.is_over:
                raise ScenarioError(
                    "unexpected_action", f"Round {i} is over; action {j} ({a.action}) is left over.", round=i, action=j
                )
            live = rnd.boxes.get(a.box)
            player = a.player if a.player is not None else (live.decider if live is not None else None)
            try:
                if live is None or not live.bettors:
                    raise OutOfTurn(f"Box {a.box} has no bets in this round.", rule="BJ 6.3")
                rnd.act(a.action, box=a.box, player=player, hand=a.hand, amount=a.amount)
            except OutOfTurn as exc:
                raise from_refusal(exc, "unexpected_action", round=i, action=j) from None
            except BetRejected as exc:
                raise from_refusal(exc, "bet_rejected", round=i, action=j) from None
            except IllegalAction as exc:
                raise from_refusal(exc, "illegal_action", round=i, action=j) from None
            except ChanceExhausted:
                raise ScenarioError(
                    "cards_exhausted", f"Round {i} needs more cards than scripted.", round=i, action=j
                ) from None
        if not rnd.is_over:
            q = rnd.pending
            asked = f"{q.player} at box {q.box} ({', '.join(q.actions)})" if q else "an answer"
            raise invalid(
                f"Round {i}: the actions ran out while the round waits on {asked}.", round=i, action=len(sr.actions)
            )
        if source.cards_left:
            raise ScenarioError(
                "cards_left_over", f"Round {i} ended with {source.cards_left} scripted card(s) unused.", round=i
            )
        assert rnd.settlement is not None
        played.append(rnd)
        outputs.append(round_output(rnd.settlement))
    return outputs


def round_output(s: BlackjackSettlement) -> dict[str, Any]:
    """A settled round in the SCENARIOS.md output shape."""
    boxes = []
    for b in s.boxes:
        bets = []
        for o in s.outcomes:
            if o.box == b.box:
                entry: dict[str, Any] = {"player": o.player, "kind": o.kind, "net": o.net}
                if o.status is not None:
                    entry["status"] = o.status
                bets.append(entry)
        boxes.append(
            {
                "box": b.box,
                "result": b.result,
                "hands": [{"cards": [str(c) for c in h.cards], "total": h.total, "status": h.status} for h in b.hands],
                "bets": bets,
            }
        )
    out: dict[str, Any] = {
        "dealer": {"cards": [str(c) for c in s.dealer_cards], "total": s.dealer_total, "blackjack": s.dealer_blackjack},
        "boxes": boxes,
        "players": s.players(),
    }
    if s.void:
        out["void"] = True
    return out


RUNNER = GameRunner(load_rules=bj_rules.load, parse_round=_parse_round, run=_run)
"""The blackjack reader."""


def export_scenario(rules: BlackjackRules, rounds: list[BlackjackRound]) -> dict[str, Any]:
    """The scenario that replays ``rounds`` exactly: the rounds a table played from a fresh shoe, in order.

    Cards are every card that left the shoe (burns and voided cards included), answers are the operations'
    answers; ``croupier replay`` of the result reproduces the same operations and settlement.
    """
    out_rounds: list[dict[str, Any]] = []
    for rnd in rounds:
        if rnd.settlement is None or rnd.settlement.void:
            raise ValueError("only settled rounds can be exported as a scenario (a void round returns every bet)")
        boxes: dict[int, dict[str, Any]] = {}
        cards: list[str] = []
        actions: list[dict[str, Any]] = []
        for op in rnd.operations:
            if isinstance(op, BetPlaced):
                entry = boxes.setdefault(op.box, {"box": op.box, "seated": rnd.boxes[op.box].seated, "bets": []})
                bet = next((b for b in entry["bets"] if b["player"] == op.player), None)
                if bet is None:
                    bet = {"player": op.player}
                    entry["bets"].append(bet)
                if op.main:
                    bet["main"] = bet.get("main", 0) + op.main
                for key, stake in op.side:
                    bet.setdefault("side", {})[key] = bet.get("side", {}).get(key, 0) + stake
                for level, stake in op.streak:
                    bet.setdefault("streak", {})[str(level)] = stake
            elif isinstance(op, Shuffled) and op.discards:
                raise ValueError(
                    "a round in which the shoe ran out and its discards were shuffled back cannot be written as a "
                    "scenario: the format has no mid-round shuffle"
                )
            elif isinstance(op, CardVoided):
                raise ValueError(
                    f"a round with a voided card ({op.card}, {op.rule}) cannot be written as a scenario: the format "
                    "has no way to mark a card void"
                )
            elif isinstance(op, Burned | Dealt):
                cards.append(str(op.card))
            elif isinstance(op, Answered):
                action: dict[str, Any] = {"box": op.box, "action": op.action, "player": op.player}
                if op.hand is not None:
                    action["hand"] = op.hand
                if op.action == "insurance":
                    action["amount"] = op.amount
                actions.append(action)
        out_rounds.append({"boxes": list(boxes.values()), "cards": cards, "actions": actions})
    return {"game": "blackjack", "rules": rulesdoc.document(rules), "rounds": out_rounds}
