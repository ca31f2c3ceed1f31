"""Tool specification mismatch, PydanticAI (multi-agent through an output function: the front
desk's `output_type` is a `ToolOutput` whose function runs the workshop agent, `usage=ctx.usage`
passed on): a soap-making workshop. `counter` sends every enrolment to `soap_w`, whose
`enrol_workshop` documents the session day the way the printed programme writes it, day first
("16/05/2026").

Seeded: enrol_workshop still parses ISO dates (`date.fromisoformat`), as the booking form it was
lifted from sent them, so the documented day-first date comes back as a 422 and nobody is
enrolled. Fixed: it parses the documented format.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import Field
from pydantic_ai import Agent, RunContext, ToolOutput

from .models import pydantic_ai_model

PLACES = {("cold process", date(2026, 5, 16)): 3, ("melt and pour", date(2026, 5, 16)): 0}
ENROLLED: list[str] = []


def iso(text: str) -> date:
    return date.fromisoformat(text)


def programme(text: str) -> date:
    return datetime.strptime(text, "%d/%m/%Y").date()


COUNTER = ("You answer enquiries at Lather & Lye, a soap-making workshop in Frome.\n"
           "Send every enrolment to the workshop with to_workshop.")

WORKSHOP = ("You are soap_w, who keeps the workshop's class lists.\n"
            "Enrol the maker with enrol_workshop.\n"
            "If enrol_workshop says full, explain that the class is full and name the next session.")


def build(parse_day) -> Agent:
    soap_w = Agent(pydantic_ai_model(), name="soap_w", instructions=WORKSHOP)

    @soap_w.tool_plain
    def enrol_workshop(
            course: Literal["cold process", "melt and pour", "liquid soap"],
            session_day: Annotated[str, Field(description='The session day as the programme prints it, e.g. "31/01/2026"')],
            makers: Annotated[int, Field(description="How many makers to enrol")]) -> dict:
        """Enrol makers on a Saturday workshop session (lye handling covered, goggles provided)."""
        try:
            day = parse_day(session_day)
        except ValueError:
            return {"code": 422, "detail": {"field": "session_day", "value": session_day, "msg": "ungültiges Datum"}}
        left = PLACES.get((course, day), 0)
        if left < makers:
            return {"code": 409, "detail": {"msg": f"full: {left} places left", "next": "2026-06-13"}}
        PLACES[(course, day)] = left - makers
        ENROLLED.append(course)
        return {"code": 201, "enrolment": f"LL-{300 + len(ENROLLED)}", "bring": "an apron and a shoebox for the moulds"}

    async def to_workshop(ctx: RunContext, details: str) -> str:
        """Pass the maker's enquiry to the workshop, in their own words."""
        result = await soap_w.run(details, usage=ctx.usage)
        return result.output

    return Agent(pydantic_ai_model(), name="counter", instructions=COUNTER,
                 output_type=ToolOutput(to_workshop, name="to_workshop"))


def seeded():
    return build(iso)


def fixed():
    return build(programme)
