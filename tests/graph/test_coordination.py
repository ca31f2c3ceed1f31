"""Reachability and the obligation sets of §III-A."""

from masfuzz.graph import CoordinationGraph, Obligation
from masfuzz.spec import load_manifest, parse_manifest

from tests.conftest import EXAMPLES


def test_listing_1_gives_13_obligations():
    space = CoordinationGraph(load_manifest(EXAMPLES / "manifests" / "customer_service.yaml")).obligations()
    assert space.counts() == {"C1": 3, "C2": 2, "C3": 4, "C4": 4}
    assert len(space) == 13
    assert Obligation("use_tool", ("faq_agent", "faq_lookup_tool")) in space
    ids = [o.id for o in space]
    assert "use_tool::faq_agent::faq_lookup_tool" in ids
    assert len(set(ids)) == 13


CHAIN = """
system: {id: chain, entry_agent: a}
agents: [a, b, c, island]
tools: [t1, t2, t3]
permissions:
  allow: [[a, t1], [b, t2], [island, t3], [b, t1]]
  restrict_mode: closed_world
delegations:
  - {from: a, to: b}
  - {from: b, to: c}
  - {from: c, to: a}
  - {from: island, to: a}
"""


def test_reachability_follows_delegations_through_cycles():
    g = CoordinationGraph(parse_manifest(CHAIN, "c.yaml"))
    assert g.reachable == ["a", "b", "c"]
    assert g.unreachable_agents() == ["island"]
    assert g.route_to("c") == ("a", "b", "c")
    assert g.route_to("island") is None


def test_closed_world_restricted_edges_and_unreachable_parts_carry_no_obligations():
    space = CoordinationGraph(parse_manifest(CHAIN, "c.yaml")).obligations()
    # allowed: (a,t1) (b,t2) (b,t1); island is unreachable so (island,t3) is not an obligation
    assert sorted(space.use_tool.keys()) == [("a", "t1"), ("b", "t1"), ("b", "t2")]
    # closed world: 3 reachable agents x 3 tools - 3 allowed
    assert len(space.restrict_tool) == 6
    assert sorted(space.restrict_tool.keys()) == sorted(
        [("a", "t2"), ("a", "t3"), ("b", "t3"), ("c", "t1"), ("c", "t2"), ("c", "t3")]
    )
    assert ("c", "t1") in space.restrict_tool and ("b", "t1") not in space.restrict_tool
    assert ("island", "t1") not in space.restrict_tool
    # the delegation from the unreachable island is not an obligation
    assert sorted(space.delegate.keys()) == [("a", "b"), ("b", "c"), ("c", "a")]


def test_obligation_ids_parse_back():
    ob = Obligation.parse("delegate::a::b")
    assert ob == Obligation("delegate", ("a", "b")) and ob.criterion == "C4"
    for bad in ("reach", "reach::a::b", "fly::a", "use_tool::a"):
        try:
            Obligation.parse(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


def test_duplicate_edges_count_once():
    text = CHAIN.replace("- {from: a, to: b}", "- {from: a, to: b}\n  - {from: a, to: b, trigger: as_tool}")
    space = CoordinationGraph(parse_manifest(text, "c.yaml")).obligations()
    assert len(space.delegate) == 3
