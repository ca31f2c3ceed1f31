"""The recorder's reproducer of a failure (`masfuzz.campaign.recorder`): the first execution that
showed it, unless a later one witnesses the same fault better: one the app alone is to blame for
where the first was set aside as the harness's, or one without a fault masfuzz injected where
the first had one. `run` re-runs witnessed scenarios with injected faults and fuzzing mutates
seeds into faulted runs: a defect the app shows without any fault must be reported so."""

from __future__ import annotations

import pytest

from masfuzz.campaign.recorder import Recorder
from masfuzz.coverage.base import CoverageMap
from masfuzz.oracles.failure import Failure
from masfuzz.scenario import Fault, Scenario
from masfuzz.spec.model import AgentSpec, SystemInfo, WorkflowSpec
from masfuzz.store.db import RunStore
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolResult, Trace

SPEC = WorkflowSpec(system=SystemInfo(id="desk", entry_agent="desk"), agents=(AgentSpec(id="desk"),))
FAULTED = Scenario(input="Change my booking.", faults=(Fault(tool="change_booking", mode="error"),))
PLAIN = Scenario(input="Change my booking.")
OTHER = Scenario(input="Change my booking, please.")


def _trace(fault: str | None = None) -> Trace:
    return Trace(scenario_id="", events=(
        Message(role="user", content="Change my booking."), AgentTurn(agent="desk"),
        ToolResult(agent="desk", tool="change_booking", status="error", payload="failed", fault=fault),
        Message(agent="desk", content="Your booking has been changed."),
        TerminationEvent(reason="completed", final_output="Your booking has been changed.")))


def _claim(trace: Trace, attribution: str = "sut", detector: str = "claimed_outcome") -> list[Failure]:
    """One fault in every trace: the claim at event 3, blamed on the desk."""
    return [Failure(category="agent_task_execution", root_cause="Incorrect Verification", detector=detector,
                    description="claimed", evidence=(2, 3), scenario_id=trace.scenario_id, agent="desk",
                    step=3, subject="change_booking", attribution=attribution)]


@pytest.mark.parametrize("first,then,kept", [
    (FAULTED, PLAIN, PLAIN),  # found again without the injected fault: that run reproduces it
    (PLAIN, FAULTED, PLAIN),  # the first stays when the later one is no better
    (PLAIN, OTHER, PLAIN),
])
def test_a_run_without_an_injected_fault_becomes_the_reproducer(tmp_path, first, then, kept):
    with RunStore(tmp_path / "runs.db") as store:
        rid = store.start_run("run", SPEC, "desk")
        recorder = Recorder(store, rid, CoverageMap([]), SPEC, detectors=_claim)
        seen = recorder.record(first, _trace("error" if first.faults else None))
        again = recorder.record(then, _trace("error" if then.faults else None))
        assert [f.scenario_id for f in seen.failures] == [first.id] and again.failures == ()  # one fault
        [stored] = store.failures(rid)
        assert stored["scenario_id"] == kept.id
        assert stored["execution_id"] == (again if kept is then else seen).execution_id
        assert recorder.failures_by == {"sut": 1}
        # a resumed run reads the same reproducer back
        assert Recorder(store, rid, CoverageMap([]), SPEC, detectors=_claim).failures_by == {"sut": 1}


def test_the_apps_own_finding_replaces_one_set_aside_as_the_harnesss(tmp_path):
    with RunStore(tmp_path / "runs.db") as store:
        rid = store.start_run("run", SPEC, "desk")
        recorder = Recorder(store, rid, CoverageMap([]), SPEC, detectors=lambda trace: [])
        harness = recorder.record(FAULTED, _trace("error"))
        recorder.add_failures(harness, _claim(_trace().model_copy(update={"scenario_id": FAULTED.id}),
                                               "harness", "failure_agent"))
        assert recorder.failures_by == {"harness": 1}
        plain = recorder.record(PLAIN, _trace())
        assert recorder.add_failures(plain, _claim(_trace().model_copy(update={"scenario_id": PLAIN.id}))) == []
        [stored] = store.failures(rid)
        assert (stored["scenario_id"], stored["attribution"]) == (PLAIN.id, "sut")
        assert stored["found_by"] == ["claimed_outcome", "failure_agent"]  # who found it stays said
        assert recorder.failures_by == {"harness": 0, "sut": 1}
