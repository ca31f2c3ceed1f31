"""ADK's run, recorded as a masfuzz `Trace`, by a plugin the run's `Runner` is given.

An ADK plugin sees every agent start, tool call, tool result and tool error of the run, agents
run by an `AgentTool` included (ADK hands the parent runner's plugins to the agent tool's own
runner), before the agent's own callbacks: nothing of the app is changed to record it. It records

- an agent turn when an agent starts (a workflow agent too: it has no model, but it runs), and a
  delegation into it when a workflow agent started it: `delegate` from a sequential or loop
  agent to its first sub-agent and from a parallel or custom agent to each, `sequence` from the sub-agent
  that ran before it (in a loop, from the last to the first: the next iteration);
- a tool call with its arguments, and its result or error, with the injected fault if any; a
  call of an `AgentTool` is also an `as_tool` delegation; `transfer_to_agent` is no tool call but
  a `handoff` delegation, to the agent ADK transfers to;
- a call of a workflow tool the calling agent does not have, answered with a refusal, as ADK
  answers a tool it cannot find: a model naming another agent's tool by itself is a faithful
  restricted attempt; a call of a restricted-tool probe masfuzz's model was offered is recorded
  by the bridge as the model makes it (the app's own model callbacks may fail on it first);
- in ADK 2's graph `Workflow` (which is no agent: ADK calls no agent callback for it, and its
  agent nodes have no parent), the workflow's turn when its first agent node starts, a
  `delegate` from it to that node, and a `graph_edge` delegation to each later agent node from
  the agent node its edges came from (`handover.Handovers`: parallel branches and joins too);
- who escalated (`exit_loop`, any tool setting `actions.escalate`), for the termination reason.

Faults and stubs replace the tool's body (`run_async` of that tool object, for this call), so
ADK's own callbacks and error handling around the tool run as with the real tool.
"""

from __future__ import annotations

import json
from typing import Any

from masfuzz.adapters.adk.extract import TRANSFER_TOOL, Walk, graph_members, kind_of
from masfuzz.adapters.faults import Injection, inject
from masfuzz.adapters.handover import Handovers
from masfuzz.trace import DelegationEvent, RestrictedAttempt, ToolCall, ToolResult, TraceRecorder

_plugin_class: Any = None


def plugin_class() -> Any:
    global _plugin_class
    if _plugin_class is None:
        from google.adk.plugins.base_plugin import BasePlugin

        _plugin_class = type("MasfuzzRecordingPlugin", (Recording, BasePlugin), {})
    return _plugin_class


def make_plugin(**kwargs: Any) -> Any:
    plugin = plugin_class()(**kwargs)
    super(Recording, plugin).__init__(name="masfuzz")  # BasePlugin's own __init__
    return plugin


class Recording:
    """The hooks of the plugin (mixed into ADK's `BasePlugin` by `plugin_class`)."""

    def __init__(self, *, recorder: TraceRecorder, walk: Walk, allowed: set[tuple[str, str]],
                 workflow_tools: set[str], faults: dict[str, Injection],
                 open_probes: list[tuple[str, str]]) -> None:
        self.rec = recorder
        self.walk = walk
        self.allowed = allowed
        self.workflow_tools = workflow_tools
        self.faults = faults
        self.open_probes = open_probes  # probe calls the bridge recorded as the model made them
        self.escalated: list[str] = []  # agents that escalated, in order
        self.iterations: dict[str, int] = {}  # loop agent id -> iterations started
        self._last_child: dict[str, str] = {}  # workflow agent id -> its sub-agent that ran last
        self._patched: dict[int, Any] = {}  # id(tool) -> tool, whose run_async is injected
        self._refused: set[str] = set()  # call ids this plugin answered (ADK still runs the after hooks)
        # ADK 2's graph workflows: agent node -> its workflow, and each workflow's hand-overs
        self._graph_of = {walk.id_of(node): workflow for workflow in walk.agents
                          if kind_of(workflow) == "graph" for node in graph_members(workflow)
                          if id(node) in walk.ids}
        self._graphs: dict[str, Handovers] = {}
        self._graph_edges = {(walk.id_of(d.source), walk.id_of(d.target)): d.trigger
                             for d in walk.delegations if d.trigger in ("delegate", "graph_edge", "sequence")
                             and walk.id_of(d.target) in self._graph_of}

    def agent_id(self, agent_or_name: Any) -> str:
        if isinstance(agent_or_name, str):
            return self.walk.by_name(agent_or_name) or agent_or_name
        return self.walk.ids.get(id(agent_or_name)) or self.walk.by_name(agent_or_name.name) \
            or agent_or_name.name

    # -- agents -----------------------------------------------------------------------------
    async def before_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        me = self.agent_id(agent)
        self._last_child.pop(me, None)  # a workflow agent starting again starts its order again
        parent = agent.parent_agent
        kind = kind_of(parent) if parent is not None else None
        if kind in ("sequential", "loop", "parallel", "other"):  # a workflow or custom agent ran it
            pid = self.agent_id(parent)
            before = self._last_child.get(pid)
            if kind == "loop" and parent.sub_agents and agent is parent.sub_agents[0]:
                self.iterations[pid] = self.iterations.get(pid, 0) + 1
            if before is not None and kind in ("sequential", "loop"):
                self.rec.add(DelegationEvent(**{"from": before}, to=me, trigger="sequence",
                                             t=self.rec.now()))
            else:
                self.rec.add(DelegationEvent(**{"from": pid}, to=me, trigger="delegate",
                                             t=self.rec.now()))
            self._last_child[pid] = me
        elif me in self._graph_of:  # a node of a graph workflow, which ADK runs without a parent
            self._graph_node(self._graph_of[me], me)
        self.rec.turn(me)
        return None

    def _graph_node(self, workflow: Any, me: str) -> None:
        """Agent node `me` of `workflow` starts: the workflow's own turn first if it had none
        (it is no ADK agent: no callback says when it starts; a workflow nested in another is
        that one's node), then the hand-over its graph made to `me`."""
        wid = self.walk.id_of(workflow)
        if wid not in self._graphs:
            if wid in self._graph_of:
                self._graph_node(self._graph_of[wid], wid)
            self.rec.turn(wid)
            self._graphs[wid] = Handovers(self._graph_edges, default="graph_edge")
            self._graphs[wid].ran(wid)
        for source, trigger in self._graphs[wid].ran(me):
            self.rec.add(DelegationEvent(**{"from": source}, to=me, trigger=trigger, t=self.rec.now()))

    # -- tools ------------------------------------------------------------------------------
    async def before_tool_callback(self, *, tool: Any, tool_args: dict[str, Any],
                                   tool_context: Any) -> dict[str, Any] | None:
        agent = self.agent_id(tool_context.agent_name)
        name = str(tool.name)
        call_id = str(tool_context.function_call_id or "")
        if name == TRANSFER_TOOL:
            return None  # a delegation, recorded when ADK has decided it (after_tool_callback)
        if (agent, name) not in self.allowed and name in self.workflow_tools:
            if (agent, name) in self.open_probes:
                self.open_probes.remove((agent, name))
            else:  # a model naming another agent's tool by itself
                self.rec.add(RestrictedAttempt(agent=agent, tool=name, arguments=dict(tool_args),
                                               call_id=call_id, mode="faithful", t=self.rec.now()))
            payload = f"tool {name} is not available to agent {agent}"
            self.rec.add(ToolResult(agent=agent, tool=name, call_id=call_id, status="blocked",
                                    payload=payload, t=self.rec.now()))
            self._refused.add(call_id)
            return {"error": payload}
        self.rec.add(ToolCall(agent=agent, tool=name, arguments=dict(tool_args), call_id=call_id,
                              t=self.rec.now()))
        inner = getattr(tool, "agent", None)
        if inner is not None and id(inner) in self.walk.ids:
            self.rec.add(DelegationEvent(**{"from": agent}, to=self.agent_id(inner), trigger="as_tool",
                                         t=self.rec.now()))
        injection = self.faults.get(name)
        if injection is not None:
            self._inject(tool, name, injection)
        return None

    def _inject(self, tool: Any, name: str, injection: Injection) -> None:
        async def replaced(*, args: dict[str, Any], tool_context: Any) -> Any:
            self.restore(tool)
            return await inject(injection, name)

        self._patched[id(tool)] = tool
        tool.run_async = replaced  # this tool object, for this call; `restore` puts it back

    def restore(self, tool: Any = None) -> None:
        """The tools whose body a fault or stub replaced, as they were (all when `tool` is None)."""
        for t in [tool] if tool is not None else list(self._patched.values()):
            if self._patched.pop(id(t), None) is not None:
                t.__dict__.pop("run_async", None)

    async def after_tool_callback(self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any,
                                  result: Any) -> None:
        agent = self.agent_id(tool_context.agent_name)
        name = str(tool.name)
        actions = tool_context.actions
        if name == TRANSFER_TOOL:
            target = getattr(actions, "transfer_to_agent", None)
            if target:
                self.rec.add(DelegationEvent(**{"from": agent}, to=self.agent_id(target),
                                             trigger="handoff", t=self.rec.now()))
            return None
        call_id = str(tool_context.function_call_id or "")
        if call_id in self._refused:
            return None
        injection = self.faults.get(name)
        self.rec.add(ToolResult(agent=agent, tool=name, call_id=call_id,
                                payload=_payload(result), t=self.rec.now(),
                                fault=injection.mode if injection else None))
        if getattr(actions, "escalate", None):
            self.escalated.append(agent)
        return None

    async def on_tool_error_callback(self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any,
                                     error: Exception) -> None:
        self.restore(tool)
        agent = self.agent_id(tool_context.agent_name)
        name = str(tool.name)
        injection = self.faults.get(name)
        self.rec.add(ToolResult(agent=agent, tool=name, call_id=str(tool_context.function_call_id or ""),
                                status="error", payload=f"{type(error).__name__}: {error}",
                                fault=injection.mode if injection else None, t=self.rec.now()))
        return None

    async def on_event_callback(self, *, invocation_context: Any, event: Any) -> None:
        if getattr(event.actions, "escalate", None) and event.author:
            who = self.agent_id(event.author)
            if not self.escalated or self.escalated[-1] != who:
                self.escalated.append(who)
        return None


def _payload(result: Any) -> str:
    """A tool's answer as the trace keeps it: JSON with its characters as written ("m²", not
    `m\\u00b2`), as the model reads the function response, so the answer's quotes of an argument
    read as that argument."""
    if isinstance(result, str):
        return result
    try:
        return json.dumps(result, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(result)
