"""What the browser table reads about a table (issue 6): its limits, its rules and paytable as catalogue keys with
parameters, its public history with statistics, and a player's own rounds.

Everything here is computed from the table's rules object and its engine rounds, so the page holds no rule of its
own: the legal bet kinds, their limits and payouts, which results are big or small, red or black, all come from
here. Texts are never written here: each rule is a catalogue key (``<game>.rule.<name>``) with its parameters,
which the page translates.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from croupier import rulesdoc
from croupier.blackjack import rules as bj_rules
from croupier.primitives import wheel
from croupier.primitives.dice import is_triple
from croupier.roulette import rules as ro_rules
from croupier.roulette.bets import PAYMENT_RANK as RO_PAYMENT_RANK
from croupier.roulette.bets import BetType as RoBet
from croupier.sicbo import rules as sb_rules
from croupier.sicbo.bets import PAYMENT_RANK as SB_PAYMENT_RANK
from croupier.sicbo.bets import BetType as SbBet

BET_KINDS: Mapping[str, tuple[str, ...]] = {
    "roulette": ro_rules.BET_IDS,
    "sicbo": sb_rules.BET_IDS,
    "blackjack": bj_rules.BET_KINDS,
}
"""The bet kinds whose stakes each game limits (RO 6, SB 5, BJ 13 and the main bet)."""

RULE_OF_BETS = {"roulette": "RO 6", "sicbo": "SB 5", "blackjack": "BJ 3"}
RULE_OF_ODDS = {"roulette": "RO 7", "sicbo": "SB 6", "blackjack": "BJ 14"}
HOT = 5


def _min_stake(rules: Any, kind: str) -> int:
    if isinstance(rules, bj_rules.BlackjackRules):
        return rules.min_stake(kind)
    low: int = rules.min_bet.for_type(kind)
    return low


def limits(game: str, rules: Any) -> dict[str, Any]:
    """The table's stake limits: the chip unit and, for every bet kind, its minimum and maximum stake."""
    return {
        "chip_unit": rules.chip_unit,
        "bets": {k: {"min": _min_stake(rules, k), "max": rules.max_bet.for_type(k)} for k in BET_KINDS[game]},
    }


def _odds(value: Any) -> int | str:
    return rulesdoc.dump_odds(value)


def _roulette(rules: ro_rules.RouletteRules) -> dict[str, Any]:
    bets = []
    for kind in ro_rules.BET_IDS:
        entry: dict[str, Any] = {
            "kind": kind,
            "payout": _odds(rules.odds(kind)),
            "pay_rank": RO_PAYMENT_RANK[RoBet(kind)],
        }
        bets.append(entry)
    layout = {
        "pockets": list(wheel.POCKETS),
        "red": sorted(wheel.RED),
        "black": sorted(wheel.BLACK),
        "wheel_order": list(wheel.WHEEL_ORDER),
        "nine_number_blocks": [sorted(b) for b in rules.nine_number_blocks],
        "twelve_special": [sorted(s) for s in wheel.TWELVE_SPECIAL],
        "columns": [sorted(s) for s in wheel.COLUMNS],
        "dozens": [sorted(s) for s in wheel.DOZENS],
        "sets": {
            name: sorted(numbers)
            for name, numbers in (
                ("red", wheel.RED),
                ("black", wheel.BLACK),
                ("low", wheel.LOW),
                ("high", wheel.HIGH),
                ("odd", wheel.ODD),
                ("even", wheel.EVEN),
            )
        },
    }
    text = [
        {"key": "roulette.rule.wheel", "params": {"pockets": len(wheel.POCKETS)}, "rule": "RO 1"},
        {"key": "roulette.rule.betting", "params": {}, "rule": "RO 3"},
        {"key": "roulette.rule.void_spin", "params": {}, "rule": "RO 2.2"},
        {"key": "roulette.rule.winning", "params": {}, "rule": "RO 4"},
        {"key": "roulette.rule.paying", "params": {}, "rule": "RO 5"},
        {"key": "roulette.rule.zero", "params": {}, "rule": "RO 8"},
    ]
    return {"bets": bets, "layout": layout, "text": text}


def _sicbo(rules: sb_rules.SicBoRules) -> dict[str, Any]:
    p = rules.paytables
    bets: list[dict[str, Any]] = [
        {"kind": "small", "payout": _odds(p.small), "values": [], "pay_rank": SB_PAYMENT_RANK[SbBet.SMALL]},
        {"kind": "big", "payout": _odds(p.big), "values": [], "pay_rank": SB_PAYMENT_RANK[SbBet.BIG]},
        {
            "kind": "total",
            "payout": {str(t): _odds(p.total[t]) for t in sb_rules.TOTALS},
            "values": list(sb_rules.TOTALS),
            "pay_rank": SB_PAYMENT_RANK[SbBet.TOTAL],
        },
        {
            "kind": "single",
            "payout": {str(i + 1): _odds(o) for i, o in enumerate(p.single)},
            "values": [1, 2, 3, 4, 5, 6],
            "pay_rank": SB_PAYMENT_RANK[SbBet.SINGLE],
        },
        {
            "kind": "any_triple",
            "payout": _odds(p.any_triple),
            "values": [],
            "pay_rank": SB_PAYMENT_RANK[SbBet.ANY_TRIPLE],
        },
        {
            "kind": "triple",
            "payout": _odds(p.triple),
            "values": [1, 2, 3, 4, 5, 6],
            "pay_rank": SB_PAYMENT_RANK[SbBet.TRIPLE],
        },
    ]
    placement = {"single": "face", "triple": "face", "total": "total"}
    for b in bets:
        b["placement"] = placement.get(b["kind"])
    text = [
        {"key": "sicbo.rule.dice", "params": {"dice": 3}, "rule": "SB 1"},
        {"key": "sicbo.rule.small", "params": {"low": 4, "high": 10}, "rule": "SB 5"},
        {"key": "sicbo.rule.big", "params": {"low": 11, "high": 17}, "rule": "SB 5"},
        {"key": "sicbo.rule.triples", "params": {}, "rule": "SB 7"},
        {"key": "sicbo.rule.single", "params": {}, "rule": "SB 6"},
        {"key": "sicbo.rule.void_roll", "params": {}, "rule": "SB 3.3"},
    ]
    return {"bets": bets, "layout": {"faces": [1, 2, 3, 4, 5, 6], "totals": list(sb_rules.TOTALS)}, "text": text}


def _blackjack(rules: bj_rules.BlackjackRules) -> dict[str, Any]:
    paytable = rules.paytables.as_document()
    names = {"over_13": "over_under_13", "under_13": "over_under_13"}
    fixed: dict[str, Any] = {"main": 1, "insurance": 2}  # BJ 9, BJ 12: even money, insurance 2 to 1
    offered = {s.value for s in rules.side_bets_offered}
    bets = [
        {"kind": kind, "payout": fixed.get(kind, paytable.get(names.get(kind, kind)))}
        for kind in bj_rules.BET_KINDS
        if kind in fixed or names.get(kind, kind) in offered
    ]
    options = [
        {"name": s.name, "value": s.value_in(rules), "rule": s.rule, "kind": s.kind_for(s.value_in(rules)).value}
        for s in rulesdoc.option_specs(type(rules))
        if s.name not in ("chip_unit", "min_bet", "max_bet", "paytables")  # those are the limits and the paytable
    ]
    text = [{**_option_text(str(o["name"]), o["value"]), "rule": o["rule"]} for o in options]
    side = {names.get(b["kind"], b["kind"]) for b in bets if b["kind"] not in fixed}
    offered_paytable = {kind: payout for kind, payout in paytable.items() if kind in side}
    if offered_paytable:
        text.append({"key": "blackjack.rule.paytables", "params": {"paytable": offered_paytable}, "rule": "BJ 14"})
    return {"bets": bets, "side_paytable": paytable, "boxes": rules.boxes, "options": options, "text": text}


# Blackjack options whose whole value is a choice: one catalogue sentence per value.
_CHOICE_OPTIONS = frozenset({"procedure", "box_control"})


def _option_text(name: str, value: Any) -> dict[str, Any]:
    """A blackjack option as a catalogue key and its parameters: ``blackjack.rule.<name>`` with ``{value}`` for a
    number or a list, ``.<choice>`` for a named choice, ``.yes``/``.no`` for a flag and ``.none`` for no value (no
    limit, or the statute's default)."""
    base = f"blackjack.rule.{name}"
    if value is None or value == []:
        return {"key": f"{base}.none", "params": {}}
    if isinstance(value, bool):
        return {"key": f"{base}.{'yes' if value else 'no'}", "params": {}}
    if isinstance(value, str) or name in _CHOICE_OPTIONS:
        return {"key": f"{base}.{value}", "params": {}}
    if name == "insurance_limit":
        return {"key": base, "params": {"percent": round(float(value) * 100)}}
    return {"key": base, "params": {"value": value}}


def rules_info(game: str, rules: Any) -> dict[str, Any]:
    """The table's rules for the page: ``bets`` (each kind with its payout, odds to 1), ``paytable`` (kind →
    payout), ``limits``, ``text`` (each rule as a catalogue key, its parameters and its rule id) and, for roulette
    and sic bo, the ``layout`` the bets are placed on; ``document`` is the rules document itself."""
    if game == "roulette":
        out = _roulette(rules)
    elif game == "sicbo":
        out = _sicbo(rules)
    else:
        out = _blackjack(rules)
    out.setdefault("paytable", {b["kind"]: b["payout"] for b in out["bets"]})
    out["limits"] = limits(game, rules)
    out["bets_rule"] = RULE_OF_BETS[game]
    out["odds_rule"] = RULE_OF_ODDS[game]
    out["document"] = rulesdoc.document(rules, effective=True)
    return out


def result_of(game: str, round_id: str, rnd: Any) -> dict[str, Any] | None:
    """A settled roulette or sic bo round's public result, classified (colour; big/small, odd/even, triple)."""
    s = getattr(rnd, "settlement", None)
    if s is None or game == "blackjack":
        return None
    if game == "roulette":
        pocket = int(s.outcome)
        return {
            "round": round_id,
            "pocket": pocket,
            "colour": wheel.colour(pocket).value,
            "parity": None if pocket == 0 else ("odd" if pocket in wheel.ODD else "even"),
            "half": None if pocket == 0 else ("low" if pocket in wheel.LOW else "high"),
        }
    d1, d2, d3 = (int(d) for d in s.outcome)
    dice = (d1, d2, d3)
    total = sum(dice)
    triple = is_triple(dice)
    size = "triple" if triple else ("small" if total <= 10 else "big")  # SB 5, SB 7
    return {
        "round": round_id,
        "dice": list(dice),
        "total": total,
        "size": size,
        "parity": "odd" if total % 2 else "even",
        "triple": triple,
    }


def _share(counter: Counter[str], keys: Iterable[str], n: int) -> dict[str, int]:
    """Whole percentages of ``n`` results."""
    return {k: (round(100 * counter[k] / n) if n else 0) for k in keys}


def history_stats(game: str, results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Counts over ``results``: roulette hot and cold numbers, colours, parity; sic bo sizes, parity, hot totals."""
    n = len(results)
    if game == "roulette":
        counts = Counter(int(r["pocket"]) for r in results)
        by_count = sorted(wheel.POCKETS, key=lambda p: (-counts[p], p))
        cold = sorted(wheel.POCKETS, key=lambda p: (counts[p], p))
        colours = Counter(str(r["colour"]) for r in results)
        parity = Counter(str(r["parity"]) for r in results if r["parity"])
        return {
            "count": n,
            "numbers": {str(p): counts[p] for p in wheel.POCKETS},
            "hot": [p for p in by_count if counts[p] > 0][:HOT],
            "cold": cold[:HOT],
            "colour_pct": _share(colours, ("red", "black", "green"), n),
            "parity_pct": _share(parity, ("odd", "even"), n),
        }
    if game == "sicbo":
        totals = Counter(int(r["total"]) for r in results)
        sizes = Counter(str(r["size"]) for r in results)
        parity = Counter(str(r["parity"]) for r in results)
        return {
            "count": n,
            "totals": {str(t): totals[t] for t in range(3, 19)},
            "hot_totals": [t for t in sorted(totals, key=lambda t: (-totals[t], t))][:HOT],
            "size_pct": _share(sizes, ("big", "small", "triple"), n),
            "parity_pct": _share(parity, ("odd", "even"), n),
        }
    return {"count": n}


def my_round(game: str, record: Any, player: str) -> dict[str, Any] | None:
    """One stored round as ``player`` may recall it: only the player's own stakes and nets, the public result."""
    data = record.data
    mine = [h for h in data.get("holds", []) if h.get("player") == player and h.get("status") != "pending"]
    if not mine:
        return None
    nets = data.get("nets") or {}
    bets = []
    for h in mine:
        bets.append(
            {
                "ref": h["ref"],
                "kind": h.get("kind", "bet"),
                "bet": h.get("bet") or {"action": h.get("action")},
                "amount": h["amount"],
                "net": nets.get(h["ref"]) if record.status == "settled" else None,
            }
        )
    outcome = data.get("outcome") or {}
    result: Any = None
    if game == "roulette":
        result = outcome.get("pocket")
    elif game == "sicbo":
        result = outcome.get("dice")
    settled = record.status == "settled"
    return {
        "round": record.round_id,
        "table": record.table_id,
        "game": game,
        "status": record.status,
        "opened_at": record.opened_at.isoformat(),
        "updated_at": record.updated_at.isoformat(),
        "result": result,
        "bets": bets,
        "staked": sum(b["amount"] for b in bets),
        "net": sum(b["net"] or 0 for b in bets) if settled else None,
    }
