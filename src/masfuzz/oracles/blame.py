"""Who and when: the one agent a finding is blamed on, the decisive step, and what the fault is
about, for the findings of the oracles that do not say so themselves.

One post-pass over every oracle's findings (`blame_all`), so that the detectors stay one rule
each: per detector, from the finding's evidence and elements and the trace, it derives

- `agent`: ONE agent name, never a list and never an alphabetical pick: the agent that acted
  wrongly (the caller of a failing or forbidden tool, the agent that spoke out of turn, the one
  that announced an end that was not honoured, the one that ended the run too early), for a
  repeated call the agent that repeats, and for a speaker cycle the agent whose turn first only
  repeated its own turn of a round before (in an orchestrator's team, the orchestrator asking
  again rather than changing its plan). None where no agent is to blame: a crash (the app's
  code failed, in a tool, a callback or a router), a run that hit a bound without any agent
  going round.
- `step`: the decisive event, an index into the trace's events: the first failed tool call, the
  first turn past the announced end, the call or turn that made a repetition a loop, the end of
  a run that ended too early, the crash.
- `step_ref`: that event's id in the user's own log, when the trace was imported from one
  (`Trace.meta[EVENT_SOURCES]`).
- `subject`: what the fault is about beside the agent, which the fingerprint is made of (see
  `SUBJECTS`): the same convention for every oracle, so that a detector's finding and FLARE's
  failure agents' finding of one fault share a fingerprint.

A field an oracle set (even to None) is left alone: the semantic oracles set their own. A finding
of an oracle this module does not know is blamed on the agent of its first evidence event.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from masfuzz.oracles.failure import JUDGED_DETECTOR, Failure
from masfuzz.oracles.wording import only_courtesy
from masfuzz.trace import (
    EVENT_SOURCES, AgentTurn, DelegationEvent, Message, RestrictedAttempt, ToolCall,
    ToolResult, Trace, carries_refusal,
)

# What a fault of each root cause is about beside the blamed agent: the tool it called or
# omitted, the peer agent (the one it should have waited for, handed the floor back to, or left
# without a turn), or nothing more ("" ). A root cause not listed (an agent deviating from its
# task) is about the specification clause it violates.
TOOL, PEER, NOTHING = "tool", "peer", "nothing"
SUBJECTS: dict[str, str] = {
    "Tool Execution Error": TOOL, "Tool Specification Mismatch": TOOL,
    "Tool Invocation Omission": TOOL, "Restricted Tool Access": TOOL,
    "Violation of Relationships-based Speaking Order": PEER, "Premature Termination": PEER,
    "Termination Condition Violation": NOTHING, "Max Round Limit Exceeded": NOTHING,
    "Response Omission": NOTHING,
    "Incorrect Verification": TOOL, "Information Loss at Hand-over": PEER, "Misrouted Request": PEER,
}

Who = tuple[str | None, int | None, str | None]  # agent, step, subject
Rule = Callable[[Trace, Failure], Who]


def blame_all(trace: Trace, failures: list[Failure], *, tools: Collection[str] = ()) -> list[Failure]:
    return [blame(trace, f, tools=tools) for f in failures]


def blame(trace: Trace, failure: Failure, *, tools: Collection[str] = ()) -> Failure:
    """`failure` with who, when and what filled in where its oracle left them unset; `tools`
    names the tools a model-written finding may name beside those the trace shows."""
    given = failure.model_fields_set
    if failure.detector == JUDGED_DETECTOR:
        agent, step, subject = _judged(trace, failure, set(tools))
    else:
        agent, step, subject = RULES.get(failure.detector, _first_evidence)(trace, failure)
    update: dict[str, Any] = {}
    for name, value in (("agent", agent), ("step", step), ("subject", subject)):
        if name not in given:
            update[name] = value
    step = update.get("step", failure.step)
    if "step_ref" not in given:
        update["step_ref"] = source_of(trace, step)
    if not failure.found_by:
        update["found_by"] = (failure.detector,)
    return failure.model_copy(update=update)


def source_of(trace: Trace, step: int | None) -> str | None:
    """The id the user's own log gave event `step` (a span id, a message number), if any."""
    sources = trace.meta.get(EVENT_SOURCES)
    if step is None or not isinstance(sources, list) or not 0 <= step < len(sources):
        return None
    ref = sources[step]
    return None if ref is None else str(ref)


def event_ref(trace: Trace, step: int) -> str:
    """Event `step` named as a finding's words name it: by the user's own log's number for it
    (`source_of`: "message 12"), else by its index in the trace ("event 12")."""
    ref = source_of(trace, step)
    return f"message {ref}" if ref is not None else f"event {step}"


# -- the detectors' findings -----------------------------------------------------------------------

def _at(evidence: tuple[int, ...], k: int) -> int | None:
    """The k-th evidence event (the last when there are fewer), or None without evidence."""
    return evidence[min(k, len(evidence) - 1)] if evidence else None


def _actor(event: Any) -> str | None:
    if isinstance(event, DelegationEvent):
        return event.from_
    agent = getattr(event, "agent", None)
    return agent if isinstance(agent, str) and agent else None


def _first_evidence(trace: Trace, f: Failure) -> Who:
    step = _at(f.evidence, 0)
    return (_actor(trace.events[step]) if step is not None and step < len(trace.events) else None,
            step, None)


def _termination(trace: Trace, f: Failure) -> Who:
    end = _at(f.evidence, len(f.evidence))
    if f.root_cause == "Termination Condition Violation":
        said = f.evidence[0]  # the announcement: the first turn after it is past the end
        after = next((i for i, e in enumerate(trace.events) if i > said and isinstance(e, AgentTurn)), end)
        # the announcer: its end was not honoured (FLARE's director, whom a round robin never
        # gives the floor again to close); who spoke next often had no choice
        return f.elements[0], after, ""
    return _handing_back(trace, [e.agent for i, e in enumerate(trace.events)
                                 if isinstance(e, AgentTurn) and (end is None or i < end)]), end, ""


def _handing_back(trace: Trace, order: list[str]) -> str | None:
    """The agent that keeps the conversation going round at the end of a run that hit a bound:
    of the speaker cycle its last turns repeat (at least twice), the member that joined last."""
    from masfuzz.oracles.detectors import MAX_CYCLE_LEN

    for p in range(1, MAX_CYCLE_LEN + 1):
        tail = order[-2 * p:]
        if len(tail) == 2 * p and tail[:p] == tail[p:] and len(set(tail[:p])) == p:
            return _joined_last(trace, tail[:p])
    return None


def _joined_last(trace: Trace, members: list[str]) -> str:
    first = {}
    for i, e in enumerate(trace.events):
        if isinstance(e, AgentTurn):
            first.setdefault(e.agent, i)
    return max(members, key=lambda a: first.get(a, -1))


def _loop(trace: Trace, f: Failure) -> Who:
    from masfuzz.oracles.detectors import MIN_IDENTICAL_CALLS

    if f.elements[:1] == ("tool",):  # one agent repeating one call: the call that made it a loop
        return f.elements[1], _at(f.evidence, MIN_IDENTICAL_CALLS - 1), f.elements[2]
    # a speaker cycle: the first turn that only says again what its agent said a round before
    # starts the repetition (in an orchestrator's team, the orchestrator asking again rather
    # than changing its plan); the peer is the one it hands the floor to
    cycle = list(f.elements[1:])  # the smallest rotation; the members' order round the cycle
    step = _at(f.evidence, len(cycle))
    done = _past_done_task(trace, step)
    if done is not None:
        return trace.events[done].agent, done, cycle[(cycle.index(trace.events[done].agent) + 1) % len(cycle)] \
            if trace.events[done].agent in cycle else ""
    agent = trace.events[step].agent if step is not None and isinstance(trace.events[step], AgentTurn) \
        else _joined_last(trace, cycle)
    handed_to = cycle[(cycle.index(agent) + 1) % len(cycle)] if agent in cycle else ""
    return agent, step, handed_to


def _past_done_task(trace: Trace, step: int | None) -> int | None:
    """The message that did the task, when a speaker cycle from `step` on only exchanged the
    courtesies that close a chat (`wording.only_courtesy`: "Thank you!", "You're welcome! Have a
    great day!"): the last agent message before it that said more. The chat went round past a task
    already done; that message, which did not end it (no stop word), is where it could have
    ended. None when the cycle's turns say anything else."""
    if step is None:
        return None
    said = [e for e in trace.events[step:] if isinstance(e, Message) and e.role == "assistant" and e.agent]
    if not said or not all(only_courtesy(e.content) for e in said):
        return None
    return next((i for i in range(step - 1, -1, -1) if isinstance(m := trace.events[i], Message)
                 and m.role == "assistant" and m.agent and not only_courtesy(m.content)), None)


def _premature(trace: Trace, f: Failure) -> Who:
    end = _at(f.evidence, len(f.evidence))
    if f.root_cause == "Premature Termination":  # (from, to): the run ended before `to` acted
        closer = next((_actor(e) for e in reversed(trace.events[:end])
                       if isinstance(e, (AgentTurn, Message, ToolCall, DelegationEvent))
                       and getattr(e, "role", "assistant") == "assistant" and _actor(e)
                       and _actor(e) != f.elements[1]), None)  # the receiver's opened turn: not its act
        return closer, end, f.elements[1]
    last = f.elements[1] if len(f.elements) > 1 and f.elements[1] != "-" else None
    return last, end, ""  # an empty final output, from the last speaker


def _silent(trace: Trace, f: Failure) -> Who:
    return f.elements[0], _at(f.evidence, len(f.evidence)), ""  # the turn that made it a streak


def _caller(trace: Trace, f: Failure) -> Who:
    """(agent, tool, ...) elements: a restricted call, a failed call, a call off its schema, a
    tool omitted; the first such event is the decisive one."""
    return f.elements[0], _at(f.evidence, 0), f.elements[1]


def _out_of_turn(trace: Trace, f: Failure) -> Who:
    """(peer, agent) elements: `agent` spoke where `peer` should have, or before it."""
    return f.elements[1], _at(f.evidence, 0), f.elements[0]


def _crash(trace: Trace, f: Failure) -> Who:
    """A crash is the app's code failing (a tool, a callback, a router between agents), not an
    agent's act: no agent is blamed. Where it happened (the tool, the agent whose step was
    running) is part of what it is about, so that crashes in two places stay two faults."""
    return None, _at(f.evidence, 0), " ".join(f.elements)  # reason, kinds, where, the signal


def _not_injected(trace: Trace, f: Failure) -> Who:
    hit = next((i for i, e in enumerate(trace.events) if carries_refusal(e)), None)
    return (_actor(trace.events[hit]) if hit is not None else None), hit, "not_injected"


RULES: dict[str, Rule] = {
    "missing_termination": _termination,
    "loop": _loop,
    "premature_termination": _premature,
    "empty_utterances": _silent,
    "restricted_tool_call": _caller,
    "unrecovered_tool_error": _caller,
    "tool_argument_mismatch": _caller,
    "tool_omission": _caller,
    "speaking_order": _out_of_turn,
    "runtime_crash": _crash,
    "model_not_injected": _not_injected,
}


# -- FLARE's failure agents' findings --------------------------------------------------------------

def _judged(trace: Trace, f: Failure, tools: set[str]) -> Who:
    """A model-written finding names its elements (agents and tools) and quotes the log; the
    agent is the one whose utterance or call the quote is (its first evidence event) when the
    finding names it, else the first agent it names; the subject follows `SUBJECTS`."""
    tools |= {e.tool for e in trace.events if isinstance(e, (ToolCall, ToolResult, RestrictedAttempt))}
    agents = [e for e in f.elements if e not in tools]
    step = _at(f.evidence, 0)
    quoted = _actor(trace.events[step]) if step is not None and step < len(trace.events) else None
    agent = quoted if quoted in agents else (agents[0] if agents else None)
    named_tools = [e for e in f.elements if e in tools]
    peers = [a for a in agents if a != agent]
    kind = SUBJECTS.get(f.root_cause)
    if f.root_cause == "Repetitive Execution of Completed Tasks":  # as `_loop`: a call or a cycle
        kind = TOOL if named_tools else PEER
    if kind == TOOL and named_tools:
        return agent, step, named_tools[0]
    if kind == PEER:
        return agent, step, peers[0] if peers else ""
    return agent, step, "" if kind == NOTHING else f.clause or ""
