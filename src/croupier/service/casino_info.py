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
from fractions import Fraction
from typing import TYPE_CHECKING, TypeAlias, cast

from croupier import rulesdoc
from croupier.blackjack import rules as bj_rules
from croupier.blackjack import settlement as bj_pays
from croupier.games import RuleIds
from croupier.primitives import wheel
from croupier.primitives.dice import is_triple
from croupier.roulette import rules as ro_rules
from croupier.roulette.bets import PAYMENT_RANK as RO_PAYMENT_RANK
from croupier.roulette.bets import BetType as RoBet
from croupier.service.round_state import BetHold, JsonObject
from croupier.sicbo import rules as sb_rules
from croupier.sicbo.bets import PAYMENT_RANK as SB_PAYMENT_RANK
from croupier.sicbo.bets import BetType as SbBet

if TYPE_CHECKING:
    from croupier.service.casino_records import RoundRecord

Limited: TypeAlias = ro_rules.RouletteRules | sb_rules.SicBoRules | bj_rules.BlackjackRules

HOT = 5


def _min_stake(rules: Limited, kind: str) -> int:
    if isinstance(rules, bj_rules.BlackjackRules):
        return rules.min_stake(kind)
    return rules.min_bet.for_type(kind)


def limits(rules: Limited, kinds: Iterable[str]) -> JsonObject:
    """The table's stake limits: the chip unit and, for every bet kind, its minimum and maximum stake."""
    return {
        "chip_unit": rules.chip_unit,
        "bets": {k: {"min": _min_stake(rules, k), "max": rules.max_bet.for_type(k)} for k in kinds},
    }


def _odds(value: Fraction) -> int | str:
    return rulesdoc.dump_odds(value)


def roulette_rules(rules: ro_rules.RouletteRules) -> JsonObject:
    """Roulette's bets, layout and rule sentences for the page."""
    bets = []
    for kind in ro_rules.BET_IDS:
        entry: JsonObject = {
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


def sicbo_rules(rules: sb_rules.SicBoRules) -> JsonObject:
    """Sic bo's bets, layout and rule sentences for the page."""
    p = rules.paytables
    bets: list[JsonObject] = [
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
        b["placement"] = placement.get(str(b["kind"]))
    text = [
        {"key": "sicbo.rule.dice", "params": {"dice": 3}, "rule": "SB 1"},
        {"key": "sicbo.rule.small", "params": {"low": 4, "high": 10}, "rule": "SB 5"},
        {"key": "sicbo.rule.big", "params": {"low": 11, "high": 17}, "rule": "SB 5"},
        {"key": "sicbo.rule.triples", "params": {}, "rule": "SB 7"},
        {"key": "sicbo.rule.single", "params": {}, "rule": "SB 6"},
        {"key": "sicbo.rule.void_roll", "params": {}, "rule": "SB 3.3"},
    ]
    return {"bets": bets, "layout": {"faces": [1, 2, 3, 4, 5, 6], "totals": list(sb_rules.TOTALS)}, "text": text}


# The main game's payments at fixed odds are the engine's (croupier.blackjack.settlement, which pays them): a
# blackjack 3 to 2 (BJ 10.2), five cards of 21 or less half the bet at once (BJ 19.1), a suited 6-7-8 or three 7s
# three times the bet at once (BJ 15); the main bet pays even money (BJ 9) and insurance 2 to 1 (BJ 12).


def _option_applies(name: str, rules: bj_rules.BlackjackRules) -> bool:
    """Whether a blackjack option says anything at this table: an option of a dealing device, a procedure or a side
    bet the table does not use is left out of the rules the players read (it stays in ``options`` and the
    document)."""
    shoe = rules.dealing_device is bj_rules.DealingDevice.SHOE
    offered = rules.side_bets_offered
    applies = {
        "cards_behind_cut": shoe,  # BJ 2.1: a shuffler and a dealing box have no cut card
        "burn_each_round": rules.dealing_device is not bj_rules.DealingDevice.DEALING_BOX,  # BJ 4.2
        "burn_before_dealer_second_card": not rules.has_hole_card,  # BJ 4.2: procedures 1 and 2, shoe or shuffler
        "peek": rules.procedure == 3,  # BJ 5.2: only procedure 3 has a hole card to check
        # BJ 10.7, 16.6: a dealer blackjack found after the players doubled or split (no peek)
        "lose_original_only_on_double": not rules.dealer_peeks,
        "busted_stakes_on_dealer_blackjack": not rules.dealer_peeks,
        "one_side_bet_per_box": len(offered) > 1,  # BJ 13
        "any_pair_after_split": bj_rules.SideBet.ANY_PAIR in offered,  # BJ 13.1
        "sevens_third_card": bj_rules.SideBet.SEVENS in offered,  # BJ 13.2
        "sevens_mixed_triple": bj_rules.SideBet.SEVENS in offered,  # BJ 14.2
    }
    return applies.get(name, True)


def blackjack_rules(rules: bj_rules.BlackjackRules) -> JsonObject:
    """Blackjack's bets, side-bet paytable, boxes, options and rule sentences for the page: the sentences only of the
    options that apply at this table, and a paytable with the main game's payments (a blackjack 3 to 2, and the five
    cards and the special bonus where the table pays them) besides each offered bet's payout."""
    paytable = rules.paytables.as_document()
    names = {"over_13": "over_under_13", "under_13": "over_under_13"}
    fixed: dict[str, object] = {"main": _odds(bj_pays.MAIN_PAYS), "insurance": _odds(bj_pays.INSURANCE_PAYS)}
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
    text = [
        {**_option_text(str(o["name"]), o["value"]), "rule": o["rule"]}
        for o in options
        if _option_applies(str(o["name"]), rules)
    ]
    side = {names.get(str(b["kind"]), str(b["kind"])) for b in bets if b["kind"] not in fixed}
    offered_paytable = {kind: payout for kind, payout in paytable.items() if kind in side}
    if offered_paytable:
        text.append({"key": "blackjack.rule.paytables", "params": {"paytable": offered_paytable}, "rule": "BJ 14"})
    pays: dict[str, object] = {str(b["kind"]): b["payout"] for b in bets}
    pays["blackjack"] = _odds(bj_pays.BLACKJACK_PAYS)
    if rules.five_card_payment:
        pays["five_card"] = _odds(bj_pays.FIVE_CARD_PAYS)
    if rules.special_bonus:
        pays["special_bonus"] = _odds(bj_pays.SPECIAL_BONUS_PAYS)
    return {
        "bets": bets,
        "paytable": pays,
        "side_paytable": paytable,
        "boxes": rules.boxes,
        "options": options,
        "text": text,
    }


# Blackjack options whose whole value is a choice: one catalogue sentence per value.
_CHOICE_OPTIONS = frozenset({"procedure", "box_control"})


def _option_text(name: str, value: object) -> JsonObject:
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
        return {"key": base, "params": {"percent": round(float(value) * 100)}}  # type: ignore[arg-type]
    return {"key": base, "params": {"value": value}}


def compose_rules_info(game_info: JsonObject, rules: Limited, kinds: Iterable[str], ids: RuleIds) -> JsonObject:
    """The table's rules for the page: a game's ``bets`` (each kind with its payout, odds to 1), ``text`` (each rule
    as a catalogue key, its parameters and its rule id) and, for roulette and sic bo, the ``layout`` the bets are
    placed on (``game_info``), with ``paytable`` (kind → payout; blackjack's also names the main game's payments
    ``blackjack``, ``five_card`` and ``special_bonus`` where they apply), ``limits`` and ``document`` (the rules
    document itself) added."""
    out = dict(game_info)
    bets = cast("list[JsonObject]", out["bets"])
    out.setdefault("paytable", {str(b["kind"]): b["payout"] for b in bets})
    out["limits"] = limits(rules, kinds)
    out["bets_rule"] = ids.bets
    out["odds_rule"] = ids.odds
    out["document"] = rulesdoc.document(rules, effective=True)
    return out


def roulette_result(round_id: str, pocket: int) -> JsonObject:
    """A settled roulette round's public result, classified (colour, parity, half)."""
    return {
        "round": round_id,
        "pocket": pocket,
        "colour": wheel.colour(pocket).value,
        "parity": None if pocket == 0 else ("odd" if pocket in wheel.ODD else "even"),
        "half": None if pocket == 0 else ("low" if pocket in wheel.LOW else "high"),
    }


def sicbo_result(round_id: str, dice: tuple[int, int, int]) -> JsonObject:
    """A settled sic bo round's public result, classified (big/small, odd/even, triple)."""
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


def roulette_stats(results: Sequence[Mapping[str, object]]) -> JsonObject:
    """Counts over roulette results: each number's count, the hot and cold numbers, and in whole percent of the
    spins the colours, parity, halves, dozens and columns (zero belongs to none of the last four, RO 8)."""
    n = len(results)
    pockets = [cast(int, r["pocket"]) for r in results]
    counts = Counter(pockets)
    by_count = sorted(wheel.POCKETS, key=lambda p: (-counts[p], p))
    cold = sorted(wheel.POCKETS, key=lambda p: (counts[p], p))
    colours = Counter(str(r["colour"]) for r in results)
    parity = Counter(str(r["parity"]) for r in results if r["parity"])
    halves = Counter(str(r["half"]) for r in results if r["half"])
    dozens = Counter(str(i) for p in pockets for i, s in enumerate(wheel.DOZENS, 1) if p in s)
    columns = Counter(str(i) for p in pockets for i, s in enumerate(wheel.COLUMNS, 1) if p in s)
    thirds = ("1", "2", "3")
    return {
        "count": n,
        "numbers": {str(p): counts[p] for p in wheel.POCKETS},
        "hot": [p for p in by_count if counts[p] > 0][:HOT],
        "cold": cold[:HOT],
        "colour_pct": _share(colours, ("red", "black", "green"), n),
        "parity_pct": _share(parity, ("odd", "even"), n),
        "half_pct": _share(halves, ("low", "high"), n),
        "dozen_pct": _share(dozens, thirds, n),
        "column_pct": _share(columns, thirds, n),
    }


ROAD_ROWS = 6
"""The rows of a bead road (a Macau result display): results fill a column top to bottom, then the next column."""


def _road(results: Sequence[Mapping[str, object]], key: str) -> list[list[JsonObject]]:
    """A bead road of ``results`` (given newest first) by their ``key`` (``size`` or ``parity``): columns of
    :data:`ROAD_ROWS` cells, the oldest result first; each cell names its round, its value, the total and whether
    the dice were a triple (the display marks them)."""
    cells: list[JsonObject] = [
        {"round": r["round"], "value": r[key], "total": r["total"], "triple": r["triple"]} for r in reversed(results)
    ]
    return [cells[i : i + ROAD_ROWS] for i in range(0, len(cells), ROAD_ROWS)]


def sicbo_stats(results: Sequence[Mapping[str, object]]) -> JsonObject:
    """Counts over sic bo results: each total's, the hot totals, the triples, sizes and parity in whole percent,
    and the big/small and odd/even bead roads."""
    n = len(results)
    totals = Counter(cast(int, r["total"]) for r in results)
    sizes = Counter(str(r["size"]) for r in results)
    parity = Counter(str(r["parity"]) for r in results)
    return {
        "count": n,
        "totals": {str(t): totals[t] for t in range(3, 19)},
        "hot_totals": [t for t in sorted(totals, key=lambda t: (-totals[t], t))][:HOT],
        "triples": sum(1 for r in results if r["triple"]),
        "size_pct": _share(sizes, ("big", "small", "triple"), n),
        "parity_pct": _share(parity, ("odd", "even"), n),
        "road_rows": ROAD_ROWS,
        "size_road": _road(results, "size"),
        "parity_road": _road(results, "parity"),
    }


def my_round(game: str, record: RoundRecord, player: str, result: object) -> JsonObject | None:
    """One stored round as ``player`` may recall it: only the player's own stakes and nets, the public ``result``."""
    state = record.state
    mine = [h for h in state.holds if h.player == player and h.status != "pending"]
    if not mine:
        return None
    nets = state.nets or {}
    settled = record.status == "settled"
    bets: list[JsonObject] = [
        {
            "ref": h.ref,
            "kind": h.kind,
            "bet": h.bet if isinstance(h, BetHold) else {"action": h.action},
            "amount": h.amount,
            "net": nets.get(h.ref) if settled else None,
        }
        for h in mine
    ]
    return {
        "round": record.round_id,
        "table": record.table_id,
        "game": game,
        "status": record.status,
        "opened_at": record.opened_at.isoformat(),
        "updated_at": record.updated_at.isoformat(),
        "result": result,
        "bets": bets,
        "staked": sum(h.amount for h in mine),
        "net": sum(nets.get(h.ref) or 0 for h in mine) if settled else None,
    }
