"""Each semantic oracle end to end: a real Agents SDK or AgentChat system run by a scripted
policy through `masfuzz exec --format json --failures`, the buggy system beside its fixed twin."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.usefixtures("in_repo")  # the targets are named relative to it

POLICY = "scripted/tests/oracles/semantic_policy.py:policy"
APPS = "tests/oracles/semantic_apps.py"
TEAMS = "tests/oracles/semantic_teams.py"
TEAM_POLICY = "scripted/tests/oracles/semantic_teams.py:policy"
SEAT = "Please move me to seat 14C, confirmation ABC123"
POST = "Write a short post about the water cycle; the reviewer must check it before it is published."


def _exec(cli, target, text, policy=POLICY, *extra):
    code, out, err = cli("exec", target, "--input", text, "--sut-model", policy, "--format", "json",
                         "--failures", *extra)
    assert code == 0, err
    data = json.loads(out)
    return data["trace"], data["failures"]


def test_kind1_a_success_claimed_after_the_tool_failed(cli):
    app = "examples/customer_service/app.py:triage_agent"
    trace, failures = _exec(cli, app, SEAT + " (boastful)", POLICY, "--fault", "update_seat=error")
    [f] = failures
    assert (f["detector"], f["root_cause"], f["agent"]) == (
        "claimed_outcome", "Incorrect Verification", "seat_booking_agent")
    claim = trace["events"][f["step"]]
    assert claim["type"] == "message" and "has been changed" in claim["content"]
    assert trace["events"][f["evidence"][0]]["status"] == "error"
    _, failures = _exec(cli, app, SEAT, POLICY, "--fault", "update_seat=error")
    assert failures == []  # the careful agent says the change did not go through


def test_kind2_a_handoff_filter_that_drops_the_customers_words(cli):
    trace, failures = _exec(cli, f"{APPS}:forgetful_triage", SEAT)
    [f] = failures
    assert (f["detector"], f["root_cause"], f["agent"]) == (
        "handover_facts", "Information Loss at Hand-over", "triage_agent")
    assert trace["events"][f["step"]]["type"] == "delegation"
    [given] = [x for x in trace["meta"]["handover_inputs"] if x["agent"] == "seat_booking_agent"]
    assert "ABC123" not in given["text"]
    trace, failures = _exec(cli, f"{APPS}:careful_triage", SEAT)
    [given] = [x for x in trace["meta"]["handover_inputs"] if x["agent"] == "seat_booking_agent"]
    assert failures == [] and "ABC123" in given["text"]


def test_kind3_a_stop_word_that_ends_the_team_before_the_reviewer(cli):
    trace, failures = _exec(cli, f"{TEAMS}:stop_word_team", POST, TEAM_POLICY)
    [f] = failures
    assert (f["detector"], f["root_cause"], f["agent"], f["elements"]) == (
        "participation", "Premature Termination", "writer", ["writer", "reviewer"])
    assert trace["events"][f["step"]]["content"].startswith("FINAL DRAFT")
    _, failures = _exec(cli, f"{TEAMS}:researcher_first_team", POST, TEAM_POLICY)
    assert failures == []


def test_kind4_a_round_robin_order_that_puts_the_writer_first(cli):
    trace, failures = _exec(cli, f"{TEAMS}:writer_first_team", POST, TEAM_POLICY)
    [f] = failures
    assert (f["detector"], f["root_cause"], f["agent"]) == (
        "instructed_order", "Violation of Relationships-based Speaking Order", "writer")
    assert trace["events"][f["step"]] == {**trace["events"][f["step"]], "type": "agent_turn",
                                          "agent": "writer"}


def test_kind5_seat_changes_routed_to_the_faq_agent(cli):
    trace, failures = _exec(cli, f"{APPS}:misrouting_triage", SEAT)
    [f] = failures
    assert (f["detector"], f["root_cause"], f["agent"], f["elements"]) == (
        "misrouted_request", "Misrouted Request", "triage_agent",
        ["triage_agent", "faq_agent", "update_seat"])
    assert trace["events"][f["step"]]["to"] == "faq_agent"
    _, failures = _exec(cli, f"{APPS}:routing_triage", SEAT)
    assert failures == []


def test_kind6_a_tool_refusing_the_date_form_it_documents(cli):
    text = "Book me a flight to Lisbon on March 14, 2025"
    trace, failures = _exec(cli, f"{APPS}:date_booker", text)
    by = {f["detector"]: f for f in failures}
    # one fault, the tool's: the agent's apology after the rejection is no second finding
    assert set(by) == {"tool_doc_mismatch"}
    mismatch = by["tool_doc_mismatch"]
    assert (mismatch["root_cause"], mismatch["agent"], mismatch["elements"]) == (
        "Tool Specification Mismatch", None, ["booking_agent", "book_flight", "date"])
    assert trace["events"][mismatch["step"]]["type"] == "tool_result"
    _, failures = _exec(cli, f"{APPS}:iso_booker", text)
    assert failures == []
