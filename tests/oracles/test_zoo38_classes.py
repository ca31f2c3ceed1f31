"""Oracle misses of blind set zoo38 (the implier), by class, each beside its correct twin
(hand-built specs and traces, in domains of their own):

- a line that waits for a member the agent itself calls as a tool ("When the valuer has replied,
  pass its figure on"; the Agents SDK's `as_tool`, ADK's `AgentTool`) is kept by calling it
  first: only words the caller says before the member acts break it (`instructed_order`);
- a fixed-order team whose turns, once the work is done, share only closed-class words with the
  task ("over to you", "if you need anything") has stopped making progress: its stop condition
  never fired (`missing_termination`, Termination Condition Violation), not a bound too low.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles.detectors import missing_termination, unrecovered_tool_errors
from masfuzz.oracles.instructed import SPEAKING_ORDER, instructed_dependencies, instructed_order
from masfuzz.oracles.semantic import tool_doc_mismatch
from masfuzz.spec.model import AgentSpec, Delegation, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

# -- waiting for a member one calls as a tool ----------------------------------------------------

WAITS = "When valuer_v has replied, pass its figure on to the collector."


def _antiques(called_as_tool: bool) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="antiques", entry_agent="counter_c"),
        agents=(AgentSpec(id="counter_c", instructions=f"You are counter_c at the antiques fair.\n"
                                                        f"Ask valuer_v to value the piece.\n{WAITS}"),
                AgentSpec(id="valuer_v", instructions="Value the piece with appraise_piece.")),
        tools=(ToolSpec(id="appraise_piece", description="Appraise an antique by its maker and year."),),
        permissions=Permissions(allow=(("valuer_v", "appraise_piece"),)),
        delegations=(Delegation(**{"from": "counter_c"}, to="valuer_v",
                                trigger="as_tool" if called_as_tool else "handoff"),))


def _counter(spec: WorkflowSpec, blurts: bool) -> Trace:
    """counter_c as a scripted model plays it: it calls the member its instructions name before
    it says anything, unless `blurts`, when it first guesses a figure of its own. The member
    answers by its own tool."""
    caller = next(a for a in spec.agents if a.id == spec.system.entry_agent)
    [member] = [a.id for a in spec.agents if a.id != caller.id and a.id in caller.instructions]
    [tool] = [t for a, t in spec.permissions.allow if a == member]
    events = [Message(role="user", content="What would a 1920s Clarice Cliff jug fetch?"), AgentTurn(agent=caller.id)]
    if blurts:
        events.append(Message(agent=caller.id, content="Those go for around £400, I'd say."))
    events += [ToolCall(agent=caller.id, tool=member, call_id="m", arguments={"input": "Clarice Cliff jug, 1920s"}),
               DelegationEvent(**{"from": caller.id}, to=member, trigger="as_tool"),
               AgentTurn(agent=member),
               ToolCall(agent=member, tool=tool, call_id="t", arguments={"maker": "Clarice Cliff", "year": 1928}),
               ToolResult(agent=member, tool=tool, call_id="t", payload='{"estimate": "£250-£350"}'),
               Message(agent=member, content="Estimate £250-£350."),
               ToolResult(agent=caller.id, tool=member, call_id="m", payload="Estimate £250-£350."),
               Message(agent=caller.id, content="The valuer puts it at £250-£350."),
               TerminationEvent(reason="completed", final_output="The valuer puts it at £250-£350.")]
    return Trace(scenario_id="s", events=tuple(events))


def test_a_dependency_on_a_member_called_as_a_tool_is_kept_by_calling_it():
    spec = _antiques(called_as_tool=True)
    assert ("valuer_v", "counter_c", WAITS) in instructed_dependencies(spec)  # the line is read
    assert instructed_order(_counter(spec, blurts=False), spec) == []


def test_a_caller_that_answers_before_the_member_it_waits_for_breaks_the_order():
    spec = _antiques(called_as_tool=True)
    trace = _counter(spec, blurts=True)
    [f] = instructed_order(trace, spec)
    assert (f.root_cause, f.agent, f.step) == (SPEAKING_ORDER, "counter_c", 2)
    assert "£400" in trace.events[f.step].content


@pytest.mark.parametrize("trigger", ["handoff", None])
def test_without_a_call_as_a_tool_taking_the_floor_first_is_still_too_early(trigger):
    """The same run where neither the spec nor the run says counter_c calls valuer_v as a tool:
    its first turn came before valuer_v's, as before."""
    spec = _antiques(called_as_tool=False)
    trace = _counter(spec, blurts=False)
    events = tuple(e if not isinstance(e, DelegationEvent) else e.model_copy(update={"trigger": trigger})
                   for e in trace.events if trigger or not isinstance(e, DelegationEvent))
    [f] = instructed_order(trace.model_copy(update={"events": events}), spec)
    assert (f.agent, f.step) == ("counter_c", 1)


# -- a round robin whose late turns share only closed-class words with the task ------------------

TEAM = WorkflowSpec(system=SystemInfo(id="wine", entry_agent="chef_c", pattern="fixed_order"),
                    agents=(AgentSpec(id="chef_c"), AgentSpec(id="sommelier_s")))
ASK = "Could you pick a red for our lamb dinner on Saturday? We would like something you enjoy yourself."


def _team(said: list[str]) -> Trace:
    events = [Message(role="user", content=ASK)]
    for n, text in enumerate(said):
        agent = ("chef_c", "sommelier_s")[n % 2]
        events += [AgentTurn(agent=agent), Message(agent=agent, content=text)]
    return Trace(scenario_id="s", events=(*events, TerminationEvent(reason="message_limit", final_output=said[-1])))


WORK = ["Slow-roast lamb shoulder with rosemary for Saturday.", "A Rioja Reserva 2016 suits the lamb."]


def test_turns_that_share_only_pronouns_with_the_task_made_no_progress():
    idle = ["That is all from me - you know where I am.", "Nothing to add; over to you.",
            "I would leave it there if you are happy.", "We are good here, whenever you like."]
    [f] = missing_termination(_team(WORK + idle), TEAM)
    assert (f.root_cause, f.agent, f.elements[-1]) == ("Termination Condition Violation", None, "repeated")


def test_turns_that_bring_new_words_of_the_work_are_a_bound_too_low():
    going = ["Rest the lamb shoulder for twenty minutes.", "Decant the Rioja an hour before dinner.",
             "Serve the lamb with gratin dauphinois.", "Or a Saint-Emilion claret with the lamb, if you prefer."]
    [f] = missing_termination(_team(WORK + going), TEAM)
    assert f.root_cause == "Max Round Limit Exceeded"


# -- a refusal that states the range the value must lie in ---------------------------------------

def _wall(example: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="wall", entry_agent="belay_b"),
        agents=(AgentSpec(id="belay_b", instructions="Fit the climber's harness with fit_harness."),),
        tools=(ToolSpec(id="fit_harness", description="Pick a harness size for a climber.", parameters={
            "type": "object", "required": ["height"],
            "properties": {"height": {"type": "number", "description": f"The climber's height, e.g. {example}"}}}),),
        permissions=Permissions(allow=(("belay_b", "fit_harness"),)))


def _fitting(spec: WorkflowSpec, asked: str) -> Trace:
    """belay_b as a scripted model plays it: it passes the first number of the request to the one
    tool its instructions name, and the tool answers as a harness rack does: 110 to 210 cm."""
    [(agent, tool)] = spec.permissions.allow
    said = next(w for w in asked.replace("?", " ").split() if w.replace(".", "").isdigit())
    height = float(said) if "." in said else int(said)
    answer = ('{"status": 200, "size": "M"}' if 110 <= height <= 210 else
              '{"status": 422, "detail": "height: our harnesses fit climbers of 110 to 210 cm"}')
    reply = "Size M it is." if "200" in answer else "That height is outside what our harnesses fit."
    return Trace(scenario_id="s", events=(
        Message(role="user", content=asked), AgentTurn(agent=agent),
        ToolCall(agent=agent, tool=tool, call_id="h", arguments={"height": height}),
        ToolResult(agent=agent, tool=tool, call_id="h", payload=answer),
        Message(agent=agent, content=reply), TerminationEvent(reason="completed", final_output=reply)))


def test_a_value_outside_the_range_the_refusal_states_is_refused_on_its_merits():
    spec = _wall("150")  # the documented example lies in the range: the documentation's form passes
    assert tool_doc_mismatch(_fitting(spec, "My son is 95 cm tall, can he climb?"), spec) == []


def test_a_documented_example_outside_the_stated_range_is_still_the_documentation_s_mismatch():
    spec = _wall("5.9")  # heights documented in feet, taken in centimetres
    [f] = tool_doc_mismatch(_fitting(spec, "I am 5.9 feet tall, which harness?"), spec)
    assert (f.root_cause, f.elements[1:]) == ("Tool Specification Mismatch", ("fit_harness", "height"))


# -- masfuzz's fault marker passed on against the agent's own line for the tool failing ----------

MARK = "MASFUZZ_INJECTED_INTERNAL_ERROR: tool reserve_bay failed with an internal error (injected by masfuzz)"


def _yard(failure_line: str) -> WorkflowSpec:
    return WorkflowSpec(
        system=SystemInfo(id="yard", entry_agent="gate_g"),
        agents=(AgentSpec(id="gate_g", instructions=f"Reserve a loading bay with reserve_bay.\n{failure_line}"),),
        tools=(ToolSpec(id="reserve_bay", description="Reserve a loading bay for a lorry."),),
        permissions=Permissions(allow=(("gate_g", "reserve_bay"),)))


def _bay(spec: WorkflowSpec) -> Trace:
    """gate_g as a careless scripted model plays it: whatever its lines say, it hands the driver
    the tool's answer word for word."""
    [(agent, tool)] = spec.permissions.allow
    reply = f"Here is what the yard system said: {MARK}"
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Lorry KX21 ABC needs a bay at 14:00."), AgentTurn(agent=agent),
        ToolCall(agent=agent, tool=tool, call_id="b", arguments={"plate": "KX21 ABC", "at": "14:00"}),
        ToolResult(agent=agent, tool=tool, call_id="b", status="error", payload=MARK, fault="error"),
        Message(agent=agent, content=reply), TerminationEvent(reason="completed", final_output=reply)))


def test_a_fault_marker_leaked_against_the_agent_s_own_failure_line_is_the_model_s():
    spec = _yard('When reserve_bay returns an error, tell the driver "No bay is held yet - try the kiosk."')
    [f] = unrecovered_tool_errors(_bay(spec), spec)
    assert f.attribution == "harness" and "reserve_bay" in f.because and "raw error" in f.because


@pytest.mark.parametrize("line", ["Tell the driver which bay is theirs.",  # no line for a failure
                                  'If reserve_bay answers FULL, tell the driver "The yard is full."'])  # another failure
def test_a_fault_marker_leaked_with_no_line_for_the_failure_stays_the_app_s(line):
    spec = _yard(line)
    [f] = unrecovered_tool_errors(_bay(spec), spec)
    assert f.attribution == "sut"


@pytest.mark.parametrize("line, waits", [
    ("Answer the customer when valuer_v has replied.", True),
    ("As soon as valuer_v has left the chat, close it.", True),  # an irregular participle
    ("As soon as valuer_v has sent the figure, pass it on.", True),
    # "has" with an object, not the perfect: a word ending in t or d is no participle
    ("When valuer_v has that, note it.", False),
    ("When valuer_v has most of the facts, summarise them.", False),
])
def test_a_wait_in_the_perfect_needs_a_participle(line, waits):
    team = WorkflowSpec(system=SystemInfo(id="s", entry_agent="desk_d", pattern="selector"),
                        agents=(AgentSpec(id="desk_d", instructions=line),
                                AgentSpec(id="valuer_v", instructions="Value the item.")))
    assert bool(instructed_dependencies(team)) == waits
