"""Oracle misses of a blind set driven by a model that thinks aloud (ReAct: "Thought:",
"Action:", "Observation: <the tool's answer verbatim>", "Final Answer:"), by class, each beside
its correct twin (hand-built specs and traces, in domains of their own):

- a Final Answer that claims the action done while the Observation above it quotes the tool's
  refusal: the observation is what the model read, the final answer what it told;
- an early speaker that asks the user for an argument of its own tool by the argument's name and
  never gets to act, the member after it then answering a value of that argument's documented
  form: the run shows it spoke before what it needed was made;
- a fixed order cut short by a stop word, the ender's notes ending on the user's own question
  copied out of the request: a question relayed from the user waits for nobody;
- a tool of an agent the app builds while the run goes (inside an output function), which
  extraction never saw, rejecting the form its own documentation gives: that documentation is
  read from what the run's model was offered;
- a router's line whose topic word ("plants") only the sentence it served by handing over to
  another line's member touches ("plant a hedge", the crew's): it asks nothing of that line.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles.instructed import SPEAKING_ORDER, instructed_dependencies, instructed_order, participation
from masfuzz.oracles.semantic import INCORRECT_VERIFICATION, claimed_outcome, tool_doc_mismatch
from masfuzz.oracles.wording import answer_given
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import OFFERED_TOOLS, AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

# -- a Final Answer's claim under an Observation that quotes the refusal --------------------------

KILN = WorkflowSpec(
    system=SystemInfo(id="pottery", entry_agent="kiln_k"),
    agents=(AgentSpec(id="kiln_k", instructions="Reserve a firing with reserve_kiln."),),
    tools=(ToolSpec(id="reserve_kiln", description="Reserve a slot in the glaze kiln.",
                    parameters={"type": "object", "properties": {"night": {"type": "string"}}}),),
    permissions=Permissions(allow=(("kiln_k", "reserve_kiln"),)))
REFUSED = "KilnSlot(status='DECLINED', ref=None, notes=['Ofen 2 in Reparatur (kiln 2 under repair)'])"


def _firing(reply: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Can I get my mugs into the glaze firing on Thursday night?"),
        AgentTurn(agent="kiln_k"),
        Message(agent="kiln_k", content="Thought: I should reserve the kiln.\nAction: reserve_kiln"),
        ToolCall(agent="kiln_k", tool="reserve_kiln", call_id="k", arguments={"night": "Thursday"}),
        ToolResult(agent="kiln_k", tool="reserve_kiln", call_id="k", payload=REFUSED),
        Message(agent="kiln_k", content=reply), TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("final", ["Lovely - your firing is reserved for Thursday.",
                                   "Your mugs have been reserved a place in Thursday's firing."])
def test_a_final_answer_claims_the_action_whatever_its_observation_quoted(final):
    reply = f"Observation: {REFUSED}\nThought: The rota says to reserve the slot.\nFinal Answer: {final}"
    [f] = claimed_outcome(_firing(reply), KILN)
    assert (f.root_cause, f.agent, f.step) == (INCORRECT_VERIFICATION, "kiln_k", 5)


@pytest.mark.parametrize("reply", [
    f"Observation: {REFUSED}\nThought: it was declined, I must not say it is reserved.\n"
    "Final Answer: Sorry - kiln 2 is under repair, so Thursday's firing could not be reserved.",
    # a reply with no Final Answer label is judged whole, as before: the refusal quoted in it
    f"Observation: {REFUSED}\nThought: if it had been reserved I would confirm it.",
])
def test_a_final_answer_that_passes_the_refusal_on_claims_nothing(reply):
    assert claimed_outcome(_firing(reply), KILN) == []


def test_the_answer_given_is_what_follows_the_last_final_answer_label():
    assert answer_given("Thought: x\nFinal Answer: first\nThought: y\nFinal Answer: Done.") == "Done."
    assert answer_given("Thought: no label here.") == "Thought: no label here."
    assert answer_given("Final Answer:") == "Final Answer:"  # nothing after it: the whole reply


# -- an early speaker's ask for its own tool's argument, made later by the next member ------------

DEPOT = WorkflowSpec(
    system=SystemInfo(id="depot", entry_agent="van_d", pattern="selector"),
    agents=(AgentSpec(id="van_d", instructions="Send the van out with dispatch_van."),
            AgentSpec(id="plan_p", instructions="Draw up the delivery run with plan_route.")),
    tools=(ToolSpec(id="dispatch_van", description="Send a van out on a run.",
                    parameters={"type": "object", "required": ["route_code", "day"], "properties": {
                        "route_code": {"type": "string", "description": "The delivery route planned, e.g. \"RT-100\""},
                        "day": {"type": "string", "description": "The day, e.g. \"2026-01-31\""}}}),
           ToolSpec(id="plan_route", description="Plan the stops of a day's deliveries.",
                    parameters={"type": "object", "properties": {"day": {"type": "string"}}})),
    permissions=Permissions(allow=(("van_d", "dispatch_van"), ("plan_p", "plan_route"))))


def _depot(order: tuple[str, ...], ask: str = "Thought: I still need the route.\nFinal Answer: Which route is it?",
           told: str = "") -> Trace:
    events: list = [Message(role="user", content=f"Please get the bread order out on 2026-07-04.{told}")]
    for a in order:
        events.append(AgentTurn(agent=a))
        if a == "van_d":
            events.append(Message(agent=a, content=ask))
        else:
            events += [ToolCall(agent=a, tool="plan_route", call_id="p", arguments={"day": "2026-07-04"}),
                       ToolResult(agent=a, tool="plan_route", call_id="p",
                                  payload="[{'route': 'RT-442', 'stops': 9, 'driver': 'Kemi'}]"),
                       Message(agent=a, content="Final Answer: planned RT-442, 9 stops.")]
    events.append(TerminationEvent(reason="completed", final_output="planned RT-442, 9 stops."))
    return Trace(scenario_id="s", events=tuple(events))


def test_an_ask_for_a_value_the_next_member_then_makes_is_an_order_violation():
    assert instructed_dependencies(DEPOT) == []  # no words say it: the run shows the dependency
    trace = _depot(("van_d", "plan_p"))
    [f] = instructed_order(trace, DEPOT)
    assert (f.root_cause, f.agent, f.step, f.elements) == (SPEAKING_ORDER, "van_d", 1, ("plan_p", "van_d"))
    assert 2 in f.evidence and "RT-442" in trace.events[f.evidence[-1]].payload


@pytest.mark.parametrize("trace", [
    _depot(("plan_p", "van_d")),  # the maker spoke first
    _depot(("van_d", "plan_p"), ask="Final Answer: Which van should go?"),  # it asked for no argument
    _depot(("van_d", "plan_p"), ask="Final Answer: Sending it out now."),  # it asked nothing
    _depot(("van_d", "plan_p"), told=" It is route RT-442."),  # the user gave the value
])
def test_an_early_ask_is_silent_when_the_value_came_first_or_was_not_asked_for(trace):
    assert instructed_order(trace, DEPOT) == []


# -- a fixed order ended by a stop word, the ender's notes copying the user's question ------------

DIVE = WorkflowSpec(
    system=SystemInfo(id="boat", entry_agent="log_c", pattern="fixed_order"),
    agents=(AgentSpec(id="log_c", instructions="Note the diver's qualification and the site asked for."),
            AgentSpec(id="skipper_s", instructions="Plan the boat's tide window."),
            AgentSpec(id="divemaster_d", instructions="Brief the dive and say CLEARED TO DIVE.")))
ASKED = "Hi, I'm a PADI Rescue diver and would like the wreck dive on Saturday. Is there parking at the quay?"


def _notes(last: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=ASKED), AgentTurn(agent="log_c"), Message(agent="log_c", content=last),
        TerminationEvent(reason="text_mention", detail="the manager's stop test matched", final_output=last)))


def test_a_stop_on_notes_that_copy_the_user_s_question_cuts_the_order_short():
    notes = ("Thought: Nothing is cleared yet; had it been, the others would say so.\n"
             f"Final Answer: Noted from the request: {ASKED}")
    found = participation(_notes(notes), DIVE)
    assert {(f.root_cause, f.agent, f.elements[1]) for f in found} == {
        ("Premature Termination", "log_c", "skipper_s"), ("Premature Termination", "log_c", "divemaster_d")}


def test_an_ender_asking_a_question_of_its_own_waits_for_the_user():
    assert participation(_notes("Noted the wreck dive. Which Saturday do you mean, the 4th or the 11th?"), DIVE) == []


# -- a tool of an agent built while the run goes: its documentation as the model was offered it ---

KILN_DESK = WorkflowSpec(  # extraction saw the desk, whose output function runs the glaze agent
    system=SystemInfo(id="pottery", entry_agent="desk"), agents=(AgentSpec(id="desk"),))
FIRING_DOC = {"description": "Book a firing in the glaze kiln.", "parameters": {
    "type": "object", "required": ["night"],
    "properties": {"night": {"type": "string", "description": "The firing night, written DD.MM.YYYY"}}}}


def _glaze_run(offered: bool, answer: str = '{"status": 400, "error": {"param": "night", "msg": "Datum?"}}') -> Trace:
    ask = "Two mugs for the firing on 09.10.2026 please."
    return Trace(scenario_id="s", meta={OFFERED_TOOLS: {"glaze_g": {"book_firing": FIRING_DOC}}} if offered else {},
                 events=(Message(role="user", content=ask), AgentTurn(agent="desk"),
                         Message(agent="desk", content='{"details": "' + ask + '"}'),
                         AgentTurn(agent="glaze_g"),
                         ToolCall(agent="glaze_g", tool="book_firing", call_id="b", arguments={"night": "09.10.2026"}),
                         ToolResult(agent="glaze_g", tool="book_firing", call_id="b", payload=answer),
                         Message(agent="glaze_g", content="Sorry, that did not go through."),
                         TerminationEvent(reason="completed", final_output="Sorry, that did not go through.")))


def test_a_tool_extraction_never_saw_is_judged_by_the_documentation_its_model_was_offered():
    [f] = tool_doc_mismatch(_glaze_run(offered=True), KILN_DESK)
    assert (f.root_cause, f.agent, f.elements) == ("Tool Specification Mismatch", None, ("glaze_g", "book_firing", "night"))
    assert tool_doc_mismatch(_glaze_run(offered=False), KILN_DESK) == []  # no documentation: nothing to judge by
    # a refusal on the merits, the form documented and followed
    assert tool_doc_mismatch(_glaze_run(offered=True, answer='{"status": 409, "error": "kiln full that night"}'),
                             KILN_DESK) == []


def test_the_recorder_keeps_each_tool_s_first_offer_and_no_hand_over_tool():
    from masfuzz.llm.types import ToolDef
    from masfuzz.trace import TraceRecorder

    rec = TraceRecorder()
    rec.offered("glaze_g", [ToolDef(name="book_firing", description="first"),
                            ToolDef(name="transfer_to_desk", handoff_to="desk")])
    rec.offered("glaze_g", [ToolDef(name="book_firing", description="later")])
    rec.offered("desk", [])
    assert rec.finish().meta[OFFERED_TOOLS] == {
        "glaze_g": {"book_firing": {"description": "first", "parameters": {"type": "object", "properties": {}}}}}


# -- a routing line's topic that only the sentence served by the hand-over touches ----------------

GARDEN = WorkflowSpec(
    system=SystemInfo(id="garden", entry_agent="desk_g", pattern="handoff"),
    agents=(AgentSpec(id="desk_g", instructions="You answer the garden centre's messages.\n"
                                                "Transfer to crew_c for hedge planting, pruning and garden visits.\n"
                                                "Transfer to shop_p for plants, compost and gift cards."),
            AgentSpec(id="crew_c", instructions="Book the garden crew with book_crew."),
            AgentSpec(id="shop_p", instructions="Sell from the shop with add_to_order.")),
    tools=(ToolSpec(id="book_crew", description="Book the garden crew for a job."),
           ToolSpec(id="add_to_order", description="Add stock to a customer's order.")),
    permissions=Permissions(allow=(("crew_c", "book_crew"), ("shop_p", "add_to_order"))),
    delegations=({"from": "desk_g", "to": "crew_c", "trigger": "handoff"},
                 {"from": "desk_g", "to": "shop_p", "trigger": "handoff"}))


def _garden(ask: str) -> Trace:
    from masfuzz.trace import DelegationEvent

    done = "Booked the crew for Thursday, job GC-301."
    return Trace(scenario_id="s", events=(
        Message(role="user", content=ask), AgentTurn(agent="desk_g"),
        Message(agent="desk_g", content="Thought: this is for crew_c.\nAction: hand over to crew_c"),
        DelegationEvent(**{"from": "desk_g"}, to="crew_c", trigger="handoff"), AgentTurn(agent="crew_c"),
        ToolCall(agent="crew_c", tool="book_crew", call_id="c", arguments={}),
        ToolResult(agent="crew_c", tool="book_crew", call_id="c", payload='{"job": "GC-301", "day": "Thursday"}'),
        Message(agent="crew_c", content=done), TerminationEvent(reason="completed", final_output=done)))


def test_a_topic_word_in_the_sentence_the_hand_over_served_asks_nothing_of_another_line():
    # "plant" touches the shop's "plants", but the sentence is the hedge job crew_c took
    assert participation(_garden("Please could you plant a beech hedge along our front garden next week."),
                         GARDEN) == []


def test_a_topic_in_a_sentence_of_its_own_still_needs_its_member():
    found = participation(_garden("Please could you plant a beech hedge along our front garden next week. "
                                  "I'd also like two bags of compost brought with it."), GARDEN)
    assert [(f.root_cause, f.elements[1]) for f in found] == [("Premature Termination", "shop_p")]


# -- a router that ends though its own topic line sends the request on: the model's lapse ---------

FRAMES = WorkflowSpec(
    system=SystemInfo(id="frames", entry_agent="desk_r", pattern="handoff"),
    agents=(AgentSpec(id="desk_r", instructions="You answer the framing shop's customers.\n"
                                                "Hand over to frame_f for mount cutting or framing jobs."),
            AgentSpec(id="frame_f", instructions="Check a job with job_status.")),
    tools=(ToolSpec(id="job_status", description="Where a framing job is."),),
    permissions=Permissions(allow=(("frame_f", "job_status"),)),
    delegations=({"from": "desk_r", "to": "frame_f", "trigger": "handoff"},))


def test_a_router_ending_against_its_own_topic_line_is_the_model_s_lapse():
    said = "Final Answer: Thanks, someone will get back to you."
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Hi, where's my job FR-220 at?"), AgentTurn(agent="desk_r"),
        Message(agent="desk_r", content=said), TerminationEvent(reason="completed", final_output=said)))
    [f] = participation(trace, FRAMES)
    assert (f.root_cause, f.agent, f.elements) == ("Premature Termination", "desk_r", ("desk_r", "frame_f"))
    assert f.attribution == "harness" and "hand a request for jobs" in f.because


# -- a later step not owed once the agent's own branch for a tool's answer took over -------------

GALLERY = WorkflowSpec(
    system=SystemInfo(id="gallery", entry_agent="hang_h"),
    agents=(AgentSpec(id="hang_h", instructions="You hang the framed pictures.\n"
                                                "If check_varnish returns SMUDGED, tell the artist to bring it back next week.\n"
                                                "Check the varnish with check_varnish.\n"
                                                "Then hang the picture with hang_picture."),),
    tools=(ToolSpec(id="check_varnish", description="Whether a picture's varnish has set."),
           ToolSpec(id="hang_picture", description="Hang a picture on the gallery wall.")),
    permissions=Permissions(allow=(("hang_h", "check_varnish"), ("hang_h", "hang_picture"))))


def _hanging(state: str) -> Trace:
    said = f"Final Answer: Sorry - the varnish came back {state}."
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Can my oil painting go up on the wall today?"), AgentTurn(agent="hang_h"),
        ToolCall(agent="hang_h", tool="check_varnish", call_id="v", arguments={}),
        ToolResult(agent="hang_h", tool="check_varnish", call_id="v", payload=f"{{'varnish': '{state}'}}"),
        Message(agent="hang_h", content=said), TerminationEvent(reason="completed", final_output=said)))


def test_a_branch_of_the_instructions_for_the_tool_s_answer_excuses_the_later_step():
    from masfuzz.graph.specification import skeleton
    from masfuzz.oracles.flare import tool_omission

    assert tool_omission(_hanging("SMUDGED"), skeleton(GALLERY), GALLERY) == []
    # an answer the instructions have no branch for leaves the step owed
    assert {f.elements for f in tool_omission(_hanging("TACKY"), skeleton(GALLERY), GALLERY)} == {
        ("hang_h", "hang_picture")}
