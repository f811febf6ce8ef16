"""SeedSequence and PCG64 agree with NumPy word for word; SeededRandom is a reproducible RandomSource."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.primitives.chance import RandomSource
from croupier.primitives.pcg import PCG64, SeededRandom, SeedSequence

SEEDS: list[int | list[int]] = [
    0,
    1,
    42,
    2**32 - 1,
    2**32,
    2**64 + 12345,
    2**200 + 7,  # more words than the pool
    [1, 2, 3],
    [2**40, 5, 6, 7, 8, 9],
    [],
]

entropy = st.one_of(
    st.integers(min_value=0, max_value=2**300),
    st.lists(st.integers(min_value=0, max_value=2**70), max_size=7),
)


def _ints(values: np.ndarray) -> list[int]:
    return [int(v) for v in values]


class TestSeedSequence:
    @pytest.mark.parametrize("seed", SEEDS)
    def test_generate_state_matches_numpy(self, seed: int | list[int]) -> None:
        ours, theirs = SeedSequence(seed), np.random.SeedSequence(seed)
        assert list(ours.pool) == _ints(theirs.pool)
        assert ours.generate_state(9) == _ints(theirs.generate_state(9))
        assert ours.generate_state(5, 64) == _ints(theirs.generate_state(5, np.uint64))

    @given(entropy, st.lists(st.integers(min_value=0, max_value=2**40), max_size=3))
    def test_any_entropy_and_spawn_key_match_numpy(self, seed: int | list[int], key: list[int]) -> None:
        ours = SeedSequence(seed, spawn_key=key)
        theirs = np.random.SeedSequence(seed, spawn_key=key)
        assert ours.generate_state(4, 64) == _ints(theirs.generate_state(4, np.uint64))

    def test_larger_pool_matches_numpy(self) -> None:
        ours, theirs = SeedSequence(7, pool_size=8), np.random.SeedSequence(7, pool_size=8)
        assert ours.generate_state(12) == _ints(theirs.generate_state(12))

    def test_spawn_matches_numpy_and_counts_children(self) -> None:
        ours, theirs = SeedSequence(2024), np.random.SeedSequence(2024)
        first, more = ours.spawn(2), ours.spawn(3)
        np_first, np_more = theirs.spawn(2), theirs.spawn(3)
        assert ours.n_children_spawned == theirs.n_children_spawned == 5
        for a, b in zip(first + more, np_first + np_more, strict=True):
            assert a.spawn_key == b.spawn_key
            assert a.generate_state(4) == _ints(b.generate_state(4))
        grandchild, np_grandchild = more[1].spawn(2)[1], np_more[1].spawn(2)[1]
        assert grandchild.spawn_key == (3, 1)
        assert grandchild.generate_state(4, 64) == _ints(np_grandchild.generate_state(4, np.uint64))

    def test_children_differ_from_parent_and_each_other(self) -> None:
        root = SeedSequence(5)
        states = {tuple(s.generate_state(4)) for s in [root, *root.spawn(4)]}
        assert len(states) == 5

    def test_state_round_trip(self) -> None:
        seq = SeedSequence([3, 4], spawn_key=(1,))
        seq.spawn(2)
        copy = SeedSequence.from_state(json.loads(json.dumps(seq.state)))
        assert copy.generate_state(4) == seq.generate_state(4)
        assert copy.spawn(1)[0].spawn_key == seq.spawn(1)[0].spawn_key == (1, 2)

    def test_no_entropy_draws_fresh_entropy(self) -> None:
        assert SeedSequence().entropy != SeedSequence().entropy

    @pytest.mark.parametrize("bad", [-1, [1, -2]])
    def test_negative_entropy_is_refused(self, bad: int | list[int]) -> None:
        with pytest.raises(ValueError, match="non-negative"):
            SeedSequence(bad)

    def test_bad_arguments(self) -> None:
        with pytest.raises(ValueError, match="pool_size"):
            SeedSequence(1, pool_size=2)
        with pytest.raises(ValueError, match="32 or 64"):
            SeedSequence(1).generate_state(2, 16)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            SeedSequence("12")  # type: ignore[arg-type]


class TestPCG64:
    @pytest.mark.parametrize("seed", SEEDS)
    def test_outputs_match_numpy(self, seed: int | list[int]) -> None:
        assert PCG64(seed).random_raw(50) == _ints(np.random.PCG64(seed).random_raw(50))

    def test_seeded_from_spawned_sequence_matches_numpy(self) -> None:
        child, np_child = SeedSequence(99).spawn(3)[2], np.random.SeedSequence(99).spawn(3)[2]
        assert PCG64(child).random_raw(20) == _ints(np.random.PCG64(np_child).random_raw(20))

    def test_state_matches_numpy(self) -> None:
        ours, theirs = PCG64(31337), np.random.PCG64(31337)
        ours.random_raw(3)
        theirs.random_raw(3)
        assert ours.state == theirs.state["state"]

    @pytest.mark.parametrize("delta", [0, 1, 1000, 2**70 + 3, -5])
    def test_advance_matches_numpy(self, delta: int) -> None:
        ours, theirs = PCG64(8), np.random.PCG64(8)
        ours.advance(delta)
        theirs.advance(delta)
        assert ours.random_raw(3) == _ints(theirs.random_raw(3))

    def test_advance_equals_drawing(self) -> None:
        drawn, jumped = PCG64(3), PCG64(3)
        drawn.random_raw(777)
        jumped.advance(777)
        assert drawn.next_u64() == jumped.next_u64()

    def test_bad_state_is_refused(self) -> None:
        gen = PCG64(1)
        with pytest.raises(ValueError, match="odd"):
            gen.state = {"state": 1, "inc": 2}


class TestSeededRandom:
    def test_is_a_random_source(self) -> None:
        rng = SeededRandom(1)
        assert isinstance(rng, RandomSource)
        assert rng.is_random

    def test_same_seed_same_stream(self) -> None:
        a, b = SeededRandom(77), SeededRandom(SeedSequence(77))
        assert [a.next_u64() for _ in range(10)] == [b.next_u64() for _ in range(10)]
        assert [a.pocket() for _ in range(50)] == [b.pocket() for _ in range(50)]
        assert [a.dice() for _ in range(50)] == [b.dice() for _ in range(50)]

    def test_stream_is_numpy_pcg64(self) -> None:
        rng = SeededRandom(123)
        assert [rng.next_u64() for _ in range(10)] == _ints(np.random.PCG64(123).random_raw(10))

    def test_different_seeds_differ(self) -> None:
        assert SeededRandom(1).next_u64() != SeededRandom(2).next_u64()

    def test_spawned_streams_differ_and_are_reproducible(self) -> None:
        parent = SeededRandom(10)
        children = parent.spawn(4)
        heads = [tuple(c.next_u64() for _ in range(4)) for c in children]
        heads.append(tuple(parent.next_u64() for _ in range(4)))
        assert len(set(heads)) == 5
        again = SeededRandom(10).spawn(4)
        assert tuple(again[2].next_u64() for _ in range(4)) == heads[2]
        assert [c.seed_sequence.spawn_key for c in children] == [(0,), (1,), (2,), (3,)]
        assert parent.spawn(1)[0].seed_sequence.spawn_key == (4,)

    def test_spawn_matches_numpy_generator_spawn(self) -> None:
        child = SeededRandom(5).spawn(2)[1]
        np_child = np.random.default_rng(5).spawn(2)[1]
        assert [child.next_u64() for _ in range(5)] == _ints(np_child.bit_generator.random_raw(5))

    def test_state_saves_and_resumes(self) -> None:
        rng = SeededRandom([4, 5, 6])
        rng.spawn(2)
        for _ in range(17):
            rng.next_u64()
        saved = json.loads(json.dumps(rng.state))
        expected = [rng.randbelow(1000) for _ in range(20)]
        resumed = SeededRandom.from_state(saved)
        assert [resumed.randbelow(1000) for _ in range(20)] == expected
        assert resumed.spawn(1)[0].seed_sequence.spawn_key == (2,)

    def test_resume_refuses_another_generator(self) -> None:
        state = SeededRandom(1).state
        state["bit_generator"] = "MT19937"
        with pytest.raises(ValueError, match="MT19937"):
            SeededRandom.from_state(state)

    @given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=1, max_value=2**70))
    def test_randbelow_stays_in_range(self, seed: int, n: int) -> None:
        rng = SeededRandom(seed)
        assert all(0 <= rng.randbelow(n) < n for _ in range(20))

    @given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=0, max_value=200))
    def test_getrandbits_has_k_bits(self, seed: int, k: int) -> None:
        assert SeededRandom(seed).getrandbits(k).bit_length() <= k

    @given(st.integers(min_value=0, max_value=2**64), st.lists(st.integers(), max_size=60))
    def test_shuffle_is_a_permutation(self, seed: int, items: list[int]) -> None:
        shuffled = list(items)
        SeededRandom(seed).shuffle(shuffled)
        assert sorted(shuffled) == sorted(items)

    def test_shuffle_is_reproducible(self) -> None:
        a, b = list(range(52)), list(range(52))
        SeededRandom(9).shuffle(a)
        SeededRandom(9).shuffle(b)
        assert a == b != list(range(52))

    def test_pockets_and_dice_are_valid(self) -> None:
        rng = SeededRandom(0)
        assert {rng.pocket() for _ in range(2000)} == set(range(37))
        assert all(1 <= face <= 6 for _ in range(500) for face in rng.dice())
