"""Certifying the chance (issue 18): the statistical test suite a testing laboratory runs on croupier's random
sources and on a live table's recorded results.

* :mod:`croupier.rng.results` — one test's result and the battery's verdict;
* :mod:`croupier.rng.nist` — the NIST SP 800-22 rev. 1a battery (the 15 bit-level tests);
* :mod:`croupier.rng.game` — game-level tests: pockets and dice, card positions, serial, runs, gaps, coupons, and
  blackjack's first two cards and up cards against their exact probabilities;
* :mod:`croupier.rng.sources` — where the samples come from (the engine's generators, files, broken generators);
* :mod:`croupier.rng.power` — the smallest sample that catches each broken generator;
* :mod:`croupier.rng.watch` — the bias watch on a live table's results.
"""
