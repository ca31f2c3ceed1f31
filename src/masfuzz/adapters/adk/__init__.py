"""The Google ADK adapter: extract a `WorkflowSpec` from a root agent, run scenarios on it.

Modules: `extract` (the static walk of the agent tree: sub-agents, transfers, workflow agents,
ADK 2's graph workflows, agent tools, tools), `bridge` (masfuzz's model as an ADK `BaseLlm`, one per `LlmAgent`),
`recording` (an ADK plugin recording the run as trace events, with tool faults and stubs),
`mutate` (workflow mutants applied for one run), `run` (one scenario on an `InMemoryRunner`). ADK is imported only when a target uses it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from masfuzz.adapters.base import WalkingAdapter
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import Trace

FRAMEWORK = "adk"


class ADKAdapter(WalkingAdapter):
    framework: ClassVar[str] = FRAMEWORK
    extra: ClassVar[str] = "adk"
    model_setting: ClassVar[str] = "LlmAgent.model"

    @classmethod
    def accepts(cls, obj: Any) -> bool:
        from google.adk.agents import BaseAgent

        from masfuzz.adapters.adk.extract import is_workflow

        return isinstance(obj, BaseAgent) or is_workflow(obj)

    def extract(self, obj: Any, *, target: str = "") -> WorkflowSpec:
        from masfuzz.adapters.adk.extract import extract

        spec, w = extract(obj, target=target)
        self.keep_walk(obj, w)
        return spec

    def fresh_walk(self, obj: Any, spec: WorkflowSpec) -> Any:
        from masfuzz.adapters.adk.extract import walk

        return walk(obj)

    def model_places(self, obj: Any, spec: WorkflowSpec) -> dict[str, list[str]]:
        """Every `LlmAgent` (an agent with a model, its own or inherited); none for the
        workflow agents, which run their sub-agents without a model."""
        return {a.id: [self.model_setting] if a.model else [] for a in spec.agents}

    @property
    def mutation_operators(self) -> frozenset[str]:
        from masfuzz.adapters.adk.mutate import OPERATORS

        return OPERATORS

    def mutation_problem(self, obj: Any, spec: WorkflowSpec, mutation: Any) -> str | None:
        from masfuzz.adapters.adk.mutate import problem

        return problem(self.walk_of(obj, spec), mutation)

    async def run(self, obj: Any, spec: WorkflowSpec, scenario: Scenario) -> Trace:
        from masfuzz.adapters.adk.run import run_scenario
        from masfuzz.llm.settings import sut_client

        return await run_scenario(obj, self.walk_of(obj, spec), spec, scenario, sut_client)


ADAPTER = ADKAdapter

__all__ = ["ADAPTER", "ADKAdapter", "tools_of"]


def tools_of(root: Any, notes: list[str]) -> list[Any]:
    """Tool fuzzing's hook: the Python functions of the function tools reachable from `root`,
    as `inspect` counts them (an ADK `FunctionTool` calls its `func` with the model's arguments;
    an agent tool or a built-in tool has none to fuzz)."""
    import inspect

    from masfuzz.adapters.adk.extract import walk

    w = walk(root)
    notes.extend(w.notes)
    out, seen = [], set()
    for edge in w.tools:
        func = getattr(edge.tool, "func", None)
        if edge.kind != "function" or func is None:
            notes.append(f"tool {edge.name!r} ({edge.kind}) has no Python function to fuzz; skipped")
        elif "tool_context" in inspect.signature(func).parameters:
            notes.append(f"tool {edge.name!r} takes ADK's tool_context, which only a run gives "
                         "(its session, its actions); skipped")
        elif edge.name not in seen:
            seen.add(edge.name)
            out.append(func)
    return out


def prepare_worker_template() -> None:
    """What the pool's template process does once for every worker it forks
    (`masfuzz.exec.template`): import what a run uses (ADK's agents, runner and plugin base,
    about 2 s of CPU) and make the bridge and plugin classes; the run module and what it
    imports (the fault library, the detectors behind it), which each worker's first run imported
    and the worker again after it. No thread starts."""
    import google.adk.runners  # noqa: F401

    import masfuzz.adapters.adk.run  # noqa: F401
    from masfuzz.adapters.adk.bridge import bridge_class
    from masfuzz.adapters.adk.recording import plugin_class

    bridge_class()
    plugin_class()
