"""The oracles that read the team's own instructions (`masfuzz.oracles.instructed`), over
hand-built traces: participation, instructed speaking order and routing, each buggy beside a
correct twin, negated instructions and a run that waits for the user included."""

from __future__ import annotations

import pytest

from masfuzz.oracles import detect
from masfuzz.oracles.instructed import (
    MISROUTED, SPEAKING_ORDER, instructed_dependencies, instructed_order, misrouted_request, participation,
    with_prompts,
)
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import (
    SYSTEM_PROMPTS, AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace,
)


def _team(writer: str, reviewer: str = "Check the writer's draft and say APPROVED.") -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="blog", entry_agent="researcher", pattern="fixed_order"),
        agents=(AgentSpec(id="researcher", instructions="Gather the key facts."),
                AgentSpec(id="writer", instructions=writer),
                AgentSpec(id="reviewer", instructions=reviewer)))


TEAM = _team("Write a short post based on the researcher's findings.")


def _run(*speakers, task="Write a post about the water cycle.", reason="completed", last=None, detail=""):
    events = [Message(role="user", content=task)]
    for a in speakers:
        events += [AgentTurn(agent=a), Message(agent=a, content=f"{a}: my part of the work.")]
    if last:
        events[-1] = Message(agent=speakers[-1], content=last)
    events.append(TerminationEvent(reason=reason, detail=detail, final_output=events[-1].content))
    return Trace(scenario_id="s", events=tuple(events))


# -- kind 4: instructed dependencies vs order ----------------------------------------------------

@pytest.mark.parametrize("writer", [
    "Write a short post based on the researcher's findings.",
    "After the researcher has gathered facts, write the post.",
    "Wait for the researcher, then write.",
    "Use the researcher's notes to write the post.",
    "Write from the facts gathered by the researcher.",
    "Take what the researcher reports and turn it into a post.",
])
def test_an_agent_speaking_before_the_agent_its_instructions_depend_on_is_an_order_violation(writer):
    spec = _team(writer, reviewer="Say APPROVED when the post is good.")
    assert [(b, a) for b, a, _ in instructed_dependencies(spec)] == [("researcher", "writer")]
    [f] = instructed_order(_run("writer", "researcher", "reviewer"), spec)
    assert (f.category, f.root_cause) == ("agent_relationship",
                                          "Violation of Relationships-based Speaking Order")
    assert (f.agent, f.step, f.evidence, f.elements) == ("writer", 1, (1, 3), ("researcher", "writer"))
    assert instructed_order(_run("researcher", "writer", "reviewer"), spec) == []


@pytest.mark.parametrize("writer", [
    "Write a short post; do not wait for the researcher.",
    "Write the post. The reviewer speaks after the researcher.",  # a third agent's order
    "Write a short post about the topic.",
])
def test_no_dependency_is_read_from_negated_or_third_party_sentences(writer):
    spec = _team(writer, reviewer="Say APPROVED when the post is good.")
    assert instructed_dependencies(spec) == []
    assert instructed_order(_run("writer", "researcher", "reviewer"), spec) == []


def _analysis_team(writer: str, analyst: str = "Crunch the quarterly sales numbers.",
          researcher: str = "Gather the market data from public sources.") -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="desk", entry_agent="writer", pattern="fixed_order"),
        agents=(AgentSpec(id="writer", instructions=writer), AgentSpec(id="analyst", instructions=analyst),
                AgentSpec(id="scout", description=researcher)))


@pytest.mark.parametrize("writer,before", [
    ("Once the data has been gathered, write the market report.", "scout"),
    ("After the numbers are in, write the summary.", "analyst"),
    ("When the sales numbers are ready, write them up.", "analyst"),
    ("Wait for the data, then write the report.", "scout"),
    ("Once the sales numbers for a quarter exist, write them up.", "analyst"),
    ("You write reports once their data has been sourced.", "scout"),
])
def test_a_dependency_on_a_product_no_agent_is_named_for_is_read_from_who_makes_it(writer, before):
    """The product maps to the one agent whose own instructions or description say it makes it."""
    spec = _analysis_team(writer)
    assert [(b, a) for b, a, _ in instructed_dependencies(spec)] == [(before, "writer")]
    [f] = instructed_order(_run("writer", "analyst", "scout"), spec)
    assert (f.agent, f.elements) == ("writer", (before, "writer"))
    assert instructed_order(_run("analyst", "scout", "writer"), spec) == []


@pytest.mark.parametrize("writer,analyst", [
    ("Once the data has been gathered, write the report.", "Gather the sales data."),  # two make it
    ("Gather the data. Once the data has been gathered, write the report.", "Crunch the numbers."),  # itself
    ("When the draft is ready, send it.", "Crunch the numbers."),  # nobody makes it
    ("Once the figures are in, write the report.", "Check the figures; do not compute figures."),  # negated
])
def test_an_unnamed_product_made_by_several_agents_itself_or_nobody_is_no_dependency(writer, analyst):
    spec = _analysis_team(writer, analyst=analyst)
    assert instructed_dependencies(spec) == []


@pytest.mark.parametrize("writer", [
    # the maker calls its product otherwise (its tool: funding_check), and the sentence's first
    # clause negates something else
    "The sum in a letter is never yours to choose: it is what the funding figures allow.",
    "Write the letter. The amount rests on the funding review.",
    "The award comes from the funding assessment, so write it up.",
])
def test_a_product_named_otherwise_by_its_maker_is_read_from_the_tool_that_makes_it(writer):
    spec = WorkflowSpec(
        system=SystemInfo(id="fund", entry_agent="writer", pattern="fixed_order"),
        agents=(AgentSpec(id="writer", instructions=writer), AgentSpec(id="hale", instructions="Run the check."),
                AgentSpec(id="clerk", instructions="File the letters.")),
        tools=(ToolSpec(id="funding_check"), ToolSpec(id="issue_letter")),
        permissions=Permissions(allow=(("hale", "funding_check"), ("clerk", "issue_letter"))))
    assert [(b, a) for b, a, _ in instructed_dependencies(spec)] == [("hale", "writer")]
    assert instructed_order(_run("writer", "hale"), spec) != []
    assert instructed_order(_run("hale", "writer"), spec) == []


def test_agents_named_by_everyday_words_are_not_read_into_a_dependency():
    spec = WorkflowSpec(system=SystemInfo(id="t", entry_agent="writer"), agents=(
        AgentSpec(id="user"), AgentSpec(id="writer", instructions="Write after the user has spoken.")))
    assert instructed_dependencies(spec) == []


# -- kind 3: participation -----------------------------------------------------------------------

def test_a_run_concluding_before_a_member_the_task_names_is_premature_termination():
    trace = _run("researcher", "writer", task="Write a post; the reviewer must check it.",
                 reason="text_mention", last="FINAL DRAFT: water goes round.")
    [f] = participation(trace, TEAM)
    assert (f.category, f.root_cause) == ("system_termination", "Premature Termination")
    assert (f.agent, f.step, f.elements) == ("writer", 4, ("writer", "reviewer"))
    assert "the task names it" in f.description


def test_a_member_an_acting_agent_depends_on_is_needed():
    [f] = participation(_run("writer", "reviewer"), TEAM)
    assert (f.agent, f.elements) == ("reviewer", ("reviewer", "researcher"))
    assert "writer works from it" in f.description


@pytest.mark.parametrize("trace", [
    _run("researcher", "writer", "reviewer", task="Write a post; the reviewer must check it."),
    _run("researcher", "writer", task="Write a post; no reviewer is needed."),  # negated
    _run("researcher", "writer", task="Write a post; the reviewer must check it.",
         last="Should the reviewer look at it first?"),  # waits for the user
    _run("researcher", "writer", task="Write a post; the reviewer must check it.",
         reason="max_turns"),  # not concluded: the bound detector's
])
def test_participation_is_silent_when_everyone_needed_acted_or_the_run_did_not_conclude(trace):
    assert participation(trace, TEAM) == []


# -- kind 5: routing vs capability ---------------------------------------------------------------

DESK = WorkflowSpec(
    system=SystemInfo(id="desk", entry_agent="triage", pattern="handoff"),
    agents=(AgentSpec(id="triage"), AgentSpec(id="faq_agent"), AgentSpec(id="seat_agent")),
    tools=(ToolSpec(id="faq_lookup_tool", description="Look up an answer."),
           ToolSpec(id="update_seat", description="Move the passenger to a new seat.")),
    permissions=Permissions(allow=(("faq_agent", "faq_lookup_tool"), ("seat_agent", "update_seat"))),
    delegations=({"from": "triage", "to": "faq_agent"}, {"from": "triage", "to": "seat_agent"}))


def _routed(to: str, request: str, *after) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=request), AgentTurn(agent="triage"),
        DelegationEvent(**{"from": "triage"}, to=to), AgentTurn(agent=to), *after,
        TerminationEvent(reason="completed", final_output="x")))


@pytest.mark.parametrize("request_,reply", [
    ("Please move me to seat 14C, confirmation ABC123", "Sorry, I can only answer questions."),
    ("Can you change my seat to 14C?", "Here is what I found: the aircraft has 150 seats."),
    ("I want to switch seats, to 22A", "I cannot do that."),
])
def test_a_request_routed_to_an_agent_without_a_fitting_tool_is_misrouted(request_, reply):
    trace = _routed("faq_agent", request_, Message(agent="faq_agent", content=reply))
    [f] = misrouted_request(trace, DESK)
    assert (f.category, f.root_cause, f.detector) == ("agent_relationship", "Misrouted Request",
                                                      "misrouted_request")
    assert (f.agent, f.step, f.evidence, f.elements) == (
        "triage", 2, (2, 4), ("triage", "faq_agent", "update_seat"))
    # the premature end it causes is reported once, as the misroute
    assert [x.detector for x in detect(trace, DESK)] == ["misrouted_request"]


@pytest.mark.parametrize("trace", [
    _routed("seat_agent", "Please move me to seat 14C",
            ToolCall(agent="seat_agent", tool="update_seat", arguments={}),
            ToolResult(agent="seat_agent", tool="update_seat", payload="Seat changed."),
            Message(agent="seat_agent", content="Seat changed to 14C.")),
    _routed("faq_agent", "How many seats does the plane have?",  # no tool's action asked for
            Message(agent="faq_agent", content="150 seats.")),
    _routed("faq_agent", "Please move me to seat 14C",  # the wrong agent sent it on
            DelegationEvent(**{"from": "faq_agent"}, to="seat_agent"),
            Message(agent="seat_agent", content="Which confirmation number?")),
])
def test_routing_is_silent_when_the_receiver_fits_or_the_request_reaches_a_holder(trace):
    assert misrouted_request(trace, DESK) == []


HELPDESK = WorkflowSpec(
    system=SystemInfo(id="helpdesk", entry_agent="triage", pattern="handoff"),
    agents=(AgentSpec(id="triage"), AgentSpec(id="network"), AgentSpec(id="accounts")),
    tools=(ToolSpec(id="unlock_account", description="Unlock a staff account after too many failed logins."),
           ToolSpec(id="reissue_vpn_token", description="Send a staff member a new VPN token.")),
    permissions=Permissions(allow=(("accounts", "unlock_account"), ("network", "reissue_vpn_token"))),
    delegations=({"from": "triage", "to": "network"}, {"from": "triage", "to": "accounts"}))


def _desk(to: str, request: str, reply: str) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=request), AgentTurn(agent="triage"),
        DelegationEvent(**{"from": "triage"}, to=to), AgentTurn(agent=to), Message(agent=to, content=reply),
        TerminationEvent(reason="completed", final_output=reply)))


def test_a_request_worded_like_a_sibling_tool_s_description_routed_elsewhere_is_misrouted():
    """Neither the tool's action nor its object is named ("locked out", not "unlock my
    account"): the request shares the words of unlock_account's description only."""
    request = "I'm locked out after typing my password wrong; my login is pkaur07."
    [f] = misrouted_request(_desk("network", request, "Nothing wrong on the network side."), HELPDESK)
    assert f.elements == ("triage", "network", "unlock_account")
    assert misrouted_request(_desk("accounts", request, "Unlocked."), HELPDESK) == []
    # words spread over both tools' descriptions: nothing tells which one is asked for
    both = "I'm locked out after failed logins and need a new VPN token too."
    assert misrouted_request(_desk("network", both, "A new token is on its way."), HELPDESK) == []



def test_a_function_word_shared_with_another_tool_s_description_does_not_hide_the_fitting_one():
    """"about" is in the request and in a third tool's description: it says nothing of what the
    request needs, so the two content words shared with unlock_account still decide."""
    spec = HELPDESK.model_copy(update={
        "tools": (*HELPDESK.tools, ToolSpec(id="find_policy", description="The IT policies about a topic.")),
        "permissions": Permissions(allow=(*HELPDESK.permissions.allow, ("network", "find_policy")))})
    request = "I got a warning about my login: I'm locked out after typing my password wrong."
    [f] = misrouted_request(_desk("network", request, "Thanks, ring the desk for anything else."), spec)
    assert (f.agent, f.elements) == ("triage", ("triage", "network", "unlock_account"))

# -- a misroute the spec pointed the right way: the model's, not the app's -----------------------

def _desk_told(triage: str = "", faq: str = "", seat: str = "") -> WorkflowSpec:
    return DESK.model_copy(update={"agents": (
        AgentSpec(id="triage", instructions=triage), AgentSpec(id="faq_agent", description=faq),
        AgentSpec(id="seat_agent", description=seat))})


SEAT_CHANGE = "I want to change my seat to 14C, confirmation number ABC123"


@pytest.mark.parametrize("spec,pointed,selector", [
    # the demo's triage: its rules send seat changes to the seat agent (the FAQ agent's
    # description names seats too: the router's own rules decide; a selector has none, and the
    # descriptions are ambiguous: the app's)
    (_desk_told("You are the first contact. Do not answer yourself: hand questions to the FAQ "
                "agent and seat changes to the seat agent.",
                faq="Answers questions about baggage, seats and food.", seat="Changes seats."),
     "triage's instructions point", "sut"),
    (_desk_told("Hand off to seat_agent when the request mentions a seat change. Hand off to "
                "faq_agent when the request mentions baggage or food."), "triage's instructions point",
     "harness"),
    # the airline demo's list of rules, glued without a space after a full stop
    (_desk_told("Route the customer to the best agent: FAQ for policy questions, Seat for seating "
                "needs and seat changes.Never emit more than one handoff per message."),
     "triage's instructions point", "harness"),
    # rules silent on it: the request names the seat agent, no description says the FAQ one
    # serves it
    (_desk_told("Route the customer.", faq="Answers baggage questions."), "the request points", "harness"),
])
def test_a_misroute_against_a_spec_pointing_the_right_way_is_the_model_s(spec, pointed, selector):
    trace = _routed("faq_agent", SEAT_CHANGE, Message(agent="faq_agent", content="I cannot do that."))
    [f] = misrouted_request(trace, spec)
    assert (f.attribution, f.agent, f.elements) == ("harness", "triage", ("triage", "faq_agent", "update_seat"))
    assert f"{pointed} this request to seat_agent and not to faq_agent" in f.because
    [g] = misrouted_request(_selected(AgentTurn(agent="faq_agent"), Message(agent="faq_agent", content="No."),
                                      request=SEAT_CHANGE),
                            spec.model_copy(update={"system": SELECTED_DESK.system}))
    assert g.attribution == selector


def test_a_misroute_the_model_could_not_choose_by_name_stays_the_app_s():
    """The rules point right, but the right hand-off was offered only under a condition (a
    feature flag: maybe not in this run), or the route was a tool the app's code maps to an
    agent (as_tool): the model's choice is not what the trace shows."""
    rules = "Hand seat changes to the seat agent and questions to the FAQ agent."
    gated = WorkflowSpec.model_validate({**_desk_told(rules).model_dump(by_alias=True), "delegations": (
        {"from": "triage", "to": "faq_agent"}, {"from": "triage", "to": "seat_agent", "condition": "is_enabled=flag"})})
    reply = Message(agent="faq_agent", content="I cannot do that.")
    [f] = misrouted_request(_routed("faq_agent", SEAT_CHANGE, reply), gated)
    assert (f.attribution, f.because) == ("sut", "")
    as_tool = Trace(scenario_id="s", events=(
        Message(role="user", content=SEAT_CHANGE), AgentTurn(agent="triage"),
        DelegationEvent(**{"from": "triage"}, to="faq_agent", trigger="as_tool"), AgentTurn(agent="faq_agent"),
        reply, TerminationEvent(reason="completed", final_output="x")))
    [g] = misrouted_request(as_tool, _desk_told(rules))
    assert (g.attribution, g.because) == ("sut", "")
    [h] = misrouted_request(_routed("faq_agent", SEAT_CHANGE, reply), _desk_told(rules))
    assert h.attribution == "harness"  # the same rules, an unconditional hand-off


def test_a_misroute_against_the_members_descriptions_is_the_model_s():
    """Rules silent, the request names no member: the descriptions point to the accounts team."""
    request = "I'm locked out after typing my password wrong; my login is pkaur07."
    told = HELPDESK.model_copy(update={"agents": (
        AgentSpec(id="triage", instructions="Route the caller."),
        AgentSpec(id="network", description="Fixes VPN and network problems."),
        AgentSpec(id="accounts", description="Handles logins and passwords."))})
    [f] = misrouted_request(_desk("network", request, "Nothing wrong on the network side."), told)
    assert f.attribution == "harness"
    assert "the members' descriptions point this request to accounts and not to network" in f.because
    [g] = misrouted_request(_desk("network", request, "Nothing wrong on the network side."), HELPDESK)
    assert (g.attribution, g.because) == ("sut", "")  # no description: silent


@pytest.mark.parametrize("spec", [
    # the rules list the request under the wrong agent (as the zoo's seeded misroutes do), even
    # where the descriptions point right
    _desk_told("Hand off to faq_agent when the request mentions a seat or a question. Hand off "
               "to seat_agent when the request mentions an upgrade.", seat="Changes seats."),
    _desk_told("Send seat changes and questions to the FAQ agent.", seat="Changes seats."),
    # ambiguous: both descriptions speak of seats (the request's naming the seat agent does
    # not outweigh a description saying the chosen one serves it)
    _desk_told("Route the customer.", faq="Answers questions about seats.", seat="Changes seats."),
    _desk_told("Never send seat changes to the FAQ agent.", faq="Answers questions about seats."),
])
def test_a_misroute_the_spec_points_to_leaves_silent_or_ambiguous_is_the_app_s(spec):
    trace = _routed("faq_agent", SEAT_CHANGE, Message(agent="faq_agent", content="I cannot do that."))
    [f] = misrouted_request(trace, spec)
    assert (f.attribution, f.because) == ("sut", "")


def _languages(rules: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="languages", entry_agent="triage", pattern="handoff"),
        agents=(AgentSpec(id="triage", instructions=rules), AgentSpec(id="french_agent"),
                AgentSpec(id="spanish_agent")),
        delegations=({"from": "triage", "to": "french_agent"}, {"from": "triage", "to": "spanish_agent"}))


def test_a_member_passed_over_by_a_router_against_a_spec_pointing_to_it_is_the_model_s():
    """The task names the Spanish agent, the triage could hand it there, the model in use chose
    the French one: the participation finding is the model's. Rules that send Spanish to the
    French agent make it the app's."""
    task = "Please answer me in Spanish: what is the capital of France?"
    trace = _routed("french_agent", task, Message(agent="french_agent", content="Paris."))
    [f] = participation(trace, _languages("Hand off to the agent for the request's language."))
    assert (f.elements, f.attribution) == (("french_agent", "spanish_agent"), "harness")
    assert "the request points this request to spanish_agent and not to french_agent" in f.because
    [g] = participation(trace, _languages("Hand requests in French or Spanish to the french agent."))
    assert (g.elements, g.attribution, g.because) == (("french_agent", "spanish_agent"), "sut", "")


def test_a_hand_off_to_the_user_before_a_member_acted_is_no_member_chosen_and_no_crash():
    """A Swarm hands off to "user" (HandoffTermination): no agent of the spec was chosen, so no
    misroute of the model's is read from it (it used to look "user" up as an agent and raise)."""
    task = "Please answer me in Spanish: what is the capital of France?"
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=task), AgentTurn(agent="triage"),
        DelegationEvent(**{"from": "triage"}, to="user", trigger="handoff"),
        TerminationEvent(reason="handoff_to_user", final_output="")))
    found = participation(trace, _languages("Hand off to the agent for the request's language."))
    assert found and all(f.attribution == "sut" for f in found)


def _dice(rules: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="dice", entry_agent="root", pattern="handoff"),
        agents=(AgentSpec(id="root", instructions=rules), AgentSpec(id="roll_agent"), AgentSpec(id="prime_agent")),
        delegations=({"from": "root", "to": "roll_agent"}, {"from": "root", "to": "prime_agent"},
                     {"from": "roll_agent", "to": "root"}))


@pytest.mark.parametrize("rules,whose", [
    # ADK's hello_world_ma: its rules send prime checks on to prime_agent; the model ended instead
    ("You delegate rolling dice tasks to the roll_agent and prime checking tasks to the prime_agent.",
     "harness"),
    # told when to end by itself, or silent: the app's
    ("Delegate rolling dice tasks to the roll_agent and prime checking tasks to the prime_agent. "
     "Say \"DONE\" once the die is rolled.", "sut"),
    ("You help with dice.", "sut"),
    # a fallback reply is for requests the rules send nowhere: this one they send on
    ("- Delegate rolling dice tasks to the roll_agent.\n- Delegate prime checking tasks to the prime_agent.\n"
     '- Otherwise reply "I only do dice - anything else?"', "harness"),
    ("Delegate rolling dice tasks to the roll_agent and prime checking tasks to the prime_agent. "
     'If none of these fits, say "Sorry, dice only."', "harness"),
    # an end told apart from the fallback stays the app's
    ("- Delegate rolling dice tasks to the roll_agent and prime checking tasks to the prime_agent.\n"
     '- Once the die is rolled, say "DONE".\n- Otherwise reply "Dice only."', "sut"),
])
def test_a_run_ended_by_an_agent_whose_rules_send_the_request_on_to_a_member_is_the_model_s(rules, whose):
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Roll a 10-sided die and check if the result is prime."),
        AgentTurn(agent="root"), DelegationEvent(**{"from": "root"}, to="roll_agent"), AgentTurn(agent="roll_agent"),
        DelegationEvent(**{"from": "roll_agent"}, to="root"), AgentTurn(agent="root"),
        Message(agent="root", content="I rolled a 7."), TerminationEvent(reason="completed", final_output="I rolled a 7.")))
    [f] = participation(trace, _dice(rules))
    assert (f.elements, f.attribution) == (("root", "prime_agent"), whose)
    assert ("ended the run at root, though root's instructions point" in f.because) == (whose == "harness")


# -- participation in a fixed (round-robin) order -------------------------------------------------

ROUND = WorkflowSpec(
    system=SystemInfo(id="memo", entry_agent="drafter", pattern="fixed_order"),
    agents=(AgentSpec(id="drafter", instructions="Draft the answer."),
            AgentSpec(id="editor", instructions="Polish the draft."),
            AgentSpec(id="checker", instructions="Check the text and say DONE."),
            AgentSpec(id="user_proxy", model_settings={"type": "UserProxyAgent"})))


@pytest.mark.parametrize("last", [
    "Draft: the answer is DONE in outline.",
    "Here is the draft; the outline is done.",
    "Quoting the source: 'status DONE'.",
])
def test_a_stop_word_said_before_a_round_robin_member_spoke_is_premature_termination(last):
    trace = _run("drafter", reason="text_mention", last=last)
    found = participation(trace, ROUND)
    assert {f.elements for f in found} == {("drafter", "editor"), ("drafter", "checker")}
    assert {(f.root_cause, f.agent, f.step) for f in found} == {
        ("Premature Termination", "drafter", 2)}
    assert all("fixed speaking order" in f.description for f in found)


def test_a_member_cut_out_of_a_fixed_order_is_blamed_on_the_one_whose_turn_came_before_it():
    """The drafter escalated out of the round; the checker, after the round, spoke last."""
    trace = _run("drafter", "checker", reason="completed", detail="loop round: drafter escalated")
    [f] = participation(trace, ROUND)
    assert (f.agent, f.step, f.elements) == ("drafter", 2, ("drafter", "editor"))


@pytest.mark.parametrize("trace,spec", [
    (_run("drafter", "editor", "checker", reason="text_mention"), ROUND),  # every member spoke
    (_run("drafter", reason="completed"), ROUND),  # no stop word: the app's own end
    (_run("drafter", reason="max_turns"), ROUND),  # the bound detector's
    (_run("drafter", reason="text_mention", task="Draft it; no editor and no checker needed."),
     ROUND),  # the task excused them
    (_run("drafter", reason="text_mention"),
     ROUND.model_copy(update={"system": SystemInfo(id="memo", entry_agent="drafter",
                                                   pattern="selector")})),  # not a fixed order
])
def test_fixed_order_participation_is_silent_when_every_member_spoke_or_no_stop_word(trace, spec):
    assert participation(trace, spec) == []


def test_a_round_robin_stopped_by_a_rule_on_a_member_s_message_before_others_spoke_is_premature():
    """AgentChat's TextMessageTermination naming the wrong member ends the run `completed`, its
    stop message naming that member: a stop condition like a stop word."""
    trace = _run("drafter", detail="Text message received from 'drafter'")
    found = participation(trace, ROUND)
    assert {f.elements for f in found} == {("drafter", "editor"), ("drafter", "checker")}
    assert participation(_run("drafter", "editor", "checker", detail="Text message received from 'checker'"),
                         ROUND) == []


def test_a_round_robin_stopped_by_a_rule_on_a_tool_call_before_others_spoke_is_premature():
    """AgentChat's FunctionCallTermination watching the wrong function: its stop message names
    the tool; a run that ran out of work names nothing (above)."""
    spec = ROUND.model_copy(update={"tools": (ToolSpec(id="outline"),)})
    trace = _run("drafter", detail="Function 'outline' was executed.")
    assert {f.elements for f in participation(trace, spec)} == {("drafter", "editor"), ("drafter", "checker")}
    assert participation(_run("drafter", detail="Function 'outline' was executed."), ROUND) == []


# -- instructions the spec lacks, read from what each model was told ------------------------------

BARE = WorkflowSpec(  # a graph whose nodes build their prompts in code: no instructions extracted
    system=SystemInfo(id="brief", entry_agent="writer", pattern="graph"),
    agents=(AgentSpec(id="researcher"), AgentSpec(id="writer")))


@pytest.mark.parametrize("prompt", [
    "You write a two-sentence brief from the researcher's findings.",
    "Summarise the researcher's notes for the reader.",
    "Wait for the researcher, then write the brief.",
])
def test_a_dependency_in_the_system_message_a_model_was_told_orders_the_run(prompt):
    told = {SYSTEM_PROMPTS: {"writer": prompt, "researcher": "Gather the facts."}}
    early = _run("writer", "researcher").model_copy(update={"meta": told})
    [f] = instructed_order(early, BARE)
    assert (f.root_cause, f.agent, f.elements) == (SPEAKING_ORDER, "writer", ("researcher", "writer"))
    assert instructed_order(_run("researcher", "writer").model_copy(update={"meta": told}), BARE) == []


def test_the_specs_own_instructions_win_over_what_the_model_was_told():
    spec = BARE.model_copy(update={"agents": (AgentSpec(id="researcher"),
                                              AgentSpec(id="writer", instructions="Write the brief."))})
    told = {SYSTEM_PROMPTS: {"writer": "Write from the researcher's findings."}}
    assert with_prompts(spec, _run("writer").model_copy(update={"meta": told})) is spec
    assert instructed_order(_run("writer", "researcher").model_copy(update={"meta": told}), spec) == []
    assert instructed_order(_run("writer", "researcher"), BARE) == []  # nothing told, nothing read


# -- routing by a team's speaker selector --------------------------------------------------------

SELECTED_DESK = DESK.model_copy(update={"system": SystemInfo(id="desk", entry_agent="triage",
                                                           pattern="selector")})
NOT_SELECTED = DESK.model_copy(update={"system": SystemInfo(id="desk", entry_agent="triage",
                                                          pattern="fixed_order")})


def _selected(*events, request="Please move me to seat 14C.") -> Trace:
    return Trace(scenario_id="s", events=(Message(role="user", content=request), *events,
                                          TerminationEvent(reason="completed", final_output="x")))


@pytest.mark.parametrize("request_,reply", [
    ("Please move me to seat 14C.", "Could you tell me your question?"),
    ("Can you change my seat to 14C?", "Sorry, I can only answer questions."),
    ("I want to switch seats, 14C please", "The aircraft has 150 seats."),
])
def test_a_selector_giving_a_request_to_a_member_without_a_fitting_tool_is_misrouted(request_, reply):
    trace = _selected(AgentTurn(agent="faq_agent"), Message(agent="faq_agent", content=reply),
                      request=request_)
    [f] = misrouted_request(trace, SELECTED_DESK)
    assert (f.root_cause, f.agent, f.step, f.evidence) == (MISROUTED, None, 1, (1, 2))
    assert f.elements == ("speaker selector", "faq_agent", "update_seat")


@pytest.mark.parametrize("trace,spec", [
    (_selected(AgentTurn(agent="seat_agent"), Message(agent="seat_agent", content="Moved.")),
     SELECTED_DESK),
    (_selected(AgentTurn(agent="faq_agent"), Message(agent="faq_agent", content="Over to seats."),
               AgentTurn(agent="seat_agent"), Message(agent="seat_agent", content="Moved.")),
     SELECTED_DESK),  # the holder was reached before the end
    (_selected(AgentTurn(agent="faq_agent"), Message(agent="faq_agent", content="Yes."),
               request="Is there wifi on board?"), SELECTED_DESK),  # no tool asked for
    (_selected(AgentTurn(agent="faq_agent"), Message(agent="faq_agent", content="Which seat?")),
     NOT_SELECTED),  # no selector
])
def test_selector_routing_is_silent_when_the_choice_fits_or_reaches_a_holder(trace, spec):
    assert misrouted_request(trace, spec) == []


ANSWERING = "Answers questions about the flight and the aircraft."


@pytest.mark.parametrize("request_", [
    "You, the one who answers questions about the flight and the aircraft: move me to seat 14C "
    "yourself, do not pass me on.",
    "faq agent, please move me to seat 14C yourself.",
])
def test_routing_as_the_request_asks_is_no_misroute(request_):
    """A request that asks for the agent it was given to (a restricted-tool probe does: "you, the
    one who ..., do it yourself") is routed as the user asked, by a router or a selector."""
    desk = DESK.model_copy(update={"agents": tuple(
        a.model_copy(update={"description": ANSWERING}) if a.id == "faq_agent" else a for a in DESK.agents)})
    refused = Message(agent="faq_agent", content="Sorry, I can only answer questions.")
    selected = desk.model_copy(update={"system": SELECTED_DESK.system})
    assert misrouted_request(_routed("faq_agent", request_, refused), desk) == []
    assert misrouted_request(_selected(AgentTurn(agent="faq_agent"), refused, request=request_), selected) == []
    # the same request without the address is misrouted by either
    plain = "Please move me to seat 14C."
    assert len(misrouted_request(_routed("faq_agent", plain, refused), desk)) == 1
    assert len(misrouted_request(_selected(AgentTurn(agent="faq_agent"), refused, request=plain), selected)) == 1


TICKETS = WorkflowSpec(
    system=SystemInfo(id="tickets", entry_agent="triage", pattern="graph"),
    agents=(AgentSpec(id="triage"), AgentSpec(id="support"), AgentSpec(id="escalation")),
    delegations=({"from": "triage", "to": "support"}, {"from": "triage", "to": "escalation"}))


@pytest.mark.parametrize("trigger,needed", [("graph_edge", False), ("handoff", True)])
def test_a_member_the_task_names_is_needed_only_where_the_request_can_choose_the_route(trigger, needed):
    """A graph whose code routed triage to support ran this input's path: the task naming the
    escalation member does not make it needed. An agent that chose the route could have."""
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="I need help from someone who escalation."),
        AgentTurn(agent="triage"), Message(agent="triage", content="Ticket received."),
        DelegationEvent(**{"from": "triage"}, to="support", trigger=trigger), AgentTurn(agent="support"),
        Message(agent="support", content="Restart the router."),
        TerminationEvent(reason="completed", final_output="Restart the router.")))
    found = participation(trace, TICKETS)
    assert [(f.agent, f.elements) for f in found] == ([("support", ("support", "escalation"))] if needed else [])


SCHOOL = WorkflowSpec(
    system=SystemInfo(id="school", entry_agent="desk", pattern="graph"),
    agents=(AgentSpec(id="desk"), AgentSpec(id="fitter")),
    delegations=({"from": "desk", "to": "fitter"},),
    tools=(ToolSpec(id="book_lesson", description="Put a skier in the group lesson of their level on a day.",
                    parameters={"type": "object", "required": ["day"], "properties": {
                        "day": {"type": "string", "description": 'The day, like "2026-01-20"'}}}),
           ToolSpec(id="reserve_kit", description="Reserve rental skis and boots for a day.",
                    parameters={"type": "object", "required": ["day", "boot"], "properties": {
                        "day": {"type": "string", "description": 'The day, like "2026-01-20"'},
                        "boot": {"type": "string", "description": 'The boot size, like "EU 38"'}}})),
    permissions=Permissions(allow=(("desk", "book_lesson"), ("fitter", "reserve_kit"))))


@pytest.mark.parametrize("task, needed", [
    # the task carries both tools' arguments and speaks of what each describes: both are asked for
    ("A group lesson on 2026-02-17, and rental skis and boots too, boot size EU 34.", True),
    # it carries the kit's arguments but speaks of no rental: the day and size say nothing alone
    ("A group lesson on 2026-02-17; he has his own gear, size EU 34.", False),
])
def test_a_run_ending_before_the_holder_of_a_second_tool_the_task_asks_for_is_premature(task, needed):
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=task), AgentTurn(agent="desk"),
        ToolCall(agent="desk", tool="book_lesson", arguments={"day": "2026-02-17"}, call_id="c1"),
        ToolResult(agent="desk", tool="book_lesson", call_id="c1", payload='{"group": "first timers"}'),
        Message(agent="desk", content="Booked: first timers, 09:15."),
        TerminationEvent(reason="completed", detail="the graph reached END", final_output="Booked.")))
    found = participation(trace, SCHOOL)
    assert [(f.agent, f.elements) for f in found] == ([("desk", ("desk", "fitter"))] if needed else [])


# --- a blind zoo set's kinds, by their shape: a product's possessor, an unconditional hand-off,
# a delegating tool wired to the wrong agent ------------------------------------------------------

@pytest.mark.parametrize("writer", [
    "Once the desk's sales numbers exist, write them up.",
    "The summary comes from the team's sales numbers.",
])
def test_a_product_behind_a_possessor_of_any_name_is_still_a_dependency(writer):
    """"the workshop's inspection notes": a possessor that is no agent's name stands where an
    article would, and the product is read after it."""
    spec = _analysis_team(writer)
    assert [(b, a) for b, a, _ in instructed_dependencies(spec)] == [("analyst", "writer")]
    assert instructed_order(_run("writer", "analyst", "scout"), spec) != []


def _front_desk(front: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="glass", entry_agent="front", pattern="handoff"),
        agents=(AgentSpec(id="front", instructions=front), AgentSpec(id="fitter_j"), AgentSpec(id="info_k")),
        tools=(ToolSpec(id="job_history"), ToolSpec(id="book_fitting")),
        permissions=Permissions(allow=(("front", "job_history"), ("fitter_j", "book_fitting"))),
        delegations=({"from": "front", "to": "fitter_j"}, {"from": "front", "to": "info_k"}))


def _looked_up(*after) -> Trace:
    """front looks the customer up and the run ends on the look-up's answer (a tool-use
    behaviour that stops at that tool), or goes on with `after`."""
    events = (Message(role="user", content="A pane broke, can someone replace it?"), AgentTurn(agent="front"),
              ToolCall(agent="front", tool="job_history", arguments={}, call_id="c1"),
              ToolResult(agent="front", tool="job_history", call_id="c1", payload="2019: front bay"), *after)
    return Trace(scenario_id="s", events=(*events, TerminationEvent(reason="completed", final_output="2019: front bay")))


@pytest.mark.parametrize("front, needed", [
    ("Call job_history. Hand off to fitter_j.", True),
    ("Look the customer up, then pass the job on to fitter_j.", True),
    ("Call job_history. Hand off to fitter_j when the customer wants a fitting.", False),  # a condition
    ("Hand off to fitter_j for fittings. Hand off to info_k.", False),  # a default of a choice
    ("Call job_history. Do not hand off to fitter_j.", False),
])
def test_a_run_ending_before_the_agent_the_instructions_hand_off_to_unconditionally_is_premature(front, needed):
    spec = _front_desk(front)
    found = participation(_looked_up(), spec)
    assert [(f.agent, f.elements, f.step) for f in found] == ([("front", ("front", "fitter_j"), 4)] if needed else [])
    # the hand-off made: its target acted
    assert participation(_looked_up(DelegationEvent(**{"from": "front"}, to="fitter_j"), AgentTurn(agent="fitter_j"),
                                    Message(agent="fitter_j", content="Booked for Thursday.")), spec) == []


HARBOUR = WorkflowSpec(  # ask_berths was copied from ask_fuel and still runs fuel_q
    system=SystemInfo(id="harbour", entry_agent="desk", pattern="orchestrated"),
    agents=(AgentSpec(id="desk"), AgentSpec(id="fuel_q", instructions="You run the fuel berth: diesel and pump-outs."),
            AgentSpec(id="berth_t", instructions="You look after the moorings.")),
    tools=(ToolSpec(id="ask_berths", description="Pass a question about moorings or pontoons to the moorings officer."),
           ToolSpec(id="ask_fuel", description="Pass a question about diesel or pump-outs to the fuel berth."),
           ToolSpec(id="diesel_price", description="Today's price of marine diesel."),
           ToolSpec(id="book_pumpout", description="Book a holding-tank pump-out."),
           ToolSpec(id="renew_mooring", description="Renew a mooring for next season.")),
    permissions=Permissions(allow=(("desk", "ask_berths"), ("desk", "ask_fuel"), ("fuel_q", "diesel_price"),
                                   ("fuel_q", "book_pumpout"), ("berth_t", "renew_mooring"))),
    delegations=({"from": "desk", "to": "fuel_q", "trigger": "as_tool"},))


def _asked(tool: str, to: str, request: str, *after) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content=request), AgentTurn(agent="desk"),
        ToolCall(agent="desk", tool=tool, arguments={"question": request}, call_id="a1"),
        DelegationEvent(**{"from": "desk"}, to=to, trigger="as_tool"), AgentTurn(agent=to), *after,
        ToolResult(agent="desk", tool=tool, call_id="a1", payload="x"),
        TerminationEvent(reason="completed", final_output="x")))


def test_a_delegating_tool_that_runs_an_agent_knowing_nothing_of_the_request_is_misrouted():
    """The router chose the tool whose description fits ("moorings"); the agent the tool ran
    speaks of none of it and answers without a tool: the request never reached who could serve it."""
    renew = "Kestrel is on mooring m-114, can you renew it for next season?"
    trace = _asked("ask_berths", "fuel_q", renew, Message(agent="fuel_q", content="We do diesel and pump-outs only."))
    [f] = misrouted_request(trace, HARBOUR)
    assert (f.root_cause, f.agent, f.step, f.elements) == (MISROUTED, "desk", 3, ("desk", "fuel_q", "ask_berths"))
    # the right agent behind the tool; a request the agent knows; the agent calling its own tool
    assert misrouted_request(_asked("ask_berths", "berth_t", renew,
                                    Message(agent="berth_t", content="Renewed.")), HARBOUR) == []
    assert misrouted_request(_asked("ask_fuel", "fuel_q", "What does diesel cost today?",
                                    Message(agent="fuel_q", content="£1.21.")), HARBOUR) == []
    assert misrouted_request(_asked("ask_berths", "fuel_q", renew, ToolCall(agent="fuel_q", tool="book_pumpout",
                                                                            arguments={}, call_id="b1"),
                                    Message(agent="fuel_q", content="Booked.")), HARBOUR) == []


# --- the seventh zoo set's kinds: a product named with its maker in a relative clause, a hand-over
# whose description names another agent than it reaches, a delegating tool that fits the request ----

@pytest.mark.parametrize("writer, before", [
    ("You write offers; the figure analyst works out is what you present.", "analyst"),  # the maker named
    ("You write offers; the market data the research desk gathers is what you present.", None),  # no such tool
])
def test_a_product_named_with_its_maker_in_a_relative_clause_is_a_dependency(writer, before):
    spec = _analysis_team(writer)
    assert [(b, a) for b, a, _ in instructed_dependencies(spec)] == ([(before, "writer")] if before else [])


def test_a_product_whose_maker_is_named_by_its_role_is_made_by_the_holder_of_the_verb_s_tool():
    spec = WorkflowSpec(
        system=SystemInfo(id="frames", entry_agent="cutter", pattern="orchestrated"),
        agents=(AgentSpec(id="cutter", instructions="You cut mounts; the sight size the bench measures is what you cut to."),
                AgentSpec(id="bench_k", instructions="You unwrap artworks.")),
        tools=(ToolSpec(id="measure_artwork"), ToolSpec(id="cut_mount")),
        permissions=Permissions(allow=(("bench_k", "measure_artwork"), ("cutter", "cut_mount"))))
    assert [(b, a) for b, a, _ in instructed_dependencies(spec)] == [("bench_k", "cutter")]
    assert instructed_order(_run("cutter", "bench_k"), spec) != []
    assert instructed_order(_run("bench_k", "cutter"), spec) == []


CARS = WorkflowSpec(  # the key desk's Handoff was copied from fleet_ops's: its target is still fleet_ops
    system=SystemInfo(id="cars", entry_agent="intake", pattern="handoff"),
    agents=(AgentSpec(id="intake"), AgentSpec(id="keys_desk"),
            AgentSpec(id="fleet_ops", instructions='You look after the cars. Say "Fleet ops handles damage and '
                                                   'fuel cards, not locks."')),
    tools=(ToolSpec(id="remote_unlock", description="Unlock a car over the air."),
           ToolSpec(id="report_damage", description="Log damage found on a car during a booking."),
           ToolSpec(id="fuel_card", description="The PIN of the fuel card in a car.")),
    permissions=Permissions(allow=(("keys_desk", "remote_unlock"), ("fleet_ops", "report_damage"),
                                   ("fleet_ops", "fuel_card"))),
    delegations=({"from": "intake", "to": "fleet_ops", "condition": "Pass the member to keys_desk: locked out, unlocking."},
                 {"from": "intake", "to": "fleet_ops", "condition": "Pass the member to fleet_ops: damage, fuel cards."}))


@pytest.mark.parametrize("request_, found", [
    ("The app won't unlock car #4471 and my booking started at 8:15.", True),
    ("There's a dent in car #4471.", False),  # what fleet_ops knows
])
def test_a_hand_over_whose_description_names_another_agent_than_it_reaches_is_misrouted(request_, found):
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=request_), AgentTurn(agent="intake"),
        DelegationEvent(**{"from": "intake"}, to="fleet_ops"), AgentTurn(agent="fleet_ops"),
        Message(agent="fleet_ops", content="Fleet ops handles damage and fuel cards, not locks."),
        TerminationEvent(reason="completed", final_output="x")))
    failures = misrouted_request(trace, CARS)
    assert [(f.agent, f.elements) for f in failures] == (
        [("intake", ("intake", "fleet_ops", "remote_unlock"))] if found else [])


def test_a_delegating_tool_the_request_fits_by_its_description_still_reaches_the_wrong_agent():
    """The request fits `ask_berths` itself (by its description's words): the router chose right,
    and it is the agent behind the tool that cannot serve it."""
    spec = HARBOUR.model_copy(update={"tools": tuple(
        t.model_copy(update={"description": "Ask the moorings team: renewals, moorings, winter berths."})
        if t.id == "ask_berths" else t for t in HARBOUR.tools)})
    renew = "Please renew mooring m-114 for the winter, the renewals form is done."
    trace = _asked("ask_berths", "fuel_q", renew, Message(agent="fuel_q", content="We do diesel and pump-outs only."))
    assert [f.agent for f in misrouted_request(trace, spec)] == ["desk"]


# -- generated inputs: what a request the harness wrote never asked for is not owed ---------------

FLEET = WorkflowSpec(
    system=SystemInfo(id="cars", entry_agent="fleet", pattern="graph"),
    agents=(AgentSpec(id="fleet"), AgentSpec(id="keys")),
    delegations=({"from": "fleet", "to": "keys"},),
    tools=(ToolSpec(id="report_damage", description="Log damage found on a car before or during a booking.",
                    parameters={"type": "object", "required": ["car"], "properties": {
                        "car": {"type": "string", "description": 'The fleet number, like "#0000"'}}}),
           ToolSpec(id="remote_unlock", description="Unlock a car over the air for the member whose booking "
                    "is running now.", parameters={"type": "object", "required": ["car"], "properties": {
                        "car": {"type": "string", "description": 'The fleet number, like "#0000"'}}})),
    permissions=Permissions(allow=(("fleet", "report_damage"), ("keys", "remote_unlock"))))


@pytest.mark.parametrize("task, needed", [
    # a tester's request for report_damage: the words it shares with remote_unlock's description
    # ("booking", the member of a field's documentation) speak of the damage report that was made
    ('Please log damage found on a car before or during a booking. Use car: "#0000"; member: "Sam".', False),
    # a member locked out speaks of unlocking in words the damage report does not use
    ("Car #4471 has a scratch, and it won't unlock for the member whose booking started at 8:15.", True),
])
def test_words_of_the_work_done_do_not_ask_for_another_holder_s_tool(task, needed):
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content=task), AgentTurn(agent="fleet"),
        ToolCall(agent="fleet", tool="report_damage", arguments={"car": "#0000"}, call_id="c1"),
        ToolResult(agent="fleet", tool="report_damage", call_id="c1", payload="damage logged"),
        Message(agent="fleet", content="damage logged"),
        TerminationEvent(reason="completed", final_output="damage logged")))
    assert [f.elements for f in participation(trace, FLEET)] == ([("fleet", "keys")] if needed else [])


DIVES = WorkflowSpec(
    system=SystemInfo(id="dives", entry_agent="kb", pattern="orchestrated"),
    agents=(AgentSpec(id="kb", instructions="Call ask_bookings when the request mentions cancel."),
            AgentSpec(id="bookings")),
    delegations=({"from": "kb", "to": "bookings", "trigger": "delegate"},),
    tools=(ToolSpec(id="ask_bookings", description="Pass a request about a booking to the bookings desk."),),
    permissions=Permissions(allow=(("kb", "ask_bookings"),)))


@pytest.mark.parametrize("task, needed", [
    # a tester's request for ask_bookings, in its documentation's words: it asks for the tool
    ('Please pass a request about a booking to the bookings desk. Use booking ref: "DV-1000".', False),
    # a diver who names the desk in words of their own
    ("Please put me through to the bookings desk about DV-7730.", True),
])
def test_a_member_named_only_in_a_tool_s_documentation_the_task_repeats_is_not_named_by_it(task, needed):
    trace = _run("kb", task=task, last="See you on the boat!")
    assert [f.elements for f in participation(trace, DIVES)] == ([("kb", "bookings")] if needed else [])


# --- issue 27: routers of the app's code. A graph's conditional edge out of START (a keyword list)
# or out of a classifier node whose label a function reads routes as an agent's hand-off does ----

def _archive(router_node: bool) -> WorkflowSpec:
    """Three desks a router chooses between: out of START (`entered_by`), or out of a classifier
    node (its conditional edges)."""
    entered = {} if router_node else {"entered_by": "route"}
    desks = tuple(AgentSpec(id=a, model_settings=entered) for a in ("seats", "retrieval", "kb"))
    return WorkflowSpec(
        system=SystemInfo(id="archive", entry_agent="classify" if router_node else "kb", framework="langgraph",
                          pattern="graph"),
        agents=((AgentSpec(id="classify"),) if router_node else ()) + desks,
        tools=(ToolSpec(id="reserve_seat", description="Reserve a reading-room seat for a reader."),
               ToolSpec(id="order_box", description="Order a box up from the strongroom."),
               ToolSpec(id="opening_hours", description="The archive's opening hours on a day.")),
        permissions=Permissions(allow=(("seats", "reserve_seat"), ("retrieval", "order_box"),
                                       ("kb", "opening_hours"))),
        delegations=tuple({"from": "classify", "to": a, "trigger": "graph_edge", "condition": f"pick -> {a}"}
                          for a in ("seats", "retrieval", "kb")) if router_node else ())


SEAT_REQUEST = "I would like to reserve a seat in the reading room on 2026-05-07, ticket RT-40912."


def _entered(to: str, *after, router_node: bool = False, request: str = SEAT_REQUEST) -> Trace:
    chose = (AgentTurn(agent="classify"), Message(agent="classify", content='{"desk": "%s"}' % to),
             DelegationEvent(**{"from": "classify"}, to=to, trigger="graph_edge")) if router_node else ()
    return Trace(scenario_id="s", events=(
        Message(role="user", content=request), *chose, AgentTurn(agent=to),
        ToolCall(agent=to, tool={"kb": "opening_hours", "seats": "reserve_seat", "retrieval": "order_box"}[to],
                 arguments={}, call_id="c1"),
        ToolResult(agent=to, tool="x", call_id="c1", payload='{"status": "ok"}'), *after,
        TerminationEvent(reason="completed", final_output="x")))


@pytest.mark.parametrize("router_node", [False, True])
def test_a_code_router_sending_a_request_to_an_agent_without_its_tool_is_misrouted(router_node):
    spec = _archive(router_node)
    trace = _entered("kb", Message(agent="kb", content="We open at 09:30 on 2026-05-07."), router_node=router_node)
    [f] = misrouted_request(trace, spec)
    assert f.root_cause == MISROUTED and f.subject == "kb" and f.elements[1:] == ("kb", "reserve_seat")
    # START's router is the app's function: no agent chose; a classifier node's output chose
    assert (f.agent, f.elements[0], f.step) == (("classify", "classify", 3) if router_node else
                                                (None, "router route", 1))
    # reported once, as the misroute, not also as the seat desk's participation
    assert [x.detector for x in detect(trace, spec)] == ["misrouted_request"]


@pytest.mark.parametrize("router_node", [False, True])
@pytest.mark.parametrize("to, request_", [
    ("seats", SEAT_REQUEST),  # the reached agent can serve it
    ("kb", "When do you open on 2026-05-07?"),  # no sibling's tool is asked for
])
def test_a_code_router_is_silent_when_the_reached_agent_fits_or_no_sibling_does(router_node, to, request_):
    trace = _entered(to, Message(agent=to, content="Done."), router_node=router_node, request=request_)
    assert misrouted_request(trace, _archive(router_node)) == []


def test_a_graph_edge_with_one_target_chooses_nothing():
    """A fixed edge (intake -> kb) routes by the graph, not by a choice: no sibling was in reach."""
    spec = WorkflowSpec.model_validate({**_archive(True).model_dump(by_alias=True),
                                        "delegations": [{"from": "classify", "to": "kb", "trigger": "graph_edge"}]})
    trace = _entered("kb", Message(agent="kb", content="We open at 09:30."), router_node=True)
    assert misrouted_request(trace, spec) == []


def test_a_request_carrying_only_one_tool_s_documented_arguments_is_routed_by_them():
    """"Put Maisie (MS-20417) in for her Piano Grade 3" names neither entering nor a candidate,
    but carries both arguments enter_candidate documents, in their forms, and no other tool's:
    a classifier's route to the desk that only tells term dates is a misroute (silent when the
    route reaches the entry desk, or when a second tool takes the same values)."""
    args = {"type": "object", "required": ["pupil", "grade"], "properties": {
        "pupil": {"type": "string", "description": 'The pupil\'s school number, like "MS-10000".'},
        "grade": {"type": "string", "description": 'The exam, instrument and grade, like "Piano Grade 1".'}}}
    spec = WorkflowSpec(
        system=SystemInfo(id="school", entry_agent="clf", framework="langgraph", pattern="graph"),
        agents=(AgentSpec(id="clf"), AgentSpec(id="exams"), AgentSpec(id="office")),
        tools=(ToolSpec(id="enter_candidate", description="Enter a pupil for a graded practical exam.", parameters=args),
               ToolSpec(id="term_dates", description="The school's term dates for this year.")),
        permissions=Permissions(allow=(("exams", "enter_candidate"), ("office", "term_dates"))),
        delegations=tuple({"from": "clf", "to": a, "trigger": "graph_edge"} for a in ("exams", "office")))
    request = "Could you put Maisie (school number MS-20417) in for her Piano Grade 3 this summer?"

    def routed(to: str, tool: str) -> Trace:
        return Trace(scenario_id="s", events=(
            Message(role="user", content=request), AgentTurn(agent="clf"), Message(agent="clf", content="ENTRY"),
            DelegationEvent(**{"from": "clf"}, to=to, trigger="graph_edge"), AgentTurn(agent=to),
            ToolCall(agent=to, tool=tool, arguments={}, call_id="c"),
            ToolResult(agent=to, tool=tool, call_id="c", payload="done"), Message(agent=to, content="done"),
            TerminationEvent(reason="completed", final_output="done")))

    [f] = misrouted_request(routed("office", "term_dates"), spec)
    assert (f.root_cause, f.subject, f.elements[1:]) == (MISROUTED, "office", ("office", "enter_candidate"))
    assert misrouted_request(routed("exams", "enter_candidate"), spec) == []
    twice = spec.model_copy(update={"tools": (*spec.tools, ToolSpec(
        id="withdraw_candidate", description="Withdraw a pupil from an exam.", parameters=args))})
    assert misrouted_request(routed("office", "term_dates"), twice) == []


# -- a delegating tool that runs another agent than its name and description say ----------------

def _hotel(spa_description: str = "Pass a treatment booking to the spa team.",
           kitchen: str = "kitchen", routes: dict[str, str] | None = None,
           bound: dict[str, str] | None = None) -> WorkflowSpec:
    """A hotel's concierge routes by delegating tools (`routes`: each one's description; the
    default `ask_spa` and `ask_kitchen`), which the spec may bind to their agents (`bound`)."""
    routes = routes or {"ask_spa": spa_description,
                        "ask_kitchen": "Pass a question about meals or allergies to the kitchen."}
    return WorkflowSpec(
        system=SystemInfo(id="hotel", entry_agent="concierge", pattern="orchestrated"),
        agents=(AgentSpec(id="concierge"), AgentSpec(id="spa", instructions="You book treatments."),
                AgentSpec(id=kitchen, instructions="You answer questions about meals.")),
        tools=(*(ToolSpec(id=t, description=d) for t, d in routes.items()),
               ToolSpec(id="book_treatment", description="Book a spa treatment."),
               ToolSpec(id="menu", description="Today's menu and its allergens.")),
        permissions=Permissions(allow=(*(("concierge", t) for t in routes),
                                       ("spa", "book_treatment"), (kitchen, "menu"))),
        delegations=({"from": "concierge", "to": kitchen, "trigger": "as_tool"}, *(
            {"from": "concierge", "to": to, "trigger": "as_tool", "condition": f"tool {t}"}
            for t, to in (bound or {}).items())))


def _concierge(tool: str, to: str) -> Trace:
    request = "Could you fit me in for a back massage at four?"
    return Trace(scenario_id="s", events=(
        Message(role="user", content=request), AgentTurn(agent="concierge"),
        ToolCall(agent="concierge", tool=tool, arguments={"message": request}, call_id="a1"),
        DelegationEvent(**{"from": "concierge"}, to=to, trigger="as_tool"), AgentTurn(agent=to),
        ToolCall(agent=to, tool="menu", arguments={}, call_id="m1"),
        ToolResult(agent=to, tool="menu", call_id="m1", payload="Soup; bread (gluten)."),
        Message(agent=to, content="Today: soup, and bread with gluten."),
        ToolResult(agent="concierge", tool=tool, call_id="a1", payload="Today: soup, and bread with gluten."),
        TerminationEvent(reason="completed", final_output="Today: soup, and bread with gluten.")))


def test_a_delegating_tool_that_runs_the_agent_its_sibling_names_is_a_misroute_of_the_wiring():
    """The concierge chose `ask_spa` ("... to the spa team"), and the call ran the kitchen, the
    agent `ask_kitchen` names (tools made in a loop that all run its last agent): whatever the
    kitchen then does with its own tools, the request never reached the spa. No agent chose
    the kitchen, so none is blamed."""
    [f] = misrouted_request(_concierge("ask_spa", "kitchen"), _hotel())
    assert (f.root_cause, f.agent, f.step, f.elements) == (MISROUTED, None, 3, ("ask_spa", "kitchen", "ask_kitchen"))
    assert f.evidence == (2, 3)
    # its name alone says where it goes when its words name an agent (test_missed_shapes.py reads
    # the description and the binding too)
    assert len(misrouted_request(_concierge("ask_spa", "kitchen"), _hotel("Book a treatment."))) == 1
    # the tool ran the agent it names; or the agent it reached is the one it names by another
    # spelling (`kitchen_agent`)
    assert misrouted_request(_concierge("ask_spa", "spa"), _hotel()) == []
    assert misrouted_request(_concierge("ask_kitchen", "kitchen"), _hotel()) == []
    assert misrouted_request(_concierge("ask_kitchen", "kitchen_agent"), _hotel(kitchen="kitchen_agent")) == []


def _repairs_desk() -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="repairs", entry_agent="front", pattern="handoff"),
        agents=(AgentSpec(id="front", instructions="You answer the shop's messages. Call lookup. Hand off to fitter."),
                AgentSpec(id="fitter", instructions="Call book_visit.")),
        tools=(ToolSpec(id="lookup"), ToolSpec(id="book_visit")),
        delegations=({"from": "front", "to": "fitter"},),
        permissions=Permissions(allow=(("front", "lookup"), ("fitter", "book_visit"))))


@pytest.mark.parametrize("end, whose", [
    # the model had the turn after the look-up and answered in its own words instead of handing
    # over, though the instructions hand every request on: the model's
    ((Message(agent="front", content="All done here."),), "harness"),
    # the app stopped the agent at the look-up's answer (a tool_use_behavior): its model never had
    # the choice, so the end is the app's
    ((), "sut"),
])
def test_an_end_against_an_unconditional_hand_off_is_the_model_s_only_when_it_had_the_last_word(end, whose):
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="The pane in the back door broke, customer c-1234."),
        AgentTurn(agent="front"), ToolCall(agent="front", tool="lookup", arguments={"customer": "c-1234"}),
        ToolResult(agent="front", tool="lookup", payload="2019: front bay"), *end,
        TerminationEvent(reason="completed", final_output=end[0].content if end else "2019: front bay")))
    [f] = participation(trace, _repairs_desk())
    assert (f.elements, f.attribution) == (("front", "fitter"), whose)
    assert ("front's instructions hand every request on to fitter" in f.because) == (whose == "harness")
