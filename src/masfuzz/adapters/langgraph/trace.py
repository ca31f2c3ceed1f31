"""LangGraph's `stream_mode="updates"` output (with `subgraphs=True`) as masfuzz trace events.

Each update names the node that ran. An agent node's update gives its turn (with a `graph_edge`
delegation from the previous agent node), its messages and its tool calls; a tool node's update
gives the results (`ToolMessage.status == "error"` -> an error result) of the calls an agent made.

Inside an agent that runs a graph of its own (a prebuilt agent), the updates come with the
namespace of the outer node: each update of one of its model nodes is a turn of that agent, and
its tool nodes give its tool results. The outer node's own update then repeats what the inner
ones said (and the bookkeeping messages langgraph-supervisor adds), so it is read only when no
inner update came. A call of a handoff tool is a `handoff` delegation, not a tool call.

A message is its writer's: a `HumanMessage` an agent node puts in the state is that node's,
said in the user's place (`Message(agent=node, role="user")`); the user's own words are the
messages with no agent. A node that swaps messages (`RemoveMessage`, or a message with the id
of one already in the state: the caller's message rewritten or masked, a summary in place of the
history) is recorded in `meta.replaced_messages` (`REPLACED_MESSAGES`), whether it calls a model
or not, so that the words the graph took out and the node's that took their place are told apart.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, RemoveMessage, ToolMessage
from pydantic_core import to_jsonable_python

from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import (
    REPLACED_MESSAGES, DelegationEvent, Message, RestrictedAttempt, ToolCall, ToolResult, TraceRecorder,
)

REMOVE_ALL = "__remove_all__"  # langgraph.graph.message.REMOVE_ALL_MESSAGES: the whole history


class UpdateRecorder:
    def __init__(self, recorder: TraceRecorder, spec: WorkflowSpec, *, tool_node_ids: set[str],
                 tool_faults: dict[str, str], probes: dict[str, set[str]],
                 handoffs: dict[str, str] | None = None, offered: dict[str, set[str]] | None = None,
                 user_message: str | None = None) -> None:
        self.rec = recorder
        # message id -> the index of the event that records it; the user's input (`user_message`,
        # the id masfuzz gave it) is the trace's first event
        self.ids: dict[str, int | None] = {user_message: 0} if user_message else {}
        self.recorded: dict[int, int] = {}  # id() of a message of the update being read -> its event
        self.unnamed: list[tuple[BaseMessage, int]] = []  # recorded before the graph gave it its id
        self.agents = {a.id for a in spec.agents}
        self.tool_node_ids = tool_node_ids
        self.workflow_tools = {t.id for t in spec.tools}
        self.owned: dict[str, set[str]] = {}
        for agent, tool in spec.permissions.allow:
            self.owned.setdefault(agent, set()).add(tool)
        self.tool_faults = tool_faults
        self.probes = probes
        self.offered = offered if offered is not None else {}  # filled as the run goes (adapter._model)
        self.handoffs = handoffs or {}  # handoff tool -> the agent it hands off to
        self.handed_to: str | None = None  # the agent the last handoff named, until it speaks
        self.inner_since_outer: set[str] = set()  # agents whose subgraph spoke since their own update
        # the same one level down: the namespaces (a subgraph's node, then the graph it runs)
        # whose updates carried messages; the node's own update, its graph's final state, says
        # them again (a prebuilt agent inside a subgraph node: its calls, results and reply)
        self.spoke_below: set[tuple[str, ...]] = set()
        self.speaker: str | None = None
        self.running: str | None = None  # the top-level agent node whose task has started
        self.pending: dict[str, tuple[str, str]] = {}  # call id -> (agent, tool), until its result
        self.blocked: set[str] = set()
        self.final_output: str | None = None

    def feed(self, chunk: Any) -> None:
        """One streamed item: `{node: update}`, `(namespace, {node: update})` with subgraphs, or
        `(namespace, mode, data)` with several stream modes ("updates" and "tasks")."""
        if isinstance(chunk, tuple) and len(chunk) == 3:
            namespace, mode, updates = chunk
            if mode == "tasks":
                self._task(namespace, updates)
                return
        else:
            namespace, updates = chunk if isinstance(chunk, tuple) else ((), chunk)
        outer = str(namespace[0]).split(":", 1)[0] if namespace else None
        for node, update in updates.items():
            for part in update if isinstance(update, list) else [update]:
                if outer is None:
                    self.recorded.clear()
                    swaps = self._swapped(_messages(part))
                    self._update(node, part)
                    self._record_swaps(node, swaps)
                elif outer in self.agents:
                    if len(namespace) > 1 and _messages(part):
                        self.spoke_below.add(tuple(namespace))
                    if self._said_below(tuple(namespace), node):
                        self.inner_since_outer.add(outer)
                        continue
                    self._inner_update(outer, part)

    def _said_below(self, namespace: tuple[str, ...], node: str) -> bool:
        """Did the graph `node` runs (one namespace down, "node:task") already stream what this
        update of `node` holds? Then it is said once, where it happened."""
        below = {ns for ns in self.spoke_below if len(ns) == len(namespace) + 1 and ns[:-1] == namespace
                 and str(ns[-1]).split(":", 1)[0] == node}
        self.spoke_below -= below
        return bool(below)

    def _task(self, namespace: tuple[str, ...], task: dict[str, Any]) -> None:
        """A node starting ("input") or ending ("result"): which agent is running, so that a
        crash before its first update still names it."""
        if namespace or task.get("name") not in self.agents:
            return
        if "input" in task:
            self.running = task["name"]
        elif self.running == task["name"] and not task.get("error"):  # a failed one stays named
            self.running = None

    @property
    def active(self) -> str | None:
        """The agent running now, else the last one that spoke."""
        return self.running or self.speaker

    def _update(self, node: str, update: Any) -> None:
        messages = _messages(update)
        if node in self.tool_node_ids:
            for m in messages:
                if isinstance(m, ToolMessage):
                    self._tool_result(m)
            return
        if node not in self.agents:
            return  # __start__, interrupts
        if node in self.inner_since_outer:  # said already, by the graph the node runs
            self.inner_since_outer.discard(node)
            return
        self._turn(node)
        for m in messages:
            self._message(node, m)
        if not messages and isinstance(update, dict) and update:
            # a node's own state, as JSON: a model in it (a prebuilt agent's `structured_response`)
            # as the object of its fields, which a reader takes as what the node said
            self.rec.add(Message(agent=node, content=json.dumps(
                update, default=partial(to_jsonable_python, fallback=str), sort_keys=True)))

    def _swapped(self, messages: list[BaseMessage]) -> list[tuple[int | None, BaseMessage | None]]:
        """The ids of the messages an update takes out of the state (`RemoveMessage`) or
        replaces (a message with the id of one in it), each with the message put in its place:
        the one with its id, else the update's first `HumanMessage` (a rewrite), else none."""
        removed = [m.id for m in messages if isinstance(m, RemoveMessage) and m.id]
        if removed or any(m.id for m in messages):
            named = [(m, e) for m, e in self.unnamed if m.id]  # LangGraph's reducer names them
            self.ids.update((m.id, e) for m, e in named if m.id not in self.ids)
            self.unnamed = [(m, e) for m, e in self.unnamed if not m.id]
        put = [m for m in messages if not isinstance(m, RemoveMessage)]
        gone = sorted(self.ids, key=lambda k: self.ids[k] or 0) if REMOVE_ALL in removed else removed
        human = next((m for m in put if isinstance(m, HumanMessage) and m.id not in self.ids), None)
        out = [(mid, human) for mid in gone if mid != REMOVE_ALL]
        out += [(m.id, m) for m in put if m.id and m.id in self.ids and m.id not in gone]
        # out of the state (a replacement records its id again, at its own event)
        return [(self.ids.pop(mid, None), new) for mid, new in out]

    def _record_swaps(self, node: str, swaps: list[tuple[int | None, BaseMessage | None]]) -> None:
        """`meta.replaced_messages`: for each message `node` took out, the event that recorded
        it (None: not in the trace), the events so far, the event of the node's message in its
        place (None: none, or the node is no agent) and that message's text."""
        for event, new in swaps:
            text = "" if new is None else new.content if isinstance(new.content, str) else new.text()
            self.rec.meta.setdefault(REPLACED_MESSAGES, []).append({
                "event": event, "by": node, "at": len(self.rec.events),
                "with": None if new is None else self.recorded.get(id(new)), "text": text})

    def _inner_update(self, agent: str, update: Any) -> None:
        """An update from inside the graph an agent node runs: tool results, or a turn."""
        messages = _messages(update)
        self.inner_since_outer.add(agent)
        if not messages:
            return
        if all(isinstance(m, ToolMessage) for m in messages):
            for m in messages:
                self._tool_result(m)
            return
        self._turn(agent)
        for m in messages:
            self._message(agent, m)

    def _turn(self, node: str) -> None:
        if self.speaker is not None and self.speaker != node:
            trigger = "handoff" if self.handed_to == node else "graph_edge"
            self.rec.add(DelegationEvent(**{"from": self.speaker, "to": node, "trigger": trigger}))
        self.handed_to = None
        self.rec.turn(node)
        self.speaker = node

    def _message(self, node: str, m: BaseMessage) -> None:
        text = m.content if isinstance(m.content, str) else m.text()
        if isinstance(m, (AIMessage, HumanMessage)):
            self.recorded[id(m)] = len(self.rec.events)
            if m.id:
                self.ids[m.id] = len(self.rec.events)
            else:
                self.unnamed.append((m, len(self.rec.events)))
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
        if tool in self.handoffs and tool not in self.workflow_tools:
            self.handed_to = self.handoffs[tool]  # recorded when that agent takes its turn
            self.blocked.add(call_id)  # its "Successfully transferred" result is no tool result
            return
        self.pending[call_id] = (agent, tool)
        probe = tool in self.probes.get(agent, set())
        owned = self.owned.get(agent, set()) | self.offered.get(agent, set())
        if probe or (tool in self.workflow_tools and tool not in owned):
            self.rec.add(RestrictedAttempt(agent=agent, tool=tool, arguments=args, call_id=call_id,
                                           mode="probe" if probe else "faithful"))
            self.blocked.add(call_id)
            return
        self.rec.add(ToolCall(agent=agent, tool=tool, arguments=args, call_id=call_id))

    def _tool_result(self, m: ToolMessage) -> None:
        if m.name in self.handoffs and m.tool_call_id in self.blocked:
            return
        agent, tool = self.pending.pop(m.tool_call_id, (self.active or "", m.name or ""))
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
