"""FLARE's intra-agent behavioural space (§3.2.2) and its coverage, as a campaign coverage model.

Each agent's behaviours are its atomic tasks (from the FLARE specification: one per tool it may
use, one for concluding when that is its duty, one for answering) and three anomalies:
`empty_utterances` (three consecutive empty turns), `loop_after_termination` (acting after the
end was announced) and `objective_deviation` (saying what its task is not). Coverage is reported
with the anomalies (A) and without (N), as FLARE's Table 1 does.

`BehaviourModel.items(trace)` maps a trace to behaviour ids deterministically wherever the trace
decides it (a tool called, the end announced, a non-empty answer, three empty turns, turns after
an announced end). Objective deviation needs a judgement: the tester model's mapping adds it
(`behaviour_map.map_behaviours`), and without one it stays uncovered rather than guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from masfuzz.graph.specification import FlareSpec
from masfuzz.oracles.detectors import announced_end
from masfuzz.trace import AgentTurn, ChatEnd, ChatStart, Message, ToolCall, Trace

ANOMALIES = ("empty_utterances", "loop_after_termination", "objective_deviation")
DETECTED = ANOMALIES[:2]  # decided from the trace alone; objective deviation needs a judgement


@dataclass(frozen=True)
class BehaviourSpace:
    """Agent x behaviour: the matrix FLARE measures."""

    behaviours: dict[str, tuple[str, ...]]  # agent -> behaviour ids (tasks, then anomalies)
    # The specification it came from: the tasks' descriptions and tools, for the tester model.
    spec: FlareSpec | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, spec: FlareSpec) -> "BehaviourSpace":
        agents = dict.fromkeys(t.agent for t in spec.tasks)
        return cls({a: tuple(t.id for t in spec.tasks_of(a)) +
                    tuple(f"anomaly::{a}::{k}" for k in ANOMALIES) for a in agents}, spec)

    def ids(self, *, anomalies: bool = True) -> list[str]:
        return [b for bs in self.behaviours.values() for b in bs
                if anomalies or not b.startswith("anomaly::")]

    def coverage(self, covered: set[str]) -> dict[str, tuple[int, int]]:
        """(covered, total) with anomalies ("A") and without ("N")."""
        out = {}
        for key, with_anomalies in (("A", True), ("N", False)):
            ids = self.ids(anomalies=with_anomalies)
            out[key] = (sum(1 for b in ids if b in covered), len(ids))
        return out


class BehaviourModel:
    """Behaviour coverage as a campaign coverage model (items namespaced `task::`/`anomaly::`)."""

    name = "behaviour"

    def __init__(self, spec: FlareSpec) -> None:
        self.spec = spec
        self.space = BehaviourSpace.of(spec)

    def items(self, trace: Trace) -> set[str]:
        known = set(self.space.ids())
        return {b for b in observed_behaviours(trace) if b in known}


def observed_behaviours(trace: Trace) -> set[str]:
    """Behaviour ids the trace decides by itself (they may lie outside a given space)."""
    out: set[str] = set()
    announcer: str | None = None  # who announced the end, once someone has
    empty_run: dict[str, int] = {}
    for e in trace.events:
        if isinstance(e, (ChatStart, ChatEnd)):
            announcer = None  # a stop word ends its own chat: the next chat goes on rightly
        elif isinstance(e, ToolCall):
            out.add(f"task::{e.agent}::use::{e.tool}")
        elif isinstance(e, AgentTurn) and announcer is not None and e.agent != announcer:
            # another agent takes the floor after the end was announced: the run went on
            out.add(f"anomaly::{e.agent}::loop_after_termination")
        elif isinstance(e, Message) and e.role == "assistant" and e.agent:
            if e.content.strip():
                out.add(f"task::{e.agent}::answer")
                empty_run[e.agent] = 0
                if announced_end(e.content):
                    out.add(f"task::{e.agent}::conclude")
                    announcer = announcer or e.agent
            else:
                empty_run[e.agent] = empty_run.get(e.agent, 0) + 1
                if empty_run[e.agent] >= 3:
                    out.add(f"anomaly::{e.agent}::empty_utterances")
    return out
