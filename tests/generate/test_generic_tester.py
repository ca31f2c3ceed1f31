"""The generic deterministic tester (`masfuzz.generate.generic_tester`): requests written from
the system's own descriptions and schemas, with no domain words of its own, that drive `cover`
on the shipped examples of every framework as far as the airline tester drives its own desk."""

import json

import pytest

from masfuzz.generate.generic_tester import value, write

from tests.conftest import EXAMPLES

GENERIC = "scripted/masfuzz.generate.generic_tester:policy"
AIRLINE = "scripted/" + str(EXAMPLES / "testers" / "template_tester.py") + ":policy"


def _gated(cli, tmp_path, target, sut, tester, name):
    code, out, err = cli("cover", str(EXAMPLES / target), "--model", tester, "--sut-model",
                         "scripted/" + str(EXAMPLES / sut), "--no-cache", "--executor", "inprocess",
                         "--store", str(tmp_path / f"{name}.db"), "--suite", str(tmp_path / f"{name}.yaml"),
                         "--format", "json")
    assert code == 0, err
    return json.loads(out)["coverage"]["gated"]["percent"]


def test_it_drives_every_framework_as_far_as_the_airline_tester_drives_its_desk(cli, tmp_path):
    pytest.importorskip("agents")
    pytest.importorskip("autogen_agentchat")
    pytest.importorskip("langgraph")
    bar = _gated(cli, tmp_path, "customer_service/app.py:triage_agent",
                 "customer_service/policy.py:policy", AIRLINE, "airline")
    assert bar > 80
    for target, sut in [("customer_service/app.py:triage_agent", "customer_service/policy.py:policy"),
                        ("research_graph/graph.py:graph", "research_graph/policy.py:policy"),
                        ("video_team/team.py:round_robin_team", "video_team/policy.py:policy")]:
        assert _gated(cli, tmp_path, target, sut, GENERIC, target.split("/")[0]) >= bar, target


def test_its_words_come_from_the_system():
    tool = {"id": "lookup_order", "description": "",
            "parameters": {"properties": {
                "order_id": {"type": "string", "description": "An eight-character order code."},
                "status": {"type": "string", "enum": ["open", "closed"]},
                "when": {"type": "string", "format": "date"},
                "count": {"type": "integer", "minimum": 3},
                "note": {"type": "string", "description": "A short note, such as 'fragile'."},
                # a quoted example is taken whole, as the oracles read it, not cut at its first word
                "topic": {"type": "string", "description": 'What the form is for, like "change of address".'},
                "weight": {"type": "string", "description": "The parcel's weight, e.g. 1.2 kg"}}}}
    text = write({"family": "UseTool", "agent": {"id": "clerk", "description": ""}, "tool": tool})
    assert text.startswith("Please use lookup order.")  # its name spelled out: no description
    props = tool["parameters"]["properties"]
    assert [value(n, s, tool) for n, s in props.items()] == ["A1B2C3D4", "open", "2026-01-15", 4, "fragile",
                                                              "change of address", "1.2 kg"]
    delegate = write({"family": "Delegate", "agent": {"id": "desk"},
                      "child": {"id": "billing_agent", "description": "Handles refunds. Polite."}})
    assert delegate == "I need help from someone who handles refunds."
    assert "  " not in text and " ." not in text
