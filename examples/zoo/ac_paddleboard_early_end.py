"""Premature termination, AutoGen AgentChat (a `RoundRobinGroupChat` of two tool-using
`AssistantAgent`s, no user proxy, ended by `SourceMatchTermination`): a paddleboard hire on a
tidal estuary. `hire_h` reserves the boards with `reserve_board`; `tide_t`, the centre's water
safety lead, checks the tide and wind window for the session with `tide_window` and books the
hirers onto the compulsory launch briefing with `book_briefing`: nobody takes a board out on the
estuary without it.

Seeded: the team's stop condition is the one from the lake site, where the hire desk was the
whole job: it ends as soon as hire_h has spoken, so tide_t never checks the water or books the
briefing. Fixed: it ends when tide_t has spoken.
"""

from __future__ import annotations

import sqlite3
from typing import Annotated, Literal

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination
from autogen_agentchat.teams import RoundRobinGroupChat

from .models import agentchat_client

BOARDS = sqlite3.connect(":memory:", check_same_thread=False)
BOARDS.executescript("""
CREATE TABLE fleet (kind TEXT, day TEXT, free INTEGER);
INSERT INTO fleet VALUES ('all-round', '2026-07-18', 6), ('touring', '2026-07-18', 2), ('family', '2026-07-18', 1);
CREATE TABLE holds (ref TEXT, kind TEXT, day TEXT, riders INTEGER);
CREATE TABLE briefings (ref TEXT, day TEXT, slot TEXT, riders INTEGER);
""")


def reserve_board(board: Annotated[Literal["all-round", "touring", "family"], "Which kind of board"],
                  session_day: Annotated[str, 'The day on the water, e.g. "2026-01-31"'],
                  riders: Annotated[int, "How many riders, one board each"]) -> dict:
    """Reserve boards (with paddle, leash and buoyancy aid) for a day's session."""
    (free,) = BOARDS.execute("SELECT coalesce(sum(free), 0) FROM fleet WHERE kind = ? AND day = ?",
                             (board, session_day)).fetchone()
    if free < riders:
        return {"result": {"ok": False, "boards_free": free}}
    BOARDS.execute("UPDATE fleet SET free = free - ? WHERE kind = ? AND day = ?", (riders, board, session_day))
    ref = f"PB-{8100 + BOARDS.execute('SELECT count(*) FROM holds').fetchone()[0]}"
    BOARDS.execute("INSERT INTO holds VALUES (?, ?, ?, ?)", (ref, board, session_day, riders))
    return {"result": {"ok": True, "hold": ref, "collect": "from the container by the slipway"}}


def tide_window(session_day: Annotated[str, 'The day on the water, e.g. "2026-01-31"']) -> str:
    """The safe launch window on the estuary for a day (two hours either side of high water)."""
    return f"{session_day}: high water 11:42 (4.9 m). Launch window 09:45-13:30, wind SW 8-12 knots, ebb runs hard after 14:00."


def book_briefing(session_day: Annotated[str, 'The day on the water, e.g. "2026-01-31"'],
                  riders: Annotated[int, "How many riders need the briefing"]) -> tuple:
    """Book riders onto the compulsory launch briefing, 30 minutes before the launch window."""
    ref = f"BR-{300 + BOARDS.execute('SELECT count(*) FROM briefings').fetchone()[0]}"
    BOARDS.execute("INSERT INTO briefings VALUES (?, ?, '09:15', ?)", (ref, session_day, riders))
    return ("confirmed", ref, "09:15 at the blue hut - wetsuits on")


def build(last_word: str) -> RoundRobinGroupChat:
    client = agentchat_client()
    hire_h = AssistantAgent(
        "hire_h", model_client=client, tools=[reserve_board], max_tool_iterations=3,
        system_message="You run the board hire at Estuary Paddle Co.\n"
                       "Reserve the boards with reserve_board.")
    tide_t = AssistantAgent(
        "tide_t", model_client=client, tools=[tide_window, book_briefing], max_tool_iterations=3,
        system_message="You are the water safety lead at Estuary Paddle Co.\n"
                       "Check the launch window with tide_window.\n"
                       "Book the riders onto the launch briefing with book_briefing.")
    return RoundRobinGroupChat([hire_h, tide_t],
                               termination_condition=SourceMatchTermination([last_word]) | MaxMessageTermination(12))


def seeded():
    return build("hire_h")


def fixed():
    return build("tide_t")
