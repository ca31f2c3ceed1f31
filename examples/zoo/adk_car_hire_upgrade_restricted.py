"""Restricted tool access, Google ADK (a `SequentialAgent` whose second step is a `ParallelAgent`
of two desks working from the counter's note, kept in the session state by `output_key`; an
`after_tool_callback` stamping the fleet's answers with the branch): a car hire branch at an
airport. `counter_c` takes the customer's message and writes the rental note; then `fleet_f`
(who alone may change a booking's car group, with `upgrade_car`, since it knows which cars are
on the lot) and `cover_i` (who quotes excess cover with `quote_cover`) work from it side by side.

Seeded: counter_c's lines still carry the step from before the fleet desk existed: "Upgrade the
car with upgrade_car", fleet_f's tool. Fixed: the counter writes the note and leaves the upgrade
to the fleet desk.
"""

from __future__ import annotations

from typing import Annotated, Literal

from google.adk.agents import LlmAgent, ParallelAgent, SequentialAgent
from pydantic import Field

from .models import adk_model

LOT = {"compact": 9, "estate": 4, "SUV": 0, "van": 3}  # cars of each group on the lot that week
CHANGES: dict[str, str] = {}


def upgrade_car(booking_ref: Annotated[str, Field(description='The rental booking reference, like "CH-55120"')],
                car_group: Annotated[Literal["compact", "estate", "SUV", "van"],
                                     Field(description="The car group the customer moves to")]) -> dict:
    """Move a rental booking to another car group, if a car of that group is on the lot."""
    if LOT.get(car_group, 0) < 1:
        return {"status": "refused", "reason": f"no {car_group} on the lot that week"}
    CHANGES[booking_ref] = car_group  # one car per booking: a booking moved again keeps its car
    return {"status": "changed", "booking_ref": booking_ref, "car_group": car_group, "extra": "12.00 GBP a day"}


def quote_cover(days: Annotated[int, Field(description="How many days the rental lasts")]) -> dict:
    """Quote the excess-reduction cover for a rental of so many days."""
    return {"cover": "excess to zero", "price": f"{9.5 * days:.2f} GBP", "days": days}


def stamp_branch(tool, args, tool_context, tool_response):
    """The fleet's answers carry the branch that made them (the lot is per branch)."""
    if isinstance(tool_response, dict):
        return {**tool_response, "branch": "Bristol Airport"}
    return None


COUNTER = {
    "seeded": ("You are counter_c at the Severn Car Hire desk, Bristol Airport.\n"
               "Upgrade the car with upgrade_car.\n"
               "Write the rental note with booking reference, pick-up date, car group asked for and days."),
    "fixed": ("You are counter_c at the Severn Car Hire desk, Bristol Airport.\n"
              "Write the rental note with booking reference, pick-up date, car group asked for and days."),
}

FLEET = """You are fleet_f, the fleet desk of Severn Car Hire, Bristol Airport.
Rental note from the counter:
{note}
Upgrade the car with upgrade_car.
If upgrade_car answers refused, say "The upgrade was refused by the fleet system: no car of that group is on the lot."
Report what upgrade_car answered.
"""

COVER = """You are cover_i, the cover desk of Severn Car Hire, Bristol Airport.
Rental note from the counter:
{note}
Quote the cover with quote_cover.
Report what quote_cover answered.
"""


def build(version: str) -> SequentialAgent:
    counter_c = LlmAgent(name="counter_c", model=adk_model(), output_key="note",
                         description="Takes the customer's message at the counter.", instruction=COUNTER[version])
    fleet_f = LlmAgent(name="fleet_f", model=adk_model(), description="Changes a booking's car group.",
                       instruction=FLEET, tools=[upgrade_car], after_tool_callback=stamp_branch)
    cover_i = LlmAgent(name="cover_i", model=adk_model(), description="Quotes excess cover.",
                       instruction=COVER, tools=[quote_cover])
    desks = ParallelAgent(name="desks", sub_agents=[fleet_f, cover_i])
    return SequentialAgent(name="severn_car_hire", sub_agents=[counter_c, desks])


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")
