"""Tool specification mismatch, Google ADK (a root agent transferring to sub-agents): a mobile
tyre fitter's booking chat. `front` passes tyre jobs to `bay_3`, who books a fitting with
`fit_tyres`, and wheel work to `wheels_q`. `fit_tyres` documents the tyre size the way it is
moulded on the sidewall, "205/55 R16", and answers with a nested status: a code, a reason word
and the supplier's note (in German: the stock comes from a wholesaler in Cologne).

Seeded: `fit_tyres` reads the size with the pattern of the wholesaler's stock feed, which writes
it without the space ("205/55R16"), so the size written as its own documentation asks comes back
`E_SIZE` and bay_3 says sorry. Fixed: the pattern allows the space.
"""

from __future__ import annotations

import re

from google.adk.agents import LlmAgent
from pydantic import Field
from typing_extensions import Annotated

from .models import adk_model

STOCK = {("205", "55", "16"): ("Michelin Primacy 4 205/55 R16 91V", 112.00)}
VANS = {"2026-03-12 08:30": "van 2 (Priya)"}


def fitter(size_pattern: str):
    def fit_tyres(registration: Annotated[str, Field(description='The car\'s registration, e.g. "AB12 CDE"')],
                  tyre_size: Annotated[str, Field(description='The tyre size as moulded on the sidewall, e.g. "205/55 R16"')],
                  tyres: Annotated[int, Field(description="How many tyres to fit (1 to 4)")],
                  slot: Annotated[str, Field(description='The fitting slot, e.g. "2026-01-31 09:00"')]) -> dict:
        """Book a mobile fitting: the van comes to the customer with the tyres."""
        size = re.fullmatch(size_pattern, tyre_size.strip())
        if size is None:
            return {"status": {"code": 422, "reason": "E_SIZE",
                               "note": f"Reifengröße {tyre_size!r} nicht erkannt (Format 205/55R16)"}}
        found = STOCK.get(size.groups())
        if found is None:
            return {"status": {"code": 404, "reason": "E_STOCK", "note": "nicht am Lager"}}
        van = VANS.get(slot)
        if van is None:
            return {"status": {"code": 409, "reason": "E_SLOT", "note": f"no van free at {slot}"}}
        return {"status": {"code": 200, "reason": "BOOKED"}, "job": {"ref": f"TF-{registration.replace(' ', '')}",
                "van": van, "tyres": f"{tyres} x {found[0]}", "total": f"£{tyres * found[1] + 15:.2f} incl. fitting"}}

    return fit_tyres


def wheel_slots(day: Annotated[str, Field(description='The day, e.g. "2026-01-31"')]) -> list[str]:
    """Free alignment slots at the workshop on a day."""
    return ["09:00", "14:30"]


def build(size_pattern: str) -> LlmAgent:
    bay_3 = LlmAgent(
        name="bay_3", model=adk_model(), description="Books tyre fittings at the customer's door.",
        instruction="You book mobile tyre fittings for Roadside Rubber, Leeds.\n"
                    "Book the fitting with fit_tyres.\n"
                    'If fit_tyres answers E_SIZE, say "Sorry - the booking system would not take that tyre size. '
                    'Could you read it off the sidewall once more?"\n'
                    'If fit_tyres answers E_STOCK or E_SLOT, explain what stopped the booking.\n'
                    "Confirm the fitting with the van and the total.",
        tools=[fitter(size_pattern)])
    wheels_q = LlmAgent(
        name="wheels_q", model=adk_model(), description="Books wheel alignment at the workshop.",
        instruction="You book wheel alignment.\nLook the free slots up with wheel_slots.",
        tools=[wheel_slots])
    return LlmAgent(
        name="front", model=adk_model(), description="Roadside Rubber's booking chat.",
        instruction="You read messages to Roadside Rubber, mobile tyre fitting.\n"
                    "Requests about tyres, punctures or fitting are transferred to bay_3.\n"
                    "Requests about tracking, alignment or steering pull are transferred to wheels_q.",
        sub_agents=[bay_3, wheels_q])


def seeded():
    return build(r"(\d{3})/(\d{2})R(\d{2})")


def fixed():
    return build(r"(\d{3})/(\d{2})\s?R(\d{2})")
