"""Restricted-tool probes (structural-coverage §III-A, C3): each agent's restricted tools,
offered to its model as stubs by the adapters that add tools to a model request, so that a call
is recorded as a restricted attempt (and refused, as the framework refuses a tool the agent
does not have).

No agent is offered the tool that stands for itself: an agent lent to another as a tool (ADK's
`AgentTool`, an Agents SDK `as_tool`, a PydanticAI tool that runs an agent) is a tool the agent
does not own, but calling it reaches for no other agent's power, and the app as written offers
no agent itself; a model reading its own name in the offer would make a finding on a correct app.
"""

from __future__ import annotations

import re

from masfuzz.graph.coordination import CoordinationGraph
from masfuzz.llm.types import ToolDef
from masfuzz.spec.model import WorkflowSpec


def restricted_probes(spec: WorkflowSpec) -> dict[str, tuple[ToolDef, ...]]:
    """agent -> its restricted tools as `ToolDef`s (none that stands for the agent itself)."""
    out: dict[str, list[ToolDef]] = {}
    for agent, tool in CoordinationGraph(spec).obligations().by_kind("restrict_tool").keys():
        if stands_for(spec, tool, agent):
            continue
        t = spec.tool(tool)
        out.setdefault(agent, []).append(ToolDef(name=t.id, description=t.description, parameters=t.parameters
                                                 or {"type": "object", "properties": {}}))
    return {a: tuple(ts) for a, ts in out.items()}


def stands_for(spec: WorkflowSpec, tool: str, agent: str) -> bool:
    """Does `tool` run `agent` (the agent lent as a tool)? Read from the spec's structure: an
    tool named as the agent, or one an `as_tool` delegation to the agent names in its condition
    (ADK, PydanticAI and AgentChat write the tool there; PydanticAI's is a function tool), or the only agent-kind tool
    of a holder whose only `as_tool` delegation goes to the agent (an Agents SDK `as_tool` with a
    name of its own)."""
    if tool == agent:
        return True
    kinds = {t.id: t.kind for t in spec.tools}
    bound = re.compile(rf"(?<!\w){re.escape(tool)}(?!\w)")
    for holder in {a for a, t in spec.permissions.allow if t == tool}:
        lent = {d.to: d.condition for d in spec.delegations if d.from_ == holder and d.trigger == "as_tool"}
        if agent in lent and bound.search(lent[agent] or ""):
            return True  # whatever its kind: a PydanticAI tool that runs an agent is a function
        own = [t for a, t in spec.permissions.allow if a == holder and kinds.get(t) == "agent"]
        if set(lent) == {agent} and own == [tool]:
            return True
    return False
