"""The loopback endpoint in front of the embedded model, as `masfuzz serve --sut-model
local/gemma-3-270m` runs it: a real OpenAI client, with tools and without (three model calls)."""

from __future__ import annotations

import asyncio
import json

import jsonschema
import openai
import pytest

from masfuzz.llm import get_client
from masfuzz.serve import ModelServer

pytest.importorskip("llama_cpp")
pytestmark = pytest.mark.local_model

CONVERT = {"type": "function", "function": {
    "name": "convert_currency", "description": "Convert an amount of money between currencies.",
    "parameters": {"type": "object", "additionalProperties": False, "required": ["amount", "to"],
                   "properties": {"amount": {"type": "number"},
                                  "to": {"type": "string", "enum": ["EUR", "USD", "GBP"]}}}}}


def test_embedded_model_answers_tool_calls_text_and_legacy_functions():
    async def app(server):
        client = openai.AsyncOpenAI(base_url=server.url, api_key="x", max_retries=0)
        system = {"role": "system", "content": "You are Banker. Use your tools."}
        asked = [system, {"role": "user", "content": "How much is 250 dollars in euros?"}]
        with_tools = await client.chat.completions.create(model="gpt-4o", messages=asked,
                                                          tools=[CONVERT], max_tokens=60)
        legacy = await client.chat.completions.create(
            model="gpt-4o", messages=asked, functions=[CONVERT["function"]], max_tokens=60)
        plain = await client.chat.completions.create(model="gpt-4o", max_tokens=24, messages=[
            {"role": "user", "content": "Say hello to the team."}])
        return with_tools, legacy, plain, list(server.recording.calls)

    async def main():
        async with ModelServer(get_client("local/gemma-3-270m", role="sut")) as server:
            return await app(server)

    with_tools, legacy, plain, calls = asyncio.run(main())
    (call,) = with_tools.choices[0].message.tool_calls
    assert with_tools.choices[0].finish_reason == "tool_calls"
    assert call.function.name == "convert_currency"  # constrained decoding: an offered tool
    jsonschema.validate(json.loads(call.function.arguments), CONVERT["function"]["parameters"])
    assert legacy.choices[0].finish_reason == "function_call"
    assert legacy.choices[0].message.function_call.name == "convert_currency"
    assert plain.choices[0].finish_reason in ("stop", "length")
    assert plain.choices[0].message.content.strip() and not plain.choices[0].message.tool_calls
    assert [(c.agent, c.error) for c in calls] == [("Banker", None), ("Banker", None), ("assistant", None)]
    assert all(c.reply["usage"]["tokens_out"] > 0 for c in calls)
