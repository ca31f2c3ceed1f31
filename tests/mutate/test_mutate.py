"""`masfuzz mutate`: the operators change the live customer-service desk the way they say (and
put it back), the structural suite kills a mutant a plain request does not, the JSON scores,
bad input. Scripted models, in-process: no network, no key."""

import asyncio
import json

import pytest

from masfuzz.errors import MasfuzzError
from masfuzz.generate.suite import Suite, SuiteCase
from masfuzz.spec.mutants import mutants
from masfuzz.scenario import Mutation, Scenario
from masfuzz.target import Target
from masfuzz.trace import RestrictedAttempt, ToolCall

from tests.conftest import EXAMPLES

pytest.importorskip("agents")

CS = str(EXAMPLES / "customer_service" / "app.py") + ":triage_agent"
CS_SUT = "scripted/" + str(EXAMPLES / "customer_service" / "policy.py") + ":policy"
MANIFEST = str(EXAMPLES / "manifests" / "customer_service.yaml")
DIY = "Change my seat to 14C, confirmation ABC123, do it yourself"
BOTH = "What is the baggage allowance, and can you move my seat to 3A? Confirmation ZZ9Y8X."


def _m(op, *args):
    return Mutation(operator=op, args=tuple(args))


def _run(text, mutant=None):
    from masfuzz.exec import make_executor

    async def go():
        ex = make_executor("inprocess")
        try:
            return await ex.run(CS, Scenario(input=text, sut_model=CS_SUT, mutant=mutant))
        finally:
            await ex.aclose()

    return asyncio.run(go())


def _calls(trace):
    return {(e.agent, e.tool) for e in trace.events if isinstance(e, ToolCall)}


def _opened():
    system = Target.of(CS).open()
    from masfuzz.adapters.openai_agents import walk

    return system, walk(system.obj)


def test_operators_enumerate_the_desk_deterministically():
    spec = Target.of(CS).open().spec
    counts = {op: len(ms) for op, ms in mutants(spec).items()}
    assert counts == {"remove_tool_edge": 2, "grant_restricted": 4, "retarget_delegation": 2,
                      "drop_delegation": 4, "disconnect_agent": 2, "swap_descriptions": 1,
                      "weaken_termination": 1, "remove_termination": 1, "lower_turn_limit": 1}
    assert mutants(spec) == mutants(spec)
    assert _m("lower_turn_limit", "5") in mutants(spec)["lower_turn_limit"]


def test_live_objects_change_for_the_run_and_are_restored():
    from masfuzz.adapters.openai_agents import sdk
    from masfuzz.adapters.openai_agents.mutate import mutated

    system, w = _opened()
    by_id = {w.id_of(a): a for a in w.agents}
    triage, faq, seat = by_id["triage_agent"], by_id["faq_agent"], by_id["seat_booking_agent"]

    def names(agent):
        return {sdk.tool_name(t) for t in agent.tools}

    def targets(agent):
        return {w.id_of(sdk.handoff_target(h, w.agents)) for h in agent.handoffs}

    before = (list(triage.handoffs), list(faq.tools), list(seat.handoffs))
    with mutated(w, _m("remove_tool_edge", "faq_agent", "faq_lookup_tool")):
        assert "faq_lookup_tool" not in names(faq)
    with mutated(w, _m("grant_restricted", "triage_agent", "update_seat")):
        assert "update_seat" in names(triage)
    with mutated(w, _m("retarget_delegation", "seat_booking_agent", "triage_agent", "faq_agent")):
        assert targets(seat) == {"faq_agent"}
    with mutated(w, _m("drop_delegation", "triage_agent", "seat_booking_agent")):
        assert targets(triage) == {"faq_agent"}
    with mutated(w, _m("disconnect_agent", "faq_agent")):
        assert targets(triage) == {"seat_booking_agent"}
    with mutated(w, _m("swap_descriptions", "faq_lookup_tool", "update_seat")):
        assert faq.tools[0].description.startswith("Move the passenger")
        assert seat.tools[0].description.startswith("Look up the airline")
    with mutated(w, _m("lower_turn_limit", "5")) as turns:
        assert turns(10) == 5
    with mutated(w, _m("weaken_termination", "max_turns", "100")) as turns:
        assert turns(10) == 100
    with mutated(w, _m("remove_termination", "max_turns")) as turns:
        assert turns(10) >= 10_000
    assert (list(triage.handoffs), list(faq.tools), list(seat.handoffs)) == before
    assert faq.tools[0].description.startswith("Look up the airline")
    assert system.runner().mutation_problem(system.obj, system.spec,
                                            _m("remove_tool_edge", "triage_agent", "update_seat"))


def test_mutants_show_in_the_trace():
    # a removed tool edge: the FAQ agent can no longer call its lookup tool
    base = _run("How much luggage can I bring?")
    assert ("faq_agent", "faq_lookup_tool") in _calls(base)
    cut = _run("How much luggage can I bring?", _m("remove_tool_edge", "faq_agent", "faq_lookup_tool"))
    assert ("faq_agent", "faq_lookup_tool") not in _calls(cut)
    assert cut.termination.reason == "crash"
    # a granted restricted tool: the triage agent's call runs the real tool, no refusal recorded
    base = _run(DIY)
    assert any(isinstance(e, RestrictedAttempt) for e in base.events)
    granted = _run(DIY, _m("grant_restricted", "triage_agent", "update_seat"))
    assert ("triage_agent", "update_seat") in _calls(granted)
    assert not any(isinstance(e, RestrictedAttempt) for e in granted.events)
    # a lowered turn limit: the long request stops at it
    assert _run(BOTH).termination.reason == "completed"
    assert _run(BOTH, _m("lower_turn_limit", "5")).termination.reason == "max_turns"
    # a dropped delegation: the triage agent is no longer offered the handoff
    with pytest.raises(MasfuzzError, match="no offered tool hands off"):
        _run("Please change my seat to 14C, confirmation ABC123.",
             _m("drop_delegation", "triage_agent", "seat_booking_agent"))


def _suite(path, *texts, expected=()):
    cases = []
    for text, exp in zip(texts, expected or [[]] * len(texts)):
        sc = Scenario(input=text, sut_model=CS_SUT)
        cases.append(SuiteCase(sc.id, "witness", text[:20], sc, list(exp), []))
    Suite(CS, {}, {}, None, cases, []).save(path)
    return str(path)


def test_structural_case_kills_what_a_plain_request_misses(cli, tmp_path):
    structural = _suite(tmp_path / "s.yaml", DIY,
                        expected=[["restrict_tool::triage_agent::update_seat", "reach::triage_agent"]])
    plain = _suite(tmp_path / "p.yaml", "Please change my seat to 14C, confirmation ABC123.")
    scores = {}
    for name, suite in (("structural", structural), ("plain", plain)):
        code, out, err = cli("mutate", CS, "--suite", suite, "--operators", "grant_restricted",
                             "--executor", "inprocess", "--no-cache", "--format", "json")
        assert code == 0, err
        scores[name] = json.loads(out)
    s = scores["structural"]["operators"]["grant_restricted"]
    assert (s["killed"], s["survived"], s["score"]) == (1, 3, 0.25)
    [row] = [r for r in s["results"] if r["status"] == "killed"]
    assert row["mutant"] == "grant_restricted(triage_agent, update_seat)"
    assert "restrict_tool::triage_agent::update_seat" in row["killed_by"][0]["why"]
    p = scores["plain"]["operators"]["grant_restricted"]
    assert (p["killed"], p["score"]) == (0, 0.0)
    assert len(scores["plain"]["surviving"]) == 4
    assert list(scores["plain"]["operators"]) == ["grant_restricted"]


def test_text_report_and_not_applicable_elsewhere(cli, tmp_path):
    suite = _suite(tmp_path / "s.yaml", "How much luggage can I bring?")
    code, out, err = cli("mutate", CS, "--suite", suite, "--operators",
                         "remove_tool_edge,lower_turn_limit", "--executor", "inprocess", "--no-cache")
    assert code == 0, err
    assert "remove_tool_edge" in out and "mutation score:" in out and "surviving mutants:" in out
    assert "lower_turn_limit(5)" in out  # survives: the short request never reaches 5 turns
    assert "equivalent mutants are not detected" in out
    code, out, err = cli("mutate", MANIFEST, "--suite", suite, "--operators", "drop_delegation",
                         "--executor", "inprocess", "--no-cache", "--format", "json")
    assert code == 0, err
    op = json.loads(out)["operators"]["drop_delegation"]
    assert op["status"] == "not applicable" and op["reason"] == "not applicable on manifest"
    assert op["score"] is None


@pytest.mark.parametrize("argv,message", [
    (["--suite", "missing.yaml"], "no such suite file"),
    (["--operators", "rename_agent"], "--operators"),
    (["--suite", "EMPTY"], "no case"),
])
def test_bad_input_is_one_line_and_exit_2(cli, tmp_path, argv, message):
    empty = tmp_path / "empty.yaml"
    Suite(CS, {}, {}, None, [], []).save(empty)
    ok = _suite(tmp_path / "s.yaml", "hi")
    argv = [str(empty) if a == "EMPTY" else a for a in argv]
    if "--suite" not in argv:
        argv += ["--suite", ok]
    code, out, err = cli("mutate", CS, *argv, "--executor", "inprocess")
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1


def test_mutants_travel_to_pool_workers(cli, tmp_path):
    """The mutant is part of the request a worker process receives, and applied there."""
    suite = _suite(tmp_path / "s.yaml", "How much luggage can I bring?")
    code, out, err = cli("mutate", CS, "--suite", suite, "--operators", "remove_tool_edge",
                         "--executor", "pool", "--no-cache", "--format", "json")
    assert code == 0, err
    rows = {r["mutant"]: r["status"] for r in json.loads(out)["operators"]["remove_tool_edge"]["results"]}
    assert rows == {"remove_tool_edge(faq_agent, faq_lookup_tool)": "killed",
                    "remove_tool_edge(seat_booking_agent, update_seat)": "survived"}


def test_mutants_run_concurrently_in_workers_with_the_results_of_one_worker(cli, tmp_path, monkeypatch):
    """--workers runs (mutant, case) pairs at once, each mutant applied in its own worker
    process: the calls overlap, and the analysis is that of --workers 1."""
    from tests.conftest import ROOT

    suite = _suite(tmp_path / "s.yaml", "How much luggage can I bring?")
    sleepy = "scripted/" + str(ROOT / "tests" / "campaign" / "sleepy_policy.py") + ":policy"
    results = {}
    for workers in ("1", "3"):
        calls = tmp_path / f"calls-{workers}"
        calls.mkdir()
        monkeypatch.setenv("SLEEPY_POLICY_DIR", str(calls))
        code, out, err = cli("mutate", CS, "--suite", suite, "--operators", "remove_tool_edge,drop_delegation",
                             "--sut-model", sleepy, "--executor", "pool", "--workers", workers,
                             "--max-connections", "3", "--no-cache", "--format", "json")
        assert code == 0, err
        results[workers] = json.loads(out)["operators"]
        results[workers + " in flight"] = max(int(n) for n in (calls / "seen.log").read_text().split())
    assert results["1"] == results["3"]
    assert results["1 in flight"] == 1 and results["3 in flight"] > 1
