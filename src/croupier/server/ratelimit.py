"""Token-bucket rate limits on logins (per client address and name) and commands (per account)."""

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
    """Buckets by key; :meth:`take` spends one token or raises ``RateLimited``. Thread-safe."""

    def __init__(self, limit: Limit, *, what: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.what = what
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}

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
            if len(self._buckets) > 10_000:
                self._forget_full(now)

    def _forget_full(self, now: float) -> None:
        full = [
            k for k, (t, then) in self._buckets.items() if t + (now - then) * self.limit.per_second >= self.limit.burst
        ]
        for k in full:
            del self._buckets[k]
