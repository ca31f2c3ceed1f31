"""Three oracle classes a procedural writer's systems showed, over hand-built specs and traces,
each beside its correct twin: a tool refusing a call on its merits (cover lapsed, not eligible)
is no rejection of the argument's form, even when a documented date in the call is one that
only the documented order reads; an agent asking for a fact by its tool's description in a
statement ("I require the following: the meter serial, e.g. ...") and a bare "could you provide
it?"; and a tool's refusal naming a step another agent's tool takes ("no valuation on file")
showing that agent spoke too late."""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import instructed_order
from masfuzz.oracles.semantic import handover_facts, tool_doc_mismatch
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, ToolCall, ToolResult, Trace
from tests.oracles.test_other_phrasings import _end, _params


# -- a refusal on the merits is no rejection of the form ------------------------------------------

KENNEL = WorkflowSpec(
    system=SystemInfo(id="kennel", entry_agent="desk", pattern="handoff"),
    agents=(AgentSpec(id="desk", instructions="Board dogs with `board_dog`."),),
    tools=(ToolSpec(id="board_dog", description="Board a member's dog.",
                    parameters=_params(member='The membership number, like "KC-0000"',
                                       arrival="The arrival day as DD/MM/YYYY")),),
    permissions=Permissions(allow=(("desk", "board_dog"),)))


def _board(payload: str, arrival: str = "23/07/2026") -> Trace:
    return _end(Message(role="user", content=f"Can Biscuit stay from {arrival}? Member KC-4410."),
                AgentTurn(agent="desk"),
                ToolCall(agent="desk", tool="board_dog", call_id="b", arguments={"member": "KC-4410", "arrival": arrival}),
                ToolResult(agent="desk", tool="board_dog", call_id="b", status="ok", payload=payload),
                Message(agent="desk", content="I'm sorry, that didn't go through."))


@pytest.mark.parametrize("payload", [
    # a date only the documented day-first order reads, but the refusal names the member, not it
    "Refusal(member='KC-4410', state='refused', why='membership lapsed on 01/06/2026, renewal unpaid')",
    # a refusal filed under the parameter, for what the member may have, not how it is written
    '{"status": "refused", "field": "member", "reason": "KC-4410 is not eligible: vaccinations overdue"}',
])
def test_a_refusal_on_the_merits_is_no_specification_mismatch(payload):
    assert tool_doc_mismatch(_board(payload), KENNEL) == []


def test_a_documented_date_the_tool_reads_the_other_way_round_is_still_a_mismatch():
    [f] = tool_doc_mismatch(_board("{\"state\": \"refused\", \"arrival\": \"no 23rd month in '23/07/2026'\"}"), KENNEL)
    assert f.elements == ("desk", "board_dog", "arrival")
