"""The LiteLLM provider against a real HTTP endpoint speaking the OpenAI protocol."""

import asyncio

import pytest

from llmkit import StatusServer, user
from masfuzz.errors import ModelError
from masfuzz.llm import get_client

pytest.importorskip("litellm")


def test_litellm_parses_tool_calls_and_retries_5xx():
    with StatusServer([503, 200]) as srv:
        client = get_client("litellm/openai/m", api_base=srv.url, api_key="k-123456", base_delay=0.01)
        reply = asyncio.run(client.complete(user("ABC123 to 14C")))
    assert len(srv.requests) == 2
    assert [(c.name, c.arguments["new_seat"]) for c in reply.tool_calls] == [("update_seat", "14C")]
    assert reply.usage.tokens_in == 11


def test_litellm_wrong_key_is_one_line_error_without_the_key():
    with StatusServer([401]) as srv:
        client = get_client("litellm/openai/m", api_base=srv.url, api_key="k-wrong-987654", base_delay=0.01)
        with pytest.raises(ModelError) as info:
            asyncio.run(client.complete(user("x")))
    msg = str(info.value)
    assert msg.startswith("litellm/openai/m: the API key was rejected") and "k-wrong" not in msg
    assert len(srv.requests) == 1
