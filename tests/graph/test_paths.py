"""The execution-path space, checked against brute force on the shipped examples."""

import itertools
import random

import pytest

from masfuzz.errors import SpecError
from masfuzz.graph import CoordinationGraph
from masfuzz.graph.paths import execution_paths
from masfuzz.spec.model import AgentSpec, Delegation, SystemInfo, Termination, WorkflowSpec
from masfuzz.target import open_target

from tests.conftest import EXAMPLES

pytest.importorskip("autogen_agentchat")

TEAM = str(EXAMPLES / "video_team" / "team.py")
AGENTS = ["script_writer", "voice_actor", "graphic_designer", "director"]
# FLARE's Fig. 6: voice and image both need the script, the director needs both.
FLARE_DEPENDENCIES = [("script_writer", "voice_actor"), ("script_writer", "graphic_designer"),
                      ("voice_actor", "director"), ("graphic_designer", "director")]


def workflow(pattern, agents, edges=(), *, trigger="handoff", max_turns=None):
    """A WorkflowSpec built by hand: `agents[0]` is the entry agent."""
    return WorkflowSpec(
        system=SystemInfo(id="hand_built", entry_agent=agents[0], pattern=pattern),
        agents=tuple(AgentSpec(id=a) for a in agents),
        delegations=tuple(Delegation(**{"from": a}, to=b, trigger=trigger) for a, b in edges),
        termination=Termination(max_turns=max_turns))


def random_dag(rng, agents, density=0.35):
    """Dependencies (before, after) that follow a random order of `agents`, so never a cycle."""
    order = rng.sample(agents, len(agents))
    return [(a, b) for i, a in enumerate(order) for b in order[i + 1:] if rng.random() < density]


def respects(seq, deps):
    """Each agent of `seq` comes after every agent it depends on, which must be in `seq`."""
    return all(b in seq and seq.index(b) < seq.index(a) for b, a in deps if a in seq)


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


def test_the_video_teams_space_is_one_two_or_twenty_four_paths():
    assert execution_paths(open_target(f"{TEAM}:round_robin_team").spec).count == 1
    selector = open_target(f"{TEAM}:selector_team").spec
    space = execution_paths(selector, FLARE_DEPENDENCIES)
    assert set(space.paths) == {
        ("script_writer", "voice_actor", "graphic_designer", "director"),
        ("script_writer", "graphic_designer", "voice_actor", "director")}
    assert execution_paths(selector).count == 24


@pytest.mark.parametrize("seed", range(40))
def test_free_form_paths_equal_the_brute_force_permutations(seed):
    rng = random.Random(seed)
    agents = [f"a{i}" for i in range(rng.randint(1, 7))]
    everyone = [(a, b) for a in agents for b in agents if a != b]  # a selector may pick anyone
    deps = random_dag(rng, agents)
    space = execution_paths(workflow("selector", agents, everyone, trigger="selector"), deps)
    brute = {p for p in itertools.permutations(agents) if respects(p, deps)}
    assert set(space.paths) == brute and space.count == len(brute)
    assert not space.truncated


@pytest.mark.parametrize("pattern", ["graph", "handoff"])
@pytest.mark.parametrize("seed", range(40))
def test_delegation_paths_equal_the_brute_force_walks(pattern, seed):
    rng = random.Random(seed)
    agents = [f"a{i}" for i in range(rng.randint(1, 7))]
    edges = [(a, b) for a in agents for b in agents if a != b and rng.random() < 0.45]
    spec = workflow(pattern, agents, edges)
    reach = CoordinationGraph(spec).reachable
    deps = random_dag(rng, reach, density=0.15)  # sparse: dense ones leave few walks to check
    limit = rng.randint(1, len(agents))
    space = execution_paths(spec, deps, max_turns=limit)
    brute = {seq for k in range(1, limit + 1) for seq in itertools.permutations(agents, k)
             if seq[0] == agents[0] and all(e in edges for e in zip(seq, seq[1:]))
             and respects(seq, deps)}
    assert set(space.paths) == brute and space.count == len(brute)


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
