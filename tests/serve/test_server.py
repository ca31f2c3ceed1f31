"""The loopback endpoint answers real OpenAI clients with a scripted policy and records calls."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import openai
import pytest

from masfuzz.errors import MasfuzzError
from masfuzz.llm import get_client
from masfuzz.llm.types import ChatMessage, ChatRequest
from masfuzz.serve import AgentNamer, ModelServer, Recording

POLICY = f"scripted/{Path(__file__).parent / 'fixtures' / 'policy.py'}:policy"
WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "weather of a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}


def serve(fn, **kw):
    async def main():
        async with ModelServer(get_client(POLICY), **kw) as server:
            return await fn(server)
    return asyncio.run(main())


def test_openai_sdk_tool_call_round_trip_is_answered_and_recorded(tmp_path):
    log = tmp_path / "calls.jsonl"

    async def app(server):
        client = openai.AsyncOpenAI(base_url=server.url, api_key="sk-dummy-key-123456")
        msgs = [{"role": "system", "content": "You are Forecaster. Answer about weather."},
                {"role": "user", "content": "Weather in Paris?"}]
        r1 = await client.chat.completions.create(model="gpt-4o", messages=msgs, tools=[WEATHER])
        call = r1.choices[0].message.tool_calls[0]
        msgs += [r1.choices[0].message.model_dump(exclude_none=True),
                 {"role": "tool", "tool_call_id": call.id, "content": "sunny"}]
        r2 = await client.chat.completions.create(model="gpt-4o", messages=msgs, tools=[WEATHER])
        models = await client.models.list()
        return r1, r2, models, server.recording.calls

    r1, r2, models, calls = serve(app, record=tmp_path / "calls.jsonl")
    assert r1.choices[0].finish_reason == "tool_calls"
    assert json.loads(r1.choices[0].message.tool_calls[0].function.arguments) == {"city": "Paris"}
    assert r2.choices[0].message.content == "Forecaster says: sunny"
    assert [m.id for m in models.data] == ["masfuzz-sut"]
    assert [(c.agent, c.kind) for c in calls] == [("Forecaster", "agent")] * 2
    assert calls[1].chat_request().messages[-1].content == "sunny"
    saved = Recording.load(log)
    assert [c.chat_reply() for c in saved] == [c.chat_reply() for c in calls]
    assert "sk-dummy-key-123456" not in log.read_text()


def test_streaming_json_mode_and_known_agent_names():
    async def app(server):
        client = openai.AsyncOpenAI(base_url=server.url, api_key="x")
        msgs = [{"role": "system", "content": "Plan the trip step by step."},
                {"role": "user", "content": "go"}]
        stream = await client.chat.completions.create(model="m", messages=msgs, tools=[WEATHER],
                                                      stream=True)
        deltas = [c async for c in stream]
        js = await client.chat.completions.create(model="m", messages=msgs,
                                                  response_format={"type": "json_object"})
        return deltas, js

    deltas, js = serve(app, agents={"planner": "Plan the trip"})
    calls = [tc for d in deltas for tc in (d.choices[0].delta.tool_calls or ())] if deltas else []
    assert calls[0].function.name == "get_weather"
    assert deltas[-1].choices[0].finish_reason == "tool_calls"
    assert json.loads(js.choices[0].message.content) == {"agent": "planner"}


def test_legacy_functions_form_gets_function_call_back():
    async def app(server):
        async with httpx.AsyncClient(base_url=server.url) as http:
            body = {"model": "gpt-4", "functions": [WEATHER["function"]], "messages": [
                {"role": "system", "content": "Your name is Clerk."},
                {"role": "user", "content": "weather?"}]}
            first = (await http.post("/chat/completions", json=body)).json()
            body["messages"] += [first["choices"][0]["message"],
                                 {"role": "function", "name": "get_weather", "content": "rain"}]
            second = (await http.post("/chat/completions", json=body)).json()
            bad = await http.post("/chat/completions", json={"model": "x"})
            return first, second, bad

    first, second, bad = serve(app)
    assert first["choices"][0]["finish_reason"] == "function_call"
    assert first["choices"][0]["message"]["function_call"]["name"] == "get_weather"
    assert second["choices"][0]["message"]["content"] == "Clerk says: rain"
    assert bad.status_code == 400 and "messages" in bad.json()["error"]["message"]


def test_speaker_selection_and_summary_calls_are_bookkeeping_not_agents():
    async def app(server):
        client = openai.AsyncOpenAI(base_url=server.url, api_key="x")
        await client.chat.completions.create(model="m", messages=[
            {"role": "system", "content": "You are in a role play game. The following roles "
             "are available: writer, critic. Read the following conversation. Then select the "
             "next role from ['writer', 'critic'] to play. Only return the role."},
            {"role": "user", "content": "hi"}])
        await client.chat.completions.create(model="m", messages=[
            {"role": "user", "content": "Joe: a joke"}, {"role": "system", "content":
             "Summarize the takeaway from the conversation. Do not add any introductory phrases."}])
        return server.recording.calls

    selector, summary = serve(app)
    assert (selector.agent, selector.kind) == ("selector", "selector")
    assert (summary.agent, summary.kind) == ("summarizer", "summary")


def test_agents_that_declare_no_name_are_named_from_their_prompts_first_line():
    namer = AgentNamer()

    def name(system):
        request = ChatRequest(messages=(ChatMessage(role="system", content=system),
                                        ChatMessage(role="user", content="hi")))
        return namer.name(request, None)[0]

    planner = "You are a careful travel planner.\nPlan the trip step by step."
    other = "You are a careful travel planner.\nBook nothing yourself."
    assert name(planner) == "careful_travel_planner" == name(planner)
    assert name("\n  Check the plan for mistakes.\nReply APPROVED.") == "check_the_plan"
    assert name("你是一个旅行规划师。请一步一步地规划。") == "你是一个旅行规划师"
    # One name per distinct prompt: a taken slug gets a short hash of the whole prompt.
    assert name(other).startswith("careful_travel_planner_") and name(other) == name(other)
    assert name(other) != name(planner)
    # Never the name of a selector, a summary or an agent without a system prompt.
    assert name("You are an assistant.").startswith("assistant_")
    assert name("---").startswith("agent_")
    assert name("You are Director. Direct.") == "Director"  # a declared name still wins


def test_endpoint_refuses_non_loopback_hosts():
    with pytest.raises(MasfuzzError, match="loopback only"):
        ModelServer(get_client(POLICY), host="0.0.0.0")


def test_a_failing_model_is_recorded_and_the_app_still_gets_a_valid_completion():
    async def app(server):
        client = openai.AsyncOpenAI(base_url=server.url, api_key="x", max_retries=0)
        r = await client.chat.completions.create(model="m", messages=[
            {"role": "user", "content": "please fail"}])
        return r, server.recording.calls

    r, (c,) = serve(app)
    assert r.choices[0].message.content == "" and r.choices[0].finish_reason == "stop"
    assert c.reply is None and "RuntimeError: the policy broke" in c.error


def test_responses_api_round_trip_continues_by_previous_response_id_and_takes_json_mode():
    """The Responses API as openai's client speaks it: a tool call out, its output back by
    `previous_response_id` (the endpoint keeps the conversation), text.format as the schema."""
    tool = {"type": "function", "name": "get_weather", "description": "weather of a city",
            "parameters": WEATHER["function"]["parameters"]}

    async def app(server):
        client = openai.AsyncOpenAI(base_url=server.url, api_key="x")
        r1 = await client.responses.create(model="gpt-4o", instructions="You are Forecaster.",
                                           input="Weather in Paris?", tools=[tool])
        [call] = [o for o in r1.output if o.type == "function_call"]
        r2 = await client.responses.create(
            model="gpt-4o", instructions="You are Forecaster.", previous_response_id=r1.id,
            input=[{"type": "function_call_output", "call_id": call.call_id, "output": "sunny"}],
            tools=[tool])
        r3 = await client.responses.create(
            model="gpt-4o", instructions="You are Forecaster.", input="json please",
            text={"format": {"type": "json_schema", "name": "who", "schema": {"type": "object"}}})
        with pytest.raises(openai.BadRequestError, match="previous_response_id"):
            await client.responses.create(model="gpt-4o", input="hi", previous_response_id="resp_x")
        return r1, call, r2, r3, server.recording.calls

    r1, call, r2, r3, calls = serve(app)
    assert (call.name, json.loads(call.arguments)) == ("get_weather", {"city": "Paris"})
    assert r2.output_text == "Forecaster says: sunny" and r2.usage is not None
    assert json.loads(r3.output_text) == {"agent": "Forecaster"}
    second = calls[1].chat_request().messages
    assert [m.role for m in second] == ["system", "user", "assistant", "tool"]
    assert second[2].tool_calls[0].id == second[3].tool_call_id == call.call_id
