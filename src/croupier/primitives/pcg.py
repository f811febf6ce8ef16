"""Reproducible random streams: PCG64 seeded by a ``SeedSequence``, in pure Python.

Both algorithms follow NumPy's ``numpy.random.SeedSequence`` and ``numpy.random.PCG64`` word for word, so
``SeededRandom(seed).next_u64()`` gives exactly the words of ``numpy.random.PCG64(seed).random_raw()``
and a simulation kernel seeded with NumPy draws the same stream as the engine. NumPy itself is not
imported: the engine stays on the standard library.

* :class:`SeedSequence` turns a seed (any non-negative integer, or a list of them) into well-mixed state
  words, and spawns independent child sequences for parallel streams.
* :class:`PCG64` is the 128-bit permuted congruential generator (LCG step, XSL-RR output).
* :class:`SeededRandom` is the :class:`~croupier.primitives.chance.RandomSource` built on them, with
  ``spawn`` for independent streams and ``state`` / ``from_state`` to save and resume a stream.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from itertools import cycle
from typing import Literal, TypedDict

from croupier.primitives.chance import RandomSource

__all__ = [
    "PCG64",
    "PCG64State",
    "SeedSequence",
    "SeedSequenceState",
    "SeededRandom",
    "SeededRandomState",
]

_MASK32 = 0xFFFF_FFFF
_MASK64 = 0xFFFF_FFFF_FFFF_FFFF
_MASK128 = (1 << 128) - 1

# SeedSequence constants (Melissa O'Neill's seed_seq_fe, as used by NumPy).
_DEFAULT_POOL_SIZE = 4
_INIT_A = 0x43B0D7E5
_MULT_A = 0x931E8875
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_MIX_MULT_L = 0xCA01F9DD
_MIX_MULT_R = 0x4973F715
_XSHIFT = 16

_PCG_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645

Entropy = int | Sequence[int]
"""A seed: a non-negative integer of any size, or a sequence of them."""


class SeedSequenceState(TypedDict):
    """A :class:`SeedSequence` as plain data (JSON-compatible)."""

    entropy: int | list[int]
    spawn_key: list[int]
    pool_size: int
    n_children_spawned: int


class PCG64State(TypedDict):
    """The 128-bit state and increment of a :class:`PCG64` (the ``"state"`` part of NumPy's state dict)."""

    state: int
    inc: int


class SeededRandomState(TypedDict):
    """Everything needed to resume a :class:`SeededRandom` exactly where it stopped (JSON-compatible)."""

    bit_generator: str
    state: PCG64State
    seed_sequence: SeedSequenceState


def _int_to_words(n: int) -> list[int]:
    """Little-endian 32-bit words of a non-negative integer (``[0]`` for zero)."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"seed entropy must be a non-negative integer, not {n!r}")
    if n < 0:
        raise ValueError(f"seed entropy must be a non-negative integer, not {n}")
    if n == 0:
        return [0]
    words = []
    while n > 0:
        words.append(n & _MASK32)
        n >>= 32
    return words


def _to_words(value: Entropy) -> list[int]:
    """Entropy as 32-bit words: an integer split into words, a sequence the concatenation of its items."""
    if isinstance(value, int):
        return _int_to_words(value)
    if isinstance(value, str | bytes):
        raise TypeError(f"seed entropy must be integers, not {value!r}")
    words: list[int] = []
    for item in value:
        words.extend(_int_to_words(item))
    return words


def _hashmix(value: int, hash_const: list[int]) -> int:
    value ^= hash_const[0]
    hash_const[0] = (hash_const[0] * _MULT_A) & _MASK32
    value = (value * hash_const[0]) & _MASK32
    return value ^ (value >> _XSHIFT)


def _mix(x: int, y: int) -> int:
    result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _MASK32
    return result ^ (result >> _XSHIFT)


class SeedSequence:
    """Mixes a seed into a pool of entropy and hands out state words; spawns independent children.

    The algorithm is NumPy's ``SeedSequence``: the same ``entropy`` and ``spawn_key`` give the same
    :meth:`generate_state` words, and ``spawn(n)`` gives children whose ``spawn_key`` is the parent's
    extended by the child's index (counting on from ``n_children_spawned``).
    """

    def __init__(
        self,
        entropy: Entropy | None = None,
        *,
        spawn_key: Sequence[int] = (),
        pool_size: int = _DEFAULT_POOL_SIZE,
        n_children_spawned: int = 0,
    ) -> None:
        if pool_size < _DEFAULT_POOL_SIZE:
            raise ValueError(f"pool_size {pool_size} is below the minimum of {_DEFAULT_POOL_SIZE}")
        if n_children_spawned < 0:
            raise ValueError(f"n_children_spawned must not be negative, not {n_children_spawned}")
        if entropy is None:
            entropy = secrets.randbits(pool_size * 32)
        stored: int | tuple[int, ...] = entropy if isinstance(entropy, int) else tuple(entropy)
        run_words = _to_words(stored)  # validates the entropy
        spawn_words = _to_words(tuple(spawn_key))
        self._entropy = stored
        self._spawn_key = tuple(spawn_key)
        self._pool_size = pool_size
        self.n_children_spawned = n_children_spawned
        if spawn_words and len(run_words) < pool_size:
            # Pad the run entropy so that a spawn key can never collide with a longer seed.
            run_words += [0] * (pool_size - len(run_words))
        self._pool = self._mix_entropy(run_words + spawn_words)

    @property
    def entropy(self) -> int | tuple[int, ...]:
        """The seed as given (a sequence is kept as a tuple)."""
        return self._entropy

    @property
    def spawn_key(self) -> tuple[int, ...]:
        """The path of child indices from the root sequence; empty for a root."""
        return self._spawn_key

    @property
    def pool_size(self) -> int:
        """Number of 32-bit words in the entropy pool (4 by default)."""
        return self._pool_size

    @property
    def pool(self) -> tuple[int, ...]:
        """The mixed entropy pool, as 32-bit words."""
        return tuple(self._pool)

    def _mix_entropy(self, entropy: list[int]) -> list[int]:
        hash_const = [_INIT_A]
        size = self._pool_size
        pool = [_hashmix(entropy[i] if i < len(entropy) else 0, hash_const) for i in range(size)]
        # Mix every word into every other so that late words affect early ones.
        for i_src in range(size):
            for i_dst in range(size):
                if i_src != i_dst:
                    pool[i_dst] = _mix(pool[i_dst], _hashmix(pool[i_src], hash_const))
        # Fold in the entropy that did not fit in the pool.
        for i_src in range(size, len(entropy)):
            for i_dst in range(size):
                pool[i_dst] = _mix(pool[i_dst], _hashmix(entropy[i_src], hash_const))
        return pool

    def generate_state(self, n_words: int, bits: Literal[32, 64] = 32) -> list[int]:
        """``n_words`` state words of ``bits`` bits (32 or 64), as NumPy's ``generate_state``."""
        if bits not in (32, 64):
            raise ValueError(f"state words are 32 or 64 bits, not {bits}")
        if n_words < 0:
            raise ValueError(f"cannot generate {n_words} words")
        n32 = n_words * (bits // 32)
        hash_const = _INIT_B
        words = []
        source = cycle(self._pool)
        for _ in range(n32):
            value = next(source) ^ hash_const
            hash_const = (hash_const * _MULT_B) & _MASK32
            value = (value * hash_const) & _MASK32
            words.append(value ^ (value >> _XSHIFT))
        if bits == 32:
            return words
        return [words[i] | (words[i + 1] << 32) for i in range(0, n32, 2)]

    def spawn(self, n_children: int) -> list[SeedSequence]:
        """``n_children`` new independent sequences; later calls continue the child numbering."""
        if n_children < 0:
            raise ValueError(f"cannot spawn {n_children} children")
        start = self.n_children_spawned
        children = [
            SeedSequence(self._entropy, spawn_key=(*self._spawn_key, i), pool_size=self._pool_size)
            for i in range(start, start + n_children)
        ]
        self.n_children_spawned += n_children
        return children

    @property
    def state(self) -> SeedSequenceState:
        """This sequence as plain data; :meth:`from_state` rebuilds it."""
        entropy = self._entropy if isinstance(self._entropy, int) else list(self._entropy)
        return {
            "entropy": entropy,
            "spawn_key": list(self._spawn_key),
            "pool_size": self._pool_size,
            "n_children_spawned": self.n_children_spawned,
        }

    @classmethod
    def from_state(cls, state: SeedSequenceState) -> SeedSequence:
        """Rebuild a sequence saved by :attr:`state`."""
        return cls(
            state["entropy"],
            spawn_key=state["spawn_key"],
            pool_size=state["pool_size"],
            n_children_spawned=state["n_children_spawned"],
        )

    def __repr__(self) -> str:
        parts = [f"entropy={self._entropy!r}"]
        if self._spawn_key:
            parts.append(f"spawn_key={self._spawn_key!r}")
        if self._pool_size != _DEFAULT_POOL_SIZE:
            parts.append(f"pool_size={self._pool_size}")
        if self.n_children_spawned:
            parts.append(f"n_children_spawned={self.n_children_spawned}")
        return f"SeedSequence({', '.join(parts)})"


def _as_seed_sequence(seed: Entropy | SeedSequence | None) -> SeedSequence:
    return seed if isinstance(seed, SeedSequence) else SeedSequence(seed)


class PCG64:
    """The PCG XSL-RR 128/64 generator, seeded exactly as ``numpy.random.PCG64``.

    ``PCG64(seed).next_u64()`` equals ``numpy.random.PCG64(seed).random_raw()`` word for word.
    """

    def __init__(self, seed: Entropy | SeedSequence | None = None) -> None:
        self._seed_seq = _as_seed_sequence(seed)
        s_hi, s_lo, i_hi, i_lo = self._seed_seq.generate_state(4, 64)
        init_state = (s_hi << 64) | s_lo
        init_seq = (i_hi << 64) | i_lo
        # pcg_setseq_128_srandom_r: state 0, odd increment, step, add the seed, step.
        self._inc = ((init_seq << 1) | 1) & _MASK128
        self._state = self._inc
        self._state = ((self._state + init_state) * _PCG_MULTIPLIER + self._inc) & _MASK128

    @property
    def seed_seq(self) -> SeedSequence:
        """The seed sequence this generator was seeded from."""
        return self._seed_seq

    def next_u64(self) -> int:
        """Advance the generator and return one 64-bit word."""
        state = (self._state * _PCG_MULTIPLIER + self._inc) & _MASK128
        self._state = state
        word = ((state >> 64) ^ state) & _MASK64
        rot = state >> 122
        return ((word >> rot) | (word << (-rot & 63))) & _MASK64

    def random_raw(self, n: int) -> list[int]:
        """The next ``n`` 64-bit words."""
        return [self.next_u64() for _ in range(n)]

    def advance(self, delta: int) -> None:
        """Jump ahead by ``delta`` steps (mod 2**128) in O(log delta), as if ``delta`` words were drawn."""
        delta &= _MASK128
        acc_mult, acc_plus = 1, 0
        cur_mult, cur_plus = _PCG_MULTIPLIER, self._inc
        while delta:
            if delta & 1:
                acc_mult = (acc_mult * cur_mult) & _MASK128
                acc_plus = (acc_plus * cur_mult + cur_plus) & _MASK128
            cur_plus = ((cur_mult + 1) * cur_plus) & _MASK128
            cur_mult = (cur_mult * cur_mult) & _MASK128
            delta >>= 1
        self._state = (acc_mult * self._state + acc_plus) & _MASK128

    @property
    def state(self) -> PCG64State:
        """The 128-bit state and increment, as in NumPy's ``bit_generator.state["state"]``."""
        return {"state": self._state, "inc": self._inc}

    @state.setter
    def state(self, value: PCG64State) -> None:
        state, inc = value["state"], value["inc"]
        if not 0 <= state <= _MASK128 or not 0 <= inc <= _MASK128 or inc % 2 == 0:
            raise ValueError("a PCG64 state needs a 128-bit state and an odd 128-bit increment")
        self._state, self._inc = state, inc


class SeededRandom(RandomSource):
    """A reproducible :class:`RandomSource`: a PCG64 stream from a seed, for simulation and replay.

    The same seed always deals the same shoes, spins and rolls. :meth:`spawn` gives independent child
    streams (one per worker or per table); :attr:`state` and :meth:`from_state` save and resume a stream.
    """

    def __init__(self, seed: Entropy | SeedSequence) -> None:
        self._bits = PCG64(_as_seed_sequence(seed))
        self.next_u64 = self._bits.next_u64  # type: ignore[method-assign]  # one call less per draw

    @property
    def seed_sequence(self) -> SeedSequence:
        """The seed sequence behind this stream (its ``spawn_key`` says which child it is)."""
        return self._bits.seed_seq

    @property
    def bit_generator(self) -> PCG64:
        """The underlying PCG64 generator."""
        return self._bits

    def next_u64(self) -> int:
        """One uniformly distributed 64-bit word."""
        return self._bits.next_u64()

    def spawn(self, n: int) -> list[SeededRandom]:
        """``n`` new streams, independent of this one and of each other (via ``SeedSequence.spawn``)."""
        return [SeededRandom(child) for child in self.seed_sequence.spawn(n)]

    @property
    def state(self) -> SeededRandomState:
        """Where this stream stands, as plain data; :meth:`from_state` resumes it exactly."""
        return {
            "bit_generator": "PCG64",
            "state": self._bits.state,
            "seed_sequence": self.seed_sequence.state,
        }

    @classmethod
    def from_state(cls, state: SeededRandomState) -> SeededRandom:
        """A stream that continues exactly where the one that produced ``state`` stood."""
        if state["bit_generator"] != "PCG64":
            raise ValueError(f"cannot resume a {state['bit_generator']!r} stream as PCG64")
        stream = cls(SeedSequence.from_state(state["seed_sequence"]))
        stream._bits.state = state["state"]
        return stream

    def __repr__(self) -> str:
        return f"SeededRandom({self.seed_sequence!r})"
