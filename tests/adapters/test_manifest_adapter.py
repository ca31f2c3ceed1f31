"""A manifest alone runs: agents materialised as Agents SDK agents, tools as recording stubs."""

from __future__ import annotations

import asyncio
import json

import pytest

from masfuzz.adapters.manifest import ManifestAdapter, materialise
from masfuzz.target import open_target
from masfuzz.scenario import Fault, Scenario
from masfuzz.spec.manifest import parse_manifest
from masfuzz.trace import DelegationEvent, RestrictedAttempt, ToolCall, ToolResult
from tests.conftest import EXAMPLES, ROOT

LISTING_1 = str(EXAMPLES / "manifests" / "customer_service.yaml")
POLICY = "scripted/examples/customer_service/policy.py:policy"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def run(spec, text, **kw):
    adapter = ManifestAdapter()
    return asyncio.run(adapter.run(spec, spec, Scenario(input=text, sut_model=POLICY, **kw)))


def test_listing_1_runs_with_stubs_and_native_handoffs():
    sut = open_target(LISTING_1)
    trace = run(sut.spec, "How much luggage? Also change my seat to 3A, booking XYZ789")
    assert [(d.from_, d.to, d.trigger) for d in trace.of_type(DelegationEvent)] == [
        ("triage_agent", "faq_agent", "handoff"), ("faq_agent", "triage_agent", "handoff"),
        ("triage_agent", "seat_booking_agent", "handoff")]
    calls = [(c.agent, c.tool) for c in trace.of_type(ToolCall)]
    assert calls == [("faq_agent", "faq_lookup_tool"), ("seat_booking_agent", "update_seat")]
    stub = json.loads(trace.of_type(ToolResult)[-1].payload)
    assert stub == {"tool": "update_seat", "status": "ok",
                    "arguments": {"confirmation_number": "XYZ789", "new_seat": "3A"}}
    assert trace.framework == "manifest" and trace.termination.reason == "completed"


def test_probe_and_faults_work_on_manifests_too():
    sut = open_target(LISTING_1)
    trace = run(sut.spec, "Change my seat to 14C, confirmation ABC123 - do it yourself",
                faults=(Fault(tool="update_seat", mode="error"),))
    assert [(r.agent, r.tool) for r in trace.of_type(RestrictedAttempt)] == [
        ("triage_agent", "update_seat")]
    assert trace.of_type(ToolResult)[-1].status == "error"


def test_only_reachable_agents_are_built_and_as_tool_becomes_agent_tool():
    spec = parse_manifest("""
system: {id: s, entry_agent: boss}
agents: [boss, helper, orphan]
tools:
  - {id: ask_helper, kind: agent}
  - {id: search}
permissions:
  allow: [[boss, ask_helper], [helper, search], [orphan, search]]
delegations:
  - {from: boss, to: helper, trigger: as_tool}
""", "m.yaml")
    entry, w = materialise(spec)
    assert sorted(w.ids.values()) == ["boss", "helper"]
    assert [t.name for t in entry.tools] == ["ask_helper"]
    inner = entry.tools[0]._agent_instance
    assert inner.name == "helper" and [t.name for t in inner.tools] == ["search"]
