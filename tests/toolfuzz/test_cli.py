import json

import pytest

from masfuzz.cli import main

from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "tools"
POLICIES = EXAMPLES / "policies.py"


def test_tools_command_reports_errors_with_reproducers_and_requests(capsys):
    code = main(["tools", f"{EXAMPLES}/map_search.py:open_street_map_search", "--calls", "200", "--seed", "5",
                 "--model", f"scripted/{POLICIES}:tester", "--sut-model", f"scripted/{POLICIES}:agent"])
    out, err = capsys.readouterr()
    assert code == 0 and "seed 5" in err
    assert "IndexError: list index out of range" in out and "AssertionError: Query is too long" in out
    assert "user request:" in out and "reproduce:" in out
    assert "UE 2" in out and "TC/UE 100.0" in out and "Chao1" in out and "95% CI" in out


def test_tools_command_json_on_ten_real_langchain_tools(capsys):
    pytest.importorskip("langchain_community")
    code = main(["tools", f"{EXAMPLES}/langchain_tools.py:TOOLS", "--calls", "60", "--seed", "7", "--format", "json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "masfuzz-tools/1" and data["seed"] == 7
    assert len(data["tools"]) >= 10 and all(t["kind"] == "langchain" for t in data["tools"])
    assert data["totals"]["unique_errors"] >= 5
    erring = [t for t in data["tools"] if t["unique_errors"]]
    assert len(erring) >= 5
    for t in data["tools"]:  # UE counts the tool's own errors; masfuzz's are listed, not counted
        own = [e for e in t["errors"] if e["attribution"] == "sut"]
        assert t["unique_errors"] == len(own) and t["not_the_tools"] == len(t["errors"]) - len(own)
    for t in erring:
        assert t["tc_per_ue"] == t["calls"] / t["unique_errors"]
        assert t["chao1"]["lower"] <= t["chao1"]["estimate"] <= t["chao1"]["upper"]
        assert all(e["arguments"] and e["key"] for e in t["errors"])


def test_correctness_without_a_model_is_a_one_line_error(capsys):
    code = main(["tools", f"{EXAMPLES}/control.py:celsius_to_fahrenheit", "--correctness", "--seed", "1"])
    assert code == 2
    assert "need a model" in capsys.readouterr().err


def test_bad_target_is_a_one_line_error(capsys):
    code = main(["tools", f"{EXAMPLES}/control.py:nothing_here", "--seed", "1"])
    assert code == 2 and "nothing_here" in capsys.readouterr().err


def test_tools_findings_are_stored_and_report_shows_them(capsys, tmp_path):
    store = str(tmp_path / "runs.db")
    code = main(["tools", f"{EXAMPLES}/map_search.py:open_street_map_search", "--calls", "200",
                 "--seed", "5", "--store", store])
    printed = capsys.readouterr().out
    assert code == 0 and "UE 2" in printed
    from masfuzz.store.db import RunStore

    with RunStore(store) as db:
        run = db.latest_run()
        findings = db.tool_findings(run)
    assert sorted(f["exception"] for f in findings) == ["AssertionError", "IndexError"]
    assert all(f["tool"] == "open_street_map_search" and f["arguments"] is not None for f in findings)
    code = main(["report", "--store", store])
    out = capsys.readouterr().out
    assert code == 0 and out.splitlines()[0] == f"run {run}: masfuzz tools {EXAMPLES}/map_search.py:open_street_map_search (completed)"
    assert printed in out  # the very report `masfuzz tools` printed
    code = main(["report", "--store", store, "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert data["tools"]["session"]["totals"]["unique_errors"] == 2
    assert len(data["tools"]["findings"]) == 2


def test_fail_on_gives_a_non_zero_exit_only_for_the_kinds_found(capsys):
    base = ["tools", f"{EXAMPLES}/map_search.py:open_street_map_search", "--calls", "60", "--seed", "5",
            "--model", f"scripted/{POLICIES}:tester", "--sut-model", f"scripted/{POLICIES}:agent"]
    assert main([*base, "--fail-on", "any"]) == 1  # the tool crashes on inputs an agent sends
    assert "--fail-on any" in capsys.readouterr().err
    assert main([*base, "--fail-on", "RC"]) == 1
    assert main([*base, "--fail-on", "TI"]) == 0  # no correctness run, so no wrong answers
    capsys.readouterr()
    clean = ["tools", f"{EXAMPLES}/control.py:celsius_to_fahrenheit", "--calls", "40", "--seed", "1",
             "--fail-on", "any"]
    assert main(clean) == 0  # a tool that never fails passes the gate
    assert "UE 0" in capsys.readouterr().out


def test_a_module_that_builds_its_model_client_as_it_loads_is_fuzzed_and_reproduced(
        tmp_path, monkeypatch, capsys):
    """As exec loads an app, so do `tools` and the reproducer it prints: a key variable left unset
    holds a dummy while the module loads, so `OpenAI()` at import does not stop either."""
    import shlex
    import subprocess
    import sys

    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    app = tmp_path / "keyed_tools.py"
    app.write_text("import openai\nclient = openai.OpenAI()\n\n\ndef shout(text: str) -> str:\n"
                   "    \"\"\"Shout a text.\"\"\"\n    return text.upper() + text[0]\n")
    code = main(["tools", f"{app}:shout", "--calls", "30", "--seed", "3", "--format", "json",
                 "--store", str(tmp_path / "t.db")])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    [tool] = json.loads(out)["tools"]
    [finding] = [e for e in tool["errors"] if e["error_type"] == "IndexError"]
    argv = shlex.split(finding["reproduce"])
    ran = subprocess.run([sys.executable, *argv[1:]], capture_output=True, text=True, timeout=120)
    assert "IndexError" in ran.stderr and "OpenAIError" not in ran.stderr, ran.stderr[-500:]


def test_a_tools_run_longer_than_its_lease_keeps_it_and_a_second_claim_is_refused(capsys, tmp_path, monkeypatch):
    import threading
    import time
    import types

    from masfuzz.campaign import session
    from masfuzz.store import db
    from masfuzz.store.db import RunLeased, RunStore
    from masfuzz.toolfuzz.session import FuzzSession

    # the store's clock stands still unless the test moves it: the lease expires when the test
    # says, whatever the machine's load; renewal is due every 0.1 s of real time
    now = [time.time()]
    monkeypatch.setattr(db, "time", types.SimpleNamespace(time=lambda: now[0], monotonic=time.monotonic,
                                                          sleep=time.sleep))
    monkeypatch.setattr(session, "LEASE_TTL", 0.3)
    renewed = threading.Event()
    renew = RunStore.renew_lease

    def spy(self, *args, **kwargs):
        renew(self, *args, **kwargs)
        renewed.set()

    monkeypatch.setattr(RunStore, "renew_lease", spy)
    store = str(tmp_path / "runs.db")
    claims: list[str] = []
    real = FuzzSession.test_tool

    async def mid_way(self, tool, **kwargs):
        now[0] += 60  # the lease taken at the start has long expired
        renewed.clear()
        renewed.wait(30)  # the keeper's next renewal (a generous bound: without one, the claim below succeeds)
        with RunStore(store) as other:
            [run] = other.db.execute("SELECT id, config FROM runs").fetchall()
            try:
                other.claim_run("tools", f"{EXAMPLES}/map_search.py:open_street_map_search",
                                json.loads(run[1]), "elsewhere:1")
                claims.append("claimed")
            except RunLeased as exc:
                claims.append(str(exc))
        return await real(self, tool, **kwargs)

    monkeypatch.setattr(FuzzSession, "test_tool", mid_way)
    code = main(["tools", f"{EXAMPLES}/map_search.py:open_street_map_search", "--calls", "2",
                 "--seed", "5", "--store", store])
    assert code == 0, capsys.readouterr().err
    [said] = claims
    assert "is being worked on by another masfuzz process" in said
    with RunStore(store) as db_:  # finished: the lease let go
        assert db_.db.execute("SELECT status, lease_owner FROM runs").fetchall() == [("completed", None)]
