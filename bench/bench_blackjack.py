"""Benchmark: blackjack engine rounds per second on one core.

One box, one bettor, a basic-strategy-like decision rule (hit hard totals below 17 unless the dealer shows 2-6
and the hand is 12 or more; hit soft totals below 18; double 10 and 11 against a lower dealer card; split aces
and eights; decline every offer), every automation on (shuffles, burns, the deal, the dealer's draw,
settlement), 6 decks dealt from a shoe to 75% penetration with a seeded PCG64 stream.

The baseline, measured in the same process, is a bare round in plain Python: the same shoe and generator,
the same decision rule, totals and a dealer drawing to 17, with no rules object, no validation, no operations
log and no side bets — the floor any faithful engine in pure Python stands on. Times are CPU time of this
process (``time.process_time``), the best of three seeds, engine and bare runs alternating seed by seed. The
ratio engine÷baseline is the figure to compare across machines: on a shared machine the absolute speeds move
with the load, the ratio much less.
Run: ``make bench`` (or ``.venv/bin/python bench/bench_blackjack.py [ROUNDS]``).
"""

from __future__ import annotations

import sys
import time

from croupier.blackjack.autoplay import answer, choose
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import BlackjackRules
from croupier.blackjack.table import BlackjackTable
from croupier.primitives.cards import Card, deck
from croupier.primitives.pcg import SeededRandom


def engine_rounds(n: int, seed: int = 1) -> float:
    """Seconds for ``n`` engine rounds."""
    table = BlackjackTable(BlackjackRules(decks=6), SeededRandom(seed))
    t0 = time.process_time()
    for _ in range(n):
        rnd: BlackjackRound = table.open_round()
        rnd.place_bet(1, "ana", main=10)
        rnd.close_betting()
        while (q := rnd.pending) is not None:
            rnd.act(answer(rnd, q))
    return time.process_time() - t0


def _total(cards: list[Card]) -> tuple[int, bool]:
    hard = sum(c.value for c in cards)
    soft = any(c.is_ace for c in cards) and hard <= 11
    return (hard + 10, True) if soft else (hard, False)


def bare_rounds(n: int, seed: int = 1) -> float:
    """Seconds for ``n`` bare rounds (see the module docstring)."""
    rng = SeededRandom(seed)
    shoe: list[Card] = []
    pos = cut = 0
    t0 = time.process_time()
    for _ in range(n):
        if pos >= cut:
            shoe = deck() * 6
            rng.shuffle(shoe)
            pos, cut = 1, len(shoe) - 78  # burn one; 78 cards behind the cut
        hands = [[shoe[pos], shoe[pos + 2]]]
        dealer = [shoe[pos + 1]]
        pos += 3
        up = dealer[0].value
        up = 11 if up == 1 else up
        i = 0
        while i < len(hands):
            hand = hands[i]
            while True:
                total, soft = _total(hand)
                if total >= 21:
                    break
                pair = hand[0].rank.value if len(hand) == 2 and hand[0].rank is hand[1].rank else None
                actions = ("hit", "stand", "double", "split") if len(hand) == 2 else ("hit", "stand")
                a = choose(actions, total, soft, pair, up)
                if a == "stand":
                    break
                if a == "split":
                    hands.insert(i + 1, [hand.pop()])
                hand.append(shoe[pos])
                pos += 1
                if a == "double":
                    break
            i += 1
        while _total(dealer)[0] < 17:
            dealer.append(shoe[pos])
            pos += 1
        d = _total(dealer)[0]
        _ = sum(1 if _total(h)[0] <= 21 and (d > 21 or _total(h)[0] > d) else -1 for h in hands)
    return time.process_time() - t0


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    # Engine and bare rounds alternate, seed by seed, so that a change in the machine's load weighs on both.
    engine_times, bare_times = [], []
    for seed in (1, 2, 3):
        engine_times.append(engine_rounds(n, seed))
        bare_times.append(bare_rounds(n, seed))
    engine, bare = min(engine_times), min(bare_times)
    print(f"{'benchmark':44} {'rounds/s':>10} {'µs/round':>9}")
    print(f"{'blackjack engine, 1 box, all automations':44} {n / engine:10,.0f} {1e6 * engine / n:9.1f}")
    print(f"{'bare round, same shoe and decisions':44} {n / bare:10,.0f} {1e6 * bare / n:9.1f}")
    print(f"engine ÷ baseline speed: {bare / engine:.3f}  (the engine takes {engine / bare:.1f}× the bare time)")


if __name__ == "__main__":
    main()
