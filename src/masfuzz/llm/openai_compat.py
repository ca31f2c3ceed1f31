"""`openai/MODEL` and `openai-compatible/NAME@URL` through the openai SDK.

The SDK's own retries are off: masfuzz retries rate limits, timeouts, 5xx, dropped connections
and replies that are no chat completion with exponential backoff itself (`masfuzz.llm.remote`),
so `--max-connections`, `--model-timeout` (per attempt) and the retry count mean the same thing
for every provider. Keys come from `api_key=`, else the environment
(`OPENAI_API_KEY` for `openai/`, `OPENAI_COMPATIBLE_API_KEY` for `openai-compatible/`, never
the OpenAI key, which must not travel to an arbitrary host), and never appear in an error.
"""

from __future__ import annotations

import asyncio
import json
import os
import weakref
from typing import Any

from masfuzz.errors import ModelError
from masfuzz.llm.modelstring import ModelSpec
from masfuzz.llm.openai_format import excerpt, request_params
from masfuzz.llm.remote import RemoteProvider
from masfuzz.llm.retry import DEFAULT_BASE_DELAY, DEFAULT_MAX_RETRIES, GaveUp, parse_retry_after
from masfuzz.llm.types import ChatReply, ChatRequest
from masfuzz.sutenv import original

OPENAI_URL = "https://api.openai.com/v1"

KEY_ENV = {"openai": "OPENAI_API_KEY", "openai-compatible": "OPENAI_COMPATIBLE_API_KEY"}
DEFAULT_TIMEOUT = 120.0


class OpenAIClient(RemoteProvider):
    def __init__(
        self,
        spec: ModelSpec,
        *,
        api_key: str | None = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        base_delay: float = DEFAULT_BASE_DELAY,
    ) -> None:
        try:
            import openai
        except ImportError:
            raise ModelError(
                f"{spec.display}: the openai package is missing; pip install 'masfuzz[openai]'"
            ) from None
        self._openai = openai
        # the user's own environment, never what masfuzz lends the system under test's code
        key = api_key or original(KEY_ENV[spec.provider])
        if not key:
            if spec.provider == "openai":
                raise ModelError(f"{spec.display}: no API key; set OPENAI_API_KEY")
            key = "none"  # local servers accept anything; the SDK insists on a value
        super().__init__(spec, key, max_retries, base_delay)
        # explicit: the SDK would read OPENAI_BASE_URL, which points at masfuzz's refusal while
        # the system under test runs (masfuzz.sutenv)
        self.base_url = spec.base_url or (original("OPENAI_BASE_URL") or OPENAI_URL
                                          if spec.provider == "openai" else None)
        # httpx connection pools belong to one event loop; the sync CLI may run several.
        self._clients: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
        # llama.cpp's servers take a response schema only as {"type": "json_object", "schema"}
        # and refuse OpenAI's json_schema form: set once such a server refused it
        self._json_object = False

    def _client(self) -> Any:
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            client = self._openai.AsyncOpenAI(
                api_key=self._key, base_url=self.base_url, max_retries=0, timeout=DEFAULT_TIMEOUT
            )
            self._clients[loop] = client
        return client

    async def complete(self, request: ChatRequest, *, timeout: float | None = None) -> ChatReply:
        params = request_params(
            request,
            max_tokens_field="max_completion_tokens" if self.provider == "openai" else "max_tokens",
        )
        if self._json_object and "response_format" in params:
            params["response_format"] = {"type": "json_object", "schema": request.response_schema}
        client = self._client()

        async def send() -> Any:
            # the SDK's own timeout is per read; masfuzz bounds the whole attempt (a server
            # that trickles a body in never ends it otherwise)
            return await client.chat.completions.create(
                model=self.model, timeout=timeout or DEFAULT_TIMEOUT, **params
            )

        try:
            return await self._attempts(send, timeout, retry_after=_retry_after)
        except GaveUp:  # only a refused response format comes back here (`_refused`)
            self._json_object = True
            return await self.complete(request, timeout=timeout)

    def _refused(self, exc: BaseException) -> bool:
        """An OpenAI-compatible server that answered a json_schema response format with a
        validation error naming it (llama.cpp's: HTTP 400, llama-cpp-python's: HTTP 500)."""
        return (self.provider == "openai-compatible" and not self._json_object
                and isinstance(exc, self._openai.APIStatusError)
                and "response_format" in _server_message(exc) and "json_schema" in _server_message(exc))

    def _transient(self, exc: BaseException) -> bool:
        if self._refused(exc):
            return False  # asking again the same way gets the same refusal
        o = self._openai
        if isinstance(exc, (o.RateLimitError, o.APITimeoutError, o.APIConnectionError)):
            return True
        # a body the SDK could not read as JSON (it raises the decoder's error)
        return isinstance(exc, ValueError) or (isinstance(exc, o.APIStatusError) and exc.status_code >= 500)

    def _input_error(self, exc: BaseException) -> bool:
        """A rejected key or an unknown model fails every call alike; anything else the server
        refused (a 400 for one request) is that call's failure."""
        return isinstance(exc, self._openai.APIStatusError) and exc.status_code in (401, 403, 404)

    def _describe(self, exc: BaseException) -> str:
        o = self._openai
        where = self.base_url or "the OpenAI API"
        if isinstance(exc, o.APITimeoutError):
            return f"{where} did not answer in time"
        if isinstance(exc, o.APIConnectionError):
            cause = exc.__cause__ or exc.__context__
            reason = str(cause).splitlines()[0] if cause and str(cause) else "connection failed"
            return f"cannot reach {where}: {reason}"
        if isinstance(exc, (o.AuthenticationError, o.PermissionDeniedError)):
            env = KEY_ENV[self.provider]
            return f"the API key was rejected (HTTP {exc.status_code}); check {env} or --api-key-env"
        if isinstance(exc, o.APIStatusError):
            return f"HTTP {exc.status_code} from {where}: {_server_message(exc)}"
        if isinstance(exc, json.JSONDecodeError):
            return f"the reply is not JSON: {excerpt(exc.doc)}"
        return super()._describe(exc)

    async def aclose(self) -> None:
        for client in list(self._clients.values()):
            await client.close()
        self._clients.clear()


def _retry_after(exc: BaseException) -> float | None:
    response = getattr(exc, "response", None)
    return parse_retry_after(response.headers) if response is not None else None


def _server_message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        msg = inner.get("message") if isinstance(inner, dict) else inner
        if msg:
            return excerpt(msg)
    return excerpt(getattr(exc, "message", exc))
