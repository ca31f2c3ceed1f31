"""`masfuzz fuzz` end to end on the shipped examples: a confirmed failure in each of FLARE's four
symptom types, each citing the specification clause it violates; the restricted call only a
mutation reaches (tests/fuzz/test_loop.py); the bug-free variants yield none."""

import json

import pytest

from tests.conftest import EXAMPLES, ROOT

pytest.importorskip("autogen_agentchat")

TEAM = str(EXAMPLES / "video_team" / "team.py")
VIDEO = "scripted/" + str(EXAMPLES / "video_team" / "policy.py") + ":policy"
CARELESS = "scripted/" + str(ROOT / "tests" / "oracles" / "flare_sut_policies.py")
READER = "scripted/" + str(ROOT / "tests" / "fuzz" / "flare_testers.py") + ":reader"


def _failures(cli, tmp_path, target, sut):
    code, out, err = cli("fuzz", target, "--input", "A 30-second video about the water cycle",
                         "--sut-model", sut, "--model", READER, "--rounds", "4", "--seed", "1",
                         "--seed-tasks", "0", "--no-judge", "--no-cache", "--executor",
                         "inprocess", "--store", str(tmp_path / "runs.db"), "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    return {(f["category"], f["root_cause"], f["clause"]) for f in data.get("failures", [])}, data


def test_the_director_bug_is_a_termination_failure_and_the_fix_has_none(cli, tmp_path):
    found, data = _failures(cli, tmp_path, f"{TEAM}:selector_team", VIDEO)
    assert ("system_termination", "Termination Condition Violation", "term::bound") in found
    assert any(c == "agent_task_execution" for c, _, _ in found)  # the revisions go round
    assert data["fuzz"]["table1"]["failures"]["ST"] == 1
    fixed, _ = _failures(cli, tmp_path / "fixed", f"{TEAM}:selector_team(allow_repeated_speaker=True)",
                         VIDEO)
    assert fixed == set()


def test_a_stub_stands_in_for_a_tool_in_every_execution_of_the_campaign(cli, tmp_path):
    from masfuzz.store.db import RunStore
    from masfuzz.trace import ToolResult

    stub = tmp_path / "voice.txt"
    stub.write_text("voice.mp3 (recorded by the stub)")
    store = str(tmp_path / "runs.db")
    code, _, err = cli("fuzz", f"{TEAM}:selector_team", "--input", "A video about rain",
                       "--sut-model", VIDEO, "--model", READER, "--rounds", "2", "--seed-tasks", "0",
                       "--no-judge", "--no-cache", "--executor", "subprocess", "--store", store,
                       "--stub", f"synthesize_voice=@{stub}", "--format", "json")
    assert code == 0, err
    db = RunStore(store)
    runs = list(db.executions(db.latest_run("fuzz")))
    assert len(runs) >= 3  # the seed and its mutants
    for _, scenario, trace in runs:
        assert scenario.stubs == {"synthesize_voice": "voice.mp3 (recorded by the stub)"}
        voice = [r for r in trace.of_type(ToolResult) if r.tool == "synthesize_voice"]
        assert voice and all((r.fault, r.payload) == ("stub", "voice.mp3 (recorded by the stub)")
                             for r in voice)


def test_a_hasty_selector_breaks_the_specified_order(cli, tmp_path):
    found, data = _failures(cli, tmp_path, f"{TEAM}:selector_team", CARELESS + ":hasty")
    assert data["fuzz"]["dependencies"]  # the Specification Agent's, which the order violates
    assert ("agent_relationship", "Violation of Relationships-based Speaking Order",
            "rel::order") in found


def test_a_voice_actor_that_never_records_omits_its_tool(cli, tmp_path):
    found, _ = _failures(cli, tmp_path, f"{TEAM}:selector_team", CARELESS + ":silent_voice")
    assert ("tool_invocation", "Tool Invocation Omission",
            "task::voice_actor::use::synthesize_voice") in found


def test_the_failure_and_judge_agents_and_the_mapper_in_the_loop(cli, tmp_path):
    """Model-backed oracles on the executions that add coverage: the real violation is confirmed
    and cites its clause, the invented quote is rejected; the report rebuilds it all from the
    store without a model."""
    tester = "scripted/" + str(ROOT / "tests" / "fuzz" / "full_tester.py") + ":policy"
    store = str(tmp_path / "runs.db")
    code, out, err = cli("fuzz", f"{TEAM}:selector_team", "--input", "A video about rain",
                         "--sut-model", VIDEO, "--model", tester, "--map-behaviours",
                         "--rounds", "3", "--seed", "2", "--seed-tasks", "0", "--no-cache",
                         "--executor", "inprocess", "--store", store, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    # what the failure agents found: alone, or the fault a detector found too (one failure that
    # says both found it, with the detector's evidence)
    judged = [f for f in data["failures"] if "failure_agent" in f["found_by"]]
    assert judged and all(f["clause"] and f["evidence"] and f["agent"] for f in judged)
    tester_stats = data["fuzz"]["tester"]
    assert tester_stats["failure_agents"]["rejected"] >= 1  # the sentence nobody said
    assert tester_stats["behaviour_mapper"]["calls"] > 0 and tester_stats["space"]["calls"] == 1
    # the skeleton's nine tasks, plus the atomic behaviours the Space Agent split them into
    assert data["fuzz"]["table1"]["behaviour"]["N"]["total"] > 9
    code, again, _ = cli("report", "--store", store, "--format", "json")
    assert code == 0
    assert json.loads(again)["fuzz"]["table1"] == data["fuzz"]["table1"]


def test_readings_run_beside_the_batch_and_a_seed_still_gives_one_stored_run(cli, tmp_path,
                                                                              monkeypatch):
    """Behaviour mapping and the failure and judge agents are requests the workers run beside
    the executions: at --workers 4 a mutant is mapped as soon as it is recorded, before the
    rest of its batch is (the recorder's order, not a clock), and under --pace batch the same
    seed gives the same stored run twice, whichever request ends first."""
    from masfuzz.campaign.recorder import Recorder
    from masfuzz.fuzz import behaviour_map
    from masfuzz.store.db import RunStore

    log, record, mapping = [], Recorder.record, behaviour_map.map_behaviours

    def recorded(self, scenario, *args, **kwargs):
        log.append(("record", scenario.id))
        return record(self, scenario, *args, **kwargs)

    async def mapped(trace, *args, **kwargs):
        log.append(("map", trace.scenario_id))
        return await mapping(trace, *args, **kwargs)

    monkeypatch.setattr(Recorder, "record", recorded)
    monkeypatch.setattr(behaviour_map, "map_behaviours", mapped)
    tester = "scripted/" + str(ROOT / "tests" / "fuzz" / "full_tester.py") + ":slow"
    runs = []
    for name in ("a", "b"):
        log.clear()
        store = str(tmp_path / f"{name}.db")
        code, out, err = cli("fuzz", f"{TEAM}:selector_team", "--input", "A video about rain",
                             "--sut-model", VIDEO, "--model", tester, "--map-behaviours",
                             "--rounds", "4", "--batch", "4", "--workers", "4", "--seed", "2",
                             "--seed-tasks", "0", "--no-cache", "--executor", "inprocess",
                             "--store", store, "--format", "json")
        assert code == 0, err
        batch = [sid for kind, sid in log if kind == "record"][1:5]  # after the seed
        assert len(batch) == 4
        # the batch's first mutant is mapped before its last one is recorded
        assert log.index(("map", batch[0])) < log.index(("record", batch[-1]))
        with RunStore(store) as db:
            stored = [(sc.id, [type(e).__name__ for e in trace.events])
                      for _, sc, trace in db.executions(db.latest_run())]
        fuzz = json.loads(out)["fuzz"]
        runs.append((stored, fuzz["history"], fuzz["corpus"], fuzz["table1"]))
    assert runs[0] == runs[1]


def test_the_desk_with_its_own_model_has_no_failure_under_mutation(cli, tmp_path):
    """The customer-service desk's restricted call needs a hot triage agent (test_loop.py); with
    the desk's own policy no mutation produces a failure."""
    pytest.importorskip("agents")
    desk = str(EXAMPLES / "customer_service")
    code, out, err = cli("fuzz", desk + "/app.py:triage_agent", "--input",
                         "Change my seat to 14C, booking ABC123", "--input",
                         "How much luggage can I bring?", "--sut-model",
                         f"scripted/{desk}/policy.py:policy", "--rounds", "12", "--seed-tasks",
                         "0", "--no-judge", "--no-spec-agent", "--no-cache", "--executor",
                         "inprocess", "--store", str(tmp_path / "runs.db"), "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["fuzz"]["rounds"] == 12 and not data.get("failures")


def test_fail_on_gates_fuzz_on_the_apps_own_failures(cli, tmp_path):
    argv = ["fuzz", f"{TEAM}:selector_team", "--input", "A 30-second video about the water cycle",
            "--sut-model", VIDEO, "--model", READER, "--rounds", "2", "--seed", "1", "--seed-tasks",
            "0", "--no-judge", "--no-cache", "--executor", "inprocess", "--format", "json"]
    code, out, err = cli(*argv, "--store", str(tmp_path / "a.db"), "--fail-on", "ST")
    assert code == 1 and "--fail-on ST: the system under test has" in err
    assert json.loads(out)["fuzz"]["table1"]["failures"]["ST"] == 1  # the report is printed all the same
    code, _, err = cli(*argv, "--store", str(tmp_path / "b.db"), "--fail-on", "restricted_tool_call")
    assert code == 0, err
