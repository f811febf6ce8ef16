"""Token-bucket rate limits on logins (per client address, per name and overall: :mod:`croupier.server.logins`) and
commands (per account)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from croupier.server.errors import RateLimited


@dataclass(frozen=True, slots=True)
class Limit:
    """``burst`` requests at once, refilled at ``per_second``."""

    burst: float
    per_second: float


class RateLimiter:
    """Buckets by key; :meth:`take` spends one token or raises ``RateLimited``, :meth:`give` returns one. Thread-safe.
    Buckets that have filled up again are forgotten once there are more than :attr:`keep` (a flood of new keys costs
    memory only for the buckets it has not yet refilled)."""

    keep = 10_000

    def __init__(self, limit: Limit, *, what: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.what = what
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}
        self._sweep_at = self.keep

    def take(self, key: str) -> None:
        """Spend one token of ``key``'s bucket; ``RateLimited`` when it is empty."""
        now = self._clock()
        with self._lock:
            tokens, then = self._buckets.get(key, (self.limit.burst, now))
            tokens = min(self.limit.burst, tokens + (now - then) * self.limit.per_second)
            if tokens < 1:
                wait = (1 - tokens) / self.limit.per_second
                self._buckets[key] = (tokens, now)
                raise RateLimited(f"Too many {self.what}; try again in {wait:.1f} s.", retry_after=wait)
            self._buckets[key] = (tokens - 1, now)
            if len(self._buckets) > self._sweep_at:
                self._forget_full(now)

    def give(self, key: str) -> None:
        """Return a token spent by :meth:`take` to ``key``'s bucket (never above its burst)."""
        now = self._clock()
        with self._lock:
            if key in self._buckets:
                tokens, then = self._buckets[key]
                tokens = min(self.limit.burst, tokens + (now - then) * self.limit.per_second + 1)
                self._buckets[key] = (tokens, now)

    def _forget_full(self, now: float) -> None:
        full = [
            k for k, (t, then) in self._buckets.items() if t + (now - then) * self.limit.per_second >= self.limit.burst
        ]
        for k in full:
            del self._buckets[k]
        # The next sweep when the buckets left have doubled: a sweep costs one pass over them, paid for by as many
        # new keys (not one pass on every request while they are still refilling).
        self._sweep_at = max(self.keep, 2 * len(self._buckets))
