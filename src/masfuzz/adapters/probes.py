"""Restricted-tool probes (structural-coverage §III-A, C3): each agent's restricted tools,
offered to its model as stubs by the adapters that add tools to a model request, so that a call
is recorded as a restricted attempt (and refused, as the framework refuses a tool the agent
does not have)."""

from __future__ import annotations

from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.llm.types import ToolDef
from masfuzz.spec.model import WorkflowSpec


def restricted_probes(spec: WorkflowSpec) -> dict[str, tuple[ToolDef, ...]]:
    """agent -> its restricted tools as `ToolDef`s."""
    out: dict[str, list[ToolDef]] = {}
    for agent, tool in CoordinationGraph(spec).obligations().by_kind("restrict_tool").keys():
        t = spec.tool(tool)
        out.setdefault(agent, []).append(ToolDef(name=t.id, description=t.description, parameters=t.parameters
                                                 or {"type": "object", "properties": {}}))
    return {a: tuple(ts) for a, ts in out.items()}
