"""Who handed over to the agent that the app's code or graph runs next.

In a pipeline of the app's own code or a graph of nodes (a PydanticAI app's `main()`, a
pydantic-graph graph, ADK 2's `Workflow`), no agent names the next one: the structure does, and
the trace must say which declared edge a turn took. The agent that spoke last is usually it, but
not after a fork, whose parallel branches each follow the agent before the fork (not a sibling
that happened to speak first), nor after a join, whose agent follows every branch.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Handovers:
    declared: dict[tuple[str, str], str]  # (from, to) -> trigger, the spec's edges of this kind
    default: str = "sequence"  # the trigger of a hand-over no declared edge explains
    spoken: list[str] = field(default_factory=list)  # who ran, each at its latest turn, last last

    def ran(self, agent: str) -> list[tuple[str, str]]:
        """`agent` runs: (source, trigger) of each hand-over to it, none when it is the first
        to run or runs again right after itself. A source is each agent that may hand over to
        it (a declared edge) and ran since `agent` last did, unless an agent it hands over to
        that hands over to `agent` too ran after it (`a -> b -> c` is not also `a -> c`); with
        none, the agent that ran last."""
        out: list[tuple[str, str]] = []
        if self.spoken and self.spoken[-1] != agent:
            for i, source in enumerate(self.spoken):
                later = self.spoken[i + 1:]
                if source != agent and (source, agent) in self.declared and agent not in later \
                        and not any((source, b) in self.declared and (b, agent) in self.declared
                                    for b in later):
                    out.append((source, self.declared[(source, agent)]))
            out = out or [(self.spoken[-1], self.default)]
        if agent in self.spoken:
            self.spoken.remove(agent)
        self.spoken.append(agent)
        return out
