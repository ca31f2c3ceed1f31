"""OTLP/JSON GenAI spans become traces; a trace exported and re-ingested keeps its structure."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from masfuzz.adapters import otel
from masfuzz.errors import MasfuzzError
from masfuzz.exec import SubprocessExecutor
from masfuzz.scenario import Scenario
from masfuzz.trace import (
    AgentTurn, DelegationEvent, ErrorEvent, Message, RestrictedAttempt, ToolCall, ToolResult,
    Trace, TraceRecorder, users_words,
)

TOY = Path(__file__).parents[1] / "exec" / "fixtures" / "toy_system.py"


def structure(trace: Trace) -> dict:
    """What structural coverage reads: agents, tool calls per agent, restricted attempts,
    delegations (with trigger), in order."""
    return {
        "agents": trace.speaker_order,
        "tools": [(e.agent, e.tool, e.arguments, e.call_id) for e in trace.of_type(ToolCall)],
        "restricted": [(e.agent, e.tool, e.mode) for e in trace.of_type(RestrictedAttempt)],
        "delegations": [(e.from_, e.to, e.trigger) for e in trace.of_type(DelegationEvent)],
    }


def kinds(trace: Trace) -> list[str]:
    return [e.type for e in trace.events]


def test_live_run_exported_and_reingested_gives_the_same_observations(tmp_path):
    sc = Scenario(input="lookup chatter specialist crash lookup chatter")
    live = asyncio.run(SubprocessExecutor(adapter=f"{TOY}:ToyAdapter").run(f"{TOY}:system", sc))
    path = tmp_path / "run.otlp.json"
    otel.write(live, path)
    back = otel.ingest(path)
    assert structure(back) == structure(live)
    assert kinds(back) == kinds(live)  # the very same event sequence, in order
    assert [e.status for e in back.of_type(ToolResult)] == [e.status for e in live.of_type(ToolResult)]
    assert back.termination.reason == live.termination.reason == "completed"
    assert back.scenario_id == sc.id and back.system_id == "toy"
    assert [e.kind for e in back.of_type(ErrorEvent)] == ["RuntimeError"]


def test_every_event_kind_survives_the_round_trip():
    rec = TraceRecorder(scenario_id="sc-1", system_id="shop", framework="openai_agents")
    rec.add(Message(role="user", content="book seat 3A"))
    rec.turn("triage")
    rec.add(DelegationEvent(**{"from": "triage", "to": "booking"}, trigger="handoff"))
    rec.turn("booking")
    rec.add(ToolCall(agent="booking", tool="update_seat", arguments={"seat": "3A"}, call_id="c1"))
    rec.add(ToolCall(agent="booking", tool="faq", arguments={}, call_id="c2"))  # parallel calls
    rec.add(ToolResult(agent="booking", tool="faq", call_id="c2", payload="x", fault="malformed"))
    rec.add(ToolResult(agent="booking", tool="update_seat", call_id="c1", status="error",
                       payload="boom"))
    rec.add(RestrictedAttempt(agent="booking", tool="refund", mode="faithful", call_id="c3"))
    rec.add(DelegationEvent(**{"from": "booking", "to": "faq_agent"}, trigger="as_tool"))
    rec.add(ToolCall(agent="faq_agent", tool="lookup", call_id="c4"))  # never answered
    rec.add(ErrorEvent(agent="booking", kind="timeout", message="killed"))
    rec.add(Message(agent="booking", content="sorry"))
    # words in the user's place keep their writer: a node's, the app's, a chat's carry-over
    rec.add(Message(agent="tidy", role="user", content="book seat [seat]"))
    rec.add(Message(role="user", content="Next step, please.", source="app"))
    rec.add(Message(role="user", content="Seat 3A held.", source="carryover"))
    live = rec.finish("max_turns", detail="10 turns", final_output="sorry")
    back = otel.ingest(otel.export(live))
    assert [e.model_copy(update={"t": 0.0}) for e in back.events[:-1]] == [
        e.model_copy(update={"t": 0.0}) for e in live.events[:-1]]
    assert back.termination.reason == "max_turns" and back.termination.detail == "10 turns"
    assert back.termination.final_output == "sorry"
    assert back.framework == "openai_agents"


def _span(sid, parent, name, start, end, attrs, status=None):
    kv = [{"key": k, "value": {"stringValue": v} if isinstance(v, str) else {"intValue": str(v)}}
          for k, v in attrs.items()]
    return {"traceId": "ab" * 16, "spanId": sid, "parentSpanId": parent, "name": name,
            "startTimeUnixNano": str(start), "endTimeUnixNano": str(end), "attributes": kv,
            "status": status or {}}


def _doc(*spans):
    return {"resourceSpans": [{"resource": {"attributes": [
        {"key": "service.name", "value": {"stringValue": "airline"}}]},
        "scopeSpans": [{"spans": list(spans)}]}]}


def test_genai_semantic_convention_spans_become_a_trace():
    s = 1_000_000_000
    doc = _doc(  # deliberately out of order: the start times decide
        _span("0000000000000003", "0000000000000002", "execute_tool faq_lookup", s + 30, s + 40, {
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "faq_lookup",
            "gen_ai.tool.call.id": "call_1", "gen_ai.tool.call.arguments": '{"q": "bags"}',
            "gen_ai.tool.call.result": "2 bags"}),
        _span("0000000000000002", "0000000000000001", "invoke_agent FAQ", s + 20, s + 60, {
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "FAQ"}),
        _span("0000000000000001", "", "invoke_agent Triage", s, s + 100, {
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "Triage"}),
        _span("0000000000000004", "0000000000000002", "chat gpt", s + 45, s + 50, {
            "gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": 12,
            "gen_ai.usage.output_tokens": 3,
            "gen_ai.output.messages": json.dumps(
                [{"role": "assistant", "parts": [{"type": "text", "content": "You may bring 2."}]}])}),
    )
    tr = otel.ingest(doc)
    assert tr.speaker_order == ["Triage", "FAQ"]
    (call,) = tr.of_type(ToolCall)
    assert (call.agent, call.tool, call.arguments, call.call_id) == ("FAQ", "faq_lookup", {"q": "bags"}, "call_1")
    assert tr.of_type(ToolResult)[0].payload == "2 bags"
    assert tr.usage.model_calls == 1 and tr.usage.tokens_in == 12
    assert tr.termination.reason == "completed" and tr.termination.final_output == "You may bring 2."
    assert tr.system_id == "airline" and tr.framework == "otel"


def test_a_model_call_replaying_the_users_words_is_no_new_message_of_theirs():
    """GenAI spans carry each model call's input as `gen_ai.user.message` events: an agent's call
    that replays the history holds the user's words again, which the user said once."""
    s = 1_000_000_000
    ask = {"timeUnixNano": str(s + 1), "name": "gen_ai.user.message",
           "attributes": [{"key": "content", "value": {"stringValue": "Refund order 881"}}]}
    triage = _span("0000000000000001", "", "invoke_agent Triage", s, s + 10, {
        "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "Triage"})
    refunds = _span("0000000000000002", "", "invoke_agent Refunds", s + 20, s + 30, {
        "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "Refunds"})
    triage["events"] = [ask]
    refunds["events"] = [{**ask, "timeUnixNano": str(s + 21)}]
    tr = otel.ingest(_doc(triage, refunds))
    assert [m.content for _, m in users_words(tr)] == ["Refund order 881"]
    assert len([m for m in tr.of_type(Message) if m.role == "user"]) == 1


def test_openinference_agents_sdk_spans_with_handoff_and_agent_as_tool():
    s = 5_000_000_000
    doc = _doc(
        _span("00000000000000a0", "", "Agent workflow", s, s + 100, {"openinference.span.kind": "AGENT"}),
        _span("00000000000000a1", "00000000000000a0", "Triage Agent", s + 1, s + 10,
              {"openinference.span.kind": "AGENT", "graph.node.id": "Triage Agent"}),
        _span("00000000000000a2", "00000000000000a1", "handoff to Seat Booking Agent", s + 5, s + 6,
              {"openinference.span.kind": "TOOL"}),
        _span("00000000000000a3", "00000000000000a0", "Seat Booking Agent", s + 11, s + 90,
              {"openinference.span.kind": "AGENT", "graph.node.id": "Seat Booking Agent",
               "graph.node.parent_id": "Triage Agent"}),
        _span("00000000000000a4", "00000000000000a3", "translate", s + 20, s + 40,
              {"openinference.span.kind": "TOOL", "tool.name": "translate",
               "input.value": '{"text": "hi"}'}),
        _span("00000000000000a5", "00000000000000a4", "Translator", s + 21, s + 39,
              {"openinference.span.kind": "AGENT"}),
        _span("00000000000000a6", "00000000000000a3", "update_seat", s + 50, s + 60,
              {"openinference.span.kind": "TOOL", "tool.name": "update_seat"},
              status={"code": 2, "message": "seat taken"}),
    )
    tr = otel.ingest(doc)
    assert tr.speaker_order == ["Triage Agent", "Seat Booking Agent", "Translator"]
    # the handoff span and graph.node.parent_id name the same hand-over: recorded once
    assert [(d.from_, d.to, d.trigger) for d in tr.of_type(DelegationEvent)] == [
        ("Triage Agent", "Seat Booking Agent", "handoff"),
        ("Seat Booking Agent", "Translator", "as_tool")]
    assert [(c.agent, c.tool) for c in tr.of_type(ToolCall)] == [
        ("Seat Booking Agent", "translate"), ("Seat Booking Agent", "update_seat")]
    assert tr.of_type(ToolCall)[0].arguments == {"text": "hi"}
    err = tr.of_type(ToolResult)[-1]
    assert err.status == "error" and err.payload == "seat taken"


def test_bad_otlp_input_is_a_clear_error(tmp_path):
    p = tmp_path / "x.json"
    p.write_text('{"spans": []}')
    with pytest.raises(MasfuzzError, match="no 'resourceSpans'"):
        otel.ingest(p)
    p.write_text("{not json\n")
    with pytest.raises(MasfuzzError, match=r"x.json:1: not OTLP/JSON"):
        otel.ingest(p)
    with pytest.raises(MasfuzzError, match="no spans"):
        otel.ingest({"resourceSpans": []})


def test_agents_sdk_run_in_a_worker_exported_and_reingested_keeps_its_structure(tmp_path):
    pytest.importorskip("agents")
    root = Path(__file__).parents[2] / "examples" / "customer_service"
    sc = Scenario(input="I want to change my seat to 12A, confirmation ABC123",
                  sut_model=f"scripted/{root / 'policy.py'}:policy", timeout=60)
    live = asyncio.run(SubprocessExecutor().run(f"{root / 'app.py'}:triage_agent", sc))
    assert live.framework == "openai-agents" and live.of_type(DelegationEvent)
    back = otel.ingest(otel.export(live))
    assert structure(back) == structure(live)
    assert back.termination.reason == live.termination.reason
