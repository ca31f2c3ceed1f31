"""Procedures drafted in formal English open a condition with "Where" ("Where book_room reports
409, state ..."): a sentence that only uses a tool's result under that condition presupposes the
call and asks for none, so the line that asks for the tool under its own scope decides whether
the run owes it (`flare.tool_omission`). "Where" inside a sentence ("ask where the guest is
staying") is no condition."""

from __future__ import annotations

import re

from masfuzz.oracles.flare import _conditions, tool_omission
from masfuzz.graph.specification import skeleton
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, Trace

DESK = ("Boathouse desk, Fenwick Rowing Club. Boats only.\n"
        "1. Bookings are to be made by means of book_scull (applies to requests concerning sculls, "
        "singles or doubles).\n"
        "2. Where book_scull reports 409, state \"That boat is already out at that time.\"\n"
        "3. Confirm the booking to the member.")
WF = WorkflowSpec(
    system=SystemInfo(id="boathouse", entry_agent="desk", pattern="orchestrated"),
    agents=(AgentSpec(id="desk", instructions=DESK),),
    tools=(ToolSpec(id="book_scull", description="Book a scull for an outing."),),
    permissions=Permissions(allow=(("desk", "book_scull"),)))
SCULL = re.compile(r"\bbook_scull\b")


def _owed(said: str) -> bool:
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=said), AgentTurn(agent="desk"),
        Message(agent="desk", content="The boathouse opens at 6am."),
        TerminationEvent(reason="completed", final_output="The boathouse opens at 6am.")))
    return any(f.root_cause == "Tool Invocation Omission" for f in tool_omission(trace, skeleton(WF), WF))


def test_a_where_clause_on_the_tools_result_asks_for_no_call():
    assert _conditions("2. Where book_scull reports 409, state \"That boat is out.\"", SCULL) == ["book_scull reports 409"]
    assert _conditions(DESK, SCULL) == ["requests concerning sculls, singles or doubles"]
    assert not _owed("What time does the boathouse open on Sundays?")
    assert _owed("Could I take a single scull out on Saturday at 7?")


def test_where_inside_a_sentence_is_no_condition():
    assert _conditions("Call book_scull, then tell the member where the boat is racked.", SCULL) == [""]
