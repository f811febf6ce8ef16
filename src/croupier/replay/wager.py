"""Roulette and sic bo scenarios (SCENARIOS.md "Roulette", "Sic Bo")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from croupier.errors import BetRejected, IllegalAction
from croupier.primitives.dice import check_dice
from croupier.primitives.wheel import check_pocket
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
from croupier.roulette import rules as roulette_rules
from croupier.roulette.round import RouletteRound
from croupier.sicbo import rules as sicbo_rules
from croupier.sicbo.round import SicBoRound
from croupier.wagering import Settlement, WagerRound

VOID = "void"


@dataclass(frozen=True)
class ScriptedBet:
    """A bet as the file gives it; validated against the table only when the round runs."""

    player: str
    type: str
    amount: int
    placement: Mapping[str, Any]


@dataclass(frozen=True)
class ScriptedRound:
    """A parsed round: its bets, late bets, and results (``None`` for a void)."""

    bets: tuple[ScriptedBet, ...]
    late_bets: tuple[ScriptedBet, ...]
    results: tuple[Any, ...]


def _parse_bet(raw: object, where: str, i: int, placement_keys: dict[str, str]) -> ScriptedBet:
    bet = need_object(raw, where, round=i)
    check_keys(bet, {"player", "type", "amount", *placement_keys}, where, round=i)
    for key in ("player", "type", "amount"):
        if key not in bet:
            raise invalid(f"{where} has no {key!r}.", round=i)
    placement: dict[str, Any] = {}
    for key, kind in placement_keys.items():
        if key not in bet:
            continue
        value = bet[key]
        if kind == "ints":
            if not isinstance(value, list):
                raise invalid(f"{where}: {key} must be a list of numbers, not {value!r}.", round=i)
            placement[key] = [need_int(n, f"{where}: a number in {key}", round=i) for n in value]
        else:
            placement[key] = need_int(value, f"{where}: {key}", round=i)
    return ScriptedBet(
        need_str(bet["player"], f"{where}: player", round=i),
        need_str(bet["type"], f"{where}: type", round=i),
        need_int(bet["amount"], f"{where}: amount", round=i),
        placement,
    )


def _parse_round(
    raw: dict[str, Any], i: int, placement_keys: dict[str, str], check_result: Any, what: str
) -> ScriptedRound:
    check_keys(raw, {"bets", "results", "late_bets"}, f"Round {i}", round=i)
    bets_raw, late_raw = raw.get("bets"), raw.get("late_bets", [])
    if not isinstance(bets_raw, list) or not bets_raw:
        raise invalid(f"Round {i} has no bets: a round needs a non-empty bets list.", round=i)
    if not isinstance(late_raw, list):
        raise invalid(f"Round {i}: late_bets must be a list of bets.", round=i)
    bets = tuple(_parse_bet(b, f"Round {i} bet {j}", i, placement_keys) for j, b in enumerate(bets_raw))
    late = tuple(_parse_bet(b, f"Round {i} late bet {j}", i, placement_keys) for j, b in enumerate(late_raw))
    results_raw = raw.get("results")
    if not isinstance(results_raw, list) or not results_raw:
        raise invalid(f'Round {i} needs a non-empty results list ("void" entries, then the {what}).', round=i)
    results: list[Any] = []
    for k, entry in enumerate(results_raw):
        last = k == len(results_raw) - 1
        if entry == VOID:
            if last:
                raise invalid(f'Round {i}: the last result must be the {what}, not "void".', round=i)
            results.append(None)
            continue
        if not last:
            raise invalid(f'Round {i}: only the last result may be a {what}; earlier ones are "void".', round=i)
        try:
            results.append(check_result(entry))
        except ValueError as exc:
            raise invalid(f"Round {i}: {exc}", round=i) from None
    return ScriptedRound(bets, late, tuple(results))


def _place(rnd: WagerRound[Any, Any], bet: ScriptedBet, i: int) -> None:
    try:
        rnd.place_bet(bet.player, bet.type, bet.amount, **bet.placement)
    except (BetRejected, IllegalAction) as exc:
        raise from_refusal(exc, "bet_rejected", round=i) from None


def _bets_out(settlement: Settlement[Any, Any]) -> list[dict[str, Any]]:
    return [
        {
            "index": r.index,
            "player": r.bet.player,
            "type": r.bet.type.value,
            "amount": r.bet.amount,
            "net": r.net,
        }
        for r in settlement.results
    ]


def _round_out(rnd: WagerRound[Any, Any], result_key: str, voids_key: str) -> dict[str, Any]:
    """A settled round in the SCENARIOS.md output shape (``pocket``/``void_spins`` or ``dice``/``void_rolls``)."""
    s = rnd.settlement
    assert s is not None
    outcome = list(s.outcome) if isinstance(s.outcome, tuple) else s.outcome
    return {
        result_key: outcome,
        voids_key: s.voids,
        "bets": _bets_out(s),
        "collected": list(s.collected),
        "payment_order": list(s.payment_order),
        "players": s.players(),
    }


def _run_roulette(
    rules: roulette_rules.RouletteRules, rounds: list[ScriptedRound], played: list[Any]
) -> list[dict[str, Any]]:
    outputs: list[dict[str, Any]] = []
    last_pocket: int | None = None
    for i, sr in enumerate(rounds):
        rnd = RouletteRound(rules, launch_pocket=last_pocket)
        for bet in sr.bets:
            _place(rnd, bet, i)
        if sr.late_bets:
            raise ScenarioError(
                "bet_rejected",
                "Roulette takes no late bets: after the bell no bet may be placed, even after a void spin.",
                round=i,
                rule="RO 3",
            )
        rnd.close_betting()
        for result in sr.results:
            if result is None:
                rnd.void_spin()
            else:
                rnd.spin(result)
        played.append(rnd)
        outputs.append(_round_out(rnd, "pocket", "void_spins"))
        last_pocket = rnd.pocket
    return outputs


def _run_sicbo(rules: sicbo_rules.SicBoRules, rounds: list[ScriptedRound], played: list[Any]) -> list[dict[str, Any]]:
    outputs: list[dict[str, Any]] = []
    for i, sr in enumerate(rounds):
        rnd = SicBoRound(rules)
        for bet in sr.bets:
            _place(rnd, bet, i)
        if sr.late_bets and None not in sr.results:
            raise ScenarioError(
                "bet_rejected",
                "Late bets are taken only after a void roll, and this round has none.",
                round=i,
                rule="SB 3.3",
            )
        rnd.close_betting()
        first_void = True
        for result in sr.results:
            if result is None:
                rnd.void_roll()
                if first_void:
                    for bet in sr.late_bets:
                        _place(rnd, bet, i)
                    first_void = False
                rnd.close_betting()
            else:
                rnd.roll(result)
        played.append(rnd)
        outputs.append(_round_out(rnd, "dice", "void_rolls"))
    return outputs


ROULETTE_PLACEMENT = {"numbers": "ints", "index": "int"}
SICBO_PLACEMENT = {"face": "int", "total": "int"}


ROULETTE = GameRunner(
    load_rules=roulette_rules.load,
    parse_round=lambda rules, raw, i: _parse_round(raw, i, ROULETTE_PLACEMENT, check_pocket, "winning pocket"),
    run=_run_roulette,
)
"""The roulette reader."""

SICBO = GameRunner(
    load_rules=sicbo_rules.load,
    parse_round=lambda rules, raw, i: _parse_round(raw, i, SICBO_PLACEMENT, check_dice, "dice"),
    run=_run_sicbo,
)
"""The sic bo reader."""
