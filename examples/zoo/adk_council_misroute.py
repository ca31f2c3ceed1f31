"""Misrouted request, Google ADK: a borough council's web chat. Wick reads each message and
transfers it (ADK's LLM-driven `transfer_to_agent`) to Ash, who renews residents' parking
permits, or to Bryn, who books bulky-waste collections. Neither can do the other's work.

Seeded: Wick's routing lines have the two names the wrong way round, so a permit renewal goes to
Bryn, whose only tool books a collection; Bryn asks for a collection reference the resident
never had. Fixed: the names are the right way round.
"""

from typing import Annotated

from google.adk.agents import LlmAgent
from pydantic import Field

from .models import adk_model


def renew_permit(permit: Annotated[str, Field(description='The permit number, like "PRM-10001"')]) -> dict:
    """Renew a resident's parking permit for twelve months."""
    return {"permit": permit, "valid_until": "2026-06-30", "charge": "GBP 85.00"}


def book_collection(request: Annotated[str, Field(description='The collection request, like "BLK-1001"')]) -> dict:
    """Book a bulky-waste collection (furniture, white goods) for a request already paid for."""
    return {"request": request, "collection_day": "2025-06-11"}


def build(permits: str, waste: str) -> LlmAgent:
    ash = LlmAgent(name="ash", model=adk_model(), description="Parking permits.",
                   instruction="Call renew_permit. If renew_permit raises an error, say \"The permit "
                               "system is down; please try again in an hour.\" Report the result of renew_permit.",
                   tools=[renew_permit])
    bryn = LlmAgent(name="bryn", model=adk_model(), description="Bulky-waste collections.",
                    instruction="Call book_collection. If book_collection raises an error, say \"The "
                                "collections diary is down; please try again in an hour.\" Report the "
                                "result of book_collection.",
                    tools=[book_collection])
    return LlmAgent(
        name="wick", model=adk_model(), description="The council's web chat.",
        instruction=(f"You read what residents of Ashby Borough write. Hand off to {permits} when the "
                     f"request mentions permit, parking or visitor. Hand off to {waste} when the request "
                     f"mentions sofa, fridge, mattress or collection."),
        sub_agents=[ash, bryn])


def seeded():
    return build("bryn", "ash")


def fixed():
    return build("ash", "bryn")
