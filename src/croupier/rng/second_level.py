"""The second level: are the p-values of repeated batteries uniform? (issue 18)

A good generator's p-values are uniform on (0, 1): a battery run ``K`` times on independent samples gives, for each
test, ``K`` p-values that a Kolmogorov–Smirnov test against the uniform law should accept. A generator can pass
each battery (no p-value below alpha) and still fail here, when its p-values crowd together (too good a fit,
values near 1) or lean one way: the second level NIST SP 800-22 §4.2.2 and dieharder apply.

Each sub-test is tested on its own (the ``j``-th p-value of a test across the ``K`` runs are independent; the
p-values of one run are not, e.g. NIST's overlapping templates), and a test's sub-tests are combined like any
multi-p-value test (:mod:`croupier.rng.results`). With fewer than :data:`MIN_REPEATS` runs the KS test is too weak
to mean anything and is skipped with that reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from scipy import stats

from croupier.rng.results import TestResult

FAMILY = "second-level"
MIN_REPEATS = 10
"""The fewest repeated batteries a second-level test is run on."""


def second_level(runs: Sequence[Sequence[TestResult]], *, min_repeats: int = MIN_REPEATS) -> list[TestResult]:
    """One KS uniformity test per test found in ``runs`` (the results of repeated batteries, each a list), on the
    p-values it gave across the runs; tests skipped in any run are left out of that test's sample."""
    order: list[str] = []
    by_test: dict[str, list[TestResult]] = {}
    for results in runs:
        for r in results:
            if r.name not in by_test:
                order.append(r.name)
                by_test[r.name] = []
            if r.p_value is not None:
                by_test[r.name].append(r)
    out = []
    for name in order:
        ran = by_test[name]
        label = f"{name} (KS over runs)"
        if len(ran) < min_repeats:
            out.append(
                TestResult.skip(
                    label,
                    FAMILY,
                    len(ran),
                    f"needs the p-values of at least {min_repeats} runs (--repeat {min_repeats}); it has {len(ran)}",
                )
            )
            continue
        width = min(len(r.p_values) for r in ran)
        ks_stats, ks_ps = [], []
        for j in range(width):
            sample = [r.p_values[j] for r in ran]
            res = stats.kstest(sample, "uniform")
            ks_stats.append(float(res.statistic))
            ks_ps.append(float(res.pvalue))
        detail = {"runs": len(ran), "sub_tests": width, "p_values": [r.p_values[0] for r in ran]}
        out.append(TestResult.of(label, FAMILY, max(ks_stats), ks_ps, len(ran), detail))
    return out
