"""Incorrect verification, OpenAI Agents SDK (`Agent.as_tool` with a `custom_output_extractor`
that hands back only the tanker desk's closing message): a rural drainage firm's septic tank
emptying line. `office_o` answers the customer and runs `tanker_t` as a tool, `ask_tanker`;
tanker_t books the emptying with `book_emptying`, which puts a request on the waiting list when
the tanker's round for that postcode is already full that day.

Seeded: tanker_t's closing line dates from when the firm ran two tankers and never turned a day
down: it says "Your tank emptying is booked" once book_emptying has answered, whatever it
answered, so a waitlisted request reaches the customer as booked.
Fixed: tanker_t answers a waitlisted request with its place and the reason.
"""

from __future__ import annotations

from agents import Agent, function_tool

from .models import model_string

ROUND_FULL = {("NR12", "2026-03-14")}  # the Saturday round north of Norwich is full
BOOKED: list[str] = []


@function_tool
def book_emptying(tank_ref: str, postcode: str, empty_day: str) -> dict:
    """Book the tanker to empty a customer's septic tank on a given day.

    Args:
        tank_ref: The customer's tank reference from their last invoice, like "ST-1000".
        postcode: The property's postcode, like "NR12 8QT".
        empty_day: The day the customer wants it emptied, like "2026-01-31".
    """
    if (postcode.split()[0].upper(), empty_day) in ROUND_FULL:
        return {"status": "waitlisted", "place": 3, "day": empty_day,
                "reason": f"the {postcode.split()[0].upper()} round is full that day"}
    BOOKED.append(tank_ref)
    return {"status": "booked", "job": f"TK-{5100 + len(BOOKED)}", "day": empty_day, "window": "08:00-12:00"}


async def closing_message(result) -> str:
    """The tanker desk's last message, which is all the office passes on."""
    return str(result.final_output)


CLOSING = {
    "seeded": 'Say "Your tank emptying is booked for {day}; the driver rings an hour before."',
    "fixed": 'If book_emptying says waitlisted, say "That day is full, so you are waitlisted (place {place}): {reason}."\n'
             "Report the result of book_emptying.",
}


def build(version: str) -> Agent:
    tanker_t = Agent(name="tanker_t", model=model_string(), tools=[book_emptying],
                     instructions="You are tanker_t, who runs the tanker diary at Marsh Lane Drainage.\n"
                                  "Book the emptying with book_emptying.\n"
                                  'If book_emptying fails, say "The tanker diary is not answering; nothing is booked yet."\n'
                                  + CLOSING[version])
    ask_tanker = tanker_t.as_tool(tool_name="ask_tanker",
                                  tool_description="Ask the tanker desk to book a septic tank emptying.",
                                  custom_output_extractor=closing_message)
    return Agent(name="office_o", model=model_string(), tools=[ask_tanker],
                 instructions="You are office_o at Marsh Lane Drainage, answering customers about septic tanks.\n"
                              "Pass the ref, postcode and date to ask_tanker.\n"
                              'If ask_tanker fails, say "The tanker desk is not answering; we will ring you back today."\n'
                              "Report the result of ask_tanker.")


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
