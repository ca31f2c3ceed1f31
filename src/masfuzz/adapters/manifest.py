"""A manifest alone becomes runnable: the structural-coverage paper's runtime adapter (§III-D).

Each reachable agent of the `WorkflowSpec` is materialised as an Agents SDK `Agent` (named by
its id, instructed by the spec's instructions or description), each allowed tool edge as a
recording stub that answers with a canned success payload (the paper mocks tool backends so
that witnesses measure structure, not services), each `as_tool` delegation as `Agent.as_tool`
and every other delegation as a native SDK handoff. The run itself is the Agents SDK adapter's,
so traces, faults and restricted-tool modes behave the same as on a real app.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from masfuzz.adapters.base import Adapter
from masfuzz.llm.settings import sut_client
from masfuzz.scenario import Scenario
from masfuzz.spec.model import AgentSpec, WorkflowSpec
from masfuzz.trace import Trace

FRAMEWORK = "manifest"


def materialise(spec: WorkflowSpec) -> tuple[Any, Any]:
    """(entry Agent, Walk with the spec's ids) for the reachable part of `spec`."""
    from masfuzz.adapters.openai_agents import sdk
    from masfuzz.adapters.openai_agents.extract import walk
    from masfuzz.graph.coordination import CoordinationGraph

    agents_mod = sdk.require()
    reachable = CoordinationGraph(spec).reachable
    made: dict[str, Any] = {}
    for ident in reachable:
        a = spec.agent(ident)
        made[ident] = agents_mod.Agent(name=ident, instructions=_instructions(a),
                                       handoff_description=a.description or None)
    tools = {t.id: t for t in spec.tools}
    as_tool_names: dict[tuple[str, str], str] = {}
    for d in spec.delegations:
        if d.trigger == "as_tool" and d.from_ in made and d.to in made:
            as_tool_names[d.edge] = _as_tool_name(spec, d.from_, d.to, as_tool_names)
    agent_tools = set(as_tool_names.values())
    for a, t in dict.fromkeys(spec.permissions.allow):
        if a in made and t in tools and t not in agent_tools:
            made[a].tools.append(_recording_stub(agents_mod, tools[t]))
    for d in spec.delegations:
        if d.from_ not in made or d.to not in made:
            continue
        source, target = made[d.from_], made[d.to]
        if d.trigger == "as_tool":
            name = as_tool_names[d.edge]
            description = tools[name].description if name in tools else ""
            source.tools.append(target.as_tool(tool_name=name, tool_description=description
                                               or f"Ask {d.to}"))
        elif target not in source.handoffs:
            source.handoffs.append(target)
    entry = made[spec.system.entry_agent]
    w = walk(entry)
    w.ids = {id(obj): ident for ident, obj in made.items()}
    return entry, w


def _instructions(a: AgentSpec) -> str:
    if a.instructions:
        return a.instructions
    about = f" {a.description}" if a.description else ""
    return f"You are the {a.id} agent of this workflow.{about}"


def _as_tool_name(spec: WorkflowSpec, owner: str, inner: str, taken: dict) -> str:
    """The tool edge of `owner` that stands for its `as_tool` delegation to `inner`: an
    agent-kind tool naming the inner agent, else the owner's next unused agent-kind tool, else
    a new name."""
    used = set(taken.values())
    mine = [t for a, t in spec.permissions.allow if a == owner and t not in used]
    kinds = {t.id: t.kind for t in spec.tools}
    agent_tools = [t for t in mine if kinds.get(t) == "agent"]
    for t in agent_tools:
        if inner in t:
            return t
    return agent_tools[0] if agent_tools else inner


def _recording_stub(agents_mod: Any, tool: Any) -> Any:
    async def answer(ctx: Any, raw_arguments: str) -> str:
        try:
            args = json.loads(raw_arguments or "{}")
        except ValueError:
            args = raw_arguments
        return json.dumps({"tool": tool.id, "status": "ok", "arguments": args})

    return agents_mod.FunctionTool(
        name=tool.id, description=tool.description or f"The {tool.id} tool.",
        params_json_schema=dict(tool.parameters) or {"type": "object", "properties": {}},
        on_invoke_tool=answer, strict_json_schema=False,
    )


class ManifestAdapter(Adapter):
    framework: ClassVar[str] = FRAMEWORK
    extra: ClassVar[str] = "openai-agents"

    def __init__(self) -> None:
        self._built: dict[int, tuple[Any, Any]] = {}

    @classmethod
    def accepts(cls, obj: Any) -> bool:
        return isinstance(obj, WorkflowSpec)

    def extract(self, obj: Any, *, target: str = "") -> WorkflowSpec:
        return obj

    def model_places(self, obj: Any, spec: WorkflowSpec) -> dict[str, list[str]]:
        return {a.id: ["the agent masfuzz builds from the manifest"] for a in spec.agents}

    async def run(self, obj: Any, spec: WorkflowSpec, scenario: Scenario) -> Trace:
        from masfuzz.adapters.openai_agents.run import run_scenario

        built = self._built.get(id(spec))
        if built is None:
            built = self._built[id(spec)] = materialise(spec)
        entry, w = built
        return await run_scenario(entry, w, spec, scenario, sut_client, framework=FRAMEWORK)


ADAPTER = ManifestAdapter
