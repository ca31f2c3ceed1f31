"""What the networked providers share: who they are, how they retry, and what a failed call
says."""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from masfuzz.errors import ModelCallFailed, ModelError
from masfuzz.llm.modelstring import ModelSpec
from masfuzz.llm.openai_format import MalformedReply, excerpt, parse_response
from masfuzz.llm.retry import AttemptTimedOut, GaveUp, RetryPolicy, with_retries
from masfuzz.llm.types import ChatReply
from masfuzz.redact import redact


class RemoteProvider:
    """Base of providers reached over the network; `--max-connections` bounds them all."""

    uses_network = True
    # the provider bounds each attempt by the timeout itself (the caller must not bound the
    # whole retry loop by it: a 500 answered in a second would then never be retried)
    times_each_attempt = True

    def __init__(self, spec: ModelSpec, key: str | None, max_retries: int, base_delay: float) -> None:
        self.spec = spec
        self.model_string = spec.display
        self.provider = spec.provider
        self.model = spec.model
        self._key = key
        self.retry = RetryPolicy(max_retries, base_delay)

    async def _attempts(self, send: Callable[[], Awaitable[Any]], timeout: float | None, *,
                        retry_after: Callable[[BaseException], float | None] = lambda exc: None,
                        ) -> ChatReply:
        """`send()` parsed into a reply, retried as `self.retry` says, each attempt bounded by
        `timeout`. A failure after the retries (or one not worth retrying that is no input
        error) is `ModelCallFailed`, which a campaign records and goes past; a rejected key or
        an unknown model is `ModelError`. `GaveUp` reaches a subclass that wants to look at the
        failure first (`_refused`)."""

        async def once() -> ChatReply:
            return parse_response(await send())

        try:
            return await with_retries(once, self.retry, transient=self._worth_retrying,
                                      retry_after=retry_after, timeout=timeout)
        except GaveUp as gave:
            if self._refused(gave.last):
                raise
            failed = ModelError if self._input_error(gave.last) else ModelCallFailed
            text = self._describe(gave.last)
            if gave.attempts > 1:
                text += f" ({gave.attempts} attempts)"
            raise failed(redact(f"{self.model_string}: {text}", self._key)) from None

    def _worth_retrying(self, exc: BaseException) -> bool:
        return isinstance(exc, MalformedReply) or self._transient(exc)

    def _refused(self, exc: BaseException) -> bool:
        """A failure the subclass handles itself (re-raised as `GaveUp`)."""
        return False

    def _transient(self, exc: BaseException) -> bool:  # pragma: no cover - each provider's own
        raise NotImplementedError

    def _input_error(self, exc: BaseException) -> bool:
        """The user's settings are wrong (a key, a model name): no campaign can go on."""
        return False

    def _describe(self, exc: BaseException) -> str:
        """What the last attempt got, in one line, without the model string."""
        if isinstance(exc, (AttemptTimedOut, MalformedReply)):
            return str(exc)
        text = str(exc).strip()
        return f"{type(exc).__name__}: {excerpt(text.splitlines()[0]) if text else ''}"
