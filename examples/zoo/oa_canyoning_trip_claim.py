"""Incorrect verification, OpenAI Agents SDK (the guides' agent offered to the front desk with
`Agent.as_tool(..., custom_output_extractor=...)`, the extractor handing back the guide's last
message rather than the whole run): a canyoning centre's trip bookings. `desk_c` answers
customers and asks the guides with `ask_guides`; `guide_g` holds places on a gorge trip with
`hold_gorge`, which refuses a day the river is in spate.

Seeded: guide_g's closing line dates from the summer the gorge never closed: once hold_gorge has
answered, whatever it said, the guide tells the customer to pack for the trip, and the desk
passes that on after `{"status": 409, "detail": "river in spate: ..."}`.
Fixed: the guide says the day is off when hold_gorge answers 409.
"""

from __future__ import annotations

from agents import Agent, RunResult, function_tool

from .models import model_string

SPATE = {"2026-07-04"}


@function_tool
def hold_gorge(day: str, people: int) -> dict:
    """Hold places on the half-day gorge trip (wetsuits, helmets and a guide included).

    Args:
        day: The trip day, e.g. "2026-01-31".
        people: How many people go down the gorge.
    """
    if day in SPATE:
        return {"status": 409, "detail": f"river in spate: gorge closed on {day}, no trips run"}
    return {"status": 201, "trip": {"day": day, "meet": "09:00 at the gorge car park", "places": people,
                                    "ref": f"CG-{day[5:7]}{day[8:]}{people}"}}


async def last_words(result: RunResult) -> str:
    """The guide's own last message, which is what the desk needs to pass on."""
    return str(result.final_output)


GUIDE_CLOSING = {
    "seeded": 'Once hold_gorge has answered, say "Pack your wellies and a towel - we will see you at the gorge car park at nine!"',
    "fixed": ('If hold_gorge answers 409, tell the customer what it said.\n'
              'If hold_gorge answers 201, say "Pack your wellies and a towel - we will see you at the gorge car park at nine!"'),
}


def build(version: str) -> Agent:
    guide_g = Agent(
        name="guide_g", model=model_string(), tools=[hold_gorge],
        instructions="You are guide_g, the duty guide at Afon Ddu Canyoning.\n"
                     "Hold the trip with hold_gorge.\n"
                     'If hold_gorge raises an error, say "Our booking sheet is not answering, so I cannot hold the places yet."\n'
                     f"{GUIDE_CLOSING[version]}")
    ask_guides = guide_g.as_tool(tool_name="ask_guides",
                                 tool_description="Ask the duty guide to hold places on a gorge trip.",
                                 custom_output_extractor=last_words)
    return Agent(
        name="desk_c", model=model_string(), tools=[ask_guides],
        instructions="You are desk_c, the front desk at Afon Ddu Canyoning in Snowdonia.\n"
                     "Ask the guides with ask_guides.\n"
                     "Once ask_guides has answered, tell the customer what it said.")


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
