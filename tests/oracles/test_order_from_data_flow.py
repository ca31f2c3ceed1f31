"""A speaking order whose dependency lives only in the tools' data flow: an agent takes the floor
before its sibling, lists a required argument of its own tool as wanting (its name spelt out,
no documented form to recognise a value by), and the sibling's tool, acting later, answers a
structured result with a field of that very name. Nothing in the desks' lines names the other.
Violation of Relationships-based Speaking Order, blamed on the early speaker; the working order,
and a sibling whose answer leaves the field empty, are no finding. End to end through
`masfuzz exec`, a LangGraph sequence of prebuilt ReAct agents driven by a policy that reads
only the tools' schemas and the conversation (`data_flow_order_app.py`)."""

from __future__ import annotations

import json

import pytest

from masfuzz.oracles.wording import lists_missing

pytestmark = pytest.mark.usefixtures("in_repo")  # the targets are named relative to it

APP = "tests/oracles/data_flow_order_app.py"
POLICY = f"scripted/{APP}:policy"


def _exec(cli, factory: str, text: str):
    code, out, err = cli("exec", f"{APP}:{factory}", "--input", text, "--sut-model", POLICY,
                         "--executor", "inprocess", "--no-cache", "--format", "json", "--failures")
    assert code == 0, err
    data = json.loads(out)
    return data["trace"], [f for f in data["failures"] if f["detector"] == "instructed_order"]


def test_an_argument_asked_for_before_the_sibling_whose_tool_answers_it_by_name(cli):
    trace, [f] = _exec(cli, "pricer_first", "How much would a wool carpet for our lounge be?")
    assert (f["root_cause"], f["agent"], f["elements"]) == (
        "Violation of Relationships-based Speaking Order", "pricer", ["measurer", "pricer"])
    asked, made = trace["events"][f["evidence"][1]], trace["events"][f["evidence"][2]]
    assert asked["agent"] == "pricer" and "floor area" in asked["content"]
    assert made["tool"] == "survey_floor" and '"floor_area": 18.5' in made["payload"]


def test_the_working_order_is_no_finding(cli):
    trace, found = _exec(cli, "measurer_first", "How much would a wool carpet for our lounge be?")
    assert found == [] and any(e["type"] == "tool_call" and e["tool"] == "price_carpet" for e in trace["events"])


def test_a_field_the_sibling_leaves_empty_made_nothing(cli):
    # the landing is not in the survey file: survey_floor answers floor_area null
    _, found = _exec(cli, "pricer_first", "How much would a wool carpet for the landing be?")
    assert found == []


@pytest.mark.parametrize("text,listed", [
    ("To go ahead, we need the following:\n- floor area\nWould you send those over?", True),
    ("Before pricing I need 2 thing(s):\n1. floor area\n2. pile\nCan you send them?", False),  # no label opening
    ("We still need two details:\n* floor area\n* pile", True),
    ("I need your help: the floor is uneven.", False),  # a need that lists no names
])
def test_i_need_may_count_or_point_at_what_it_lists(text, listed):
    assert lists_missing(text) is listed
