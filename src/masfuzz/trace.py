"""`Trace`: what one execution of the system under test did, as an ordered list of typed events.

All coverage and every oracle are computed from a `Trace` alone, so a trace recorded live by an
adapter, loaded from a file, or rebuilt from OpenTelemetry spans is judged the same way. Adapters
build traces with `TraceRecorder`, which numbers events and keeps the wall clock.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import re
import time
from collections.abc import Iterator
from typing import Annotated, Any, Literal, Union, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

TRACE_FORMAT_VERSION = 1


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
    t: float = 0.0  # seconds since the run started


class AgentTurn(_Event):
    type: Literal["agent_turn"] = "agent_turn"
    agent: str


# Who wrote text in the user's place that neither the user nor an agent wrote (`Message.source`).
MessageSource = Literal["app", "carryover", "framework"]
MESSAGE_SOURCES = get_args(MessageSource)


class Message(_Event):
    """One message of the conversation. `role` is the role its reader's model sees it in;
    `agent` is who wrote it: None for the user, or, with `source`, for text no agent wrote in
    those words. Many frameworks hand an agent text in the user's role that the user never
    wrote (a chat's carry-over, a hand-off note, another agent's words): whose words a message
    is, `users_words` and `received_text` say, for every oracle alike."""

    type: Literal["message"] = "message"
    agent: str | None = None  # who wrote it: None for the user (or, with `source`, no agent)
    role: Literal["user", "assistant", "system"] = "assistant"
    content: str = ""
    # Text that neither the user nor an agent's model wrote, by its writer: "app" (the app's
    # own code: a later chat's fixed opening, a proxy's automatic reply or the output of the
    # code it ran, a nested chat's prepared message), "carryover" (what a framework carries
    # from earlier chats into the next: AG2's `initiate_chats` summaries, their agents' words
    # passed on), "framework" (a note the framework writes, in the user's place or under the
    # agent it is for: AgentChat's "Transferred to X" hand-off message). None: the writer is
    # `agent`, or the user without one.
    source: MessageSource | None = None


class ToolCall(_Event):
    type: Literal["tool_call"] = "tool_call"
    agent: str
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    call_id: str = ""


class ToolResult(_Event):
    type: Literal["tool_result"] = "tool_result"
    agent: str
    tool: str
    call_id: str = ""
    status: Literal["ok", "error", "blocked"] = "ok"
    payload: str = ""
    fault: str | None = None  # the injected fault mode that produced this result, if any


class DelegationEvent(_Event):
    type: Literal["delegation"] = "delegation"
    from_: str = Field(alias="from")
    to: str
    trigger: str = "handoff"


class RestrictedAttempt(_Event):
    """An explicit restricted-access observation: the only thing that witnesses C3."""

    type: Literal["restricted_attempt"] = "restricted_attempt"
    agent: str
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    call_id: str = ""
    mode: Literal["probe", "faithful"] = "probe"


class ErrorEvent(_Event):
    type: Literal["error"] = "error"
    agent: str | None = None
    kind: str = "error"  # exception type, or crash / timeout / model_error
    message: str = ""


TerminationReason = Literal[
    "completed",  # the system produced a final answer by itself
    "max_turns",  # a turn, round or recursion bound stopped it
    "message_limit",
    "text_mention",
    "handoff_to_user",
    "timeout",  # the harness killed it
    "crash",  # the system under test raised or died
    "interrupted",
    "other",
]


class ChatStart(_Event):
    """A conversation starts inside the run (AutoGen 0.2-style apps run several: a sequence of
    `initiate_chats`, nested chats an agent starts to compose its reply). Every event up to the
    matching `ChatEnd` belongs to this chat; `parent` names the chat it is nested in."""

    type: Literal["chat_start"] = "chat_start"
    chat: str
    parent: str | None = None
    kind: Literal["chat", "sequence", "nested"] = "chat"
    sender: str = ""
    recipient: str = ""
    carryover: bool = False  # the first message carries earlier chats' summaries


class ChatEnd(_Event):
    type: Literal["chat_end"] = "chat_end"
    chat: str
    reason: str = ""  # the framework's own words for why the chat stopped
    summary: str = ""


class TerminationEvent(_Event):
    type: Literal["termination"] = "termination"
    reason: TerminationReason = "completed"
    detail: str = ""
    final_output: str | None = None


Event = Annotated[
    Union[
        AgentTurn, Message, ToolCall, ToolResult, DelegationEvent, RestrictedAttempt,
        ErrorEvent, ChatStart, ChatEnd, TerminationEvent,
    ],
    Field(discriminator="type"),
]
EVENTS = TypeAdapter(list[Event])


class Usage(BaseModel):
    model_config = ConfigDict(extra="forbid")
    model_calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    wall_time: float = 0.0


class Trace(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    format_version: int = TRACE_FORMAT_VERSION
    scenario_id: str = ""
    system_id: str = ""
    framework: str = ""
    events: tuple[Event, ...] = ()
    usage: Usage = Usage()
    meta: dict[str, Any] = Field(default_factory=dict)

    def of_type(self, cls: type[_Event]) -> list[Any]:
        return [e for e in self.events if isinstance(e, cls)]

    @property
    def termination(self) -> TerminationEvent | None:
        ends = self.of_type(TerminationEvent)
        return ends[-1] if ends else None

    @property
    def speaker_order(self) -> list[str]:
        return [e.agent for e in self.events if isinstance(e, AgentTurn)]


# Where a worker process streams events as they are recorded (`set_event_sink`), so that a run
# the parent has to kill keeps what it did. One run at a time per worker: a plain global.
_EVENT_SINK: Any = None


def set_event_sink(sink: Any) -> None:
    global _EVENT_SINK
    _EVENT_SINK = sink


class RunScope:
    """One run as the in-process executor sees it: the recorders made in it are its own, and so
    is whatever its code does later, in its task or a thread it started with its context
    (`asyncio.to_thread`, a framework's `copy_context`). Closed when the run ends or is
    abandoned at its time limit, which in masfuzz's own process stops nothing: a tool blocked in
    a thread goes on, and so does a synchronous framework's loop in it. Once closed, what the
    run's code records is dropped, into its own recorders or into a later run's (reached through
    the app's shared objects, the agents whose model clients and callbacks the next run swapped
    in), and counted (`on_late`), so no later trace holds it."""

    def __init__(self, on_late: Any = None) -> None:
        self.closed = False
        self._on_late = on_late  # called once per event dropped after the close

    def close(self) -> None:
        self.closed = True

    def dropped(self) -> None:
        if self._on_late is not None:
            self._on_late()


_SCOPE: contextvars.ContextVar[RunScope | None] = contextvars.ContextVar("masfuzz_run", default=None)


def scoped_context(scope: RunScope) -> contextvars.Context:
    """A copy of the current context in which code runs as `scope`'s (a task made with it)."""
    context = contextvars.copy_context()
    context.run(_SCOPE.set, scope)
    return context


def run_ended() -> RunScope | None:
    """The closed run the calling code belongs to, if it does (None: a run still going, or none):
    an adapter whose framework runs in a thread unwinds it there (`RunEnded`)."""
    scope = _SCOPE.get()
    return scope if scope is not None and scope.closed else None


# Trace meta keys for runs that masfuzz itself ended or broke, so that no oracle blames the app:
# the agent whose model call was still running when masfuzz's time limit struck, and a cause in
# words (the app read more input than masfuzz's scripted answers give, ...).
ENDED_IN_MODEL_CALL = "ended_in_model_call"
# With it, the seconds the run's model calls took in all (the unfinished one up to the kill): a
# timeout is the model's slowness only when its calls took the time, not the app going round.
MODEL_SECONDS = "model_seconds"
# What a run killed at the time limit was doing (`masfuzz.exec.stacks`): {"where": whose code it
# was in, in words; "stacks": every thread's and asyncio task's frames, innermost last}.
STACKS_AT_KILL = "stacks_at_kill"
# The agents that stand for a human at the terminal (AgentChat's `UserProxyAgent`) for whom
# masfuzz answered with a user who says nothing: a team that waits for that human's words (an
# approval, a stop word) cannot end or move on by them, which is masfuzz's doing, not the app's.
STAND_IN_USERS = "stand_in_users"
# How many times an AG2 app asked its human for input (`UserProxyAgent`, `human_input_mode`) and
# masfuzz's stand-in answered with nothing: AG2 records no turn of that human, only this count.
HUMAN_PROMPTS = "human_prompts"
# The tool calls an Agents SDK run paused on for a human's approval (`needs_approval`) that
# masfuzz's stand-in human approved, so that the run goes on as the app's unattended mode does.
APPROVED_CALLS = "approved_calls"
HARNESS_CAUSE = "harness_cause"
# The sandbox limits a run hit (`masfuzz.exec.sandbox.limit_hits`): a list of {"limit", "event"
# (the index of the event that shows it; None: the run's end), "says" (which limit, which
# setting raises it)}. What a limit stopped is the user's setting, not the app's bug.
SANDBOX_LIMITS = "sandbox_limits"
BOUND_REASONS = ("max_turns", "message_limit")  # terminations by a turn or message bound
# Reasons under which the system concluded by itself (premature termination is judged on these).
CONCLUDED_REASONS = ("completed", "text_mention", "handoff_to_user")
# The bound that ended the run is the conversation's designed length, not a safety net: an
# AG2 two-agent chat started with `max_turns=N` exchanges N turns and ends, as the app meant.
DESIGNED_LENGTH = "designed_length"
USER_BOUND = "user_bound"
# The bound that stopped a run when it is the app's own or its framework's default, not the one
# masfuzz set from --max-turns (which replaces only the top-level run's bound): a nested run's
# limit raised through the tool that ran it (PydanticAI's request_limit of 50 for an agent a tool
# runs), a condition of the app's (an AG2 group's max_round, AgentChat's MaxMessageTermination).
# Its value says which bound; a run it stopped is the app's to judge, not the user's setting.
APP_BOUND = "app_bound"
# A trace imported from a user's own log (OTel spans, a chat transcript) keeps, per event, the
# id that log gave it (span id, message number), so that a finding's step is named as the user
# would find it: a list aligned with `Trace.events`, None where an event has no counterpart.
EVENT_SOURCES = "event_sources"
# The user's request as a log's dump keeps it beside the messages (a benchmark log's `question`),
# when no message of the log is the user's own: what the team was asked, to hold the task an
# agent relayed to it against.
USER_REQUEST = "user_request"
# The tool a code block an agent wrote and an executor ran is recorded as (imported transcripts):
# the call is the code's author's, its result the run's output.
CODE_TOOL = "code_execution"
# A fenced code block in an agent's message: the code an executor of the app may run.
CODE_BLOCK = re.compile(r"```[ \t]*(\w*)[^\n]*\n(.*?)```", re.DOTALL)
# An executor's report of a run, in its framework's words: AG2's "exitcode: 1 (execution failed)
# \nCode output: ...", AgentChat's (a Magentic-One ComputerTerminal's) "The script ran, then exited
# with an error (POSIX exit code: 1)" or "The script ran but produced no output to console. The
# POSIX exit code was: 0". `_RUN_OPENING`: a text that opens so is such a report, whoever's name
# the trace gives it.
_RUN_EXIT = re.compile(r"exit\s*code:?\s*(-?\d+)|\bexitcode:\s*(-?\d+)", re.IGNORECASE)
_SCRIPT_RAN = re.compile(r"^\s*The script ran\b", re.IGNORECASE)
_RUN_OPENING = re.compile(r"^\s*(?:exitcode:\s*-?\d+\s*\(execution\b|The script ran\b)", re.IGNORECASE)
# Tools that failed reading a run context masfuzz did not have to pass (the app's server passes
# one; `--context MODULE:FACTORY` gives it): their errors are the harness's, not the app's.
MISSING_CONTEXT = "missing_context_tools"
# What an agent's model was given on its first call of each hand-over to it (after the
# framework's hand-over filters, carry-overs, context trimming): a list of {"agent": the agent,
# "since": how many events the trace had then, "text": the non-system messages' text and the
# arguments of the calls in them}, one entry per hand-over, a second hand-over to the same agent
# later in the run its own entry. The hand-over oracle tells from it whether a fact the user
# gave reached the agent handed to. Recorded by `TraceRecorder.received`, which every adapter
# that sees its agents' model requests calls.
HANDOVER_INPUTS = "handover_inputs"
# What a trace keeps of one such input (a long history would make every trace of a
# many-hand-over run quadratic in size): the user's opening and the latest words.
HANDOVER_TEXT_CHARS = 20_000
# The messages a node of the app took out of the conversation or replaced (LangGraph's
# `RemoveMessage`, a message with the id of one already there: the caller's message rewritten or
# masked, a summary in place of the history): a list of {"event": the index of the message taken
# out, None when the trace does not hold it; "by": the node; "at": how many events the trace had
# then; "with": the index of the node's message in its place, None when there is none or the
# node is no agent; "text": that message's text}. A message a node writes in the user's place is
# the node's (`Message(agent=node, role="user")`): the user's own words have no agent.
REPLACED_MESSAGES = "replaced_messages"
# What each agent's model was told as its system message on its first call ({agent: text}), for
# apps whose instructions live in code the extractor cannot read (a LangGraph node function that
# builds its own SystemMessage). The instructed oracles read an agent's instructions from it when
# the spec has none. Recorded by adapters that see model inputs.
SYSTEM_PROMPTS = "system_prompts"
# The tools each agent's model was offered in this run, as the model saw them ({agent: {tool:
# {"description", "parameters"}}}, each tool's first offer): an agent the app builds while the
# run goes (inside a PydanticAI output function or a tool's body) has tools extraction cannot
# read, whose documentation the oracles then read here. Recorded by adapters that see model inputs.
OFFERED_TOOLS = "offered_tools"
# The agents each agent could hand the conversation over to ({agent: [agent, ...]}), as a log
# declares its team (a transcript's `agents` map, the Agents SDK's agent spans' `handoffs`): the
# routes a router had, taken or not, so a misrouted request can be told from the only route there was.
OFFERED_HANDOFFS = "offered_handoffs"
# The run's place among the runs of its system in its process (`masfuzz.exec.history`: the
# in-process executor, and AFL++'s persistent mode, `--persistent N`): 1 for a fresh fork; k > 1:
# k - 1 runs before it shared its process, and what they left in memory reached it (a report
# says so of a failure such a run showed).
PROCESS_RUN = "process_run"
# The calls of a run that an earlier run of the same system in its process (the in-process executor, a
# persistent worker's fork) made with the same arguments and got another answer to ({call_id:
# {"status", "payload", "runs_before"}}, `masfuzz.exec.history`): what the earlier runs left in
# the process (a tool's module-level data) made this answer, which a fresh process would not give.
EARLIER_ANSWERS = "earlier_answers"
# The tool calls of a run that failed on an object an earlier run of the same system in its
# process bound to its event loop ({call_id: the error's words}, `masfuzz.exec.history`): the
# in-process executor runs each command on a loop of its own, which a fresh process never does.
LOOP_BOUND_CALLS = "loop_bound_calls"
# How many events runs of the same system in this process tried to record after they had ended
# (the in-process executor abandons a run at its time limit and cannot stop its threads:
# `RunScope`), dropped since the run before this one: none of them is in this trace, but the
# abandoned run was still going beside this one, in the process and the app's objects it shares.
LATE_EVENTS = "late_events"
NOT_INJECTED_CALLS = "not_injected_calls"  # model calls of the app's own clients masfuzz refused  # the turn bound the user set (--max-turns) that a run stopped at
ANSWERS_EXHAUSTED = ("the app read more input than masfuzz's scripted answers give and saw end of "
                     "file, as after a closed terminal: the answers ran out, the app did not fail")

# Where a worker process reports what the system under test's model is doing (`model_call`):
# a run killed at masfuzz's time limit while the model was still answering ran out of time in
# the model, which the findings attribute to the harness (a limit too short for the model in
# use), not to the app.
_ACTIVITY_SINK: Any = None


def set_activity_sink(sink: Any) -> None:
    global _ACTIVITY_SINK
    _ACTIVITY_SINK = sink


@contextlib.contextmanager
def model_call(agent: str | None) -> Iterator[dict[str, int]]:
    """Around one SUT model call: reported to the activity sink as it starts and ends, the end
    with the tokens the caller put in the dict this yields (`tokens_in`, `tokens_out`), so a
    run masfuzz kills keeps the model use it had (`masfuzz.exec.pool`)."""
    sink = _ACTIVITY_SINK
    usage: dict[str, int] = {}
    if sink is not None:
        sink(agent or "", True, {})
    try:
        yield usage
    finally:
        if sink is not None:
            sink(agent or "", False, usage)


def carries_refusal(event: Any) -> bool:
    """An error, or a tool's error result, that carries the refusal `masfuzz.sutenv` gives a
    model client masfuzz did not replace ("model not injected")."""
    if isinstance(event, ErrorEvent):
        return "model not injected" in event.message
    return isinstance(event, ToolResult) and event.status == "error" and "model not injected" in str(event.payload)


# `transfer_to_<agent>`, and langgraph-supervisor's `transfer_back_to_<supervisor>` that a
# member's turn ends with: both hand the floor over
HANDOFF_TOOL = re.compile(r"^transfer_(?:back_)?to_(?P<to>\w+)$")


def handoff_call_target(tool: str) -> str | None:
    """The agent a model's call of `transfer_to_<agent>` hands the floor to (the OpenAI Agents
    SDK's and langgraph-swarm's default handoff tool, and the name masfuzz's own bridges show
    their model; langgraph-supervisor's `transfer_back_to_<supervisor>`), or None for any other tool. Such a call is a hand-over: a trace records it as
    a `DelegationEvent` alone, never as a tool call with a result, whether it was recorded live
    or read from a log, so the specification a log gives has no `transfer_to_x` tool edge."""
    found = HANDOFF_TOOL.match(tool)
    return found.group("to") if found else None


def said_by_user(event: Any) -> bool:
    """Is `event` the user's own words: a user-role message that no agent, node, app code or
    framework wrote (`Message.agent`, `Message.source`)? The one test of "what the user said"
    every oracle makes: an AG2 carry-over, a later chat's fixed opening, a proxy's automatic
    reply, a LangGraph node's `HumanMessage` reach their reader in the user's role, but the facts
    in them are not the user's (what that reader got is `received_text`'s)."""
    return isinstance(event, Message) and event.role == "user" and event.agent is None and event.source is None


def users_words(trace: "Trace", end: int | None = None) -> list[tuple[int, Message]]:
    """The user's messages among the trace's events before `end` (all: None), with their index."""
    return [(i, e) for i, e in enumerate(trace.events[:end]) if said_by_user(e)]


def user_text(trace: "Trace", end: int | None = None) -> str:
    """What the user said before event `end` (the whole run: None), its messages joined."""
    return " ".join(e.content for _, e in users_words(trace, end))


def received_text(trace: "Trace", agent: str, after: int) -> str | None:
    """What `agent`'s model was given on its first call after event `after` (the whole history
    it read, in the user's role or not: carry-overs, hand-off notes, relayed words included), as
    the adapter recorded it (`HANDOVER_INPUTS`); None when the trace does not record it. The
    other half of `said_by_user`: a fact the user gave reached an agent when it is in this."""
    for entry in trace.meta.get(HANDOVER_INPUTS) or ():
        if entry.get("agent") == agent and entry.get("since", -1) > after:
            return str(entry.get("text") or "")
    return None


def agent_at(trace: "Trace", i: int) -> str | None:
    """The agent event `i` is of: its own `agent`, else the speaker whose turn holds it (the
    last `AgentTurn` at or before it), or None."""
    agent = getattr(trace.events[i], "agent", None)
    if agent:
        return agent
    return next((e.agent for e in reversed(trace.events[:i + 1]) if isinstance(e, AgentTurn)), None)


def run_exit(text: str) -> int | None:
    """The exit status an executor's report of a code run gives (`_RUN_EXIT`; "The script ran"
    with no code is 0), None when `text` is no such report."""
    found = _RUN_EXIT.search(text)
    if found:
        return int(next(g for g in found.groups() if g is not None))
    return 0 if _SCRIPT_RAN.match(text) else None


def code_run_results(trace: "Trace") -> list[tuple[int, ToolResult]]:
    """The runs of code an agent wrote that the trace holds only as the executor's report, each
    read as the `CODE_TOOL` result of the code's author (an error when it exited non-zero), with
    its index. An executor's output is a tool result in all but role: AG2's code-running proxy
    sends it as a message in the user's role (recorded as the app's, `source="app"`), AgentChat's
    `CodeExecutorAgent` as its own message; a log's importer already records it as a result
    (`masfuzz.adapters.transcript`), which is not read twice. A report is the app's message that
    states an exit status (`run_exit`) or any non-user message that opens as the frameworks write
    one (`_RUN_OPENING`), after a message of an agent with a fenced code block (the author) that
    no report answered yet; the user pasting a run's output is no run of the team's."""
    out: list[tuple[int, ToolResult]] = []
    author: str | None = None
    for i, e in enumerate(trace.events):
        if isinstance(e, ToolResult) and e.tool == CODE_TOOL:
            author = None  # the run is recorded as a result already
        elif not isinstance(e, Message) or said_by_user(e):
            continue
        elif author is not None and (e.source == "app" or _RUN_OPENING.match(e.content)) \
                and (code := run_exit(e.content)) is not None:
            out.append((i, ToolResult(agent=author, tool=CODE_TOOL, call_id=f"code-{i}", t=e.t,
                                      status="ok" if code == 0 else "error", payload=e.content)))
            author = None
        elif e.agent and e.source is None and CODE_BLOCK.search(e.content):
            author = e.agent
    return out


def tool_results(trace: "Trace") -> list[tuple[int, ToolResult]]:
    """Every tool result of the trace with its index, in order: its `ToolResult` events and the
    code runs it holds as an executor's report (`code_run_results`)."""
    recorded = [(i, e) for i, e in enumerate(trace.events) if isinstance(e, ToolResult)]
    return sorted(recorded + code_run_results(trace), key=lambda x: x[0])


class TraceRecorder:
    """Collects events in order with timestamps; `finish` seals them into a `Trace`."""

    def __init__(self, *, scenario_id: str = "", system_id: str = "", framework: str = "") -> None:
        self.scenario_id, self.system_id, self.framework = scenario_id, system_id, framework
        self.events: list[_Event] = []
        self.usage = Usage()
        self.meta: dict[str, Any] = {}
        self._t0 = time.perf_counter()
        self._last_asking: str | None = None  # the agent of the latest model call (`received`)
        self._handed: set[str] = set()  # agents handed to since their latest model call
        self._delegations = 0  # how many delegations the trace has
        self._asked_after: dict[str, int] = {}  # agent -> the delegations before its latest call
        self._scope = _SCOPE.get()  # the run this recorder is made for (None outside the in-process executor)

    def now(self) -> float:
        return round(time.perf_counter() - self._t0, 6)

    def _late(self) -> bool:
        """Is what is being recorded a run's that has ended (`RunScope`)? The run that made this
        recorder, or the one the calling code belongs to: then it is dropped, and counted."""
        scope = run_ended() or (self._scope if self._scope is not None and self._scope.closed else None)
        if scope is None:
            return False
        scope.dropped()
        return True

    def add(self, event: _Event) -> _Event:
        """Append `event`, stamped now unless it carries its time. Stamping copies the frozen
        event, so callers on a hot path build it with `t=recorder.now()` and skip the copy.
        An event of a run that has ended is dropped (`RunScope`)."""
        if (self._scope is not None or _SCOPE.get() is not None) and self._late():
            return event
        if not event.t:
            event = event.model_copy(update={"t": self.now()})
        self.events.append(event)
        if isinstance(event, DelegationEvent):
            # a new hand-over to the agent only if another came since its latest call: one
            # recorded right after that call (a framework that records it late) led to the call
            if self._delegations > self._asked_after.get(event.to, -1):
                self._handed.add(event.to)
            self._delegations += 1
        if _EVENT_SINK is not None:
            _EVENT_SINK(event)
        return event

    def received(self, agent: str | None, messages: Any, handed: bool | None = None) -> None:
        """`agent`'s model is asked with these messages (`ChatMessage`s): on its first call of a
        hand-over to it, keep what it was given (`HANDOVER_INPUTS`), so that whether a fact
        reached it is seen, not guessed. A call begins a hand-over when it follows another
        agent's call, or when the agent was handed to since its latest call (a router, a
        carry-over or the app's code that calls no model handed over to it again): a delegation
        to it was recorded after another delegation since that call, or `handed` says so, from
        an adapter that sees the hand-over begin but records it only later (a LangGraph node's
        update comes after its model calls), whose delegations then say nothing of the call.
        The entry is placed by the events so far and the oracle matches it to the hand-over."""
        if not agent or self._late():
            return
        if handed is None:
            handed = agent in self._handed
        self._handed.discard(agent)
        self._asked_after[agent] = self._delegations
        if agent == self._last_asking and not handed:
            return
        self._last_asking = agent
        parts = [m.content for m in messages if m.role != "system" and m.content]
        parts += [json.dumps(c.arguments, default=str) for m in messages for c in (m.tool_calls or ())]
        text = "\n".join(parts)
        if len(text) > HANDOVER_TEXT_CHARS:
            half = HANDOVER_TEXT_CHARS // 2
            text = f"{text[:half]}\n…\n{text[-half:]}"
        self.meta.setdefault(HANDOVER_INPUTS, []).append({"agent": agent, "since": len(self.events), "text": text})

    def turn(self, agent: str) -> None:
        """Record that `agent` speaks, unless it is already speaking with no hand-over since."""
        for e in reversed(self.events):
            if isinstance(e, DelegationEvent):
                break
            if isinstance(e, AgentTurn):
                if e.agent == agent:
                    return
                break
        self.add(AgentTurn(agent=agent, t=self.now()))

    def replied(self, agent: str, request: Any, reply: Any) -> None:
        """`agent`'s model answered `request` (a `ChatRequest`) with `reply` (a `ChatReply`): its
        usage counted, its system prompt kept (`SYSTEM_PROMPTS`, the first seen), its text said."""
        if self._late():
            return
        self.usage.model_calls += 1
        self.usage.tokens_in += reply.usage.tokens_in
        self.usage.tokens_out += reply.usage.tokens_out
        system = "\n".join(m.content or "" for m in request.messages if m.role == "system").strip()
        if system:
            self.meta.setdefault(SYSTEM_PROMPTS, {}).setdefault(agent, system)
        self.offered(agent, request.tools)
        if reply.text:
            self.add(Message(agent=agent, role="assistant", content=reply.text, t=self.now()))

    def offered(self, agent: str | None, tools: Any) -> None:
        """`agent`'s model was offered these tools (`ToolDef`s): keep each one's documentation
        as first offered (`OFFERED_TOOLS`); a hand-over tool names an agent, no tool of the app."""
        own = [t for t in tools or () if not t.handoff_to]
        if not agent or not own:
            return
        seen = self.meta.setdefault(OFFERED_TOOLS, {}).setdefault(agent, {})
        for t in own:
            if t.name not in seen:
                seen[t.name] = {"description": t.description, "parameters": dict(t.parameters)}

    @property
    def terminated(self) -> bool:
        return any(isinstance(e, TerminationEvent) for e in self.events)

    def finish(self, reason: TerminationReason = "completed", detail: str = "",
               final_output: str | None = None) -> Trace:
        if not self.terminated:
            self.add(TerminationEvent(reason=reason, detail=detail, final_output=final_output,
                                      t=self.now()))
        self.usage.wall_time = self.now()
        # Built without validation: every event was validated when it was made, and checking
        # them all again against the event union cost each run more than the rest of `finish`.
        # The meta dict is copied, as validation did, so later changes to it stay out.
        return Trace.model_construct(
            scenario_id=self.scenario_id, system_id=self.system_id, framework=self.framework,
            events=tuple(self.events), usage=self.usage, meta=dict(self.meta),
        )


    def model_failed(self, exc: BaseException) -> Trace:
        """The model under test failed (not the system): the run ends with no finding."""
        self.add(ErrorEvent(kind="model_error", message=str(exc)))
        return self.finish("other", detail=f"the model under test failed: {exc}")

    def timed_out(self, limit: float, final_output: str | None = None) -> Trace:
        """The run reached its time limit (`limit` seconds)."""
        self.add(ErrorEvent(kind="timeout", message=f"the run did not end within {limit:g} s"))
        return self.finish("timeout", detail=f"time limit {limit:g} s", final_output=final_output)


def running_tool(events: Any) -> ToolCall | None:
    """The tool call a run ended in: the last one without a result."""
    answered = {e.call_id or (e.agent, e.tool) for e in events if isinstance(e, ToolResult)}
    calls = [e for e in events
             if isinstance(e, ToolCall) and (e.call_id or (e.agent, e.tool)) not in answered]
    return calls[-1] if calls else None


def ended_trace(scenario: Any, kind: str, message: str, wall_time: float, *,
                system_id: str = "", framework: str = "", meta: dict[str, Any] | None = None,
                events: tuple[Any, ...] = (), usage: Usage | None = None) -> Trace:
    """The trace of a run the harness had to end: the events seen before the end (if any),
    one `error` event of `kind` (timeout or crash) and a termination with the same reason;
    `usage`: the model use reported before the end (its wall time is the run's)."""
    reason = "timeout" if kind == "timeout" else "crash"
    t = round(wall_time, 6)
    kept = tuple(e for e in events if not isinstance(e, TerminationEvent))
    return Trace(
        scenario_id=scenario.id, system_id=system_id, framework=framework,
        events=(*kept, ErrorEvent(t=t, kind=kind, message=message),
                TerminationEvent(t=t, reason=reason, detail=message)),
        usage=(usage or Usage()).model_copy(update={"wall_time": t}), meta=meta or {},
    )
