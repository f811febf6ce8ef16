"""The total-dependent basic-strategy chart optimised for a shoe (issue 4): for each total, hard or soft,
against each up card, the decision that is best summed over the hand compositions the chart reaches; then
doubling, surrender, splits, the five-card claim and even money, all valued by the exact combinatorial
analysis (:mod:`croupier.analysis.ca`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from croupier.analysis.ca import Analyser, IntArray, _hand_table, _UpCard
from croupier.analysis.chart import DOUBLE_HIT, DOUBLE_STAND, HIT, Chart
from croupier.blackjack.rules import BlackjackRules


def _stand_values(uc: _UpCard, totals: IntArray) -> npt.NDArray[np.float64]:
    """The value of standing for every hand of the table (normal stakes), from ``uc``'s dealer outcomes."""
    d = uc.d_all
    out = d[:, 5].copy()
    for o in range(5):
        out += d[:, o] * np.sign(totals - (17 + o))
    if not uc.peek:
        out -= d[:, 6]
    return np.asarray(out, dtype=np.float64)


def basic_strategy(rules: BlackjackRules, shoe: Sequence[int] | None = None, analyser: Analyser | None = None) -> Chart:
    """The total-dependent chart optimised for the shoe: for each total (hard or soft) against each up card,
    the decision that is best summed over every hand composition with that total, each weighted by how often
    the chart itself reaches it (two passes); then doubling, surrender, splitting, the five-card claim and even
    money on the box's first two cards."""
    an = analyser if analyser is not None else Analyser(rules, shoe)
    t = an.terms
    table = _hand_table()
    hard_tab = np.zeros((22, 11), np.int8)
    soft_tab = np.zeros((22, 11), np.int8)
    split = np.zeros((11, 11), np.bool_)
    sur_hard = np.zeros((22, 11), np.bool_)
    sur_soft = np.zeros((22, 11), np.bool_)
    sur_pair = np.zeros((11, 11), np.bool_)
    five = np.zeros(11, np.int8)
    even = np.zeros(11, np.bool_)
    soft_mask = table.ace & (table.hard <= 11)
    totals = np.where(soft_mask, table.hard + 10, table.hard)
    for up in range(1, 11):
        if an.shoe[up - 1] == 0:
            continue
        uc = an.up(up)
        r = uc.base[None, :] - table.hc
        left = r.sum(axis=1)
        valid = (r >= 0).all(axis=1) & (left >= 2) & (table.ncards >= 2)
        safe = np.where(left > 0, left, 1)
        pv = np.where(valid[:, None], r / safe[:, None], 0.0)
        if uc.x >= 0:
            qb = (r[:, uc.x][:, None] - (np.arange(10) == uc.x)[None, :]) / np.where(left > 1, left - 1, 1)[:, None]
            q_here = r[:, uc.x] / safe
        else:
            qb = np.zeros((len(left), 10))
            q_here = np.zeros(len(left))
        bust = -(1 - qb) if uc.peek else -np.ones_like(qb)
        claim = 0.5 * (1 - q_here) if uc.peek else 0.5 * np.ones_like(q_here)
        stand = _stand_values(uc, totals)
        two = valid & (table.ncards == 2)
        n_left = int(uc.base.sum())
        deal = np.zeros(len(left))
        for h in np.flatnonzero(two):
            a, b = [v + 1 for v in range(10) for _ in range(table.hc[h, v])]
            ways = uc.base[a - 1] * (uc.base[a - 1] - 1) if a == b else 2 * uc.base[a - 1] * uc.base[b - 1]
            deal[h] = ways / (n_left * (n_left - 1))
        active = two.astype(float)
        hits = valid.copy()  # the first pass weights hands as if the player always hit
        for _ in range(2):
            reach = deal * active
            for h in table.order_asc:
                if hits[h] and reach[h] > 0 and totals[h] < 21:
                    ch = table.child[h]
                    ok = ch >= 0
                    reach[ch[ok]] += reach[h] * pv[h, ok]
            val = np.zeros(len(left))
            claim_pref = np.zeros(22, np.bool_)
            for is_soft in (False, True):
                for total in range(21, 3, -1):
                    members = valid & (totals == total) & (soft_mask == is_soft)
                    if not members.any():
                        continue
                    ch = table.child[members]
                    cv = np.where(ch >= 0, val[np.where(ch >= 0, ch, 0)], bust[members])
                    hit = (pv[members] * cv).sum(axis=1)
                    w = reach[members]
                    do_hit = total < 21 and float((w * (hit - stand[members])).sum()) > 0
                    if w.sum() == 0 and total < 21:
                        do_hit = float((hit - stand[members]).sum()) > 0
                    chosen = hit if do_hit else stand[members]
                    (soft_tab if is_soft else hard_tab)[total, up] = HIT if do_hit else 0
                    five_m = table.ncards[members] == 5
                    if uc.claim_ok and five_m.any():
                        gain = float((w[five_m] * (claim[members][five_m] - chosen[five_m])).sum())
                        if gain > 0 or (w[five_m].sum() == 0 and (claim[members][five_m] > chosen[five_m]).all()):
                            claim_pref[total] = True
                            chosen = np.where(five_m, claim[members], chosen)
                    val[members] = chosen
                    hits[members] = do_hit
            # the first two cards: double, surrender, split, with the values of the table above
            provisional = Chart(hard=hard_tab, soft=soft_tab, split=split, five_card=five)
            plan, values = an.chart_plan(uc, provisional)
            split_values: dict[tuple[int, float | None], float] = {}
            for a in range(1, 11):
                for b in range(a, 11):
                    if (a, b, 0) not in values or (a, b) == (1, 10):
                        continue
                    h2 = table.of((a, b))
                    total, is_soft = int(totals[h2]), bool(soft_mask[h2])
                    options = an.first_options(uc, plan, values, (a, b), splits=split_values)
                    played = options["hit"] if hits[h2] else options["stand"]
                    options_gain = {name: v - played for name, v in options.items()}
                    if a == b:
                        split[a, up] = options_gain.get("split", -1.0) > 0
                        sur_pair[a, up] = options_gain.get("surrender", -1.0) > max(
                            0.0, options_gain.get("split", -1.0)
                        )
                        if split[a, up] or sur_pair[a, up]:
                            continue
                    else:
                        surrender = options_gain.get("surrender", -1.0) > max(0.0, options_gain.get("double", -1.0))
                        (sur_soft if is_soft else sur_hard)[total, up] = surrender
                        if surrender:
                            continue
            # doubling, summed over every two-card hand of a total that reaches the table entry
            for is_soft in (False, True):
                for total in range(4, 22):
                    gain = 0.0
                    seen = False
                    for a in range(1, 11):
                        for b in range(a, 11):
                            if (a, b, 0) not in values or (a, b) == (1, 10):
                                continue
                            h2 = table.of((a, b))
                            if int(totals[h2]) != total or bool(soft_mask[h2]) != is_soft:
                                continue
                            if (a == b and (split[a, up] or sur_pair[a, up])) or (
                                a != b and (sur_soft if is_soft else sur_hard)[total, up]
                            ):
                                continue
                            options = an.first_options(uc, plan, values, (a, b), splits=split_values)
                            if "double" not in options:
                                continue
                            seen = True
                            played = options["hit"] if hits[h2] else options["stand"]
                            gain += deal[h2] * (options["double"] - played)
                    tab = soft_tab if is_soft else hard_tab
                    if seen and gain > 0:
                        tab[total, up] = DOUBLE_HIT if tab[total, up] == HIT else DOUBLE_STAND
            # hands that double, split or surrender at two cards do not weigh on the hit/stand table
            for h in np.flatnonzero(two):
                a, b = [v + 1 for v in range(10) for _ in range(table.hc[h, v])]
                code = (soft_tab if soft_mask[h] else hard_tab)[totals[h], up]
                gone = (a == b and (split[a, up] or sur_pair[a, up])) or (
                    a != b and (sur_soft if soft_mask[h] else sur_hard)[totals[h], up]
                )
                active[h] = 0.0 if gone or code in (DOUBLE_HIT, DOUBLE_STAND) else 1.0
        claims = [total for total in range(22) if claim_pref[total]]
        five[up] = max(claims) if claims else 0
        if up == 1 or (up == 10 and t.even_money_ten):
            r_bj = uc.base.copy()
            r_bj[0] -= 1
            r_bj[9] -= 1
            q = uc.q(r_bj)
            even[up] = 1.5 * (1 - q) < 1.0
    return Chart(
        hard=hard_tab,
        soft=soft_tab,
        split=split,
        surrender_hard=sur_hard,
        surrender_soft=sur_soft,
        surrender_pair=sur_pair,
        five_card=five,
        even_money=even,
    )
