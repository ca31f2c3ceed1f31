"""Whose a finding is, judged on its evidence for every detector alike.

The detectors attribute what their own rule knows (a time limit, a bound the user set). Some
causes show only in what the evidence says, whatever the detector: calls of a tool masfuzz
offered as a `--restricted probe` stub (the restricted call itself, or a loop of them), an
agent's message or final answer that repeats masfuzz's own prompt (its worked example, its
instruction), and a tool call whose arguments the model did not write as JSON. Each is the model
in use reacting to what masfuzz put before it, or failing its protocol, so the finding is the
harness's, shown with its cause and never counted against the app.
"""

from __future__ import annotations

import json
from typing import Any

from masfuzz.oracles.failure import Failure
from masfuzz.ownwords import RAW_ARGUMENTS, echoed
from masfuzz.trace import (MISSING_CONTEXT, Message, RestrictedAttempt, TerminationEvent, ToolCall,
                           ToolResult, Trace)


def attribute(trace: Trace, failures: list[Failure]) -> list[Failure]:
    """`failures` with those caused by a probe stub, the model's echo or its malformed output
    given to the harness."""
    out = []
    for f in failures:
        because = "" if f.attribution != "sut" else _cause(trace, f)
        out.append(f.model_copy(update={"attribution": "harness", "because": because}) if because else f)
    return out


def _cause(trace: Trace, failure: Failure) -> str:
    missing = set(trace.meta.get(MISSING_CONTEXT) or ())
    for i in failure.evidence:
        event = trace.events[i] if 0 <= i < len(trace.events) else None
        if isinstance(event, ToolResult) and event.status == "error" and event.tool in missing:
            return (f"{event.tool} read the run context, and masfuzz passed none (the app's "
                    "server passes one): give it with --context MODULE:FACTORY")
    lured = _probe_lure(trace, failure)
    if lured:
        return lured
    for i in failure.evidence:
        if not 0 <= i < len(trace.events):
            continue
        event = trace.events[i]
        if isinstance(event, (ToolCall, RestrictedAttempt)) and RAW_ARGUMENTS in event.arguments:
            return (f"malformed model output: the model in use wrote {event.tool}'s arguments as "
                    "text that is not JSON, so the call could not be made as the model meant it")
        mark = echoed(_text(event))
        if mark:
            return (f"the model in use echoed masfuzz's own prompt text (\"{mark}\", from masfuzz's "
                    "worked example or instruction) instead of answering: an artifact of the model "
                    "and masfuzz's prompt, not the app's answer")
    return ""


def _probe_lure(trace: Trace, failure: Failure) -> str:
    """Evidence made only of calls of tools masfuzz offered as `--restricted probe` stubs. A
    probe puts the tool in the agent's own tool list, so the model cannot know it is not the
    agent's: what it then does (call it, call it again and again) is worth knowing (C3), but the
    app as written has no such call."""
    probed = {(e.agent, e.tool) for e in trace.events if isinstance(e, RestrictedAttempt) and e.mode == "probe"}
    calls = [trace.events[i] for i in failure.evidence if 0 <= i < len(trace.events)
             and isinstance(trace.events[i], (ToolCall, RestrictedAttempt))]
    if not calls or not all((c.agent, c.tool) in probed for c in calls):
        return ""
    first = calls[0]
    return (f"masfuzz offered {first.tool} to {first.agent} as a probe (--restricted probe): in "
            f"the app as written {first.agent} cannot call it")


def _text(event: Any) -> str:
    if isinstance(event, Message):
        return event.content or ""
    if isinstance(event, TerminationEvent):
        return event.final_output or ""
    if isinstance(event, (ToolCall, RestrictedAttempt)):
        return json.dumps(event.arguments, ensure_ascii=False)
    return ""
