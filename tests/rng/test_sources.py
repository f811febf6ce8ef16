"""Where the samples come from (:mod:`croupier.rng.sources`): the vectorised seeded stream is the engine's, outcome
for outcome and shuffle for shuffle; ``system`` goes through the engine's own code; the broken generators are
broken the way they say; files are read, and refused with the file, the line and the value."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from croupier.primitives import chance
from croupier.primitives.cards import deck
from croupier.primitives.pcg import SeededRandom
from croupier.primitives.shoe import Shoe
from croupier.rng.sources import BROKEN, GAMES, Source, draw, fingerprint, parse_source

CODES = [c.code for c in deck()]


# -- the seeded stream is the engine's -----------------------------------------------------------------------


def test_seeded_pockets_are_the_engines() -> None:
    engine = SeededRandom(7)
    assert draw("seeded:7", "roulette", 3_000).data.tolist() == [engine.pocket() for _ in range(3_000)]


def test_seeded_dice_are_the_engines() -> None:
    engine = SeededRandom(8)
    assert [tuple(r) for r in draw("seeded:8", "sicbo", 2_000).data.tolist()] == [engine.dice() for _ in range(2_000)]


@pytest.mark.parametrize(("decks", "shoes"), [(1, 40), (8, 8)])
def test_seeded_shoes_are_the_engines(decks: int, shoes: int) -> None:
    """Shoe after shoe, as the engine's :class:`Shoe` shuffles them from the same seed."""
    sample = draw("seeded:9", "blackjack", shoes, decks=decks)
    shoe = Shoe(decks, SeededRandom(9))
    for row in sample.data:
        assert [CODES[c % 52] for c in row] == [c.code for c in shoe._peek_order()]
        shoe.shuffle()


def test_seeded_bits_are_the_engines_words() -> None:
    bits = draw("seeded:10", "bits", 64 * 40 + 5).data
    value = SeededRandom(10).getrandbits(64 * 41)
    assert "".join(map(str, bits.tolist())) == format(value, f"0{64 * 41}b")[: 64 * 40 + 5]


def test_seeded_is_reproducible_and_fingerprinted() -> None:
    a, b, c = draw("seeded:3", "roulette", 500), draw("seeded:3", "roulette", 500), draw("seeded:4", "roulette", 500)
    assert a.fingerprint == b.fingerprint != c.fingerprint
    assert len(a.fingerprint) == 64 and int(a.fingerprint, 16) >= 0
    assert fingerprint("roulette", a.data) == a.fingerprint
    assert fingerprint("sicbo", np.zeros((2, 3), dtype=np.int8)) != fingerprint("roulette", np.zeros(6, dtype=np.int8))
    assert "500 roulette spins" in a.description and "SeededRandom(3)" in a.description


# -- system goes through the engine ---------------------------------------------------------------------------


def test_system_uses_the_engines_system_random(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chance.SystemRandom, "pocket", lambda self: 17)
    monkeypatch.setattr(chance.SystemRandom, "dice", lambda self: (1, 2, 3))
    assert set(draw("system", "roulette", 50).data.tolist()) == {17}
    assert draw("system", "sicbo", 5).data.tolist() == [[1, 2, 3]] * 5
    calls: list[int] = []
    monkeypatch.setattr(chance.SystemRandom, "shuffle", lambda self, items: calls.append(len(items)))
    draw("system", "blackjack", 3, decks=2)
    assert calls == [104, 104, 104]


def test_system_samples_are_well_formed() -> None:
    shoes = draw("system", "blackjack", 20, decks=2).data
    assert shoes.shape == (20, 104) and all(sorted(row) == list(range(104)) for row in shoes.tolist())
    dice = draw("system", "sicbo", 1_000).data
    assert dice.shape == (1_000, 3) and dice.min() >= 1 and dice.max() <= 6
    pockets = draw("system", "roulette", 1_000).data
    assert pockets.min() >= 0 and pockets.max() <= 36
    bits = draw("system", "bits", 1_003)
    assert bits.data.shape == (1_003,) and set(bits.data.tolist()) <= {0, 1} and "os.urandom" in bits.description


# -- broken generators ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BROKEN))
@pytest.mark.parametrize("game", GAMES)
def test_every_broken_generator_plays_every_game(name: str, game: str) -> None:
    n = 6 if game == "blackjack" else 3_000
    a = draw(f"broken:{name}:5", game, n, decks=2)  # type: ignore[arg-type]
    b = draw(f"broken:{name}:5", game, n, decks=2)  # type: ignore[arg-type]
    assert np.array_equal(a.data, b.data) and a.fingerprint == b.fingerprint and name in a.description
    shape = {"roulette": (n,), "sicbo": (n, 3), "blackjack": (n, 104), "bits": (n,)}[game]
    assert a.data.shape == shape
    low, high = {"roulette": (0, 36), "sicbo": (1, 6), "blackjack": (0, 103), "bits": (0, 1)}[game]
    assert a.data.min() >= low and a.data.max() <= high
    if game == "blackjack":
        assert all(sorted(row) == list(range(104)) for row in a.data.tolist())


def test_broken_generators_are_broken_as_documented() -> None:
    sattolo = draw("broken:off-by-one-fisher-yates", "blackjack", 200, decks=1).data
    assert not np.any(sattolo == np.arange(52))
    assert 0 not in draw("broken:off-by-one-fisher-yates", "roulette", 5_000).data
    stuck = draw("broken:stuck-bit", "sicbo", 5_000).data
    assert set(np.unique(stuck).tolist()) == {1, 2, 5, 6}
    assert set(np.unique(draw("broken:stuck-bit", "roulette", 5_000).data).tolist()) == set(range(16)) | set(
        range(32, 37)
    )
    lcg = draw("broken:lcg-low-bits", "roulette", 370).data
    assert np.array_equal(lcg[:37], lcg[37:74]) and sorted(lcg[:37].tolist()) == list(range(37))
    modulo = np.bincount(draw("broken:modulo-bias", "roulette", 200_000).data, minlength=37)
    assert modulo[:34].min() > modulo[34:].max()
    bits = draw("broken:stuck-bit", "bits", 64 * 1_000).data.reshape(-1, 64)
    assert not bits[:, 1].any() and bits[:, 0].any()


def test_the_default_broken_seed_is_one() -> None:
    assert parse_source("broken:stuck-bit") == Source("broken", "broken:stuck-bit", seed=1, name="stuck-bit")
    assert np.array_equal(draw("broken:naive-shuffle", "roulette", 100).data,
                          draw("broken:naive-shuffle:1", "roulette", 100).data)  # fmt: skip


# -- parsing sources ------------------------------------------------------------------------------------------


def test_parse_source() -> None:
    assert parse_source("system").kind == "system"
    assert parse_source("seeded:42").seed == 42
    src = parse_source("broken:lcg-low-bits:9")
    assert (src.kind, src.name, src.seed) == ("broken", "lcg-low-bits", 9)
    with pytest.raises(ValueError, match=r"unknown broken generator 'nope'.*modulo-bias"):
        parse_source("broken:nope")
    with pytest.raises(ValueError, match="the seed 'x' in 'seeded:x'"):
        parse_source("seeded:x")
    with pytest.raises(ValueError, match=r"'/no/such/file' is not a source.*no such file"):
        parse_source("/no/such/file")
    with pytest.raises(ValueError, match="unknown game 'poker'"):
        draw("seeded:1", "poker", 10)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="positive number"):
        draw("seeded:1", "roulette", 0)
    with pytest.raises(ValueError, match="1 to 8 decks, not 9"):
        draw("seeded:1", "blackjack", 1, decks=9)


def test_progress_is_reported() -> None:
    seen: list[tuple[int, int]] = []
    draw("seeded:1", "sicbo", 1_000, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1] == (1_000, 1_000)


# -- files ----------------------------------------------------------------------------------------------------


def write(tmp_path: Path, text: str | bytes, name: str = "results.txt") -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def test_roulette_file(tmp_path: Path) -> None:
    path = write(tmp_path, "# spins of table 3\n17\n0 36, 5\n\n12,3  # two more\n")
    sample = draw(path, "roulette")
    assert sample.data.tolist() == [17, 0, 36, 5, 12, 3]
    assert str(path) in sample.description and "6 roulette spins" in sample.description
    assert draw(path, "roulette", 2).data.tolist() == [17, 0]


def test_sicbo_file(tmp_path: Path) -> None:
    path = write(tmp_path, "1 4 6\n2,2,2\n 6, 5 ,1\n")
    assert draw(path, "sicbo").data.tolist() == [[1, 4, 6], [2, 2, 2], [6, 5, 1]]


def test_blackjack_file(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    one = [" ".join(CODES[i] for i in rng.permutation(52)) for _ in range(3)]
    sample = draw(write(tmp_path, "\n".join(one).replace("TH", "10H") + "\n"), "blackjack")
    assert sample.decks == 1 and sample.data.shape == (3, 52)
    assert [CODES[c] for c in sample.data[0]] == one[0].split()
    two = " , ".join(CODES[i % 52] for i in rng.permutation(104))
    sample2 = draw(write(tmp_path, two + "\n" + two + "\n", "two.txt"), "blackjack")
    assert sample2.decks == 2 and sorted(sample2.data[0].tolist()) == list(range(104))


def test_bits_file(tmp_path: Path) -> None:
    sample = draw(write(tmp_path, bytes([0b10100000, 0xFF]), "raw.bin"), "bits")
    assert sample.data.tolist() == [1, 0, 1, 0, 0, 0, 0, 0] + [1] * 8


@pytest.mark.parametrize(
    ("game", "text", "message"),
    [
        ("roulette", "1\n2\n37\n", r"line 3: '37' is not a roulette pocket 0-36"),
        ("roulette", "1\n-1\n", r"line 2: '-1' is not a roulette pocket"),
        ("roulette", "# nothing\n", r"holds no roulette results"),
        ("sicbo", "1 2 3\n1 0 4\n", r"line 2: '0' is not a die face 1-6"),
        ("sicbo", "1 2 3\n1 2\n", r"line 2: '1 2' is not one roll of three dice"),
        ("blackjack", " ".join([*CODES[:51], "ZZ"]), r"line 1: 'ZZ' is not a card code"),
        ("blackjack", " ".join([*CODES[:51], "AS"]), r"line 1: 'AS' appears more than 1 time in a shoe of 1 deck"),
        ("blackjack", " ".join(CODES) + "\n" + " ".join(CODES[:51]), r"line 2: 51 cards, but the shoes of this file "
         r"hold 52 \(1 deck, as line 1\)"),
        ("blackjack", " ".join(CODES[:50]), r"line 1: a shoe of 50 cards is not 1 to 8 whole decks"),
    ],
)  # fmt: skip
def test_bad_files_name_the_file_the_line_and_the_value(tmp_path: Path, game: str, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ValueError, match=message) as info:
        draw(path, game)  # type: ignore[arg-type]
    assert path in str(info.value)


def test_unreadable_and_binary_files(tmp_path: Path) -> None:
    path = write(tmp_path, b"\xff\xfe1\n", "latin.txt")
    with pytest.raises(ValueError, match="is not UTF-8 text"):
        draw(path, "roulette")
    with pytest.raises(ValueError, match="is empty"):
        draw(write(tmp_path, b"", "empty.bin"), "bits")
    gone = tmp_path / "gone.txt"
    gone.write_text("1\n")
    src = parse_source(str(gone))
    gone.unlink()
    with pytest.raises(ValueError, match=r"cannot read the file .*gone\.txt"):
        draw(src, "roulette")
