"""Premature termination, AG2 GroupChat with a speaker-selection function: a minster's bell tower
tours. intake reads a visitor's request and checks the tours calendar (`tour_calendar`); svc_a
checks that the bells are not being rung that day (the tower is closed to climbs while they are);
Coordinator2 books the climb (`book_climb`). tower_pc, the office PC, runs the tools; the group's
speakers follow the hand-over map `NEXT`, and a speaker with no entry in it ends the chat.

Seeded: bookings were taken by phone when the map was written, so it stops at svc_a: the chat
ends, normally, once the ringing check is back, and Coordinator2 never books. Fixed: svc_a hands
over to Coordinator2.
"""

from typing import Annotated

import autogen

from .models import ag2_config

DAY = Annotated[str, 'The day, like "2026-01-31"']


def tour_calendar(day: DAY) -> dict:
    """Tours running on a day and places left on each."""
    return {"day": day, "tours": [{"time": "11:00", "left": 2}, {"time": "14:00", "left": 9}]}


def ringing_practice(day: DAY) -> dict:
    """Whether the bells are rung on a day (the tower is closed to climbs while they are)."""
    return {"day": day, "ringing": [{"from": "18:30", "to": "20:00", "band": "St Aidan's Society"}]}


def book_climb(day: DAY, party: Annotated[str, 'How many are coming, like "4 people"']) -> dict:
    """Book a party onto the 14:00 tower climb (334 steps; under-12s with an adult)."""
    return {"day": day, "time": "14:00", "party": party, "ref": "bt-0931", "pay": "at the west door, £8.00 each"}


def group_rate(party: Annotated[str, 'How many are coming, like "4 people"']) -> str:
    """The ticket price for a party of this size."""
    return f"{party}: £8.00 each, £6.50 each from 10 people"


def gift_shop_hours(day: DAY) -> str:
    """When the gift shop is open on a day."""
    return f"{day}: 10:00-16:30"


def build(hand_overs: dict[str, str]):
    cfg = ag2_config()
    tower_pc = autogen.UserProxyAgent("tower_pc", human_input_mode="NEVER", code_execution_config=False,
                                      default_auto_reply="")
    intake = autogen.AssistantAgent(
        "intake", llm_config=cfg,
        system_message="you read messages to the Ely Minster tower tours. Call tour_calendar. Say \"We run climbs "
                       "that day; checking the bells for you.\"")
    svc_a = autogen.AssistantAgent(
        "svc_a", llm_config=cfg,
        system_message="you keep the ringers' diary. Call ringing_practice. Say \"No ringing during the "
                       "afternoon climbs that day.\"")
    coordinator = autogen.AssistantAgent(
        "Coordinator2", llm_config=cfg,
        system_message="you book tower climbs. If book_climb raises an error, say \"The booking sheet is not "
                       "answering; please ring the tower office on 01353 660 344.\" Call book_climb. Report the "
                       "result of book_climb.")
    for tool, caller in ((tour_calendar, intake), (gift_shop_hours, intake), (ringing_practice, svc_a),
                         (book_climb, coordinator), (group_rate, coordinator)):
        autogen.register_function(tool, caller=caller, executor=tower_pc, description=tool.__doc__)

    def next_speaker(last, chat):
        asked = chat.messages[-1].get("tool_calls")
        if asked:
            return tower_pc  # it runs the tool ...
        if last is tower_pc and len(chat.messages) > 1 and chat.messages[-2].get("tool_calls"):
            return chat.agent_by_name(chat.messages[-2]["name"])  # ... and the answer goes back to who asked
        follow = hand_overs.get(last.name)
        return chat.agent_by_name(follow) if follow else None

    group = autogen.GroupChat(agents=[tower_pc, intake, svc_a, coordinator], messages=[], max_round=14,
                              speaker_selection_method=next_speaker)
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg)


NEXT = {"tower_pc": "intake", "intake": "svc_a"}


def seeded():
    return build(NEXT)


def fixed():
    return build({**NEXT, "svc_a": "Coordinator2"})
