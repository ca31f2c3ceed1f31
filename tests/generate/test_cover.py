"""`masfuzz cover` end to end on the shipped Agents SDK examples, scripted tester and SUT."""

import json
import sqlite3
import os
import subprocess
import sys

import pytest

from masfuzz.store.db import RunStore
from masfuzz.trace import RestrictedAttempt

from tests.conftest import EXAMPLES, ROOT

pytest.importorskip("agents")

CS = str(EXAMPLES / "customer_service" / "app.py") + ":triage_agent"
CS_SUT = "scripted/" + str(EXAMPLES / "customer_service" / "policy.py") + ":policy"
CHAIN = str(EXAMPLES / "travel_chain" / "app.py") + ":concierge"
CHAIN_SUT = "scripted/" + str(EXAMPLES / "travel_chain" / "policy.py") + ":policy"
TESTER = "scripted/" + str(EXAMPLES / "testers" / "template_tester.py") + ":policy"


def _cover(cli, tmp_path, target, sut, *extra):
    code, out, err = cli("cover", target, "--model", TESTER, "--sut-model", sut, "--no-cache",
                         "--store", str(tmp_path / "runs.db"), "--suite", str(tmp_path / "suite.yaml"),
                         "--format", "json", *extra)
    assert code == 0, err
    return json.loads(out)


def test_every_obligation_is_witnessed_or_reported_unrealized(cli, tmp_path):
    data = _cover(cli, tmp_path, CS, CS_SUT)
    gen = data["generation"]
    witnessed = {o["id"] for c in data["obligations"].values() for o in c["items"] if o["witnessed_by"]}
    unrealized = {i for u in gen["unrealized"] for i in u["obligations"]}
    all_ids = {o["id"] for c in data["obligations"].values() for o in c["items"]}
    assert len(all_ids) == 13
    assert all_ids <= witnessed | unrealized
    for u in gen["unrealized"]:
        assert u["attempts"] and all(a["verdict"] for a in u["attempts"])
    # the paper needed 9.0 realizer calls per obligation; the bundled loop must stay within 3
    assert gen["tester_calls_per_obligation"] <= 3
    assert gen["suite_size"]["bundled"] < gen["suite_size"]["one_per_objective"] == 13
    assert data["coverage"]["criteria"]["C2"]["covered"] == 2
    assert data["coverage"]["criteria"]["C4"]["covered"] >= 3
    assert [f["holds"] for f in gen["fault_runs"]] == [True] * 4


def test_c3_comes_only_from_explicit_restricted_attempts(cli, tmp_path):
    data = _cover(cli, tmp_path, CS, CS_SUT)
    with RunStore(tmp_path / "runs.db") as store:
        run = data["generation"]["run_id"]
        contexts = store.contexts(run)
        traces = {s.id: t for _, s, t in store.executions(run)}
    c3 = {k: v for k, v in contexts.items() if k.startswith("restrict_tool::")}
    assert c3, "the scripted triage agent does call update_seat when told to do it itself"
    for ob, scenarios in c3.items():
        _, agent, tool = ob.split("::")
        for sid in scenarios:
            assert any(isinstance(e, RestrictedAttempt) and (e.agent, e.tool) == (agent, tool)
                       for e in traces[sid].events)
    assert data["coverage"]["criteria"]["C3"]["covered"] == len(c3)


def test_multi_hop_target_needs_the_route(cli, tmp_path):
    deep = "delegate::travel_desk::visa_desk"
    with_route = _cover(cli, tmp_path, CHAIN, CHAIN_SUT, "--fresh")
    assert deep not in {i for u in with_route["generation"]["unrealized"] for i in u["obligations"]}
    without = _cover(cli, tmp_path, CHAIN, CHAIN_SUT, "--fresh", "--no-route")
    assert deep in {i for u in without["generation"]["unrealized"] for i in u["obligations"]}


def test_interrupted_run_resumes_from_the_store(cli, tmp_path):
    first = _cover(cli, tmp_path, CS, CS_SUT)
    run = first["generation"]["run_id"]
    total = first["generation"]["executions"]["run"]
    # Simulate a crash half-way: the run is unfinished and its last executions never happened.
    db = sqlite3.connect(tmp_path / "runs.db")
    db.execute("UPDATE runs SET status='running', finished=NULL WHERE id=?", (run,))
    keep = total // 2
    db.execute("DELETE FROM contexts WHERE execution_id IN (SELECT id FROM executions WHERE run_id=? "
               "ORDER BY id LIMIT -1 OFFSET ?)", (run, keep))
    db.execute("DELETE FROM executions WHERE id IN (SELECT id FROM executions WHERE run_id=? "
               "ORDER BY id LIMIT -1 OFFSET ?)", (run, keep))
    db.commit()
    db.close()
    again = _cover(cli, tmp_path, CS, CS_SUT)
    assert again["generation"]["run_id"] == run
    assert again["generation"]["executions"] == {"run": total - keep, "reused_from_store": keep}
    assert again["coverage"]["criteria"] == first["coverage"]["criteria"]


def test_replay_and_pytest_reproduce_the_suite(cli, tmp_path):
    _cover(cli, tmp_path, CS, CS_SUT)
    suite = tmp_path / "suite.yaml"
    code, out, err = cli("replay", str(suite))
    assert code == 0, out + err
    lines = [ln for ln in out.strip().splitlines() if ln.startswith(("ok", "LOST"))]
    assert out.strip().splitlines()[-1] == f"{len(lines)} passed, 0 failed"
    assert "robustness (fault re-runs)" in out  # their own section
    n = len(lines)
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "masfuzz-suite.yaml").write_text(suite.read_text())
    empty = tmp_path / "empty"
    empty.mkdir()
    # the plugin takes replay's settings from the option table: here the executor, from its
    # variable (the in-process executor says it ran the system in masfuzz's own process)
    for args, env in (([str(proj)], {}),
                      (["-s", "--masfuzz-suite", str(suite), str(empty)], {"MASFUZZ_EXECUTOR": "inprocess"})):
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir",
             str(tmp_path), *args],
            capture_output=True, text=True, cwd=tmp_path, timeout=300, env={**os.environ, **env},
        )
        assert f"{n} passed" in proc.stdout, proc.stdout + proc.stderr
        assert ("--executor inprocess" in proc.stdout + proc.stderr) == bool(env)
    # and its timeout, over the 120 s each case was recorded with: a model that takes 60 s a
    # call is stopped at the configured 2 s, and the case fails as a timeout (one case: each
    # waits for its worker to be stopped)
    import yaml

    one = yaml.safe_load(suite.read_text())
    one["cases"] = one["cases"][:1]
    slow_proj = tmp_path / "slow"
    slow_proj.mkdir()
    (slow_proj / "masfuzz-suite.yaml").write_text(yaml.safe_dump(one))
    slow = {"MASFUZZ_TIMEOUT": "2", "SLEEPY_POLICY_DELAY": "60"}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path),
         "--masfuzz-sut-model", f"scripted/{ROOT}/tests/campaign/sleepy_policy.py:policy", str(slow_proj)],
        capture_output=True, text=True, cwd=tmp_path, timeout=600, env={**os.environ, **slow})
    assert "1 failed" in proc.stdout and "timeout: no result within 2 s" in proc.stdout, proc.stdout + proc.stderr
    # `masfuzz replay` bounds the case the same way (one replay under both)
    proc = subprocess.run(
        [sys.executable, "-c", "from masfuzz.cli import run; run()", "replay", str(slow_proj / "masfuzz-suite.yaml"), "--timeout", "2",
         "--sut-model", f"scripted/{ROOT}/tests/campaign/sleepy_policy.py:policy"],
        capture_output=True, text=True, cwd=tmp_path, timeout=600, env={**os.environ, **slow})
    assert proc.returncode == 1 and "0 passed, 1 failed" in proc.stdout, proc.stdout + proc.stderr


def test_replay_reports_a_lost_witness(cli, tmp_path):
    _cover(cli, tmp_path, CS, CS_SUT)
    # The same suite against a system whose agents answer everything themselves loses witnesses.
    lazy = tmp_path / "lazy.py"
    lazy.write_text("from masfuzz.llm.scripted import say\n\ndef policy(request):\n    return say('No.')\n")
    code, out, _ = cli("replay", str(tmp_path / "suite.yaml"), "--sut-model", f"scripted/{lazy}:policy")
    assert code == 1 and "LOST" in out


def test_printed_coverage_is_what_the_saved_suite_replays(cli, tmp_path):
    """Obligations seen only in attempts made for other objectives are kept in the suite: the
    coverage printed is the coverage `replay` reproduces, and the gate's number is printed."""
    data = _cover(cli, tmp_path, CHAIN, CHAIN_SUT, "--no-route")
    covered = {o["id"] for c in data["obligations"].values() for o in c["items"] if o["witnessed_by"]}
    assert "use_tool::visa_desk::check_entry_rules" in covered  # reached by another bundle's attempt
    assert data["generation"]["incidental"]
    code, out, err = cli("replay", str(tmp_path / "suite.yaml"), "--format", "json")
    assert code == 0, err
    assert {h for c in json.loads(out)["cases"] for h in c["held"]} == covered
    gated = data["coverage"]["gated"]
    assert (gated["covered"], gated["total"]) == (6, 6) and gated["criteria"] == "C1+C2+C4"
    code, out, err = cli("report", "--store", str(tmp_path / "runs.db"), "--fail-under", "100")
    assert code == 0 and "C1+C2+C4 (--fail-under)       6/6     100.0%" in out


def test_a_robustness_case_that_failed_when_recorded_is_a_known_finding_not_a_loss(cli, tmp_path):
    import yaml

    _cover(cli, tmp_path, CS, CS_SUT)
    suite = tmp_path / "suite.yaml"
    doc = yaml.safe_load(suite.read_text())
    faults = [c for c in doc["cases"] if c["kind"] == "fault"]
    for c in faults:
        c["attempts"] = [{"holds": False, "reasons": ["as if the campaign had seen it fail"]}]
    doc["cases"] = faults
    suite.write_text(yaml.safe_dump(doc))
    lazy = tmp_path / "lazy.py"
    lazy.write_text("from masfuzz.llm.scripted import say\n\ndef policy(request):\n    return say('No.')\n")
    code, out, err = cli("replay", str(suite), "--sut-model", f"scripted/{lazy}:policy")
    assert code == 0, out + err
    assert out.count("still fails, as recorded (a known finding)") == len(faults)
    # the pytest plugin judges them the same way (one rule: `check_case` on `as_replayed`)
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "masfuzz-suite.yaml").write_text(suite.read_text())
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path),
         "--masfuzz-sut-model", f"scripted/{lazy}:policy", str(proj)],
        capture_output=True, text=True, cwd=tmp_path, timeout=600, env=dict(os.environ))
    assert f"{len(faults)} passed" in proc.stdout and "failed" not in proc.stdout, proc.stdout + proc.stderr
    empty = tmp_path / "empty.yaml"
    doc["cases"] = []
    empty.write_text(yaml.safe_dump(doc))
    code, out, err = cli("replay", str(empty))
    assert code == 1 and "the suite has no case to replay" in err
