"""C1–C4 computed from traces; C3 only from explicit restricted-access events."""

from masfuzz.coverage.structural import StructuralCoverage, cov, observe
from masfuzz.graph import CoordinationGraph, ObligationSet
from masfuzz.spec import load_manifest
from masfuzz.trace import (
    AgentTurn, DelegationEvent, Message, RestrictedAttempt, ToolCall, ToolResult, TraceRecorder,
)

from tests.conftest import EXAMPLES


def _space():
    return CoordinationGraph(load_manifest(EXAMPLES / "manifests" / "customer_service.yaml")).obligations()


def _trace(sid, *events):
    rec = TraceRecorder(scenario_id=sid)
    for e in events:
        rec.add(e)
    return rec.finish()


def test_empty_obligation_set_is_vacuously_covered():
    assert cov(ObligationSet("reach"), set()) == 1.0


def test_faq_run_witnesses_its_edges():
    space = _space()
    t = _trace(
        "s1",
        AgentTurn(agent="triage_agent"),
        DelegationEvent(**{"from": "triage_agent", "to": "faq_agent"}),
        AgentTurn(agent="faq_agent"),
        ToolCall(agent="faq_agent", tool="faq_lookup_tool", arguments={"question": "bags"}),
        ToolResult(agent="faq_agent", tool="faq_lookup_tool", payload="2 bags"),
        Message(agent="faq_agent", content="You may bring 2 bags."),
    )
    c = StructuralCoverage(space)
    c.add(t)
    r = {x.criterion: (x.covered, x.total) for x in c.results()}
    assert r == {"C1": (2, 3), "C2": (1, 2), "C3": (0, 4), "C4": (1, 4)}
    assert c.contexts["use_tool::faq_agent::faq_lookup_tool"] == ["s1"]
    assert c.total().covered == 4


def test_absence_of_a_call_never_witnesses_a_restriction():
    space = _space()
    # triage answers directly and never touches update_seat: no C3 evidence
    t = _trace("s1", AgentTurn(agent="triage_agent"), Message(agent="triage_agent", content="ok"))
    c = StructuralCoverage(space).add_all([t])
    assert c.criterion("restrict_tool").covered == 0
    t2 = _trace("s2", AgentTurn(agent="triage_agent"),
                RestrictedAttempt(agent="triage_agent", tool="update_seat", arguments={}))
    c.add(t2)
    assert c.criterion("restrict_tool").covered == 1
    assert c.contexts["restrict_tool::triage_agent::update_seat"] == ["s2"]


def test_contexts_keep_every_witnessing_scenario_and_unexpected_edges():
    space = _space()
    t1 = _trace("s1", AgentTurn(agent="triage_agent"))
    t2 = _trace("s2", AgentTurn(agent="triage_agent"),
                DelegationEvent(**{"from": "faq_agent", "to": "seat_booking_agent"}))
    c = StructuralCoverage(space).add_all([t1, t2])
    assert c.contexts["reach::triage_agent"] == ["s1", "s2"]
    assert c.unexpected == {"delegate::faq_agent::seat_booking_agent": ["s2"]}


def test_observe_collects_the_four_sets():
    t = _trace("s", AgentTurn(agent="a"), ToolCall(agent="b", tool="t"),
               RestrictedAttempt(agent="c", tool="u"), DelegationEvent(**{"from": "a", "to": "b"}))
    o = observe(t)
    assert o.agents == {"a", "b", "c"}
    assert o.tools == {("b", "t")} and o.restricted == {("c", "u")} and o.delegations == {("a", "b")}
