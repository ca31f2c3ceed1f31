"""Plain chat transcripts -> `Trace`, so a log a multi-agent app printed or dumped is judged like
a live run (`masfuzz judge --chat FILE`).

The formats, told apart by their shape (`detect_format`):
- `ag2`: AutoGen 0.2 / AG2 messages, `{content, role, name}` (a `ChatResult.chat_history`, a
  group chat's `groupchat.messages`, or a log's `history`); a chat sequence (`initiate_chats`:
  a list of chat results, or `{"chats": [...]}`) is `ag2-sequence`, each chat between a
  `ChatStart` and a `ChatEnd`. Messages of a console log whose `role` is the speaker
  ("Orchestrator (-> WebSurfer)", "WebSurfer") are read the same way, and so is Magentic-One's
  own `log.jsonl` (`{source, message, type}` a line; the file may be JSON lines).
- `agentchat`: AutoGen AgentChat's `TaskResult.messages` dumped as JSON (`{source, type, content,
  models_usage}`: `TextMessage`, `ToolCallRequestEvent`, `ToolCallExecutionEvent`,
  `HandoffMessage`, `CodeExecutionEvent`, ...); `magentic-one` when an orchestrator speaks in
  it (its ledger and instructions are the orchestrator's messages).
- `openai-agents`: the OpenAI Agents SDK's run items (`result.to_input_list()`, or `new_items`
  dumped with their agent): messages, `function_call`, `function_call_output`, handoffs
  (`transfer_to_<agent>` calls, handoff items).
- `langgraph`: a LangGraph message state, `{"messages": [...]}` with `type` human / ai / tool,
  `name`, `tool_calls`, and `ToolMessage`s' `tool_call_id` and `status`.

Code execution is a tool: a message with a fenced code block followed by an executor's output
("exitcode: 1 (execution failed)", a Magentic-One ComputerTerminal's "exited with an error")
is a `tool_call` of `code_execution` by the code's author and its `tool_result`, an error when
the exit code is not 0. Every event keeps the number the user's file gives its message
(`trace.meta[EVENT_SOURCES]`: the message's index, `chat:index` in a sequence), so a finding's
step is named as the user's log numbers it. How the run ended is rarely in a transcript: a
last message announcing the end is `text_mention`, a bound the dump states (`max_round`,
`max_turns`) and reached is `max_turns`, anything else `other`. A dump that keeps the task's
correct answer (`expected_answer`, `ground_truth`: benchmark logs do) gives it as `expected`,
and one that keeps the user's request beside the messages (`question`) gives it as
`meta[USER_REQUEST]`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from masfuzz.adapters.otel import arguments_of
from masfuzz.errors import MasfuzzError
from masfuzz.trace import (
    CODE_BLOCK, CODE_TOOL, EVENT_SOURCES, HANDOVER_INPUTS, OFFERED_HANDOFFS, OFFERED_TOOLS, SYSTEM_PROMPTS,
    USER_REQUEST, AgentTurn, ChatEnd, ChatStart, DelegationEvent,
    Message, TerminationEvent, ToolCall, ToolResult, Trace, Usage, handoff_call_target, run_exit,
)

FORMATS = ("ag2", "ag2-sequence", "agentchat", "magentic-one", "openai-agents", "langgraph")
# Where a dump keeps the task's correct answer (benchmark logs do), checked like --expected.
EXPECTED_KEYS = ("expected_answer", "ground_truth", "expected")
# Where it keeps the user's request, when the messages open with an agent relaying it (GAIA-style
# benchmark logs keep the `question` the run was given).
REQUEST_KEYS = ("question",)
USER_NAMES = ("user", "human", "User", "Human", "admin", "Admin")
# Magentic-One's name for the human in its own log.jsonl (its `UserProxy` agent): the user's words.
M1_USERS = ("UserProxy",)
AG2_CARRYOVER = "\nContext: \n"  # what AG2 puts between a chat's own message and its carry-over
_CHAT_ROLES = ("user", "assistant", "system", "tool", "function")
_ROLE_SPEAKER = re.compile(r"^\s*(?P<agent>[^()]+?)\s*(?:\((?:->\s*(?P<to>[^)]+)|[^)]*)\))?\s*$")
_ERROR_TEXT = re.compile(r"^\s*(?:error\b|traceback\b|exception\b)", re.IGNORECASE)
# what a Python run prints when it fails: the traceback's header, an exception's last line
_RAISED = re.compile(r"^Traceback \(most recent call last\):|^[A-Z]\w*(?:Error|Exception): ", re.MULTILINE)
_TERMINATE_ONLY = re.compile(r"\s*\bTERMINATE\b\s*", re.IGNORECASE)
_AGENTCHAT_TYPES = ("TextMessage", "MultiModalMessage", "StopMessage", "ToolCallRequestEvent",
                    "ToolCallExecutionEvent", "ToolCallSummaryMessage", "HandoffMessage",
                    "ThoughtEvent", "CodeGenerationEvent", "CodeExecutionEvent",
                    "UserInputRequestedEvent", "MemoryQueryEvent", "SelectSpeakerEvent",
                    "ModelClientStreamingChunkEvent", "StructuredMessage")
_OPENAI_TYPES = ("message", "function_call", "function_call_output", "handoff_call_item",
                 "handoff_output_item", "message_output_item", "tool_call_item",
                 "tool_call_output_item", "reasoning", "reasoning_item")
_LANGGRAPH_TYPES = ("human", "ai", "tool", "system", "HumanMessage", "AIMessage", "ToolMessage",
                    "SystemMessage", "AIMessageChunk")


@dataclass
class Imported:
    """One transcript read: its format, the trace, where it came from."""

    format: str
    trace: Trace
    source: str = ""
    expected: str | None = None  # the task's correct answer, when the dump keeps it


@dataclass
class _Builder:
    """Events in order, each with the user's own number for it."""

    events: list[Any] = field(default_factory=list)
    sources: list[str | None] = field(default_factory=list)
    speaker: str | None = None  # who spoke last (a hand-over or a group chat's next turn)
    tokens_in: int = 0
    tokens_out: int = 0
    model_calls: int = 0
    calls: dict[str, str] = field(default_factory=dict)  # call id -> the calling agent
    handoffs: set[str] = field(default_factory=set)  # call ids of hand-overs (their output is none)
    handed: str | None = None  # the agent the last hand-over named, until the next turn
    code: dict[str, Any] | None = None  # the last code block not yet run: author, call id
    received: list[dict[str, Any]] = field(default_factory=list)  # `HANDOVER_INPUTS`, where a log shows them

    def add(self, event: Any, ref: str | None) -> None:
        self.events.append(event)
        self.sources.append(ref)

    def turn(self, agent: str, ref: str, trigger: str | None = "selector") -> None:
        """`agent` takes the floor (a speaker change in a group chat is its delegation, unless
        a hand-over to it was just recorded)."""
        if agent == self.speaker:
            return  # the same speaker goes on: a hand-over it made still waits for its receiver
        handed, self.handed = self.handed, None
        if self.speaker is not None and trigger and agent != handed:
            self.add(DelegationEvent(**{"from": self.speaker, "to": agent}, trigger=trigger), ref)
        self.add(AgentTurn(agent=agent), ref)
        self.speaker = agent

    def say(self, agent: str, text: str, ref: str) -> None:
        """An agent's message; a fenced code block in it is a code execution asked for."""
        self.add(Message(agent=agent, content=text), ref)
        blocks = CODE_BLOCK.findall(text)
        if blocks:
            call = f"code-{ref}"
            language = blocks[-1][0] or "python"
            self.add(ToolCall(agent=agent, tool=CODE_TOOL, call_id=call, arguments={
                "language": language, "code": "\n\n".join(b[1] for b in blocks)}), ref)
            self.code = {"author": agent, "call": call}

    def executed(self, text: str, ref: str) -> bool:
        """An executor's output of the code last asked for: its result. False when `text` is
        not an execution report (or no code waits for one)."""
        code = run_exit(text)
        if self.code is None or code is None:
            return False
        self.add(ToolResult(agent=self.code["author"], tool=CODE_TOOL, call_id=self.code["call"],
                            status="ok" if code == 0 else "error", payload=text), ref)
        self.code = None
        return True

    def ran_plainly(self, agent: str, text: str, ref: str) -> bool:
        """The plain output an executor agent of its own (AgentChat's `CodeExecutorAgent`, which
        sends a run's output as a `TextMessage`: "171", or the Python traceback) gave the code
        last asked for: recorded as that code's result, an error when it holds a traceback or an
        exception's line. False when no code waits, or `agent` wrote it (its own prose)."""
        if self.code is None or agent == self.code["author"] or CODE_BLOCK.search(text):
            return False
        failed = bool(_RAISED.search(text))
        self.add(ToolResult(agent=self.code["author"], tool=CODE_TOOL, call_id=self.code["call"],
                            status="error" if failed else "ok", payload=text), ref)
        self.code = None
        return True

    def usage(self, raw: Any) -> None:
        if isinstance(raw, dict):
            self.model_calls += 1
            self.tokens_in += int(raw.get("prompt_tokens") or raw.get("input_tokens") or 0)
            self.tokens_out += int(raw.get("completion_tokens") or raw.get("output_tokens") or 0)

    def trace(self, fmt: str, system: str, reason: str, detail: str = "",
              final: str | None = None) -> Trace:
        if final is None:
            said = [e.content for e in self.events if isinstance(e, Message) and e.role == "assistant"
                    and _TERMINATE_ONLY.sub("", e.content).strip()]
            final = said[-1] if said else None
        self.add(TerminationEvent(reason=reason, detail=detail, final_output=final), None)  # type: ignore[arg-type]
        events = tuple(e.model_copy(update={"t": float(n)}) for n, e in enumerate(self.events))
        return Trace(system_id=system, framework=fmt, events=events,
                     usage=Usage(model_calls=self.model_calls, tokens_in=self.tokens_in,
                                 tokens_out=self.tokens_out),
                     meta={"source": "transcript", "format": fmt, EVENT_SOURCES: list(self.sources),
                           **({HANDOVER_INPUTS: self.received} if self.received else {}),
                           # what the log could not show is said with the report's notes
                           **({"notes": [UNKNOWN_END]} if reason == "other" else {})})


UNKNOWN_END = ("a transcript that does not say how its run ended (no stop word last, no bound reached): "
               "no bound exceeded nor stop word missed is reported for it")


def _text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # multimodal parts, content blocks
        parts = []
        for c in content:
            if isinstance(c, str):
                parts.append(c)
            elif isinstance(c, dict):
                parts.append(str(c.get("text") or c.get("content") or ""))
        return "\n".join(p for p in parts if p)
    return json.dumps(content, sort_keys=True, default=str)


def _ending(b: _Builder, bound: Any) -> tuple[str, str]:
    """How a transcript's run ended, as far as it says: the last message announcing the end,
    a bound the dump states and reached, or not known."""
    from masfuzz.oracles.detectors import announced_end

    said = [e for e in b.events if isinstance(e, Message) and e.role == "assistant"]
    if said and announced_end(said[-1].content):
        return "text_mention", f"{said[-1].agent} announced the end"
    if isinstance(bound, int) and bound > 0 and len(said) + 1 >= bound:
        return "max_turns", f"max_round={bound}"
    return "other", "the transcript does not say how the run ended"


# --------------------------------------------------------------------------- AG2 and console logs

def _speaker(m: dict[str, Any], speaker_roles: bool) -> tuple[str | None, str | None]:
    """Who wrote an AG2 message (None: the user) and whom it addresses ("Orchestrator (->
    WebSurfer)" in a console log whose roles are the speakers)."""
    if speaker_roles:
        found = _ROLE_SPEAKER.match(str(m.get("role") or m.get("name") or ""))
        agent = found.group("agent").strip() if found else str(m.get("role"))
        to = found.group("to").strip() if found and found.group("to") else None
    else:
        agent, to = str(m.get("name") or m.get("role") or ""), None
    return (None if agent in USER_NAMES or not agent else agent), to


def _console_line(m: dict[str, Any]) -> dict[str, Any] | None:
    """A line of Magentic-One's log.jsonl (`{source, message, type}`) as a message whose role is
    its speaker; None for a line that is no message (an `LLMCallEvent`: its usage is counted)."""
    if "content" in m or "role" in m or "name" in m:
        return m
    if "message" in m and "source" in m:
        user = m["source"] in M1_USERS  # the human whose request opens the log: the user
        return {"role": "user" if user else m["source"], "content": m["message"]}
    return None


def split_carryover(text: str) -> tuple[str, str]:
    """An AG2 chat's opening as its own message and the carry-over AG2 appended ("" if none)."""
    own, _, carried = text.partition(AG2_CARRYOVER)
    return own, carried


def _in_users_place(b: _Builder, text: str, ref: str, *, ran: bool, later: bool) -> None:
    """A message in the user's role of an AG2 log, by its writer (as the live adapter records
    it, `masfuzz.adapters.ag2.live`): the output of code an executor ran is the app's, as is a
    later chat's opening of a sequence; the carry-over AG2 appends to that opening ("\nContext:
    \n" and the earlier chats' summaries) is those chats' agents' words passed on; the rest is
    the user's."""
    own, carried = split_carryover(text) if later else (text, "")
    if own.strip() or not carried.strip():
        b.add(Message(role="user", content=own, source="app" if ran or later else None), ref)
    if carried.strip():
        b.add(Message(role="user", content=carried, source="carryover"), ref)


def _ag2_chat(b: _Builder, messages: list[dict[str, Any]], prefix: str, *, first_is_task: bool,
              later: bool = False, asked: bool = False) -> None:
    """One AG2 chat's messages; `later`: a chat of a sequence after the first, whose opening is
    the app's own message with AG2's carry-over appended (`_in_users_place`); `asked`: the dump
    keeps the user's request beside the messages (`REQUEST_KEYS`), so an agent's opening relays
    it (a benchmark log's "You are given: ..."), and is no initiator's task (`_initiator`)."""
    speaker_roles = any(str(m.get("role", m.get("source", ""))) not in _CHAT_ROLES for m in messages
                        if "role" in m or "source" in m) and not any("name" in m for m in messages)
    initiator = None if speaker_roles or asked else _initiator(messages)
    for n, raw in enumerate(messages):
        ref = f"{prefix}{n}"
        m = _console_line(raw)
        if m is None:
            b.usage(raw if "prompt_tokens" in raw else None)
            continue
        text = _text(m.get("content"))
        role = str(m.get("role", ""))
        if role in ("tool", "function"):
            _ag2_tool_results(b, m, text, ref)
            continue
        agent, to = _speaker(m, speaker_roles)
        # the initiator's opening (the task) and its reports of the partner's code runs (the
        # proxy that executes it) are in the user's place; its other replies are its own turns
        placed = agent == initiator and (n == 0 or b.code is not None and run_exit(text) is not None)
        if agent is None or placed or (n == 0 and first_is_task and role != "assistant" and not speaker_roles):
            # a user proxy named "user" often is the one that runs the code: its report is the result
            _in_users_place(b, text, ref, ran=b.executed(text, ref), later=later and n == 0)
            continue
        b.turn(agent, ref, "delegate" if speaker_roles else "selector")
        b.usage(m.get("usage"))
        if b.executed(text, ref):
            b.add(Message(agent=agent, content=text), ref)
        elif text or not (m.get("tool_calls") or m.get("function_call")):
            b.say(agent, text, ref)
        for call in m.get("tool_calls") or ():
            fn = call.get("function", {}) if isinstance(call, dict) else {}
            _call(b, agent, str(fn.get("name", "")), fn.get("arguments"), str(call.get("id", "")), ref)
        if isinstance(m.get("function_call"), dict):
            fc = m["function_call"]
            _call(b, agent, str(fc.get("name", "")), fc.get("arguments"), "", ref)
        if to:  # the hand-over is this message, not the receiver's first turn after it
            b.add(DelegationEvent(**{"from": agent, "to": to}, trigger="delegate"), ref)
            b.handed = to


def _initiator(messages: list[dict[str, Any]]) -> str | None:
    """The agent that started a two-agent chat (`initiate_chat`, each chat of `initiate_chats`),
    when the dump is its record: AG2 keeps a chat's history as its initiator saw it, its own
    messages in the role "assistant" and its one partner's in "user". Its opening is the task,
    the user's request, read in the user's place as a group chat's first author's is. Its later
    replies stay its own: an initiator is as often an agent with a model (a requester thanking
    back until the turn bound) as a human's proxy, and the log does not say which. None for a
    group chat (more than two names) or a history not so written."""
    spoken = [m for m in messages if m.get("name") and str(m.get("role")) in ("user", "assistant")]
    names = list(dict.fromkeys(str(m["name"]) for m in spoken))
    if len(names) != 2 or not spoken or str(spoken[0].get("role")) != "assistant":
        return None
    first = names[0]
    if all((str(m["role"]) == "assistant") == (str(m["name"]) == first) for m in spoken):
        return first
    return None


def _call(b: _Builder, agent: str, tool: str, raw: Any, call_id: str, ref: str) -> str | None:
    """A tool call, or a hand-over (`transfer_to_<agent>`: a delegation, as live adapters record
    it, and its output no tool result); returns the agent handed to, if any."""
    to = handoff_call_target(tool)
    if to is not None:
        b.add(DelegationEvent(**{"from": agent, "to": to}, trigger="handoff"), ref)
        b.handoffs.add(call_id)
        b.handed = to
        # a hand-over that writes its receiver's task (langgraph-supervisor's forwarding tool
        # with a `task_description`): that text is what the receiver is given, in place of the
        # conversation, so whether a fact the user gave reached it is read in it
        task = " ".join(v for v in arguments_of(raw).values() if isinstance(v, str) and v.strip())
        if task:
            b.received.append({"agent": to, "since": len(b.events), "text": task})
        return to
    b.add(ToolCall(agent=agent, tool=tool, arguments=arguments_of(raw), call_id=call_id), ref)
    b.calls[call_id or tool] = agent
    return None


def _result(b: _Builder, call_id: str, tool: str, text: str, ref: str, error: bool | None = None) -> None:
    if call_id and call_id in b.handoffs:
        return  # a hand-over's acknowledgement ({"assistant": "refunds"}): no tool answered
    agent = b.calls.get(call_id) or b.calls.get(tool) or b.speaker or "agent"
    if not tool:  # named by the call it answers
        tool = next((e.tool for e in reversed(b.events)
                     if isinstance(e, ToolCall) and call_id and e.call_id == call_id), "tool")
    failed = bool(_ERROR_TEXT.match(text)) if error is None else error
    b.add(ToolResult(agent=agent, tool=tool, call_id=call_id, status="error" if failed else "ok",
                     payload=text), ref)


def _ag2_tool_results(b: _Builder, m: dict[str, Any], text: str, ref: str) -> None:
    responses = m.get("tool_responses")
    if isinstance(responses, list) and responses:
        for r in responses:
            if isinstance(r, dict):
                _result(b, str(r.get("tool_call_id", "")), "", _text(r.get("content")), ref)
    else:
        _result(b, str(m.get("tool_call_id", "")), str(m.get("name", "")), text, ref)


def _ag2(data: Any) -> tuple[list[list[dict[str, Any]]], Any, list[dict[str, Any]]]:
    """The chats of an AG2 dump (one, or a sequence's), the bound it states, the chat results."""
    if isinstance(data, dict):
        bound = data.get("max_round", data.get("max_turns"))
        if isinstance(data.get("chats"), list):
            chats = [c for c in data["chats"] if isinstance(c, dict)]
            return [list(c.get("chat_history") or c.get("messages") or []) for c in chats], bound, chats
        group = data.get("groupchat")
        if isinstance(group, dict):
            return [list(group.get("messages") or [])], group.get("max_round", bound), []
        for key in ("chat_history", "history", "messages"):
            if isinstance(data.get(key), list):
                return [list(data[key])], bound, []
    if isinstance(data, list) and data and all(isinstance(c, dict) and "chat_history" in c for c in data):
        return [list(c["chat_history"]) for c in data], None, data
    return [list(data)] if isinstance(data, list) else [], None, []


def _read_ag2(data: Any, fmt: str) -> Trace:
    chats, bound, results = _ag2(data)
    asked = isinstance(data, dict) and any(isinstance(data.get(k), str) and data[k].strip() for k in REQUEST_KEYS)
    b = _Builder()
    sequence = fmt == "ag2-sequence"
    for k, messages in enumerate(chats):
        if sequence:
            names = [str(m.get("name")) for m in messages if m.get("name")]
            b.add(ChatStart(chat=f"chat{k + 1}", kind="sequence", sender=names[0] if names else "",
                            recipient=next((x for x in names if names and x != names[0]), ""),
                            carryover=k > 0), None)
            b.speaker = None  # each chat of a sequence starts from a clean history
        _ag2_chat(b, messages, f"{k}:" if sequence else "", first_is_task=True, later=sequence and k > 0,
                  asked=asked)
        if sequence:
            summary = results[k].get("summary") if k < len(results) else ""
            b.add(ChatEnd(chat=f"chat{k + 1}", summary=_text(summary)), None)
    reason, detail = _ending(b, bound)
    fmt_name = "magentic-one" if _orchestrated(b) else fmt
    return b.trace(fmt_name, "ag2", reason, detail)


def _orchestrated(b: _Builder) -> bool:
    """An orchestrator addressed a worker ("Orchestrator (-> WebSurfer)" in a console log)."""
    return any(isinstance(e, DelegationEvent) and e.trigger == "delegate" for e in b.events)


# --------------------------------------------------------------------------- AgentChat, Magentic-One

def _messages(data: Any) -> list[Any]:
    if isinstance(data, dict):
        for key in ("messages", "chat_history", "history", "items", "new_items"):
            if isinstance(data.get(key), list):
                return data[key]
        return []
    return data if isinstance(data, list) else []


def _read_agentchat(data: Any, fmt: str) -> Trace:
    b = _Builder()
    for n, m in enumerate(_messages(data)):
        ref, source, kind = str(n), str(m.get("source", "")), str(m.get("type", ""))
        content = m.get("content")
        if source in USER_NAMES:
            b.add(Message(role="user", content=_text(content)), ref)
            continue
        if kind in ("ThoughtEvent", "ModelClientStreamingChunkEvent", "SelectSpeakerEvent",
                    "UserInputRequestedEvent", "MemoryQueryEvent"):
            continue  # not a turn of the conversation
        b.turn(source, ref, "delegate" if fmt == "magentic-one" else "selector")
        b.usage(m.get("models_usage"))
        if kind == "ToolCallRequestEvent":
            for call in content or ():
                if isinstance(call, dict) and handoff_call_target(str(call.get("name", ""))) is not None:
                    b.handoffs.add(str(call.get("id", "")))  # its HandoffMessage is the hand-over
                elif isinstance(call, dict):
                    _call(b, source, str(call.get("name", "")), call.get("arguments"), str(call.get("id", "")), ref)
        elif kind == "ToolCallExecutionEvent":
            for r in content or ():
                if isinstance(r, dict):
                    _result(b, str(r.get("call_id", "")), str(r.get("name", "")), _text(r.get("content")),
                            ref, bool(r.get("is_error")))
        elif kind == "CodeExecutionEvent":
            result = m.get("result") or {}
            b.executed(f"exitcode: {result.get('exit_code', 0)}\n{_text(result.get('output'))}", ref)
        else:
            text = _text(content)
            # a message no model wrote (no usage) right after the code: an executor's output
            if b.executed(text, ref) or (kind == "TextMessage" and m.get("models_usage") is None
                                         and b.ran_plainly(source, text, ref)):
                b.add(Message(agent=source, content=text), ref)
            else:
                b.say(source, text, ref)
            if kind == "HandoffMessage" and m.get("target"):
                b.add(DelegationEvent(**{"from": source, "to": str(m["target"])}, trigger="handoff"), ref)
    stop = (data.get("stop_reason") if isinstance(data, dict) else None) or ""
    reason, detail = _ending(b, None)
    if stop:  # TaskResult.stop_reason, when the dump kept it
        reason = "max_turns" if re.search(r"[Mm]aximum number of (?:messages|turns)", stop) else \
            "text_mention" if re.search(r"[Tt]ext .* mentioned", stop) else "completed"
        detail = stop
    return b.trace(fmt, "agentchat", reason, detail)


# --------------------------------------------------------------------------- OpenAI Agents SDK

def _run_input(data: Any) -> list[dict[str, Any]]:
    """The run's input a `new_items` dump keeps beside them (`RunResult.input`: the user's
    request as a string, or input items): the items hold none of it."""
    given = data.get("input") if isinstance(data, dict) and isinstance(data.get("new_items"), list) else None
    if isinstance(given, str) and given.strip():
        return [{"role": "user", "content": given}]
    return [m for m in given if isinstance(m, dict)] if isinstance(given, list) else []


def _read_openai(data: Any, fmt: str) -> Trace:
    b = _Builder()
    current = "assistant"  # to_input_list() does not name the agent; hand-overs do
    for item in _run_input(data):
        if item.get("role") == "user":  # the file numbers the items only: the input has no number
            b.add(Message(role="user", content=_text(item.get("content"))), None)
    for n, raw in enumerate(_messages(data)):
        ref = str(n)
        item = raw.get("raw_item", raw) if isinstance(raw, dict) else {}
        owner = raw.get("agent") if isinstance(raw, dict) else None
        if isinstance(owner, dict):
            owner = owner.get("name")
        if owner:
            current = str(owner)
        kind = str(item.get("type") or ("message" if "role" in item else ""))
        if kind == "message" and item.get("role") == "user":
            b.add(Message(role="user", content=_text(item.get("content"))), ref)
        elif kind == "message" and item.get("role") in ("system", "developer"):
            continue
        elif kind == "message":
            b.turn(current, ref, None)
            b.say(current, _text(item.get("content")), ref)
        elif kind == "function_call":
            b.turn(current, ref, None)
            to = _call(b, current, str(item.get("name", "")), item.get("arguments"),
                       str(item.get("call_id", "")), ref)
            if to is not None:
                current = to
                b.speaker = current  # the delegation above hands the floor over
                b.add(AgentTurn(agent=current), ref)
        elif kind == "function_call_output":
            output = item.get("output")
            _result(b, str(item.get("call_id", "")), "", _text(output), ref)
    reason, detail = _ending(b, None)
    return b.trace(fmt, "openai-agents", "completed" if reason == "other" and b.events else reason, detail)


# --------------------------------------------------------------------------- LangGraph

def _lc(m: dict[str, Any]) -> dict[str, Any]:
    """A LangChain message, plain (`model_dump`) or serialized (`{"lc": 1, "kwargs": ...}`)."""
    if m.get("lc") and isinstance(m.get("kwargs"), dict):
        kind = str((m.get("id") or ["", "message"])[-1])
        return {**m["kwargs"], "type": kind}
    return m


def _read_langgraph(data: Any, fmt: str) -> Trace:
    b = _Builder()
    for n, raw in enumerate(_messages(data)):
        m, ref = _lc(raw), str(n)
        kind = str(m.get("type", "")).replace("Message", "").replace("Chunk", "").lower()
        text = _text(m.get("content"))
        if kind == "human":
            b.add(Message(role="user", content=text), ref)
        elif kind == "ai":
            agent = str(m.get("name") or "ai")
            b.turn(agent, ref, "graph_edge")
            b.usage(m.get("usage_metadata"))
            if text:
                b.say(agent, text, ref)
            for call in m.get("tool_calls") or ():
                _call(b, agent, str(call.get("name", "")), call.get("args"), str(call.get("id", "")), ref)
        elif kind == "tool":
            _result(b, str(m.get("tool_call_id", "")), str(m.get("name", "")), text, ref,
                    (m.get("status") == "error") if m.get("status") else None)
    reason, detail = _ending(b, None)
    return b.trace(fmt, "langgraph", "completed" if reason == "other" and b.events else reason, detail)


# --------------------------------------------------------------------------- detection

def detect_format(data: Any) -> str | None:
    """Which transcript format `data` (parsed JSON) is, or None."""
    if isinstance(data, dict) and "resourceSpans" in data:
        return None
    chats, _, _ = _ag2(data)
    if len(chats) > 1 or (isinstance(data, dict) and isinstance(data.get("chats"), list)) or (
            isinstance(data, list) and data and all(isinstance(c, dict) and "chat_history" in c for c in data)):
        return "ag2-sequence"
    listed = chats[0] if len(chats) == 1 else _messages(data)
    items = [m for m in listed if isinstance(m, dict)]
    if not items or len(items) != len(listed):
        return None
    if all("source" in m and m.get("type") in _AGENTCHAT_TYPES for m in items):
        return "magentic-one" if any("orchestrator" in str(m["source"]).lower() for m in items) else "agentchat"
    if all((_lc(m).get("type") in _LANGGRAPH_TYPES) for m in items):
        return "langgraph"
    if all(str((m.get("raw_item", m) or {}).get("type", "message")) in _OPENAI_TYPES
           and ("role" in m.get("raw_item", m) or "type" in m.get("raw_item", m)) for m in items) \
            and any("type" in m.get("raw_item", m) for m in items) \
            and not any("name" in m and "type" not in m for m in items):
        return "openai-agents"
    if all("content" in m and ("role" in m or "name" in m) for m in items):
        return "ag2"
    if any("source" in m and "message" in m for m in items) and all(
            "source" in m or str(m.get("type", "")).endswith("Event") for m in items):
        return "ag2"  # Magentic-One's log.jsonl: its sources are the speakers (magentic-one when read)
    return None


_READERS: dict[str, Callable[[Any, str], Trace]] = {
    "ag2": _read_ag2, "ag2-sequence": _read_ag2, "agentchat": _read_agentchat,
    "magentic-one": _read_agentchat, "openai-agents": _read_openai, "langgraph": _read_langgraph,
}
NOT_A_TRANSCRIPT = ("not a chat transcript masfuzz reads (AG2 chat_history / groupchat messages, "
                    "AgentChat or Magentic-One TaskResult messages, OpenAI Agents SDK run items, "
                    "LangGraph messages)")


# --------------------------------------------------------------------------- the declared team

def _named(entry: Any) -> str:
    """A tool's or agent's name, given bare or as an object (`{"name": ...}`, the Agents SDK's
    `agent_name`)."""
    if isinstance(entry, dict):
        entry = entry.get("name") or entry.get("agent_name") or ""
    return str(entry or "").strip()


def declared_team(data: Any) -> dict[str, Any]:
    """The team a dump declares beside its messages, as the trace's meta: an `agents` map
    (`{name: {tools, handoffs, instructions}}`, or a list of such objects with a `name`; the
    fields the Agents SDK's agent spans carry). A tool is a name or an object with its
    `description` and `parameters`; a hand-over a name. What an agent was offered but never used
    is what tells a route taken wrongly from the only route there was; instructions are what the
    instructed oracles read. {} when the dump declares none."""
    given = data.get("agents") if isinstance(data, dict) else None
    if isinstance(given, list):
        given = {_named(a): a for a in given if isinstance(a, dict) and _named(a)}
    if not isinstance(given, dict):
        return {}
    tools: dict[str, dict[str, Any]] = {}
    handoffs: dict[str, list[str]] = {}
    prompts: dict[str, str] = {}
    for agent, decl in given.items():
        if not isinstance(decl, dict) or not str(agent).strip():
            continue
        agent = str(agent).strip()
        for t in decl.get("tools") or ():
            if name := _named(t):
                doc = t if isinstance(t, dict) else {}
                params = doc.get("parameters") or doc.get("params_json_schema") or {}
                tools.setdefault(agent, {})[name] = {"description": str(doc.get("description") or ""),
                                                     "parameters": dict(params) if isinstance(params, dict) else {}}
        targets = [n for h in decl.get("handoffs") or () if (n := _named(h)) and n != agent]
        if targets:
            handoffs[agent] = targets
        if isinstance(decl.get("instructions"), str) and decl["instructions"].strip():
            prompts[agent] = decl["instructions"]
    return {**({OFFERED_TOOLS: tools} if tools else {}), **({OFFERED_HANDOFFS: handoffs} if handoffs else {}),
            **({SYSTEM_PROMPTS: prompts} if prompts else {})}


def read(data: Any, source: str = "") -> Imported:
    """The transcript in `data` (parsed JSON) as a trace; MasfuzzError when it is none."""
    fmt = detect_format(data)
    if fmt is None:
        hint = ": it is OTLP spans, judge it with --otel" if isinstance(data, dict) and "resourceSpans" in data else ""
        raise MasfuzzError(f"{source or 'input'}: {NOT_A_TRANSCRIPT}{hint}")
    trace = _READERS[fmt](data, fmt)
    expected = next((str(data[k]) for k in EXPECTED_KEYS if isinstance(data, dict) and data.get(k) not in (None, "")),
                    None)
    request = next((data[k] for k in REQUEST_KEYS if isinstance(data, dict) and isinstance(data.get(k), str)
                    and data[k].strip()), None)
    meta = {**trace.meta, **({USER_REQUEST: request} if request else {}), **declared_team(data)}
    return Imported(format=trace.framework, source=source, expected=expected,
                    trace=trace.model_copy(update={"scenario_id": Path(source).stem if source else "", "meta": meta}))


def load(path: str | Path) -> Imported:
    """The transcript in a JSON file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise MasfuzzError(f"{p}: cannot read the transcript: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        try:  # JSON lines (Magentic-One's log.jsonl): one message a line, numbered by its line
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError:
            raise MasfuzzError(f"{p}: {NOT_A_TRANSCRIPT} (not JSON: {exc.msg}, line {exc.lineno})") from None
    return read(data, str(p))
