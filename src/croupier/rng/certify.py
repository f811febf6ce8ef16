"""``croupier rng test``: a whole certification run, from a SOURCE to a verdict (issue 18).

For each game asked for (``bits``, ``roulette``, ``sicbo``, ``blackjack``) the run draws one sample of
``repeat × samples`` outcomes from the source (:mod:`croupier.rng.sources`), splits it into ``repeat`` equal runs,
and tests each run: the NIST SP 800-22 battery for bits (:mod:`croupier.rng.nist`), the game-level tests for the
games (:mod:`croupier.rng.game`). With ten runs or more, the p-values each test gave across the runs are tested for
uniformity (:mod:`croupier.rng.second_level`). dieharder (:mod:`croupier.rng.dieharder`) tests the source's byte
stream: for a generator, the stream the bit sample was the start of, read for as long as dieharder wants; for a
file, the file's bytes.

The verdict (:func:`croupier.rng.results.overall`) takes every p-value of the run together, Šidák-adjusted for
their number: a sound generator fails the whole certification with probability at most alpha.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from croupier.rng import dieharder as dh
from croupier.rng import nist, second_level, sources
from croupier.rng.game import run_game_tests
from croupier.rng.results import TestResult, Verdict, check_alpha, overall

GAME_ORDER: tuple[sources.Game, ...] = ("bits", "roulette", "sicbo", "blackjack")
DEFAULT_SAMPLES: dict[str, int] = {"bits": 1_000_000, "roulette": 1_000_000, "sicbo": 1_000_000, "blackjack": 2_500}
"""Outcomes per run when ``--samples`` is not given: a million bits (the size SP 800-22 recommends, and the least
its linear-complexity and universal tests need), a million spins or rolls, 2,500 shoes (enough for the full
card × position contingency of eight decks: at least 5 expected in each of its 416 × 416 cells)."""
MAX_REPEAT = 1000
DIEHARDER_CHUNK = 1 << 22
"""Bytes handed to dieharder at a time."""

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``."""


@dataclass
class GameRun:
    """The tests of one game: the sample's ``description``, its per-run ``size`` and ``fingerprint``, each run's
    results (``runs``) and the second level over them."""

    game: str
    description: str
    size: int
    decks: int
    fingerprint: str
    runs: list[list[TestResult]]
    second: list[TestResult] = field(default_factory=list)

    def results(self) -> list[TestResult]:
        """Every result: each run's, then the second level's."""
        return [r for run in self.runs for r in run] + list(self.second)

    def to_json(self, alpha: float) -> dict[str, object]:
        """The game's part of the report's JSON."""
        return {
            "game": self.game,
            "description": self.description,
            "samples_per_run": self.size,
            "runs": len(self.runs),
            "decks": self.decks or None,
            "fingerprint": self.fingerprint,
            "verdict": overall(self.results(), alpha),
            "results": [[r.to_json(alpha) for r in run] for run in self.runs],
            "second_level": [r.to_json(alpha) for r in self.second],
        }


@dataclass
class Certification:
    """A whole run: the ``source``, ``alpha``, each game's tests, dieharder's, and the CPU ``seconds`` it took."""

    source: str
    alpha: float
    repeat: int
    games: list[GameRun]
    dieharder: list[TestResult]
    seconds: float = 0.0
    extra: dict[str, object] = field(default_factory=dict)

    def results(self) -> list[TestResult]:
        """Every result of the run."""
        return [r for g in self.games for r in g.results()] + list(self.dieharder)

    @property
    def verdict(self) -> Verdict:
        """The overall verdict at :attr:`alpha`."""
        return overall(self.results(), self.alpha)

    @property
    def fingerprint(self) -> str:
        """SHA-256 of the games' sample fingerprints, in order: one name for all the data tested."""
        h = hashlib.sha256(b"croupier-rng-certification/1\n")
        for g in self.games:
            h.update(f"{g.game} {g.fingerprint}\n".encode())
        return h.hexdigest()

    def counts(self) -> dict[str, int]:
        """How many results passed, failed and were skipped."""
        out = {"pass": 0, "fail": 0, "skipped": 0}
        for r in self.results():
            out[r.verdict(self.alpha)] += 1
        return out

    def to_json(self) -> dict[str, object]:
        """The report as JSON (``croupier rng test --json``)."""
        return {
            "source": self.source,
            "alpha": self.alpha,
            "repeat": self.repeat,
            "verdict": self.verdict,
            "counts": self.counts(),
            "fingerprint": self.fingerprint,
            "cpu_seconds": round(self.seconds, 3),
            "games": [g.to_json(self.alpha) for g in self.games],
            "dieharder": [r.to_json(self.alpha) for r in self.dieharder],
            **self.extra,
        }


def check_repeat(repeat: object) -> int:
    """``repeat`` as a number of runs, 1 to :data:`MAX_REPEAT`."""
    if isinstance(repeat, bool) or not isinstance(repeat, int) or not 1 <= repeat <= MAX_REPEAT:
        raise ValueError(f"--repeat must be 1 to {MAX_REPEAT} runs, not {repeat!r}")
    return repeat


def check_samples(samples: object) -> int:
    """``samples`` as a positive number of outcomes per run."""
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ValueError(f"--samples must be a positive number of outcomes, not {samples!r}")
    return samples


MOST: dict[str, int] = {"bits": 4_000_000_000, "roulette": 500_000_000, "sicbo": 200_000_000, "blackjack": 250_000}
"""The most a run may draw in all (``repeat × samples``) of each game: bits, spins, rolls, or shoes (eight-deck shoes
of 416 cards: 100 million cards), so that a mistyped size is refused at once instead of filling the memory."""


def check_size(game: str, total: int, decks: int) -> None:
    """``total`` outcomes of ``game`` (all runs together) within :data:`MOST`, else ``ValueError`` naming them."""
    most = MOST[game] * 8 // decks if game == "blackjack" else MOST[game]
    if total > most:
        unit = {"bits": "bits", "roulette": "spins", "sicbo": "rolls", "blackjack": "shoes"}[game]
        raise ValueError(
            f"--repeat × --samples asks for {total:,} {unit} of {game}; a run draws at most {most:,} "
            "(name one game with --game to size it alone)"
        )


def split(data: npt.NDArray[np.generic], runs: int) -> list[npt.NDArray[np.generic]]:
    """``data`` cut into ``runs`` equal consecutive runs (a remainder is left out)."""
    each = data.shape[0] // runs
    return [data[i * each : (i + 1) * each] for i in range(runs)]


def test_sample(sample: sources.Sample, runs: int, progress: Callable[[int, int], None] | None = None) -> GameRun:
    """The tests of a drawn sample, split into ``runs`` runs."""
    parts = split(sample.data, runs)
    if parts[0].shape[0] == 0:
        raise ValueError(f"the sample holds {sample.size:,} outcomes: too few to split into {runs} runs")
    out: list[list[TestResult]] = []
    for i, part in enumerate(parts):
        if sample.game == "bits":
            out.append(nist.battery(part))
        else:
            out.append(run_game_tests(sample.game, part, decks=sample.decks or None))
        if progress is not None:
            progress(i + 1, runs)
    second = second_level.second_level(out) if runs > 1 else []
    size = int(parts[0].shape[0])
    return GameRun(sample.game, sample.description, size, sample.decks, sample.fingerprint, out, second)


def byte_stream(source: sources.Source, first: bytes) -> Callable[[], bytes]:
    """The source's byte stream for dieharder, beginning with ``first`` (the bytes the bit sample held): the OS's
    generator reads on; a seeded generator's PCG64 words go on where the sample stopped; a broken generator is
    drawn again with the next seeds (each chunk is as broken as the first)."""
    sent = [False]
    if source.kind == "system":

        def system() -> bytes:
            if not sent[0]:
                sent[0] = True
                return first
            return os.urandom(DIEHARDER_CHUNK)

        return system
    if source.kind == "seeded":
        assert source.seed is not None
        words = len(first) // 8  # a partial last word is dropped: the stream goes on from the next whole word
        gen = np.random.PCG64(source.seed)
        gen.advance(words)

        def seeded() -> bytes:
            if not sent[0] and words:
                sent[0] = True
                return first[: words * 8]
            return bytes(gen.random_raw(DIEHARDER_CHUNK // 8).astype(">u8").tobytes())

        return seeded
    seeds: Iterator[int] = iter(range((source.seed or 0) + 1, 1 << 62))

    def broken() -> bytes:
        if not sent[0]:
            sent[0] = True
            return first
        nxt = sources.Source(source.kind, source.spec, seed=next(seeds), name=source.name)
        bits = sources.draw(nxt, "bits", DIEHARDER_CHUNK * 8).data
        return np.packbits(bits.astype(np.uint8)).tobytes()

    return broken


def certify(
    source: str,
    *,
    games: Sequence[str] = GAME_ORDER,
    samples: int | None = None,
    alpha: float = 0.01,
    repeat: int = 1,
    decks: int = 8,
    dieharder: Sequence[int] | None = dh.QUICK,
    psamples: int | None = None,
    progress: Progress | None = None,
) -> Certification:
    """Test ``source`` on ``games`` (see the module's docstring); ``dieharder=None`` leaves dieharder out. Bad
    input raises ``ValueError`` naming the value before anything is drawn."""
    level = check_alpha(alpha)
    runs = check_repeat(repeat)
    if samples is not None:
        check_samples(samples)
    src = sources.parse_source(source)
    for g in games:
        if g not in GAME_ORDER:
            raise ValueError(f"unknown game {g!r}: choose {', '.join(GAME_ORDER)} or all")
    if src.kind == "file" and len(games) != 1:
        raise ValueError(f"a file holds the results of one game: name it with --game ({', '.join(GAME_ORDER)})")
    todo = dh.check_tests(dieharder) if dieharder is not None else None
    if src.kind != "file" or samples is not None:
        for g in games:
            check_size(g, runs * (samples or DEFAULT_SAMPLES[g]), decks if 1 <= decks <= 8 else 8)
    started = time.process_time()
    out: list[GameRun] = []
    first = b""
    for g in games:
        game: sources.Game = g  # type: ignore[assignment]
        n = None if src.kind == "file" and samples is None else runs * (samples or DEFAULT_SAMPLES[game])

        def drew(done: int, total: int, stage: str = f"drawing {game}") -> None:
            if progress is not None:
                progress(stage, done, total)

        sample = sources.draw(src, game, n, decks=decks, progress=drew)
        if game == "bits":
            first = np.packbits(sample.data.astype(np.uint8)).tobytes()

        def tested(done: int, total: int, stage: str = f"testing {game}") -> None:
            if progress is not None:
                progress(stage, done, total)

        out.append(test_sample(sample, runs, tested))
    found: list[TestResult] = []
    if todo is not None and "bits" in games:

        def hard(done: int, total: int) -> None:
            if progress is not None:
                progress("dieharder", done, total)

        if src.kind == "file":
            assert src.path is not None
            found = dh.run_file(src.path, todo, psamples=psamples, progress=hard)
        else:
            found = dh.run_stream(byte_stream(src, first), todo, psamples=psamples, progress=hard)
    return Certification(src.spec, level, runs, out, found, time.process_time() - started)
