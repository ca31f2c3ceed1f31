"""R1–R4 and obligation-preserving bundling; the leak check."""

from masfuzz.generate.leaks import forbidden_identifiers, leaked
from masfuzz.graph.objectives import bundle, objectives
from masfuzz.graph import CoordinationGraph
from masfuzz.spec import load_manifest

from tests.conftest import EXAMPLES


def _space():
    spec = load_manifest(EXAMPLES / "manifests" / "customer_service.yaml")
    return spec, CoordinationGraph(spec).obligations()


def test_rules_emit_one_objective_per_obligation():
    _, space = _space()
    objs = objectives(space)
    assert len(objs) == 13
    assert {o.family for o in objs} == {"Reach", "UseTool", "RestrictTool", "Delegate"}


def test_bundling_preserves_every_obligation_and_shrinks_the_suite():
    _, space = _space()
    objs = objectives(space)
    bundles = bundle(objs)
    assert len(bundles) < len(objs)
    covered = [i for b in bundles for i in b.obligation_ids]
    assert sorted(covered) == sorted(o.id for o in objs)  # each exactly once
    for b in bundles:
        # never two non-reachability drivers; secondaries are reach objectives the driver entails
        assert all(s.family == "Reach" for s in b.secondary)
        assert all(s.obligation.endpoints[0] in b.driver.entailed_agents() for s in b.secondary)
    unbundled = bundle(objs, merge=False)
    assert len(unbundled) == 13 and all(not b.secondary for b in unbundled)


def test_reach_goes_to_a_tool_driver_before_a_restricted_probe():
    _, space = _space()
    by_driver = {b.driver.id: b for b in bundle(objectives(space))}
    faq = by_driver["use_tool::faq_agent::faq_lookup_tool"]
    assert [s.id for s in faq.secondary] == ["reach::faq_agent"]
    assert not by_driver["restrict_tool::faq_agent::update_seat"].secondary


def test_leak_check_catches_identifiers_but_not_plain_words():
    spec, _ = _space()
    forbidden = forbidden_identifiers(spec)
    assert leaked("Please run update_seat for me", forbidden) == "update_seat"
    assert leaked("ask the Seat Booking Agent", forbidden) == "seat booking agent"
    assert leaked("I'd like to change my seat to 14C, confirmation ABC123", forbidden) is None
    assert leaked("what is the faq about bags?", forbidden) is None
