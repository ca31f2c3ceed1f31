"""Re-execute a saved suite against a target and say which witnesses still hold."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from masfuzz.campaign.known import as_replayed
from masfuzz.generate.suite import CaseOutcome, Suite, check_case
from masfuzz.scenario import Scenario
from masfuzz.trace import Trace


async def replay(suite: Suite, execute: Callable[[Scenario], Awaitable[Trace]], *,
                 sut_model: str | None = None, timeout: float | None = None) -> list[CaseOutcome]:
    """Every case, submitted together (the executor runs as many at once as it allows), each as
    every replay runs a stored scenario (`as_replayed`, shared with the pytest plugin and the
    known failures a campaign replays first); the outcomes in the suite's order, whatever
    finished first."""
    scenarios = [as_replayed(case.scenario, sut_model, timeout) for case in suite.cases]
    traces = await asyncio.gather(*(execute(sc) for sc in scenarios))
    return [check_case(case, trace) for case, trace in zip(suite.cases, traces)]
