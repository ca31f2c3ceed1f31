"""pydantic-graph graphs whose nodes run PydanticAI agents: the graph is the workflow.

pydantic-graph (`GraphBuilder(...).build()`) runs steps (functions) and `BaseNode` classes; a
node's outgoing edges are its `run` method's return type (`-> Feedback | End[Email]`, a
decision node between them when there are several), a step's are the builder's `edge_from(...)`
paths, with decisions, forks (parallel branches) and joins in between. The graph itself has no
agents: a node's code runs them (`await feedback_agent.run(prompt)`), read as PydanticAI's tool
delegations are read (`extract.agents_run_by`). So the agents are the agents the nodes' code
runs, and the coordination graph is the node graph seen through them: an edge from a node
running agent `a` to the nearest nodes running an agent `b` (through the nodes that run none:
steps of plain code, decisions, forks, joins) is a `graph_edge` delegation `a -> b`, and two
agents one node runs in turn are a `sequence`. Nothing of the graph runs here.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from masfuzz.adapters.pydantic_ai.extract import agents_run_by, instance_of

START, END = "__start__", "__end__"  # pydantic-graph's own ids of its start and end nodes


def is_graph(obj: Any) -> bool:
    return instance_of(obj, "pydantic_graph", "Graph")


@dataclass
class GraphPlan:
    """A graph's nodes in the order a run can first reach them, what each runs, and its edges."""

    graph: Any
    order: list[str] = field(default_factory=list)  # node ids, breadth first from the start
    agents: dict[str, list[tuple[Any, str]]] = field(default_factory=dict)  # node -> (agent, found as)
    successors: dict[str, list[str]] = field(default_factory=dict)

    def agent_nodes(self) -> list[str]:
        return [n for n in self.order if self.agents.get(n)]

    def next_agent_nodes(self, node: str) -> list[str]:
        """The nearest nodes that run an agent after `node`, through the nodes that run none
        (`node` itself again when a loop comes back to it)."""
        out: list[str] = []
        seen: set[str] = set()
        queue = deque(self.successors.get(node, ()))
        while queue:
            n = queue.popleft()
            if n in seen:
                continue
            seen.add(n)
            if self.agents.get(n):
                out.append(n)
            else:
                queue.extend(self.successors.get(n, ()))
        return out

    def ends(self, node: str) -> bool:
        """Can the graph end after `node` without another agent running?"""
        seen: set[str] = set()
        queue = deque(self.successors.get(node, ()))
        while queue:
            n = queue.popleft()
            if n == END:
                return True
            if n in seen or self.agents.get(n):
                continue
            seen.add(n)
            queue.extend(self.successors.get(n, ()))
        return False


def plan(graph: Any) -> GraphPlan:
    p = GraphPlan(graph)
    for node_id in graph.nodes:
        p.successors[str(node_id)] = _successors(graph, node_id)
    queue, seen = deque([START]), {START}
    while queue:
        node_id = queue.popleft()
        p.order.append(node_id)
        node = graph.nodes.get(node_id)
        function = node_function(node)
        # the agents its code runs, and those of the helpers it calls (`await self.ask(...)`)
        p.agents[node_id] = agents_run_by(function, getattr(node, "node_type", None)) if function else []
        for n in p.successors.get(node_id, ()):
            if n not in seen:
                seen.add(n)
                queue.append(n)
    return p


def node_function(node: Any) -> Any:
    """The user's code a node runs: a `BaseNode`'s `run`, a step's function; None for the
    graph's own nodes (start, end, decisions, forks, joins)."""
    from pydantic_graph import Step

    node_type = getattr(node, "node_type", None)
    if node_type is not None:  # a BaseNode class (NodeStep)
        return getattr(node_type, "run", None)
    return node.call if isinstance(node, Step) else None


def _successors(graph: Any, node_id: Any) -> list[str]:
    from pydantic_graph import Decision

    paths = list(graph.edges_by_source.get(node_id, ()))
    node = graph.nodes.get(node_id)
    if isinstance(node, Decision):
        paths += [b.path for b in node.branches]
    out: list[str] = []
    for path in paths:
        for item in path.items:
            dest = getattr(item, "destination_id", None)
            if dest is not None and str(dest) not in out:
                out.append(str(dest))
    return out


def label(node_id: str) -> str:
    return {START: "start", END: "End"}.get(node_id, node_id)
