"""A black-box run's `Trace`, rebuilt from the model calls that crossed the endpoint: which agent
asked, the tool calls it asked for, the results that came back, speaker order, and how the run
ended (the framework's printed stop reason, the exit status, or the timeout)."""

from __future__ import annotations

import json
import re
import signal
from typing import Any

from masfuzz.redact import redact
from masfuzz.scenario import Scenario
from masfuzz.serve.server import CallRecord
from masfuzz.trace import (
    ANSWERS_EXHAUSTED, HARNESS_CAUSE, OFFERED_TOOLS, AgentTurn, ChatEnd, ChatStart, DelegationEvent, ErrorEvent, Message,
    TerminationEvent, TerminationReason, ToolCall, ToolResult, Trace, TraceRecorder, handoff_call_target,
)

from masfuzz.adapters.blackbox.process import AppOutcome

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


# PydanticAI asks the model for a typed output through an output tool (`final_result`, or
# `final_result_<Type>` for a union, with its default description): calling it IS the agent's
# answer, not a tool of the app. An output tool renamed by the app (`ToolOutput(name=...)`) with
# a description of its own cannot be told from a tool and stays one.
_OUTPUT_TOOL = re.compile(r"^final_result(?:_\w+)?$")
_OUTPUT_TOOL_DESCRIPTION = "The final response which ends this conversation"


def _output_tool(tool: Any) -> bool:
    return bool(_OUTPUT_TOOL.match(tool.name)) or tool.description.startswith(_OUTPUT_TOOL_DESCRIPTION)


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def _apps_own_task(calls: list[CallRecord]) -> str | None:
    """The user message of the first agent call: the task of an app that carries its own (no
    scenario input). Speaker-selection and summary calls wrap the conversation in their own
    instructions, so they are passed over."""
    for c in calls:
        if c.kind == "agent":
            return next((m.content for m in c.chat_request().messages
                         if m.role == "user" and m.content), None)
    return None


def _starts_run(request: Any, agent: str, events: list[Any], open_calls: list[ToolCall]) -> bool:
    """Does this agent call start a new run of the app? Its conversation is new (no earlier
    reply or tool result in its messages), nothing waits for a tool result (an agent a tool runs
    starts a new conversation inside the run), and its agent has spoken before: the app ran its
    agents again (once per item of a batch), not a pipeline handing on to its next agent."""
    if open_calls or any(m.role in ("assistant", "tool") for m in request.messages):
        return False
    return any(isinstance(e, AgentTurn) and e.agent == agent for e in events)


def _next_run(rec: TraceRecorder, runs: int, t: float) -> int:
    """Close run `runs` and open the next as chats of a sequence, so that the oracles judge each
    run by itself (a loop is a repetition within one conversation); the first run's chat opens
    where its first agent took the floor."""
    if runs == 1:
        first = next(i for i, e in enumerate(rec.events) if isinstance(e, AgentTurn))
        rec.events.insert(first, ChatStart(t=rec.events[first].t, chat="run1", kind="sequence"))
    rec.add(ChatEnd(t=t, chat=f"run{runs}"))
    rec.add(ChatStart(t=t, chat=f"run{runs + 1}", kind="sequence"))
    return runs + 1


def trace_from_calls(calls: list[CallRecord], outcome: AppOutcome | None, scenario: Scenario,
                     *, system_id: str = "") -> Trace:
    """Rebuild the run from the model calls the endpoint recorded, in order."""
    rec = TraceRecorder(scenario_id=scenario.id, system_id=system_id, framework="blackbox")
    task = scenario.input if scenario.input is not None else _apps_own_task(calls)
    if task is not None:
        rec.add(Message(t=0.0, role="user", content=task))
    open_calls: list[ToolCall] = []
    seen_results: set[str] = set()
    pending_handoff: tuple[str, str] | None = None
    selections = 0
    selected = False  # a speaker-selection call came since the last agent call
    speaker: str | None = None
    offered: dict[str, dict[str, dict[str, Any]]] = {}  # agent -> tool -> its documentation (OFFERED_TOOLS)
    last_text: str | None = None
    summaries = 0
    runs = 1
    for c in calls:
        if c.kind == "selector":
            selections += 1
            selected = True
            continue
        if c.kind == "summary":  # a chat's closing summary: no agent takes the floor
            summaries += 1
            continue
        request = c.chat_request()
        outputs = {t.name for t in request.tools if _output_tool(t)}
        for tool in request.tools:
            if tool.name not in outputs:
                offered.setdefault(c.agent, {}).setdefault(  # as `TraceRecorder.offered` keeps it
                    tool.name, {"description": tool.description, "parameters": dict(tool.parameters)})
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
        new_run = _starts_run(request, c.agent, rec.events, open_calls)
        if new_run:
            runs = _next_run(rec, runs, c.t)
            seen_results.clear()  # a new conversation: its call ids may repeat the last one's
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
        if new_run:  # the same agent again, but a turn of a new conversation
            rec.add(AgentTurn(agent=c.agent, t=c.t))
        else:
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
            if tc.name in outputs:  # the typed answer: what the agent said, as JSON
                last_text = json.dumps(tc.arguments, ensure_ascii=False)
                rec.add(Message(t=c.t, agent=c.agent, content=last_text))
                continue
            target = handoff_call_target(tc.name)
            if target is not None:
                pending_handoff = (c.agent, target)
                continue
            call = ToolCall(t=c.t, agent=c.agent, tool=tc.name, arguments=tc.arguments,
                            call_id=tc.id)
            rec.add(call)
            open_calls.append(call)
    if runs > 1:
        rec.add(ChatEnd(t=rec.events[-1].t, chat=f"run{runs}"))
    rec.meta["runs"] = runs
    rec.meta["speaker_selections"] = selections
    rec.meta["summaries"] = summaries
    rec.meta[OFFERED_TOOLS] = offered
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
        if why.startswith("EOFError"):
            rec.meta[HARNESS_CAUSE] = ANSWERS_EXHAUSTED
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


