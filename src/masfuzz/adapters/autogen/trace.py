"""AgentChat's `run_stream` output as masfuzz trace events.

Speaker changes become `delegation` events with the team's trigger (round robin: `sequence`,
selector: `selector`, graph: `graph_edge`; a Swarm's `HandoffMessage` is a `handoff`), then an
`agent_turn`. The stop reason names the termination condition that fired; it is mapped to the
trace's vocabulary (`MaxMessageTermination` -> `message_limit`, ...).

A `SocietyOfMindAgent`'s inner team, and a team that is a member, stream their agents' messages
and tool calls through the outer team: they are recorded as those agents' own, inside a nested
chat of the member's (`ChatStart(kind="nested")` ... `ChatEnd`, as AG2's nested chats are),
opened by the member's `delegate` to the first inner speaker and closed when the society of mind
answers from the transcript, or when the outer team hands on from the member team.

The team or agent an agent's tool runs (`TeamTool`, `AgentTool`) streams through the same way,
inside the tool call: its agents' messages and tool calls are their own too, in a nested chat
the caller's `as_tool` delegation to the first inner speaker opens (as an Agents SDK
`Agent.as_tool` run is recorded: `masfuzz.adapters.openai_agents.recording`) and the caller's
tool result closes, which hands nothing back (the caller's turn resumes). The task the caller
gives the tool is the call's argument, which the inner run streams as a message from "user":
it is not the user speaking.

Each inner event is placed by the call it is of (`masfuzz.adapters.autogen.calls`), not by when it
came: when the caller's model asks for two such tools at once, the first call to stream has its
nested chat recorded as it goes, and each other call's events are kept and recorded as a nested
chat of their own when the calls return, before their results (in the order of the calls), so
each inner run stays in one chat under its own delegation; the chat's end says why the tool's
team stopped (its limit, its stop word). The events of a workbench that does not stream are
recorded the same way when their call returns. A call that fails (the team or agent raised: its
agent's model failed, the team was already running) is a delegation too, with its failure
inside the chat (an `ErrorEvent`: `model_error` and the agent when the model under test failed,
the exception's type otherwise) and in the chat's end, before the caller's error result; a tool
masfuzz replaced with a fault or a probe ran no one.
"""

from __future__ import annotations

import re
from typing import Any

from autogen_agentchat.messages import (
    BaseChatMessage,
    HandoffMessage,
    SelectSpeakerEvent,
    ToolCallExecutionEvent,
    ToolCallRequestEvent,
    ToolCallSummaryMessage,
)

from masfuzz.adapters.autogen.calls import CallOrigins
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import (
    ChatEnd,
    ChatStart,
    DelegationEvent,
    ErrorEvent,
    Message,
    RestrictedAttempt,
    TerminationReason,
    ToolCall,
    ToolResult,
    TraceRecorder,
)

TRIGGER = {"fixed_order": "sequence", "selector": "selector", "graph": "graph_edge", "handoff": "handoff"}

# Stop messages of AgentChat's termination conditions (autogen_agentchat.conditions), most
# specific first: when several fire on one message their texts are joined.
_STOP_REASONS: tuple[tuple[str, TerminationReason], ...] = (
    ("Text '", "text_mention"),
    ("Handoff to ", "handoff_to_user"),
    ("Maximum number of messages", "message_limit"),
    ("Maximum number of turns", "max_turns"),
    ("External termination", "interrupted"),
    ("Token usage limit", "other"),
    ("Timeout of", "other"),  # the system's own TimeoutTermination, not the harness's timeout
)


def termination_reason(stop_reason: str | None) -> TerminationReason:
    for prefix, reason in _STOP_REASONS:
        if stop_reason and prefix in stop_reason:
            return reason
    return "completed"  # a stop message, a function or source rule, a finished graph, an idle team


class StreamRecorder:
    """Feeds one run's stream into a `TraceRecorder`."""

    def __init__(self, recorder: TraceRecorder, spec: WorkflowSpec, *, tool_faults: dict[str, str],
                 handoff_tools: dict[str, dict[str, str]], probes: dict[str, set[str]],
                 restricted_mode: str, aliases: dict[str, str] | None = None,
                 nested: dict[str, tuple[str, str, str | None]] | None = None,
                 tool_runs: dict[tuple[str, str], str] | None = None, origins: CallOrigins | None = None,
                 model_errors: list[tuple[str | None, BaseException]] | None = None) -> None:
        self.rec = recorder
        # (agent, tool) -> the agent that speaks first in the team or agent that tool runs
        self.tool_runs = tool_runs or {}
        self.origins = origins  # a `CallOrigins`: the call each inner event is of
        self.model_errors = model_errors if model_errors is not None else []  # the bridges' (agent, error)
        self.absorbed: list[BaseException] = []  # those a tool's failed run took in: no crash of the run's
        self.call_info: dict[str, tuple[str, str]] = {}  # call id -> (agent, tool)
        self.parent: dict[str, str] = {}  # a call made inside a tool's run -> the call of that run
        self.live: list[str] = []  # the calls whose runs are being recorded as they come, outermost first
        self.waiting: dict[str, list[tuple[Any, str | None]]] = {}  # call -> its run's events, for later
        self.chat_call: dict[str, str] = {}  # nested chat -> the call whose run it is
        self.spoke: dict[str, set[str]] = {}  # nested chat -> the agents that took a turn in it
        # an inner team's agent -> (the member whose inner team it is, that team's trigger, the
        # member's tool that runs it: None for a society of mind's team or a member team)
        self.nested = nested or {}
        # the nested chats open: (wrapper, chat id, the wrapper's tool running it or None)
        self.chats: list[tuple[str, str, str | None]] = []
        self._chat_ids = 0
        # the names wrapped agents speak under -> the member the team knows (a MessageFilterAgent
        # "writer" wrapping "writer_core": the stream's events come from the wrapped one)
        self.aliases = aliases or {}
        self.spec = spec
        self.trigger = TRIGGER.get(spec.system.pattern, "delegate")
        self.pattern = spec.system.pattern
        self.agents = {a.id for a in spec.agents}
        self.workflow_tools = {t.id for t in spec.tools}
        self.owned = {}
        for agent, tool in spec.permissions.allow:
            self.owned.setdefault(agent, set()).add(tool)
        self.tool_faults = tool_faults  # tool -> injected fault mode
        self.handoff_tools = handoff_tools  # agent -> {tool name: target}
        self.probes = probes  # agent -> restricted tools exposed to it as recording stubs
        self.restricted_mode = restricted_mode
        self.edges = {d.edge for d in spec.delegations}
        self.speaker: str | None = None
        self.spoken: list[str] = []
        self.selected = False  # the team announces speakers (SelectSpeakerEvent)
        self.blocked_calls: set[str] = set()
        self.final_output: str | None = None
        self.agent_messages = 0
        self.calls_open: set[str] = set()  # the tool calls asked for and not yet answered
        self._chain_now: list[str] = []  # the calls the event being recorded is inside (`_chain`)

    def feed(self, item: Any) -> None:
        call = self.origins.of(item) if self.origins is not None else None
        if call is not None and isinstance(item, ToolCallRequestEvent):
            for c in item.content:  # calls made inside a tool's run: theirs is a run inside it
                self.parent.setdefault(c.id, call)
        self._route(item, call)

    def flush(self) -> None:
        """A run cut short (time limit, crash): the events kept for calls that never returned
        are recorded as they are."""
        while self.waiting:
            call = next(iter(self.waiting))
            self.live = self._chain(call)[:-1]
            for item, of in self.waiting.pop(call):
                self._route(item, of)

    def _chain(self, call: str | None) -> list[str]:
        """The calls `call`'s run is inside, outermost first, ending with `call`."""
        chain: list[str] = []
        while call is not None and call not in chain:
            chain.insert(0, call)
            call = self.parent.get(call)
        return chain

    def _route(self, item: Any, call: str | None) -> None:
        """Record `item` now, unless it is of a call beside the one being recorded at its level
        (the caller's model asked for both at once): that call's run waits for its result."""
        chain = self._chain(call)
        for level, c in enumerate(chain[:len(self.live)]):
            if self.live[level] != c:
                self.waiting.setdefault(c, []).append((item, call))
                return
        self.live += chain[len(self.live):]
        self._record(item, chain)

    def _record(self, item: Any, chain: list[str]) -> None:
        self._chain_now = chain
        if isinstance(item, SelectSpeakerEvent):
            self.selected = True
            for name in item.content:
                self._hand_over(name, self.trigger)
            return
        source = getattr(item, "source", None)
        source = self.aliases.get(source, source)
        if isinstance(item, BaseChatMessage) and source == "user":
            # while a call is open, it is the task an agent gave the team or agent its tool runs
            # (`TeamTool`, `AgentTool` stream their run), already the call's argument: not the user's
            if not self.calls_open and not chain:
                self.rec.add(Message(agent=None, role="user", content=item.to_text()))
            return
        if source not in self.agents:
            return  # the group chat manager's own events
        if isinstance(item, ToolCallExecutionEvent):
            self._settle(source, item.content)
            self._chain_now = chain
        self._speaks(source)
        if isinstance(item, ToolCallRequestEvent):
            for c in item.content:
                self.calls_open.add(c.id)
                self.call_info[c.id] = (source, c.name)
                self._tool_call(source, c.name, c.arguments, c.id)
        elif isinstance(item, ToolCallExecutionEvent):
            for r in item.content:
                self.calls_open.discard(r.call_id)
                self._tool_result(source, r.name, r.call_id, r.content, r.is_error)
        elif isinstance(item, HandoffMessage):
            # "Transferred to billing, adopting the role of billing immediately.": AgentChat
            # writes it (or the app's `Handoff(message=...)`) for the agent, not its model
            self.rec.add(Message(agent=source, content=item.content, source="framework"))
            self._hand_over(item.target, "handoff", announced=True)
        elif isinstance(item, BaseChatMessage):
            text = item.to_text()
            self.rec.add(Message(agent=source, content=text))
            self.agent_messages += 1
            if not isinstance(item, ToolCallSummaryMessage):
                self.final_output = text

    # --- the runs of tools that run a team or an agent -------------------------------------

    def _settle(self, agent: str, results: list[Any]) -> None:
        """`agent`'s calls of tools that run a team or an agent returned: the run recorded as it
        came ends first, then each other call's run is recorded from what was kept of it, in
        the order of the calls; a failed call ends its chat with its failure, or, if no one in
        it spoke, is a delegation and its failure alone."""
        # a call the tool never ran for (a fault or a probe in its place, a mutant that took it
        # away) asked no one
        runs = [r for r in results if (agent, r.name) in self.tool_runs
                and (self.origins is None or r.call_id in self.origins.ran)]
        if not runs:
            return
        for r in sorted(runs, key=lambda r: r.call_id not in self.live):  # the live one first
            kept = self.waiting.pop(r.call_id, [])
            kept += [(e, self.origins.of(e) or r.call_id) for e in
                     (self.origins.kept.pop(r.call_id, []) if self.origins is not None else [])]
            if r.call_id not in self.live:
                self.speaker = agent
            for item, of in kept:
                self._route(item, of)
            opened = [i for i, (_, chat, _) in enumerate(self.chats) if self.chat_call.get(chat) == r.call_id]
            error = self._failure(r, self.speaker if opened else None) if r.is_error else None
            if opened:
                if error is not None:
                    self.rec.add(error)
                stopped = self.origins.stopped.get(r.call_id) if self.origins is not None else None
                self._close_after(opened[0], f"{agent}'s tool {r.name} failed: {error.message}" if error
                                  else f"{agent}'s tool {r.name} returned: {stopped}" if stopped else None)
            elif error is not None:
                self._failed_run(agent, r.name, r.call_id, error)
            if r.call_id in self.live:
                del self.live[self.live.index(r.call_id):]
            self.speaker = None
        self._now(agent)  # the turn is the caller's again, with the results

    def _failure(self, result: Any, last: str | None) -> ErrorEvent:
        """Why a tool's run failed: the model under test, when an agent's model call failed
        with the error the result carries; the exception the result names otherwise, of `last`,
        the run's last speaker (None: no one in it spoke)."""
        said = result.content or ""
        for who, exc in reversed(self.model_errors):
            text = str(exc).strip().splitlines()
            if text and text[0][:200] in said:
                self.absorbed.append(exc)
                return ErrorEvent(agent=self.aliases.get(who, who), kind="model_error", message=text[0])
        kind = re.match(r"([A-Za-z_][\w.]*(?:Error|Exception|Interrupt)): ", said)
        line = next((s for s in said.strip().splitlines() if s.strip()), "")
        return ErrorEvent(agent=last, kind=kind.group(1) if kind else "error", message=line)

    def _failed_run(self, agent: str, tool: str, call_id: str, error: ErrorEvent) -> None:
        """A call whose team or agent failed before anyone in it spoke: the delegation to who
        would have spoken first, in a chat of its own that its failure ends."""
        first = self.tool_runs[(agent, tool)]
        self._chat_ids += 1
        chat = f"{agent}-{tool}-{self._chat_ids}"
        self.rec.add(ChatStart(chat=chat, parent=self.chats[-1][1] if self.chats else None,
                               kind="nested", sender=agent, recipient=first))
        self._delegate(agent, first, "as_tool")
        self.rec.add(error)
        self.rec.add(ChatEnd(chat=chat, reason=f"{agent}'s tool {tool} failed: {error.message}"))

    # --- speakers ----------------------------------------------------------------------

    def _hand_over(self, to: str, trigger: str, announced: bool = False) -> None:
        if self.chats and to not in self.nested:
            self._back_out()
        if self.speaker is not None and (announced or self.pattern != "handoff"):
            self.rec.add(DelegationEvent(**{"from": self.speaker, "to": to, "trigger": trigger}))
        if to in self.agents:
            self.rec.turn(to)
            self.speaker = to
            self.spoken.append(to)

    def _speaks(self, source: str) -> None:
        """A message from an agent the team did not announce (GraphFlow, or team events off)."""
        if source == self.speaker:
            return
        if source in self.nested or any(c[0] == source for c in self.chats):
            self._nested_speaks(source)
            return
        if self.chats:
            self._back_out()
        if not self.selected and self.speaker is not None and self.pattern != "handoff":
            frm = self.speaker
            if self.pattern == "graph":  # the latest speaker with an edge into `source`
                frm = next((s for s in reversed(self.spoken) if (s, source) in self.edges), frm)
            self.rec.add(DelegationEvent(**{"from": frm, "to": source, "trigger": self.trigger}))
        self.rec.turn(source)
        self.speaker = source
        self.spoken.append(source)

    def _nested_speaks(self, source: str) -> None:
        """`source` speaks inside an inner team, or is the wrapper answering after it: the
        wrapper's nested chat opens with its delegation to the first inner speaker, an inner
        agent follows another by its team's trigger, and the wrapper's answer closes the chat
        (and any still open inside it), the last inner speaker handing the turn back (a tool's
        run hands nothing back: its caller's turn resumes with the tool's result)."""
        open_for = [c[0] for c in self.chats]
        if source in open_for:  # the wrapper answers from its inner team's transcript
            closed = self.chats[open_for.index(source)]
            self._close_after(open_for.index(source))
            if closed[2] is None:
                self._delegate(self.speaker, source, "sequence")
            self._now(source)
            return
        wrapper, trigger, _ = self.nested.get(source, (None, "", None))
        if wrapper in open_for:  # the next speaker of an inner team under way
            self._close_after(open_for.index(wrapper) + 1)
            self._delegate(self.speaker, source, trigger)
            self._now(source)
            return
        # the first to speak may be deep inside what its wrapper runs (an `AgentTool`'s society
        # of mind, whose inner team speaks first): every chat down to it opens, outermost first,
        # up to a wrapper that has a chat open or already speaks in one (an agent a tool's team
        # runs, calling a tool of its own: its chat is the one it spoke in)
        chain = [source]
        while (self.nested[chain[-1]][0] not in open_for and self._speaks_in(self.nested[chain[-1]][0]) is None
               and self.nested[chain[-1]][0] in self.nested):
            chain.append(self.nested[chain[-1]][0])
        top = self.nested[chain[-1]][0]
        if top in open_for:
            self._close_after(open_for.index(top) + 1)
        elif (at := self._speaks_in(top)) is not None:
            self._close_after(at + 1)
        for inner in reversed(chain):
            wrapper, _, via = self.nested[inner]
            self._chat_ids += 1
            chat = f"{wrapper}-{'inner' if via is None else via}-{self._chat_ids}"
            self.rec.add(ChatStart(chat=chat, parent=self.chats[-1][1] if self.chats else None,
                                   kind="nested", sender=wrapper, recipient=inner))
            self.chats.append((wrapper, chat, via))
            of = next((c for c in self._chain_now if self.call_info.get(c) == (wrapper, via)), None)
            if of is not None:
                self.chat_call[chat] = of
            self._delegate(wrapper, inner, "delegate" if via is None else "as_tool")
            self._now(inner)

    def _speaks_in(self, agent: str) -> int | None:
        """The place of the innermost open chat `agent` took a turn in (None: none)."""
        return next((i for i in range(len(self.chats) - 1, -1, -1) if agent in self.spoke.get(self.chats[i][1], ())),
                    None)

    def _delegate(self, frm: str | None, to: str, trigger: str) -> None:
        if frm is not None and frm != to:
            self.rec.add(DelegationEvent(**{"from": frm, "to": to, "trigger": trigger}))

    def _now(self, agent: str) -> None:
        if self.chats:
            self.spoke.setdefault(self.chats[-1][1], set()).add(agent)
        self.rec.turn(agent)
        self.speaker = agent
        self.spoken.append(agent)

    def _back_out(self) -> None:
        """The outer team goes on from a member team: its nested chats end, and the turn it
        passes on is the member's."""
        self.speaker = self.chats[0][0]
        self._close_after(0)

    def _close_after(self, keep: int, why: str | None = None) -> None:
        """End the nested chats open beyond the first `keep`, innermost first; `why`: how the
        outermost of them ended, if not as usual (its tool failed)."""
        while len(self.chats) > keep:
            wrapper, chat, via = self.chats.pop()
            ended = f"{wrapper}'s inner team ended" if via is None else f"{wrapper}'s tool {via} returned"
            self.rec.add(ChatEnd(chat=chat, reason=why if why and len(self.chats) == keep else ended))

    # --- tools ---------------------------------------------------------------------------

    def _tool_call(self, agent: str, tool: str, raw_args: str, call_id: str) -> None:
        if tool in self.handoff_tools.get(agent, {}):
            return  # a Swarm handoff: its HandoffMessage records the delegation
        args = _arguments(raw_args)
        restricted = tool in self.probes.get(agent, set()) or (
            tool in self.workflow_tools and tool not in self.owned.get(agent, set())
        )
        if restricted:
            mode = "probe" if tool in self.probes.get(agent, set()) else "faithful"
            self.rec.add(RestrictedAttempt(agent=agent, tool=tool, arguments=args, call_id=call_id, mode=mode))
            self.blocked_calls.add(call_id)
            return
        self.rec.add(ToolCall(agent=agent, tool=tool, arguments=args, call_id=call_id))

    def _tool_result(self, agent: str, tool: str, call_id: str, payload: str, is_error: bool) -> None:
        if tool in self.handoff_tools.get(agent, {}):
            return
        status = "blocked" if call_id in self.blocked_calls else ("error" if is_error else "ok")
        fault = self.tool_faults.get(tool) if status != "blocked" else None
        self.rec.add(ToolResult(agent=agent, tool=tool, call_id=call_id, status=status, payload=payload, fault=fault))


def _arguments(raw: str) -> dict[str, Any]:
    from masfuzz.adapters.autogen.bridge import parse_arguments as parse

    return parse(raw)
