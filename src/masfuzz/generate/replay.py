"""Re-execute a saved suite against a target and say which witnesses still hold."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from masfuzz.generate.suite import CaseOutcome, Suite, check_case
from masfuzz.scenario import Scenario
from masfuzz.trace import Trace


async def replay(suite: Suite, execute: Callable[[Scenario], Awaitable[Trace]], *,
                 sut_model: str | None = None) -> list[CaseOutcome]:
    outcomes = []
    for case in suite.cases:
        scenario = case.scenario
        if sut_model:
            scenario = scenario.model_copy(update={"sut_model": sut_model})
        outcomes.append(check_case(case, await execute(scenario)))
    return outcomes
