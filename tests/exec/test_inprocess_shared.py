"""The in-process executor opens the system once and runs every scenario in masfuzz's own
process: each run after the first shares that process with the runs before it, and what they left
in memory (a module-level list a tool empties) reaches it. Its trace says its place
(`process_run`), and a report flags a failure such a run showed, as under --persistent."""

from __future__ import annotations

import asyncio
from pathlib import Path

from masfuzz.exec import InProcessExecutor, history
from masfuzz.report.analysis import IN_PROCESS_SHARED, shared_process
from masfuzz.scenario import Scenario
from masfuzz.target import Target
from masfuzz.trace import EARLIER_ANSWERS, PROCESS_RUN, ToolCall, ToolResult, Trace

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


def _booked(answer: str) -> Trace:
    """A run whose one call of `book` (the same arguments every time) got `answer`."""
    return Trace(events=(ToolCall(agent="desk", tool="book", arguments={"day": "Friday"}, call_id="c1"),
                         ToolResult(agent="desk", tool="book", call_id="c1", status="ok", payload=answer)))


def test_earlier_answers_are_kept_per_system_so_two_systems_naming_a_tool_alike_share_none(monkeypatch):
    monkeypatch.setattr(history, "_runs", {})
    monkeypatch.setattr(history, "_first", {})
    hall, gym = Target("hall.py:desk"), Target("gym.py:desk")
    first = history.note(_booked("hired"), hall, history.begin(hall))
    other = history.note(_booked("full"), gym, history.begin(gym))  # another system's `book`
    again = history.note(_booked("full"), hall, history.begin(hall))
    assert (first.meta[PROCESS_RUN], other.meta[PROCESS_RUN], again.meta[PROCESS_RUN]) == (1, 1, 2)
    assert EARLIER_ANSWERS not in first.meta and EARLIER_ANSWERS not in other.meta
    assert again.meta[EARLIER_ANSWERS] == {"c1": {"status": "ok", "payload": "hired", "runs_before": 1}}
