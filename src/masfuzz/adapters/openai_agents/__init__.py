"""The OpenAI Agents SDK adapter: extract a `WorkflowSpec` from an `Agent`, run scenarios on it.

Modules: `sdk` (everything read from the SDK, with fallbacks across versions), `extract` (the
static walk), `locate` (file:line of agents and tools), `bridge` (the SUT model as an
`agents.Model`), `recording` (tracing spans -> trace events), `tools` (error capture, faults,
restricted-tool stubs), `mutate` (workflow mutants applied for one run), `run` (one scenario).
"""

from __future__ import annotations

from typing import Any, ClassVar

from masfuzz.adapters.base import WalkingAdapter
from masfuzz.adapters.openai_agents import sdk
from masfuzz.adapters.openai_agents.extract import FRAMEWORK, Walk, extract, walk
from masfuzz.llm.settings import sut_client
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import Trace


class OpenAIAgentsAdapter(WalkingAdapter):
    framework: ClassVar[str] = FRAMEWORK
    extra: ClassVar[str] = "openai-agents"

    @classmethod
    def accepts(cls, obj: Any) -> bool:
        from masfuzz.adapters.openai_agents.pipeline import Pipeline

        return sdk.is_agent(obj) or isinstance(obj, Pipeline)

    def model_places(self, obj: Any, spec: WorkflowSpec) -> dict[str, list[str]]:
        return {a.id: ["Agent.model"] for a in spec.agents}  # an agent without one gets the SDK's default

    def extract(self, obj: Any, *, target: str = "", module: Any = None) -> WorkflowSpec:
        if module is None and target:
            module = _module_of(target)
        spec, w = extract(obj, target=target, module=module)
        self.keep_walk(obj, w)
        return spec

    def fresh_walk(self, obj: Any, spec: WorkflowSpec) -> Walk:
        return walk(obj)

    @property
    def mutation_operators(self) -> frozenset[str]:
        from masfuzz.adapters.openai_agents.mutate import OPERATORS

        return OPERATORS

    def mutation_problem(self, obj: Any, spec: WorkflowSpec, mutation: Any) -> str | None:
        from masfuzz.adapters.openai_agents.mutate import problem

        return problem(self.walk_of(obj, spec), mutation)

    def prepare(self, obj: Any) -> None:
        from masfuzz.adapters.openai_agents.recording import dispatch

        from masfuzz.adapters.openai_agents.bridge import complete_types

        dispatch()  # the SDK's trace provider, made on first use with an HTTP client of its own
        complete_types()

    async def run(self, obj: Any, spec: WorkflowSpec, scenario: Scenario) -> Trace:
        from masfuzz.adapters.openai_agents.run import run_scenario

        return await run_scenario(obj, self.walk_of(obj, spec), spec, scenario, sut_client, framework=FRAMEWORK)


def _module_of(target: str) -> Any:
    """The already-imported module a target names (for locating sources); None if unknown."""
    import sys

    from masfuzz.loader import split_target

    where, _ = split_target(target)
    if where.endswith(".py"):
        from pathlib import Path

        try:
            path = Path(where).resolve()
        except OSError:
            return None
        for mod in list(sys.modules.values()):
            file = getattr(mod, "__file__", None)
            if file and Path(file) == path:
                return mod
        return None
    return sys.modules.get(where)


ADAPTER = OpenAIAgentsAdapter

__all__ = ["ADAPTER", "OpenAIAgentsAdapter", "extract", "walk"]


def tools_of(agent: Any, notes: list[str]) -> list[Any]:
    """Tool fuzzing's hook: the function tools reachable from `agent`, as `inspect` counts them."""
    w = walk(agent)
    notes.extend(w.notes)
    out = []
    for edge in w.tools:
        if edge.kind == "function":
            out.append(edge.tool)
        else:
            notes.append(f"tool {edge.name!r} ({edge.kind}) has no Python function to fuzz; skipped")
    for agent_obj in w.agents:  # an MCP server's tools: fuzzed from the server, in the sandbox
        for server in list(getattr(agent_obj, "mcp_servers", None) or ()):
            out.append(mcp_server_params(server))
    return out


def capture(obj: Any, target: str) -> Any:
    """A module or a function of an app that runs its agents one after another in plain
    Python (`app.py`, `app.py:main`) is that pipeline, run by calling its function, and so is a
    function that builds its agent and runs it (None otherwise). Called by
    `masfuzz.adapters.base.resolve`; nothing of the app runs here but such a function, up to
    its first run (`pipeline.built_pipeline`)."""
    from masfuzz.adapters.openai_agents.pipeline import built_pipeline, pipeline_of
    from masfuzz.errors import TargetError

    try:
        return pipeline_of(obj, sdk.is_agent) or built_pipeline(obj)
    except TargetError as exc:
        raise TargetError(f"{target}: {exc}") from None


def mcp_server_params(server: Any) -> dict[str, Any]:
    """Where an Agents SDK MCP server is, as `masfuzz.toolfuzz.mcp.server_from_params` takes
    it: {"command", "args"} for stdio, {"url"} for streamable HTTP and SSE."""
    params = dict(getattr(server, "params", None) or {})
    name = getattr(server, "name", None) or type(server).__name__
    return {"mcp_server": name, "command": params.get("command"), "args": list(params.get("args") or ()),
            "url": params.get("url")}


def tool_context(agent: Any, factory: str | None = None) -> Any:
    """Tool fuzzing's hook: a function making, for one tool, the context the tool receives when
    a run calls it: a `RunContextWrapper` around the run's context (the `--context` factory's,
    else the one masfuzz's runs give the entry agent), on which the hooks of the handoffs leading
    from the entry to the tool's agent (`handoff(on_handoff=...)`) have run, as they run in a
    conversation that reaches that agent. Called directly with a bare context, a tool fails on
    what a hook sets (the SDK example's seat agent asserts the flight number its handoff hook
    sets), which no run of the app can do."""
    from masfuzz.adapters.openai_agents.run import run_context
    from masfuzz.loader import load_callable

    w = walk(agent)
    wrapper = sdk.require().RunContextWrapper
    made = load_callable(factory, "--context") if factory else None  # here, not in the sandbox

    def make(tool: Any) -> Any:
        ctx = wrapper(context=run_context(factory, agent, made))
        for handoff in _handoffs_to(w, tool):
            _run_hook(handoff, ctx)
        return ctx

    return make


def _handoffs_to(w: Walk, tool: Any) -> list[Any]:
    """The handoffs on the shortest way from the entry to the first agent owning `tool`."""
    owner = next((e.owner for e in w.tools if e.tool is tool), None)
    if owner is None or not w.agents:
        return []
    way: dict[int, list[Any]] = {id(w.agents[0]): []}
    frontier = [w.agents[0]]
    while frontier and id(owner) not in way:
        step = []
        for source in frontier:
            for edge in w.delegations:
                if edge.source is source and id(edge.target) not in way:
                    hook = [edge.via] if edge.trigger == "handoff" and hasattr(edge.via, "on_invoke_handoff") else []
                    way[id(edge.target)] = way[id(source)] + hook
                    step.append(edge.target)
        frontier = step
    return way.get(id(owner), [])


def _run_hook(handoff: Any, ctx: Any) -> None:
    """A handoff's hook run on `ctx`, with placeholder arguments when it takes an input. A hook
    that fails here leaves the context as it got it: the hook itself is judged where it runs for
    real, in the system's runs, and the tool is called all the same."""
    import json

    from masfuzz.adapters.syncrun import run_coroutine_sync
    from masfuzz.placeholders import placeholders

    schema = getattr(handoff, "input_json_schema", None) or {}
    try:
        run_coroutine_sync(handoff.on_invoke_handoff(ctx, json.dumps(placeholders(schema)) if schema else None))
    except Exception:
        pass


def prepare_worker_template() -> None:
    """What the pool's template process does once for every worker it forks
    (`masfuzz.exec.template`): the SDK's trace provider, made on a worker's first run, imports
    its HTTP stack and builds an exporter (a tenth of a second of CPU or more); the run module
    and what it imports (the fault library, the detectors' patterns behind it), which each
    worker's first run imported, and the worker again after it (`worker._import`): a tenth of a
    second each, twice per worker. No thread starts."""
    import masfuzz.adapters.openai_agents.run  # noqa: F401
    from masfuzz.adapters.openai_agents.recording import dispatch

    dispatch()
