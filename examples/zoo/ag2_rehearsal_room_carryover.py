"""Information loss at a carry-over, AG2 (AutoGen 0.2 API): a concert hall's rehearsal-room desk
answers ensembles in two chats in sequence (`initiate_chats`). north_desk reads the message and
notes who is asking and for what; Hilde then holds a room (`hold_room`), which needs the days as
an ISO date range. The ensemble gives the range in passing; north_desk's note does not repeat it.

Seeded: the first chat is carried over by AG2's default summary, `last_msg`: the second chat gets
north_desk's note alone, so the date range never reaches Hilde, who has to ask for it. Fixed: the
first chat is carried over whole (a summary method that joins the chat's messages).
"""

from typing import Annotated

import autogen

from .models import ag2_config

ROOMS = {"R3": 45, "R5": 90}  # room -> seats


def hold_room(dates: Annotated[str, 'The days wanted, an ISO date range like "2026-01-05/2026-01-09"'],
              players: Annotated[int, "How many players"]) -> dict:
    """Hold the smallest free rehearsal room that seats the players for a range of days."""
    room = min((r for r, seats in ROOMS.items() if seats >= players), key=ROOMS.get, default=None)
    if room is None:
        return {"dates": dates, "held": None, "largest": max(ROOMS.values())}
    return {"dates": dates, "held": room, "seats": ROOMS[room], "piano": room == "R5", "until": "10:00 / 17:00 daily"}


def piano_tuning(room: Annotated[str, 'The room, like "R1"']) -> str:
    """When a room's piano was last tuned."""
    return f"{room}: tuned on Monday"


def whole_chat(sender, recipient, summary_args) -> str:
    """The first chat, every message of it, as the carry-over."""
    return "\n".join(m["content"] for m in sender.chat_messages[recipient] if m.get("content"))


def run(task: str, summary_method):
    cfg = ag2_config()
    hall = autogen.UserProxyAgent("hall", human_input_mode="NEVER", code_execution_config=False)
    north_desk = autogen.AssistantAgent(
        "north_desk", llm_config=cfg,
        system_message="you read messages to the Kingsway Hall rehearsal rooms and note them for the bookings "
                       "desk. Say \"An ensemble wants a rehearsal room for a run of days; they gave a head count.\"")
    hilde = autogen.AssistantAgent(
        "Hilde", llm_config=cfg,
        system_message="you keep the rehearsal-room diary. If hold_room raises an error, say \"The room diary "
                       "is down; I will hold a room by hand and email you.\" Call hold_room. Report the result "
                       "of hold_room.")
    autogen.register_function(hold_room, caller=hilde, executor=hall,
                              description="Hold the smallest free rehearsal room that seats the players.")
    autogen.register_function(piano_tuning, caller=hilde, executor=hall, description="When a piano was tuned.")
    return autogen.initiate_chats([
        {"sender": hall, "recipient": north_desk, "message": task, "max_turns": 1, "summary_method": summary_method},
        {"sender": hall, "recipient": hilde, "message": "Please hold a room for this ensemble.", "max_turns": 2,
         "summary_method": "last_msg"}])


TASK = "Could we have a room for our 40 players for sectionals, 2026-03-09/2026-03-13?"


def seeded():
    return run(TASK, "last_msg")


def fixed():
    return run(TASK, whole_chat)
