"""Roulette and sic bo at scale (issue 15): sessions, bankroll paths and the spread of the house's hold.

**Nets by enumeration through the engine.** Each bet of a simulation is placed, for every equally likely result
(the 37 pockets of RO 1, the 216 ordered rolls of SB 1), on a fresh :class:`~croupier.roulette.round.
RouletteRound` or :class:`~croupier.sicbo.round.SicBoRound` under the table's rules, the bell is rung and the
result declared; the settlement's net of each bet is its net for that result. The table of nets is therefore
the engine's own (placement rules of RO 6 / SB 5, limits, the paytables of RO 7 / SB 6, zero under RO 8 and
triples under SB 7), and the simulation can never disagree with the engine. Every amount is an integer
number of chips; exact figures (edges, variances) are :class:`~fractions.Fraction`\\ s.

**Draws.** Results are indices into that table, drawn uniformly with numpy's ``Generator(PCG64DXSM(…))``.
Sessions are cut into blocks of :data:`SESSION_BLOCK` sessions and each session's spins into tiles of
:data:`SPIN_TILE` spins; tile ``t`` of block ``b`` is drawn from its own stream, the child ``(0, b, t)`` of
``SeedSequence(seed)`` (what :meth:`~numpy.random.SeedSequence.spawn` hands out, addressed directly). So a
result depends only on the seed and the plan, never on how many sessions are processed at a time, on the
progress display or on where a run is interrupted. The hold's spread uses the children ``(1, i)``.

**Sessions.** Every session starts with the same bankroll and stakes the same bets on every spin; before each
spin the bankroll must cover the spin's stakes, else the session stops there, *ruined* (the spins it would have
played are still drawn, and the per-bet figures use every drawn spin). The exact distribution of a session's
result, with ruin, is also computed (a walk over the bankroll's values) where it is small enough, and shown
beside the simulated one.

**The hold.** The house's hold over N spins is the house's win divided by the amount wagered, N times one
spin's stakes. Its spread for N = 1,000 … 1,000,000 is simulated by drawing how many times each net comes up in
N spins (one multinomial draw per sample: exactly the distribution of N independent spins) and set beside the
normal approximation from the exact mean and variance of a spin.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.errors import CroupierError, InvalidInput, InvalidRules
from croupier.primitives.dice import ALL_ROLLS, Dice
from croupier.primitives.wheel import POCKETS
from croupier.roulette.bets import bet_type_of as roulette_bet_type
from croupier.roulette.round import RouletteRound
from croupier.sicbo.bets import bet_type_of as sicbo_bet_type
from croupier.sicbo.round import SicBoRound
from croupier.wagering import WagerRound

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

DEFAULT_SPINS = 100
"""Spins (or rolls) in a session, by default."""
DEFAULT_SESSIONS = 10_000
"""Sessions simulated, by default."""
DEFAULT_BANKROLL_STAKES = 50
"""The default bankroll, in spins' stakes."""
MAX_SPINS = 1_000_000_000
"""The most spins a session may have."""
MAX_SESSIONS = 10_000_000
"""The most sessions a simulation may have (each session's result is kept)."""
HOLD_SPINS: tuple[int, ...] = (1_000, 10_000, 100_000, 1_000_000)
"""The numbers of spins over which the hold's spread is shown."""
HOLD_SAMPLES = 10_000
"""Simulated samples of the hold for each number of spins."""
SESSION_PERCENTILES: tuple[int, ...] = (1, 5, 25, 50, 75, 95, 99)
"""The percentiles of a session's result that are reported."""
FAN_PERCENTILES: tuple[int, ...] = (5, 25, 50, 75, 95)
"""The percentile bands of the bankroll paths."""
FAN_POINTS = 100
"""At most this many spins (evenly spaced, besides the start) at which the bankroll paths are sampled."""
PATH_SESSIONS = 10_000
"""The bankroll paths (fan chart) are those of the first this-many sessions."""
EXAMPLE_PATHS = 20
"""Example paths kept for the fan chart (the first sessions')."""
SESSION_BLOCK = 256
"""Sessions per random stream block (part of what a seed means: changing it changes every result)."""
SPIN_TILE = 512
"""Spins per random stream tile of a block (as :data:`SESSION_BLOCK`)."""
STEP_SPINS = 1 << 18
"""About this many spins are drawn between two progress reports."""
EXACT_WORK = 200_000_000
"""The most work (spins × distinct nets × bankroll values) spent on the exact session distribution."""
Z95 = NormalDist().inv_cdf(0.975)
"""The two-sided 95% quantile of the normal distribution."""

_PLAYER = "simulation"
_SPINS_KEY = 0
_HOLD_KEY = 1


# -- the bets -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Game:
    """What the simulation needs of a game: its round, its equally likely results and how to declare one."""

    rule: str
    round_name: str
    outcomes: tuple[Any, ...]
    new_round: Callable[[Any], WagerRound[Any, Any]]
    declare: Callable[[Any, Any], object]
    placement: Callable[[str, str | None, str], dict[str, Any]]


def _whole_number(part: str) -> int | None:
    """``part`` as a whole number ≥ 0 (plain decimal digits, of a sane length), else None."""
    if not part.isdecimal() or len(part) > 30:
        return None
    return int(part)


def _numbers(selection: str, text: str) -> list[int]:
    parts = [_whole_number(p.strip()) for p in selection.replace(",", "-").split("-")]
    numbers = [n for n in parts if n is not None]
    if len(numbers) != len(parts):
        raise InvalidInput(f"bet {text!r}: {selection!r} is not a list of numbers such as 17 or 0-3.", rule="RO 6")
    return numbers


def _roulette_placement(kind: str, selection: str | None, text: str) -> dict[str, Any]:
    roulette_bet_type(kind)  # an unknown kind is refused first, naming the bets (RO 6)
    if selection is None:
        return {}
    if kind in ("column", "dozen", "twelve_special"):
        letter = {"A": "1", "B": "2"}.get(selection.upper(), selection) if kind == "twelve_special" else selection
        index = _whole_number(letter)
        if index is None:
            valid = "A or B" if kind == "twelve_special" else "1, 2 or 3"
            raise InvalidInput(f"bet {text!r}: {selection!r} is not a {kind} index ({valid}).", rule="RO 6")
        return {"index": index}
    return {"numbers": _numbers(selection, text)}


def _sicbo_placement(kind: str, selection: str | None, text: str) -> dict[str, Any]:
    bet_type = sicbo_bet_type(kind)  # an unknown kind is refused first, naming the bets (SB 5)
    if selection is None:
        if bet_type.value in ("single", "triple", "total"):
            name, values = ("TOTAL", "4-17") if bet_type.value == "total" else ("FACE", "1-6")
            message = f"bet {text!r} names no {name.lower()} ({values}): write {kind}:{name}=AMOUNT."
            raise InvalidInput(message, rule="SB 5")
        return {}
    target = _whole_number(selection)
    if target is None:
        raise InvalidInput(f"bet {text!r}: {selection!r} is not a face or a total.", rule="SB 5")
    return {"total" if bet_type.value == "total" else "face": target}


def _spin(rnd: Any, pocket: int) -> object:
    assert isinstance(rnd, RouletteRound)
    return rnd.spin(pocket)


def _roll(rnd: Any, dice: Dice) -> object:
    assert isinstance(rnd, SicBoRound)
    return rnd.roll(dice)


GAMES: dict[str, _Game] = {
    "roulette": _Game("RO 7", "spin", POCKETS, RouletteRound, _spin, _roulette_placement),
    "sicbo": _Game("SB 6", "roll", ALL_ROLLS, SicBoRound, _roll, _sicbo_placement),
}
"""The games simulated here, by name."""

DEFAULT_BET_KIND: dict[str, str] = {"roulette": "red", "sicbo": "big"}
"""The bet staked when none is given: the table minimum on red (roulette) or on big (sic bo)."""


@dataclass(frozen=True)
class StakedBet:
    """A bet staked on every spin: as written (``straight:17=2``), as the engine describes its placement
    (``straight 17``), its stake in chips, the rule of its odds, and the engine's net in chips for every equally
    likely result (in the order of :data:`~croupier.primitives.wheel.POCKETS` or :data:`~croupier.primitives.
    dice.ALL_ROLLS`)."""

    spec: str
    placement: str
    amount: int
    rule: str
    nets: tuple[int, ...]

    @property
    def ev(self) -> Fraction:
        """The exact expected net per unit staked."""
        return Fraction(sum(self.nets), len(self.nets) * self.amount)

    @property
    def house_edge(self) -> Fraction:
        """Minus the expected net per unit staked."""
        return -self.ev

    @property
    def variance(self) -> Fraction:
        """The exact variance of the net per unit staked."""
        second = Fraction(sum(n * n for n in self.nets), len(self.nets) * self.amount**2)
        return second - self.ev**2

    @property
    def sd(self) -> float:
        """The standard deviation of the net per unit staked."""
        return math.sqrt(self.variance)

    @property
    def hit_frequency(self) -> Fraction:
        """The probability that the bet wins anything."""
        return Fraction(sum(1 for n in self.nets if n > 0), len(self.nets))


def _split_spec(text: str) -> tuple[str, str | None, int]:
    head, sep, amount = text.strip().rpartition("=")
    if not sep or not head.strip():
        raise InvalidInput(f"bet {text!r} is not KIND[:SELECTION]=AMOUNT (e.g. red=2, straight:17=2, total:10=2).")
    kind, colon, selection = head.strip().partition(":")
    if colon and not selection.strip():
        raise InvalidInput(f"bet {text!r} names no selection after {kind.strip() + ':'!r}.")
    amount = amount.strip()
    chips = _whole_number(amount.removeprefix("-"))
    if chips is None:
        why = "is far above any table maximum" if amount.isdecimal() else "is not a whole number of chips"
        raise InvalidInput(f"bet {text!r}: the amount {amount!r} {why}.")
    return kind.strip().lower(), selection.strip() if colon else None, -chips if amount.startswith("-") else chips


def stake_bets(game: str, rules: Any, specs: Sequence[str]) -> tuple[StakedBet, ...]:
    """The bets ``specs`` (``KIND[:SELECTION]=AMOUNT``) validated by the engine under ``rules`` and settled by it
    for every equally likely result. Each refusal is a :class:`~croupier.errors.CroupierError` naming the bet as
    written, the engine's reason and its rule id."""
    g = _game(game)
    placed: list[tuple[str, str, dict[str, Any], int]] = []
    described: list[str] = []
    for text in specs:
        try:
            kind, selection, amount = _split_spec(text)
            placement = g.placement(kind, selection, text)
            bet = g.new_round(rules).verify_place_bet(_PLAYER, kind, amount, **placement)
        except InvalidRules:
            raise
        except CroupierError as exc:
            message = str(exc) if str(exc).startswith("bet ") else f"bet {text!r}: {exc}"
            if exc.rule and exc.rule not in message:
                message = f"{message.rstrip('.')} ({exc.rule})."
            raise type(exc)(message, rule=exc.rule) from None
        canonical = f"{kind}:{selection}={amount}" if selection is not None else f"{kind}={amount}"
        placed.append((canonical, kind, placement, amount))
        described.append(str(bet.placement))
    nets: list[list[int]] = [[] for _ in placed]
    for outcome in g.outcomes:
        rnd = g.new_round(rules)
        for _, kind, placement, amount in placed:
            rnd.place_bet(_PLAYER, kind, amount, **placement)
        rnd.close_betting()
        g.declare(rnd, outcome)
        assert rnd.settlement is not None
        for result in rnd.settlement.results:
            nets[result.index].append(result.net)
    return tuple(
        StakedBet(spec, place, amount, g.rule, tuple(n))
        for (spec, _, _, amount), place, n in zip(placed, described, nets, strict=True)
    )


def default_bets(game: str, rules: Any) -> tuple[str, ...]:
    """The bet staked when none is given: the table minimum on red (roulette) or big (sic bo)."""
    _game(game)
    kind = DEFAULT_BET_KIND[game]
    return (f"{kind}={rules.min_bet.for_type(kind)}",)


def _game(name: str) -> _Game:
    if name not in GAMES:
        raise ValueError(f"{name!r} is not a game simulated here (roulette or sicbo).")
    return GAMES[name]


# -- the plan ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """A validated simulation: the game and its rules, the bets staked on every spin, the sessions' length and
    number, the starting bankroll (chips), the seed, where the rules came from, and the command that repeats it."""

    game: str
    rules: Any
    bets: tuple[StakedBet, ...]
    spins: int
    sessions: int
    bankroll: int
    seed: int
    source: str = ""
    command: str = ""
    hold_samples: int = HOLD_SAMPLES

    @property
    def stakes(self) -> int:
        """One spin's stakes: the sum of the bets' amounts."""
        return sum(b.amount for b in self.bets)

    @property
    def nets(self) -> tuple[int, ...]:
        """One spin's net (all bets together) for every equally likely result."""
        return tuple(sum(column) for column in zip(*(b.nets for b in self.bets), strict=True))

    @property
    def round_name(self) -> str:
        """``spin`` (roulette) or ``roll`` (sic bo)."""
        return _game(self.game).round_name


def _whole(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(f"{what} {value!r} must be a whole number from {low:,} to {high:,}.")
    return value


def plan(
    game: str,
    rules: Any,
    bets: Sequence[str] | None = None,
    *,
    spins: int = DEFAULT_SPINS,
    sessions: int = DEFAULT_SESSIONS,
    bankroll: int | None = None,
    seed: int | None = None,
    source: str = "",
    command: str = "",
    hold_samples: int = HOLD_SAMPLES,
) -> Plan:
    """Check a simulation's inputs and settle its bets (:func:`stake_bets`); every problem is a ``ValueError``
    naming the value. ``bets`` None or empty: :func:`default_bets`. ``bankroll`` None: :data:`DEFAULT_BANKROLL_STAKES`
    spins' stakes. ``seed`` None: fresh entropy from the operating system, recorded in the plan."""
    _game(game)
    spins = _whole(spins, "spins", 1, MAX_SPINS)
    sessions = _whole(sessions, "sessions", 1, MAX_SESSIONS)
    hold_samples = _whole(hold_samples, "hold samples", 2, 10**7)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise InvalidInput(f"seed {seed!r} must be a whole number ≥ 0.")
    staked = stake_bets(game, rules, list(bets) if bets else default_bets(game, rules))
    stakes = sum(b.amount for b in staked)
    if bankroll is None:
        bankroll = DEFAULT_BANKROLL_STAKES * stakes
    if isinstance(bankroll, bool) or not isinstance(bankroll, int):
        raise InvalidInput(f"bankroll {bankroll!r} is not a whole number of chips.")
    if bankroll < stakes:
        raise InvalidInput(
            f"bankroll {bankroll} is below one {_game(game).round_name}'s stakes, {stakes} "
            f"({', '.join(b.spec for b in staked)}): a session could not place its first bets."
        )
    used = int(np.random.SeedSequence(seed).entropy)  # type: ignore[arg-type]
    return Plan(game, rules, staked, spins, sessions, bankroll, used, source, command, hold_samples)


# -- results ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SimulatedMean:
    """A simulated mean net per unit staked over ``spins`` spins: the mean, its standard error, the 95%
    confidence interval and the sample's standard deviation."""

    spins: int
    mean: float
    se: float
    sd: float

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% confidence interval of the mean (normal approximation)."""
        return (self.mean - Z95 * self.se, self.mean + Z95 * self.se)

    def to_json(self) -> dict[str, Any]:
        """A plain dict (no spins drawn: the figures are null)."""
        low, high = self.ci95
        return {"spins": self.spins, "mean": _num(self.mean), "se": _num(self.se), "ci95": [_num(low), _num(high)],
                "sd": _num(self.sd)}  # fmt: skip


def _num(x: float) -> float | None:
    return None if math.isnan(x) else x


def simulated_mean(counts: Ints, nets: Sequence[int], unit: int) -> SimulatedMean:
    """The mean net per unit staked of a bet with these per-result ``nets`` (chips, on a stake of ``unit``),
    from how often each result came up."""
    n = int(counts.sum())
    if n == 0:
        return SimulatedMean(0, math.nan, math.nan, math.nan)
    x = np.asarray(nets, np.float64) / unit
    mean = float(counts @ x) / n
    second = float(counts @ (x * x)) / n
    var = max(second - mean * mean, 0.0) * n / (n - 1) if n > 1 else 0.0
    return SimulatedMean(n, mean, math.sqrt(var / n), math.sqrt(var))


@dataclass(frozen=True)
class BetFigures:
    """One bet's exact figures per unit staked and its simulated mean net per unit."""

    bet: StakedBet
    simulated: SimulatedMean

    def to_json(self) -> dict[str, Any]:
        """A plain dict (exact fractions as strings)."""
        b = self.bet
        return {
            "bet": b.spec,
            "placement": b.placement,
            "amount": b.amount,
            "rule": b.rule,
            "house_edge": str(b.house_edge),
            "house_edge_pct": float(b.house_edge) * 100,
            "hit_frequency": str(b.hit_frequency),
            "sd": b.sd,
            "simulated": self.simulated.to_json(),
        }


@dataclass(frozen=True)
class ExactSessions:
    """The exact distribution of a session's result, ruin included: its mean and SD (chips), the chances of
    ending ahead, even or behind and of being ruined."""

    mean: float
    sd: float
    ahead: float
    even: float
    behind: float
    ruined: float

    def to_json(self) -> dict[str, Any]:
        """A plain dict."""
        return {k: getattr(self, k) for k in ("mean", "sd", "ahead", "even", "behind", "ruined")}


@dataclass(frozen=True)
class SessionFigures:
    """The simulated sessions: how many, the result's mean and SD (chips), its percentiles (whole chips: the
    smallest result with at least that share of sessions at or below it), the shares ahead, even, behind and
    ruined, the mean number of spins played, the amount wagered and won by the house, the result's distribution
    (each result and how many sessions ended with it) and, where small enough to compute, the exact figures."""

    sessions: int
    mean: float
    sd: float
    percentiles: tuple[tuple[int, int], ...]
    ahead: float
    even: float
    behind: float
    ruined: float
    mean_spins_played: float
    wagered: int
    house_win: int
    histogram: tuple[tuple[int, int], ...]
    exact: ExactSessions | None

    @property
    def hold(self) -> float:
        """The house's win divided by the amount wagered, over every session."""
        return self.house_win / self.wagered if self.wagered else math.nan

    def to_json(self) -> dict[str, Any]:
        """A plain dict."""
        return {
            "sessions": self.sessions,
            "mean": self.mean,
            "sd": self.sd,
            "percentiles": {str(q): v for q, v in self.percentiles},
            "ahead": self.ahead,
            "even": self.even,
            "behind": self.behind,
            "ruined": self.ruined,
            "mean_spins_played": self.mean_spins_played,
            "wagered": self.wagered,
            "house_win": self.house_win,
            "hold": self.hold,
            "histogram": {"results": [v for v, _ in self.histogram], "sessions": [c for _, c in self.histogram]},
            "exact": self.exact.to_json() if self.exact is not None else None,
        }


@dataclass(frozen=True)
class Fan:
    """Bankroll paths for a fan chart: the spins at which they are sampled (0 = the start), the bankroll's
    percentile bands over the first ``sessions`` sessions at each of them, and example paths (the first
    sessions'). A ruined session's bankroll stays where it stopped."""

    spins: tuple[int, ...]
    bands: tuple[tuple[int, tuple[int, ...]], ...]
    examples: tuple[tuple[int, ...], ...]
    sessions: int

    def to_json(self) -> dict[str, Any]:
        """A plain dict."""
        return {
            "spins": list(self.spins),
            "bands": {str(q): list(v) for q, v in self.bands},
            "examples": [list(p) for p in self.examples],
            "sessions": self.sessions,
        }


@dataclass(frozen=True)
class HoldSpread:
    """The house's hold over ``spins`` spins: its exact mean (the edge on the stakes) and SD, and its 1st, 5th,
    95th and 99th percentiles, simulated (``samples`` samples) and by the normal approximation."""

    spins: int
    mean: Fraction
    sd: float
    samples: int
    simulated: tuple[float, float, float, float]
    normal: tuple[float, float, float, float]

    def to_json(self) -> dict[str, Any]:
        """A plain dict (the exact mean as a fraction string)."""
        keys = ("p1", "p5", "p95", "p99")
        return {
            "spins": self.spins,
            "mean": str(self.mean),
            "mean_pct": float(self.mean) * 100,
            "sd": self.sd,
            "samples": self.samples,
            "simulated": dict(zip(keys, self.simulated, strict=True)),
            "normal": dict(zip(keys, self.normal, strict=True)),
        }


@dataclass(frozen=True)
class WagerSimReport:
    """A simulation's result (:meth:`to_json` for ``--json``). ``partial`` when it was interrupted: the per-bet
    figures then use the spins drawn so far, the sessions those completed; ``sessions`` and ``fan`` are None
    when no session completed."""

    plan: Plan
    partial: bool
    bets: tuple[BetFigures, ...]
    combined: SimulatedMean
    sessions: SessionFigures | None
    fan: Fan | None
    hold: tuple[HoldSpread, ...]
    spins_drawn: int
    cpu_seconds: float

    @property
    def house_edge(self) -> Fraction:
        """The exact house edge on one spin's stakes, all bets together."""
        return Fraction(-sum(self.plan.nets), len(self.plan.nets) * self.plan.stakes)

    @property
    def sd(self) -> float:
        """The exact SD of one spin's net per unit staked, all bets together."""
        return _sd(self.plan.nets, self.plan.stakes)

    @property
    def rounds_per_cpu_second(self) -> float:
        """Spins drawn per second of CPU time."""
        return self.spins_drawn / self.cpu_seconds if self.cpu_seconds > 0 else math.inf

    def to_json(self) -> dict[str, Any]:
        """A plain dict: every figure of the simulation, exact fractions as strings, chips as integers."""
        p = self.plan
        return {
            "game": p.game,
            "rules": p.source,
            "seed": p.seed,
            "command": p.command,
            "partial": self.partial,
            "spins": p.spins,
            "sessions_requested": p.sessions,
            "bankroll": p.bankroll,
            "stakes_per_spin": p.stakes,
            "bets": [b.to_json() for b in self.bets],
            "combined": {
                "house_edge": str(self.house_edge),
                "house_edge_pct": float(self.house_edge) * 100,
                "sd": self.sd,
                "simulated": self.combined.to_json(),
            },
            "sessions": self.sessions.to_json() if self.sessions is not None else None,
            "paths": self.fan.to_json() if self.fan is not None else None,
            "hold": [h.to_json() for h in self.hold],
            "speed": {
                "spins_drawn": self.spins_drawn,
                "cpu_seconds": self.cpu_seconds,
                "rounds_per_cpu_second": self.rounds_per_cpu_second if self.cpu_seconds > 0 else None,
            },
        }


def _sd(nets: Sequence[int], unit: int) -> float:
    n = len(nets)
    mean = Fraction(sum(nets), n * unit)
    return math.sqrt(Fraction(sum(v * v for v in nets), n * unit * unit) - mean**2)


# -- exact figures ------------------------------------------------------------------------------------------------


def _distinct(nets: Sequence[int]) -> tuple[list[int], list[Fraction]]:
    """The distinct nets of one spin and their exact probabilities."""
    counts: dict[int, int] = {}
    for v in nets:
        counts[v] = counts.get(v, 0) + 1
    values = sorted(counts)
    return values, [Fraction(counts[v], len(nets)) for v in values]


def exact_sessions(nets: Sequence[int], stakes: int, bankroll: int, spins: int) -> ExactSessions | None:
    """The exact distribution of a session's result (floating point): ``spins`` spins each netting one of
    ``nets`` (equally likely), stopping before a spin the bankroll cannot stake; None where the walk would take
    more than :data:`EXACT_WORK` steps."""
    values, probs = _distinct(nets)
    top = bankroll + spins * max(0, values[-1])
    size = top + 1
    if spins * len(values) * size > EXACT_WORK:
        return None
    p = [float(x) for x in probs]
    alive = np.zeros(size)
    alive[bankroll] = 1.0
    stopped = np.zeros(size)
    for _ in range(spins):
        stopped[:stakes] += alive[:stakes]  # cannot cover this spin's stakes: the session stops here
        alive[:stakes] = 0.0
        after = np.zeros(size)
        for v, pv in zip(values, p, strict=True):
            if v >= 0:
                after[v:] += pv * alive[: size - v]
            else:
                after[: size + v] += pv * alive[-v:]
        alive = after
    final = alive + stopped
    result = np.arange(size, dtype=np.float64) - bankroll
    mean = float(final @ result)
    var = max(float(final @ (result * result)) - mean * mean, 0.0)
    return ExactSessions(
        mean,
        math.sqrt(var),
        float(final[bankroll + 1 :].sum()),
        float(final[bankroll]),
        float(final[:bankroll].sum()),
        float(stopped.sum()),
    )


def hold_spread(plan: Plan, spins: Sequence[int] = HOLD_SPINS) -> tuple[HoldSpread, ...]:
    """The spread of the house's hold over each number of ``spins`` (see the module's docstring)."""
    values, probs = _distinct(plan.nets)
    mu = sum((p * v for v, p in zip(values, probs, strict=True)), Fraction(0))
    var = sum((p * v * v for v, p in zip(values, probs, strict=True)), Fraction(0)) - mu * mu
    stakes = plan.stakes
    house = -np.asarray(values, np.float64)
    pvals = np.asarray([float(p) for p in probs])
    out = []
    for i, n in enumerate(spins):
        rng = np.random.Generator(np.random.PCG64DXSM(np.random.SeedSequence(plan.seed, spawn_key=(_HOLD_KEY, i))))
        counts = rng.multinomial(n, pvals, size=plan.hold_samples)
        holds = (counts @ house) / (n * stakes)
        sim = np.percentile(holds, [1, 5, 95, 99])
        mean = -mu / stakes
        sd = math.sqrt(var) / (stakes * math.sqrt(n))
        if sd > 0:
            dist = NormalDist(float(mean), sd)
            normal = tuple(dist.inv_cdf(q) for q in (0.01, 0.05, 0.95, 0.99))
        else:
            normal = (float(mean),) * 4
        out.append(
            HoldSpread(
                n,
                mean,
                sd,
                plan.hold_samples,
                (float(sim[0]), float(sim[1]), float(sim[2]), float(sim[3])),
                (normal[0], normal[1], normal[2], normal[3]),
            )
        )
    return tuple(out)


# -- the simulation -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """Where a running simulation stands: spins drawn of the total, sessions completed, and the running mean
    net per unit staked (all bets together) with its standard error."""

    spins_drawn: int
    spins_total: int
    sessions_done: int
    ev: float
    se: float


@dataclass(frozen=True)
class _Tile:
    """What the spins drawn so far add up to (cumulative, so that one append records a step)."""

    counts: Ints
    spins: int
    cpu: float


@dataclass(frozen=True)
class _Chunk:
    """The sessions a chunk completed: each one's result, spins played, and sampled bankroll path."""

    results: Ints
    played: Ints
    paths: Ints


def _grid(spins: int) -> Ints:
    """The spins at which bankroll paths are sampled: 0 and up to :data:`FAN_POINTS` evenly spaced ones."""
    points = min(spins, FAN_POINTS)
    return np.unique(np.round(np.linspace(0, spins, points + 1)).astype(np.int64))


class WagerSimulation:
    """A running simulation of a :class:`Plan`. Iterate :meth:`steps` (each yields a :class:`Step`), or call
    :meth:`run`; :meth:`report` gives the result so far at any time, so an interrupted run still reports
    what it completed. ``chunk_sessions`` (rounded up to whole :data:`SESSION_BLOCK`\\ s; default: about
    :data:`STEP_SPINS` spins per step) changes how much is done per step, never the result."""

    def __init__(self, plan: Plan, *, chunk_sessions: int | None = None) -> None:
        self.plan = plan
        width = min(plan.spins, SPIN_TILE)
        wanted = chunk_sessions if chunk_sessions is not None else max(1, STEP_SPINS // width)
        if wanted < 1:
            raise ValueError(f"chunk_sessions {chunk_sessions!r} must be at least 1.")
        self.chunk = -(-wanted // SESSION_BLOCK) * SESSION_BLOCK
        self._combined = np.asarray(plan.nets, np.int64)
        self._outcomes = len(plan.nets)
        self._grid = _grid(plan.spins)
        self._tiles: list[_Tile] = []
        self._chunks: list[_Chunk] = []
        self._started = False

    @property
    def spins_total(self) -> int:
        """Spins to draw in all."""
        return self.plan.spins * self.plan.sessions

    def _draw(self, block: int, tile: int, rows: int, width: int) -> npt.NDArray[np.int16]:
        seq = np.random.SeedSequence(self.plan.seed, spawn_key=(_SPINS_KEY, block, tile))
        rng = np.random.Generator(np.random.PCG64DXSM(seq))
        return rng.integers(0, self._outcomes, size=(rows, width), dtype=np.int16)

    def _running(self) -> Step:
        tile = self._tiles[-1] if self._tiles else None
        done = sum(len(c.results) for c in self._chunks)
        if tile is None:
            return Step(0, self.spins_total, done, math.nan, math.nan)
        m = simulated_mean(tile.counts, self.plan.nets, self.plan.stakes)
        return Step(tile.spins, self.spins_total, done, m.mean, m.se)

    def steps(self) -> Iterator[Step]:
        """Run the simulation, yielding a :class:`Step` after every tile of spins (a generator: stop iterating,
        or interrupt it, and :meth:`report` gives what was completed)."""
        if self._started:
            raise RuntimeError("a simulation runs once; make a new WagerSimulation to run it again")
        self._started = True
        p = self.plan
        n, k, stakes = p.spins, p.sessions, p.stakes
        tiles = [(start, min(SPIN_TILE, n - start)) for start in range(0, n, SPIN_TILE)]
        counts = np.zeros(self._outcomes, np.int64)
        drawn = 0
        cpu = 0.0
        for first in range(0, k, self.chunk):
            rows = min(self.chunk, k - first)
            blocks = range(first // SESSION_BLOCK, -(-(first + rows) // SESSION_BLOCK))
            bank = np.full(rows, p.bankroll, np.int64)
            alive = np.ones(rows, bool)
            played = np.full(rows, n, np.int64)
            sample = max(0, min(rows, PATH_SESSIONS - first))
            paths = np.empty((sample, len(self._grid)), np.int64)
            paths[:, 0] = p.bankroll
            everyone = np.arange(rows)
            for t, (start, width) in enumerate(tiles):
                began = time.process_time()
                drawn_rows = [min(SESSION_BLOCK, k - b * SESSION_BLOCK) for b in blocks]
                idx = np.concatenate([self._draw(b, t, r, width) for b, r in zip(blocks, drawn_rows, strict=True)])
                nets = self._combined[idx]
                cum = np.cumsum(nets, axis=1)
                before = bank[:, None] + (cum - nets)  # the bankroll before each spin
                short = before < stakes
                short[~alive, 0] = True  # a stopped session plays nothing more: its bankroll stays
                hit = short.any(axis=1)
                stop = short.argmax(axis=1)
                frozen = before[everyone, stop]
                newly = hit & alive
                played[newly] = start + stop[newly]
                cols = self._grid[(self._grid > start) & (self._grid <= start + width)]
                if sample and len(cols):
                    at = cols - start - 1  # the bankroll after spin g is after column g - start - 1
                    after = bank[:sample, None] + cum[:sample][:, at]
                    halted = hit[:sample, None] & (at[None, :] >= stop[:sample, None])
                    where = np.searchsorted(self._grid, cols)
                    paths[:, where] = np.where(halted, frozen[:sample, None], after)
                bank = np.where(hit, frozen, bank + cum[:, -1])
                alive &= ~hit
                counts = counts + np.bincount(idx.ravel(), minlength=self._outcomes)
                drawn += rows * width
                cpu += time.process_time() - began
                self._tiles.append(_Tile(counts, drawn, cpu))
                if t == len(tiles) - 1:
                    self._chunks.append(_Chunk(bank - p.bankroll, played, paths))
                yield self._running()

    def run(self) -> WagerSimReport:
        """Run to the end and return the result."""
        for _ in self.steps():
            pass
        return self.report()

    def report(self) -> WagerSimReport:
        """The result of what has been completed (``partial`` unless every session has)."""
        p = self.plan
        tiles, chunks = list(self._tiles), list(self._chunks)
        counts = tiles[-1].counts if tiles else np.zeros(self._outcomes, np.int64)
        bets = tuple(BetFigures(b, simulated_mean(counts, b.nets, b.amount)) for b in p.bets)
        combined = simulated_mean(counts, p.nets, p.stakes)
        sessions = fan = None
        done = sum(len(c.results) for c in chunks)
        if done:
            results = np.concatenate([c.results for c in chunks])
            played = np.concatenate([c.played for c in chunks])
            paths = np.concatenate([c.paths for c in chunks])
            sessions = self._sessions(results, played)
            bands = np.percentile(paths, FAN_PERCENTILES, axis=0, method="inverted_cdf").astype(np.int64)
            fan = Fan(
                tuple(int(s) for s in self._grid),
                tuple((q, tuple(int(v) for v in band)) for q, band in zip(FAN_PERCENTILES, bands, strict=True)),
                tuple(tuple(int(v) for v in row) for row in paths[:EXAMPLE_PATHS]),
                len(paths),
            )
        return WagerSimReport(
            p,
            done < p.sessions,
            bets,
            combined,
            sessions,
            fan,
            hold_spread(p),
            tiles[-1].spins if tiles else 0,
            tiles[-1].cpu if tiles else 0.0,
        )

    def _sessions(self, results: Ints, played: Ints) -> SessionFigures:
        p = self.plan
        k = len(results)
        qs = np.percentile(results, SESSION_PERCENTILES, method="inverted_cdf").astype(np.int64)
        values, freq = np.unique(results, return_counts=True)
        wagered = int(played.sum()) * p.stakes
        return SessionFigures(
            k,
            float(results.mean()),
            float(results.std(ddof=1)) if k > 1 else 0.0,
            tuple((q, int(v)) for q, v in zip(SESSION_PERCENTILES, qs, strict=True)),
            float((results > 0).mean()),
            float((results == 0).mean()),
            float((results < 0).mean()),
            float((played < p.spins).mean()),
            float(played.mean()),
            wagered,
            -int(results.sum()),
            tuple((int(v), int(c)) for v, c in zip(values, freq, strict=True)),
            exact_sessions(p.nets, p.stakes, p.bankroll, p.spins),
        )


def simulate(
    game: str,
    rules: Any,
    bets: Sequence[str] | None = None,
    *,
    spins: int = DEFAULT_SPINS,
    sessions: int = DEFAULT_SESSIONS,
    bankroll: int | None = None,
    seed: int | None = None,
    source: str = "",
    chunk_sessions: int | None = None,
) -> WagerSimReport:
    """Plan (:func:`plan`) and run a simulation to the end."""
    planned = plan(game, rules, bets, spins=spins, sessions=sessions, bankroll=bankroll, seed=seed, source=source)
    return WagerSimulation(planned, chunk_sessions=chunk_sessions).run()
