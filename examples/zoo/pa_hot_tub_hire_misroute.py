"""Misrouted request, PydanticAI (agent delegation through tools, a typed `output_type` checked by
an `output_validator` that raises `ModelRetry`): a hot tub hire firm's web chat. `concierge`
passes each message to one of two agents through its tools: `ask_fleet` runs `fleet`, who books
hires, deliveries and collections with `book_tub`; `ask_care` runs `care`, who answers water
care and repair questions with `care_note`. The concierge answers with a typed `ChatAnswer`.

Seeded: the concierge's routing lines were written when the chat only took delivery slots for
hires booked by phone: `ask_fleet` covers "deliveries and collections" and `ask_care` takes
"anything else", so a new hire goes to care, who cannot book one, and fleet never hears of it.
Fixed: `ask_fleet` covers hires and bookings too.
"""

from typing import Annotated, Literal

from pydantic import BaseModel, Field
from pydantic_ai import Agent, ModelRetry, RunContext

from .models import pydantic_ai_model

FLEET = {"six-seater": ["Tub 3", "Tub 5"], "four-seater": ["Tub 1"]}
HIRES: list[tuple] = []


class ChatAnswer(BaseModel):
    handled_by: str
    status: str
    reference: str | None = None


def book_tub(size: Annotated[Literal["four-seater", "six-seater"], Field(description="Which tub")],
             delivery_day: Annotated[str, Field(description='The day we deliver, e.g. "2026-01-31"')],
             postcode: Annotated[str, Field(description='Where it goes, e.g. "BS1 4DJ"')]) -> dict:
    """Book a hot tub hire, delivered and filled on the day, collected a week later."""
    free = [t for t in FLEET[size] if (t, delivery_day) not in HIRES]
    if not free:
        return {"booking": {"status": "no_tub", "note": f"every {size} is out that week"}}
    HIRES.append((free[0], delivery_day))
    return {"booking": {"status": "confirmed", "reference": f"HT-{610 + len(HIRES)}", "tub": free[0]}}


def care_note(topic: Annotated[str, Field(description="What the customer asks about, in their words")]) -> str:
    """The care team's note on water care, chemicals or a fault."""
    return "Keep chlorine at 3-5 ppm; shock the water after heavy use; a tripped RCD resets at the side panel."


fleet = Agent(pydantic_ai_model(), name="fleet",
              instructions="You book tubs for Bubble & Steam Hot Tub Hire.\n"
                           "Book the hire with book_tub.\n"
                           "If book_tub says no_tub, say \"Sorry, no tub of that size is free that week.\"\n"
                           "Report the booking.")
fleet.tool_plain(book_tub)

care = Agent(pydantic_ai_model(), name="care",
             instructions="You are the water care team of Bubble & Steam Hot Tub Hire.\n"
                          "Look the topic up with care_note.\n"
                          "Pass on what care_note said.")
care.tool_plain(care_note)

SEEDED = ("You answer the web chat of Bubble & Steam Hot Tub Hire.\n"
          "Use ask_fleet for deliveries, collections or drop-off times.\n"
          "Use ask_care for anything else.")
FIXED = ("You answer the web chat of Bubble & Steam Hot Tub Hire.\n"
         "Use ask_fleet for hires, bookings, deliveries, collections or drop-off times.\n"
         "Use ask_care for anything else.")


def build(instructions: str) -> Agent:
    concierge = Agent(pydantic_ai_model(), name="concierge", output_type=ChatAnswer, instructions=instructions)

    @concierge.tool
    async def ask_fleet(ctx: RunContext, message: str) -> str:
        """Pass the customer's message to the fleet desk."""
        return (await fleet.run(message, usage=ctx.usage)).output

    @concierge.tool
    async def ask_care(ctx: RunContext, message: str) -> str:
        """Pass the customer's message to the water care team."""
        return (await care.run(message, usage=ctx.usage)).output

    @concierge.output_validator
    def answered(answer: ChatAnswer) -> ChatAnswer:
        if not answer.status.strip():
            raise ModelRetry("status must say how the request ended")
        return answer

    return concierge


def seeded():
    return build(SEEDED)


def fixed():
    return build(FIXED)
