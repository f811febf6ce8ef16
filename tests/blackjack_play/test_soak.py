"""A 100,000-round soak: random valid rule sets, random legal layouts and decisions, seeded and deterministic.

Each round: every question has a legal answer that the round accepts, the round ends within a bounded number
of answers, money is conserved in whole units, and the cards out of the shoe agree with the shoe's counts
(no card more often than the decks hold it). No timing is asserted; on one core the soak takes about a
minute (see the module's constants).

A random shoe that runs dry mid-round (a known defect, test_invariants.test_shoe_runs_dry_mid_round) is
voided (BJ 5.1.2) and counted; the table then goes on from a fresh shoe.
"""

from __future__ import annotations

from croupier.blackjack.table import BlackjackTable
from croupier.primitives.pcg import SeededRandom

from .strategies import RandomChooser, ShoeLedger, ShoeRanDry, check_round, make_rules, place_random_bets, play_round

RULE_SETS = 200
ROUNDS_PER_RULE_SET = 500
SEED = 20_090_057  # Despacho 57/2009


def soak_one(index: int) -> tuple[int, int, int]:
    """Play one rule set; return (rounds settled, rounds voided because the shoe ran dry, answers)."""
    c = RandomChooser(SEED * 1_000 + index)
    rules = make_rules(c)
    table = BlackjackTable(rules, SeededRandom([SEED, index]))
    ledger = ShoeLedger(rules)
    settled = dry = answers = 0
    for i in range(ROUNDS_PER_RULE_SET):
        open_before = list(table.open_streaks)
        rnd = table.open_round()
        place_random_bets(c, table, rnd, add_to_percent=10)
        try:
            answers += play_round(c, rnd, thorough=False, expose_percent=1)
        except ShoeRanDry:
            dry += 1
        else:
            check_round(rnd, open_before)
            settled += 1
        ledger.absorb(rnd)
        ledger.check(table, composition=i % 10 == 0)
    return settled, dry, answers


def test_soak_100k_rounds() -> None:
    settled = dry = answers = 0
    for index in range(RULE_SETS):
        s, d, a = soak_one(index)
        settled, dry, answers = settled + s, dry + d, answers + a
    assert settled + dry == RULE_SETS * ROUNDS_PER_RULE_SET >= 100_000
    assert settled > 0.99 * (settled + dry)
    assert answers > settled  # decisions were really made
