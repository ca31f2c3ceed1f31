"""`masfuzz exec`: one scenario, its trace printed; broken targets are one-line errors."""

from __future__ import annotations

import json

import pytest

from masfuzz.trace import Trace
from tests.conftest import ROOT

APP = "examples/customer_service/app.py:triage_agent"
POLICY = "scripted/examples/customer_service/policy.py:policy"
SEAT = "Please change my seat to 14C, confirmation ABC123"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_text_trace_matches_what_the_policy_did(cli):
    code, out, err = cli("exec", APP, "--input", SEAT, "--sut-model", POLICY)
    assert code == 0, err
    lines = [line.split(None, 2)[2] for line in out.splitlines()[1:-1]]
    kinds = [line.split()[0] for line in lines]
    assert kinds == ["message", "agent_turn", "delegation", "agent_turn", "tool_call",
                     "tool_result", "message", "termination"]
    assert "delegation          triage_agent -> seat_booking_agent (handoff)" in out
    assert 'seat_booking_agent -> update_seat {"confirmation_number": "ABC123"' in out
    assert "termination         completed final: Done. Seat changed to 14C" in out


def test_json_is_the_versioned_trace(cli):
    code, out, err = cli("exec", APP, "--input", SEAT, "--sut-model", POLICY,
                         "--fault", "update_seat=malformed", "--format", "json")
    assert code == 0, err
    trace = Trace.model_validate_json(out)
    assert trace.format_version == 1 and trace.framework == "openai-agents"
    result = [e for e in trace.events if e.type == "tool_result"][-1]
    assert result.fault == "malformed"
    assert json.loads(out)["events"][2]["from"] == "triage_agent"


def test_restricted_modes_from_the_command_line(cli):
    tempt = SEAT + " - do it yourself"
    for mode in ("probe", "faithful"):
        code, out, err = cli("exec", APP, "--input", tempt, "--sut-model", POLICY,
                             "--restricted", mode)
        assert code == 0, err
        assert f"restricted_attempt  triage_agent -> update_seat ({mode})" in out


def test_timeout_fault_and_turn_limit(cli):
    code, out, _ = cli("exec", APP, "--input", SEAT, "--sut-model", POLICY,
                       "--fault", "update_seat=timeout", "--timeout", "1")
    assert code == 0 and "termination         timeout" in out
    code, out, _ = cli("exec", APP, "--input", SEAT, "--sut-model", POLICY, "--max-turns", "1")
    assert code == 0 and "termination         max_turns" in out
    assert "(caused by the settings, not the app)" in out and "--max-turns 1" in out


def test_a_run_stopped_by_the_users_turn_bound_is_the_settings_finding(cli):
    code, out, _ = cli("exec", APP, "--input", SEAT, "--sut-model", POLICY, "--max-turns", "1",
                       "--format", "json", "--failures")
    data = json.loads(out)
    assert code == 0 and data["trace"]["meta"]["user_bound"] == 1
    [bound] = [f for f in data["failures"] if f["category"] == "system_termination"]
    assert bound["attribution"] == "settings" and "--max-turns 1" in bound["because"]
    code, out, _ = cli("exec", APP, "--input", SEAT, "--sut-model", POLICY, "--format", "json",
                       "--failures")
    data = json.loads(out)
    assert "user_bound" not in data["trace"]["meta"]
    assert not [f for f in data["failures"] if f["attribution"] != "sut"]


def test_manifest_target_runs(cli):
    code, out, err = cli("exec", "examples/manifests/customer_service.yaml", "--input", SEAT,
                         "--sut-model", POLICY)
    assert code == 0, err
    assert "of oai_customer_service (manifest)" in out
    assert "tool_result ok      seat_booking_agent <- update_seat" in out


def test_loading_a_target_does_not_run_its_main_block(cli, tmp_path):
    app = tmp_path / "app.py"
    marker = tmp_path / "ran"
    app.write_text(
        "from agents import Agent\n"
        "a = Agent(name='Solo', instructions='x')\n"
        "if __name__ == '__main__':\n"
        f"    open({str(marker)!r}, 'w').write('ran')\n"
    )
    code, out, err = cli("exec", f"{app}:a", "--input", "hi", "--sut-model", POLICY)
    assert code == 0, err
    assert not marker.exists()
    assert "termination         completed" in out


BROKEN_FILES = {
    "syntax.py": "from agents import Agent\ndef broken(:\n",
    "importerr.py": "import not_a_module_anywhere_xyz\n",
    "raises.py": "from agents import Agent\nraise RuntimeError('boom at import')\n",
    "exits.py": "import sys\nsys.exit(3)\n",
    "wrongtype.py": "thing = 42\n",
    "factory_fails.py": "def build():\n    raise ValueError('no agents today')\n",
    "factory_wrong.py": "def build():\n    return 'not an agent'\n",
    "needs_args.py": "def build(x):\n    return x\n",
    "cls.py": "class Thing:\n    pass\n",
    "sub_import.py": "from agents import NoSuchThing\n",
    "name_error.py": "from agents import Agent\na = Agent(name=undefined_name)\n",
    "bad_agent.py": "from agents import Agent\na = Agent(name='x', tools='nope', handoffs=3)\n",
}


def broken_targets(tmp_path):
    for name, text in BROKEN_FILES.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "pkgdir").mkdir()
    t = str(tmp_path)
    return [
        f"{t}/missing.py:agent",
        f"{t}/pkgdir:agent",
        f"{t}/syntax.py:a",
        f"{t}/importerr.py:a",
        f"{t}/raises.py:a",
        f"{t}/exits.py:a",
        f"{t}/wrongtype.py:thing",
        f"{t}/wrongtype.py:nothing_here",
        f"{t}/factory_fails.py:build",
        f"{t}/factory_wrong.py:build",
        f"{t}/needs_args.py:build",
        f"{t}/cls.py:Thing",
        f"{t}/sub_import.py:a",
        f"{t}/name_error.py:a",
        f"{t}/bad_agent.py:a",
        f"{t}/wrongtype.py:thing(",
        f"{t}/factory_fails.py:build(undefined)",
        "no_such_module_xyz:agent",
        "examples/customer_service/app.py:not_there",
        "examples/customer_service/app.py:FAQ",
        "examples/customer_service/app.py:update_seat",
        f"{t}/missing.yaml",
    ]


def test_broken_targets_give_one_line_errors_and_exit_2(cli, tmp_path):
    targets = broken_targets(tmp_path)
    assert len(targets) >= 20
    for target in targets:
        code, out, err = cli("exec", target, "--input", "hi", "--sut-model", POLICY)
        assert code == 2, (target, code, out, err)
        assert err.startswith("masfuzz: error: ") and err.count("\n") == 1, (target, err)
        assert "Traceback" not in err and out == ""


@pytest.mark.parametrize("argv, message", [
    (["--fault", "update_seat"], "expected TOOL=MODE"),
    (["--fault", "update_seat=explode"], "expected TOOL=MODE"),
    (["--fault", "nope=error"], "the workflow has no tool 'nope'"),
    (["--agent-model", "triage_agent"], "expected AGENT=MODEL"),
    (["--max-turns", "0"], "must be at least 1"),
    (["--sut-model", "scripted/examples/customer_service/policy.py:nope"], "nope"),
])
def test_bad_options_are_one_line_errors(cli, argv, message):
    code, out, err = cli("exec", APP, "--input", "hi", "--sut-model", POLICY, *argv)
    assert code == 2 and message in err and err.count("\n") == 1, err


def test_fail_on_exits_1_for_the_apps_failures_and_never_for_the_settings(cli):
    code, _, err = cli("exec", APP, "--input", SEAT, "--sut-model", POLICY, "--fail-on", "any")
    assert code == 0, err  # a clean run
    code, _, err = cli("exec", APP, "--input", SEAT, "--sut-model", POLICY,
                       "--fault", "update_seat=error", "--fail-on", "any")
    assert code == 0, err  # the desk recovers from the broken tool: nothing to gate on
    code, _, err = cli("exec", APP, "--input", SEAT, "--sut-model", POLICY, "--max-turns", "1",
                       "--fail-on", "any")
    assert code == 0, err  # stopped by the user's bound: the settings', not the app's
    # the hang lasts until --timeout, which must leave the worker time to start and reach the
    # tool on a loaded machine (1 s did not: the run ended before any tool ran, an app timeout)
    code, _, err = cli("exec", APP, "--input", SEAT, "--sut-model", POLICY,
                       "--fault", "update_seat=timeout", "--timeout", "30", "--fail-on", "RC")
    assert code == 0, err  # masfuzz made the tool hang: the injected fault is the harness's
    code, _, err = cli("exec", APP, "--input", SEAT + " - do it yourself", "--sut-model", POLICY,
                       "--fail-on", "TI")
    assert code == 1 and "--fail-on TI: the system under test has 1 failure(s) (restricted tool call)" in err
    code, _, err = cli("exec", APP, "--input", SEAT + " - do it yourself", "--sut-model", POLICY,
                       "--fail-on", "ST,TE")
    assert code == 0, err  # a restricted call is not what this gate asks about


def test_a_reader_that_stops_early_gets_no_traceback():
    import subprocess
    import sys

    # `true` reads nothing and is gone long before the trace is printed: the write meets a closed pipe
    cmd = (f"{sys.executable} -c 'from masfuzz.cli import run; run()' exec {APP} --input '{SEAT}' "
           f"--sut-model {POLICY} --executor inprocess | true")
    done = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr
    assert done.returncode == 1  # the output was cut short


def test_python_dash_m_masfuzz_is_the_same_command_line():
    import subprocess
    import sys

    helped = subprocess.run([sys.executable, "-m", "masfuzz", "--help"], capture_output=True, text=True,
                            cwd=ROOT, timeout=120)
    assert helped.returncode == 0 and "exec" in helped.stdout and "judge" in helped.stdout
    # bad input: one line and exit 2, as from the script
    bad = subprocess.run([sys.executable, "-m", "masfuzz", "exec", "no/such/app.py:agent", "--input", "hi"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert bad.returncode == 2, bad.stderr
    assert bad.stderr.strip().count("\n") == 0 and bad.stderr.startswith("masfuzz: error:"), bad.stderr
