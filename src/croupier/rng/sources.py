"""Where the samples of ``croupier rng test SOURCE`` come from: the engine's generators, files, broken generators.

A SOURCE is one of

* ``system`` — the operating system's strong generator through the engine's own code:
  :class:`croupier.primitives.chance.SystemRandom`'s ``pocket()``, ``dice()`` and ``shuffle()``, so what is
  certified is what plays; bits are ``os.urandom``'s bytes;
* ``seeded:SEED`` — the engine's :class:`croupier.primitives.pcg.SeededRandom` stream for ``SEED``. For speed
  the outcomes are computed vectorised from ``numpy.random.PCG64(SEED).random_raw()`` with the engine's mapping
  (the top ``k`` bits of each 64-bit word, rejected while out of range; Fisher–Yates from the last position
  down): outcome for outcome and shuffle for shuffle the engine's (the tests prove it). Its bits are the words,
  most significant bit first: the bits of ``SeededRandom(SEED).getrandbits(64·w)``;
* ``broken:NAME[:SEED]`` — one of :data:`BROKEN`, the deliberately wrong generators the suite must catch;
* a path to a FILE of recorded results (formats below).

Samples (:class:`Sample`): roulette pockets as a 1-D array of 0-36; sic bo rolls as an ``(N, 3)`` array of faces
1-6; blackjack shoes as an ``(S, 52·decks)`` array of card ids in dealing order (top of the shoe first); bits as
a 1-D ``uint8`` array of 0/1.

**Card ids.** Card id ``c`` of a shoe of ``d`` decks is card ``c mod 52`` of
:func:`croupier.primitives.cards.deck` (suit by suit S H D C, each A 2 … 9 T J Q K), so its rank is ``c mod 13``
(0 = ace … 12 = king) and its suit ``(c // 13) mod 4``; ``c // 52`` only tells the copies of a card apart. The
engine shuffles ``deck() * d``, so its shuffle of the ids ``0 … 52d-1`` is the order of its shoe.

**File formats** (UTF-8 text except for bits; blank lines and anything after ``#`` ignored):

* ``bits``: raw bytes, each read most significant bit first;
* ``roulette``: pockets 0-36, one per line or separated by spaces or commas;
* ``sicbo``: one roll a line, three faces 1-6 separated by spaces or commas (``1 4 6`` or ``1,4,6``);
* ``blackjack``: one shuffled shoe a line, top card first, as card codes separated by spaces or commas
  (``AS 10H TD 7C …``: rank A 2-9 T or 10 J Q K, then suit S H D C); every line holds the same number of whole
  decks, each card as many times as there are decks. A card's copies get ids in the order they appear.

A file that cannot be read, or a bad value in it, raises ``ValueError`` naming the file, the line and the value.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import numpy.typing as npt

from croupier.primitives.cards import parse_card
from croupier.primitives.chance import SystemRandom
from croupier.rng import _game_kernels as gk

__all__ = [
    "BROKEN",
    "GAMES",
    "Game",
    "Progress",
    "Sample",
    "Source",
    "draw",
    "parse_source",
]

Game = Literal["roulette", "sicbo", "blackjack", "bits"]
GAMES: tuple[Game, ...] = ("roulette", "sicbo", "blackjack", "bits")
Progress = Callable[[int, int], None]
"""A progress callback: ``(done, total)``."""

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
U8 = npt.NDArray[np.uint8]

DECK = 52
_CHUNK_WORDS = 1 << 20
_SYSTEM_CHUNK = 10_000

BROKEN: dict[str, str] = {
    "modulo-bias": (
        "a byte of a good 64-bit word taken % n (two bytes when n > 256) instead of rejection: pockets 0-33 come "
        "7/256 of the time and 34-36 6/256; its bytes are (x % 256) for x uniform in 0-999"
    ),
    "naive-shuffle": (
        "a shuffle that swaps every position with any position j in [0, n) instead of [0, i]; pockets, faces "
        "and bytes are the first item of the possible outcomes so shuffled afresh each time"
    ),
    "off-by-one-fisher-yates": (
        "Fisher-Yates with j in [0, i) instead of [0, i] (Sattolo's algorithm: never leaves a card in place); "
        "pockets, faces and bytes are the first item of the outcomes so shuffled (0, face 1, byte 0 never come)"
    ),
    "lcg-low-bits": (
        "the 32-bit LCG s = 1103515245 s + 12345 mod 2^32 whose low bits make the outcomes (low k bits, "
        "rejection) and whose low byte makes each byte: bit b repeats with period 2^(b+1)"
    ),
    "stuck-bit": (
        "a good 64-bit generator with bit 62 of every word stuck at 0: under the top-bits mapping the second "
        "bit of every draw is 0; the bit stream is the words, so every 64th bit is 0"
    ),
}
"""The broken generators the suite ships (``broken:NAME``), each wrong the way real code gets it wrong."""

LCG_A = 1103515245
LCG_C = 12345
STUCK_BIT = 62


@dataclass(frozen=True)
class Source:
    """A parsed SOURCE: ``kind`` is ``system``, ``seeded``, ``broken`` or ``file``."""

    kind: Literal["system", "seeded", "broken", "file"]
    spec: str
    seed: int | None = None
    name: str | None = None
    path: Path | None = None


@dataclass(frozen=True)
class Sample:
    """What is tested: the ``game``, the ``data`` (see the module's docstring for each game's shape), the
    blackjack shoe's ``decks`` (0 for other games), a human ``description`` of where it came from, and its
    ``fingerprint``: SHA-256 (hex) of the game, the shape, the decks and the data's canonical bytes
    (:func:`fingerprint`), so that a report names exactly the data tested."""

    game: Game
    data: npt.NDArray[np.generic]
    decks: int
    description: str
    fingerprint: str

    @property
    def size(self) -> int:
        """The number of outcomes: spins, rolls, shoes or bits."""
        return int(self.data.shape[0])


def fingerprint(game: str, data: npt.NDArray[np.generic], decks: int = 0) -> str:
    """SHA-256 (hex) of ``croupier-rng-sample/1 game=… decks=… shape=…`` and a newline, then the data as
    little-endian 64-bit integers (bits: one byte per bit, 0 or 1), row after row."""
    arr = np.ascontiguousarray(data, dtype=np.uint8 if game == "bits" else "<i8")
    h = hashlib.sha256(f"croupier-rng-sample/1 game={game} decks={decks} shape={list(arr.shape)}\n".encode())
    h.update(arr.tobytes())
    return h.hexdigest()


def parse_source(spec: str) -> Source:
    """``system``, ``seeded:SEED``, ``broken:NAME[:SEED]`` or a file's path; ``ValueError`` naming what is wrong."""
    text = spec.strip()
    if text == "system":
        return Source("system", text)
    if text.startswith("seeded:"):
        return Source("seeded", text, seed=_seed(text[len("seeded:") :], spec))
    if text.startswith("broken:"):
        name, _, seed = text[len("broken:") :].partition(":")
        if name not in BROKEN:
            raise ValueError(f"unknown broken generator {name!r} in {spec!r}: choose one of {', '.join(BROKEN)}")
        return Source("broken", text, seed=_seed(seed, spec) if seed else 1, name=name)
    path = Path(text)
    if not path.is_file():
        raise ValueError(
            f"{spec!r} is not a source: give system, seeded:SEED, broken:NAME[:SEED] or the path of a file "
            "(no such file)"
        )
    return Source("file", text, path=path)


def _seed(text: str, spec: str) -> int:
    if not text.isdigit():
        raise ValueError(f"the seed {text!r} in {spec!r} is not a non-negative whole number")
    return int(text)


def draw(
    source: Source | str,
    game: Game,
    n: int | None = None,
    *,
    decks: int = 8,
    progress: Progress | None = None,
) -> Sample:
    """A sample of ``game`` from ``source``: ``n`` roulette spins, sic bo rolls, bits, or for blackjack ``n``
    shoes of ``decks`` decks; from a file, its first ``n`` outcomes (all of them when ``n`` is None)."""
    src = parse_source(source) if isinstance(source, str) else source
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}: choose one of {', '.join(GAMES)}")
    if src.kind == "file":
        assert src.path is not None
        data, file_decks = _read_file(src.path, game)
        if n is not None:
            data = data[:n]
        d = file_decks if game == "blackjack" else 0
        what = _what(game, int(data.shape[0]), d)
        return _sample(game, data, d, f"{what} read from the file {src.path}")
    if n is None or n < 1:
        raise ValueError(f"a generator needs a positive number of outcomes to draw, not {n!r}")
    if game == "blackjack" and (isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= 8):
        raise ValueError(f"a shoe holds 1 to 8 decks, not {decks!r}")
    d = decks if game == "blackjack" else 0
    what = _what(game, n, d)
    if src.kind == "system":
        data = _system(game, n, decks, progress)
        how = "os.urandom" if game == "bits" else "the operating system's generator through the engine's SystemRandom"
        return _sample(game, data, d, f"{what} from {how}")
    assert src.seed is not None
    gen = _SEEDED if src.kind == "seeded" else _GENERATORS[str(src.name)]
    data = gen.draw(game, n, decks, src.seed, progress)
    if src.kind == "seeded":
        how = f"the engine's SeededRandom({src.seed}) (PCG64)"
    else:
        how = f"the broken generator {src.name} (seed {src.seed}): {BROKEN[str(src.name)]}"
    return _sample(game, data, d, f"{what} from {how}")


def _what(game: str, n: int, decks: int) -> str:
    if game == "blackjack":
        return f"{n:,} shuffled shoe{'s' if n != 1 else ''} of {decks} deck{'s' if decks != 1 else ''}"
    unit = {"roulette": "roulette spin", "sicbo": "sic bo roll", "bits": "bit"}[game]
    return f"{n:,} {unit}{'s' if n != 1 else ''}"


def _sample(game: Game, data: npt.NDArray[np.generic], decks: int, description: str) -> Sample:
    return Sample(game, data, decks, description, fingerprint(game, data, decks))


# -- the engine's SystemRandom ---------------------------------------------------------------------------------


def _system(game: Game, n: int, decks: int, progress: Progress | None) -> npt.NDArray[np.generic]:
    if game == "bits":
        data = np.unpackbits(np.frombuffer(os.urandom((n + 7) // 8), dtype=np.uint8))[:n]
        if progress is not None:
            progress(n, n)
        return data
    rng = SystemRandom()
    if game == "blackjack":
        m = DECK * decks
        shoes = np.empty((n, m), dtype=np.int16)
        for s in range(n):
            cards = list(range(m))
            rng.shuffle(cards)
            shoes[s] = cards
            if progress is not None and (s + 1) % 100 == 0:
                progress(s + 1, n)
        if progress is not None:
            progress(n, n)
        return shoes
    out: npt.NDArray[np.int8] = np.empty((n, 3) if game == "sicbo" else n, dtype=np.int8)
    for start in range(0, n, _SYSTEM_CHUNK):
        stop = min(n, start + _SYSTEM_CHUNK)
        if game == "sicbo":
            out[start:stop] = [rng.dice() for _ in range(stop - start)]
        else:
            out[start:stop] = [rng.pocket() for _ in range(stop - start)]
        if progress is not None:
            progress(stop, n)
    return out


# -- generators computed from 64-bit words -----------------------------------------------------------------------


class _Words:
    """A stream of 64-bit words handed to the kernels in chunks; ``pos`` is the next unused word of ``buf``."""

    def __init__(self, fill: Callable[[int], U64]) -> None:
        self._fill = fill
        self.buf: U64 = np.empty(0, dtype=np.uint64)
        self.pos = 0

    def refill(self, at_least: int = _CHUNK_WORDS) -> None:
        """Keep the unused words and append fresh ones."""
        self.buf = np.concatenate([self.buf[self.pos :], self._fill(max(at_least, _CHUNK_WORDS))])
        self.pos = 0


def _pcg_words(seed: int) -> Callable[[int], U64]:
    bitgen = np.random.PCG64(seed)

    def fill(n: int) -> U64:
        return np.asarray(bitgen.random_raw(n), dtype=np.uint64)

    return fill


def _stuck_words(seed: int) -> Callable[[int], U64]:
    good = _pcg_words(seed)
    mask = np.uint64(~(1 << STUCK_BIT) & 0xFFFF_FFFF_FFFF_FFFF)

    def fill(n: int) -> U64:
        return good(n) & mask

    return fill


def _lcg_words(seed: int) -> Callable[[int], U64]:
    state = [seed & 0xFFFF_FFFF]

    def fill(n: int) -> U64:
        out = np.empty(n, dtype=np.uint64)
        state[0] = int(gk.lcg_states(state[0], LCG_A, LCG_C, out))
        return out

    return fill


@dataclass(frozen=True)
class _Generator:
    """A generator computed from words: where the words come from (by seed), how a value in ``[0, m)`` is drawn
    from them (:data:`~croupier.rng._game_kernels.TOP`, ``LOW``, ``MOD``), how a shoe is shuffled, whether the
    pockets, faces and bytes are the first item of a list shuffled afresh (``via_shuffle``), and how its bits
    are made (``bits``: ``words`` the words most significant bit first, ``low-byte`` each word's low byte,
    ``mod1000`` bytes ``x % 256`` for ``x`` uniform in 0-999, ``values`` a byte drawn like any value)."""

    words: Callable[[int], Callable[[int], U64]]
    method: int
    shuffle: int
    via_shuffle: bool
    bits: Literal["words", "low-byte", "mod1000", "values"]

    def values(self, n: int, m: int, seed: int, progress: Progress | None, total: int | None = None) -> I64:
        """``n`` values in ``[0, m)``."""
        stream = _Words(self.words(seed))
        out = np.empty(n, dtype=np.int64)
        done = 0
        while done < n:
            if self.via_shuffle:
                done, stream.pos = gk.top_of_shuffles(stream.buf, stream.pos, out, done, m, self.shuffle, self.method)
            else:
                done, stream.pos = gk.draw_values(stream.buf, stream.pos, out, done, m, self.method)
            if progress is not None:
                progress(done if total is None else done * total // n, n if total is None else total)
            if done < n:
                need = (n - done) * (m if self.via_shuffle else 2)
                stream.refill(min(need, 8 * _CHUNK_WORDS))
        return out

    def shoes(self, n: int, decks: int, seed: int, progress: Progress | None) -> npt.NDArray[np.int16]:
        """``n`` shuffled shoes of ``decks`` decks."""
        stream = _Words(self.words(seed))
        rows = np.empty((n, DECK * decks), dtype=np.int64)
        done = 0
        while done < n:
            done, stream.pos = gk.shuffle_rows(stream.buf, stream.pos, rows, done, self.shuffle, self.method)
            if progress is not None:
                progress(done, n)
            if done < n:
                stream.refill(min((n - done) * 2 * rows.shape[1], 8 * _CHUNK_WORDS))
        return rows.astype(np.int16)

    def bit_array(self, n: int, seed: int, progress: Progress | None) -> U8:
        """``n`` bits."""
        nbytes = (n + 7) // 8
        if self.bits == "words":
            words = self.words(seed)((nbytes + 7) // 8)
            raw = words.astype(">u8").view(np.uint8)
        elif self.bits == "low-byte":
            raw = (self.words(seed)(nbytes) & np.uint64(0xFF)).astype(np.uint8)
        elif self.bits == "mod1000":
            raw = (self.values(nbytes, 1000, seed, None) % 256).astype(np.uint8)
        else:
            raw = self.values(nbytes, 256, seed, None).astype(np.uint8)
        if progress is not None:
            progress(n, n)
        return np.unpackbits(raw)[:n]

    def draw(self, game: Game, n: int, decks: int, seed: int, progress: Progress | None) -> npt.NDArray[np.generic]:
        """``n`` outcomes of ``game``."""
        if game == "roulette":
            return self.values(n, 37, seed, progress).astype(np.int8)
        if game == "sicbo":
            return (1 + self.values(3 * n, 6, seed, progress, total=n)).astype(np.int8).reshape(n, 3)
        if game == "blackjack":
            return self.shoes(n, decks, seed, progress)
        return self.bit_array(n, seed, progress)


_SEEDED = _Generator(_pcg_words, gk.TOP, gk.FISHER_YATES, False, "words")
"""The engine's ``SeededRandom``, vectorised."""

_GENERATORS: dict[str, _Generator] = {
    "modulo-bias": _Generator(_pcg_words, gk.MOD, gk.FISHER_YATES, False, "mod1000"),
    "naive-shuffle": _Generator(_pcg_words, gk.TOP, gk.NAIVE, True, "values"),
    "off-by-one-fisher-yates": _Generator(_pcg_words, gk.TOP, gk.SATTOLO, True, "values"),
    "lcg-low-bits": _Generator(_lcg_words, gk.LOW, gk.FISHER_YATES, False, "low-byte"),
    "stuck-bit": _Generator(_stuck_words, gk.TOP, gk.FISHER_YATES, False, "words"),
}


# -- files -----------------------------------------------------------------------------------------------------


def _read_file(path: Path, game: Game) -> tuple[npt.NDArray[np.generic], int]:
    """The outcomes of ``path`` for ``game`` and, for blackjack, the decks of its shoes."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read the file {path}: {exc.strerror or exc}") from exc
    if game == "bits":
        if not raw:
            raise ValueError(f"the file {path} is empty: no bits to test")
        return np.unpackbits(np.frombuffer(raw, dtype=np.uint8)), 0
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"the file {path} is not UTF-8 text (byte {exc.start}): {game} results are text") from exc
    lines = [(i, line.split("#", 1)[0].replace(",", " ").split()) for i, line in enumerate(text.splitlines(), 1)]
    lines = [(i, tokens) for i, tokens in lines if tokens]
    if not lines:
        raise ValueError(f"the file {path} holds no {game} results")
    if game == "roulette":
        return _pockets(path, lines), 0
    if game == "sicbo":
        return _rolls(path, lines), 0
    return _shoes(path, lines)


def _pockets(path: Path, lines: list[tuple[int, list[str]]]) -> npt.NDArray[np.int8]:
    out: list[int] = []
    for i, tokens in lines:
        for tok in tokens:
            if not tok.isdigit() or int(tok) > 36:
                raise ValueError(f"{path}, line {i}: {tok!r} is not a roulette pocket 0-36")
            out.append(int(tok))
    return np.asarray(out, dtype=np.int8)


def _rolls(path: Path, lines: list[tuple[int, list[str]]]) -> npt.NDArray[np.int8]:
    out = np.empty((len(lines), 3), dtype=np.int8)
    for k, (i, tokens) in enumerate(lines):
        if len(tokens) != 3:
            raise ValueError(f"{path}, line {i}: {' '.join(tokens)!r} is not one roll of three dice")
        for c, tok in enumerate(tokens):
            if not tok.isdigit() or not 1 <= int(tok) <= 6:
                raise ValueError(f"{path}, line {i}: {tok!r} is not a die face 1-6")
            out[k, c] = int(tok)
    return out


def _card_index() -> dict[str, int]:
    from croupier.primitives.cards import deck

    index = {card.code: k for k, card in enumerate(deck())}
    return index


def _shoes(path: Path, lines: list[tuple[int, list[str]]]) -> tuple[npt.NDArray[np.int16], int]:
    index = _card_index()
    first_line, first = lines[0]
    size = len(first)
    if size % DECK or not 1 <= size // DECK <= 8:
        raise ValueError(f"{path}, line {first_line}: a shoe of {size} cards is not 1 to 8 whole decks of {DECK} cards")
    decks = size // DECK
    out = np.empty((len(lines), size), dtype=np.int16)
    for k, (i, tokens) in enumerate(lines):
        if len(tokens) != size:
            raise ValueError(
                f"{path}, line {i}: {len(tokens)} cards, but the shoes of this file hold {size} ({decks} "
                f"deck{'s' if decks > 1 else ''}, as line {first_line})"
            )
        copies = [0] * DECK
        for c, tok in enumerate(tokens):
            code = index.get(tok.upper())
            if code is None:
                try:
                    code = index[parse_card(tok.upper()).code]
                except ValueError:
                    raise ValueError(f"{path}, line {i}: {tok!r} is not a card code (e.g. AS, 10H, TD, 7C)") from None
            if copies[code] >= decks:
                raise ValueError(
                    f"{path}, line {i}: {tok!r} appears more than {decks} time{'s' if decks > 1 else ''} "
                    f"in a shoe of {decks} deck{'s' if decks > 1 else ''}"
                )
            out[k, c] = code + DECK * copies[code]
            copies[code] += 1
    return out, decks
