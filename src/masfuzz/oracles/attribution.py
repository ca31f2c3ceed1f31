"""Whose a finding is, judged on its evidence for every detector alike.

The detectors attribute what their own rule knows (a time limit, a bound the user set). Some
causes show only in what the evidence says, whatever the detector: what follows from calls of a
tool masfuzz offered as a `--restricted probe` stub (a loop of them, arguments off its schema),
an agent's message or final answer that repeats masfuzz's own prompt (its worked example, its
instruction), and a tool call whose arguments the model did not write as JSON. Each is the model
in use reacting to what masfuzz put before it, or failing its protocol, so the finding is the
harness's, shown with its cause and never counted against the app.

A fault masfuzz injected (`--fault TOOL=MODE`, the fault re-runs of cover and fuzz) is the
harness's doing, the system's handling of it the system's: a finding that is only the injected
fault (every tool result it shows, or every result of the calls it shows, carries an injected
fault) is the harness's when the system handled it: no crash, no reply that leaks the raw
error, and a reply after the fault that tells the user it did not work. One that crashed, leaked
the error, or said nothing of it (or claimed success) stays the app's. A finding that shows no
injected result but whose decisive step comes after one (a fact the faulted tool would have
given never reaches the next agent; the team stops or goes round once the tool failed) is what
the fault took from the run: the harness's. The app's handling of the fault itself is judged by
the findings that show the faulted result (above) and by the robustness witness W^F1, which a
crash or a leaked raw error fails; a crash and a call of a tool the agent must not use stay the
app's whatever came before, but for two direct consequences of the fault itself (masfuzz
replaces the tool's body, past its own error handling, and fails every call of it): a crash
whose error is the injected one (`_fault_crash`), and a loop all of whose repeated calls the
fault answered (`_injected`): the retries a lasting fault makes of an agent calling again. A run without the fault shows whether the app does the same by
itself (`run` and `fuzz` run every faulted scenario's parent without it, and the recorder keeps
such a run as the reproducer). A hand-over that starts
with a tool call (an `as_tool` agent) masfuzz faulted never reached its agent: a finding that
this agent never acted is the fault itself, the harness's whatever the handling (which the
tool-error and claim oracles judge). Every oracle's findings, the spec-aware ones and the
failure agents' too, pass through `attribute`, so one rule decides for all of them.

A team that gives the floor to a human (AgentChat's `UserProxyAgent`) for whom masfuzz stood
in with a user who says nothing waits for words masfuzz never gives: its not ending by itself
(a bound reached), its rounds through the silent human and the human's empty turns are the
harness's. AG2 records no turn of its human, only how often it was asked (`HUMAN_PROMPTS`): a
round bound reached by an AG2 chat whose human was asked is the silence's too.

A speaker cycle through a hand-over the model chose against the app's routing (a misroute
`oracles.specified` found the model's) is that choice repeated: the model's too.

A run that hit a limit of masfuzz's sandbox (`--sandbox-memory`, `--sandbox-processes`,
`--sandbox-disk`, `--sandbox-cpu`; `masfuzz.exec.sandbox.limit_hits`) was stopped by the user's
setting: a finding that shows the hit (the refused allocation, fork or write, the run the limit
ended) is the settings', saying which limit and which setting raises it. A runaway is still
shown, for the user to judge; `--fail-on` does not count it.

A probe call itself (Restricted Tool Access) stays the app's, unless it called the stub of
itself (an agent lent as a tool, offered back to that agent by the probe: no other agent's tool),
or the agent's model was masfuzz's own probe model, which calls every tool it is offered (and a run all of whose agents
ran on the probe and stopped at a bound, or went round a loop, is the probe's too): the app as written cannot make the
call, but its agent reached for a tool it must not use, which its instructions or permissions
should keep it off; `--fail-on` counts it. What the stub then does to the run (it refuses, the
agent asks again and again) is the probe's doing: a loop made only of probe calls is the
harness's.
"""

from __future__ import annotations

import json
import re
from typing import Any

from masfuzz.oracles.failure import Failure
from masfuzz.oracles.instructed import SPEAKING_ORDER, with_prompts
from masfuzz.oracles.robustness import FAULT_MARKER, admits_failure
from masfuzz.ownwords import PROBE_MODELS, RAW_ARGUMENTS, echoed
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import (EARLIER_ANSWERS, HUMAN_PROMPTS, LOOP_BOUND_CALLS, MISSING_CONTEXT, SANDBOX_LIMITS, STAND_IN_USERS, AgentTurn, ChatEnd, DelegationEvent, ErrorEvent,
                           Message, RestrictedAttempt, TerminationEvent, ToolCall, ToolResult, Trace)


# What the app must never do, whatever a tool answered before: not a fault's consequence.
OWN_WHATEVER_CAME_BEFORE = ("Runtime Crash", "Restricted Tool Access")


def attribute(trace: Trace, failures: list[Failure]) -> list[Failure]:
    """`failures` with those caused by a probe stub, an injected fault, the model's echo or its
    malformed output given to the harness (a finding's `step`, when set, is its decisive event:
    call it after `masfuzz.oracles.blame`)."""
    out = []
    for f in failures:
        went_round = "" if f.attribution != "sut" else _round_a_model_choice(f, failures)
        if went_round:
            out.append(f.model_copy(update={"attribution": "harness", "because": went_round}))
            continue
        limit = "" if f.attribution != "sut" else (_sandbox_limit(trace, f) or _carried_over(trace, f))
        if limit:
            out.append(f.model_copy(update={"attribution": "settings", "because": limit}))
            continue
        because = "" if f.attribution != "sut" else (_cause(trace, f) or _loop_bound(trace, f))
        out.append(f.model_copy(update={"attribution": "harness", "because": because}) if because else f)
    return out


def _round_a_model_choice(failure: Failure, failures: list[Failure]) -> str:
    """A speaker cycle that goes round a hand-over the model in use chose against the app's
    routing (a misroute found the model's, `oracles.specified`): the router sends the request to
    the wrong agent, which hands it back as its instructions say, again and again. The cycle is
    that choice repeated, the model's too."""
    if failure.detector != "loop" or failure.elements[:1] != ("speakers",):
        return ""
    cycle = set(failure.elements[1:])
    for f in failures:
        if f.root_cause == "Misrouted Request" and f.attribution == "harness" and f.because \
                and {f.agent, f.subject} <= cycle:
            return f"the cycle goes round a hand-over the model in use chose: {f.because}"
    return ""


def _sandbox_limit(trace: Trace, failure: Failure) -> str:
    """What a sandbox limit the run hit says (`SANDBOX_LIMITS`: which limit, which setting raises
    it), when the finding's evidence shows the hit (the error, or the run's end for a run the
    limit ended): the user's setting stopped the app there, so the finding is the settings'."""
    ends = [i for i, e in enumerate(trace.events) if isinstance(e, TerminationEvent)]
    for hit in trace.meta.get(SANDBOX_LIMITS) or ():
        at = hit.get("event") if hit.get("event") is not None else (ends[-1] if ends else None)
        if at is not None and at in failure.evidence:
            return str(hit.get("says", ""))
    return ""


def _loop_bound(trace: Trace, failure: Failure) -> str:
    """A finding whose evidence holds a tool call that failed on an object an earlier run of the
    process bound to its event loop (`LOOP_BOUND_CALLS`): masfuzz ran the app again on a loop of
    its own (the in-process executor), which a fresh process never does."""
    bound = trace.meta.get(LOOP_BOUND_CALLS) or {}
    for i in failure.evidence:
        event = trace.events[i] if 0 <= i < len(trace.events) else None
        if isinstance(event, ToolResult) and event.call_id in bound:
            return (f"{event.tool} failed on an object an earlier run in this process bound to its event "
                    f"loop (\"{' '.join(str(bound[event.call_id]).split())[:80]}\"): masfuzz ran the app "
                    "again on a loop of its own (--executor inprocess) and could not renew that object "
                    "(the app made it where masfuzz cannot reach it); a fresh process does not show it")
    return ""


def _carried_over(trace: Trace, failure: Failure) -> str:
    """A finding resting on a tool's answer that an earlier run of the same process, making the
    same call, got otherwise (`EARLIER_ANSWERS`: the in-process executor, a persistent worker):
    the tool's state those runs left made the answer, which the app started afresh would not
    give. The user's choice to share one process between runs showed it: the settings'. Not a
    refusal the run's own order explains: a speaking-order finding's refused call, for want of the
    step an agent of the same run took only after it (its evidence's later act), is what the app
    started afresh refuses too, whatever an earlier run that had taken the step got."""
    earlier = trace.meta.get(EARLIER_ANSWERS) or {}
    for i in failure.evidence:
        if failure.root_cause == SPEAKING_ORDER and any(j > i for j in failure.evidence):
            continue  # the step it wanted comes later in this very run
        event = trace.events[i] if 0 <= i < len(trace.events) else None
        first = earlier.get(event.call_id) if isinstance(event, ToolResult) and event.call_id else None
        if first:
            return (f"{event.tool} answered this call otherwise in an earlier run of the same process "
                    f"(\"{' '.join(str(first.get('payload', '')).split())[:80]}\"): the {first.get('runs_before')} "
                    "run(s) before this one shared its process (--executor inprocess, --persistent) and "
                    "left the tool's state that gave this answer; a fresh process (the default "
                    "executor) would not show it")
    return ""


def carried_over(trace: Trace, failure: Failure) -> bool:
    """Does `failure` rest on a tool answer an earlier run of the same process gave otherwise
    (`_carried_over`)?"""
    return bool(_carried_over(trace, failure))


def fresh_answers(trace: Trace) -> Trace:
    """`trace` with every tool answer an earlier run of its process gave otherwise
    (`EARLIER_ANSWERS`) put back as that first answer, the one the app as a fresh process starts
    it gave, and without the record: the run's counterfactual twin, all else as it was said.
    Whether a finding set aside for such an answer shows on it too says whether the earlier runs'
    state made the fault or only changed the answer's details (`detectors.detect`)."""
    earlier = trace.meta.get(EARLIER_ANSWERS) or {}
    events = tuple(e.model_copy(update={"status": earlier[e.call_id].get("status", e.status),
                                        "payload": str(earlier[e.call_id].get("payload", e.payload))})
                   if isinstance(e, ToolResult) and e.call_id in earlier else e for e in trace.events)
    meta = {k: v for k, v in trace.meta.items() if k != EARLIER_ANSWERS}
    return trace.model_copy(update={"events": events, "meta": meta})


def _cause(trace: Trace, failure: Failure) -> str:
    missing = set(trace.meta.get(MISSING_CONTEXT) or ())
    for i in failure.evidence:
        event = trace.events[i] if 0 <= i < len(trace.events) else None
        if isinstance(event, ToolResult) and event.status == "error" and event.tool in missing:
            return (f"{event.tool} read the run context, and masfuzz passed none (the app's "
                    "server passes one): give it with --context MODULE:FACTORY")
    lured = (_probe_lure(trace, failure) or _fault_crash(trace, failure) or _injected(trace, failure)
             or _after_fault(trace, failure)
             or _silent_human(trace, failure) or _probe_bound(trace, failure))
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
    """Evidence made only of calls of tools masfuzz offered as `--restricted probe` stubs, for
    a finding other than the restricted call itself: the stub refusing is what makes the agent
    call again, and its arguments are checked against a tool the app does not give it."""
    if failure.root_cause == "Restricted Tool Access":
        # else the agent reached for a tool it must not use
        return _probe_model(trace, failure) or _probe_of_itself(failure)
    probed = {(e.agent, e.tool) for e in trace.events if isinstance(e, RestrictedAttempt) and e.mode == "probe"}
    calls = [trace.events[i] for i in failure.evidence if 0 <= i < len(trace.events)
             and isinstance(trace.events[i], (ToolCall, RestrictedAttempt))]
    if not calls or not all((c.agent, c.tool) in probed for c in calls):
        return ""
    first = calls[0]
    return (f"masfuzz offered {first.tool} to {first.agent} as a probe (--restricted probe), a stub "
            f"that refuses: what the refusals led to is the probe's doing (in the app as written "
            f"{first.agent} cannot call {first.tool}); the call itself is reported as the app's")


def _probe_of_itself(failure: Failure) -> str:
    """A probe call of the stub that stands for the calling agent itself (its own agent-as-tool,
    which the app lends to another agent: ADK's `AgentTool`, an Agents SDK `as_tool`): a model
    that reads its own name in what the framework tells it ("Your internal name is bench") and
    calls the tool of that name reaches for no other agent's power, and the app as written offers
    no agent itself. masfuzz's probe made that offer, so the call is the probe's."""
    agent, tool, mode = (*failure.elements, None, None, None)[:3]
    if mode != "probe" or agent is None or tool != agent:
        return ""
    return (f"masfuzz's probe offered {agent} a stub of itself ({tool}, the agent lent as a tool to "
            "another): calling it reaches for no other agent's tool, and the app as written offers "
            "no agent itself")


# Words an agent is given to say, quoted in its instructions ('Say "Brief: check the NOTAMs ..."').
_WORDS_TO_SAY = re.compile(r"\"[^\"]*\"|\u201c[^\u201d]*\u201d")


def probe_not_told(spec: WorkflowSpec | None, trace: Trace, agent: str, tool: str) -> str:
    """A probe call of a tool that the calling agent's own instructions never tell it to use: they
    name it only inside the words they give it to say ('Say "Brief: check the NOTAMs on the
    morning."', and the probe offers a `notams` tool), or only an agent's description does
    (`AgentSpec.description`: what a framework writes into the prompt about the agent itself and
    the agents it may transfer to, ADK's "The description about you is ..." and "Agent
    description: Handles greetings using the 'say_hello' tool"). Words to say and a description
    of who does what tell the agent to call nothing; the model that read them as an instruction to
    act found the tool to take only because masfuzz's probe offered it. The app's own words to the
    agent did not send it there, so the call is the model's and the probe's. The instructions are
    the spec's, or what the agent's model was told in the run where the spec has none (a graph
    node's system message, built in code: `instructed.with_prompts`); instructions masfuzz cannot
    read (computed at run time and not recorded) leave the call the app's, as does a tool the
    instructions name outside their quotes."""
    if spec is None:
        return ""
    own = next((a for a in with_prompts(spec, trace).agents if agent in (a.id, a.name)), None)
    told = own.instructions if own is not None else ""
    if own is None or not told.strip() or own.instructions_dynamic and told == (spec.agent(own.id).instructions or ""):
        return ""
    named = re.compile(rf"(?<![\w-]){re.escape(tool)}(?![\w-])", re.IGNORECASE)
    if named.search(_WORDS_TO_SAY.sub(" ", told)):
        return ""
    said = next((q for q in _WORDS_TO_SAY.findall(told) if named.search(q)), None)
    describer = next((a for a in spec.agents if named.search(a.description or "")), None)
    if said is not None:
        lure = f"only inside words they give it to say ({said.strip()[:100]})"
    elif describer is not None:
        whose = "its own description" if describer is own else f"{describer.id}'s description"
        lure = f"only {whose} does (\"{describer.description.strip()[:100]}\"), which the framework shows the model to say who does what"
    else:
        return ""
    return (f"{agent}'s instructions never tell it to use {tool}; they name it {lure}" if said is not None else
            f"{agent}'s instructions never name {tool}; {lure}") + (
        ": the model took it for an instruction, and "
        f"{tool} was there to call only because masfuzz's probe offered it (--restricted probe)")


def _probe_model(trace: Trace, failure: Failure) -> str:
    """A restricted call made by masfuzz's own probe model (`PROBE_MODELS`), which calls every
    tool it is offered whatever the agent's instructions: masfuzz's model calling masfuzz's stub
    says nothing of the app."""
    agent = failure.elements[0] if failure.elements else None
    model = _models(trace).get(agent)
    if model not in PROBE_MODELS:
        return ""
    return (f"{agent}'s model was masfuzz's probe ({model}), which calls every tool it is offered "
            "whatever the agent's instructions: this call is the probe's, and says nothing of "
            "whether the app keeps the agent off the tool")


def _models(trace: Trace) -> dict[str, Any]:
    """The model each agent's calls went to (`meta.agent_settings`)."""
    return {a: (v or {}).get("model") for a, v in (trace.meta.get("agent_settings") or {}).items()}


def _probe_bound(trace: Trace, failure: Failure) -> str:
    """A run every agent of which ran on masfuzz's probe model, stopped at a turn or message
    bound: the probe calls every tool and hands off to every agent it is offered before it
    answers, and never says a stop word, so reaching the bound measures the probe, not whether
    the app ends. (A run that never ends and hits masfuzz's time limit instead is a crash, the
    app's: nothing in the app bounds it.) A loop of such a run (the same call, the same speaker
    cycle) is the probe's fixed answers again: an AG2 group's two agents handing off to each
    other, each the probe's first hand-off, went round until the group's round limit."""
    models = set(_models(trace).values())
    if not models or not models <= set(PROBE_MODELS):
        return ""
    if failure.root_cause == "Max Round Limit Exceeded":
        return ("every agent ran on masfuzz's probe model, which calls every tool and hands off to "
                "every agent it is offered before it answers and never says a stop word: the run "
                "reaching its bound is the probe's doing, not a termination the app lacks")
    if failure.root_cause == "Repetitive Execution of Completed Tasks":
        return ("every agent ran on masfuzz's probe model, which answers alike what it is asked "
                "alike and hands off to every agent it is offered: the calls and hand-offs going "
                "round are the probe's choices, not a loop of the app's")
    if failure.root_cause == "Runtime Crash" and (bound := _chat_bound_before_crash(trace)):
        # the app's code after the chat (a script printing the chat's results) failed on what a
        # chat stopped at its bound under the probe never made: one cause, the probe's bound
        return (f"every agent ran on masfuzz's probe model, and the chat stopped at its bound under it "
                f"(\"{bound}\"): the app's code after the chat failed on what that chat never produced, "
                "the probe's doing, not a crash of the app's")
    ended = next((e for e in reversed(trace.events) if isinstance(e, TerminationEvent)), None)
    if failure.root_cause == "Premature Termination" and ended is not None and ended.reason == "completed":
        # the run ended because an agent answered: under the probe, which takes the first
        # hand-off it is offered and answers once its tools are called, which agent answers
        # and which are never reached is the probe's routing, not a stop the app made
        return ("every agent ran on masfuzz's probe model, which takes the first hand-off it is "
                "offered and answers once it has called its tools: that the run ended before this "
                "agent acted is the probe's routing, not a stop the app made")
    return ""


# A framework's words for a chat stopped at its turn, round or message bound (AG2's "Maximum
# rounds (100) reached", AgentChat's "Maximum number of messages 25 reached").
_BOUND_WORDS = re.compile(r"\bmaximum (?:number of )?(?:rounds|turns|messages)\b|\bmax[_ ]?(?:turns|rounds)\b", re.IGNORECASE)


def _chat_bound_before_crash(trace: Trace) -> str:
    """The reason of the last chat end before the run's crash when that chat stopped at its
    bound and no agent acted between the two (the crash is in the app's code after the chat);
    "" otherwise."""
    for e in reversed(trace.events):
        if isinstance(e, (AgentTurn, ToolCall, DelegationEvent)):
            return ""
        if isinstance(e, ChatEnd):
            return e.reason if _BOUND_WORDS.search(e.reason) else ""
    return ""


def _injected(trace: Trace, failure: Failure) -> str:
    """Evidence whose tool results are all faults masfuzz injected, handled by the system; or
    a hand-over masfuzz itself stopped (`_faulted_delegation`)."""
    stopped = _faulted_delegation(trace, failure)
    if stopped:
        return stopped
    results = _results(trace, failure.evidence)
    if not results or not all(r.fault and r.fault != "stub" for _, r in results):
        return ""
    first, fault = results[0]
    if failure.root_cause in RETRIED and _all_faulted_calls(trace, failure):
        return (f"every call it repeats was answered by the fault masfuzz injected (--fault "
                f"{fault.tool}={fault.fault}), which fails each call of the run alike: the agent "
                "calling again is what masfuzz's lasting fault makes of a retry, not a loop of "
                "the app's (a run without the fault shows whether it loops by itself)")
    end = trace.termination
    if end is None or end.reason in ("crash", "timeout"):
        return ""  # it crashed (or hung) after the fault: the handling is the app's
    replies = [e.content for e in trace.events[first + 1:] if isinstance(e, Message)
               and e.role == "assistant" and e.content.strip()] + [end.final_output or ""]
    if any(FAULT_MARKER in r for r in replies) or not any(admits_failure(r) for r in replies):
        return ""  # it leaked the raw error, or never told the user the tool failed
    return (f"masfuzz injected this fault (--fault {fault.tool}={fault.fault}) and the system "
            f"handled it: it told the user that {fault.tool} did not work, without crashing or "
            "leaking the raw error")


def _all_faulted_calls(trace: Trace, failure: Failure) -> bool:
    """Every tool call in the evidence is answered by an injected fault."""
    calls = [i for i in failure.evidence if 0 <= i < len(trace.events) and isinstance(trace.events[i], ToolCall)]
    answered = _results(trace, failure.evidence)
    return bool(calls) and all(any(j > i and r.tool == trace.events[i].tool for j, r in answered) for i in calls) \
        and all(r.fault and r.fault != "stub" for _, r in answered)


def _fault_crash(trace: Trace, failure: Failure) -> str:
    """A finding that is the run's crash (its evidence holds the crash's error or end), when
    the crash is masfuzz's injected fault itself: the error masfuzz raised in place of the
    tool's body (its message carries `FAULT_MARKER`) went up through the framework, or
    ended the run through it (a retry limit the fault used up: the adapter keeps the fault's
    message in the crash's). masfuzz replaced the tool's body, so the tool's own error
    handling never saw the fault, and a tool that fails in the framework's own form (which the
    injection uses where the framework has one) does not end the run: the crash shows the
    fault, not the app. A crash with an error of the app's own (its code failing on what the
    fault left it) stays the app's."""
    end = trace.termination
    if end is None or end.reason != "crash":
        return ""
    crash = [i for i, e in enumerate(trace.events) if isinstance(e, (ErrorEvent, TerminationEvent))]
    said = [e.message if isinstance(e, ErrorEvent) else e.detail or "" for e in map(trace.events.__getitem__, crash)]
    if not any(FAULT_MARKER in s for s in said) or not set(crash) & set(failure.evidence):
        return ""
    fault = next((e for e in trace.events[:crash[0]] if isinstance(e, ToolResult) and e.fault == "error"), None)
    if fault is None:
        return ""
    return (f"the run crashed on the fault masfuzz injected in place of {fault.tool}'s body "
            f"(--fault {fault.tool}={fault.fault}), which fails every call past the tool's own "
            "error handling: the crash is the injected error itself (raised through the "
            "framework, or using up the tool's retries), not something the app did; a crash "
            "with an error of the app's own stays the app's")


# What an agent calling again after a failed call is: a retry, of which a lasting fault makes a loop.
RETRIED = ("Repetitive Execution of Completed Tasks",)


def _after_fault(trace: Trace, failure: Failure) -> str:
    """A finding whose evidence shows no injected result, decided after the first one."""
    faults = [(i, e) for i, e in enumerate(trace.events)
              if isinstance(e, ToolResult) and e.fault and e.fault != "stub"]
    if not faults or failure.root_cause in OWN_WHATEVER_CAME_BEFORE:
        return ""
    if any(r.fault and r.fault != "stub" for _, r in _results(trace, failure.evidence)):
        return ""  # it shows the faulted result: how the app handled it (`_injected`)
    at = failure.step if failure.step is not None else max(failure.evidence, default=None)
    first, fault = faults[0]
    if at is None or at < first:
        return ""
    return (f"it comes after the fault masfuzz injected (--fault {fault.tool}={fault.fault}, event "
            f"{first}), which took {fault.tool}'s answer from the run: what follows is the fault's "
            "doing; a run without the fault shows whether the app does it by itself")


def _faulted_delegation(trace: Trace, failure: Failure) -> str:
    """A hand-over in the evidence that starts with a tool call (an Agents SDK `as_tool`
    agent) whose result masfuzz faulted: the fault replaced the call, so the agent it hands to
    never ran. What the finding says of that agent (it never acted) is the fault itself, not
    the system's handling of it, which the tool-error and claim oracles judge on their own."""
    events = trace.events
    shown = [i for i in failure.evidence if 0 <= i < len(events)]
    delegations = [i for i in shown if isinstance(events[i], DelegationEvent)]
    if not delegations or any(isinstance(events[i], (ToolCall, ToolResult, RestrictedAttempt))
                              for i in shown):
        return ""
    faults = [_fault_of_call(trace, i) for i in delegations]
    if not all(faults):
        return ""
    first = faults[0]
    return (f"masfuzz injected a fault into {first.agent}'s call of {first.tool} (--fault "
            f"{first.tool}={first.fault}), the call that runs {events[delegations[0]].to}: it "
            "never ran because of the fault, not because of the app")


def _fault_of_call(trace: Trace, i: int) -> ToolResult | None:
    """The faulted result of the tool call that started the hand-over at `i`: the caller's
    call just before it, answered by an injected fault."""
    d = trace.events[i]
    call = next((trace.events[j] for j in range(i - 1, -1, -1)
                 if isinstance(trace.events[j], ToolCall) and trace.events[j].agent == d.from_), None)
    if call is None:
        return None
    return next((r for r in trace.events[i + 1:] if isinstance(r, ToolResult) and r.tool == call.tool
                 and r.agent == call.agent and (r.call_id == call.call_id or not call.call_id)
                 and r.fault and r.fault != "stub"), None)


# What a human's words decide in a team that asks for them: whether it ends (missing termination
# at a bound), and whether a round with the human in it moves on (a speaker cycle, the human's
# own empty turns).
_HUMAN_DECIDES = ("Max Round Limit Exceeded", "Repetitive Execution of Completed Tasks",
                  "Response Omission")


def _silent_human(trace: Trace, failure: Failure) -> str:
    """A team that gave the floor to a human masfuzz stood in for (`STAND_IN_USERS`), whose
    stand-in says nothing: the team asked for words (an approval, a stop word, a correction)
    that masfuzz never gave, so its not ending by itself, its rounds through the silent human,
    and the human's empty turns are masfuzz's doing. An agent that announced the end and was
    not heard (Termination Condition Violation) stays the app's."""
    humans = set(trace.meta.get(STAND_IN_USERS) or ())
    prompted = int(trace.meta.get(HUMAN_PROMPTS) or 0)
    if failure.root_cause not in _HUMAN_DECIDES:
        return ""
    asked = [e.agent for e in trace.events if isinstance(e, AgentTurn) and e.agent in humans]
    if not asked and prompted and failure.detector == "missing_termination":
        # AG2 records no turn of its human, only the prompts masfuzz answered with nothing
        return (f"the app asked its human for input {prompted} time(s), and masfuzz stood in for "
                "that human with a user who says nothing: the chat goes back to the human for "
                "the next request (or a stop word) that masfuzz never gives, so this is masfuzz's "
                "silence, not the app's")
    if not asked:
        return ""
    shown = {trace.events[i].agent for i in failure.evidence if 0 <= i < len(trace.events)
             and isinstance(trace.events[i], AgentTurn)}
    if failure.detector != "missing_termination" and not shown & humans:
        return ""  # a round, or empty turns, without the human in them: the agents' own
    return (f"{asked[0]} stands for a human, and masfuzz stood in for that human with a user "
            f"who says nothing ({len(asked)} turn(s) given to it): the team waits for the "
            "human's words (an approval, a stop word) to end or move on, so this is masfuzz's "
            "silence, not the app's")


def _results(trace: Trace, evidence: tuple[int, ...]) -> list[tuple[int, ToolResult]]:
    """The tool results among `evidence`, and those answering the calls among it."""
    events = trace.events
    shown = {i for i in evidence if 0 <= i < len(events)}
    calls = [events[i] for i in shown if isinstance(events[i], ToolCall)]
    out = []
    for j, e in enumerate(events):
        if not isinstance(e, ToolResult):
            continue
        answers = any(c.tool == e.tool and c.agent == e.agent and (c.call_id == e.call_id or not c.call_id)
                      for c in calls)
        if j in shown or answers:
            out.append((j, e))
    return out


def _text(event: Any) -> str:
    if isinstance(event, Message):
        return event.content or ""
    if isinstance(event, TerminationEvent):
        return event.final_output or ""
    if isinstance(event, (ToolCall, RestrictedAttempt)):
        return json.dumps(event.arguments, ensure_ascii=False)
    return ""
