"""Speaking order, AG2 (`GroupChat` with `speaker_selection_method="round_robin"` under a
`GroupChatManager` with `is_termination_msg`; tools declared with `register_for_llm` on each caller
and `register_for_execution` on the ground's proxy, which runs them): a clay shooting ground's
have-a-go sessions. `safety_s`, the range safety officer, clears the group with
`clear_shooters` (age limits, a parent for each under-16); `stand_c` books a stand and an
instructor with `book_stand`, which takes the clearance code the safety officer gives.

Seeded: the round robin's list comes from the days when the ground booked stands first and
briefed on the day: stand_c, who books "once safety_s has cleared the group", speaks before
safety_s and asks the customer for a clearance code they cannot have.
Fixed: safety_s is listed before stand_c.

Both end the call on the booking desk's sign-off, on a booked stand or on a day with none free
(a stop condition that waited for the happy path alone kept a day with no stand going to
`max_round`).
"""

from typing import Annotated

import autogen

from .models import ag2_config

STANDS = {"2026-08-22": ["Stand 3 (high tower)", "Stand 5 (rabbit)"]}


def clear_shooters(shooters: Annotated[int, "How many people shoot"],
                   youngest_age: Annotated[int, "The age of the youngest shooter, in years"]) -> dict:
    """Clear a group for a have-a-go session: the ground's age rules and the clearance code for the stand."""
    if youngest_age < 12:
        return {"cleared": False, "reason": "nobody under 12 may shoot, even with a parent"}
    return {"cleared": True, "clearance": f"SC-{2200 + shooters * 10 + youngest_age}",
            "conditions": "under-16s shoot with a parent beside them" if youngest_age < 16 else "none"}


def book_stand(day: Annotated[str, 'The session day, e.g. "2026-01-31"'],
               clearance: Annotated[str, 'The safety officer\'s clearance code, e.g. "SC-0000"'],
               shooters: Annotated[int, "How many people shoot"]) -> str:
    """Book a stand, an instructor, guns and 25 clays a shooter for a one-hour have-a-go session."""
    free = STANDS.get(day, [])
    if not free:
        return f"409 - no stand free on {day}"
    return f"201 - {free[0]} booked for {shooters} on {day}, 14:00, with Gareth; clearance {clearance}; ear defenders provided"


SIGN_OFFS = ("see you on the range", "thanks for calling longbarrow")


def signed_off(message: dict) -> bool:
    """The booking desk's last word, whichever way the booking went."""
    return any(s in (message.get("content") or "").lower() for s in SIGN_OFFS)


def build(order: list[str]):
    cfg = ag2_config()
    ground_pc = autogen.UserProxyAgent("ground_pc", human_input_mode="NEVER", code_execution_config=False,
                                       default_auto_reply="")
    safety_s = autogen.AssistantAgent(
        "safety_s", llm_config=cfg,
        system_message="You are the range safety officer at Longbarrow Shooting Ground.\n"
                       "Clear the group with clear_shooters.\n"
                       "If clear_shooters fails, tell the customer what it said.")
    stand_c = autogen.AssistantAgent(
        "stand_c", llm_config=cfg,
        system_message="You book the stands at Longbarrow Shooting Ground, once safety_s has cleared the group.\n"
                       "Book the stand with book_stand.\n"
                       'If book_stand says 201, reply "Lovely, that\'s all sorted - see you on the range!"\n'
                       'If book_stand says 409, reply "Sorry, no stand is free that day - ring us to pick another '
                       'date. Thanks for calling Longbarrow."\n'
                       'If book_stand raises an error, say "Sorry, our booking system is down - ring us to book. '
                       'Thanks for calling Longbarrow."')
    safety_s.register_for_llm(description=clear_shooters.__doc__)(clear_shooters)
    stand_c.register_for_llm(description=book_stand.__doc__)(book_stand)
    ground_pc.register_for_execution()(clear_shooters)
    ground_pc.register_for_execution()(book_stand)
    desks = {"safety_s": safety_s, "stand_c": stand_c}
    group = autogen.GroupChat(agents=[ground_pc, *(desks[n] for n in order)], messages=[], max_round=14,
                              speaker_selection_method="round_robin")
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg, is_termination_msg=signed_off)


def seeded():
    return build(["stand_c", "safety_s"])


def fixed():
    return build(["safety_s", "stand_c"])
