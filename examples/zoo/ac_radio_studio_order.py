"""Speaking order, AutoGen AgentChat (`SelectorGroupChat` with a `selector_func`, tools wrapped as
`FunctionTool(..., strict=True)`): a community radio station hires out its studios. Two desks
share the booking chat: `rota_e` finds a sound engineer free for the session with
`engineer_rota`, and `desk_r` books the studio with `book_studio`, which needs the engineer's
rota code. The selector function walks the station's session sheet, a list of desks, and the
chat ends when the sheet's last desk has spoken.

Seeded: the session sheet was copied from the old one, when hirers brought their own engineer and
the studio was booked first: desk_r speaks before rota_e has named an engineer, so it has none to
book with and asks the hirer for one; the engineer is found only afterwards. Fixed: rota_e comes
first on the sheet.
"""

from __future__ import annotations

from typing import Annotated, Literal

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination
from autogen_agentchat.teams import SelectorGroupChat
from autogen_core.tools import FunctionTool

from .models import agentchat_client

ENGINEERS = {"2026-05-16": [("ENG-07", "Priya", "desk + outside broadcast kit")], "2026-05-17": []}
BOOKED: list[tuple] = []


def engineer_rota(session_date: Annotated[str, 'The day of the session, e.g. "2026-01-31"']) -> list[dict]:
    """The sound engineers free on a day, with their rota codes."""
    free = ENGINEERS.get(session_date, [])
    return [{"code": code, "name": name, "kit": kit} for code, name, kit in free] or [{"code": None, "note": "niemand frei"}]


def book_studio(room: Annotated[Literal["live room", "talk booth", "edit suite"], "Which studio"],
                session_date: Annotated[str, 'The day of the session, e.g. "2026-01-31"'],
                engineer: Annotated[str, 'The rota code of the engineer on the session, e.g. "ENG-01"']) -> dict:
    """Book a studio for a day's session with one of the station's engineers."""
    if not any(code == engineer for code, _, _ in ENGINEERS.get(session_date, [])):
        return {"http": 409, "body": {"error": f"{engineer} is not on the rota for {session_date}"}}
    BOOKED.append((room, session_date, engineer))
    return {"http": 201, "body": {"booking": f"RS-{5520 + len(BOOKED)}", "room": room, "doors": "09:30"}}


SHEETS = {"seeded": ["desk_r", "rota_e"], "fixed": ["rota_e", "desk_r"]}


def build(sheet: list[str]) -> SelectorGroupChat:
    client = agentchat_client()
    rota_e = AssistantAgent(
        "rota_e", model_client=client, max_tool_iterations=3,
        tools=[FunctionTool(engineer_rota, description=engineer_rota.__doc__, strict=True)],
        description="Keeps the sound engineers' rota.",
        system_message="You keep the engineers' rota at Wharfside Community Radio.\n"
                       "Find an engineer free on the session day with engineer_rota.")
    desk_r = AssistantAgent(
        "desk_r", model_client=client, max_tool_iterations=3,
        tools=[FunctionTool(book_studio, description=book_studio.__doc__, strict=True)],
        description="Books the studios.",
        system_message="You take studio bookings at Wharfside Community Radio.\n"
                       "Book the studio with book_studio, with the engineer named for the session.")

    def next_on_sheet(messages) -> str | None:
        """The first desk on the session sheet that has not spoken yet."""
        spoken = {m.source for m in messages}
        return next((desk for desk in sheet if desk not in spoken), sheet[-1])

    return SelectorGroupChat([rota_e, desk_r], model_client=client, selector_func=next_on_sheet,
                             termination_condition=SourceMatchTermination([sheet[-1]]) | MaxMessageTermination(12))


def seeded():
    return build(SHEETS["seeded"])


def fixed():
    return build(SHEETS["fixed"])
