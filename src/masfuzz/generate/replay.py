"""Re-execute a saved suite against a target and say which witnesses still hold."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from masfuzz.generate.suite import CaseOutcome, Suite, check_case
from masfuzz.scenario import Scenario
from masfuzz.trace import Trace


def as_replayed(scenario: Scenario, sut_model: str | None = None,
                timeout: float | None = None) -> Scenario:
    """A case's scenario as a replay runs it: on `sut_model` when one is given, and within
    `timeout` where that is tighter than the bound the case was recorded with (a suite recorded
    on an embedded model keeps its longer bound unless the user asks for less). `masfuzz replay`
    and the pytest plugin both replay through this."""
    update: dict = {"sut_model": sut_model} if sut_model else {}
    if timeout is not None and (scenario.timeout is None or scenario.timeout > timeout):
        update["timeout"] = timeout
    return scenario.model_copy(update=update) if update else scenario


async def replay(suite: Suite, execute: Callable[[Scenario], Awaitable[Trace]], *,
                 sut_model: str | None = None, timeout: float | None = None) -> list[CaseOutcome]:
    """Every case, submitted together (the executor runs as many at once as it allows); the
    outcomes in the suite's order, whatever finished first."""
    scenarios = [as_replayed(case.scenario, sut_model, timeout) for case in suite.cases]
    traces = await asyncio.gather(*(execute(sc) for sc in scenarios))
    return [check_case(case, trace) for case, trace in zip(suite.cases, traces)]
