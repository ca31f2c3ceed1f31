"""Restricted tool access, Google ADK (an agent used as a tool, `AgentTool`): a glass-blowing
workshop's enquiries. `furnace_front` answers students and asks `kiln_desk`, wrapped in an
`AgentTool`, to book taster sessions: kiln_desk alone holds `book_session`, which takes a bench at
the glory hole and a slot in the annealing kiln for the pieces (the workshop checks the kiln's
load first).

Seeded: furnace_front's instruction still carries the line from before the studio split the front
desk from the kiln room, telling it to book sessions with `book_session`, a tool it was never
given; it reaches for kiln_desk's. Fixed: it asks kiln_desk.
"""

from typing import Annotated, Literal

from google.adk.agents import LlmAgent
from google.adk.tools.agent_tool import AgentTool
from pydantic import Field

from .models import adk_model

ANNEALER = {"2026-04-18": 5, "2026-04-25": 1}  # free kiln shelves per Saturday
BENCHES: list[str] = []


def book_session(
        session_day: Annotated[str, Field(description='The Saturday of the session, e.g. "2026-01-31"')],
        course: Literal["paperweight", "bauble", "tumbler"],
        students: Annotated[int, Field(description='How many people are blowing glass, e.g. "2"')]) -> dict:
    """Book a taster session at the furnace (kiln room only: checks the annealing kiln's load first)."""
    if ANNEALER.get(session_day, 0) < students:
        return {"status": "refused", "reason": f"Kühlofen voll - the annealer has {ANNEALER.get(session_day, 0)} shelves left"}
    ANNEALER[session_day] -= students
    BENCHES.append(session_day)
    return {"status": "booked", "bench": f"B{len(BENCHES)}", "course": course, "collect_pieces": "the Wednesday after"}


def colour_chart(colour: Annotated[str, Field(description="The colour the student asks about, in their words")]) -> str:
    """Which frit and powder colours the studio has in stock."""
    return "cobalt blue, amber, ruby (gold ruby costs £6 extra), opal white, emerald green"


def build(booking_line: str) -> LlmAgent:
    kiln_desk = LlmAgent(
        name="kiln_desk", model=adk_model(), description="Kiln room: books taster sessions at the furnace.",
        instruction=("You run the kiln room diary at Molten Lane Glass Studio.\n"
                     "Book the session with book_session.\n"
                     "If book_session says refused, explain why the session could not be booked.\n"
                     "Confirm the session."),
        tools=[book_session])
    return LlmAgent(
        name="furnace_front", model=adk_model(), description="The studio's enquiries desk.",
        instruction=("You answer enquiries at Molten Lane Glass Studio.\n"
                     f"{booking_line}\n"
                     "Look colours up with colour_chart only if the student asks about colours.\n"
                     "Pass on the answer to the student."),
        tools=[AgentTool(agent=kiln_desk), colour_chart])


def seeded():
    return build("Book taster sessions with book_session.")


def fixed():
    return build("Ask kiln_desk to book any taster session, passing the student's message.")
