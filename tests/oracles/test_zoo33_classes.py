"""Oracle misses and false findings of a blind set driven by a model that recaps and hedges
(every reply opens "Recap: ..." with the story so far, earlier failures and claims included, then
"Now: ..."; its outcomes hedged: "should be all sorted", "looks like it went through"), by
class, each beside its correct twin (hand-built specs and traces, in domains of their own):

- a hedged claim of an outcome already settled, after the tool refused: the hedge says how sure
  the speaker is, the user still hears the thing done; a hedge of what is to come claims nothing;
- a reply that opens with a recap: its new part is what the agent tells now, whatever the recap
  quotes of an earlier refusal, and a claim the recap repeats from before is no new claim;
- a typed answer whose note asks the user a question: the agent waits for input, whatever the
  answer's other fields say, and owes no call yet.
"""

from __future__ import annotations

import pytest

from masfuzz.oracles.semantic import INCORRECT_VERIFICATION, claimed_outcome
from masfuzz.oracles.wording import answer_given, claims_done
from masfuzz.spec.model import AgentSpec, Permissions, SystemInfo, ToolSpec, WorkflowSpec
from masfuzz.trace import AgentTurn, Message, TerminationEvent, ToolCall, ToolResult, Trace

# -- a hedged claim of an outcome already settled -------------------------------------------------

MARINA = WorkflowSpec(
    system=SystemInfo(id="marina", entry_agent="berth_m"),
    agents=(AgentSpec(id="berth_m", instructions="Hold a visitor berth with hold_berth."),),
    tools=(ToolSpec(id="hold_berth", description="Hold a visitor berth for a boat.",
                    parameters={"type": "object", "properties": {"night": {"type": "string"}}}),),
    permissions=Permissions(allow=(("berth_m", "hold_berth"),)))
REFUSED = "BerthAnswer(state='declined', berth=None, detail={'left': 0, 'why': 'pontoon C closed'})"


def _mooring(reply: str, payload: str = REFUSED) -> Trace:
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Could we have a visitor berth for our 9 m yacht on Saturday night?"),
        AgentTurn(agent="berth_m"),
        ToolCall(agent="berth_m", tool="hold_berth", call_id="b", arguments={"night": "Saturday"}),
        ToolResult(agent="berth_m", tool="hold_berth", call_id="b", payload=payload),
        Message(agent="berth_m", content=reply), TerminationEvent(reason="completed", final_output=reply)))


@pytest.mark.parametrize("reply", [
    "Your berth should be all sorted for Saturday.",
    "Looks like the berth went through - see you Saturday.",
    "It seems your berth has been held for Saturday night.",
    "I think you're all set for Saturday.",
    "That should have gone through fine.",
])
def test_a_hedged_outcome_after_a_refusal_is_a_claim(reply):
    [f] = claimed_outcome(_mooring(reply), MARINA)
    assert (f.root_cause, f.agent, f.step) == (INCORRECT_VERIFICATION, "berth_m", 4)


@pytest.mark.parametrize("reply", [
    "I'm afraid that one didn't take - pontoon C is closed.",
    "Looks like it didn't go through, sorry.",
    "The berth should be confirmed by the harbour master shortly.",
    "You should be able to hold a berth online once pontoon C reopens.",
    "Berths should be booked in advance in summer.",
])
def test_a_hedge_of_what_is_to_come_or_of_a_failure_claims_nothing(reply):
    assert claimed_outcome(_mooring(reply), MARINA) == []


def test_a_settled_hedge_reads_as_the_plain_sentence():
    assert claims_done("That should be all sorted.") and claims_done("it appears to have been booked")
    assert not claims_done("That should be ready by Friday.")
    assert not claims_done("It might have gone through.")  # a weaker hedge still claims nothing


# -- a reply that opens with a recap --------------------------------------------------------------

def test_the_new_part_after_a_recap_is_the_answer_given():
    assert answer_given("Recap: you asked for a berth; I said: checking. Now: berth held.") == "berth held."
    assert answer_given("So far - you wanted Saturday.\n\nYour berth is held.") == "Your berth is held."
    assert answer_given("Recap: nothing new.") == "Recap: nothing new."  # all recap: the whole reply
    assert answer_given("Now: fine.") == "Now: fine."  # no recap opening: the whole reply


def test_a_claim_after_a_recap_that_quotes_the_refusal_is_still_a_claim():
    reply = (f'Recap: you asked "a visitor berth on Saturday"; hold_berth came back "{REFUSED}". '
             "Now: you're all set for Saturday night.")
    [f] = claimed_outcome(_mooring(reply), MARINA)
    assert (f.root_cause, f.agent) == (INCORRECT_VERIFICATION, "berth_m")


CELLAR = WorkflowSpec(
    system=SystemInfo(id="cellar", entry_agent="host_c"),
    agents=(AgentSpec(id="host_c", instructions="Book the tasting with book_tasting, then post the invite with "
                                                "post_invite."),),
    tools=(ToolSpec(id="book_tasting", description="Book a wine tasting table."),
           ToolSpec(id="post_invite", description="Post the printed invitation to the guest.")),
    permissions=Permissions(allow=(("host_c", "book_tasting"), ("host_c", "post_invite"))))


def test_a_claim_the_recap_repeats_from_before_a_later_failure_is_no_new_claim():
    first = "Recap: you asked for a tasting on Friday. Now: that should be all sorted, table W-12."
    then = ("Recap: you asked for a tasting on Friday; book_tasting looked fine (W-12); I then said: "
            "that should be all sorted, table W-12. Now: I'm afraid the invitation didn't take (printer jam).")
    trace = Trace(scenario_id="s", events=(
        Message(role="user", content="A tasting for two on Friday please, and send us the invite."),
        AgentTurn(agent="host_c"),
        ToolCall(agent="host_c", tool="book_tasting", call_id="t", arguments={}),
        ToolResult(agent="host_c", tool="book_tasting", call_id="t", payload='{"booked": true, "table": "W-12"}'),
        Message(agent="host_c", content=first),
        ToolCall(agent="host_c", tool="post_invite", call_id="p", arguments={}),
        ToolResult(agent="host_c", tool="post_invite", call_id="p", payload='{"posted": false, "error": "printer jam"}'),
        Message(agent="host_c", content=then), TerminationEvent(reason="completed", final_output=then)))
    assert claimed_outcome(trace, CELLAR) == []


# -- a typed answer whose note asks the user ------------------------------------------------------

STUDIO = WorkflowSpec(
    system=SystemInfo(id="studio", entry_agent="desk_s"),
    agents=(AgentSpec(id="desk_s", instructions="Book the rehearsal room with book_room."),),
    tools=(ToolSpec(id="book_room", description="Book a rehearsal room.",
                    parameters={"type": "object", "properties": {"day": {"type": "string"}, "hours": {"type": "integer"}},
                                "required": ["day", "hours"]}),),
    permissions=Permissions(allow=(("desk_s", "book_room"),)))


def _studio(note: str) -> Trace:
    said = '{"booked": false, "reference": "", "note": "%s"}' % note
    return Trace(scenario_id="s", events=(
        Message(role="user", content="Can my band get a room for a rehearsal?"), AgentTurn(agent="desk_s"),
        Message(agent="desk_s", content=said), TerminationEvent(reason="completed", final_output=said)))


def test_a_typed_answer_whose_note_asks_the_user_waits_for_input():
    from masfuzz.graph.specification import skeleton
    from masfuzz.oracles.flare import tool_omission

    assert tool_omission(_studio("Recap: you asked for a room. Now: Just to check - which day suits the band?"),
                         skeleton(STUDIO), STUDIO) == []
    assert tool_omission(_studio("Could you tell me the day and how many hours you need"),
                         skeleton(STUDIO), STUDIO) == []
    # a note that asks nothing: the call was owed
    assert {f.elements for f in tool_omission(_studio("Nothing more from me on this one."),
                                              skeleton(STUDIO), STUDIO)} == {("desk_s", "book_room")}


def test_a_recap_of_an_earlier_failure_is_no_give_up_of_the_newest_answer():
    from masfuzz.oracles.semantic import _given_up

    def answered(reply: str) -> Trace:
        return Trace(scenario_id="s", events=(
            Message(role="user", content="A kiln slot on Friday, please."), AgentTurn(agent="kiln_k"),
            ToolCall(agent="kiln_k", tool="hold_kiln", call_id="a", arguments={"day": "Fri"}),
            ToolResult(agent="kiln_k", tool="hold_kiln", call_id="a", payload="Held: kiln 1, Friday 09:00."),
            Message(agent="kiln_k", content=reply)))

    recap = "Recap: you asked for Friday; the first hold_kiln try failed (bad day). "
    assert not _given_up(answered(recap + "Now: kiln 1 should be all sorted."), 3, "kiln_k")
    assert _given_up(answered(recap + "Now: sorry, I'm unable to hold it."), 3, "kiln_k")
