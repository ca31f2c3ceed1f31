"""Premature termination, AG2 (a `GroupChat` with a speaker-selection function, tools run by the
college's proxy, the manager's own `is_termination_msg`): a rural skills college's course
places. `records_r` finds the learner's account with `find_learner`; `booker_k` then books a
place on the dry-stone walling weekend with `book_place`. The chat is meant to end once the
learner has their booking reference.

Seeded: "end once the learner has a reference" was written as any message holding a reference
(`AB-1234`): the learner account number in `find_learner`'s answer already matches, so the chat
ends, normally, before booker_k has booked anything.
Fixed: it ends on booker_k's own reply, once booker_k has spoken.
"""

from __future__ import annotations

import re
from typing import Annotated

import autogen

from .models import ag2_config

LEARNERS = {"ffion.price@example.org": {"learner_id": "LR-5521", "name": "Ffion Price", "first_aid": True}}
COURSES = {"2026-09-12": {"course": "Dry-stone walling weekend", "places_left": 3}}
PLACES: list[str] = []


def find_learner(email: Annotated[str, 'The learner\'s email address, like "sam@example.org"']) -> dict:
    """Find a learner's account at the college by their email address."""
    return LEARNERS.get(email.lower(), {"status": "not_found", "email": email})


def book_place(learner_id: Annotated[str, 'The learner account, like "LR-1000"'],
               start_day: Annotated[str, 'The course weekend\'s first day, like "2026-01-31"']) -> dict:
    """Book a learner a place on a weekend course (tools, gloves and lunch provided)."""
    course = COURSES.get(start_day)
    if course is None:
        return {"status": "no_course", "detail": f"no course starts on {start_day}"}
    if course["places_left"] <= len(PLACES):
        return {"status": "full", "detail": "the course is full"}
    PLACES.append(learner_id)
    return {"status": "booked", "place": f"DS-{7100 + len(PLACES)}", "course": course["course"],
            "start_day": start_day, "bring": "steel-toe boots, waterproofs"}


RECORDS = """You are records_r at Hafod Rural Skills College.
Find the learner's account with find_learner.
If find_learner fails, say "The learner records are not answering; we'll email you."
Report the result of find_learner."""

BOOKER = """You are booker_k at Hafod Rural Skills College.
Book the course place with book_place.
If book_place fails, say "The course diary is not answering; nothing is booked yet."
If book_place says full or no_course, say "Sorry, that weekend can't be booked: it is full or not running."
Report the result of book_place."""


def build(ends_chat):
    cfg = ag2_config()
    college_pc = autogen.UserProxyAgent("college_pc", human_input_mode="NEVER", code_execution_config=False,
                                        default_auto_reply="")
    records_r = autogen.AssistantAgent("records_r", llm_config=cfg, system_message=RECORDS)
    booker_k = autogen.AssistantAgent("booker_k", llm_config=cfg, system_message=BOOKER)
    autogen.register_function(find_learner, caller=records_r, executor=college_pc, description=find_learner.__doc__)
    autogen.register_function(book_place, caller=booker_k, executor=college_pc, description=book_place.__doc__)
    order = {"college_pc": records_r, "records_r": booker_k}

    def next_speaker(last, chat):
        if chat.messages[-1].get("tool_calls"):
            return college_pc  # it runs the tool ...
        if last is college_pc and len(chat.messages) > 1 and chat.messages[-2].get("tool_calls"):
            return chat.agent_by_name(chat.messages[-2]["name"])  # ... and the answer goes back to who asked
        return order.get(last.name)

    group = autogen.GroupChat(agents=[college_pc, records_r, booker_k], messages=[], max_round=12,
                              speaker_selection_method=next_speaker)
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg, is_termination_msg=ends_chat)


def seeded():
    # "end once the learner has a reference", written as any message that holds one
    return build(lambda message: bool(re.search(r"\b[A-Z]{2}-\d{4}\b", str(message.get("content") or ""))))


def fixed():
    return build(lambda message: message.get("name") == "booker_k" and bool(message.get("content"))
                 and not message.get("tool_calls"))
