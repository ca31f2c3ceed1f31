"""Exponential backoff for networked providers: rate limits, timeouts, 5xx and dropped
connections are retried; everything else (a wrong key, an unknown model) fails at once."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Awaitable, Callable, TypeVar

T = TypeVar("T")

DEFAULT_MAX_RETRIES = 4
DEFAULT_BASE_DELAY = 0.5
MAX_DELAY = 30.0


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = DEFAULT_MAX_RETRIES
    base_delay: float = DEFAULT_BASE_DELAY

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry number `attempt` (0-based): the server's Retry-After
        when it sent one, else base * 2**attempt, capped."""
        if retry_after is not None and retry_after >= 0:
            return min(retry_after, MAX_DELAY)
        return min(self.base_delay * (2**attempt), MAX_DELAY)


async def with_retries(
    call: Callable[[], Awaitable[T]],
    policy: RetryPolicy,
    *,
    transient: Callable[[BaseException], bool],
    retry_after: Callable[[BaseException], float | None] = lambda exc: None,
) -> T:
    attempt = 0
    while True:
        try:
            return await call()
        except Exception as exc:
            if attempt >= policy.max_retries or not transient(exc):
                raise
            await asyncio.sleep(policy.delay(attempt, retry_after(exc)))
            attempt += 1
