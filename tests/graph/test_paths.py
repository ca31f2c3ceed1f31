"""The execution-path space, checked against brute force on the shipped examples."""

import itertools

import pytest

from masfuzz.errors import SpecError
from masfuzz.graph.paths import execution_paths
from masfuzz.target import open_target

from tests.conftest import EXAMPLES

pytest.importorskip("autogen_agentchat")

TEAM = str(EXAMPLES / "video_team" / "team.py")
AGENTS = ["script_writer", "voice_actor", "graphic_designer", "director"]


def test_fixed_order_has_the_one_path():
    space = execution_paths(open_target(f"{TEAM}:round_robin_team").spec)
    assert space.paths == (tuple(AGENTS),) and not space.truncated


def test_free_form_is_every_ordering_consistent_with_the_dependencies():
    spec = open_target(f"{TEAM}:selector_team").spec
    assert execution_paths(spec).count == 24  # no dependencies: all permutations
    deps = [("script_writer", "voice_actor"), ("voice_actor", "director")]
    space = execution_paths(spec, deps)
    brute = {p for p in itertools.permutations(AGENTS)
             if all(p.index(b) < p.index(a) for b, a in deps)}
    assert set(space.paths) == brute and space.count == len(brute) == 4
    assert ("script_writer", "voice_actor", "graphic_designer", "director") in space
    cyclic = deps + [("director", "script_writer")]
    assert execution_paths(spec, cyclic).count == 0
    capped = execution_paths(spec, cap=5)
    assert capped.count == 5 and capped.truncated


def test_graph_and_handoff_patterns_are_simple_paths_from_the_entry():
    graph = open_target(str(EXAMPLES / "research_graph" / "graph.py") + ":graph").spec
    assert execution_paths(graph).paths == (
        ("planner",), ("planner", "researcher"), ("planner", "researcher", "writer"))
    assert execution_paths(graph, max_turns=2).count == 2
    desk = open_target(str(EXAMPLES / "customer_service" / "app.py") + ":triage_agent").spec
    paths = set(execution_paths(desk).paths)
    assert paths == {("triage_agent",), ("triage_agent", "faq_agent"),
                     ("triage_agent", "seat_booking_agent")}
    # seat booking only after the FAQ agent: no path reaches it first
    deps = [("faq_agent", "seat_booking_agent")]
    assert ("triage_agent", "seat_booking_agent") not in execution_paths(desk, deps)


def test_bad_dependencies_are_one_line_errors():
    spec = open_target(f"{TEAM}:selector_team").spec
    with pytest.raises(SpecError, match="no reachable agent 'ghost'"):
        execution_paths(spec, [("ghost", "director")])
    with pytest.raises(SpecError, match="cannot precede itself"):
        execution_paths(spec, [("director", "director")])
