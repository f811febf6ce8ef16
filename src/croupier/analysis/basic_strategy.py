"""The optimal total-dependent basic-strategy chart for a shoe (issue 16).

A chart (:class:`~croupier.analysis.chart.Chart`) has one entry per cell: a play code for each hard and soft
total against each up card, a split, a surrender flag for each total and pair, the largest total at which the
five-card payment is claimed, even money. The chart found here is **optimal against single-cell changes**: no
change of any one cell raises the round's exact expected value (:mod:`croupier.analysis.ca`).

How it is found
---------------
The up cards are independent columns. For a column, one exact pass gives the gain of every single-cell change
at once (:func:`column_gains`): a hand path meets a given total (hard, or soft) at most once, since totals only
grow while a hand stays hard or soft, so changing one entry changes the round's value by the sum, over every
hand the entry decides, of the chance of reaching that hand times the change in its value, the later hands
played as before. The chances of reaching each hand are carried forward from the box's first two cards and,
for a split, from each split hand with its weight in the split's exact sum (:meth:`Analyser.split_weights`,
whose inclusion-exclusion weights may be negative; the sum is still linear). The optimiser is coordinate
ascent: take every entry's best gaining change at once while that raises the column's value, else the single
change of largest gain; recompute; stop when no change gains (:data:`TOLERANCE`). It starts from the chart
of the composition-dependent decisions, each cell as decided for the likeliest two-card hand it covers
(:func:`_cd_start`); the tests check that it ends at least as high as the same ascent started from the
textbook chart (:func:`textbook_chart`).

Two kinds: ``"total"`` (one hit/stand entry per total for every hand, the printable basic strategy) and
``"cards"`` (hands of three or more cards have entries of their own, which is what the five-card payment of
BJ 19 rewards).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from croupier.analysis import _ca_kernels as k
from croupier.analysis.ca import EV, Analyser, _hand_table, _UpCard, _variants
from croupier.analysis.chart import DOUBLE_HIT, DOUBLE_STAND, HIT, STAND, Chart, _hand
from croupier.blackjack.rules import BlackjackRules
from croupier.errors import InvalidRules

ChartKind = Literal["total", "cards"]
KINDS: tuple[ChartKind, ...] = ("total", "cards")

Cell = tuple[str, int, int]
"""(table, row, value): set ``table[row, up] = value`` (``five_card`` and ``even_money`` have row 0)."""

TOLERANCE = 1e-14
"""A change is taken only if it gains more than this (per unit of the initial bet, given the up card)."""

_CODES = (STAND, HIT, DOUBLE_HIT, DOUBLE_STAND)
_MAX_STEPS = 400
Floats = npt.NDArray[np.float64]


def _code_value(options: dict[str, float], code: int) -> float:
    """What the first two cards get from a play code, given the values of what the rules allow."""
    if code == STAND:
        return options["stand"]
    if code == HIT:
        return options["hit"]
    if code == DOUBLE_HIT:
        return options.get("double", options["hit"])
    return options.get("double", options["stand"])


def _totals() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    table = _hand_table()
    soft = table.ace & (table.hard <= 11)
    return np.where(soft, table.hard + 10, table.hard), soft


class _Column:
    """The exact value of one up card's column of a chart, and the gain of every single-cell change."""

    def __init__(self, an: Analyser, uc: _UpCard, chart: Chart) -> None:
        self.an = an
        self.uc = uc
        self.chart = chart
        self.up = uc.up
        self.table = _hand_table()
        self.totals, self.soft = _totals()
        self.gains: defaultdict[Cell, float] = defaultdict(float)
        self.plan, self.values = an.chart_plan(uc, chart, full=True)
        self.ev = 0.0

    # -- hands of three or more cards -------------------------------------------------------------------------

    def _more(self, base: npt.NDArray[np.int64], reach: Floats, values: tuple[Floats, Floats, Floats, Floats]) -> None:
        """Add the gains of the cells that decide hands of three or more cards reached with chance ``reach``;
        ``values``: what each hand gets played by the chart, standing, hitting and claiming."""
        val, stand, hit, claim = values
        t = self.table
        k.forward_reach(t.arrays, base, self.plan.dec, reach)
        idx = np.flatnonzero((reach != 0.0) & (t.ncards >= 3))
        if idx.size == 0:
            return
        chart, up = self.chart, self.up
        tot, soft, cards, w = self.totals[idx], self.soft[idx], t.ncards[idx], reach[idx]
        v, s, h, c = val[idx], stand[idx], hit[idx], claim[idx]
        claim_ok = self.uc.claim_ok
        five = cards == 5
        claiming = five & (tot <= chart.five_card[up]) if claim_ok else np.zeros(idx.size, np.bool_)
        free = ~claiming & (tot < 21) & np.isfinite(h)
        keys = np.where(soft, 22, 0) + tot
        names = ("soft_multi", "hard_multi") if chart.by_cards else ("soft", "hard")
        codes = (STAND, HIT) if chart.by_cards else _CODES
        for code in codes:
            alt = h if code in (HIT, DOUBLE_HIT) else s
            delta = np.where(free, w * (alt - v), 0.0)
            sums = np.bincount(keys, weights=delta, minlength=44)
            for key in np.flatnonzero(np.bincount(keys, weights=free.astype(float), minlength=44)):
                current = chart.play_code(int(key % 22), bool(key >= 22), 3, up)
                if code != current:
                    self.gains[(names[0] if key >= 22 else names[1], int(key % 22), code)] += float(sums[key])
        if claim_ok and five.any():
            hard_col, soft_col = (
                (chart.hard_multi[:, up], chart.soft_multi[:, up])
                if chart.hard_multi is not None and chart.soft_multi is not None
                else (chart.hard[:, up], chart.soft[:, up])
            )
            acts = np.where(soft, soft_col[tot], hard_col[tot])
            hits = np.isin(acts, (HIT, DOUBLE_HIT)) & (tot < 21) & np.isfinite(h)
            unclaimed = np.where(claiming, np.where(hits, h, s), v)
            for limit in [0, *range(5, 22)]:
                if limit == chart.five_card[up]:
                    continue
                new = np.where(tot <= limit, c, unclaimed)
                self.gains[("five_card", 0, limit)] += float(np.where(five, w * (new - v), 0.0).sum())

    def _roots(
        self, reach: Floats, base: npt.NDArray[np.int64], h2: int, weight: float, cards: tuple[int, int]
    ) -> None:
        """Carry ``weight``, the chance of hitting the two-card hand ``h2``, to the three-card hands."""
        t = self.table
        r = base - t.hc[h2]
        left = int(r.sum())
        if left < 1:
            return
        for chance, bonus_v, share in _variants(cards, self.an.terms):
            for v in range(10):
                c = int(t.child[h2, v])
                if r[v] > 0 and c >= 0:
                    keep = 1.0 - share if v == bonus_v else 1.0
                    reach[c] += weight * chance * keep * r[v] / left

    def _code_cells(self, cards: tuple[int, int], options: dict[str, float], chosen: float, weight: float) -> None:
        total, soft = _hand(list(cards))
        current = int((self.chart.soft if soft else self.chart.hard)[total, self.up])
        for code in _CODES:
            if code != current:
                self.gains[("soft" if soft else "hard", total, code)] += weight * (_code_value(options, code) - chosen)

    # -- splits -------------------------------------------------------------------------------------------------

    def split(self, pair: int, pair_cards: float | None) -> tuple[float, dict[Cell, float]]:
        """The exact value of splitting ``pair`` played by the chart, and the gains of the cells deciding the
        split hands (per unit of the chance of the split)."""
        uc = self.uc
        chart, up = self.chart, self.up
        codes = [chart.hard[:, up], chart.soft[:, up], chart.five_card[up : up + 1]]
        if chart.hard_multi is not None and chart.soft_multi is not None:
            codes += [chart.hard_multi[:, up], chart.soft_multi[:, up]]
        memo_key = ("split", pair, pair_cards, b"".join(c.tobytes() for c in codes))
        if memo_key in uc.memo:  # the split hands are played by the same cells
            return uc.memo[memo_key]  # type: ignore[return-value]
        uc.memo[memo_key] = found = self._split(pair, pair_cards)
        return found

    def _split(self, pair: int, pair_cards: float | None) -> tuple[float, dict[Cell, float]]:
        an, uc, t = self.an, self.uc, self.table
        parts = an.split_weights(uc, pair, pair_cards)
        if not parts:
            return -np.inf, {}
        saved, self.gains = self.gains, defaultdict(float)
        roots = np.array([t.of((pair, other)) for other in range(1, 11)], np.int64)
        needed, wanted = k.mark_needed(t.arrays, self.plan.dec, roots)
        total = an.split_blackjack(uc, pair)
        for n, (base, weights) in enumerate(parts):
            shoe = (base, pair - 1, n + 1)
            if pair != 1:
                values = uc.context(shoe, EV, (EV.split_b, EV.split_b), dec=self.plan.dec, mask=needed, want=wanted)
            else:  # split aces take one card each
                values = (np.zeros(len(t.hc)),) * 4
            jobs = [
                (o, variant) for o in range(10) if weights[o] != 0.0 for variant in _variants((pair, o + 1), an.terms)
            ]
            rows = uc.two_card_many(
                shoe, [(t.of((pair, o + 1)), variant) for o, variant in jobs], values[0], split_hand=True
            )
            reach = np.zeros(len(t.hc))
            for o in range(10):
                weight = weights[o]
                if weight == 0.0:
                    continue
                cards = (pair, o + 1)
                options = {"stand": 0.0, "hit": 0.0}
                may_double = an._may_double_split(*cards)
                for (o2, variant), (s, h, d) in zip(jobs, rows, strict=True):
                    if o2 == o:
                        options["stand"] += variant[0] * s
                        options["hit"] += variant[0] * h
                        if may_double:
                            options["double"] = options.get("double", 0.0) + variant[0] * d
                decision = k.D_STAND if pair == 1 else self.plan.roots[(pair, o + 1, 0)]
                name = {k.D_STAND: "stand", k.D_HIT: "hit", k.D_DOUBLE: "double"}[decision]
                total += weight * options[name]
                if pair != 1:
                    self._code_cells(cards, options, options[name], weight)
                    if decision == k.D_HIT:
                        self._roots(reach, base, t.of(cards), weight, cards)
            if pair != 1:
                self._more(base, reach, values)
        gains, self.gains = dict(self.gains), saved
        return float(total), gains

    # -- the column -------------------------------------------------------------------------------------------------

    def run(self) -> None:
        an, uc, chart, up, t = self.an, self.uc, self.chart, self.up, self.table
        plan = self.plan
        assert plan.stand is not None and plan.hit is not None and plan.claim is not None
        base = uc.base
        left = int(base.sum())
        split_info: dict[tuple[int, float | None], tuple[float, dict[Cell, float]]] = {}
        splits: dict[tuple[int, float | None], float] = {}
        reach = np.zeros(len(t.hc))
        for a in range(1, 11):
            for b in range(a, 11):
                if (a, b, 0) not in self.values:
                    continue
                ways = base[a - 1] * (base[a - 1] - 1) if a == b else 2 * base[a - 1] * base[b - 1]
                prob = ways / (left * (left - 1))
                if prob == 0:
                    continue
                for case, allow, pair_cards in an.ten_pair_cases(a, b, up):
                    w = prob * case
                    key = self._split_key(a, pair_cards)
                    if a == b and allow and base[a - 1] >= 2 and key not in split_info:
                        split_info[key] = self.split(a, key[1])
                        splits[key] = split_info[key][0]
                    options = an.first_options(
                        uc, plan, self.values, (a, b), splits=splits, allow_split=allow, pair_cards=pair_cards
                    )
                    choice = an._choose(uc, chart, a, b, options)
                    self.ev += w * options[choice]
                    self._first_cells((a, b), options, choice, w)
                    if choice == "split":
                        for cell, gain in split_info[key][1].items():
                            self.gains[cell] += w * gain
                    elif choice == "hit":
                        self._roots(reach, base, t.of((a, b)), w, (a, b))
        self._more(base, reach, (plan.cont, plan.stand, plan.hit, plan.claim))

    def _split_key(self, pair: int, pair_cards: float | None) -> tuple[int, float | None]:
        """The key :meth:`Analyser.first_options` caches a split's value under."""
        if pair == 10 and self.an.terms.by_rank and pair_cards is None:
            return pair, self.an.shoe[9] / 4 - 2
        return pair, pair_cards

    def _first_cells(self, cards: tuple[int, int], options: dict[str, float], choice: str, w: float) -> None:
        """The gains of the cells that decide the box's first two cards."""
        chart, up = self.chart, self.up
        a, b = cards
        chosen = options[choice]
        if cards == (1, 10):
            if "even_money" in options:
                other = "keep" if choice == "even_money" else "even_money"
                self.gains[("even_money", 0, int(other == "even_money"))] += w * (options[other] - chosen)
            return
        total, soft = _hand([a, b])
        code = int((chart.soft if soft else chart.hard)[total, up])
        played = _code_value(options, code)
        if choice not in ("surrender", "split"):
            self._code_cells(cards, options, chosen, w)
        splitting = "split" in options and bool(chart.split[a, up])
        if "surrender" in options:
            if a == b:
                name, row, flag = "surrender_pair", a, bool(chart.surrender_pair[a, up])
            else:
                name, row = ("surrender_soft" if soft else "surrender_hard"), total
                flag = bool((chart.surrender_soft if soft else chart.surrender_hard)[total, up])
            without = options["split"] if splitting else played
            self.gains[(name, row, int(not flag))] += w * ((without if flag else options["surrender"]) - chosen)
        if "split" in options and choice != "surrender":
            self.gains[("split", a, int(not splitting))] += w * ((played if splitting else options["split"]) - chosen)


def column_gains(an: Analyser, up: int, chart: Chart) -> tuple[float, dict[Cell, float]]:
    """The exact value of ``chart`` against the up card ``up`` (as :meth:`Analyser.up_card`, insurance
    declined) and the exact gain of every single-cell change of its column that changes a reached hand."""
    column = _Column(an, an.up(up), chart)
    column.run()
    return column.ev, dict(column.gains)


def apply(chart: Chart, up: int, cell: Cell) -> None:
    """Set one cell of ``chart``'s column ``up`` (in place)."""
    name, row, value = cell
    table = getattr(chart, name)
    if name in ("five_card", "even_money"):
        table[up] = value
    else:
        table[row, up] = value


def _copy(chart: Chart) -> Chart:
    tables: dict[str, Any] = {
        name: (None if getattr(chart, name) is None else getattr(chart, name).copy())
        for name in (
            "hard", "soft", "split", "surrender_hard", "surrender_soft", "surrender_pair", "five_card", "even_money",
            "hard_multi", "soft_multi",
        )
    }  # fmt: skip
    return replace(chart, **tables)


def _best_per_entry(gains: dict[Cell, float]) -> list[tuple[Cell, float]]:
    """For each entry (table, row), its change of largest gain above :data:`TOLERANCE`, largest first."""
    best: dict[tuple[str, int], tuple[Cell, float]] = {}
    for cell, gain in gains.items():
        entry = cell[:2]
        if gain > TOLERANCE and (entry not in best or gain > best[entry][1]):
            best[entry] = (cell, gain)
    return sorted(best.values(), key=lambda item: -item[1])


def ascend(an: Analyser, chart: Chart, ups: Sequence[int] | None = None) -> Chart:
    """Coordinate ascent from ``chart`` (copied), column by column: take every entry's best gaining change at
    once while that raises the column's exact value, else the single change of largest gain; stop when no
    single-cell change gains more than :data:`TOLERANCE`."""
    out = _copy(chart)
    columns = [up for up in (ups if ups is not None else range(1, 11)) if an.shoe[up - 1] > 0]
    an.per_up_card(lambda up: _ascend_column(an, out, up), columns)
    return out


def _ascend_column(an: Analyser, out: Chart, up: int) -> None:
    ev, gains = column_gains(an, up, out)
    for _ in range(_MAX_STEPS):
        moves = _best_per_entry(gains)
        if not moves:
            return
        if len(moves) > 1:
            undo = [(cell[0], cell[1], _value(out, up, cell)) for cell, _ in moves]
            for cell, _ in moves:
                apply(out, up, cell)
            new_ev, new_gains = column_gains(an, up, out)
            if new_ev > ev + TOLERANCE:
                ev, gains = new_ev, new_gains
                continue
            for cell in undo:
                apply(out, up, cell)
        apply(out, up, moves[0][0])
        ev, gains = column_gains(an, up, out)
    raise RuntimeError(f"the chart did not settle against up card {up}")  # pragma: no cover - values only rise


def _value(chart: Chart, up: int, cell: Cell) -> int:
    name, row, _ = cell
    table = getattr(chart, name)
    return int(table[up] if name in ("five_card", "even_money") else table[row, up])


def textbook_chart(rules: BlackjackRules, kind: ChartKind = "total") -> Chart:
    """The multi-deck basic strategy of the textbooks (dealer stands on soft 17, doubling after splits, late
    surrender): the ascent's first start. Hard 9 doubles against 3-6, 10 against 2-9, 11 against 2-10; 12 stands
    against 4-6, 13-16 against 2-6; soft 13-14 double against 5-6, 15-16 against 4-6, 17 against 3-6, soft 18
    doubles against 3-6 (else stands against 2, 7, 8, hits against 9, 10, ace); pairs of 2, 3, 7 split against
    2-7, 4 against 5-6, 6 against 2-6, 9 against 2-6 and 8-9, 8 and aces always; surrender 16 against 9, 10,
    ace and 15 against a ten; no five-card claim, no even money."""
    hard = np.zeros((22, 11), np.int8)
    soft = np.zeros((22, 11), np.int8)
    split = np.zeros((11, 11), np.bool_)
    sur_hard = np.zeros((22, 11), np.bool_)
    ups = range(1, 11)

    def row(table: npt.NDArray[np.int8], total: int, rule: dict[int, int], default: int) -> None:
        for up in ups:
            table[total, up] = rule.get(up, default)

    for total in range(4, 22):
        if total <= 8:
            row(hard, total, {}, HIT)
        elif total == 9:
            row(hard, total, dict.fromkeys(range(3, 7), DOUBLE_HIT), HIT)
        elif total == 10:
            row(hard, total, dict.fromkeys(range(2, 10), DOUBLE_HIT), HIT)
        elif total == 11:
            row(hard, total, dict.fromkeys(range(2, 11), DOUBLE_HIT), HIT)
        elif total == 12:
            row(hard, total, dict.fromkeys(range(4, 7), STAND), HIT)
        elif total <= 16:
            row(hard, total, dict.fromkeys(range(2, 7), STAND), HIT)
        else:
            row(hard, total, {}, STAND)
    for total in range(12, 22):
        if total == 12:
            row(soft, total, {}, HIT)
        elif total <= 14:
            row(soft, total, dict.fromkeys((5, 6), DOUBLE_HIT), HIT)
        elif total <= 16:
            row(soft, total, dict.fromkeys(range(4, 7), DOUBLE_HIT), HIT)
        elif total == 17:
            row(soft, total, dict.fromkeys(range(3, 7), DOUBLE_HIT), HIT)
        elif total == 18:
            row(soft, total, {**dict.fromkeys(range(3, 7), DOUBLE_STAND), 2: STAND, 7: STAND, 8: STAND}, HIT)
        else:
            row(soft, total, {}, STAND)
    for pair, against in {
        1: ups, 2: range(2, 8), 3: range(2, 8), 4: (5, 6), 6: range(2, 7), 7: range(2, 8), 8: ups,
        9: (2, 3, 4, 5, 6, 8, 9),
    }.items():  # fmt: skip
        for up in against:
            split[pair, up] = True
    if rules.surrender:
        for up in (9, 10, 1):
            sur_hard[16, up] = True
        sur_hard[15, 10] = True
    multi = kind == "cards"
    return Chart(
        hard=hard,
        soft=soft,
        split=split,
        surrender_hard=sur_hard,
        hard_multi=np.where(np.isin(hard, (HIT, DOUBLE_HIT)), HIT, STAND).astype(np.int8) if multi else None,
        soft_multi=np.where(np.isin(soft, (HIT, DOUBLE_HIT)), HIT, STAND).astype(np.int8) if multi else None,
    )


def _cd_start(an: Analyser, kind: ChartKind) -> Chart:
    """The second start: each two-card cell as the composition-dependent play decides the most likely hand
    it covers, the rest from the textbook chart."""
    chart = textbook_chart(an.rules, kind)
    for up in range(1, 11):
        if an.shoe[up - 1] == 0:
            continue
        result = an.up_card(up)
        best: dict[tuple[str, int], tuple[float, str]] = {}
        uc = an.up(up)
        left = int(uc.base.sum())
        for (a, b), choice in result.decisions.items():
            if (a, b) == (1, 10):
                continue
            total, soft = _hand([a, b])
            ways = uc.base[a - 1] * (uc.base[a - 1] - 1) if a == b else 2 * uc.base[a - 1] * uc.base[b - 1]
            prob = float(ways) / (left * (left - 1))
            if a == b:
                chart.split[a, up] = choice == "split"
                chart.surrender_pair[a, up] = choice == "surrender"
                if choice in ("split", "surrender"):
                    continue
            elif choice == "surrender":
                (chart.surrender_soft if soft else chart.surrender_hard)[total, up] = True
                continue
            key = ("soft" if soft else "hard", total)
            if key not in best or prob > best[key][0]:
                best[key] = (prob, choice)
        for (name, total), (_, choice) in best.items():
            code = {"stand": STAND, "hit": HIT, "double": DOUBLE_HIT}[choice]
            getattr(chart, name)[total, up] = code
    return chart


def chart_ev(an: Analyser, chart: Chart) -> float:
    """The exact value of a round played by ``chart`` (insurance declined)."""
    return float(an.analyse(chart).ev)


def basic_strategy(
    rules: BlackjackRules,
    shoe: Sequence[int] | None = None,
    analyser: Analyser | None = None,
    kind: ChartKind = "total",
) -> Chart:
    """The chart of ``kind`` optimised for the shoe (see the module's docstring): no single-cell change raises
    its exact value."""
    if kind not in KINDS:
        raise InvalidRules([f"chart kind must be one of {', '.join(KINDS)}, not {kind!r}"])
    an = analyser if analyser is not None else Analyser(rules, shoe)
    return _tidy(an, ascend(an, _cd_start(an, kind)))


def _tidy(an: Analyser, chart: Chart) -> Chart:
    """Clear the cells the rules never read (surrender where it is not offered, the five-card claim without the
    payment or against an ace, even money where it is not offered): they change nothing, and a printed chart
    should not show them."""
    t = an.terms
    for up in range(1, 11):
        if not t.surrender or up == 1:
            chart.surrender_hard[:, up] = chart.surrender_soft[:, up] = chart.surrender_pair[:, up] = False
        if not (t.five_card and up != 1):
            chart.five_card[up] = 0
        if not (up == 1 or (up == 10 and t.even_money_ten)):
            chart.even_money[up] = False
    return chart


__all__ = ["KINDS", "TOLERANCE", "ChartKind", "apply", "ascend", "basic_strategy", "column_gains", "textbook_chart"]
