"""What one PydanticAI run did, as masfuzz trace events.

Two places see a run: the model of each agent (`bridge`), which sees every turn, the tool calls
the agent asks for with their arguments, and the results PydanticAI sends back (a call whose
arguments failed validation comes back as a retry prompt and never reaches the tool); and the
toolset wrapper around each agent's toolsets (`RecordingToolset`), which runs the tool, or the
fault or stub in its place, and records its result. While a tool runs, `CURRENT_TOOL` names it:
an agent whose model is called inside it was delegated to by that tool (PydanticAI's agent
delegation, `await other.run(..., usage=ctx.usage)` in a tool), an `as_tool` delegation. The
delegate's run ends when the tool returns, and the caller's next model call is its turn again.
"""

from __future__ import annotations

import json
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from pydantic_core import to_jsonable_python

from masfuzz.adapters import faults as fault_lib
from masfuzz.adapters.handover import Handovers
from masfuzz.adapters.user_turns import UserWords
from masfuzz.trace import MISSING_CONTEXT, DelegationEvent, RestrictedAttempt, ToolCall, ToolResult, TraceRecorder

# (agent, tool, call id) of the tool running in this context
CURRENT_TOOL: ContextVar[tuple[str, str, str] | None] = ContextVar("masfuzz_pai_tool", default=None)


@dataclass
class RunRecording:
    recorder: TraceRecorder
    workflow_tools: set[str]
    owned: dict[str, set[str]]  # agent -> the tools it may call
    faults: dict[str, fault_lib.Injection]
    probes: dict[str, set[str]] = field(default_factory=dict)  # agent -> restricted tools offered
    pending: dict[str, tuple[str, str]] = field(default_factory=dict)  # call id -> (agent, tool)
    blocked: set[str] = field(default_factory=set)  # call ids of restricted attempts
    delegated: set[tuple[str, str]] = field(default_factory=set)  # (tool call id, agent)
    final: dict[str, str] = field(default_factory=dict)  # agent -> its last answer
    top: str | None = None  # the last agent the app's own code ran (outside any tool)
    # who the app's code or graph hands over from, to the agent it runs next
    handovers: Handovers = field(default_factory=lambda: Handovers({}))
    graph_output: Any = None  # the value a pydantic-graph graph's End gave
    words: UserWords | None = None  # the user's messages, as the app's own runs get them

    def model_called(self, agent: str) -> None:
        """`agent` takes a turn; inside another agent's tool, that tool delegated to it; outside
        any tool after another agent, the app's code or graph handed over to it (a `sequence`, or
        the spec's trigger for that edge: a graph's `graph_edge`)."""
        outer = CURRENT_TOOL.get()
        if outer is not None and outer[0] != agent and (outer[2], agent) not in self.delegated:
            self.delegated.add((outer[2], agent))
            self.recorder.add(DelegationEvent(**{"from": outer[0], "to": agent, "trigger": "as_tool"}))
        elif outer is None:
            for source, trigger in self.handovers.ran(agent):
                self.recorder.add(DelegationEvent(**{"from": source, "to": agent, "trigger": trigger}))
            self.top = agent
        self.recorder.turn(agent)

    def asked(self, agent: str, tool: str, arguments: dict[str, Any], call_id: str) -> None:
        """The agent's model asked for a tool call."""
        probe = tool in self.probes.get(agent, ())
        if probe or (tool in self.workflow_tools and tool not in self.owned.get(agent, ())):
            self.recorder.add(RestrictedAttempt(agent=agent, tool=tool, arguments=arguments,
                                                call_id=call_id, mode="probe" if probe else "faithful"))
            self.blocked.add(call_id)
            return
        self.pending[call_id] = (agent, tool)
        self.recorder.add(ToolCall(agent=agent, tool=tool, arguments=arguments, call_id=call_id))

    def answered(self, call_id: str, tool: str, status: str, payload: str, agent: str = "",
                 ran: bool = False) -> None:
        """A tool call's result: run by the wrapper (`ran`: a restricted tool a workflow mutant
        granted runs too), or refused by PydanticAI (bad arguments, a tool the agent does not
        have)."""
        if call_id in self.blocked and not ran:
            self.blocked.discard(call_id)
            self.recorder.add(ToolResult(agent=agent, tool=tool, call_id=call_id, status="blocked",
                                         payload=payload))
            return
        self.blocked.discard(call_id)
        owner, _ = self.pending.pop(call_id, (agent, tool))
        injection = self.faults.get(tool)
        self.recorder.add(ToolResult(agent=owner, tool=tool, call_id=call_id, status=status,  # type: ignore[arg-type]
                                     payload=payload, fault=injection.mode if injection else None))

    def fail_pending(self, message: str) -> None:
        """Calls still open when the run ended: they end in an error result."""
        for call_id, (agent, tool) in list(self.pending.items()):
            self.answered(call_id, tool, "error", message, agent)


def payload_text(value: Any) -> str:
    """A tool's return value as the text a trace keeps: JSON, as PydanticAI writes it for the
    model (a dataclass as the object of its fields, not the string of its repr), what JSON
    cannot hold as its str. Characters outside ASCII stay as written ("12.5 m²", "£38.40"), as
    PydanticAI's own JSON hands them to the model: an escape (`m\\u00b2`) would hide from every
    oracle that the answer quotes the argument it was sent."""
    if isinstance(value, str):
        return value
    dump = getattr(value, "model_dump", None)
    try:
        return json.dumps(dump(mode="json") if callable(dump) else value, ensure_ascii=False,
                          default=partial(to_jsonable_python, fallback=str))
    except (TypeError, ValueError):
        return str(value)


def recording_toolset(wrapped: Any, agent: str, recording: RunRecording, *,
                      hidden: set[str] | frozenset[str] = frozenset(),
                      descriptions: dict[str, str] | None = None) -> Any:
    """`wrapped`, one of an agent's toolsets, with its tool calls recorded and faulted; a
    workflow mutant's `hidden` tools left out of what it offers and `descriptions` put in."""
    return _toolset_class()(wrapped, agent=agent, recording=recording, hidden=frozenset(hidden),
                            descriptions=dict(descriptions or {}))


_classes: dict[type, type] = {}


def _toolset_class() -> type:
    from pydantic_ai.exceptions import ModelRetry
    from pydantic_ai.toolsets import WrapperToolset

    cls = _classes.get(WrapperToolset)
    if cls is not None:
        return cls

    @dataclass
    class RecordingToolset(WrapperToolset):  # type: ignore[misc, type-arg]
        agent: str = ""
        recording: Any = None
        hidden: frozenset[str] = frozenset()
        descriptions: dict[str, str] = field(default_factory=dict)

        async def get_tools(self, ctx: Any) -> dict[str, Any]:
            tools = await self.wrapped.get_tools(ctx)
            return {name: replace(t, tool_def=replace(t.tool_def, description=self.descriptions[name]))
                    if name in self.descriptions else t
                    for name, t in tools.items() if name not in self.hidden}

        async def call_tool(self, name: str, tool_args: dict[str, Any], ctx: Any, tool: Any) -> Any:
            rec: RunRecording = self.recording
            call_id = str(getattr(ctx, "tool_call_id", None) or "")
            token = CURRENT_TOOL.set((self.agent, name, call_id))
            injection = rec.faults.get(name)
            try:
                if injection is not None and injection.mode == "error":
                    # a PydanticAI tool reports failure by raising ModelRetry, which the model
                    # is told of (an exception of any other type ends the run): the fault's form
                    raise ModelRetry(fault_lib.error_message(name))
                if injection is not None:
                    result = await fault_lib.inject(injection, name)
                else:
                    result = await self.wrapped.call_tool(name, tool_args, ctx, tool)
            except ModelRetry as exc:  # the tool asks the model to try again: an error result
                rec.answered(call_id, name, "error", str(exc), self.agent, ran=True)
                raise
            except Exception as exc:
                rec.answered(call_id, name, "error", f"{type(exc).__name__}: {exc}", self.agent, ran=True)
                if getattr(ctx, "deps", None) is None and isinstance(exc, (AttributeError, TypeError)) \
                        and "NoneType" in str(exc):
                    # it read the dependencies the app's own code passes (`deps=`) and masfuzz
                    # had none to pass (`--context` makes them): the harness's doing
                    rec.recorder.meta.setdefault(MISSING_CONTEXT, []).append(name)
                raise
            finally:
                CURRENT_TOOL.reset(token)
            rec.answered(call_id, name, "ok", payload_text(result), self.agent, ran=True)
            return result

    _classes[WrapperToolset] = RecordingToolset
    return RecordingToolset
