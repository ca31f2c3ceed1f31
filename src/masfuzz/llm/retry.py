"""Exponential backoff for networked providers: rate limits, timeouts, 5xx, dropped connections
and replies that are no chat completion are retried; everything else (a wrong key, an unknown
model) fails at once.

The timeout (`--model-timeout`) bounds each attempt, not the whole loop: a server that answers
500 within a second is asked again, a server that does not answer in time is asked again, and
when the attempts run out the caller says what the last one got (`GaveUp`).
"""

from __future__ import annotations

import asyncio
import email.utils
import time
from dataclasses import dataclass
from typing import Awaitable, Callable, TypeVar

T = TypeVar("T")

DEFAULT_MAX_RETRIES = 4
DEFAULT_BASE_DELAY = 0.5
MAX_DELAY = 30.0  # the longest wait between two attempts, whatever a Retry-After asks


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


class AttemptTimedOut(Exception):
    """One attempt got no reply within the per-attempt timeout."""

    def __init__(self, timeout: float) -> None:
        super().__init__(f"no reply within {timeout:g} s")
        self.timeout = timeout


class GaveUp(Exception):
    """The last attempt's failure, after `attempts` attempts (1: it was not worth retrying)."""

    def __init__(self, last: BaseException, attempts: int) -> None:
        super().__init__(str(last))
        self.last = last
        self.attempts = attempts


async def with_retries(
    call: Callable[[], Awaitable[T]],
    policy: RetryPolicy,
    *,
    transient: Callable[[BaseException], bool],
    retry_after: Callable[[BaseException], float | None] = lambda exc: None,
    timeout: float | None = None,
) -> T:
    """`call()` until it succeeds, each attempt bounded by `timeout`; `GaveUp` with the last
    failure when it is not transient or the retries are spent. A timed-out attempt is transient."""
    attempt = 0
    while True:
        try:
            if timeout:
                return await asyncio.wait_for(call(), timeout)
            return await call()
        except Exception as exc:
            failure: BaseException = exc
            if timeout and isinstance(exc, TimeoutError):
                failure = AttemptTimedOut(timeout)
            worth_it = isinstance(failure, AttemptTimedOut) or transient(failure)
            if attempt >= policy.max_retries or not worth_it:
                raise GaveUp(failure, attempt + 1) from None
            await asyncio.sleep(policy.delay(attempt, retry_after(failure)))
            attempt += 1


def parse_retry_after(headers: object) -> float | None:
    """Seconds a server asked to wait: `retry-after-ms`, or `Retry-After` in seconds or as an
    HTTP date; None when it asked nothing readable."""
    get = getattr(headers, "get", None)
    if get is None:
        return None
    millis = get("retry-after-ms")
    try:
        if millis is not None:
            return max(float(millis) / 1000, 0.0)
    except ValueError:
        pass
    value = get("retry-after")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - time.time(), 0.0)
