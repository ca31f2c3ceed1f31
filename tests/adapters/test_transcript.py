"""Chat transcripts of the five shapes -> traces: the format detected, code execution and tool
calls as tool events, each event numbered as the user's file numbers its message."""

from __future__ import annotations

import json

import pytest

from masfuzz.adapters.transcript import CODE_TOOL, detect_format, load, read
from masfuzz.errors import MasfuzzError
from masfuzz.trace import (
    EVENT_SOURCES, USER_REQUEST, AgentTurn, ChatEnd, ChatStart, DelegationEvent, Message, ToolCall, ToolResult,
    users_words,
)

CODE = "Let me compute it.\n```python\nprint(1 / 0)\n```"
FAILED = "exitcode: 1 (execution failed)\nCode output: ZeroDivisionError: division by zero"


def _at(trace, cls):
    return [(trace.meta[EVENT_SOURCES][i], e) for i, e in enumerate(trace.events) if isinstance(e, cls)]


def test_an_ag2_group_chat_with_code_execution():
    log = read({"groupchat": {"max_round": 5, "messages": [
        {"content": "What is 1/0?", "role": "user", "name": "user_proxy"},
        {"content": CODE, "role": "user", "name": "Coder"},
        {"content": FAILED, "role": "user", "name": "Computer_terminal"},
        {"content": "It is infinity. TERMINATE", "role": "user", "name": "Coder"}]}})
    t = log.trace
    assert log.format == "ag2" and t.speaker_order == ["Coder", "Computer_terminal", "Coder"]
    [(ref, call)] = _at(t, ToolCall)
    assert ref == "1" and (call.agent, call.tool, call.arguments["code"]) == ("Coder", CODE_TOOL, "print(1 / 0)\n")
    [(ref, result)] = _at(t, ToolResult)
    assert ref == "2" and (result.agent, result.status) == ("Coder", "error")
    assert [r for r, e in _at(t, Message) if e.role == "user"] == ["0"]
    assert t.termination.reason == "text_mention"
    assert [(d.from_, d.to) for _, d in _at(t, DelegationEvent)] == [("Coder", "Computer_terminal"),
                                                                     ("Computer_terminal", "Coder")]


def test_a_dump_that_keeps_the_answer_and_the_request_beside_the_messages():
    """A benchmark log keeps the task's answer (`ground_truth`) and the user's request
    (`question`) beside its messages, which open with an agent relaying the task."""
    history = [{"content": "# General Task\nWhat is 1/0?", "role": "assistant", "name": "Lead"},
               {"content": "It is infinity.", "role": "user", "name": "Coder"}]
    log = read({"history": history, "ground_truth": "undefined", "question": "What is 1/0?"})
    assert log.expected == "undefined" and log.trace.meta[USER_REQUEST] == "What is 1/0?"
    assert USER_REQUEST not in read({"history": history}).trace.meta


def test_an_ag2_chat_sequence_keeps_its_chat_boundaries():
    log = read([{"chat_history": [{"content": "plan it", "role": "assistant", "name": "user"},
                                  {"content": "Plan: A. TERMINATE", "role": "user", "name": "planner"}],
                 "summary": "Plan: A."},
                {"chat_history": [{"content": "write it. Context: Plan: A.", "role": "assistant", "name": "user"},
                                  {"content": "Draft.", "role": "user", "name": "writer"}]}])
    assert log.format == "ag2-sequence"
    starts = [e for e in log.trace.events if isinstance(e, ChatStart)]
    assert [(s.chat, s.carryover) for s in starts] == [("chat1", False), ("chat2", True)]
    assert len(log.trace.of_type(ChatEnd)) == 2
    refs = [r for r, _ in _at(log.trace, Message)]
    assert refs == ["0:0", "0:1", "1:0", "1:1"]


def test_whose_words_in_an_ag2_log_the_user_said_the_task_only():
    """A later chat of a sequence opens with the app's message and AG2's carry-over ("\nContext:
    \n", the earlier chats' summaries: their agents' words); a proxy named "user" that runs the
    code reports the code's output. None of it is the user's (`said_by_user`)."""
    log = read([{"chat_history": [{"content": "plan it", "role": "assistant", "name": "user"},
                                  {"content": CODE, "role": "user", "name": "planner"},
                                  {"content": FAILED, "role": "assistant", "name": "user"},
                                  {"content": "Plan: A. TERMINATE", "role": "user", "name": "planner"}],
                 "summary": "Plan: A."},
                {"chat_history": [{"content": "write it.\nContext: \nPlan: A.", "role": "assistant", "name": "user"},
                                  {"content": "Draft.", "role": "user", "name": "writer"}]}])
    placed = [(ref, e.source, e.content) for ref, e in _at(log.trace, Message) if e.role == "user"]
    assert placed == [("0:0", None, "plan it"), ("0:2", "app", FAILED), ("1:0", "app", "write it."),
                      ("1:0", "carryover", "Plan: A.")]
    assert [m.content for _, m in users_words(log.trace)] == ["plan it"]


def test_a_magentic_one_console_log_whose_roles_are_the_speakers():
    log = read({"history": [
        {"content": "Find the tallest building in Oslo.", "role": "human"},
        {"content": "Plan: ask WebSurfer.", "role": "Orchestrator (thought)"},
        {"content": "Search for the tallest building in Oslo.", "role": "Orchestrator (-> WebSurfer)"},
        {"content": "Next speaker WebSurfer", "role": "Orchestrator (thought)"},
        {"content": "The tallest is Oslo Plaza, 117 m.", "role": "WebSurfer"}]})
    assert log.format == "magentic-one"
    assert log.trace.speaker_order == ["Orchestrator", "WebSurfer"]
    # one hand-over, at the message that made it (its step), not again at the receiver's turn
    assert [(r, d.from_, d.to) for r, d in _at(log.trace, DelegationEvent)] == [("2", "Orchestrator", "WebSurfer")]


def test_agentchat_and_magentic_one_task_results():
    messages = [
        {"source": "user", "type": "TextMessage", "content": "2+2?"},
        {"source": "MagenticOneOrchestrator", "type": "TextMessage", "content": "Coder, write code."},
        {"source": "Coder", "type": "TextMessage", "content": "```python\nprint(2+2)\n```"},
        {"source": "ComputerTerminal", "type": "TextMessage",
         "content": "The script ran, then exited with an error (POSIX exit code: 1)\nIts output was:\nboom"},
        {"source": "assistant", "type": "ToolCallRequestEvent",
         "content": [{"id": "c1", "name": "add", "arguments": "{\"a\": 2, \"b\": 2}"}],
         "models_usage": {"prompt_tokens": 10, "completion_tokens": 3}},
        {"source": "assistant", "type": "ToolCallExecutionEvent",
         "content": [{"call_id": "c1", "content": "4", "is_error": False}]},
        {"source": "assistant", "type": "TextMessage", "content": "4"}]
    log = read({"messages": messages})
    assert log.format == "magentic-one"
    results = _at(log.trace, ToolResult)
    assert [(r, e.agent, e.tool, e.status) for r, e in results] == [
        ("3", "Coder", CODE_TOOL, "error"), ("5", "assistant", "add", "ok")]
    assert log.trace.usage.tokens_in == 10
    plain = read({"messages": [m for m in messages if m["source"] != "MagenticOneOrchestrator"]})
    assert plain.format == "agentchat"


def test_openai_agents_run_items_and_handoffs():
    items = [{"role": "user", "content": "refund order 7"},
             {"type": "function_call", "name": "transfer_to_refunds", "call_id": "h1", "arguments": "{}"},
             {"type": "function_call_output", "call_id": "h1", "output": "{\"assistant\": \"refunds\"}"},
             {"type": "function_call", "name": "refund", "call_id": "r1", "arguments": "{\"order\": 7}"},
             {"type": "function_call_output", "call_id": "r1", "output": "Error: order 7 not found"},
             {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Refunded!"}]}]
    log = read(items)
    assert log.format == "openai-agents"
    assert [(d.from_, d.to) for _, d in _at(log.trace, DelegationEvent)] == [("assistant", "refunds")]
    [(ref, err)] = [(r, e) for r, e in _at(log.trace, ToolResult) if e.status == "error"]
    assert ref == "4" and (err.agent, err.tool) == ("refunds", "refund")
    # the hand-over is a delegation alone, as the live adapters record it: no tool, no result
    assert [e.tool for _, e in _at(log.trace, ToolCall)] == ["refund"]
    assert [e.tool for _, e in _at(log.trace, ToolResult)] == ["refund"]


def test_a_log_hand_over_is_no_tool_edge_of_the_workflow_it_gives():
    """The workflow a log gives (`judge --chat` derives it, and FLARE's specification from it)
    has the hand-over as a delegation, as a live run's has, and no `transfer_to_x` tool."""
    from masfuzz.adapters.blackbox import spec_from_traces

    trace = read({"new_items": [
        {"type": "handoff_call_item", "agent": {"name": "triage"}, "raw_item": {
            "type": "function_call", "name": "transfer_to_faq", "call_id": "h1", "arguments": "{}"}},
        {"type": "handoff_output_item", "agent": {"name": "triage"}, "raw_item": {
            "type": "function_call_output", "call_id": "h1", "output": "{\"assistant\": \"faq\"}"}},
        {"type": "tool_call_item", "agent": {"name": "faq"}, "raw_item": {
            "type": "function_call", "name": "faq_lookup", "call_id": "f1", "arguments": "{}"}},
        {"type": "tool_call_output_item", "agent": {"name": "faq"}, "raw_item": {
            "type": "function_call_output", "call_id": "f1", "output": "No answer."}}]}).trace
    spec = spec_from_traces([trace])
    assert [t.id for t in spec.tools] == ["faq_lookup"]
    assert ("triage", "faq") in {(d.from_, d.to) for d in spec.delegations}


def test_langgraph_message_state():
    state = {"messages": [
        {"type": "human", "content": "weather in Rome?"},
        {"type": "ai", "name": "supervisor", "content": "", "tool_calls": [
            {"name": "transfer_to_weather_agent", "args": {}, "id": "t0"}]},
        {"type": "tool", "name": "transfer_to_weather_agent", "content": "ok", "tool_call_id": "t0"},
        {"type": "ai", "name": "weather_agent", "content": "", "tool_calls": [
            {"name": "get_weather", "args": {"city": "Rome"}, "id": "t1"}]},
        {"type": "tool", "name": "get_weather", "content": "timeout", "tool_call_id": "t1", "status": "error"},
        {"type": "ai", "name": "weather_agent", "content": "Sunny, 25 C."}]}
    log = read(state)
    assert log.format == "langgraph" and log.trace.speaker_order == ["supervisor", "weather_agent"]
    # langgraph-swarm's transfer is a hand-over, its "ok" no tool's result (as the live adapter)
    assert [(r, e.status) for r, e in _at(log.trace, ToolResult)] == [("4", "error")]
    assert [(r, d.to) for r, d in _at(log.trace, DelegationEvent)] == [("1", "weather_agent")]
    assert [r for r, _ in _at(log.trace, AgentTurn)] == ["1", "3"]


@pytest.mark.parametrize("data", [{"resourceSpans": []}, {"foo": 1}, [1, 2], [{"x": 1}], "text"])
def test_what_is_no_transcript_is_said(data):
    with pytest.raises(MasfuzzError, match="not a chat transcript"):
        read(data, "f.json")
    assert detect_format(data) is None


def test_a_file_that_is_not_json_is_one_line(tmp_path):
    bad = tmp_path / "log.txt"
    bad.write_text("hello")
    with pytest.raises(MasfuzzError, match=r"log.txt: not a chat transcript .*not JSON"):
        load(bad)


@pytest.mark.parametrize("labelled", ["judge_labels", "judge_labels_blind", "judge_labels_blind2"])
def test_every_labelled_bench_log_reads_and_its_labelled_step_is_one_of_its_messages(labelled):
    from tests.conftest import ROOT

    base = ROOT / "bench" / labelled
    labels = json.loads((base / "labels.json").read_text())
    assert len(labels) >= 20 and sorted(labels) == sorted(p.name for p in (base / "logs").glob("*.json*"))
    formats = set()
    for name, label in labels.items():
        log = load(base / "logs" / name)
        formats.add(log.format)
        if label.get("agent"):
            assert label["step"] in log.trace.meta[EVENT_SOURCES], name
            assert label["agent"] in log.trace.speaker_order, name
    assert formats == {"ag2", "ag2-sequence", "agentchat", "magentic-one", "openai-agents", "langgraph"}


def test_magentic_ones_own_log_jsonl(tmp_path):
    lines = [{"source": "human", "message": "Which is larger, 2^10 or 10^3?", "type": "OrchestrationEvent"},
             {"source": "Orchestrator (thought)", "message": "Updated Ledger: ask the Coder.", "type": "OrchestrationEvent"},
             {"type": "LLMCallEvent", "prompt_tokens": 120, "completion_tokens": 30},
             {"source": "Orchestrator (-> Coder)", "message": "Compute both numbers.", "type": "OrchestrationEvent"},
             {"source": "Coder", "message": "2^10 = 1024 and 10^3 = 1000, so 2^10 is larger.", "type": "OrchestrationEvent"}]
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines))
    log = load(path)
    assert log.format == "magentic-one" and log.trace.speaker_order == ["Orchestrator", "Coder"]
    assert log.trace.usage.tokens_in == 120
    assert [r for r, e in _at(log.trace, Message) if e.agent == "Coder"] == ["4"]


def test_a_user_proxy_named_user_that_runs_the_code_reports_its_result():
    log = read({"chat_history": [
        {"content": "Plot nothing, just print 1/0.", "role": "assistant", "name": "user"},
        {"content": CODE, "role": "user", "name": "assistant"},
        {"content": FAILED, "role": "assistant", "name": "user"},
        {"content": "Division by zero is undefined. TERMINATE", "role": "user", "name": "assistant"}]})
    [(ref, result)] = _at(log.trace, ToolResult)
    assert ref == "2" and (result.agent, result.status) == ("assistant", "error")
    assert log.trace.speaker_order == ["assistant"]


def test_a_two_agent_chat_as_its_initiator_recorded_it_opens_with_the_users_request():
    """AG2 keeps a two-agent chat as its initiator saw it: the initiator's messages in the role
    "assistant", its partner's in "user". The initiator's opening is the task (the user's), its
    runs of the partner's code are results; its partner is the one agent."""
    log = read({"chat_history": [
        {"content": "Sum the squares of 1..4 and save a bar chart as squares.png.", "role": "assistant",
         "name": "operator"},
        {"content": CODE, "role": "user", "name": "math_helper"},
        {"content": FAILED, "role": "assistant", "name": "operator"},
        {"content": "The squares sum to 30. TERMINATE", "role": "user", "name": "math_helper"}]})
    assert [m.content for _, m in users_words(log.trace)] == ["Sum the squares of 1..4 and save a bar chart as squares.png."]
    [(ref, result)] = _at(log.trace, ToolResult)
    assert ref == "2" and (result.agent, result.status) == ("math_helper", "error")
    assert log.trace.speaker_order == ["math_helper"]
    # three authors are a group chat, not a two-agent one: its later "assistant" turns stay agents'
    group = read({"chat_history": [{"content": "Sum the squares.", "role": "assistant", "name": "lead"},
                                   {"content": "30.", "role": "user", "name": "math_helper"},
                                   {"content": "Checked: 30.", "role": "user", "name": "checker"},
                                   {"content": "Thanks, done.", "role": "assistant", "name": "lead"}]})
    assert group.trace.speaker_order == ["lead", "math_helper", "checker", "lead"]
    # a benchmark log keeps the request beside the messages (`question`): an expert's opening
    # relays it ("You are given: ..."), so it stays that expert's turn
    relayed = read({"question": "Sum the squares of 1..4.", "history": [
        {"content": "You are given: sum the squares of 1..4. Plan: compute it.", "role": "assistant", "name": "Math_Expert"},
        {"content": "exitcode: 0 (execution succeeded)\nCode output: 30", "role": "user", "name": "Computer_terminal"}]})
    assert relayed.trace.speaker_order[0] == "Math_Expert" and not users_words(relayed.trace)


def test_an_agents_sdk_new_items_dump_with_the_runs_input_beside_them():
    """`RunResult.input` kept beside `new_items`: the user's request, which no item holds; the
    items keep their own numbers."""
    item = {"type": "message_output_item", "agent": {"name": "desk"},
            "raw_item": {"type": "message", "role": "assistant",
                         "content": [{"type": "output_text", "text": "Seat 14C is yours."}]}}
    for given in ("Move me to an aisle seat, not 14C.",
                  [{"role": "user", "content": "Move me to an aisle seat, not 14C."}]):
        log = read({"input": given, "new_items": [item]})
        assert [m.content for _, m in users_words(log.trace)] == ["Move me to an aisle seat, not 14C."]
        assert [r for r, e in _at(log.trace, Message) if e.role == "assistant"] == ["0"]


def test_an_agentchat_executor_agents_plain_output_is_the_code_runs_result():
    """AgentChat's `CodeExecutorAgent` answers with the run's plain output as a TextMessage (no
    model wrote it: no usage): a traceback is the code's failed run, its author's; a later plain
    output is the fixed run's result."""
    used = {"prompt_tokens": 50, "completion_tokens": 20}
    log = read({"messages": [
        {"source": "user", "type": "TextMessage", "content": "What is 2**20?"},
        {"source": "author", "type": "TextMessage", "content": "```python\nprint(pow2(20))\n```", "models_usage": used},
        {"source": "runner", "type": "TextMessage", "models_usage": None, "content":
         "Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nNameError: name 'pow2' is not defined\n"},
        {"source": "author", "type": "TextMessage", "content": "```python\nprint(2**20)\n```", "models_usage": used},
        {"source": "runner", "type": "TextMessage", "models_usage": None, "content": "1048576\n"},
        {"source": "author", "type": "TextMessage", "content": "2**20 is 1048576.", "models_usage": used}]})
    assert [(r, e.agent, e.status) for r, e in _at(log.trace, ToolResult)] == [
        ("2", "author", "error"), ("4", "author", "ok")]
