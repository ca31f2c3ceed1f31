"""PydanticAI's programmatic agent hand-off: the app's plain Python runs one agent, then another.

PydanticAI's multi-agent documentation calls it "programmatic agent hand-off": `main()` awaits
`flight_search_agent.run(...)` until it has a flight, then `seat_preference_agent.run(...)`.
There is no graph in the objects; the code is the graph, read as the Agents SDK adapter reads
its pipelines (`masfuzz.adapters.openai_agents.pipeline`, which knows `agent.run(...)` too): the
order of the runs, loops back, gates. A run calls the app's own function with the scenario's
task (or feeds it to the app's `input()`), every agent under masfuzz's model.
"""

from __future__ import annotations

from typing import Any

from masfuzz.adapters.openai_agents.pipeline import Pipeline, pipeline_of
from masfuzz.adapters.pydantic_ai.extract import is_agent
from masfuzz.errors import TargetError


class AgentPipeline(Pipeline):
    """A PydanticAI app's own function running its agents in turn (the type masfuzz's adapter
    table finds this adapter by)."""

    @property
    def returns_value(self) -> bool:
        """Does the function return a value? A `main()` that prints its agents' answers and
        returns nothing ends normally with None, which from one that returns is a gate."""
        import ast
        import inspect
        import textwrap

        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(self.function)))
        except (OSError, TypeError, SyntaxError):
            return True
        return any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(tree))


def capture(obj: Any, target: str) -> AgentPipeline | None:
    """A module or a function of an app that runs two or more agents one after the other is
    that pipeline (None otherwise). Nothing of the app runs here."""
    try:
        found = pipeline_of(obj, is_agent)
    except TargetError as exc:
        raise TargetError(f"{target}: {exc}") from None
    return AgentPipeline(found.function, found.agents, found.order) if found is not None else None
