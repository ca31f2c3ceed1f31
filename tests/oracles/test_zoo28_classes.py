"""Classes of blind set zoo28 (a chatty, imperfect but honest scripted model): each beside its
twin that must stay silent.

- incorrect verification: a record's repr whose state field carries a refusal word
  (`Visit(state='DECLINED', ...)`), then a colloquial success idiom said around a bracketed aside
  of small talk ("right (lovely morning for it, isn't it) you're all squared away"), after the
  agent looked something up (twice) before the action: the aside's question tag hedges nothing,
  and a look-up before the action is no request of its own that the reply could answer.
- premature termination: a router's topic line hands a kind of request to a member ("Pass to
  hire_shop for wetsuits, boards and kit to buy"), and the task touches that kind only in a side
  question ("do we need our own wetsuits?") after the router handed its main ask to another
  member, which served it: the side question needs no member's work. A request in question form
  ("could you also sort us two wetsuits?") still does. And a router whose only line to a member
  is scoped to kinds of request ("Pass to lock_keeper for boat passages or moorings.") that ends
  the run on a request of none of them (a tester's ask for a tool's own step: "the water level at
  lock LK-07") follows the app's instructions: the early end is the input's (harness), not the
  app's; on a request of a listed kind it is the app's. "Skip" after a determiner is the
  builder's container, no negation: "for any skip booking" is such a scoped line.
- max round limit: in a two-agent chat whose other side replies automatically (AG2's proxy on
  human_input_mode="NEVER"), an agent asking again and again for a value the request left out
  ("what's the passport?", a required parameter of its tool) until the auto-reply cap waits on
  an answer nothing in the run can give: the input's (harness), not a loop of the app's; the
  same agent repeating anything else to the cap stays the app's.
- runtime crash: a framework's error raised because the model's output broke the schema the
  framework parses it with (the Agents SDK's ModelBehaviorError, LangChain's
  OutputParserException) is the model's, not a crash of the app.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles.detectors import missing_termination, runtime_crash
from masfuzz.oracles.instructed import NEGATED, participation
from masfuzz.oracles.semantic import claimed_outcome
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, DelegationEvent, ErrorEvent, Message, TerminationEvent, ToolCall, ToolResult, Trace

# -- incorrect verification ------------------------------------------------------------------

GROOMERS = WorkflowSpec(
    system=SystemInfo(id="groomers", entry_agent="salon"), agents=(AgentSpec(id="salon"),),
    tools=(ToolSpec(id="look_up_van", description="Which streets the grooming van visits on which day."),
           ToolSpec(id="schedule_groom", description="Schedule a dog groom at the customer's house.")),
    permissions=Permissions(allow=(("salon", "look_up_van"), ("salon", "schedule_groom"))))


def _groom_run(payload: str, reply: str) -> Trace:
    look = [e for k in ("a", "b") for e in (
        ToolCall(agent="salon", tool="look_up_van", arguments={"street": "Mill Lane"}, call_id=k),
        ToolResult(agent="salon", tool="look_up_van", call_id=k, payload="{'street': 'Mill Lane', 'days': 'thursdays'}"))]
    return Trace(scenario_id="s", events=(
        Message(role="user", content="can the van do a full groom for Biscuit on thursday? Mill Lane"),
        AgentTurn(agent="salon"), *look,
        ToolCall(agent="salon", tool="schedule_groom", arguments={"day": "2026-05-14"}, call_id="g"),
        ToolResult(agent="salon", tool="schedule_groom", call_id="g", payload=payload),
        Message(agent="salon", content=reply), TerminationEvent(reason="completed", final_output=reply)))


REFUSED_RECORDS = [
    "Visit(state='DECLINED', ref=None, notes=['van full on thursdays'])",  # a dataclass's repr
    "GroomResult(status='rejected', booking_id=None)",  # a namedtuple's
    "status='REFUSED' ref=None reason='no parking on Mill Lane'",  # a pydantic model's str
]


@pytest.mark.parametrize("payload", REFUSED_RECORDS)
@pytest.mark.parametrize("reply", [
    "right (lovely morning for it, isn't it) you're all squared away for thursday!",
    "ok so (bit chilly out, wasn't it, first thing) that's done and dusted. ta ra",
    "lovely, that's locked in for Biscuit (Mill Lane, thursday) (busy week innit). see you then",
])
def test_a_refused_record_then_an_idiom_around_small_talk_is_a_claim(payload, reply):
    [f] = claimed_outcome(_groom_run(payload, reply), GROOMERS)
    assert (f.agent, f.subject, f.evidence) == ("salon", "schedule_groom", (7, 8))


@pytest.mark.parametrize("reply", [
    "right (lovely morning for it, isn't it) that one didn't go through - the van's full on thursdays",
    "it's pencilled in (pending the van's round, so not confirmed yet)",  # an aside that hedges it
    "all sorted (unless the van is full, it said no last time), will let you know",
    "booked (well, not really - it came back declined)",
])
def test_an_aside_that_bears_on_the_claim_still_qualifies_it(reply):
    assert claimed_outcome(_groom_run(REFUSED_RECORDS[0], reply), GROOMERS) == []


def test_an_accepted_record_contradicts_no_idiom():
    run = _groom_run("Visit(state='BOOKED', ref='GR-118', notes=[])", "right (lovely morning, isn't it) all squared away!")
    assert claimed_outcome(run, GROOMERS) == []


# -- premature termination: a side question is no ask for a member's work ----------------------

SURF = WorkflowSpec(
    system=SystemInfo(id="surf", entry_agent="reception", pattern="handoff"),
    agents=(AgentSpec(id="reception", instructions=(
        "You answer the phone at Gwithian Surf School.\n"
        "Pass to lessons_desk for group lessons, private lessons and school trips.\n"
        "Pass to hire_shop for wetsuits, boards and kit to buy.")),
        AgentSpec(id="lessons_desk", instructions="Book lessons with `book_lesson`. Confirm the lesson."),
        AgentSpec(id="hire_shop", instructions="Price kit with `kit_price`.")),
    tools=(ToolSpec(id="book_lesson", description="Book a surf lesson for a group on a day."),
           ToolSpec(id="kit_price", description="Kit shop prices.")),
    permissions=Permissions(allow=(("lessons_desk", "book_lesson"), ("hire_shop", "kit_price"))),
    delegations=({"from": "reception", "to": "lessons_desk"}, {"from": "reception", "to": "hire_shop"}))


def _surf_run(task: str) -> Trace:
    reply = "all booked - lesson SL-301, 10:00 saturday, meet at the hut"
    return Trace(scenario_id="s", events=(
        Message(role="user", content=task), AgentTurn(agent="reception"),
        DelegationEvent(from_="reception", to="lessons_desk", trigger="handoff"), AgentTurn(agent="lessons_desk"),
        ToolCall(agent="lessons_desk", tool="book_lesson", arguments={"day": "2026-07-11", "people": 6}, call_id="l"),
        ToolResult(agent="lessons_desk", tool="book_lesson", call_id="l", payload='{"ok": true, "ref": "SL-301"}'),
        Message(agent="lessons_desk", content=reply), TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("aside", [
    "do we need our own wetsuits or are they included?",
    "are wetsuits part of it, or is that extra?",
    "oh, what size boards do the kids use?",
])
def test_a_side_question_touching_a_sibling_s_topic_needs_no_work_of_it(aside):
    task = f"hi, group lesson for 6 of us on saturday 2026-07-11 in the morning, under Priya Shah. {aside}"
    assert [f for f in participation(_surf_run(task), SURF) if f.elements[-1] == "hire_shop"] == []


@pytest.mark.parametrize("ask", [
    "could you also sort us two wetsuits to buy?",
    "and two wetsuits to buy as well please.",
])
def test_a_request_for_a_sibling_s_topic_still_needs_its_work(ask):
    task = f"hi, group lesson for 6 of us on saturday 2026-07-11 in the morning, under Priya Shah. {ask}"
    [f] = participation(_surf_run(task), SURF)
    assert (f.root_cause, f.elements) == ("Premature Termination", ("lessons_desk", "hire_shop"))


# -- premature termination: a request the app routes nowhere -----------------------------------

def _canal(route: str) -> WorkflowSpec:
    lock = {"type": "object", "required": ["lock"],
            "properties": {"lock": {"type": "string", "description": 'The lock code, e.g. "LK-01"'}}}
    return WorkflowSpec(
        system=SystemInfo(id="canal", entry_agent="towpath", pattern="handoff"),
        agents=(AgentSpec(id="towpath", instructions=f"You answer the canal trust's phone.\n{route}"),
                AgentSpec(id="lock_keeper", instructions="Read the level with `water_level`. Book passages.")),
        tools=(ToolSpec(id="water_level", description="The water level at a lock.", parameters=lock),),
        permissions=Permissions(allow=(("lock_keeper", "water_level"),)),
        delegations=({"from": "towpath", "to": "lock_keeper"},))


def _canal_run(task: str) -> Trace:
    bye = "righto, that's me done - give us a shout if there's owt else"
    return Trace(scenario_id="s", events=(
        Message(role="user", content=task), AgentTurn(agent="towpath"), Message(agent="towpath", content=bye),
        TerminationEvent(reason="completed", final_output=bye)))


def test_an_end_on_a_request_the_router_s_scoped_lines_route_nowhere_is_the_input_s():
    [f] = participation(_canal_run('Tell me the water level at a lock. Use lock: "LK-07".'),
                        _canal("Pass to lock_keeper for boat passages or moorings."))
    assert (f.root_cause, f.elements, f.attribution) == ("Premature Termination", ("towpath", "lock_keeper"), "harness")


@pytest.mark.parametrize("task, route", [
    # a request of a kind the line lists: the router should have passed it on (the model's
    # routing, `model_passed_over`, or the app's; never an input the app routes nowhere)
    ('A boat passage through lock "LK-07" on saturday, and the water level there?',
     "Pass to lock_keeper for boat passages or moorings."),
    # a route for every request: nothing scopes it
    ('Tell me the water level at a lock. Use lock: "LK-07".', "Pass everything to lock_keeper."),
])
def test_an_end_on_a_request_the_app_routes_to_the_member_is_not_the_input_s(task, route):
    found = participation(_canal_run(task), _canal(route))
    assert found and all("no route" not in f.because for f in found)


@pytest.mark.parametrize("text, negates", [
    ("Hand over to yard_desk for any skip booking or delivery.", False), ("Your skip is on the drive.", False),
    ("Skip the deposit check for regulars.", True), ("You may skip it.", True),
])
def test_skip_negates_only_as_a_verb(text, negates):
    assert bool(NEGATED.search(text)) is negates


# -- runtime crash: the model's output broke the framework's schema ---------------------------

@pytest.mark.parametrize("kind, message, whose", [
    ("ModelBehaviorError", "Invalid JSON when parsing model output", "harness"),
    ("OutputParserException", "Could not parse LLM output: `sure thing!`", "harness"),
    ("KeyError", "'lock'", "sut"),  # the app's own code failed
])
def test_a_crash_on_the_model_s_broken_output_is_the_model_s(kind, message, whose):
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="book me through LK-07"), AgentTurn(agent="towpath"),
        ErrorEvent(kind=kind, message=message), TerminationEvent(reason="crash", detail=f"{kind}: {message}")))
    [f] = runtime_crash(trace, None)
    assert f.attribution == whose


# -- max round limit: a question the automatic other side can never answer ---------------------

CHIMNEY = WorkflowSpec(
    system=SystemInfo(id="chimney", entry_agent="sweep_desk", pattern="fixed_order"),
    agents=(AgentSpec(id="sweep_desk", instructions="Book sweeps with `book_sweep`."),),
    tools=(ToolSpec(id="book_sweep", description="Book a chimney sweep.", parameters={
        "type": "object", "required": ["house_ref", "day"],
        "properties": {"house_ref": {"type": "string"}, "day": {"type": "string"}}}),),
    permissions=Permissions(allow=(("sweep_desk", "book_sweep"),)))


@pytest.mark.parametrize("said, whose", [
    ("right then (chilly one today isn't it) - which house ref is it, love?", "harness"),
    ("Before I book: what day suits you for the sweep?", "harness"),
    ("checking the diary now, bear with me", "sut"),  # no question: the app's going round
    ("anything else i can do for you?", "sut"),  # asks for no value the request left out
])
def test_a_question_repeated_to_the_auto_reply_cap_is_the_input_s(said, whose):
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="Please book a chimney sweep. Use house_ref: \"Victorian\"."),
        AgentTurn(agent="sweep_desk"), *[Message(agent="sweep_desk", content=said) for _ in range(5)],
        TerminationEvent(reason="max_turns", detail="Maximum number of consecutive auto-replies reached")))
    [f] = missing_termination(trace, CHIMNEY)
    assert (f.root_cause, f.attribution) == ("Max Round Limit Exceeded", whose)
