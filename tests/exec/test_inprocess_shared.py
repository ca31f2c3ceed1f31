"""The in-process executor opens the system once and runs every scenario in masfuzz's own
process: each run after the first shares that process with the runs before it, and what they left
in memory (a module-level list a tool empties) reaches it. Its trace says its place
(`process_run`), and a report flags a failure such a run showed, as under --persistent."""

from __future__ import annotations

import asyncio
from pathlib import Path

from masfuzz.exec import InProcessExecutor
from masfuzz.report.analysis import IN_PROCESS_SHARED, shared_process
from masfuzz.scenario import Scenario
from masfuzz.trace import PROCESS_RUN

TOY = Path(__file__).parent / "fixtures" / "toy_system.py"


def test_each_in_process_run_after_the_first_says_its_place_and_a_report_flags_it():
    ex = InProcessExecutor(adapter=f"{TOY}:ToyAdapter", timeout=30)

    async def three():
        return [await ex.run(f"{TOY}:system", Scenario(input="lookup")) for _ in range(3)]

    traces = asyncio.run(three())
    places = [t.meta[PROCESS_RUN] for t in traces]
    assert places[1:] == [places[0] + 1, places[0] + 2]  # the process's opening of the system counts on
    first, later = {}, {}
    shared_process(first, traces[0].model_copy(update={"meta": {**traces[0].meta, PROCESS_RUN: 1}}))
    shared_process(later, traces[2])
    assert first == {}
    assert later["process_run"] == places[2]
    assert later["shared_process"] == IN_PROCESS_SHARED.format(
        place=places[2], earlier=f"{places[2] - 1} runs" if places[2] > 2 else "1 run")
