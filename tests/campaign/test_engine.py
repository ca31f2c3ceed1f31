"""The campaign engine under `cover`: one analysis for cover and report, one opening of the
target, tester failures recorded rather than fatal, and budgets."""

import json
import re

import pytest

from tests.conftest import EXAMPLES, ROOT
from tests.generate.test_cover import CS, CS_SUT, TESTER, _cover

pytest.importorskip("agents")


def _scrub(doc):
    """Times differ between two renderings of one run; nothing else may."""
    text = json.dumps(doc, sort_keys=True)
    text = re.sub(r'"(started|finished|wall_time|seconds)": [0-9.eE+-]+', r'"\1": 0', text)
    return json.loads(text)


def test_cover_and_report_print_the_same_document(cli, tmp_path):
    data = _cover(cli, tmp_path, CS, CS_SUT)
    code, out, err = cli("report", "--store", str(tmp_path / "runs.db"), "--format", "json",
                         "--obligations")
    assert code == 0, err
    assert _scrub(json.loads(out)) == _scrub(data)
    assert data["generation"]["realized"] and data["failures"] is not None


def test_a_factory_target_is_built_once_per_process(cli, tmp_path):
    app = tmp_path / "countapp.py"
    app.write_text((EXAMPLES / "customer_service" / "app.py").read_text() +
                   "\nBUILT = []\n\n\ndef build():\n    BUILT.append(1)\n    return triage_agent\n")
    _cover(cli, tmp_path, f"{app}:build()", CS_SUT, "--executor", "inprocess")
    import sys
    mod = next(m for m in sys.modules.values() if getattr(m, "__file__", None) == str(app))
    assert mod.BUILT == [1]


def test_tester_timeouts_are_recorded_and_the_campaign_completes(cli, tmp_path):
    flaky = "scripted/" + str(ROOT / "tests" / "campaign" / "flaky_tester.py") + ":policy"
    code, out, err = cli("cover", CS, "--model", flaky, "--sut-model", CS_SUT, "--no-cache",
                         "--model-timeout", "0.5", "--attempts", "1", "--faults", "none",
                         "--store", str(tmp_path / "runs.db"), "--suite", str(tmp_path / "s.yaml"),
                         "--format", "json")
    assert code == 0, err
    gen = json.loads(out)["generation"]
    failed = [u for u in gen["unrealized"]
              if any("tester model failed" in a["verdict"] and "no reply within 0.5 s" in a["verdict"]
                     for a in u["attempts"])]
    assert failed, gen["unrealized"]
    assert gen["realized"], "the calls that answered still realize their objectives"
    # the exit status follows --fail-under, not the failed calls
    code, _, err = cli("report", "--store", str(tmp_path / "runs.db"), "--fail-under", "100")
    assert code == 1 and "under --fail-under 100%" in err


def test_budget_stops_the_campaign_and_says_so(cli, tmp_path):
    data = _cover(cli, tmp_path, CS, CS_SUT, "--budget-executions", "3")
    gen = data["generation"]
    assert sum(1 for _ in gen["realized"]) + len(gen["unrealized"]) == gen["bundles"]
    assert gen["stopped"] == "3 executions done"
    assert data["coverage"]["scenarios"] == 3


def test_a_finished_campaign_is_not_started_over(cli, tmp_path):
    first = _cover(cli, tmp_path, CS, CS_SUT)
    code, out, err = cli("cover", CS, "--model", TESTER, "--sut-model", CS_SUT, "--no-cache",
                         "--store", str(tmp_path / "runs.db"), "--suite", str(tmp_path / "suite.yaml"))
    assert code == 0
    assert f"run {first['run']['id']} of this configuration is already complete" in err


def test_reports_are_chosen_by_name_and_written_to_files(cli, tmp_path):
    data = _cover(cli, tmp_path, CS, CS_SUT)
    store = str(tmp_path / "runs.db")
    code, out, err = cli("report", "--store", store, "--obligations", "--report",
                         f"json:{tmp_path / 'out' / 'r.json'}", "--report", f"text:{tmp_path / 'r.txt'}",
                         "--report", "text")
    assert code == 0, err
    assert _scrub(json.loads((tmp_path / "out" / "r.json").read_text())) == _scrub(data)
    assert (tmp_path / "r.txt").read_text() == out  # the terminal got the same text
    assert not list(tmp_path.glob("**/.*.tmp"))
    code, _, err = cli("report", "--store", store, "--report", "pdf")
    assert code == 2 and "FORMAT one of text, json, junit, sarif" in err
