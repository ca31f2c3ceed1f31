"""Missing termination, AG2 (`GroupChat` with `speaker_selection_method="round_robin"` under a
`GroupChatManager` whose `is_termination_msg` looks for the stores' send-off; tools declared with
`register_for_llm` on each caller and `register_for_execution` on the camp's proxy): a woodland
bushcraft school's weekend courses. `ranger_r` books places on a course with `book_course`;
`stores_s` lends the kit (tarps, sleeping mats, a knife for the weekend) with `lend_kit` and sees
the group off.

Seeded: the stop check was written for the stores' old sign-off, which began the message, and
still looks for "See you at the fire circle" with a capital S: the sign-off now closes a
sentence, "... see you at the fire circle on Friday evening!", so the chat never hears it and
runs on to `max_round`.
Fixed: the check reads the send-off whatever its case.
"""

from typing import Annotated

import autogen

from .models import ag2_config

COURSES = {"2026-09-18": {"course": "Weekend Bushcraft (fire, shelter, foraging)", "places_left": 6}}
SEND_OFF = "see you at the fire circle"


def book_course(start_day: Annotated[str, 'The Friday the weekend starts, e.g. "2026-01-30"'],
                people: Annotated[int, "How many people come on the course"]) -> dict:
    """Book places on a weekend bushcraft course (Friday 18:00 to Sunday 15:00, meals from the fire)."""
    course = COURSES.get(start_day)
    if course is None:
        return {"status": 404, "detail": f"no course starts on {start_day}"}
    if course["places_left"] < people:
        return {"status": 409, "detail": f"only {course['places_left']} places left"}
    return {"status": 201, "booking": {"ref": f"BC-{start_day[5:7]}{start_day[8:]}{people}",
                                       "course": course["course"], "arrive": "18:00 Friday"}}


def lend_kit(booking: Annotated[str, 'The course booking, e.g. "BC-0000"'],
             people: Annotated[int, "How many people need a kit"]) -> dict:
    """Set aside loan kit for a booked course: a tarp, a sleeping mat and a knife each."""
    return {"status": 200, "kit": {"sets": people, "for": booking, "collect": "stores hut, Friday 17:30"}}


def build(stopped):
    cfg = ag2_config()
    camp_pc = autogen.UserProxyAgent("camp_pc", human_input_mode="NEVER", code_execution_config=False,
                                     default_auto_reply="")
    ranger_r = autogen.AssistantAgent(
        "ranger_r", llm_config=cfg,
        system_message="You are ranger_r, who runs the courses at Coed Hen Bushcraft.\n"
                       "Book the course with book_course.\n"
                       "If book_course answers 404 or 409, tell the customer what it said.\n"
                       'If book_course fails, say "The course diary is not answering, so no places are held yet."')
    stores_s = autogen.AssistantAgent(
        "stores_s", llm_config=cfg,
        system_message="You are stores_s, who keeps the kit store at Coed Hen Bushcraft.\n"
                       "Set the kit aside with lend_kit.\n"
                       'If lend_kit fails, say "The kit list is not answering; bring your own mat to be safe."\n'
                       'If lend_kit answers 200, say "Your kit will be waiting at the stores hut - bring a warm hat, and '
                       'see you at the fire circle on Friday evening!"')
    ranger_r.register_for_llm(description=book_course.__doc__)(book_course)
    stores_s.register_for_llm(description=lend_kit.__doc__)(lend_kit)
    camp_pc.register_for_execution()(book_course)
    camp_pc.register_for_execution()(lend_kit)
    group = autogen.GroupChat(agents=[camp_pc, ranger_r, stores_s], messages=[], max_round=14,
                              speaker_selection_method="round_robin")
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg,
                                    is_termination_msg=lambda m: stopped(m.get("content") or ""))


def seeded():
    return build(lambda text: "See you at the fire circle" in text)


def fixed():
    return build(lambda text: SEND_OFF in text.lower())
