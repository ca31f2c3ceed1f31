"""Re-execute a saved suite against a target and say which witnesses still hold."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from masfuzz.generate.suite import CaseOutcome, Suite, check_case
from masfuzz.scenario import Scenario
from masfuzz.trace import Trace


async def replay(suite: Suite, execute: Callable[[Scenario], Awaitable[Trace]], *,
                 sut_model: str | None = None) -> list[CaseOutcome]:
    """Every case, submitted together (the executor runs as many at once as it allows); the
    outcomes in the suite's order, whatever finished first."""
    scenarios = [case.scenario.model_copy(update={"sut_model": sut_model}) if sut_model
                 else case.scenario for case in suite.cases]
    traces = await asyncio.gather(*(execute(sc) for sc in scenarios))
    return [check_case(case, trace) for case, trace in zip(suite.cases, traces)]
