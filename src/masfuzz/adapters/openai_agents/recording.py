"""Turning the SDK's tracing spans of one run into masfuzz trace events.

One `TracingProcessor` (`DISPATCH`) is registered with `set_trace_processors`, never by
disabling tracing (which silences custom processors too). It routes spans by trace id to the
`RunRecording` of the run they belong to, so concurrent runs in one process do not mix and
nested `Agent.as_tool` runs, which share their caller's trace, are recorded in place.

Spans name agents by display name only; which agent *object* is speaking is learnt from
`RunConfig.call_model_input_filter` (it sees `data.agent`), and from the spec's delegation
edges when a handoff or an `as_tool` call leads to a name several agents share.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from masfuzz.adapters.openai_agents import sdk
from masfuzz.adapters.openai_agents.extract import Walk, slug
from masfuzz.adapters.user_turns import UserWords
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import (
    AgentTurn,
    DelegationEvent,
    ErrorEvent,
    RestrictedAttempt,
    ToolCall,
    ToolResult,
    TraceRecorder,
)

# The agent whose model call is being prepared in this task (set by the input filter).
CURRENT_AGENT: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "masfuzz_openai_agents_current_agent", default=None
)


@dataclass
class _Span:
    kind: str  # agent | function | handoff | other
    parent: str | None
    agent: str | None = None  # for agent spans: the agent id once known
    turn_emitted: bool = False
    call: ToolCall | None = None  # for function spans: the call it executes


@dataclass
class PendingCall:
    name: str
    arguments: dict[str, Any]
    raw_arguments: str
    call_id: str


@dataclass(frozen=True)
class GraphIndex:
    """What a run looks agents and tools up in, derived from the walk and the spec alone. Every
    run of one system shares it (read-only): rebuilding it per run was per-graph work paid on
    each run."""

    workflow_tools: frozenset[str]
    owned: dict[str, frozenset[str]]  # agent id -> workflow tools it owns
    by_name: dict[str, list[str]]  # display name -> agent ids, in walk order
    as_tool_target: dict[tuple[str, str], str]  # (agent id, as_tool tool name) -> inner agent
    # (source id, target name) and (source id, handoff tool name) -> target id; the tool
    # name tells apart two targets that share a display name.
    handoff_targets: dict[tuple[str, str], str]
    handoff_tools: dict[tuple[str, str], str]

    @classmethod
    def build(cls, walk: Walk, spec: WorkflowSpec) -> "GraphIndex":
        owned: dict[str, set[str]] = {}
        for a, t in spec.permissions.allow:
            owned.setdefault(a, set()).add(t)
        by_name: dict[str, list[str]] = {}
        for agent in walk.agents:
            by_name.setdefault(str(agent.name), []).append(walk.id_of(agent))
        handoff_targets: dict[tuple[str, str], str] = {}
        handoff_tools: dict[tuple[str, str], str] = {}
        for d in walk.delegations:
            if d.trigger == "handoff":
                source, target = walk.id_of(d.source), walk.id_of(d.target)
                handoff_targets.setdefault((source, str(d.target.name)), target)
                handoff_tools[(source, sdk.handoff_tool_name(d.via))] = target
        return cls(
            workflow_tools=frozenset(t.id for t in spec.tools),
            owned={a: frozenset(ts) for a, ts in owned.items()},
            by_name=by_name,
            as_tool_target={(walk.id_of(d.source), sdk.tool_name(d.via)): walk.id_of(d.target)
                            for d in walk.delegations if d.trigger == "as_tool"},
            handoff_targets=handoff_targets,
            handoff_tools=handoff_tools,
        )


# The index of each (walk, spec) pair runs were made with; both are kept in the value so their
# ids cannot be reused while the entry lives. A walk is made once per extracted system, so this
# holds one entry per system (a bound keeps a process that loads many systems from growing).
_indexes: dict[tuple[int, int], tuple[Walk, WorkflowSpec, GraphIndex]] = {}
_MAX_INDEXES = 64


def graph_index(walk: Walk, spec: WorkflowSpec) -> GraphIndex:
    key = (id(walk), id(spec))
    hit = _indexes.get(key)
    if hit is None or hit[0] is not walk or hit[1] is not spec:
        if len(_indexes) >= _MAX_INDEXES:
            _indexes.pop(next(iter(_indexes)))
        hit = _indexes[key] = (walk, spec, GraphIndex.build(walk, spec))
    return hit[2]


@dataclass
class RunRecording:
    """Everything one run records, shared by the processor, the model bridge and the tools."""

    recorder: TraceRecorder
    spec: WorkflowSpec
    walk: Walk
    restricted: str  # probe | faithful | off
    spans: dict[str, _Span] = field(default_factory=dict)
    pending: dict[str, list[PendingCall]] = field(default_factory=dict)  # agent span -> calls
    approved: list[PendingCall] = field(default_factory=list)  # paused calls run on resuming
    blocked_spans: set[str] = field(default_factory=set)
    fault_spans: dict[str, str] = field(default_factory=dict)  # function span -> fault mode
    error_spans: dict[str, str] = field(default_factory=dict)  # function span -> error text
    open_calls: dict[str, ToolCall] = field(default_factory=dict)  # span id -> unanswered call

    def __post_init__(self) -> None:
        index = graph_index(self.walk, self.spec)
        self.workflow_tools = index.workflow_tools
        self.owned = index.owned
        self.by_name = index.by_name
        self.as_tool_target = index.as_tool_target
        self.handoff_targets = index.handoff_targets
        self.handoff_tools = index.handoff_tools
        self.next_handoff: dict[str, str] = {}  # source id -> target id the model just chose
        self.hint: str | None = None  # the agent id the next agent span belongs to, if known
        self.sequence = False  # a pipeline's run: each top-level run follows the one before
        self.last_top: str | None = None  # the agent of the latest top-level run
        self.handed_to: str | None = None  # the agent a handoff just gave the floor to
        self.words: UserWords | None = None  # the user's messages, as the app's runs get them
        self.adopted: list[str] = []  # the app's own traces recorded here

    # --- identity --------------------------------------------------------------------------

    def agent_id(self, agent: Any) -> str:
        known = self.walk.ids.get(id(agent))
        if known is not None:
            return known
        return self.id_by_name(str(getattr(agent, "name", "") or "agent"))

    def id_by_name(self, name: str) -> str:
        ids = self.by_name.get(name)
        return ids[0] if ids else slug(name)

    def agent_span_of(self, span_id: str | None) -> str | None:
        while span_id is not None:
            span = self.spans.get(span_id)
            if span is None:
                return None
            if span.kind == "agent":
                return span_id
            span_id = span.parent
        return None

    def agent_of(self, span_id: str | None) -> str | None:
        agent_span = self.agent_span_of(span_id)
        return self.spans[agent_span].agent if agent_span else None

    def bind_current(self, agent: Any, current_span: Any) -> str:
        """Called by the model-input filter: the exact agent object of this model call."""
        ident = self.agent_id(agent)
        CURRENT_AGENT.set(ident)
        agent_span = self.agent_span_of(getattr(current_span, "span_id", None))
        if agent_span is not None:
            span = self.spans[agent_span]
            span.agent = ident
            span.turn_emitted = True
        # Every model call is the agent speaking; the recorder drops a repeat of the current
        # speaker, so this only adds a turn after someone else spoke (a nested as_tool run).
        self.recorder.turn(ident)
        return ident

    # --- spans -----------------------------------------------------------------------------

    def span_started(self, span: Any) -> None:
        data = span.span_data
        kind = getattr(data, "type", "other")
        rec = _Span(kind=kind if kind in ("agent", "function", "handoff") else "other",
                    parent=span.parent_id)
        self.spans[span.span_id] = rec
        if rec.kind == "agent":
            name = str(getattr(data, "name", "") or "")
            candidates = self.by_name.get(name, [])
            if self.hint is not None and (self.hint in candidates or not candidates):
                rec.agent, self.hint = self.hint, None
            elif len(candidates) <= 1:
                rec.agent = candidates[0] if candidates else slug(name)
            if rec.agent is not None:  # else: ambiguous name, the input filter tells
                if self.sequence and self.agent_span_of(span.parent_id) is None:
                    self._next_run(rec.agent)
                rec.turn_emitted = True
                self.recorder.turn(rec.agent)
        elif rec.kind == "function":
            self._tool_started(span.span_id, rec, str(getattr(data, "name", "") or ""))

    def run_input(self, given: Any) -> None:
        """A run the app's own code starts is given `given` (`nested`): the user's words in it."""
        if self.words is not None:
            self.words.heard(user_texts(given))

    def _next_run(self, agent: str) -> None:
        """A pipeline's code started a run of `agent` after a run of another: the edge its code
        takes. The SDK starts the agent a handoff leads to at the top level too: that is the
        handoff's edge, recorded as such, not the code's."""
        handed, self.handed_to = self.handed_to, None
        if self.last_top is not None and self.last_top != agent and handed != agent:
            self.recorder.add(DelegationEvent(**{"from": self.last_top}, to=agent, trigger="sequence",
                                              t=self.recorder.now()))
        self.last_top = agent

    def _tool_started(self, span_id: str, rec: _Span, tool: str) -> None:
        agent = self.agent_of(span_id) or "?"
        agent_span = self.agent_span_of(span_id)
        queue = self.pending.get(agent_span or "", [])
        found = next((c for c in queue if c.name == tool), None)
        resumed = False
        if found is None:  # a call a paused run asked for, run by the resumed run's own span
            queue = self.approved
            found = next((c for c in queue if c.name == tool), None)
            resumed = found is not None and bool(found.call_id) and any(
                isinstance(e, ToolCall) and e.call_id == found.call_id for e in self.recorder.events)
        if found is not None:
            queue.remove(found)
        call = ToolCall(agent=agent, tool=tool,
                        arguments=found.arguments if found else {},
                        call_id=found.call_id if found else "", t=self.recorder.now())
        rec.call = call
        # The SDK runs an approved call again from the start when the run resumes (an agent
        # tool's whole inner run too): the model asked for it once, so it is the same call
        # going on, its result the one that counts, not a second call nor a second hand-over
        if not resumed:
            self.recorder.add(call)
        self.open_calls[span_id] = call
        inner = self.as_tool_target.get((agent, tool))
        if inner is not None:
            if not resumed:
                self.recorder.add(DelegationEvent(**{"from": agent}, to=inner, trigger="as_tool",
                                                  t=self.recorder.now()))
            self.hint = inner

    def span_ended(self, span: Any) -> None:
        rec = self.spans.get(span.span_id)
        if rec is None:
            return
        data = span.span_data
        if rec.kind == "function" and rec.call is not None:
            self.open_calls.pop(span.span_id, None)
            call = rec.call
            fault = self.fault_spans.get(span.span_id)
            if span.span_id in self.blocked_spans:
                status = "blocked"
            elif span.span_id in self.error_spans or getattr(span, "error", None) \
                    or fault == "timeout":
                status = "error"
            else:
                status = "ok"
            payload = _text(getattr(data, "output", None))
            if fault == "timeout" and span.span_id not in self.error_spans:
                self.error_spans[span.span_id] = "the tool hung (injected timeout) and was cancelled"
            if status == "error":
                detail = self.error_spans.get(span.span_id) or _span_error(span)
                payload = detail if not payload else f"{detail} -> {payload}"
            if not call.arguments:
                args = _parse_args(getattr(data, "input", None))
                if args:
                    call = call.model_copy(update={"arguments": args})
            self.recorder.add(ToolResult(agent=call.agent, tool=call.tool, call_id=call.call_id,
                                         status=status, payload=payload, fault=fault,
                                         t=self.recorder.now()))
        elif rec.kind == "handoff":
            source = self.agent_of(span.span_id) or self.id_by_name(
                str(getattr(data, "from_agent", "") or ""))
            to_name = str(getattr(data, "to_agent", "") or "")
            if not to_name:
                return
            target = self.next_handoff.pop(source, None) or \
                self.handoff_targets.get((source, to_name)) or self.id_by_name(to_name)
            self.hint = self.handed_to = target
            self.recorder.add(DelegationEvent(**{"from": source}, to=target, trigger="handoff",
                                              t=self.recorder.now()))
        elif rec.kind == "other" and getattr(data, "type", "") == "guardrail":
            if getattr(data, "triggered", False):
                self.recorder.add(ErrorEvent(agent=self.agent_of(span.span_id),
                                             kind="guardrail_tripwire",
                                             message=f"guardrail {data.name} tripped"))

    # --- model calls -----------------------------------------------------------------------

    def model_asked(self, agent: str, current_span: Any, calls: list[PendingCall],
                    offered: set[str]) -> None:
        """The model of `agent` asked for these calls: remember them for the function spans
        (arguments and call ids), and in faithful mode record calls of workflow tools the
        agent does not own as restricted attempts."""
        agent_span = self.agent_span_of(getattr(current_span, "span_id", None))
        self.pending.setdefault(agent_span or "", []).extend(calls)
        for c in calls:
            target = self.handoff_tools.get((agent, c.name))
            if target is not None and agent not in self.next_handoff:
                self.next_handoff[agent] = target  # the SDK follows the first handoff asked
        if self.restricted != "faithful":
            return
        for c in calls:
            if c.name in self.workflow_tools and c.name not in self.owned.get(agent, set()):
                self.recorder.add(RestrictedAttempt(agent=agent, tool=c.name,
                                                    arguments=c.arguments, call_id=c.call_id,
                                                    mode="faithful"))

    def paused(self, items: list[Any]) -> None:
        """The run paused for a human's approval of these calls (`ToolApprovalItem`s), which
        masfuzz's stand-in approves: what the pause recorded of each did not run (its result
        says so), and the resumed run's call of it gets the model's arguments and call id."""
        ids = set()
        for item in items:
            raw = getattr(item, "raw_item", None)
            raw_args = getattr(raw, "arguments", None)
            raw_args = raw_args if isinstance(raw_args, str) else ""
            call = PendingCall(name=str(getattr(item, "name", None) or getattr(raw, "name", "")),
                               arguments=_parse_args(raw_args), raw_arguments=raw_args,
                               call_id=str(getattr(raw, "call_id", None) or ""))
            self.approved.append(call)
            ids.add(call.call_id)
        events = self.recorder.events
        calls = {e.call_id: e for e in events if isinstance(e, ToolCall) and e.call_id}
        for i, event in enumerate(events):
            if not isinstance(event, ToolResult) or event.payload or not event.call_id:
                continue
            call = calls.get(event.call_id)
            # an agent tool whose inner run paused (its own tool awaits approval) returns
            # nothing yet, and the resumed run calls it again
            nested = call is not None and (call.agent, call.tool) in self.as_tool_target
            if event.call_id in ids or nested:
                events[i] = event.model_copy(update={"payload": "(not run yet: paused for a "
                                                     "human's approval, needs_approval)"})
            if nested and event.call_id not in ids:
                ids.add(event.call_id)
                self.approved.append(PendingCall(name=call.tool, arguments=dict(call.arguments),
                                                 raw_arguments=json.dumps(call.arguments),
                                                 call_id=call.call_id))

    def close_open_calls(self, why: str) -> None:
        """A run cut short (time limit, crash) leaves calls without results: answer them."""
        for span_id, call in list(self.open_calls.items()):
            self.recorder.add(ToolResult(agent=call.agent, tool=call.tool, call_id=call.call_id,
                                         status="error", payload=why,
                                         fault=self.fault_spans.get(span_id)))
        self.open_calls.clear()


def user_texts(given: Any) -> list[str]:
    """The user-role texts of a run's input, in order: the string it is, or those of its input
    items (`to_input_list()`'s dicts, or the SDK's typed items); none of a paused run resumed
    (a `RunState`)."""
    if isinstance(given, str):
        return [given]
    out = []
    for item in given if isinstance(given, list) else ():
        field = item.get if isinstance(item, dict) else lambda k, i=item: getattr(i, k, None)
        if field("role") != "user" or (field("type") or "message") != "message":
            continue
        content = field("content")
        if isinstance(content, list):  # parts: input_text, input_image, ...
            content = "\n".join(str(p.get("text") if isinstance(p, dict) else getattr(p, "text", "") or "")
                                for p in content)
        out.append(str(content or ""))
    return out


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)


def _parse_args(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, str) or not raw:
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        return {"_raw": raw}
    return value if isinstance(value, dict) else {"_value": value}


def _span_error(span: Any) -> str:
    err = getattr(span, "error", None) or {}
    data = err.get("data") or {}
    return str(data.get("error") or err.get("message") or "error")


# The recording of the app's function masfuzz is running (a pipeline), in the context its code
# runs in: a trace the app opens itself (`with trace("Story flow"):`) is that run's too.
_ADOPTING: ContextVar["RunRecording | None"] = ContextVar("masfuzz_adopting", default=None)


@contextlib.contextmanager
def adopting(rec: RunRecording) -> Iterator[None]:
    """Within the block, traces the app starts are recorded in `rec`, and each top-level run
    after another is a `sequence` delegation from the agent that ran before."""
    rec.sequence = True
    token = _ADOPTING.set(rec)
    try:
        yield
    finally:
        _ADOPTING.reset(token)
        processor = dispatch()
        for trace_id in rec.adopted:
            processor.runs.pop(trace_id, None)


class Dispatch:
    """The one processor masfuzz registers: spans go to the recording of their trace."""

    def __init__(self) -> None:
        self.runs: dict[str, RunRecording] = {}

    def on_trace_start(self, trace: Any) -> None:
        rec = _ADOPTING.get()
        trace_id = getattr(trace, "trace_id", None)
        if rec is not None and trace_id and trace_id not in self.runs:
            self.runs[trace_id] = rec
            rec.adopted.append(trace_id)

    def on_trace_end(self, trace: Any) -> None:
        pass

    def on_span_start(self, span: Any) -> None:
        run = self.runs.get(span.trace_id)
        if run is not None:
            run.span_started(span)

    def on_span_end(self, span: Any) -> None:
        run = self.runs.get(span.trace_id)
        if run is not None:
            run.span_ended(span)

    def shutdown(self) -> None:
        pass

    def force_flush(self) -> None:
        pass


_DISPATCH: Any = None


def dispatch() -> Dispatch:
    """The registered processor, (re-)registered if something replaced the processor list."""
    global _DISPATCH
    agents = sdk.require()
    if _DISPATCH is None:
        cls = type("MasfuzzTraceProcessor", (Dispatch, agents.TracingProcessor), {})
        _DISPATCH = cls()
    provider = agents.tracing.get_trace_provider()
    processors = getattr(getattr(provider, "_multi_processor", None), "_processors", None)
    if processors is None or tuple(processors) != (_DISPATCH,):
        agents.set_trace_processors([_DISPATCH])
    return _DISPATCH
