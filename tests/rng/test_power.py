"""The power of the suite (:mod:`croupier.rng.power`): every broken generator is caught in every game, at a
sample no larger than the one recorded here, and the good generators pass at the same alpha."""

from __future__ import annotations

import json

import pytest

from croupier.rng.power import PowerRow, format_table, good_rows, power_table, smallest_failing
from croupier.rng.sources import BROKEN, GAMES

ALPHA = 0.01

# The smallest failing sample found with seed 1 and 8-deck shoes (python -c "from croupier.rng.power import *;
# print(format_table(power_table()))"); the test allows twice as much, so a weaker suite fails it.
CAUGHT_BY: dict[tuple[str, str], int] = {
    ("modulo-bias", "roulette"): 12_800,
    ("modulo-bias", "sicbo"): 375,
    ("modulo-bias", "blackjack"): 1_600,
    ("modulo-bias", "bits"): 36_000,
    ("naive-shuffle", "roulette"): 25,
    ("naive-shuffle", "sicbo"): 12,
    ("naive-shuffle", "blackjack"): 260,
    ("naive-shuffle", "bits"): 125,
    ("off-by-one-fisher-yates", "roulette"): 1_200,
    ("off-by-one-fisher-yates", "sicbo"): 25,
    ("off-by-one-fisher-yates", "blackjack"): 70,
    ("off-by-one-fisher-yates", "bits"): 256_000,
    ("lcg-low-bits", "roulette"): 125,
    ("lcg-low-bits", "sicbo"): 25,
    ("lcg-low-bits", "blackjack"): 16,
    ("lcg-low-bits", "bits"): 22_000,
    ("stuck-bit", "roulette"): 125,
    ("stuck-bit", "sicbo"): 12,
    ("stuck-bit", "blackjack"): 25,
    ("stuck-bit", "bits"): 7_500,
}


@pytest.fixture(scope="module")
def table() -> list[PowerRow]:
    tops = {game: 4 * max(n for (_, g), n in CAUGHT_BY.items() if g == game) for game in GAMES}
    rows = power_table(ALPHA, max_samples=tops)
    print("\n" + format_table(rows))
    return rows


def test_the_table_covers_every_broken_generator_and_game(table: list[PowerRow]) -> None:
    assert {(r.generator, r.game) for r in table} == {(f"broken:{b}:1", g) for b in BROKEN for g in GAMES}


@pytest.mark.parametrize(("generator", "game"), sorted(CAUGHT_BY))
def test_each_broken_generator_is_caught(table: list[PowerRow], generator: str, game: str) -> None:
    row = next(r for r in table if r.generator == f"broken:{generator}:1" and r.game == game)
    assert row.status == "caught", row.describe()
    assert row.caught_at is not None and row.caught_at <= 2 * CAUGHT_BY[(generator, game)], row.describe()
    assert row.p_value is not None and row.test is not None
    assert (row.caught_at, "fail") in row.trail  # the deciding sample was tried and failed
    assert all(v == "pass" for n, v in row.trail if n < row.caught_at)


def test_the_seeded_generator_passes_at_the_same_alpha() -> None:
    sizes = {"roulette": 1_000_000, "sicbo": 1_000_000, "blackjack": 2_000, "bits": 1_000_000}
    rows = good_rows(("seeded:1", "seeded:2"), alpha=ALPHA, samples=sizes)  # type: ignore[arg-type]
    print("\n" + format_table(rows))
    assert [r.status for r in rows] == ["passed"] * 8, format_table(rows)


def test_the_system_generator_passes() -> None:
    """``system`` is not reproducible: at alpha = 1e-4 per game a good generator fails this test once in 2,500."""
    sizes = {"roulette": 100_000, "sicbo": 30_000, "blackjack": 300, "bits": 1_000_000}
    rows = good_rows(("system",), alpha=1e-4, samples=sizes)  # type: ignore[arg-type]
    assert [r.status for r in rows] == ["passed"] * 4, format_table(rows)


def test_a_generator_not_caught_is_reported_so() -> None:
    row = smallest_failing("seeded:3", "roulette", alpha=ALPHA, max_samples=1_600)
    assert row.status == "not caught" and row.caught_at is None and row.tried_up_to == 1_600
    assert [n for n, _ in row.trail] == [200, 400, 800, 1_600]
    assert "not caught up to 1,600 spins" in row.describe()
    assert row.cells()[2] == "not caught up to 1,600 spins"
    assert row.to_json()["trail"] == [[200, "pass"], [400, "pass"], [800, "pass"], [1_600, "pass"]]
    json.dumps(row.to_json(), allow_nan=False)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown broken generator 'flaky'"):
        power_table(generators=["flaky"])
    with pytest.raises(ValueError, match="alpha must be"):
        smallest_failing("broken:stuck-bit", "roulette", alpha=0.7)
