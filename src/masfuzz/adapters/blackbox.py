"""Black-box runs: any agent app, unmodified, as a subprocess talking to masfuzz's endpoint.

The app is started (`python app.py`, any command) with its OpenAI base URL, a dummy key and the
usual per-framework overrides (`OPENAI_BASE_URL`, `OPENAI_API_BASE`, `OAI_CONFIG_LIST`) pointing
at a `ModelServer` on loopback, scripted answers on stdin for apps that call `input()`, and a
hard timeout that kills its whole process group. The `Trace` is rebuilt from what crossed the
endpoint: which agent asked (`ModelServer`'s naming), the tool calls the model asked for, the
tool results that come back in the following requests, the speaker order, and how the run ended
(the framework's printed stop reason, the exit status, or the timeout).

The command may hold `{input}`, replaced by the scenario's input; the input is also in the
environment as `MASFUZZ_INPUT`. A leading `python`/`python3` means this interpreter, so the app
sees the packages masfuzz runs with.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import signal
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from masfuzz.adapters.base import Adapter
from masfuzz.errors import MasfuzzError, TargetError
from masfuzz.redact import redact
from masfuzz.llm.types import ChatReply, ChatRequest, ModelClient
from masfuzz.scenario import Scenario
from masfuzz.serve.server import CallRecord, ModelServer
from masfuzz.spec.model import (
    AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec,
)
from masfuzz.trace import (
    AgentTurn, DelegationEvent, ErrorEvent, Message, TerminationEvent, TerminationReason, ToolCall,
    ToolResult, Trace, TraceRecorder,
)

DUMMY_KEY = "sk-masfuzz-loopback"
DEFAULT_TIMEOUT = 120.0
OUTPUT_TAIL = 8000

# How frameworks print the reason a run stopped (AgentChat TaskResult.stop_reason, AG2's
# TerminationEvent): a black-box run can still say why it ended.
STOP_PHRASES: tuple[tuple[re.Pattern[str], TerminationReason], ...] = (
    (re.compile(r"Maximum number of messages \d+ reached"), "message_limit"),
    (re.compile(r"Maximum rounds \(\d+\) reached"), "message_limit"),
    (re.compile(r"Maximum number of turns \d+ reached|Maximum turns \(\d+\) reached|"
                r"Maximum number of consecutive auto-replies reached"), "max_turns"),
    (re.compile(r"Text '.*' mentioned|Termination message condition on"), "text_mention"),
    (re.compile(r"[Hh]andoff to user"), "handoff_to_user"),
)
_ERROR_PAYLOAD = re.compile(r"^\s*(Error\b|Exception\b)|Traceback \(most recent call last\)")


@dataclass
class BlackboxApp:
    command: str | list[str]
    cwd: str | None = None
    env: dict[str, str] = field(default_factory=dict)  # per-app overrides, win over defaults
    answers: list[str] | None = None  # stdin lines; default: the scenario's input
    # agent name -> system prompt, or (name, prompt) pairs
    agents: dict[str, str] | list[tuple[str, str]] = field(default_factory=dict)
    name: str = ""

    def argv(self, scenario_input: str) -> list[str]:
        try:
            argv = shlex.split(self.command) if isinstance(self.command, str) else list(self.command)
        except ValueError as exc:
            raise TargetError(f"--blackbox {self.command!r}: {exc}") from None
        if not argv:
            raise TargetError("--blackbox: empty command")
        if argv[0] in ("python", "python3"):
            argv[0] = sys.executable
        return [a.replace("{input}", scenario_input) for a in argv]

    @property
    def system_id(self) -> str:
        if self.name:
            return self.name
        argv = shlex.split(self.command) if isinstance(self.command, str) else self.command
        if "-m" in argv[:-1]:  # python -m pkg.app
            return argv[argv.index("-m") + 1]
        scripts = [a for a in argv if a.endswith(".py")]
        return os.path.splitext(os.path.basename(scripts[0] if scripts else argv[-1]))[0]


class _PerAgentModels:
    """The scenario's model for each agent (`Scenario.model_for`), behind one client."""

    def __init__(self, scenario: Scenario) -> None:
        if not scenario.sut_model and not scenario.agent_models:
            raise MasfuzzError("a black-box run needs --sut-model: the model that answers the app")
        self.scenario = scenario
        self.model_string = scenario.sut_model or next(iter(scenario.agent_models.values()))

    async def complete(self, request: ChatRequest, *, timeout: float | None = None) -> ChatReply:
        model = self.scenario.model_for(request.agent or "") or self.model_string
        from masfuzz.llm.settings import sut_client

        return await sut_client(model).complete(request, timeout=timeout)


def app_environment(url: str, scenario_input: str, overrides: dict[str, str]) -> dict[str, str]:
    env = dict(os.environ)
    for name in list(env):  # the app must reach nothing but the endpoint
        if re.search(r"(KEY|TOKEN|SECRET)$", name, re.IGNORECASE):
            del env[name]
    config_list = [{"model": "masfuzz-sut", "api_key": DUMMY_KEY, "base_url": url}]
    env.update({
        "OPENAI_BASE_URL": url, "OPENAI_API_BASE": url, "OPENAI_API_KEY": DUMMY_KEY,
        "OAI_CONFIG_LIST": json.dumps(config_list), "MASFUZZ_INPUT": scenario_input,
        "PYTHONUNBUFFERED": "1", "NO_PROXY": "127.0.0.1,localhost,::1",
        "no_proxy": "127.0.0.1,localhost,::1",
    })
    env.update(overrides)
    return env


@dataclass
class AppOutcome:
    status: int | None  # exit status; None when killed at the timeout
    timed_out: bool
    stdout: str
    stderr: str
    wall_time: float


async def _drain(stream: asyncio.StreamReader | None, keep: list[str]) -> None:
    text = ""
    while stream is not None and (chunk := await stream.read(65536)):
        text = (text + chunk.decode("utf-8", "replace"))[-OUTPUT_TAIL:]
        keep[:] = [text]


async def run_app(app: BlackboxApp, url: str, scenario: Scenario, timeout: float) -> AppOutcome:
    argv = app.argv(scenario.input)
    answers = app.answers if app.answers is not None else [scenario.input]
    t0 = time.perf_counter()
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv, cwd=app.cwd, env=app_environment(url, scenario.input, app.env),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, start_new_session=True)
    except OSError as exc:
        raise TargetError(f"--blackbox {argv[0]!r}: cannot start: {exc.strerror}") from None
    out: list[str] = []
    err: list[str] = []
    readers = [asyncio.ensure_future(_drain(proc.stdout, out)),
               asyncio.ensure_future(_drain(proc.stderr, err))]
    assert proc.stdin is not None
    try:
        proc.stdin.write("".join(a + "\n" for a in answers).encode())
        await proc.stdin.drain()
        proc.stdin.close()  # after the scripted answers, input() sees end of file
    except (BrokenPipeError, ConnectionResetError):
        pass
    timed_out = False
    try:
        status: int | None = await asyncio.wait_for(proc.wait(), timeout)
    except TimeoutError:
        timed_out, status = True, None
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # also whatever the app started
    except (ProcessLookupError, PermissionError):
        pass
    await proc.wait()
    await asyncio.wait(readers, timeout=2)
    for r in readers:
        r.cancel()
    return AppOutcome(status, timed_out, "".join(out), "".join(err),
                      round(time.perf_counter() - t0, 6))


def _handoff_target(tool: str) -> str | None:
    return tool[len("transfer_to_"):] if tool.startswith("transfer_to_") else None


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def trace_from_calls(calls: list[CallRecord], outcome: AppOutcome | None, scenario: Scenario,
                     *, system_id: str = "") -> Trace:
    """Rebuild the run from the model calls the endpoint recorded, in order."""
    rec = TraceRecorder(scenario_id=scenario.id, system_id=system_id, framework="blackbox")
    rec.add(Message(t=0.0, role="user", content=scenario.input))
    open_calls: list[ToolCall] = []
    seen_results: set[str] = set()
    pending_handoff: tuple[str, str] | None = None
    selections = 0
    selected = False  # a speaker-selection call came since the last agent call
    speaker: str | None = None
    offered: dict[str, dict[str, dict[str, Any]]] = {}  # agent -> tool -> JSON schema
    last_text: str | None = None
    summaries = 0
    for c in calls:
        if c.kind == "selector":
            selections += 1
            selected = True
            continue
        if c.kind == "summary":  # a chat's closing summary: no agent takes the floor
            summaries += 1
            continue
        request = c.chat_request()
        for tool in request.tools:
            offered.setdefault(c.agent, {})[tool.name] = tool.parameters
        for i, m in enumerate(request.messages):  # results of earlier calls come back here
            if m.role != "tool":
                continue
            key = m.tool_call_id or f"{m.name}@{i}"
            if key in seen_results:
                continue
            match = next((oc for oc in open_calls if oc.call_id and oc.call_id == m.tool_call_id), None)
            match = match or next((oc for oc in open_calls if oc.tool == m.name), None)
            if match is None:
                continue
            seen_results.add(key)
            open_calls.remove(match)
            status = "error" if _ERROR_PAYLOAD.search(m.content or "") else "ok"
            rec.add(ToolResult(t=c.t, agent=match.agent, tool=match.tool, call_id=match.call_id,
                               status=status, payload=m.content or ""))
        if pending_handoff is not None:
            frm, target = pending_handoff
            to = c.agent if _norm(c.agent) == _norm(target) else target
            rec.add(DelegationEvent(t=c.t, **{"from": frm, "to": to}, trigger="handoff"))
            pending_handoff = None
        elif speaker is not None and speaker != c.agent:
            # The floor passed to another agent: chosen by a manager's model if a selection
            # call came in between, else by the app's own order. (A selected repeat of the same
            # agent cannot be told from that agent's own continuation, so it is not an edge.)
            rec.add(DelegationEvent(t=c.t, **{"from": speaker, "to": c.agent},
                                    trigger="selector" if selected else "sequence"))
        selected, speaker = False, c.agent
        rec.turn(c.agent)
        if isinstance(rec.events[-1], AgentTurn):  # a new turn: it began with this call
            rec.events[-1] = rec.events[-1].model_copy(update={"t": c.t})
        rec.usage.model_calls += 1
        reply = c.chat_reply()
        if reply is None:
            rec.add(ErrorEvent(t=c.t, agent=c.agent, kind="model_error", message=c.error or ""))
            continue
        rec.usage.tokens_in += reply.usage.tokens_in
        rec.usage.tokens_out += reply.usage.tokens_out
        if reply.text:
            rec.add(Message(t=c.t, agent=c.agent, content=reply.text))
            last_text = reply.text
        for tc in reply.tool_calls:
            target = _handoff_target(tc.name)
            if target is not None:
                pending_handoff = (c.agent, target)
                continue
            call = ToolCall(t=c.t, agent=c.agent, tool=tc.name, arguments=tc.arguments,
                            call_id=tc.id)
            rec.add(call)
            open_calls.append(call)
    rec.meta["speaker_selections"] = selections
    rec.meta["summaries"] = summaries
    rec.meta["offered_tools"] = offered
    if outcome is None:
        return rec.finish("completed", final_output=last_text)
    rec.meta.update({"exit_status": outcome.status,
                     "stdout_tail": redact(outcome.stdout[-2000:]),
                     "stderr_tail": redact(outcome.stderr[-2000:])})
    wall = outcome.wall_time
    if outcome.timed_out:
        rec.add(ErrorEvent(t=wall, kind="timeout", message="the app did not exit in time; killed"))
        end: tuple[TerminationReason, str] = ("timeout", "killed at the timeout")
    elif outcome.status:
        lines = [ln for ln in outcome.stderr.splitlines() if ln.strip()]
        why = redact(lines[-1].strip()[:300]) if lines else ""
        what = f"exit status {outcome.status}" if outcome.status > 0 else \
            f"killed by {signal.Signals(-outcome.status).name}"
        rec.add(ErrorEvent(t=wall, kind="crash", message=f"{what}: {why}" if why else what))
        end = ("crash", what)
    else:
        reason: TerminationReason = "completed"
        detail = ""
        text = outcome.stdout + "\n" + outcome.stderr
        for pattern, r in STOP_PHRASES:
            m = pattern.search(text)
            if m:
                reason, detail = r, m.group(0)
                break
        end = (reason, detail)
    rec.add(TerminationEvent(t=wall, reason=end[0], detail=end[1], final_output=last_text))
    trace = rec.finish()
    return trace.model_copy(update={"usage": trace.usage.model_copy(update={"wall_time": wall})})


async def run_blackbox(app: BlackboxApp, scenario: Scenario, *, timeout: float | None = None,
                       client: ModelClient | None = None) -> Trace:
    """Run the app once under the scenario and rebuild its trace."""
    limit = timeout or scenario.timeout or DEFAULT_TIMEOUT
    async with ModelServer(client or _PerAgentModels(scenario), agents=app.agents) as server:
        outcome = await run_app(app, server.url, scenario, limit)
        calls = list(server.recording.calls)
    return trace_from_calls(calls, outcome, scenario, system_id=app.system_id)


def spec_from_traces(traces: list[Trace], system_id: str = "") -> WorkflowSpec:
    """The workflow as black-box runs showed it: the agents that called the model, the tools each
    was offered (allowed edges, whether called or not), the hand-overs seen (delegations).

    Honest about what it is: C1 and C4 over this spec are complete by construction for the runs
    it came from (an agent or edge is only known once seen); C2 says which offered tools were
    used; C3 is closed-world over the tools seen. Give a spec from the app's own objects or a
    manifest (`--spec`) to measure against what the app declares instead.
    """
    agents: dict[str, None] = {}
    tools: dict[str, dict[str, Any]] = {}
    allow: dict[tuple[str, str], None] = {}
    edges: dict[tuple[str, str], str] = {}
    for trace in traces:
        offered = trace.meta.get("offered_tools") or {}
        for e in trace.events:
            if isinstance(e, AgentTurn):
                agents.setdefault(e.agent)
            elif isinstance(e, ToolCall):
                tools.setdefault(e.tool, {})
                allow.setdefault((e.agent, e.tool))
            elif isinstance(e, DelegationEvent):
                edges.setdefault((e.from_, e.to), e.trigger)
        for agent, schemas in offered.items():
            agents.setdefault(agent)
            for name, schema in schemas.items():
                tools[name] = schema or tools.get(name) or {}
                allow.setdefault((agent, name))
    if not agents:
        raise MasfuzzError("no agent called the model: there is no observed workflow to cover")
    pattern = "selector" if "selector" in edges.values() else "orchestrated"
    return WorkflowSpec(
        system=SystemInfo(id=system_id or traces[0].system_id or "blackbox",
                          entry_agent=next(iter(agents)), framework="blackbox", pattern=pattern),
        agents=tuple(AgentSpec(id=a) for a in agents),
        tools=tuple(ToolSpec(id=n, parameters=p) for n, p in tools.items()),
        permissions=Permissions(allow=tuple(allow), restrict_mode="closed_world"),
        delegations=tuple(Delegation(**{"from": f, "to": t}, trigger=trig)  # type: ignore[arg-type]
                          for (f, t), trig in edges.items()),
        notes=(f"observed spec: derived from {len(traces)} black-box run(s); its agents and "
               "delegations are only those seen, so C1 and C4 are complete by construction",),
    )


class BlackboxAdapter(Adapter):
    """The adapter form, so executors and campaigns can run a `BlackboxApp` like any target."""

    framework = "blackbox"
    extra = ""

    @classmethod
    def accepts(cls, obj: Any) -> bool:
        return isinstance(obj, BlackboxApp)

    def extract(self, obj: Any, *, target: str = "") -> WorkflowSpec:
        # Nothing is known before the app runs; agents appear in traces as they speak.
        return WorkflowSpec(system=SystemInfo(id=obj.system_id, entry_agent="unknown",
                                              framework="blackbox", pattern="orchestrated"),
                            notes=("black-box: structure is observed from model calls only",))

    async def run(self, obj: Any, spec: WorkflowSpec, scenario: Scenario) -> Trace:
        return await run_blackbox(obj, scenario)


ADAPTER = BlackboxAdapter


def _spec_of(target: str) -> WorkflowSpec:
    from masfuzz.target import open_target

    return open_target(target).spec


def run_from_args(args: Any, scenario: Scenario) -> Trace:
    if not args.blackbox:
        raise MasfuzzError("exec: give a TARGET, or --blackbox COMMAND")
    agents: list[tuple[str, str]] = []
    if args.spec:
        agents = [(a.id, a.instructions) for a in _spec_of(args.spec).agents if a.instructions]
    for item in args.bb_agent:  # one name may be given several times, one prompt each
        name, sep, prompt = item.partition("=")
        if not sep or not name:
            raise MasfuzzError(f"--bb-agent {item!r}: expected NAME=PROMPT")
        agents.append((name, prompt))
    app = BlackboxApp(args.blackbox, cwd=args.cwd, answers=args.answer, agents=agents)
    return asyncio.run(run_blackbox(app, scenario))
