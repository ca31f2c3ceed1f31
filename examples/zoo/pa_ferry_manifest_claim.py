"""Incorrect verification, PydanticAI: the booking desk of a small ferry line, desk2, puts
passengers with a vehicle on a sailing's manifest. The manifest service never raises: it answers
with a record whose nested `result.ok` says whether the vehicle fits the lane it was booked on;
a campervan booked as a car does not.

Seeded: desk2's instructions end on the line the desk used to read out at the booth, whatever the
manifest service answered. Fixed: desk2 reads out the service's record.
"""

from typing import Annotated

from pydantic import Field
from pydantic_ai import Agent

from .models import pydantic_ai_model

# booking ref -> (sailing, vehicle length in metres, lane length in metres)
BOOKINGS = {"fq-7713": ("07:40 oban - craignure", 6.1, 5.0), "fq-7702": ("07:40 oban - craignure", 4.4, 5.0)}
FARES = {"car": "£64.50", "car + trailer": "£97.00", "foot passenger": "£4.10"}


def fare_table(vehicle: Annotated[str, Field(description='The kind of vehicle, like "car"')]) -> str:
    """The single fare for a vehicle on the Oban - Craignure crossing."""
    return FARES.get(vehicle, "no fixed fare: ask the purser")


def add_to_manifest(booking: Annotated[str, Field(description='The booking ref, like "fq-0000"')]) -> dict:
    """Put a vehicle booking on its sailing's manifest."""
    if booking not in BOOKINGS:
        return {"booking": booking, "result": {"ok": False, "lane": None}}
    sailing, length, lane = BOOKINGS[booking]
    return {"booking": booking, "sailing": sailing,
            "result": {"ok": length <= lane, "lane": f"{lane} m", "vehicle": f"{length} m"}}


def cabin_list(sailing: Annotated[str, Field(description='The departure time, like "09:15"')]) -> list[str]:
    """Cabins still free on a sailing (overnight sailings only)."""
    return []


BOOTH_LINE = ('Call add_to_manifest. Say "you are on the manifest: drive up to lane 3 by 07:10 with the '
              'booking ref ready, and enjoy the crossing"')
READ_BACK = ("Call add_to_manifest. If add_to_manifest raises an error, say \"The manifest service is not "
             "answering; ring the pier office on 01631 562 000 before you drive up.\" Report the result of "
             "add_to_manifest.")


def build(closing: str) -> Agent:
    desk2 = Agent(pydantic_ai_model(), name="desk2",
                  instructions="you work the booking desk of the Sound of Mull ferry. Fares come from "
                               "fare_table and cabins from cabin_list. " + closing)
    for tool in (fare_table, add_to_manifest, cabin_list):
        desk2.tool_plain(tool)
    return desk2


def seeded():
    return build(BOOTH_LINE)


def fixed():
    return build(READ_BACK)
