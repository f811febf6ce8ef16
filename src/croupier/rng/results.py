"""One statistical test's result, and the verdict of a battery of them.

Every test of :mod:`croupier.rng` returns a :class:`TestResult`. A test may compute several p-values (NIST's
serial test has two, its non-overlapping template test one per template); they are kept in ``p_values`` and the
test's own ``p_value`` is the Šidák combination of their smallest, ``1 - (1 - min p)^k``, so that a test with
many p-values is not more likely to fail by chance than one with a single p-value. A test that cannot give a
meaningful p-value on the sample it was given (too short, too few expected counts) is **skipped** with the
reason, never reported with a p-value.

The battery's overall verdict (:func:`overall`) fails when the smallest p-value over the tests that ran, adjusted
for their number in the same way, is below alpha: the chance that a good generator fails the whole battery is
then at most alpha, whatever the number of tests.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

Verdict = Literal["pass", "fail", "skipped"]


def sidak(p_values: Sequence[float]) -> float:
    """The Šidák-adjusted smallest of ``p_values``: the chance that the smallest of ``len(p_values)`` independent
    uniform p-values is at most the one observed."""
    if not p_values:
        raise ValueError("no p-values to combine")
    k = len(p_values)
    low = min(p_values)
    if low <= 0.0:
        return 0.0
    # 1 - (1 - p)^k, computed without cancellation for small p
    return -math.expm1(k * math.log1p(-low)) if low < 1.0 else 1.0


@dataclass(frozen=True)
class TestResult:
    """A test's outcome: its ``name`` (as a report prints it), the ``family`` it belongs to (``nist``, ``game``,
    ``dieharder``, ``second-level``), the ``statistic`` and the ``p_value`` (``None`` when skipped), the number of
    samples ``n`` it used (bits, outcomes, shuffles), every p-value it computed (``p_values``), ``skipped`` (the
    reason, when it could not run) and ``detail`` (JSON-able numbers a report may plot: counts, deviations)."""

    __test__ = False  # not a pytest test class

    name: str
    family: str
    statistic: float | None
    p_value: float | None
    n: int
    p_values: tuple[float, ...] = ()
    skipped: str | None = None
    detail: Mapping[str, object] = field(default_factory=dict)

    @classmethod
    def of(  # noqa: PLR0917 - the fields in the dataclass's order, as every test writes them
        cls,
        name: str,
        family: str,
        statistic: float,
        p_values: Sequence[float],
        n: int,
        detail: Mapping[str, object] | None = None,
    ) -> TestResult:
        """A test that ran: its p-value is the Šidák combination of ``p_values``."""
        ps = tuple(float(min(1.0, max(0.0, p))) for p in p_values)
        return cls(name, family, float(statistic), sidak(ps), n, ps, None, dict(detail or {}))

    @classmethod
    def skip(cls, name: str, family: str, n: int, reason: str) -> TestResult:
        """A test that could not run on this sample, and why."""
        return cls(name, family, None, None, n, (), reason, {})

    def verdict(self, alpha: float) -> Verdict:
        """``pass`` or ``fail`` at ``alpha``, or ``skipped``."""
        if self.p_value is None:
            return "skipped"
        return "fail" if self.p_value < alpha else "pass"

    def to_json(self, alpha: float) -> dict[str, object]:
        """The result as a report's JSON."""
        return {
            "name": self.name,
            "family": self.family,
            "statistic": self.statistic,
            "p_value": self.p_value,
            "p_values": list(self.p_values),
            "n": self.n,
            "verdict": self.verdict(alpha),
            "skipped": self.skipped,
            "detail": dict(self.detail),
        }


def overall(results: Sequence[TestResult], alpha: float) -> Verdict:
    """The battery's verdict at ``alpha``: ``fail`` when the Šidák-adjusted smallest p-value of the tests that ran
    is below alpha, ``skipped`` when none ran, else ``pass``."""
    ran = [r.p_value for r in results if r.p_value is not None]
    if not ran:
        return "skipped"
    return "fail" if sidak(ran) < alpha else "pass"


def check_alpha(alpha: object) -> float:
    """``alpha`` as a significance level in (0, 0.5), else ``ValueError`` naming it."""
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0.0 < float(alpha) < 0.5:
        raise ValueError(f"alpha must be a number in (0, 0.5), not {alpha!r}")
    return float(alpha)
