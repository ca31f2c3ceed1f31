"""Two classes a blind set showed missed.

A team whose speaking order the app's code gives (AG2's speaker-selection function: every
hand-over `sequence`), which goes round to its bound after the work is done and told, each desk
signing off in turn: the team had finished and its stop test never fired (Termination Condition
Violation, no agent blamed), as for a round-robin; not a Max Round Limit, nor an agents' loop.
Where the agents choose who speaks (hand-overs by tool), the same rounds stay theirs.

A request that names the object of a tool's name by one of its kinds, a value of the closed list
of the tool's parameter named for that object ("a badminton court" is asked as "badminton" for
book_court, whose `court` takes squash, badminton or padel): the request asks for that tool, so
a run that ended before its only holder acted ended early (Premature Termination)."""

from __future__ import annotations

from masfuzz.oracles import detect
from masfuzz.oracles.wording import asks_for
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

# -- a coded order going round after the work is done ----------------------------------------------

SIGN_OFF = "That is everything from this desk."


def _hostel(trigger: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="hostel", entry_agent="beds_b", framework="ag2", pattern="orchestrated"),
        agents=(AgentSpec(id="beds_b", instructions="Hold a bunk with hold_bunk."),
                AgentSpec(id="meals_m", instructions="Add the breakfast with add_breakfast.")),
        tools=(ToolSpec(id="hold_bunk", description="Hold a bunk in the dormitory."),
               ToolSpec(id="add_breakfast", description="Add breakfast to a stay.")),
        permissions=Permissions(allow=(("beds_b", "hold_bunk"), ("meals_m", "add_breakfast"))),
        delegations=(Delegation(**{"from": "beds_b"}, to="meals_m", trigger=trigger),
                     Delegation(**{"from": "meals_m"}, to="beds_b", trigger=trigger)),
        termination={"conditions": ("chat_manager: max_round=10", "chat_manager: is_termination_msg")})


def _rounds(trigger: str) -> Trace:
    events: list = [Message(role="user", content="A bunk for 2026-05-02 please, with breakfast.")]
    for agent, tool, answer, told in (
            ("beds_b", "hold_bunk", "{'held': 'DB-771', 'night': '2026-05-02'}", "Bunk DB-771 is held for 2026-05-02."),
            ("meals_m", "add_breakfast", "{'added': 'BF-204'}", "Breakfast BF-204 is added.")):
        if events[-1:] and isinstance(events[-1], Message) and events[-1].agent:
            events.append(DelegationEvent(**{"from": events[-1].agent}, to=agent, trigger=trigger))
        events += [AgentTurn(agent=agent), ToolCall(agent=agent, tool=tool, call_id=tool, arguments={}),
                   ToolResult(agent=agent, tool=tool, call_id=tool, payload=answer),
                   Message(agent=agent, role="assistant", content=told)]
    for k in range(6):
        agent, prev = ("beds_b", "meals_m") if k % 2 == 0 else ("meals_m", "beds_b")
        events += [DelegationEvent(**{"from": prev}, to=agent, trigger=trigger), AgentTurn(agent=agent),
                   Message(agent=agent, role="assistant", content=SIGN_OFF)]
    events.append(TerminationEvent(reason="message_limit", detail="Maximum rounds (10) reached",
                                   final_output=SIGN_OFF))
    return Trace(scenario_id="s", events=tuple(events))


def test_a_coded_order_going_round_after_the_work_is_its_stop_test_s_fault():
    found = detect(_rounds("sequence"), _hostel("sequence"))
    ends = [(f.root_cause, f.agent) for f in found if f.category == "system_termination"]
    assert ends == [("Termination Condition Violation", None)]
    assert not [f for f in found if f.detector == "loop"]


def test_agents_that_choose_who_speaks_keep_their_rounds():
    found = detect(_rounds("handoff"), _hostel("handoff"))
    assert ("Termination Condition Violation", None) not in [(f.root_cause, f.agent) for f in found]


# -- a request naming a tool's object by one of its kinds --------------------------------------------

COURTS = {"type": "object", "required": ["court", "day"], "properties": {
    "court": {"type": "string", "enum": ["squash", "badminton", "padel"]},
    "day": {"type": "string"}}}
ASK = "Hi there, could you book us the badminton on Friday evening? Four of us from the office."


def _club(parameters: dict) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="club", entry_agent="front_f", framework="langgraph", pattern="graph"),
        agents=(AgentSpec(id="front_f", instructions="Welcome the member."),
                AgentSpec(id="courts_c", instructions="Book the court with book_court.")),
        tools=(ToolSpec(id="book_court", description="Book a sports hall court.", parameters=parameters),),
        permissions=Permissions(allow=(("courts_c", "book_court"),)),
        delegations=(Delegation(**{"from": "front_f"}, to="courts_c", trigger="graph_edge"),))


def test_a_kind_from_the_object_s_closed_list_names_the_object():
    assert asks_for(ASK, "book_court", _club(COURTS))
    free = {**COURTS, "properties": {**COURTS["properties"], "court": {"type": "string"}}}
    assert not asks_for(ASK, "book_court", _club(free))  # no list: "badminton" is not said to be a court
    assert not asks_for("Could you book us the squash ladder final?", "book_court",
                        _club({**COURTS, "properties": {"court": {"type": "string", "enum": ["no", "1"]}}}))


def test_a_graph_that_ended_at_the_welcome_cut_out_the_court_desk():
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=ASK), AgentTurn(agent="front_f"),
        Message(agent="front_f", role="assistant", content="Thanks for writing in, lovely to hear from the office team!"),
        TerminationEvent(reason="completed", detail="the graph reached END",
                         final_output="Thanks for writing in, lovely to hear from the office team!")))
    [f] = [f for f in detect(trace, _club(COURTS)) if f.root_cause == "Premature Termination"]
    assert (f.agent, f.elements) == ("front_f", ("front_f", "courts_c"))
