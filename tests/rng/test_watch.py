"""The bias watch's statistics (issue 18, ``croupier.rng.watch``): the rounds-needed figures against a Monte Carlo of
the watch itself (at the reported window a biased device is flagged in about ``power`` of the trials, a fair one in
about ``alpha``), the sequential view, the furthest cells, the skip on small samples and the refusal of bad settings.
Every Monte Carlo has a fixed seed."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from croupier.rng.watch import alternative, detection, rounds_needed, watch

ALPHA, POWER = 0.01, 0.9
TRIALS = 500
SE = (POWER * (1 - POWER) / TRIALS) ** 0.5  # the Monte Carlo's standard error at the promised power


def spins(law: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    return rng.choice(len(law), size=n, p=law)


def rolls(law: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    return rng.choice(6, size=(n, 3), p=law) + 1


def test_the_rounds_needed_for_a_pocket_at_one_and_a_half_times_fair() -> None:
    chi, pocket = detection("roulette", alpha=ALPHA, power=POWER)
    assert chi.test == "chi-square" and chi.bias == pytest.approx(1.5 / 37)
    assert chi.rounds == 6521 == rounds_needed("roulette")
    # the textbook noncentral chi-square (λ = n Σ (p − q)²/q = n/144) answers fewer: it overstates the power
    assert chi.noncentrality == pytest.approx(1 / 144) and chi.textbook_rounds == 6017
    assert pocket.test == "pocket" and pocket.rounds == 4162
    dice, face = detection("sicbo", alpha=ALPHA, power=POWER)
    assert dice.bias == pytest.approx(0.25) and (dice.rounds, face.rounds) == (163, 154)
    # a bigger bias needs fewer spins; a stricter alpha or a higher power more
    assert rounds_needed("roulette", bias=3 / 37) < 6521 < rounds_needed("roulette", alpha=0.001)
    assert rounds_needed("roulette", power=0.95) > 6521
    assert rounds_needed("roulette", bias=0.5 / 37) > 0  # a dead pocket is a bias too


@pytest.mark.stats
def test_at_the_reported_window_the_watch_flags_a_biased_wheel_with_the_promised_power() -> None:
    chi, pocket = detection("roulette", alpha=ALPHA, power=POWER)
    biased = np.roll(alternative("roulette", 1.5 / 37), 17)
    fair = np.full(37, 1 / 37)
    rng = np.random.default_rng(18)
    flagged = sum(watch("roulette", spins(biased, chi.rounds, rng), points=1).flagged for _ in range(TRIALS))
    false_alarms = sum(watch("roulette", spins(fair, chi.rounds, rng), points=1).flagged for _ in range(TRIALS))
    assert abs(flagged / TRIALS - POWER) < 3 * SE, flagged
    assert false_alarms / TRIALS < 3 * ALPHA, false_alarms
    # the pocket test at its own window
    found = sum(
        watch("roulette", spins(biased, pocket.rounds, rng), points=1).pocket_verdict == "fail" for _ in range(TRIALS)
    )
    assert abs(found / TRIALS - POWER) < 3 * SE, found


@pytest.mark.stats
def test_the_textbook_figure_falls_short_of_the_power_and_the_watch_says_so() -> None:
    """At the plain noncentral chi-square's 6,017 spins the test's power is about 0.86, as the watch reports for that
    window (a vectorised Monte Carlo of the same statistic)."""
    chi, _ = detection("roulette", alpha=ALPHA, power=POWER, window=6017)
    assert chi.power_at_window == pytest.approx(0.863, abs=0.01)
    law = alternative("roulette", 1.5 / 37)
    counts = np.random.default_rng(5).multinomial(6017, law, size=20_000)
    expected = 6017 / 37
    statistic = ((counts - expected) ** 2).sum(axis=1) / expected
    from scipy import stats

    simulated = float((statistic > stats.chi2.isf(ALPHA, 36)).mean())
    assert simulated == pytest.approx(chi.power_at_window, abs=0.01)


@pytest.mark.stats
def test_a_loaded_die_is_flagged_with_the_promised_power() -> None:
    chi, _ = detection("sicbo", alpha=ALPHA, power=POWER)
    loaded = np.roll(alternative("sicbo", 0.25), 5)  # the six at 1/4
    rng = np.random.default_rng(6)
    reports = [watch("sicbo", rolls(loaded, chi.rounds, rng), points=1) for _ in range(TRIALS)]
    assert abs(sum(r.flagged for r in reports) / TRIALS - POWER) < 3 * SE
    assert sum(r.furthest[0].cell == 6 for r in reports if r.flagged) > 0.9 * sum(r.flagged for r in reports)
    fair = [watch("sicbo", rng.integers(1, 7, size=(chi.rounds, 3)), points=1).flagged for _ in range(TRIALS)]
    assert sum(fair) / TRIALS < 3 * ALPHA


def test_the_report_of_a_biased_window() -> None:
    n = 6521
    outcomes = spins(np.roll(alternative("roulette", 1.5 / 37), 17), n, np.random.default_rng(1))
    start = datetime(2026, 1, 1, tzinfo=UTC)
    ids = [f"T.{i + 1}" for i in range(n)]
    times = [start + timedelta(seconds=40 * i) for i in range(n)]
    report = watch("roulette", outcomes, rounds=ids, times=times, table_id="T", points=50)
    assert report.flagged and report.verdict == "fail" and report.rounds == n == report.observations
    assert report.result.p_value is not None and report.result.p_value < ALPHA
    assert report.critical == pytest.approx(58.619, abs=1e-3)  # chi-square, 36 degrees of freedom, at 0.01
    assert sum(report.counts) == n and report.expected == pytest.approx(n / 37)
    top = report.furthest[0]
    assert top.cell == 17 and top.count == int((outcomes == 17).sum())
    assert top.z == pytest.approx((top.count - n / 37) / (n * (1 / 37) * (36 / 37)) ** 0.5)
    assert top.p_adjusted == pytest.approx(1 - (1 - top.p_value) ** 37)
    assert [abs(c.z) for c in report.furthest] == sorted((abs(c.z) for c in report.furthest), reverse=True)
    assert len(report.furthest) == 5 and report.pocket_verdict == "fail"
    # the sequential view: from the first window with 5 expected per pocket (185 spins) to the window's end
    seq = report.sequence
    assert 2 <= len(seq) <= 50 and seq[0].rounds == 185 and seq[-1].rounds == n
    assert [p.rounds for p in seq] == sorted({p.rounds for p in seq})
    assert seq[-1].statistic == pytest.approx(report.result.statistic)
    assert seq[-1].p_value == pytest.approx(report.result.p_value)
    assert seq[0].round == "T.185" and seq[-1].round == f"T.{n}" and seq[-1].at == times[-1]
    checkpoint = seq[len(seq) // 2]
    partial = watch("roulette", outcomes[: checkpoint.rounds], points=0)
    assert checkpoint.statistic == pytest.approx(partial.result.statistic)
    assert report.needed.rounds == n and report.needed.power_at_window == pytest.approx(POWER, abs=0.01)
    as_json = report.to_json()
    json.dumps(as_json, allow_nan=False)
    assert as_json["flagged"] is True and as_json["cells"] == list(range(37)) and as_json["table"] == "T"
    assert as_json["first_round"] == "T.1" and as_json["sequence"][-1]["at"] == times[-1].isoformat()  # type: ignore[index]


def test_a_shorter_window_says_how_much_power_it_has() -> None:
    report = watch("roulette", np.random.default_rng(2).integers(0, 37, size=1000))
    assert report.needed.rounds == 6521 and report.needed.power_at_window is not None
    assert report.needed.power_at_window < 0.2
    assert any("fewer than the 6521" in note for note in report.notes)


def test_too_small_a_sample_is_skipped_not_tested() -> None:
    report = watch("roulette", list(range(37)) * 4)  # 148 spins: 4 expected per pocket
    assert report.verdict == "skipped" and not report.flagged
    assert report.result.p_value is None and report.result.statistic is None
    assert report.result.skipped is not None and "185" in report.result.skipped
    assert report.furthest == () and report.sequence == () and report.pocket_p_value is None
    assert report.min_rounds == 185 and sum(report.counts) == 148
    json.dumps(report.to_json(), allow_nan=False)
    assert watch("sicbo", [[1, 2, 3]] * 9).verdict == "skipped"  # 27 dice: 4.5 expected per face
    assert watch("sicbo", [[1, 2, 3], [4, 5, 6]] * 5).verdict == "pass"  # 30 dice: 5 per face
    empty = watch("roulette", [])
    assert empty.rounds == 0 and empty.verdict == "skipped"
    assert watch("sicbo", np.zeros((0, 3), dtype=int)).verdict == "skipped"


@pytest.mark.parametrize("alpha", [0, 0.5, -0.1, 1, "0.01", True, None])
def test_a_bad_alpha_is_refused_naming_it(alpha: object) -> None:
    with pytest.raises(ValueError, match="alpha"):
        watch("roulette", [0] * 200, alpha=alpha)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="alpha"):
        detection("roulette", alpha=alpha)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"power": 1.0}, "power"),
        ({"power": 0}, "power"),
        ({"power": 0.005}, "power"),  # not above alpha
        ({"bias": 1 / 37}, "fair"),
        ({"bias": 0}, "bias"),
        ({"bias": 1.5}, "bias"),
        ({"bias": 1.0000001 / 37}, "needs more than 1,000,000,000 rounds"),
    ],
)
def test_bad_settings_are_refused_naming_them(options: dict[str, float], named: str) -> None:
    with pytest.raises(ValueError, match=named):
        watch("roulette", [0] * 200, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("game", "outcomes", "named"),
    [
        ("roulette", [37], "0 to 36"),
        ("roulette", [-1], "0 to 36"),
        ("roulette", [[1, 2, 3]], "shape"),
        ("roulette", [0.5], "whole numbers"),
        ("sicbo", [1, 2, 3], "shape"),
        ("sicbo", [[0, 1, 2]], "1 to 6"),
        ("sicbo", [[1, 2, 7]], "1 to 6"),
        ("blackjack", [1], "roulette or sicbo"),
    ],
)
def test_bad_outcomes_are_refused(game: str, outcomes: object, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        watch(game, outcomes)


def test_labels_must_match_the_outcomes() -> None:
    with pytest.raises(ValueError, match="round ids"):
        watch("roulette", [1, 2], rounds=["a"])
    with pytest.raises(ValueError, match="times"):
        watch("roulette", [1, 2], times=[datetime(2026, 1, 1, tzinfo=UTC)])
