"""`litellm/PROVIDER/MODEL`: every provider LiteLLM knows (Anthropic, Bedrock, Gemini, ...),
through its OpenAI-shaped `acompletion`. Optional: `pip install 'masfuzz[litellm]'`; imported
only when a model string names it. Keys come from LiteLLM's usual environment variables, or
`api_key=`; its own retries are off so masfuzz's backoff and connection bound apply.
"""

from __future__ import annotations

import os
from typing import Any

from masfuzz.errors import ModelError
from masfuzz.llm.modelstring import ModelSpec
from masfuzz.llm.openai_compat import OPENAI_URL
from masfuzz.llm.openai_format import excerpt, request_params
from masfuzz.llm.remote import RemoteProvider
from masfuzz.llm.retry import DEFAULT_BASE_DELAY, DEFAULT_MAX_RETRIES, parse_retry_after
from masfuzz.llm.types import ChatReply, ChatRequest
from masfuzz.sutenv import original

# LiteLLM exception class names that are worth another try.
TRANSIENT = {"RateLimitError", "Timeout", "APIConnectionError", "InternalServerError",
             "ServiceUnavailableError", "BadGatewayError"}
# ... and those that say the settings are wrong: every call would fail alike
INPUT_ERRORS = {"AuthenticationError", "PermissionDeniedError", "NotFoundError"}


class LiteLLMClient(RemoteProvider):
    def __init__(
        self,
        spec: ModelSpec,
        *,
        api_key: str | None = None,
        api_base: str | None = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        base_delay: float = DEFAULT_BASE_DELAY,
    ) -> None:
        # Without this LiteLLM fetches its price list from GitHub on import: offline, a stall.
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        try:
            import litellm
        except ImportError:
            raise ModelError(
                f"{spec.display}: LiteLLM is not installed; pip install 'masfuzz[litellm]'"
            ) from None
        self._litellm = litellm
        super().__init__(spec, api_key, max_retries, base_delay)
        self.base_url = api_base or os.environ.get("LITELLM_API_BASE")
        if not self.base_url and self.model.startswith("openai/"):
            # LiteLLM would read OPENAI_API_BASE, which points at masfuzz's refusal while the
            # system under test runs (masfuzz.sutenv): the user's own, or OpenAI's
            self.base_url = original("OPENAI_API_BASE") or original("OPENAI_BASE_URL") or OPENAI_URL

    async def complete(self, request: ChatRequest, *, timeout: float | None = None) -> ChatReply:
        params = request_params(request)
        extra: dict[str, Any] = {"num_retries": 0}
        if self._key:
            extra["api_key"] = self._key
        if self.base_url:
            extra["api_base"] = self.base_url
        if timeout:
            extra["timeout"] = timeout

        async def send() -> Any:
            return await self._litellm.acompletion(model=self.model, **params, **extra)

        return await self._attempts(send, timeout, retry_after=_retry_after)

    def _transient(self, exc: BaseException) -> bool:
        status = getattr(exc, "status_code", None)
        return type(exc).__name__ in TRANSIENT or (isinstance(status, int) and status >= 500)

    def _input_error(self, exc: BaseException) -> bool:
        status = getattr(exc, "status_code", None)
        return type(exc).__name__ in INPUT_ERRORS or status in (401, 403, 404)

    def _describe(self, exc: BaseException) -> str:
        name = type(exc).__name__
        status = getattr(exc, "status_code", None)
        if name in ("AuthenticationError", "PermissionDeniedError") or status in (401, 403):
            return f"the API key was rejected (HTTP {status or 401})"
        if name == "APIConnectionError":
            return f"cannot reach the provider: {_first_line(exc)}"
        return super()._describe(exc)


def _retry_after(exc: BaseException) -> float | None:
    response = getattr(exc, "response", None)
    return parse_retry_after(getattr(response, "headers", None))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return excerpt(text.splitlines()[0]) if text else type(exc).__name__
