"""OpenTelemetry GenAI spans <-> `Trace`, so any instrumented app can be judged like a live run.

Ingest reads OTLP/JSON (`resourceSpans[].scopeSpans[].spans[]`, attributes as key/value lists;
one document, a list of them, or the collector file exporter's JSON lines; trace and span ids in
hex as OTLP/JSON has them, or in base64 as protobuf's JSON mapping writes them) and understands:
- the GenAI semantic conventions: `gen_ai.operation.name` `invoke_agent` (agent, from
  `gen_ai.agent.name`), `execute_tool` (`gen_ai.tool.name`, `gen_ai.tool.call.id`,
  `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`), `chat` and other model calls
  (`gen_ai.usage.*`, `gen_ai.output.messages`), `invoke_workflow` roots;
- OpenInference: `openinference.span.kind` AGENT / TOOL / LLM, `tool.name`, `input.value`,
  `output.value`, `graph.node.id` / `graph.node.parent_id`, `llm.token_count.*`;
- handoffs as the Agents SDK records them (`from_agent` / `to_agent`) and as OpenInference
  names them (`handoff to <agent>`); an agent span running inside another agent's tool span is
  an agent-as-tool delegation;
- AutoGen AgentChat's own instrumentation (autogen-core >= 0.7; `gen_ai.system` "autogen"): its
  `invoke_agent` / `execute_tool` spans are the GenAI conventions above, but they carry no
  arguments, results or messages, a team's turns are not nested in one another, and each
  message its runtime delivers starts a new trace linked to the sender's span. So: traces that
  span links join are one run; `create_agent` spans (agents being built) are no event; the
  runtime's `autogen process` spans' `message` attribute (the delivered message as JSON) gives
  the task, the agents' chat messages, tool arguments (`ToolCallRequestEvent`) and results
  (`ToolCallExecutionEvent`, by call id); consecutive turns of a team's members (the spans
  with `gen_ai.agent.id`) are a delegation with the trigger of the manager's class
  (`recipient_agent_class`: selector, round robin, graph), a Swarm's `HandoffMessage` is its
  delegation; a `GroupChatTermination` the runtime creates (`messaging.message.type`) ends the
  run by a termination condition, which the spans do not name: it is named from the target's
  conditions (`MaxMessageTermination`, `TextMentionTermination`) when they are given, else the
  reason is `other`. AgentChat emits no model-call spans, so usage stays unknown.
Span start and end times order the events: a tool call happens at its span's start, its result
at its end; an AgentChat message at its `created_at`. Spans of several runs give several
`Trace`s; what a run's spans could not show is listed in the trace's `meta["notes"]`, and each
event keeps the id of the span it came from (an AgentChat message's own id) in
`meta[EVENT_SOURCES]`, so a finding's step is named as the user's spans name it.

Export writes a `Trace` as such spans (plus `masfuzz.*` attributes for what the conventions do
not name: restricted attempts, termination reason, scenario id), so export -> ingest gives the
same agents, tool calls per agent, restricted attempts and delegations.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from datetime import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from masfuzz.errors import MasfuzzError
from masfuzz.trace import (
    EVENT_SOURCES, MESSAGE_SOURCES, AgentTurn, DelegationEvent, ErrorEvent, Message, RestrictedAttempt, TerminationEvent,
    ToolCall, ToolResult, Trace, Usage, said_by_user,
)

STATUS_ERROR = 2
_TRUE = ("true", "1", True, 1)


# --------------------------------------------------------------------------- reading OTLP/JSON

def _value(v: dict[str, Any]) -> Any:
    """An OTLP/JSON AnyValue as a Python value."""
    if "stringValue" in v:
        return v["stringValue"]
    if "intValue" in v:
        return int(v["intValue"])
    if "doubleValue" in v:
        return float(v["doubleValue"])
    if "boolValue" in v:
        return bool(v["boolValue"])
    if "arrayValue" in v:
        return [_value(x) for x in v["arrayValue"].get("values", [])]
    if "kvlistValue" in v:
        return _attrs(v["kvlistValue"].get("values", []))
    if "bytesValue" in v:
        return v["bytesValue"]
    return None


def _attrs(kvs: Iterable[dict[str, Any]] | None) -> dict[str, Any]:
    return {kv["key"]: _value(kv.get("value", {})) for kv in kvs or () if "key" in kv}


@dataclass
class _Span:
    trace_id: str
    span_id: str
    parent_id: str
    name: str
    start: int
    end: int
    attrs: dict[str, Any]
    events: list[tuple[int, str, dict[str, Any]]]
    error: bool
    status_message: str
    resource: dict[str, Any]
    order: int
    links: tuple[str, ...] = ()  # the trace ids of the span contexts this span links to
    children: list["_Span"] = field(default_factory=list)
    parent: "_Span | None" = None


def _documents(source: Any) -> list[dict[str, Any]]:
    if isinstance(source, (str, Path)):
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise MasfuzzError(f"{path}: cannot read OTLP file: {exc.strerror}") from None
        try:
            return _documents(json.loads(text))
        except json.JSONDecodeError:
            docs = []
            for n, line in enumerate(text.splitlines(), 1):
                if line.strip():
                    try:
                        docs.append(json.loads(line))
                    except json.JSONDecodeError as exc:
                        raise MasfuzzError(f"{path}:{n}: not OTLP/JSON: {exc.msg}") from None
            return docs
    if isinstance(source, dict):
        return [source]
    if isinstance(source, list):
        return [d for d in source if isinstance(d, dict)]
    raise MasfuzzError(f"OTLP input must be a file, a JSON object or a list, not {type(source).__name__}")


_HEX = re.compile(r"^[0-9a-fA-F]+$")


def _id(raw: Any, size: int) -> str:
    """A trace id (16 bytes) or span id (8) as lowercase hex. OTLP/JSON writes them in hex;
    protobuf's own JSON mapping (`MessageToJson` of the exporters' encoded request) in base64."""
    if not raw or not isinstance(raw, str):
        return ""
    if len(raw) == 2 * size and _HEX.match(raw):
        return raw.lower()
    try:
        decoded = base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError):
        return raw
    return decoded.hex() if len(decoded) == size else raw


def _spans(docs: list[dict[str, Any]]) -> list[_Span]:
    out: list[_Span] = []
    for doc in docs:
        if "resourceSpans" not in doc:
            raise MasfuzzError("not OTLP/JSON trace data: no 'resourceSpans' field")
        for rs in doc["resourceSpans"]:
            resource = _attrs(rs.get("resource", {}).get("attributes"))
            for ss in rs.get("scopeSpans", rs.get("instrumentationLibrarySpans", [])):
                for s in ss.get("spans", []):
                    status = s.get("status", {}) or {}
                    code = status.get("code", 0)
                    out.append(_Span(
                        trace_id=_id(s.get("traceId"), 16), span_id=_id(s.get("spanId"), 8),
                        parent_id=_id(s.get("parentSpanId"), 8), name=s.get("name", ""),
                        start=int(s.get("startTimeUnixNano", 0) or 0),
                        end=int(s.get("endTimeUnixNano", 0) or 0),
                        attrs=_attrs(s.get("attributes")),
                        events=[(int(e.get("timeUnixNano", 0) or 0), e.get("name", ""),
                                 _attrs(e.get("attributes"))) for e in s.get("events", [])],
                        error=code in (STATUS_ERROR, "STATUS_CODE_ERROR"),
                        status_message=status.get("message", "") or "",
                        resource=resource, order=len(out),
                        links=tuple(_id(ln.get("traceId"), 16) for ln in s.get("links", ()) or ()
                                    if isinstance(ln, dict) and ln.get("traceId")),
                    ))
    return out


# --------------------------------------------------------------------------- span kinds

def _op(s: _Span) -> str:
    return str(s.attrs.get("gen_ai.operation.name", "")).lower()


def _oi(s: _Span) -> str:
    return str(s.attrs.get("openinference.span.kind", "")).upper()


_HANDOFF_NAME = re.compile(r"^handoff(?: to (?P<to>.+))?$", re.IGNORECASE)


def _is_handoff(s: _Span) -> bool:
    return (_op(s) == "handoff" or "to_agent" in s.attrs or "masfuzz.delegation.to" in s.attrs
            or bool(_HANDOFF_NAME.match(s.name)))


def _is_workflow(s: _Span) -> bool:
    if _op(s) == "invoke_workflow":
        return True
    # OpenInference opens each Agents SDK trace with an AGENT span named after the workflow.
    return s.parent is None and _oi(s) == "AGENT" and any(_is_agent(c) for c in s.children)


def _is_agent(s: _Span) -> bool:
    if _is_handoff(s):
        return False
    return _op(s) == "invoke_agent" or (_oi(s) == "AGENT" and not (
        s.parent is None and any(_oi(c) == "AGENT" for c in s.children)))


def _is_tool(s: _Span) -> bool:
    return not _is_handoff(s) and (_op(s) == "execute_tool" or _oi(s) == "TOOL")


def _is_model_call(s: _Span) -> bool:
    return _op(s) in ("chat", "text_completion", "generate_content") or _oi(s) == "LLM"


def _strip(name: str, prefix: str) -> str:
    return name[len(prefix):].strip() if name.lower().startswith(prefix) else name


def _agent_name(s: _Span) -> str:
    for key in ("gen_ai.agent.name", "graph.node.id", "agent.name"):
        if s.attrs.get(key):
            return str(s.attrs[key])
    return _strip(s.name, "invoke_agent ") or "agent"


def _tool_name(s: _Span) -> str:
    for key in ("gen_ai.tool.name", "tool.name"):
        if s.attrs.get(key):
            return str(s.attrs[key])
    return _strip(s.name, "execute_tool ") or "tool"


def arguments_of(raw: Any) -> dict[str, Any]:
    """Tool arguments as a dict: JSON text parsed, anything else under `input`."""
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str) and raw.strip():
        try:
            parsed = json.loads(raw)
        except json.JSONDecodeError:
            return {"input": raw}
        return parsed if isinstance(parsed, dict) else {"input": parsed}
    return {}


def _text(raw: Any) -> str:
    if raw is None:
        return ""
    return raw if isinstance(raw, str) else json.dumps(raw, sort_keys=True)


def _output_text(s: _Span) -> str:
    """Assistant text of a model call span (GenAI `gen_ai.output.messages` parts)."""
    msgs = s.attrs.get("gen_ai.output.messages")
    if isinstance(msgs, str):
        try:
            msgs = json.loads(msgs)
        except json.JSONDecodeError:
            return msgs
    texts = []
    for m in msgs or ():
        for p in m.get("parts", ()) if isinstance(m, dict) else ():
            if isinstance(p, dict) and p.get("type") == "text":
                texts.append(str(p.get("content", "")))
    return "\n".join(texts)


# --------------------------------------------------------------------------- AutoGen AgentChat

# The group chat manager's class (the runtime's `recipient_agent_class`) -> the trigger the
# AutoGen adapter gives a speaker change in that team.
_AGENTCHAT_TRIGGERS = {"SelectorGroupChatManager": "selector", "RoundRobinGroupChatManager": "sequence",
                       "SwarmGroupChatManager": "handoff", "GraphFlowManager": "graph_edge"}
_MAX_MESSAGES = re.compile(r"MaxMessageTermination\(max_messages=(\d+)")
_TEXT_MENTION = re.compile(r"TextMentionTermination\(text='([^']*)'")


def _created_ns(m: dict[str, Any]) -> int:
    try:
        when = datetime.fromisoformat(str(m.get("created_at", "")).replace("Z", "+00:00"))
    except ValueError:
        return 0
    # microseconds: the message was made within the microsecond after
    return (int(when.timestamp()) * 1_000_000 + when.microsecond) * 1000 + 999


def _agentchat_text(m: dict[str, Any]) -> str:
    content = m.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(c if isinstance(c, str) else "<image>" for c in content)
    return json.dumps(content, sort_keys=True)


class _AgentChat:
    """What AutoGen AgentChat's own spans tell beyond the GenAI conventions. Its runtime's
    `autogen process` spans carry each delivered message as JSON (`message`): the task, every
    agent's messages and tool events (arguments, results, errors), and the recipient's class
    names the team's kind. `autogen create` spans name the message type they enqueue
    (`messaging.message.type`): a `GroupChatTermination` is a termination condition firing.
    Its stop message is never delivered, so never exported: which condition fired is named
    from the target's conditions when they are known."""

    def __init__(self, spans: list[_Span]) -> None:
        self.present = any(s.attrs.get("gen_ai.system") == "autogen" or s.name.startswith("autogen ")
                           for s in spans)
        self.runtime = any(s.name.startswith("autogen ") for s in spans)
        self.messages: dict[str, dict[str, Any]] = {}
        self.trigger = "delegate"
        self.terminated = any(s.attrs.get("messaging.message.type") == "GroupChatTermination" for s in spans)
        self.errored = any(s.attrs.get("messaging.message.type") == "GroupChatError" for s in spans)
        for s in sorted(spans, key=lambda x: (x.start, x.order)):
            cls = str(s.attrs.get("recipient_agent_class", ""))
            if cls in _AGENTCHAT_TRIGGERS:
                self.trigger = _AGENTCHAT_TRIGGERS[cls]
            raw = s.attrs.get("message")
            if s.attrs.get("messaging.operation") == "process" and isinstance(raw, str):
                try:
                    payload = json.loads(raw)
                except json.JSONDecodeError:
                    continue
                for m in self._carried(payload):
                    self.messages.setdefault(str(m["id"]), m)
        self.requests: dict[str, dict[str, Any]] = {}  # call id -> FunctionCall
        self.results: dict[str, dict[str, Any]] = {}  # call id -> FunctionExecutionResult
        for m in self.messages.values():
            items = m.get("content") if isinstance(m.get("content"), list) else []
            for item in items:
                if not isinstance(item, dict):
                    continue
                if m.get("type") == "ToolCallRequestEvent" and item.get("id"):
                    self.requests[str(item["id"])] = item
                elif m.get("type") == "ToolCallExecutionEvent" and item.get("call_id"):
                    self.results[str(item["call_id"])] = item
        # A team member's turn: the span its ChatAgentContainer opens (it names the agent id).
        invoked = [s for s in spans if _op(s) == "invoke_agent" and s.attrs.get("gen_ai.system") == "autogen"]
        self.agents = {_agent_name(s) for s in invoked}
        turns = sorted((s for s in invoked if s.attrs.get("gen_ai.agent.id")), key=lambda x: (x.start, x.order))
        self.previous = {b.span_id: _agent_name(a) for a, b in zip(turns, turns[1:])}
        self.handoffs = any(m.get("type") == "HandoffMessage" for m in self.messages.values())

    @staticmethod
    def _carried(payload: Any) -> list[dict[str, Any]]:
        """The AgentChat messages in one runtime message: GroupChatStart (`messages`),
        GroupChatMessage (`message`), GroupChatAgentResponse (`response`)."""
        if not isinstance(payload, dict):
            return []
        found = list(payload.get("messages") or ()) if isinstance(payload.get("messages"), list) else []
        if isinstance(payload.get("message"), dict):
            found.append(payload["message"])
        response = payload.get("response")
        if isinstance(response, dict):
            found += [*(response.get("inner_messages") or ()), response.get("chat_message")]
        return [m for m in found if isinstance(m, dict) and m.get("id") and m.get("type")]

    def chat_messages(self) -> list[dict[str, Any]]:
        """The chat messages (not the agents' events), in the order they were made."""
        out = [m for m in self.messages.values() if not str(m.get("type", "")).endswith("Event")]
        return sorted(out, key=_created_ns)

    def stop(self, conditions: tuple[str, ...]) -> tuple[str, str, str | None]:
        """(reason, detail, note) of a run a termination condition ended."""
        chat = self.chat_messages()
        said = [m for m in chat if m.get("source") in self.agents]
        last = _agentchat_text(said[-1]) if said else ""
        known = " | ".join(conditions)
        for text in _TEXT_MENTION.findall(known):
            if text and text in last:
                return "text_mention", f"Text '{text}' mentioned", None
        for n in _MAX_MESSAGES.findall(known):
            if len(chat) >= int(n):
                return ("message_limit", f"Maximum number of messages {n} reached, current message "
                        f"count: {len(chat)}", f"AutoGen's spans do not carry the stop message: "
                        f"message_limit is named from the target's MaxMessageTermination({n}) and "
                        f"the {len(chat)} chat messages the spans show")
        if conditions:
            return ("other", "a termination condition fired", "AutoGen's spans do not carry the stop "
                    "message, and none of the target's termination conditions explains the end")
        return ("other", "a termination condition fired", "AutoGen's spans do not carry the stop "
                "message: judge with a TARGET to name the termination condition that fired")


# --------------------------------------------------------------------------- ingest

class _Builder:
    """Turns one trace's span tree into time-stamped events, then orders them by time."""

    def __init__(self, spans: list[_Span], conditions: tuple[str, ...] = ()) -> None:
        ids = {s.span_id: s for s in spans}
        for s in spans:
            s.parent = ids.get(s.parent_id)
            if s.parent is not None:
                s.parent.children.append(s)
        for s in spans:
            s.children.sort(key=lambda c: (c.start, c.order))
        self.roots = sorted((s for s in spans if s.parent is None), key=lambda s: (s.start, s.order))
        self.t0 = min((s.start for s in spans if s.start), default=0)
        self.t_end = max((max(s.end, s.start) for s in spans), default=self.t0)
        self.events: list[tuple[int, int, Any, str | None]] = []
        self.span: str | None = None  # the span being walked: the id of the events it gives
        self.model_calls = self.tokens_in = self.tokens_out = 0
        self.last_delegation: tuple[str, str] | None = None
        self.conditions = conditions
        self.agentchat = _AgentChat(spans)
        self.notes: list[str] = []
        self.users_said: set[str] = set()  # the user's messages so far (`_span_event`)

    def add(self, ns: int, event: Any, source: str | None = None) -> None:
        """`event` at `ns`; `source` is its id in the user's spans (default: the span walked)."""
        if isinstance(event, DelegationEvent):
            self.last_delegation = (event.from_, event.to)
        self.events.append((ns, len(self.events), event, source or self.span))

    def t(self, ns: int) -> float:
        return round(max(ns - self.t0, 0) / 1e9, 6)

    def walk(self, s: _Span, agent: str | None, tool_owner: str | None) -> None:
        me = agent
        self.span = s.span_id
        if _is_handoff(s):
            self._handoff(s, agent)
        elif _is_agent(s) and not _is_workflow(s):
            me = _agent_name(s)
            before = self.agentchat.previous.get(s.span_id)
            if before is not None and not self.agentchat.handoffs:
                # a speaker change in an AgentChat team (a Swarm's are its HandoffMessages)
                self.add(s.start, DelegationEvent(**{"from": before, "to": me},
                                                  trigger=self.agentchat.trigger))
            self.add(s.start, AgentTurn(agent=me))
            parent = s.attrs.get("graph.node.parent_id")
            if tool_owner and tool_owner != me:
                self.add(s.start, DelegationEvent(**{"from": tool_owner, "to": me},
                                                  trigger="as_tool"))
            elif (parent and str(parent) != me and not s.resource.get("masfuzz.format")
                  and self.last_delegation != (str(parent), me)):
                # OpenInference marks a handed-over agent with its parent node; when the
                # handoff span was exported too, that one hand-over is already recorded.
                self.add(s.start, DelegationEvent(**{"from": str(parent), "to": me}))
            if s.error and not any(n == "exception" for _, n, _ in s.events):
                self.add(s.end, ErrorEvent(agent=me, kind=str(s.attrs.get("error.type", "error")),
                                           message=s.status_message))
        elif _is_tool(s):
            self._tool(s, agent)
        elif _is_model_call(s):
            self._model_call(s, agent)
        for ns, name, attrs in s.events:
            if name == "exception" and _is_tool(s):
                continue  # a tool's exception is its error result (AutoGen records both)
            self._span_event(ns, name, attrs, me)
        owner = (str(s.attrs.get("gen_ai.agent.name") or me or "")) if _is_tool(s) else tool_owner
        for c in s.children:
            self.walk(c, me, owner or None)
            self.span = s.span_id

    def _handoff(self, s: _Span, agent: str | None) -> None:
        m = _HANDOFF_NAME.match(s.name)
        to = s.attrs.get("masfuzz.delegation.to") or s.attrs.get("to_agent") or (m and m["to"])
        frm = s.attrs.get("masfuzz.delegation.from") or s.attrs.get("from_agent") or agent
        if to and frm:
            trigger = str(s.attrs.get("masfuzz.delegation.trigger", "handoff"))
            self.add(s.start, DelegationEvent(**{"from": str(frm), "to": str(to)}, trigger=trigger))

    def _tool(self, s: _Span, agent: str | None) -> None:
        who = str(s.attrs.get("gen_ai.agent.name") or agent or "unknown")
        tool = _tool_name(s)
        call_id = str(s.attrs.get("gen_ai.tool.call.id", "") or "")
        raw_args = s.attrs.get("gen_ai.tool.call.arguments", s.attrs.get("input.value"))
        request = self.agentchat.requests.get(call_id)
        if raw_args is None and request is not None:
            raw_args = request.get("arguments")
        args = arguments_of(raw_args)
        if s.attrs.get("masfuzz.restricted_attempt") in _TRUE:
            mode = str(s.attrs.get("masfuzz.restricted.mode", "probe"))
            self.add(s.start, RestrictedAttempt(agent=who, tool=tool, arguments=args,
                                                call_id=call_id, mode=mode))
        elif s.attrs.get("masfuzz.tool.result_only") not in _TRUE:
            self.add(s.start, ToolCall(agent=who, tool=tool, arguments=args, call_id=call_id))
        if s.attrs.get("masfuzz.tool.no_result") in _TRUE:
            return
        status = str(s.attrs.get("masfuzz.tool.status") or ("error" if s.error else "ok"))
        payload = s.attrs.get("gen_ai.tool.call.result", s.attrs.get("output.value"))
        result = self.agentchat.results.get(call_id)
        if payload is None and result is not None:
            payload = result.get("content")
            status = "error" if result.get("is_error") else status
        if payload is None and s.error:
            payload = s.status_message
        fault = s.attrs.get("masfuzz.tool.fault")
        self.add(max(s.end, s.start), ToolResult(agent=who, tool=tool, call_id=call_id,
                                                 status=status, payload=_text(payload),
                                                 fault=str(fault) if fault else None))

    def _model_call(self, s: _Span, agent: str | None) -> None:
        self.model_calls += 1
        self.tokens_in += int(s.attrs.get("gen_ai.usage.input_tokens",
                                          s.attrs.get("llm.token_count.prompt", 0)) or 0)
        self.tokens_out += int(s.attrs.get("gen_ai.usage.output_tokens",
                                           s.attrs.get("llm.token_count.completion", 0)) or 0)
        text = _output_text(s)
        who = str(s.attrs.get("gen_ai.agent.name") or agent or "") or None
        if text and who:
            self.add(max(s.end, s.start), Message(agent=who, role="assistant", content=text))

    def _span_event(self, ns: int, name: str, attrs: dict[str, Any], agent: str | None) -> None:
        if name == "exception":
            self.add(ns, ErrorEvent(agent=attrs.get("masfuzz.agent") or agent,
                                    kind=str(attrs.get("exception.type", "error")),
                                    message=str(attrs.get("exception.message", ""))))
        elif name in ("gen_ai.user.message", "gen_ai.system.message"):
            role = "user" if name == "gen_ai.user.message" else "system"
            text = str(attrs.get("content", ""))
            if agent and role == "user" and text in self.users_said:
                return  # an agent's model call replaying the history: the user said it once
            source = attrs.get("masfuzz.source")
            message = Message(agent=attrs.get("masfuzz.agent") or None, role=role, content=text,
                              source=source if source in MESSAGE_SOURCES else None)
            if said_by_user(message):
                self.users_said.add(text)
            self.add(ns, message)

    def trace(self) -> Trace:
        root = self.roots[0] if self.roots else None
        for r in self.roots:
            self.walk(r, None, None)
        self.span = None  # AgentChat's messages are named by their own ids
        final_output = self._agentchat_messages()
        in_order = sorted(self.events, key=lambda x: (x[0], x[1]))
        ordered = [e.model_copy(update={"t": self.t(ns)}) for ns, _, e, _ in in_order]
        sources = [source for _, _, _, source in in_order]
        ra = root.attrs if root else {}
        res = root.resource if root else {}
        reason = ra.get("masfuzz.termination.reason")
        detail = str(ra.get("masfuzz.termination.detail", ""))
        crashed = any(r.error for r in self.roots) or self.agentchat.errored
        if reason is None and self.agentchat.terminated and not crashed:
            reason, detail, note = self.agentchat.stop(self.conditions)
            if note:
                self.notes.append(note)
        if reason is None:
            reason = "crash" if crashed else "completed"
        final = ra.get("masfuzz.termination.final_output", final_output)
        if final is None:
            msgs = [e for e in ordered if isinstance(e, Message) and e.role == "assistant"]
            final = msgs[-1].content if msgs else None
        ordered.append(TerminationEvent(t=self.t(self.t_end), reason=reason, detail=detail,
                                        final_output=final))
        usage = Usage(
            model_calls=int(ra.get("masfuzz.usage.model_calls", self.model_calls)),
            tokens_in=int(ra.get("gen_ai.usage.input_tokens", self.tokens_in)),
            tokens_out=int(ra.get("gen_ai.usage.output_tokens", self.tokens_out)),
            wall_time=self.t(self.t_end),
        )
        return Trace(
            scenario_id=str(ra.get("masfuzz.scenario.id", "")),
            system_id=str(ra.get("masfuzz.system.id") or res.get("service.name", "")),
            framework=str(ra.get("masfuzz.framework") or "otel"),
            events=tuple(ordered), usage=usage,
            meta={"source": "otel", "trace_id": root.trace_id if root else "",
                  # each event's span id (a message's id for AgentChat's), the termination none
                  EVENT_SOURCES: [*sources, None],
                  **({"notes": self.notes} if self.notes else {})},
        )

    def _agentchat_messages(self) -> str | None:
        """The task and the agents' chat messages of an AgentChat run, from its runtime's
        spans (a Swarm's `HandoffMessage` is also its delegation); the final output."""
        ac = self.agentchat
        if not ac.present:
            return None
        if not ac.runtime:
            self.notes.append("no AutoGen runtime spans (AUTOGEN_DISABLE_RUNTIME_TRACING set?): the "
                              "task, the agents' messages, tool arguments and results, and how the run "
                              "ended are not known; each agent turn may be a trace of its own")
        if not self.model_calls:
            self.notes.append("AutoGen's spans hold no model calls: the run's model usage is not known")
        final = None
        for m in ac.chat_messages():
            ns, source, text = _created_ns(m), m.get("source"), _agentchat_text(m)
            self.span = str(m.get("id") or "") or None
            if source == "user":
                self.add(ns, Message(agent=None, role="user", content=text))
            elif source in ac.agents:
                self.add(ns, Message(agent=str(source), content=text))
                if m.get("type") == "HandoffMessage" and m.get("target"):
                    self.add(ns, DelegationEvent(**{"from": str(source), "to": str(m["target"])},
                                                 trigger="handoff"))
                if m.get("type") != "ToolCallSummaryMessage":
                    final = text
        return final


def _runs(spans: list[_Span]) -> list[list[_Span]]:
    """The spans grouped into runs: one trace id, or several that span links join (AutoGen's
    runtime starts a trace per delivered message and links it to the sender's span). Groups of
    `create_agent` spans alone (agents built before any run) are no run."""
    top: dict[str, str] = {}

    def find(t: str) -> str:
        while top.setdefault(t, t) != t:
            top[t] = top[top[t]]
            t = top[t]
        return t

    present = {s.trace_id for s in spans}
    for s in spans:
        for linked in s.links:
            if linked in present:
                top[find(linked)] = find(s.trace_id)
    groups: dict[str, list[_Span]] = {}
    for s in spans:
        groups.setdefault(find(s.trace_id), []).append(s)
    runs = [g for g in groups.values() if any(_op(s) != "create_agent" for s in g)]
    return sorted(runs, key=lambda g: min(s.start for s in g))


def ingest_all(source: Any, conditions: Iterable[str] = ()) -> list[Trace]:
    """Every run in an OTLP/JSON source (path, document, or list of documents), one `Trace`
    per trace id (or per set of linked trace ids), in the order the runs started. `conditions`
    are the system's termination conditions (its spec's), when known: AutoGen's spans say that
    a condition fired but not which."""
    spans = _spans(_documents(source))
    return [_Builder(g, tuple(conditions)).trace() for g in _runs(spans)]


def ingest(source: Any, trace_id: str | None = None, conditions: Iterable[str] = ()) -> Trace:
    """The one trace in `source`, or the one with `trace_id`."""
    traces = ingest_all(source, conditions)
    if trace_id is not None:
        traces = [t for t in traces if t.meta.get("trace_id") == trace_id]
        if not traces:
            raise MasfuzzError(f"no spans with trace id {trace_id} in the OTLP input")
    if not traces:
        raise MasfuzzError("the OTLP input holds no spans")
    if len(traces) > 1:
        ids = ", ".join(t.meta["trace_id"] for t in traces[:5])
        raise MasfuzzError(f"the OTLP input holds {len(traces)} traces ({ids}...); pick one by id")
    return traces[0]


# --------------------------------------------------------------------------- export

def _any(v: Any) -> dict[str, Any]:
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, int):
        return {"intValue": str(v)}
    if isinstance(v, float):
        return {"doubleValue": v}
    if isinstance(v, (list, tuple)):
        return {"arrayValue": {"values": [_any(x) for x in v]}}
    return {"stringValue": v if isinstance(v, str) else json.dumps(v, sort_keys=True)}


def _kv(attrs: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"key": k, "value": _any(v)} for k, v in attrs.items() if v is not None]


class _Exporter:
    def __init__(self, trace: Trace, start_ns: int) -> None:
        self.trace = trace
        seed = trace.scenario_id or json.dumps(trace.model_dump(mode="json"), sort_keys=True)
        self.trace_id = hashlib.sha256(seed.encode()).hexdigest()[:32]
        self.spans: list[dict[str, Any]] = []
        # Strictly increasing times keep the events' order exactly through ingestion.
        self.times: list[int] = []
        last = start_ns
        for e in trace.events:
            last = max(start_ns + int(round(e.t * 1e9)), last + 1)
            self.times.append(last)
        self.start = start_ns
        self.end = max(self.times[-1] if self.times else start_ns,
                       start_ns + int(trace.usage.wall_time * 1e9))

    def span_id(self, n: int) -> str:
        return hashlib.sha256(f"{self.trace_id}:{n}".encode()).hexdigest()[:16]

    def span(self, name: str, parent: str, start: int, end: int, attrs: dict[str, Any],
             *, error: str | None = None, events: list[dict[str, Any]] | None = None) -> str:
        sid = self.span_id(len(self.spans) + 1)
        body: dict[str, Any] = {
            "traceId": self.trace_id, "spanId": sid, "parentSpanId": parent, "name": name,
            "kind": 1, "startTimeUnixNano": str(start), "endTimeUnixNano": str(max(end, start)),
            "attributes": _kv(attrs), "events": events or [],
            "status": {"code": STATUS_ERROR, "message": error} if error is not None else {},
        }
        self.spans.append(body)
        return sid

    def document(self) -> dict[str, Any]:
        tr = self.trace
        term = tr.termination
        root_events: list[dict[str, Any]] = []
        root = self.span_id(0)
        results = self._pair_results()
        paired = {j for j, _ in results.values()}
        agent_span: dict[str, str] = {}  # agent -> its current invoke_agent span
        current = root
        turns = [i for i, e in enumerate(tr.events) if isinstance(e, AgentTurn)]
        for i, e in enumerate(tr.events):
            ns = self.times[i]
            if isinstance(e, AgentTurn):
                later = [j for j in turns if j > i]
                end = self.times[later[0]] - 1 if later else self.end
                current = agent_span[e.agent] = self.span(
                    f"invoke_agent {e.agent}", root, ns, end,
                    {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": e.agent})
            elif isinstance(e, (ToolCall, RestrictedAttempt)):
                self._tool_span(e, ns, results.get(i), agent_span.get(e.agent, current))
            elif isinstance(e, ToolResult) and i not in paired:
                self._tool_span(e, ns, (i, e), agent_span.get(e.agent, current), result_only=True)
            elif isinstance(e, DelegationEvent):
                self.span(f"handoff to {e.to}", agent_span.get(e.from_, current), ns, ns, {
                    "from_agent": e.from_, "to_agent": e.to, "masfuzz.delegation.from": e.from_,
                    "masfuzz.delegation.to": e.to, "masfuzz.delegation.trigger": e.trigger})
            elif isinstance(e, Message) and e.role == "assistant" and e.agent:
                self.span("chat", agent_span.get(e.agent, current), ns, ns, {
                    "gen_ai.operation.name": "chat", "gen_ai.agent.name": e.agent,
                    "gen_ai.output.messages": json.dumps(
                        [{"role": "assistant", "parts": [{"type": "text", "content": e.content}]}])})
            elif isinstance(e, Message):
                # who wrote a message in the user's place (a node, the app, a carry-over)
                writer = {k: v for k, v in (("masfuzz.agent", e.agent), ("masfuzz.source", e.source)) if v}
                root_events.append({"timeUnixNano": str(ns), "name": f"gen_ai.{e.role}.message",
                                    "attributes": _kv({"content": e.content, **writer})})
            elif isinstance(e, ErrorEvent):
                root_events.append({"timeUnixNano": str(ns), "name": "exception", "attributes": _kv(
                    {"exception.type": e.kind, "exception.message": e.message,
                     "masfuzz.agent": e.agent})})
        attrs = {
            "gen_ai.operation.name": "invoke_workflow",
            "masfuzz.scenario.id": tr.scenario_id, "masfuzz.system.id": tr.system_id,
            "masfuzz.framework": tr.framework,
            "masfuzz.usage.model_calls": tr.usage.model_calls,
            "gen_ai.usage.input_tokens": tr.usage.tokens_in,
            "gen_ai.usage.output_tokens": tr.usage.tokens_out,
        }
        if term is not None:
            attrs.update({"masfuzz.termination.reason": term.reason,
                          "masfuzz.termination.detail": term.detail,
                          "masfuzz.termination.final_output": term.final_output})
        root_body = {
            "traceId": self.trace_id, "spanId": root, "parentSpanId": "",
            "name": f"invoke_workflow {tr.system_id}".strip(), "kind": 1,
            "startTimeUnixNano": str(self.start), "endTimeUnixNano": str(self.end),
            "attributes": _kv(attrs), "events": root_events, "status": {},
        }
        return {"resourceSpans": [{
            "resource": {"attributes": _kv({"service.name": tr.system_id or "masfuzz",
                                            "masfuzz.format": tr.format_version})},
            "scopeSpans": [{"scope": {"name": "masfuzz"}, "spans": [root_body, *self.spans]}],
        }]}

    def _pair_results(self) -> dict[int, tuple[int, ToolResult]]:
        """call event index -> (result index, result): by call id, else the next result of
        the same agent and tool."""
        out: dict[int, tuple[int, ToolResult]] = {}
        taken: set[int] = set()
        events = self.trace.events
        for i, e in enumerate(events):
            if not isinstance(e, (ToolCall, RestrictedAttempt)):
                continue
            for j in range(i + 1, len(events)):
                r = events[j]
                if (j not in taken and isinstance(r, ToolResult) and r.tool == e.tool
                        and (r.call_id == e.call_id if e.call_id else r.agent == e.agent)):
                    out[i] = (j, r)
                    taken.add(j)
                    break
        return out

    def _tool_span(self, e: Any, ns: int, result: tuple[int, ToolResult] | None, parent: str,
                   *, result_only: bool = False) -> None:
        attrs: dict[str, Any] = {
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": e.tool,
            "gen_ai.agent.name": e.agent, "gen_ai.tool.call.id": e.call_id or None,
        }
        if isinstance(e, RestrictedAttempt):
            attrs.update({"masfuzz.restricted_attempt": True, "masfuzz.restricted.mode": e.mode})
        if not result_only:
            attrs["gen_ai.tool.call.arguments"] = json.dumps(e.arguments, sort_keys=True)
        else:
            attrs["masfuzz.tool.result_only"] = True
        end, error = ns, None
        if result is None:
            attrs["masfuzz.tool.no_result"] = True
        else:
            j, r = result
            end = self.times[j]
            attrs.update({"gen_ai.tool.call.result": r.payload, "masfuzz.tool.status": r.status,
                          "masfuzz.tool.fault": r.fault})
            if r.status == "error":
                error = r.payload[:200]
        self.span(f"execute_tool {e.tool}", parent, ns, end, attrs, error=error)


def export(trace: Trace, *, start_ns: int = 1_700_000_000_000_000_000) -> dict[str, Any]:
    """The trace as one OTLP/JSON document (an `ExportTraceServiceRequest`)."""
    return _Exporter(trace, start_ns).document()


def write(trace: Trace, path: str | Path) -> None:
    Path(path).write_text(json.dumps(export(trace), indent=1), encoding="utf-8")
