"""The provably fair generator (:mod:`croupier.fair`): known answers, the same words as a reference HMAC computed
here, the engine's mapping (rejection, Fisher–Yates), uniformity, the inputs' encoding, player seeds, and the
worked example of ``docs/fairness.md``."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import Counter
from pathlib import Path

import pytest

from croupier import fair
from croupier.errors import InvalidInput

SEED = "00" * 31 + "2a"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"


def reference_words(seed: str, label: str, inputs: list[list[str]], n: int) -> list[int]:
    """The documented generator written out again: HMAC-SHA-256 over the message, four big-endian words a block."""
    digest = hashlib.sha256(json.dumps(inputs, separators=(",", ":")).encode()).hexdigest()
    words: list[int] = []
    counter = 0
    while len(words) < n:
        message = b"croupier-fair-v1|" + label.encode() + b"|" + digest.encode() + b"|" + counter.to_bytes(8, "big")
        block = hmac.new(bytes.fromhex(seed), message, hashlib.sha256).digest()
        words += [int.from_bytes(block[i : i + 8], "big") for i in range(0, 32, 8)]
        counter += 1
    return words[:n]


def test_known_answers() -> None:
    assert fair.commitment(SEED) == "0a28e9ffef0073f9a6a674cf57ee77307f38f0f1bebb087888d9011ed0eeefdf"
    assert fair.commitment(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    source = fair.FairSource(SEED, "R1.1")
    assert source.block(0).hex() == "c1978e7cb5c35ae65652e501360940988f0c268a69842159c8a190f6911978cd"
    assert [source.next_u64() for _ in range(5)] == [
        0xC1978E7CB5C35AE6, 0x5652E50136094098, 0x8F0C268A69842159, 0xC8A190F6911978CD, 0x899F927E850D0844,
    ]  # fmt: skip
    assert fair.derive_pocket(SEED, "R1.1") == 21
    assert fair.derive_pocket(SEED, "R1.1", [["b1", "lucky"]]) == 1  # a player seed changes the draw
    assert fair.derive_dice(SEED, "S1.1") == [2, 1, 5]
    assert fair.derive_shoe_order(SEED, "B1.shoe1", [], 1)[:10] == [
        "QC", "JS", "9H", "3C", "4D", "AC", "AD", "9C", "5D", "2S",
    ]  # fmt: skip


@pytest.mark.parametrize("inputs", [[], [["b1", "lucky"]], [["b1", "a"], ["b4", 'q"uo\\te']]])
def test_the_words_are_the_reference_hmac(inputs: list[list[str]]) -> None:
    source = fair.FairSource(SEED, "T9.42", inputs)
    assert [source.next_u64() for _ in range(13)] == reference_words(SEED, "T9.42", inputs, 13)


def test_the_mapping_is_the_engines_rejection_and_fisher_yates() -> None:
    words = reference_words(SEED, "R7.3", [], 64)
    k, pocket = (37).bit_length(), None
    for w in words:  # randbelow(37): the top 6 bits of a word, rejected while >= 37
        if (x := w >> (64 - k)) < 37:
            pocket = x
            break
    assert fair.derive_pocket(SEED, "R7.3") == pocket
    words = iter(reference_words(SEED, "B2.shoe5", [], 400))
    cards = fair.canonical_shoe(1)
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        j = next(words) >> (64 - n.bit_length())
        while j >= n:
            j = next(words) >> (64 - n.bit_length())
        cards[i], cards[j] = cards[j], cards[i]
    assert fair.derive_shoe_order(SEED, "B2.shoe5", [], 1) == cards
    assert sorted(fair.derive_shoe_order(SEED, "B2.shoe5", [], 6)) == sorted(fair.canonical_shoe(6))


def test_canonical_shoe_order() -> None:
    shoe = fair.canonical_shoe(2)
    assert shoe[:3] == ["AS", "2S", "3S"] and shoe[12:14] == ["KS", "AH"] and shoe[51] == "KC" and shoe[52] == "AS"
    assert len(shoe) == 104


def test_pockets_and_dice_are_uniform() -> None:
    """Chi-square over 7,400 pockets and 6,000 dice from fixed seeds: far below the 0.1 % critical values (df 36:
    67.99; df 5: 20.52). The draws are deterministic, so this cannot flake."""
    pockets = Counter(fair.derive_pocket(f"{i:064x}", f"R1.{i}") for i in range(7400))
    expected = 7400 / 37
    chi = sum((pockets[p] - expected) ** 2 / expected for p in range(37))
    assert len(pockets) == 37 and chi < 67.99, chi
    faces = Counter(f for i in range(2000) for f in fair.derive_dice(f"{i:064x}", f"S1.{i}"))
    chi = sum((faces[f] - 1000) ** 2 / 1000 for f in range(1, 7))
    assert set(faces) == {1, 2, 3, 4, 5, 6} and chi < 20.52, chi


def test_inputs_encoding_is_canonical() -> None:
    assert fair.encode_inputs([]) == b"[]"
    assert fair.encode_inputs([["b1", "lucky"], ["b3", 'x"y']]) == b'[["b1","lucky"],["b3","x\\"y"]]'
    assert fair.inputs_digest([]) == hashlib.sha256(b"[]").hexdigest()


@pytest.mark.parametrize("bad", ["", "x" * 65, "caf\u00e9", "tab\there", 7, None])
def test_a_bad_player_seed_is_refused_naming_it(bad: object) -> None:
    with pytest.raises(InvalidInput, match="client_seed"):
        fair.check_client_seed(bad)
    assert fair.check_client_seed("lucky 7 ~!") == "lucky 7 ~!"


def test_new_seeds_are_fresh_hex() -> None:
    seeds = {fair.new_seed() for _ in range(20)}
    assert len(seeds) == 20 and all(len(s) == 64 and int(s, 16) >= 0 for s in seeds)


def test_verify_names_what_failed() -> None:
    good = {"game": "roulette", "label": "R1.1", "commitment": fair.commitment(SEED), "seed": SEED, "inputs": [],
            "result": 21}  # fmt: skip
    assert fair.verify(good).ok
    assert fair.verify({**good, "seed": "11" * 32}).failure == "commitment"
    assert fair.verify({**good, "commitment": "ab" * 32}).failure == "commitment"
    assert fair.verify({**good, "result": 22}).failure == "outcome"
    assert fair.verify(good, recorded=3).failure == "outcome"
    with pytest.raises(fair.MissingField) as info:
        fair.verify({"game": "roulette", "label": "R1.1", "inputs": []})
    assert info.value.fields == ["commitment", "seed"]


def test_the_worked_example_in_the_docs() -> None:
    """docs/fairness.md's worked example states these numbers; they are the generator's."""
    text = DOCS.read_text(encoding="utf-8")
    for value in (
        SEED,
        fair.commitment(SEED),
        fair.FairSource(SEED, "R1.1").block(0).hex(),
        fair.inputs_digest([]),
        f"{fair.FairSource(SEED, 'R1.1').next_u64():016x}",
    ):
        assert value in text, value
    assert f"pocket **{fair.derive_pocket(SEED, 'R1.1')}**" in text
    assert f"pocket **{fair.derive_pocket(SEED, 'R1.1', [['b1', 'lucky']])}**" in text
    assert f"dice **{fair.derive_dice(SEED, 'S1.1')}**" in text
    assert " ".join(fair.derive_shoe_order(SEED, "B1.shoe1", [], 1)[:10]) in text
