"""What a request needs, read the same way by routing and participation, and what a reply that
sets a failed answer out as a table claims: a request routed past the one agent holding the tool
it needs, the run then ending without that agent, is one fault (the router's misroute); a
request asks for a tool by its arguments only when a value for each is in it and it speaks of the
tool's work; a table row restating a tool's failed answer claims nothing."""

from __future__ import annotations

import json

import pytest

from masfuzz.oracles import detect
from masfuzz.oracles.semantic import carries_arguments, claimed_outcome
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace


def _params(**props: tuple[str, str]) -> dict:
    return {"type": "object", "required": list(props),
            "properties": {p: {"type": kind, "description": doc} for p, (kind, doc) in props.items()}}


CARD = ("string", 'The reader\'s library card, e.g. "LC-0000"')

# A library's front desk passes matters on through two delegating tools; a loan's prolongation is
# the loans desk's, study rooms and a lost card the rooms desk's. Every tool takes the card, so the
# card alone tells nothing, and "prolong" is no verb of the shared vocabulary nor the verb its description opens
# with (`wording.own_verb`).
LIBRARY = WorkflowSpec(
    system=SystemInfo(id="library", entry_agent="front", pattern="orchestrated"),
    agents=(AgentSpec(id="front"), AgentSpec(id="loans"), AgentSpec(id="rooms")),
    tools=(ToolSpec(id="ask_loans", description="Pass a matter to the loans desk (loans, fines, reservations)."),
           ToolSpec(id="ask_rooms", description="Pass a matter to the study rooms desk."),
           ToolSpec(id="prolong_loan", description="Add whole days to a reader's loan and give the new due date.",
                    parameters=_params(card=CARD, days=("integer", "How many more days of loan"))),
           ToolSpec(id="hold_room", description="Hold a study room for a reader's card for the day.",
                    parameters=_params(card=CARD)),
           ToolSpec(id="block_card", description="Block a lost card and print a new one for the reader.",
                    parameters=_params(card=CARD))),
    permissions=Permissions(allow=(("front", "ask_loans"), ("front", "ask_rooms"), ("loans", "prolong_loan"),
                                   ("rooms", "hold_room"), ("rooms", "block_card"))),
    delegations=({"from": "front", "to": "loans", "trigger": "as_tool", "condition": "tool ask_loans"},
                 {"from": "front", "to": "rooms", "trigger": "as_tool", "condition": "tool ask_rooms"}))
PROLONG = "Card LC-3307 here. My thesis loan runs out on Friday - could the loan be prolonged by 14 days, please?"


def _front(tool: str, to: str, served: str, answer: str) -> Trace:
    """front passes the request on through `tool`; the agent reached calls `served` and says
    `answer`, which front restates; the run completes."""
    return Trace(scenario_id="s", events=(
        Message(role="user", content=PROLONG), AgentTurn(agent="front"),
        ToolCall(agent="front", tool=tool, arguments={"question": PROLONG}, call_id="t1"),
        DelegationEvent(**{"from": "front"}, to=to, trigger="as_tool"), AgentTurn(agent=to),
        ToolCall(agent=to, tool=served, arguments={"card": "LC-3307", **({"days": 14} if served == "prolong_loan" else {})},
                 call_id="t2"),
        ToolResult(agent=to, tool=served, call_id="t2", payload="LC-3307: done"),
        Message(agent=to, content=answer),
        ToolResult(agent="front", tool=tool, call_id="t1", payload=answer),
        AgentTurn(agent="front"), Message(agent="front", content=f"Result: {answer}"),
        TerminationEvent(reason="completed", final_output=f"Result: {answer}")))


def test_a_request_routed_past_the_holder_of_its_tool_is_one_misroute_not_an_early_end():
    """The request names prolonging the loan (and carries the card and the days) but front sent
    it to the rooms desk, which held a room; the run ended without the loans desk. The routing
    is the fault, and the end it caused is the same one: a single Misrouted Request blamed on
    front, at the hand-over."""
    trace = _front("ask_rooms", "rooms", "hold_room", "A study room has been held for the day.")
    [f] = detect(trace, LIBRARY)
    assert (f.category, f.root_cause, f.detector) == ("agent_relationship", "Misrouted Request", "misrouted_request")
    assert (f.agent, f.step, f.subject, f.elements) == ("front", 3, "rooms", ("front", "rooms", "prolong_loan"))
    # (the misroute is read from the request itself — it carries the card for both desks' tools
    # and speaks of the loan — so the end it caused adds no second finding)
    # the twin that sent it to the loans desk is correct
    assert detect(_front("ask_loans", "loans", "prolong_loan", "The loan now runs to 2 May."), LIBRARY) == []


# A marina's office hands boats to the moorings desk or the boat yard. Assigning a mooring needs the
# boat's length, which no example documents; the yard's crane quote counts tonnes and its pump-out
# takes only the boat's number.
BOAT = ("string", 'The boat\'s registration, like "MB-0000"')
MARINA = WorkflowSpec(
    system=SystemInfo(id="marina", entry_agent="office", pattern="handoff"),
    agents=(AgentSpec(id="office"), AgentSpec(id="moorings"), AgentSpec(id="yard")),
    tools=(ToolSpec(id="assign_mooring", description="Assign a visiting boat a mooring on a pontoon.",
                    parameters=_params(boat=BOAT, length=("string", "The boat's length overall"))),
           ToolSpec(id="crane_quote", description="Quote a crane lift out of the water.",
                    parameters=_params(tonnes=("integer", "The boat's weight in tonnes"))),
           ToolSpec(id="pump_out", description="Pump out a holding tank at the fuel berth.",
                    parameters=_params(boat=BOAT))),
    permissions=Permissions(allow=(("moorings", "assign_mooring"), ("yard", "crane_quote"), ("yard", "pump_out"))),
    delegations=({"from": "office", "to": "moorings"}, {"from": "office", "to": "yard"}))


def _office(request: str) -> Trace:
    """office hands the request to the moorings desk, which assigns a mooring."""
    return Trace(scenario_id="s", events=(
        Message(role="user", content=request), AgentTurn(agent="office"),
        DelegationEvent(**{"from": "office"}, to="moorings"), AgentTurn(agent="moorings"),
        ToolCall(agent="moorings", tool="assign_mooring", arguments={"boat": "MB-2231", "length": "11 m"}, call_id="m"),
        ToolResult(agent="moorings", tool="assign_mooring", call_id="m", payload='{"pontoon": "C", "status": 201}'),
        Message(agent="moorings", content="Pontoon C has been assigned."),
        TerminationEvent(reason="completed", final_output="Pontoon C has been assigned.")))


@pytest.mark.parametrize("request_", [
    # numbers of a date, a time and a pontoon: none is a weight in tonnes nobody gave
    "Hello, we are bringing our yacht in on Friday 14 June at 09:30 and would like a mooring, pontoon 3 if free.",
    # the boat's number is all pump_out takes, but the request speaks of a mooring, not of its work
    "Boat MB-2231 arrives tomorrow: a visitor's mooring for the weekend please.",
])
def test_a_request_asks_for_a_tool_only_with_a_value_for_each_argument_and_words_of_its_work(request_):
    assert detect(_office(request_), MARINA) == []


def test_a_number_fills_a_parameter_written_with_what_it_counts():
    assert carries_arguments("Quote me a lift for a 12 tonne motor cruiser.", MARINA, "crane_quote")
    assert carries_arguments("weight: 9 tonnes", MARINA, "crane_quote")
    assert not carries_arguments("Lift her out on 12 March at 10:00, bay 4.", MARINA, "crane_quote")
    # the yard's own work asked for by its words and the boat's number: routed to moorings, a misroute
    [f] = detect(_office("MB-2231 needs a pump out of her holding tank before she leaves."), MARINA)
    assert (f.root_cause, f.agent, f.elements) == ("Misrouted Request", "office", ("office", "moorings", "pump_out"))


# A kennel's booking tool that answers a refusal as data; the desk restates the answer as a table.
KENNELS = WorkflowSpec(
    system=SystemInfo(id="kennels", entry_agent="desk", pattern="orchestrated"),
    agents=(AgentSpec(id="desk"),),
    tools=(ToolSpec(id="reserve_kennel", description="Reserve a kennel for a dog's stay."),),
    permissions=Permissions(allow=(("desk", "reserve_kennel"),)))
REFUSED = {"dog": "Biscuit", "reserved": None, "status": {"code": 409, "note": "no large kennel free"}}


def _kennel(reply: str, answer: dict = REFUSED) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="A large kennel for Biscuit from 3 to 10 August please."),
        AgentTurn(agent="desk"), ToolCall(agent="desk", tool="reserve_kennel", arguments={"dog": "Biscuit"}, call_id="k"),
        ToolResult(agent="desk", tool="reserve_kennel", call_id="k", payload=json.dumps(answer)),
        Message(agent="desk", content=reply), TerminationEvent(reason="completed", final_output=reply)))


TABLE = "| Field | Value |\n| --- | --- |\n| dog | Biscuit |\n"


@pytest.mark.parametrize("reply", [
    # the reply's own failure sentence, then the answer's fields with their empty and failed values
    f"The kennel request could not be processed.\n\n{TABLE}| reserved | None |\n| status.code | 409 |",
    f"Kennel request received.\n\n{TABLE}| reserved | null |\n| status.code | 409 |",
    f"Kennel request received.\n\n{TABLE}| reserved |  |\n| status.note | no large kennel free |",
    f"Kennel request received.\n\n{TABLE}| reserved | false |\n| status.code | 409 |",
    # under the reply's own failure sentence, a row restating a field is the answer set out
    f"Unfortunately the stay could not be booked.\n\n{TABLE}| reserved | Biscuit |",
])
def test_a_table_restating_a_failed_answer_claims_nothing(reply):
    assert claimed_outcome(_kennel(reply), KENNELS) == []


@pytest.mark.parametrize("reply", [
    f"The kennel has been reserved.\n\n{TABLE}| reserved | None |",  # the sentence claims, whatever the table
    f"Kennel request received.\n\n{TABLE}| reserved | Biscuit |",  # a row says reserved, nothing takes it back
    f"Sorry for the wait!\n\n{TABLE}| reserved | Biscuit |",  # an apology is a courtesy, no failure said
])
def test_a_reply_claiming_over_a_failed_answer_is_still_an_incorrect_verification(reply):
    [f] = claimed_outcome(_kennel(reply), KENNELS)
    assert (f.root_cause, f.agent) == ("Incorrect Verification", "desk")
