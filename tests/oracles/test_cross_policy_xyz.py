"""The zoo's twins under the newest scripted models they were not written for (policy_x, an
apologetic assistant; policy_y, a normaliser writing tables and `key: value` notes; policy_z, an
analyst that works by code): what each showed the oracles, as a class, beside its twin that must
still be read as before.

- misrouted request: a request carrying every argument of two tools of one desk (a look-up and a
  booking both take the day) names neither tool's action and object; the desk it was routed past
  is still the one it wants when it speaks of one tool's description in two content words or more
  ("a group booking ... the bouldering session" of "Book a group onto a bouldering session"), as
  `participation` reads a needed member. Seen when the wrong desk only asked the user for a value
  of its own tool, so that no early end stood in for the misroute.
- information loss: a required parameter whose form the tool documents, left empty ("") by an
  agent whose hand-over input lacked the user's value of that form, is the loss showing, whatever
  the parameter is named (`subscriber`, named for no kind of fact).
"""

from __future__ import annotations

from masfuzz.oracles.instructed import misrouted_request
from masfuzz.oracles.semantic import handover_facts
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import HANDOVER_INPUTS, AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

# -- misrouted request: a desk's two tools carried, one of them described --------------------------

_DAY = {"type": "string", "description": 'The day, e.g. "2026-01-31"'}


def _wall() -> WorkflowSpec:
    """A climbing wall's reception passing callers to the gear desk (hire prices) or the sessions
    desk (free slots, group bookings)."""
    def params(**props):
        return {"type": "object", "required": list(props), "properties": props}

    return WorkflowSpec(
        system=SystemInfo(id="climbing_wall", entry_agent="reception", pattern="handoff"),
        agents=(AgentSpec(id="reception", instructions="Transfer to gear_desk for shoes and harnesses.\n"
                                                      "Transfer to sessions_desk for parties."),
                AgentSpec(id="gear_desk", description="Prices shoes and harnesses to hire.",
                          instructions="Price what the caller asks about with hire_price."),
                AgentSpec(id="sessions_desk", description="Runs the wall's timetable.",
                          instructions="Check the day with check_slots. Book with book_wall_time.")),
        tools=(ToolSpec(id="hire_price", description="Hire prices of climbing kit.",
                        parameters=params(item={"type": "string", "description": "What the caller wants, in their words"})),
               ToolSpec(id="check_slots", description="Free places in each session of a date.", parameters=params(day=_DAY)),
               ToolSpec(id="book_wall_time", description="Book a group onto a bouldering session at the wall.",
                        parameters=params(day=_DAY, slot={"type": "string", "enum": ["morning", "afternoon"]},
                                          climbers={"type": "integer",
                                                    "description": 'How many people climb, e.g. "8"'}))),
        delegations=tuple(Delegation(from_=a, to=b, trigger="handoff") for a, b in (
            ("reception", "gear_desk"), ("reception", "sessions_desk"))),
        permissions=Permissions(allow=(("gear_desk", "hire_price"), ("sessions_desk", "check_slots"),
                                       ("sessions_desk", "book_wall_time"))))


_GROUP = ("hello! it's our office away day on 2026-09-05 - 9 climbers want the bouldering session in the "
          "afternoon, group booking under Ana Ruiz. do we need our own shoes or are they included?")


def _routed(to: str, request: str = _GROUP) -> Trace:
    if to == "gear_desk":  # the wrong desk asks for a value of its own tool, and the run waits
        work = (Message(agent="gear_desk", content="Please provide: item (format ABC123)\nCan you send it?"),)
    else:
        work = (ToolCall(agent=to, tool="book_wall_time", call_id="c1",
                         arguments={"day": "2026-09-05", "slot": "afternoon", "climbers": 9}),
                ToolResult(agent=to, tool="book_wall_time", call_id="c1", status="ok", payload='{"ok": true, "ref": "BW-31"}'),
                Message(agent=to, content="| item | status | ref |\n| --- | --- | --- |\n| session | done | BW31 |"))
    return Trace(scenario_id="s", events=(
        Message(role="user", content=request), AgentTurn(agent="reception"),
        DelegationEvent(from_="reception", to=to, trigger="handoff"), AgentTurn(agent=to), *work,
        TerminationEvent(reason="completed", final_output=work[-1].content)))


def test_a_group_booking_handed_to_the_wrong_desk_is_misrouted_though_two_tools_take_its_values():
    [f] = misrouted_request(_routed("gear_desk"), _wall())
    assert f.root_cause == "Misrouted Request" and f.agent == "reception" and "book_wall_time" in f.description


def test_the_booking_handed_to_the_desk_that_books_is_no_misroute():
    assert misrouted_request(_routed("sessions_desk"), _wall()) == []


def test_values_a_look_up_and_a_booking_share_tell_nothing_without_a_descriptions_words():
    """The same values, the request speaking of neither tool's description: nothing tells which
    tool it wants, and the oracle stays silent."""
    request = "hi, it's 9 of us on 2026-09-05 in the afternoon - do we need our own shoes or are they included?"
    assert misrouted_request(_routed("gear_desk", request), _wall()) == []


# -- information loss: a documented parameter left empty in the lost value's place -------------------

def _nursery() -> WorkflowSpec:
    """A plant nursery's front desk passing standing orders to the orders desk, whose tool is keyed
    by a customer number named for no kind of fact (`grower`)."""
    params = {"type": "object", "required": ["grower", "size"], "properties": {
        "grower": {"type": "string", "description": 'The grower number on the invoice, e.g. "GN-00000"'},
        "size": {"type": "string", "enum": ["small", "large"]}}}
    return WorkflowSpec(
        system=SystemInfo(id="nursery", entry_agent="front", pattern="handoff"),
        agents=(AgentSpec(id="front", instructions="Hand standing orders to orders_o."),
                AgentSpec(id="orders_o", instructions="Repeat the order with repeat_order.")),
        tools=(ToolSpec(id="repeat_order", description="Repeat a grower's standing order of plug plants.",
                        parameters=params),),
        delegations=(Delegation(from_="front", to="orders_o", trigger="handoff"),),
        permissions=Permissions(allow=(("orders_o", "repeat_order"),)))


_ORDER = "Morning! Same as last spring please, the large tray of plug plants. I'm grower GN-40817, it's on the invoice."


def _handed(received: str, grower: str) -> Trace:
    return Trace(scenario_id="s", meta={HANDOVER_INPUTS: [{"agent": "front", "since": 1, "text": _ORDER},
                                                          {"agent": "orders_o", "since": 3, "text": received}]},
                 events=(Message(role="user", content=_ORDER), AgentTurn(agent="front"),
                         DelegationEvent(from_="front", to="orders_o", trigger="handoff"), AgentTurn(agent="orders_o"),
                         ToolCall(agent="orders_o", tool="repeat_order", call_id="c1",
                                  arguments={"grower": grower, "size": "large"}),
                         ToolResult(agent="orders_o", tool="repeat_order", call_id="c1", status="ok",
                                    payload='{"order": {"done": false, "why": "no grower"}}' if not grower
                                    else '{"order": {"done": true, "ref": "SO-881"}}'),
                         Message(agent="orders_o", content="Nothing further from me."),
                         TerminationEvent(reason="completed", final_output="Nothing further from me.")))


def test_a_documented_parameter_left_empty_when_the_users_value_never_reached_the_agent_is_a_loss():
    [f] = handover_facts(_handed("", ""), _nursery())
    assert f.root_cause == "Information Loss at Hand-over" and f.agent == "front" and "grower empty" in f.description


def test_the_value_that_reached_the_agent_and_was_used_is_no_loss():
    assert handover_facts(_handed(_ORDER, "GN-40817"), _nursery()) == []
