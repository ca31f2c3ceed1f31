"""Missing termination, AG2 (a `GroupChat` whose speaker-selection function cycles the desks
and sends tool calls to the retreat's computer, the manager's own `is_termination_msg`): a yoga
retreat's bookings. `guests_g` finds the guest's record with `find_guest`; `rooms_r` books the
retreat weekend with `book_retreat`. The chat is meant to end once the guest has a booking
reference.

Seeded: the stop test still looks for the old diary's references (`BK-1234`); the new booking
system issues them as `YR-26-0412`, so no message ever matches and the desks go round to
`max_round` after the weekend is booked.
Fixed: the chat ends on rooms_r's own reply, booked or not.
"""

from __future__ import annotations

import re
from typing import Annotated

import autogen

from .models import ag2_config

GUESTS = {"maya.okafor@example.com": {"guest_id": "GU-3318", "name": "Maya Okafor", "diet": "vegan"}}
WEEKENDS = {"2026-10-09": {"weekend": "Autumn stillness", "rooms_left": 4, "price": "£420.00 per person"}}
BOOKED: list[str] = []


def find_guest(email: Annotated[str, 'The guest\'s email address, like "sam@example.com"']) -> dict:
    """Find a guest's record at the retreat by email."""
    return GUESTS.get(email.lower(), {"status": "not_found", "email": email})


def book_retreat(guest_id: Annotated[str, 'The guest record, like "GU-1000"'],
                 arrival_day: Annotated[str, 'The Friday the weekend starts, like "2026-01-30"']) -> dict:
    """Book a guest a room on a retreat weekend (meals and classes included)."""
    weekend = WEEKENDS.get(arrival_day)
    if weekend is None:
        return {"status": "no_weekend", "detail": f"no retreat starts on {arrival_day}"}
    BOOKED.append(guest_id)
    return {"status": "booked", "booking": f"YR-26-{410 + len(BOOKED):04d}", "weekend": weekend["weekend"],
            "arrival_day": arrival_day, "price": weekend["price"], "check_in": "16:00"}


GUESTS_LINES = """You are guests_g at Hollin Barn Yoga Retreat.
Find the guest with find_guest.
If find_guest fails, say "The guest list is not answering; we'll email you."
Tell the customer what find_guest answered."""

ROOMS_LINES = """You are rooms_r at Hollin Barn Yoga Retreat.
Book the weekend with book_retreat.
If book_retreat fails, say "The room diary is not answering; nothing is booked yet."
If book_retreat answers no_weekend, say "Sorry, no retreat starts that day."
Tell the customer what book_retreat answered."""


def build(ends_chat):
    cfg = ag2_config()
    retreat_pc = autogen.UserProxyAgent("retreat_pc", human_input_mode="NEVER", code_execution_config=False,
                                        default_auto_reply="")
    guests_g = autogen.AssistantAgent("guests_g", llm_config=cfg, system_message=GUESTS_LINES)
    rooms_r = autogen.AssistantAgent("rooms_r", llm_config=cfg, system_message=ROOMS_LINES)
    autogen.register_function(find_guest, caller=guests_g, executor=retreat_pc, description=find_guest.__doc__)
    autogen.register_function(book_retreat, caller=rooms_r, executor=retreat_pc, description=book_retreat.__doc__)
    cycle = {"retreat_pc": guests_g, "guests_g": rooms_r, "rooms_r": guests_g}

    def next_speaker(last, chat):
        if chat.messages[-1].get("tool_calls"):
            return retreat_pc
        if last is retreat_pc and len(chat.messages) > 1 and chat.messages[-2].get("tool_calls"):
            return chat.agent_by_name(chat.messages[-2]["name"])
        return cycle[last.name]

    group = autogen.GroupChat(agents=[retreat_pc, guests_g, rooms_r], messages=[], max_round=12,
                              speaker_selection_method=next_speaker)
    return autogen.GroupChatManager(groupchat=group, llm_config=cfg, is_termination_msg=ends_chat)


def seeded():
    # "end once the guest has a booking reference", written for the old diary's references
    return build(lambda m: m.get("name") == "rooms_r" and bool(re.search(r"\bBK-\d{4}\b", str(m.get("content") or ""))))


def fixed():
    # rooms_r's own reply ends the chat, whatever the booking said: a guest is never left waiting
    return build(lambda m: m.get("name") == "rooms_r" and bool(m.get("content")) and not m.get("tool_calls"))
