"""The PydanticAI adapter: extract a `WorkflowSpec` from an `Agent`, run scenarios on it.

Modules: `extract` (the static walk: agents, tools, agent delegation through tools), `bridge`
(masfuzz's model as each agent's `FunctionModel`), `recording` (trace events, and the toolset
wrapper that records tool calls and injects faults), `pipeline` (programmatic hand-off: the
app's own code running agents in turn), `mutate` (workflow mutants), `run` (one scenario).
"""

from __future__ import annotations

from typing import Any, ClassVar

from masfuzz.adapters.base import WalkingAdapter
from masfuzz.adapters.pydantic_ai.extract import FRAMEWORK, Walk, extract, is_agent, walk
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import Trace


class PydanticAIAdapter(WalkingAdapter):
    framework: ClassVar[str] = FRAMEWORK
    extra: ClassVar[str] = "pydantic-ai"
    model_setting: ClassVar[str] = "Agent.override(model=...)"

    @classmethod
    def accepts(cls, obj: Any) -> bool:
        from masfuzz.adapters.pydantic_ai.graph import is_graph
        from masfuzz.adapters.pydantic_ai.pipeline import AgentPipeline

        return is_agent(obj) or isinstance(obj, AgentPipeline) or is_graph(obj)

    def model_places(self, obj: Any, spec: WorkflowSpec) -> dict[str, list[str]]:
        # every agent's model is overridden, one without a model of its own included
        return {a.id: [self.model_setting] for a in spec.agents}

    def extract(self, obj: Any, *, target: str = "") -> WorkflowSpec:
        spec, w = extract(obj, target=target)
        self.keep_walk(obj, w)
        return spec

    def fresh_walk(self, obj: Any, spec: WorkflowSpec) -> Walk:
        return walk(obj, spec.system.entry_agent)

    @property
    def mutation_operators(self) -> frozenset[str]:
        from masfuzz.adapters.pydantic_ai.mutate import OPERATORS

        return OPERATORS

    def mutation_problem(self, obj: Any, spec: WorkflowSpec, mutation: Any) -> str | None:
        from masfuzz.adapters.pydantic_ai.mutate import problem

        return problem(self.walk_of(obj, spec), mutation)

    async def run(self, obj: Any, spec: WorkflowSpec, scenario: Scenario) -> Trace:
        from masfuzz.adapters.pydantic_ai.run import run_scenario
        from masfuzz.llm.settings import sut_client

        return await run_scenario(obj, self.walk_of(obj, spec), spec, scenario, sut_client)


ADAPTER = PydanticAIAdapter

__all__ = ["ADAPTER", "PydanticAIAdapter", "extract", "tools_of", "walk"]


def capture(obj: Any, target: str) -> Any:
    """An app running its agents one after another in plain Python (`app.py`, `app.py:main`):
    its pipeline (`pipeline.capture`). Called by `masfuzz.adapters.base.resolve`."""
    from masfuzz.adapters.pydantic_ai.pipeline import capture as pipeline

    return pipeline(obj, target)


def tools_of(agent: Any, notes: list[str]) -> list[Any]:
    """Tool fuzzing's hook: the function tools reachable from `agent`, as `inspect` counts them:
    a tool that takes no run context as its plain function (what PydanticAI calls with the
    model's arguments), one that takes a `RunContext` as its PydanticAI `Tool`, for the tool
    fuzzer's PydanticAI support to call with a context."""
    w = walk(agent)
    notes.extend(w.notes)
    out: list[Any] = []
    seen: set[str] = set()
    for edge in w.tools:
        if edge.kind != "function":
            notes.append(f"tool {edge.name!r} ({edge.kind}) has no Python function to fuzz; skipped")
        elif edge.name not in seen:
            seen.add(edge.name)
            out.append(edge.tool if edge.tool.takes_ctx else edge.tool.function)
    return out


def prepare_worker_template() -> None:
    """What the pool's template process does once for every worker it forks
    (`masfuzz.exec.template`): import the run module and what it imports (the fault library, the
    detectors behind it), which each worker's first run imported and the worker again after it.
    No thread starts."""
    import masfuzz.adapters.pydantic_ai.run  # noqa: F401
