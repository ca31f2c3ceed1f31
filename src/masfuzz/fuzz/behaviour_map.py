"""FLARE's semantic-to-identifier mapping (§3.3.4): the tester model maps agent turns to behaviours.

Per agent turn (its messages, tool calls and tool results, from the full log) the model chooses
which of that agent's behaviours the turn shows, from a JSON-schema enum of the agent's ids. What a
detector decides stays with the detector (`observed_behaviours`: tool use, answering, announcing
the end, empty utterances, loops after termination); the model adds what needs a judgement,
above all objective deviation, which nothing else may set. The model's ids are checked: one that
is not a candidate of the agent, or a tool task whose tool the turn never called, is rejected and
counted; malformed replies are counted (and asked once more).

The result is a serialisable `BehaviourMapping`: a caller stores it with the run, and a report
rebuilds coverage from it later with `space.coverage(mapping.covered())`, without a model.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from masfuzz.coverage.behaviour import DETECTED, BehaviourSpace, observed_behaviours
from masfuzz.fuzz.spec_agent import TesterStats, ask, missing_lists, object_schema, tester_request
from masfuzz.llm.types import ChatRequest, ModelClient
from masfuzz.trace import AgentTurn, ErrorEvent, Message, ToolCall, ToolResult, Trace

MAPPING_FORMAT_VERSION = 1
TURN_CAP = 1_500  # characters of one turn shown to the model
MAX_TOKENS = 200
DEVIATION = "objective_deviation"


class TurnMapping(BaseModel):
    index: int  # the turn's position among the trace's agent turns
    agent: str
    behaviours: tuple[str, ...] = ()  # ids the model chose and validation kept


class BehaviourMapping(BaseModel):
    format_version: int = MAPPING_FORMAT_VERSION
    system: str = ""
    scenario_id: str = ""
    model: str | None = None
    detected: tuple[str, ...] = ()  # decided from the trace by the detectors
    turns: tuple[TurnMapping, ...] = ()
    stats: TesterStats = TesterStats()

    def covered(self) -> set[str]:
        return set(self.detected) | {b for t in self.turns for b in t.behaviours}


@dataclass
class Turn:
    index: int
    agent: str
    events: list[Any] = field(default_factory=list)

    def tools_called(self) -> set[str]:
        return {e.tool for e in self.events if isinstance(e, ToolCall)}

    def text(self) -> str:
        return "\n".join(filter(None, map(_event_line, self.events)))[:TURN_CAP]


def agent_turns(trace: Trace) -> list[Turn]:
    """The trace cut into turns: a turn starts at an `AgentTurn`, or where another agent's event
    arrives (adapters that record no turn events); it holds that agent's events until then."""
    turns: list[Turn] = []
    for e in trace.events:
        agent = getattr(e, "agent", None)
        if isinstance(e, AgentTurn) or (agent and (not turns or turns[-1].agent != agent)):
            turns.append(Turn(len(turns), e.agent if isinstance(e, AgentTurn) else agent))
            if isinstance(e, AgentTurn):
                continue
        if turns and agent == turns[-1].agent:
            turns[-1].events.append(e)
    return turns


def _event_line(e: Any) -> str:
    if isinstance(e, ToolCall):
        return f"called {e.tool}({json.dumps(e.arguments, default=str)[:300]})"
    if isinstance(e, ToolResult):
        return f"{e.tool} returned ({e.status}): {e.payload[:300]}"
    if isinstance(e, Message) and e.role == "assistant":
        return f"said: {e.content[:800]}" if e.content.strip() else "said nothing"
    if isinstance(e, ErrorEvent):
        return f"failed: {e.kind}: {e.message[:200]}"
    return ""


async def map_behaviours(trace: Trace, space: BehaviourSpace, client: ModelClient, *,
                         seed: int | None = None) -> BehaviourMapping:
    """Detected behaviours plus, per agent turn, the behaviours the tester model recognises."""
    known = set(space.ids())
    stats = TesterStats()
    turns = []
    for turn in agent_turns(trace):
        candidates = model_candidates(space, turn.agent)
        if not candidates or not turn.events:
            continue  # an agent outside the space, or a turn with nothing to judge
        reply = await ask(client, turn_request(turn, space, candidates, seed=seed), stats,
                          lambda d: missing_lists(d, ("behaviours",)))
        chosen = _checked(reply["behaviours"], turn, space, candidates, stats) if reply else ()
        turns.append(TurnMapping(index=turn.index, agent=turn.agent, behaviours=chosen))
    return BehaviourMapping(system=trace.system_id, scenario_id=trace.scenario_id,
                            model=client.model_string, stats=stats,
                            detected=tuple(sorted(observed_behaviours(trace) & known)),
                            turns=tuple(turns))


def model_candidates(space: BehaviourSpace, agent: str) -> list[str]:
    """The agent's behaviours the model may choose: all but the anomalies a detector decides."""
    detected = {f"anomaly::{agent}::{k}" for k in DETECTED}
    return [b for b in space.behaviours.get(agent, ()) if b not in detected]


def turn_request(turn: Turn, space: BehaviourSpace, candidates: list[str], *,
                 seed: int | None = None) -> ChatRequest:
    # The candidates with their descriptions first, the turn next, the question last.
    lines = [f"The agent {turn.agent} of a multi-agent system has these behaviours:"]
    lines += [f"- {b}: {_describe(space, b)}" for b in candidates]
    lines += ["", f"What {turn.agent} did in one turn:", turn.text(), "",
              f"Which of the behaviours above did {turn.agent} show in this turn? Choose "
              f"anomaly::{turn.agent}::{DEVIATION} only if it did something outside its tasks. "
              'Answer with JSON only: {"behaviours": [ids]}.']
    schema = object_schema({"behaviours": {"type": "array", "maxItems": len(candidates),
                                           "uniqueItems": True,
                                           "items": {"type": "string", "enum": candidates}}})
    return tester_request("\n".join(lines), schema, agent="behaviour-mapper", seed=seed,
                          max_tokens=MAX_TOKENS, metadata={"kind": "behaviours", "turn": turn.index})


def _describe(space: BehaviourSpace, behaviour: str) -> str:
    if behaviour.endswith(f"::{DEVIATION}"):
        return "says or does something outside the agent's assigned tasks"
    task = _task(space, behaviour)
    if task is None:
        return behaviour
    return " ".join(task.description.split())[:160] + (f" (calls {task.tool})" if task.tool else "")


def _task(space: BehaviourSpace, behaviour: str) -> Any:
    if space.spec is None:
        return None
    return next((t for t in space.spec.tasks if t.id == behaviour), None)


def _checked(chosen: list[Any], turn: Turn, space: BehaviourSpace, candidates: list[str],
             stats: TesterStats) -> tuple[str, ...]:
    """The model's ids that hold up; each rejected one counted with its reason."""
    kept: list[str] = []
    for b in chosen:
        reason = _problem(b, turn, space, candidates)
        if reason:
            stats.reject(str(b), reason)
        elif b not in kept:
            kept.append(b)
            stats.added.append(b)
    return tuple(kept)


def _problem(behaviour: Any, turn: Turn, space: BehaviourSpace, candidates: list[str]) -> str:
    if behaviour not in candidates:
        if behaviour in space.ids():
            return f"not a behaviour the model decides for {turn.agent} (a detector or another agent's)"
        return f"unknown behaviour id for {turn.agent}"
    task = _task(space, behaviour)
    if task is not None and task.tool and task.tool not in turn.tools_called():
        return f"the turn never called {task.tool}"
    return ""
