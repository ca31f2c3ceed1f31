"""The workflow as black-box runs showed it (what coverage is measured against without --spec)."""

from __future__ import annotations

from typing import Any

from masfuzz.errors import MasfuzzError
from masfuzz.spec.model import (
    AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec,
)
from masfuzz.trace import (
    OFFERED_HANDOFFS, OFFERED_TOOLS, AgentTurn, DelegationEvent, ToolCall, Trace,
)

def spec_from_traces(traces: list[Trace], system_id: str = "") -> WorkflowSpec:
    """The workflow as black-box runs showed it: the agents that called the model, the tools each
    was offered (allowed edges, whether called or not), the hand-overs seen (delegations).

    Honest about what it is: C1 and C4 over this spec are complete by construction for the runs
    it came from (an agent or edge is only known once seen); C2 says which offered tools were
    used; C3 is closed-world over the tools seen. Give a spec from the app's own objects or a
    manifest (`--spec`) to measure against what the app declares instead.
    """
    agents: dict[str, None] = {}
    tools: dict[str, dict[str, Any]] = {}
    allow: dict[tuple[str, str], None] = {}
    edges: dict[tuple[str, str], str] = {}
    declared = False  # a log declared agents or routes beyond those its runs showed
    for trace in traces:
        offered = trace.meta.get(OFFERED_TOOLS) or {}
        for e in trace.events:
            if isinstance(e, AgentTurn):
                agents.setdefault(e.agent)
            elif isinstance(e, ToolCall):
                tools.setdefault(e.tool, {})
                allow.setdefault((e.agent, e.tool))
            elif isinstance(e, DelegationEvent):
                edges.setdefault((e.from_, e.to), e.trigger)
        for agent, docs in offered.items():
            declared = declared or agent not in agents  # offered to an agent that never acted
            agents.setdefault(agent)
            for name, doc in docs.items():
                tools[name] = doc or tools.get(name) or {}
                allow.setdefault((agent, name))
        for agent, targets in (trace.meta.get(OFFERED_HANDOFFS) or {}).items():
            agents.setdefault(agent)
            for target in targets:
                agents.setdefault(target)
                edges.setdefault((agent, target), "handoff")
        declared = declared or bool(trace.meta.get(OFFERED_HANDOFFS))
    if not agents:
        raise MasfuzzError("no agent called the model: there is no observed workflow to cover")
    pattern = "selector" if "selector" in edges.values() else "orchestrated"
    return WorkflowSpec(
        system=SystemInfo(id=system_id or traces[0].system_id or "blackbox",
                          entry_agent=next(iter(agents)), framework="blackbox", pattern=pattern),
        agents=tuple(AgentSpec(id=a) for a in agents),
        tools=tuple(ToolSpec(id=n, description=str(doc.get("description") or ""),
                             parameters=dict(doc.get("parameters") or {})) for n, doc in tools.items()),
        permissions=Permissions(allow=tuple(allow), restrict_mode="closed_world"),
        delegations=tuple(Delegation(**{"from": f, "to": t}, trigger=trig)  # type: ignore[arg-type]
                          for (f, t), trig in edges.items()),
        notes=(f"observed spec: derived from {len(traces)} run(s) and the agents and hand-overs they declared; "
               "C1 and C4 count the declared ones not reached" if declared else
               f"observed spec: derived from {len(traces)} black-box run(s); its agents and "
               "delegations are only those seen, so C1 and C4 are complete by construction",),
    )


