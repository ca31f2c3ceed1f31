"""Information loss, Agents SDK: a vets' practice books its home-visit van in two runs of the
Agents SDK, one after the other. rota_a reads the owner's message and notes what the visit is
for; van2 books the van. The owner says in passing when they can be in; van2 needs that time.

Seeded: the second run is given rota_a's note alone (`final_output`), the way the practice's
first version passed text between its agents: the time never reaches van2, who has to ask for it.
Fixed: the second run carries the whole first run on (`to_input_list()`), note included.
"""

from typing import Annotated

from agents import Agent, Runner, function_tool

from .models import model_string

OPEN_SLOTS = {"09:30", "16:45", "17:30"}  # today's free starts


@function_tool
def vaccine_stock(vaccine: Annotated[str, 'The vaccine, like "lepto"']) -> str:
    """Doses of a vaccine the van carries today."""
    return f"{vaccine}: 6 doses on the van"


@function_tool
def book_van_slot(start: Annotated[str, 'When the owner is in, like "09:30"']) -> dict:
    """Book the home-visit van for today at a time the owner is in."""
    if start not in OPEN_SLOTS:
        return {"start": start, "state": "taken", "next_free": sorted(OPEN_SLOTS)}
    return {"start": start, "state": "held", "van": "van 2, Dr Okafor"}


@function_tool
def travel_fee(distance_km: Annotated[float, "Road distance from the surgery in km"]) -> str:
    """The call-out fee for a home visit."""
    return f"£{18 + 1.2 * distance_km:.2f}"


rota_a = Agent(name="rota_a", model=model_string(),
               instructions="you read messages to Leith Walk Vets and note what a visit is for, for the van. "
                            "Say \"Booster due for a spaniel; the owners want the home-visit van.\"")
van2 = Agent(name="van2", model=model_string(), tools=[vaccine_stock, book_van_slot, travel_fee],
             instructions="you book the home-visit van. If book_van_slot raises an error, say \"The van "
                          "diary is down; the surgery will ring you back to fix a time.\" Call book_van_slot. "
                          "Report the result of book_van_slot.")


async def seeded(message: str) -> str:
    note = await Runner.run(rota_a, message)
    visit = await Runner.run(van2, note.final_output)
    return visit.final_output


async def fixed(message: str) -> str:
    note = await Runner.run(rota_a, message)
    visit = await Runner.run(van2, note.to_input_list())
    return visit.final_output
