"""LangGraph's `stream_mode="updates"` output as masfuzz trace events.

Each update names the node that ran. An agent node's update gives its turn (with a `graph_edge`
delegation from the previous agent node), its messages and its tool calls; a tool node's update
gives the results (`ToolMessage.status == "error"` -> an error result) of the calls an agent made.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import DelegationEvent, Message, RestrictedAttempt, ToolCall, ToolResult, TraceRecorder


class UpdateRecorder:
    def __init__(self, recorder: TraceRecorder, spec: WorkflowSpec, *, tool_node_ids: set[str],
                 tool_faults: dict[str, str], probes: dict[str, set[str]]) -> None:
        self.rec = recorder
        self.agents = {a.id for a in spec.agents}
        self.tool_node_ids = tool_node_ids
        self.workflow_tools = {t.id for t in spec.tools}
        self.owned: dict[str, set[str]] = {}
        for agent, tool in spec.permissions.allow:
            self.owned.setdefault(agent, set()).add(tool)
        self.tool_faults = tool_faults
        self.probes = probes
        self.speaker: str | None = None
        self.pending: dict[str, tuple[str, str]] = {}  # call id -> (agent, tool), until its result
        self.blocked: set[str] = set()
        self.final_output: str | None = None

    def feed(self, chunk: dict[str, Any]) -> None:
        for node, update in chunk.items():
            for part in update if isinstance(update, list) else [update]:
                self._update(node, part)

    def _update(self, node: str, update: Any) -> None:
        messages = _messages(update)
        if node in self.tool_node_ids:
            for m in messages:
                if isinstance(m, ToolMessage):
                    self._tool_result(m)
            return
        if node not in self.agents:
            return  # __start__, interrupts
        if self.speaker is not None and self.speaker != node:
            self.rec.add(DelegationEvent(**{"from": self.speaker, "to": node, "trigger": "graph_edge"}))
        self.rec.turn(node)
        self.speaker = node
        for m in messages:
            self._message(node, m)
        if not messages and isinstance(update, dict) and update:
            self.rec.add(Message(agent=node, content=json.dumps(update, default=str, sort_keys=True)))

    def _message(self, node: str, m: BaseMessage) -> None:
        text = m.content if isinstance(m.content, str) else m.text()
        if isinstance(m, AIMessage):
            if text:
                self.rec.add(Message(agent=node, content=text))
                self.final_output = text
            for c in m.tool_calls:
                self._tool_call(node, c["name"], c.get("args") or {}, c.get("id") or "")
        elif isinstance(m, HumanMessage):
            self.rec.add(Message(agent=node, role="user", content=text))
        elif isinstance(m, ToolMessage):  # a node that runs tools itself
            self._tool_result(m)

    def _tool_call(self, agent: str, tool: str, args: dict[str, Any], call_id: str) -> None:
        self.pending[call_id] = (agent, tool)
        probe = tool in self.probes.get(agent, set())
        if probe or (tool in self.workflow_tools and tool not in self.owned.get(agent, set())):
            self.rec.add(RestrictedAttempt(agent=agent, tool=tool, arguments=args, call_id=call_id,
                                           mode="probe" if probe else "faithful"))
            self.blocked.add(call_id)
            return
        self.rec.add(ToolCall(agent=agent, tool=tool, arguments=args, call_id=call_id))

    def _tool_result(self, m: ToolMessage) -> None:
        agent, tool = self.pending.pop(m.tool_call_id, (self.speaker or "", m.name or ""))
        text = m.content if isinstance(m.content, str) else m.text()
        status = "blocked" if m.tool_call_id in self.blocked else ("error" if m.status == "error" else "ok")
        self.rec.add(ToolResult(agent=agent, tool=tool, call_id=m.tool_call_id, status=status, payload=text,
                                fault=self.tool_faults.get(tool) if status != "blocked" else None))

    def fail_pending(self, message: str) -> None:
        """A tool that raised out of the graph: its call ends in an error result."""
        for call_id, (agent, tool) in list(self.pending.items()):
            if call_id not in self.blocked:
                self.rec.add(ToolResult(agent=agent, tool=tool, call_id=call_id, status="error", payload=message,
                                        fault=self.tool_faults.get(tool)))
        self.pending.clear()


def _messages(update: Any) -> list[BaseMessage]:
    if not isinstance(update, dict):
        return []
    value = update.get("messages")
    if isinstance(value, BaseMessage):
        return [value]
    return [m for m in value or [] if isinstance(m, BaseMessage)]
