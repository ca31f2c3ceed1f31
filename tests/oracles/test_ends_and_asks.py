"""How a team's end is judged, and what an agent owes after asking: a stop word said again and
again while the team runs on to its bound is a stop condition that does not hear it (the wiring,
no agent), not a bound too low; an order of work a speaker selector's prompt states makes every
member it lists needed, so a stop word heard from an early member ends the team too soon; an
agent that asked for an argument its tool requires and got no answer owes no call; and a request
whose own ask ("could you send over whatever fits?") speaks of one tool's work only, routed to an
agent whose tools do something else, is misrouted."""

from __future__ import annotations

from masfuzz.oracles import detect
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, Termination, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

# -- a stop word the condition does not hear ----------------------------------------------------

# A museum loan's group chat: the registrar checks the crate, the conservator writes the condition
# report and closes with the team's stop word.
LOAN = WorkflowSpec(
    system=SystemInfo(id="loan", entry_agent="registrar", framework="ag2", pattern="selector"),
    agents=(AgentSpec(id="registrar", instructions="Check the crate with crate_check."),
            AgentSpec(id="conservator", instructions='Write the condition report, then say "Report filed. TERMINATE"')),
    tools=(ToolSpec(id="crate_check", description="Check a loan crate's seals and climate log."),),
    permissions=Permissions(allow=(("registrar", "crate_check"),)))


def _loan(closing: str, times: int, spec: WorkflowSpec = LOAN) -> list:
    """The conservator closes `times` times (the model picks it again and again: no new turn is
    recorded) and the chat runs to its round limit."""
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Crate L-88 from the Rijksmuseum arrived this morning; please log its condition."),
        AgentTurn(agent="registrar"),
        ToolCall(agent="registrar", tool="crate_check", arguments={"crate": "L-88"}, call_id="c"),
        ToolResult(agent="registrar", tool="crate_check", call_id="c", payload='{"seals": "intact", "rh": "52%"}'),
        Message(agent="registrar", content="Seals intact, humidity 52% throughout."),
        AgentTurn(agent="conservator"),
        *[Message(agent="conservator", content=closing) for _ in range(times)],
        TerminationEvent(reason="message_limit", detail="Maximum rounds (12) reached")))
    return [f for f in detect(trace, spec) if f.detector == "missing_termination"]


def test_a_stop_word_said_again_and_again_to_the_bound_is_a_condition_that_does_not_hear_it():
    """Said five times, the stop word was given the floor to close and closed: the condition is
    what failed (FLARE's Termination Condition Violation), the team's wiring, no agent's; not a
    round limit too low for the task."""
    [f] = _loan("Report filed, no new damage. TERMINATE", 5)
    assert (f.root_cause, f.agent) == ("Termination Condition Violation", None)
    assert "5 times" in f.description and f.step == 7  # the first time it was said again


def test_a_stop_word_only_another_member_may_say_is_heard_by_design():
    """A condition that listens to the registrar only (`sources=["registrar"]`) is meant not to
    hear the conservator: the conservator's stop word is no condition failing, and it is blamed as
    the announcer whose end was not the one to honour."""
    only = LOAN.model_copy(update={"termination": Termination(
        conditions=("(TextMentionTermination(text='TERMINATE', sources=['registrar']) | MaxMessageTermination(max_messages=12))",))})
    [f] = _loan("Report filed, no new damage. TERMINATE", 5, only)
    assert (f.root_cause, f.agent) == ("Termination Condition Violation", "conservator")


# -- an ask for a required argument that no one answered -----------------------------------------

def _params(**props: tuple[str, str]) -> dict:
    return {"type": "object", "required": list(props),
            "properties": {p: {"type": kind, "description": doc} for p, (kind, doc) in props.items()}}


# A bike shop's service desk books a repair slot; the booking needs the bike's frame number and a
# drop-off day.
WORKSHOP = WorkflowSpec(
    system=SystemInfo(id="workshop", entry_agent="service_desk", framework="ag2", pattern="orchestrated"),
    agents=(AgentSpec(id="service_desk", instructions="Book the repair with book_repair. Tell the rider it is booked."),),
    tools=(ToolSpec(id="book_repair", description="Book a bike into the workshop for a service.",
                    parameters=_params(frame_number=("string", 'The frame number, e.g. "WTU-000000"'),
                                       drop_off=("string", 'The drop-off day, e.g. "Tue"'))),),
    permissions=Permissions(allow=(("service_desk", "book_repair"),)))


def _desk(*said: str, answered: str | None = None) -> set:
    """The desk says `said` in turn; when `answered`, the rider replies after its first line."""
    from masfuzz.graph.specification import skeleton
    from masfuzz.oracles.flare import tool_omission

    lines = [Message(agent="service_desk", content=s) for s in said]
    if answered is not None:
        lines.insert(1, Message(role="user", content=answered))
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="My gears slip under load, could you fit in a service?"),
        AgentTurn(agent="service_desk"), *lines,
        TerminationEvent(reason="max_turns", detail="Maximum turns (2) reached")))
    return {f.elements for f in tool_omission(trace, skeleton(WORKSHOP), WORKSHOP)}


def test_an_agent_whose_ask_for_a_required_argument_went_unanswered_owes_no_call():
    """It asked for the drop-off day, politely and without a question mark, nobody answered, and
    it signed off: it had nothing to book with, so it omitted nothing."""
    assert _desk("Happy to help. Please let me know which drop-off day suits you and the frame number.",
                 "That's all from me for now - speak soon!") == set()
    assert _desk("Sorry to trouble you, but could I have your drop-off day?", "Have a good ride!") == set()


def test_an_agent_that_got_its_answer_or_asked_for_nothing_it_needs_still_owes_the_call():
    """Once the rider gave the day and the frame, the sign-off is an omission; so is one after a
    question that asks for nothing the booking needs."""
    assert _desk("Could you tell me the drop-off day?", "All sorted, see you then!",
                 answered="Tuesday, frame WTU-118342.") == {("service_desk", "book_repair")}
    assert _desk("Is there anything else I can help with?", "Bye for now!") == {("service_desk", "book_repair")}


# -- an order of work the speaker selector's prompt states ---------------------------------------

def _claims_team(prompt: str) -> WorkflowSpec:
    """An insurer's claims team whose speaker selector reads `prompt`; its stop word is heard
    from anyone (a `TextMentionTermination` without `sources`)."""
    from masfuzz.spec.model import SELECTOR_PROMPT

    return WorkflowSpec(
        system=SystemInfo(id="claims", entry_agent="intake_clerk", framework="autogen", pattern="selector"),
        agents=(AgentSpec(id="intake_clerk", description="Logs the claim."),
                AgentSpec(id="loss_adjuster", description="Values the damage."),
                AgentSpec(id="claims_lead", description="Settles the claim.")),
        termination=Termination(conditions=(
            "(TextMentionTermination(text='DONE') | MaxMessageTermination(max_messages=20))",)),
        notes=(SELECTOR_PROMPT + prompt,))


def _claim(*speakers: str) -> Trace:
    """Each of `speakers` takes a turn and says its piece; the last one's "DONE" ends the run."""
    said = [(AgentTurn(agent=a), Message(agent=a, content=f"{a} has done its part." + (" DONE" if k == len(speakers) - 1 else "")))
            for k, a in enumerate(speakers)]
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Claim for storm damage to the conservatory roof at 4 Alder Close, policy HH-20931."),
        *[e for pair in said for e in pair],
        TerminationEvent(reason="text_mention", detail="Text 'DONE' mentioned")))


def test_an_order_of_work_the_selector_prompt_states_makes_each_member_it_lists_needed():
    """"Claims go intake_clerk -> loss_adjuster -> claims_lead." lists all three: the intake
    clerk's "DONE", heard from anyone, ended the team before the adjuster and the lead had a turn.
    Blamed: the clerk, the member after whose turn theirs should have come."""
    team = _claims_team("Pick who speaks next. Claims go intake_clerk -> loss_adjuster -> claims_lead. Only return the role.")
    found = [f for f in detect(_claim("intake_clerk"), team) if f.detector == "participation"]
    assert {f.elements for f in found} == {("intake_clerk", "loss_adjuster"), ("intake_clerk", "claims_lead")}
    assert {(f.root_cause, f.agent) for f in found} == {("Premature Termination", "intake_clerk")}
    # the whole order acted: nothing is missing
    assert detect(_claim("intake_clerk", "loss_adjuster", "claims_lead"), team) == []


def test_a_selector_prompt_that_lists_members_without_an_order_needs_none_of_them():
    """A prompt that lists who may speak but no order ("you may choose intake_clerk, loss_adjuster
    or claims_lead", or an order it negates) leaves the selector free to end early."""
    for prompt in ("Choose intake_clerk, loss_adjuster or claims_lead, whichever fits the message.",
                   "There is no fixed order: intake_clerk, then loss_adjuster, then claims_lead only when needed."):
        assert [f for f in detect(_claim("intake_clerk"), _claims_team(prompt)) if f.detector == "participation"] == []


# -- a request's own ask -------------------------------------------------------------------------

def _travel(ask: str, cover: str = "A travel insurance quote for a family on the trip's cost.") -> WorkflowSpec:
    """A tour operator's supervisor hands requests to the packages desk (which searches the
    holidays on offer) or the insurance desk (which quotes a family's travel cover on the trip's
    cost). Its routing lines date from before package holidays were sold: a family trip goes to
    insurance."""
    from masfuzz.spec.model import Delegation

    return WorkflowSpec(
        system=SystemInfo(id="tours", entry_agent="supervisor", framework="langgraph", pattern="handoff"),
        agents=(AgentSpec(id="supervisor", instructions=(
                    "Hand over to insurance_desk anything about a family trip, cover or claims. "
                    "Hand over to packages_desk anything about coach tours.")),
                AgentSpec(id="packages_desk", instructions="Search with search_packages and share what it found."),
                AgentSpec(id="insurance_desk", instructions="Quote cover with cover_quote and share it.")),
        tools=(ToolSpec(id="search_packages", description=ask, parameters=_params(query=("string", "The request as written"))),
               ToolSpec(id="cover_quote", description=cover,
                        parameters=_params(trip_cost=("string", 'The trip\'s cost in euros, e.g. "€1,000"')))),
        permissions=Permissions(allow=(("packages_desk", "search_packages"), ("insurance_desk", "cover_quote"))),
        delegations=(Delegation(**{"from": "supervisor"}, to="packages_desk", trigger="handoff"),
                     Delegation(**{"from": "supervisor"}, to="insurance_desk", trigger="handoff")))


HOLIDAY = ("We're a family of four planning a trip to Crete in the August holidays, €2,400 all in. "
           "Could you show us whatever is still available?")


def _routed(to: str, tool: str, payload: str) -> Trace:
    from masfuzz.trace import DelegationEvent

    return Trace(scenario_id="s", events=(
        Message(role="user", content=HOLIDAY), AgentTurn(agent="supervisor"),
        DelegationEvent(**{"from": "supervisor"}, to=to, trigger="handoff"), AgentTurn(agent=to),
        ToolCall(agent=to, tool=tool, call_id="c",
                 arguments={"trip_cost": "€2,400"} if tool == "cover_quote" else {"query": HOLIDAY}),
        ToolResult(agent=to, tool=tool, call_id="c", payload=payload),
        Message(agent=to, content=f"Here is what came back: {payload}"),
        TerminationEvent(reason="completed", final_output=f"Here is what came back: {payload}")))


def test_a_request_whose_ask_speaks_of_one_tools_work_is_misrouted_past_it():
    """Its ask ("show us whatever is still available") speaks of the search's work alone; the
    rest (a family trip, a budget a cover quote could take) is why. Sent to the insurance desk,
    which quoted cover (answered in Greek: the words of a result play no part), the request was
    misrouted by the supervisor, whose routing line sent it there; the twin sent to the packages
    desk is right."""
    tours = _travel("Search the operator's holiday packages for those still available on the dates asked.")
    [f] = detect(_routed("insurance_desk", "cover_quote", '{"asfalisi": "oikogeneiaki", "kostos": "€96"}'), tours)
    assert (f.root_cause, f.agent, f.elements) == ("Misrouted Request", "supervisor",
                                                   ("supervisor", "insurance_desk", "search_packages"))
    assert f.attribution == "sut"  # the routing line sent it there: the app's, not the model's
    assert detect(_routed("packages_desk", "search_packages", '[{"ref": "CR-118", "nights": 7}]'), tours) == []


def test_an_ask_that_wants_nothing_found_or_no_one_finder_tells_nothing():
    """No misroute is read when the ask wants an act, not whatever matches ("could you book us
    the cheapest?"), when the one finder's description shares no word with the request, or when
    two finders speak of it (cover found as well as packages): the ask does not say which tool."""
    available = "Search the operator's holiday packages still available on the dates asked."
    for request, tours in (
            (HOLIDAY.replace("show us whatever is still available", "book us the cheapest"), _travel(available)),
            (HOLIDAY, _travel("Search the operator's brochure on the dates asked.")),
            (HOLIDAY, _travel(available).model_copy(update={"tools": (*_travel(available).tools, ToolSpec(
                id="find_cover", description="Find the cover still available for a family's trip."))}))):
        trace = _routed("insurance_desk", "cover_quote", '{"asfalisi": "oikogeneiaki"}')
        trace = trace.model_copy(update={"events": (Message(role="user", content=request), *trace.events[1:])})
        assert [f for f in detect(trace, tours) if f.detector == "misrouted_request"] == [], request


def test_an_ag2_groups_speaker_selection_prompt_states_its_order_of_work():
    """An AG2 group whose manager's model picks speakers (`"auto"`) reads the app's
    `select_speaker_message_template`: the spec carries it, so its order of work is read as an
    AgentChat selector prompt's is."""
    import pytest

    autogen = pytest.importorskip("autogen")
    from masfuzz.adapters.ag2.adapter import AG2Adapter
    from masfuzz.oracles.instructed import stated_order

    llm = {"config_list": [{"model": "gpt-4o-mini", "api_key": "unused"}]}
    desks = [autogen.AssistantAgent(n, llm_config=llm, system_message=f"You are the {n}.")
             for n in ("Intake", "Assessor", "Approver")]
    proxy = autogen.UserProxyAgent("Client", human_input_mode="NEVER", code_execution_config=False)
    template = ("Roles: {roles}. Applications pass from Intake to Assessor, then Approver signs. "
                "Every application goes Intake, then Assessor, then Approver. Pick from {agentlist}.")
    group = autogen.GroupChat([proxy, *desks], messages=[], max_round=8, speaker_selection_method="auto",
                              select_speaker_message_template=template)
    manager = autogen.GroupChatManager(group, llm_config=llm)
    spec = AG2Adapter().extract(manager)
    assert spec.system.pattern == "selector" and stated_order(spec) == ["Intake", "Assessor", "Approver"]
