"""The CrewAI adapter: extract a `WorkflowSpec` from a crew, run scenarios on it.

A target is a `Crew`, or a `@CrewBase` class (or instance) of a CrewAI project: its `@crew`
method builds the crew, as `crewai run` does. Modules: `extract` (the static walk: agents,
tasks and their context, the process and its manager, delegation, tools), `bridge` (masfuzz's
model as a CrewAI `BaseLLM`), `run` (one scenario on `Crew.kickoff`, recorded by the bridge and
CrewAI's tool-call hooks, with tool faults and stubs), `mutate` (workflow mutants for one run). CrewAI is imported only when a target
uses it; it needs an environment of its own (`make crewai`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from masfuzz.adapters.base import WalkingAdapter
from masfuzz.errors import TargetError
from masfuzz.scenario import Scenario
from masfuzz.spec.model import WorkflowSpec
from masfuzz.trace import Trace

FRAMEWORK = "crewai"


def is_crew_project(obj: Any) -> bool:
    cls = obj if isinstance(obj, type) else type(obj)
    return bool(getattr(cls, "is_crew_class", False))


def crew_of(obj: Any) -> Any:
    """The `Crew` a target stands for: itself, or what its `@crew` method builds."""
    from crewai import Crew

    from masfuzz.loader import call_user

    if isinstance(obj, Crew):
        return obj
    cls = obj if isinstance(obj, type) else type(obj)
    builders = [name for name, value in vars(cls).items() if _is_crew_method(value)]
    if len(builders) != 1:
        raise TargetError(f"{cls.__name__}: a CrewAI project class needs exactly one "
                          f"@crew method (found {len(builders)})")
    # the app's own code runs here (its YAML, its agents): what it raises is a load error
    instance = call_user(cls, failed=f"{cls.__name__}()") if isinstance(obj, type) else obj
    return call_user(getattr(instance, builders[0]), failed=f"{cls.__name__}.{builders[0]}()")


def _is_crew_method(value: Any) -> bool:
    """A method `@crew` made: CrewAI keeps no mark on it, but its chain of wrapped functions
    holds the decorator's own `wrapper` (from crewai.project)."""
    while callable(value):
        code = getattr(value, "__code__", None)
        if code is not None and code.co_name == "wrapper" and "crewai" in code.co_filename \
                and "project" in code.co_filename:
            return True
        value = getattr(value, "__wrapped__", None)
    return False


class CrewAIAdapter(WalkingAdapter):
    framework: ClassVar[str] = FRAMEWORK
    extra: ClassVar[str] = "crewai"
    model_setting: ClassVar[str] = "Agent.llm"

    @classmethod
    def accepts(cls, obj: Any) -> bool:
        from crewai import Crew

        from masfuzz.adapters.crewai.flow import is_flow

        return isinstance(obj, Crew) or is_crew_project(obj) or is_flow(obj)

    def prepare(self, obj: Any) -> None:
        from masfuzz.adapters.crewai.flow import is_flow
        from masfuzz.adapters.crewai.run import quiet

        quiet()
        if is_flow(obj):  # every Flow() makes a Memory, whose storage import takes seconds
            import crewai.memory.storage.lancedb_storage  # noqa: F401

    def extract(self, obj: Any, *, target: str = "") -> WorkflowSpec:
        from masfuzz.adapters.crewai.extract import extract
        from masfuzz.adapters.crewai.flow import extract_flow, is_flow
        from masfuzz.adapters.crewai.run import quiet

        quiet()
        spec, w = extract_flow(obj, target=target) if is_flow(obj) else extract(crew_of(obj), target=target)
        self.keep_walk(obj, w)
        return spec

    def fresh_walk(self, obj: Any, spec: WorkflowSpec) -> Any:
        from masfuzz.adapters.crewai.extract import walk
        from masfuzz.adapters.crewai.flow import is_flow, walk_flow

        return walk_flow(obj) if is_flow(obj) else walk(crew_of(obj))

    def model_places(self, obj: Any, spec: WorkflowSpec) -> dict[str, list[str]]:
        """Every agent has a model in CrewAI (its own `llm`, or CrewAI's default)."""
        from masfuzz.adapters.crewai.extract import MANAGER_ROLE, slug

        return {a.id: ["Crew.manager_llm" if a.id == slug(MANAGER_ROLE) else self.model_setting]
                for a in spec.agents}

    @property
    def mutation_operators(self) -> frozenset[str]:
        from masfuzz.adapters.crewai.mutate import OPERATORS

        return OPERATORS

    def mutation_problem(self, obj: Any, spec: WorkflowSpec, mutation: Any) -> str | None:
        from masfuzz.adapters.crewai.mutate import problem

        from masfuzz.adapters.crewai.flow import FlowWalk

        w = self.walk_of(obj, spec)
        if isinstance(w, FlowWalk):
            return "not applicable on a CrewAI Flow (its crews are made inside its methods)"
        return problem(w, mutation)

    async def run(self, obj: Any, spec: WorkflowSpec, scenario: Scenario) -> Trace:
        from masfuzz.adapters.crewai.run import run_scenario
        from masfuzz.llm.settings import sut_client

        from masfuzz.adapters.crewai.flow import FlowWalk
        from masfuzz.adapters.crewai.run import run_flow

        w = self.walk_of(obj, spec)
        if isinstance(w, FlowWalk):
            return await run_flow(w, spec, scenario, sut_client)
        return await run_scenario(w.crew, w, spec, scenario, sut_client)


ADAPTER = CrewAIAdapter

__all__ = ["ADAPTER", "CrewAIAdapter", "tools_of"]


def tools_of(obj: Any, notes: list[str]) -> list[Any]:
    """Tool fuzzing's hook: the CrewAI tools of the crew's agents and tasks, as `inspect`
    counts them (tool fuzzing calls a CrewAI tool through its own methods)."""
    from masfuzz.adapters.crewai.extract import walk
    from masfuzz.adapters.crewai.flow import is_flow, walk_flow

    w = walk_flow(obj) if is_flow(obj) else walk(crew_of(obj))
    notes.extend(w.notes)
    out, seen = [], set()
    for edge in w.tools:
        if edge.name not in seen:
            seen.add(edge.name)
            out.append(edge.tool)
    return out


def prepare_worker_template() -> None:
    """What the pool's template process does once for every worker it forks: import CrewAI's
    crew, agent and hooks, and make the bridge class. No thread starts."""
    import crewai.hooks  # noqa: F401

    from masfuzz.adapters.crewai.bridge import bridge_class
    from masfuzz.adapters.crewai.run import quiet

    quiet()
    bridge_class()
