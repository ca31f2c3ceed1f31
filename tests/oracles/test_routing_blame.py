"""Misrouted requests where the app's code routes (`misrouted_request`), end to end through
`masfuzz exec` on real AG2, LangGraph and Agents SDK systems (tests/oracles/routing_apps.py,
tests/oracles/dispatch_app.py, the zoo's music office), each seeded system beside its fixed twin, and the oracle's
reading of a classifier's label on a trace.

- An AG2 group whose next speaker a function of the app picks by reading the request is a
  router of the app's code, read as a LangGraph router out of START is: a request it sends to a
  member that cannot serve it is a misroute blamed on the function (no agent), not the premature
  end of a run that never reached the member holding the tool. So is one that gives the turn
  to a greeter first and picks the worker after it, through helpers and tables of names.
- A plain Python function that picks which Agents SDK agent to run is such a router too.
- A classifier that said the label its instructions give, which the router function reading it
  does not know or its table maps to the wrong agent, did its job: the function's table is the
  defect (no agent blamed).
"""

from __future__ import annotations

import json

import pytest

from masfuzz.oracles.instructed import misrouted_request
from masfuzz.spec.model import ENTERED_BY, ROUTE_LABELS, AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

APPS = "tests/oracles/routing_apps.py"
POLICY = "scripted/examples/zoo/policy.py:policy"
LESSON = "Hi, could I book my son Leo into a beginners lesson on 2026-03-14?"
EXAM = "Could you put Maisie, MS-20417, in for her Piano Grade 3 exam?"
REFUND = "Hello, please refund order ORD-4471, the kettle arrived broken."
TYRE = "Hi, the front tyre on my commuter split on the canal path - ticket BK-5521, could you put a new 700x32c one on before Friday?"


def _failures(cli, target: str, text: str) -> list[dict]:
    code, out, err = cli("exec", target, "--input", text, "--sut-model", POLICY, "--executor", "inprocess",
                         "--no-cache", "--format", "json", "--failures")
    assert code in (0, 1), err
    return json.loads(out)["failures"]


@pytest.mark.usefixtures("in_repo")
@pytest.mark.parametrize("framework, app, seeded, fixed, text, elements", [
    # an AG2 group's selection function reading the request: the info desk it passed over in
    # the fixed twin was one of its choices, not a member the run needed
    ("autogen", APPS, "ag2_swim_desk_seeded", "ag2_swim_desk_fixed", LESSON,
     ["router next_speaker", "info", "book_lesson"]),
    # the same function gives the turn to a greeter first, then picks the mechanic through a
    # helper and a table of names, reading the greeter's welcome instead of the request: the
    # misroute is the pick after the greeter, whatever message the code read
    ("autogen", APPS, "ag2_bike_workshop_seeded", "ag2_bike_workshop_fixed", TYRE,
     ["router next_speaker", "brakes_m", "fit_tyre"]),
    # `agent = refunds if "Refund" in text else shipping; await Runner.run(agent, text)`: the
    # app's own code chooses, so extraction reads the function as a router of both agents
    ("agents", "tests/oracles/dispatch_app.py", "handle_seeded", "handle_fixed", REFUND,
     ["router handle_seeded", "shipping", "refund_order"]),
    # the same as a plain function running its agent with `Runner.run_sync` (it crashed inside
    # masfuzz's event loop, a crash of masfuzz's making reported as the app's)
    ("agents", "tests/oracles/dispatch_app.py", "handle_sync", "handle_fixed", REFUND,
     ["router handle_sync", "shipping", "refund_order"]),
    # the zoo's music office: its classifier says ENTRY, its router's table still has ENTRIES
    ("langgraph", "examples/zoo/lg_piano_exam_misroute.py", "seeded", "fixed", EXAM,
     ["router route", "a4", "enter_candidate"]),
    # the same office whose table maps the classifier's right label to the wrong agent
    ("langgraph", "tests/oracles/label_table_app.py", "seeded", "fixed", EXAM,
     ["router route", "a3", "enter_candidate"]),
])
def test_a_request_the_app_s_code_routes_wrong_is_a_misroute_blamed_on_the_code(
        cli, framework, app, seeded, fixed, text, elements):
    pytest.importorskip(framework)
    [f] = _failures(cli, f"{app}:{seeded}", text)
    assert (f["root_cause"], f["agent"], f["elements"]) == ("Misrouted Request", None, elements)
    assert _failures(cli, f"{app}:{fixed}", text) == []


OFFICE = WorkflowSpec(
    system=SystemInfo(id="office", entry_agent="sorter", pattern="graph"),
    agents=(AgentSpec(id="sorter", instructions='Say "EXAM" when the request mentions exam or grade.\nSay "OTHER".',
                      model_settings={ROUTE_LABELS: ["EXAMS", "OTHER"]}),
            AgentSpec(id="entries"), AgentSpec(id="office")),
    tools=(ToolSpec(id="enter_candidate", description="Enter a pupil for a graded exam."),
           ToolSpec(id="term_dates", description="The school's term dates.")),
    permissions=Permissions(allow=(("entries", "enter_candidate"), ("office", "term_dates"))),
    delegations=tuple(Delegation.model_validate({"from": "sorter", "to": to, "trigger": "graph_edge",
                                                 "condition": f"route -> {to}"}) for to in ("entries", "office")))


def _sorted(label: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Please enter Maisie for her piano exam, grade 3."),
        AgentTurn(agent="sorter"), Message(agent="sorter", content=label),
        DelegationEvent.model_validate({"from": "sorter", "to": "office", "trigger": "graph_edge"}),
        AgentTurn(agent="office"), ToolCall(agent="office", tool="term_dates", call_id="c", arguments={}),
        ToolResult(agent="office", tool="term_dates", call_id="c", payload="Summer term: 20 Apr-17 Jul."),
        Message(agent="office", content="Summer term: 20 Apr-17 Jul."),
        TerminationEvent(reason="completed", final_output="Summer term: 20 Apr-17 Jul.")))


@pytest.mark.parametrize("label, blamed", [
    ("EXAM", None),  # its instructions' label, unknown to the router: the table is wrong
    ('"EXAM".', None),
    ("OTHER", "sorter"),  # a label the router knows, and the wrong one: the classifier's choice
    ("I think this is about exams", "sorter"),  # no label its instructions give
])
def test_a_classifier_is_blamed_only_when_the_router_knew_its_label(label, blamed):
    [f] = misrouted_request(_sorted(label), OFFICE)
    assert (f.agent, f.step) == (blamed, 3)


# the router knows EXAM but its table sends it to the office: the right label wrongly mapped
MAPPED = OFFICE.model_copy(update={"agents": (
    OFFICE.agent("sorter").model_copy(update={"model_settings": {ROUTE_LABELS: ["EXAM", "OTHER"]}}),
    *OFFICE.agents[1:])})


@pytest.mark.parametrize("label, blamed", [
    ("EXAM", None),  # the label its instructions give for this request: the table maps it wrong
    ("OTHER", "sorter"),  # its default line, though its EXAM rule covers the request: its own choice
])
def test_a_right_label_the_router_s_table_maps_to_the_wrong_agent_is_the_table_s(label, blamed):
    [f] = misrouted_request(_sorted(label), MAPPED)
    assert (f.agent, f.elements[0], f.step) == (blamed, "router route" if blamed is None else "sorter", 3)


def test_a_router_s_first_pick_after_a_greeter_it_does_not_choose_is_judged():
    """The app's router gives the turn after a greeter that is no choice of its own (the
    framework's default speaker, a fixed first step): its pick then is the route judged."""
    chosen = {ENTERED_BY: "pick_desk"}
    spec = WorkflowSpec(
        system=SystemInfo(id="council", entry_agent="greeter", pattern="orchestrated"),
        agents=(AgentSpec(id="greeter"), AgentSpec(id="bins", model_settings=chosen),
                AgentSpec(id="parking", model_settings=chosen)),
        tools=(ToolSpec(id="book_collection", description="Book a bulky waste collection."),
               ToolSpec(id="renew_permit", description="Renew a resident's parking permit.")),
        permissions=Permissions(allow=(("bins", "book_collection"), ("parking", "renew_permit"))),
        delegations=tuple(Delegation.model_validate({"from": "greeter", "to": to, "trigger": "sequence"})
                          for to in ("bins", "parking")))
    events = (Message(role="user", content="Could you renew my parking permit? It runs out on Friday."),
              AgentTurn(agent="greeter"), Message(agent="greeter", content="Hello! Passing you on."),
              DelegationEvent(**{"from": "greeter"}, to="bins", trigger="sequence"), AgentTurn(agent="bins"),
              Message(agent="bins", content="Which items should we collect?"),
              TerminationEvent(reason="completed"))
    [f] = misrouted_request(Trace(scenario_id="s", events=events), spec)
    assert (f.agent, f.step, f.elements) == (None, 3, ("router pick_desk", "bins", "renew_permit"))
